"""The end of a Royal Turf game: after race 3 the richest player wins.

Ties share the victory; with `tiebreak=most_bets` the tied player with more bets on
horses that placed (finished 1st-3rd) over the game wins, and a tie there still shares.
Every player places the same chips every race, so the number of bets placed alone could
never tell tied players apart (docs/rules/royal-turf.md).
"""

from typing import Any

from ...engine.outcome import ranked
from .state import OVER

State = dict[str, Any]


def outcome(state: State) -> dict[str, Any] | None:
    """Money per seat, ranks and winners once race 3 is paid."""
    if state["phase"] != OVER:
        return None
    if state["tiebreak"] == "most_bets":
        return ranked(
            state["money"], tiebreak=state["placed_bets"], placed_bets=state["placed_bets"]
        )
    return ranked(state["money"], placed_bets=state["placed_bets"])
