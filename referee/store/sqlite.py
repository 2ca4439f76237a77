"""The event store in one SQLite file (WAL, synchronous=FULL), through sqlite-utils: the
embedded default. One writing process at a time, by a lock file beside the database;
every process with the store open holds another one shared, so that `referee restore`
can tell the file is in use (and keep everyone out while it replaces it)."""

import fcntl
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils

from ..engine.errors import StoreFull, StoreUnavailable
from ..runtime.loop import os_thread_local, pause
from . import schema
from .contract import BUSY_SECONDS, EventStore, busy, left, log, wall_clock
from .sqlite_files import check_existing, make_private, reader

DEFAULT_PATH = "var/referee.db"
SCHEMA_SECONDS = 60.0  # how long a store that starts waits for another making its tables
# what a readiness probe writes (and takes back) once a write was refused for want of
# space: enough to need fresh pages, so the probe fails while the disk still refuses
PROBE_BYTES = 64 << 10
# an upload stored or evicted of at least this much is followed by a checkpoint that
# truncates the WAL, which would otherwise keep the size of the largest write
WAL_TRUNCATE_BYTES = 4 << 20
TRUNCATE_WAIT = 0.2  # seconds


class SqliteStore(EventStore):
    """The store in one SQLite file (or in memory, for a simulation in one thread).

    With `create` false, a file that is there only, opened as it is: no tables made, its
    journal mode kept (a backup stays one file), no lock file held (a reader of a copy)."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], str] = wall_clock,
        busy_seconds: float = BUSY_SECONDS,
        create: bool = True,
    ) -> None:
        super().__init__(str(path), clock=clock, busy_seconds=busy_seconds)
        self.path = str(path)
        self.create = create
        # a test's hook on the connection before each write transaction (a pragma that
        # fills the disk or makes the database read-only)
        self.beginning: Callable[[sqlite3.Connection], Any] | None = None
        self._local = os_thread_local()
        self._writer: tuple[int, sqlite3.Connection] | None = None
        self._writers = ProcessLock(None if self.path == ":memory:" else self.path + ".write.lock")
        self._open: tuple[int, Any] | None = None
        self._file = _file_identity(self.path)
        if not create:
            check_existing(self.path)
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._open = (os.getpid(), _hold_open(self.path))
        # processes starting together on a new file take turns making the tables (SQLite
        # refuses one of two that do it at once, "database is locked")
        self._writers.acquire(time.monotonic() + SCHEMA_SECONDS)
        try:
            schema.create(self.db)
        finally:
            self._writers.release()
        self._file = _file_identity(self.path)

    @property
    def db(self) -> sqlite_utils.Database:
        """This OS thread's connection, for reads (under gevent, the greenlets of a web
        process share one: a read never yields, so none sees another's half-read)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = sqlite_utils.Database(self._connect())
        return db

    def query(self, sql: str, args: tuple | dict = ()) -> list[tuple]:
        return self.db.execute(sql, args).fetchall()

    def columns(self, sql: str, args: tuple = ()) -> list[dict[str, Any]]:
        cursor = self.db.execute(sql, args)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None
        if self._writer is not None and self._writer[0] == os.getpid():
            self._writer[1].close()
        self._writer = None
        # closed, not unlocked: a forked process that shares the lock still holds it
        if self._open is not None and self._open[0] == os.getpid():
            self._open[1].close()
        self._open = None

    def _connect(self, *, any_thread: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            isolation_level=None,
            timeout=self.busy_seconds,
            check_same_thread=not any_thread,
        )
        if self.create:
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection in one read transaction (WAL: writers go on meanwhile)."""
        conn = reader(self.path, self.busy_seconds)
        try:
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot
            yield conn
        finally:
            conn.close()

    def file_copy(self, path: str | Path) -> bool:
        """The whole file copied page by page into a new file at `path` (SQLite's online
        backup, in one step: one read transaction, so one moment of the store, while
        writers go on), left as one file with no WAL beside it, readable by its owner only."""
        make_private(Path(path))
        source = reader(self.path, self.busy_seconds)
        copy = sqlite3.connect(path, isolation_level=None)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
            source.close()
        return True

    def _writing(self) -> sqlite3.Connection:
        """This process's one connection for writes, used only under the write lock, by
        whichever thread holds it: a transaction is never seen by a read in progress
        elsewhere in the process (a forked process opens its own). A store in memory
        (a simulation's, in one thread) has one database per connection, so it writes on
        the connection it reads from."""
        if self.path == ":memory:":
            return self.db.conn
        held = self._writer
        if held is None or held[0] != os.getpid():
            conn = self._connect(any_thread=True)
            conn.execute("PRAGMA busy_timeout = 0")  # the store waits itself (_begin)
            held = self._writer = (os.getpid(), conn)
        return held[1]

    @contextmanager
    def transaction(self, *, deadline: float | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error.

        Writers in this process queue on a lock, and processes take their turns by the
        lock file, rather than in SQLite's busy handler, which sleeps with back-off and
        leaves the write lock idle between commits. Every wait shares one deadline.
        """
        deadline = self.deadline(deadline)
        if not self._write_lock.acquire(timeout=left(deadline)):
            raise busy()
        try:
            conn = self._writing()
            with self._committed(conn, deadline):
                yield conn
        finally:
            self._write_lock.release()

    @contextmanager
    def _batch(self, deadline: float) -> Iterator[sqlite3.Connection]:
        conn = self._writing()
        with self._committed(conn, deadline):
            yield conn

    @contextmanager
    def _committed(self, conn: sqlite3.Connection, deadline: float) -> Iterator[None]:
        """The writing process's turn, BEGIN IMMEDIATE ... COMMIT, rolled back on any
        error (the caller holds the write lock); no wait goes past `deadline`."""
        try:
            self._writers.acquire(deadline)
            if self.beginning is not None:
                self.beginning(conn)
            _begin(conn, deadline)
            try:
                self._check_file()
                yield
                if self.before_commit is not None:
                    self.before_commit()
                flushing = time.monotonic()
                conn.execute("COMMIT")
                self.flush_seconds = time.monotonic() - flushing
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                    raise busy() from exc
                raise
            self._recovered()
        except StoreUnavailable as gone:
            self._refused(gone)
            raise
        except sqlite3.Error as exc:
            failure = _storage_failure(exc)
            if failure is None:
                raise
            self._refused(failure, exc)
            raise failure from exc
        finally:
            self._writers.release()

    def _check_file(self) -> None:
        """StoreUnavailable when the database file is no longer at its path (deleted,
        moved, replaced): SQLite would go on writing into the lost file."""
        if self._file is not None and _file_identity(self.path) != self._file:
            raise StoreUnavailable(
                None,
                "the database file is gone from its place (moved or deleted): nothing was "
                "written; the operator must put it back",
                {},
            )

    def is_clash(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def is_fatal(self, exc: BaseException) -> bool:
        # SQLite may have undone the whole transaction when the disk refused
        return _storage_failure(exc) is not None or not self._writing().in_transaction

    def probe_write(self) -> None:
        with self.transaction() as conn:
            if self.trouble is not None:
                conn.execute("INSERT INTO disk_probe VALUES (randomblob(?))", (PROBE_BYTES,))
                conn.execute("DELETE FROM disk_probe")

    def disk_space(self) -> tuple[int, int] | None:
        """(free, total) bytes of the file system that holds the database (None in memory,
        or when its folder is gone)."""
        if self.path == ":memory:":
            return None
        try:
            usage = shutil.disk_usage(Path(self.path).parent)
        except OSError:
            return None
        return usage.free, usage.total

    def after_upload(self, moved: int) -> None:
        if moved >= WAL_TRUNCATE_BYTES:
            self._truncate_wal()

    def _truncate_wal(self) -> None:
        """Copy the WAL into the database and cut it to nothing (it keeps the size of the
        largest write otherwise), waiting at most TRUNCATE_WAIT for readers still in it
        (a web process on gevent stands still while it waits); left for a later
        checkpoint when they or the disk do not let it."""
        conn = self.db.conn
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(TRUNCATE_WAIT * 1000)}")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            log.warning("the WAL of %s was not truncated: %s", self.path, exc)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")


def _hold_open(path: str) -> Any:
    """`<database>.open.lock`, held shared for as long as the store is open here; refused
    while `referee restore` replaces the file."""
    lock = open(path + ".open.lock", "a+")  # noqa: SIM115 - held for the store's life
    try:
        fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise StoreUnavailable(
            None, f"{path} is being replaced by `referee restore`: start again once it is done", {}
        ) from None
    return lock


class ProcessLock:
    """One writing process at a time, by a lock file beside the database. SQLite's own
    busy handler sleeps 1, 2, 5, 10... ms between tries, so writers in two processes
    leave the write lock idle between commits; a process waiting here tries again every
    POLL seconds instead (a web process's batches wait beside its loop, on a native
    thread that sleeps that long; a wait on the loop wakes when the loop next can). The
    lock holds nothing itself: BEGIN IMMEDIATE still decides, so a writer that does not
    take this lock (another tool) is still kept out."""

    POLL = 0.0001

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._file: Any = None
        self._pid = 0  # a forked process opens its own (a lock is per open file)
        self._held = False

    def acquire(self, deadline: float) -> None:
        """Take the lock by `deadline` (time.monotonic()), else Busy (called under the
        write lock)."""
        if self.path is None:
            return
        if self._file is None or self._pid != os.getpid():
            self._file = open(self.path, "a+")  # noqa: SIM115 - held for the process's life
            self._pid = os.getpid()
        while True:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._held = True
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise busy() from None
                pause(self.POLL)

    def release(self) -> None:
        if self._held:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._held = False


def _begin(conn: sqlite3.Connection, deadline: float) -> None:
    """BEGIN IMMEDIATE, tried again every POLL seconds while a writer that knows nothing
    of the lock file holds SQLite's write lock, until `deadline`; Busy then. (The writing
    connection has no busy timeout of SQLite's: setting one to what is left of each
    deadline cost two statements, compiled anew, on every transaction.)"""
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            if time.monotonic() >= deadline:
                raise busy() from exc
        pause(ProcessLock.POLL)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for a lock (SQLITE_BUSY or SQLITE_LOCKED)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


# SQLite's primary result codes for a write the disk or the file refuses, and what the
# client is told (nothing was written in each case)
REFUSALS = {
    sqlite3.SQLITE_FULL: "the disk that holds the database is full",
    sqlite3.SQLITE_READONLY: "the database is read-only here",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
    sqlite3.SQLITE_IOERR: "the disk failed to read or write the database (I/O error)",
}


def _storage_failure(exc: BaseException) -> StoreFull | StoreUnavailable | None:
    """The error a client gets for a write the disk or the file refused; None for any
    other error."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.Error) or code is None or code & 0xFF not in REFUSALS:
        return None
    said = REFUSALS[code & 0xFF]
    if code & 0xFF == sqlite3.SQLITE_FULL:
        return StoreFull(None, f"{said}: nothing was written; send again once space is freed", {})
    return StoreUnavailable(None, f"{said}: nothing was written; send again later", {})


def _file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the database file; None in memory or when it is gone."""
    if path == ":memory:":
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino
