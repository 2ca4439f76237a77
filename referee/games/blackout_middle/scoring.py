"""Points, garnets, Tokens of Life and the Elimination Candidate at the end of the match.

Seats are keys of `points`; every function returns seats sorted. Randomness (the EC
among a tie that survives the vote) is the caller's, from the game's seed.
"""

from typing import Any

from .data import (
    DEFAULT_OPTIONS,
    FIRST_PURCHASE_COST,
    MOST_TIED_WINNERS,
    PLACEMENT_POINTS,
    POINTS_PER_GARNET,
    PURCHASE_COST_FACTOR,
    TIED_SECOND_TOLS,
    TOLS_SECOND,
    TOLS_SOLE_WINNER,
    TOLS_TIED_WINNER,
    UTILITY_POINTS_CAP,
)
from .race import Positions, horses_on

Seat = int
Bets = dict[str, int]


def summed_bets(bets_by_round: list[dict[Seat, Bets]]) -> dict[Seat, Bets]:
    """Each seat's chips on each horse over all rounds."""
    total: dict[Seat, Bets] = {}
    for bets in bets_by_round:
        for seat, on_horses in bets.items():
            seat_total = total.setdefault(seat, {})
            for horse, chips in on_horses.items():
                seat_total[horse] = seat_total.get(horse, 0) + chips
    return total


def chip_points(bets: dict[Seat, Bets], order: list[str]) -> dict[Seat, int]:
    """Each seat's points from its chips, by each horse's final placement."""
    per_chip = {horse: PLACEMENT_POINTS[rank] for rank, horse in enumerate(order)}
    return {
        seat: sum(chips * per_chip[horse] for horse, chips in on_horses.items())
        for seat, on_horses in bets.items()
    }


def spectator_points(spectated: dict[int, int], positions_by_round: dict[int, Positions]) -> int:
    """One point per horse on the space a seat spectated, as it stood at that round's end."""
    return sum(
        len(horses_on(positions_by_round[round_number], space))
        for round_number, space in spectated.items()
    )


def utility_points(points_by_card: dict[str, int]) -> int:
    """Round 10's utility points, each card type's bonus capped at 20."""
    return sum(min(points, UTILITY_POINTS_CAP) for points in points_by_card.values())


def total_points(chips: int, spectator: int, utility: int) -> int:
    """A seat's final points: chips, spectating and Round 10's utility."""
    return chips + spectator + utility


def garnets(points: int) -> int:
    """One garnet for every full 30 points."""
    return points // POINTS_PER_GARNET


def purchase_cost(purchase: int) -> int:
    """The garnets the k-th horse-card purchase costs (1st: 2, then doubling)."""
    if purchase < 1:
        raise ValueError("purchases count from 1")  # a negative power would be a float
    return FIRST_PURCHASE_COST * PURCHASE_COST_FACTOR ** (purchase - 1)


def score_groups(points: dict[Seat, int]) -> list[list[Seat]]:
    """The seats grouped by equal points, most points first."""
    levels = sorted(set(points.values()), reverse=True)
    return [sorted(seat for seat in points if points[seat] == level) for level in levels]


def tol_awards(
    points: dict[Seat, int], *, tied_second: str = DEFAULT_OPTIONS["tied_second_tols"]
) -> dict[str, Any]:
    """Who wins ToLs and how many, and the sole winner's pending choice among tied seconds;
    `tied_second` reads "only two ToLs are given out" then (TIED_SECOND_TOLS): two in all
    (the sole winner 1) or three (the sole winner keeps its 2)."""
    groups = score_groups(points)
    first = groups[0]
    awards: dict[str, Any] = {"won": {}, "given": {}, "choice": None}
    if len(first) > MOST_TIED_WINNERS:
        return awards
    if len(first) > 1:
        awards["won"] = {seat: TOLS_TIED_WINNER for seat in first}
        return awards
    awards["won"] = {first[0]: TOLS_SOLE_WINNER}
    second = groups[1] if len(groups) > 1 else []
    if len(second) == 1:
        awards["won"][second[0]] = TOLS_SECOND
    elif second:
        awards["won"][first[0]] = TIED_SECOND_TOLS[tied_second]
        awards["choice"] = {"chooser": first[0], "among": second, "tols": TOLS_SECOND}
    return awards


def chosen(awards: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """The awards once the sole winner gives the other ToL to one of the tied seconds."""
    choice = awards["choice"]
    if choice is None or seat not in choice["among"]:
        raise ValueError(f"seat {seat} is not among the tied second places")
    return {**awards, "given": {seat: choice["tols"]}, "choice": None}


def elimination_candidate(points: dict[Seat, int]) -> dict[str, Any]:
    """The seat with the fewest points, or the tied seats and who votes among them."""
    groups = score_groups(points)
    last = groups[-1]
    if len(last) == 1:
        return {"candidate": last[0], "tied": [], "voters": []}
    won = tol_awards(points)["won"]
    # a ToL given by the sole winner's choice is not won, so it makes no voter;
    # with 5+ tied first no ToL is won and the tied first vote (addendum)
    voters = sorted(won) if won else groups[0]
    return {"candidate": None, "tied": last, "voters": voters}


def settled_vote(
    votes: dict[Seat, Seat],
    *,
    tied: list[Seat],
    voters: list[Seat],
    garnets_held: dict[Seat, int],
) -> dict[str, Any]:
    """The EC by plurality, then by its voters' garnets; a tie left is for the seed to break."""
    backers = {
        seat: [voter for voter, vote in votes.items() if vote == seat and voter in voters]
        for seat in tied
    }
    most = max(len(backers[seat]) for seat in tied)
    leading = [seat for seat in tied if len(backers[seat]) == most]
    weight = {seat: sum(garnets_held.get(voter, 0) for voter in backers[seat]) for seat in leading}
    heaviest = [seat for seat in leading if weight[seat] == max(weight.values())]
    if len(heaviest) == 1:
        return {"candidate": heaviest[0], "tied": []}
    return {"candidate": None, "tied": heaviest}
