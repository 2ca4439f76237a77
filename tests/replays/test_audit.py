"""The verify panel's checks: each passes on a valid log with what it found, and on a
damaged log the check that names the damage fails at the seq and with the code
`referee replay verify` reports (the tamper corpus's damages are the cases)."""

import itertools
from pathlib import Path

import pytest

from replays.audit import FAILED, PASSED, SKIPPED, audit
from replays.log import LogLineError, parse, read
from replays.tamper import damages
from replays.verify import verify_events

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
KEYS = ["chain", "times", "seed", "seals", "state_hashes", "rules", "outcome"]


@pytest.mark.parametrize(
    "log",
    [
        CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl",
        CORPUS / "royal-turf" / "royal-turf-corpus-hidden-3p-0.jsonl",
        CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl",
    ],
    ids=lambda p: p.stem,
)
def test_every_check_passes_on_a_valid_log_and_says_what_it_found(log):
    checks = audit(read(str(log)))
    assert [c.key for c in checks] == KEYS
    assert all(c.status == PASSED and c.found for c in checks)
    rederived = checks[KEYS.index("rules")]
    assert rederived.draws and all(d["labels"] for d in rederived.draws)


def test_each_damage_fails_the_check_that_names_it_at_the_seq_verify_reports():
    events = read(str(CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl"))
    tried = 0
    for damage in itertools.islice(damages(events), 0, None, 5):
        try:
            damaged = parse(damage.log)
        except LogLineError:
            continue  # not JSON: the page says so before any check runs
        report = verify_events(damaged)
        failed = [c for c in audit(damaged) if c.status == FAILED]
        assert (report.seq, report.code) == (damage.expected_seq, damage.expected_code)
        assert any((c.seq, c.code) == (report.seq, report.code) for c in failed), damage.kind
        tried += 1
    assert tried > 40


def test_a_game_still_being_played_skips_what_needs_the_seed():
    events = read(str(CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl"))
    unfinished = events[:40]
    checks = {c.key: c for c in audit(unfinished)}
    assert checks["chain"].status == checks["state_hashes"].status == PASSED
    assert checks["seed"].status == checks["rules"].status == checks["outcome"].status == SKIPPED
    assert "not revealed" in checks["seed"].found and "not ended" in checks["outcome"].found
