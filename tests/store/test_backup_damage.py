"""A damaged backup, whatever the damage: `backup --check` and `restore` refuse it with
`backup/damaged` naming what is wrong (never a traceback, nothing left beside a target
that was not made), or it restores a store whose every log verifies and whose games take
a next command that verifies. A backup's hashes are recomputed from the bytes they
cover: a `hash` column is never believed over its event."""

import os
import sqlite3
from pathlib import Path

import pytest
from command_line import run
from whole_store import PLAYERS

from referee.bots import choose
from referee.cli import BOT_EPOCH
from referee.engine import game
from referee.engine.errors import RefereeError
from referee.engine.events import MODERATOR
from referee.engine.rng import Rng
from referee.service import Referee
from referee.store import open_store
from referee.store.ops.backup import check, take
from referee.store.ops.restore import restore
from replays.verify import verify_bytes

# the suite flips every 97th byte, from two starts (each page several times over, its
# header and its cells); bench/backup_flips.py flips every byte of it, in processes of
# its own (REFEREE_FLIP_STRIDE=1 here does the same in one)
STRIDE = int(os.environ.get("REFEREE_FLIP_STRIDE", "97"))
STARTS = (0, 48) if STRIDE > 48 else (0,)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    return small_backup(tmp_path_factory.mktemp("small"))


def small_backup(folder: Path) -> Path:
    """A backup of two short games (one abandoned, one in play), in 512-byte pages,
    made in `folder`: every byte of it is flipped in turn below."""
    store = open_store(folder / "source.db")
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    referee.create_game("galloping-horse", PLAYERS, {}, "small/in-play", game_id="in-play")
    moved(referee, "in-play", 4)
    referee.create_game("galloping-horse", PLAYERS, {}, "small/over", game_id="over")
    moved(referee, "over", 2)
    referee.command("over", MODERATOR, {"type": "abandon", "reason": "rain"})
    store.close()
    with sqlite3.connect(folder / "source.db", isolation_level=None) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("PRAGMA page_size=512")
        conn.execute("VACUUM")
    path, _ = take(open_store(folder / "source.db", create=False), folder / "small.backup")
    return path


def moved(referee: Referee, game_id: str, commands: int) -> None:
    """Up to `commands` random bot commands, fewer if the game ends first."""
    rng = Rng(f"bot:{game_id}")
    for turn in range(commands):
        state = referee.state(game_id)
        if game.is_closed(state):
            return
        actor, command = choose(state, rng, turn)
        now = command.pop("now", None)
        referee.command(game_id, actor, command, now=now)


def refused_or_sound(backup: Path, folder: Path) -> str:
    """ "refused" (check and restore both refuse it, restore naming no error but a
    RefereeError and leaving nothing where no store was) or "sound" (it restores, and the
    store continues)."""
    target = folder / "target.db"
    try:
        _, verified = check(backup)
    except RefereeError:
        verified = None
    if verified is not None and verified.ok:
        restore(backup, str(target))
        continues(target)
        for made in folder.glob("target.db*"):
            made.unlink()
        return "sound"
    with pytest.raises(RefereeError):
        restore(backup, str(target))
    assert not list(folder.glob("*target.db*")), "left beside a target never made"
    return "refused"


def continues(target: Path) -> None:
    """Every log of the store verifies, and every game in play takes a next command whose
    event chains and verifies."""
    store = open_store(target, create=False)
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    try:
        for game_id in store.game_ids():
            state = referee.state(game_id)
            if not game.is_closed(state):
                actor, command = choose(state, Rng("next"), 0)
                command.pop("now", None)
                status, body = referee.command(game_id, actor, command)
                assert status < 300, body
            report = verify_bytes(store.log_lines(game_id), seed=store.seed(game_id))
            assert report.valid, (game_id, report.code, report.reason)
    finally:
        store.close()


@pytest.mark.parametrize("start", STARTS)
def test_a_byte_flipped_anywhere_in_a_small_backup_is_refused_or_restores_a_sound_store(
    small, tmp_path, start
):
    data = small.read_bytes()
    damaged = tmp_path / "damaged.backup"
    verdicts = []
    for at in range(start, len(data), STRIDE):
        damaged.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :])
        verdicts.append(refused_or_sound(damaged, tmp_path))
    # the flips that change what the backup holds are refused; those in unused bytes
    # (free space in pages) restore as the backup was
    assert "refused" in verdicts and "sound" in verdicts


def rows_of(path: Path) -> list[tuple[str, str, object]]:
    """(table, column, rowid) of every column of the first and the last row of every
    table of the backup."""
    conn = sqlite3.connect(path)
    found = []
    try:
        tables = [row[0] for row in conn.execute(TABLES)]
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            ends = f"SELECT min(rowid) FROM {table} UNION SELECT max(rowid) FROM {table}"
            for (rowid,) in conn.execute(ends).fetchall():
                if rowid is not None:  # an empty table has none
                    found += [(table, column, rowid) for column in columns]
    finally:
        conn.close()
    return found


TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
# what a column is damaged into: a character or a digit changed, bytes that are not
# UTF-8, text with a NUL, a value of another type, nothing
DAMAGES = {
    "changed": "CASE typeof({c}) WHEN 'integer' THEN {c} + 1"
    " WHEN 'text' THEN substr({c}, 1, length({c}) - 1) || char(unicode(substr({c}, -1)) + 1)"
    " ELSE {c} END",
    "not utf-8": "CAST(x'c328' AS TEXT)",
    "nul": "CAST({c} AS TEXT) || char(0)",
    "blob": "CAST({c} AS BLOB)",
    "null": "NULL",
}


def test_every_column_of_a_backup_damaged_in_turn_is_refused_or_restores_a_sound_store(
    small, tmp_path
):
    verdicts = {}
    damaged = tmp_path / "damaged.backup"
    for table, column, rowid in rows_of(small):
        for name, value in DAMAGES.items():
            damaged.write_bytes(small.read_bytes())
            with sqlite3.connect(damaged, isolation_level=None) as conn:
                conn.execute("DROP TRIGGER IF EXISTS events_no_update")
                sql = f"UPDATE {table} SET {column} = {value.format(c=column)} WHERE rowid = ?"
                try:
                    conn.execute(sql, (rowid,))
                except sqlite3.IntegrityError:
                    continue  # a NOT NULL or unique column SQLite keeps so itself
            verdicts[table, column, name] = refused_or_sound(damaged, tmp_path)
    refused = {place for place, verdict in verdicts.items() if verdict == "refused"}
    # every column of the log and of its manifest, every way it can be damaged
    for column in ("seq", "type", "actor", "visibility", "state_hash", "prev_hash", "hash"):
        assert ("events", column, "changed") in refused
        assert ("events", column, "not utf-8") in refused or column == "seq"
    assert ("events", "event", "changed") in refused
    assert ("games", "seed", "changed") in refused and ("games", "ruleset", "changed") in refused
    assert ("backup_games", "last_hash", "changed") in refused
    # text no store writes, and a value of another type, anywhere
    kept = [place for place, verdict in verdicts.items() if verdict == "sound"]
    assert not [place for place in kept if place[2] in ("not utf-8", "nul", "blob")]


def test_a_hash_column_that_is_not_its_events_is_refused_and_never_chained_to(small, tmp_path):
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(small.read_bytes())
    with sqlite3.connect(damaged, isolation_level=None) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        seq, held = conn.execute(
            "SELECT seq, hash FROM events WHERE game_id = 'in-play' ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        changed = ("1" if held[0] != "1" else "2") + held[1:]  # one hex digit, the JSON as it was
        conn.execute(
            "UPDATE events SET hash = ? WHERE game_id = 'in-play' AND seq = ?", (changed, seq)
        )
    said = f"game in-play seq {seq}, table events, column hash: holds {changed!r}, its event"
    said += f" says {held!r}"
    checked = run("backup", "--check", damaged)
    assert checked.exit_code == 1 and said in checked.output, checked.output
    target = tmp_path / "fresh.db"
    restored = run("restore", damaged, "--db", target)
    assert restored.exit_code == 1 and "backup/damaged" in restored.output, restored.output
    assert said in restored.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.backup"]


def test_a_flipped_byte_in_a_text_column_is_named_not_a_traceback(small, tmp_path):
    damaged = tmp_path / "damaged.backup"
    data = small.read_bytes()
    with sqlite3.connect(small) as conn:
        (prev,) = conn.execute(
            "SELECT prev_hash FROM events WHERE game_id = 'in-play' AND seq = 3"
        ).fetchone()
    at = data.index(prev.encode())  # in a column of seq 2 or 3 (a hash, a prev_hash)
    damaged.write_bytes(data[:at] + b"\xff" + data[at + 1 :])
    for args in (("backup", "--check", damaged), ("restore", damaged, "--db", tmp_path / "t.db")):
        refused = run(*args)
        assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit), refused
        assert "INVALID game in-play seq " in refused.output, refused.output
        assert "text is not UTF-8" in refused.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.backup"]


def test_a_backup_into_a_folder_named_with_a_slash_makes_the_folder(tmp_path):
    open_store(tmp_path / "store.db").close()
    folder = tmp_path / "backups" / "referee"
    taken = run("backup", f"{folder}/", "--db", tmp_path / "store.db")
    assert taken.exit_code == 0, taken.output
    assert folder.is_dir() and [p.suffix for p in folder.iterdir()] == [".db"]
    (tmp_path / "a-file").write_text("")
    refused = run("backup", f"{tmp_path / 'a-file'}/", "--db", tmp_path / "store.db")
    assert refused.exit_code == 1 and "backup/not_a_folder" in refused.output
