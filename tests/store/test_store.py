"""The event store on a real SQLite file: append-only, versioned, idempotent, cached safely."""

import sqlite3
import threading
from pathlib import Path

import pytest
from stores import plain_connection, reopen

from referee import games  # noqa: F401  (registers the rulesets)
from referee.engine import game
from referee.engine.canonical import canonical, digest
from referee.engine.chain import GENESIS, event_hash
from referee.engine.errors import Conflict, NotFound
from referee.service import Referee
from referee.store import COLUMNS, IdempotentReplay, LogicalClock, open_store, token_hash

PLAYERS = ["Ada", "Bo", "Cy", "Di"]
SEED = "store-seed"


@pytest.fixture
def referee(store):
    return Referee(store, snapshot_every=0)


@pytest.fixture
def created(referee):
    return referee.create_game("galloping-horse", PLAYERS, {}, SEED)


def announce(referee, game_id, text):
    """The records a moderator announcement would append now (nothing is stored)."""
    return game.execute(
        referee.state(game_id), "moderator", {"type": "announce", "text": text}, SEED
    )


def seat_to_move(referee, game_id):
    return game.rules_of(referee.state(game_id)).to_move(referee.state(game_id)["rules"])[0]


def play_first_legal(referee, game_id, **kwargs):
    """The seat to move plays its first legal card; returns (status, body)."""
    state = referee.state(game_id)
    seat = seat_to_move(referee, game_id)
    command = game.rules_of(state).legal(state["rules"], seat)[0]
    return referee.command(game_id, seat, command, **kwargs)


def assert_linear_chain(events):
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    prev = GENESIS
    for event in events:
        assert event["prev_hash"] == prev
        assert event_hash(event) == event["hash"]
        prev = event["hash"]


def file_bytes(path: Path) -> bytes:
    """The database file and its WAL and shared-memory files, as they are on disk."""
    parts = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


# --- append-only ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement, refused",
    [
        ("UPDATE events SET event = '{}' WHERE seq = 1", "UPDATE refused"),
        ("UPDATE events SET hash = 'x'", "UPDATE refused"),
        ("DELETE FROM events WHERE seq = 2", "DELETE refused"),
        ("DELETE FROM events", "DELETE refused"),
    ],
)
def test_events_refuse_update_and_delete_on_any_connection(store, created, statement, refused):
    before = store.events(created["game_id"])
    with pytest.raises(Exception, match=refused):  # the store's own write transaction
        with store.transaction() as conn:
            conn.execute(statement)
    # the triggers live in the database: a plain connection (autocommit, holding no lock)
    # is refused too, whatever the driver's error class
    other = plain_connection(store)
    with pytest.raises(Exception, match=refused):
        other.execute(statement)
    other.close()
    assert store.events(created["game_id"]) == before


def test_truncate_is_refused_on_the_server(postgres_url):
    """PostgreSQL's TRUNCATE skips row triggers: a statement trigger refuses it (SQLite
    has no TRUNCATE; its DELETE without WHERE is refused above)."""
    store = open_store(postgres_url)
    game_id = Referee(store).create_game("galloping-horse", PLAYERS, {}, SEED)["game_id"]
    before = store.events(game_id)
    other = plain_connection(store)
    with pytest.raises(Exception, match="TRUNCATE refused"):
        other.execute("TRUNCATE events")
    other.close()
    assert store.events(game_id) == before and before
    store.close()


def test_insert_or_replace_cannot_rewrite_an_event(sqlite_store):
    store = sqlite_store
    created = Referee(store).create_game("galloping-horse", PLAYERS, {}, SEED)
    game_id = created["game_id"]
    before = store.events(game_id)
    # a plain connection has recursive_triggers off, so DELETE triggers skip replaced rows
    other = sqlite3.connect(store.path, isolation_level=None)
    row = list(
        other.execute("SELECT * FROM events WHERE game_id = ? AND seq = 1", (game_id,)).fetchone()
    )
    row[5] = '{"forged":true}'
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        other.execute(
            f"INSERT OR REPLACE INTO events VALUES ({', '.join('?' * len(COLUMNS))})", row
        )
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db["events"].insert(dict(zip(COLUMNS, row, strict=True)), replace=True)
    other.close()
    assert store.events(game_id) == before


# --- expected versions ---------------------------------------------------------------


def test_append_after_the_current_version_links_the_chain(store, referee, created):
    game_id = created["game_id"]
    version = store.version(game_id)
    events = store.append(game_id, version, announce(referee, game_id, "hello"))
    assert [e["seq"] for e in events] == [version + 1]
    assert events[0]["prev_hash"] == store.events(game_id)[version - 1]["hash"]
    assert store.events(game_id, after=version) == events
    assert_linear_chain(store.events(game_id))


@pytest.mark.parametrize("offset", [-1, 1, -100])
def test_append_with_a_stale_version_conflicts_and_appends_nothing(store, referee, created, offset):
    game_id = created["game_id"]
    before = store.events(game_id)
    version = store.version(game_id)
    records = announce(referee, game_id, "late")
    with pytest.raises(Conflict) as raised:
        store.append(game_id, version + offset, records)
    assert raised.value.code == "store/version_conflict"
    assert raised.value.details == {"expected_version": version + offset, "version": version}
    assert store.events(game_id) == before


def test_append_with_a_seq_gap_conflicts_and_appends_nothing(store, referee, created):
    game_id = created["game_id"]
    before = store.events(game_id)
    records = [dict(r, seq=r["seq"] + 1) for r in announce(referee, game_id, "gap")]
    with pytest.raises(Conflict) as raised:
        store.append(game_id, store.version(game_id), records)
    assert raised.value.code == "store/seq_gap"
    assert store.events(game_id) == before


def test_append_to_an_unknown_game_is_not_found(store, referee, created):
    records = announce(referee, created["game_id"], "lost")
    with pytest.raises(NotFound):
        store.append("no-such-game", 7, records)
    with pytest.raises(NotFound):
        store.version("no-such-game")


def test_racing_writers_at_one_version_one_wins_and_the_chain_stays_linear(store, referee, created):
    game_id = created["game_id"]
    version = store.version(game_id)
    batches = [announce(referee, game_id, f"writer {i}") for i in range(8)]
    start = threading.Barrier(len(batches))
    results: dict[int, object] = {}

    def write(i):
        start.wait()
        try:
            results[i] = store.append(game_id, version, batches[i])
        except Conflict as exc:
            results[i] = exc

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(batches))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    winners = [i for i, r in results.items() if isinstance(r, list)]
    assert len(winners) == 1
    losers = [r for r in results.values() if isinstance(r, Conflict)]
    assert len(losers) == 7 and {c.code for c in losers} == {"store/version_conflict"}
    events = store.events(game_id)
    assert len(events) == version + 1
    assert events[-1]["payload"] == {"text": f"writer {winners[0]}"}
    assert_linear_chain(events)


def test_racing_stores_on_one_file_one_wins(tmp_path, referee, created, store):
    """Writers with their own EventStore (as separate workers would have) race the same way."""
    game_id = created["game_id"]
    version = store.version(game_id)
    stores = [reopen(store) for _ in range(4)]
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def write(i):
        start.wait()
        try:
            stores[i].append(game_id, version, announce(referee, game_id, f"store {i}"))
            outcomes.append("appended")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["appended", "conflict", "conflict", "conflict"]
    assert_linear_chain(store.events(game_id))


# --- idempotency ---------------------------------------------------------------------


def respond_with_seqs(events):
    return 201, {"seqs": [e["seq"] for e in events]}


def test_store_remembers_the_response_under_the_key(store, referee, created):
    game_id = created["game_id"]
    version = store.version(game_id)
    idem = ("moderator", "key-1", "request-digest", respond_with_seqs)
    store.append(game_id, version, announce(referee, game_id, "once"), idempotency=idem)

    with pytest.raises(IdempotentReplay) as replay:
        store.check_idempotency(game_id, "moderator", "key-1", "request-digest")
    assert (replay.value.status, replay.value.response) == (201, {"seqs": [version + 1]})
    # a second append under the key replays instead of appending, even at the right version
    with pytest.raises(IdempotentReplay):
        store.append(game_id, version + 1, announce(referee, game_id, "twice"), idempotency=idem)
    assert store.version(game_id) == version + 1


def test_store_refuses_a_key_reused_for_another_request(store, referee, created):
    game_id = created["game_id"]
    version = store.version(game_id)
    idem = ("moderator", "key-1", "request-a", respond_with_seqs)
    store.append(game_id, version, announce(referee, game_id, "a"), idempotency=idem)
    with pytest.raises(Conflict) as raised:
        store.check_idempotency(game_id, "moderator", "key-1", "request-b")
    assert raised.value.code == "idempotency/key_reused"
    # the key belongs to its role: another seat may use the same key
    store.check_idempotency(game_id, "0", "key-1", "request-b")


def test_command_resent_with_its_key_returns_the_stored_response(store, referee, created):
    game_id = created["game_id"]
    first = play_first_legal(referee, game_id, idempotency_key="k")
    played = first[1]["events"][0]
    seat, command = played["payload"]["seat"], played["command"]
    version = store.version(game_id)
    assert first[0] == 201 and first[1]["version"] == version

    assert referee.command(game_id, seat, command, idempotency_key="k") == first
    assert store.version(game_id) == version
    play_first_legal(referee, game_id)  # the game moves on; a late resend still replays
    moved_on = store.version(game_id)
    assert referee.command(game_id, seat, command, idempotency_key="k") == first
    assert store.version(game_id) == moved_on

    with pytest.raises(Conflict) as raised:
        referee.command(game_id, seat, {"type": "play_card", "horse": "pink"}, idempotency_key="k")
    assert raised.value.code == "idempotency/key_reused"
    assert store.version(game_id) == moved_on


def test_concurrent_resends_with_one_key_all_get_the_one_response(store, referee, created):
    game_id = created["game_id"]
    version = store.version(game_id)
    state = referee.state(game_id)
    seat = seat_to_move(referee, game_id)
    command = game.rules_of(state).legal(state["rules"], seat)[0]
    start = threading.Barrier(8)
    answers = []

    def resend():
        start.wait()
        answers.append(referee.command(game_id, seat, command, idempotency_key="same"))

    threads = [threading.Thread(target=resend) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 8
    assert all(answer == answers[0] for answer in answers)
    assert answers[0][0] == 201
    appended = store.events(game_id, after=version)
    assert [e["seq"] for e in appended] == [e["seq"] for e in answers[0][1]["events"]]
    assert [e["type"] for e in appended].count("RaceCardPlayed") == 1


# --- durability settings ---------------------------------------------------------------


def test_connections_use_wal_and_full_sync(sqlite_store):
    store = sqlite_store
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2
    seen = []

    def other_thread():  # each thread gets its own connection, set up the same way
        seen.append(store.db.execute("PRAGMA synchronous").fetchone()[0])

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [2]
    plain = sqlite3.connect(store.path)  # WAL is a property of the file itself
    assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    plain.close()


# --- snapshots -------------------------------------------------------------------------


@pytest.fixture
def snapshotted(store):
    """A game played past two snapshots (every 5 seqs)."""
    referee = Referee(store, snapshot_every=5)
    game_id = referee.create_game("galloping-horse", PLAYERS, {}, SEED)["game_id"]
    for _ in range(8):
        play_first_legal(referee, game_id)
    assert store.latest_snapshot(game_id) is not None
    return referee, game_id


def test_a_genuine_snapshot_gives_the_folded_state(store, snapshotted):
    referee, game_id = snapshotted
    seq, state, state_hash = store.latest_snapshot(game_id)
    assert seq % 5 == 0 and digest(state) == state_hash == store.state_hash_at(game_id, seq)
    assert referee.state(game_id) == game.fold(store.events(game_id))


def tamper(store, game_id, state, state_hash):
    seq = store.latest_snapshot(game_id)[0]
    with store.transaction() as conn:
        conn.execute(
            "UPDATE snapshots SET state = ?, state_hash = ? WHERE game_id = ? AND seq = ?",
            (state, state_hash, game_id, seq),
        )


def forged_state(store, game_id):
    seq, state, _ = store.latest_snapshot(game_id)
    forged = dict(state, rules=dict(state["rules"], food=[99, 0, 0, 0]))
    return seq, forged


def test_a_snapshot_disagreeing_with_the_log_is_ignored(store, snapshotted):
    referee, game_id = snapshotted
    seq, forged = forged_state(store, game_id)
    # self-consistent (its hash is right for its content) but not the log's state hash
    tamper(store, game_id, canonical(forged).decode(), digest(forged))
    assert store.latest_snapshot(game_id)[1] == forged
    assert referee.state(game_id) == game.fold(store.events(game_id))
    assert referee.state(game_id)["rules"]["food"] != [99, 0, 0, 0]


def test_a_snapshot_whose_content_does_not_match_its_hash_is_ignored(store, snapshotted):
    referee, game_id = snapshotted
    seq, forged = forged_state(store, game_id)
    tamper(store, game_id, canonical(forged).decode(), store.state_hash_at(game_id, seq))
    assert referee.state(game_id) == game.fold(store.events(game_id))


def test_a_snapshot_beyond_the_log_is_ignored(store, snapshotted):
    referee, game_id = snapshotted
    _, forged = forged_state(store, game_id)
    store.save_snapshot(game_id, 10_000, forged, digest(forged))
    assert store.latest_snapshot(game_id)[0] == 10_000
    assert referee.state(game_id) == game.fold(store.events(game_id))


# --- secrets at rest -------------------------------------------------------------------


def test_tokens_are_stored_only_as_hashes(tmp_path):
    path = tmp_path / "tokens.db"
    store = open_store(path)
    created = Referee(store).create_game("galloping-horse", PLAYERS, {}, SEED)
    tokens = [created["moderator_token"], *(s["token"] for s in created["seats"])]
    on_disk = file_bytes(path)
    assert created["game_id"].encode() in on_disk  # the bytes read are the game's
    for token in tokens:
        assert token.encode() not in on_disk
        assert token_hash(token).encode() in on_disk
        assert store.role(token) is not None
    assert store.role(created["seats"][2]["token"]) == (created["game_id"], "2")
    assert store.role(created["moderator_token"]) == (created["game_id"], "moderator")
    assert store.role("not-a-token") is None


# --- time ------------------------------------------------------------------------------


def test_logical_clock_ticks_one_millisecond_per_reading():
    clock = LogicalClock()
    assert [clock(), clock(), clock()] == [
        "2000-01-01T00:00:00.000000Z",
        "2000-01-01T00:00:00.001000Z",
        "2000-01-01T00:00:00.002000Z",
    ]


def test_same_seed_and_commands_on_a_logical_clock_give_identical_logs(tmp_path):
    logs = []
    for name in ("a.db", "b.db"):
        store = open_store(tmp_path / name, clock=LogicalClock())
        referee = Referee(store)
        game_id = referee.create_game("galloping-horse", PLAYERS, {}, SEED, game_id="g")["game_id"]
        for _ in range(6):
            play_first_legal(referee, game_id)
        logs.append(store.events(game_id))
    assert logs[0] == logs[1]
    assert [e["recorded_at"] for e in logs[0]] == sorted(e["recorded_at"] for e in logs[0])


def make_tables(target: str, told) -> None:
    try:
        open_store(target).close()
        told.put("made")
    except Exception as exc:  # noqa: BLE001 - what the parent is told
        told.put(f"{type(exc).__name__}: {exc}")


def test_processes_starting_together_on_a_new_store_all_get_their_tables(
    tmp_path, backend, request
):
    """Several processes (web, worker, beat) starting at once on a file that does not
    exist yet, or an empty PostgreSQL database, each open the store: none is refused
    ('database is locked', a table made twice)."""
    import multiprocessing

    # processes forked from a server that imported the store once (each spawned afresh
    # imported it again, a second apiece): they start closer together, which the race needs
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["referee.store", "referee.store.postgres"])
    for attempt in range(12 if backend == "sqlite" else 3):
        if backend == "postgresql":
            request.getfixturevalue("postgres_cluster")
            target = request.getfixturevalue("postgres_cluster").create_database()
        else:
            target = str(tmp_path / f"new-{attempt}.db")
        told = context.Queue()
        started = [context.Process(target=make_tables, args=(target, told)) for _ in range(3)]
        for process in started:
            process.start()
        said = [told.get(timeout=120) for _ in started]
        for process in started:
            process.join()
        assert said == ["made"] * 3, said
        made = open_store(target)
        assert made.game_ids() == [] and made.query("SELECT count(*) FROM rounds_due") == [(0,)]
        made.close()
