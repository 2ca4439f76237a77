"""Drawing a whole movement table that keeps every fact a seat knows, for `bot.sample`.

Horses bound by no tie are drawn exactly uniformly (worlds.draw_values). Ties are kept by
Gibbs sweeps from a table that keeps every fact: each horse in turn is redrawn among its
runs keeping every tie with the others as they stand, and for each value tie a few of its
horses' values in its round are redrawn together among the combinations keeping every
fact (the only move that changes a sum of several horses). Each move is uniform among
what it may reach, so the draws tend to the uniform one; a few sweeps from the same start
leave them close to it but not exactly so.

The start is found once per set of facts and remembered, the same for the same facts:
first the value ties round by round (a randomized depth-first search over the horses'
values in that round, each kept only if the horse's own facts still allow a whole run),
then whole runs keeping those values, mended horse by horse until the space ties hold
(min-conflicts), starting over with other values if they will not.
"""

import hashlib
import itertools
from collections import OrderedDict
from typing import Any

from ...engine.rng import Rng, Stream
from .data import HORSES
from .knowledge import VALUES, Knowledge, Tie
from .worlds import (
    VALUE_TIES,
    Values,
    World,
    breaks,
    count,
    distance,
    draw_values,
    limits_of,
    narrowing,
    with_value,
)

SWEEPS = 2
DRAWS = 4  # draws of a horse per sweep before it keeps its run
BLOCK = 3  # horses redrawn together in a value tie's round
STARTS = 100  # fresh starts of the search before it gives up
MENDS = 200  # min-conflicts steps per start
DEPTH = 3000  # nodes of one round's depth-first search
_STARTS: "OrderedDict[str, dict[str, Values]]" = OrderedDict()
_REMEMBERED = 64
Fixed = dict[str, dict[int, frozenset[int]]]


def draw_world(known: Knowledge, rng: Rng, label: str) -> World:
    """A movement table keeping every fact the seat knows (see the module docstring)."""
    stream = rng.stream(label)
    bound = {h for tie in known.ties for h in tie.horses}
    if not known.ties:
        return World({h: _drawn(known, h, stream) for h in HORSES})
    world = World(dict(_start(known)))
    for h in HORSES:
        if h not in bound:
            world = world.but(h, _drawn(known, h, stream))
    sums = [tie for tie in known.ties if tie.kind == "sum"]
    for _ in range(SWEEPS):
        for h in shuffled(stream, sorted(bound)):
            world = _redrawn(known, world, h, stream)
        for tie in sums:
            world = _block_redrawn(known, world, tie, stream)
    return world


def shuffled(stream: Stream, items: list[Any]) -> list[Any]:
    """A shuffled copy, Fisher-Yates as Rng.shuffle, from an open stream."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _drawn(known: Knowledge, horse: str, stream: Stream) -> Values:
    drawn = draw_values(limits_of(known, horse), stream)
    if drawn is None:
        raise ValueError(f"no value run keeps what the view says of horse {horse}")
    return drawn


def _redrawn(known: Knowledge, world: World, horse: str, stream: Stream) -> World:
    """The horse redrawn among its runs keeping every tie, if a few draws find one."""
    limits = limits_of(known, horse, narrowing(world, horse, known.ties))
    for _ in range(DRAWS):
        drawn = draw_values(limits, stream)
        if drawn is None:
            return world
        candidate = world.but(horse, drawn)
        if distance(candidate, known.ties) == 0:
            return candidate
    return world


def _block_redrawn(known: Knowledge, world: World, tie: Tie, stream: Stream) -> World:
    """A few of the tie's horses get new values in its round, drawn uniformly among the
    combinations keeping every fact."""
    horses = shuffled(stream, list(tie.horses))[:BLOCK]
    keeping = []
    for combination in itertools.product(sorted(VALUES), repeat=len(horses)):
        candidate = world
        for h, value in zip(horses, combination, strict=True):
            candidate = candidate.but(h, with_value(candidate.values[h], tie.round, value))
        if all(_own_facts_kept(known, candidate, h) for h in horses) and not distance(
            candidate, known.ties
        ):
            keeping.append(candidate)
    return keeping[stream.below(len(keeping))] if keeping else world


def _own_facts_kept(known: Knowledge, world: World, horse: str) -> bool:
    values, spaces = known.values[horse], known.spaces[horse]
    return all(world.values[horse][r - 1] in values.get(r, VALUES) for r in values) and all(
        world.spaces[horse][r] in allowed for r, allowed in spaces.items()
    )


# --- the start -------------------------------------------------------------------


def _start(known: Knowledge) -> dict[str, Values]:
    """A table keeping every fact, the same for the same facts, remembered."""
    key = known.key()
    if key not in _STARTS:
        digest = hashlib.sha256(key.encode()).hexdigest()
        _STARTS[key] = _search(known, Rng(f"blackout-middle/start/{digest}"))
        if len(_STARTS) > _REMEMBERED:
            _STARTS.popitem(last=False)
    _STARTS.move_to_end(key)
    return _STARTS[key]


def _search(known: Knowledge, rng: Rng) -> dict[str, Values]:
    for attempt in range(STARTS):
        stream = rng.stream(f"attempt/{attempt}")
        fixed = _tied_values(known, stream)
        if fixed is None:
            continue
        world = _mended(known, fixed, stream)
        if world is not None:
            return world.values
    raise ValueError("no movement table keeps every fact the view gives")


def _tied_values(known: Knowledge, stream: Stream) -> Fixed | None:
    """Values for every value tie's round keeping the value ties and each horse's facts."""
    fixed: Fixed = {h: {} for h in HORSES}
    for r in sorted({tie.round for tie in known.ties if tie.kind in VALUE_TIES}):
        ties = [tie for tie in known.ties if tie.kind in VALUE_TIES and tie.round == r]
        column = _column(known, fixed, r, ties, stream)
        if column is None:
            return None
        for h, value in column.items():
            fixed[h][r] = frozenset((value,))
    return fixed


def _column(
    known: Knowledge, fixed: Fixed, r: int, ties: list[Tie], stream: Stream
) -> dict[str, int] | None:
    """One round's values for the tied horses, by randomized depth-first search."""
    centres = [tie.detail[0] for tie in ties if tie.kind != "sum"]
    rest = sorted({h for tie in ties for h in tie.horses} - set(centres))
    order = list(dict.fromkeys(centres)) + shuffled(stream, rest)
    column: dict[str, int] = {}
    nodes = [0]

    def place(depth: int) -> bool:
        if depth == len(order):
            return True
        nodes[0] += 1
        if nodes[0] > DEPTH:
            return False
        h = order[depth]
        for value in shuffled(stream, sorted(VALUES)):
            column[h] = value
            narrowed = ({**fixed[h], r: frozenset((value,))}, {})
            if count(limits_of(known, h, narrowed)) and _partial(column, ties) and place(depth + 1):
                return True
            del column[h]
        return False

    return column if place(0) else None


def _partial(column: dict[str, int], ties: list[Tie]) -> bool:
    """Whether the values placed so far can still keep every value tie of the round."""
    for tie in ties:
        if tie.kind == "sum":
            copies, total = tie.detail
            pairs = list(zip(tie.horses, copies, strict=True))
            placed = sum(n * column[h] for h, n in pairs if h in column)
            open_copies = sum(n for h, n in pairs if h not in column)
            if not placed + open_copies <= total <= placed + 3 * open_copies:
                return False
        elif tie.detail[0] in column and not _related(column, tie):
            return False
    return True


def _related(column: dict[str, int], tie: Tie) -> bool:
    centre, listed = tie.detail
    at = column[centre]
    for o, value in column.items():
        if o == centre:
            continue
        related = abs(value - at) == 1 if tie.kind == "differ_by_1" else value == at
        if related != (o in listed):
            return False
    return True


def _mended(known: Knowledge, fixed: Fixed, stream: Stream) -> World | None:
    """Whole runs keeping the fixed values, mended until every tie holds (or None)."""
    values: dict[str, Any] = {}
    for h in HORSES:
        values[h] = draw_values(limits_of(known, h, (fixed[h], {})), stream)
        if values[h] is None:
            return None
    world = World(values)
    score = distance(world, known.ties)
    for _ in range(MENDS):
        if score == 0:
            return world
        broken = [tie for tie in known.ties if breaks(world, tie)]
        tie = broken[stream.below(len(broken))]
        horse = tie.horses[stream.below(len(tie.horses))]
        world, score = _least_broken(known, world, fixed, horse, stream)
    return world if score == 0 else None


def _least_broken(
    known: Knowledge, world: World, fixed: Fixed, horse: str, stream: Stream
) -> tuple[World, int]:
    """The best of a few redraws of the horse, narrowed to keep the ties with the others
    where that leaves it a run, else keeping its values in the value ties' rounds."""
    limits = limits_of(known, horse, narrowing(world, horse, known.ties))
    if not count(limits):
        limits = limits_of(known, horse, (fixed[horse], {}))
    best, best_score = world, distance(world, known.ties)
    for attempt in range(8):
        drawn = draw_values(limits, stream)
        assert drawn is not None
        candidate = world.but(horse, drawn)
        score = distance(candidate, known.ties)
        if score < best_score or (score == best_score and attempt == 0):
            best, best_score = candidate, score
    return best, best_score
