"""Rounds resolved by real Celery worker processes over a real Redis, on a real SQLite
file, with the real HTTP app: deadlines, duplicated tasks, a worker killed mid-append."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from waiting import wait_until

from referee.serve import embedded

ROOT = Path(__file__).resolve().parents[2]
ORDERS = {"ability": None, "spectate": None, "bets": {}}
PLAYERS = ["ann", "bob", "cat"]
HOUR = 3600
# bounds for failing only: a test that passes never waits them out
WITHIN = 180  # seconds for a worker to start and resolve a round, or to answer a task


pytestmark = pytest.mark.usefixtures("worker_env")


def start_game(client, seconds=HOUR, players=PLAYERS):
    options = {"round_seconds": seconds, "first_round_seconds": seconds}
    body = {"ruleset": "blackout-middle", "players": players, "options": options}
    created = client.post("/games", json=body).get_json()
    auth = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    return created["game_id"], auth


def submit(client, game_id, headers, number=0):
    body = {"type": "submit_orders", "round": number, "orders": ORDERS}
    answer = client.post(f"/games/{game_id}/commands", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()


def wait_for_round(client, game_id, number):
    """Poll the API until round `number` is open (the one before it resolved)."""

    def opened() -> bool:
        shown = client.get(f"/games/{game_id}").get_json()["round"]["open"]
        return bool(shown) and shown["round"] == number

    wait_until(opened, f"round {number} to open", bound=WITHIN)


def wait_until_ready(celery):
    """Poll until a worker answers a ping (it has built its app and consumes tasks)."""
    wait_until(lambda: celery.control.ping(timeout=0.5), "a worker to answer a ping", bound=WITHIN)


def wait_until_writing(db):
    """Poll until another connection holds the SQLite file's write lock: a worker is
    inside an append's transaction."""
    probe = sqlite3.connect(db, timeout=0, isolation_level=None)

    def locked() -> bool:
        try:
            probe.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # database is locked
            return True
        probe.execute("ROLLBACK")
        return False

    try:
        wait_until(locked, "a worker to begin an append", bound=WITHIN)
    finally:
        probe.close()


def log_of(app, game_id):
    return app.extensions["referee"].store.events(game_id)


def counted(events, number):
    return [e for e in events if e["type"] == "OrdersCounted" and e["payload"]["round"] == number]


def test_a_deadline_passing_with_missing_orders_resolves_the_round(client, app, db, broker):
    """The service's clock is set two hours back: the game was created, and one seat sent
    its orders, then; the one-hour deadline passed an hour ago by the worker's clock, so a
    worker started now resolves the round at it. No deadline can pass before the orders."""
    then = int(time.time()) - 2 * HOUR
    app.extensions["referee"].clock = lambda: then
    game_id, auth = start_game(client, seconds=HOUR)
    submit(client, game_id, auth[0])
    with embedded.workers(1, broker=broker, db=db):
        wait_for_round(client, game_id, 1)
    events = log_of(app, game_id)
    closed = next(e for e in events if e["type"] == "RoundClosed")
    assert closed["payload"] == {"round": 0, "why": "deadline"}
    seats = counted(events, 0)[0]["payload"]["seats"]
    assert seats[0] is not None and seats[1:] == [None, None]


def test_the_last_submission_has_the_round_resolved_once_despite_duplicates(
    client, app, db, broker
):
    with embedded.workers(2, broker=broker, db=db):
        game_id, auth = start_game(client)
        celery = app.extensions["celery"]
        for headers in auth:
            submit(client, game_id, headers)
        duplicates = [
            celery.send_task("referee.resolve_round", args=[game_id, 0]) for _ in range(4)
        ]
        results = [d.get(timeout=WITHIN) for d in duplicates]
        wait_for_round(client, game_id, 1)
    assert set(results) <= {"resolved", "not_open"}
    assert len(counted(log_of(app, game_id), 0)) == 1


def test_a_worker_killed_mid_append_loses_nothing_and_the_round_resolves_once(
    client, app, db, broker
):
    # the worker sleeps inside every append's transaction; it is killed long before
    slow = {"REFEREE_PAUSE_BEFORE_COMMIT": str(WITHIN)}
    game_id, auth = start_game(client)
    for headers in auth:  # the last one closes the round: its resolution is queued
        submit(client, game_id, headers)
    with embedded.workers(1, broker=broker, db=db, env=slow) as (doomed,):
        wait_until_ready(app.extensions["celery"])
        wait_until_writing(db)  # the worker has taken the task and sits inside the transaction
        os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait()
    assert counted(log_of(app, game_id), 0) == []
    with embedded.workers(1, broker=broker, db=db):  # the sweeper finds the closed round
        wait_for_round(client, game_id, 1)
    events = log_of(app, game_id)
    assert len(counted(events, 0)) == 1
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_bot_games_resolved_by_workers_verify(client, app, db, broker, tmp_path):
    """Games of 3 to 9 seats whose rounds all close by submissions, resolved by a real
    worker; `referee replay verify` accepts every log. (Mostly small tables: a game's
    cost grows with its seats, and the in-process contract games cover nine seats.)"""
    from referee.bots import choose
    from referee.engine.rng import Rng

    referee = app.extensions["referee"]
    seeds = range(int(os.environ.get("REFEREE_WORKER_BOT_GAMES", "100")))
    with embedded.workers(1, broker=broker, db=db):
        games = {
            referee.create_game("blackout-middle", seated(i), {}, f"worker-bots/{i}")["game_id"]: i
            for i in seeds
        }
        _play_until_over(referee, games, choose, Rng)
    logs = tmp_path / "logs"
    logs.mkdir()
    for game_id in games:
        (logs / f"{game_id}.jsonl").write_bytes(referee.store.log_lines(game_id))
    verify = subprocess.run(
        [
            str(Path(sys.executable).parent / "referee"),
            "replay",
            "verify",
            *map(str, sorted(logs.glob("*.jsonl"))),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert verify.returncode == 0, verify.stdout[-2000:]
    assert f"{len(games)} valid, 0 partial, 0 invalid" in verify.stdout
    assert all(referee.state(game_id)["status"] == "finished" for game_id in games)


def seated(game: int) -> list[str]:
    """Three seats in most games, then four, then five, and nine in every tenth."""
    count = 9 if game % 10 == 9 else 3 + game % 3
    return [f"p{i}" for i in range(count)]


def _play_until_over(referee, games, choose, rng_class, stall=300.0):
    """Every seat of every game submits through the service; the worker resolves. The
    service reads the events the worker appended after the state it holds. Fails when no
    game moved on for `stall` seconds (a slow machine only makes it take longer)."""
    from referee.engine import game as engine

    bots = {game_id: rng_class(f"bot:{i}") for game_id, i in games.items()}
    turns = dict.fromkeys(games, 0)
    seen = dict.fromkeys(games, 0)
    stop = time.monotonic() + stall
    while time.monotonic() < stop:
        waiting = sent = 0
        for game_id in games:
            state = referee.state(game_id)
            if state["seq"] != seen[game_id]:
                seen[game_id], stop = state["seq"], time.monotonic() + stall
            if engine.is_over(state):
                continue
            waiting += 1
            current = state["rounds"]["current"]
            if current is not None and current["closed"]:
                continue  # the worker's to resolve
            actor, command = choose(state, bots[game_id], turns[game_id])
            turns[game_id] += 1
            if command["type"] == "resolve_round":
                continue  # bots let no deadline pass here
            command.pop("now", None)
            referee.command(game_id, actor, command)
            sent += 1
        if not waiting:
            return
        if not sent:
            time.sleep(0.05)  # every game waits for the worker: leave it the CPU
    raise AssertionError(f"no bot game moved on for {stall} s")
