"""What a seat's view says about the hidden race and the other seats' bets: the facts a
bot's sampler must keep (knowledge), read from `view(state, seat)` alone.

The movement values are one secret table (rounds 1-10, horses A-I). Most of what a seat
learns bounds one horse at a time: a value it was told (clues, announced finishers), a
space it stood on or not (spaces seen, Round 3's clue, finishing rounds, other seats'
bets it learned of). The rest ties horses together (`Tie`): Round 1's sums, Round 2's
"differ by 1" and Round 4's "same value" lists, Round 5's placements and guesses, and
horses in order of their spaces at the end of a round (those finishing in one round, and
after Round 10 those left on the track).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..abilities import counts
from ..data import FIRST_ROUND, HORSES, LAST_ROUND, START_SPACE, TRACK_LENGTH
from ..state import ROUNDS

ROUND_NUMBERS = tuple(range(FIRST_ROUND + 1, LAST_ROUND + 1))  # the rounds horses move
LAST_SPACE = TRACK_LENGTH + 3  # the furthest a horse can land (15 + a 3)
SPACES = frozenset(range(START_SPACE, LAST_SPACE + 1))
ON_TRACK = frozenset(range(START_SPACE, TRACK_LENGTH + 1))
PAST_LINE = SPACES - ON_TRACK
VALUES = frozenset((1, 2, 3))


@dataclass(frozen=True)
class Tie:
    """A fact binding several horses: `kind` names its check in worlds.py, `round` the
    round whose values (or end-of-round spaces) it reads, `horses` those it binds."""

    kind: str
    round: int
    horses: tuple[str, ...]
    detail: tuple[Any, ...]


@dataclass
class Knowledge:
    """A seat's facts: per horse and round, the values and end-of-round spaces it may
    have; the ties; and what it learned of other seats' bets."""

    seat: int
    moved: int  # the last round whose movement is done
    resolved: int  # the last round resolved (-1 while Round 0 takes orders)
    values: dict[str, dict[int, frozenset[int]]] = field(default_factory=dict)
    spaces: dict[str, dict[int, frozenset[int]]] = field(default_factory=dict)
    ties: list[Tie] = field(default_factory=list)
    # (round, horse) -> the chips every other seat together bet on it that round
    watched: dict[tuple[int, str], int] = field(default_factory=dict)
    # (round, horse) -> {seat: chips} for every seat (absent: none)
    who_bet: dict[tuple[int, str], dict[int, int]] = field(default_factory=dict)
    # each horse's own limits as worlds.limits_of keys them, once worked out
    limits: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def value(self, horse: str, round_number: int, allowed: frozenset[int]) -> None:
        """Narrow a horse's value for a round."""
        known = self.values[horse]
        known[round_number] = known.get(round_number, VALUES) & allowed

    def space(self, horse: str, round_number: int, allowed: frozenset[int]) -> None:
        """Narrow the spaces a horse may stand on at the end of a round."""
        known = self.spaces[horse]
        known[round_number] = known.get(round_number, SPACES) & allowed

    def key(self) -> str:
        """The facts as text, the same for equal facts (a cache key)."""
        per_horse = [
            (h, sorted((r, sorted(v)) for r, v in self.values[h].items())) for h in HORSES
        ] + [(h, sorted((r, sorted(s)) for r, s in self.spaces[h].items())) for h in HORSES]
        return repr((self.moved, per_horse, self.ties))


def moved_through(view: dict[str, Any]) -> int:
    """The last round whose horses have moved: the one before the open round, or Round 10
    once the rounds are over."""
    if view["phase"] == ROUNDS:
        return max(FIRST_ROUND, view["round"] - 1)
    return LAST_ROUND


def facts_of(view: dict[str, Any], seat: int) -> Knowledge:
    """Every fact the seat's view gives about the movements and the others' bets."""
    resolved = view["round"] - 1 if view["phase"] == ROUNDS else LAST_ROUND
    known = Knowledge(seat=seat, moved=moved_through(view), resolved=resolved)
    known.values = {h: {} for h in HORSES}
    known.spaces = {h: {} for h in HORSES}
    _finishers(known, view)
    you = view["you"]
    for r, seen in you["seen"].items():
        _seen(known, int(r), seen["space"], seen["horses"])
    for result in you["learned"]:
        _LEARNED.get(result["kind"] if result["kind"] == "watch" else "ability", _ability)(
            known, view, result
        )
    if view.get("scores"):  # the final order: the horses left on the track by their spaces
        announced = {shown["horse"] for shown in view["finished"]}
        left = tuple(h for h in view["scores"]["order"] if h not in announced)
        if len(left) > 1:
            known.ties.append(Tie("in_order", LAST_ROUND, left, ()))
    return known


def _finishers(known: Knowledge, view: dict[str, Any]) -> None:
    """Announced horses crossed the line in their round and told their later values; the
    others are still on the track."""
    by_round: dict[int, list[tuple[int, str]]] = {}
    for shown in view["finished"]:
        h, r = shown["horse"], shown["round"]
        known.space(h, r - 1, ON_TRACK)
        known.space(h, r, PAST_LINE)
        for later, value in shown["movements"].items():
            known.value(h, int(later), frozenset((value,)))
        by_round.setdefault(r, []).append((shown["placement"], h))
    announced = {shown["horse"] for shown in view["finished"]}
    for h in HORSES:
        if h not in announced and known.moved > FIRST_ROUND:
            known.space(h, known.moved, ON_TRACK)
    for r, placed in by_round.items():
        if len(placed) > 1:
            order = tuple(h for _, h in sorted(placed))
            known.ties.append(Tie("in_order", r, order, ()))


def _seen(known: Knowledge, r: int, space: int, horses: list[str]) -> None:
    for h in HORSES:
        known.space(h, r, frozenset((space,)) if h in horses else SPACES - {space})


def _ability(known: Knowledge, view: dict[str, Any], result: dict[str, Any]) -> None:
    for name, facts in result["learned"].items():
        reader = _FACTS.get(name)
        if reader is not None:
            reader(known, view, result, facts)


def _movements(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for h, values in facts.items():
        for r, value in values.items():
            known.value(h, int(r), frozenset((value,)))


def _sums(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    """Round 1's clue: the selected cards (copies count) are in the seat's judgement."""
    given = view["you"]["judged"][str(result["round"])]["applied"]["ability"]
    selected = sorted(counts(given["select"]).items())
    horses = tuple(h for h, _ in selected)
    for r, total in facts.items():
        if len(selected) == 1:  # one horse (in copies): its value itself
            ((h, copies),) = selected
            known.value(h, int(r), frozenset((total // copies,)))
            continue
        known.ties.append(Tie("sum", int(r), horses, (tuple(n for _, n in selected), total)))


def _differ(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for h, by_round in facts.items():
        for r, listed in by_round.items():
            known.ties.append(Tie("differ_by_1", int(r), tuple(HORSES), (h, tuple(sorted(listed)))))


def _spaces(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for h, by_round in facts.items():
        for r, space in by_round.items():
            known.space(h, int(r), frozenset((space,)))


def _same(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for h, by_round in facts.items():
        for r, listed in by_round.items():
            known.ties.append(Tie("same_value", int(r), tuple(HORSES), (h, tuple(sorted(listed)))))


def _placements(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for h, by_round in facts.items():
        for r, rank in by_round.items():
            known.ties.append(Tie("placement", int(r), tuple(HORSES), (h, rank)))


def _guesses(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    for guess in facts:
        detail = (guess["horse"], guess["ahead"], guess["correct"])
        known.ties.append(Tie("ahead", result["round"], tuple(HORSES), detail))


def _bets(known: Knowledge, view: dict[str, Any], result: dict[str, Any], facts: Any) -> None:
    """Round 6's utility: who bet how much on a horse; a seat bets only on the horses of
    the space it spectated the round before."""
    r = result["round"]
    spectated = view["spectating"][str(r - 1)]
    for h, by_seat in facts.items():
        chips = {int(s): n for s, n in by_seat.items()}
        known.who_bet[(r, h)] = chips
        for s in chips:
            if s != known.seat and spectated[s] is not None:
                known.space(h, r - 1, frozenset((spectated[s],)))


def _watch(known: Knowledge, view: dict[str, Any], result: dict[str, Any]) -> None:
    """Round 3's utility: the chips all seats bet on a horse; others' chips mean the horse
    stood where another seat spectated the round before."""
    r = result["round"]
    mine = view["you"]["bets"].get(str(r), {})
    spectated = view["spectating"][str(r - 1)]
    places = frozenset(
        space for s, space in enumerate(spectated) if s != known.seat and space is not None
    )
    for h, total in result["chips"].items():
        others = total - mine.get(h, 0)
        known.watched[(r, h)] = others
        if others > 0:
            known.space(h, r - 1, places)


_FACTS: dict[str, Callable[[Knowledge, dict[str, Any], dict[str, Any], Any], None]] = {
    "movements": _movements,
    "sums": _sums,
    "differ_by_1": _differ,
    "spaces": _spaces,
    "same_movement": _same,
    "placements": _placements,
    "guesses": _guesses,
    "bets": _bets,
}
_LEARNED: dict[str, Callable[[Knowledge, dict[str, Any], dict[str, Any]], None]] = {
    "watch": _watch,
    "ability": _ability,
}
