"""What only the PostgreSQL backend has: its migrations, its connections' limits, a writer
that waits behind another transaction's lock, a server that cannot be reached, and the
sweeper's advisory lock. (The contract itself runs on both backends in the other store
tests.)"""

import threading

import psycopg
import pytest

from referee.engine import game
from referee.engine.errors import Busy, StoreUnavailable
from referee.service import Referee
from referee.store import open_store
from referee.store.postgres import PostgresStore, migrate, migrations, shown_url

SEED = "postgres-seed"
BUSY = 0.3


@pytest.fixture
def pg(postgres_url):
    store = open_store(postgres_url, busy_seconds=BUSY)
    yield store
    store.close()


def test_the_migrations_run_once_and_are_recorded(pg, postgres_url):
    with psycopg.connect(postgres_url) as conn:
        recorded = conn.execute("SELECT version, name FROM schema_version").fetchall()
    assert recorded == [(v, name) for v, name, _ in migrations()] and recorded
    assert migrate(postgres_url) == recorded[-1][0]  # again: nothing more to apply
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(recorded)


def test_every_connection_carries_the_lock_and_statement_limits(pg):
    shown = dict(
        pg.query(
            "SELECT name, setting FROM pg_settings WHERE name IN"
            " ('lock_timeout', 'statement_timeout', 'idle_in_transaction_session_timeout')"
        )
    )
    assert shown == {
        "lock_timeout": str(int(BUSY * 1000)),
        "statement_timeout": "30000",
        "idle_in_transaction_session_timeout": "60000",
    }


def first_move(referee: Referee, game_id: str):
    state = referee.state(game_id)
    seat = game.to_move(state)[0]
    return state["seq"], game.execute(state, seat, game.legal(state, seat)[0], SEED)


def test_a_writer_behind_another_transactions_lock_is_busy_and_writes_nothing(pg, postgres_url):
    referee = Referee(pg)
    game_id = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
    expected, records = first_move(referee, game_id)
    holder = psycopg.connect(postgres_url)  # a transaction left open on the game's row
    holder.execute(
        "INSERT INTO events (game_id, seq, type, hash, event) VALUES (%s, %s, 'X', 'x', '{}')",
        (game_id, expected + 1),
    )
    with pytest.raises(Busy):
        pg.append(game_id, expected, records)
    holder.rollback()
    holder.close()
    assert pg.version(game_id) == expected
    assert pg.append(game_id, expected, records)[0]["seq"] == expected + 1


def test_two_processes_at_one_version_one_wins_on_the_server(pg, postgres_url):
    """Two stores (two machines' processes) append to one game at one version at once:
    the unique key lets one in, the other is a clean conflict."""
    referee = Referee(pg)
    game_id = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
    expected, records = first_move(referee, game_id)
    stores = [open_store(postgres_url) for _ in range(4)]
    start, outcomes = threading.Barrier(4), []

    def write(store):
        start.wait()
        try:
            store.append(game_id, expected, records)
            outcomes.append("appended")
        except Exception as exc:  # noqa: BLE001 - what each writer was told
            outcomes.append(getattr(exc, "code", type(exc).__name__))

    threads = [threading.Thread(target=write, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["appended"] + ["store/version_conflict"] * 3
    assert pg.version(game_id) == expected + len(records)
    for store in stores:
        store.close()


def test_a_server_that_cannot_be_reached_is_named_and_the_password_never_shown(postgres_cluster):
    url = postgres_cluster.url("postgres").replace("postgres@", "postgres:hunter2@")
    assert shown_url(url) == url.replace("hunter2", "***")
    store = PostgresStore(postgres_cluster.create_database(), busy_seconds=0.5)
    store.close()  # as if the server went away: the next pool finds nothing at its address
    store.url = url.replace(f"port={postgres_cluster.port}", "port=1")
    with pytest.raises((StoreUnavailable, Busy)) as refused:
        store.version("nothing")
    assert "hunter2" not in str(refused.value.message)


def test_one_session_holds_the_sweepers_lock_and_a_standby_takes_it_after(pg):
    first = pg.hold_sweeper_lock(wait=False)
    assert first is not None
    assert pg.hold_sweeper_lock(wait=False) is None  # another beat stands by
    first.close()  # the sweeping beat's session ends, however its process ends
    second = pg.hold_sweeper_lock(wait=False)
    assert second is not None
    second.close()
