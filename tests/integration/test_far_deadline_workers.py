"""A round due far beyond the broker's visibility timeout, resolved by a real worker and
beat over a real Redis whose visibility timeout is a few seconds: the round is resolved
once, and its resolve_round task runs once (Redis hands a task held unacknowledged past
the timeout out again, so a timed task sent at once for a far deadline runs many times)."""

import json
import os
from base64 import b64decode
from pathlib import Path

import pytest
from task_runs import runs_key
from test_rounds_workers import HOUR, PLAYERS, WITHIN, counted, log_of, wait_for_round
from waiting import wait_until

from referee.app import create_app
from referee.serve import embedded

HERE = Path(__file__).resolve().parent
VISIBILITY = 6  # seconds: the broker's visibility timeout here (a 3 s arming horizon)
AHEAD = 4 * VISIBILITY  # seconds from the game's creation to its first deadline


pytestmark = pytest.mark.usefixtures("worker_env")


@pytest.fixture
def app(db, broker, monkeypatch):
    """The app, and the workers the test starts, on a short visibility timeout; the
    workers load this folder's counted_worker."""
    monkeypatch.setenv("REFEREE_VISIBILITY_TIMEOUT", str(VISIBILITY))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE.parents[1]), str(HERE)]))
    return create_app({"REFEREE_DB": db, "REDIS_URL": broker, "TESTING": True})


def held(redis, task, args):
    """How many messages of this task with these arguments Redis still holds, queued or
    taken by a worker and not yet acknowledged: while any are, the task may run again."""
    queued = [
        json.loads(message)
        for key in redis.keys("rounds*")
        if redis.type(key) == b"list"
        for message in redis.lrange(key, 0, -1)
    ]
    taken = [json.loads(entry)[0] for entry in redis.hvals("unacked")]
    return sum(
        message["headers"]["task"] == task and json.loads(b64decode(message["body"]))[0] == args
        for message in [*queued, *taken]
    )


def wait_until_none_held(redis, task, args):
    wait_until(lambda: not held(redis, task, args), f"Redis to hold no {task} {args}", bound=WITHIN)


def test_a_round_due_beyond_the_visibility_timeout_is_resolved_by_one_task_run(
    client, app, db, broker
):
    celery = app.extensions["celery"]
    redis = celery.backend.client
    options = {"first_round_seconds": AHEAD, "round_seconds": HOUR}
    body = {"ruleset": "blackout-middle", "players": PLAYERS, "options": options}
    game_id = client.post("/games", json=body).get_json()["game_id"]
    store = app.extensions["referee"].store
    row = store.db.execute("SELECT armed FROM rounds_due WHERE game_id = ?", (game_id,))
    assert row.fetchone() == (0,)  # too far for a timed task: the sweeper arms it when near
    with embedded.workers(1, broker=broker, db=db, app="counted_worker"):
        wait_for_round(client, game_id, 1)
        wait_until_none_held(redis, "referee.resolve_round", [game_id, 0])
        # every task the one worker took before this sweep has run by its answer
        celery.send_task("referee.sweep_rounds").get(timeout=WITHIN)
    assert len(counted(log_of(app, game_id), 0)) == 1
    assert int(redis.get(runs_key("referee.resolve_round", [game_id, 0])) or 0) == 1
