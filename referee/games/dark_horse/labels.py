"""Dark Horse's legal commands as button labels in the game's words (`label`)."""

from typing import Any

from . import cards
from .line import CHOICE
from .words import SIDE_WORDS, action_of, card_moves, moves_text, name_of, targets_text

Action = dict[str, Any]
Event = dict[str, Any]
Command = dict[str, Any]
View = dict[str, Any]
Move = tuple[int, int, int]  # horse, from rank, to rank

# -- labels -----------------------------------------------------------------------------


def label(command: Command, view: View) -> str:
    """A legal command as a button text: 'Play card 17: move the 3rd horse back 1 (#1 3rd
    to 4th)', 'Lay horse #4 at the left end (the rear)'."""
    kind = command.get("type")
    if kind == "place_horse":
        return _place_label(command)
    if kind == "discard_betting_card":
        return f"Discard your betting card on #{command['horse']} and draw a new one"
    if kind == "play_card":
        return _play_label(command, view)
    return str(kind)


def _place_label(command: Command) -> str:
    side = command.get("side")
    where = SIDE_WORDS[side] if side in SIDE_WORDS else "in the middle (the first horse card)"
    return f"Lay horse #{command['horse']} {where}"


def _play_label(command: Command, view: View) -> str:
    card = command["card"]
    action = action_of(card, view)
    token = ", and take a Dark Horse token" if command.get("take_token") else ""
    if action is None:
        return f"Play card {card}{token}"
    return f"Play card {card}: {_effect_label(command, action, view)}{token}"


def _effect_label(command: Command, action: Action, view: View) -> str:
    if action["kind"] == cards.EXCHANGE:
        return _exchange_label(command.get("exchange"), view)
    line = view.get("state", {}).get("line", [])
    moves = card_moves(line, action, command.get("direction"), view.get("ruleset_version"))
    if action["kind"] == cards.RIDER_FALL_OFF:
        return f"Rider Fall Off ({moves_text(moves)})"
    way = action["direction"] if action["direction"] != CHOICE else command.get("direction", "")
    return f"move {targets_text(action['targets'])} {way} {action['steps']} ({moves_text(moves)})"


def _exchange_label(exchange: dict[str, Any] | None, view: View) -> str:
    if exchange is None:
        return "Exchange Betting Card, no effect (the stack is empty)"
    if "discard" in exchange:
        discard = exchange["discard"]
        return f"Exchange Betting Card: discard your betting card on #{discard}, draw a new one"
    name = name_of(view.get("players", []), exchange["seat"])
    return f"Exchange Betting Card: {name} must discard a betting card and draw a new one"
