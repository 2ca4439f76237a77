"""Blackout Middle building blocks: the race, the placements and the end-of-match scoring."""

import pytest
from test_blackout_middle_tables import FINAL_ORDER, MOVES

from referee.games.blackout_middle import data
from referee.games.blackout_middle.race import (
    advance,
    final_order,
    horses_ahead,
    horses_on,
    placements,
    placements_at,
    race,
    start,
)
from referee.games.blackout_middle.scoring import (
    chip_points,
    chosen,
    elimination_candidate,
    garnets,
    purchase_cost,
    settled_vote,
    spectator_points,
    summed_bets,
    tol_awards,
    total_points,
    utility_points,
)

# The hand-worked race of test_blackout_middle_tables: A finishes round 5 on 16, C round
# 6 on 17, E round 7 on 16, then round 8 B on 17, F and G both on 16 (F first,
# alphabetical). D and H end on 11, I on 12.
MOVEMENTS = {r: {horse: values[r - 1] for horse, values in MOVES.items()} for r in range(1, 11)}


def test_the_numbers_are_the_texts():
    assert data.HORSES == list("ABCDEFGHI")
    assert (data.TRACK_LENGTH, data.START_SPACE, data.STARTING_CHIPS) == (15, 1, 30)
    assert (data.CHIP_LIMIT, data.FIRST_ROUND, data.LAST_ROUND) == (5, 0, 10)
    assert data.PLACEMENT_POINTS == [2, 4, 6, 8, 10, 7, 5, 3, 1]
    assert data.MOVEMENT_VALUES == [1, 2, 3]
    assert (data.POINTS_PER_GARNET, data.UTILITY_POINTS_CAP) == (30, 20)
    assert (data.TOLS_SOLE_WINNER, data.TOLS_SECOND, data.TOLS_TIED_WINNER) == (2, 1, 1)
    assert data.MOST_TIED_WINNERS == 4


# --- the race --------------------------------------------------------------------------


def test_every_horse_starts_on_space_1():
    assert start() == dict.fromkeys("ABCDEFGHI", 1)


def test_moving_past_15_finishes_landing_on_15_does_not():
    positions, finishing = advance({"A": 13, "B": 12}, {"A": 3, "B": 3})
    assert positions == {"A": 16, "B": 15}
    assert finishing == ["A"]


def test_same_round_finishers_furthest_past_the_line_first():
    positions, finishing = advance({"A": 14, "B": 15}, {"A": 2, "B": 3})
    assert positions == {"A": 16, "B": 18}
    assert finishing == ["B", "A"]


def test_same_round_finishers_tied_in_distance_go_alphabetically():
    positions, finishing = advance({"I": 14, "C": 13, "A": 15}, {"I": 3, "C": 3, "A": 1})
    assert positions == {"I": 17, "C": 16, "A": 16}
    assert finishing == ["I", "A", "C"]


def test_a_finished_horse_stays_on_its_landing_space():
    positions, finishing = advance({"A": 16, "B": 10}, {"A": 3, "B": 2})
    assert positions == {"A": 16, "B": 12}
    assert finishing == []


def test_round_0_moves_nobody():
    assert race(MOVEMENTS, through=0) == (start(), [])


def test_the_worked_race_after_round_10():
    positions, finished = race(MOVEMENTS)
    assert positions == {
        "A": 16, "B": 17, "C": 17, "D": 11, "E": 16, "F": 16, "G": 16, "H": 11, "I": 12,
    }  # fmt: skip
    assert finished == ["A", "C", "E", "B", "F", "G"]


def test_final_order_finished_first_then_closest_to_the_line_ties_alphabetical():
    assert final_order(*race(MOVEMENTS)) == FINAL_ORDER


def test_final_order_with_no_horse_finished():
    positions = {"A": 5, "B": 9, "C": 9, "D": 15, "E": 1, "F": 2, "G": 3, "H": 4, "I": 5}
    assert final_order(positions, []) == ["D", "B", "C", "A", "I", "H", "G", "F", "E"]


def test_placements_at_round_5_share_the_highest_rank_in_a_tie():
    # after round 5: A finished (16); C 14; B, E, F 11; G 10; D, H, I 6
    assert placements_at(MOVEMENTS, 5) == {
        "A": 1, "C": 2, "B": 3, "E": 3, "F": 3, "G": 6, "D": 7, "H": 7, "I": 7,
    }  # fmt: skip


def test_placements_at_round_0_all_tied_first():
    assert placements_at(MOVEMENTS, 0) == dict.fromkeys("ABCDEFGHI", 1)


def test_placements_of_finished_horses_follow_the_finishing_order():
    # F and G share space 16 but finished in order, so they do not share a placement
    assert placements(*race(MOVEMENTS, through=8))["F"] == 5
    assert placements(*race(MOVEMENTS, through=8))["G"] == 6


def test_horses_ahead_counts_strictly_greater_spaces_finished_on_their_landing_space():
    positions, _ = race(MOVEMENTS)
    assert horses_ahead(positions, "D") == 7  # everyone but D and H (both on 11)
    assert horses_ahead(positions, "A") == 2  # B and C landed on 17, though A finished first
    assert horses_ahead(positions, "B") == 0


def test_horses_on_a_space_of_the_track_only():
    positions, _ = race(MOVEMENTS)
    assert horses_on(positions, 11) == ["D", "H"]
    assert horses_on(positions, 16) == []
    assert horses_on(positions, 3) == []


# --- points ----------------------------------------------------------------------------


def test_bets_are_summed_over_rounds():
    rounds = [{0: {"F": 2}}, {0: {"F": 3, "B": 3}, 1: {"A": 1}}, {}]
    assert summed_bets(rounds) == {0: {"F": 5, "B": 3}, 1: {"A": 1}}


def test_each_chip_scores_its_horses_placement_points():
    # FINAL_ORDER: A 2, C 4, E 6, B 8, F 10, G 7, I 5, D 3, H 1 per chip
    bets = {0: {"F": 5, "B": 3}, 1: {"A": 10, "H": 2}, 2: {}, 3: {"G": 1, "I": 1, "D": 1}}
    assert chip_points(bets, FINAL_ORDER) == {0: 74, 1: 22, 2: 0, 3: 15}


def test_spectator_points_one_per_horse_on_the_spectated_space():
    by_round = {r: race(MOVEMENTS, through=r)[0] for r in range(1, 11)}
    # round 1: D, G, H, I on 2; round 5: B, E, F on 11; round 10: D, H on 11
    assert spectator_points({1: 2, 5: 11, 10: 11}, by_round) == 9
    # finished horses are off the track: spectating 16 sees no one
    assert spectator_points({10: 16}, by_round) == 0
    assert spectator_points({}, by_round) == 0


def test_round_10_utility_is_capped_at_20_per_card_type():
    assert utility_points({"A": 25, "B": 9, "C": 20}) == 49
    assert utility_points({}) == 0


def test_total_points_adds_the_three_sources():
    assert total_points(74, 9, 49) == 132


@pytest.mark.parametrize(("points", "earned"), [(0, 0), (29, 0), (30, 1), (89, 2), (90, 3)])
def test_a_garnet_for_every_30_points(points, earned):
    assert garnets(points) == earned


@pytest.mark.parametrize(("purchase", "cost"), [(1, 2), (2, 4), (3, 8), (4, 16), (5, 32)])
def test_each_purchase_costs_twice_the_previous(purchase, cost):
    assert purchase_cost(purchase) == cost


def test_purchases_count_from_1():
    with pytest.raises(ValueError):
        purchase_cost(0)


# --- Tokens of Life ----------------------------------------------------------------------


def test_sole_winner_two_tols_sole_second_one():
    awards = tol_awards({0: 50, 1: 45, 2: 30, 3: 44})
    assert awards == {"won": {0: 2, 1: 1}, "given": {}, "choice": None}


def test_tie_for_first_one_tol_each_and_no_further_tols():
    awards = tol_awards({0: 50, 1: 50, 2: 45, 3: 10})
    assert awards == {"won": {0: 1, 1: 1}, "given": {}, "choice": None}


def test_four_tied_for_first_each_win_one():
    awards = tol_awards({0: 50, 1: 50, 2: 50, 3: 50, 4: 45})
    assert awards["won"] == {0: 1, 1: 1, 2: 1, 3: 1}


def test_five_tied_for_first_no_tols():
    awards = tol_awards({0: 50, 1: 50, 2: 50, 3: 50, 4: 50, 5: 45})
    assert awards == {"won": {}, "given": {}, "choice": None}


def test_sole_winner_and_tied_second_two_tols_in_all_by_default():
    # "only two ToLs are given out": the sole winner 1, the tied player it chooses 1
    awards = tol_awards({0: 60, 1: 45, 2: 45, 3: 10})
    assert awards["won"] == {0: 1}
    assert awards["choice"] == {"chooser": 0, "among": [1, 2], "tols": 1}
    assert tol_awards({0: 60, 1: 45, 2: 45, 3: 10}, tied_second="two_in_all") == awards


def test_sole_winner_and_tied_second_three_tols_by_option():
    # the other reading: the sole winner keeps its two, the chosen tied player wins one
    awards = tol_awards({0: 60, 1: 45, 2: 45, 3: 10}, tied_second="three_in_all")
    assert awards["won"] == {0: 2}
    assert awards["choice"] == {"chooser": 0, "among": [1, 2], "tols": 1}


def test_a_single_second_is_the_same_under_both_readings():
    for reading in ("two_in_all", "three_in_all"):
        awards = tol_awards({0: 60, 1: 45, 2: 44}, tied_second=reading)
        assert awards == {"won": {0: 2, 1: 1}, "given": {}, "choice": None}


def test_the_choice_gives_one_tol_which_is_not_won():
    awards = chosen(tol_awards({0: 60, 1: 45, 2: 45, 3: 10}), 2)
    assert awards == {"won": {0: 1}, "given": {2: 1}, "choice": None}
    awards = chosen(tol_awards({0: 60, 1: 45, 2: 45, 3: 10}, tied_second="three_in_all"), 2)
    assert awards == {"won": {0: 2}, "given": {2: 1}, "choice": None}


def test_the_choice_must_be_a_tied_second():
    with pytest.raises(ValueError):
        chosen(tol_awards({0: 60, 1: 45, 2: 45, 3: 10}), 3)
    with pytest.raises(ValueError):
        chosen(tol_awards({0: 60, 1: 45, 2: 10}), 1)


# --- the Elimination Candidate -----------------------------------------------------------


def test_the_fewest_points_is_the_candidate():
    assert elimination_candidate({0: 60, 1: 45, 2: 10, 3: 11}) == {
        "candidate": 2,
        "tied": [],
        "voters": [],
    }


def test_a_tie_for_last_is_voted_on_by_the_tol_winners():
    result = elimination_candidate({0: 60, 1: 45, 2: 10, 3: 10})
    assert result == {"candidate": None, "tied": [2, 3], "voters": [0, 1]}


def test_being_given_a_tol_does_not_make_a_voter():
    # 1, 2, 3 tie for second and for last: 0 gives one of them a ToL, only 0 votes
    result = elimination_candidate({0: 60, 1: 10, 2: 10, 3: 10})
    assert result == {"candidate": None, "tied": [1, 2, 3], "voters": [0]}


def test_tied_winners_all_vote():
    result = elimination_candidate({0: 50, 1: 50, 2: 50, 3: 5, 4: 5})
    assert result == {"candidate": None, "tied": [3, 4], "voters": [0, 1, 2]}


def test_addendum_five_tied_first_and_a_tie_for_last_the_tied_first_vote():
    points = {0: 50, 1: 50, 2: 50, 3: 50, 4: 50, 5: 20, 6: 5, 7: 5}
    assert tol_awards(points)["won"] == {}
    result = elimination_candidate(points)
    assert result == {"candidate": None, "tied": [6, 7], "voters": [0, 1, 2, 3, 4]}


def test_the_vote_goes_by_plurality():
    result = settled_vote({0: 3, 1: 3, 4: 2}, tied=[2, 3], voters=[0, 1, 4], garnets_held={})
    assert result == {"candidate": 3, "tied": []}


def test_a_tied_vote_goes_to_the_one_whose_voters_hold_most_garnets():
    votes = {0: 2, 1: 3}
    result = settled_vote(votes, tied=[2, 3], voters=[0, 1], garnets_held={0: 5, 1: 2})
    assert result == {"candidate": 2, "tied": []}


def test_garnets_only_break_ties_among_the_most_votes_then_the_tie_is_left():
    votes = {0: 6, 1: 6, 2: 7, 3: 7, 4: 8}
    held = {0: 1, 1: 1, 2: 1, 3: 1, 4: 10}
    result = settled_vote(votes, tied=[6, 7, 8], voters=[0, 1, 2, 3, 4], garnets_held=held)
    assert result == {"candidate": None, "tied": [6, 7]}


def test_votes_from_non_voters_or_for_non_candidates_do_not_count():
    votes = {0: 2, 9: 3, 8: 3, 1: 5}
    result = settled_vote(votes, tied=[2, 3], voters=[0, 1], garnets_held={9: 50})
    assert result == {"candidate": 2, "tied": []}


def test_no_votes_leave_every_candidate_tied():
    result = settled_vote({}, tied=[2, 3, 4], voters=[0], garnets_held={0: 3})
    assert result == {"candidate": None, "tied": [2, 3, 4]}
