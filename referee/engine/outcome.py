"""The shape every ruleset's outcome takes."""

from typing import Any


def ranked(scores: list[int], **extra: Any) -> dict[str, Any]:
    """Scores per seat with competition ranks (ties share a rank) and the shared winners."""
    ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return {"scores": list(scores), "ranks": ranks, "winners": winners, **extra}
