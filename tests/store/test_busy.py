"""Another process holding the write lock: a writer waits a bounded time, then the store
says busy (503 store/busy with Retry-After over HTTP) and nothing is written."""

import sqlite3
from contextlib import contextmanager

import pytest

from referee.app import create_app
from referee.engine import game
from referee.engine.errors import Busy
from referee.service import Referee
from referee.store import EventStore

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
    busy = EventStore(store.path, busy_seconds=BUSY)
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
    store = EventStore(tmp_path / "store.db")
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
    busy = EventStore(store.path, busy_seconds=BUSY)
    with write_lock_held(store.path):
        busy.save_snapshot(game_id, 1, {"any": "state"}, "0" * 64)  # no error, no wait past BUSY
    assert busy.latest_snapshot(game_id) is None
