"""Standing choices: a seat's answers, set in advance, to the routine questions its
ruleset lists (docs/clocks.md, "Standing choices").

A ruleset in turns that has any lists them in `STANDING_CHOICES` (id -> what it does)
and answers with `standing_answer(state, seat, choices) -> (choice, command) or None`,
a pure function that reads only what every seat may know (so that an answer made for a
seat tells the others nothing of its hand). A seat sets its choices with
`set_standing_choices`, privately; the referee then plays each answer as that seat's own
command the moment the question comes, in the same batch.
"""

from types import ModuleType
from typing import Any

from .errors import BadRequest
from .events import Event, event
from .registry import optional

State = dict[str, Any]

SEAT_COMMANDS: dict[str, Any] = {
    "set_standing_choices": {
        "description": "Set your standing choices (the ruleset's list; an empty list clears "
        "them): the referee answers those questions for you as they come.",
        "fields": {"choices": {"type": "array", "items": {"type": "string"}}},
    },
}


def offered(rules: ModuleType) -> dict[str, str]:
    """The standing choices a ruleset lists (none for most)."""
    return optional(rules, "STANDING_CHOICES", {})


def decide(rules: ModuleType, seat: int, command: dict[str, Any]) -> list[Event]:
    """StandingChoicesSet, seen by the seat alone (and the moderator)."""
    choices = command.get("choices")
    known = offered(rules)
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise BadRequest(
            "command/invalid", "choices must be a list of choice ids", {"field": "choices"}
        )
    unknown = [c for c in choices if c not in known]
    if unknown:
        raise BadRequest(
            "command/invalid",
            f"{rules.NAME} has no standing choice {unknown[0]!r}",
            {"field": "choices", "known": list(known)},
        )
    chosen = [c for c in known if c in choices]  # the ruleset's order, each once
    return [event("StandingChoicesSet", {"seat": seat, "choices": chosen}, to=[seat])]


def apply(state: State, payload: dict[str, Any]) -> list[list[str]]:
    """Every seat's standing choices after a StandingChoicesSet."""
    held = [list(c) for c in state.get("standing", [[] for _ in state["players"]])]
    held[payload["seat"]] = list(payload["choices"])
    return held


def answer(
    state: State, rules: ModuleType, waiting: list[Any]
) -> tuple[int, str, dict[str, Any]] | None:
    """The first seat asked now whose standing choices answer the question: (seat, the
    choice, the command)."""
    standing = state.get("standing")
    if not standing:
        return None
    for seat in waiting:
        if isinstance(seat, int) and standing[seat]:
            found = rules.standing_answer(state["rules"], seat, standing[seat])
            if found is not None:
                return seat, found[0], found[1]
    return None
