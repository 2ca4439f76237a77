"""The bots' strength table: the strong bot in one seat against random seats, against
standard seats, and against strong seats with a tenth of its budget, over seeded games
played through the pure engine (game.step, as the service plays them). The strong seat
goes round the table (game i: seat i mod players). Prints and writes, per match-up, the
strong seat's win share (a k-way tie counts 1/k) with a 95% Wilson interval, the target,
and the CPU seconds per strong move; var/bench/bots.json keeps one row per ruleset,
players, options and match-up (a new run replaces its own rows).

    .venv/bin/python bench/bots.py galloping-horse --players 4 --games 200 --workers 2
    .venv/bin/python bench/bots.py royal-turf --players 3 --options '{"hidden_bets": true}'
"""

import argparse
import json
import math
import os
import platform
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import levels
from referee.engine import game, registry
from referee.engine.events import REFEREE
from referee.engine.rng import Rng

OUT = Path("var/bench/bots.json")
T0 = 1_800_000_000  # the creation time of games in rounds
MATCHUPS = ("random", "standard", "tenth")
ASKS_PER_ROUND = 4  # a seat asked this often in one round lets the deadline pass
console = Console(width=120)


@dataclass(frozen=True)
class Job:
    """One game of a match-up."""

    ruleset: str
    players: int
    options: str  # canonical JSON
    matchup: str
    index: int
    iterations: int


def played(job: Job) -> dict[str, Any]:
    """One game: the strong seat's share of the win, its moves and their CPU seconds."""
    seed = f"bench-bots/{job.ruleset}/{job.players}/{job.options}/{job.matchup}/{job.index}"
    names = [f"p{s}" for s in range(job.players)]
    state = game.fold(game.create(job.ruleset, names, json.loads(job.options), seed, now=T0))
    strong, moves, cpu, asked = job.index % job.players, 0, 0.0, {}
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
                moves, cpu = moves + 1, cpu + time.process_time() - start
            command = _stamped(state, command)
            asked[actor] = asked.get(actor, 0) + 1
        state = game.step(state, actor, command, seed)[1]
    winners = state["outcome"]["winners"]
    share = Fraction(1, len(winners)) if strong in winners else Fraction(0)
    return {"share": [share.numerator, share.denominator], "moves": moves, "cpu": cpu}


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


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def target(matchup: str, players: int) -> Fraction:
    """The product's target share: in 2-player games 3/4 against random and 3/5 against
    standard; in games of n players 2/n and 1.5/n; better than an even 1/n against a
    tenth of the budget."""
    if players == 2 and matchup != "tenth":
        return {"random": Fraction(3, 4), "standard": Fraction(3, 5)}[matchup]
    return {"random": Fraction(2), "standard": Fraction(3, 2), "tenth": Fraction(1)}[
        matchup
    ] / players


def matchup_row(jobs: list[Job], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one match-up."""
    job = jobs[0]
    total = sum(Fraction(*r["share"]) for r in results)
    moves = sum(r["moves"] for r in results)
    low, high = wilson(float(total), len(results))
    return {
        "ruleset": job.ruleset,
        "players": job.players,
        "options": json.loads(job.options),
        "matchup": job.matchup,
        "iterations": job.iterations,
        "games": len(results),
        "share": round(float(total) / len(results), 4),
        "low": round(low, 4),
        "high": round(high, 4),
        "target": round(float(target(job.matchup, job.players)), 4),
        "cpu_seconds_per_strong_move": round(sum(r["cpu"] for r in results) / max(1, moves), 3),
        "strong_moves": moves,
    }


def run(jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    """The games' results in the jobs' order, on `workers` local processes."""
    if workers <= 1:
        yield from map(played, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(played, jobs, chunksize=1)


def saved(rows: list[dict[str, Any]], out: Path) -> None:
    """Write the rows into the file, replacing its rows of the same match-ups."""
    known = json.loads(out.read_text())["rows"] if out.exists() else []

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return row["ruleset"], row["players"], json.dumps(row["options"]), row["matchup"]

    mine = {key(r) for r in rows}
    kept = [r for r in known if key(r) not in mine] + rows
    machine = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"machine": machine, "rows": kept}, indent=1) + "\n")


def printed(rows: list[dict[str, Any]]) -> None:
    table = Table(title="strong bot in one seat")
    columns = ("ruleset", "n", "against", "iterations", "games", "win share (95%)", "target")
    for column in (*columns, "s/move"):
        table.add_column(column)
    for r in rows:
        shown = f"{r['share']:.3f} ({r['low']:.3f}-{r['high']:.3f})"
        ok = "" if r["low"] >= r["target"] else " (not shown)"
        table.add_row(
            r["ruleset"], str(r["players"]), r["matchup"], str(r["iterations"]), str(r["games"]),
            shown, f"{r['target']:.3f}{ok}", f"{r['cpu_seconds_per_strong_move']:.2f}",
        )  # fmt: skip
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--games", type=int, default=40, help="games per match-up")
    parser.add_argument("--workers", type=int, default=1, help="local processes")
    parser.add_argument("--iterations", type=int, help="the strong budget (the bot's ITERATIONS)")
    parser.add_argument("--against", nargs="+", choices=MATCHUPS, default=list(MATCHUPS))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rules = registry.get(args.ruleset)
    players = args.players or getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS)
    bot = levels.bot_of(args.ruleset)
    budget = args.iterations or getattr(bot, "ITERATIONS", levels.DEFAULT_ITERATIONS)
    options = json.dumps(json.loads(args.options), sort_keys=True)
    rows = []
    for matchup in args.against:
        jobs = [Job(args.ruleset, players, options, matchup, i, budget) for i in range(args.games)]
        start = time.perf_counter()
        results = list(run(jobs, args.workers))
        rows.append(matchup_row(jobs, results))
        console.print(f"{matchup}: {len(jobs)} games in {time.perf_counter() - start:.0f} s")
        saved(rows[-1:], args.out)
    printed(rows)


if __name__ == "__main__":
    main()
