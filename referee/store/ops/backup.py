"""Backups: one SQLite file holding a store as it was at one moment, whichever backend
held it, with its manifest inside (when it was taken, from where, and each game's number
of events and last hash). A SQLite store is copied page by page (SQLite's online
backup); a PostgreSQL store is read in one REPEATABLE READ transaction and copied row by
row. Either restores into either backend (restore.py); `check` verifies one in place."""

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from ...engine.errors import BadRequest, Conflict, NotFound
from ..contract import EventStore, wall_clock
from ..sqlite import SqliteStore
from ..sqlite_files import new_file
from .copy import copy_into
from .logs import Step, Verified, unexpected, verify_logs
from .tables import Tail, game_tails, through

FORMAT = 1  # the manifest's shape; a later referee reads every earlier one
MANIFEST = """
CREATE TABLE backup (
    format INTEGER NOT NULL, taken_at TEXT NOT NULL, source TEXT NOT NULL,
    referee TEXT NOT NULL, games INTEGER NOT NULL, events INTEGER NOT NULL
);
CREATE TABLE backup_games (game_id TEXT PRIMARY KEY, events INTEGER NOT NULL, last_hash TEXT);
"""
# a backup taken into a folder is named by the time it was taken
NAME = "referee-{:%Y%m%dT%H%M%SZ}.db"


@dataclass(frozen=True)
class Manifest:
    """What a backup holds: every game's number of events and last hash, in the order the
    store took them, and everything acknowledged before `taken_at`."""

    taken_at: str
    source: str
    games: dict[str, Tail]

    @property
    def events(self) -> int:
        return sum(events for events, _ in self.games.values())


def take(store: EventStore, dest: str | Path, *, step: Step | None = None) -> tuple[Path, Manifest]:
    """Back `store` up into a new file `dest` (into a folder: a file named by the time);
    the file appears whole or not at all, and never replaces one that is there."""
    path = _named(Path(dest))
    if path.exists():
        raise Conflict("backup/exists", f"{path} is there already: name a new file", {})
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    partial.unlink(missing_ok=True)
    try:
        taken_at = wall_clock()  # before the snapshot: all acknowledged by then is in it
        if not store.file_copy(partial):
            with store.snapshot() as conn, new_file(partial) as copy:
                copy_into(through(conn), store.INSERTION_ORDER, copy, step=step)
        manifest = _write_manifest(partial, taken_at, store.where)
        if path.exists():  # another backup took the name meanwhile
            raise Conflict("backup/exists", f"{path} is there already: name a new file", {})
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path, manifest


def check(path: str | Path, *, step: Step | None = None) -> tuple[Manifest, Verified]:
    """Verify a backup where it is: every log valid, and the games, their events and their
    last hashes those of its manifest."""
    manifest = read_manifest(path)
    backup = SqliteStore(path, create=False)
    with backup.snapshot() as conn:
        read = through(conn)
        verified = verify_logs(read, manifest.games, step=step, what="manifest")
        found = game_tails(read, backup.INSERTION_ORDER)
    verified.problems += unexpected(found, manifest.games, "manifest")
    return manifest, verified


def read_manifest(path: str | Path) -> Manifest:
    """A backup's manifest; NotFound for no file, BadRequest for a file with none."""
    if not Path(path).is_file():
        raise NotFound("backup/not_found", f"no such backup: {path}", {"path": str(path)})
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            head = conn.execute("SELECT taken_at, source FROM backup").fetchone()
            rows = conn.execute(
                "SELECT game_id, events, last_hash FROM backup_games ORDER BY rowid"
            )
            games = {row[0]: (row[1], row[2]) for row in rows}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        head = None
    if head is None:
        raise BadRequest(
            "backup/no_manifest",
            f"{path} is not a backup made by `referee backup` (it holds no manifest)",
            {"path": str(path)},
        )
    return Manifest(taken_at=head[0], source=head[1], games=games)


def _write_manifest(path: Path, taken_at: str, source: str) -> Manifest:
    """The manifest of the copy at `path`, counted from the copy itself, written into it."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        games = game_tails(through(conn), "rowid")
        manifest = Manifest(taken_at=taken_at, source=source, games=games)
        conn.executescript(MANIFEST)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO backup VALUES (?, ?, ?, ?, ?, ?)",
            (FORMAT, taken_at, source, version("referee"), len(games), manifest.events),
        )
        conn.executemany(
            "INSERT INTO backup_games VALUES (?, ?, ?)",
            [(game_id, events, last) for game_id, (events, last) in games.items()],
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return manifest


def _named(dest: Path) -> Path:
    """The file a backup goes to: `dest`, or a file named by the time in the folder `dest`."""
    if dest.is_dir():
        return dest / NAME.format(datetime.now(UTC))
    return dest
