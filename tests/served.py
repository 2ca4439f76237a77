"""`referee serve` as a real process for the tests that need the whole service: a free
port on 127.0.0.1, a database in a temporary directory, the embedded Redis, a worker."""

import http.client
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]
REFEREE = Path(sys.executable).parent / "referee"
# bounds for failing only: a test that passes never waits them out
ANSWER_WITHIN = 120  # seconds for `referee serve` to answer, or one request


def serving(where: Path, *, db: str | None = None, **env: str) -> Iterator["Http"]:
    """A `referee serve` process until the generator is closed (on `db`, else a SQLite
    file in `where`); a port another process takes between the probe and the bind is
    tried again on another."""
    for attempt in range(3):
        port = free_port()
        # a file, not a pipe: the workers log every task, and a full pipe would stall them
        output = (where / f"serve-{attempt}.log").open("wb")
        process = start_serve(where, port, output, db=db, **env)
        http = Http(f"http://127.0.0.1:{port}", where / "served.db")
        try:
            if wait_until_answering(http, process):
                yield http
                return
        finally:
            stop(process)
            output.close()
    raise AssertionError("referee serve exited on 3 free ports: see serve-*.log")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Http:
    """A tiny JSON client over urllib: returns (status, body) and never raises on 4xx."""

    def __init__(self, base: str, db: Path) -> None:
        self.base, self.db = base, db

    def call(self, method, path, *, body=None, token=None, raw=False):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=ANSWER_WITHIN) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        return status, payload if raw else json.loads(payload)


class HttpFrom(Http):
    """The same client, connecting from another loopback address (`source`): a client
    the server counts apart from 127.0.0.1's."""

    def __init__(self, http: Http, source: str) -> None:
        super().__init__(http.base, http.db)
        self.source = source

    def call(self, method, path, *, body=None, token=None, raw=False):
        host, port = self.base.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(
            host, int(port), timeout=ANSWER_WITHIN, source_address=(self.source, 0)
        )
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        data = None if body is None else json.dumps(body).encode()
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            status, payload = response.status, response.read()
        finally:
            conn.close()
        return status, payload if raw else json.loads(payload)


def start_serve(
    where: Path, port: int, output, *, db: str | None = None, **extra: str
) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    env.pop("REFEREE_DB", None)
    command = [str(REFEREE), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(
        [*command, "--db", db or str(where / "served.db")],
        cwd=where,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=ANSWER_WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_answering(http: Http, process: subprocess.Popen) -> bool:
    """True once the service answers; False if it exited (its port was taken)."""

    def answered_or_exited() -> str | None:
        if process.poll() is not None:
            return "exited"
        try:
            return "answering" if http.call("GET", "/rulesets")[0] == 200 else None
        except OSError:
            return None

    told = wait_until(answered_or_exited, "referee serve to answer", bound=ANSWER_WITHIN)
    return told == "answering"
