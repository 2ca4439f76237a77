"""The score once the race is over: betting cards by rank, Dark Horse tokens by its rank."""

from typing import Any

from ...engine.outcome import ranked
from .data import TOKEN_BONUS, TOKEN_BONUS_RANKS, TOKEN_PENALTY
from .line import ranks
from .state import OVER

State = dict[str, Any]


def outcome(state: State) -> dict[str, Any] | None:
    """Scores, ranks and winners (ties share), with the breakdown, once the race is over."""
    if state["phase"] != OVER:
        return None
    final = ranks(state["line"])
    dark_rank = final[str(state["dark_horse"])]
    token_points = TOKEN_BONUS if dark_rank <= TOKEN_BONUS_RANKS else TOKEN_PENALTY
    seats = [_seat_score(state, seat, final, token_points) for seat in range(state["seats"])]
    return ranked(
        [seat["total"] for seat in seats],
        line=list(state["line"]),
        horse_ranks=final,
        dark_horse=state["dark_horse"],
        dark_horse_rank=dark_rank,
        seats=seats,
    )


def _seat_score(
    state: State, seat: int, final: dict[str, int], token_points: int
) -> dict[str, Any]:
    """Each card scores its horse's points, so a pair on one horse scores that horse
    double (2 x points, as the text's worked example shows), not 4 x."""
    held = state["betting_cards"][seat]
    scored = [
        {"horse": h, "rank": final[str(h)], "points": state["rank_points"][final[str(h)] - 1]}
        for h in held
    ]
    betting = sum(card["points"] for card in scored)
    token = token_points if state["tokens"][seat] else 0
    return {
        "betting_cards": scored,
        "doubled": sorted({h for h in held if held.count(h) > 1}),
        "betting_points": betting,
        "token": state["tokens"][seat],
        "token_points": token,
        "total": betting + token,
    }
