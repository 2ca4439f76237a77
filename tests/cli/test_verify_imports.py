"""`referee replay verify` imports what verifying needs: no web, notification, broker or
store stack, and of the rulesets only the one its log names."""

import json
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOG = CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl"
HEAVY = ("flask", "apprise", "requests", "redis", "celery", "gunicorn", "gevent", "sqlite_utils")
OTHER_RULESETS = ("dark_horse", "royal_turf", "blackout_middle", "dark_horse_west")

# runs the command line as the `referee` script does, then lists what it imported
PROGRAM = """
import json, sys
from referee.cli import main
try:
    main(sys.argv[1:], prog_name="referee")
except SystemExit as end:
    print(json.dumps({"exit": end.code, "modules": sorted(sys.modules)}))
"""


def imported_by(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_replay_verify_imports_no_web_notification_broker_or_store_module():
    found = imported_by("replay", "verify", str(LOG))
    assert found["exit"] == 0
    loaded = {name.split(".")[0] for name in found["modules"]}
    assert loaded & set(HEAVY) == set()
    assert "referee.service" not in found["modules"]


def test_replay_verify_imports_only_the_ruleset_its_log_names():
    modules = imported_by("replay", "verify", str(LOG))["modules"]
    assert "referee.games.galloping_horse" in modules
    assert not [m for m in modules for r in OTHER_RULESETS if m == f"referee.games.{r}"]


def test_the_check_sees_what_the_web_commands_import():
    # `referee serve --help` loads the serving commands, and with them the web server
    found = imported_by("serve", "--help")
    assert found["exit"] == 0
    assert {"gunicorn", "referee.serve.server"} <= set(found["modules"])
