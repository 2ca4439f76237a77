"""The store's backends in the tests: what `--db` names for each, and a connection of
the database's own (no store in between), to show what the database itself refuses."""

from pathlib import Path
from typing import Any

import pytest

from referee.store import EventStore, open_store

BACKENDS = ("sqlite", "postgresql")


def store_target(
    backend: str, path: Path | str, request: pytest.FixtureRequest, *, another: bool = False
) -> str:
    """What `--db` would name: the SQLite file `path`, or the test's PostgreSQL database
    (`another`: one more fresh database, for a second store in the test)."""
    if backend != "postgresql":
        return str(path)
    if another:
        cluster = request.getfixturevalue("postgres_cluster")
        url = cluster.create_database()
        request.addfinalizer(lambda: cluster.drop_database(url))
        return url
    return request.getfixturevalue("postgres_url")


def target_of(store: EventStore) -> str:
    """What `--db` named to open `store`."""
    return str(getattr(store, "url", None) or store.path)


def reopen(store: EventStore, **options: Any) -> EventStore:
    """Another store on the same database (as another process would open it)."""
    return open_store(target_of(store), **options)


def plain_connection(store: EventStore) -> Any:
    """A connection of the database's driver in autocommit, holding no lock: sqlite3 on
    the file, psycopg on the server."""
    target = target_of(store)
    if target.startswith("postgresql://"):
        import psycopg

        return psycopg.connect(target, autocommit=True)
    import sqlite3

    return sqlite3.connect(target, isolation_level=None)
