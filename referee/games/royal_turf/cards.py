"""Horse cards: the deck a game uses, dealing one card per gate, and a card's moves.

Cards are numbered from 1 in the order of the deck (the house list or the moderator's
`cards`). Standard game: a race deals the first 7 of the shuffled remaining deck, one per
gate in gate order. Royal Turf Cards: cards 1-21, three per horse in deck order; a race
draws from the shuffled remaining deck until every horse has its own card, and the
duplicates go back into the deck (reshuffled before the next race's draw).
"""

from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from .data import FACES, GATES, HORSES, HOUSE_CARDS, ROYAL_TURF_CARDS, ROYAL_TURF_PER_HORSE

State = dict[str, Any]


def deck(state: State) -> list[list[int]]:
    """The cards of this game: the moderator's own, else the house deck."""
    return state["custom_cards"] if state["custom_cards"] is not None else HOUSE_CARDS


def first_deck(state: State) -> list[int]:
    """The numbers of the cards in play at the start of the game."""
    count = ROYAL_TURF_CARDS if state["royal_turf_cards"] else len(deck(state))
    return list(range(1, count + 1))


def horse_of(card: int) -> str:
    """The horse a Royal Turf Card belongs to (three per horse, in deck order)."""
    return HORSES[(card - 1) // ROYAL_TURF_PER_HORSE]


def value(state: State, card: int, face: str) -> int:
    """How many spaces a card moves its horse for a face of the die."""
    return deck(state)[card - 1][FACES.index(face)]


def spec(state: State, card: int) -> dict[str, int]:
    """A card as the table shows it: its number and its value per face."""
    values = deck(state)[card - 1]
    return {"card": card, **dict(zip(FACES, values, strict=True))}


def dealt(state: State, race: int, rng: Rng) -> Event:
    """CardsDealt for a race: which card lies at each gate, what was drawn, set aside."""
    shuffled = rng.shuffle(f"race-{race}/deal", state["deck"])
    if state["royal_turf_cards"]:
        at_gate, drawn, set_aside = _own_card_each(shuffled)
    else:
        drawn, set_aside = shuffled[:GATES], []
        at_gate = dict(zip(HORSES, drawn, strict=True))
    return event(
        "CardsDealt", {"race": race, "cards": at_gate, "drawn": drawn, "set_aside": set_aside}
    )


def _own_card_each(shuffled: list[int]) -> tuple[dict[str, int], list[int], list[int]]:
    """Draw until every horse has a card of its own; the duplicates are set aside."""
    at_gate: dict[str, int] = {}
    drawn: list[int] = []
    set_aside: list[int] = []
    for card in shuffled:
        if len(at_gate) == GATES:
            break
        drawn.append(card)
        if horse_of(card) in at_gate:
            set_aside.append(card)
        else:
            at_gate[horse_of(card)] = card
    return {h: at_gate[h] for h in HORSES}, drawn, set_aside
