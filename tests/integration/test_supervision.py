"""`referee serve` as an operator leaves it running: each child it starts (the embedded
Redis, the worker, the beat) killed with SIGKILL comes back and overdue rounds still
resolve; `referee serve` itself killed leaves no process behind and loses no command it
acknowledged; one database is served by one `referee serve` and swept by one beat.

Everything is real: the `referee serve` command, its processes, a SQLite file. Nothing
waits on a timer: each step waits for what it needs (a pid gone, a round resolved), and
the bounds are only there to fail."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.client import HTTPConnection, HTTPException
from pathlib import Path

import pytest
from waiting import wait_until

from referee.service import Referee
from referee.store import open_store
from replays.log import parse
from replays.verify import verify_events

pytestmark = pytest.mark.xdist_group("supervision")

REFEREE = Path(sys.executable).parent / "referee"
BOUND = 120.0  # seconds; a test that passes never waits them out
HOUR = 3600
NINE = [f"p{i}" for i in range(9)]
NO_ORDERS = {"ability": None, "spectate": None, "bets": {}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def processes() -> dict[int, tuple[int, str]]:
    """Every process: pid -> (parent pid, command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # it ended while being read
        found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), line)
    return found


def descendants(pid: int) -> dict[int, str]:
    """The processes below `pid`: pid -> command line."""
    table = processes()
    below: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, line) in table.items():
            if ppid == parent and child not in below:
                below[child] = line
                frontier.append(child)
    return below


def child_pid(served: "Served", name: str) -> int:
    """The pid of the supervisor's direct child called `name` (redis, web, worker, beat)."""
    marks = {"redis": "redis-server", "web": " web ", "worker": " worker ", "beat": " beat "}
    table = processes()
    for pid, (ppid, line) in table.items():
        if ppid == served.process.pid and marks[name] in line:
            return pid
    raise AssertionError(f"no {name} under referee serve: {descendants(served.process.pid)}")


def answered(port: int, path: str, status: int):
    """(status, body) of GET `path` if its status is `status`, else None."""
    answer = http(port, "GET", path)
    return answer if answer[0] == status else None


def http(port: int, method: str, path: str, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=BOUND) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class Served:
    """A running `referee serve` on a database of its own (or `db`, a file or a server's
    URL), its output in serve.log; `options` added to its command line."""

    def __init__(
        self,
        where: Path,
        *,
        processes: int = 1,
        env: dict | None = None,
        db: str | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.where, self.db = where, db or where / "var" / "referee.db"
        self.port = free_port()
        self.output = (where / "serve.log").open("ab")
        env = {**os.environ, "REFEREE_SWEEP_SECONDS": "1", **(env or {})}
        env.pop("REFEREE_DB", None)
        command = [str(REFEREE), "serve", "--port", str(self.port), "--db", str(self.db)]
        self.process = subprocess.Popen(
            [*command, "--processes", str(processes), "--connections", "1000", *options],
            cwd=where,
            env=env,
            stdout=self.output,
            stderr=subprocess.STDOUT,
        )
        wait_until(self.ready, "referee serve to be ready", bound=BOUND)

    def ready(self) -> bool:
        assert self.process.poll() is None, (self.where / "serve.log").read_text()
        try:
            return http(self.port, "GET", "/readyz")[0] == 200
        except OSError:
            return False

    def log(self) -> str:
        return (self.where / "serve.log").read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=BOUND)
        self.output.close()


@pytest.fixture
def served(tmp_path):
    serving = Served(tmp_path)
    yield serving
    serving.stop()


def overdue_game(db: Path, name: str) -> str:
    """A nine-seat game in rounds whose one-hour round 0 ended an hour ago (created by a
    Referee whose clock is two hours back): the sweeper must find it."""
    referee = Referee(open_store(db), clock=lambda: int(time.time()) - 2 * HOUR)
    options = {"round_seconds": HOUR, "first_round_seconds": HOUR}
    return referee.create_game("blackout-middle", NINE, options, name)["game_id"]


def round_zero_resolved(db: Path, game_id: str) -> int:
    events = open_store(db).events(game_id)
    return sum(e["type"] == "OrdersCounted" and e["payload"]["round"] == 0 for e in events)


@pytest.mark.parametrize("name", ["worker", "beat", "redis", "web"])
def test_a_killed_child_comes_back_and_an_overdue_round_still_resolves(served, name):
    doomed = child_pid(served, name)
    killed = time.monotonic()
    os.kill(doomed, signal.SIGKILL)
    game_id = overdue_game(served.db, f"killed-{name}")
    wait_until(lambda: round_zero_resolved(served.db, game_id), "round 0 to resolve", bound=BOUND)
    took = time.monotonic() - killed
    assert child_pid(served, name) != doomed
    assert f"{name} (pid {doomed}) was killed by SIGKILL; restarting in 0.5 s" in served.log()
    assert round_zero_resolved(served.db, game_id) == 1
    wait_until(served.ready, "referee serve to be ready again", bound=BOUND)
    print(f"{name} killed -> overdue round resolved in {took:.1f} s")


def test_readiness_goes_red_while_redis_does_not_answer_and_green_after(served):
    stopped = child_pid(served, "redis")
    os.kill(stopped, signal.SIGSTOP)  # alive but silent: nothing to restart, the probe fails
    try:
        status, body = wait_until(
            lambda: answered(served.port, "/readyz", 503), "/readyz to answer 503", bound=BOUND
        )
        assert body["status"] == "not_ready" and body["checks"]["broker"]["ok"] is False
    finally:
        os.kill(stopped, signal.SIGCONT)
    wait_until(served.ready, "referee serve to be ready again", bound=BOUND)


def test_serve_killed_while_seats_play_leaves_no_process_and_loses_nothing(tmp_path):
    serving = Served(tmp_path)
    created = http(
        serving.port,
        "POST",
        "/games",
        {"ruleset": "galloping-horse", "players": ["N", "E", "S", "W"], "seed": "kill-9"},
    )[1]
    game_id, tokens = created["game_id"], [seat["token"] for seat in created["seats"]]
    acknowledged: list[int] = []
    playing = threading.Thread(
        target=play, args=(serving.port, game_id, tokens, acknowledged), daemon=True
    )
    playing.start()
    wait_until(lambda: len(acknowledged) >= 10, "ten acknowledged commands", bound=BOUND)
    below = descendants(serving.process.pid)
    assert len(below) >= 5  # redis, web and its process, worker and its pool child, beat
    serving.process.kill()
    serving.process.wait()
    wait_until(
        lambda: not set(below) & set(processes()),
        f"every process below referee serve to end: {below}",
        bound=BOUND,
    )
    playing.join(timeout=BOUND)
    serving.output.close()

    events = open_store(serving.db).events(game_id)
    assert set(acknowledged) <= {e["seq"] for e in events}
    again = Served(tmp_path)  # the same database, served again: the game goes on
    try:
        status, shown = http(again.port, "GET", f"/games/{game_id}")
        assert status == 200 and shown["version"] == len(events) >= max(acknowledged)
    finally:
        again.stop()
    log = open_store(serving.db).log_lines(game_id)
    assert verify_events(parse(log), seed="kill-9").valid


def play(port: int, game_id: str, tokens: list[str], acknowledged: list[int]) -> None:
    """Seats play their first legal move until the server stops answering; the seq of
    every command it acknowledged goes in `acknowledged`."""
    try:
        while True:
            shown = http(port, "GET", f"/games/{game_id}")[1]
            seat = shown["to_move"][0]
            own = http(port, "GET", f"/games/{game_id}", token=tokens[seat])[1]
            status, result = http(
                port, "POST", f"/games/{game_id}/commands", own["legal"][0], tokens[seat]
            )
            if status == 201:
                acknowledged.append(result["version"])
    except (OSError, HTTPException, KeyError, IndexError, ValueError):
        return  # the server is gone


def test_a_second_serve_on_the_same_database_is_refused(served):
    second = subprocess.run(
        [str(REFEREE), "serve", "--port", str(free_port()), "--db", str(served.db)],
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert second.returncode == 1
    assert f"another `referee serve` is running on {served.db}" in second.stderr


def test_a_second_beat_on_the_same_database_waits_as_a_standby(served):
    env = {**os.environ, "REFEREE_DB": str(served.db), "REDIS_URL": redis_url(served)}
    command = [sys.executable, "-m", "celery", "-A", "workers.worker", "beat"]
    standby = subprocess.Popen(
        [*command, "--schedule", str(served.where / "standby-schedule")],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        waiting = wait_until(
            lambda: said(standby, "another beat"), "the standby to see another beat", bound=BOUND
        )
        assert "this one waits until it stops" in waiting
        os.kill(child_pid(served, "beat"), signal.SIGKILL)
        taken = wait_until(lambda: said(standby, "sweeps"), "the standby to sweep", bound=BOUND)
        assert "the other beat stopped; this one sweeps" in taken
    finally:
        standby.kill()
        standby.wait()


def said(process: subprocess.Popen, text: str) -> str | None:
    """The next line the process writes on its stderr if it says `text`; its stderr
    ending (the process gone) fails the wait at once."""
    line = process.stderr.readline()
    assert line, "its stderr ended"
    return line if text in line else None


def redis_url(served: Served) -> str:
    return f"redis+socket://{served.db.parent / 'redis.sock'}"


class Stream:
    """A server-sent event stream read line by line over a real connection."""

    def __init__(self, port: int, path: str) -> None:
        self.connection = HTTPConnection("127.0.0.1", port, timeout=BOUND)
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")

    def next_event(self) -> dict:
        data = None
        while True:
            line = self.response.fp.readline().decode()
            assert line, "the stream ended"
            if line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "\n" and data is not None:
                return data

    def until(self, done) -> dict:
        while not done(event := self.next_event()):
            pass
        return event

    def close(self) -> None:
        self.connection.close()


def test_news_reaches_streams_held_by_every_process_from_the_web_and_the_worker(tmp_path):
    """Two web processes and a worker, streams that only wake on news (their keep-alive
    set to an hour): a moderator's announcement, then a round the worker resolves, reach
    every stream."""
    serving = Served(tmp_path, processes=2, env={"REFEREE_STREAM_WAKE": "3600"})
    streams: list[Stream] = []
    try:
        options = {"round_seconds": HOUR, "first_round_seconds": HOUR}
        body = {"ruleset": "blackout-middle", "players": ["ann", "bob", "cat"], "options": options}
        created = http(serving.port, "POST", "/games", body)[1]
        game_id = created["game_id"]
        version = http(serving.port, "GET", f"/games/{game_id}")[1]["version"]
        for _ in range(6):
            stream = Stream(serving.port, f"/games/{game_id}/stream")
            stream.until(lambda event: event["seq"] == version)  # caught up
            streams.append(stream)

        moderator = created["moderator_token"]
        said = {"type": "announce", "text": "Round 0 is open"}
        assert http(serving.port, "POST", f"/games/{game_id}/commands", said, moderator)[0] == 201
        for stream in streams:
            assert stream.next_event()["seq"] == version + 1

        orders = {"type": "submit_orders", "round": 0, "orders": NO_ORDERS}
        for seat in created["seats"]:
            sent = http(serving.port, "POST", f"/games/{game_id}/commands", orders, seat["token"])
            assert sent[0] == 201, sent
        for stream in streams:  # appended by the worker, in a process of its own
            counted = stream.until(lambda event: event.get("type") == "OrdersCounted")
            assert counted["payload"]["round"] == 0
    finally:
        for stream in streams:
            stream.close()
        serving.stop()


def raw_answer(port: int, request: bytes) -> tuple[int, dict]:
    """Send raw bytes, read the whole answer: (status, JSON body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Content-Type: application/json" in head, head
    return int(head.split()[1]), json.loads(body)


def test_what_the_server_refuses_before_the_app_is_json_too(served):
    long_line = b"GET /games/" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    status, body = raw_answer(served.port, long_line)
    assert (status, body["error"]["code"]) == (414, "request/uri_too_long")
    huge_header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n"
    status, body = raw_answer(served.port, huge_header)
    assert (status, body["error"]["code"]) == (431, "request/headers_too_large")
    status, body = raw_answer(served.port, b"NOT A REQUEST\r\n\r\n")
    assert status == 400 and body["error"]["code"] == "request/invalid"


def test_the_access_log_has_one_line_per_request_and_never_a_query_string(served):
    assert http(served.port, "GET", "/healthz?token=a-secret-token")[0] == 200
    wait_until(
        lambda: '"GET /healthz HTTP/1.1" 200' in served.log(),
        "the access log's line for GET /healthz",
        bound=BOUND,
    )
    assert "a-secret-token" not in served.log()
    assert "sweep" not in served.log().lower()  # the sweeps every second say nothing


def opened_stream(port: int, path: str) -> socket.socket:
    """A live stream on `path`, once its first lines came (it is held open)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: referee\r\n\r\n".encode())
    seen = b""
    while b"retry: 3000" not in seen:
        seen += sock.recv(65536)
    return sock


def rest_of(sock: socket.socket) -> bytes:
    """What the server sends on the connection until it closes it."""
    said = b""
    while chunk := sock.recv(65536):
        said += chunk
    sock.close()
    return said


def test_a_stop_ends_the_live_streams_it_holds_and_their_connections(served):
    """A stopping `referee serve` ends each live stream (an API event stream, a page's
    news) as a whole response and closes its connection, so its web process ends at
    once rather than at its graceful timeout, with the streams cut."""
    status, made = http(
        served.port,
        "POST",
        "/games",
        {"ruleset": "galloping-horse", "players": ["A", "B", "C", "D"]},
    )
    assert status == 201, made
    game_id = made["game_id"]
    streams = [
        opened_stream(served.port, f"/games/{game_id}/stream"),
        opened_stream(served.port, f"/g/{game_id}/live"),
    ]
    served.process.terminate()
    assert served.process.wait(timeout=BOUND) == 0
    for sock in streams:
        assert rest_of(sock).endswith(b"0\r\n\r\n")  # the chunked body's end: not cut
    assert "graceful timeout" not in served.log()


BAD_IMPORTS = [b"garbage", b"[1]", b"\xff\xfe", b'{"a": 1}', b"{" * 100 + b"\n", b"\n\n"]


def test_a_clients_bad_imports_log_a_line_each_and_no_traceback(served):
    """A client's bad input is an access line, never a traceback: every unreadable import
    once wrote 15 lines to the service's log (gevent's pool logged the refusal raised
    beside the loop)."""
    wait_until(lambda: "GET /" in served.log(), "the log's first access line", bound=BOUND)
    before = served.log().count("\n")
    for body in BAD_IMPORTS:
        request = urllib.request.Request(
            f"http://127.0.0.1:{served.port}/games/import", data=body, method="POST"
        )
        request.add_header("Content-Type", "application/x-ndjson")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=BOUND)
        assert refused.value.code in (400, 422), refused.value.read()
    refusals = '"POST /games/import HTTP/1.1" 4'
    wait_until(
        lambda: served.log().count(refusals) == len(BAD_IMPORTS),
        "an access line for each import",
        bound=BOUND,
    )
    added = served.log().splitlines()[before:]
    assert "Traceback" not in served.log()
    assert [line for line in added if refusals not in line and "GET /" not in line] == []
