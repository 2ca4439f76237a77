"""The pages' session key: kept beside a SQLite file so that every process of it and
every restart sign alike, in the store for PostgreSQL, and for a store in memory made in
memory, with no file written anywhere."""

import os

from referee.app import create_app


def test_a_store_in_memory_writes_no_key_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    first = create_app({"REFEREE_DB": ":memory:"})
    second = create_app({"REFEREE_DB": ":memory:"})
    assert os.listdir(tmp_path) == []  # once, ":memory:.secret" was written here
    assert len(first.config["SECRET_KEY"]) == 64
    assert first.config["SECRET_KEY"] != second.config["SECRET_KEY"]


def test_a_sqlite_file_keeps_its_key_beside_it_across_restarts(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    db = str(tmp_path / "referee.db")
    first, again = create_app({"REFEREE_DB": db}), create_app({"REFEREE_DB": db})
    assert first.config["SECRET_KEY"] == again.config["SECRET_KEY"]
    assert (tmp_path / "referee.db.secret").stat().st_mode & 0o777 == 0o600
