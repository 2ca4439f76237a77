"""The options of a Blackout Middle game, their defaults (from the data file) and checks."""

from typing import Any

from .._checks import invalid, is_int
from .data import (
    DEFAULT_OPTIONS,
    LEGACY_OPTIONS,
    OPTION_RANGES,
    ROUND10_UTILITY_FORMULAS,
    TIED_SECOND_TOLS,
)

OPTIONS: dict[str, Any] = dict(DEFAULT_OPTIONS)


def check_options(options: dict[str, Any]) -> None:
    """Each number within its range (OPTION_RANGES); round10_utility one of the formulas,
    tied_second_tols one of the readings, round10_space_scores true or false."""
    for name, (low, high) in OPTION_RANGES.items():
        value = options[name]
        if not is_int(value) or not low <= value <= high:
            raise invalid(name, f"{name} must be an integer {low}-{high}")
    for name, known in (
        ("round10_utility", ROUND10_UTILITY_FORMULAS),
        ("tied_second_tols", TIED_SECOND_TOLS),
    ):
        if options[name] not in known:
            raise invalid(name, f"{name} must be one of: {', '.join(known)}")
    if not isinstance(options["round10_space_scores"], bool):
        raise invalid("round10_space_scores", "round10_space_scores must be true or false")


def option(options: dict[str, Any], name: str) -> Any:
    """An option of the game; a game created before the option existed plays as it did."""
    return options.get(name, LEGACY_OPTIONS[name])


def round10_points(formula: str, copies: int) -> int:
    """Round 10's utility points for n copies of one card type, before the cap (house)."""
    if formula == "triangular":
        return copies * (copies + 1) // 2
    if formula == "n":
        return copies
    return copies * copies
