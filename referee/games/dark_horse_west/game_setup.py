"""Game Setup (the text's steps 1-5 that the seed decides): the turn order, characters
dealt at random, the resource tiles (four ore face up on the C spots, the rest shuffled
face down, the B spots revealed; two players leave the rugged tiles and one more out),
the action deck, and Marshal Law's event pile. The layout and the deck are written into
events nobody but the moderator sees."""

from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from . import hexes, table
from .data import SCENARIOS, SOLITAIRE, deck_cards
from .data import card_kind as kind_of
from .options import characters_available, deck_counts
from .state import NOBODY

State = dict[str, Any]


def setup(state: State, rng: Rng) -> list[Event]:
    """The random setup: turn order, characters (dealt at random unless chosen or off),
    the tiles (4 ore face up on C, the rest shuffled face down, B revealed), the deck."""
    order = rng.shuffle("setup/turn-order", list(range(state["seats"])))
    events = [event("TurnOrderDrawn", {"order": order})]
    if state["character_mode"] == "random":
        events.append(_deal_characters(state, rng))
    events += _tiles(state, rng)
    events.append(_shuffled_deck(rng, "setup/deck", _deck(state)))
    if state["solitaire"] and _scenario(state).get("events_apart"):
        pile = [c for c in _all_cards(state) if kind_of(c) == "event"]
        shuffled = rng.shuffle("setup/event-pile", pile)
        events.append(event("EventPileShuffled", {"pile": shuffled}, to=NOBODY))
    return events


def _scenario(state: State) -> dict[str, Any]:
    return SCENARIOS[state["solitaire"]["scenario"]]


def _deal_characters(state: State, rng: Rng) -> Event:
    available = characters_available(state["characters_in_play"], state["seats"])
    dealt = rng.shuffle("setup/characters", available)[: state["seats"]]
    return event("CharactersDealt", {"characters": dealt})


def _all_cards(state: State) -> list[str]:
    cards = deck_cards(deck_counts({"deck": state.get("deck_option")}))
    if state["solitaire"]:
        cards = [c for c in cards if c.rsplit("-", 1)[0] not in SOLITAIRE["removed_cards"]]
    return cards


def _deck(state: State) -> list[str]:
    """The action deck at setup (Marshal Law keeps the events apart)."""
    cards = _all_cards(state)
    if state["solitaire"] and _scenario(state).get("events_apart"):
        cards = [c for c in cards if kind_of(c) != "event"]
    return cards


def _shuffled_deck(rng: Rng, label: str, cards: list[str]) -> Event:
    return event("DeckShuffled", {"deck": rng.shuffle(label, cards)}, to=NOBODY)


def reshuffled(state: State, rng: Rng, extra: list[str]) -> Event:
    """The deck, the discard pile and `extra` cards shuffled together into a new deck."""
    label = f"deck/reshuffle-{state['shuffles'] + 1}"
    return _shuffled_deck(rng, label, sorted(state["deck"] + state["discard"] + extra))


def _tiles(state: State, rng: Rng) -> list[Event]:
    """TilesLaid (seen by nobody: the whole layout) and TilesRevealed (C and B spots)."""
    two, board = state["seats"] == 2, table.board_of(state)
    tiles = [t for t, tile in board.tiles.items() if not (two and tile["rugged"])]
    removed: list[str] = []
    if two:
        removed = [tiles.pop(rng.below("setup/two-player-removed", len(tiles)))]
    ores = [
        t for t in tiles if board.tiles[t]["resource"] == "ore" and not board.tiles[t]["rugged"]
    ]
    c_spots = [hexes.hex_key(h) for h in sorted(board.spots("C"))]
    layout = dict(zip(c_spots, ores, strict=False))
    rest = [t for t in tiles if t not in layout.values()]
    spots = sorted(
        hexes.hex_key(h)
        for h in board.spots()
        if hexes.hex_key(h) not in layout and board.in_bounds(h, players=state["seats"])
    )
    layout.update(zip(spots, rng.shuffle("setup/tiles", rest), strict=True))
    layout = dict(sorted(layout.items()))
    shown = [h for h in layout if board.cell(h)["spot"] in ("B", "C") or state["tiles_face_up"]]
    return [
        event("TilesLaid", {"layout": layout, "removed": removed}, to=NOBODY),
        event("TilesRevealed", {"tiles": {h: layout[h] for h in shown}, "why": "setup"}),
    ]
