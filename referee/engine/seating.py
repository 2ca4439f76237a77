"""Bots in seats: who hands a seat to a bot and back, and how a bot's moves are recorded
(docs/bots.md, "Where bots play").

A seat a bot holds is in `state["bots"]` (the seat number as text -> the bot's level;
the key exists once a game has had a bot, so a log without bots folds as before). The
bot's moves are that seat's own commands, marked with `bot` (its level), which the
referee sets and the rules never see, as `now`. While a bot holds a seat, a move sent
for the seat without the mark is refused: the player takes the seat back first.
"""

from types import ModuleType
from typing import Any

from . import rounds
from .errors import BadRequest, RuleViolation
from .events import Event, event
from .moderator import seat_field, text_field

State = dict[str, Any]

LEVELS = ("random", "standard", "strong")
MARK = "bot"  # the command's key that says a seat's bot sent it (set by the referee)
BY = ("moderator", "seat", "clock")  # who handed the seat to the bot

SEAT_COMMANDS: dict[str, Any] = {
    "hand_to_bot": {
        "description": "Let a bot play your seat (on holiday, say) until you take it back; "
        "a bot of another level replaces the one playing.",
        "fields": {"level": {"type": "string", "enum": list(LEVELS)}},
    },
    "take_seat_back": {
        "description": "Take your seat back from the bot playing it.",
        "fields": {},
    },
}
MODERATOR_COMMANDS: dict[str, Any] = {
    "seat_bot": {
        "description": "Hand a seat to a bot (a quiet player's, say) until it is taken "
        "back; the seat's player may take it back too.",
        "fields": {
            "seat": "integer",
            "level": {"type": "string", "enum": list(LEVELS)},
            "reason": "string",
        },
    },
    "unseat_bot": {
        "description": "Give a seat a bot plays back to its player.",
        "fields": {"seat": "integer", "reason": "string"},
    },
}
EVENTS = ("BotSeated", "BotUnseated")


def bots_of(state: State) -> dict[str, str]:
    """The seats bots hold now, as the state keeps them (seat as text -> level)."""
    return state.get("bots") or {}


def bot_of(state: State, seat: Any) -> str | None:
    """The level of the bot holding a seat, or None when its player plays it."""
    return bots_of(state).get(str(seat)) if isinstance(seat, int) else None


def created(bots: Any, seats: int) -> dict[str, str]:
    """The bots a game is created with (seat as text -> level), checked."""
    if not isinstance(bots, dict):
        raise BadRequest("command/invalid", "bots must map seats to levels", {"field": "bots"})
    held = {}
    for seat, level in bots.items():
        if not (isinstance(seat, str) and seat.isdigit() and int(seat) < seats):
            raise BadRequest(
                "players/invalid", f"there is no seat {seat} at this table", {"field": "bots"}
            )
        held[str(int(seat))] = level_field({"level": level}, f"players.{seat}.bot")
    return dict(sorted(held.items(), key=lambda item: int(item[0])))


def level_field(command: dict[str, Any], field: str = "level") -> str:
    """A command's bot level: one of LEVELS (which of them play a ruleset here is the
    service's to say: a log stays valid wherever it is re-run)."""
    level = command.get("level")
    if level not in LEVELS:
        raise BadRequest(
            "command/invalid", f"{field} must be one of {', '.join(LEVELS)}", {"field": field}
        )
    return str(level)


# --- the commands ----------------------------------------------------------------


def moderate(state: State, command: dict[str, Any]) -> list[Event]:
    """The moderator hands a seat to a bot, or gives it back to its player."""
    seat = seat_field(state, command)
    reason = text_field(command, "reason")
    if command["type"] == "seat_bot":
        return [_seated(state, seat, level_field(command), "moderator", reason)]
    return [_unseated(state, seat, "moderator", reason)]


def decide(state: State, seat: int, command: dict[str, Any]) -> list[Event]:
    """A player hands their own seat to a bot, or takes it back."""
    if command["type"] == "hand_to_bot":
        return [_seated(state, seat, level_field(command), "seat")]
    return [_unseated(state, seat, "seat")]


def seated_by_clock(state: State, seat: int, level: str) -> Event:
    """BotSeated for a seat whose clock ran out, under an autopilot that is a bot."""
    return _seated(state, seat, level, "clock")


def _seated(state: State, seat: int, level: str, by: str, reason: str | None = None) -> Event:
    # a bot of the same level already plays the seat: nothing would change
    if bot_of(state, seat) == level:
        raise RuleViolation(
            "rule/bot_seated", f"a {level} bot already plays seat {seat + 1}", {"field": "level"}
        )
    payload: dict[str, Any] = {"seat": seat, "level": level, "by": by}
    if reason is not None:
        payload["reason"] = reason
    return event("BotSeated", payload)


def _unseated(state: State, seat: int, by: str, reason: str | None = None) -> Event:
    # no bot plays the seat: there is nothing to take back
    if bot_of(state, seat) is None:
        raise RuleViolation(
            "rule/no_bot", f"no bot plays seat {seat + 1}: its player plays it", {"field": "seat"}
        )
    payload: dict[str, Any] = {"seat": seat, "by": by}
    if reason is not None:
        payload["reason"] = reason
    return event("BotUnseated", payload)


# --- who sent a seat's move ------------------------------------------------------


def unmarked(
    state: State, rules: ModuleType, actor: Any, command: dict[str, Any]
) -> dict[str, Any]:
    """The command as the rules see it (without the bot's mark), once it is the move of
    whoever plays the seat now: a marked move of a seat its bot holds, an unmarked one of
    a seat its player holds. Other commands (taking the seat back) need no mark."""
    if MARK not in command and not state.get("bots"):
        return command  # no bot holds a seat: the common case, decided at once
    moves = _moves(rules)
    if MARK not in command:
        level = bot_of(state, actor)
        if level is not None and command.get("type") in moves:
            raise RuleViolation(
                "rule/seat_played_by_bot",
                f"a {level} bot plays seat {actor + 1} now: take your seat back first "
                "(take_seat_back), then move",
                {"seat": actor, "bot": level},
            )
        return command
    level = bot_of(state, actor)
    # a bot's move: the seat's bot, of that level, sends a move
    if level is None or command[MARK] != level or command.get("type") not in moves:
        seat = f"seat {actor + 1}" if isinstance(actor, int) else str(actor)
        raise RuleViolation(
            "rule/not_the_bot",
            f"no {command[MARK]} bot plays {seat} now to send {command.get('type')}",
            {"field": MARK},
        )
    return {k: v for k, v in command.items() if k != MARK}


_MOVES: dict[ModuleType, frozenset[str]] = {}


def _moves(rules: ModuleType) -> frozenset[str]:
    """The command types that are a seat's moves in a ruleset (made once, read only)."""
    found = _MOVES.get(rules)
    if found is None:
        sealed = rounds.SEAT_COMMANDS if rounds.has_rounds(rules) else {}
        found = _MOVES[rules] = frozenset({*rules.COMMANDS, *sealed})
    return found


def to_play(state: State, waiting: list[Any]) -> list[int]:
    """The seats asked now (of `waiting`) that their bots play."""
    return [s for s in waiting if bot_of(state, s) is not None]


# --- folding ---------------------------------------------------------------------


def apply(state: State, kind: str, payload: dict[str, Any]) -> None:
    """Change a copied engine state for BotSeated or BotUnseated (done in place)."""
    bots = dict(bots_of(state))
    if kind == "BotSeated":
        bots[str(payload["seat"])] = payload["level"]
    else:
        bots.pop(str(payload["seat"]), None)
    state["bots"] = dict(sorted(bots.items(), key=lambda item: int(item[0])))
