"""Galloping Horse: four players steer shared horses with race cards and collect food.

A card moves its colour's horse to the first empty space ahead on a 22-space loop;
the player whose move puts that horse strictly ahead of all others takes a food card.
Two rounds of seven cards each; most food wins, ties share the victory.
Decisions where the text is silent: ../shared/rules/README.md and docs/rules/galloping-horse.md.
"""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, deal, event
from ...engine.outcome import ranked
from ...engine.rng import Rng
from .._checks import invalid, is_int
from .board import CONTENT, board
from .data import DATA
from .describe import CHAPTER, OPTION_TEXTS, label, narrate
from .track import TRACK, first_empty_ahead

NAME = "galloping-horse"
VERSION = "1.0.0"
MIN_PLAYERS = 4
MAX_PLAYERS = 4
HORSES: list[str] = DATA["horses"]
HAND = DATA["hand_size"]
ROUNDS = DATA["rounds"]
DECK: list[str] = [h for h in HORSES for _ in range(DATA["cards_per_horse"])]
OPTIONS: dict[str, Any] = {"line_up": None, "first_seat": 0, "food_cards": DATA["food_cards"]}
COMMANDS = {
    "play_card": {
        "description": "Discard a race card and move the horse of its colour.",
        "fields": {"horse": {"type": "string", "enum": HORSES}},
    }
}

State = dict[str, Any]


def check_options(options: dict[str, Any]) -> None:
    """line_up: null or the four colours rear to front; first_seat 0-3; food_cards >= 0."""
    line_up = options["line_up"]
    if line_up is not None and (
        not isinstance(line_up, list)
        or not all(isinstance(h, str) for h in line_up)
        or sorted(line_up) != sorted(HORSES)
    ):
        raise invalid("line_up", f"line_up must list each of {', '.join(HORSES)} once")
    first = options["first_seat"]
    if not is_int(first) or first not in range(MAX_PLAYERS):
        raise invalid("first_seat", "first_seat must be a seat number 0-3")
    food = options["food_cards"]
    if not is_int(food) or not 0 <= food <= 1000:
        raise invalid("food_cards", "food_cards must be an integer 0-1000")


def initial(players: list[str], options: dict[str, Any]) -> State:
    """The table before the line-up and the deal."""
    return {
        "seats": len(players),
        "round": 0,
        "turn": None,
        "first_seat": options["first_seat"],
        "distance": {},
        "hands": [{h: 0 for h in HORSES} for _ in players],
        "food": [0 for _ in players],
        "food_stack": options["food_cards"],
        "played": 0,
        "line_up": options["line_up"],
    }


def setup(state: State, rng: Rng) -> list[Event]:
    """Line the horses up (from the options or the seed), then deal round 1."""
    line_up = state["line_up"] or rng.shuffle("line-up", HORSES)
    return [
        event("HorsesLinedUp", {"line_up": line_up}),
        *_deal(state, rng, 1, state["first_seat"]),
    ]


def _deal(state: State, rng: Rng, round_: int, first: int) -> list[Event]:
    shuffled = rng.shuffle(f"round-{round_}/deal", DECK)
    dealt, _ = deal("RaceCardsDealt", shuffled, state["seats"], HAND, round=round_)
    return [*dealt, event("RoundStarted", {"round": round_, "first_seat": first})]


def to_move(state: State) -> list[int]:
    """The seat whose turn it is."""
    return [] if state["turn"] is None else [state["turn"]]


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """One play_card per colour the seat holds, on its turn."""
    if seat != state["turn"]:
        return []
    hand = state["hands"][seat]
    return [{"type": "play_card", "horse": h} for h in HORSES if hand[h] > 0]


def timeout_move(state: State, seat: int) -> dict[str, Any]:
    """The move the referee plays for a seat out of time (docs/clocks.md): every turn is
    a card play and none is neutral, so a card of the first colour it holds, in the
    horses' fixed order (red, yellow, green, blue)."""
    return legal(state, seat)[0]


def decide(state: State, seat: int, command: dict[str, Any], rng: Rng) -> list[Event]:
    """Validate a play, then say where the horse goes, who eats, and what comes next."""
    # seat may act now
    if seat != state["turn"]:
        raise RuleViolation("rule/not_your_turn", f"it is seat {state['turn'] + 1}'s turn")
    # phase allows the command: every turn is a card play
    if command.get("type") != "play_card":
        raise BadRequest(
            "command/unknown",
            f"unknown command {command.get('type')!r}",
            {"field": "type", "known": list(COMMANDS)},
        )
    # command-specific checks
    horse = command.get("horse")
    if horse not in HORSES:
        raise BadRequest(
            "command/invalid", f"horse must be one of {', '.join(HORSES)}", {"field": "horse"}
        )
    if state["hands"][seat][horse] == 0:
        raise RuleViolation("rule/card_not_in_hand", f"you hold no {horse} race card")
    return _play(state, seat, horse, rng)


def _play(state: State, seat: int, horse: str, rng: Rng) -> list[Event]:
    start = state["distance"][horse]
    finish = first_empty_ahead(state["distance"], horse)
    events = [
        event("RaceCardPlayed", {"seat": seat, "horse": horse}),
        event("HorseMoved", {"horse": horse, "from": start, "to": finish}),
    ]
    leads = all(finish > d for h, d in state["distance"].items() if h != horse)
    if leads and state["food_stack"] > 0:
        events.append(event("FoodTaken", {"seat": seat, "horse": horse}))
    if state["played"] + 1 == state["seats"] * HAND and state["round"] < ROUNDS:
        events += _deal(state, rng, state["round"] + 1, (seat + 1) % state["seats"])
    return events


def apply(state: State, ev: dict[str, Any]) -> State:
    """The state after one event."""
    p = ev["payload"]
    kind = ev["type"]
    state = dict(state)
    if kind == "HorsesLinedUp":
        state["line_up"] = p["line_up"]
        state["distance"] = {h: i for i, h in enumerate(p["line_up"])}
    elif kind == "RaceCardsDealt":
        hands = list(state["hands"])
        hands[p["seat"]] = {h: p["cards"].count(h) for h in HORSES}
        state["hands"] = hands
    elif kind == "RoundStarted":
        state["round"], state["turn"], state["played"] = p["round"], p["first_seat"], 0
    elif kind == "RaceCardPlayed":
        hands = list(state["hands"])
        hands[p["seat"]] = {**hands[p["seat"]], p["horse"]: hands[p["seat"]][p["horse"]] - 1}
        state["hands"] = hands
        state["played"] += 1
        done = state["played"] == state["seats"] * HAND
        state["turn"] = None if done else (p["seat"] + 1) % state["seats"]
    elif kind == "HorseMoved":
        state["distance"] = {**state["distance"], p["horse"]: p["to"]}
    elif kind == "FoodTaken":
        food = list(state["food"])
        food[p["seat"]] += 1
        state["food"], state["food_stack"] = food, state["food_stack"] - 1
    return state


def outcome(state: State) -> dict[str, Any] | None:
    """Scores (food cards) and winners once both rounds are played."""
    if state["round"] < ROUNDS or state["played"] < state["seats"] * HAND:
        return None
    return ranked(state["food"])


def view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The table: horses, food, hand sizes; a seat's own hand; every hand for the moderator."""
    shown = {
        "round": state["round"],
        "turn": state["turn"],
        "line_up": state["line_up"],
        "horses": {h: {"distance": d, "space": d % TRACK} for h, d in state["distance"].items()},
        "food": state["food"],
        "food_stack": state["food_stack"],
        "hand_sizes": [sum(hand.values()) for hand in state["hands"]],
    }
    if isinstance(viewer, int):
        shown["hand"] = state["hands"][viewer]
    elif viewer == "moderator":
        shown["hands"] = state["hands"]
    return shown


__all__ = [
    "NAME",
    "VERSION",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "DATA",
    "HORSES",
    "TRACK",
    "HAND",
    "ROUNDS",
    "DECK",
    "OPTIONS",
    "COMMANDS",
    "check_options",
    "initial",
    "setup",
    "to_move",
    "legal",
    "timeout_move",
    "decide",
    "apply",
    "view",
    "outcome",
    "board",
    "narrate",
    "CHAPTER",
    "label",
    "CONTENT",
    "OPTION_TEXTS",
]
