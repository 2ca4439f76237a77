"""Blackout Middle test tables: a hand-worked race, hand-built states and small steps,
shared by the other test_blackout_middle_* files (and checked here)."""

import copy

from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import blackout_middle as bm
from referee.games.blackout_middle.race import race

# Ten rounds of movement values, one list per horse (round 1 first), worked by hand
# (test_blackout_middle_scoring.py uses them too).
MOVES = {
    "A": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    "B": [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    "C": [3, 3, 3, 3, 1, 3, 3, 3, 3, 3],
    "D": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    "E": [2, 2, 2, 2, 2, 2, 3, 1, 1, 1],
    "F": [2, 2, 2, 2, 2, 2, 2, 1, 1, 1],
    "G": [1, 2, 2, 2, 2, 2, 2, 2, 1, 1],
    "H": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    "I": [1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
}
MOVEMENTS = {str(r): {h: values[r - 1] for h, values in MOVES.items()} for r in range(1, 11)}
# Worked by hand: each horse's space at the end of rounds 0-10 (a finished horse stays on
# the first space past 15 it landed on). Finishing: A r5; C r6; E r7; B (17), F, G (16) r8.
SPACES = {
    "A": [1, 4, 7, 10, 13, 16, 16, 16, 16, 16, 16],
    "B": [1, 3, 5, 7, 9, 11, 13, 15, 17, 17, 17],
    "C": [1, 4, 7, 10, 13, 14, 17, 17, 17, 17, 17],
    "D": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    "E": [1, 3, 5, 7, 9, 11, 13, 16, 16, 16, 16],
    "F": [1, 3, 5, 7, 9, 11, 13, 15, 16, 16, 16],
    "G": [1, 2, 4, 6, 8, 10, 12, 14, 16, 16, 16],
    "H": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    "I": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12],
}
FINAL_ORDER = ["A", "C", "E", "B", "F", "G", "I", "D", "H"]
NOTHING = {"ability": None, "spectate": None, "bets": {}}


def table(round_number=0, seats=3, options=None, **changes):
    """A hand-built table taking orders for a round, the horses where MOVES leaves them."""
    state = bm.initial([f"p{s}" for s in range(seats)], {**bm.OPTIONS, **(options or {})})
    state = bm.apply(state, event("MovementsDrawn", {"movements": MOVEMENTS}, to=[]))
    moves = {int(r): m for r, m in MOVEMENTS.items()}
    positions, finished = race(moves, through=max(0, round_number - 1))
    return {**state, "round": round_number, "positions": positions, "finished": finished, **changes}


def version_1(state, *unset):
    """The table of a game created under version 1: no version stamp, and options without
    the keys added since (`unset`), as its GameCreated recorded them."""
    options = {k: v for k, v in state["options"].items() if k not in unset}
    return {**{k: v for k, v in state.items() if k != "version"}, "options": options}


def with_hand(state, seat, letters):
    """The table with a seat holding exactly these cards ("AAB": two A, one B)."""
    hand = {h: letters.count(h) for h in bm.data.HORSES}
    hands = [hand if s == seat else held for s, held in enumerate(state["hands"])]
    return {**state, "hands": hands}


def with_seen(state, seat, round_number, space):
    """The table with a seat having spectated a space in a round and seen its horses."""
    horses = sorted(h for h, spaces in SPACES.items() if spaces[round_number] == space)
    seen = copy.deepcopy(state["seen"])
    seen[seat][str(round_number)] = {"space": space, "horses": horses}
    return {**state, "seen": seen}


def orders(ability=None, spectate=None, bets=None):
    """Orders as check_orders leaves them."""
    return bm.check_orders({}, 0, {"ability": ability, "spectate": spectate, "bets": bets or {}})


def fold(state, events):
    """The state after some events, checking apply leaves its input alone."""
    for ev in events:
        before = copy.deepcopy(state)
        after = bm.apply(state, ev)
        assert state == before
        state = after
    return state


def play(state, by_seat=None, seed="test"):
    """Resolve the open round with these orders (others send nothing): (state, events)."""
    by_seat = by_seat or {}
    submissions = [by_seat.get(s, NOTHING) for s in range(state["seats"])]
    events = bm.resolve(state, submissions, Rng(seed))
    return fold(state, events), events


def of(events, kind, seat=None):
    """The payloads of one event type (for one seat)."""
    return [
        e["payload"]
        for e in events
        if e["type"] == kind and (seat is None or e["payload"].get("seat") == seat)
    ]


def one(events, kind, seat=None):
    """The single payload of one event type (for one seat)."""
    (payload,) = of(events, kind, seat)
    return payload


def nothing(payload):
    """Whether a private result says nothing applied: since version 2 every seat gets its
    AbilityResolved, ChipsWatched and SpaceSeen, kind (or space) None when it had none."""
    return payload.get("kind", payload.get("space")) is None


def delivered(events, kind, seat=None):
    """The payloads of one private result type (for one seat) that delivered something."""
    return [p for p in of(events, kind, seat) if not nothing(p)]


def test_the_hand_worked_spaces_are_the_race():
    moves = {int(r): m for r, m in MOVEMENTS.items()}
    for r in range(11):
        positions, _ = race(moves, through=r)
        assert positions == {h: spaces[r] for h, spaces in SPACES.items()}


def test_a_table_is_stamped_with_the_newest_version_and_version_1_is_not():
    assert table(3)["version"] == bm.VERSION == 2
    players = ["a", "b", "c"]
    newest = bm.initial(players, dict(bm.OPTIONS))
    assert bm.initial(players, dict(bm.OPTIONS), version=1) == version_1(newest)
    assert newest["version"] == 2
    assert "version" not in version_1(table(3), "tied_second_tols")
    assert "tied_second_tols" not in version_1(table(3), "tied_second_tols")["options"]


def test_a_table_starts_its_round_where_the_last_one_ended():
    state = table(6)
    assert state["positions"] == {h: spaces[5] for h, spaces in SPACES.items()}
    assert state["finished"] == ["A"]
    assert with_hand(state, 1, "AAB")["hands"][1] == {**dict.fromkeys("CDEFGHI", 0), "A": 2, "B": 1}
    assert with_seen(state, 0, 5, 11)["seen"][0] == {"5": {"space": 11, "horses": ["B", "E", "F"]}}
