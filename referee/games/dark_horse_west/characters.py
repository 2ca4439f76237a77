"""Character abilities used in the Collection Phase, each once per phase: The Scoundrel
sells or swaps a card, The Merchant trades with the die on its card, The Tracker looks
at a face-down tile, The Homesteader produces food with the die on its card. Passive
abilities are read where they apply (table.has)."""

from collections.abc import Callable
from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from . import table
from .tokens import chosen, paid

State = dict[str, Any]
Command = dict[str, Any]
ACTIVE = ("sell_card", "swap_card", "merchant_trade", "track", "homestead")


def ability_commands(state: State, seat: int) -> list[Command]:
    """Every use_ability the seat may send now."""
    if state["phase"] != "collection":
        return []
    out = []
    for ability in ACTIVE:
        if _ready(state, seat, ability):
            out += [
                {"type": "use_ability", "ability": ability, **f}
                for f in _CHOICES[ability](state, seat)
            ]
    return out


def _ready(state: State, seat: int, ability: str) -> bool:
    if not table.has(state, seat, ability) or ability in state["used"][seat]["abilities"]:
        return False
    if ability in ("merchant_trade", "homestead"):
        return state["used"][seat]["character_die"] is not None
    return True


def use_ability(state: State, seat: int, cmd: Command) -> list[Event]:
    """AbilityUsed and what the ability does."""
    ability = cmd.get("ability")
    if ability not in ACTIVE:
        raise BadRequest(
            "command/invalid", f"ability must be one of {', '.join(ACTIVE)}", {"field": "ability"}
        )
    if not table.has(state, seat, ability):
        raise RuleViolation("rule/not_your_ability", "your character has no such ability")
    if ability in state["used"][seat]["abilities"]:
        raise RuleViolation("rule/ability_used", "each ability once per Collection Phase")
    if not _ready(state, seat, ability):
        raise RuleViolation("rule/no_character_die", "this ability needs a die on your card")
    return _USE[ability](state, seat, cmd)


def _used(seat: int, ability: str, change: dict[str, int] | None = None, **details: Any) -> Event:
    payload = {"seat": seat, "ability": ability, **details}
    if change:
        payload["change"] = table.combined(change)
    return event("AbilityUsed", payload)


def _held_card(state: State, seat: int, cmd: Command) -> str:
    card = cmd.get("card")
    if card not in state["hands"][seat]:
        raise RuleViolation("rule/card_not_held", "you hold no such card", {"field": "card"})
    return str(card)


def _sell_card(state: State, seat: int, cmd: Command) -> list[Event]:
    card = _held_card(state, seat, cmd)
    return [_used(seat, "sell_card", chosen(cmd.get("take"), 2, "take"), card=card)]


def _swap_card(state: State, seat: int, cmd: Command) -> list[Event]:
    card = _held_card(state, seat, cmd)
    taken = cmd.get("taken")
    if taken not in state["phase_discards"] or taken == card:
        raise RuleViolation(
            "rule/not_discarded",
            "take a card discarded this Collection Phase and not played",
            {"field": "taken"},
        )
    return [_used(seat, "swap_card", card=card, taken=taken)]


def _merchant_trade(state: State, seat: int, cmd: Command) -> list[Event]:
    pay = paid(state, seat, cmd.get("pay"), 2, "pay")
    take = chosen(cmd.get("take"), 1, "take")
    return [_used(seat, "merchant_trade", table.combined(table.negative(pay), take))]


def _track(state: State, seat: int, cmd: Command) -> list[Event]:
    from .collection import looked

    h = cmd.get("hex")
    return [_used(seat, "track", hex=h), looked(state, seat, h, "hex")]


def _homestead(state: State, seat: int, cmd: Command) -> list[Event]:
    return [_used(seat, "homestead", {"food": table.towns_on(state, seat, "food")})]


_USE: dict[str, Callable[[State, int, Command], list[Event]]] = {
    "sell_card": _sell_card,
    "swap_card": _swap_card,
    "merchant_trade": _merchant_trade,
    "track": _track,
    "homestead": _homestead,
}


def _sell_choices(state: State, seat: int) -> list[Command]:
    hand = sorted(set(state["hands"][seat]))
    return [{"card": c, "take": t} for c in hand for t in table.choices(2)]


def _swap_choices(state: State, seat: int) -> list[Command]:
    hand = sorted(set(state["hands"][seat]))
    pile = sorted(set(state["phase_discards"]))
    return [{"card": c, "taken": t} for c in hand for t in pile if t != c]


def _trade_choices(state: State, seat: int) -> list[Command]:
    return [{"pay": p, "take": t} for p in table.payments(state, seat, 2) for t in table.choices(1)]


def _track_choices(state: State, seat: int) -> list[Command]:
    seen = table.visible_to(state, seat)
    return [{"hex": h} for h in table.face_down(state) if h not in seen]


_CHOICES: dict[str, Callable[[State, int], list[Command]]] = {
    "sell_card": _sell_choices,
    "swap_card": _swap_choices,
    "merchant_trade": _trade_choices,
    "track": _track_choices,
    "homestead": lambda s, seat: [{}],
}
