"""Dark Horse West's ids in words, as the rule text says them (actions, cards, goods from
../dark_horse_west.json): seats, hexes written "(q,r)" as the map shows them, edges,
goods, cards, action spaces, and whose step it is (`step_words`). The narration, the
labels and the board all speak through these."""

from typing import Any

from .board_content import WORDS
from .data import ACTIONS, CARDS, CHARACTERS, card_type, gun_actions
from .hexes import hex_key, parse_edge

ORDINALS = ("1st", "2nd", "3rd", "4th")
GOODS_ORDER = tuple(WORDS["goods"])


def name_of(players: list[str], seat: Any) -> str:
    """A seat's player name (a Ghost die has no seat)."""
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    if isinstance(seat, int):
        return f"seat {seat + 1}"
    return "the Ghost" if seat is None else f"seat {seat}"


def hex_words(h: str) -> str:
    """A hex as the map labels it: "(q,r)"."""
    return f"({h})"


def edge_words(edge: str) -> str:
    """An edge as the two hexes it lies between."""
    a, b = parse_edge(edge)
    return f"between {hex_words(hex_key(a))} and {hex_words(hex_key(b))}"


def goods_words(goods: dict[str, int]) -> str:
    """Goods as "2 food + 1 Wild Die token" (signs dropped), in the usual order."""
    parts = []
    for good in sorted(goods, key=lambda g: GOODS_ORDER.index(g) if g in GOODS_ORDER else 99):
        n = abs(goods[good])
        one, many = WORDS["goods"].get(good, [good, good])
        parts.append(f"{n} {one if n == 1 else many}")
    return " + ".join(parts) or "nothing"


def change_words(change: dict[str, int]) -> str:
    """What a change of goods paid and gained: "pays 3 wood and gains 1 food"."""
    lost = {g: n for g, n in change.items() if n < 0}
    won = {g: n for g, n in change.items() if n > 0}
    parts = ([f"pays {goods_words(lost)}"] if lost else []) + (
        [f"gains {goods_words(won)}"] if won else []
    )
    return " and ".join(parts)


def card_name(card: str, among: list[str] | None = None) -> str:
    """A card's name; "#2" added when another copy of it is `among` the cards shown."""
    kind = card_type(card)
    name = str(CARDS[kind]["name"]) if kind in CARDS else card
    twins = [c for c in among or [] if card_type(c) == kind and c != card]
    return f"{name} #{card.rsplit('-', 1)[-1]}" if twins else name


def cards_words(cards: list[str], among: list[str] | None = None) -> str:
    """Cards named in order: "Drought, then Surveyor"."""
    return ", then ".join(card_name(c, among) for c in cards)


def action_name(action: str | None) -> str:
    """An action space's name ("character" is the die on a character card)."""
    if action == "character":
        return "the character card"
    return str(ACTIONS[action]["name"]) if action in ACTIONS else str(action)


def spot_words(action: str | None, row: str | None = None, slot: str | None = None) -> str:
    """An action space, with Produce Resources' row and icon: "Produce Resources: ore, 4+ icon"."""
    if action == "produce" and row:
        icon = f", {WORDS['produce_slots'].get(slot, slot)}" if slot else ""
        return f"{action_name(action)}: {row}{icon}"
    return action_name(action)


def character_name(character: str | None) -> str:
    """A character's name."""
    return str(CHARACTERS[character]["name"]) if character in CHARACTERS else "no character"


def listed(items: list[str]) -> str:
    """Words joined as "a, b and c" ("nothing" for none)."""
    if len(items) < 2:
        return items[0] if items else "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def order_words(order: list[int], players: list[str]) -> str:
    """A turn order as names, first first."""
    return ", ".join(name_of(players, s) for s in order)


def values_words(values: list[int]) -> str:
    """Dice faces added up: "3+4"."""
    return "+".join(str(v) for v in values)


def step_words(state: dict[str, Any], players: list[str]) -> str:
    """Whose step it is and what is asked of them, from a view's state."""
    task, step = state.get("task"), state.get("step")
    if task:
        who = name_of(players, task["seat"])
        if task["kind"] == "rails":
            why = WORDS["rails_why"].get(task["why"], task["why"])
            return f"{who} lays {rails_words(task['count'])} ({why})"
        return f"{who} keeps a card ({action_name(task['action'])})"
    if not step:
        return ""
    who = name_of(players, step.get("seat"))
    kind = step["kind"]
    if kind == "setup":
        piece = {"character": "chooses a character", "city": "places a first city"}
        return f"{who} {piece.get(step['piece'], 'places a first town')}"
    if kind == "collect":
        done = " (may play a card or settle up)" if step.get("collected") else ""
        return f"{who} collects {action_name(step['action'])}{done}"
    words = {
        "gunslinger": "moves the Gunslinger pawn",
        "place": "places dice",
        "settle": "may pay loans, cash stock or use abilities",
    }
    return f"{who} {words.get(kind, kind)}"


def rails_words(count: int) -> str:
    """ "a rail", "3 rails"."""
    return "a rail" if count == 1 else f"{count} rails"


def gun_spot(position: int) -> str:
    """A Gunslinger pawn's place on the track and the actions it stands on."""
    return f"{position} ({' and '.join(action_name(a) for a in gun_actions(position))})"
