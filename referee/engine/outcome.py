"""The shape every ruleset's outcome takes."""

from typing import Any


def ranked(scores: list[int], *, tiebreak: list[int] | None = None, **extra: Any) -> dict[str, Any]:
    """Scores per seat with competition ranks (ties share a rank) and the shared winners;
    a `tiebreak` (higher is better) orders seats whose scores are equal."""
    keys = list(zip(scores, tiebreak or [0] * len(scores), strict=True))
    ranks = [1 + sum(other > mine for other in keys) for mine in keys]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return {"scores": list(scores), "ranks": ranks, "winners": winners, **extra}
