"""Building rule events, and who may see them."""

from typing import Any

MODERATOR = "moderator"
REFEREE = "referee"
PUBLIC = "public"

Visibility = str | list[int]
Event = dict[str, Any]


def event(type_: str, payload: dict[str, Any] | None = None, *, to: Visibility = PUBLIC) -> Event:
    """A rule event: past-tense type, payload, and who may see it (public, seats, moderator)."""
    return {"type": type_, "payload": payload or {}, "visibility": to}


def may_see(visibility: Visibility, viewer: int | str | None) -> bool:
    """Whether a viewer (seat, `moderator`, or None for a spectator) may see an event."""
    if viewer == MODERATOR or visibility == PUBLIC:
        return True
    return isinstance(viewer, int) and isinstance(visibility, list) and viewer in visibility


def deal(
    type_: str, shuffled: list[Any], seats: int, each: int, **payload: Any
) -> tuple[list[Event], list[Any]]:
    """Hands dealt from the top of a shuffled pile, each in an event only its seat sees;
    returns those events and the rest of the pile."""
    events = [
        event(
            type_,
            {**payload, "seat": s, "cards": sorted(shuffled[s * each : (s + 1) * each])},
            to=[s],
        )
        for s in range(seats)
    ]
    return events, shuffled[seats * each :]
