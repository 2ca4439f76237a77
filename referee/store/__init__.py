"""The event store: one contract (contract.py), a backend per database: a SQLite file,
the embedded default (sqlite.py), or a PostgreSQL server shared by several machines
(postgres.py). `open_store` picks the backend from what the operator names.

It imports the engine, the runtime and the replays' log reading and verification, and
nothing above it: the operator's checks, the notifications and the service stand on
it (docs/architecture.md)."""

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from .contract import (
    BUSY_SECONDS,
    CLOSING_SECONDS,
    COLUMNS,
    UPLOAD_ROW_BYTES,
    Conn,
    Event,
    EventStore,
    IdempotentReplay,
    LogicalClock,
    NewFork,
    StoredEvents,
    event_row,
    stamp,
    token_hash,
    wall_clock,
)
from .sqlite import DEFAULT_PATH, SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

__all__ = [
    "BUSY_SECONDS",
    "CLOSING_SECONDS",
    "COLUMNS",
    "DEFAULT_PATH",
    "Conn",
    "UPLOAD_ROW_BYTES",
    "Event",
    "EventStore",
    "IdempotentReplay",
    "LogicalClock",
    "NewFork",
    "StoredEvents",
    "SqliteStore",
    "event_row",
    "is_postgres",
    "open_store",
    "shown",
    "stamp",
    "staging",
    "token_hash",
    "wall_clock",
]


def is_postgres(target: str | Path) -> bool:
    """Whether `--db` names a PostgreSQL server (a libpq URL) rather than a SQLite file."""
    return str(target).startswith(POSTGRES_SCHEMES)


def shown(target: str | Path) -> str:
    """`--db` as output may show it: a URL without its password."""
    if is_postgres(target):
        from .postgres import shown_url

        return shown_url(str(target))
    return str(target)


def open_store(target: str | Path, **options: Any) -> EventStore:
    """The store `--db` names: `postgresql://...` for a PostgreSQL server, else the path
    of a SQLite file (made with its folder when missing) or `:memory:`. With
    `create=False`, only a store that is there, opened as it is (NotFound otherwise)."""
    if is_postgres(target):
        from .postgres import PostgresStore  # psycopg is loaded only by those who use it

        return PostgresStore(str(target), **options)
    return SqliteStore(target, **options)


def staging(
    target: str | Path, *, force: bool = False, wait: float = CLOSING_SECONDS
) -> AbstractContextManager[Conn]:
    """A write transaction into an empty store that becomes the one `target` names when
    the block ends without error, and changes nothing otherwise; refused while the store
    is still in use after `wait` seconds (a service just stopped lets go of it a moment
    later), or holds games (a SQLite file may be replaced with `force`)."""
    if is_postgres(target):
        from .postgres import staging as staging_database

        return staging_database(str(target), force=force, wait=wait)
    from .sqlite_files import staging as staging_file

    return staging_file(target, force=force, wait=wait)
