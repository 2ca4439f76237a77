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


def same_horse_twice(card: Action) -> bool:
    """Whether a move card's two targets are always one horse (the same horse or rank)."""
    targets = card["targets"]
    return len(targets) == 2 and targets[0] == targets[1]


def target_horses(line: list[int], action: Action, *, among_others: bool = True) -> list[int]:
    """The horses a move card moves, fixed when the card is played (rank = rank now).
    With `among_others` (1.1.0) a rank never names the horse the card names: that horse
    left out, the rank counts the other horses."""
    named = [t["horse"] for t in action["targets"] if "horse" in t] if among_others else []
    return [
        t["horse"] if "horse" in t else _at_rank(line, t["rank"], named) for t in action["targets"]
    ]


def _at_rank(line: list[int], rank: int, named: list[int]) -> int:
    """The horse at a rank, or, if that is a named horse, the horse at that rank among the
    others: the one just behind it (just ahead of it when it is last)."""
    if horse_at(line, rank) not in named:
        return horse_at(line, rank)
    others = [h for h in line if h not in named]
    return horse_at(others, min(rank, len(others)))


def move_events(
    line: list[int], action: Action, direction: str, *, among_others: bool = True
) -> list[Event]:
    """HorseMoved for each target in the card's order, the first listed moving first."""
    events = []
    for horse in target_horses(line, action, among_others=among_others):
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
