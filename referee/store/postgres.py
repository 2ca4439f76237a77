"""The event store on a PostgreSQL server, for a referee served from several machines:
psycopg 3 with a bounded pool per process (checked before use, renewed after
MAX_LIFETIME), statement and lock timeouts, and the tables the migrations in
migrations/postgres-*.sql make, applied once under an advisory lock when a store opens.

The database decides every race, as in SQLite: the unique (game, seq) key refuses the
second of two appends at one version, a conditional UPDATE arms a deadline or claims a
delivery for one taker only. Writers in one process still commit as a group (one
transaction, one flush to disk, for all appends waiting), and batches of two processes
take their games' rows in one order (contract.py), so they wait for each other rather
than deadlock."""

import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors

from ..engine.errors import Busy, Conflict, NotFound, StoreFull, StoreUnavailable
from ..runtime import shown
from .contract import (
    BUSY_SECONDS,
    CLOSING_SECONDS,
    EventStore,
    busy,
    left,
    settled,
    wall_clock,
)
from .migrations import migrations

POOL_SIZE = 10  # connections per process at most (a web process, a worker)
MAX_LIFETIME = 1800.0  # seconds before a pooled connection is replaced
CHECK_AFTER = 1.0  # seconds in the pool after which a connection is checked before use
STATEMENT_SECONDS = 30  # no statement runs longer (a whole log is read in far less)
IDLE_IN_TRANSACTION_SECONDS = 60
# the advisory lock key under which a store that opens applies the migrations, and the
# one the beat holds while it sweeps (docs/deployment.md): 'refe' and 'swep' in ASCII
MIGRATION_LOCK = 0x72656665
SWEEPER_LOCK = 0x73776570
PROBE_BYTES = 64 << 10


class PostgresStore(EventStore):
    """The store on a PostgreSQL server, named by a libpq URL."""

    INSERTION_ORDER = "n"
    GROUP_COMMIT = False  # a pooled transaction each: the server commits them side by side

    def __init__(
        self,
        url: str,
        *,
        clock: Any = wall_clock,
        busy_seconds: float = BUSY_SECONDS,
        pool_size: int = POOL_SIZE,
        create: bool = True,
    ) -> None:
        super().__init__(shown_url(url), clock=clock, busy_seconds=busy_seconds)
        self.url = url
        self.pool_size = pool_size
        self._pool: tuple[int, psycopg_pool.ConnectionPool] | None = None
        self._pool_lock = threading.Lock()
        self._rested: dict[int, float] = {}  # when each pooled connection was given back
        if create:
            migrate(url)
        else:  # a store that is there only: its tables at this referee's version
            _check_existing(url)

    # --- connections ---------------------------------------------------------------

    def pool(self) -> psycopg_pool.ConnectionPool:
        """This process's pool (a forked process opens its own)."""
        held = self._pool
        if held is not None and held[0] == os.getpid():
            return held[1]
        with self._pool_lock:  # threads using a new store at once make one pool
            return self._opened_pool()

    def _opened_pool(self) -> psycopg_pool.ConnectionPool:
        held = self._pool
        if held is None or held[0] != os.getpid():
            pool = psycopg_pool.ConnectionPool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                max_lifetime=MAX_LIFETIME,
                timeout=self.busy_seconds,
                check=self._checked,
                reset=self._returned,
                kwargs={
                    "autocommit": True,
                    "options": self._options(),
                    "application_name": application(),
                },
                name="referee",
                open=False,
            )
            pool.open(wait=False)
            held = self._pool = (os.getpid(), pool)
        return held[1]

    def _checked(self, conn: psycopg.Connection) -> None:
        """Pre-ping a connection that rested in the pool longer than CHECK_AFTER (a server
        restart or a network cut shows there); one just given back is used as it is, so a
        busy process saves a round trip per use. A check that fails makes the pool
        discard the connection and give another."""
        rested = time.monotonic() - self._rested.get(id(conn), 0.0)
        if rested > CHECK_AFTER:
            psycopg_pool.ConnectionPool.check_connection(conn)

    def _returned(self, conn: psycopg.Connection) -> None:
        self._rested[id(conn)] = time.monotonic()

    def _options(self) -> str:
        """Each connection's limits: a lock waited for no longer than a writer may wait
        in all, a statement no longer than STATEMENT_SECONDS."""
        return (
            f"-c lock_timeout={int(self.busy_seconds * 1000)}"
            f" -c statement_timeout={STATEMENT_SECONDS * 1000}"
            f" -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS * 1000}"
        )

    @contextmanager
    def _connection(self, deadline: float) -> Iterator[psycopg.Connection]:
        """A pooled connection by `deadline`, or Busy; a server that cannot be reached is
        StoreUnavailable."""
        try:
            with self.pool().connection(timeout=left(deadline)) as conn:
                yield conn
        except psycopg_pool.PoolTimeout as exc:
            raise self._unreached(exc) from exc

    def _unreached(self, exc: Exception) -> Busy | StoreUnavailable:
        """Why no connection came: every one busy, or the server not answering."""
        if self.pool().get_stats().get("pool_size", 0) == 0:
            failure = StoreUnavailable(
                None,
                "the database server cannot be reached: nothing was written; send again later",
                {},
            )
            self._refused(failure, exc)
            return failure
        return busy()

    def query(self, sql: str, args: tuple | dict = ()) -> list[tuple]:
        with self._reading() as conn:
            return conn.execute(pg_sql(sql), args).fetchall()

    def columns(self, sql: str, args: tuple = ()) -> list[dict[str, Any]]:
        with self._reading() as conn:
            cursor = conn.execute(pg_sql(sql), args)
            names = [d.name for d in cursor.description or ()]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection]:
        try:
            with self._connection(self.deadline()) as conn:
                yield conn
        except psycopg.OperationalError as exc:
            raise _failure(exc) or StoreUnavailable(
                None,
                f"the database server failed to answer a read: {exc.sqlstate or 'no code'}",
                {},
            ) from exc

    @contextmanager
    def snapshot(self) -> Iterator["Writing"]:
        """A session of its own in one REPEATABLE READ, READ ONLY transaction (no statement
        timeout: a whole store may be read through it)."""
        conn = _session(self.url)
        try:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            conn.read_only = True
            with conn.transaction():
                conn.execute("SELECT 1")  # the snapshot is taken at the first statement
                yield Writing(conn)
        finally:
            conn.close()

    def close(self) -> None:
        held, self._pool = self._pool, None
        if held is not None and held[0] == os.getpid():
            held[1].close()

    # --- writing -------------------------------------------------------------------

    @contextmanager
    def transaction(self, *, deadline: float | None = None) -> Iterator["Writing"]:
        """BEGIN ... COMMIT on a pooled connection, rolled back on any error; Busy when
        no connection or lock comes by `deadline`, StoreFull or StoreUnavailable when
        the server refuses to write."""
        deadline = self.deadline(deadline)
        try:
            with self._connection(deadline) as conn, conn.transaction():
                yield Writing(conn)
                if self.before_commit is not None:
                    self.before_commit()
        except psycopg.Error as exc:
            failure = _failure(exc)
            if failure is None:
                raise
            if not isinstance(failure, Busy):
                self._refused(failure, exc)
            raise failure from exc
        self._recovered()

    def _batch(self, deadline: float) -> Any:
        return self.transaction(deadline=deadline)

    def is_clash(self, exc: BaseException) -> bool:
        return isinstance(exc, errors.UniqueViolation)

    def is_fatal(self, exc: BaseException) -> bool:
        # a broken connection, a full disk, a lock or statement timeout: the batch fails
        return isinstance(exc, psycopg.Error) and not isinstance(exc, psycopg.IntegrityError)

    def probe_write(self) -> None:
        with self.transaction() as conn:
            conn.execute("SELECT 1")
            if self.trouble is not None:
                conn.execute("INSERT INTO disk_probe VALUES (?)", (os.urandom(PROBE_BYTES),))
                conn.execute("DELETE FROM disk_probe")

    def disk_space(self) -> tuple[int, int] | None:
        return None  # the server's disk is its own: its operator watches it

    def after_upload(self, moved: int) -> None:
        return None  # autovacuum gives the space of evicted uploads back

    def shared_secret(self, name: str) -> str | None:
        """Made by the first machine that asks, read by the others."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (name, secrets.token_hex(32)),
            )
            row = conn.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return str(row[0]) if row else None

    # --- the sweeper's lock --------------------------------------------------------

    def hold_sweeper_lock(self, *, wait: bool) -> psycopg.Connection | None:
        """A session of its own holding the sweeper's advisory lock (the server lets it go
        when the session ends, however the process ends); None when another holds it
        and `wait` is false."""
        conn = psycopg.connect(self.url, autocommit=True)
        if wait:
            conn.execute("SELECT pg_advisory_lock(%s)", (SWEEPER_LOCK,))
            return conn
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (SWEEPER_LOCK,)).fetchone()
        if row and row[0]:
            return conn
        conn.close()
        return None


class Writing:
    """A connection inside a write transaction, speaking the contract's SQL."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Any = ()) -> psycopg.Cursor:
        return self.conn.execute(pg_sql(sql), args)

    def executemany(self, sql: str, rows: Any) -> psycopg.Cursor:
        cursor = self.conn.cursor()
        cursor.executemany(pg_sql(sql), rows)
        return cursor


@lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """The contract's SQL with psycopg's placeholders (`?` becomes `%s`; the contract
    writes no `%` and no `?` inside a string)."""
    return sql.replace("?", "%s")


def migrate(url: str) -> int:
    """Apply the migrations a database lacks, each once, under an advisory lock (stores
    that open together take turns); the schema version after."""
    with _session(url) as conn, conn.transaction():
        return _migrate(conn)


def _migrate(conn: psycopg.Connection) -> int:
    """The migrations applied in the connection's transaction (the lock held until it ends)."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version"
        " (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
    )
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    current = row[0] if row else 0
    for version, name, sql in migrations():
        if version > current:
            conn.execute(sql.encode("utf-8"))
            conn.execute("INSERT INTO schema_version VALUES (%s, %s, now())", (version, name))
            current = version
    return current


def _session(url: str) -> psycopg.Connection:
    """A connection of its own (autocommit), or StoreUnavailable saying why none came (no
    such database, a server that does not answer, a password refused)."""
    try:
        return psycopg.connect(url, autocommit=True, application_name=application())
    except psycopg.OperationalError as exc:
        said = str(exc).strip().replace("\n", " ")
        raise StoreUnavailable(
            None, f"cannot connect to {shown_url(url)}: {said}", {"db": shown_url(url)}
        ) from None


def _check_existing(url: str) -> None:
    """NotFound unless the database holds a store at this referee's schema version."""
    with _session(url) as conn:
        found = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        version = None
        if found and found[0]:
            row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
            version = row[0] if row else None
    latest = migrations()[-1][0]
    if version != latest:
        said = "holds no referee store" if version is None else f"is at schema {version}"
        raise NotFound(
            "store/not_a_store",
            f"{shown_url(url)} {said}; this referee's is {latest} (start it once on the"
            " database to migrate it)",
            {"db": shown_url(url)},
        )


# what a restore finds in a database that is not empty, and the tables it keeps still
HELD = ("games", "events", "uploads")


@contextmanager
def staging(url: str, *, force: bool = False, wait: float = CLOSING_SECONDS) -> Iterator[Writing]:
    """One transaction on the database `url` names, with its tables made in it if missing:
    what is written in the block is there when it ends without error, and nothing
    otherwise (the tables too).

    Refused (store/in_use) while another session is still connected to the database
    after `wait` seconds (a service just stopped leaves its sessions to the server to
    end, a moment later), and (store/not_empty) when it holds games, uploads or events,
    `force` or not: its log is append-only, so a restore goes into a new database
    instead."""
    with _session(url) as conn:
        _wait_for_others_to_close(conn, shown_url(url), wait)
        with conn.transaction():
            _migrate(conn)
            conn.execute(f"LOCK TABLE {', '.join(HELD)} IN EXCLUSIVE MODE")
            for table in HELD:
                if conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone():
                    raise Conflict(
                        "store/not_empty",
                        f"{shown_url(url)} holds {table}: restore into a new database"
                        " (createdb) and point --db at it; a store's log cannot be deleted",
                        {"db": shown_url(url), "table": table},
                    )
            yield Writing(conn)


def _wait_for_others_to_close(conn: psycopg.Connection, shown: str, wait: float) -> None:
    """Return once no other client session is connected to the database, polling for at
    most `wait` seconds; then Conflict (store/in_use) naming the sessions still there."""
    others = settled(lambda: _other_sessions(conn), wait)
    if not others:
        return
    raise Conflict(
        "store/in_use",
        f"{shown} is in use: {len(others)} other session(s) still connected after {wait:g} s"
        f" ({'; '.join(others)}); stop the service (and its workers) first",
        {"db": shown, "sessions": len(others), "connected": others},
    )


def _other_sessions(conn: psycopg.Connection) -> list[str]:
    """Every other client session on this database, as `pid N (application, user from
    address, state)`."""
    rows = conn.execute(
        "SELECT pid, application_name, usename, client_addr, state FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        " AND backend_type = 'client backend' ORDER BY pid"
    ).fetchall()
    return [
        f"pid {pid} ({application or 'no application name'}, {user} from"
        f" {address or 'a local socket'}, {state or 'no state'})"
        for pid, application, user, address, state in rows
    ]


def application() -> str:
    """The name this process's sessions show the server (pg_stat_activity), so that what
    holds a database can be told to its operator."""
    return f"referee (pid {os.getpid()})"


def shown_url(url: str) -> str:
    """The URL as logs and errors may show it: without its password."""
    return shown.url(url)


# SQLSTATE classes and codes of a write the server refuses, and what the client is told
# (nothing was written in each case)
FULL = {"53100": "the disk of the database server is full"}
UNAVAILABLE = {
    "25006": "the database server is read-only (a standby, or set so)",
    "53200": "the database server is out of memory",
    "53300": "the database server has no connection to spare",
    "57P01": "the database server is shutting down",
    "57P02": "the database server is shutting down",
    "57P03": "the database server is starting up or shutting down",
    "58030": "the disk of the database server failed (I/O error)",
}
BUSY = {"55P03", "57014", "40001", "40P01"}  # a lock, a statement, a conflict timed out


def _failure(exc: psycopg.Error) -> Busy | StoreFull | StoreUnavailable | None:
    """What a client gets for a write the server refused or could not take; None for an
    error that is the caller's to handle (a unique key, a trigger)."""
    code = exc.sqlstate or ""
    if code in BUSY:
        return busy()
    if code in FULL:
        return StoreFull(
            None, f"{FULL[code]}: nothing was written; send again once space is freed", {}
        )
    if code in UNAVAILABLE:
        return StoreUnavailable(
            None, f"{UNAVAILABLE[code]}: nothing was written; send again later", {}
        )
    if isinstance(exc, psycopg.OperationalError):  # the connection broke
        return StoreUnavailable(
            None,
            "the connection to the database server broke; send again (a command sent with an"
            " Idempotency-Key is answered as it was, if it was recorded)",
            {},
        )
    return None
