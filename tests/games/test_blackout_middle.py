"""Blackout Middle: the contract, sealed orders and how they are judged, the race and
what is announced, views and round summaries, and whole games through the functions."""

import copy
import json

import pytest
from test_blackout_middle_tables import (
    FINAL_ORDER,
    MOVEMENTS,
    NOTHING,
    SPACES,
    delivered,
    fold,
    of,
    one,
    orders,
    play,
    table,
    with_hand,
    with_seen,
)

from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.rng import Rng
from referee.games import blackout_middle as bm

# --- the contract --------------------------------------------------------------------------


def test_constants_and_defaults():
    assert (bm.NAME, bm.VERSION, bm.MIN_PLAYERS, bm.MAX_PLAYERS) == ("blackout-middle", 2, 3, 12)
    assert bm.VERSIONS == (1, 2)
    assert bm.OPTIONS == {
        "round_seconds": 86400,
        "first_round_seconds": 172800,
        "starting_chips": 30,
        "chip_limit": 5,
        "starting_garnets": 0,
        "round10_utility": "n_squared",
        "tied_second_tols": "two_in_all",
        "round10_space_scores": True,
    }
    assert bm.REVEAL == "end"
    assert bm.COMMANDS["submit_orders"]["fields"] == {"round": "integer", "orders": "object"}
    assert set(bm.COMMANDS) >= {"offer_trade", "accept_trade", "buy_card", "give_tol"}
    assert bm.MODERATOR_COMMANDS["record_ec_vote"]["fields"] == {"votes": "object"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("round_seconds", 0),
        ("first_round_seconds", "2d"),
        ("starting_chips", -1),
        ("chip_limit", True),
        ("starting_garnets", 10_000),
        ("round10_utility", "cubes"),
        ("tied_second_tols", "winner_takes_all"),
        ("tied_second_tols", 2),
        ("round10_space_scores", "yes"),
        ("round10_space_scores", 1),
    ],
)
def test_bad_options_are_refused_naming_the_option(name, value):
    with pytest.raises(BadRequest) as caught:
        bm.check_options({**bm.OPTIONS, name: value})
    assert caught.value.details == {"field": f"options.{name}"}


def test_good_options_pass():
    bm.check_options({**bm.OPTIONS, "chip_limit": 0, "round10_utility": "triangular"})


def test_initial_table():
    state = bm.initial(["a", "b", "c"], {**bm.OPTIONS, "starting_garnets": 6})
    assert state["hands"] == [dict.fromkeys("ABCDEFGHI", 1)] * 3
    assert (state["chips"], state["limits"], state["garnets"]) == ([30] * 3, [5] * 3, [6] * 3)
    assert state["positions"] == dict.fromkeys("ABCDEFGHI", 1)
    assert bm.open_round(state) is None


def test_setup_draws_every_movement_value_from_its_own_label_for_the_moderator_only():
    state = bm.initial(["a", "b", "c"], dict(bm.OPTIONS))
    (drawn,) = bm.setup(state, Rng("seed-1"))
    assert drawn["type"] == "MovementsDrawn" and drawn["visibility"] == []
    movements = drawn["payload"]["movements"]
    assert sorted(movements, key=int) == [str(r) for r in range(1, 11)]
    for r in range(1, 11):
        for horse in "ABCDEFGHI":
            expected = [1, 2, 3][Rng("seed-1").below(f"movement/{r}/{horse}", 3)]
            assert movements[str(r)][horse] == expected
    assert bm.setup(state, Rng("seed-1")) == [drawn]
    after = bm.apply(state, drawn)
    assert bm.open_round(after) == {"round": 0, "seconds": 172800}


def test_open_round_durations_come_from_the_options():
    assert bm.open_round(table(0, options={"first_round_seconds": 600})) == {
        "round": 0,
        "seconds": 600,
    }
    assert bm.open_round(table(1)) == {"round": 1, "seconds": 86400}
    assert bm.open_round(table(10, options={"round_seconds": 60})) == {"round": 10, "seconds": 60}


def test_rounds_advance_and_none_is_open_after_round_10():
    state = table(9)
    state, events = play(state)
    assert events[-1] == {"type": "RoundResolved", "payload": {"round": 9}, "visibility": "public"}
    assert bm.open_round(state) == {"round": 10, "seconds": 86400}
    state, _ = play(state)
    assert bm.open_round(state) is None
    with pytest.raises(RuleViolation):
        bm.resolve(state, [NOTHING] * 3, Rng("x"))


# --- the shape of orders -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ([], "orders"),
        ({"abilty": None}, "orders.abilty"),
        ({"ability": "clue"}, "orders.ability"),
        ({"ability": {"kind": "both"}}, "orders.ability.kind"),
        ({"ability": {"kind": "clue", "use": "A"}}, "orders.ability.use"),
        ({"ability": {"kind": "clue", "use": [1]}}, "orders.ability.use.0"),
        ({"ability": {"kind": "clue", "use": ["A" * 21]}}, "orders.ability.use.0"),
        ({"ability": {"kind": "clue", "use": ["A"] * 101}}, "orders.ability.use"),
        ({"ability": {"kind": "clue", "twice": True}}, "orders.ability.twice"),
        ({"ability": {"kind": "utility", "guesses": [{"horse": "A"}]}}, "orders.ability.guesses.0"),
        (
            {"ability": {"kind": "utility", "guesses": [{"horse": "A", "ahead": "2"}]}},
            "orders.ability.guesses.0.ahead",
        ),
        ({"spectate": "7"}, "orders.spectate"),
        ({"spectate": 7.0}, "orders.spectate"),
        ({"bets": []}, "orders.bets"),
        ({"bets": {"A": 0}}, "orders.bets.A"),
        ({"bets": {"A": "2"}}, "orders.bets.A"),
        ({"bets": {"A": True}}, "orders.bets.A"),
        ({"bets": {"A": 10**7}}, "orders.bets.A"),
        ({"bets": {f"h{i}": 1 for i in range(101)}}, "orders.bets"),
    ],
)
def test_malformed_orders_are_refused_naming_the_field(given, field):
    with pytest.raises(BadRequest) as caught:
        bm.check_orders(table(1), 0, given)
    assert caught.value.code == "orders/invalid"
    assert caught.value.details == {"field": field}
    assert field in caught.value.message


def test_the_message_of_a_bad_bet():
    with pytest.raises(BadRequest) as caught:
        bm.check_orders(table(1), 0, {"bets": {"A": -2}})
    assert caught.value.message.startswith("orders.bets.A must be a positive integer")


def test_orders_are_normalized():
    given = {"ability": {"kind": "utility", "gain": "D", "use": ["A"]}, "bets": {"C": 1, "A": 2}}
    shaped = bm.check_orders(table(1), 0, given)
    assert shaped == {
        "ability": {"kind": "utility", "use": ["A"], "gain": ["D"]},
        "spectate": None,
        "bets": {"A": 2, "C": 1},
    }
    assert list(shaped["bets"]) == ["A", "C"]
    assert bm.check_orders(table(1), 0, {}) == bm.default_orders(table(1), 0) == NOTHING
    assert bm.check_orders(table(1), 0, shaped) == shaped


def test_what_the_rules_drop_is_not_refused_by_the_shape_check():
    given = {
        "ability": {"kind": "clue", "use": ["Z", "A", "A"], "gain": ["Q"]},
        "spectate": 99,
        "bets": {"Q": 3, "A": 50},
    }
    assert bm.check_orders(table(1), 0, given)["spectate"] == 99


# --- judging: what is dropped and why ------------------------------------------------------


def judged(state, seat, given):
    """Resolve the round with these orders for one seat: (state after, its judgement, events)."""
    after, events = play(state, {seat: given})
    return after, one(events, "OrdersJudged", seat), events


def rules(judgement):
    return [(d["part"], d["rule"]) for d in judgement["dropped"]]


def test_too_many_chips_for_the_limit_voids_the_whole_submission():
    state = with_seen(table(2), 0, 1, 4)  # A and C on 4
    given = orders({"kind": "clue", "use": ["A"]}, spectate=5, bets={"A": 4, "C": 2})
    after, judgement, events = judged(state, 0, given)
    assert rules(judgement) == [("submission", "over_limit")]
    assert judgement["applied"] == {"ability": None, "spectate": None, "bets": {}}
    assert after["hands"][0]["A"] == 1 and after["chips"][0] == 30
    assert delivered(events, "AbilityResolved", 0) == delivered(events, "SpaceSeen", 0) == []
    assert one(events, "SpectatingAnnounced")["spaces"][0] is None


def test_too_many_chips_for_the_pool_voids_the_whole_submission():
    state = {**with_seen(table(2), 0, 1, 4), "chips": [3, 30, 30]}
    _, judgement, _ = judged(state, 0, orders(spectate=5, bets={"A": 4}))
    assert rules(judgement) == [("submission", "over_chips")]
    assert judgement["applied"]["spectate"] is None


def test_the_chip_total_counts_every_bet_as_sent_even_invalid_ones():
    state = with_seen(table(2), 0, 1, 4)
    _, judgement, _ = judged(state, 0, orders(bets={"A": 3, "Z": 3}))
    assert rules(judgement) == [("submission", "over_limit")]


def test_a_single_bad_bet_is_dropped_and_the_rest_stands():
    state = with_seen(table(2), 0, 1, 4)
    given = orders({"kind": "clue", "use": ["B"]}, spectate=5, bets={"A": 2, "B": 1, "Z": 1})
    after, judgement, events = judged(state, 0, given)
    assert rules(judgement) == [("bets.B", "not_on_current_space"), ("bets.Z", "not_a_horse")]
    assert judgement["applied"] == {
        "ability": {"kind": "clue", "use": ["B"]},
        "spectate": 5,
        "bets": {"A": 2},
    }
    assert after["chips"][0] == 28 and after["bets"][0] == {"2": {"A": 2}}
    assert one(events, "AbilityResolved", 0)["kind"] == "clue"


def test_no_current_space_no_bets():
    _, judgement, _ = judged(table(2), 0, orders(bets={"A": 1}))
    assert rules(judgement) == [("bets.A", "no_current_space")]


def test_round_1_has_no_current_space_for_anyone():
    _, judgement, _ = judged(table(1), 0, orders(spectate=3, bets={"A": 1}))
    assert rules(judgement) == [("bets.A", "no_current_space")]
    assert judgement["applied"]["spectate"] == 3


def test_round_0_takes_the_ability_only():
    given = orders({"kind": "utility", "select": ["C"]}, spectate=1, bets={"A": 9})
    after, judgement, events = judged(table(0), 0, given)
    assert rules(judgement) == [("bets", "round_0"), ("spectate", "round_0")]
    assert judgement["applied"]["ability"] == {"kind": "utility", "select": ["C"]}
    assert after["hands"][0]["C"] == 2 and after["chips"][0] == 30
    assert of(events, "SpectatingAnnounced") == [] and of(events, "HorsesMoved") == []
    assert after["positions"] == dict.fromkeys("ABCDEFGHI", 1)


@pytest.mark.parametrize("space", [0, 16, -3, 99])
def test_a_space_off_the_track_is_no_spectating(space):
    _, judgement, events = judged(table(3), 0, orders(spectate=space))
    assert rules(judgement) == [("spectate", "off_track")]
    assert one(events, "SpaceSeen", 0) == {
        "round": 3,
        "seat": 0,
        "space": None,
        "horses": [],
        "points": 0,
    }
    assert one(events, "SpectatingAnnounced")["spaces"] == [None, None, None]


def test_an_incomplete_ability_uses_nothing_and_the_rest_stands():
    state = with_seen(table(2), 0, 1, 4)
    given = orders({"kind": "utility", "gain": ["A"]}, spectate=7, bets={"C": 2})
    after, judgement, events = judged(state, 0, given)
    assert rules(judgement) == [("ability", "wrong_fields")]
    given = orders({"kind": "clue"}, spectate=7, bets={"C": 2})
    after, judgement, events = judged(state, 0, given)
    assert rules(judgement) == [("ability", "incomplete")]
    assert judgement["applied"] == {"ability": None, "spectate": 7, "bets": {"C": 2}}
    assert after["hands"][0] == state["hands"][0]
    assert one(events, "AbilityResolved", 0) == {
        "round": 2,
        "seat": 0,
        "kind": None,
        "learned": {},
        "gained": {},
        "points": {},
    }
    assert after["learned"][0] == []


def test_a_card_traded_away_after_submitting_drops_the_ability_at_resolution():
    state = table(4)
    given = orders({"kind": "clue", "use": ["A"]})
    assert bm.inspect_orders(state, 0, given) == []
    offered = bm.decide(state, 0, {"type": "offer_trade", "to": 1, "give": "A", "get": "B"}, None)
    state = fold(state, offered)
    number = offered[0]["payload"]["offer"]
    state = fold(state, bm.decide(state, 1, {"type": "accept_trade", "offer": number}, None))
    assert [d["rule"] for d in bm.inspect_orders(state, 0, given)] == ["card_not_held"]
    after, judgement, events = judged(state, 0, given)
    assert rules(judgement) == [("ability", "card_not_held")]
    assert after["hands"][0]["B"] == 2 and delivered(events, "AbilityResolved", 0) == []


def test_inspect_orders_warns_exactly_what_resolve_drops():
    state = with_seen(with_hand(table(5), 0, "BB"), 0, 4, 9)  # B, E, F on 9
    cases = [
        orders({"kind": "clue", "use": ["B", "C"]}, spectate=20, bets={"B": 1, "D": 1}),
        orders({"kind": "utility", "guesses": [{"horse": "B", "ahead": 2}]}, bets={"E": 5}),
        orders(bets={"E": 6}),
        orders({"kind": "clue", "use": ["B"]}, spectate=12, bets={"F": 1}),
    ]
    for given in cases:
        _, judgement, _ = judged(state, 0, given)
        assert bm.inspect_orders(state, 0, given) == judgement["dropped"]
    assert [d["rule"] for d in bm.inspect_orders(state, 0, cases[0])] == [
        "card_not_held",
        "not_on_current_space",
        "off_track",
    ]
    assert bm.inspect_orders(state, 0, cases[3]) == []


def test_a_judgement_is_seen_by_its_seat_alone():
    _, events = play(table(2), {0: orders(spectate=3)})
    judged_events = [e for e in events if e["type"] == "OrdersJudged"]
    assert [e["visibility"] for e in judged_events] == [[0], [1], [2]]


# --- the race and what is announced --------------------------------------------------------


def test_horses_move_unseen_and_a_finisher_is_announced_with_its_remaining_values():
    state, events = play(table(5))
    moved = one(events, "HorsesMoved")
    assert [e["visibility"] for e in events if e["type"] == "HorsesMoved"] == [[]]
    assert moved["positions"] == {h: spaces[5] for h, spaces in SPACES.items()}
    finished = [e for e in events if e["type"] == "HorseFinished"]
    assert [e["visibility"] for e in finished] == ["public"]
    assert finished[0]["payload"] == {
        "round": 5,
        "horse": "A",
        "placement": 1,
        "movements": {"6": 3, "7": 3, "8": 3, "9": 3, "10": 3},
    }
    assert bm.view(state, None)["finished"] == [
        {"horse": "A", "round": 5, "placement": 1, "movements": finished[0]["payload"]["movements"]}
    ]


def test_same_round_finishers_furthest_first_then_alphabetical():
    state = table(8, finished=["A", "C", "E"])
    state, events = play(state)
    placed = [(p["horse"], p["placement"]) for p in of(events, "HorseFinished")]
    assert placed == [("B", 4), ("F", 5), ("G", 6)]  # B on 17; F and G on 16
    assert of(events, "HorseFinished")[0]["movements"] == {"9": 2, "10": 2}


def test_horses_left_on_the_track_after_round_10_are_placed_closest_first():
    state = table(10, finished=["A", "C", "E", "B", "F", "G"])
    state, events = play(state)
    assert of(events, "HorseFinished") == []
    assert one(events, "ScoresRevealed")["order"] == FINAL_ORDER  # I 12, then D and H on 11


def test_spectating_a_space_shows_its_horses_privately_and_scores_them():
    state, events = play(table(5), {0: orders(spectate=11), 1: orders(spectate=12)})
    seen = [e for e in events if e["type"] == "SpaceSeen"]
    assert [e["visibility"] for e in seen] == [[0], [1], [2]]
    assert seen[2]["payload"] == {"round": 5, "seat": 2, "space": None, "horses": [], "points": 0}
    assert seen[0]["payload"] == {
        "round": 5,
        "seat": 0,
        "space": 11,
        "horses": ["B", "E", "F"],
        "points": 3,
    }
    assert seen[1]["payload"]["horses"] == [] and seen[1]["payload"]["points"] == 0
    assert one(events, "SpectatingAnnounced") == {"round": 5, "spaces": [11, 12, None]}
    assert state["spectator_points"] == [3, 0, 0]
    # the next round, space 11 is seat 0's current space: bets on what it saw there
    _, judgement, _ = judged(state, 0, orders(bets={"E": 2, "C": 1}))
    assert rules(judgement) == [("bets.C", "not_on_current_space")]


def test_round_10_spectating_scores_the_end_of_round_10():
    state, events = play(table(10), {0: orders(spectate=11)})
    assert one(events, "SpaceSeen", 0)["horses"] == ["D", "H"]
    assert one(events, "ScoresRevealed")["seats"][0]["spectator_points"] == 2


# --- views and summaries -------------------------------------------------------------------


def keys_in(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def secretive_table():
    """Round 4 resolved with private things happening at every seat."""
    state = with_seen(with_hand(table(3), 1, "GGGG"), 1, 2, 7)
    state, _ = play(
        state,
        {
            0: orders({"kind": "clue", "use": ["A"]}, spectate=10),
            1: orders({"kind": "clue", "use": ["G", "G"]}, spectate=8, bets={"C": 4}),
        },
    )
    offer = bm.decide(state, 1, {"type": "offer_trade", "to": 2, "give": "G", "get": "H"}, None)
    return fold(state, offer)


def test_a_seat_sees_its_own_secrets_and_the_public_table_only():
    state = secretive_table()
    mine = bm.view(state, 0)
    assert mine["you"]["seat"] == 0
    assert mine["you"]["hand"] == dict.fromkeys("BCDEFGHI", 1)
    assert mine["you"]["learned"][0]["learned"] == {"spaces": {"A": {"4": 13}}}
    assert mine["you"]["seen"] == {"3": {"space": 10, "horses": ["A", "C"]}}
    assert mine["spectating"] == {"3": [10, 8, None]}
    assert {"positions", "movements", "seats_private", "hands"} & keys_in(mine) == set()
    assert "GG" not in json.dumps(mine) and mine["you"]["bets"] == {}
    assert mine["you"]["open_offers"] == [] and mine["you"]["trades"] == []
    other = bm.view(state, 1)
    assert other["you"]["bets"] == {"3": {"C": 4}} and other["you"]["chips"] == 26
    assert other["you"]["hand"] == {"G": 2}
    assert other["you"]["open_offers"][0]["give"] == "G"
    # seat 2 sees the offer made to it, not seat 1's hand or bets
    third = bm.view(state, 2)
    assert third["you"]["open_offers"] == other["you"]["open_offers"]
    assert third["you"]["hand"] == dict.fromkeys("ABCDEFGHI", 1) and third["you"]["bets"] == {}


def test_no_view_but_the_moderators_has_movement_values_not_yet_public():
    state = secretive_table()
    for viewer in (None, 0, 1, 2):
        shown = bm.view(state, viewer)
        assert "movements" not in keys_in({k: v for k, v in shown.items() if k != "finished"})
        assert "positions" not in shown
    moderator = bm.view(state, "moderator")
    assert moderator["movements"] == MOVEMENTS
    assert moderator["positions"]["A"] == 10
    assert [s["hand"] for s in moderator["seats_private"]][1]["G"] == 2


def test_a_spectator_sees_the_public_part_only():
    state = secretive_table()
    shown = bm.view(state, None)
    assert "you" not in shown and "seats_private" not in shown
    assert shown["spectating"] == {"3": [10, 8, None]}
    assert shown["open_round"] == {"round": 4, "seconds": 86400}
    assert shown["abilities"]["clue"].startswith("Use any number of horse cards. For each card")


def test_views_are_copies():
    state = secretive_table()
    before = copy.deepcopy(state)
    for viewer in (None, 0, 1, "moderator"):
        shown = bm.view(state, viewer)
        json.dumps(shown)
        shown["spectating"]["3"].append(99)
    assert state == before


def test_round_summary_public_results_only():
    state = with_seen(table(5), 0, 4, 9)
    state, _ = play(state, {0: orders(spectate=11, bets={"B": 5}), 2: orders(spectate=6)})
    summary = bm.round_summary(state, 5, ["Ann", "Ben", "Cat"])
    assert summary == {
        "title": "Blackout Middle, Round 5: results",
        "sections": [
            {
                "heading": "Spectating",
                "lines": ["Ann: space 11", "Ben: no space", "Cat: space 6"],
            },
            {
                "heading": "Finished this round",
                "lines": [
                    "A finished 1st; movement values Round 6: 3, Round 7: 3, Round 8: 3, "
                    "Round 9: 3, Round 10: 3"
                ],
            },
        ],
    }
    with pytest.raises(RuleViolation):
        bm.round_summary(state, 6, ["Ann", "Ben", "Cat"])


def test_round_summary_of_round_0_and_of_the_last_round():
    state, _ = play(table(0))
    assert bm.round_summary(state, 0, ["Ann", "Ben", "Cat"])["sections"][0]["lines"] == [
        "Round 0 takes abilities only: nobody spectated."
    ]
    state = table(10, finished=["A", "C", "E", "B", "F", "G"], spectator_points=[4, 9, 1])
    state, _ = play(state)
    summary = bm.round_summary(state, 10, ["Ann", "Ben", "Cat"])
    sections = {s["heading"]: s["lines"] for s in summary["sections"]}
    assert sections["Final order"][0] == "1st: A" and sections["Final order"][-1] == "9th: H"
    assert sections["Scoreboard"][0] == (
        "Ben: 9 points (chips 0, spectating 9, utility 0), 0 garnet(s)"
    )


# --- legal ---------------------------------------------------------------------------------


def test_legal_orders_fit_the_shape_and_drop_nothing():
    state = with_seen(with_hand(table(5), 0, "AABBBCDEI"), 0, 4, 9)
    commands = bm.legal(state, 0)
    submissions = [c for c in commands if c["type"] == "submit_orders"]
    assert 10 <= len(submissions) <= 40
    kinds = {c["orders"]["ability"]["kind"] for c in submissions if c["orders"]["ability"]}
    assert kinds == {"clue", "utility"}
    assert any(c["orders"]["bets"] for c in submissions)
    for command in submissions:
        assert command["round"] == 5
        shaped = bm.check_orders(state, 0, command["orders"])
        assert shaped == command["orders"]
        assert bm.inspect_orders(state, 0, shaped) == []
    assert bm.legal(state, 0) == commands  # deterministic


def listed_trading(state, seat):
    return [c for c in bm.legal(state, seat) if c["type"] != "submit_orders"]


def test_every_listed_trade_command_is_accepted():
    state = {**table(3), "garnets": [2, 0, 0]}
    assert {c["type"] for c in listed_trading(state, 0)} == {"offer_trade", "buy_card"}
    for _ in range(2):
        for seat in range(3):
            listed = listed_trading(state, seat)
            for command in listed:
                assert bm.decide(state, seat, command, Rng("x"))
            state = fold(state, bm.decide(state, seat, listed[0], Rng("x")))
    kinds = {c["type"] for seat in range(3) for c in listed_trading(state, seat)}
    assert kinds >= {"offer_trade", "accept_trade", "decline_trade", "withdraw_trade"}


def test_nobody_is_to_move_while_the_rounds_run():
    assert bm.to_move(table(3)) == []
    assert bm.legal(table(3), "moderator") == []


# --- whole games ---------------------------------------------------------------------------


def full_game(seed, seats):
    """Setup, then each round every seat picks a listed order (and some trade), then the
    awards are settled with listed commands."""
    state = bm.initial([f"p{s}" for s in range(seats)], dict(bm.OPTIONS))
    rng, pick, log = Rng(seed), Rng(f"bot:{seed}"), []
    events = bm.setup(state, rng)
    state, log = fold(state, events), log + events
    turn = 0
    while bm.open_round(state):
        submissions = []
        for seat in range(seats):
            turn += 1
            commands = bm.legal(state, seat)
            trades = [c for c in commands if c["type"] != "submit_orders"]
            if trades and pick.below(f"trade/{turn}", 2):
                events = bm.decide(state, seat, trades[pick.below(f"t/{turn}", len(trades))], rng)
                state, log = fold(state, events), log + events
            sealed = [c for c in bm.legal(state, seat) if c["type"] == "submit_orders"]
            submissions.append(sealed[pick.below(f"orders/{turn}", len(sealed))]["orders"])
        events = bm.resolve(state, submissions, rng)
        state, log = fold(state, events), log + events
    while bm.outcome(state) is None:
        turn += 1
        actor = bm.to_move(state)[0]
        commands = bm.legal(state, actor)
        events = bm.decide(state, actor, commands[pick.below(f"award/{turn}", len(commands))], rng)
        state, log = fold(state, events), log + events
    return state, log


@pytest.mark.parametrize(("seed", "seats"), [("g1", 9), ("g2", 3), ("g3", 12), ("g4", 5)])
def test_a_whole_game_through_the_ruleset_functions(seed, seats):
    state, log = full_game(seed, seats)
    result = bm.outcome(state)
    assert json.loads(json.dumps([log, state])) == [log, state]  # plain JSON throughout
    assert [e["payload"]["round"] for e in log if e["type"] == "RoundResolved"] == list(range(11))
    board = one(log, "ScoresRevealed")
    totals = [s["total"] for s in board["seats"]]
    assert result["scores"] == totals
    assert result["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    for seat, row in enumerate(board["seats"]):
        assert row["total"] == row["chip_points"] + row["spectator_points"] + row["utility_points"]
        spaces = sum(p["points"] for p in of(log, "SpaceSeen", seat))
        assert row["spectator_points"] == spaces
        assert row["garnets_awarded"] == row["total"] // 30
        judged = of(log, "OrdersJudged", seat)
        chips_bet = sum(sum(j["applied"]["bets"].values()) for j in judged)
        gained = sum(j["effects"]["chips_gained"] for j in judged)
        assert state["chips"][seat] == 30 + gained - chips_bet >= 0
    assert sorted(board["order"]) == list("ABCDEFGHI")
    assert sum(result["tols"].values()) in (0, 1, 2, 3, 4)
    assert result["elimination_candidate"] in range(seats)
    assert totals[result["elimination_candidate"]] == min(totals)
    assert all(n >= 0 for hand in state["hands"] for n in hand.values())
    assert state["phase"] == "over" and bm.to_move(state) == []
    with pytest.raises(RuleViolation):
        bm.decide(state, 0, {"type": "buy_card", "horse": "A"}, Rng("x"))


def test_a_whole_game_replays_to_the_same_log():
    assert full_game("again", 4) == full_game("again", 4)
