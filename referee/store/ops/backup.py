"""Backups: one SQLite file holding a store as it was at one moment, whichever backend
held it, with its manifest inside (when it was taken, from where, and each game's number
of events and last hash). A SQLite store is copied page by page (SQLite's online
backup); a PostgreSQL store is read in one REPEATABLE READ transaction and copied row by
row. Either restores into either backend (restore.py); `check` verifies one in place."""

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from ...engine.errors import BadRequest, Conflict, NotFound
from ..contract import EventStore, wall_clock
from ..sqlite import SqliteStore
from ..sqlite_files import new_file
from .copy import copy_into
from .damage import bytes_reader, problems_of, value_problem
from .logs import Damaged, Step, Verified, unexpected, verify_logs
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
    path = _named(dest)
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
    """Verify a backup where it is: its bytes what `referee backup` writes (damage.py),
    every log valid, and the games, their events and their last hashes those of its
    manifest."""
    manifest = read_manifest(path)
    problems = problems_of(path)
    if problems:
        return manifest, Verified(problems=problems)
    backup = SqliteStore(path, create=False)
    with backup.snapshot() as conn:
        read = through(conn)
        verified = verify_logs(read, manifest.games, step=step, what="manifest")
        found = game_tails(read, backup.INSERTION_ORDER)
    verified.problems += unexpected(found, manifest.games, "manifest")
    return manifest, verified


def read_manifest(path: str | Path) -> Manifest:
    """A backup's manifest; NotFound for no file, BadRequest for a file with none, and
    Damaged for one SQLite or this referee cannot read back."""
    if not Path(path).is_file():
        raise NotFound("backup/not_found", f"no such backup: {path}", {"path": str(path)})
    try:
        with closing(bytes_reader(path)) as conn:
            if not conn.execute(HAS_MANIFEST).fetchone():
                raise _no_manifest(path)
            head = conn.execute(HEAD).fetchall()
            rows = conn.execute(GAMES).fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # (its message, not UTF-8)
        if not _sqlite_file(path):
            raise _no_manifest(path) from None
        raise damaged(path, [f"the file: SQLite cannot read it ({exc})"]) from None
    return _manifest(path, head, rows)


HAS_MANIFEST = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup'"
# each value with its type, as damage.value_problem takes them
HEAD = """SELECT typeof(format), format, typeof(taken_at), taken_at, typeof(source), source,
  typeof(referee), referee, typeof(games), games, typeof(events), events FROM backup"""
GAMES = """SELECT typeof(game_id), game_id, typeof(events), events, typeof(last_hash), last_hash
FROM backup_games ORDER BY rowid"""
HEAD_TYPES = ("integer", "text", "text", "text", "integer", "integer")
GAMES_TYPES = ("text", "integer", "text")


def _no_manifest(path: str | Path) -> BadRequest:
    return BadRequest(
        "backup/no_manifest",
        f"{path} is not a backup made by `referee backup` (it holds no manifest)",
        {"path": str(path)},
    )


def _sqlite_file(path: str | Path) -> bool:
    with open(path, "rb") as file:
        return file.read(16) == b"SQLite format 3\0"


def _manifest(path: str | Path, head: list[tuple], rows: list[tuple]) -> Manifest:
    """The manifest from its rows as stored (each value after its type, text as bytes),
    or Damaged naming what is wrong in it."""
    if len(head) != 1:
        raise damaged(path, [f"the manifest, table backup: {len(head)} rows, not one"])
    problems = _typed_problems("table backup", head[0], HEAD_TYPES, nulls=False)
    for number, row in enumerate(rows, start=1):
        place = f"table backup_games, row {number}"
        problems += _typed_problems(place, row[:4], GAMES_TYPES[:2], nulls=False)
        problems += _typed_problems(place, row[4:], GAMES_TYPES[2:], nulls=True)
    if problems:
        raise damaged(path, [f"the manifest, {problem}" for problem in problems])
    fmt, taken_at, source, _referee, count, events = head[0][1::2]
    games = {
        game_id.decode(): (held, None if last is None else last.decode())
        for game_id, held, last in (row[1::2] for row in rows)
    }
    said = (fmt <= FORMAT, count == len(games), events == sum(e for e, _ in games.values()))
    if not all(said):
        raise damaged(path, ["the manifest, table backup: its format or counts are not its games'"])
    return Manifest(taken_at=taken_at.decode(), source=source.decode(), games=games)


def _typed_problems(place: str, row: tuple, kinds: tuple, *, nulls: bool) -> list[str]:
    problems = []
    for kind, held, value in zip(kinds, row[::2], row[1::2], strict=True):
        if held.decode() == "null" and not nulls:
            problems.append(f"{place}: a value is missing")
        elif problem := value_problem(kind, held.decode(), value):
            problems.append(f"{place}: {problem}")
    return problems


def damaged(path: str | Path, problems: list[str]) -> Damaged:
    """The refusal of a backup that is not what `referee backup` wrote."""
    return Damaged(
        None,
        f"{path} is damaged ({len(problems)} problems): nothing was read from it",
        {"problems": problems},
    )


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


def _named(dest: str | Path) -> Path:
    """The file a backup goes to: `dest`, or a file named by the time in the folder `dest`
    (one that is there, or one named with a trailing slash, made if it is not)."""
    folder = Path(dest)
    if str(dest).endswith(os.sep) and not folder.is_dir():
        if folder.exists():
            raise Conflict("backup/not_a_folder", f"{dest} is a file, not a folder", {})
        folder.mkdir(mode=0o700, parents=True)
    if folder.is_dir():
        return folder / NAME.format(datetime.now(UTC))
    return folder
