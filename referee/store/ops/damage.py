"""What a backup may hold that verifying its logs does not see, found from its bytes
before anything is read from it as a store: pages SQLite cannot read back, a value of
another type than its column's or text that no store writes (not UTF-8, or with a NUL,
which PostgreSQL refuses), an event whose columns say other than its JSON (the store
chains the next event to the `hash` column), a game whose seed or ruleset is not the
one its log committed to, and a cached state that is not the one its event sealed.

Each problem names the table, the game, the seq where there is one, and the column."""

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import orjson
import sqlite_utils

from replays.log import LogLineError, parse

from ...engine.canonical import canonical, digest
from ...engine.rng import commitment
from .. import schema
from ..contract import COLUMNS, event_row
from ..migrations import migrations
from .tables import GAME_TABLES, UPLOADS

SHOWN = 64  # characters of a damaged value a problem quotes
MOST = 20  # problems listed: past the first, the rest of a damaged file says little more
# SQLite's name for each declared type, as typeof() gives a value of it
TYPES = {"TEXT": "text", "INTEGER": "integer", "BLOB": "blob", "FLOAT": "real", "REAL": "real"}


def problems_of(path: str | Path) -> list[str]:
    """Every problem found in the backup at `path` (at most MOST), none for a sound one."""
    try:
        with closing(bytes_reader(path)) as conn:
            found = _pages(conn) or _values(conn)
            if not found:
                found = list(_events(conn)) + list(_games(conn)) + list(_snapshots(conn))
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # (a message not UTF-8)
        found = [f"the file: SQLite cannot read it ({exc})"]
    return found[:MOST]


def bytes_reader(path: str | Path) -> sqlite3.Connection:
    """A read-only connection giving text as the bytes stored, never decoding them."""
    conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True)
    conn.text_factory = bytes
    return conn


def _pages(conn: sqlite3.Connection) -> list[str]:
    """SQLite's own check of every page, index and constraint of the file."""
    said = [row[0].decode("utf-8", "replace") for row in conn.execute("PRAGMA integrity_check")]
    return [] if said == ["ok"] else [f"the file: {line}" for line in said]


def _values(conn: sqlite3.Connection) -> list[str]:
    """Every value of every copied table of the type its column is made with, and text
    UTF-8 without a NUL."""
    found: list[str] = []
    for table, columns in _copied_tables():
        kinds = [TYPES[_declared(table)[column]] for column in columns]
        needed = required(table)
        typed = ", ".join(f"typeof({column}), {column}" for column in columns)
        for row in conn.execute(f"SELECT {_key_of(table)}, {typed} FROM {table}"):
            for column, kind, held, value in zip(columns, kinds, row[1::2], row[2::2], strict=True):
                problem = value_problem(kind, held.decode(), value)
                if held == b"null" and column in needed:
                    problem = "is empty (NULL)"
                if problem:
                    found.append(f"{_place(table, row[0])}, column {column}: {problem}")
            if len(found) >= MOST:
                return found
    return found


def _copied_tables() -> Iterator[tuple[str, tuple[str, ...]]]:
    for table, (columns, _key) in GAME_TABLES.items():
        yield table, columns
    yield "uploads", UPLOADS


def _declared(table: str) -> dict[str, str]:
    """The declared type of each column of a table as this referee makes it."""
    return {column: kind.upper() for column, kind in _reference()[table].items()}


_TABLES: dict[str, dict[str, str]] = {}


def _reference() -> dict[str, dict[str, str]]:
    """Every table's columns and their types, from an empty store made in memory."""
    if not _TABLES:
        with closing(sqlite3.connect(":memory:")) as conn:
            schema.create(sqlite_utils.Database(conn))
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                rows = conn.execute(f"PRAGMA table_info({table})")
                _TABLES[table] = {row[1]: row[2] for row in rows}
    return _TABLES


def required(table: str) -> frozenset[str]:
    """The columns of a table never empty: NOT NULL, or its key, in PostgreSQL's tables
    (a restore into PostgreSQL would be refused there; SQLite's tables keep fewer)."""
    if not _REQUIRED:
        for sql in (text for _version, _name, text in migrations()):
            for name, body in CREATE.findall(sql):
                columns = set(NOT_NULL.findall(body))
                for key in KEYS.findall(body):
                    columns |= {column.strip() for column in key.split(",")}
                _REQUIRED[name] = frozenset(columns)
    return _REQUIRED.get(table, frozenset())


_REQUIRED: dict[str, frozenset[str]] = {}
CREATE = re.compile(r"CREATE TABLE (\w+) \((.*?)\n\);", re.S)
NOT_NULL = re.compile(r"^\s+(\w+) \w+[^,\n]*(?:NOT NULL|PRIMARY KEY)", re.M)
KEYS = re.compile(r"^\s+PRIMARY KEY \(([^)]*)\)", re.M)


def value_problem(kind: str, held: str, value: object) -> str | None:
    """What is wrong with one value of a column of type `kind` (`held`: its type)."""
    if held not in ("null", kind):
        return f"holds a {held}, not {kind}"
    if held == "text" and isinstance(value, bytes):
        if b"\0" in value:
            return "text holds a NUL byte"
        if not utf8(value):
            return "text is not UTF-8"
    return None


def _key_of(table: str) -> str:
    """What names a row in a problem: its game (and seq) or an upload's digest."""
    if table == "uploads":
        return "rowid"
    if table in ("events", "snapshots"):
        return "game_id || ' seq ' || seq"
    return "game_id"


def _place(table: str, key: object) -> str:
    named = _text(key) if isinstance(key, bytes) else str(key)
    return (
        f"table {table}, upload row {named}"
        if table == "uploads"
        else f"game {named}, table {table}"
    )


def utf8(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _text(value: bytes) -> str:
    shown = value.decode("utf-8", "replace")
    return shown if len(shown) <= SHOWN else shown[:SHOWN] + "..."


def _events(conn: sqlite3.Connection) -> Iterator[str]:
    """Every event's JSON in canonical form, and its columns what its JSON says."""
    rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events ORDER BY game_id, seq")
    for row in rows:
        stored = dict(zip(COLUMNS, row, strict=True))
        place = f"game {_text(stored['game_id'])} seq {stored['seq']}, table events"
        try:
            (event,) = parse(stored["event"])
            expected = dict(zip(COLUMNS, event_row(event), strict=True))
        except (LogLineError, ValueError, KeyError, TypeError):
            yield f"{place}, column event: not an event's JSON"
            continue
        if canonical(event) != stored["event"]:
            yield f"{place}, column event: not in canonical form"
        for column in COLUMNS[:-1]:
            said, held = expected[column], stored[column]
            if (held.decode() if isinstance(held, bytes) else held) != said:
                yield (
                    f"{place}, column {column}: holds {_shown(held)}, its event says {_shown(said)}"
                )


def _shown(value: object) -> str:
    return repr(_text(value)) if isinstance(value, bytes) else repr(value)


def _games(conn: sqlite3.Connection) -> Iterator[str]:
    """Each game's seed the one its log's first event committed to, and its ruleset the
    one that event names."""
    rows = conn.execute(
        "SELECT g.game_id, g.ruleset, g.seed, e.event FROM games g"
        " LEFT JOIN events e ON e.game_id = g.game_id AND e.seq = 1 ORDER BY g.game_id"
    )
    for game_id, ruleset, seed, first in rows:
        payload = _payload(first)
        if payload is None:
            continue  # no first event, or not an event: verifying its log names it
        place = f"game {_text(game_id)}, table games"
        if seed is None or commitment(seed.decode()) != payload.get("seed_commitment"):
            yield f"{place}, column seed: not the seed its log committed to"
        if ruleset is None or ruleset.decode() != payload.get("ruleset"):
            yield (
                f"{place}, column ruleset: holds {_shown(ruleset)},"
                f" its log says {payload.get('ruleset')!r}"
            )


def _payload(event: bytes | None) -> dict | None:
    """The payload of an event's JSON, if it is one's."""
    try:
        payload = orjson.loads(event).get("payload") if event is not None else None
    except (orjson.JSONDecodeError, AttributeError):
        return None
    return payload if isinstance(payload, dict) else None


def _snapshots(conn: sqlite3.Connection) -> Iterator[str]:
    """Each cached state the one whose hash its event at that seq sealed."""
    rows = conn.execute(
        "SELECT s.game_id, s.seq, s.state, s.state_hash, e.state_hash FROM snapshots s"
        " LEFT JOIN events e ON e.game_id = s.game_id AND e.seq = s.seq"
        " ORDER BY s.game_id, s.seq"
    )
    for game_id, seq, state, state_hash, sealed in rows:
        place = f"game {_text(game_id)} seq {seq}, table snapshots"
        try:
            held = digest(json.loads(state)).encode()
        except (ValueError, TypeError):
            yield f"{place}, column state: not JSON"
            continue
        if held != state_hash or state_hash != sealed:
            yield f"{place}: the state is not the one the log's event at seq {seq} sealed"
