"""A first movement table keeping every fact a seat knows, from which drawing.py's sweeps
start (found once per set of facts).

Every tie but the order of late finishers reads Rounds 1-6 alone, so the search works on
openings: each horse's values for the rounds up to the last such tie (`opening`), among
those its own facts allow with a whole run after them. A randomized depth-first search
gives each horse an opening, the most constrained first, and backs off as soon as a tie
can no longer hold (sums out of reach, a list broken, too many or too few horses ahead).
The rest of each run is then drawn from where the opening leaves the horse, and the order
of late finishers mended by redrawing those rests. Should every try fail within its
budget, the table breaking the fewest facts is taken (the sampler's one departure from
the seat's knowledge; the tests show it does not happen on the games they play).
"""

from collections.abc import Callable
from typing import Any

from ....engine.rng import Rng, Stream
from ..data import HORSES, TRACK_LENGTH
from .knowledge import ROUND_NUMBERS, Knowledge, Tie
from .worlds import (
    Values,
    World,
    distance,
    draw_rest,
    limits_of,
    narrowing,
    spaces_of,
    ways_after,
)

TRIES = 6  # depth-first searches, each in another order
NODES = 300  # openings tried in one search
EXACT_SUMS = 4  # open horses of a sum whose totals are checked exactly
MENDS = 300  # redraws of late runs
SHIFT = 12  # bits per round's total when a sum group's totals are packed into one number
Openings = dict[str, list[Values]]


def start(known: Knowledge, rng: Rng) -> dict[str, Values]:
    """A table keeping every fact (or, failing that, breaking the fewest)."""
    opening = max((t.round for t in known.ties if t.kind != "in_order"), default=0)
    early = [t for t in known.ties if t.round <= opening]
    late = [t for t in known.ties if t.round > opening]
    choices = {h: _openings(known, h, opening) for h in HORSES}
    best: World | None = None
    for attempt in range(TRIES):
        stream = rng.stream(f"try/{attempt}")
        chosen = _search(choices, early, opening, stream)
        if chosen is None:
            continue
        world = World({h: chosen[h] + draw_rest(known, h, chosen[h], stream) for h in HORSES})
        world = _mended(known, world, late, opening, stream)
        if distance(world, known.ties) == 0:
            return world.values
        if best is None or distance(world, known.ties) < distance(best, known.ties):
            best = world
    return (best or _anything(known, choices, rng)).values


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


def _anything(known: Knowledge, choices: Openings, rng: Rng) -> World:
    stream = rng.stream("anything")
    return World({h: choices[h][0] + draw_rest(known, h, choices[h][0], stream) for h in HORSES})


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
