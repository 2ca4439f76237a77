"""The shape of a seat's sealed orders: what check_orders refuses (malformed JSON only)
and how it normalizes them. Whether they fit the rules is judged at resolution (judging).

    {"ability": null | {"kind": "clue" | "utility", "use": [letters], "select": [letters],
                        "gain": [letters] or letter, "guesses": [{"horse": letter, "ahead": n}]},
     "spectate": null | space,
     "bets": {letter: chips}}
"""

from typing import Any

from ...engine.errors import BadRequest
from .._checks import is_int
from .data import KINDS, ORDERS_CAPS

Orders = dict[str, Any]
ORDER_PARTS = ("ability", "spectate", "bets")
CARD_FIELDS = ("use", "select", "gain")
ABILITY_FIELDS = ("kind", *CARD_FIELDS, "guesses")
GUESS_FIELDS = {"horse", "ahead"}
ITEMS, TEXT, NUMBER = ORDERS_CAPS["items"], ORDERS_CAPS["text"], ORDERS_CAPS["number"]


def default_orders(state: dict[str, Any], seat: int) -> Orders:
    """What a seat that sent nothing is taken to have sent: no ability, no space, no bets."""
    return {"ability": None, "spectate": None, "bets": {}}


def check_orders(state: dict[str, Any], seat: int, orders: Any) -> Orders:
    """Refuse malformed orders (400, naming the field); return them normalized."""
    if not isinstance(orders, dict):
        raise invalid("orders", "orders must be an object with ability, spectate and bets")
    _known(orders, ORDER_PARTS, "orders")
    return {
        "ability": _ability(orders.get("ability")),
        "spectate": _spectate(orders.get("spectate")),
        "bets": _bets(orders.get("bets")),
    }


def invalid(field: str, message: str) -> BadRequest:
    """The error for a malformed part of the orders."""
    return BadRequest("orders/invalid", message, {"field": field})


def _known(value: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    extra = sorted(set(value) - set(keys))
    if extra:
        field = f"{where}.{extra[0]}"
        raise invalid(field, f"{field} is unknown: {where} takes {', '.join(keys)}")


def _ability(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise invalid("orders.ability", "orders.ability must be null or an object")
    _known(value, ABILITY_FIELDS, "orders.ability")
    if value.get("kind") not in KINDS:
        raise invalid("orders.ability.kind", "orders.ability.kind must be 'clue' or 'utility'")
    shaped: dict[str, Any] = {"kind": value["kind"]}
    for field in CARD_FIELDS:
        if field in value:
            shaped[field] = _letters(value[field], f"orders.ability.{field}", field == "gain")
    if "guesses" in value:
        shaped["guesses"] = _guesses(value["guesses"])
    return shaped


def _letters(value: Any, field: str, single_allowed: bool) -> list[str]:
    if single_allowed and isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or len(value) > ITEMS:
        raise invalid(field, f"{field} must be a list of at most {ITEMS} horse letters")
    for index, letter in enumerate(value):
        _text(letter, f"{field}.{index}")
    return list(value)


def _text(value: Any, field: str) -> None:
    if not isinstance(value, str) or not 1 <= len(value) <= TEXT:
        raise invalid(field, f"{field} must be a horse letter (text of 1-{TEXT} characters)")


def _guesses(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > ITEMS:
        raise invalid(
            "orders.ability.guesses",
            f"orders.ability.guesses must be a list of at most {ITEMS} guesses",
        )
    shaped = []
    for index, guess in enumerate(value):
        field = f"orders.ability.guesses.{index}"
        if not isinstance(guess, dict) or set(guess) != GUESS_FIELDS:
            raise invalid(field, f'{field} must be {{"horse": letter, "ahead": number}}')
        _text(guess["horse"], f"{field}.horse")
        _number(guess["ahead"], f"{field}.ahead", low=-NUMBER)
        shaped.append({"horse": guess["horse"], "ahead": guess["ahead"]})
    return shaped


def _number(value: Any, field: str, *, low: int) -> None:
    if not is_int(value) or not low <= value <= NUMBER:
        kind = "a positive integer" if low == 1 else "an integer"
        raise invalid(field, f"{field} must be {kind} (at most {NUMBER})")


def _spectate(value: Any) -> int | None:
    if value is not None:
        _number(value, "orders.spectate", low=-NUMBER)
    return value


def _bets(value: Any) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > ITEMS:
        raise invalid("orders.bets", f"orders.bets must be an object of at most {ITEMS} bets")
    for horse, chips in value.items():
        _text(horse, f"orders.bets.{horse}")
        _number(chips, f"orders.bets.{horse}", low=1)
    return {horse: value[horse] for horse in sorted(value)}
