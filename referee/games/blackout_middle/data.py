"""The numbers of Blackout Middle, read once from ../blackout_middle.json."""

from typing import Any

from .._data import load

DATA: dict[str, Any] = load("blackout_middle.json")

HORSES: list[str] = DATA["horses"]
TRACK_LENGTH: int = DATA["track_length"]
START_SPACE: int = DATA["start_space"]
MOVEMENT_VALUES: list[int] = DATA["movement_values"]
FIRST_ROUND: int = DATA["first_round"]
LAST_ROUND: int = DATA["last_round"]
STARTING_CHIPS: int = DATA["starting_chips"]
CHIP_LIMIT: int = DATA["chip_limit"]
PLACEMENT_POINTS: list[int] = DATA["placement_points"]
POINTS_PER_GARNET: int = DATA["points_per_garnet"]
FIRST_PURCHASE_COST: int = DATA["first_purchase_cost"]
PURCHASE_COST_FACTOR: int = DATA["purchase_cost_factor"]
TOLS_SOLE_WINNER: int = DATA["tols"]["sole_winner"]
TOLS_SECOND: int = DATA["tols"]["second"]
TOLS_TIED_WINNER: int = DATA["tols"]["tied_winner"]
MOST_TIED_WINNERS: int = DATA["tols"]["most_tied_winners"]
TIED_SECOND_TOLS: dict[str, int] = DATA["tied_second_tols"]
UTILITY_POINTS_CAP: int = DATA["utility_points_cap"]
DEFAULT_OPTIONS: dict[str, Any] = DATA["options"]
LEGACY_OPTIONS: dict[str, Any] = DATA["legacy_options"]
OPTION_RANGES: dict[str, list[int]] = DATA["option_ranges"]
ROUND10_UTILITY_FORMULAS: dict[str, str] = DATA["round10_utility_formulas"]
ORDERS_CAPS: dict[str, int] = DATA["orders_caps"]
OPEN_OFFERS_PER_SEAT: int = DATA["open_offers_per_seat"]
ABILITIES: dict[str, dict[str, dict[str, Any]]] = DATA["abilities"]
ROUNDS: list[int] = list(range(FIRST_ROUND, LAST_ROUND + 1))
CLUE, UTILITY = "clue", "utility"
KINDS = (CLUE, UTILITY)


def ability(round_number: int, kind: str) -> dict[str, Any]:
    """The text, the card fields and the numbers of one round's clue or utility ability."""
    return ABILITIES[str(round_number)][kind]
