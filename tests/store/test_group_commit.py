"""Group commit: appends that wait for the write lock are committed together, each in a
savepoint of one transaction, and each writer gets its own result or error, as if it had
committed alone. And one writing process at a time, by the lock file beside the database.

The batch is made without timing: the first writer is held inside its commit (the
store's before_commit hook waits on an event) until the others are queued."""

import subprocess
import sys
import textwrap
import threading

import pytest

from referee.engine import game
from referee.engine.errors import Busy, Conflict
from referee.service import Referee
from referee.store import open_store

SEED = "group-seed"
BUSY = 0.2


def first_move(referee: Referee, game_id: str):
    state = referee.state(game_id)
    seat = game.to_move(state)[0]
    return state["seq"], game.execute(state, seat, game.legal(state, seat)[0], SEED)


def made(store):
    """Three galloping-horse games in `store`: (store, referee, their ids)."""
    referee = Referee(store)
    ids = [
        referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
        for _ in range(3)
    ]
    return store, referee, ids


@pytest.fixture
def games(store):
    return made(store)


def test_appends_queued_together_commit_once_and_fail_alone(sqlite_store):
    store, referee, (first, good, stale) = made(sqlite_store)
    moves = {game_id: first_move(referee, game_id) for game_id in (first, good, stale)}
    holding, release = threading.Event(), threading.Event()
    commits = []

    def before_commit():
        commits.append(len(commits))
        if len(commits) == 1:  # the first batch waits until the others queue
            holding.set()
            release.wait()

    store.before_commit = before_commit
    outcomes: dict[str, object] = {}

    def append(game_id: str, expected: int) -> None:
        try:
            outcomes[game_id] = store.append(game_id, expected, moves[game_id][1])
        except Conflict as refused:
            outcomes[game_id] = refused

    writers = [threading.Thread(target=append, args=(first, moves[first][0]))]
    writers[0].start()
    holding.wait()
    writers += [
        threading.Thread(target=append, args=(good, moves[good][0])),
        threading.Thread(target=append, args=(stale, moves[stale][0] + 5)),  # not its version
    ]
    for writer in writers[1:]:
        writer.start()
    queued = threading.Event()
    while not queued.wait(0.01):  # both are waiting for the write lock
        with store._turn:
            if len(store._waiting) == 2:
                queued.set()
    release.set()
    for writer in writers:
        writer.join()

    assert len(commits) == 2  # the first alone, then the two queued behind it together
    for game_id in (first, good):
        expected, records = moves[game_id]
        seqs = [e["seq"] for e in outcomes[game_id]]
        assert seqs == list(range(expected + 1, expected + 1 + len(records)))
        assert store.version(game_id) == seqs[-1]
    assert isinstance(outcomes[stale], Conflict)
    assert store.version(stale) == moves[stale][0]


def test_a_writer_whose_append_was_committed_returns_before_the_next_batch(tmp_path):
    """The writers of a batch return once it commits, though the next batch (formed while
    theirs committed) is still committing: none waits behind a batch it is not in."""
    store, referee, ids = made(open_store(tmp_path / "store.db"))
    ids.append(referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"])
    moves = {game_id: first_move(referee, game_id) for game_id in ids}
    gates = [threading.Event() for _ in range(3)]  # commits 1-3 wait on these
    entered = [threading.Event() for _ in range(3)]
    commits: list[int] = []

    def before_commit():
        n = len(commits)
        commits.append(n)
        if n < 3:
            entered[n].set()
            gates[n].wait()

    store.before_commit = before_commit
    returned: list[str] = []

    def append(game_id: str) -> None:
        store.append(game_id, moves[game_id][0], moves[game_id][1])
        returned.append(game_id)

    def start(game_id: str) -> threading.Thread:
        writer = threading.Thread(target=append, args=(game_id,))
        writer.start()
        return writer

    def queued(count: int) -> None:
        while True:
            with store._turn:
                if len(store._waiting) == count:
                    return

    writers = [start(ids[0])]
    entered[0].wait()  # commit 1 (the first alone) held
    writers += [start(ids[1]), start(ids[2])]
    queued(2)
    gates[0].set()
    entered[1].wait()  # commit 2 (the second and third together) held
    writers.append(start(ids[3]))
    queued(1)
    gates[1].set()
    entered[2].wait()  # commit 3 (the fourth) held: the second and third return meanwhile
    for writer in writers[:3]:
        writer.join(timeout=60)
    assert sorted(returned) == sorted(ids[:3]) and len(commits) == 3
    gates[2].set()
    writers[3].join()
    assert returned[-1] == ids[3]


def test_on_a_server_appends_to_two_games_commit_side_by_side(postgres_url):
    """PostgreSQL commits transactions side by side: one append held inside its commit
    does not keep another game's append waiting (no group commit there)."""
    store = open_store(postgres_url)
    _, referee, (first, second, _) = made(store)
    moves = {game_id: first_move(referee, game_id) for game_id in (first, second)}
    holding, release = threading.Event(), threading.Event()

    def before_commit():
        if not holding.is_set():
            holding.set()
            release.wait()

    store.before_commit = before_commit
    held = threading.Thread(target=store.append, args=(first, *moves[first]))
    held.start()
    holding.wait()
    events = store.append(second, *moves[second])  # while the first is held mid-commit
    assert store.version(second) == events[-1]["seq"] and store.version(first) == moves[first][0]
    release.set()
    held.join()
    assert store.version(first) == moves[first][0] + len(moves[first][1])
    store.close()


def test_a_failed_commit_fails_every_append_of_its_batch_and_writes_nothing(games):
    store, referee, (one, other, _) = games
    moves = {game_id: first_move(referee, game_id) for game_id in (one, other)}

    def refuse():
        raise OSError("disk full")

    store.before_commit = refuse
    for game_id in (one, other):
        with pytest.raises(OSError):
            store.append(game_id, moves[game_id][0], moves[game_id][1])
        assert store.version(game_id) == moves[game_id][0]
    store.before_commit = None
    assert store.append(one, moves[one][0], moves[one][1])[0]["seq"] == moves[one][0] + 1


def test_one_writing_process_at_a_time_and_a_bounded_wait_for_the_other(sqlite_store):
    store, referee, (game_id, _, _) = made(sqlite_store)
    expected, records = first_move(referee, game_id)
    other = open_store(store.path, busy_seconds=BUSY)  # its own lock file, as a process has
    store._writers.acquire(1.0)
    try:
        with pytest.raises(Busy):
            other.append(game_id, expected, records)
        assert other.version(game_id) == expected
    finally:
        store._writers.release()
    assert other.append(game_id, expected, records)[0]["seq"] == expected + 1


ON_THE_LOOP = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import sys
    import time

    import gevent

    import referee.store.contract as contract
    from referee.engine import game
    from referee.service import Referee
    from referee.store import open_store

    referee = Referee(open_store(sys.argv[1]))
    game_id = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, "s")["game_id"]
    ticks, seen = [0], []


    def tick():
        while True:
            gevent.sleep(0.001)
            ticks[0] += 1


    def before_commit():
        # as a disk flushing: held until the loop has ticked 3 times, which a commit on
        # the loop would never see (it gives up after 30 s)
        began, give_up = ticks[0], time.monotonic() + 30
        while ticks[0] < began + 3 and time.monotonic() < give_up:
            pass
        seen.append(ticks[0] - began >= 3)


    def move():
        state = referee.state(game_id)
        seat = game.to_move(state)[0]
        return referee.command(game_id, seat, game.legal(state, seat)[0])[0]


    contract.SLOW_FLUSH = 0.0  # every disk is slow: the first batch (in place) finds so
    move()
    referee.store.before_commit = before_commit
    gevent.spawn(tick)
    gevent.sleep(0)
    status = move()
    print(status, "the loop served during the commit:", seen == [True])
    """
)


def test_in_a_web_process_a_batch_commits_beside_the_loop(tmp_path):
    """While a batch's transaction runs and the disk flushes, the process's loop serves
    (its other requests are read, decided and queued for the next batch)."""
    done = subprocess.run(
        [sys.executable, "-c", ON_THE_LOOP, str(tmp_path / "s.db")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == ["201 the loop served during the commit: True"], done.stderr


WHERE = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import sys

    import referee.store.contract as contract
    from referee.engine import game
    from referee.service import Referee
    from referee.store import open_store

    contract.SLOW_FLUSH = float(sys.argv[2])
    contract.PROBE_EVERY = 3
    referee = Referee(open_store(sys.argv[1]))
    game_id = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, "s")["game_id"]
    loop, seen = monkey.get_original("threading", "get_ident")(), []
    ident = monkey.get_original("threading", "get_ident")
    referee.store.before_commit = lambda: seen.append("loop" if ident() == loop else "beside")
    for _ in range(5):
        state = referee.state(game_id)
        seat = game.to_move(state)[0]
        referee.command(game_id, seat, game.legal(state, seat)[0])
    print(" ".join(seen))
    """
)


@pytest.mark.parametrize(
    ("slow_after", "where"),
    [(0.0, "loop beside beside loop beside"), (3600.0, "loop loop loop loop loop")],
)
def test_batches_go_beside_the_loop_on_a_slow_disk_and_one_in_so_many_measures_it(
    tmp_path, slow_after, where
):
    """The hop to a thread costs about as much as a flush to a disk that does not wait:
    a web process commits in place unless the disk took longer than SLOW_FLUSH to flush
    the last batch that committed in place (the first, then one in PROBE_EVERY)."""
    done = subprocess.run(
        [sys.executable, "-c", WHERE, str(tmp_path / "s.db"), str(slow_after)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == where.split(), done.stderr
