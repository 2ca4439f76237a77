"""A throwaway PostgreSQL cluster for the tests and benches: initdb in a temporary folder,
a server on a unix socket only, a fresh database per test; it never outlives its process.

    python tests/postgres.py discard FOLDER   # what a cluster's guard runs (below)
"""

import fcntl
import os
import pwd
import re
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

if TYPE_CHECKING:
    import psycopg

# Debian keeps initdb and pg_ctl here, one folder per major version, not on PATH
LIB = Path("/usr/lib/postgresql")
# PostgreSQL refuses to run as root: as root the server runs as Debian's postgres user
SERVER_USER = "postgres"
PREFIX = "referee-pg-"
INSTALL = "`make test` installs it (Debian's postgresql package)"
# what the tests run with: nothing they write has to survive a crash of the machine
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
# what a bench of the store measures: PostgreSQL's own defaults, every commit flushed
DURABLE: dict[str, str] = {}
# fresh databases are copies of this one, made empty once per cluster
TEMPLATE = "blank"
# bounds for failing only: a cluster that starts and stops never waits them out
START_WITHIN = 60  # seconds for the server to accept connections
STOP_WITHIN = 60  # seconds for the guard to stop the server and remove its folder


class ClusterError(RuntimeError):
    """A cluster could not be started: what is missing or refused, and how to fix it."""


def server_bin(lib: Path = LIB) -> Path:
    """The newest PostgreSQL's bin folder under lib (the one that holds initdb)."""
    found = [initdb.parent for initdb in lib.glob("*/bin/initdb")]
    if not found:
        raise ClusterError(f"PostgreSQL is not installed (no {lib}/*/bin/initdb): {INSTALL}")
    return max(found, key=lambda bin: [int(n) for n in re.findall(r"\d+", bin.parent.name)])


def as_server(argv: list[str]) -> list[str]:
    """argv run as the server's user: postgres when this process is root, else as is."""
    return ["runuser", "-u", SERVER_USER, "--", *argv] if os.geteuid() == 0 else argv


def check_reachable(root: Path) -> None:
    """Refuse a root folder the server's user cannot pass through (its socket is there)."""
    if os.geteuid() != 0:
        return
    user = pwd.getpwnam(SERVER_USER)
    groups = set(os.getgrouplist(SERVER_USER, user.pw_gid))
    for folder in [root, *root.parents]:
        held = folder.stat()
        if held.st_uid == user.pw_uid:
            bit = stat.S_IXUSR
        else:
            bit = stat.S_IXGRP if held.st_gid in groups else stat.S_IXOTH
        if not held.st_mode & bit:
            raise ClusterError(
                f"the {SERVER_USER} user cannot pass through {folder}: "
                f"put the cluster under a folder it can reach (/dev/shm, /tmp)"
            )


def free_port() -> int:
    """A TCP port nothing listens on; the server does not either (see Cluster.start)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(argv: list[str], top: Path) -> None:
    """Run a PostgreSQL program in the cluster's folder; its output in the error if it fails."""
    done = subprocess.run(argv, cwd=top, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        log = top / "log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise ClusterError(f"{shlex.join(argv)} failed:\n{done.stdout}{done.stderr}{tail}")


class Cluster:
    """A PostgreSQL server of this process in a temporary folder, reached by a unix socket."""

    def __init__(self, top: Path, port: int, lock: int, guard: subprocess.Popen[bytes]) -> None:
        self.top = top
        self.port = port
        self._lock = lock
        self._guard = guard
        self._names = count(1)
        self._admin: psycopg.Connection[Any] | None = None

    @classmethod
    def start(cls, settings: Mapping[str, str] = FAST, *, root: Path | None = None) -> "Cluster":
        """initdb a new cluster under root (the temporary folder) and start its server with
        settings (`FAST`, `DURABLE` or others) on a unix socket in its folder."""
        bin = server_bin()
        root = Path(root or tempfile.gettempdir()).resolve()
        check_reachable(root)
        sweep(root)
        top = Path(tempfile.mkdtemp(prefix=PREFIX, dir=root))
        lock = take_lock(top)
        # the port only names the socket file; a free one, so that a URL that lost its
        # host= reaches nothing, not a server on the machine's default socket
        cluster = cls(top, free_port(), lock, start_guard(top, lock))
        try:
            cluster._create(bin, settings)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _create(self, bin: Path, settings: Mapping[str, str]) -> None:
        """initdb, start the server, make the template of fresh databases."""
        if os.geteuid() == 0:
            shutil.chown(self.top, user=SERVER_USER, group=SERVER_USER)
        data = str(self.top / "data")
        initdb = [str(bin / "initdb"), "-D", data, "-A", "trust", "-U", SERVER_USER]
        run(as_server([*initdb, "-E", "UTF8", "--locale=C", "--no-sync"]), self.top)
        options = ["-k", str(self.top), "-p", str(self.port), "-c", "listen_addresses="]
        for name, value in settings.items():
            options += ["-c", f"{name}={value}"]
        pg_ctl = [str(bin / "pg_ctl"), "-D", data, "-l", str(self.top / "log"), "-w"]
        started = [*pg_ctl, "-t", str(START_WITHIN), "-o", shlex.join(options), "start"]
        run(as_server(started), self.top)
        self._admin_connection().execute(
            f"CREATE DATABASE {TEMPLATE} TEMPLATE template0 IS_TEMPLATE true"
        )

    def url(self, dbname: str = "postgres") -> str:
        """A libpq URL of a database, for psycopg in this process or any other."""
        return f"postgresql://{SERVER_USER}@/{dbname}?host={quote(str(self.top))}&port={self.port}"

    def create_database(self) -> str:
        """The URL of a fresh empty database with a name no other database here has."""
        name = f"db_{next(self._names)}"
        admin = self._admin_connection()
        # a copy of the template's files: WAL_LOG, the default, writes them all to the WAL
        strategy = " STRATEGY file_copy" if admin.info.server_version >= 150000 else ""
        admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}{strategy}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database create_database made, and end the connections still open to it."""
        name = urlsplit(url).path.lstrip("/")
        if not re.fullmatch(r"db_\d+", name):
            raise ValueError(f"not a database of this cluster's: {url}")
        self._admin_connection().execute(f"DROP DATABASE {name} WITH (FORCE)")

    def _admin_connection(self) -> "psycopg.Connection[Any]":
        """The connection that creates and drops databases, opened on first use."""
        import psycopg  # here, not at the top: the guard imports this module too

        if self._admin is None:
            self._admin = psycopg.connect(self.url(), autocommit=True)
        return self._admin

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove its folder."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        if self._guard.stdin is not None and not self._guard.stdin.closed:
            self._guard.stdin.close()  # the guard's cue, as when this process dies
        self._guard.wait(timeout=STOP_WITHIN)
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1
        if self.top.exists():
            raise ClusterError(f"{self.top} is still there after its guard ended")


def take_lock(top: Path) -> int:
    """An exclusive lock on top/lock, held for as long as the cluster has an owner."""
    # locked under another name first: a sweep only opens `lock`, so it never sees it free
    lock = os.open(top / "lock.new", os.O_CREAT | os.O_WRONLY, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    os.rename(top / "lock.new", top / "lock")
    return lock


def start_guard(top: Path, lock: int) -> subprocess.Popen[bytes]:
    """A process that discards the cluster once its stdin ends: when Cluster.stop closes
    it, or when the kernel does because this process died, however it died."""
    # its own session: the signals that end this process's group (Ctrl-C) leave it be;
    # it holds the lock too, so no sweep takes its cluster while it has work to do. The
    # shell's own `read`, not cat: a child would hold the lock after the guard died
    script = 'while read -r _; do :; done; exec "$@"'
    return subprocess.Popen(
        ["sh", "-c", script, "guard", sys.executable, __file__, "discard", str(top)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(lock,),
        start_new_session=True,
    )


def sweep(root: Path) -> None:
    """Discard the clusters under root that nothing owns any more (their process and its
    guard both killed); the clusters of other sessions still hold their lock."""
    for top in root.glob(f"{PREFIX}*"):
        try:
            lock = os.open(top / "lock", os.O_RDONLY)
        except OSError:
            continue  # removed meanwhile, or not locked yet
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            discard(top)
        except BlockingIOError:
            continue
        finally:
            os.close(lock)


def discard(top: Path) -> None:
    """Stop the server of the cluster in top if it runs, immediately, and remove top."""
    data = top / "data"
    if (data / "postmaster.pid").exists():
        # the pg_ctl of the version that made the cluster
        bin = LIB / (data / "PG_VERSION").read_text().strip() / "bin"
        stop = [str(bin / "pg_ctl"), "-D", str(data), "stop", "-m", "immediate", "-w"]
        subprocess.run(as_server(stop), cwd=top, capture_output=True, check=False)
    shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__" and sys.argv[1:2] == ["discard"]:
    discard(Path(sys.argv[2]))
