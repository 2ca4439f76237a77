"""Secret movement tables and how far one is from a seat's knowledge: one horse's value
runs drawn exactly uniformly among those its own facts allow, and the checks of the facts
that tie horses together (drawing.py puts them together).

A horse's run is drawn by counting the ways to finish the race from each space and round
(`_ways`) and reading a uniformly drawn rank off the counts.
"""

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ....engine.rng import Stream
from ..data import HORSES, TRACK_LENGTH
from .knowledge import LAST_SPACE, PAST_LINE, ROUND_NUMBERS, SPACES, VALUES, Knowledge, Tie

Values = tuple[int, ...]  # one horse's values, Round 1 first
Spaces = tuple[int, ...]  # one horse's space at the end of Rounds 0-10
Limits = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
# per round, the values and end spaces one horse is narrowed to
Narrowed = tuple[dict[int, frozenset[int]], dict[int, frozenset[int]]]
VALUE_TIES = ("sum", "differ_by_1", "same_value")  # read one round's values alone
NEVER = ROUND_NUMBERS[-1] + 1


class World:
    """A whole movement table with each horse's spaces, round by round."""

    def __init__(
        self,
        values: dict[str, Values],
        spaces: dict[str, Spaces] | None = None,
        crossed: dict[str, int] | None = None,
    ) -> None:
        self.values = values
        self.spaces = spaces if spaces is not None else {h: spaces_of(v) for h, v in values.items()}
        # the round each horse crossed the line (11: not by Round 10)
        self.crossed = (
            crossed if crossed is not None else {h: finish_round(s) for h, s in self.spaces.items()}
        )
        self.placed: dict[int, dict[str, int]] = {}  # placements by round, once worked out

    def but(self, horse: str, values: Values) -> "World":
        """The same table with one horse's values replaced."""
        spaces = spaces_of(values)
        return World(
            {**self.values, horse: values},
            {**self.spaces, horse: spaces},
            {**self.crossed, horse: finish_round(spaces)},
        )

    def movements(self) -> dict[str, dict[str, int]]:
        """The table as the rules keep it: {round: {horse: value}}."""
        return {str(r): {h: self.values[h][r - 1] for h in HORSES} for r in ROUND_NUMBERS}


@lru_cache(maxsize=1 << 16)
def spaces_of(values: Values) -> Spaces:
    """A horse's space at the end of each round; past the line it stays where it landed
    (the same runs come back over and over in a search: worked out once each)."""
    spaces = [1]
    for value in values:
        here = spaces[-1]
        spaces.append(here if here > TRACK_LENGTH else here + value)
    return tuple(spaces)


def finish_round(spaces: Spaces) -> int:
    """The round a horse crossed the line (NEVER if it is still on the track)."""
    return next((r for r, s in enumerate(spaces) if s > TRACK_LENGTH), NEVER)


# --- one horse -----------------------------------------------------------------


def limits_of(known: Knowledge, horse: str, narrowed: Narrowed | None = None) -> Limits:
    """A horse's allowed values and end spaces per round 1-10, as a hashable key."""
    base = known.limits.get(horse)
    if base is None:
        base = known.limits[horse] = (
            tuple(tuple(sorted(known.values[horse].get(r, VALUES))) for r in ROUND_NUMBERS),
            tuple(tuple(sorted(known.spaces[horse].get(r, SPACES))) for r in ROUND_NUMBERS),
        )
    if narrowed is None or not (narrowed[0] or narrowed[1]):
        return base
    values, spaces = narrowed
    return (
        tuple(
            tuple(v for v in allowed if v in values[r]) if r in values else allowed
            for r, allowed in zip(ROUND_NUMBERS, base[0], strict=True)
        ),
        tuple(
            tuple(s for s in allowed if s in spaces[r]) if r in spaces else allowed
            for r, allowed in zip(ROUND_NUMBERS, base[1], strict=True)
        ),
    )


@lru_cache(maxsize=4096)
def _ways(limits: Limits) -> tuple[tuple[int, ...], ...]:
    """ways[r][s]: how many value runs for Rounds r+1..10 keep the limits from space s at
    the end of Round r (0 where s is not allowed then)."""
    values, spaces = limits
    last = len(ROUND_NUMBERS)
    ways = [[0] * (LAST_SPACE + 1) for _ in range(last + 1)]
    for s in spaces[last - 1]:
        ways[last][s] = 1
    for r in range(last - 1, -1, -1):
        allowed = spaces[r - 1] if r > 0 else (1,)
        after = ways[r + 1]
        for s in allowed:
            moved = [s if s > TRACK_LENGTH else s + v for v in values[r]]
            ways[r][s] = sum(after[m] for m in moved if m <= LAST_SPACE)
    return tuple(tuple(row) for row in ways)


def count(limits: Limits) -> int:
    """How many value runs keep a horse's limits."""
    return _ways(limits)[0][1]


def draw_values(limits: Limits, stream: Stream) -> Values | None:
    """One value run drawn uniformly among those keeping the limits (None if none does)."""
    ways = _ways(limits)
    total = ways[0][1]
    if total == 0:
        return None
    return _walk(limits, ways, 0, 1, stream.below(total))


def ways_after(limits: Limits, r: int) -> tuple[int, ...]:
    """Per space at the end of Round r, how many runs go on from there keeping the limits."""
    return _ways(limits)[r]


def draw_rest(
    known: Knowledge,
    horse: str,
    opening: Values,
    stream: Stream,
    *,
    spaces: dict[int, frozenset[int]] | None = None,
) -> Values:
    """The rest of a horse's run after its opening, drawn uniformly among those keeping
    its facts (and `spaces`, where some rest does)."""
    start, here = len(opening), spaces_of(opening)[-1]
    limits = limits_of(known, horse, ({}, spaces or {}))
    ways = _ways(limits)
    if not ways[start][here]:
        limits = limits_of(known, horse)
        ways = _ways(limits)
    assert ways[start][here], "an opening is kept only with a way on"
    return _walk(limits, ways, start, here, stream.below(ways[start][here]))


def _walk(
    limits: Limits, ways: tuple[tuple[int, ...], ...], start: int, space: int, rank: int
) -> Values:
    """The run from the end of round `start` on whose rank among those counted is `rank`."""
    drawn = []
    for r in range(start, len(ROUND_NUMBERS)):
        for value in limits[0][r]:
            moved = space if space > TRACK_LENGTH else space + value
            here = ways[r + 1][moved]
            if rank < here:
                drawn.append(value)
                space = moved
                break
            rank -= here
    return tuple(drawn)


# --- ties ------------------------------------------------------------------------


def placements(world: World, r: int) -> dict[str, int]:
    """Each horse's placement at the end of a round (the rules' `placements`)."""
    if r not in world.placed:
        world.placed[r] = _placements(world, r)
    return world.placed[r]


def _placements(world: World, r: int) -> dict[str, int]:
    finished = finishing_order(world, r)
    placed = {h: rank for rank, h in enumerate(finished, start=1)}
    on_track = [world.spaces[h][r] for h in HORSES if h not in placed]
    for h in HORSES:
        if h not in placed:
            here = world.spaces[h][r]
            placed[h] = len(finished) + 1 + sum(space > here for space in on_track)
    return placed


def finishing_order(world: World, r: int) -> list[str]:
    """The horses past the line by the end of a round, in finishing order."""
    rounds = world.crossed
    crossed = [h for h in HORSES if rounds[h] <= r]
    return sorted(crossed, key=lambda h: (rounds[h], -world.spaces[h][r], h))


def _column_breaks(tie: Tie, at: dict[str, int]) -> int:
    """How far one round's values (`at`, per horse) are from keeping a value tie."""
    if tie.kind == "sum":
        copies, total = tie.detail
        return abs(sum(n * at[h] for h, n in zip(tie.horses, copies, strict=True)) - total)
    centre, listed = tie.detail
    mine = at[centre]
    if tie.kind == "differ_by_1":
        return sum((abs(at[o] - mine) == 1) != (o in listed) for o in HORSES)
    return sum((at[o] == mine) != (o in listed) for o in HORSES if o != centre)


def _column(world: World, r: int) -> dict[str, int]:
    return {h: world.values[h][r - 1] for h in HORSES}


def _value_tie(world: World, tie: Tie) -> int:
    return _column_breaks(tie, _column(world, tie.round))


def _placement(world: World, tie: Tie) -> int:
    horse, rank = tie.detail
    return abs(placements(world, tie.round)[horse] - rank)


def _ahead(world: World, tie: Tie) -> int:
    horse, ahead, correct = tie.detail
    mine = world.spaces[horse][tie.round]
    found = sum(world.spaces[o][tie.round] > mine for o in HORSES)
    if correct:
        return abs(found - ahead)
    return int(found == ahead)


def _in_order(world: World, tie: Tie) -> int:
    keys = [(-world.spaces[h][tie.round], h) for h in tie.horses]
    return sum(a > b for a, b in zip(keys, keys[1:], strict=False))


_CHECKS: dict[str, Callable[[World, Tie], int]] = {
    "sum": _value_tie,
    "differ_by_1": _value_tie,
    "same_value": _value_tie,
    "placement": _placement,
    "ahead": _ahead,
    "in_order": _in_order,
}


def breaks(world: World, tie: Tie) -> int:
    """How far a table is from keeping one tie (0: it keeps it)."""
    return _CHECKS[tie.kind](world, tie)


def distance(world: World, ties: list[Tie]) -> int:
    """How far a table is from keeping the ties (0: it keeps them all)."""
    return sum(_CHECKS[tie.kind](world, tie) for tie in ties)


def with_value(values: Values, r: int, value: int) -> Values:
    """A value run with one round's value replaced."""
    return (*values[: r - 1], value, *values[r:])


# --- narrowing one horse, the others fixed -----------------------------------------


def narrowing(world: World, horse: str, ties: list[Tie]) -> Narrowed:
    """Per round, the values and end spaces of one horse that keep the ties with the others
    as they stand: exactly those where the others keep them (a space tie may let through
    some that break it: the caller checks), the least breaking where they do not."""
    values: dict[int, frozenset[int]] = {}
    spaces: dict[int, frozenset[int]] = {}
    for tie in ties:
        if horse not in tie.horses:
            continue
        r = tie.round
        if tie.kind in VALUE_TIES:
            values[r] = _least_breaking(world, horse, tie, values.get(r, VALUES))
            continue
        allowed = _SPACE_NARROWING[tie.kind](world, horse, tie)
        if allowed is not None:
            spaces[r] = spaces.get(r, SPACES) & allowed
    return values, spaces


def _least_breaking(world: World, horse: str, tie: Tie, allowed: frozenset[int]) -> frozenset[int]:
    column = _column(world, tie.round)
    broken = {value: _column_breaks(tie, {**column, horse: value}) for value in sorted(allowed)}
    if not broken:
        return allowed
    least = min(broken.values())
    return frozenset(v for v, n in broken.items() if n == least)


def _counted_ahead(world: World, tie: Tie, horse: str, wanted: Callable[[int], bool]) -> Any:
    """The spaces for `horse` keeping "so many horses ahead of the tie's horse"."""
    r, centre = tie.round, tie.detail[0]
    if horse == centre:
        others = [world.spaces[o][r] for o in HORSES if o != horse]
        return frozenset(s for s in SPACES if wanted(sum(o > s for o in others)))
    mine = world.spaces[centre][r]
    rest = sum(world.spaces[o][r] > mine for o in HORSES if o not in (horse, centre))
    behind = frozenset(s for s in SPACES if s <= mine)
    if wanted(rest) and wanted(rest + 1):
        return None
    if wanted(rest):
        return behind
    if wanted(rest + 1):
        return SPACES - behind
    return None


def _ahead_spaces(world: World, horse: str, tie: Tie) -> frozenset[int] | None:
    _, ahead, correct = tie.detail
    result: frozenset[int] | None = _counted_ahead(
        world, tie, horse, (lambda n: n == ahead) if correct else (lambda n: n != ahead)
    )
    return result


def _placement_spaces(world: World, horse: str, tie: Tie) -> frozenset[int] | None:
    """On the track a horse's placement is 1 + the horses on greater spaces; past the line
    it is its finishing rank, left to the check."""
    centre, rank = tie.detail
    if horse != centre and world.spaces[centre][tie.round] > TRACK_LENGTH:
        return None
    allowed = _counted_ahead(world, tie, horse, lambda n: n == rank - 1)
    if horse == centre:
        return allowed | PAST_LINE
    return allowed


def _in_order_spaces(world: World, horse: str, tie: Tie) -> frozenset[int]:
    """The spaces keeping the horse between its neighbours in the order."""
    r, order = tie.round, tie.horses
    i = order.index(horse)
    allowed = set(SPACES)
    if i > 0:
        before = order[i - 1]
        allowed &= {s for s in SPACES if (-world.spaces[before][r], before) < (-s, horse)}
    if i + 1 < len(order):
        after = order[i + 1]
        allowed &= {s for s in SPACES if (-s, horse) < (-world.spaces[after][r], after)}
    return frozenset(allowed)


_SPACE_NARROWING: dict[str, Callable[[World, str, Tie], frozenset[int] | None]] = {
    "placement": _placement_spaces,
    "ahead": _ahead_spaces,
    "in_order": _in_order_spaces,
}
