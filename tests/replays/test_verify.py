"""Verify names the first bad seq, for every kind of damage; accepts undamaged logs."""

import copy
import json
from pathlib import Path

import pytest
from chained import rechain

from referee.bots import play
from referee.engine.chain import GENESIS, event_hash
from referee.runtime.recent import Recent
from referee.service import Referee
from referee.store import LogicalClock, open_store
from replays import verify
from replays.log import dumps, read
from replays.verify import report_of, verify_bytes, verify_events

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished galloping-horse log from the real store."""
    store = open_store(tmp_path_factory.mktemp("v") / "r.db", clock=LogicalClock())
    game_id = play(Referee(store), "galloping-horse", list("abcd"), seed="verify-me")
    return store.events(game_id)


def first(events, kind):
    return next(e for e in events if e["type"] == kind)


def test_an_undamaged_log_is_valid_with_its_outcome(finished):
    report = verify_bytes(dumps(finished))
    assert report.valid and report.events == len(finished)
    assert report.outcome == finished[-2]["payload"]["outcome"]


def test_every_flipped_byte_names_its_line(finished):
    data = dumps(finished)
    starts = [0]
    for line in data.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for pos in range(0, len(data), 211):
        damaged = bytearray(data)
        damaged[pos] ^= 0x01
        report = verify_bytes(bytes(damaged))
        line = next(i for i, s in enumerate(starts) if s > pos)
        assert (report.valid, report.seq) == (False, line), (pos, report.reason)


def test_a_changed_payload_with_a_recomputed_chain_is_caught_by_rederivation(finished):
    events = copy.deepcopy(finished)
    moved = first(events, "HorseMoved")
    moved["payload"]["to"] += 1
    report = verify_events(rechain(events))
    assert (report.valid, report.seq) == (False, moved["seq"])
    assert "payload" in report.reason


def test_a_random_outcome_that_does_not_follow_from_the_seed(finished):
    events = copy.deepcopy(finished)
    a, b = [e for e in events if e["type"] == "RaceCardsDealt"][:2]
    a["payload"]["cards"], b["payload"]["cards"] = b["payload"]["cards"], a["payload"]["cards"]
    report = verify_events(rechain(events))
    assert (report.valid, report.seq) == (False, a["seq"])


def test_a_deleted_event(finished):
    events = copy.deepcopy(finished)
    del events[20]
    report = verify_events(events)
    assert (report.valid, report.seq) == (False, 21)


def test_two_swapped_events(finished):
    events = copy.deepcopy(finished)
    events[30], events[31] = events[31], events[30]
    assert (verify_events(events).seq) == 31


def test_an_event_appended_by_hand_without_the_chain(finished):
    events = copy.deepcopy(finished)
    extra = {**events[-1], "seq": len(events) + 1, "prev_hash": GENESIS}
    extra["hash"] = event_hash(extra)
    report = verify_events([*events, extra])
    assert (report.valid, report.seq) == (False, len(events) + 1)


def test_a_seed_that_does_not_match_its_commitment(finished):
    events = copy.deepcopy(finished)
    events[-1]["payload"]["seed"] = "another seed"
    report = verify_events(rechain(events))
    assert (report.valid, report.seq) == (False, len(events))
    assert "commitment" in report.reason


def test_a_forged_seed_commitment_is_caught_at_the_first_event(finished):
    events = copy.deepcopy(finished)
    events[0]["payload"]["seed_commitment"] = "0" * 64
    report = verify_events(rechain(events))
    assert not report.valid and report.seq == len(events)


def test_an_unfinished_log_checks_state_hashes(finished):
    events = copy.deepcopy(finished[:40])
    assert verify_events(events).valid
    assert "seed not revealed" in verify_events(events).notes[0]
    moved = first(events, "HorseMoved")
    moved["payload"]["to"] += 5
    report = verify_events(rechain(events))
    assert (report.valid, report.seq) == (False, moved["seq"])
    assert "state_hash" in report.reason


def test_a_version_the_code_does_not_have_is_partial_with_chain_and_seed_checked(finished):
    events = copy.deepcopy(finished)
    events[0]["payload"]["ruleset_version"] = "0.0.1"
    report = verify_events(rechain(events))
    assert (report.status, report.seq) == ("partial", None)
    assert "0.0.1" in report.checks["rules"] and "not re-derived" in report.checks["rules"]
    assert report.checks["seed"].startswith("matches")
    assert report.outcome == finished[-2]["payload"]["outcome"]


def test_a_version_the_code_does_not_have_still_fails_its_chain_and_seed(finished):
    events = copy.deepcopy(finished)
    events[0]["payload"]["ruleset_version"] = "0.0.1"
    broken = rechain(events)
    broken[40]["payload"]["to"] = 99
    assert (verify_events(broken).seq, verify_events(broken).code) == (41, "chain/hash")
    events[-1]["payload"]["seed"] = "not the seed"
    report = verify_events(rechain(events))
    assert (report.seq, report.code) == (len(events), "seed/commitment")


def test_a_line_that_is_not_json():
    report = verify_bytes(b"{}\nnot json\n")
    assert (report.valid, report.seq) == (False, 2)


def test_the_log_is_canonical_jsonl(finished):
    for line, event in zip(dumps(finished).splitlines(), finished, strict=True):
        assert json.loads(line) == event


def test_a_number_written_as_a_fraction_is_not_the_same_entry(finished):
    events = copy.deepcopy(finished)
    moved = first(events, "HorseMoved")
    moved["payload"]["to"] = float(moved["payload"]["to"])  # equal in Python, not in the log
    report = verify_events(rechain(events))
    assert (report.valid, report.seq) == (False, moved["seq"])


def test_a_valid_log_is_verified_in_one_pass(finished, monkeypatch):
    passes = []
    taken = verify._verified
    monkeypatch.setattr(
        verify, "_verified", lambda *a, **k: passes.append(k["sealing"]) or taken(*a, **k)
    )
    assert verify_events(copy.deepcopy(finished)).valid
    assert passes == [True]


def damaged_logs(events):
    """The log damaged in the ways a forger or a broken disk would: a field edited with
    the chain left alone and with it recomputed, a hash, a state hash, an event gone."""
    for index in (0, 7, 40, len(events) - 2, len(events) - 1):
        for field, value in (
            ("payload", {"seat": 9}),
            ("state_hash", "0" * 64),
            ("command", {"type": "play_card", "horse": "nowhere"}),
            ("actor", 3),
            ("salt", "00"),
            ("hash", "f" * 64),
            ("recorded_at", "1999-01-01T00:00:00.000000Z"),
        ):
            edited = copy.deepcopy(events)
            edited[index][field] = value
            yield edited
            if field not in ("hash", "recorded_at"):
                yield rechain(edited)
    yield events[:20] + events[21:]
    yield rechain(events[:20] + events[21:])


def test_a_damaged_log_is_reported_as_the_checks_taken_in_turn_report_it(finished):
    for damaged in damaged_logs(finished):
        report = verify_events(damaged)
        assert not report.valid
        step_by_step = verify._verified(copy.deepcopy(damaged), None, sealing=False)
        assert report_of(report) == report_of(step_by_step)


RESUMED_LOGS = [
    "blackout-middle/blackout-middle-corpus-9-0.jsonl",
    "dark-horse-west/dark-horse-west-corpus-v1.1.0-4p-5-0.jsonl",
    "royal-turf/royal-turf-corpus-v1.1.0-4-0.jsonl",
]


@pytest.mark.parametrize("name", RESUMED_LOGS)
def test_a_log_resumed_where_a_verified_one_parts_from_it_is_judged_as_from_its_start(
    name, monkeypatch
):
    """Every damage of a corpus log, verified after the log itself (so its re-derivation
    resumes from the states kept at the log's batches, up to where the damage parts
    from it), gets the very report it gets re-derived from its first event."""
    from replays.tamper import damages

    path = CORPUS / name
    if not path.exists():  # the corpus names a log per ruleset; any one of its version
        path = sorted(path.parent.glob("*.jsonl"))[0]
    log = path.read_bytes()
    damaged = [d.log for d in damages(read(path), sample=2, sealed=1)]
    monkeypatch.setattr(verify, "RESUME_EVERY", 10**9)  # none kept: each from its start
    monkeypatch.setattr(verify, "_RESUMES", Recent(verify.RESUMES_KEPT))
    cold = [report_of(verify_bytes(data)) for data in damaged]
    monkeypatch.setattr(verify, "RESUME_EVERY", 1)
    assert verify_bytes(log).valid
    resumed = counting(monkeypatch)
    assert [report_of(verify_bytes(data)) for data in damaged] == cold
    assert resumed["from"], "no re-derivation resumed"
    assert verify_bytes(log).valid  # and the log itself, resumed at its last batch


def counting(monkeypatch) -> dict:
    """How many re-derivations resume from a kept state (`from`: where each did)."""
    seen: dict = {"from": []}
    original = verify._resumed

    def resumed(events, seed, sealing, at, state):
        found = original(events, seed, sealing, at, state)
        if found[0] != at:
            seen["from"].append(found[0])
        return found

    monkeypatch.setattr(verify, "_resumed", resumed)
    return seen
