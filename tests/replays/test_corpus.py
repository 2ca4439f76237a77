"""Recorded games replay to the same events: a rules change that alters one fails here
until the ruleset's VERSION is bumped and the corpus re-recorded on purpose."""

import json
from pathlib import Path
from typing import Any

import pytest

from replays.verify import verify_file

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOGS = sorted(CORPUS.rglob("*.jsonl"))


def test_the_corpus_covers_every_ruleset_served():
    from referee.engine import registry

    assert {p.parent.name for p in LOGS} == set(registry.names())


def recorded_version(log: Path) -> tuple[str, Any]:
    """The ruleset and version a log's GameCreated names."""
    created = json.loads(log.read_text().split("\n", 1)[0])["payload"]
    return created["ruleset"], created["ruleset_version"]


def test_every_kept_version_of_every_ruleset_has_logs_in_the_corpus():
    """Last month's matches stay auditable: each version a ruleset keeps is proved by
    recorded games (a version nobody recorded could drift unseen)."""
    from referee.engine import game, registry

    recorded = {recorded_version(log) for log in LOGS}
    for name in registry.names():
        for version in game.versions(registry.get(name)):
            assert (name, version) in recorded, f"no corpus log of {name} {version}"
        assert {v for n, v in recorded if n == name} <= set(game.versions(registry.get(name)))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_recorded_game_replays_exactly(log):
    report = verify_file(log)
    assert report.status == "valid", f"seq {report.seq}: {report.reason} ({report.checks})"
    assert report.ruleset_version == recorded_version(log)[1]
    abandoned = '"type":"GameAbandoned"' in log.read_text()
    # every finished game has a winner, but a lost Solitaire game
    assert abandoned or report.outcome["winners"] or report.outcome.get("victory") is False
