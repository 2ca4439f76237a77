"""Blackout Middle: "It is not made public which abilities or cards players use", and
"card trades and purchases are private". What others can see of a private event is that
it happened (the engine shows them a stub), so how many private events a resolution makes,
in which order, of which types and for whom depends only on public facts: the round and
the number of seats. Trades and purchases change nothing public."""

import copy

import pytest
from test_blackout_middle_tables import (
    delivered,
    fold,
    of,
    one,
    orders,
    play,
    table,
    version_1,
    with_hand,
    with_seen,
)

from referee.engine.rng import Rng
from referee.games import blackout_middle as bm

PRIVATE = ("OrdersJudged", "AbilityResolved", "ChipsWatched", "SpaceSeen", "HorsesMoved")


def shape(events):
    """What a seat that is not the event's audience learns of a batch: types and audiences."""
    return [(e["type"], e["visibility"]) for e in events]


def ready(round_number):
    """A table for the round where seat 0 may bet (it saw space 4 or 5 last round) and
    holds two of every card, so that many abilities fit."""
    state = with_hand(table(round_number), 0, "AABBCCDDEEFFGGHHII")
    if round_number < 2:
        return state
    space = {2: 4, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 15, 9: 9, 10: 10}[round_number]
    return with_seen(state, 0, round_number - 1, space)


def choices(state, seat):
    """Orders a seat could send: nothing, every listed one, and abilities that do not apply."""
    listed = [c["orders"] for c in bm.legal(state, seat) if c["type"] == "submit_orders"]
    wrong = [
        orders({"kind": "clue"}),  # incomplete
        orders({"kind": "utility", "use": ["A"] * 9}),  # cards not held
        orders({"kind": "clue", "use": ["Z"]}, spectate=40),  # no horse, off the track
    ]
    return [orders(), *listed, *wrong]


@pytest.mark.parametrize("round_number", range(11))
def test_a_resolution_has_one_shape_whatever_a_seat_chose(round_number):
    state = ready(round_number)
    options = choices(state, 0)
    kinds = {(o["ability"] or {}).get("kind") for o in options}
    assert kinds == {None, "clue", "utility"} and len(options) > 8
    shapes = []
    for given in options:
        _, events = play(state, {0: given, 1: orders(spectate=3)})
        shapes.append(shape(events))
    assert all(s == shapes[0] for s in shapes)
    seats = state["seats"]
    for kind in ("OrdersJudged", "AbilityResolved"):
        assert [(t, v) for t, v in shapes[0] if t == kind] == [(kind, [s]) for s in range(seats)]
    seen = [(t, v) for t, v in shapes[0] if t == "SpaceSeen"]
    assert seen == ([] if round_number == 0 else [("SpaceSeen", [s]) for s in range(seats)])


def test_a_seat_that_used_no_ability_gets_a_result_saying_so():
    state, events = play(table(4), {0: orders({"kind": "clue", "use": ["A"]})})
    results = [e for e in events if e["type"] == "AbilityResolved"]
    assert [e["visibility"] for e in results] == [[0], [1], [2]]
    assert results[1]["payload"] == {
        "round": 4,
        "seat": 1,
        "kind": None,
        "learned": {},
        "gained": {},
        "points": {},
    }
    # what nothing delivered is not kept among what the seat learned
    assert state["learned"][1] == [] and len(state["learned"][0]) == 1
    assert bm.view(state, 1)["you"]["learned"] == []


def test_round_3_watch_or_clue_the_same_events_in_rounds_3_4_and_5():
    watching = orders({"kind": "utility", "select": ["A", "C"]})
    looking = orders({"kind": "clue", "use": ["A"]})
    games = [table(3), table(3)]
    for r in (3, 4, 5, 6):
        plays = [play(games[0], {0: watching} if r == 3 else {}), play(games[1], {0: looking})]
        assert shape(plays[0][1]) == shape(plays[1][1])
        watched = [e for e in plays[0][1] if e["type"] == "ChipsWatched"]
        expected = [[0], [1], [2]] if r in (3, 4, 5) else []
        assert [e["visibility"] for e in watched] == expected
        assert len(delivered(plays[0][1], "ChipsWatched")) == (1 if r in (3, 4, 5) else 0)
        assert delivered(plays[1][1], "ChipsWatched") == []
        games = [plays[0][0], plays[1][0]]
    assert games[0]["learned"][0][0]["learned"] == {"watching": ["A", "C"], "rounds": [3, 4, 5]}


def test_no_space_spectated_is_a_space_seen_of_none_that_changes_nothing():
    state = with_seen(table(4), 1, 3, 10)
    after, events = play(state, {0: orders(spectate=13)})
    assert one(events, "SpaceSeen", 1) == {
        "round": 4,
        "seat": 1,
        "space": None,
        "horses": [],
        "points": 0,
    }
    # seat 1's current space stays what it saw last round; no round-4 record is kept
    assert after["seen"][1] == state["seen"][1] and after["spectator_points"][1] == 0
    assert one(events, "SpaceSeen", 0)["horses"] == ["A", "C"]


def test_a_game_of_version_1_keeps_the_events_it_was_recorded_with():
    state = version_1(table(3), "tied_second_tols", "round10_space_scores")
    _, events = play(state, {0: orders({"kind": "utility", "select": ["A"]}, spectate=5)})
    assert [e["payload"]["seat"] for e in events if e["type"] == "AbilityResolved"] == [0]
    assert [e["payload"]["seat"] for e in events if e["type"] == "ChipsWatched"] == [0]
    assert [e["payload"]["seat"] for e in events if e["type"] == "SpaceSeen"] == [0]


def test_every_private_event_a_resolution_makes_is_listed_here():
    """The private events, each with why its count and order are public facts: one
    OrdersJudged per seat, in seat order, every round; HorsesMoved once a round from Round
    1 (the moderator's); one AbilityResolved per seat every round; one ChipsWatched per
    seat in Rounds 3-5; one SpaceSeen per seat in Rounds 1-10."""
    for r in range(11):
        _, events = play(ready(r), {0: orders(spectate=4)})
        hidden = [e for e in events if e["visibility"] != "public"]
        assert {e["type"] for e in hidden} <= set(PRIVATE)
        counts = {kind: len(of(hidden, kind)) for kind in PRIVATE}
        assert counts == {
            "OrdersJudged": 3,
            "AbilityResolved": 3,
            "ChipsWatched": 3 if r in (3, 4, 5) else 0,
            "SpaceSeen": 3 if r else 0,
            "HorsesMoved": 1 if r else 0,
        }


def test_the_setup_deals_one_event_for_the_moderator_whatever_the_seed():
    state = bm.initial(["a", "b", "c", "d"], dict(bm.OPTIONS))
    for seed in ("one", "two"):
        assert shape(bm.setup(state, Rng(seed))) == [("MovementsDrawn", [])]


# --- trades and purchases: one private event each, nothing public changes ------------------


def public_part(state):
    """Everything public of a table: the spectator's view."""
    return bm.view(state, None)


def acts():
    """Each private act a seat can do while the rounds run, one command at a time."""
    state = {**table(4), "garnets": [6, 6, 6]}
    offered = bm.decide(state, 0, {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}, None)
    with_offer = fold(state, offered)
    number = offered[0]["payload"]["offer"]
    return [
        (state, 0, {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}),
        (state, 2, {"type": "offer_trade", "to": 0, "give": "I", "get": "I"}),
        (with_offer, 1, {"type": "accept_trade", "offer": number}),
        (with_offer, 1, {"type": "decline_trade", "offer": number}),
        (with_offer, 0, {"type": "withdraw_trade", "offer": number}),
        (state, 2, {"type": "buy_card", "horse": "C"}),
    ]


@pytest.mark.parametrize("act", range(6))
def test_a_trade_or_purchase_is_one_private_event_and_changes_nothing_public(act):
    state, seat, command = acts()[act]
    before = copy.deepcopy(state)
    events = bm.decide(state, seat, command, None)
    assert len(events) == 1 and events[0]["visibility"] != "public"
    assert seat in events[0]["visibility"]
    after = fold(state, events)
    assert public_part(after) == public_part(before)
    outsider = ({0, 1, 2} - set(events[0]["visibility"])).pop()
    assert bm.view(after, outsider) == bm.view(before, outsider)


def test_the_recipient_of_an_offer_learns_nothing_of_what_the_offering_seat_did_since():
    """Seat 0 offers its A to seat 1, then seals orders using that A (twin one) or not
    (twin two): seat 1's view, its listed commands and its accept are the same."""
    state = table(4)
    state = fold(
        state, bm.decide(state, 0, {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}, None)
    )
    twins = []
    for given in (orders({"kind": "clue", "use": ["A"]}), orders({"kind": "clue", "use": ["C"]})):
        after, events = play(state, {0: given})
        accepted = bm.decide(after, 1, {"type": "accept_trade", "offer": 10001}, None)
        twins.append((bm.view(after, 1), bm.legal(after, 1), accepted, shape(events)))
    assert twins[0] == twins[1]
    assert twins[0][2][0]["type"] == "TradeAccepted"


def test_a_purchase_does_not_show_in_the_public_scoreboard():
    base = {**table(10, finished=["A", "C", "E", "B", "F", "G"]), "garnets": [6, 6, 6]}
    bought = fold(base, bm.decide(base, 1, {"type": "buy_card", "horse": "D"}, None))
    boards = [one(play(state)[1], "ScoresRevealed") for state in (base, bought)]
    assert boards[0] == boards[1]
    assert "garnets" not in boards[0]["seats"][1]
    ended = [play(state)[0] for state in (base, bought)]
    assert [bm.view(state, None) for state in ended][0] == bm.view(ended[1], None)
    assert [state["garnets"][1] for state in ended] == [6, 4]


def test_a_game_of_version_1_still_names_the_garnets_held_in_its_scoreboard():
    state = {**version_1(table(10), "tied_second_tols", "round10_space_scores")}
    state = {**state, "garnets": [6, 4, 0], "spectator_points": [31, 0, 0]}
    after, events = play(state)
    rows = one(events, "ScoresRevealed")["seats"]
    assert [row["garnets"] for row in rows] == [7, 4, 0]
    assert after["garnets"] == [7, 4, 0]


# --- Round 10's spectated space ------------------------------------------------------------


def test_round_10_space_scores_by_default():
    state, events = play(table(10), {0: orders(spectate=11)})
    assert one(events, "SpaceSeen", 0)["points"] == 2
    assert one(events, "ScoresRevealed")["seats"][0]["spectator_points"] == 2


def test_round_10_space_scores_nothing_by_option_but_is_still_seen():
    state = table(10, options={"round10_space_scores": False}, spectator_points=[4, 0, 0])
    _, events = play(state, {0: orders(spectate=11)})
    assert one(events, "SpaceSeen", 0) == {
        "round": 10,
        "seat": 0,
        "space": 11,
        "horses": ["D", "H"],
        "points": 0,
    }
    assert one(events, "ScoresRevealed")["seats"][0]["spectator_points"] == 4
    assert one(events, "SpectatingAnnounced")["spaces"] == [11, None, None]
    # earlier rounds still score under the option
    state = with_seen(table(9, options={"round10_space_scores": False}), 0, 8, 9)
    assert one(play(state, {0: orders(spectate=10)})[1], "SpaceSeen", 0)["points"] == 3


def test_a_game_created_before_the_option_scores_round_10_as_it_did():
    state = version_1(table(10), "tied_second_tols", "round10_space_scores")
    _, events = play(state, {0: orders(spectate=11)})
    assert one(events, "SpaceSeen", 0)["points"] == 2
