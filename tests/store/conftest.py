"""The store tests run on both backends (tests/conftest.py parametrizes `backend`); what
only a SQLite file has (its pragmas, its lock file, its WAL) is tested on `sqlite_store`."""

import pytest

from referee.store import SqliteStore


@pytest.fixture
def sqlite_store(tmp_path):
    """A store on a fresh SQLite file, whatever the backend of the test's parameter."""
    return SqliteStore(tmp_path / "store.db")
