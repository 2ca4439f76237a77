"""The numbers and house content of Dark Horse West, read once from ../dark_horse_west.json:
the action board, costs, the 27-card action deck, the 7 characters, Solitaire and
Gunslinger tables. The map and tiles are read by hexes.py."""

from typing import Any

from .._data import load

DATA: dict[str, Any] = load("dark_horse_west.json")

RESOURCES: tuple[str, ...] = tuple(DATA["resources"])
TOKENS = ("wild", "engineer", "loan", "stock")
GOODS = (*RESOURCES, "gold", "influence", *TOKENS)
CITIES: int = DATA["pieces"]["cities"]
TOWNS: int = DATA["pieces"]["towns"]
COSTS: dict[str, Any] = DATA["costs"]
START_BONUS: dict[str, int] = DATA["start_bonus"]

ACTIONS: dict[str, dict[str, Any]] = {a["id"]: a for a in DATA["actions"]}
BOARD: list[str] = [a["id"] for a in DATA["actions"]]  # collection order
PRODUCE_SLOTS: dict[str, list[str]] = {
    k: v for k, v in DATA["produce_slots"].items() if not k.startswith("_")
}
PRODUCE_PLUS: int = DATA["produce_plus"]
ROLES = ("mayor", "sheriff")

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["cards"]}
HOUSE_DECK: dict[str, int] = {c["id"]: c["copies"] for c in DATA["cards"]}
CHARACTERS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["characters"]}

SOLITAIRE: dict[str, Any] = DATA["solitaire"]
SCENARIOS: dict[str, dict[str, Any]] = SOLITAIRE["scenarios"]
DIFFICULTIES = tuple(SOLITAIRE["ghost_pairs"])
GUNSLINGER: dict[str, Any] = DATA["gunslinger"]
GUN_LOW, GUN_HIGH = 2, 12


def card_kind(card: str) -> str:
    """The kind ("event" or "action") of a card instance such as "land_grant-2"."""
    return CARDS[card_type(card)]["kind"]


def card_type(card: str) -> str:
    """The card a card instance is a copy of: "land_grant-2" -> "land_grant"."""
    return card.rsplit("-", 1)[0]


def deck_cards(counts: dict[str, int]) -> list[str]:
    """The card instances of a deck given as copies per card, in data order."""
    return [f"{c}-{i}" for c in CARDS if c in counts for i in range(1, counts[c] + 1)]


def gun_actions(position: int) -> list[str]:
    """The action or actions (10: Mayor and Sheriff) a Gunslinger pawn at `position` is on."""
    spot = GUNSLINGER["track"][position - GUN_LOW]
    return list(spot) if isinstance(spot, list) else [spot]


def gun_position(action: str) -> int:
    """The Gunslinger track number of an action (2-12)."""
    return next(GUN_LOW + i for i in range(11) if action in gun_actions(GUN_LOW + i))
