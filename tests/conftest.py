"""Shared fixtures: a store on a real SQLite file, a database on a real PostgreSQL server,
the real Flask app, and a game over HTTP; and how the suite runs on xdist workers
(pyproject.toml runs it with -n auto)."""

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from postgres import FAST, Cluster, ClusterError
from stores import BACKENDS, store_target

from referee.app import create_app
from referee.store import open_store

PLAYERS = ["Ada", "Bo", "Cy", "Di"]
SEED = "conftest-seed"
# a memory file system for tmp_path, where it is: the store commits with fsync, and a
# disk's fsync is most of what a test of the store or the API waits for
MEMORY_TMP = Path("/dev/shm")
# what the workers take first, in this order (the rest keeps pytest's order): the browser
# tests (one worker plays their games one after another), the tests that wait on
# processes, the contract games (the largest groups first), the tampered logs; the many
# short tests fill the end
FIRST = (
    "tests/browser/",
    "tests/integration/",
    "tests/api/test_serve.py",
    "tests/contract/test_rulesets.py",
    "tests/contract/",
    "tests/replays/",
)


def pytest_configure(config: pytest.Config) -> None:
    """Notifications may reach loopback and rate limits are off, for the whole suite; and
    tmp_path on the memory file system when there is one and no TMPDIR or --basetemp
    says otherwise (pytest still numbers and cleans its directories there)."""
    # the tests' receivers (tests/receiver.py, a local SMTP server) listen on loopback,
    # which the referee refuses by default; `referee serve` and workers started by tests
    # inherit this. tests/api/test_notify_guard.py clears it to test the refusals.
    os.environ.setdefault("REFEREE_NOTIFY_ALLOW", "127.0.0.0/8,::1")
    # the service limits each client address by default, and the suite is one client that
    # sends far more than a person: off here, and in the servers and workers it starts
    # (they inherit it); the limits' own tests turn them on, and one proves the default
    os.environ.setdefault("REFEREE_RATE_LIMITS", "off")
    if config.option.basetemp or "TMPDIR" in os.environ:
        return
    if MEMORY_TMP.is_dir() and os.access(MEMORY_TMP, os.W_OK | os.X_OK):
        tempfile.tempdir = str(MEMORY_TMP)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """FIRST first; and the tests that share a module-scoped fixture of their module (one
    instance per parameter) in one xdist group, so one worker builds it once."""
    for item in items:
        group = shared_fixture_group(item)
        if group and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
    rank = {item.nodeid: n for n, item in enumerate(items)}
    items.sort(key=lambda item: (first_rank(item.nodeid), rank[item.nodeid]))
    if getattr(config.option, "loadgroup", False):  # an xdist worker under --dist loadgroup
        for item in items:
            names = sorted({str(m.args[0]) for m in item.iter_markers("xdist_group")})
            if names and "@" not in item.nodeid:
                name_group(item, "_".join(names))


def first_rank(nodeid: str) -> int:
    """The place in FIRST of a test's directory or file; len(FIRST) if it is not there."""
    return next((n for n, start in enumerate(FIRST) if nodeid.startswith(start)), len(FIRST))


def name_group(item: pytest.Item, group: str) -> None:
    """`nodeid@group`, the suffix by which xdist's loadgroup scheduler keeps a group on
    one worker. pytest-xdist 3.8 writes it to `item._nodeid`, which pytest 9 no longer
    reads (it keeps a structured `_id`), and so would run the group's tests anywhere."""
    nodeid = f"{item.nodeid}@{group}"
    held = getattr(item, "_id", None)
    if held is not None and not isinstance(held, str) and hasattr(held, "parse"):
        item._id = type(held).parse(nodeid)
    else:
        item._nodeid = nodeid  # type: ignore[attr-defined]


def shared_fixture_group(item: pytest.Item) -> str | None:
    """The item's module, and `:fixture=param index,...` for the parametrized ones, if it
    uses a module-scoped fixture its module defines; else None. (No `]` in it: xdist
    would not see the group.)"""
    definitions: dict = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    indices: dict = getattr(getattr(item, "callspec", None), "indices", {})
    module = getattr(getattr(item, "module", None), "__name__", None)
    used = [
        name
        for name, defs in sorted(definitions.items())
        if defs[-1].scope == "module" and getattr(defs[-1].func, "__module__", "") == module
    ]
    if not used:
        return None
    params = ",".join(f"{name}={indices[name]}" for name in used if name in indices)
    path = item.nodeid.split("::")[0]
    return f"{path}:{params}" if params else path


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The store's contract on every backend: each store test (tests/store/) and each test
    marked `both_stores` runs once on a SQLite file and once on a PostgreSQL server."""
    if "backend" not in metafunc.fixturenames:
        return
    marked = metafunc.definition.get_closest_marker("both_stores")
    if marked or "tests/store/" in metafunc.definition.nodeid.replace("\\", "/"):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of this test process (one per xdist worker), with fsync off;
    it fails, never skips, where PostgreSQL is not installed."""
    try:
        cluster = Cluster.start(FAST)
    except ClusterError as error:
        pytest.fail(str(error), pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """The URL of a fresh empty database on the session's PostgreSQL server, dropped after
    the test (with the connections the test left open)."""
    url = postgres_cluster.create_database()
    yield url
    postgres_cluster.drop_database(url)


@pytest.fixture
def backend(request) -> str:
    """Which store a test runs on: SQLite unless the test runs on both (above)."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def store(backend, tmp_path, request):
    """An EventStore on a fresh SQLite file, or a fresh PostgreSQL database."""
    held = open_store(store_target(backend, tmp_path / "store.db", request))
    yield held
    held.close()


@pytest.fixture
def app(backend, tmp_path, request):
    """The real app on a fresh SQLite file, or a fresh PostgreSQL database."""
    target = store_target(backend, tmp_path / "referee.db", request)
    made = create_app({"REFEREE_DB": target, "TESTING": True})
    yield made
    made.extensions["referee"].store.close()


@pytest.fixture
def client(app):
    """A test client of the real app."""
    return app.test_client()


@dataclass
class HttpGame:
    """A game created over HTTP: its id, seed, tokens and the creation response."""

    game_id: str
    seed: str
    moderator: str
    seats: list[str]
    created: dict

    def auth(self, seat: int | str) -> dict[str, str]:
        """The Authorization header of a seat (an int) or of `moderator`."""
        token = self.moderator if seat == "moderator" else self.seats[int(seat)]
        return {"Authorization": f"Bearer {token}"}


def create_http_game(client, *, seed: str = SEED, **options) -> HttpGame:
    """POST /games for a galloping-horse game and wrap the answer."""
    body = {"ruleset": "galloping-horse", "players": PLAYERS, "options": options, "seed": seed}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return HttpGame(
        game_id=created["game_id"],
        seed=seed,
        moderator=created["moderator_token"],
        seats=[s["token"] for s in created["seats"]],
        created=created,
    )


@pytest.fixture
def new_game(client):
    """A factory: new_game(seed=..., **options) creates another game over HTTP."""
    return lambda **kwargs: create_http_game(client, **kwargs)


@pytest.fixture
def http_game(new_game) -> HttpGame:
    """A fresh galloping-horse game created through POST /games."""
    return new_game()
