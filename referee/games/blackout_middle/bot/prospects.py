"""What each seat may still expect from a full table (the movements known): the points it
has banked, what its chips, chip limit, current space and cards are worth in the rounds
left, and from those each seat's share of the win, for a search's cut-off (`shares`).

Worth, in points (house estimates for a bot, not rules):
- chips already bet: their placement points (the final order follows from the movements);
- next round's bet: the chips it may bet times the best placement points among the horses
  on its current space; the chips after that, CHIP_WORTH each, as many as the limit lets
  it bet in the rounds left;
- a space a round still to spectate: SPACE_WORTH;
- its cards: Round 10's utility points for its hand (before Round 7, after gathering its
  distinct cards into its most held card, as Round 7's utility does).
A seat's share is its worth to the power SHARPNESS over the sum of all those powers.
"""

from fractions import Fraction
from typing import Any

from ..data import FIRST_ROUND, LAST_ROUND, PLACEMENT_POINTS, UTILITY_POINTS_CAP
from ..options import round10_points
from ..race import final_order, race
from ..state import ROUNDS

State = dict[str, Any]
CHIP_WORTH = 6  # points a chip bet later is worth (the mean over placements is 46/9)
SPACE_WORTH = 1  # points a round's spectated space is worth
SHARPNESS = 4
GATHER_ROUND = 7  # Round 7's utility: distinct cards into copies of one
REMEMBERED = 16  # movement tables whose placement points are kept
_POINTS: dict[int, tuple[dict[str, Any], dict[str, int]]] = {}


def placement_points(state: State) -> dict[str, int]:
    """Each horse's points per chip at the end of the race, from the movement table (a
    playout's states share one table: worked out once for it)."""
    table = state["movements"]
    known = _POINTS.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    moves = {int(r): values for r, values in table.items()}
    order = final_order(*race(moves))
    points = {h: PLACEMENT_POINTS[rank] for rank, h in enumerate(order)}
    _POINTS[id(table)] = (table, points)  # the table is held, so its id is not reused
    if len(_POINTS) > REMEMBERED:
        _POINTS.pop(next(iter(_POINTS)))
    return points


def worth(state: State, seat: int, points: dict[str, int]) -> int:
    """What a seat has and may still expect, in points."""
    banked = _banked(state, seat, points)
    if state["phase"] != ROUNDS:
        return banked
    left = LAST_ROUND - state["round"] + 1  # rounds still to play, the open one included
    betting = left if state["round"] > FIRST_ROUND else left - 1
    chips, limit = state["chips"][seat], state["limits"][seat]
    now = min(chips, limit) if betting else 0
    later = min(chips - now, limit * max(0, betting - 1))
    return (
        banked
        + now * best_bet(state, seat, points)
        + later * CHIP_WORTH
        + SPACE_WORTH * betting
        + card_worth(state["hands"][seat], state["round"], state["options"])
    )


def _banked(state: State, seat: int, points: dict[str, int]) -> int:
    on_horses = sum(n * points[h] for bets in state["bets"][seat].values() for h, n in bets.items())
    utility = sum(min(UTILITY_POINTS_CAP, p) for p in state["utility_points"][seat].values())
    return on_horses + state["spectator_points"][seat] + utility


def best_bet(state: State, seat: int, points: dict[str, int]) -> int:
    """The best placement points among the horses on the seat's current space."""
    seen = state["seen"][seat].get(str(state["round"] - 1))
    return max((points[h] for h in seen["horses"]), default=0) if seen else 0


def card_worth(hand: dict[str, int], round_number: int, options: dict[str, Any]) -> int:
    """Round 10's utility points for the hand (gathered first, before Round 7's)."""
    counts = [n for n in hand.values() if n > 0]
    formula = options.get("round10_utility", "n_squared")
    kept = _utility(counts, formula)
    if round_number > GATHER_ROUND or not counts:
        return kept
    return max(kept, _utility(gathered(counts), formula))


def gathered(counts: list[int]) -> list[int]:
    """The card counts after Round 7's utility uses one of each and gains as many of the
    most held card."""
    rest = sorted(counts, reverse=True)
    most = rest.pop(0)
    return [most - 1 + len(counts)] + [n - 1 for n in rest if n > 1]


def _utility(counts: list[int], formula: str) -> int:
    return sum(min(UTILITY_POINTS_CAP, round10_points(formula, n)) for n in counts)


def shares(state: State) -> list[Fraction]:
    """Each seat's share of the win, from what each may still expect."""
    points = placement_points(state)
    weights = [worth(state, s, points) ** SHARPNESS for s in range(state["seats"])]
    total = sum(weights)
    if total == 0:
        return [Fraction(1, state["seats"])] * state["seats"]
    return [Fraction(w, total) for w in weights]
