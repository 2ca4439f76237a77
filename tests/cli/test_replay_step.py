"""`referee replay step` (and `replay show --spectator`) on the recorded corpus logs."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import game
from referee.service import presented
from replays.log import read

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
GALLOPING = CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl"
BLACKOUT = CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl"
EVENT_LINE = re.compile(r"^ *(\d+)  (\S+) +(\S+) +(.*)$")
HIDDEN_LINE = re.compile(r"^ *(\d+)  \[hidden\]$")  # its seq, nothing of what it was


def replay(*args, input=None):
    return CliRunner().invoke(main, ["replay", *map(str, args)], input=input)


def walked(*args, input=None) -> list[tuple]:
    """The events `replay step` printed."""
    done = replay("step", *args, input=input)
    assert done.exit_code == 0, done.output
    return events_in(done.output)


def events_in(output: str) -> list[tuple]:
    """The event lines of an output: (seq, type, actor, payload), a hidden one as
    (seq, None, None, None)."""
    shown: list[tuple] = []
    for line in output.splitlines():
        if hidden := HIDDEN_LINE.match(line):
            shown.append((int(hidden[1]), None, None, None))
        elif event := EVENT_LINE.match(line):
            seq, kind, actor, rest = event.groups()
            shown.append((int(seq), kind, actor, json.loads(rest)))
    return shown


def hidden_in(shown: list[tuple]) -> list[int]:
    """The seqs of the hidden events among those shown."""
    return [seq for seq, kind, _, _ in shown if kind is None]


def views_in(output: str) -> list[dict]:
    """The indented JSON views among the event lines."""
    blocks = re.findall(r"^\{\n.*?^\}$", output, flags=re.DOTALL | re.MULTILINE)
    return [json.loads(block) for block in blocks]


def refused(done, message: str) -> None:
    assert done.exit_code != 0 and message in done.output, done.output
    assert isinstance(done.exception, SystemExit)  # a click error, not a traceback


# --- who sees what ---------------------------------------------------------------------


def test_the_moderator_sees_every_deal_in_full():
    deals = [e for e in walked(GALLOPING, "--to", 7) if e[1] == "RaceCardsDealt"]
    assert [(seq, payload["seat"]) for seq, _, _, payload in deals] == [
        (3, 0),
        (4, 1),
        (5, 2),
        (6, 3),
    ]
    assert all(len(payload["cards"]) == 7 for *_, payload in deals)


def test_a_seat_sees_only_its_own_deal_and_the_end_in_full():
    shown = walked(GALLOPING, "--seat", 1)
    assert [e[0] for e in shown] == list(range(1, 152))
    hidden = hidden_in(shown)
    assert hidden == [3, 5, 6, 75, 77, 78]  # the other seats' hands, in both rounds
    dealt = [e for e in read(GALLOPING) if e["type"] == "RaceCardsDealt"]
    assert [e["seq"] for e in dealt if e["visibility"] != [1]] == hidden
    assert shown[3][3]["seat"] == 1 and shown[3][2] == "referee"
    assert [e[1] for e in shown[-2:]] == ["GameEnded", "SeedRevealed"]
    assert shown[-1][3] == {"seed": "corpus/0"}


def test_a_spectator_sees_every_deal_hidden():
    shown = walked(GALLOPING, "--spectator", "--to", 7)
    assert hidden_in(shown) == [3, 4, 5, 6]
    done = replay("step", GALLOPING, "--spectator", "--from", 3, "--to", 6)
    # a hidden event is its seq alone: not its type, author, audience or time
    assert done.output.splitlines() == [f"{seq:>5}  [hidden]" for seq in range(3, 7)]


def test_the_ending_batch_is_shown_whole_as_it_was_first_streamed():
    events = read(BLACKOUT)
    ending = max(e["seq"] for e in events if e["command"] is not None)
    shown = {seq: (kind, payload) for seq, kind, _, payload in walked(BLACKOUT, "--seat", 1)}
    others = [e["seq"] for e in events if e["visibility"] in ([0], [2], [3])]
    before, after = [s for s in others if s < ending], [s for s in others if s > ending]
    assert before and after  # seat 0's judged orders of every round, the last one too
    assert all(shown[seq] == (None, None) for seq in before)
    assert all(shown[seq] == (events[seq - 1]["type"], events[seq - 1]["payload"]) for seq in after)


# --- bounds and views ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "seqs"),
    [(("--from", 8, "--to", 12), range(8, 13)), (("--from", 150), [150, 151]), ((), range(1, 152))],
)
def test_from_and_to_bound_the_walk(bounds, seqs):
    assert [e[0] for e in walked(GALLOPING, "--seat", 2, *bounds)] == list(seqs)


def test_view_follows_each_event_as_the_api_presented_it():
    done = replay("step", GALLOPING, "--seat", 2, "--from", 3, "--to", 8, "--view")
    assert done.exit_code == 0, done.output
    events, views = read(GALLOPING), views_in(done.output)
    assert [v["version"] for v in views] == list(range(3, 9))
    for view in views:
        state = game.fold(events[: view["version"]])
        assert view == presented("galloping-horse-corpus-0", state, 2)
        assert "hand" in view["state"] and "hands" not in view["state"]


def test_view_of_a_game_in_rounds_carries_the_deadline_as_text():
    done = replay("step", BLACKOUT, "--seat", 0, "--from", 3, "--to", 3, "--view")
    (view,) = views_in(done.output)
    assert view["round"]["open"]["deadline_utc"] == "2000-01-03T00:00:00Z"


# --- interactive -----------------------------------------------------------------------


def test_interactive_moves_next_previous_and_to_a_seq():
    answers = "n\np\np\ng 10\nv\nbogus\ng 99\n\nq\n"
    args = ("--seat", 1, "--from", 3, "--to", 12, "--interactive")
    done = replay("step", GALLOPING, *args, input=answers)
    assert done.exit_code == 0, done.output
    assert [e[0] for e in events_in(done.output)] == [3, 4, 3, 10, 11]
    assert "no seq 2 here: seqs 3-12" in done.output
    assert "no seq 99 here: seqs 3-12" in done.output
    assert "p: previous, g SEQ: go to SEQ" in done.output
    (view,) = views_in(done.output)
    assert view["version"] == 10 and "hand" in view["state"]


def test_interactive_ends_past_the_last_event():
    shown = walked(GALLOPING, "--from", 150, "--interactive", input="\n\n")
    assert [e[0] for e in shown] == [150, 151]


# --- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--to", 152), "the log has 151 events, no seq 152"),
        (("--from", 1000), "no seq 1000"),
        (("--from", 9, "--to", 3), "--from 9 is after --to 3"),
        (("--seat", 4), "no seat 4: --seat takes a seat id, 0-3"),
        (("--seat", -1), "no seat -1"),
        (("--seat", 0, "--spectator"), "give --seat or --spectator, not both"),
    ],
)
def test_bad_arguments_are_click_errors(args, message):
    refused(replay("step", GALLOPING, *args), message)


def test_an_unreadable_log_is_a_click_error(tmp_path):
    first = GALLOPING.read_bytes().splitlines(keepends=True)[0]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(first + b"not json\n")
    refused(replay("step", bad), "line 2 is not valid JSON")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    refused(replay("step", tmp_path / "empty.jsonl"), "holds no events")
    (tmp_path / "odd.jsonl").write_bytes(b'{"seq": 1}\n')
    refused(replay("step", tmp_path / "odd.jsonl"), "seq 1 (None) cannot be replayed")


# --- show as a spectator ---------------------------------------------------------------


def test_show_as_a_spectator_is_the_view_without_a_token():
    done = replay("show", GALLOPING, "--at", 7, "--spectator")
    assert done.exit_code == 0, done.output
    shown = json.loads(done.output)
    assert shown == presented("galloping-horse-corpus-0", game.fold(read(GALLOPING)[:7]), None)
    assert "hand" not in shown["state"] and shown["legal"] == []
    refused(replay("show", GALLOPING, "--seat", 1, "--spectator"), "not both")
