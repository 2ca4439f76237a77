"""Moderator commands, the same in every ruleset; each is recorded with its reason."""

from typing import Any

from .errors import BadRequest, RuleViolation
from .events import PUBLIC, Event

COMMANDS: dict[str, Any] = {
    "announce": {"description": "Post a public announcement.", "fields": {"text": "string"}},
    "abandon": {"description": "Abandon the game.", "fields": {"reason": "string"}},
    "replace_player": {
        "description": "Seat a new player: a new token is issued, the old one stops working; "
        "the seat keeps its cards and score.",
        "fields": {"seat": "integer", "name": "string", "reason": "string"},
    },
}
NAME_LIMIT = 40


def decide(state: dict[str, Any], command: dict[str, Any]) -> list[Event]:
    """The events of one moderator command (its fields already checked by name)."""
    kind = command["type"]
    if kind == "announce":
        return [_public("AnnouncementPosted", text=text_field(command, "text"))]
    if kind == "abandon":
        return [_public("GameAbandoned", reason=text_field(command, "reason"))]
    return [_replacement(state, command)]


def _replacement(state: dict[str, Any], command: dict[str, Any]) -> Event:
    seat = seat_field(state, command)
    name = text_field(command, "name", limit=NAME_LIMIT)
    reason = text_field(command, "reason")
    return _public("PlayerReplaced", seat=seat, name=name, reason=reason)


def apply(state: dict[str, Any], kind: str, payload: dict[str, Any]) -> None:
    """Change a copied engine state for a moderator event (done in place on the copy)."""
    if kind == "PlayerReplaced":
        players = list(state["players"])
        players[payload["seat"]] = payload["name"]
        state["players"] = players


def _public(kind: str, **payload: Any) -> Event:
    return {"type": kind, "visibility": PUBLIC, "payload": payload}


def seat_field(state: dict[str, Any], command: dict[str, Any]) -> int:
    """A command's `seat`: a seat number at this table."""
    seat = command.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("command/invalid", "seat must be a seat number", {"field": "seat"})
    if seat not in range(len(state["players"])):
        raise RuleViolation(
            "rule/no_such_seat",
            f"there is no seat {seat} at this table: seat ids are 0-{len(state['players']) - 1}",
            {"field": "seat"},
        )
    return seat


def text_field(command: dict[str, Any], field: str, *, limit: int = 4000) -> str:
    """A command's text field: 1 to `limit` characters, not only white space."""
    value = command.get(field)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadRequest(
            "command/invalid", f"{field} must be text of 1-{limit} characters", {"field": field}
        )
    return value
