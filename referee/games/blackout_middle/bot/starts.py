"""A first movement table keeping every fact a seat knows, from which drawing.py's sweeps
start (found once per set of facts).

The ties read Rounds 1-6 alone, but for the order of late finishers, so the search works
on openings: each horse's values for the rounds up to the last tie it must keep
(`opening`), among those its own facts allow with a whole run after them. A randomized
depth-first search gives each horse an opening, the one with the fewest left next, and
narrows the others' after each (forward checking: sums out of reach, a list broken, too
many or too few horses ahead). The rest of each run is then drawn from where the opening
leaves the horse, and the ties left mended by redrawing runs.

Quick tries search the value ties alone (sums and lists, Rounds 2-5) and mend the space
ties (placements, guesses, finishing orders) by redrawing whole runs; full tries, taken in
turn with them, search every tie of Rounds 1-6 and mend only the late ones (slower where
few ties narrow the openings, surer where placements and value ties meet). Should every
try fail within its budget, the table breaking the fewest facts is taken (the sampler's
one departure from the seat's knowledge; the tests' games never need it).
"""

from collections.abc import Callable
from typing import Any

from ....engine.rng import Rng, Stream
from ..data import HORSES, TRACK_LENGTH
from .knowledge import ROUND_NUMBERS, Knowledge, Tie
from .worlds import (
    VALUE_TIES,
    Values,
    World,
    distance,
    draw_rest,
    draw_values,
    limits_of,
    narrowing,
    spaces_of,
    ways_after,
)

TRIES = 3  # quick tries (the value ties searched, the space ties mended), as many full
NODES = 300  # openings tried in one search
EXACT_SUMS = 4  # open horses of a sum whose totals are checked exactly
MENDS = 300  # runs redrawn to mend the ties a search left
SHIFT = 12  # bits per round's total when a sum group's totals are packed into one number
Openings = dict[str, list[Values]]


def start(known: Knowledge, rng: Rng) -> dict[str, Values]:
    """A table keeping every fact (or, failing that, breaking the fewest)."""
    best: World | None = None
    for attempt in range(2 * TRIES):
        quick = attempt % 2 == 0  # quick and full tries in turn, quick first
        world = _tried(known, quick, rng.stream(f"try/{attempt}"))
        if world is None:
            continue
        if distance(world, known.ties) == 0:
            return world.values
        if best is None or distance(world, known.ties) < distance(best, known.ties):
            best = world
    return (best or _anything(known, rng)).values


def _tried(known: Knowledge, quick: bool, stream: Stream) -> World | None:
    """One try: openings by search, the rest drawn, the ties left mended."""
    searched = [t for t in known.ties if (t.kind in VALUE_TIES if quick else t.kind != "in_order")]
    opening = max((t.round for t in searched), default=0)
    if not quick:
        searched = [t for t in known.ties if t.round <= opening]
    choices = _choices(known, opening)
    chosen = _search(choices, searched, opening, stream)
    if chosen is None:
        return None
    world = World({h: chosen[h] + draw_rest(known, h, chosen[h], stream) for h in HORSES})
    left = [t for t in known.ties if t not in searched]
    if quick:
        return _runs_mended(known, world, stream)
    return _mended(known, world, left, opening, stream)


def _choices(known: Knowledge, opening: int) -> Openings:
    """Every horse's openings, worked out once per opening."""
    key = f"openings/{opening}"
    if key not in known.limits:
        known.limits[key] = {h: _openings(known, h, opening) for h in HORSES}
    found: Openings = known.limits[key]
    return found


def _openings(known: Knowledge, horse: str, opening: int) -> list[Values]:
    """Every run of Rounds 1..opening the horse's own facts allow, with a way on."""
    limits = limits_of(known, horse)
    values, spaces = limits
    on = ways_after(limits, opening)
    found: list[Values] = []

    def extend(run: tuple[int, ...], here: int) -> None:
        r = len(run)
        if r == opening:
            if on[here]:
                found.append(run)
            return
        for value in values[r]:
            there = here if here > TRACK_LENGTH else here + value
            if there in spaces[r]:
                extend((*run, value), there)

    extend((), 1)
    return found


def _anything(known: Knowledge, rng: Rng) -> World:
    """Runs keeping each horse's own facts (the ties aside)."""
    stream = rng.stream("anything")
    return World({h: draw_values(limits_of(known, h), stream) or () for h in HORSES})


# --- the depth-first search over openings -----------------------------------------


class _Bounds:
    """Per horse and round, the least and most value and space its openings allow."""

    def __init__(self, domains: Openings, opening: int) -> None:
        self.value: dict[tuple[str, int], tuple[int, int]] = {}
        self.space: dict[tuple[str, int], tuple[int, int]] = {}
        for h, runs in domains.items():
            ends = [spaces_of(run) for run in runs]
            for r in range(1, opening + 1):
                values = [x[r - 1] for x in runs]
                here = [e[r] for e in ends]
                self.value[(h, r)] = (min(values), max(values))
                self.space[(h, r)] = (min(here), max(here))


class _Search:
    """A depth-first search over the horses' openings with forward checking: each horse
    placed narrows the others' openings to those that can still keep every tie, and the
    horse with the fewest left goes next."""

    def __init__(self, ties: list[Tie], opening: int, stream: Stream) -> None:
        self.ties, self.opening, self.stream = ties, opening, stream
        self.sums = _SumGroup.of([t for t in ties if t.kind == "sum"])
        self.nodes = 0

    def solve(self, placed: dict[str, Values], domains: Openings) -> dict[str, Values] | None:
        """Openings for every horse, or None (also once NODES are spent)."""
        if len(placed) == len(HORSES):
            return dict(placed) if _all_kept(placed, self.ties, self.opening) else None
        h = min(domains, key=lambda o: (len(domains[o]), self.stream.below(1 << 16)))
        for run in _some_order(domains[h], self.stream):
            self.nodes += 1
            if self.nodes > NODES:
                return None
            now = {**placed, h: run}
            narrowed = self._narrowed(now, {o: d for o, d in domains.items() if o != h})
            if narrowed is not None:
                found = self.solve(now, narrowed)
                if found is not None:
                    return found
        return None

    def _narrowed(self, placed: dict[str, Values], domains: Openings) -> Openings | None:
        """The open horses' openings that can still keep every tie, or None if a horse
        is left with none or a sum can no longer be made."""
        bounds = _Bounds(domains, self.opening)
        trial = dict(placed)
        spaces = {h: spaces_of(run) for h, run in placed.items()}
        narrowed: Openings = {}
        for o, runs in domains.items():
            ties = [t for t in self.ties if o in t.horses]
            kept = []
            for run in runs:
                trial[o], spaces[o] = run, spaces_of(run)  # o tried in place, then taken out
                if all(_CAN_HOLD[t.kind](t, trial, spaces, bounds) for t in ties):
                    kept.append(run)
            del trial[o], spaces[o]
            if not kept:
                return None
            narrowed[o] = kept
        if not all(group.can_hold(placed, narrowed) for group in self.sums):
            return None
        return narrowed


def _search(
    choices: Openings, ties: list[Tie], opening: int, stream: Stream
) -> dict[str, Values] | None:
    """Openings for every horse keeping the early ties, or None within NODES."""
    if any(not runs for runs in choices.values()):
        return None
    search = _Search(ties, opening, stream)
    domains = search._narrowed({}, dict(choices))
    return None if domains is None else search.solve({}, domains)


class _SumGroup:
    """Round 1's sums of one set of cards, one per round: whether the horses not yet given
    an opening can still make what the placed ones leave (exactly, once few are left)."""

    def __init__(
        self, horses: tuple[str, ...], copies: dict[str, int], rounds: list[int], totals: list[int]
    ) -> None:
        self.horses, self.copies, self.rounds, self.totals = horses, copies, rounds, totals

    @classmethod
    def of(cls, ties: list[Tie]) -> list["_SumGroup"]:
        """The sums grouped by their cards."""
        grouped: dict[tuple[Any, ...], list[Tie]] = {}
        for tie in ties:
            grouped.setdefault((tie.horses, tie.detail[0]), []).append(tie)
        return [
            cls(horses, dict(zip(horses, copies, strict=True)), [t.round for t in same],
                [t.detail[1] for t in same])
            for (horses, copies), same in grouped.items()
        ]  # fmt: skip

    def _made(self, h: str, run: Values) -> int:
        """What the horse adds to the totals, the rounds packed into one number."""
        return sum(self.copies[h] * run[r - 1] << (SHIFT * i) for i, r in enumerate(self.rounds))

    def can_hold(self, placed: dict[str, Values], domains: Openings) -> bool:
        """Whether the open horses can make what the placed ones leave of the totals."""
        left = sum(total << (SHIFT * i) for i, total in enumerate(self.totals))
        open_horses = []
        for h in self.horses:
            if h in placed:
                left -= self._made(h, placed[h])
            else:
                open_horses.append(h)
        if len(open_horses) > EXACT_SUMS:
            return True  # the bounds each tie's check applies will do until fewer are open
        made = {0}
        for h in open_horses:
            made = {x + y for x in made for y in {self._made(h, run) for run in domains[h]}}
        return left in made


def _some_order(runs: list[Values], stream: Stream) -> list[Values]:
    """The runs from a random one on, in turn (a cheap stand-in for a shuffle)."""
    first = stream.below(len(runs))
    return runs[first:] + runs[:first]


def _all_kept(placed: dict[str, Values], ties: list[Tie], opening: int) -> bool:
    padding = (1,) * (len(ROUND_NUMBERS) - opening)
    return distance(World({h: run + padding for h, run in placed.items()}), ties) == 0


def _sum(tie: Tie, placed: dict[str, Values], spaces: Any, bounds: _Bounds) -> bool:
    copies, total = tie.detail
    low = high = 0
    for h, n in zip(tie.horses, copies, strict=True):
        if h in placed:
            least = most = placed[h][tie.round - 1]
        else:
            least, most = bounds.value[(h, tie.round)]
        low, high = low + n * least, high + n * most
    return low <= total <= high


def _listed(tie: Tie, placed: dict[str, Values], spaces: Any, bounds: _Bounds) -> bool:
    centre, listed = tie.detail
    if centre not in placed:
        return True
    i = tie.round - 1
    mine = placed[centre][i]
    for o, run in placed.items():
        if o == centre:
            continue
        related = abs(run[i] - mine) == 1 if tie.kind == "differ_by_1" else run[i] == mine
        if related != (o in listed):
            return False
    return True


def _ahead_range(tie: Tie, spaces: dict[str, tuple[int, ...]], bounds: _Bounds) -> tuple[int, int]:
    """The fewest and most horses that can end up on spaces greater than the tie's horse."""
    r, horse = tie.round, tie.detail[0]
    mine = spaces[horse][r]
    surely = maybe = 0
    for o in HORSES:
        if o == horse:
            continue
        least, most = (spaces[o][r],) * 2 if o in spaces else bounds.space[(o, r)]
        surely += least > mine
        maybe += most > mine
    return surely, maybe


def _placement(tie: Tie, placed: dict[str, Values], spaces: Any, bounds: _Bounds) -> bool:
    horse, rank = tie.detail
    if horse not in placed or spaces[horse][tie.round] > TRACK_LENGTH:
        return True  # a finished horse's rank is its finishing order: checked at the end
    surely, maybe = _ahead_range(tie, spaces, bounds)
    return surely <= rank - 1 <= maybe


def _ahead(tie: Tie, placed: dict[str, Values], spaces: Any, bounds: _Bounds) -> bool:
    horse, ahead, correct = tie.detail
    if horse not in placed:
        return True
    surely, maybe = _ahead_range(tie, spaces, bounds)
    if correct:
        return surely <= ahead <= maybe
    return not surely == maybe == ahead


def _in_order(tie: Tie, placed: dict[str, Values], spaces: Any, bounds: _Bounds) -> bool:
    keys = [(-spaces[h][tie.round], h) if h in spaces else None for h in tie.horses]
    return all(a < b for a, b in zip(keys, keys[1:], strict=False) if a and b)


_CAN_HOLD: dict[str, Callable[[Tie, dict[str, Values], Any, _Bounds], bool]] = {
    "sum": _sum,
    "differ_by_1": _listed,
    "same_value": _listed,
    "placement": _placement,
    "ahead": _ahead,
    "in_order": _in_order,
}


# --- late finishers ----------------------------------------------------------------


def _mended(known: Knowledge, world: World, late: list[Tie], opening: int, stream: Stream) -> World:
    """The rests of the runs redrawn until the late ties hold (openings kept)."""
    for _ in range(MENDS):
        broken = [tie for tie in late if distance(world, [tie])]
        if not broken:
            return world
        tie = broken[stream.below(len(broken))]
        horse = tie.horses[stream.below(len(tie.horses))]
        _, allowed = narrowing(world, horse, late)
        opened = world.values[horse][:opening]
        candidate = world.but(
            horse, opened + draw_rest(known, horse, opened, stream, spaces=allowed)
        )
        if distance(candidate, late) <= distance(world, late):
            world = candidate
    return world


def _runs_mended(known: Knowledge, world: World, stream: Stream) -> World:
    """Whole runs redrawn, each narrowed to keep the ties with the others as they stand,
    until every tie holds (a redraw breaking more is not kept)."""
    for _ in range(MENDS):
        broken = [tie for tie in known.ties if distance(world, [tie])]
        if not broken:
            return world
        tie = broken[stream.below(len(broken))]
        horse = tie.horses[stream.below(len(tie.horses))]
        drawn = draw_values(limits_of(known, horse, narrowing(world, horse, known.ties)), stream)
        if drawn is None:
            continue
        candidate = world.but(horse, drawn)
        if distance(candidate, known.ties) <= distance(world, known.ties):
            world = candidate
    return world
