"""A resolved round's public results, for pasting into a forum thread. Nothing private:
only who spectated which space, the horses that finished (placement and the movement
values they had left) and, after Round 10, the final order and the scoreboard."""

from typing import Any

from ...engine.errors import RuleViolation
from .data import FIRST_ROUND, LAST_ROUND

State = dict[str, Any]
Summary = dict[str, Any]


def round_summary(state: State, round_number: int, players: list[str]) -> Summary:
    """Title and sections of one resolved round's public results; seats by their names."""
    if not FIRST_ROUND <= round_number < state["round"] or state["phase"] == "setup":
        message = f"round {round_number} is not resolved yet"
        raise RuleViolation("rule/round_not_resolved", message, {"field": "round"})
    sections = [_spectating(state, round_number, players), _finished(state, round_number)]
    if round_number == LAST_ROUND and state["scores"] is not None:
        sections += _final(state, players)
    return {"title": f"Blackout Middle, Round {round_number}: results", "sections": sections}


def _spectating(state: State, r: int, players: list[str]) -> dict[str, Any]:
    if r == FIRST_ROUND:
        return {
            "heading": "Spectating",
            "lines": ["Round 0 takes abilities only: nobody spectated."],
        }
    spaces = state["spectating"][str(r)]
    lines = [
        f"{players[seat]}: {'no space' if space is None else f'space {space}'}"
        for seat, space in enumerate(spaces)
    ]
    return {"heading": "Spectating", "lines": lines}


def _finished(state: State, r: int) -> dict[str, Any]:
    done = sorted(
        (shown["placement"], horse, shown["movements"])
        for horse, shown in state["announced"].items()
        if shown["round"] == r
    )
    lines = [
        f"{horse} finished {_ordinal(place)}; {_values(moves)}" for place, horse, moves in done
    ]
    return {"heading": "Finished this round", "lines": lines or ["No horse finished."]}


def _values(moves: dict[str, int]) -> str:
    if not moves:
        return "no movement values left"
    shown = ", ".join(
        f"Round {r}: {value}" for r, value in sorted(moves.items(), key=lambda i: int(i[0]))
    )
    return f"movement values {shown}"


def _final(state: State, players: list[str]) -> list[dict[str, Any]]:
    order = state["scores"]["order"]
    placings = [f"{_ordinal(i)}: {horse}" for i, horse in enumerate(order, start=1)]
    board = [
        f"{players[s['seat']]}: {s['total']} points (chips {s['chip_points']}, spectating "
        f"{s['spectator_points']}, utility {s['utility_points']}), {s['garnets_awarded']} garnet(s)"
        for s in sorted(state["scores"]["seats"], key=lambda s: (-s["total"], s["seat"]))
    ]
    return [
        {"heading": "Final order", "lines": placings},
        {"heading": "Scoreboard", "lines": board},
    ]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
