"""What the other seats did in secret, drawn for a bot's sampled table: their abilities,
bets, cards and chips, round by round, around what is public (the spaces they
spectated), what the horses did in the drawn movement table, and what the seat learned
of them (its trades with them, Round 3's chip watch, Round 6's list of who bet).

These are choices, not chance, so there is no uniform draw to make: each seat is taken
to act as a plain player might (`PASS_ODDS` rounds without an ability, `BET_ODDS` of
betting its limit on one horse it may bet on), which is what the search's playouts
assume of it too. Not drawn: trades and purchases between other seats (none), what their
abilities taught them (their `learned` is empty: nothing in the rules reads it).
"""

from typing import Any

from ....engine.rng import Rng, Stream
from ..data import FIRST_ROUND, HORSES, LAST_ROUND, START_SPACE, TRACK_LENGTH
from ..options import option
from .knowledge import Knowledge
from .worlds import World

State = dict[str, Any]
Hand = dict[str, int]
PASS_ODDS = 3  # 1 in 3 rounds without an ability
BET_ODDS = (3, 4)  # a seat that may bet does so 3 times in 4
CARDS_PER_LIMIT = 2  # Round 2's utility: 2 cards raise the limit by 1


class Seat:
    """One other seat's secret table as it is drawn, round by round."""

    def __init__(self, seat: int, options: dict[str, Any]) -> None:
        self.seat = seat
        self.hand: Hand = dict.fromkeys(HORSES, 1)
        self.chips: int = options["starting_chips"]
        self.limit: int = options["chip_limit"]
        self.bets: dict[str, dict[str, int]] = {}
        self.seen: dict[str, dict[str, Any]] = {}
        self.points = 0
        self.judged: dict[str, dict[str, Any]] = {}

    def spend(self, cards: dict[str, int]) -> None:
        """Cards used by an ability (never more than held)."""
        for h, n in cards.items():
            self.hand[h] = max(0, self.hand[h] - n)

    def gain(self, h: str, n: int) -> None:
        """Cards an ability gave."""
        self.hand[h] += n


def other_seats(
    view: dict[str, Any], known: Knowledge, world: World, rng: Rng, label: str
) -> dict[int, Seat]:
    """Every other seat's secret table after the rounds played so far."""
    stream = rng.stream(label)
    drawn = {s: Seat(s, view["options"]) for s in range(view["seats"]) if s != known.seat}
    _traded(drawn, view["you"]["trades"], known.seat)
    for r in range(FIRST_ROUND, known.resolved + 1):
        for seat in drawn.values():
            _ability(seat, r, world, stream)
        _bets(drawn, known, world, r, stream)
        for seat in drawn.values():
            _spectated(seat, view, world, r)
    for seat in drawn.values():
        _holding_offers(seat, view["you"]["trades"])
        for r in range(FIRST_ROUND, known.resolved + 1):
            judged = seat.judged.setdefault(str(r), {"applied": {"ability": None, "bets": {}}})
            judged["applied"].setdefault("spectate", None)
            judged["dropped"] = []
    return drawn


def _traded(drawn: dict[int, Seat], trades: list[dict[str, Any]], me: int) -> None:
    """Accepted trades with the seat moved cards both ways (taken as made at the start)."""
    for offer in trades:
        if offer["status"] != "accepted":
            continue
        other = drawn[offer["to"] if offer["from"] == me else offer["from"]]
        gives, gets = (
            (offer["get"], offer["give"]) if offer["from"] == me else (offer["give"], offer["get"])
        )
        other.spend({gives: 1})
        other.gain(gets, 1)


def _holding_offers(seat: Seat, trades: list[dict[str, Any]]) -> None:
    """A seat holds every card it has on offer to the seat (the rules hold it for it)."""
    for offer in trades:
        if offer["status"] == "open" and offer["from"] == seat.seat:
            wanted = sum(
                o["status"] == "open" and o["from"] == seat.seat and o["give"] == offer["give"]
                for o in trades
            )
            seat.hand[offer["give"]] = max(seat.hand[offer["give"]], wanted)


def _held(seat: Seat) -> list[str]:
    return [h for h in HORSES if seat.hand[h] > 0]


def _ability(seat: Seat, r: int, world: World, stream: Stream) -> None:
    """A plain use of the round's ability, on what it does to cards, limit and chips."""
    held = _held(seat)
    if not held or r == LAST_ROUND or stream.below(PASS_ODDS) == 0:
        return
    card = held[stream.below(len(held))]
    if stream.below(2) == 0:
        seat.spend({card: 1})  # a clue: one card used
        return
    _UTILITIES.get(r, lambda *_: None)(seat, card, held, world, stream)


def _copy(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    seat.gain(card, 1)


def _swap(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    seat.spend({card: 1})
    seat.gain(HORSES[stream.below(len(HORSES))], 1)


def _limit(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    pair = [h for h in held for _ in range(seat.hand[h])][:CARDS_PER_LIMIT]
    if len(pair) == CARDS_PER_LIMIT:
        seat.spend({h: pair.count(h) for h in pair})
        seat.limit += 1


def _duplicate(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    seat.gain(card, seat.hand[card])  # select every copy, use one: each is duplicated


def _guess(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    seat.spend({card: 1})
    here = world.spaces[card][5]
    if stream.below(len(HORSES)) == sum(world.spaces[o][5] > here for o in HORSES):
        seat.gain(card, 3)


def _gather(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    seat.spend(dict.fromkeys(held, 1))
    seat.gain(card, len(held))


def _raise_by_distinct(
    seat: Seat, card: str, held: list[str], world: World, stream: Stream
) -> None:
    seat.spend({card: 1})
    seat.limit += 1


def _chips(seat: Seat, card: str, held: list[str], world: World, stream: Stream) -> None:
    copies = seat.hand[card]
    seat.spend({card: copies})
    seat.chips += copies


_UTILITIES = {
    0: _copy,
    1: _swap,
    2: _limit,
    4: _duplicate,
    5: _guess,
    7: _gather,
    8: _raise_by_distinct,
    9: _chips,
}


def _bets(drawn: dict[int, Seat], known: Knowledge, world: World, r: int, stream: Stream) -> None:
    """The round's bets: first what the seat learned of them, then plain bets."""
    if r == FIRST_ROUND:
        return
    placed: dict[int, dict[str, int]] = {s: {} for s in drawn}
    fixed = {h for (rr, h) in [*known.watched, *known.who_bet] if rr == r}
    for h in sorted(fixed):
        _learned_bets(drawn, known, r, h, placed, stream)
    for s, seat in drawn.items():
        eligible = [h for h in _current(seat, r) if h not in fixed]
        budget = min(seat.limit, seat.chips) - sum(placed[s].values())
        betting = stream.below(BET_ODDS[1]) < BET_ODDS[0]
        if eligible and budget > 0 and betting:
            h = eligible[stream.below(len(eligible))]
            placed[s][h] = placed[s].get(h, 0) + budget
    for s, bets in placed.items():
        bets = {h: n for h, n in sorted(bets.items()) if n > 0}
        seat = drawn[s]
        seat.chips = max(0, seat.chips - sum(bets.values()))
        if bets:
            seat.bets[str(r)] = bets
        seat.judged[str(r)] = {"applied": {"ability": None, "spectate": None, "bets": bets}}


def _current(seat: Seat, r: int) -> list[str]:
    seen = seat.seen.get(str(r - 1))
    return list(seen["horses"]) if seen else []


def _learned_bets(
    drawn: dict[int, Seat],
    known: Knowledge,
    r: int,
    h: str,
    placed: dict[int, dict[str, int]],
    stream: Stream,
) -> None:
    """Who bet on a horse as Round 6's utility told, or the others' total Round 3's watch
    told, shared chip by chip among the seats that may bet on it."""
    if (r, h) in known.who_bet:
        for s, chips in known.who_bet[(r, h)].items():
            if s in drawn:
                placed[s][h] = chips
                drawn[s].limit = max(drawn[s].limit, sum(placed[s].values()))
        return
    eligible = [s for s, seat in drawn.items() if h in _current(seat, r)]
    for _ in range(known.watched[(r, h)] if eligible else 0):
        roomy = [s for s in eligible if sum(placed[s].values()) < drawn[s].limit]
        s = (roomy or eligible)[stream.below(len(roomy or eligible))]
        placed[s][h] = placed[s].get(h, 0) + 1
        drawn[s].limit = max(drawn[s].limit, sum(placed[s].values()))


def _spectated(seat: Seat, view: dict[str, Any], world: World, r: int) -> None:
    """The public space the seat spectated and the horses it saw there."""
    if r == FIRST_ROUND:
        return
    space = view["spectating"][str(r)][seat.seat]
    judged = seat.judged.setdefault(str(r), {"applied": {"ability": None, "bets": {}}})
    judged["applied"]["spectate"] = space
    judged["dropped"] = []
    if space is None:
        return
    horses = sorted(h for h in HORSES if world.spaces[h][r] == space)
    if not START_SPACE <= space <= TRACK_LENGTH:
        horses = []
    seat.seen[str(r)] = {"space": space, "horses": horses}
    if r != LAST_ROUND or option(view["options"], "round10_space_scores"):
        seat.points += len(horses)
