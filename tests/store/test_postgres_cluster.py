"""The tests' PostgreSQL server (tests/postgres.py): fresh databases apart from each other,
reached from this process and from others by a unix socket only, run as the postgres
user, and never left behind by a session that dies."""

import json
import os
import pwd
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from postgres import FAST, PREFIX, Cluster, ClusterError, server_bin, sweep

ROOT = Path(__file__).resolve().parents[2]
# bound for failing only: a guard that does its work never waits it out
GONE_WITHIN = 60  # seconds
# a session that starts a cluster, says where it is and who guards it, then waits to die
SESSION = f"""
import json, sys
sys.path.insert(0, {str(ROOT / "tests")!r})
from pathlib import Path
from postgres import FAST, Cluster
cluster = Cluster.start(FAST, root=Path(sys.argv[1]))
print(json.dumps({{"top": str(cluster.top), "guard": cluster._guard.pid}}), flush=True)
sys.stdin.read()
"""


def server_user(pid: int) -> str:
    """The name of the user a process runs as."""
    status = Path(f"/proc/{pid}/status").read_text()
    uid = next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:"))
    return pwd.getpwuid(int(uid)).pw_name


def postmaster_pid(top: Path) -> int:
    """The pid of the server of the cluster in top."""
    return int((top / "data" / "postmaster.pid").read_text().split()[0])


def running(pid: int) -> bool:
    """Whether a process with that pid is alive."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_gone(pid: int) -> None:
    """Wait for a process that is not our child to end (a server ends just after pg_ctl
    sees its pid file go)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        assert select.select([handle], [], [], GONE_WITHIN)[0], f"{pid} still runs"
    finally:
        os.close(handle)


@pytest.fixture
def private_root() -> Iterator[Path]:
    """A folder for clusters that no other test process sweeps (tmp_path is closed to the
    postgres user)."""
    root = Path(tempfile.mkdtemp(prefix="clusters-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root)


def killed_session(root: Path) -> tuple[subprocess.Popen[str], Path, int, int]:
    """A python process with a cluster of its own under root: the process, the cluster's
    folder, its guard's pid and its server's pid."""
    session = subprocess.Popen(
        [sys.executable, "-c", SESSION, str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert session.stdout is not None
    started = json.loads(session.stdout.readline())
    top = Path(started["top"])
    return session, top, started["guard"], postmaster_pid(top)


def test_two_databases_are_separate(postgres_cluster, postgres_url):
    other = postgres_cluster.create_database()
    try:
        with psycopg.connect(postgres_url) as one, psycopg.connect(other) as two:
            one.execute("CREATE TABLE events (seq int)")
            one.commit()
            names = [c.execute("SELECT current_database()").fetchone() for c in (one, two)]
            tables = "SELECT count(*) FROM pg_tables WHERE tablename = 'events'"
            assert two.execute(tables).fetchone() == (0,)
        assert names[0] != names[1]
    finally:
        postgres_cluster.drop_database(other)


def test_a_fresh_database_is_empty(postgres_url):
    with psycopg.connect(postgres_url) as conn:
        tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        assert conn.execute(tables).fetchone() == (0,)


def test_another_process_reaches_the_database(postgres_url):
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE events (seq int)")
        conn.execute("INSERT INTO events VALUES (1)")
    child = (
        "import sys, psycopg\n"
        "with psycopg.connect(sys.argv[1]) as conn:\n"
        "    conn.execute('INSERT INTO events VALUES (2)')\n"
        "    print(conn.execute('SELECT count(*) FROM events').fetchone()[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child, postgres_url], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "2"
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT seq FROM events ORDER BY seq").fetchall() == [(1,), (2,)]


def test_nothing_listens_on_tcp(postgres_cluster, postgres_url):
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == ("",)
        assert conn.execute("SHOW unix_socket_directories").fetchone() == (
            str(postgres_cluster.top),
        )
        # NULL when the connection came by a unix socket
        assert conn.execute("SELECT inet_server_addr()").fetchone() == (None,)


def test_the_tests_run_without_fsync(postgres_url):
    with psycopg.connect(postgres_url) as conn:
        shown = {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in FAST}
    assert shown == FAST


def test_the_server_runs_as_the_postgres_user(postgres_cluster, postgres_url):
    # PostgreSQL refuses root; another user runs it as themself
    me = pwd.getpwuid(os.geteuid()).pw_name
    expected = "postgres" if me == "root" else me
    with psycopg.connect(postgres_url) as conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        # read while the connection holds it: a closed session's backend ends soon after
        assert server_user(backend) == expected
    assert server_user(postmaster_pid(postgres_cluster.top)) == expected


def test_a_stopped_cluster_leaves_nothing():
    cluster = Cluster.start(FAST)
    server = postmaster_pid(cluster.top)
    cluster.stop()
    assert not cluster.top.exists()
    wait_gone(server)


def test_a_killed_session_takes_its_cluster_along(private_root):
    session, top, guard, server = killed_session(private_root)
    session.kill()
    session.wait()
    wait_gone(guard)
    assert not top.exists()
    wait_gone(server)


def test_a_cluster_left_without_owner_is_swept(private_root):
    session, top, guard, server = killed_session(private_root)
    os.kill(guard, signal.SIGKILL)
    wait_gone(guard)
    session.kill()
    session.wait()
    assert top.exists() and running(server)  # nothing else would clean up
    sweep(top.parent)
    assert not top.exists()
    wait_gone(server)


def test_a_sweep_leaves_live_clusters(postgres_cluster, postgres_url):
    sweep(postgres_cluster.top.parent)
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert postgres_cluster.top.name.startswith(PREFIX)


def test_the_newest_postgresql_is_taken(tmp_path):
    for version in ("9.6", "15", "13"):
        (tmp_path / version / "bin").mkdir(parents=True)
        (tmp_path / version / "bin" / "initdb").touch()
    assert server_bin(tmp_path) == tmp_path / "15" / "bin"


def test_without_postgresql_the_error_says_how_to_install_it(tmp_path):
    with pytest.raises(ClusterError, match="`make test` installs it"):
        server_bin(tmp_path)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the server to another user")
def test_a_folder_closed_to_the_postgres_user_is_refused(tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    with pytest.raises(ClusterError, match="cannot pass through"):
        Cluster.start(FAST, root=closed)
