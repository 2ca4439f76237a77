"""The event store on a SQLite file: append with an expected version, read, and cache."""

import fcntl
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from ..engine.canonical import canonical
from ..engine.chain import GENESIS, rechain, seal
from ..engine.errors import Busy, Conflict, NotFound, StoreFull, StoreUnavailable, TooLarge
from . import schema

DEFAULT_PATH = "var/referee.db"
Event = dict[str, Any]
Tail = tuple[int, str, str]  # a game's last seq, its hash and its time
MAX_SEQ = 2**63 - 1  # SQLite's largest integer
INSERT_EVENT = f"INSERT INTO events VALUES ({', '.join('?' * len(schema.COLUMNS))})"
# a game's open round; `armed` (a timed task was sent for its deadline) is kept while the
# round, its deadline and its running stand, else set as this append says (SET reads
# the row as it was)
MARK_ROUND = """
INSERT INTO rounds_due (game_id, round, deadline, ready, paused, armed)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (game_id) DO UPDATE SET
  armed = CASE
    WHEN excluded.armed = 1 THEN 1
    WHEN round = excluded.round AND deadline = excluded.deadline
      AND paused = 0 AND excluded.paused = 0 THEN armed
    ELSE 0 END,
  round = excluded.round,
  deadline = excluded.deadline,
  ready = excluded.ready,
  paused = excluded.paused
"""
# how long a writer waits for the write lock in all (behind this process's writers, then
# another process's, then SQLite's) before the request is answered 503 store/busy
BUSY_SECONDS = 5.0
SCHEMA_SECONDS = 60.0  # how long a store that starts waits for another making its tables
# what a readiness probe writes (and takes back) once a write was refused for want of
# space: enough to need fresh pages, so the probe fails while the disk still refuses
PROBE_BYTES = 64 << 10
# what an upload's row costs beside its log (key, time, client, index entries): counted
# against the upload budgets, so that they bound the number of rows too
UPLOAD_ROW_BYTES = 1 << 10
# an upload stored or evicted of at least this much is followed by a checkpoint that
# truncates the WAL, which would otherwise keep the size of the largest write
WAL_TRUNCATE_BYTES = 4 << 20
TRUNCATE_WAIT = 0.2  # seconds
log = logging.getLogger("referee.store")


def wall_clock() -> str:
    """The current UTC time, ISO 8601 with microseconds."""
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
    """A UTC time as the log writes it: YYYY-MM-DDTHH:MM:SS.ffffffZ."""
    return moment.isoformat(timespec="microseconds")[:26] + "Z"


def token_hash(token: str) -> str:
    """Tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class NewFork:
    """A fork to store with the ruling that opens it: the original's first `at` events
    copied under the fork's id (their times kept), then the fork's own records."""

    game_id: str
    ruleset: str
    seed: str
    copied: list[Event]
    records: list[Event]
    due: dict[str, Any] | None


class IdempotentReplay(Exception):
    """The command was already recorded under this idempotency key."""

    def __init__(self, status: int, response: Any) -> None:
        super().__init__("idempotent replay")
        self.status, self.response = status, response


class EventStore:
    """Append-only, hash-chained events per game, in one SQLite file."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], str] = wall_clock,
        busy_seconds: float = BUSY_SECONDS,
    ) -> None:
        self.path = str(path)
        self.clock = clock
        self.busy_seconds = busy_seconds
        self.before_commit: Callable[[], None] | None = None  # a test's fault injection
        # a test's hook on the connection before each write transaction (a pragma that
        # fills the disk or makes the database read-only)
        self.beginning: Callable[[sqlite3.Connection], Any] | None = None
        # why the last write failed for the disk's sake (StoreFull, StoreUnavailable);
        # None once a write succeeds: what readiness reports
        self.trouble: StoreFull | StoreUnavailable | None = None
        self._local = os_thread_local()
        self._writer: tuple[int, sqlite3.Connection] | None = None
        # queues this process's writers; the database still decides every conflict
        self._write_lock = threading.Lock()
        # the last (seq, hash) this process wrote per game: saves a read when it is the
        # version the writer expects; if another process wrote since, the unique
        # (game, seq) key refuses the insert and the entry is dropped
        self._tails: dict[str, Tail] = {}
        # appends waiting for the write lock: the writer that takes it commits them all
        self._waiting: list[_Append] = []
        self._waiting_lock = threading.Lock()
        self._writers = ProcessLock(None if self.path == ":memory:" else self.path + ".write.lock")
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
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

    def _connect(self, *, any_thread: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            isolation_level=None,
            timeout=self.busy_seconds,
            check_same_thread=not any_thread,
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

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
            held = self._writer = (os.getpid(), self._connect(any_thread=True))
        return held[1]

    def deadline(self, given: float | None = None) -> float:
        """When a write asked now must have the write lock (time.monotonic()), or Busy:
        `busy_seconds` from now, unless the caller started waiting earlier."""
        return given if given is not None else time.monotonic() + self.busy_seconds

    @contextmanager
    def transaction(self, *, deadline: float | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error.

        Writers in this process queue on a lock, and processes take their turns by the
        lock file, rather than in SQLite's busy handler, which sleeps with back-off and
        leaves the write lock idle between commits. Every wait shares one deadline.
        """
        deadline = self.deadline(deadline)
        if not self._write_lock.acquire(timeout=_left(deadline)):
            raise _busy()
        try:
            conn = self._writing()
            with self._committed(conn, deadline):
                yield conn
        finally:
            self._write_lock.release()

    @contextmanager
    def _committed(self, conn: sqlite3.Connection, deadline: float) -> Iterator[None]:
        """The writing process's turn, BEGIN IMMEDIATE ... COMMIT, rolled back on any
        error (the caller holds the write lock); no wait goes past `deadline`."""
        try:
            self._writers.acquire(deadline)
            if self.beginning is not None:
                self.beginning(conn)
            _begin(conn, deadline, self.busy_seconds)
            try:
                self._check_file()
                yield
                if self.before_commit is not None:
                    self.before_commit()
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                    raise _busy() from exc
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

    def _refused(
        self, failure: StoreFull | StoreUnavailable, cause: Exception | None = None
    ) -> None:
        """Remember why writes fail; the log says so once, when they start failing."""
        if self.trouble is None:
            said = f"{failure.message} ({cause})" if cause else failure.message
            log.error("writes to %s are refused: %s", self.path, said)
        self.trouble = failure

    def _recovered(self) -> None:
        if self.trouble is not None:
            log.warning("writes to %s succeed again", self.path)
            self.trouble = None

    # --- writing -------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        ruleset: str,
        seed: str,
        records: list[Event],
        tokens: dict[str, str],
        *,
        due: dict[str, Any] | None = None,
    ) -> list[Event]:
        """Store a new game, its secret seed, its token hashes and its opening events."""
        with self.transaction() as conn:
            self._insert_game(conn, game_id, ruleset, seed)
            self._issue(conn, game_id, tokens)
            events = self._insert(conn, game_id, 0, GENESIS, records)
            self._mark_due(conn, game_id, due)
            return events

    def _insert_game(self, conn: sqlite3.Connection, game_id: str, ruleset: str, seed: str) -> None:
        conn.execute(
            "INSERT INTO games (game_id, ruleset, seed, created_at) VALUES (?, ?, ?, ?)",
            (game_id, ruleset, seed, self.clock()),
        )

    def _issue(self, conn: sqlite3.Connection, game_id: str, tokens: dict[str, str]) -> None:
        """Store new tokens by role; any older token of the same role stops working."""
        for role, token in tokens.items():
            conn.execute(
                "UPDATE tokens SET active = 0 WHERE game_id = ? AND role = ?", (game_id, role)
            )
            conn.execute(
                "INSERT INTO tokens (token_hash, game_id, role, active) VALUES (?, ?, ?, 1)",
                (token_hash(token), game_id, role),
            )

    def append(
        self,
        game_id: str,
        expected: int,
        records: list[Event],
        *,
        idempotency: tuple[str, str, str, Callable[[list[Event]], tuple[int, Any]]] | None = None,
        tokens: dict[str, str] | None = None,
        due: dict[str, Any] | None = None,
        fork: NewFork | None = None,
        deadline: float | None = None,
    ) -> list[Event]:
        """Append records after seq `expected`, or raise Conflict if the game moved on;
        Busy (nothing written) if the write lock is not had by `deadline`
        (time.monotonic(); `busy_seconds` from now without one).

        With `idempotency` = (role, key, request digest, respond), the response made
        by `respond(events)` is stored in the same transaction under that key; `tokens`
        (role -> token) are issued in it too, replacing the role's old token; `due`
        (the open round after these records) updates the index of rounds to resolve;
        `fork` is stored in the same transaction, and the game's tokens move to it.

        Appends that arrive together are committed together (group commit): the first
        writer to take the write lock runs every append waiting for it, each inside a
        savepoint of one transaction, and commits once; each writer gets its own result
        or error after that commit, as if it had committed alone.
        """
        job = _Append(
            game_id, expected, records, idempotency, tokens, due, fork, self.deadline(deadline)
        )
        with self._waiting_lock:
            self._waiting.append(job)
        if not self._write_lock.acquire(timeout=_left(job.deadline)):
            with self._waiting_lock:
                if job in self._waiting:  # no writer took it: nothing was written
                    self._waiting.remove(job)
                    raise _busy()
            job.done.wait()  # a writer took it: it commits by the batch's first deadline
            return job.outcome()
        try:
            if not job.done.is_set():
                self._commit_waiting()
        finally:
            self._write_lock.release()
        return job.outcome()

    def _commit_waiting(self) -> None:
        """Every waiting append in one transaction (the write lock held)."""
        with self._waiting_lock:
            batch, self._waiting = self._waiting, []
        # the batch waits no longer than its earliest writer may
        deadline = min(job.deadline for job in batch)
        try:
            conn = self._writing()
            with self._committed(conn, deadline):
                for job in batch:
                    self._run(conn, job)
        except BaseException as exc:  # nothing of the batch was written
            for job in batch:
                job.events, job.error = None, exc
        for job in batch:
            if job.events:
                end = job.events[-1]
                self._tails[job.game_id] = (end["seq"], end["hash"], end["recorded_at"])
            job.done.set()

    def _run(self, conn: sqlite3.Connection, job: "_Append") -> None:
        """One append inside the batch's transaction, undone alone if it fails."""
        conn.execute("SAVEPOINT append")
        try:
            job.events = self._append_in(conn, job)
            conn.execute("RELEASE append")
        except Exception as exc:  # noqa: BLE001 - the writer gets it after the commit
            if _storage_failure(exc) is not None or not conn.in_transaction:
                raise  # the disk refused (SQLite may have undone it all): the batch fails
            conn.execute("ROLLBACK TO append")
            conn.execute("RELEASE append")
            job.error = self._refusal(conn, job, exc)

    def _append_in(self, conn: sqlite3.Connection, job: "_Append") -> list[Event]:
        game_id, expected, idempotency = job.game_id, job.expected, job.idempotency
        if idempotency:  # under the write lock: a twin request that won is seen here
            self.check_idempotency(game_id, *idempotency[:3], conn=conn)
        last, prev, since = self._tail(conn, game_id, expected)
        if last != expected:
            raise Conflict(
                "store/version_conflict",
                f"the game is at version {last}, not {expected}; fetch it and resend",
                {"expected_version": expected, "version": last},
            )
        events = self._insert(conn, game_id, last, prev, job.records, since)
        if job.tokens:
            self._issue(conn, game_id, job.tokens)
        self._mark_due(conn, game_id, job.due)
        if job.fork:
            self._store_fork(conn, game_id, job.fork)
        if idempotency:
            self._remember(conn, game_id, idempotency, events)
        return events

    def _refusal(self, conn: sqlite3.Connection, job: "_Append", exc: Exception) -> Exception:
        """What a failed append tells its writer: a unique-key clash is a conflict (or the
        recorded answer of the twin request that won)."""
        if not isinstance(exc, sqlite3.IntegrityError):
            return exc
        self._tails.pop(job.game_id, None)
        if job.idempotency:
            try:
                self.check_idempotency(job.game_id, *job.idempotency[:3], conn=conn)
            except IdempotentReplay as replay:
                return replay
        conflict = Conflict(
            "store/version_conflict",
            "another command was recorded first; fetch and resend",
            {"expected_version": job.expected},
        )
        conflict.__cause__ = exc
        return conflict

    def _store_fork(self, conn: sqlite3.Connection, original: str, fork: NewFork) -> None:
        self._insert_game(conn, fork.game_id, fork.ruleset, fork.seed)
        copies = rechain(fork.copied, fork.game_id)
        for copy in copies:
            conn.execute(INSERT_EVENT, _row(copy))
        end = copies[-1]
        self._insert(conn, fork.game_id, len(copies), end["hash"], fork.records, end["recorded_at"])
        conn.execute(
            "INSERT INTO forks VALUES (?, ?, ?)", (fork.game_id, original, len(fork.copied))
        )
        conn.execute(
            "UPDATE tokens SET game_id = ? WHERE game_id = ? AND active = 1",
            (fork.game_id, original),
        )
        # notices follow play into the fork, as the seats' tokens do
        conn.execute(
            "UPDATE subscriptions SET game_id = ? WHERE game_id = ?", (fork.game_id, original)
        )
        self._mark_due(conn, fork.game_id, fork.due)

    def import_game(
        self,
        game_id: str,
        ruleset: str,
        seed: str,
        events: list[Event],
        tokens: dict[str, str],
        *,
        due: dict[str, Any] | None = None,
    ) -> None:
        """Store a verified log as it is (its hashes and times unchanged) with new tokens;
        Conflict if a game of that id is stored already."""
        try:
            with self.transaction() as conn:
                self._insert_game(conn, game_id, ruleset, seed)
                self._issue(conn, game_id, tokens)
                for event in events:
                    conn.execute(INSERT_EVENT, _row(event))
                self._mark_due(conn, game_id, due)
        except sqlite3.IntegrityError:
            raise Conflict("import/exists", f"a game {game_id!r} is stored already", {}) from None

    def forked_from(self, game_id: str) -> str | None:
        """The game a fork continues, or None."""
        row = self.db.execute(
            "SELECT forked_from FROM forks WHERE game_id = ?", (game_id,)
        ).fetchone()
        return row[0] if row else None

    def _insert(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        last: int,
        prev: str,
        records: list[Event],
        since: str = "",
    ) -> list[Event]:
        """Seal and insert records after seq `last` (hash `prev`, time `since`). Times
        never go backwards within a game: a clock stepped back (NTP) stamps the previous
        event's time again, so the log stays in order for its verifier."""
        events = []
        for offset, record in enumerate(records, start=1):
            if record["seq"] != last + offset:
                raise Conflict("store/seq_gap", f"seq {record['seq']} does not follow {last}", {})
            since = max(self.clock(), since)
            event = seal(record, game_id, prev, since)
            conn.execute(INSERT_EVENT, _row(event))
            events.append(event)
            prev = event["hash"]
        return events

    def _mark_due(self, conn: sqlite3.Connection, game_id: str, due: dict | None) -> None:
        if due is None:
            return
        if "clocks" in due:
            self._mark_clocks(conn, game_id, due["clocks"])
            return
        if due["round"] is None:
            conn.execute("DELETE FROM rounds_due WHERE game_id = ?", (game_id,))
            return
        row = (game_id, due["round"], due["deadline"], int(due["ready"]), int(due["paused"]))
        conn.execute(MARK_ROUND, (*row, int(due.get("armed", False))))

    def _mark_clocks(self, conn: sqlite3.Connection, game_id: str, clocks: list[dict]) -> None:
        """A clocked game's running clocks: a row kept as it was (armed or not) while its
        deadline stands; the others replaced."""
        held = dict(
            conn.execute(
                "SELECT seat, deadline FROM clocks_due WHERE game_id = ?", (game_id,)
            ).fetchall()
        )
        running = {c["seat"]: c for c in clocks}
        for seat, deadline in held.items():
            if seat not in running or running[seat]["deadline"] != deadline:
                conn.execute(
                    "DELETE FROM clocks_due WHERE game_id = ? AND seat = ?", (game_id, seat)
                )
        for seat, clock in running.items():
            if held.get(seat) != clock["deadline"]:
                conn.execute(
                    "INSERT INTO clocks_due VALUES (?, ?, ?, ?)",
                    (game_id, seat, clock["deadline"], int(clock.get("armed", False))),
                )

    def due_clocks(self, now: int, *, grace: int = 0) -> list[tuple[str, int, int]]:
        """(game, seat, deadline) of every running clock whose deadline has passed; an
        armed one only once it passed `grace` seconds ago (its timed task runs first)."""
        rows = self.db.execute(
            "SELECT game_id, seat, deadline FROM clocks_due"
            " WHERE deadline <= ? AND (armed = 0 OR deadline <= ?)"
            " ORDER BY deadline, game_id, seat",
            (now, now - grace),
        )
        return [(row[0], row[1], row[2]) for row in rows.fetchall()]

    def arm_clocks(self, now: int, until: int) -> list[tuple[str, int, int]]:
        """(game, seat, deadline) of the running clocks due after `now` and by `until`
        that no timed task was sent for yet, marked as sent now (the write lock is taken
        only when there are some: a sweep that finds none writes nothing)."""
        armable = "armed = 0 AND deadline > ? AND deadline <= ?"
        if not self.db.execute(
            f"SELECT 1 FROM clocks_due WHERE {armable} LIMIT 1", (now, until)
        ).fetchone():
            return []
        with self.transaction() as conn:
            rows = conn.execute(
                f"UPDATE clocks_due SET armed = 1 WHERE {armable}"
                " RETURNING game_id, seat, deadline",
                (now, until),
            ).fetchall()
        return sorted((row[0], row[1], row[2]) for row in rows)

    def arm_rounds(self, now: int, until: int) -> list[tuple[str, int, int]]:
        """(game, round, deadline) of the open rounds, neither closed nor paused, due after
        `now` and by `until` that no timed task was sent for yet, marked as sent now (the
        write lock is taken only when there are some)."""
        armable = "armed = 0 AND ready = 0 AND paused = 0 AND deadline > ? AND deadline <= ?"
        if not self.db.execute(
            f"SELECT 1 FROM rounds_due WHERE {armable} LIMIT 1", (now, until)
        ).fetchone():
            return []
        with self.transaction() as conn:
            rows = conn.execute(
                f"UPDATE rounds_due SET armed = 1 WHERE {armable}"
                " RETURNING game_id, round, deadline",
                (now, until),
            ).fetchall()
        return sorted((row[0], row[1], row[2]) for row in rows)

    def due_rounds(self, now: int, *, grace: int = 0) -> list[tuple[str, int]]:
        """(game, round) of every open round that is closed or past its deadline, unpaused;
        an armed one only once its deadline passed `grace` seconds ago (its timed task
        runs first)."""
        rows = self.db.execute(
            "SELECT game_id, round FROM rounds_due WHERE paused = 0 AND (ready = 1"
            " OR deadline <= ? AND (armed = 0 OR deadline <= ?)) ORDER BY deadline, game_id",
            (now, now - grace),
        )
        return [(row[0], row[1]) for row in rows.fetchall()]

    def oldest_overdue(self, now: int) -> tuple[int, int] | None:
        """(how many, the earliest deadline) of the unpaused rounds past their deadline or
        closed and not yet resolved; None when there are none."""
        row = self.db.execute(
            "SELECT COUNT(*), MIN(deadline) FROM rounds_due"
            " WHERE paused = 0 AND (ready = 1 OR deadline <= ?)",
            (now,),
        ).fetchone()
        return (row[0], row[1]) if row and row[0] else None

    def probe_write(self) -> None:
        """Take the write lock and let it go (Busy if another writer holds it). After a
        write the disk refused, write PROBE_BYTES and take them back in the same
        transaction: StoreFull or StoreUnavailable while the disk still refuses, and
        once it takes them, writes are known to succeed again."""
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

    def _remember(self, conn: sqlite3.Connection, game_id: str, idem: tuple, events: list) -> None:
        role, key, request, respond = idem
        status, response = respond(events)
        conn.execute(
            "INSERT INTO idempotency VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, role, key, request, status, json.dumps(response)),
        )

    def check_idempotency(
        self,
        game_id: str,
        role: str,
        key: str,
        request: str,
        *,
        conn: sqlite3.Connection | None = None,
    ) -> None:
        """Raise IdempotentReplay if this key was used; Conflict if with another request
        (`conn`: the transaction's, to see what it wrote)."""
        row = (
            (conn or self.db.conn)
            .execute(
                "SELECT request, status, response FROM idempotency"
                " WHERE game_id = ? AND role = ? AND key = ?",
                (game_id, role, key),
            )
            .fetchone()
        )
        if row is None:
            return
        if row[0] != request:
            raise Conflict(
                "idempotency/key_reused",
                "this Idempotency-Key was already used for a different command",
                {"field": "Idempotency-Key"},
            )
        raise IdempotentReplay(row[1], json.loads(row[2]))

    def save_snapshot(self, game_id: str, seq: int, state: Any, state_hash: str) -> None:
        """Cache a folded state (a cache only: it is checked against the log on read).
        Skipped when the store stays busy past `busy_seconds` or cannot be written: a
        read never fails for a cache (it may wait that long for one)."""
        row = (game_id, seq, canonical(state).decode("utf-8"), state_hash)
        try:
            with self.transaction() as conn:
                conn.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)", row)
        except (Busy, StoreFull, StoreUnavailable):
            return

    # --- reading -------------------------------------------------------------------

    def _tail(self, conn: sqlite3.Connection, game_id: str, expected: int) -> Tail:
        tail = self._tails.get(game_id)
        return tail if tail is not None and tail[0] == expected else self._last(conn, game_id)

    def _last(self, conn: sqlite3.Connection, game_id: str) -> Tail:
        row = conn.execute(
            "SELECT seq, hash, recorded_at FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if row is None:
            raise NotFound("game/not_found", f"no game {game_id!r}", {"game_id": game_id})
        return row[0], row[1], row[2]

    def version(self, game_id: str) -> int:
        """The last seq of a game."""
        return self._last(self.db.conn, game_id)[0]

    def events(self, game_id: str, *, after: int = 0, until: int | None = None) -> list[Event]:
        """A game's events with after < seq (<= until), in order."""
        last = MAX_SEQ if until is None else until
        cursor = self.db.execute(
            "SELECT event FROM events WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, after, last),
        )
        return [orjson.loads(row[0]) for row in cursor.fetchall()]

    def keep_upload(
        self,
        digest: str,
        log: bytes,
        now: int,
        *,
        client: str,
        total_bytes: int,
        client_bytes: int,
        seconds: int = 86400,
    ) -> None:
        """Keep an uploaded log for its replay page (a scratch copy, never a game) within
        budgets: each client's uploads together at most `client_bytes`, everyone's at
        most `total_bytes`, each upload counted with its row's cost; the oldest go first,
        and any older than `seconds`. TooLarge, storing nothing, for a log larger than
        one client may keep."""
        most = min(client_bytes, total_bytes) - UPLOAD_ROW_BYTES
        if len(log) > most:
            raise TooLarge(
                "replay/upload_too_large",
                f"this log ({len(log):,} bytes) is larger than one visitor may keep here"
                f" ({max(most, 0):,} bytes)",
                {"bytes": len(log), "most_bytes": max(most, 0)},
            )
        room = len(log) + UPLOAD_ROW_BYTES
        with self.transaction() as conn:  # room made first: the file grows by no more
            conn.execute("DELETE FROM uploads WHERE digest = ?", (digest,))  # sent again
            dropped = _evict(conn, "WHERE uploaded_at < ?", (now - seconds,), 0)
            dropped += _evict(conn, "WHERE client = ?", (client,), client_bytes - room)
            dropped += _evict(conn, "", (), total_bytes - room)
            conn.execute(
                "INSERT INTO uploads (digest, uploaded_at, client, bytes, log)"
                " VALUES (?, ?, ?, ?, ?)",
                (digest, now, client, len(log), log),
            )
        if len(log) + dropped >= WAL_TRUNCATE_BYTES:
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

    def upload(self, digest: str) -> bytes | None:
        """An uploaded log still kept, by the SHA-256 of its bytes."""
        row = self.db.execute("SELECT log FROM uploads WHERE digest = ?", (digest,)).fetchone()
        return bytes(row[0]) if row else None

    def last_hash(self, game_id: str) -> str | None:
        """The chain hash of a game's last event (which names the whole log so far)."""
        row = self.db.execute(
            "SELECT hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        return row[0] if row else None

    def log_lines(self, game_id: str) -> bytes:
        """A game's whole log as JSONL, straight from the stored canonical JSON."""
        cursor = self.db.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return b"".join(row[0].encode("utf-8") + b"\n" for row in cursor.fetchall())

    def state_hash_at(self, game_id: str, seq: int) -> str | None:
        """The state hash the log records after event `seq`."""
        row = self.db.execute(
            "SELECT state_hash FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
        return row[0] if row else None

    def latest_snapshot(self, game_id: str) -> tuple[int, Any, str] | None:
        """The newest cached (seq, state, state_hash), if any."""
        row = self.db.execute(
            "SELECT seq, state, state_hash FROM snapshots WHERE game_id = ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        return (row[0], json.loads(row[1]), row[2]) if row else None

    def seed(self, game_id: str) -> str:
        """A game's secret seed (never shown before the game ends)."""
        row = self.db.execute("SELECT seed FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound("game/not_found", f"no game {game_id!r}", {"game_id": game_id})
        return row[0]

    def posted(self, game_id: str) -> int:
        """The last event of the forum post last marked as posted (0: none yet)."""
        row = self.db.execute("SELECT since FROM posts WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] if row else 0

    def mark_posted(self, game_id: str, since: int, at: int) -> None:
        """The next forum post starts after event `since`."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO posts (game_id, since, marked_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET since = excluded.since,"
                " marked_at = excluded.marked_at",
                (game_id, since, at),
            )

    def role(self, token: str) -> tuple[str, str] | None:
        """The (game_id, role) an active token grants, or None."""
        row = self.db.execute(
            "SELECT game_id, role FROM tokens WHERE token_hash = ? AND active = 1",
            (token_hash(token),),
        ).fetchone()
        return (row[0], row[1]) if row else None

    def game_ids(self) -> list[str]:
        """Every stored game id, oldest first."""
        return [r[0] for r in self.db.execute("SELECT game_id FROM games ORDER BY rowid")]


def os_thread_local() -> threading.local:
    """Storage per OS thread, even in a process where gevent made `threading.local` per
    greenlet (a web process): a connection per greenlet would be a connection per open
    stream."""
    if "gevent.monkey" in sys.modules:
        from gevent import monkey

        return monkey.get_original("threading", "local")()
    return threading.local()


class ProcessLock:
    """One writing process at a time, by a lock file beside the database. SQLite's own
    busy handler sleeps 1, 2, 5, 10... ms between tries, so writers in two processes
    leave the write lock idle between commits; a process waiting here tries again every
    POLL seconds instead. The lock holds nothing itself: BEGIN IMMEDIATE still decides,
    so a writer that does not take this lock (another tool) is still kept out."""

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
                    raise _busy() from None
                time.sleep(self.POLL)

    def release(self) -> None:
        if self._held:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._held = False


@dataclass(eq=False)
class _Append:
    """One writer's append, waiting for the group commit that runs it."""

    game_id: str
    expected: int
    records: list[Event]
    idempotency: tuple[str, str, str, Callable[[list[Event]], tuple[int, Any]]] | None
    tokens: dict[str, str] | None
    due: dict[str, Any] | None
    fork: NewFork | None
    deadline: float  # time.monotonic() by which it must have the write lock, or Busy
    events: list[Event] | None = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def outcome(self) -> list[Event]:
        if self.error is not None:
            raise self.error
        assert self.events is not None
        return self.events


def _begin(conn: sqlite3.Connection, deadline: float, usual: float) -> None:
    """BEGIN IMMEDIATE, waiting for a writer that knows nothing of the lock file no later
    than `deadline` (SQLite's busy timeout set to what is left of it, then back to
    `usual` seconds for the connection's reads); Busy when it is still held."""
    conn.execute(f"PRAGMA busy_timeout = {int(_left(deadline) * 1000)}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise _busy() from exc
        raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(usual * 1000)}")


def _left(deadline: float) -> float:
    """Seconds until `deadline` (time.monotonic()), never below 0."""
    return max(0.0, deadline - time.monotonic())


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for a lock (SQLITE_BUSY or SQLITE_LOCKED)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def _evict(conn: sqlite3.Connection, where: str, args: tuple, budget: int) -> int:
    """Drop the oldest of the uploads `where` selects until the rest, with their rows'
    cost, fit in `budget`; the bytes dropped."""
    rows = conn.execute(
        "SELECT digest, bytes FROM (SELECT digest, bytes, SUM(bytes + ?) OVER"
        f" (ORDER BY uploaded_at DESC, rowid DESC) AS held FROM uploads {where})"
        " WHERE held > ?",
        (UPLOAD_ROW_BYTES, *args, budget),
    ).fetchall()
    conn.executemany("DELETE FROM uploads WHERE digest = ?", [(row[0],) for row in rows])
    return sum(row[1] for row in rows)


def _busy() -> Busy:
    return Busy(None, "the store is busy with another writer; nothing was written, send again")


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


def _row(event: Event) -> tuple:
    return (
        event["game_id"],
        event["seq"],
        event["type"],
        canonical(event["actor"]).decode(),
        canonical(event["visibility"]).decode(),
        event["state_hash"],
        event["recorded_at"],
        event["prev_hash"],
        event["hash"],
        canonical(event).decode(),
    )


class LogicalClock:
    """A clock for simulations: a fixed start, one millisecond later at each reading."""

    def __init__(self, start: datetime = datetime(2000, 1, 1, tzinfo=UTC)) -> None:
        self._now = start

    def __call__(self) -> str:
        now = self._now
        self._now += timedelta(milliseconds=1)
        return stamp(now)
