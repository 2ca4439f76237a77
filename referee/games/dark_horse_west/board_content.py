"""What the pages say about Dark Horse West's ids, read from ../dark_horse_west.json
(`content`, `drawing`, `option_texts`) and the house map: CONTENT, served beside the
ruleset so a client can explain "land_grant-2" or "rail_baron", OPTION_TEXTS for the
new-game form, and the words and colours the board, words.py, narration.py and labels.py use."""

from typing import Any

from .data import ACTIONS, CARDS, CHARACTERS, DATA, SCENARIOS
from .hexes import MAP

WORDS: dict[str, Any] = DATA["content"]
DRAWING: dict[str, Any] = DATA["drawing"]
OPTION_TEXTS: dict[str, str] = dict(DATA["option_texts"])


def _action(action: dict[str, Any]) -> dict[str, Any]:
    kept = ("name", "number", "kind", "need")
    return {**{k: action[k] for k in kept}, **WORDS["actions"][action["id"]]}


def _public(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry of the data file without its id (the key says it)."""
    return {k: v for k, v in entry.items() if k != "id"}


CONTENT: dict[str, Any] = {
    "_note": "Card ids in views are copies, 'land_grant-2': the card is the part before "
    "the last '-'. Hexes are 'q,r', edges 'q1,r1|q2,r2' (docs/rules/dark-horse-west-map.md).",
    "actions": {a: _action(data) for a, data in ACTIONS.items()},
    "action_kinds": WORDS["action_kinds"],
    "produce_slots": WORDS["produce_slots"],
    "cards": {c: _public(data) for c, data in CARDS.items()},
    "icons": WORDS["icons"],
    "characters": {c: _public(data) for c, data in CHARACTERS.items()},
    "abilities": WORDS["abilities"],
    "goods": {g: names[0] for g, names in WORDS["goods"].items()},
    "scenarios": {
        s: {**data, "victory_text": WORDS["victories"][data["victory"]]}
        for s, data in SCENARIOS.items()
    },
    "difficulties": WORDS["difficulties"],
    "map": {k: v for k, v in MAP.items() if not k.startswith("_")},
    "seat_colours": [name for _, name in DRAWING["seat_colours"]],
}
