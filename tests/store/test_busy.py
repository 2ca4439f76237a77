"""Another process holding the write lock: a writer waits a bounded time, then the store
says busy (503 store/busy with Retry-After over HTTP) and nothing is written. The bound is
one deadline for all its waits: behind this process's writers, the lock file, SQLite."""

import sqlite3
import threading
import time
from contextlib import contextmanager

import pytest
from waiting import wait_until

import referee.store.sqlite as sqlite_backend
from referee.app import create_app
from referee.engine import game
from referee.engine.errors import Busy
from referee.service import Referee
from referee.store import EventStore, open_store

GAME = {"ruleset": "galloping-horse", "players": ["A", "B", "C", "D"], "seed": "busy-seed"}
BUSY = 0.2  # seconds a writer waits in these tests (the default is 5)


@contextmanager
def write_lock_held(path: str):
    """Another connection, as another process would, holding SQLite's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.fixture
def busy_app(tmp_path):
    db = str(tmp_path / "referee.db")
    return create_app({"REFEREE_DB": db, "TESTING": True, "STORE_BUSY_SECONDS": BUSY}), db


def test_an_append_under_another_writers_lock_is_busy_and_writes_nothing(tmp_path, referee_game):
    store, game_id, records = referee_game
    busy = open_store(store.path, busy_seconds=BUSY)
    version = busy.version(game_id)
    with write_lock_held(store.path), pytest.raises(Busy) as raised:
        busy.append(game_id, version, records)
    assert raised.value.status == 503 and raised.value.code == "store/busy"
    assert busy.version(game_id) == version
    appended = busy.append(game_id, version, records)  # the lock released: it goes in
    assert [e["seq"] for e in appended] == [r["seq"] for r in records]


@pytest.fixture
def referee_game(tmp_path):
    """A stored galloping-horse game and the records of its first seat's first move."""
    store = open_store(tmp_path / "store.db")
    referee = Referee(store)
    created = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, "busy-seed")
    state = referee.state(created["game_id"])
    seat = game.to_move(state)[0]
    records = game.execute(state, seat, game.legal(state, seat)[0], "busy-seed")
    return store, created["game_id"], records


def test_a_command_under_another_writers_lock_answers_503_with_retry_after(busy_app):
    app, db = busy_app
    client = app.test_client()
    played = client.post("/games", json=GAME).get_json()
    game_id = played["game_id"]
    seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
    token = played["seats"][seat]["token"]
    view = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
    body = {**view["legal"][0], "expected_version": view["version"]}
    url = f"/games/{game_id}/commands"
    with write_lock_held(db):
        answer = client.post(url, json=body, headers=bearer(token))
        assert answer.status_code == 503
        assert answer.get_json()["error"]["code"] == "store/busy"
        assert answer.headers["Retry-After"] == "1"
        assert client.get(f"/games/{game_id}/events").get_json()["version"] == (view["version"])
    again = client.post(url, json=body, headers=bearer(token))
    assert again.status_code == 201, again.get_json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_creating_a_game_under_another_writers_lock_answers_503(busy_app):
    app, db = busy_app
    client = app.test_client()
    body = {"ruleset": "galloping-horse", "players": ["A", "B", "C", "D"]}
    with write_lock_held(db):
        answer = client.post("/games", json=body)
    assert answer.status_code == 503 and answer.get_json()["error"]["code"] == "store/busy"
    assert app.extensions["referee"].store.game_ids() == []


def test_a_snapshot_is_skipped_while_the_store_is_busy(tmp_path, referee_game):
    store, game_id, _ = referee_game
    busy = open_store(store.path, busy_seconds=BUSY)
    with write_lock_held(store.path):
        busy.save_snapshot(game_id, 1, {"any": "state"}, "0" * 64)  # no error, no wait past BUSY
    assert busy.latest_snapshot(game_id) is None


# --- one deadline: a write waits busy_seconds in all, however many locks it waits for


def waits_seen(monkeypatch) -> dict[str, list]:
    """The deadline each wait for another process gets (the lock file, then SQLite's write
    lock, tried again until then), and each time the writer paused between tries."""
    seen: dict[str, list] = {"lock_file": [], "begin": [], "pauses": []}
    acquire, begin, pause = (
        sqlite_backend.ProcessLock.acquire,
        sqlite_backend._begin,
        sqlite_backend.pause,
    )

    def lock_file(self, deadline):
        seen["lock_file"].append(deadline)
        return acquire(self, deadline)

    def sqlite_begin(conn, deadline):
        seen["begin"].append(deadline)
        return begin(conn, deadline)

    def paused(seconds):
        seen["pauses"].append(time.monotonic())
        return pause(seconds)

    monkeypatch.setattr(sqlite_backend.ProcessLock, "acquire", lock_file)
    monkeypatch.setattr(sqlite_backend, "_begin", sqlite_begin)
    monkeypatch.setattr(sqlite_backend, "pause", paused)
    return seen


def test_every_wait_of_an_append_shares_the_deadline_it_was_given(referee_game, monkeypatch):
    store, game_id, records = referee_game
    seen = waits_seen(monkeypatch)
    deadline = time.monotonic() + 0.05  # long enough for a free lock, far less than busy
    store.append(game_id, store.version(game_id), records, deadline=deadline)
    assert seen["lock_file"] == [deadline] and seen["begin"] == [deadline]
    # SQLite's own busy handler waits for nobody on the writing connection: the only
    # waits are the store's, each until the deadline
    assert store._writing().execute("PRAGMA busy_timeout").fetchone()[0] == 0


def test_without_a_deadline_a_write_has_busy_seconds_from_when_it_asked(referee_game, monkeypatch):
    store, game_id, records = referee_game
    seen = waits_seen(monkeypatch)
    asked = time.monotonic()
    store.append(game_id, store.version(game_id), records)
    answered = time.monotonic()
    for deadline in (*seen["lock_file"], *seen["begin"]):
        assert asked + store.busy_seconds <= deadline <= answered + store.busy_seconds
    with store.transaction():
        pass
    assert seen["lock_file"][-1] <= time.monotonic() + store.busy_seconds


def test_a_writer_queued_here_then_behind_another_process_waits_what_is_left(
    referee_game, monkeypatch
):
    """The finding: queued behind this process's writers for most of busy_seconds, then
    behind another process's write lock for busy_seconds again. Now the second wait
    gets only what is left of the first, and nothing is written."""
    store, game_id, records = referee_game
    busy = open_store(store.path, busy_seconds=BUSY_HERE)
    version = busy.version(game_id)
    seen = waits_seen(monkeypatch)
    outcome: list = []
    asked = time.monotonic()
    busy._write_lock.acquire()  # this process's other writer
    writer = threading.Thread(target=lambda: outcome.append(attempt(busy, game_id, records)))
    with write_lock_held(store.path):  # and another process's
        writer.start()
        queued = moment(lambda: busy._waiting, "the append to queue")
        time.sleep(BUSY_HERE / 2)  # the other writer holds the lock for half of it
        released = time.monotonic()
        busy._write_lock.release()
        writer.join(WITHIN)
    assert isinstance(outcome[0], Busy)
    assert busy.version(game_id) == version
    for deadline in (*seen["lock_file"], *seen["begin"]):
        assert asked + BUSY_HERE <= deadline <= queued + BUSY_HERE
    if seen["begin"]:  # else the first wait had used it all, and no second wait began
        # tried again only while the deadline had not passed
        assert all(paused < seen["begin"][0] for paused in seen["pauses"])
        assert released < seen["begin"][0]


def test_a_batch_waits_no_longer_than_its_earliest_writer_may(referee_game, monkeypatch):
    store, game_id, records = referee_game
    version = store.version(game_id)
    seen = waits_seen(monkeypatch)
    now = time.monotonic()
    deadlines = [now + 60, now + 30]
    store._write_lock.acquire()
    writers = [
        threading.Thread(target=attempt, args=(store, game_id, records, d)) for d in deadlines
    ]
    for writer in writers:
        writer.start()
    moment(lambda: len(store._waiting) == 2, "both appends to queue")
    store._write_lock.release()
    for writer in writers:
        writer.join(WITHIN)
    assert seen["lock_file"] == [now + 30] and seen["begin"] == [now + 30]
    assert store.version(game_id) == version + len(records)  # one won, one conflicted


BUSY_HERE = 1.0
WITHIN = 60  # seconds: a bound for a failing test only


def attempt(store: EventStore, game_id: str, records: list, deadline: float | None = None):
    """An append's events, or the error it raised."""
    given = {} if deadline is None else {"deadline": deadline}
    try:
        return store.append(game_id, records[0]["seq"] - 1, records, **given)
    except Exception as error:  # noqa: BLE001 - the test looks at it
        return error


def moment(check, what: str) -> float:
    """The moment `check()` first held (polled every millisecond; WITHIN bounds a failing
    test only)."""
    wait_until(check, what, bound=WITHIN, every=0.001)
    return time.monotonic()


def test_a_command_queued_behind_this_processs_commands_answers_503(busy_app):
    app, _ = busy_app
    client = app.test_client()
    played = client.post("/games", json=GAME).get_json()
    game_id, token = played["game_id"], played["moderator_token"]
    url = f"/games/{game_id}/commands"
    version = client.get(f"/games/{game_id}").get_json()["version"]
    queues = app.extensions["referee"].queues
    with queues.head(game_id, deadline=time.monotonic() + WITHIN):  # a command in its turn
        body = {"type": "announce", "text": "later"}
        answer = client.post(url, json=body, headers=bearer(token))
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert answer.get_json()["error"]["code"] == "store/busy"
    assert client.get(f"/games/{game_id}/events").get_json()["version"] == version
    assert len(queues) == 0


def test_a_commands_store_wait_ends_when_its_queue_wait_would_have(busy_app):
    app, _ = busy_app
    client = app.test_client()
    played = client.post("/games", json=GAME).get_json()
    store = app.extensions["referee"].store
    append, given = store.append, []

    def spied(*args, **kwargs):
        given.append(kwargs["deadline"])
        return append(*args, **kwargs)

    store.append = spied
    asked = time.monotonic()
    body = {"type": "announce", "text": "now"}
    answer = client.post(
        f"/games/{played['game_id']}/commands",
        json=body,
        headers=bearer(played["moderator_token"]),
    )
    answered = time.monotonic()
    assert answer.status_code == 201
    assert asked + BUSY <= given[0] <= answered + BUSY
