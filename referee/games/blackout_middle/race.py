"""The race: each round every horse on the track moves 1-3 spaces; past space 15 it finishes.

A finished horse stays on the first space past 15 it lands on (the text's clarification),
so `positions` alone says which horses have finished; `finished` keeps their order.
"""

from .data import HORSES, LAST_ROUND, START_SPACE, TRACK_LENGTH

Positions = dict[str, int]
Movements = dict[str, int]


def start() -> Positions:
    """Every horse on the start space."""
    return {horse: START_SPACE for horse in HORSES}


def has_finished(space: int) -> bool:
    """Whether a horse on this space has moved past the finish line."""
    return space > TRACK_LENGTH


def advance(positions: Positions, movements: Movements) -> tuple[Positions, list[str]]:
    """The spaces after one round's movement, and the horses finishing now in placement order."""
    moved = {
        horse: space if has_finished(space) else space + movements[horse]
        for horse, space in positions.items()
    }
    finishing = [h for h in moved if has_finished(moved[h]) and not has_finished(positions[h])]
    # furthest past the line first; ties alphabetical (A first)
    return moved, sorted(finishing, key=lambda horse: (-moved[horse], horse))


def race(
    movements_by_round: dict[int, Movements], *, through: int = LAST_ROUND
) -> tuple[Positions, list[str]]:
    """The spaces and the finishing order at the end of round `through` (round 0: no movement)."""
    positions, finished = start(), []
    for round_number in range(1, through + 1):
        positions, finishing = advance(positions, movements_by_round[round_number])
        finished += finishing
    return positions, finished


def final_order(positions: Positions, finished: list[str]) -> list[str]:
    """All horses by placement: the finished in order, then the rest closest to the line first."""
    on_track = [horse for horse in positions if horse not in finished]
    return [*finished, *sorted(on_track, key=lambda horse: (-positions[horse], horse))]


def placements(positions: Positions, finished: list[str]) -> dict[str, int]:
    """Each horse's placement now; horses sharing a space on the track share the best rank."""
    placed = {horse: rank for rank, horse in enumerate(finished, start=1)}
    on_track = [horse for horse in positions if horse not in finished]
    for horse in on_track:
        ahead = sum(positions[other] > positions[horse] for other in on_track)
        placed[horse] = len(finished) + 1 + ahead
    return placed


def placements_at(movements_by_round: dict[int, Movements], round_number: int) -> dict[str, int]:
    """Each horse's placement at the end of a round, from all the movement values."""
    return placements(*race(movements_by_round, through=round_number))


def horses_ahead(positions: Positions, horse: str) -> int:
    """How many horses are on a strictly greater space (finished ones on their landing space)."""
    return sum(space > positions[horse] for space in positions.values())


def horses_on(positions: Positions, space: int) -> list[str]:
    """The horses on a space of the track (none past the finish line)."""
    if has_finished(space):
        return []
    return sorted(horse for horse, where in positions.items() if where == space)
