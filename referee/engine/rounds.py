"""Sealed simultaneous rounds with deadlines, for rulesets that define `resolve`.

The engine keeps the round's bookkeeping in `state["rounds"]`: the open round, its
deadline, each seat's latest submission, and the counted submissions not yet revealed.
Times are whole seconds since 1970-01-01 UTC and reach the core only inside recorded
commands (`now`), so re-running a command re-derives the same deadline. See
docs/rounds.md.
"""

from types import ModuleType
from typing import Any

from . import sealed
from .errors import BadRequest, RuleViolation
from .events import Event, event
from .moderator import text_field
from .registry import optional
from .rng import Rng

State = dict[str, Any]
MAX_EXTENSION = 30 * 86400

SEAT_COMMANDS: dict[str, Any] = {
    "submit_orders": {
        "description": "Send sealed orders for the open round; a later submission replaces "
        "an earlier one until the round closes.",
        "fields": {"round": "integer", "orders": "object"},
    },
}
MODERATOR_COMMANDS: dict[str, Any] = {
    "extend_deadline": {
        "description": "Move the open round's deadline later by some seconds.",
        "fields": {"seconds": "integer", "reason": "string"},
    },
    "close_round": {
        "description": "Close the open round now; it is resolved with what was submitted.",
        "fields": {"reason": "string"},
    },
    "pause": {
        "description": "Stop the clock: no round is resolved until resume.",
        "fields": {"reason": "string"},
    },
    "resume": {
        "description": "Start the clock again; the deadline moves by the time paused.",
        "fields": {"reason": "string"},
    },
}
REFEREE_COMMANDS: dict[str, Any] = {
    "resolve_round": {
        "description": "Resolve the open round once it is closed or its deadline has passed.",
        "fields": {"round": "integer"},
    },
}


def has_rounds(rules: ModuleType) -> bool:
    """Whether a ruleset plays in sealed simultaneous rounds."""
    return "resolve" in vars(rules)


def initial() -> State:
    """The round bookkeeping before the first round opens."""
    return {"current": None, "paused_at": None, "counted": [], "last_deadline": None}


# --- opening ---------------------------------------------------------------------


def opening(rules: ModuleType, rules_state: State, now: int) -> list[Event]:
    """RoundOpened for the round the rules open next, if any."""
    opened = rules.open_round(rules_state)
    if opened is None:
        return []
    deadline = now + opened["seconds"]
    return [event("RoundOpened", {"round": opened["round"], "deadline": deadline})]


# --- seats -----------------------------------------------------------------------


def submit(state: State, seat: int, command: dict[str, Any], rules: ModuleType, rng: Rng):
    """OrdersSubmitted (seen by the seat) and OrdersCommitted (public); RoundClosed when
    every seat has now submitted."""
    current = _open(state)
    now = command["now"]
    # the orders are meant for this round
    _same_round(current, command)
    # the round still takes orders
    if current["closed"]:
        raise RuleViolation("rule/round_closed", f"round {current['round']} is closed", {})
    if _past_deadline(state, now):
        raise RuleViolation(
            "rule/deadline_passed", f"the deadline of round {current['round']} has passed", {}
        )
    orders = rules.check_orders(state["rules"], seat, command.get("orders"))
    previous = current["submitted"][seat]
    number = current["round"]
    replaces = previous["seq"] if previous else None
    events = sealed.sealed(seat, number, orders, state["seq"] + 1, rng, replaces)
    if all(s is not None or i == seat for i, s in enumerate(current["submitted"])):
        events.append(event("RoundClosed", {"round": number, "why": "all_submitted"}))
    return events


def _open(state: State) -> State:
    current = state["rounds"]["current"]
    if current is None:
        raise RuleViolation("rule/no_round_open", "no round is taking orders now", {})
    return current


def _same_round(current: State, command: dict[str, Any]) -> None:
    number = command.get("round")
    if not isinstance(number, int) or isinstance(number, bool):
        raise BadRequest("command/invalid", "round must be an integer", {"field": "round"})
    if number != current["round"]:
        raise RuleViolation(
            "rule/wrong_round",
            f"round {current['round']} is open, not round {number}",
            {"field": "round", "round": current["round"]},
        )


def _past_deadline(state: State, now: int) -> bool:
    rounds = state["rounds"]
    return rounds["paused_at"] is None and now >= rounds["current"]["deadline"]


# --- the referee -----------------------------------------------------------------


def resolve(state: State, command: dict[str, Any], rules: ModuleType, rng: Rng) -> list[Event]:
    """Close (if the deadline closes it), count, resolve and reveal the open round, then
    open the next."""
    current = _open(state)
    _same_round(current, command)
    now = command["now"]
    # a paused game resolves nothing
    if state["rounds"]["paused_at"] is not None:
        raise RuleViolation("rule/paused", "the game is paused", {})
    # the round is due: closed, or past its deadline
    if not current["closed"] and now < current["deadline"]:
        raise RuleViolation(
            "rule/not_due", f"round {current['round']} is open until its deadline", {}
        )
    number = current["round"]
    events = []
    if not current["closed"]:
        events.append(event("RoundClosed", {"round": number, "why": "deadline"}))
    events.append(event("OrdersCounted", {"round": number, "seats": _counted(current)}))
    submissions = [
        s["orders"] if s else rules.default_orders(state["rules"], seat)
        for seat, s in enumerate(current["submitted"])
    ]
    resolved = rules.resolve(state["rules"], submissions, rng)
    events += resolved
    if reveals_each_round(rules):
        events += [_revealed(number, seat, s) for seat, s in _submitted(current)]
    return events + opening(rules, _rules_after(state, resolved, rules), now)


def _counted(current: State) -> list[Any]:
    """Per seat, the seq of the submission that counts, or None (the default orders)."""
    return [s["seq"] if s else None for s in current["submitted"]]


def _submitted(current: State) -> list[tuple[int, State]]:
    return [(seat, s) for seat, s in enumerate(current["submitted"]) if s]


def _rules_after(state: State, events: list[Event], rules: ModuleType) -> State:
    rules_state = state["rules"]
    for index, ev in enumerate(events):
        rules_state = rules.apply(rules_state, {**ev, "seq": state["seq"] + index + 1})
    return rules_state


def reveals_each_round(rules: ModuleType) -> bool:
    """Whether orders are revealed after each round, or kept sealed until the game ends."""
    return optional(rules, "REVEAL", "round") == "round"


def _revealed(number: int, seat: int, submitted: State) -> Event:
    return sealed.revealed(number, seat, submitted["seq"], submitted["orders"], submitted["salt"])


def final_reveals(state: State) -> list[Event]:
    """OrdersRevealed for every counted submission still sealed when play stops."""
    rounds = state.get("rounds")
    if not rounds:
        return []
    pending = list(rounds["counted"])
    current = rounds["current"]
    if current is not None:
        pending += [
            {"round": current["round"], "seat": seat, **s} for seat, s in _submitted(current)
        ]
    return [_revealed(p["round"], p["seat"], p) for p in pending]


# --- the moderator ---------------------------------------------------------------


def moderate(state: State, command: dict[str, Any]) -> list[Event]:
    """The events of the moderator's round controls, each with its reason."""
    kind, now, reason = command["type"], command["now"], text_field(command, "reason")
    rounds = state["rounds"]
    if kind == "pause":
        if rounds["paused_at"] is not None:
            raise RuleViolation("rule/paused", "the game is already paused", {})
        return [event("GamePaused", {"at": now, "reason": reason})]
    if kind == "resume":
        return [_resumed(rounds, now, reason)]
    current = _open(state)
    if current["closed"]:
        raise RuleViolation("rule/round_closed", f"round {current['round']} is closed", {})
    if kind == "close_round":
        return [
            event("RoundClosed", {"round": current["round"], "why": "moderator", "reason": reason})
        ]
    seconds = seconds_field(command)
    return [
        event(
            "DeadlineExtended",
            {
                "round": current["round"],
                "deadline": current["deadline"] + seconds,
                "reason": reason,
            },
        )
    ]


def _resumed(rounds: State, now: int, reason: str) -> Event:
    if rounds["paused_at"] is None:
        raise RuleViolation("rule/not_paused", "the game is not paused", {})
    paused = max(0, now - rounds["paused_at"])
    current = rounds["current"]
    deadline = current["deadline"] + paused if current else None
    return event(
        "GameResumed", {"at": now, "paused_seconds": paused, "deadline": deadline, "reason": reason}
    )


def seconds_field(command: dict[str, Any]) -> int:
    value = command.get("seconds")
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_EXTENSION:
        raise BadRequest(
            "command/invalid",
            f"seconds must be an integer from 1 to {MAX_EXTENSION}",
            {"field": "seconds"},
        )
    return value


# --- folding ---------------------------------------------------------------------


def apply(rounds: State, kind: str, payload: dict[str, Any], seq: int, seats: int) -> State:
    """The round bookkeeping after one of the engine's round events (a new dict, or the
    very same one for an event that changes nothing: the state hash splices it as it was)."""
    if kind == sealed.COMMITTED and type(payload) is dict and payload.get("deadline") is None:
        return rounds
    rounds = {**rounds, "current": dict(rounds["current"]) if rounds["current"] else None}
    if "deadline" in payload and payload["deadline"] is not None:
        rounds["last_deadline"] = payload["deadline"]
    _FOLD[kind](rounds, {**payload, "seq": seq, "seats": seats})
    return rounds


def _opened(rounds: State, p: dict[str, Any]) -> None:
    rounds["current"] = {
        "round": p["round"],
        "deadline": p["deadline"],
        "closed": None,
        "submitted": [None] * p["seats"],
    }


def _submitted_now(rounds: State, p: dict[str, Any]) -> None:
    current = rounds["current"]
    submitted = list(current["submitted"])
    submitted[p["seat"]] = {"seq": p["seq"], "orders": p["orders"], "salt": p["salt"]}
    current["submitted"] = submitted


def _closed(rounds: State, p: dict[str, Any]) -> None:
    rounds["current"]["closed"] = p["why"]


def _counted_now(rounds: State, p: dict[str, Any]) -> None:
    current = rounds["current"]
    counted = [{"round": current["round"], "seat": seat, **s} for seat, s in _submitted(current)]
    rounds["counted"] = rounds["counted"] + counted
    rounds["current"] = None


def _revealed_now(rounds: State, p: dict[str, Any]) -> None:
    number, seat = p["round"], p["seat"]
    rounds["counted"] = [c for c in rounds["counted"] if c["round"] != number or c["seat"] != seat]


def _new_deadline(rounds: State, p: dict[str, Any]) -> None:
    if rounds["current"] is not None:
        rounds["current"]["deadline"] = p["deadline"]


def _paused(rounds: State, p: dict[str, Any]) -> None:
    rounds["paused_at"] = p["at"]


def _resumed_now(rounds: State, p: dict[str, Any]) -> None:
    rounds["paused_at"] = None
    _new_deadline(rounds, p)


_FOLD = {
    "RoundOpened": _opened,
    "OrdersSubmitted": _submitted_now,
    "OrdersCommitted": lambda rounds, p: None,  # public record only: the state is unchanged
    "RoundClosed": _closed,
    "OrdersCounted": _counted_now,
    "OrdersRevealed": _revealed_now,
    "DeadlineExtended": _new_deadline,
    "GamePaused": _paused,
    "GameResumed": _resumed_now,
}
EVENTS = tuple(_FOLD)
