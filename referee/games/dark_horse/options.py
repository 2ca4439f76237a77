"""The options of a Dark Horse game, their defaults and their checks."""

from typing import Any

from .._checks import invalid, is_int
from .cards import is_action, same_horse_twice
from .data import RANK_POINTS, RANKS

MAX_SEATS = 6
DECK_SIZE = (1, 200)
MAX_POINTS = 1000

OPTIONS: dict[str, Any] = {"rank_points": list(RANK_POINTS), "deck": None, "first_seat": 0}


def check_options(options: dict[str, Any]) -> None:
    """rank_points: 7 integers 0-1000, 1st to 7th; deck: null (house deck) or a list of
    action cards; first_seat: a seat number (checked against the players in initial)."""
    points = options["rank_points"]
    if not isinstance(points, list) or len(points) != RANKS or not all(map(_is_points, points)):
        raise invalid(
            "rank_points", f"rank_points must list {RANKS} integers 0-{MAX_POINTS}, 1st first"
        )
    if options["deck"] is not None:
        _check_deck(options["deck"])
    first = options["first_seat"]
    if not is_int(first) or not 0 <= first < MAX_SEATS:
        raise invalid("first_seat", f"first_seat must be a seat number 0-{MAX_SEATS - 1}")


def _is_points(value: Any) -> bool:
    return is_int(value) and 0 <= value <= MAX_POINTS


def _check_deck(deck: Any) -> None:
    """The deck's size, then each card by its place (`options.deck[i]`): well formed, and
    a two-horse card naming two horses (not one horse or one rank twice)."""
    low, high = DECK_SIZE
    if not isinstance(deck, list) or not low <= len(deck) <= high:
        raise invalid("deck", f"deck must be null or a list of {low}-{high} action cards")
    for index, card in enumerate(deck):
        if not is_action(card):
            raise invalid(
                f"deck[{index}]",
                f"deck card {index} is not an action card (see the house deck's format)",
                index=index,
            )
        if card["kind"] == "move" and same_horse_twice(card):
            raise invalid(
                f"deck[{index}]",
                f"deck card {index} names one horse twice: a two-horse card moves two horses",
                index=index,
            )
