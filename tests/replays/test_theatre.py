"""The replay theatre's core: the state at any seq is the fold to it (from checkpoints, in
any order of steps), moves and rounds are where the log says, and each move's draws are
named by their labels."""

import random
from pathlib import Path

import pytest

from referee.engine import game, registry
from referee.theatre.stage import ALL, CHECKPOINT_EVERY, PUBLIC, Eyes, Theatre, Unplayable
from replays.log import read

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOGS = {
    "dark-horse-west": CORPUS / "dark-horse-west" / "dark-horse-west-corpus-4p-18-0.jsonl",
    "royal-turf": CORPUS / "royal-turf" / "royal-turf-corpus-hidden-3p-0.jsonl",
    "blackout-middle": CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl",
}


@pytest.mark.parametrize("ruleset", sorted(LOGS))
def test_the_state_at_any_seq_is_the_fold_to_it_in_any_order_of_steps(ruleset):
    events = read(str(LOGS[ruleset]))
    theatre = Theatre(events[0]["game_id"], events)
    seqs = list(range(1, len(events) + 1))
    random.Random(ruleset).shuffle(seqs)
    for seq in seqs[:120] + [len(events), 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1]:
        assert theatre.state_at(seq) == game.fold(events[:seq])
        assert theatre.state_at(seq)["seq"] == seq


def test_steps_one_event_on_and_back_fold_from_the_last_state_and_change_none_handed_out():
    events = read(str(LOGS["dark-horse-west"]))
    theatre = Theatre(events[0]["game_id"], events)
    walk = list(range(CHECKPOINT_EVERY - 3, 2 * CHECKPOINT_EVERY + 5))
    handed = [(seq, theatre.state_at(seq)) for seq in walk + walk[::-1]]
    for seq, state in handed:  # checked once all were folded
        assert state == game.fold(events[:seq]) and state["seq"] == seq


def test_moves_start_where_a_command_is_recorded_and_steps_go_between_them():
    events = read(str(LOGS["royal-turf"]))
    theatre = Theatre(events[0]["game_id"], events)
    starts = [e["seq"] for e in events if e["command"] is not None]
    assert theatre.moves == (starts if starts[0] == 1 else [1, *starts])
    middle = starts[5] + 1 if theatre.batch_end(starts[5]) > starts[5] else starts[5]
    assert theatre.next_move(middle) == starts[6]
    assert theatre.previous_move(starts[6]) == starts[5]
    assert theatre.previous_move(1) is None and theatre.next_move(len(events)) is None
    assert theatre.batch_end(starts[5]) == starts[6] - 1


def test_rounds_or_races_are_the_rulesets_own_chapter_events():
    for ruleset, log in LOGS.items():
        events = read(str(log))
        word, kinds = registry.get(ruleset).CHAPTER
        chapters = Theatre(events[0]["game_id"], events).chapters(kinds)
        assert chapters and all(events[s - 1]["type"] in kinds for s in chapters)
        assert word in ("round", "race")
    races = Theatre("x", read(str(LOGS["royal-turf"]))).chapters(("CardsDealt",))
    assert len(races) == 3  # three races


def test_a_move_names_the_draws_it_made_and_the_next_event_of_a_seat_is_its_own():
    events = read(str(LOGS["royal-turf"]))
    theatre = Theatre(events[0]["game_id"], events)
    assert "race-1/deal" in theatre.draws(1)  # the setup's draws: the first race's deal
    assert theatre.draws(2) == theatre.draws(1)  # at any event of the setup
    rolled = next(e["seq"] for e in events if e["type"] == "DieRolled")
    assert theatre.draws(rolled) and all(isinstance(label, str) for label in theatre.draws(rolled))
    placed = next(e["seq"] for e in events if e["type"] == "BetPlaced")
    actor = events[placed - 1]["actor"]
    later = theatre.next_of(actor, placed)
    assert later > placed and events[later - 1]["actor"] == actor
    assert all(events[s - 1]["actor"] != actor for s in range(placed + 1, later))


def test_who_looks_is_read_from_the_url_and_a_stranger_sees_the_public():
    assert Eyes.parse("seat-2", 3) == Eyes("seat-2", 2)
    assert Eyes.parse(ALL, 3).viewer == "moderator"
    for text in (None, "", "seat-3", "seat-x", "moderator", "seat-99999999"):
        assert Eyes.parse(text, 3) == Eyes(PUBLIC, None)


def test_a_hidden_event_stays_hidden_from_the_public_until_the_end_then_shows():
    events = read(str(LOGS["royal-turf"]))
    theatre = Theatre(events[0]["game_id"], events)
    sealed = next(e for e in events if e["visibility"] != "public")
    public = Eyes(PUBLIC, None)
    assert theatre.seen(sealed["seq"], public).get("redacted")
    assert not theatre.seen(sealed["seq"], public, at=len(events)).get("redacted")
    assert not theatre.seen(sealed["seq"], Eyes(ALL, "moderator")).get("redacted")


def test_a_log_the_rules_cannot_fold_stops_before_the_bad_event():
    events = read(str(LOGS["royal-turf"]))
    broken = [dict(e) for e in events]
    moved = next(i for i, e in enumerate(broken) if e["type"] == "HorseMoved")
    broken[moved] = {**broken[moved], "payload": {"nonsense": True}}
    theatre = Theatre(broken[0]["game_id"], broken)
    theatre.check_playable()
    assert theatre.playable == moved and isinstance(theatre.broken, Unplayable)
    assert theatre.broken.seq == moved + 1
    assert theatre.state_at(len(broken)) == game.fold(broken[:moved])
