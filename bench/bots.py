"""The bots' strength table: the strong bot in one seat against random seats, against
standard seats, and against strong seats with a tenth of its budget, over seeded games
played through the pure engine (referee/bots/matches.py). The strong seat goes round the
table (game i: seat i mod players). Prints and writes, per match-up, the strong seat's
win share (a k-way tie counts 1/k) with a 95% Wilson interval, the target, and the CPU
seconds per strong move (and per move it searched: one with more than one legal command, or
orders in a round); var/bench/bots.json keeps one row per ruleset, players, options
and match-up (a new run replaces its own rows).

Every game is a Celery task (referee.bench_bot_game): on W worker processes started here
on an embedded Redis (--workers, this machine's CPUs by default), or on an existing Redis
and the workers of every machine on it (--broker, with --workers W to start some here
too); --local plays the games in this process, one after another. A game is seeded, so
its result is the same wherever it is played.

    .venv/bin/python bench/bots.py galloping-horse --players 4 --games 200 --workers 2
    .venv/bin/python bench/bots.py royal-turf --players 3 --options '{"hidden_bets": true}'
    .venv/bin/python bench/bots.py dark-horse --games 400 --broker redis://10.0.0.5:6379/0
    .venv/bin/python bench/bots.py dark-horse --games 4 --iterations 5 --local
"""

import argparse
import json
import math
import os
import platform
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from celery import states
from celery.result import ResultSet
from rich.console import Console
from rich.table import Table

from referee.bots import levels
from referee.bots.matches import MATCHUPS, Job, played
from referee.engine import registry
from referee.serve import embedded
from workers.celery_app import ANYWHERE_QUEUE, make_celery

ROOT = Path(__file__).resolve().parents[1]
OUT = Path("var/bench/bots.json")
TASK = "referee.bench_bot_game"
console = Console(width=120)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def target(matchup: str, players: int) -> Fraction | None:
    """The product's target share: in 2-player games 3/4 against random and 3/5 against
    standard; in games of n players 2/n and 1.5/n; better than an even 1/n against a
    tenth of the budget. A game of one seat (Solitaire) has no other seat to beat: none."""
    if players == 1:
        return None
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
    searched = sum(r["searched"] for r in results)
    low, high = wilson(float(total), len(results))
    aim = target(job.matchup, job.players)
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
        "target": None if aim is None else round(float(aim), 4),
        "cpu_seconds_per_strong_move": round(sum(r["cpu"] for r in results) / max(1, moves), 3),
        "strong_moves": moves,
        "cpu_seconds_per_searched_move": round(
            sum(r["searched_cpu"] for r in results) / max(1, searched), 3
        ),
        "searched_moves": searched,
    }


def run(jobs: list[Job], args: argparse.Namespace) -> Iterator[tuple[Job, dict[str, Any]]]:
    """Each game and its result as it finishes: here, one after another (--local), or on
    Celery workers."""
    if args.local:
        yield from ((job, played(job)) for job in jobs)
        return
    yield from on_workers(jobs, args.workers, args.broker)


def on_workers(
    jobs: list[Job], count: int, external: str | None
) -> Iterator[tuple[Job, dict[str, Any]]]:
    """Every game sent whole to referee.bench_bot_game, on `count` Celery worker processes
    started here (on the `celery` queue only: the games need no store) and any others on
    the broker: an embedded Redis, or the one given. Ctrl-C stops the workers started
    here, and on a broker given withdraws the games not yet played."""
    with tempfile.TemporaryDirectory() as tmp, embedded.redis_url(Path(tmp), external) as broker:
        started = embedded.workers(
            count,
            broker=broker,
            db=str(Path(tmp) / "unused.db"),
            env={"PYTHONPATH": str(ROOT)},
            beat=False,
            loglevel="WARNING",
            queues=ANYWHERE_QUEUE,
        )
        with started if count else nullcontext() as processes:
            celery = make_celery(broker)
            sent = [celery.send_task(TASK, args=[asdict(job)]) for job in jobs]
            where = "the Redis given" if external else "an embedded Redis"
            console.print(f"{len(jobs)} games sent to the workers on {where}, {count} started here")
            games = {task.id: job for task, job in zip(sent, jobs, strict=True)}
            waiting = set(games)
            try:
                for task_id, meta in ResultSet(sent).iter_native():
                    waiting.discard(task_id)
                    if meta["status"] != states.SUCCESS:
                        failed = f"{games[task_id]} failed on a worker: {meta['result']!r}"
                        raise SystemExit(failed)
                    yield games[task_id], meta["result"]
            except KeyboardInterrupt:
                for process in processes or []:  # a cold shutdown: the games in hand are dropped
                    process.send_signal(signal.SIGQUIT)
                raise
            finally:
                if external and waiting:  # the workers there would play them for nobody
                    celery.control.revoke(sorted(waiting))
                for task in sent:  # no longer listened for, while the broker is there
                    celery.backend.result_consumer.cancel_for(task.id)


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
        met = verdict(r)
        ok = "" if met in ("yes", "-") else f" ({met})"
        table.add_row(
            r["ruleset"], str(r["players"]), r["matchup"], str(r["iterations"]), str(r["games"]),
            shown, f"{aimed(r)}{ok}", f"{r['cpu_seconds_per_strong_move']:.2f}",
        )  # fmt: skip
    console.print(table)


def verdict(row: dict[str, Any]) -> str:
    """yes: the interval's low end reaches the target; no: its high end falls short;
    not shown: the interval holds the target (more games would tell); -: no target."""
    if row["target"] is None:
        return "-"
    if row["low"] >= row["target"]:
        return "yes"
    return "no" if row["high"] < row["target"] else "not shown"


def aimed(row: dict[str, Any]) -> str:
    return "-" if row["target"] is None else f"{row['target']:.2f}"


def searched_cpu(row: dict[str, Any]) -> str:
    """CPU seconds per move the strong seat searched (rows of runs before it was counted
    have none)."""
    cpu = row.get("cpu_seconds_per_searched_move")
    return "-" if cpu is None else f"{cpu:.2f}"


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as docs/bots.md's table: by ruleset, seats and match-up."""
    order = {m: i for i, m in enumerate(MATCHUPS)}
    against = {"random": "random", "standard": "standard", "tenth": "strong, tenth budget"}
    head = ("ruleset", "n", "against", "iterations", "games", "win share (95%)", "target")
    tail = ("met", "CPU s/move", "CPU s/searched move")
    lines = ["| " + " | ".join((*head, *tail)) + " |", "|---" * 10 + "|"]
    for r in sorted(rows, key=lambda r: (r["ruleset"], r["players"], order[r["matchup"]])):
        whom = "nobody (Solitaire)" if r["players"] == 1 else against[r["matchup"]]
        lines.append(
            f"| {r['ruleset']} | {r['players']} | {whom} | {r['iterations']} "
            f"| {r['games']} | {r['share']:.2f} ({r['low']:.2f}-{r['high']:.2f}) "
            f"| {aimed(r)} | {verdict(r)} | {r['cpu_seconds_per_strong_move']:.2f} "
            f"| {searched_cpu(r)} |"
        )
    return "\n".join(lines)


def main() -> None:
    args = arguments()
    if args.markdown:
        print(markdown(json.loads(args.out.read_text())["rows"]))
        return
    rules = registry.get(args.ruleset)
    players = args.players or getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS)
    bot = levels.bot_of(args.ruleset)
    budget = args.iterations or getattr(bot, "ITERATIONS", levels.DEFAULT_ITERATIONS)
    options = json.dumps(json.loads(args.options), sort_keys=True)
    against = args.against[:1] if players == 1 else args.against  # alone, no one to face
    jobs = {
        m: [Job(args.ruleset, players, options, m, i, budget) for i in range(args.games)]
        for m in against
    }
    try:
        tabled(args, jobs)
    except KeyboardInterrupt:
        raise SystemExit(f"stopped; the match-ups played to the end are in {args.out}") from None


def tabled(args: argparse.Namespace, jobs: dict[str, list[Job]]) -> None:
    """Play the games, print each result as it comes, keep each match-up's row once its
    games are in; then the table."""
    results: dict[str, dict[int, dict[str, Any]]] = {matchup: {} for matchup in jobs}
    rows = {}
    start, total = time.perf_counter(), args.games * len(jobs)
    for done, (job, result) in enumerate(run([j for js in jobs.values() for j in js], args), 1):
        results[job.matchup][job.index] = result
        share = Fraction(*result["share"])
        console.print(
            f"{done}/{total} {job.matchup} game {job.index}: share {share}, "
            f"{result['moves']} strong moves, {time.perf_counter() - start:.0f} s"
        )
        if len(results[job.matchup]) == args.games:  # the match-up's row, kept at once
            games = [results[job.matchup][i] for i in range(args.games)]  # in the games' order
            rows[job.matchup] = matchup_row(jobs[job.matchup], games)
            saved([rows[job.matchup]], args.out)
    printed([rows[matchup] for matchup in jobs])


def arguments() -> argparse.Namespace:
    """The command line; where the games are played defaults to this machine's CPUs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?")
    parser.add_argument("--players", type=int)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--games", type=int, default=40, help="games per match-up")
    parser.add_argument("--iterations", type=int, help="the strong budget (the bot's ITERATIONS)")
    parser.add_argument("--against", nargs="+", choices=MATCHUPS, default=list(MATCHUPS))
    parser.add_argument("--out", type=Path, default=OUT)
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--local", action="store_true", help="play in this process, one game after another"
    )
    where.add_argument(
        "--broker", metavar="URL", help="an existing Redis: its workers play the games"
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="Celery worker processes to start here (default: this machine's CPUs; "
        "none with --broker)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the rows in --out as docs/bots.md's table"
    )
    args = parser.parse_args()
    if not args.markdown and args.ruleset is None:
        parser.error("a ruleset, or --markdown")
    if args.games < 1:
        parser.error("--games: at least 1")
    if args.local and args.workers is not None:
        parser.error("--workers: not with --local (the games are played here)")
    if args.workers is None:
        args.workers = 0 if args.broker else os.cpu_count() or 1
    if args.workers < 0 or (args.workers == 0 and not args.broker and not args.local):
        parser.error("--workers: at least 1 without --broker (nothing would play the games)")
    return args


if __name__ == "__main__":
    main()
