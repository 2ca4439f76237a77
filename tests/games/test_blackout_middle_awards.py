"""Blackout Middle: trades and purchases (private), the final scoreboard, the Tokens of
Life with the sole winner's choice, and the Elimination Candidate with the moderator's
vote and the seed's tie-break."""

import pytest
from test_blackout_middle_tables import (
    fold,
    of,
    one,
    orders,
    play,
    table,
    version_1,
    with_hand,
)

from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.rng import Rng
from referee.games import blackout_middle as bm

RNG = Rng("awards")


def do(state, seat, command, rng=RNG):
    """Decide and apply one command: (state after, events)."""
    events = bm.decide(state, seat, command, rng)
    return fold(state, events), events


def offer(state, giver, taker, give, get):
    return do(state, giver, {"type": "offer_trade", "to": taker, "give": give, "get": get})


def refused(state, seat, command, error=RuleViolation):
    with pytest.raises(error) as caught:
        bm.decide(state, seat, command, RNG)
    return caught.value.code


# --- trades --------------------------------------------------------------------------------


def test_an_offer_is_seen_by_the_two_seats_only_and_numbered_per_pair():
    state, events = offer(table(0), 0, 1, "A", "B")
    assert events == [
        {
            "type": "TradeOffered",
            "payload": {"offer": 10001, "from": 0, "to": 1, "give": "A", "get": "B"},
            "visibility": [0, 1],
        }
    ]
    state, events = offer(state, 0, 1, "C", "D")
    assert events[0]["payload"]["offer"] == 20001
    state, events = offer(state, 2, 0, "E", "F")
    assert events[0]["payload"]["offer"] == 10200
    assert state["hands"][0]["A"] == 1  # nothing changes hands until accepted


def test_accepting_swaps_the_cards_at_once():
    state, _ = offer(table(3), 0, 1, "A", "B")
    state, events = do(state, 1, {"type": "accept_trade", "offer": 10001})
    assert [(e["type"], e["visibility"]) for e in events] == [("TradeAccepted", [0, 1])]
    assert (state["hands"][0]["A"], state["hands"][0]["B"]) == (0, 2)
    assert (state["hands"][1]["A"], state["hands"][1]["B"]) == (2, 0)
    assert bm.view(state, 0)["you"]["open_offers"] == []
    assert bm.view(state, 0)["you"]["trades"][0]["status"] == "accepted"
    assert refused(state, 1, {"type": "accept_trade", "offer": 10001}) == "rule/no_such_offer"


def test_declining_and_withdrawing():
    state, _ = offer(with_hand(table(3), 0, "AABCDEFGHI"), 0, 1, "A", "B")
    state, _ = offer(state, 0, 2, "A", "C")
    assert refused(state, 0, {"type": "accept_trade", "offer": 10001}) == "rule/no_such_offer"
    assert refused(state, 1, {"type": "withdraw_trade", "offer": 10001}) == "rule/no_such_offer"
    assert refused(state, 2, {"type": "decline_trade", "offer": 10001}) == "rule/no_such_offer"
    state, events = do(state, 1, {"type": "decline_trade", "offer": 10001})
    assert events[0]["type"] == "TradeDeclined" and events[0]["visibility"] == [0, 1]
    state, events = do(state, 0, {"type": "withdraw_trade", "offer": 10002})
    assert events[0]["type"] == "TradeWithdrawn" and events[0]["visibility"] == [0, 2]
    assert [o["status"] for o in state["offers"]] == ["declined", "withdrawn"]
    assert state["hands"][0] == {**dict.fromkeys("ABCDEFGHI", 1), "A": 2}
    assert bm.view(state, 0)["you"]["on_offer"] == {}


def test_a_card_offered_is_held_for_the_offer_while_it_is_open():
    state, _ = offer(table(3), 0, 1, "A", "B")
    assert bm.view(state, 0)["you"]["on_offer"] == {"A": 1}
    # no other offer may give it ...
    command = {"type": "offer_trade", "to": 2, "give": "A", "get": "C"}
    assert refused(state, 0, command) == "rule/card_on_offer"
    # ... nor accept an offer that takes it
    state, _ = offer(state, 2, 0, "C", "A")
    assert refused(state, 0, {"type": "accept_trade", "offer": 10200}) == "rule/card_on_offer"
    # nor any ability: its orders are judged on the cards not on offer
    _, events = play(state, {0: orders({"kind": "clue", "use": ["A"]})})
    (dropped,) = one(events, "OrdersJudged", 0)["dropped"]
    assert dropped["rule"] == "card_not_held" and "1 more on offer" in dropped["message"]
    assert not [c for c in bm.legal(state, 0) if "A" in str((c.get("orders") or {}).get("ability"))]
    # so its recipient may always accept, whatever the offering seat did since
    state, events = do(state, 1, {"type": "accept_trade", "offer": 10001})
    assert events[0]["type"] == "TradeAccepted" and state["hands"][1]["A"] == 2
    assert bm.view(state, 0)["you"]["on_offer"] == {}


def test_the_accepting_seat_must_hold_the_card_asked_for():
    state, _ = offer(table(3), 1, 0, "D", "E")
    poor = with_hand(state, 0, "C")
    assert refused(poor, 0, {"type": "accept_trade", "offer": 10100}) == "rule/card_not_held"
    assert [c["type"] for c in listed(poor, 0, 10100)] == ["decline_trade"]
    assert [c["type"] for c in listed(state, 0, 10100)] == ["accept_trade", "decline_trade"]


def listed(state, seat, number):
    return [c for c in bm.legal(state, seat) if c.get("offer") == number]


def test_in_a_game_of_version_1_both_hands_are_checked_again_on_accepting():
    # version 1 held nothing for an offer: a card could be offered twice, or used
    state, _ = offer(version_1(table(3)), 0, 1, "A", "B")
    state, _ = offer(state, 0, 2, "A", "C")
    state, _ = do(state, 2, {"type": "accept_trade", "offer": 10002})  # seat 0's A is gone
    assert refused(state, 1, {"type": "accept_trade", "offer": 10001}) == "rule/card_not_held"
    state, _ = offer(version_1(table(3)), 0, 1, "A", "B")
    _, events = play(state, {0: orders({"kind": "clue", "use": ["A"]})})
    assert one(events, "OrdersJudged", 0)["dropped"] == []


def test_bad_offers():
    state = with_hand(table(3), 0, "B")
    command = {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}
    assert refused(state, 0, command) == "rule/card_not_held"
    assert refused(state, 0, {**command, "give": "B", "to": 0}) == "rule/trade_with_self"
    assert refused(state, 0, {**command, "give": "B", "to": 3}, BadRequest) == "command/invalid"
    assert refused(state, 0, {**command, "give": "b"}, BadRequest) == "command/invalid"
    assert refused(state, 0, {"type": "accept_trade", "offer": "1"}, BadRequest) == (
        "command/invalid"
    )


def test_open_offers_are_capped():
    state = with_hand(table(1), 0, "A" * 11)
    for _ in range(10):
        state, _ = offer(state, 0, 1, "A", "B")
    assert refused(state, 0, {"type": "offer_trade", "to": 2, "give": "A", "get": "B"}) == (
        "rule/too_many_offers"
    )
    state, _ = do(state, 1, {"type": "decline_trade", "offer": 10001})
    assert offer(state, 0, 2, "A", "B")[1][0]["payload"]["offer"] == 10002


def test_trades_are_private():
    state, _ = offer(table(2), 0, 1, "A", "B")
    state, _ = do(state, 1, {"type": "accept_trade", "offer": 10001})
    assert bm.view(state, 2)["you"]["trades"] == []
    assert "offers" not in bm.view(state, None) and "offers" not in bm.view(state, 2)
    assert bm.view(state, 1)["you"]["trades"][0]["give"] == "A"
    assert len(bm.view(state, "moderator")["offers"]) == 1


def test_trades_only_while_the_rounds_run_and_open_offers_lapse():
    state, _ = offer(table(10), 0, 1, "A", "B")
    state, _ = play(state)  # all tied on 0: the vote on the EC is waiting
    assert state["phase"] == "awards"
    assert state["offers"][0]["status"] == "lapsed"
    command = {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}
    assert refused(state, 0, command) == "rule/wrong_phase"
    assert refused(state, 1, {"type": "accept_trade", "offer": 10001}) == "rule/wrong_phase"


# --- purchases -----------------------------------------------------------------------------


def test_purchases_cost_2_then_double_and_are_private():
    state = table(4, options={"starting_garnets": 14})
    state = {**state, "garnets": [14, 14, 14]}
    state, events = do(state, 0, {"type": "buy_card", "horse": "A"})
    assert events == [
        {
            "type": "CardBought",
            "payload": {"seat": 0, "horse": "A", "cost": 2},
            "visibility": [0],
        }
    ]
    state, _ = do(state, 0, {"type": "buy_card", "horse": "A"})
    state, events = do(state, 0, {"type": "buy_card", "horse": "B"})
    assert events[0]["payload"]["cost"] == 8
    assert state["garnets"][0] == 0 and state["purchases"][0] == 3
    assert (state["hands"][0]["A"], state["hands"][0]["B"]) == (3, 2)
    assert bm.view(state, 0)["you"]["next_purchase_cost"] == 16
    assert refused(state, 0, {"type": "buy_card", "horse": "C"}) == "rule/not_enough_garnets"
    assert refused(state, 0, {"type": "buy_card", "horse": "J"}, BadRequest) == "command/invalid"
    assert bm.view(state, 1)["you"]["garnets"] == 14 and bm.view(state, 1)["you"]["purchases"] == 0


def test_no_garnets_no_purchase():
    assert refused(table(1), 0, {"type": "buy_card", "horse": "A"}) == "rule/not_enough_garnets"


# --- the final scoreboard ------------------------------------------------------------------


def test_the_scoreboard_chips_by_placement_spectating_and_round_10_utility():
    # FINAL_ORDER: A 2, C 4, E 6, B 8, F 10, G 7, I 5, D 3, H 1 points per chip
    state = table(
        10,
        finished=["A", "C", "E", "B", "F", "G"],
        bets=[{"2": {"F": 5}, "3": {"B": 3}}, {"4": {"A": 10}, "6": {"H": 2}}, {}],
        spectator_points=[3, 1, 0],
        garnets=[1, 0, 5],
    )
    state = with_hand(state, 2, "AAA")
    state, events = play(
        state, {2: orders({"kind": "utility", "use": ["A", "A", "A"]}, spectate=12)}
    )
    board = one(events, "ScoresRevealed")
    assert board["seats"] == [
        {
            "seat": 0,
            "chip_points": 74,
            "spectator_points": 3,
            "utility_points": 0,
            "total": 77,
            "garnets_awarded": 2,
        },
        {
            "seat": 1,
            "chip_points": 22,
            "spectator_points": 1,
            "utility_points": 0,
            "total": 23,
            "garnets_awarded": 0,
        },
        {
            "seat": 2,
            "chip_points": 0,
            "spectator_points": 1,  # I on 12 at the end of round 10
            "utility_points": 9,
            "total": 10,
            "garnets_awarded": 0,
        },
    ]
    # each seat's garnets after the awards are its own (purchases are private)
    assert state["garnets"] == [3, 0, 5] and bm.view(state, 0)["you"]["garnets"] == 3
    assert one(events, "TolsAwarded") == {"won": {"0": 2, "1": 1}, "given": {}, "choice": None}
    assert one(events, "EliminationCandidateNamed") == {
        "candidate": 2,
        "how": "fewest_points",
        "tied": [],
        "voters": [],
    }
    assert [e["visibility"] for e in events[-3:]] == ["public"] * 3
    result = bm.outcome(state)
    assert result["scores"] == [77, 23, 10] and result["ranks"] == [1, 2, 3]
    assert result["winners"] == [0] and result["elimination_candidate"] == 2
    assert result["tols"] == {"0": 2, "1": 1, "2": 0}
    assert result["garnets"] == [3, 0, 5]
    assert result["order"] == ["A", "C", "E", "B", "F", "G", "I", "D", "H"]
    assert bm.to_move(state) == [] and state["phase"] == "over"


def ended(points, garnets=None, options=None):
    """A table after Round 10 where each seat scored exactly these points."""
    seats = len(points)
    state = table(10, seats=seats, options=options, spectator_points=list(points))
    if garnets is not None:
        state = {**state, "garnets": list(garnets)}
    return play(state)


# --- Tokens of Life ------------------------------------------------------------------------


def test_the_sole_winner_gives_the_other_tol_to_a_tied_second():
    state, events = ended([50, 30, 30, 10])
    assert one(events, "TolsAwarded")["choice"] == {"chooser": 0, "among": [1, 2], "tols": 1}
    assert bm.outcome(state) is None and bm.to_move(state) == [0]
    assert bm.legal(state, 0) == [
        {"type": "give_tol", "seat": 1},
        {"type": "give_tol", "seat": 2},
    ]
    assert bm.legal(state, 1) == [] and bm.legal(state, "moderator") == []
    assert refused(state, 1, {"type": "give_tol", "seat": 1}) == "rule/not_your_turn"
    assert refused(state, 0, {"type": "give_tol", "seat": 3}) == "rule/not_tied_second"
    assert refused(state, 0, {"type": "give_tol", "seat": "1"}, BadRequest) == "command/invalid"
    state, events = do(state, 0, {"type": "give_tol", "seat": 2})
    assert events == [
        {"type": "TolGiven", "payload": {"by": 0, "seat": 2, "tols": 1}, "visibility": "public"}
    ]
    result = bm.outcome(state)
    # only two ToLs are given out: the sole winner's and the chosen tied player's
    assert result["tols"] == {"0": 1, "1": 0, "2": 1, "3": 0}
    assert result["tols_given"] == {"2": 1} and result["elimination_candidate"] == 3
    assert refused(state, 0, {"type": "give_tol", "seat": 1}) == "game/over"


def test_the_other_reading_of_a_tied_second_three_tols_by_option():
    state, events = ended([50, 30, 30, 10], options={"tied_second_tols": "three_in_all"})
    assert one(events, "TolsAwarded")["won"] == {"0": 2}
    state, _ = do(state, 0, {"type": "give_tol", "seat": 1})
    assert bm.outcome(state)["tols"] == {"0": 2, "1": 1, "2": 0, "3": 0}


def test_a_game_created_before_the_option_gives_three_tols_as_it_did():
    state = version_1(table(10, seats=4, spectator_points=[50, 30, 30, 10]), "tied_second_tols")
    _, events = play(state)
    assert one(events, "TolsAwarded")["won"] == {"0": 2}


def test_a_tie_for_first_one_tol_each_no_more():
    state, events = ended([50, 50, 30, 10])
    assert one(events, "TolsAwarded") == {"won": {"0": 1, "1": 1}, "given": {}, "choice": None}
    assert bm.outcome(state)["tols"] == {"0": 1, "1": 1, "2": 0, "3": 0}


def test_five_tied_for_first_no_tols():
    state, _ = ended([50, 50, 50, 50, 50, 10])
    assert bm.outcome(state)["tols"] == dict.fromkeys(map(str, range(6)), 0)


# --- the Elimination Candidate -------------------------------------------------------------


def test_a_tie_for_last_waits_for_the_moderator_to_record_the_vote():
    state, events = ended([50, 40, 10, 10])
    assert one(events, "EliminationVoteCalled") == {
        "candidate": None,
        "tied": [2, 3],
        "voters": [0, 1],
        "votes": None,
    }
    assert bm.to_move(state) == ["moderator"] and bm.outcome(state) is None
    vote = {"type": "record_ec_vote", "votes": {"0": 3, "1": 3}}
    assert refused(state, 0, vote, BadRequest) == "command/unknown"
    assert refused(state, "moderator", {**vote, "votes": {"0": 3}}) == "rule/voters"
    assert refused(state, "moderator", {**vote, "votes": {"0": 3, "1": 3, "2": 3}}) == (
        "rule/voters"
    )
    assert refused(state, "moderator", {**vote, "votes": {"0": 3, "1": 1}}) == "rule/not_tied_last"
    assert refused(state, "moderator", {**vote, "votes": [3, 3]}, BadRequest) == "command/invalid"
    state, events = do(state, "moderator", vote)
    assert [e["type"] for e in events] == ["EliminationVoteRecorded", "EliminationCandidateNamed"]
    assert events[0]["payload"] == {"votes": {"0": 3, "1": 3}}
    assert events[1]["payload"] == {"candidate": 3, "how": "vote"}
    assert bm.outcome(state)["elimination_candidate"] == 3
    assert bm.outcome(state)["elimination"]["votes"] == {"0": 3, "1": 3}


def test_every_listed_vote_is_accepted():
    state, _ = ended([50, 40, 10, 10])
    listed = bm.legal(state, "moderator")
    assert {"type": "record_ec_vote", "votes": {"0": 2, "1": 2}} in listed
    for command in listed:
        assert bm.decide(state, "moderator", command, RNG)


def test_a_split_vote_goes_to_the_side_whose_voters_hold_more_garnets():
    # garnets after the awards: seat 0 has 5 + 50 // 30 = 6, seat 1 has 0 + 40 // 30 = 1
    state, _ = ended([50, 40, 10, 10], garnets=[5, 0, 0, 0])
    state, events = do(state, "moderator", {"type": "record_ec_vote", "votes": {"0": 2, "1": 3}})
    assert events[1]["payload"] == {"candidate": 2, "how": "garnets"}


def test_a_tie_left_after_the_vote_is_drawn_from_the_seed():
    state, _ = ended([50, 40, 10, 10])
    vote = {"type": "record_ec_vote", "votes": {"0": 2, "1": 3}}  # 1 garnet each
    drawn = set()
    for seed in ("s1", "s2", "s3", "s4", "s5", "s6"):
        _, events = do(state, "moderator", vote, Rng(seed))
        expected = [2, 3][Rng(seed).below("elimination-candidate/tie-break", 2)]
        assert events[1]["payload"] == {
            "candidate": expected,
            "how": "random",
            "drawn_from": [2, 3],
        }
        drawn.add(expected)
    assert drawn == {2, 3}


def test_the_tol_choice_and_the_vote_may_both_wait():
    # 1, 2, 3 tie for second and for last: 0 gives one of them a ToL and alone votes
    state, events = ended([60, 10, 10, 10])
    assert bm.to_move(state) == [0, "moderator"]
    state, _ = do(state, "moderator", {"type": "record_ec_vote", "votes": {"0": 1}})
    assert bm.outcome(state) is None and bm.to_move(state) == [0]
    state, _ = do(state, 0, {"type": "give_tol", "seat": 1})
    result = bm.outcome(state)
    assert result["elimination_candidate"] == 1 and result["tols"]["1"] == 1


def test_five_tied_first_and_a_tie_for_last_the_tied_first_vote():
    state, events = ended([50, 50, 50, 50, 50, 20, 5, 5])
    assert one(events, "EliminationVoteCalled")["voters"] == [0, 1, 2, 3, 4]
    votes = {str(v): 6 for v in range(5)}
    state, _ = do(state, "moderator", {"type": "record_ec_vote", "votes": votes})
    assert bm.outcome(state)["elimination_candidate"] == 6


def test_nothing_to_give_or_vote_while_the_rounds_run():
    state = table(3)
    assert refused(state, 0, {"type": "give_tol", "seat": 1}) == "rule/wrong_phase"
    vote = {"type": "record_ec_vote", "votes": {"0": 1}}
    assert refused(state, "moderator", vote) == "rule/wrong_phase"
    assert refused(state, 0, {"type": "submit_orders", "round": 3, "orders": {}}, BadRequest) == (
        "command/engine"
    )
    assert of(play(state)[1], "ScoresRevealed") == []
