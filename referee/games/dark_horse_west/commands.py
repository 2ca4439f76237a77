"""The commands a Dark Horse West seat sends and the fields each takes, served at
GET /rulesets/dark-horse-west (`legal` in a seat's view lists every complete one)."""

from typing import Any

from .data import ACTIONS, PRODUCE_SLOTS, RESOURCES

HEX = {"type": "string", "description": "a hex, 'q,r' (docs/rules/dark-horse-west-map.md)"}
EDGE = {"type": "string", "description": "a hex side, 'q1,r1|q2,r2'"}
RESOURCE = {"type": "string", "enum": list(RESOURCES)}
GOODS = {"type": "object", "description": "{food|wood|ore: count} (take may be {gold: 1})"}
DICE = {"type": "array", "items": {"type": "integer"}, "description": "your dice ids this turn"}
CARD = {"type": "string", "description": "a card in your hand, e.g. 'land_grant-2'"}
ACTION = {"type": "string", "enum": [a for a in ACTIONS if a != "dealer"] + ["character"]}
SLOTS = sorted({slot for slots in PRODUCE_SLOTS.values() for slot in slots})
FIELDS: dict[str, dict[str, Any]] = {
    "character": {"type": "string", "description": "a character id still free"},
    "hex": HEX,
    "hexes": {
        "type": "array",
        "items": HEX,
        "description": "Surveyor: two face-down hexes (the only one, when one is left)",
    },
    "edge": EDGE,
    "direction": {"type": "string", "enum": ["up", "down"]},
    "dice": DICE,
    "action": ACTION,
    "row": RESOURCE,
    "slot": {"type": "string", "enum": SLOTS},
    "wild": {"type": "integer", "enum": [1, -1]},
    "engineer": {"type": "object", "description": "{die, value 1-6}"},
    "share": {"type": "boolean", "enum": [True]},
    "die": {"type": "integer"},
    "move": {
        "type": "object",
        "description": "{dice | placement, to, delta (+1/-1), row, slot, share}",
    },
    "loan": GOODS,
    "card": CARD,
    "target": {"type": "integer", "description": "another seat"},
    "take": GOODS,
    "pay": GOODS,
    "resource": RESOURCE,
    "resources": {"type": "array", "items": RESOURCE},
    "remove_event": {"type": "string", "description": "the event in play to discard"},
    "build": {"type": "string", "enum": ["town", "city"]},
    "look": HEX,
    "ability": {"type": "string", "description": "an ability of your character, or a drawn event"},
    "top": {"type": "array", "items": CARD, "description": "Scout: cards back on top, top first"},
    "taken": CARD,
}


def _command(description: str, *names: str) -> dict[str, Any]:
    return {"description": description, "fields": {n: FIELDS[n] for n in names}}


COMMANDS: dict[str, Any] = {
    "choose_character": _command("Setup: take a character still free.", "character"),
    "place_city": _command("Setup: your first city (reverse turn order).", "hex"),
    "place_town": _command("Setup: one of your two first towns, next to your city.", "hex"),
    "place_rail": _command("Lay a rail you are due (start, Rail Baron, Tycoon, cards).", "edge"),
    "move_gunslinger": _command("Gunslinger: move your pawn up or down by its die.", "direction"),
    "flip_deputy": _command("Sheriff: turn the Deputy die to its bottom face, once."),
    "reroll": _command(
        "Spend a Wild Die token: re-roll one or two dice (three with the bonus die).", "dice"
    ),
    "place": _command(
        "Place dice on an action (produce: a row and an icon), with at most one modifier: "
        "wild +/-1 or engineer {die, value}; share spends an Engineer token on a taken "
        "limited action; action 'character' puts a die on your character card.",
        "action",
        "row",
        "slot",
        "dice",
        "wild",
        "engineer",
        "share",
    ),
    "dealer": _command(
        "A die on Dealer, and at once a +/-1 move of dice (move) or a loan of three "
        "resources (loan).",
        "die",
        "move",
        "loan",
    ),
    "play_card": _command(
        "Play an action card (one a game turn) just before or after one of your "
        "collections; a placement card on your placement turn.",
        "card",
        "target",
        "hex",
        "hexes",
        "take",
        "pay",
        "resource",
        "die",
        "remove_event",
    ),
    "collect": _command(
        "Collect the action whose turn it is, with its choices.",
        "pay",
        "take",
        "build",
        "hex",
        "resources",
        "look",
        "remove_event",
    ),
    "decline": _command("Take nothing from this action and pay nothing."),
    "keep_card": _command(
        "Keep one drawn card (Scout: the rest back on top, top first), or use a drawn "
        "event's ability instead.",
        "card",
        "ability",
        "top",
    ),
    "pay_loan": _command("Pay off a loan: six resources (The Banker five).", "pay"),
    "cash_stock": _command("Cash a stock token: one gold or three resources.", "take"),
    "use_ability": _command(
        "Use a character ability (each once a Collection Phase).",
        "ability",
        "card",
        "taken",
        "take",
        "pay",
        "hex",
    ),
    "pass": _command("Done for now: let the game go on."),
}
