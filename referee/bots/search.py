"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse
2012; OpenSpiel's ismcts.py), generic over rulesets.

One tree, of what the searching seat (the observer) can tell apart. Each iteration draws
a determinization (a full rules state consistent with the observer's view, from the
ruleset's `sample`), descends the tree by UCB among the moves legal in that
determinization (availability counts), expands one move, plays out with the ruleset's
`policy` (uniform without one) to the end or to a cut-off scored by `evaluate`, and backs
up each seat's share of the win. The bot plays the root move visited most.

A move is a tree edge keyed by what the observer sees of it: its own commands, and
other seats' commands whose first event it may see, each on its own; another seat's
commands it may not see (a sealed bet, sealed orders) are one edge, "a move I cannot
see", whose command the playout policy draws. What the move then showed the observer
(its visible events, dice and deals among them) picks the child node. A sealed round is
searched as such: the observer's orders are chosen at its node, and every other seat's
orders, which it cannot see, are drawn by the policy.

Rewards are whole numbers (a win is REWARD, a k-way tie REWARD // k) and UCB scores are
computed in fixed point with integers only, so a move never depends on floating point:
given its Rng, the bot's choice is the same on every machine.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import isqrt
from types import ModuleType
from typing import Any

from ..engine import game
from ..engine.canonical import canonical
from ..engine.events import may_see
from ..engine.game import Actor, State
from ..engine.rng import Rng, Stream
from . import simulate

Command = dict[str, Any]
Key = bytes
REWARD = 720_720  # a win; lcm(1..16), so every k-way tie's share is whole
SCALE = 1 << 32  # the fixed point of UCB scores
EXPLORATION = Fraction(35, 100)  # C in mean + C * sqrt(ln(available) / visits): docs/bots.md
LN2 = 12_786_308_645_202_655_659  # floor(ln(2) * 2**64)
UNSEEN: Key = b"unseen"  # the edge of another seat's moves the observer cannot see
BY_LOT: Key = b"by-lot"  # the edge of the referee's or the moderator's moves: drawn, not searched


@dataclass
class Edge:
    """A move from a node: its visits, availability and the mover's summed reward."""

    visits: int = 0
    available: int = 0
    reward: int = 0
    after: dict[Key, "Node"] = field(default_factory=dict)


@dataclass
class Node:
    """An information set of the observer: its moves (by mover and what the observer
    sees of the move), and which commands of each mover it may see."""

    edges: dict[tuple[Actor, Key], Edge] = field(default_factory=dict)
    seen: dict[tuple[Actor, Key], bool] = field(default_factory=dict)


@dataclass
class Pieces:
    """What a ruleset's bot module gives the search (docs/bots.md, the contract)."""

    sample: Callable[[dict[str, Any], int, Rng], dict[str, Any]]
    policy: Callable[[dict[str, Any], int, list[Command], Rng], Command] | None = None
    evaluate: Callable[[dict[str, Any], int], list[Any]] | None = None
    playout_moves: int | None = None
    orders: Callable[[dict[str, Any], int, Rng], list[Any]] | None = None
    opponents_searched: bool = True

    @classmethod
    def of(cls, module: ModuleType) -> "Pieces":
        """The pieces a ruleset's bot module defines."""
        return cls(
            sample=module.sample,
            policy=getattr(module, "policy", None),
            evaluate=getattr(module, "evaluate", None),
            playout_moves=getattr(module, "PLAYOUT_MOVES", None),
            orders=getattr(module, "orders", None),
            opponents_searched=getattr(module, "OPPONENTS_SEARCHED", True),
        )


@dataclass
class Turn:
    """One iteration's randomness: the rules' (chance), the search's own uniform draws
    (one stream), and a key for the fresh Rng each call of the policy gets."""

    chance: Rng
    draws: Stream
    policy_key: str

    @classmethod
    def of(cls, world: Rng) -> "Turn":
        """The iteration's randomness, from its own Rng."""
        return cls(Rng(world.hex("chance")), world.stream("draws"), world.hex("policy"))

    def fresh(self, label: str) -> Rng:
        """A fresh Rng for one call of a ruleset's function (its labels are its own)."""
        return Rng(f"{self.policy_key}/{label}")


@dataclass
class Search:
    """One search: the observer's view, its seat, its root moves and the ruleset's pieces."""

    view: dict[str, Any]
    seat: int
    moves: list[Command]
    pieces: Pieces
    root: Node = field(default_factory=Node)


def search(
    view: dict[str, Any],
    seat: int,
    moves: list[Command],
    rng: Rng,
    *,
    pieces: Pieces,
    iterations: int,
) -> Command:
    """The move among `moves` (the seat's candidates now) the search visits most."""
    if len(moves) == 1:
        return moves[0]
    run = Search(view, seat, moves, pieces)
    label = f"search/{view['version']}"
    for i in range(iterations):
        iterate(run, Rng(rng.hex(f"{label}/{i}")))
    return best(run)


def best(run: Search) -> Command:
    """The root move with the most visits; ties go to the higher reward, then the first."""
    chosen, most = run.moves[0], (-1, -1)
    for move in run.moves:
        edge = run.root.edges.get((run.seat, canonical(move)))
        score = (edge.visits, edge.reward) if edge else (0, 0)
        if score > most:
            chosen, most = move, score
    return chosen


def root_visits(run: Search) -> list[int]:
    """The visits of each root move, in the order of the moves."""
    edges = run.root.edges
    return [
        edges[(run.seat, canonical(m))].visits if (run.seat, canonical(m)) in edges else 0
        for m in run.moves
    ]


def iterate(run: Search, world: Rng) -> None:
    """One iteration: determinize, descend and expand, play out, back up."""
    sampled = run.pieces.sample(run.view["state"], run.seat, Rng(world.hex("sample")))
    # the seat is choosing its orders now, even if it sent some before
    state = simulate.table(run.view, run.seat, sampled, own_orders=False)
    turn = Turn.of(world)
    path, state = _descend(run, state, turn)
    won = _playout(run, state, turn)
    for edge, mover in path:
        edge.visits += 1
        if isinstance(mover, int):
            edge.reward += won[mover]


def _descend(run: Search, state: State, turn: Turn) -> tuple[list[tuple[Edge, Actor]], State]:
    """Down the tree by UCB until a move is expanded or play stops; the edges taken."""
    node, path = run.root, list[tuple[Edge, Actor]]()
    while True:
        acting = simulate.actors(state)
        if not acting:
            return path, state
        mover = run.seat if run.seat in acting else acting[0]
        moves = run.moves if node is run.root and mover == run.seat else None
        moves = moves or _moves(run, state, mover, turn)
        grouped = _grouped(run, node, state, mover, moves, turn.chance)
        key, expanded = _select(node, mover, list(grouped), turn.draws)
        command = _pick(run, state, mover, grouped[key], turn)
        edge = node.edges[(mover, key)]
        path.append((edge, mover))
        events, state = simulate.step(state, mover, command, turn.chance)
        seen = _seen(events, run.seat)
        if expanded or seen not in edge.after:
            edge.after[seen] = Node()
            return path, state
        node = edge.after[seen]


def _moves(run: Search, state: State, mover: Actor, turn: Turn) -> list[Command]:
    """The mover's moves now; the observer's orders in a round from the ruleset's `orders`
    when it has one."""
    if mover == run.seat and run.pieces.orders is not None and simulate.in_round(state):
        rules_view = game.rules_of(state).view(state["rules"], mover)
        label = f"orders/{state['seq']}"
        found = run.pieces.orders(rules_view, mover, turn.fresh(label))
        return sealed_orders(found, state["rounds"]["current"]["round"])
    return simulate.commands(state, mover)


def sealed_orders(found: list[Any], number: int) -> list[Command]:
    """Candidate orders as submit_orders commands for round `number` (a ruleset's `orders`
    may list the orders or the commands)."""
    return [
        o
        if o.get("type") == simulate.SUBMIT
        else {"type": simulate.SUBMIT, "round": number, "orders": o}
        for o in found
    ]


def _grouped(
    run: Search, node: Node, state: State, mover: Actor, moves: list[Command], chance: Rng
) -> dict[Key, list[Command]]:
    """The mover's moves by edge: each on its own where the observer sees it (its own and
    other seats' moves it may see), other seats' moves it may not see together as UNSEEN,
    and the referee's or the moderator's together as BY_LOT (they win nothing)."""
    if not isinstance(mover, int):
        return {BY_LOT: moves}
    grouped: dict[Key, list[Command]] = {}
    for command in moves:
        key = canonical(command)
        if mover != run.seat and (
            not run.pieces.opponents_searched
            or not _visible(node, state, mover, key, command, chance, run.seat)
        ):
            key = UNSEEN
        grouped.setdefault(key, []).append(command)
    return grouped


def _visible(
    node: Node, state: State, mover: int, key: Key, command: Command, chance: Rng, seat: int
) -> bool:
    """Whether the observer sees another seat's command: whether it may see the first
    event of its batch, which the log's record carries the command on (found once per
    node and command)."""
    known = node.seen.get((mover, key))
    if known is None:
        events = simulate.decided(state, mover, command, chance)
        known = node.seen[(mover, key)] = bool(events) and may_see(events[0]["visibility"], seat)
    return known


def _select(node: Node, mover: Actor, keys: list[Key], draws: Stream) -> tuple[Key, bool]:
    """A move not yet in the tree, drawn at random (expanded: True), else the best by UCB;
    every move of the tree available now counts one more availability."""
    fresh = [k for k in keys if (mover, k) not in node.edges]
    if fresh:
        key = fresh[draws.below(len(fresh))]
        node.edges[(mover, key)] = Edge()
    else:
        key = max(keys, key=lambda k: _ucb(node.edges[(mover, k)]))
    for k in keys:
        edge = node.edges.get((mover, k))
        if edge is not None:  # moves not yet in the tree count from when they are added
            edge.available += 1
    return key, bool(fresh)


def _ucb(edge: Edge) -> int:
    """mean + C * sqrt(ln(available) / visits), in units of 1/SCALE (integers only)."""
    if edge.visits == 0:
        return 1 << 62  # a move the tree holds but never tried: first
    mean = edge.reward * SCALE // (edge.visits * REWARD)
    c = EXPLORATION
    spread = (c.numerator**2) * _ln(edge.available) * SCALE // (c.denominator**2 * edge.visits)
    return mean + isqrt(spread)


@cache
def _ln(n: int) -> int:
    """floor(ln(n) * SCALE) for n >= 1, with integers: log2 bit by bit, times ln 2."""
    whole = n.bit_length() - 1
    bits, x, one = 0, (n << 64) >> whole, 1 << 64  # x: n / 2**whole in [1, 2), 64 bits
    for _ in range(32):
        x = x * x >> 64
        bits <<= 1
        if x >= 2 * one:
            x >>= 1
            bits |= 1
    return ((whole << 32) | bits) * LN2 >> 64


def _pick(run: Search, state: State, mover: Actor, commands: list[Command], turn: Turn) -> Command:
    """The command of the chosen edge: the only one, or one the policy draws among them."""
    if len(commands) == 1:
        return commands[0]
    return _drawn(run, state, mover, commands, turn)


def _drawn(run: Search, state: State, mover: Actor, commands: list[Command], turn: Turn) -> Command:
    """A command by the ruleset's policy (a fresh Rng per call), or uniformly."""
    policy = run.pieces.policy
    if policy is not None and isinstance(mover, int):
        return policy(state["rules"], mover, commands, turn.fresh(f"move/{state['seq']}"))
    return commands[turn.draws.below(len(commands))]


def _seen(events: list[dict[str, Any]], seat: int) -> Key:
    """What a batch of events shows the observer: each event it may see, and that there
    were others."""
    shown = [
        {"type": e["type"], "payload": e["payload"]}
        if may_see(e.get("visibility", "public"), seat)
        else None
        for e in events
    ]
    return canonical(shown)


def _playout(run: Search, state: State, turn: Turn) -> list[int]:
    """Every seat's reward after playing on by policy to the end, or to the cut-off."""
    limit = run.pieces.playout_moves
    moves = 0
    while not simulate.is_over(state):
        acting = simulate.actors(state)
        if not acting:
            raise RuntimeError(f"nobody is to move in {state['ruleset']} and play goes on")
        if limit is not None and moves >= limit:
            return _evaluated(run, state)
        mover = acting[0]
        command = _drawn(run, state, mover, simulate.commands(state, mover), turn)
        _, state = simulate.step(state, mover, command, turn.chance)
        moves += 1
    return rewards(state["outcome"], len(state["players"]))


def rewards(outcome: dict[str, Any], seats: int) -> list[int]:
    """Each seat's share of the win, in units of 1/REWARD: 1 for a sole winner, 1/k for a
    k-way tie, 0 for a loss."""
    winners = outcome.get("winners") or []
    return [REWARD // len(winners) if s in winners else 0 for s in range(seats)]


def _evaluated(run: Search, state: State) -> list[int]:
    """The ruleset's estimate of each seat's share at a cut-off, in units of 1/REWARD."""
    assert run.pieces.evaluate is not None, "a cut-off needs the ruleset's evaluate"
    shares = run.pieces.evaluate(state["rules"], run.seat)
    return [Fraction(share) * REWARD // 1 for share in shares]
