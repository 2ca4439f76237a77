"""The games of the bots' strength table (bench/bots.py) played by a real Celery worker
process over a real Redis: the same results as the games played here, also for a game
whose worker process is killed mid-game and which is delivered again."""

import os
import signal
from dataclasses import asdict
from pathlib import Path

import pytest
from task_runs import holder_key, runs_key
from test_rounds_workers import WITHIN
from waiting import wait_until

from referee.bots.matches import Job, played
from referee.serve import embedded
from workers.celery_app import ANYWHERE_QUEUE, make_celery

HERE = Path(__file__).resolve().parent
TASK = "referee.bench_bot_game"
# tiny games: a short ruleset, the strong seat on 5 iterations (a tenth of it: 1)
JOBS = [
    Job("dark-horse", 2, "{}", "random", 0, 5),
    Job("dark-horse", 2, "{}", "tenth", 1, 5),
]

pytestmark = pytest.mark.usefixtures("worker_env")


def outcome(result: dict) -> dict:
    """A game's result but its CPU seconds (they measure the machine, not the game)."""
    return {name: value for name, value in result.items() if name not in ("cpu", "searched_cpu")}


def test_games_played_by_a_worker_equal_the_games_played_here(broker, db):
    here = [played(job) for job in JOBS]
    assert all(result["moves"] > 0 for result in here)
    celery = make_celery(broker)
    with embedded.workers(1, broker=broker, db=db, beat=False, queues=ANYWHERE_QUEUE):
        sent = [celery.send_task(TASK, args=[asdict(job)]) for job in JOBS]
        there = [task.get(timeout=WITHIN) for task in sent]
    assert [outcome(r) for r in there] == [outcome(r) for r in here]
    assert all(isinstance(r["cpu"], float) and r["cpu"] >= r["searched_cpu"] >= 0 for r in there)
    assert all(0 < r["searched"] <= r["moves"] for r in there)


def test_a_game_whose_worker_process_dies_is_played_again_to_the_same_result(
    broker, db, monkeypatch
):
    """The worker's first run of the game stalls once begun (stalling_worker); its pool
    process is killed there, and the worker takes the game again (acks late)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE.parents[1]), str(HERE)]))
    job = asdict(JOBS[0])
    celery = make_celery(broker)
    redis = celery.backend.client
    worker = embedded.workers(
        1, broker=broker, db=db, beat=False, app="stalling_worker", queues=ANYWHERE_QUEUE
    )
    with worker:
        task = celery.send_task(TASK, args=[job])
        os.kill(holder(redis, holder_key(TASK, [job])), signal.SIGKILL)
        result = task.get(timeout=WITHIN)
    assert outcome(result) == outcome(played(JOBS[0]))
    assert int(redis.get(runs_key(TASK, [job]))) == 2  # begun again after the kill


def holder(redis, key: str) -> int:
    """Poll until the worker says which process holds the game's first run."""
    return int(wait_until(lambda: redis.get(key), "a worker to take the game", bound=WITHIN))
