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
UTILITY_POINTS_CAP: int = DATA["utility_points_cap"]
