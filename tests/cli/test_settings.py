"""Every setting is read before anything starts: `referee serve`, `web` and `worker` given
a bad one exit at once, non-zero, naming it, and start nothing; a node of a shared
PostgreSQL store with an embedded Redis is told so in /readyz
(tests/integration/test_health.py)."""

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.ops.settings import SETTINGS, SettingError, check

REFEREE = Path(sys.executable).parent / "referee"
# a bad value of every setting that does not take any text at all
BAD = {
    "REFEREE_SWEEP_SECONDS": "soon",
    "REFEREE_VISIBILITY_TIMEOUT": "-1",
    "REFEREE_ARMING_SECONDS": "1.5",
    "REFEREE_BOT_RESEND_SECONDS": "a minute",
    "REFEREE_BOT_ITERATIONS": "-3",
    "REFEREE_RATE_LIMITS": "maybe",
    "REFEREE_NOTIFY_ALLOW": "not a network!",
    "REFEREE_UPLOAD_TOTAL_BYTES": "lots",
    "REFEREE_UPLOAD_CLIENT_BYTES": "-1",
    "REFEREE_DISK_FLOOR": "150%",
    "REFEREE_PUBLIC_URL": "ftp://referee.example.org",
    "REFEREE_STREAM_WAKE": "0",
    "REFEREE_STREAMS_PER_CLIENT": "many",
    "REFEREE_PROXIES": "-1",
    "REFEREE_EMBEDDED_BROKER": "perhaps",
    "REFEREE_PORT": "http",
    "REFEREE_CONNECTIONS_PER_CLIENT": "1e9x",
    "REFEREE_BODY_SECONDS": "-2",
    "REFEREE_BODY_RATE": "fast",
}
ANY_TEXT = {"REFEREE_DB", "REFEREE_OPERATOR_KEY", "REFEREE_HOST"}


def test_every_setting_has_a_bad_value_here():
    assert set(BAD) | ANY_TEXT == set(SETTINGS)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_setting_is_named_and_refused(name):
    with pytest.raises(SettingError) as refused:
        check({name: BAD[name]})
    assert refused.value.name == name and str(refused.value).startswith(f"{name}=")


@pytest.mark.parametrize("command", [["serve"], ["web"], ["worker"]])
@pytest.mark.parametrize("name", ["REFEREE_NOTIFY_ALLOW", "REFEREE_PORT", "REFEREE_BODY_RATE"])
def test_each_command_that_starts_a_service_refuses_a_bad_setting_before_it_starts(
    command, name, tmp_path
):
    db = tmp_path / "folder" / "referee.db"
    result = CliRunner().invoke(main, [*command, "--db", str(db)], env={name: BAD[name]})
    assert result.exit_code != 0 and name in result.output, result.output
    assert not (tmp_path / "folder").exists()  # nothing made: no store, no Redis, no lock


def test_a_start_that_would_lie_exits_at_once_naming_the_setting(tmp_path):
    """The finding: `REFEREE_NOTIFY_ALLOW='not a network!' referee serve` said where to open
    it and crash-looped its children while staying up."""
    done = subprocess.run(
        [str(REFEREE), "serve", "--db", str(tmp_path / "referee.db"), "--port", "0"],
        env={"PATH": "/usr/bin:/bin", "REFEREE_NOTIFY_ALLOW": "not a network!"},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "REFEREE_NOTIFY_ALLOW='not a network!'" in said and "open http" not in said
    assert list(tmp_path.iterdir()) == []
