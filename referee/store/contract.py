"""The event store's contract, whatever holds it: append with an expected version (many
appends that arrive together committed as one), read, cache, and the indexes derived
from the log. A backend (sqlite.py, postgres.py) supplies the connections, the
transaction and what its errors mean; the SQL here is what both speak (`?` for a
parameter: the PostgreSQL backend writes it as psycopg's `%s`)."""

import hashlib
import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import orjson

from ..engine.canonical import canonical
from ..engine.chain import GENESIS, rechain, seal
from ..engine.errors import Busy, Conflict, NotFound, StoreFull, StoreUnavailable, TooLarge
from ..runtime.loop import beside_loop, on_loop

Event = dict[str, Any]
Tail = tuple[int, str, str]  # a game's last seq, its hash and its time
MAX_SEQ = 2**63 - 1  # the largest integer either database keeps
COLUMNS = (
    "game_id",
    "seq",
    "type",
    "actor",
    "visibility",
    "state_hash",
    "recorded_at",
    "prev_hash",
    "hash",
    "event",
)
# `event` holds the whole event as its canonical JSON (the log line); the other columns
# repeat its envelope so that SQL can find events without parsing them
INSERT_EVENT = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
# a game's open round; `armed` (a timed task was sent for its deadline) is kept while the
# round, its deadline and its running stand, else set as this append says (SET reads
# the row as it was)
MARK_ROUND = """
INSERT INTO rounds_due (game_id, round, deadline, ready, paused, armed)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (game_id) DO UPDATE SET
  armed = CASE
    WHEN excluded.armed = 1 THEN 1
    WHEN rounds_due.round = excluded.round AND rounds_due.deadline = excluded.deadline
      AND rounds_due.paused = 0 AND excluded.paused = 0 THEN rounds_due.armed
    ELSE 0 END,
  round = excluded.round,
  deadline = excluded.deadline,
  ready = excluded.ready,
  paused = excluded.paused
"""
# events inserted by one statement: within SQLite's oldest limit of 999 parameters
ROWS_PER_INSERT = 99
# how long a writer waits for the write lock in all (behind this process's writers, then
# another process's, then the database's) before the request is answered 503 store/busy
BUSY_SECONDS = 5.0
# how long a restore waits for a service just stopped to let go of its store (its
# sessions, its lock files), and how often it looks
CLOSING_SECONDS = 10.0
CLOSING_POLL = 0.05


def settled(look: Any, wait: float) -> Any:
    """`look()` asked every CLOSING_POLL seconds until it answers nothing (falsy) or
    `wait` seconds have passed; its last answer (what still holds, or nothing)."""
    deadline = time.monotonic() + wait
    while (held := look()) and time.monotonic() < deadline:
        time.sleep(CLOSING_POLL)
    return held


# a web process commits a batch in place (its event loop waits) when the disk flushes
# within SLOW_FLUSH seconds: the hop to a thread and back costs about as much; on a disk
# slower than that, beside the loop. One batch in PROBE_EVERY commits in place to measure
# the disk again (beside the loop, the thread's waits for the interpreter blur it)
SLOW_FLUSH = 0.0005
PROBE_EVERY = 100
SEEDS_KEPT = 10_000  # seeds a process keeps read (a few hundred KiB)
# what an upload's row costs beside its log (key, time, client, index entries): counted
# against the upload budgets, so that they bound the number of rows too
UPLOAD_ROW_BYTES = 1 << 10
log = logging.getLogger("referee.store")


class Conn(Protocol):
    """A connection inside a write transaction, as the contract's SQL uses it."""

    def execute(self, sql: str, args: Any = ..., /) -> Any: ...

    def executemany(self, sql: str, rows: Any, /) -> Any: ...


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


class StoredEvents(list[Event]):
    """The events an append stored, in order; `subscribed`: whether anyone was subscribed
    to the game (or to the fork the append opened) when they were committed."""

    subscribed = False


class IdempotentReplay(Exception):
    """The command was already recorded under this idempotency key."""

    def __init__(self, status: int, response: Any) -> None:
        super().__init__("idempotent replay")
        self.status, self.response = status, response


class EventStore(ABC):
    """Append-only, hash-chained events per game, unique per (game, seq), and what is
    derived from them; a backend says where they are kept."""

    # the expression that orders a table's rows as they were inserted
    INSERTION_ORDER = "rowid"
    # whether appends waiting in a process share one transaction: worth it where a commit
    # waits for the disk alone (SQLite's one writer); a server that commits transactions
    # side by side does better with a pooled transaction each (docs/performance.md)
    GROUP_COMMIT = True

    def __init__(
        self,
        where: str,
        *,
        clock: Callable[[], str] = wall_clock,
        busy_seconds: float = BUSY_SECONDS,
    ) -> None:
        self.where = where  # what the operator named: a file or a server (never a password)
        self.clock = clock
        self.busy_seconds = busy_seconds
        self.before_commit: Callable[[], None] | None = None  # a test's fault injection
        # why the last write failed for the disk's sake (StoreFull, StoreUnavailable);
        # None once a write succeeds: what readiness reports
        self.trouble: StoreFull | StoreUnavailable | None = None
        # queues this process's writers; the database still decides every conflict
        self._write_lock = threading.Lock()
        # the last (seq, hash) this process wrote per game: saves a read when it is the
        # version the writer expects; if another process wrote since, the unique
        # (game, seq) key refuses the insert and the entry is dropped
        self._tails: dict[str, Tail] = {}
        self._seeds: dict[str, str] = {}  # seeds read, by game
        # appends waiting for the write lock: the writer that leads commits them all; a
        # writer whose append was committed returns at once, not behind the next batch
        self._waiting: list[_Append] = []
        self._turn = threading.Condition(threading.Lock())
        self._committing = False
        self._batches = 0
        self._beside = False  # batches commit beside the event loop: the disk is slow
        # how long the last commit took to reach the disk, where the backend measures it
        self.flush_seconds = 0.0

    # --- what a backend supplies ----------------------------------------------------

    @abstractmethod
    def transaction(self, *, deadline: float | None = None) -> AbstractContextManager[Conn]:
        """A write transaction, committed at the end and rolled back on any error; Busy
        (nothing written) if it cannot begin by `deadline` (time.monotonic())."""

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[Conn]:
        """A connection of its own in one read-only transaction: every read through it
        sees the store as it was when the block began, whatever is written meanwhile."""

    def file_copy(self, path: str | Path) -> bool:
        """Copy the whole store, as it is at one moment, into a new SQLite file at `path`
        by pages, where the backend keeps one; False where it cannot (the caller copies
        a snapshot row by row instead)."""
        return False

    @abstractmethod
    def _batch(self, deadline: float) -> AbstractContextManager[Conn]:
        """The transaction a group commit runs in (the write lock held)."""

    @abstractmethod
    def query(self, sql: str, args: tuple | dict = ()) -> list[tuple]:
        """Every row a read returns (a connection of this thread's, or the pool's)."""

    @abstractmethod
    def columns(self, sql: str, args: tuple = ()) -> list[dict[str, Any]]:
        """Every row a read returns, by column name."""

    @abstractmethod
    def is_clash(self, exc: BaseException) -> bool:
        """Whether an error is a unique key refusing a row (another writer was first)."""

    @abstractmethod
    def is_fatal(self, exc: BaseException) -> bool:
        """Whether an error inside an append's savepoint undid the whole transaction (the
        disk refused, the connection broke): the batch fails, not the one append."""

    @abstractmethod
    def probe_write(self) -> None:
        """Take a write transaction and let it go (Busy if it cannot); once a write was
        refused for the disk's sake, write something and take it back, so that the
        probe fails while the store still refuses."""

    @abstractmethod
    def disk_space(self) -> tuple[int, int] | None:
        """(free, total) bytes where the store keeps its files; None when unknown here."""

    @abstractmethod
    def close(self) -> None:
        """Let go of every connection (a process that forks or ends)."""

    @abstractmethod
    def after_upload(self, moved: int) -> None:
        """Give back what keeping or evicting `moved` bytes of uploads left behind."""

    def shared_secret(self, name: str) -> str | None:
        """A secret every machine serving this store shares (the pages' session key),
        made once; None when the store keeps none (a SQLite file: its machine keeps the
        key in a file beside it)."""
        return None

    def query_one(self, sql: str, args: tuple = ()) -> tuple | None:
        rows = self.query(sql, args)
        return rows[0] if rows else None

    def deadline(self, given: float | None = None) -> float:
        """When a write asked now must have the write lock (time.monotonic()), or Busy:
        `busy_seconds` from now, unless the caller started waiting earlier."""
        return given if given is not None else time.monotonic() + self.busy_seconds

    def _refused(
        self, failure: StoreFull | StoreUnavailable, cause: Exception | None = None
    ) -> None:
        """Remember why writes fail; the log says so once, when they start failing."""
        if self.trouble is None:
            said = f"{failure.message} ({cause})" if cause else failure.message
            on_loop(log.error, "writes to %s are refused: %s", self.where, said)
        self.trouble = failure

    def _recovered(self) -> None:
        if self.trouble is not None:
            on_loop(log.warning, "writes to %s succeed again", self.where)
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

    def _insert_game(self, conn: Conn, game_id: str, ruleset: str, seed: str) -> None:
        conn.execute(
            "INSERT INTO games (game_id, ruleset, seed, created_at) VALUES (?, ?, ?, ?)",
            (game_id, ruleset, seed, self.clock()),
        )

    def _issue(self, conn: Conn, game_id: str, tokens: dict[str, str]) -> None:
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
    ) -> StoredEvents:
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
        if not self.GROUP_COMMIT:
            self._commit_alone(job, self.transaction(deadline=job.deadline))
            self._remember_tail(job)
            return job.outcome()
        with self._turn:
            self._waiting.append(job)
            while self._committing and not job.done:
                if not self._turn.wait(timeout=left(job.deadline)):
                    if job in self._waiting:  # no writer took it: nothing was written
                        self._waiting.remove(job)
                        raise busy()
                    break  # taken: its batch commits by the batch's first deadline
            leading = not job.done and job in self._waiting
            self._committing = self._committing or leading
        if not leading:
            with self._turn:  # its batch is being committed: the leader tells when
                while not job.done:
                    self._turn.wait()
            return job.outcome()
        try:
            self._lead(job)
        finally:
            with self._turn:  # the writers of this batch return, the next batch forms
                self._committing = False
                self._turn.notify_all()
        return job.outcome()

    def _lead(self, job: "_Append") -> None:
        """Commit every waiting append, `job`'s among them, once the write lock is had
        (by `job`'s deadline, else `job` alone is refused and the others wait on)."""
        if not self._write_lock.acquire(timeout=left(job.deadline)):
            with self._turn:
                if job in self._waiting:
                    self._waiting.remove(job)
            job.error = busy()
            job.done = True
            return
        try:
            self._commit_waiting()
        finally:
            self._write_lock.release()

    def _commit_waiting(self) -> None:
        """Every waiting append in one transaction (the write lock held). In a web
        process on a slow disk, beside the event loop, which serves meanwhile: while the
        disk flushes one batch, the process reads and decides the commands of the next."""
        with self._turn:
            batch, self._waiting = self._waiting, []
        self._batches += 1
        probe = self._batches % PROBE_EVERY == 1  # the first, then one in PROBE_EVERY
        try:
            if self._beside and not probe:
                beside_loop(self._commit_batch, batch)
            else:
                self.flush_seconds = 0.0
                self._commit_batch(batch)
                self._beside = self.flush_seconds > SLOW_FLUSH
        finally:
            for job in batch:
                self._remember_tail(job)
                job.done = True

    def _commit_batch(self, batch: list["_Append"]) -> None:
        """A batch's transaction, its appends in the order of their games: two processes'
        batches take the games' rows in one order. One alone needs no savepoint."""
        # the batch waits no longer than its earliest writer may
        deadline = min(job.deadline for job in batch)
        if len(batch) == 1:
            self._commit_alone(batch[0], self._batch(deadline))
            return
        try:
            with self._batch(deadline) as conn:
                for job in sorted(batch, key=lambda job: job.game_id):
                    self._run(conn, job)
        except BaseException as exc:  # nothing of the batch was written
            for job in batch:
                job.events, job.error = None, exc

    def _commit_alone(self, job: "_Append", transaction: AbstractContextManager[Conn]) -> None:
        """One append in a transaction of its own; what its writer is told if it fails."""
        try:
            with transaction as conn:
                job.events = self._append_in(conn, job)
        except Exception as exc:  # noqa: BLE001 - the writer gets it
            job.events = None
            job.error = self._refusal(None, job, exc)

    def _remember_tail(self, job: "_Append") -> None:
        if job.events:
            end = job.events[-1]
            self._tails[job.game_id] = (end["seq"], end["hash"], end["recorded_at"])

    def _run(self, conn: Conn, job: "_Append") -> None:
        """One append inside the batch's transaction, undone alone if it fails."""
        conn.execute("SAVEPOINT append")
        try:
            job.events = self._append_in(conn, job)
            conn.execute("RELEASE SAVEPOINT append")
        except Exception as exc:  # noqa: BLE001 - the writer gets it after the commit
            if self.is_fatal(exc):
                raise  # the disk or the connection failed: the batch fails
            conn.execute("ROLLBACK TO SAVEPOINT append")
            conn.execute("RELEASE SAVEPOINT append")
            job.error = self._refusal(conn, job, exc)

    def _append_in(self, conn: Conn, job: "_Append") -> StoredEvents:
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
        events = StoredEvents(self._insert(conn, game_id, last, prev, job.records, since))
        if job.tokens:
            self._issue(conn, game_id, job.tokens)
        self._mark_due(conn, game_id, job.due)
        if job.fork:
            self._store_fork(conn, game_id, job.fork)
        if idempotency:
            self._remember(conn, game_id, idempotency, events)
        events.subscribed = self._subscribed(conn, game_id, job.fork)
        return events

    def _subscribed(self, conn: Conn, game_id: str, fork: NewFork | None) -> bool:
        """Whether the game (or the fork the append opened, which its subscriptions moved
        to) has an active subscription, as this transaction commits: read here, with
        what is read anyway, rather than in a read of its own after every command."""
        games = (game_id,) if fork is None else (game_id, fork.game_id)
        return any(  # one game at a time: an IN list costs SQLite a table of its own
            conn.execute(
                "SELECT 1 FROM subscriptions WHERE game_id = ? AND active = 1 LIMIT 1", (game,)
            ).fetchone()
            for game in games
        )

    def _refusal(self, conn: Conn | None, job: "_Append", exc: Exception) -> Exception:
        """What a failed append tells its writer: a unique-key clash is a conflict (or the
        recorded answer of the twin request that won; `conn`: the batch's transaction, or
        None after a rollback)."""
        if not self.is_clash(exc):
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

    def _store_fork(self, conn: Conn, original: str, fork: NewFork) -> None:
        self._insert_game(conn, fork.game_id, fork.ruleset, fork.seed)
        copies = rechain(fork.copied, fork.game_id)
        conn.executemany(INSERT_EVENT, [event_row(copy) for copy in copies])
        end = copies[-1]
        self._insert(conn, fork.game_id, len(copies), end["hash"], fork.records, end["recorded_at"])
        conn.execute(
            "INSERT INTO forks (game_id, forked_from, at) VALUES (?, ?, ?)",
            (fork.game_id, original, len(fork.copied)),
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
                conn.executemany(INSERT_EVENT, [event_row(event) for event in events])
                self._mark_due(conn, game_id, due)
        except Exception as exc:
            if not self.is_clash(exc):
                raise
            raise Conflict("import/exists", f"a game {game_id!r} is stored already", {}) from None

    def forked_from(self, game_id: str) -> str | None:
        """The game a fork continues, or None."""
        row = self.query_one("SELECT forked_from FROM forks WHERE game_id = ?", (game_id,))
        return row[0] if row else None

    def _insert(
        self,
        conn: Conn,
        game_id: str,
        last: int,
        prev: str,
        records: list[Event],
        since: str = "",
    ) -> list[Event]:
        """Seal and insert records after seq `last` (hash `prev`, time `since`), in one
        statement. Times never go backwards within a game: a clock stepped back (NTP)
        stamps the previous event's time again, so the log stays in order for its
        verifier."""
        events = []
        for offset, record in enumerate(records, start=1):
            if record["seq"] != last + offset:
                raise Conflict("store/seq_gap", f"seq {record['seq']} does not follow {last}", {})
            since = max(self.clock(), since)
            event = seal(record, game_id, prev, since)
            events.append(event)
            prev = event["hash"]
        for start in range(0, len(events), ROWS_PER_INSERT):
            rows = [event_row(event) for event in events[start : start + ROWS_PER_INSERT]]
            marks = ", ".join([f"({', '.join('?' * len(COLUMNS))})"] * len(rows))
            conn.execute(
                f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES {marks}",
                tuple(value for row in rows for value in row),
            )
        return events

    def _mark_due(self, conn: Conn, game_id: str, due: dict | None) -> None:
        if due is None:
            return
        if "bots" in due:
            self._mark_bots(conn, game_id, due["bots"])
        if "clocks" in due:
            self._mark_clocks(conn, game_id, due["clocks"])
            return
        if "round" not in due:  # a game in turns that has bots, and no clock
            return
        if due["round"] is None:
            conn.execute("DELETE FROM rounds_due WHERE game_id = ?", (game_id,))
            return
        row = (game_id, due["round"], due["deadline"], int(due["ready"]), int(due["paused"]))
        conn.execute(MARK_ROUND, (*row, int(due.get("armed", False))))

    def _mark_clocks(self, conn: Conn, game_id: str, clocks: list[dict]) -> None:
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
                    "INSERT INTO clocks_due (game_id, seat, deadline, armed) VALUES (?, ?, ?, ?)",
                    (game_id, seat, clock["deadline"], int(clock.get("armed", False))),
                )

    def _mark_bots(self, conn: Conn, game_id: str, bots: dict) -> None:
        """The bot moves a game asks for now: a row per seat, at this version, sent at
        `at` (the rows of an earlier version go: their moves were made or are stale)."""
        conn.execute("DELETE FROM bots_due WHERE game_id = ?", (game_id,))
        rows = [(game_id, seat, bots["version"], bots["at"]) for seat in bots["seats"]]
        if rows:
            conn.executemany(
                "INSERT INTO bots_due (game_id, seat, version, sent_at) VALUES (?, ?, ?, ?)", rows
            )

    def resend_bots(self, now: int, *, grace: int) -> list[tuple[str, int, int]]:
        """(game, version, seat) of the bot moves sent more than `grace` seconds ago and
        not made since, marked as sent again now (a write transaction is taken only when
        there are some; of two sweeps at once, each row goes to one)."""
        lost = "sent_at <= ?"
        if not self.query(f"SELECT 1 FROM bots_due WHERE {lost} LIMIT 1", (now - grace,)):
            return []
        with self.transaction() as conn:
            rows = conn.execute(
                f"UPDATE bots_due SET sent_at = ? WHERE {lost} RETURNING game_id, version, seat",
                (now, now - grace),
            ).fetchall()
        return sorted((row[0], row[1], row[2]) for row in rows)

    def due_clocks(self, now: int, *, grace: int = 0) -> list[tuple[str, int, int]]:
        """(game, seat, deadline) of every running clock whose deadline has passed; an
        armed one only once it passed `grace` seconds ago (its timed task runs first)."""
        rows = self.query(
            "SELECT game_id, seat, deadline FROM clocks_due"
            " WHERE deadline <= ? AND (armed = 0 OR deadline <= ?)"
            " ORDER BY deadline, game_id, seat",
            (now, now - grace),
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def arm_clocks(self, now: int, until: int) -> list[tuple[str, int, int]]:
        """(game, seat, deadline) of the running clocks due after `now` and by `until`
        that no timed task was sent for yet, marked as sent now (a write transaction is
        taken only when there are some: a sweep that finds none writes nothing)."""
        return self._arm("clocks_due", "seat", "armed = 0", now, until)

    def arm_rounds(self, now: int, until: int) -> list[tuple[str, int, int]]:
        """(game, round, deadline) of the open rounds, neither closed nor paused, due after
        `now` and by `until` that no timed task was sent for yet, marked as sent now (a
        write transaction is taken only when there are some)."""
        return self._arm(
            "rounds_due", "round", "armed = 0 AND ready = 0 AND paused = 0", now, until
        )

    def _arm(
        self, table: str, what: str, unarmed: str, now: int, until: int
    ) -> list[tuple[str, int, int]]:
        """Mark the unarmed rows of `table` due after `now` and by `until` as armed; those
        this call marked (of two sweeps at once, each row goes to one)."""
        armable = f"{unarmed} AND deadline > ? AND deadline <= ?"
        if not self.query(f"SELECT 1 FROM {table} WHERE {armable} LIMIT 1", (now, until)):
            return []
        with self.transaction() as conn:
            rows = conn.execute(
                f"UPDATE {table} SET armed = 1 WHERE {armable} RETURNING game_id, {what}, deadline",
                (now, until),
            ).fetchall()
        return sorted((row[0], row[1], row[2]) for row in rows)

    def due_rounds(self, now: int, *, grace: int = 0) -> list[tuple[str, int]]:
        """(game, round) of every open round that is closed or past its deadline, unpaused;
        an armed one only once its deadline passed `grace` seconds ago (its timed task
        runs first)."""
        rows = self.query(
            "SELECT game_id, round FROM rounds_due WHERE paused = 0 AND (ready = 1"
            " OR deadline <= ? AND (armed = 0 OR deadline <= ?)) ORDER BY deadline, game_id",
            (now, now - grace),
        )
        return [(row[0], row[1]) for row in rows]

    def oldest_overdue(self, now: int) -> tuple[int, int] | None:
        """(how many, the earliest deadline) of the unpaused rounds past their deadline or
        closed and not yet resolved; None when there are none."""
        row = self.query_one(
            "SELECT COUNT(*), MIN(deadline) FROM rounds_due"
            " WHERE paused = 0 AND (ready = 1 OR deadline <= ?)",
            (now,),
        )
        return (row[0], row[1]) if row and row[0] else None

    def _remember(self, conn: Conn, game_id: str, idem: tuple, events: list) -> None:
        role, key, request, respond = idem
        status, response = respond(events)
        conn.execute(
            "INSERT INTO idempotency (game_id, role, key, request, status, response)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, role, key, request, status, json.dumps(response)),
        )

    def check_idempotency(
        self,
        game_id: str,
        role: str,
        key: str,
        request: str,
        *,
        conn: Conn | None = None,
    ) -> None:
        """Raise IdempotentReplay if this key was used; Conflict if with another request
        (`conn`: the transaction's, to see what it wrote)."""
        sql = (
            "SELECT request, status, response FROM idempotency"
            " WHERE game_id = ? AND role = ? AND key = ?"
        )
        args = (game_id, role, key)
        row = conn.execute(sql, args).fetchone() if conn is not None else self.query_one(sql, args)
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
                conn.execute(
                    "INSERT INTO snapshots (game_id, seq, state, state_hash) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state,"
                    " state_hash = excluded.state_hash",
                    row,
                )
        except (Busy, StoreFull, StoreUnavailable):
            return

    # --- reading -------------------------------------------------------------------

    def _tail(self, conn: Conn, game_id: str, expected: int) -> Tail:
        tail = self._tails.get(game_id)
        return tail if tail is not None and tail[0] == expected else self._last(conn, game_id)

    def _last(self, conn: Conn | None, game_id: str) -> Tail:
        sql = (
            "SELECT seq, hash, recorded_at FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1"
        )
        row = (
            conn.execute(sql, (game_id,)).fetchone()
            if conn is not None
            else self.query_one(sql, (game_id,))
        )
        if row is None:
            raise NotFound("game/not_found", f"no game {game_id!r}", {"game_id": game_id})
        return row[0], row[1], row[2]

    def version(self, game_id: str) -> int:
        """The last seq of a game."""
        return self._last(None, game_id)[0]

    def events(self, game_id: str, *, after: int = 0, until: int | None = None) -> list[Event]:
        """A game's events with after < seq (<= until), in order."""
        last = MAX_SEQ if until is None else until
        rows = self.query(
            "SELECT event FROM events WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, after, last),
        )
        return [orjson.loads(row[0]) for row in rows]

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
            dropped = self._evict(conn, "WHERE uploaded_at < ?", (now - seconds,), 0)
            dropped += self._evict(conn, "WHERE client = ?", (client,), client_bytes - room)
            dropped += self._evict(conn, "", (), total_bytes - room)
            conn.execute(
                "INSERT INTO uploads (digest, uploaded_at, client, bytes, log)"
                " VALUES (?, ?, ?, ?, ?)",
                (digest, now, client, len(log), log),
            )
        self.after_upload(len(log) + dropped)

    def _evict(self, conn: Conn, where: str, args: tuple, budget: int) -> int:
        """Drop the oldest of the uploads `where` selects until the rest, with their rows'
        cost, fit in `budget`; the bytes dropped."""
        rows = conn.execute(
            "SELECT digest, bytes FROM (SELECT digest, bytes, SUM(bytes + ?) OVER"
            f" (ORDER BY uploaded_at DESC, {self.INSERTION_ORDER} DESC) AS held"
            f" FROM uploads {where}) AS kept WHERE held > ?",
            (UPLOAD_ROW_BYTES, *args, budget),
        ).fetchall()
        if rows:
            conn.executemany("DELETE FROM uploads WHERE digest = ?", [(row[0],) for row in rows])
        return sum(row[1] for row in rows)

    def upload(self, digest: str) -> bytes | None:
        """An uploaded log still kept, by the SHA-256 of its bytes."""
        row = self.query_one("SELECT log FROM uploads WHERE digest = ?", (digest,))
        return bytes(row[0]) if row else None

    def last_hash(self, game_id: str) -> str | None:
        """The chain hash of a game's last event (which names the whole log so far)."""
        row = self.query_one(
            "SELECT hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        )
        return row[0] if row else None

    def log_lines(self, game_id: str) -> bytes:
        """A game's whole log as JSONL, straight from the stored canonical JSON."""
        rows = self.query("SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return b"".join(row[0].encode("utf-8") + b"\n" for row in rows)

    def state_hash_at(self, game_id: str, seq: int) -> str | None:
        """The state hash the log records after event `seq`."""
        row = self.query_one(
            "SELECT state_hash FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
        )
        return row[0] if row else None

    def latest_snapshot(
        self, game_id: str, *, until: int | None = None
    ) -> tuple[int, Any, str] | None:
        """The newest cached (seq, state, state_hash), if any (at or before seq `until`)."""
        row = self.query_one(
            "SELECT seq, state, state_hash FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, MAX_SEQ if until is None else until),
        )
        return (row[0], json.loads(row[1]), row[2]) if row else None

    def seed(self, game_id: str) -> str:
        """A game's secret seed (never shown before the game ends); a seed never changes,
        so a process reads it once."""
        seed = self._seeds.get(game_id)
        if seed is None:
            row = self.query_one("SELECT seed FROM games WHERE game_id = ?", (game_id,))
            if row is None:
                raise NotFound("game/not_found", f"no game {game_id!r}", {"game_id": game_id})
            if len(self._seeds) >= SEEDS_KEPT:
                self._seeds.clear()
            seed = self._seeds[game_id] = row[0]
        return seed

    def posted(self, game_id: str) -> int:
        """The last event of the forum post last marked as posted (0: none yet)."""
        row = self.query_one("SELECT since FROM posts WHERE game_id = ?", (game_id,))
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
        row = self.query_one(
            "SELECT game_id, role FROM tokens WHERE token_hash = ? AND active = 1",
            (token_hash(token),),
        )
        return (row[0], row[1]) if row else None

    def game_ids(self) -> list[str]:
        """Every stored game id, oldest first."""
        rows = self.query(f"SELECT game_id FROM games ORDER BY {self.INSERTION_ORDER}")
        return [row[0] for row in rows]


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
    events: StoredEvents | None = None
    error: BaseException | None = None
    done: bool = False  # committed or refused: read and waited for under the store's _turn

    def outcome(self) -> StoredEvents:
        if self.error is not None:
            raise self.error
        assert self.events is not None
        return self.events


def left(deadline: float) -> float:
    """Seconds until `deadline` (time.monotonic()), never below 0."""
    return max(0.0, deadline - time.monotonic())


def busy() -> Busy:
    return Busy(None, "the store is busy with another writer; nothing was written, send again")


def event_row(event: Event) -> tuple:
    """An event as the events table holds it, in COLUMNS order."""
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
