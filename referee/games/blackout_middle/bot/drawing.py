"""Drawing a whole movement table that keeps every fact a seat knows, for `bot.sample`.

Horses bound by no tie are drawn exactly uniformly (worlds.draw_values). Ties are kept by
Gibbs sweeps from a table that keeps every fact: each horse in turn is redrawn among its
runs keeping every tie with the others as they stand, and for each value tie a few of its
horses' values in its round are redrawn together among the combinations keeping every
fact (the only move that changes a sum of several horses). Each move is uniform among
what it may reach, so the draws tend to the uniform one, but slowly: three sweeps from the
same start leave them far from it where ties are tight (measured once: a horse's space
under its two placements, 0.46 exact and 0.82 drawn on its most likely space). So a
view with ties is sampled with too much confidence in its first table; the bot's own plan
takes no clue whose answer ties horses, so its own views are sampled exactly.

The start is found once per set of facts (starts.py) and remembered: the same for the
same facts, so a sample is a function of the view and the Rng alone.
"""

import hashlib
import itertools
from collections import OrderedDict
from typing import Any

from ....engine.rng import Rng, Stream
from ..data import HORSES
from .knowledge import VALUES, Knowledge, Tie
from .starts import start
from .worlds import (
    Values,
    World,
    distance,
    draw_values,
    limits_of,
    narrowing,
    with_value,
)

SWEEPS = 3  # Gibbs sweeps a sample where facts tie horses (the bot's own plan makes none)
DRAWS = 3  # draws of a horse per sweep before it keeps its run
BLOCK = 3  # horses redrawn together in a value tie's round
_STARTS: "OrderedDict[str, dict[str, Values]]" = OrderedDict()
_REMEMBERED = 64


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
        _STARTS[key] = start(known, Rng(f"blackout-middle/start/{digest}"))
        if len(_STARTS) > _REMEMBERED:
            _STARTS.popitem(last=False)
    _STARTS.move_to_end(key)
    return _STARTS[key]
