"""Action cards: what a card says (its action), checking a deck, and the moves it makes.

An action is one of
    {"kind": "move", "targets": [{"horse": 4}] or [{"rank": 3}, ...], "steps": 1-6,
     "direction": "forward" | "back" | "choice"}
    {"kind": "rider_fall_off"}
    {"kind": "exchange"}
"""

from typing import Any

from ...engine.events import Event, event
from .._checks import is_int
from .data import HORSES, RANKS, RIDER_FALL_OFF_RANK
from .line import CHOICE, DIRECTIONS, destination, horse_at, moved

MOVE, RIDER_FALL_OFF, EXCHANGE = "move", "rider_fall_off", "exchange"
MOVE_KEYS = {"kind", "targets", "steps", "direction"}

Action = dict[str, Any]


def is_action(card: Any) -> bool:
    """Whether a card spec is well formed."""
    if not isinstance(card, dict):
        return False
    if card.get("kind") in (RIDER_FALL_OFF, EXCHANGE):
        return set(card) == {"kind"}
    return (
        card.get("kind") == MOVE
        and set(card) == MOVE_KEYS
        and card["direction"] in (*DIRECTIONS, CHOICE)
        and is_int(card["steps"])
        and 1 <= card["steps"] < RANKS
        and isinstance(card["targets"], list)
        and 1 <= len(card["targets"]) <= 2
        and all(_is_target(target) for target in card["targets"])
    )


def _is_target(target: Any) -> bool:
    if not isinstance(target, dict) or len(target) != 1:
        return False
    ((key, value),) = target.items()
    return key in ("horse", "rank") and is_int(value) and value in HORSES


def target_horses(line: list[int], action: Action) -> list[int]:
    """The horses a move card moves, fixed when the card is played (rank = rank now)."""
    return [t["horse"] if "horse" in t else horse_at(line, t["rank"]) for t in action["targets"]]


def move_events(line: list[int], action: Action, direction: str) -> list[Event]:
    """HorseMoved for each target in the card's order, the first listed moving first."""
    events = []
    for horse in target_horses(line, action):
        start = len(line) - line.index(horse)
        end = destination(line, horse, direction, action["steps"])
        line = moved(line, horse, end)
        events.append(event("HorseMoved", {"horse": horse, "from_rank": start, "to_rank": end}))
    return events


def fall_off_events(line: list[int]) -> list[Event]:
    """Rider Fall Off: the 3rd horse drops to last; the horses behind it move up one."""
    horse = horse_at(line, RIDER_FALL_OFF_RANK)
    return [
        event("HorseMoved", {"horse": horse, "from_rank": RIDER_FALL_OFF_RANK, "to_rank": RANKS})
    ]
