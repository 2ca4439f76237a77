"""A SQLite store's file as a whole: read as it is, made new for a copy, and put in the
place of another (a restore) once it is complete, while no process uses the old one."""

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlite_utils

from ..engine.errors import Conflict, NotFound
from . import schema
from .contract import BUSY_SECONDS, CLOSING_SECONDS, settled

# the lock files beside a database, and who holds each: a restore takes them all
IN_USE = {
    ".serve.lock": "a `referee serve`",
    ".beat.lock": "a sweeper (`referee worker --beat` or `referee serve`)",
    ".open.lock": "a process with the store open (`referee web`, `referee worker`)",
    ".write.lock": "a process writing to it",
}


def reader(path: str, busy_seconds: float) -> sqlite3.Connection:
    """A read-only connection to a file that must be there."""
    if path == ":memory:":
        raise NotFound("store/not_found", "a store in memory cannot be read from elsewhere", {})
    conn = sqlite3.connect(
        f"file:{quote(os.path.abspath(path))}?mode=ro",
        uri=True,
        isolation_level=None,
        timeout=busy_seconds,
        check_same_thread=False,
    )
    conn.execute("PRAGMA query_only = 1")
    return conn


def check_existing(path: str) -> None:
    """NotFound unless `path` is a file holding a store's log (nothing is made)."""
    if path == ":memory:" or not os.path.isfile(path):
        raise NotFound("store/not_found", f"no such store: {path}", {"db": path})
    try:
        conn = reader(path, BUSY_SECONDS)
        try:
            found = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'"
            ).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise NotFound(
            "store/not_a_store", f"{path} is not a SQLite database ({exc})", {"db": path}
        ) from None
    if not found:
        raise NotFound("store/not_a_store", f"{path} holds no referee store", {"db": path})


@contextmanager
def new_file(path: str | Path, *, mode: int = 0o600) -> Iterator[sqlite3.Connection]:
    """A write transaction on a new file at `path` with the store's empty tables, committed
    when the block ends (one file, no WAL beside it); on an error the file is removed.
    Readable by its owner only, unless `mode` says otherwise: it holds the games' seeds."""
    path = Path(path)
    make_private(path, mode=mode)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA synchronous=FULL")
        schema.create(sqlite_utils.Database(conn))
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        conn.close()
        path.unlink(missing_ok=True)
        raise
    finally:
        conn.close()


def make_private(path: Path, *, mode: int = 0o600) -> None:
    """A new empty file at `path` with `mode` (SQLite takes an empty file for an empty
    database); Conflict if there is one already."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))
    except FileExistsError:
        raise Conflict("store/exists", f"{path} is there already", {"path": str(path)}) from None


@contextmanager
def staging(
    target: str | Path, *, force: bool = False, wait: float = CLOSING_SECONDS
) -> Iterator[sqlite3.Connection]:
    """A write transaction on a new file that takes the place of `target` when the block
    ends without error (renamed over it); the target is left as it was otherwise.

    Refused (store/in_use) while anyone still holds a lock file beside it after `wait`
    seconds: a `referee serve`, a sweeper, a process with the store open or writing (one
    stopping lets go of them as it ends); those locks are held until the end, so nothing
    starts on it meanwhile. A target that holds games, or is not a store,
    is refused (store/not_empty) unless `force`."""
    path = Path(target).resolve()
    if str(target) == ":memory:":
        raise NotFound("store/not_found", "a store in memory cannot be restored into", {})
    path.parent.mkdir(parents=True, exist_ok=True)
    with _kept_out(path, wait):
        _check_replaceable(path, force=force)
        staged = path.with_name(f".{path.name}.restore-{os.getpid()}")
        staged.unlink(missing_ok=True)
        try:
            with new_file(staged) as conn:
                yield conn
            _settle(path)
            _same_owner(staged, path)
            os.replace(staged, path)
            _sync_folder(path.parent)
        finally:
            staged.unlink(missing_ok=True)
            Path(f"{staged}-journal").unlink(missing_ok=True)


@contextmanager
def _kept_out(path: Path, wait: float) -> Iterator[None]:
    """Every lock file beside `path` held exclusively, each waited for `wait` seconds at
    most, or Conflict naming who holds one. Those it made are removed again, while held,
    if no store is at `path` in the end (a restore that failed into a new file)."""
    held: list[Any] = []
    made: list[Path] = []  # lock files this restore made: removed if no store is made
    deadline = time.monotonic() + wait  # for all the locks together
    try:
        for suffix, holder in IN_USE.items():
            lock_path = Path(f"{path}{suffix}")
            if not lock_path.exists():
                made.append(lock_path)
            lock = open(lock_path, "a+")  # noqa: SIM115 - closed below
            held.append(lock)
            if not _locked(lock, max(0.0, deadline - time.monotonic())):
                raise Conflict(
                    "store/in_use",
                    f"{path} is in use: {holder} still holds {path.name}{suffix} after"
                    f" {wait:g} s; stop the service (and its workers) first",
                    {"db": str(path), "lock": f"{path}{suffix}"},
                )
        yield
    finally:
        if not path.exists():  # nothing was restored where no store was
            for lock_path in made:
                lock_path.unlink(missing_ok=True)
        for lock in held:
            lock.close()


def _locked(lock: Any, wait: float) -> bool:
    """Whether an exclusive lock on the open file was taken within `wait` seconds."""

    def refused() -> bool:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True

    return not settled(refused, wait)


def _check_replaceable(path: Path, *, force: bool) -> None:
    """Conflict (store/not_empty) if `path` holds games or is not an empty store, unless
    `force`."""
    if force or not path.exists():
        return
    try:
        conn = reader(str(path), BUSY_SECONDS)
        try:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise Conflict(
            "store/not_empty",
            f"{path} is there and is not a referee store: --force to replace it",
            {"db": str(path)},
        ) from None
    if games:
        raise Conflict(
            "store/not_empty",
            f"{path} holds {games} games: --force to replace it (make a backup of it first)",
            {"db": str(path), "games": games},
        )


def _settle(path: Path) -> None:
    """Fold the WAL of the file about to be replaced into it and let it go, so that no
    WAL of the old file is found beside the new one."""
    if not path.exists():
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.DatabaseError:
        pass  # not a database (replaced by --force): it has no WAL
    finally:
        conn.close()  # the last connection removes the WAL and its index
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size:
        raise Conflict("store/in_use", f"{path} is still written to: {wal} remains", {})
    wal.unlink(missing_ok=True)
    Path(f"{path}-shm").unlink(missing_ok=True)


def _same_owner(staged: Path, path: Path) -> None:
    """The restored file gets the owner and mode of the file it replaces (a restore run
    as root leaves the service's user able to open it)."""
    if not path.exists():
        return
    held = path.stat()
    os.chmod(staged, held.st_mode & 0o777)
    if os.geteuid() == 0:
        os.chown(staged, held.st_uid, held.st_gid)


def _sync_folder(folder: Path) -> None:
    """The rename made durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
