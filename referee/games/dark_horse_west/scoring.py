"""Scoring (the text's END GAME): gold, influence, each city's towns connected to it by
rails, a point per Mayor or Sheriff role, minus a point per unpaid loan and one for dice
in jail; ties go to influence, then resources, then the higher turn order. Solitaire
reports the scenario's victory beside the points."""

from typing import Any

from ...engine.events import Event, event
from ...engine.outcome import ranked
from . import table
from .data import SCENARIOS

State = dict[str, Any]


def breakdown(state: State, seat: int) -> dict[str, Any]:
    """Every line of a seat's score."""
    goods = state["goods"][seat]
    points = table.city_points(state)
    cities = {c: n for c, n in points.items() if state["cities"][c] == seat}
    roles = sorted(r for r, holder in state["roles"].items() if holder == seat)
    lines = {
        "gold": goods["gold"],
        "influence": goods["influence"],
        "cities": cities,
        "roles": roles,
        "loans": -goods["loan"],
        "jail": -1 if state["jail"][seat] else 0,
    }
    lines["total"] = (
        goods["gold"] + goods["influence"] + sum(cities.values()) + len(roles) - goods["loan"]
    ) + lines["jail"]
    return lines


def counted(state: State) -> Event:
    """ScoresCounted: the final score of every seat, with its tie-break."""
    seats = range(state["seats"])
    lines = [breakdown(state, s) for s in seats]
    payload: dict[str, Any] = {
        "scores": [line["total"] for line in lines],
        "breakdown": lines,
        "tiebreak": [_tiebreak(state, s) for s in seats],
        "end": state["end"],
    }
    if state["solitaire"]:
        from .solitaire import victory

        payload["scenario"] = state["solitaire"]["scenario"]
        payload["victory"] = victory(state)
    return event("ScoresCounted", payload)


def _tiebreak(state: State, seat: int) -> int:
    """Influence, then resources, then the higher turn order, as one number."""
    later = state["seats"] - table.position(state, seat)
    return (
        state["goods"][seat]["influence"] * 1_000_000
        + table.resources_held(state, seat) * 10
        + later
    )


def outcome(state: State) -> dict[str, Any] | None:
    """Scores, ranks and winners once scored (Solitaire: a winner only on victory)."""
    result = state["result"]
    if result is None:
        return None
    extra = {"breakdown": result["breakdown"]}
    if "victory" in result:
        extra.update(scenario=SCENARIOS[result["scenario"]]["name"], victory=result["victory"])
    shown = ranked(result["scores"], tiebreak=result["tiebreak"], **extra)
    if "victory" in result and not result["victory"]:
        shown["winners"] = []
    return shown
