"""`referee serve` as a real process: a whole game over real HTTP, then its log verifies."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from served import REFEREE, ROOT, Http, serving

from replays.verify import verify_bytes

SEED = "served-seed"
# bounds for failing only: a test that passes never waits them out
SCRIPT_WITHIN = 900  # seconds for an example script to finish
# the blackout-middle example's rounds: a busy 2-core machine sends a round's nine orders
# in a few seconds, and every round but the one Ivy sits out closes when the last seat has
# sent, so only that round (2) is waited out
ROUND_SECONDS = 30


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A `referee serve` process shared by this module's tests (each plays its own game)
    and stopped after them."""
    yield from serving(tmp_path_factory.mktemp("served"))


def test_a_whole_game_over_real_http(served):
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
    assert served.db.exists()


def run_example(name: str, served: Http, tmp_path: Path, **env: str):
    """Run docs/examples/NAME against the served API, in tmp_path; the finished process."""
    script = ROOT / "docs" / "examples" / name
    env = {
        **os.environ,
        "API": served.base,
        "REFEREE": str(REFEREE),
        # the examples' python3 is the project's (not a version manager's slower shim)
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        "PYTHONPATH": str(ROOT),
        **env,
    }
    return subprocess.run(
        ["bash", str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=SCRIPT_WITHIN,
    )


@pytest.mark.skipif(not shutil.which("curl"), reason="the README's session is written for curl")
def test_the_readme_curl_session_plays_a_whole_game(served, tmp_path):
    done = run_example("galloping-horse.sh", served, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "outcome: {" in done.stdout and '"winners"' in done.stdout
    assert "1 valid, 0 partial, 0 invalid" in done.stdout
    (log,) = (tmp_path / "var").glob("*.jsonl")
    assert verify_bytes(log.read_bytes()).valid


@pytest.mark.skipif(not shutil.which("curl"), reason="the README's session is written for curl")
def test_the_readme_blackout_middle_session_runs_rounds_through_the_worker(served, tmp_path):
    done = run_example("blackout-middle.sh", served, tmp_path, SECONDS_PER_ROUND=str(ROUND_SECONDS))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "refused" not in done.stdout and "Traceback" not in done.stderr
    receipts = [line.split(":")[0] for line in done.stdout.splitlines() if "Ann's receipt" in line]
    assert receipts == [f"round {n}" for n in range(11)]
    assert "--- round 3, for the forum ---\n## " in done.stdout
    assert "1 valid, 0 partial, 0 invalid" in done.stdout
    (log,) = (tmp_path / "var").glob("*.jsonl")
    events = [json.loads(line) for line in log.read_bytes().splitlines()]
    closed = [e["payload"] for e in events if e["type"] == "RoundClosed"]
    # Ivy sits out round 2 alone: every other round closes when the last seat has sent
    assert closed == [
        {"round": n, "why": "deadline" if n == 2 else "all_submitted"} for n in range(11)
    ]
    counted = {
        e["payload"]["round"]: e["payload"]["seats"] for e in events if e["type"] == "OrdersCounted"
    }
    assert [s is None for s in counted[2]] == [False] * 8 + [True]
    # real orders, not the empty defaults: every seat's bets counted in some round, and
    # the seats score
    judged = [e["payload"] for e in events if e["type"] == "OrdersJudged"]
    assert {j["seat"] for j in judged if j["applied"]["bets"]} == set(range(9))
    (ended,) = [e["payload"]["outcome"] for e in events if e["type"] == "GameEnded"]
    assert sum(ended["scores"]) > 0


def test_the_first_line_serve_prints_is_the_home_page_to_open(served):
    """A moderator's first minute: the address to open in a browser comes first, then the
    API and its docs; the home page answers at that address."""
    said = next(served.db.parent.glob("serve-*.log")).read_text("utf-8").splitlines()
    told = [line for line in said if line.startswith("referee: ")]
    assert told[0] == f"referee: open {served.base}/ in a browser to start a game and moderate it"
    assert told[1] == f"referee: API on {served.base}/games, its docs at {served.base}/docs"
    status, page = served.call("GET", "/", raw=True)
    assert status == 200 and b"New Galloping Horse game" in page
