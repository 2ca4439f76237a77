"""Blackout Middle: every round's clue and utility ability, worked by hand on the race of
test_blackout_middle_tables (and the clarifications, addenda and erratum)."""

import pytest
from test_blackout_middle_tables import (
    MOVEMENTS,
    delivered,
    of,
    one,
    orders,
    play,
    table,
    with_hand,
    with_seen,
)

from referee.games import blackout_middle as bm


def clue(**fields):
    return {"kind": "clue", **fields}


def utility(**fields):
    return {"kind": "utility", **fields}


def patched(state, values):
    """The table with some movement values changed: {round: {horse: value}}."""
    movements = {r: dict(m) for r, m in state["movements"].items()}
    for r, changed in values.items():
        movements[str(r)].update(changed)
    return {**state, "movements": movements}


def used(state, seat, ability, **order_parts):
    """Play the round with one seat using an ability: (state after, its result, judgement)."""
    after, events = play(state, {seat: orders(ability, **order_parts)})
    judged = one(events, "OrdersJudged", seat)
    results = delivered(events, "AbilityResolved", seat)
    return after, (results[0] if results else None), judged


def hand_of(state, seat):
    return {h: n for h, n in state["hands"][seat].items() if n}


def dropped_rule(state, seat, ability, **order_parts):
    """Play the round; the ability must be dropped: its rule, and no card may be lost."""
    after, result, judged = used(state, seat, ability, **order_parts)
    assert result is None and judged["applied"]["ability"] is None
    assert after["hands"][seat] == state["hands"][seat]
    (drop,) = [d for d in judged["dropped"] if d["part"] == "ability"]
    return drop["rule"]


# --- Round 0 -----------------------------------------------------------------------------


def test_round_0_clue_movement_values_for_rounds_1_and_2():
    after, result, judged = used(table(0), 0, clue(use=["A", "G"]))
    assert result["learned"] == {"movements": {"A": {"1": 3, "2": 3}, "G": {"1": 1, "2": 2}}}
    assert judged["dropped"] == []
    assert hand_of(after, 0) == dict.fromkeys("BCDEFHI", 1)


def test_round_0_utility_a_copy_of_the_selected_card_which_is_kept():
    after, result, _ = used(table(0), 0, utility(select=["B"]))
    assert result["gained"] == {"B": 1}
    assert after["hands"][0]["B"] == 2 and sum(after["hands"][0].values()) == 10


def test_round_0_utility_selects_exactly_one_card():
    assert dropped_rule(table(0), 0, utility(select=["B", "C"])) == "too_many_cards"
    assert dropped_rule(table(0), 0, utility(select=[])) == "incomplete"


def test_an_ability_with_a_field_its_round_does_not_take_is_dropped():
    assert dropped_rule(table(0), 0, clue(use=["A"], gain=["B"])) == "wrong_fields"


def test_an_ability_naming_no_horse_is_dropped():
    assert dropped_rule(table(0), 0, clue(use=["Z"])) == "not_a_horse"


# --- Round 1 -----------------------------------------------------------------------------


def test_round_1_clue_three_separate_sums_each_selected_card_counting():
    # rounds 2-4 changed so each sum differs: G 3 in round 3, C 1 in round 4
    state = with_hand(patched(table(1), {3: {"G": 3}, 4: {"C": 1}}), 0, "GGCD")
    after, result, _ = used(state, 0, clue(select=["G", "G", "C", "D"], use=["G"]))
    # round 2: 2+2+3+1; round 3: 3+3+3+1; round 4: 2+2+1+1
    assert result["learned"] == {"sums": {"2": 8, "3": 10, "4": 6}}
    assert hand_of(after, 0) == {"G": 1, "C": 1, "D": 1}  # only the used card goes


def test_round_1_clue_needs_one_used_card_among_the_selected():
    state = table(1)
    assert dropped_rule(state, 0, clue(select=["A", "B"])) == "incomplete"
    assert dropped_rule(state, 0, clue(select=["A"], use=["B"])) == "not_within"
    assert dropped_rule(state, 0, clue(select=["A", "B"], use=["A", "B"])) == "too_many_cards"
    assert dropped_rule(state, 0, clue(select=["A", "A"], use=["A"])) == "card_not_held"


def test_round_1_utility_one_chosen_card_per_card_used():
    after, result, _ = used(table(1), 0, utility(use=["A", "B"], gain=["C", "D"]))
    assert result["gained"] == {"C": 1, "D": 1}
    assert hand_of(after, 0) == {"C": 2, "D": 2, "E": 1, "F": 1, "G": 1, "H": 1, "I": 1}


def test_round_1_utility_may_not_gain_two_of_the_same_card():
    state = table(1)
    assert dropped_rule(state, 0, utility(use=["A", "B"], gain=["C", "C"])) == "not_distinct"
    assert dropped_rule(state, 0, utility(use=["A", "B"], gain=["C"])) == "wrong_count"
    assert dropped_rule(state, 0, utility(use=["A"])) == "incomplete"


def test_round_1_utility_gain_may_be_a_single_letter():
    after, result, _ = used(table(1), 0, utility(use=["A"], gain="I"))
    assert result["gained"] == {"I": 1} and after["hands"][0]["I"] == 2


# --- Round 2 -----------------------------------------------------------------------------


def test_round_2_clue_two_lists_per_card_differing_by_exactly_1():
    # round 4 changed: E moves 3, so the two rounds' lists differ
    state = patched(table(2), {4: {"E": 3}})
    _, result, _ = used(state, 0, clue(use=["B", "D"]))
    assert result["learned"] == {
        "differ_by_1": {
            # round 3: A3 B2 C3 D1 E2 F2 G2 H1 I1
            "B": {"3": ["A", "C", "D", "H", "I"], "4": ["A", "C", "D", "E", "H", "I"]},
            "D": {"3": ["B", "E", "F", "G"], "4": ["B", "F", "G"]},
        }
    }


def test_round_2_utility_raises_the_limit_this_round_one_per_two_cards():
    state = with_seen(with_hand(table(2), 0, "ABCDE"), 0, 1, 4)  # saw A and C on 4
    ability = utility(use=["A", "B", "C", "D", "E"])
    after, result, judged = used(state, 0, ability, bets={"A": 7})
    assert judged["effects"]["limit_raised"] == 2
    assert judged["applied"]["bets"] == {"A": 7} and judged["dropped"] == []
    assert after["limits"][0] == 7 and after["chips"][0] == 23
    assert result["learned"] == {"chip_limit": 7}


def test_round_2_utility_with_too_few_cards_leaves_the_limit_and_the_bet_voids_all():
    state = with_seen(with_hand(table(2), 0, "ABCDE"), 0, 1, 4)
    after, result, judged = used(state, 0, utility(use=["A"]), bets={"A": 7}, spectate=6)
    assert result is None
    assert [d["rule"] for d in judged["dropped"]] == ["over_limit"]
    assert judged["applied"] == {"ability": None, "spectate": None, "bets": {}}
    assert after["hands"][0] == state["hands"][0] and after["chips"][0] == 30


# --- Round 3 -----------------------------------------------------------------------------


def test_round_3_clue_spaces_at_the_end_of_round_4_and_5_with_two_copies():
    state = with_hand(table(3), 0, "ABB")
    after, result, _ = used(state, 0, clue(use=["A", "B", "B"]))
    assert result["learned"] == {"spaces": {"A": {"4": 13}, "B": {"4": 9, "5": 11}}}
    assert hand_of(after, 0) == {}


def test_round_3_clue_a_finished_horse_is_on_the_first_space_past_15_it_landed_on():
    state = with_hand(table(3), 0, "AA")
    _, result, _ = used(state, 0, clue(use=["A", "A"]))
    assert result["learned"] == {"spaces": {"A": {"4": 13, "5": 16}}}


def test_round_3_utility_watches_the_chips_on_up_to_3_horses_in_rounds_3_4_5():
    state = with_seen(with_seen(table(3), 1, 2, 7), 2, 2, 7)  # A and C on 7
    watch = orders(utility(select=["A", "C"]))
    state, events = play(
        state, {0: watch, 1: orders(spectate=10, bets={"A": 2, "C": 1}), 2: orders(bets={"A": 3})}
    )
    assert one(events, "AbilityResolved", 0)["learned"] == {
        "watching": ["A", "C"],
        "rounds": [3, 4, 5],
    }
    assert one(events, "ChipsWatched", 0)["chips"] == {"A": 5, "C": 1}
    # every seat gets its ChipsWatched, those that watch nothing learn nothing
    assert one(events, "ChipsWatched", 1) == {"round": 3, "seat": 1, "kind": None, "chips": {}}
    assert delivered(events, "ChipsWatched") == [one(events, "ChipsWatched", 0)]
    assert state["hands"][0] == dict.fromkeys("ABCDEFGHI", 1)  # selected, not used
    state, events = play(state, {1: orders(bets={"C": 4})})  # seat 1 saw A, C on 10
    assert one(events, "ChipsWatched", 0) == {
        "round": 4,
        "seat": 0,
        "kind": "watch",
        "chips": {"A": 0, "C": 4},
    }
    state, events = play(state)
    assert one(events, "ChipsWatched", 0)["chips"] == {"A": 0, "C": 0}
    state, events = play(state)
    assert of(events, "ChipsWatched") == [] and state["watches"][0] == []


def test_round_3_utility_selects_at_most_3_cards():
    state = table(3)
    assert dropped_rule(state, 0, utility(select=["A", "B", "C", "D"])) == "too_many_cards"


# --- Round 4 -----------------------------------------------------------------------------


def test_round_4_clue_horses_with_the_same_round_5_movement_value():
    # round 5: A3 B2 C1 D1 E2 F2 G2 H1 I1
    _, result, _ = used(table(4), 0, clue(use=["D", "B"]))
    assert result["learned"] == {
        "same_movement": {"B": {"5": ["E", "F", "G"]}, "D": {"5": ["C", "H", "I"]}}
    }


def test_round_4_utility_select_3_identical_and_use_one_ends_with_5():
    state = with_hand(table(4), 0, "AAA")
    after, result, _ = used(state, 0, utility(select=["A", "A", "A"], use=["A"]))
    assert result["gained"] == {"A": 3}
    assert hand_of(after, 0) == {"A": 5}  # the clarification's example


def test_round_4_utility_selecting_fewer_than_held():
    state = with_hand(table(4), 0, "AAAB")
    after, _, _ = used(state, 0, utility(select=["A", "A"], use=["A"]))
    assert hand_of(after, 0) == {"A": 4, "B": 1}


def test_round_4_utility_rules():
    state = with_hand(table(4), 0, "AAB")
    assert dropped_rule(state, 0, utility(select=["A", "B"], use=["A"])) == "not_identical"
    assert dropped_rule(state, 0, utility(select=["A", "A"], use=["B"])) == "not_within"
    assert dropped_rule(state, 0, utility(select=["A", "A", "A"], use=["A"])) == "card_not_held"
    assert dropped_rule(state, 0, utility(select=["A", "A"])) == "incomplete"


# --- Round 5 -----------------------------------------------------------------------------


def test_round_5_clue_placements_at_the_ends_of_rounds_5_and_6_ties_share_the_highest():
    # end of round 5: A 16 (1st), C 14, B E F 11, G 10, D H I 6
    _, result, _ = used(table(5), 0, clue(use=["B", "C", "D", "G"]))
    assert result["learned"] == {
        "placements": {
            "B": {"5": 3, "6": 3},
            "C": {"5": 2, "6": 2},
            "D": {"5": 7, "6": 7},
            "G": {"5": 6, "6": 6},
        }
    }


def test_round_5_utility_per_copy_guesses_after_movement_3_copies_per_correct_guess():
    state = with_hand(table(5), 0, "ABBC")
    guesses = [
        {"horse": "A", "ahead": 0},
        {"horse": "B", "ahead": 2},  # A and C ahead after movement
        {"horse": "B", "ahead": 1},  # a different guess for the second copy: wrong
        {"horse": "C", "ahead": 1},  # only after movement: before it C shared 13 with A
    ]
    after, result, _ = used(state, 0, utility(guesses=guesses))
    assert [g["correct"] for g in result["learned"]["guesses"]] == [True, True, False, True]
    assert result["gained"] == {"A": 3, "B": 3, "C": 3}
    assert hand_of(after, 0) == {"A": 3, "B": 3, "C": 3}


def test_round_5_utility_at_most_two_copies_of_a_card_and_sensible_guesses():
    state = with_hand(table(5), 0, "BBB")
    three = [{"horse": "B", "ahead": n} for n in (0, 1, 2)]
    assert dropped_rule(state, 0, utility(guesses=three)) == "too_many_copies"
    wild = [{"horse": "B", "ahead": 9}]
    assert dropped_rule(state, 0, utility(guesses=wild)) == "guess_out_of_range"
    assert dropped_rule(state, 0, utility(guesses=[])) == "incomplete"
    assert dropped_rule(state, 0, utility(use=["B"])) == "wrong_fields"


# --- Round 6 -----------------------------------------------------------------------------


def test_round_6_clue_n_values_from_round_7_for_n_copies():
    state = with_hand(table(6), 0, "AEE")
    after, result, _ = used(state, 0, clue(use=["E", "E", "A"]))
    assert result["learned"] == {"movements": {"A": {"7": 3}, "E": {"7": 3, "8": 1}}}
    assert hand_of(after, 0) == {}


def test_round_6_clue_stops_at_round_10():
    state = with_hand(table(6), 0, "EEEEE")
    _, result, _ = used(state, 0, clue(use=["E"] * 5))
    assert result["learned"]["movements"] == {"E": {"7": 3, "8": 1, "9": 1, "10": 1}}


def test_round_6_utility_a_pair_shows_who_bet_how_much_on_that_horse_this_round():
    state = with_seen(with_seen(with_hand(table(6), 0, "BBE"), 1, 5, 11), 2, 5, 11)
    state, events = play(
        state,
        {
            0: orders(utility(use=["B", "B", "E"])),
            1: orders(bets={"B": 2, "E": 1}),
            2: orders(bets={"B": 4}),
        },
    )
    # E was used once: no pair, nothing learned about it
    assert one(events, "AbilityResolved", 0)["learned"] == {"bets": {"B": {"1": 2, "2": 4}}}
    assert hand_of(state, 0) == {}


# --- Round 7 -----------------------------------------------------------------------------


def test_round_7_clue_n_from_own_chips_on_the_horse_in_rounds_1_to_7_erratum():
    state = with_seen(with_hand(table(7), 0, "EF"), 0, 6, 13)  # B, E, F on 13
    state = {**state, "bets": [{"2": {"E": 3}, "5": {"E": 1}}, {}, {}]}
    _, result, judged = used(state, 0, clue(use=["E", "F"]), bets={"E": 2})
    assert judged["applied"]["bets"] == {"E": 2}
    # E: 3 + 1 + 2 (this round) = 6 chips, /5 rounded up = 2 rounds; F: no chips, none
    assert result["learned"] == {
        "movements": {"E": {"8": 1, "9": 1}, "F": {}},
        "n": {"E": 2, "F": 0},
    }


def test_round_7_utility_that_many_of_one_chosen_card():
    after, result, _ = used(table(7), 0, utility(use=["A", "B", "C"], gain=["D"]))
    assert result["gained"] == {"D": 3}
    assert hand_of(after, 0) == {"D": 4, "E": 1, "F": 1, "G": 1, "H": 1, "I": 1}


def test_round_7_utility_rules():
    state = with_hand(table(7), 0, "AAB")
    assert dropped_rule(state, 0, utility(use=["A", "A"], gain=["D"])) == "not_distinct"
    assert dropped_rule(state, 0, utility(use=["A", "B"], gain=["D", "E"])) == "too_many_cards"


# --- Round 8 -----------------------------------------------------------------------------


def test_round_8_clue_select_half_of_the_used_rounded_down_round_9_values():
    state = with_hand(table(8), 0, "ABCDD")
    ability = clue(use=["A", "B", "C", "D", "D"], select=["B", "D"])
    after, result, _ = used(state, 0, ability)
    assert result["learned"] == {"movements": {"B": {"9": 2}, "D": {"9": 1}}}
    assert hand_of(after, 0) == {}


def test_round_8_clue_rules():
    state = with_hand(table(8), 0, "ABCDD")
    use = ["A", "B", "C", "D", "D"]
    assert dropped_rule(state, 0, clue(use=use, select=["B"])) == "wrong_count"
    assert dropped_rule(state, 0, clue(use=use, select=["B", "E"])) == "not_within"
    _, result, _ = used(state, 0, clue(use=["A"]))  # half of 1 is 0: valid, learns nothing
    assert result["learned"] == {"movements": {}}


def test_round_8_utility_one_chip_of_limit_per_distinct_card_from_this_round_on():
    state = with_seen(with_hand(table(8), 0, "ABC"), 0, 7, 15)  # B, F on 15
    after, _, judged = used(state, 0, utility(use=["A", "B", "C"]), bets={"B": 8})
    assert judged["applied"]["bets"] == {"B": 8} and judged["dropped"] == []
    assert after["limits"][0] == 8 and after["chips"][0] == 22
    state = with_hand(table(8), 0, "AAB")
    assert dropped_rule(state, 0, utility(use=["A", "A"])) == "not_distinct"


# --- Round 9 -----------------------------------------------------------------------------


def test_round_9_clue_round_10_values():
    _, result, _ = used(table(9), 0, clue(use=["I", "A"]))
    assert result["learned"] == {"movements": {"A": {"10": 3}, "I": {"10": 2}}}


def test_round_9_utility_chips_to_bet_this_round():
    state = with_seen(with_hand(table(9), 0, "AA"), 0, 8, 9)  # D, H, I on 9
    state = {**state, "chips": [1, 30, 30]}
    after, result, judged = used(state, 0, utility(use=["A", "A"]), bets={"D": 3})
    assert judged["effects"]["chips_gained"] == 2 and judged["applied"]["bets"] == {"D": 3}
    assert after["chips"][0] == 0 and after["limits"][0] == 5
    assert result["learned"] == {"chips": 0}


def test_round_9_utility_does_not_raise_the_limit():
    state = with_seen(with_hand(table(9), 0, "AA"), 0, 8, 9)
    after, result, judged = used(state, 0, utility(use=["A", "A"]), bets={"D": 6})
    assert result is None and judged["dropped"][0]["rule"] == "over_limit"
    assert after["hands"][0]["A"] == 2 and after["chips"][0] == 30
    assert dropped_rule(with_hand(table(9), 0, "AB"), 0, utility(use=["A", "B"])) == (
        "not_identical"
    )


# --- Round 10 ----------------------------------------------------------------------------


def test_round_10_clue_all_values_of_each_horse_used_in_3_copies():
    state = with_hand(table(10), 0, "IIIAA")
    after, result, _ = used(state, 0, clue(use=["I", "I", "I", "A", "A"]))
    every = {str(r): MOVEMENTS[str(r)]["I"] for r in range(1, 11)}
    assert result["learned"] == {"movements": {"I": every}}
    assert every["10"] == 2 and every["1"] == 1
    assert hand_of(after, 0) == {}


@pytest.mark.parametrize(
    ("formula", "points", "total"),
    [
        ("n_squared", {"A": 9, "B": 20, "C": 1}, 30),  # B: 25, capped at 20
        ("triangular", {"A": 6, "B": 15, "C": 1}, 22),
        ("n", {"A": 3, "B": 5, "C": 1}, 9),
    ],
)
def test_round_10_utility_points_per_card_type_capped_at_20(formula, points, total):
    state = with_hand(table(10, options={"round10_utility": formula}), 0, "AAABBBBBC")
    after, events = play(state, {0: orders(utility(use=list("AAABBBBBC")))})
    assert one(events, "AbilityResolved", 0)["points"] == points
    assert after["scores"]["seats"][0]["utility_points"] == total


def test_the_texts_of_the_abilities_are_data_and_complete():
    for r in range(11):
        for kind in ("clue", "utility"):
            spec = bm.data.ability(r, kind)
            assert spec["text"] and spec["fields"]
