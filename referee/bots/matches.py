"""The games of the bots' strength table (bench/bots.py): one seeded game of a match-up,
the strong bot in one seat against random seats, standard seats, or strong seats on a
tenth of its budget, played through the pure engine (game.step, as the service plays
them). Pure and seeded, no I/O: the bench plays a game here or sends it whole to a
Celery worker (the task referee.bench_bot_game), and the same Job gives the same game."""

import json
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import games  # noqa: F401  (registers the rulesets)
from ..engine import game
from ..engine.events import REFEREE
from ..engine.rng import Rng
from . import levels

T0 = 1_800_000_000  # the creation time of games in rounds
MATCHUPS = ("random", "standard", "tenth")
ASKS_PER_ROUND = 4  # a seat asked this often in one round lets the deadline pass


@dataclass(frozen=True)
class Job:
    """One game of a match-up: game `index` of G, the strong seat at index mod players."""

    ruleset: str
    players: int
    options: str  # canonical JSON
    matchup: str
    index: int
    iterations: int


def played(job: Job) -> dict[str, Any]:
    """One game: the strong seat's share of the win, its moves and their CPU seconds, and
    of those the moves it searched (more than one to weigh) and their CPU seconds (the
    share and the counts depend on the job alone; the CPU seconds are a measurement)."""
    seed = f"bench-bots/{job.ruleset}/{job.players}/{job.options}/{job.matchup}/{job.index}"
    names = [f"p{s}" for s in range(job.players)]
    state = game.fold(game.create(job.ruleset, names, json.loads(job.options), seed, now=T0))
    strong, moves, cpu, searched, searched_cpu = job.index % job.players, 0, 0.0, 0, 0.0
    asked: dict[int, int] = {}  # how often each seat was asked in the open round
    while not game.is_closed(state):
        actor, command = _referee_move(state, asked)
        if actor is None:
            actor = _seat_to_ask(state)
            level, budget = _level(job, actor == strong)
            start = time.process_time()
            view = game.view(state, actor)
            rng = Rng(f"bench-bot/{job.matchup}/{job.index}/{actor}/{state['seq']}")
            command = levels.choose(view, actor, level, rng, iterations=budget)
            if actor == strong:
                spent = time.process_time() - start
                moves, cpu = moves + 1, cpu + spent
                if _weighed(view):
                    searched, searched_cpu = searched + 1, searched_cpu + spent
            command = _stamped(state, command)
            asked[actor] = asked.get(actor, 0) + 1
        state = game.step(state, actor, command, seed)[1]
    winners = state["outcome"]["winners"]
    share = Fraction(1, len(winners)) if strong in winners else Fraction(0)
    return {
        "share": [share.numerator, share.denominator],
        "moves": moves,
        "cpu": cpu,
        "searched": searched,
        "searched_cpu": searched_cpu,
    }


def played_alone(
    ruleset: str,
    options: dict[str, Any],
    seed: str,
    level: str,
    key: str,
    *,
    iterations: int | None = None,
) -> dict[str, Any]:
    """A one-seat game (Solitaire) played to its end by a bot of `level` alone, its
    randomness keyed `key/SEQ`, the referee's own steps its first listed command: the
    engine state at the end."""
    state = game.fold(game.create(ruleset, ["p0"], options, seed, now=T0))
    while not game.is_closed(state):
        actor = game.to_move(state)[0]
        if actor == 0:
            rng = Rng(f"{key}/{state['seq']}")
            command = levels.choose(game.view(state, 0), 0, level, rng, iterations=iterations)
        else:
            command = game.legal(state, actor)[0]
        state = game.step(state, actor, game.stamp(state, command, T0), seed)[1]
    return state


def _weighed(view: dict[str, Any]) -> bool:
    """Whether the seat had more than one move to weigh: in an open round always (its
    orders), else when more than one command is legal (one is played without a search)."""
    return levels.open_round(view) is not None or len(view["legal"]) > 1


def _level(job: Job, strong: bool) -> tuple[str, int | None]:
    if strong:
        return "strong", job.iterations
    if job.matchup == "tenth":
        return "strong", max(1, job.iterations // 10)
    return job.matchup, None


def _referee_move(state: dict[str, Any], asked: dict[int, int]) -> tuple[Any, Any]:
    """The referee's resolve_round once the open round is closed, or once a seat was asked
    too often in it (its deadline passes); the moderator's first listed command when only
    the moderator is to act (a vote in the awards)."""
    current = state.get("rounds", {}).get("current")
    if current is not None:
        if current["closed"] or max(asked.values(), default=0) >= ASKS_PER_ROUND:
            asked.clear()
            now = current["deadline"] - 1 if current["closed"] else current["deadline"]
            return REFEREE, {"type": "resolve_round", "round": current["round"], "now": now}
    acting = game.to_move(state)
    if acting and not any(isinstance(a, int) for a in acting):
        return acting[0], _stamped(state, game.legal(state, acting[0])[0])
    return None, None


def _seat_to_ask(state: dict[str, Any]) -> int:
    return next(a for a in game.to_move(state) if isinstance(a, int))


def _stamped(state: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    current = state.get("rounds", {}).get("current")
    return game.stamp(state, command, current["deadline"] - 1 if current else T0)
