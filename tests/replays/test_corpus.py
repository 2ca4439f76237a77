"""Recorded games replay to the same events: a rules change that alters one fails here
until the ruleset's VERSION is bumped and the corpus re-recorded on purpose."""

from pathlib import Path

import pytest

from replays.verify import verify_file

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOGS = sorted(CORPUS.rglob("*.jsonl"))


def test_the_corpus_covers_every_ruleset_served():
    from referee.engine import registry

    assert {p.parent.name for p in LOGS} == set(registry.names())


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_recorded_game_replays_exactly(log):
    report = verify_file(log)
    assert report.valid, f"seq {report.seq}: {report.reason}"
    abandoned = '"type":"GameAbandoned"' in log.read_text()
    # every finished game has a winner, but a lost Solitaire game
    assert abandoned or report.outcome["winners"] or report.outcome.get("victory") is False
