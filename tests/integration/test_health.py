"""Liveness and readiness against the real parts: a SQLite file, an embedded Redis, a real
worker process; times driven by the `now` a probe is given, never by waiting."""

import os
import shutil
import sqlite3

import pytest
from waiting import wait_until

from referee.app import create_app
from referee.ops.health import SWEEP_KEY, broker_client, readiness, record_sweep
from referee.serve import embedded
from referee.service import Referee
from referee.store import open_store

T = 1_900_000_000
NINE = [f"p{i}" for i in range(9)]
SWEEP = 2.0
LATE = 30  # max(30, 5 sweeps of 2 s)


@pytest.fixture
def store(tmp_path):
    return open_store(tmp_path / "referee.db", busy_seconds=0.2)


def test_ready_when_a_worker_swept_lately_and_not_when_the_sweeps_stop(store, broker):
    ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T)
    assert not ready and checks["sweeper"]["ok"] is False  # no worker has swept yet
    record_sweep(broker, T)
    ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T + LATE)
    assert ready, checks
    assert checks["sweeper"] == {"ok": True, "last_sweep_seconds_ago": LATE}
    ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T + LATE + 1)
    assert not ready and checks["sweeper"] == {"ok": False, "last_sweep_seconds_ago": LATE + 1}


def test_a_broker_that_is_gone_makes_the_service_not_ready(store, tmp_path, embedded_redis):
    (tmp_path / "gone").mkdir()
    with embedded_redis(tmp_path / "gone") as url:
        record_sweep(url, T)
    ready, checks = readiness(store, url, sweep_seconds=SWEEP, now=T)
    assert not ready and checks["broker"]["ok"] is False
    assert "Error" in checks["broker"]["error"]


def test_a_database_another_writer_holds_makes_the_service_not_ready(store, broker):
    record_sweep(broker, T)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T)
    finally:
        other.execute("ROLLBACK")
    assert not ready and checks["database"]["ok"] is False
    assert readiness(store, broker, sweep_seconds=SWEEP, now=T)[0]


def test_a_round_long_past_its_deadline_makes_the_service_not_ready(store, broker):
    referee = Referee(store, clock=lambda: T)
    options = {"round_seconds": 3600, "first_round_seconds": 3600}
    referee.create_game("blackout-middle", NINE, options, "health-seed")
    record_sweep(broker, T + 3600 + LATE)
    ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T + 3600 + LATE)
    assert ready and checks["rounds"] == {"ok": True, "overdue": 1, "oldest_seconds": LATE}
    ready, checks = readiness(store, broker, sweep_seconds=SWEEP, now=T + 3600 + LATE + 1)
    assert not ready
    assert checks["rounds"] == {"ok": False, "overdue": 1, "oldest_seconds": LATE + 1}


def test_without_a_broker_readiness_asks_the_database_its_disk_and_the_rounds_alone(store):
    ready, checks = readiness(store, None, sweep_seconds=SWEEP, now=T)
    assert ready and set(checks) == {"database", "disk", "broker", "rounds"}
    assert checks["broker"] == {"ok": True, "configured": False}


def test_free_space_below_the_floor_warns_and_readiness_stays_green(store):
    usage = shutil.disk_usage(os.path.dirname(store.path))
    above = usage.free + (1 << 30)
    ready, checks = readiness(store, None, sweep_seconds=SWEEP, disk_floor=above, now=T)
    assert ready and checks["disk"]["ok"] is True and checks["disk"]["degraded"] is True
    assert checks["disk"]["floor_bytes"] == above and checks["disk"]["free_bytes"] > 0
    ready, checks = readiness(store, None, sweep_seconds=SWEEP, disk_floor="0%", now=T)
    assert ready and checks["disk"]["degraded"] is False and checks["disk"]["floor_bytes"] == 0
    whole = readiness(store, None, sweep_seconds=SWEEP, disk_floor="100%", now=T)[1]["disk"]
    assert whole["degraded"] is True and whole["floor_bytes"] == usage.total


@pytest.mark.parametrize(
    ("said", "floor"),
    [("1GiB", 1 << 30), ("512 MiB", 512 << 20), ("2GB", 2 * 10**9), ("4096", 4096)],
)
def test_the_operator_sets_the_disk_floor(tmp_path, monkeypatch, said, floor):
    monkeypatch.setenv("REFEREE_DISK_FLOOR", said)
    app = create_app({"REFEREE_DB": str(tmp_path / "referee.db")})
    disk = app.test_client().get("/readyz").get_json()["checks"]["disk"]
    assert disk["floor_bytes"] == floor


@pytest.mark.parametrize("said", ["lots", "5 parsecs", "-1", "150%"])
def test_a_disk_floor_that_is_not_a_size_stops_the_app(tmp_path, monkeypatch, said):
    monkeypatch.setenv("REFEREE_DISK_FLOOR", said)
    with pytest.raises(ValueError, match="REFEREE_DISK_FLOOR=.*share of the disk"):
        create_app({"REFEREE_DB": str(tmp_path / "referee.db")})


def test_readyz_turns_green_once_a_real_worker_sweeps_and_healthz_always_answers(tmp_path, broker):
    db = str(tmp_path / "referee.db")
    app = create_app({"REFEREE_DB": db, "REDIS_URL": broker, "SWEEP_SECONDS": 1.0})
    client = app.test_client()
    assert client.get("/healthz").get_json() == {"status": "alive"}
    red = client.get("/readyz")
    assert red.status_code == 503 and red.get_json()["status"] == "not_ready"
    with embedded.workers(1, broker=broker, db=db, env={"REFEREE_SWEEP_SECONDS": "1"}):
        green = wait_until(lambda: ready_answer(client), "/readyz to answer 200")
    assert green.get_json()["status"] == "ready"
    assert broker_client(broker).get(SWEEP_KEY) is not None


def ready_answer(client):
    """The answer to GET /readyz if it is a 200, else None."""
    answer = client.get("/readyz")
    return answer if answer.status_code == 200 else None


def test_a_node_of_a_shared_store_with_a_broker_of_its_own_is_warned(postgres_url, broker):
    """A node started on a PostgreSQL store without REDIS_URL runs its own Redis: it is
    ready, and its readiness says what that costs (its pages hear the others late)."""
    shared = open_store(postgres_url)
    try:
        _, alone = readiness(shared, broker, sweep_seconds=2, alone=True)
        _, together = readiness(shared, broker, sweep_seconds=2)
    finally:
        shared.close()
    assert alone["broker"]["degraded"] is True and "REDIS_URL" in alone["broker"]["warning"]
    assert "warning" not in together["broker"]
