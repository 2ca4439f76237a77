"""Uploads to the replay are held in a bounded space, through the real app on a real
SQLite file: within a total and a per-client byte budget over many uploads, the oldest
evicted first; a log larger than one client may keep is refused 413 and nothing stored;
a large upload leaves no large WAL behind."""

import hashlib
import io
import os
import re
import sqlite3

import pytest
from stores import store_target

from referee.app import create_app
from referee.store import UPLOAD_ROW_BYTES, open_store

SIZE = 10_000  # bytes of each upload
COST = SIZE + UPLOAD_ROW_BYTES  # what each counts against a budget


def app_with(tmp_path, backend="sqlite", request=None, **config):
    target = store_target(backend, tmp_path / "referee.db", request)
    return create_app({"REFEREE_DB": target, "TESTING": True, **config})


def a_log(number: int, size: int = SIZE) -> bytes:
    """A distinct upload of `size` bytes (not a valid game: it is kept all the same)."""
    line = f'{{"seq": 1, "upload": {number}}}'.encode()
    return line.ljust(size - 1, b" ") + b"\n"


def upload(client, data: bytes, address: str):
    """POST /replay from `address`; the answer."""
    page = client.get("/replay", environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post(
        "/replay",
        data={"csrf_token": token, "log": (io.BytesIO(data), "game.jsonl")},
        content_type="multipart/form-data",
        environ_base={"REMOTE_ADDR": address},
    )


def kept(app) -> list[tuple[str, int, str]]:
    """(client, bytes, first line) of every upload kept, oldest first."""
    store = app.extensions["referee"].store
    rows = store.query(
        "SELECT client, bytes, substr(log, 1, 40) FROM uploads"
        f" ORDER BY uploaded_at, {store.INSERTION_ORDER}"
    )
    return [(row[0], row[1], bytes(row[2]).split(b"}")[0].decode() + "}") for row in rows]


def numbers(app, client: str | None = None) -> list[int]:
    """The upload numbers kept (of one client's, when given), oldest first."""
    return [
        int(line.split(": ")[-1].rstrip("}"))
        for who, _, line in kept(app)
        if client is None or who == client
    ]


@pytest.mark.both_stores
def test_a_clients_uploads_stay_within_its_budget_the_oldest_evicted_first(
    tmp_path, backend, request
):
    app = app_with(
        tmp_path, backend, request, UPLOAD_CLIENT_BYTES=3 * COST, UPLOAD_TOTAL_BYTES=100 * COST
    )
    client = app.test_client()
    for number in range(12):
        assert upload(client, a_log(number), "10.0.0.1").status_code == 303
        assert sum(size + UPLOAD_ROW_BYTES for _, size, _ in kept(app)) <= 3 * COST
        assert numbers(app) == list(range(max(0, number - 2), number + 1))
    assert upload(client, a_log(99), "10.0.0.2").status_code == 303
    assert numbers(app, "10.0.0.1") == [9, 10, 11]  # another client's upload takes none
    app.extensions.pop("replay_stage", None)  # a process that never held them
    first = client.get(f"/replay/log/{digest(a_log(0))}")
    assert first.status_code == 404 and "no longer kept" in first.get_data(as_text=True)
    assert client.get(f"/replay/log/{digest(a_log(11))}").status_code == 200


def test_everyones_uploads_stay_within_the_total_budget_the_oldest_evicted_first(tmp_path):
    app = app_with(tmp_path, UPLOAD_CLIENT_BYTES=3 * COST, UPLOAD_TOTAL_BYTES=5 * COST)
    client = app.test_client()
    sent = []
    for number in range(20):
        address = f"10.0.1.{number % 4}"
        assert upload(client, a_log(number), address).status_code == 303
        sent.append(number)
        assert len(kept(app)) <= 5
        assert numbers(app) == sent[-5:]
    stored = os.path.getsize(tmp_path / "referee.db")
    for number in range(20, 60):  # freed pages are used again: the file stops growing
        upload(client, a_log(number), f"10.0.1.{number % 4}")
    assert os.path.getsize(tmp_path / "referee.db") <= stored + 5 * COST


@pytest.mark.both_stores
def test_a_log_larger_than_a_client_may_keep_is_413_and_nothing_is_stored(
    tmp_path, backend, request
):
    app = app_with(
        tmp_path, backend, request, UPLOAD_CLIENT_BYTES=3 * COST, UPLOAD_TOTAL_BYTES=100 * COST
    )
    client = app.test_client()
    assert upload(client, a_log(1), "10.0.0.1").status_code == 303
    before = kept(app)
    refused = upload(client, a_log(2, size=3 * COST), "10.0.0.1")
    assert refused.status_code == 413
    page = refused.get_data(as_text=True)
    assert 'data-code="replay/upload_too_large"' in page
    assert "larger than one visitor may keep here" in page
    assert kept(app) == before
    assert upload(client, a_log(3, size=3 * SIZE), "10.0.0.1").status_code == 303


def test_the_operator_sets_the_budgets_in_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_UPLOAD_CLIENT_BYTES", "20KiB")
    monkeypatch.setenv("REFEREE_UPLOAD_TOTAL_BYTES", "1 MiB")
    app = app_with(tmp_path)
    assert app.config["UPLOAD_CLIENT_BYTES"] == 20 << 10
    assert app.config["UPLOAD_TOTAL_BYTES"] == 1 << 20
    client = app.test_client()
    assert upload(client, a_log(1, size=30_000), "10.0.0.1").status_code == 413
    assert kept(app) == []


def test_budgets_are_on_by_default(tmp_path):
    app = app_with(tmp_path)
    assert app.config["UPLOAD_CLIENT_BYTES"] == 64 << 20
    assert app.config["UPLOAD_TOTAL_BYTES"] == 512 << 20


def test_a_large_upload_and_its_eviction_leave_no_large_wal(tmp_path):
    big = 8 << 20
    app = app_with(tmp_path, UPLOAD_CLIENT_BYTES=big + 4096, UPLOAD_TOTAL_BYTES=4 * big)
    client = app.test_client()
    wal = tmp_path / "referee.db-wal"
    assert upload(client, a_log(1, size=big), "10.0.0.1").status_code == 303
    assert wal.stat().st_size < 1 << 20
    assert upload(client, a_log(2, size=big), "10.0.0.1").status_code == 303  # evicts 1
    assert numbers(app) == [2]
    assert wal.stat().st_size < 1 << 20


def test_uploads_kept_before_the_budgets_are_counted_by_their_size(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE uploads (digest TEXT PRIMARY KEY, log BLOB, uploaded_at INT)")
        old.execute("INSERT INTO uploads VALUES ('d1', ?, 5)", (b"x" * 300,))
    store = open_store(path)
    assert store.db.execute("SELECT client, bytes FROM uploads").fetchall() == [("", 300)]
    store.keep_upload("d2", b"y" * 10, 6, client="a", total_bytes=1 << 20, client_bytes=1 << 20)
    assert store.upload("d1") == b"x" * 300 and store.upload("d2") == b"y" * 10


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
