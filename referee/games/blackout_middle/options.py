"""The options of a Blackout Middle game, their defaults (from the data file) and checks."""

from typing import Any

from .._checks import invalid, is_int
from .data import DEFAULT_OPTIONS, OPTION_RANGES, ROUND10_UTILITY_FORMULAS

OPTIONS: dict[str, Any] = dict(DEFAULT_OPTIONS)


def check_options(options: dict[str, Any]) -> None:
    """Each number within its range (OPTION_RANGES); round10_utility one of the formulas."""
    for name, (low, high) in OPTION_RANGES.items():
        value = options[name]
        if not is_int(value) or not low <= value <= high:
            raise invalid(name, f"{name} must be an integer {low}-{high}")
    if options["round10_utility"] not in ROUND10_UTILITY_FORMULAS:
        known = ", ".join(ROUND10_UTILITY_FORMULAS)
        raise invalid("round10_utility", f"round10_utility must be one of: {known}")


def round10_points(formula: str, copies: int) -> int:
    """Round 10's utility points for n copies of one card type, before the cap (house)."""
    if formula == "triangular":
        return copies * (copies + 1) // 2
    if formula == "n":
        return copies
    return copies * copies
