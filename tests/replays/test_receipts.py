"""Receipts against a log: a log holds a seat's receipt only if its chain reaches the
receipt's seq with the receipt's hash and commitment; a log cut short before it does not
pass as complete to that seat, on the page or from the terminal."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.service import receipt
from replays.log import read
from replays.receipts import ReceiptError, holds, read_receipts

LOG = (
    Path(__file__).resolve().parents[2]
    / "replays"
    / "corpus"
    / "blackout-middle"
    / "blackout-middle-corpus-4-0.jsonl"
)


def receipts_of(events):
    return [receipt(e) for e in events if e["type"] == "OrdersCommitted"]


def test_the_log_holds_every_receipt_the_referee_gave():
    events = read(str(LOG))
    given = receipts_of(events)
    assert len(given) == 44
    assert all(holds(events, r).held for r in given)


def test_a_log_cut_short_before_a_receipt_does_not_hold_it():
    events = read(str(LOG))
    last = receipts_of(events)[-1]
    held = holds(events[: last["seq"] - 1], last)
    assert not held.held and "cut short" in held.reason


def test_another_log_or_a_changed_receipt_is_not_held():
    events = read(str(LOG))
    one = receipts_of(events)[3]
    assert "another chain hash" in holds(events, {**one, "hash": "0" * 64}).reason
    assert "another commitment" in holds(events, {**one, "commitment": "f" * 64}).reason
    assert "round" in holds(events, {**one, "round": one["round"] + 1}).reason
    rewritten = [dict(e) for e in events]
    rewritten[1] = {**rewritten[1], "recorded_at": "2000-01-01T00:00:00.000009Z"}
    assert "chain is broken at seq 2" in holds(rewritten, one).reason


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("not json", "JSON"),
        ("[]", "no receipt"),
        ('{"commitment": "a", "hash": "b"}', "seq"),
        ('{"seq": 0, "commitment": "a", "hash": "b"}', "seq"),
        ('{"seq": 3, "hash": "b"}', "commitment"),
        ('{"seq": 3, "commitment": 5, "hash": "b"}', "commitment"),
        ("[1]", "object"),
    ],
)
def test_text_that_is_not_a_receipt_is_refused_naming_the_field(text, field):
    with pytest.raises(ReceiptError, match=field):
        read_receipts(text)


def test_replay_verify_with_receipts_fails_a_log_cut_before_one(tmp_path):
    events = read(str(LOG))
    given = receipts_of(events)
    (tmp_path / "mine.json").write_text(json.dumps(given[-3:]))
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(LOG.read_bytes().splitlines(keepends=True)[: given[-1]["seq"] - 1]))
    referee = str(Path(sys.executable).parent / "referee")
    whole = subprocess.run(
        [referee, "replay", "verify", str(LOG), "--receipt", str(tmp_path / "mine.json")],
        capture_output=True,
        text=True,
    )
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert whole.stdout.count("held    ") == 3
    short = subprocess.run(
        [referee, "replay", "verify", str(cut), "--receipt", str(tmp_path / "mine.json")],
        capture_output=True,
        text=True,
    )
    assert short.returncode == 1
    assert f"NOT HELD {cut}: receipt seq {given[-1]['seq']}" in short.stdout
    assert "cut short" in short.stdout
    (tmp_path / "bad.json").write_text('{"seq": 1}')
    bad = subprocess.run(
        [referee, "replay", "verify", str(LOG), "--receipt", str(tmp_path / "bad.json")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1 and "commitment: missing" in bad.stderr
