"""The track: where a moved horse stops, who is rearmost, and when the pace chip is won.

Spaces run from 0 (the starting line, which holds any number of horses) to the finish:
a horse reaching `track_length` or beyond has crossed the line. Standard game: one
horse per space, so a horse whose destination is taken stops on the first empty space
behind it, and does not move at all if every space between is taken. Crowded Field:
horses share spaces, and on a shared space the later arrival counts as behind.
"""

from typing import Any

from .data import HORSES

State = dict[str, Any]


def running(state: State) -> list[str]:
    """The horses still on the track, in gate order."""
    return [h for h in HORSES if h not in state["placings"]]


def stop(state: State, horse: str, steps: int) -> int:
    """The space where a horse moving `steps` ahead stops."""
    start = state["spaces"][horse]
    to = start + steps
    if to >= state["track_length"] or state["crowded_field"]:
        return to
    taken = {state["spaces"][h] for h in running(state) if h != horse}
    while to > start and to in taken:
        to -= 1
    return to


def crossed(state: State, space: int) -> bool:
    """Whether a horse on `space` has crossed the finish line."""
    return space >= state["track_length"]


def rearmost(state: State) -> str:
    """The last horse on the track: the lowest space; on a shared space the later
    arrival; on the starting line (nobody arrived) the higher gate."""

    def behind(horse: str) -> tuple[int, int, int]:
        return (state["spaces"][horse], -state["arrived"][horse], -HORSES.index(horse))

    return min(running(state), key=behind)


def takes_pace_chip(state: State, space: int) -> bool:
    """Whether a horse stopping on `space` wins the pace chip: the first to reach or
    pass the pace space (moves are one at a time, so turn order breaks ties)."""
    return state["pace_chip"] is None and space >= state["pace_space"]
