"""The Blackout Middle bot's pieces for the information-set search (referee/bots/): a
table consistent with what a seat sees (`sample`), the sealed orders worth searching
(`orders`), how every seat plays in a playout (`policy`), and a playout's value when it
is cut short (`evaluate`). docs/bots.md says how strong it plays and why.

The package: knowledge (the facts a seat's view gives about the race and the others'
bets), worlds (movement tables, one horse's runs drawn uniformly, the facts that tie
horses checked), starts and drawing (a whole table keeping every fact: a first one found
by search, then Gibbs sweeps), others (the other seats' secret play, drawn around what
is public), plans (the abilities weighed each round), prospects (what each seat may
still expect, and its share of the win).
"""

from fractions import Fraction
from typing import Any

from ....engine.canonical import copied
from ....engine.rng import Rng
from ..data import FIRST_ROUND, HORSES, LAST_ROUND, START_SPACE, TRACK_LENGTH
from ..orders import default_orders
from ..state import ROUNDS
from ..trades import free_hand
from ..versions import FIRST, VERSION
from . import plans, prospects
from .drawing import draw_world
from .knowledge import facts_of
from .others import other_seats
from .worlds import finishing_order

State = dict[str, Any]
ITERATIONS = 150  # 0.25-0.55 s a move on one core here, by seats (docs/bots.md)
PLAYOUT_MOVES = 9  # the rest of a 9-seat round and its resolution, then evaluate
ORDER_SAMPLES = 6  # tables `orders` weighs spaces and bets on
SPACES = 3  # spaces to spectate among the candidates
NOISE = 4  # a playout seat plays a listed command one time in NOISE
BET_FLOOR = 6  # a playout seat bets on a horse worth at least this many points per chip


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees in `view` (the rules' view)."""
    known = facts_of(view, seat)
    world = draw_world(known, rng, "world")
    drawn = other_seats(view, known, world, rng, "others")
    you = view["you"]
    seats = range(view["seats"])

    def each(mine: Any, theirs: Any) -> list[Any]:
        return [mine if s == seat else theirs(drawn[s]) for s in seats]

    table: State = {
        "seats": view["seats"],
        "options": dict(view["options"]),
        "phase": view["phase"],
        "round": view["round"],
        "movements": world.movements(),
        "positions": {h: world.spaces[h][known.moved] for h in HORSES},
        "finished": finishing_order(world, known.moved),
        "announced": {
            shown["horse"]: {k: shown[k] for k in ("round", "placement", "movements")}
            for shown in view["finished"]
        },
        "spectating": {r: list(spaces) for r, spaces in view["spectating"].items()},
        "hands": each({h: you["hand"].get(h, 0) for h in HORSES}, lambda o: dict(o.hand)),
        "chips": each(you["chips"], lambda o: o.chips),
        "limits": each(you["chip_limit"], lambda o: o.limit),
        "garnets": each(you["garnets"], lambda o: view["options"]["starting_garnets"]),
        "purchases": each(you["purchases"], lambda o: 0),
        "bets": each(you["bets"], lambda o: o.bets),
        "seen": each(you["seen"], lambda o: o.seen),
        "spectator_points": each(you["spectator_points"], lambda o: o.points),
        "utility_points": each(you["utility_points"], lambda o: {}),
        "watches": each(you["watching"], lambda o: []),
        "learned": each(you["learned"], lambda o: []),
        "judged": each(you["judged"], lambda o: o.judged),
        "offers": list(you["trades"]),
        "scores": view["scores"],
        "tols": view["tols"],
        "elimination": view["elimination"],
    }
    if VERSION != FIRST:
        table["version"] = VERSION
    return copied(table)  # nothing in a sampled table aliases the view


# --- the search's pieces -----------------------------------------------------------


def orders(view: dict[str, Any], seat: int, rng: Rng) -> list[dict[str, Any]]:
    """The sealed orders worth searching this round: the planned abilities, the spaces
    and bets that do best over a few sampled tables, some variations of them, and the
    standard orders (what a seat that sends nothing gets). Round 0: the plan's ability
    alone, since nothing (the standard) only gives up a free card."""
    if view["phase"] != ROUNDS:
        return []
    r, you = view["round"], view["you"]
    hand = {h: you["hand"].get(h, 0) - you["on_offer"].get(h, 0) for h in HORSES}
    bettable = list((you["current_space"] or {}).get("horses", []))
    first = HORSES[rng.below("first", len(HORSES))]
    planned = plans.abilities(hand, r, bettable, first)
    if r == FIRST_ROUND:
        return [{"ability": planned[0], "spectate": None, "bets": {}}]
    tables = [sample(view, seat, Rng(rng.hex(f"table/{i}"))) for i in range(ORDER_SAMPLES)]
    spaces = _best_spaces(tables, r, min(you["chip_limit"], you["chips"]))
    horses = _best_horses(tables, bettable)
    found = []
    for ability in planned:
        budget = _budget(ability, hand, r, you["chip_limit"], you["chips"])
        main = _bets(horses[:1], budget)
        found.append({"ability": ability, "spectate": spaces[0], "bets": main})
        if ability is not planned[0]:
            continue
        found += [{"ability": ability, "spectate": s, "bets": main} for s in spaces[1:]]
        for bets in (_bets(horses[1:2], budget), {}, _split(horses[:2], budget)):
            found.append({"ability": ability, "spectate": spaces[0], "bets": bets})
    found.append(default_orders({}, seat))  # the standard orders read no table
    return [o for i, o in enumerate(found) if o not in found[:i]]


def _best_spaces(tables: list[State], r: int, budget: int) -> list[int]:
    """The spaces worth most over the tables: the horses there at the round's end, and the
    best bet among them next round."""
    worth = dict.fromkeys(range(START_SPACE, TRACK_LENGTH + 1), 0)
    for table in tables:
        points = prospects.placement_points(table)
        ends = _round_end(table, r)
        for space in worth:
            there = [h for h in HORSES if ends[h] == space]
            best = max((points[h] for h in there), default=0) if r < LAST_ROUND else 0
            worth[space] += len(there) + budget * best
    return sorted(worth, key=lambda s: (-worth[s], s))[:SPACES]


def _best_horses(tables: list[State], bettable: list[str]) -> list[str]:
    """The horses the seat may bet on, by their placement points summed over the tables."""
    worth = dict.fromkeys(bettable, 0)
    for table in tables:
        points = prospects.placement_points(table)
        for h in worth:
            worth[h] += points[h]
    return sorted(worth, key=lambda h: (-worth[h], h))


def _round_end(table: State, r: int) -> dict[str, int]:
    """Each horse's space at the end of round r."""
    moves = table["movements"][str(r)]
    return {
        h: here if here > TRACK_LENGTH else here + moves[h]
        for h, here in table["positions"].items()
    }


def _budget(ability: plans.Ability, hand: dict[str, int], r: int, limit: int, chips: int) -> int:
    """The chips a seat may bet this round with this ability (Rounds 2, 8 and 9 add)."""
    raised = plans.effects(ability, hand, r)
    return min(limit + raised["limit_raised"], chips + raised["chips_gained"])


def _bets(horses: list[str], budget: int) -> dict[str, int]:
    return {horses[0]: budget} if horses and budget > 0 else {}


def _split(horses: list[str], budget: int) -> dict[str, int]:
    if len(horses) < 2 or budget < 2:
        return {}
    return {horses[0]: budget - budget // 2, horses[1]: budget // 2}


def policy(state: State, seat: int, commands: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    """A playout's move: in a round, orders from the table itself (every seat plays as if
    it knew the race), one time in NOISE a command drawn from those listed; otherwise a
    listed command."""
    sealed = [c for c in commands if c.get("type") == "submit_orders"]
    if not sealed or rng.below("noise", NOISE) == 0:
        return commands[rng.below("listed", len(commands))]
    r = state["round"]
    return {"type": "submit_orders", "round": r, "orders": _knowing_orders(state, seat, rng)}


def _knowing_orders(state: State, seat: int, rng: Rng) -> dict[str, Any]:
    """The plan's first ability, the most crowded space at the round's end, and the whole
    budget on the best horse the seat may bet on, if it is worth BET_FLOOR a chip (or the
    chips must go now to be bet at all)."""
    r, hand = state["round"], free_hand(state, seat)
    current = state["seen"][seat].get(str(r - 1))
    bettable = list(current["horses"]) if current else []
    ability = plans.abilities(hand, r, bettable, HORSES[rng.below("first", len(HORSES))])[0]
    orders: dict[str, Any] = {"ability": ability, "spectate": None, "bets": {}}
    if r == FIRST_ROUND:
        return orders
    ends = list(_round_end(state, r).values())
    orders["spectate"] = max(range(START_SPACE, TRACK_LENGTH + 1), key=ends.count)
    points = prospects.placement_points(state)
    best = sorted(bettable, key=lambda h: -points[h])[:1]
    if best and (points[best[0]] >= BET_FLOOR or _must_bet(state, seat, r)):
        budget = _budget(ability, hand, r, state["limits"][seat], state["chips"][seat])
        orders["bets"] = _bets(best, budget)
    return orders


def _must_bet(state: State, seat: int, r: int) -> bool:
    """Whether the chips left need every round left to be bet."""
    return state["chips"][seat] > state["limits"][seat] * (LAST_ROUND - r)


def evaluate(state: State, seat: int) -> list[Fraction]:
    """Each seat's share of the win at a playout's cut-off (prospects.py)."""
    return prospects.shares(state)
