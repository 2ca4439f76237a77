"""`referee serve` as a real process: a whole game over real HTTP, then its log verifies."""

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from replays.verify import verify_bytes

ROOT = Path(__file__).resolve().parents[2]
REFEREE = Path(sys.executable).parent / "referee"
SEED = "served-seed"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Http:
    """A tiny JSON client over urllib: returns (status, body) and never raises on 4xx."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method, path, *, body=None, token=None, raw=False):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        return status, payload if raw else json.loads(payload)


@pytest.fixture
def served(tmp_path):
    """A `referee serve` process on 127.0.0.1 and a free port, stopped afterwards."""
    port = free_port()
    # a file, not a pipe: the workers log every task, and a full pipe would stall them
    output = (tmp_path / "serve.log").open("wb")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REFEREE_DB", None)
    process = subprocess.Popen(
        [
            str(REFEREE),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "served.db"),
        ],
        cwd=tmp_path,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    http = Http(f"http://127.0.0.1:{port}")
    try:
        wait_until_answering(http, process)
        yield http
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        output.close()


def wait_until_answering(http: Http, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"referee serve exited with {process.returncode}")
        try:
            if http.call("GET", "/rulesets")[0] == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("referee serve did not answer within 30 s")


def test_a_whole_game_over_real_http(served, tmp_path):
    status, created = served.call(
        "POST",
        "/games",
        body={"ruleset": "galloping-horse", "players": ["N", "E", "S", "W"], "seed": SEED},
    )
    assert status == 201, created
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    moderator = created["moderator_token"]
    assert created["seed_commitment"] == hashlib.sha256(SEED.encode()).hexdigest()
    status, error = served.call("GET", f"/games/{game_id}/log", token=tokens[0])
    assert (status, error["error"]["code"]) == (403, "log/not_yet")

    commands = 0
    while True:
        status, shown = served.call("GET", f"/games/{game_id}")
        assert status == 200
        if shown["status"] != "active":
            break
        seat = shown["to_move"][0]
        status, own = served.call("GET", f"/games/{game_id}", token=tokens[seat])
        assert status == 200 and "hand" in own["state"] and "hands" not in own["state"]
        status, result = served.call(
            "POST", f"/games/{game_id}/commands", body=own["legal"][0], token=tokens[seat]
        )
        assert status == 201, result
        assert result["version"] == result["events"][-1]["seq"] > own["version"]
        commands += 1
        assert commands <= 56

    assert commands == 56  # two rounds of 4 seats x 7 cards
    assert shown["status"] == "finished" and shown["seed"] == SEED
    assert shown["outcome"]["scores"] == shown["state"]["food"]
    status, again = served.call(
        "POST",
        f"/games/{game_id}/commands",
        body={"type": "announce", "text": "x"},
        token=moderator,
    )
    assert (status, again["error"]["code"]) == (422, "game/over")

    # the log is public now: a spectator and a seat get the same bytes, and they verify
    status, lines = served.call("GET", f"/games/{game_id}/log", raw=True)
    assert status == 200
    assert served.call("GET", f"/games/{game_id}/log", token=tokens[3], raw=True) == (200, lines)
    report = verify_bytes(lines)
    assert report.valid, f"seq {report.seq}: {report.reason}"
    assert report.game_id == game_id and report.ruleset == "galloping-horse"
    assert report.outcome == shown["outcome"]
    assert report.events == shown["version"] == len(lines.splitlines())
    assert (tmp_path / "served.db").exists()


@pytest.mark.skipif(not shutil.which("curl"), reason="the README's session is written for curl")
def test_the_readme_curl_session_plays_a_whole_game(served, tmp_path):
    script = ROOT / "docs" / "examples" / "galloping-horse.sh"
    env = {**os.environ, "API": served.base, "REFEREE": str(REFEREE), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "outcome: {" in done.stdout and '"winners"' in done.stdout
    assert "1 valid, 0 partial, 0 invalid" in done.stdout
    (log,) = (tmp_path / "var").glob("*.jsonl")
    assert verify_bytes(log.read_bytes()).valid


@pytest.mark.skipif(not shutil.which("curl"), reason="the README's session is written for curl")
def test_the_readme_blackout_middle_session_runs_rounds_through_the_worker(served, tmp_path):
    script = ROOT / "docs" / "examples" / "blackout-middle.sh"
    env = {
        **os.environ,
        "API": served.base,
        "REFEREE": str(REFEREE),
        "PYTHONPATH": str(ROOT),
        "SECONDS_PER_ROUND": "3",
    }
    done = subprocess.run(
        ["bash", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    # a slow machine may let a deadline pass mid-round: that seat is refused, the rest go on
    assert done.stdout.count("Ann's receipt") >= 9
    assert "--- round 3, for the forum ---\n## " in done.stdout
    assert "1 valid, 0 partial, 0 invalid" in done.stdout
    (log,) = (tmp_path / "var").glob("*.jsonl")
    events = [json.loads(line) for line in log.read_bytes().splitlines()]
    closed = [e["payload"] for e in events if e["type"] == "RoundClosed"]
    assert {"round": 2, "why": "deadline"} in closed
    assert len(closed) == 11
