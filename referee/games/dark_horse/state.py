"""The table of a Dark Horse game: how it starts, the deal, and how each event changes it."""

from collections.abc import Callable
from typing import Any

from ...engine.events import MODERATOR, Event, deal, event
from ...engine.rng import Rng
from .. import _versions
from .._checks import invalid
from .data import ACTION_CARDS_PER_PLAYER, BETTING_CARDS, BETTING_CARDS_PER_PLAYER, HOUSE_DECK
from .line import moved, placed
from .versions import FIRST, VERSION

State = dict[str, Any]
Payload = dict[str, Any]
SETUP, PLACEMENT, RACING, OVER = "setup", "placement", "racing", "over"


def initial(players: list[str], options: dict[str, Any], *, version: str = VERSION) -> State:
    """The table before the deal: no horse card laid, no card dealt, under the ruleset
    version the game was created with."""
    seats = len(players)
    # the one option check that needs the number of players
    if options["first_seat"] >= seats:
        raise invalid("first_seat", f"first_seat must be a seat number 0-{seats - 1}")
    deck = options["deck"] if options["deck"] is not None else HOUSE_DECK
    table = {
        "seats": seats,
        "first_seat": options["first_seat"],
        "rank_points": list(options["rank_points"]),
        # the house deck is data, not state: only a moderator's own deck is carried
        "custom_deck": options["deck"],
        "hand_size": min(ACTION_CARDS_PER_PLAYER[str(seats)], len(deck) // seats),
        "phase": SETUP,
        "turn": None,
        "line": [],
        "dark_horse": None,
        "tokens_left": 0,
        "tokens": [False] * seats,
        "betting_cards": [[] for _ in range(seats)],
        "betting_stack": [],
        "discarded_betting_cards": [],
        "hands": [[] for _ in range(seats)],
        "set_aside": [],
        "played": [],
        "pending_discard": None,
    }
    return _versions.stamped(table, version, FIRST)


def action_cards(state: State) -> list[dict[str, Any]]:
    """The action deck of this game: the moderator's own, else the house deck."""
    return state["custom_deck"] if state["custom_deck"] is not None else HOUSE_DECK


def setup(state: State, rng: Rng) -> list[Event]:
    """Deal betting cards and action cards from shuffled decks; the first seat places first."""
    return [
        *_deal_betting_cards(state, rng),
        *_deal_action_cards(state, rng),
        event("PlacementStarted", {"seat": state["first_seat"]}),
    ]


def _deal_betting_cards(state: State, rng: Rng) -> list[Event]:
    seats, each = state["seats"], BETTING_CARDS_PER_PLAYER[str(state["seats"])]
    dealt, stack = deal(
        "BettingCardsDealt", rng.shuffle("betting-cards", BETTING_CARDS), seats, each
    )
    # the stack's order is secret: only the moderator sees it
    return [*dealt, event("BettingStackFormed", {"cards": stack}, to=MODERATOR)]


def _deal_action_cards(state: State, rng: Rng) -> list[Event]:
    seats, each = state["seats"], state["hand_size"]
    cards = rng.shuffle("action-cards", list(range(len(action_cards(state)))))
    dealt, unused = deal("ActionCardsDealt", cards, seats, each)
    return [*dealt, event("ActionCardsSetAside", {"cards": sorted(unused)}, to=MODERATOR)]


def apply(state: State, ev: Event) -> State:
    """The state after one event: a new dict; the input and what it holds stay untouched."""
    change = _CHANGES.get(ev["type"])
    return state if change is None else {**state, **change(state, ev["payload"])}


def fold(state: State, events: list[Event]) -> State:
    """The state after a run of events."""
    for ev in events:
        state = apply(state, ev)
    return state


def _replace(items: list[Any], index: int, value: Any) -> list[Any]:
    return [value if i == index else item for i, item in enumerate(items)]


def _without(items: list[Any], value: Any) -> list[Any]:
    index = items.index(value)
    return items[:index] + items[index + 1 :]


def _seat_cards(state: State, key: str, p: Payload, cards: list[int]) -> Payload:
    return {key: _replace(state[key], p["seat"], sorted(cards))}


def _horse_card_placed(state: State, p: Payload) -> Payload:
    line = placed(state["line"], p["horse"], p["side"])
    return {"line": line, "turn": (p["seat"] + 1) % state["seats"]}


def _action_card_played(state: State, p: Payload) -> Payload:
    hand = _without(state["hands"][p["seat"]], p["card"])
    return {
        "hands": _replace(state["hands"], p["seat"], hand),
        "played": [*state["played"], dict(p)],
    }


def _dark_horse_token_taken(state: State, p: Payload) -> Payload:
    return {
        "tokens": _replace(state["tokens"], p["seat"], True),
        "tokens_left": state["tokens_left"] - 1,
    }


def _betting_card_discarded(state: State, p: Payload) -> Payload:
    cards = _without(state["betting_cards"][p["seat"]], p["horse"])
    discarded = [*state["discarded_betting_cards"], {"seat": p["seat"], "horse": p["horse"]}]
    return {**_seat_cards(state, "betting_cards", p, cards), "discarded_betting_cards": discarded}


def _betting_card_drawn(state: State, p: Payload) -> Payload:
    cards = [*state["betting_cards"][p["seat"]], p["horse"]]
    changes = {
        **_seat_cards(state, "betting_cards", p, cards),
        "betting_stack": state["betting_stack"][1:],
    }
    return {**changes, "pending_discard": None}


_CHANGES: dict[str, Callable[[State, Payload], Payload]] = {
    "BettingCardsDealt": lambda s, p: _seat_cards(s, "betting_cards", p, p["cards"]),
    "BettingStackFormed": lambda s, p: {"betting_stack": list(p["cards"])},
    "ActionCardsDealt": lambda s, p: _seat_cards(s, "hands", p, p["cards"]),
    "ActionCardsSetAside": lambda s, p: {"set_aside": list(p["cards"])},
    "PlacementStarted": lambda s, p: {"phase": PLACEMENT, "turn": p["seat"]},
    "HorseCardPlaced": _horse_card_placed,
    "DarkHorseRevealed": lambda s, p: {"dark_horse": p["horse"], "tokens_left": p["tokens"]},
    "RacingStarted": lambda s, p: {"phase": RACING, "turn": p["seat"]},
    "DarkHorseTokenTaken": _dark_horse_token_taken,
    "ActionCardPlayed": _action_card_played,
    "HorseMoved": lambda s, p: {"line": moved(s["line"], p["horse"], p["to_rank"])},
    "BettingCardExchangeForced": lambda s, p: {
        "pending_discard": {"seat": p["seat"], "by": p["by"]}
    },
    "BettingCardDiscarded": _betting_card_discarded,
    "BettingCardDrawn": _betting_card_drawn,
    "TurnPassed": lambda s, p: {"turn": p["seat"]},
    "RaceFinished": lambda s, p: {"phase": OVER, "turn": None},
}
