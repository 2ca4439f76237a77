"""What the Royal Turf bot knows and how it plays a line out (docs/bots.md, royal-turf).

A seat sees the whole table but for two things, which `sample` draws: with Hidden Bets
the value of every chip another player has down this race (and so which chips it still
holds), and the cards that went to earlier races (so which lie in the undrawn deck). The
playout `policy` bets its bigger chips first on horses with a card that runs well, and in
a race gives the rolled face to the horse it helps most: a high roll to a horse it backs,
a low one to a horse others back. `evaluate` scores a table whose playout stops early by
money and the bets on the horses as they lie.
"""

from fractions import Fraction
from itertools import permutations
from math import isqrt
from typing import Any

from ...engine.rng import Rng
from .cards import deck, horse_of
from .data import DIE, FACES, GATES, HORSES, ROYAL_TURF_CARDS, ROYAL_TURF_PER_HORSE
from .payouts import table
from .scoring import outcome
from .state import BETTING, RACING, TERMS, betting_rounds, chips_of
from .track import stop

State = dict[str, Any]
Command = dict[str, Any]

# the strong level's default budget: 0.4-1 s a move on one core here (docs/bots.md)
ITERATIONS = 350
# playouts stop after this many moves (about what is left of a race) and are scored by
# `evaluate`: the races after are mostly dice, and the search gets more iterations
PLAYOUT_MOVES = 60
# the card column of each face of the die
ROLLS = [FACES.index(face) for face in DIE]
# how far behind the richest a seat's chances fall by e (in money, per race to come)
SPREAD = 400
# one playout move in this many is uniform, so playouts are not all alike
EXPLORE = 8


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees (`view` is `view(state, seat)`):
    other players' sealed chips this race, uniform among the assignments the chips they
    started with allow; the cards of earlier races, uniform among the cards not on the
    table. Sealed bets carry no salt (the seed's secret; nothing in the rules reads it)."""
    state: State = {
        **view["variants"],
        **{name: view["options"][name] for name in TERMS},
        "zero_chip_uses_bet": view["options"]["zero_chip_uses_bet"],
        "custom_cards": view["options"]["cards"],
        "track_length": view["track_length"],
        "pace_space": view["pace_space"],
        "seats": len(view["money"]),
        **{key: view[key] for key in PLAIN},
        "cards": {h["horse"]: h["card"]["card"] for h in view["horses"] if h["card"]},
        "spaces": {h["horse"]: h["space"] for h in view["horses"]},
        "arrived": {h["horse"]: h["arrived"] for h in view["horses"]},
        "face_down": [
            h["horse"] for h in view["horses"] if not h["face_up"] and h["finished"] is None
        ],
        "placed_bets": _placed_bets(view),
    }
    state["chips"], state["bets"] = _chips_and_bets(state, view, seat, rng)
    state["sealed"] = _sealed(state)
    state["deck"] = _deck(state, view["deck_size"], rng)
    return state


PLAIN = (
    "race",
    "phase",
    "first_player",
    "turn",
    "betting_round",
    "moves",
    "die",
    "pace_chip",
    "placings",
    "last_place",
    "money",
    "results",
)


def _placed_bets(view: dict[str, Any]) -> list[int]:
    """Bets on horses that placed, per seat, over the races paid (the most_bets tiebreak)."""
    placed = [0] * len(view["money"])
    for result in view["results"]:
        for bet in result["bets"]:
            if bet["horse"] in result["placings"]:
                placed[bet["seat"]] += bet["chip"]
    return placed


def _chips_and_bets(
    state: State, view: dict[str, Any], seat: int, rng: Rng
) -> tuple[list[list[int]], list[dict[str, Any]]]:
    """Every seat's chips in hand and every bet down, sealed values drawn for the others."""
    chips: list[list[int]] = []
    bets = [dict(b) for b in view["bets"]]
    for other, held in enumerate(view["chips"]):
        if isinstance(held, list):
            chips.append(list(held))
            continue
        hidden = [b for b in bets if b["seat"] == other and b["chip"] is None]
        values = _sealed_values(state, bets, other, held, rng)
        for bet, chip in zip(hidden, values[: len(hidden)], strict=True):
            bet["chip"] = chip
        chips.append(sorted(values[len(hidden) :]))
    return chips, bets


def _sealed_values(
    state: State, bets: list[dict[str, Any]], seat: int, held: int, rng: Rng
) -> list[int]:
    """The values of a seat's sealed chips in the order they went down, then the chips it
    holds: one of the arrangements its race's chips allow, uniformly."""
    mine = [b for b in bets if b["seat"] == seat]
    hidden = [b for b in mine if b["chip"] is None]
    if not hidden and not held:
        return []
    pool = chips_of(state)
    for bet in mine:
        if bet["chip"] is not None:
            pool.remove(bet["chip"])
    shown = [(b["horse"], b["chip"]) for b in mine if b["chip"] is not None]
    choices = sorted(
        values
        for values in set(permutations(pool, len(hidden)))
        if _allowed(state, [*shown, *zip((b["horse"] for b in hidden), values, strict=True)])
    )
    chosen = list(choices[rng.below(f"sealed/{seat}", len(choices))])
    rest = list(pool)
    for chip in chosen:
        rest.remove(chip)
    return chosen + rest


def _allowed(state: State, bets: list[tuple[str, int]]) -> bool:
    """Whether a seat's bets keep one bet per horse (a 0-chip takes none when
    zero_chip_uses_bet is false)."""
    counted = [horse for horse, chip in bets if chip or state["zero_chip_uses_bet"]]
    return len(counted) == len(set(counted))


def _sealed(state: State) -> dict[str, dict[str, Any]]:
    """The sealed bets still to reveal, as the table keeps them (a salt is the seed's
    secret: none here, and nothing in the rules reads it)."""
    rounds = betting_rounds(state)
    kept = {}
    for bet in state["bets"]:
        if "sealed" not in bet or bet["revealed"]:
            continue
        seq = bet["sealed"]
        kept[str(seq)] = {
            "round": (state["race"] - 1) * rounds + bet["round"],
            "seat": bet["seat"],
            "orders": {"horse": bet["horse"], "chip": bet["chip"]},
            "salt": None,
            "seq": seq,
            "commitment": bet["commitment"],
            "replaces": None,
        }
    return kept


def _deck(state: State, size: int, rng: Rng) -> list[int]:
    """The undrawn deck: the cards in play less those on the table now and those dealt
    to earlier races, which are drawn uniformly (one per horse a race with Royal Turf
    Cards)."""
    on_table = set(state["cards"].values())
    if not state["royal_turf_cards"]:
        rest = [c for c in range(1, len(deck(state)) + 1) if c not in on_table]
        gone = set(rng.shuffle("deck", rest)[: len(rest) - size])
        return [c for c in rest if c not in gone]
    per_horse = size // GATES
    kept: set[int] = set()
    for horse in HORSES:
        own = [c for c in range(1, ROYAL_TURF_CARDS + 1) if horse_of(c) == horse]
        rest = [c for c in own if c not in on_table]
        kept.update(rng.shuffle(f"deck/{horse}", rest)[:per_horse])
    assert len(kept) == size and ROYAL_TURF_PER_HORSE * GATES == ROYAL_TURF_CARDS
    return sorted(kept)


# --- playouts ----------------------------------------------------------------------


def policy(state: State, seat: int, commands: list[Command], rng: Rng) -> Command:
    """A cheap move better than a uniform one: in a race, the horse the rolled face helps
    this seat most; in betting, the bigger chips first on the better-looking horses."""
    if len(commands) == 1:
        return commands[0]
    draws = rng.stream(f"policy/{state['race']}/{state['betting_round']}/{state['moves']}/{seat}")
    if draws.below(EXPLORE) == 0:
        return commands[draws.below(len(commands))]
    if state["phase"] == RACING:
        stake = stakes(state, seat)
        scored = [(_move_gain(state, stake[c["horse"]], c["horse"]), c) for c in commands]
    else:
        backed = dict.fromkeys(HORSES, 0)
        for bet in state["bets"]:
            backed[bet["horse"]] += bet["chip"]
        scored = [(_bet_gain(state, backed, c), c) for c in commands]
    top = max(score for score, _ in scored)
    best = [c for score, c in scored if score == top]
    return best[draws.below(len(best))] if len(best) > 1 else best[0]


def stakes(state: State, seat: int) -> dict[str, int]:
    """What each horse is worth to the seat against the others: its own bets on the horse
    times (seats - 1), less the others' bets (a 0-chip is no bet)."""
    others = state["seats"] - 1
    stake = dict.fromkeys(HORSES, 0)
    for bet in state["bets"]:
        stake[bet["horse"]] += bet["chip"] * others if bet["seat"] == seat else -bet["chip"]
    return stake


def _move_gain(state: State, stake: int, horse: str) -> int:
    """The seat's stake in the horse times how much further than on average this roll
    takes it (in sixths of a space)."""
    if not stake:
        return 0
    card = deck(state)[state["cards"][horse] - 1]
    rolled = stop(state, horse, card[FACES.index(state["die"])]) - state["spaces"][horse]
    return stake * (len(DIE) * rolled - sum(card[face] for face in ROLLS))


def _bet_gain(state: State, backed: dict[str, int], command: Command) -> int:
    """Bigger chips first, on horses whose card has a big best roll and a good head (the
    face that comes up half the time), rather on horses others have not backed."""
    horse, chip = command["horse"], command["chip"]
    card = deck(state)[state["cards"][horse] - 1]
    return chip * (max(card) + card[FACES.index("head")] - 2 * backed[horse])


def evaluate(state: State, seat: int) -> list[Fraction | int]:
    """Each seat's share of the win, roughly, for a playout stopped before the end.

    A seat's worth is its money and half what its bets on the running race would pay
    were the race over with the horses as they lie; a seat `d` behind the richest weighs
    1 / (1 + x + x^2/2 + x^3/6), x = d / spread (about e^-x, in fractions), and the spread
    grows with the square root of what is still to race: the rest of this race and the
    races left, each counted by its multiplier squared. The constants were fitted to
    playouts by `policy` at 2-6 players (docs/bots.md)."""
    over = outcome(state)
    if over is not None:
        winners = over["winners"]
        return [Fraction(1, len(winners)) if s in winners else 0 for s in range(state["seats"])]
    worth = [2 * money for money in state["money"]]
    if state["phase"] in (BETTING, RACING):
        for bettor, amount in _bet_worth(state):
            worth[bettor] += amount
    spread = _spread(state)
    richest = max(worth)
    weights = [1 / _about_exp(Fraction(richest - w, spread)) for w in worth]
    total = sum(weights)
    return [w / total for w in weights]


def _about_exp(x: Fraction) -> Fraction:
    """e^x for x >= 0, to its first four terms."""
    return 1 + x + x * x / 2 + x * x * x / 6


def _spread(state: State) -> int:
    """SPREAD times the square root of the racing still to come (the rest of the running
    race, by how far its leader has to go, and the races left, each by its multiplier
    squared), in the doubled money `evaluate` counts; at least 1."""
    multipliers = state["race_multipliers"]
    to_come = Fraction(sum(m * m for m in multipliers[state["race"] :]))
    if state["phase"] in (BETTING, RACING):
        length = state["track_length"]
        ahead = min(length, max(state["spaces"][h] for h in HORSES))
        to_come += Fraction(multipliers[state["race"] - 1] ** 2 * (length - ahead), length)
    to_come += Fraction(1, 20)
    return 2 * isqrt(SPREAD * SPREAD * to_come.numerator // to_come.denominator) + 1


def _bet_worth(state: State) -> list[tuple[int, int]]:
    """(seat, amount) for every bet down, paid as if the race ended with the horses in
    their order now: the one-bet column for the first three, the penalty for the last."""
    running = sorted(
        (h for h in HORSES if h not in state["placings"]),
        key=lambda h: (-state["spaces"][h], state["arrived"][h]),
    )
    ranked = [*state["placings"], *running]
    pays = [row[0] for row in table(state).values()]
    pays += [0] * (GATES - len(pays) - 1) + [-state["last_place_penalty"]]
    multiplier = state["race_multipliers"][state["race"] - 1]
    return [
        (bet["seat"], pays[ranked.index(bet["horse"])] * bet["chip"] * multiplier)
        for bet in state["bets"]
    ]
