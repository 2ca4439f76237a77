"""Turn clocks for games played in turns: a time limit per move, and what happens when a
seat lets it run out (docs/clocks.md).

A game has a clock when it was created with one (`clock` in GameCreated). Its state is
`state["clock"]`: the settings, each seat's deadline (None while the seat is not asked
anything), which seats are late or on autopilot, and the seats' own extensions left.
Times are whole seconds since 1970 UTC, and enter only inside recorded commands (`now`),
as in rounds, so re-running the log re-derives every deadline and every timeout.
"""

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import seating
from .errors import BadRequest, RuleViolation
from .events import Event, event
from .moderator import seat_field, text_field
from .rounds import seconds_field

State = dict[str, Any]
Actor = int | str

WAIT, DEFAULT, AUTOPILOT = "wait", "default", "autopilot"
ON_TIMEOUT = (WAIT, DEFAULT, AUTOPILOT)
MIN_SECONDS, MAX_SECONDS = 60, 30 * 86400
MAX_EXTENSIONS = 10
AUTOPILOT_LEVELS = ("standard", "strong")
# an autopilot plays on until someone is asked who is not on it; a game never needs more
# moves than this in one batch (the longest bot game is a few thousand moves)
MAX_AUTOPLAYED = 20_000

SETTINGS: dict[str, Any] = {
    "seconds": {"type": "integer", "minimum": MIN_SECONDS, "maximum": MAX_SECONDS},
    "on_timeout": {"type": "string", "enum": list(ON_TIMEOUT), "default": WAIT},
    "extensions": {"type": "integer", "minimum": 0, "maximum": MAX_EXTENSIONS, "default": 0},
    # who the autopilot is: the referee's standard moves (as without it), or a bot of
    # that level playing the seat until its player takes it back (docs/clocks.md)
    "autopilot_level": {"type": "string", "enum": list(AUTOPILOT_LEVELS), "optional": True},
}
SEAT_COMMANDS: dict[str, Any] = {
    "take_extension": {
        "description": "Take one of your own extensions: your deadline moves on by the "
        "clock's time limit.",
        "fields": {},
    },
    "rejoin": {
        "description": "Take your seat back from the referee's autopilot.",
        "fields": {},
    },
}
MODERATOR_COMMANDS: dict[str, Any] = {
    "extend_clock": {
        "description": "Give a seat more time for its move (a late seat too).",
        "fields": {"seat": "integer", "seconds": "integer", "reason": "string"},
    },
    "play_for": {
        "description": "Play a seat's timeout move for it now (a late seat's, say).",
        "fields": {"seat": "integer", "reason": "string"},
    },
    "pause": {
        "description": "Stop the clocks: nobody times out until resume.",
        "fields": {"reason": "string"},
    },
    "resume": {
        "description": "Start the clocks again; every deadline moves by the time paused.",
        "fields": {"reason": "string"},
    },
}
REFEREE_COMMANDS: dict[str, Any] = {
    "time_out": {
        "description": "A seat's deadline has passed: do what the clock says.",
        "fields": {"seat": "integer"},
    },
}


# --- settings --------------------------------------------------------------------


def settings(clock: Any) -> dict[str, Any]:
    """A clock as asked for at creation, checked and with its defaults (400 naming the
    field otherwise)."""
    if not isinstance(clock, dict):
        raise BadRequest("command/invalid", "clock must be an object", {"field": "clock"})
    unknown = sorted(set(clock) - set(SETTINGS))
    if unknown:
        raise BadRequest(
            "clock/invalid",
            f"the clock has no setting {unknown[0]!r}",
            {"field": f"clock.{unknown[0]}", "known": list(SETTINGS)},
        )
    if "seconds" not in clock:
        raise BadRequest(
            "clock/invalid",
            "clock.seconds (the time limit per move) is required",
            {"field": "clock.seconds"},
        )
    # an optional setting is kept only when asked for: a clock without it is as before
    resolved = {
        name: clock.get(name, shape.get("default"))
        for name, shape in SETTINGS.items()
        if name in clock or not shape.get("optional")
    }
    _whole(resolved, "seconds", MIN_SECONDS, MAX_SECONDS)
    _whole(resolved, "extensions", 0, MAX_EXTENSIONS)
    if resolved["on_timeout"] not in ON_TIMEOUT:
        raise BadRequest(
            "clock/invalid",
            f"clock.on_timeout must be one of {', '.join(ON_TIMEOUT)}",
            {"field": "clock.on_timeout"},
        )
    if resolved.get("autopilot_level", "standard") not in AUTOPILOT_LEVELS:
        raise BadRequest(
            "clock/invalid",
            f"clock.autopilot_level must be one of {', '.join(AUTOPILOT_LEVELS)}",
            {"field": "clock.autopilot_level"},
        )
    return resolved


def _whole(clock: dict[str, Any], name: str, low: int, high: int) -> None:
    value = clock[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(
            "clock/invalid",
            f"clock.{name} must be an integer from {low} to {high}",
            {"field": f"clock.{name}"},
        )


def initial(clock: dict[str, Any], seats: int) -> State:
    """A clocked game's clock before anyone is asked anything."""
    return {
        **clock,
        "deadlines": [None] * seats,
        "late": [False] * seats,
        "autopilot": [False] * seats,
        "extensions_left": [clock["extensions"]] * seats,
        "paused_at": None,
    }


# --- the commands ----------------------------------------------------------------

Mover = Callable[[State, int], list[Event]]


def decide(
    state: State, actor: Actor, command: dict[str, Any], rules: ModuleType, play: Mover
) -> list[Event]:
    """The events of a clock command; `play(state, seat)` gives the events of a seat's
    timeout move."""
    kind, now, clock = command["type"], command["now"], state["clock"]
    if kind == "time_out":
        return _time_out(state, seat_field(state, command), now, play)
    if kind == "take_extension":
        return [_own_extension(clock, actor, now)]
    if kind == "rejoin":
        if not clock["autopilot"][actor]:
            raise RuleViolation("rule/not_on_autopilot", "your seat is not on autopilot", {})
        return [event("AutopilotEnded", {"seat": actor, "why": "rejoined"})]
    if kind == "pause":
        if clock["paused_at"] is not None:
            raise RuleViolation("rule/paused", "the game is already paused", {})
        return [event("GamePaused", {"at": now, "reason": text_field(command, "reason")})]
    if kind == "resume":
        return [_resumed(clock, now, text_field(command, "reason"))]
    seat = seat_field(state, command)
    if kind == "extend_clock":
        return [_extended(state, seat, now, seconds_field(command), text_field(command, "reason"))]
    _asked(state, rules, seat)
    marker = event(
        "MovePlayedFor", {"seat": seat, "why": "moderator", "reason": text_field(command, "reason")}
    )
    return [marker, *play(state, seat)]


def _time_out(state: State, seat: int, now: int, play: Mover) -> list[Event]:
    clock = state["clock"]
    deadline = clock["deadlines"][seat]
    if clock["paused_at"] is not None:
        raise RuleViolation("rule/paused", "the game is paused", {})
    if deadline is None:
        raise RuleViolation("rule/no_clock_running", f"seat {seat + 1} is not on the clock", {})
    if now < deadline:
        raise RuleViolation("rule/not_due", f"seat {seat + 1} has until {deadline}", {})
    if clock["on_timeout"] == WAIT:
        return [event("SeatLate", {"seat": seat, "deadline": deadline})]
    autopilot = clock["on_timeout"] == AUTOPILOT
    level = clock.get("autopilot_level", "standard")
    if autopilot and level != "standard" and seating.bot_of(state, seat) is None:
        return [seating.seated_by_clock(state, seat, level)]  # the bot moves for it next
    payload = {"seat": seat, "why": "timeout", "deadline": deadline, "autopilot": autopilot}
    return [event("MovePlayedFor", payload), *play(state, seat)]


def _own_extension(clock: State, seat: Actor, now: int) -> Event:
    assert isinstance(seat, int)
    deadline = clock["deadlines"][seat]
    if deadline is None:
        raise RuleViolation("rule/no_clock_running", "your clock is not running", {})
    if clock["extensions_left"][seat] < 1:
        raise RuleViolation("rule/no_extensions_left", "you have no extension left", {})
    moved = max(deadline, now) + clock["seconds"]
    return event("ClockExtended", {"seat": seat, "deadline": moved, "by": "seat"})


def _extended(state: State, seat: int, now: int, seconds: int, reason: str) -> Event:
    clock = state["clock"]
    if clock["deadlines"][seat] is None and not clock["late"][seat]:
        raise RuleViolation("rule/no_clock_running", f"seat {seat + 1} is not on the clock", {})
    deadline = max(clock["deadlines"][seat] or now, now) + seconds
    payload = {"seat": seat, "deadline": deadline, "by": "moderator", "reason": reason}
    return event("ClockExtended", payload)


def _asked(state: State, rules: ModuleType, seat: int) -> None:
    if seat not in rules.to_move(state["rules"]):
        raise RuleViolation("rule/not_asked", f"seat {seat + 1} is not asked anything now", {})


def _resumed(clock: State, now: int, reason: str) -> Event:
    if clock["paused_at"] is None:
        raise RuleViolation("rule/not_paused", "the game is not paused", {})
    paused = max(0, now - clock["paused_at"])
    deadlines = [None if d is None else d + paused for d in clock["deadlines"]]
    payload = {"at": now, "paused_seconds": paused, "deadlines": deadlines, "reason": reason}
    return event("GameResumed", payload)


# --- after every batch -----------------------------------------------------------


def autopiloted(clock: State, waiting: list[Actor]) -> int | None:
    """The first seat asked now that the referee plays for (on autopilot), if any."""
    return next((s for s in waiting if isinstance(s, int) and clock["autopilot"][s]), None)


def setting(clock: State, waiting: list[Actor], acted: set[int], now: int) -> Event | None:
    """ClockSet when the clocks change after a batch: a seat newly asked, or asked again
    after it (or the referee for it) acted, gets the time limit from now (from the pause,
    while paused); a seat no longer asked stops its clock; a late seat that acted is late
    no more."""
    base = clock["paused_at"] if clock["paused_at"] is not None else now
    asked = {s for s in waiting if isinstance(s, int)}
    late = [was and s not in acted for s, was in enumerate(clock["late"])]
    deadlines = [
        _deadline(s, d, asked, acted, late[s], base + clock["seconds"])
        for s, d in enumerate(clock["deadlines"])
    ]
    if deadlines == clock["deadlines"] and late == clock["late"]:
        return None
    return event("ClockSet", {"deadlines": deadlines, "late": late})


def _deadline(
    seat: int, held: int | None, asked: set[int], acted: set[int], late: bool, fresh: int
) -> int | None:
    if seat not in asked or late:
        return None
    return fresh if held is None or seat in acted else held


# --- folding ---------------------------------------------------------------------


def apply(clock: State, kind: str, payload: dict[str, Any]) -> State:
    """The clock after one of its events (a new dict)."""
    clock = {key: list(value) if isinstance(value, list) else value for key, value in clock.items()}
    _FOLD[kind](clock, payload)
    return clock


def replaced(clock: State, seat: int) -> State:
    """A new player in a seat: not late, not on autopilot (the clock restarts for it)."""
    clock = apply(clock, "AutopilotEnded", {"seat": seat})
    clock["late"][seat] = False
    return clock


def _set(clock: State, p: dict[str, Any]) -> None:
    clock["deadlines"], clock["late"] = list(p["deadlines"]), list(p["late"])


def _late(clock: State, p: dict[str, Any]) -> None:
    clock["late"][p["seat"]] = True
    clock["deadlines"][p["seat"]] = None


def _played_for(clock: State, p: dict[str, Any]) -> None:
    if p.get("autopilot"):
        clock["autopilot"][p["seat"]] = True


def _extended_now(clock: State, p: dict[str, Any]) -> None:
    seat = p["seat"]
    clock["deadlines"][seat] = p["deadline"]
    clock["late"][seat] = False
    if p["by"] == "seat":
        clock["extensions_left"][seat] -= 1


def _autopilot_ended(clock: State, p: dict[str, Any]) -> None:
    clock["autopilot"][p["seat"]] = False


def _paused(clock: State, p: dict[str, Any]) -> None:
    clock["paused_at"] = p["at"]


def _resumed_now(clock: State, p: dict[str, Any]) -> None:
    clock["paused_at"] = None
    clock["deadlines"] = list(p["deadlines"])


_FOLD: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "ClockSet": _set,
    "SeatLate": _late,
    "MovePlayedFor": _played_for,
    "ClockExtended": _extended_now,
    "AutopilotEnded": _autopilot_ended,
    "GamePaused": _paused,
    "GameResumed": _resumed_now,
}
EVENTS = tuple(_FOLD)
