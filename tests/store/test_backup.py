"""`referee backup`, `backup --check` and `restore` on real SQLite files and a real
PostgreSQL server: a backup taken while commands go on holds every command acknowledged
before it began; a backup of either backend restores into either; restore refuses a
store in use or holding games; a damaged backup is refused and the target untouched."""

import hashlib
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from command_line import ok, run
from stores import store_target
from waiting import wait_until
from whole_store import PLAYERS, contents, fill

from referee.bots import choose
from referee.cli import BOT_EPOCH
from referee.engine import game
from referee.engine.errors import StoreUnavailable
from referee.engine.rng import Rng
from referee.service import Referee
from referee.store import open_store, staging
from referee.store.ops.backup import read_manifest

WAIT = 120  # seconds: only a failure waits this long


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A SQLite store with some of everything in it."""
    path = tmp_path_factory.mktemp("source") / "source.db"
    fill(open_store(path))
    return path


@pytest.fixture(scope="module")
def backup(source, tmp_path_factory) -> Path:
    """A backup of the source store."""
    path = tmp_path_factory.mktemp("backups") / "source.backup"
    ok("backup", path, "--db", source)
    return path


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Writer(threading.Thread):
    """Plays bot commands on one game after another until stopped; every command the
    store acknowledged is recorded as its last event's (game, seq, hash)."""

    def __init__(self, store) -> None:
        super().__init__(daemon=True)
        self.referee = Referee(store, clock=lambda: BOT_EPOCH)
        self.acked: list[tuple[str, int, str]] = []
        self.error: BaseException | None = None
        self.stopping = threading.Event()
        self.told = threading.Condition()

    def run(self) -> None:
        try:
            for number in range(10_000):
                if self.stopping.is_set():
                    return
                self.play(f"live-{number}")
        except BaseException as exc:
            self.error = exc
        finally:
            with self.told:
                self.told.notify_all()

    def play(self, game_id: str) -> None:
        self.referee.create_game("galloping-horse", PLAYERS, {}, game_id, game_id=game_id)
        rng = Rng(game_id)
        for turn in range(1000):
            state = self.referee.state(game_id)
            if game.is_closed(state) or self.stopping.is_set():
                return
            actor, command = choose(state, rng, turn)
            _, body = self.referee.command(game_id, actor, command)
            last = body["events"][-1]
            with self.told:
                self.acked.append((game_id, last["seq"], last["hash"]))
                self.told.notify_all()

    def after(self, count: int) -> list[tuple[str, int, str]]:
        """What was acknowledged once `count` commands were (a bounded wait)."""
        with self.told:
            done = self.told.wait_for(lambda: len(self.acked) >= count or not self.is_alive(), WAIT)
            assert done and self.error is None, self.error
            return list(self.acked)

    def stop(self) -> None:
        self.stopping.set()
        self.join(WAIT)
        assert self.error is None, self.error


def test_a_backup_taken_while_commands_go_on_restores_all_acknowledged_before_it(
    backend, tmp_path, request
):
    live = store_target(backend, tmp_path / "live.db", request)
    store = open_store(live)
    fill(store)
    writer = Writer(store)
    writer.start()
    try:
        acknowledged = writer.after(20)  # before the backup began
        said = ok("backup", tmp_path / "taken.db", "--db", live)
        writer.after(len(acknowledged) + 5)  # commands go on after it
    finally:
        writer.stop()
    assert f"into {tmp_path / 'taken.db'}" in said
    assert (tmp_path / "taken.db").stat().st_mode & 0o777 == 0o600
    # restored into the other backend: every command acknowledged before is there
    other = "postgresql" if backend == "sqlite" else "sqlite"
    target = store_target(other, tmp_path / "new.db", request, another=True)
    restored = ok("restore", tmp_path / "taken.db", "--db", target)
    manifest = read_manifest(tmp_path / "taken.db")
    assert f"restored {len(manifest.games)} games ({manifest.events:,} events)" in restored
    assert "every log valid, every last hash the manifest's" in restored
    back = open_store(target)
    for game_id, seq, last in acknowledged:
        assert back.events(game_id, after=seq - 1, until=seq)[0]["hash"] == last
    for game_id, (events, last) in manifest.games.items():
        assert (back.version(game_id), back.last_hash(game_id)) == (events, last)
    assert len(manifest.games) > len({game_id for game_id, _, _ in acknowledged})


def test_a_backup_restores_into_either_backend_with_every_row(
    source, backup, postgres_url, tmp_path
):
    whole = contents(open_store(source, create=False))
    ok("restore", backup, "--db", postgres_url)
    ok("restore", backup, "--db", tmp_path / "restored.db")
    ok("store", "copy", backup, tmp_path / "copied.db")  # a backup is a store
    assert contents(open_store(postgres_url)) == whole
    assert contents(open_store(tmp_path / "restored.db")) == whole
    assert contents(open_store(tmp_path / "copied.db")) == whole


def test_check_verifies_a_backup_against_its_manifest(backup):
    said = ok("backup", "--check", backup)
    assert "verified 8 games" in said and "every last hash its manifest's" in said


def test_a_backup_into_a_folder_is_named_by_its_time_and_never_replaces_a_file(source, tmp_path):
    said = ok("backup", tmp_path, "--db", source)
    [taken] = tmp_path.glob("referee-*.db")
    assert f"into {taken}" in said
    assert taken.stat().st_mode & 0o777 == 0o600  # it holds every game's secret seed
    refused = run("backup", taken, "--db", source)
    assert refused.exit_code == 1 and "backup/exists" in refused.output


def test_a_file_that_is_not_a_backup_is_refused(source):
    refused = run("backup", "--check", source)
    assert refused.exit_code == 1 and "backup/no_manifest" in refused.output


def damage(path: Path) -> tuple[str, int]:
    """One byte of one event's stored text changed in the file: a digit of its payload."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    game_id, seq, text = conn.execute(
        "SELECT game_id, seq, event FROM events WHERE game_id = 'dark-horse-whole' AND seq = 20"
    ).fetchone()
    conn.close()
    data = path.read_bytes()
    found = text.encode()
    assert data.count(found) == 1
    digit = found.index(b'"payload":') + next(
        i for i, byte in enumerate(found[found.index(b'"payload":') :]) if chr(byte).isdigit()
    )
    changed = found[:digit] + str((int(chr(found[digit])) + 1) % 10).encode() + found[digit + 1 :]
    path.write_bytes(data.replace(found, changed))
    return game_id, seq


def test_a_damaged_backup_is_refused_by_check_and_restore_and_the_target_is_untouched(
    backup, postgres_url, tmp_path
):
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(backup.read_bytes())
    game_id, seq = damage(damaged)
    checked = run("backup", "--check", damaged)
    assert checked.exit_code == 1
    assert f"INVALID game {game_id}: seq {seq} [chain/hash]" in checked.output
    # a SQLite file that holds games, replaced with --force only if the backup verifies
    target = tmp_path / "target.db"
    held = open_store(target)
    fill(held, tag="before")
    held.close()
    before = file_digest(target)
    refused = run("restore", damaged, "--db", target, "--force")
    assert refused.exit_code == 1, refused.output
    assert "backup/damaged" in refused.output and f"INVALID game {game_id}" in refused.output
    assert file_digest(target) == before
    assert not list(tmp_path.glob(".target.db.restore-*"))
    # a PostgreSQL database: not even the tables are left
    assert run("restore", damaged, "--db", postgres_url).exit_code == 1
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT to_regclass('events')").fetchone() == (None,)


HOLD = """
import fcntl, sys
lock = open(sys.argv[1], "a+")
fcntl.flock(lock, fcntl.LOCK_EX)
print("ready", flush=True)
sys.stdin.read()
"""
OPEN = """
import sys
from referee.store import open_store
store = open_store(sys.argv[1])
print("ready", flush=True)
sys.stdin.read()
"""


def holding(script: str, path: str) -> subprocess.Popen:
    """A process running `script` on `path` (a lock held, a store open), once it is ready;
    it lets go when its standard input is closed."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    return process


@pytest.mark.parametrize(
    "holder, script, suffix",
    [
        ("a `referee serve`", HOLD, ".serve.lock"),
        ("a sweeper", HOLD, ".beat.lock"),
        ("a process with the store open", OPEN, ""),
    ],
)
def test_restore_refuses_a_sqlite_store_in_use(backup, tmp_path, holder, script, suffix):
    target = tmp_path / "live.db"
    ok("restore", backup, "--db", target)
    process = holding(script, f"{target}{suffix}")
    try:
        before = file_digest(target)
        refused = run("restore", backup, "--db", target, "--force")
        assert refused.exit_code == 1
        assert "store/in_use" in refused.output and holder in refused.output
        assert file_digest(target) == before
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(WAIT)
    ok("restore", backup, "--db", target, "--force")  # once it let go


def test_restore_refuses_a_postgresql_store_in_use_or_holding_games(backup, postgres_url):
    in_use = open_store(postgres_url)
    in_use.game_ids()  # a session of its pool connected
    refused = run("restore", backup, "--db", postgres_url, "--wait", "0.2")
    assert refused.exit_code == 1 and "store/in_use" in refused.output
    assert "still connected after 0.2 s" in refused.output
    assert f"referee (pid {os.getpid()})" in refused.output  # who holds it, named
    in_use.close()
    ok("restore", backup, "--db", postgres_url)
    for force in ([], ["--force"]):
        refused = run("restore", backup, "--db", postgres_url, *force)
        assert refused.exit_code == 1 and "store/not_empty" in refused.output


def restoring(backup: Path, target: str, *more: str) -> subprocess.Popen:
    """`referee restore BACKUP --db TARGET` in a process of its own, its output kept."""
    return subprocess.Popen(
        [sys.executable, "-m", "referee", "restore", str(backup), "--db", target, *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def sessions_of(url: str, pid: int) -> int:
    """How many sessions the process `pid` (a referee) has on the database."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = %s",
            (f"referee (pid {pid})",),
        ).fetchone()
    return row[0] if row else 0


def holds_open(pid: int, path: Path) -> bool:
    """Whether the process `pid` has the file `path` open."""
    fds = Path(f"/proc/{pid}/fd")
    try:
        return any(fd.readlink() == path for fd in fds.iterdir())
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_a_restore_begun_while_a_stopping_service_is_connected_waits_for_it(backup, postgres_url):
    """The service's last session is still there when the restore looks (as when a
    restore follows the service's stop at once): it waits for the session to end."""
    service = open_store(postgres_url)
    service.game_ids()
    process = restoring(backup, postgres_url)
    try:
        wait_until(lambda: sessions_of(postgres_url, process.pid), "the restore's session")
        service.close()
        output, _ = process.communicate(timeout=WAIT)
    finally:
        process.kill()
    assert process.returncode == 0, output
    assert "every log valid" in output
    assert contents(open_store(postgres_url, create=False))


def test_a_restore_waits_for_a_stopping_service_to_let_go_of_a_sqlite_file(backup, tmp_path):
    target = tmp_path / "stopping.db"
    ok("restore", backup, "--db", target)
    holder = holding(HOLD, f"{target}.serve.lock")
    process = restoring(backup, str(target), "--force")
    lock = Path(f"{target}.serve.lock").resolve()
    try:
        wait_until(
            lambda: holds_open(process.pid, lock) or process.poll() is not None,
            "the restore to open the lock the service holds",
        )
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(WAIT)
        output, _ = process.communicate(timeout=WAIT)
    finally:
        process.kill()
        holder.kill()
    assert process.returncode == 0, output
    assert "every log valid" in output


def test_restore_replaces_a_sqlite_store_holding_games_only_with_force(source, backup, tmp_path):
    target = tmp_path / "held.db"
    held = open_store(target)
    fill(held, tag="held")
    held.close()
    target.chmod(0o640)
    before = file_digest(target)
    refused = run("restore", backup, "--db", target)
    assert refused.exit_code == 1 and "store/not_empty" in refused.output
    assert file_digest(target) == before
    ok("restore", backup, "--db", target, "--force")
    assert target.stat().st_mode & 0o777 == 0o640  # as the file it replaced
    assert contents(open_store(target)) == contents(open_store(source, create=False))
    assert not Path(f"{target}-wal").exists() or not Path(f"{target}-wal").stat().st_size


def test_a_store_being_restored_cannot_be_opened(tmp_path):
    target = tmp_path / "restoring.db"
    with staging(target), pytest.raises(StoreUnavailable, match="referee restore"):
        open_store(target)


def test_a_snapshot_sees_the_store_as_it_was_when_it_began(store):
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    referee.create_game("galloping-horse", PLAYERS, {}, "seen", game_id="seen")
    before = store.log_lines("seen")
    with store.snapshot() as conn:
        first = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        actor, command = choose(referee.state("seen"), Rng("seen"), 0)
        referee.command("seen", actor, command)
        referee.create_game("galloping-horse", PLAYERS, {}, "later", game_id="later")
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == first
        seen = conn.execute("SELECT event FROM events WHERE game_id = 'seen' ORDER BY seq")
        assert b"".join(row[0].encode() + b"\n" for row in seen.fetchall()) == before
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    with store.snapshot() as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2
