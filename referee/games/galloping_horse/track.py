"""The loop the horses run: how many spaces it has, and where a card moves a horse on it
(the rules and the board both ask)."""

from .data import DATA

TRACK: int = DATA["track_spaces"]


def first_empty_ahead(distance: dict[str, int], horse: str) -> int:
    """The distance of the first empty space ahead: occupied spaces are skipped."""
    taken = {d % TRACK for h, d in distance.items() if h != horse}
    to = distance[horse] + 1
    while to % TRACK in taken:
        to += 1
    return to
