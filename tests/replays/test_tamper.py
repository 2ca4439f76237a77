"""Every damage replays/tamper.py makes of the recorded games is named by verification
at its exact seq with its code, and every undamaged log is valid."""

import functools
import json
from pathlib import Path

import pytest

from replays.log import read
from replays.tamper import KINDS, SEALED_KINDS, damages
from replays.verify import verify_bytes, verify_file

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOGS = sorted(CORPUS.rglob("*.jsonl"))
ONE_PER_RULESET = sorted({log.parent.name: log for log in LOGS}.values())
SAMPLE, SEALED = 8, 2  # a spread of each log, to keep to seconds; bench/tamper.py does more
# the two tests over a log's verdicts (cached per process) run on one xdist worker
ON_ITS_VERDICTS = [
    pytest.param(log, id=log.name, marks=pytest.mark.xdist_group(f"tamper-{log.name}"))
    for log in LOGS
]


@functools.cache
def verdicts(log: Path) -> list[tuple[str, str, tuple, tuple]]:
    """(kind, description, (status, seq, code) expected, the same as reported) per damage;
    the log is verified first, so that each damage's re-derivation resumes where it parts
    from the log (replays/verify.py keeps the states it passed)."""
    assert verify_file(log).valid
    found = []
    for damage in damages(read(log), sample=SAMPLE, sealed=SEALED):
        report = verify_bytes(damage.log)
        expected = ("invalid", damage.expected_seq, damage.expected_code)
        found.append(
            (damage.kind, damage.description, expected, (report.status, report.seq, report.code))
        )
    return found


def possible_kinds(events: list[dict]) -> set[str]:
    """The kinds a log can have: sealed-order ones in a game in rounds that revealed some;
    the seed's once it is revealed; deleting SeedRevealed when it is last."""
    types = {e["type"] for e in events}
    lacking = set()
    if "OrdersRevealed" not in types:
        lacking |= set(SEALED_KINDS)
    if "SeedRevealed" not in types:
        lacking |= {"appended/after-seed", "seed/changed"}
    if events[-1]["type"] != "SeedRevealed":
        lacking.add("deleted/last")
    return set(KINDS) - lacking


def test_the_corpus_has_a_game_in_sealed_rounds():
    assert any("OrdersRevealed" in log.read_text() for log in LOGS)


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_an_undamaged_log_is_valid(log):
    assert verify_file(log).valid


@pytest.mark.parametrize("log", ON_ITS_VERDICTS)
def test_every_damage_is_named_at_its_seq_with_its_code(log):
    missed = [(what, want, got) for _, what, want, got in verdicts(log) if want != got]
    assert not missed, f"{len(missed)} of {len(verdicts(log))} not named exactly: {missed[:5]}"


@pytest.mark.parametrize("log", ON_ITS_VERDICTS)
def test_every_kind_of_damage_is_made(log):
    made = {kind for kind, *_ in verdicts(log)}
    assert made == possible_kinds(read(log))


@pytest.mark.parametrize("log", ONE_PER_RULESET, ids=lambda p: p.name)
def test_a_flipped_field_changes_one_line_which_stays_a_json_event(log):
    lines = log.read_bytes().split(b"\n")
    for damage in damages(read(log), sample=SAMPLE, sealed=SEALED):
        if not damage.kind.startswith("flipped/"):
            continue
        changed = [a for a, b in zip(damage.log.split(b"\n"), lines, strict=True) if a != b]
        assert len(changed) == 1
        assert sorted(json.loads(changed[0])) == sorted(json.loads(lines[damage.expected_seq - 1]))
