"""Disputes, the same in every ruleset: the moderator opens one (a claim and the
amendment to try), rules on it (kept, or amended), and a fork records where it came from.

Disputes come after the end too, so their commands are taken in a finished or abandoned
game; only a game closed by an amended ruling takes none. An amended ruling in a game
still being played closes it (`forked`) without revealing anything: play goes on in the
fork, under the same seed. See docs/disputes.md.
"""

from typing import Any

from .errors import BadRequest, RuleViolation
from .events import MODERATOR, PUBLIC, Event, event
from .moderator import text_field

State = dict[str, Any]
FORKED = "forked"
RULINGS = ("kept", "amended")
AMENDMENTS = {
    "submission": ("round", "seat", "orders"),
    "drop": ("seq",),
    "insert": ("before", "actor", "command"),
    "replace": ("seq", "command"),
}
EVENTS = ("DisputeOpened", "DisputeRuled")
MODERATOR_COMMANDS: dict[str, Any] = {
    "open_dispute": {
        "description": "Record a dispute: the claim and the amendment to try "
        "(POST /games/{id}/disputes runs the fork and answers with its consequences).",
        "fields": {"claim": "string", "amendment": "object"},
    },
    "rule_dispute": {
        "description": "Rule on a dispute: kept, or amended (the game goes on in a fork).",
        "fields": {"dispute": "integer", "ruling": "string", "reason": "string"},
    },
}
REFEREE_COMMANDS: dict[str, Any] = {
    "record_fork": {
        "description": "The first event of a fork: the game and event it was forked from.",
        "fields": {"from_game": "string", "at": "integer", "at_hash": "string", "dispute": "any"},
    },
}
COMMANDS = (*MODERATOR_COMMANDS, *REFEREE_COMMANDS)
STAMPED = ("now", "fork")  # set by the referee, never by a client


def is_dispute_command(command: dict[str, Any]) -> bool:
    """Whether a command belongs to disputes rather than to play."""
    return command.get("type") in COMMANDS


def decide(state: State, actor: Any, command: dict[str, Any]) -> list[Event]:
    """The events of one dispute command; its fields are checked here."""
    kind = command["type"]
    # the command's sender: the moderator opens and rules, the referee records forks
    if (actor == MODERATOR) != (kind in MODERATOR_COMMANDS):
        raise RuleViolation("rule/not_allowed", f"{kind} is not yours to send", {})
    # a game closed by an amended ruling takes nothing more
    if state["status"] == FORKED:
        raise RuleViolation(
            "game/over", "the game was closed by a ruling; play goes on in its fork", {}
        )
    if kind == "open_dispute":
        return [_opened(state, command)]
    if kind == "rule_dispute":
        return [_ruled(state, command)]
    return [_forked(state, command)]


def _opened(state: State, command: dict[str, Any]) -> Event:
    claim = text_field(command, "claim")
    amendment = check_amendment(command.get("amendment"), len(state["players"]))
    payload = {"dispute": state["seq"] + 1, "claim": claim, "amendment": amendment}
    # the amendment may hold a seat's sealed orders: for the moderator until the end
    return event("DisputeOpened", payload, to=MODERATOR)


def check_amendment(amendment: Any, seats: int) -> dict[str, Any]:
    """An amendment's shape: its kind and exactly that kind's fields."""
    if not isinstance(amendment, dict) or amendment.get("kind") not in AMENDMENTS:
        raise BadRequest(
            "command/invalid",
            f"amendment.kind must be one of {', '.join(AMENDMENTS)}",
            {"field": "amendment.kind"},
        )
    kind = amendment["kind"]
    fields = set(amendment) - {"kind"}
    if fields != set(AMENDMENTS[kind]):
        odd = sorted(fields ^ set(AMENDMENTS[kind]))[0]
        raise BadRequest(
            "command/invalid",
            f"a {kind} amendment has the fields {', '.join(AMENDMENTS[kind])} (not {odd!r})",
            {"field": f"amendment.{odd}"},
        )
    for name in ("round", "seq", "before"):
        if name in amendment:
            _count(amendment[name], f"amendment.{name}")
    if kind == "submission" and amendment["seat"] not in range(seats):
        raise BadRequest(
            "command/invalid",
            f"there is no seat {amendment['seat']!r}: seat ids are 0-{seats - 1}",
            {"field": "amendment.seat"},
        )
    if kind == "insert":
        _check_actor(amendment["actor"], seats)
    if kind in ("insert", "replace"):
        _check_command(amendment["command"])
    return amendment


def _check_actor(actor: Any, seats: int) -> None:
    if actor != MODERATOR and (not isinstance(actor, int) or actor not in range(seats)):
        raise BadRequest(
            "command/invalid",
            "amendment.actor must be a seat or `moderator`",
            {"field": "amendment.actor"},
        )


def _check_command(command: Any) -> None:
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise BadRequest(
            "command/invalid",
            "amendment.command must be a command object",
            {"field": "amendment.command"},
        )
    if is_dispute_command(command):
        raise BadRequest(
            "command/invalid",
            "a dispute command cannot be put in",
            {"field": "amendment.command"},
        )


def _ruled(state: State, command: dict[str, Any]) -> Event:
    number = _count(command.get("dispute"), "dispute")
    opened = state.get("disputes", {}).get(str(number))
    # the dispute exists and has no ruling yet
    if opened is None:
        raise RuleViolation(
            "rule/no_such_dispute", f"no dispute {number} in this game", {"field": "dispute"}
        )
    if opened["ruling"] is not None:
        raise RuleViolation(
            "rule/already_ruled", f"dispute {number} was ruled {opened['ruling']}", {}
        )
    ruling = command.get("ruling")
    if ruling not in RULINGS:
        raise BadRequest("command/invalid", "ruling must be kept or amended", {"field": "ruling"})
    payload = {"dispute": number, "ruling": ruling, "reason": text_field(command, "reason")}
    if ruling == "amended":
        payload["fork"] = _fork_named(command.get("fork"))
    return event("DisputeRuled", payload)


def _fork_named(fork: Any) -> dict[str, Any]:
    """The fork an amended ruling opens, as the referee names it: its game and the last
    event it shares with this one."""
    if (
        not isinstance(fork, dict)
        or sorted(fork) != ["at", "game_id"]
        or not isinstance(fork["game_id"], str)
    ):
        raise BadRequest("command/invalid", "the referee names the fork of an amended ruling", {})
    return {"game_id": fork["game_id"], "at": _count(fork["at"], "fork.at")}


def _forked(state: State, command: dict[str, Any]) -> Event:
    payload = {key: command.get(key) for key in ("from_game", "at", "at_hash", "dispute")}
    # a fork is recorded right after the events it shares with its original (a fork of
    # a fork shares the first GameForked too: the new link replaces it)
    if payload["at"] != state["seq"]:
        raise RuleViolation(
            "rule/not_a_fork_point", "a fork is recorded right after its shared events", {}
        )
    return event("GameForked", payload, to=PUBLIC)


def apply(state: State, kind: str, payload: dict[str, Any], seq: int) -> None:
    """Change a copied engine state for a dispute event (in place on the copy)."""
    if kind == "GameForked":
        state["forked_from"] = payload
        return
    disputes = dict(state.get("disputes", {}))
    if kind == "DisputeOpened":
        disputes[str(seq)] = {
            "claim": payload["claim"],
            "amendment": payload["amendment"],
            "ruling": None,
        }
    else:
        ruled = disputes[str(payload["dispute"])]
        disputes[str(payload["dispute"])] = {**ruled, "ruling": payload["ruling"]}
        if payload["ruling"] == "amended" and state["status"] == "active":
            state["status"], state["forked_to"] = FORKED, payload["fork"]["game_id"]
    state["disputes"] = disputes


def listed(state: State) -> list[dict[str, Any]]:
    """A game's disputes, oldest first: number (the seq that opened it), claim,
    amendment, and ruling (None while open)."""
    held = state.get("disputes", {})
    return [{"dispute": int(n), **held[n]} for n in sorted(held, key=int)]


def _count(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadRequest("command/invalid", f"{field} must be a whole number", {"field": field})
    return value
