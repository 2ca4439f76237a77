"""The store's index of open rounds on a real SQLite file: a deadline gets its timed task
once, and only within the arming horizon (nearer ones with the command, further ones from
the sweeper as they come near), again when it changes; and a file made before the index
knew what was armed keeps working."""

import sqlite3

import pytest
from scheduling import T0, Clock, Recorder

from referee.service import GRACE_SECONDS, Referee
from referee.store import open_store
from referee.store.schema import add_column

DAY = 86400
HORIZON = 600
PLAYERS = ["Ann", "Bo", "Cy"]
NOTHING = {"ability": None, "spectate": None, "bets": {}}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def referee(store, clock):
    return Referee(store, clock=clock, scheduler=Recorder(), arming_seconds=HORIZON)


def start(referee, seconds):
    """A blackout-middle game whose round 0 is due `seconds` from now."""
    options = {"first_round_seconds": seconds, "round_seconds": DAY}
    return referee.create_game("blackout-middle", PLAYERS, options, "rounds-due")["game_id"]


def moderate(referee, game_id, kind, **fields):
    referee.command(game_id, "moderator", {"type": kind, "reason": "test", **fields})


def armed(store, game_id):
    return store.query_one("SELECT armed FROM rounds_due WHERE game_id = ?", (game_id,))


def test_a_far_deadline_is_armed_by_the_sweeper_once_and_only_within_the_horizon(referee, store):
    game_id = start(referee, DAY)
    deadline = T0 + DAY
    assert referee.scheduler.asked == []  # a day off: nothing on the broker
    assert armed(store, game_id) == (0,)
    assert referee.arm_rounds(deadline - HORIZON - 1) == []
    assert referee.arm_rounds(deadline - HORIZON) == [(game_id, 0, deadline)]
    assert referee.scheduler.asked == [(game_id, 0, deadline)]
    assert referee.arm_rounds(deadline - HORIZON) == []  # a second sweep sends nothing
    assert referee.arm_rounds(deadline - 1) == []
    assert referee.scheduler.asked == [(game_id, 0, deadline)]


def test_a_near_deadline_is_armed_with_the_command_and_never_again(referee, store, clock):
    game_id = start(referee, 300)
    assert referee.scheduler.asked == [(game_id, 0, T0 + 300)]
    assert armed(store, game_id) == (1,)
    clock.now = T0 + 10
    referee.command(game_id, 0, {"type": "submit_orders", "round": 0, "orders": NOTHING})
    assert armed(store, game_id) == (1,)  # the same deadline: its task stands
    assert referee.arm_rounds() == []
    assert referee.scheduler.asked == [(game_id, 0, T0 + 300)]


def test_a_sweep_never_arms_a_deadline_passed_or_a_round_not_running(referee, store):
    overdue, paused, closed = start(referee, DAY), start(referee, DAY), start(referee, DAY)
    moderate(referee, paused, "pause")
    moderate(referee, closed, "close_round")
    assert referee.scheduler.asked == [(closed, 0, None)]  # closed: resolved at once
    assert referee.arm_rounds(T0 + DAY) == []  # overdue: the sweep resolves it at once
    assert set(referee.due_rounds(T0 + DAY, grace=GRACE_SECONDS)) == {(closed, 0), (overdue, 0)}


def test_a_changed_deadline_is_armed_again_for_its_new_time(referee, store, clock):
    game_id = start(referee, DAY)
    first = T0 + DAY
    assert referee.arm_rounds(first - HORIZON) == [(game_id, 0, first)]
    clock.now = first - 100
    moderate(referee, game_id, "extend_deadline", seconds=DAY)  # far again: left to the sweeper
    second = first + DAY
    assert armed(store, game_id) == (0,)
    assert referee.arm_rounds(first) == []
    assert referee.arm_rounds(second - HORIZON) == [(game_id, 0, second)]
    clock.now = second - 100
    moderate(referee, game_id, "extend_deadline", seconds=60)  # near: timed with the command
    third = second + 60
    assert referee.scheduler.asked[-1] == (game_id, 0, third)
    assert armed(store, game_id) == (1,)
    assert referee.arm_rounds(clock.now) == []


def test_a_pause_disarms_and_a_resume_arms_the_moved_deadline(referee, store, clock):
    game_id = start(referee, 300)
    assert armed(store, game_id) == (1,)
    moderate(referee, game_id, "pause")
    assert armed(store, game_id) == (0,)
    assert referee.arm_rounds() == []  # paused: no deadline passes
    clock.now = T0 + 1000
    moderate(referee, game_id, "resume")
    assert referee.scheduler.asked[-1] == (game_id, 0, T0 + 1300)
    assert armed(store, game_id) == (1,)
    assert referee.arm_rounds() == []


def test_an_armed_deadline_is_left_to_its_task_for_the_grace(referee):
    armed_id, unarmed_id = start(referee, 300), start(referee, DAY)
    assert referee.due_rounds(T0 + 300, grace=GRACE_SECONDS) == []
    later = T0 + 300 + GRACE_SECONDS
    assert referee.due_rounds(later, grace=GRACE_SECONDS) == [(armed_id, 0)]  # task lost
    assert referee.due_rounds(T0 + DAY, grace=GRACE_SECONDS) == [(armed_id, 0), (unarmed_id, 0)]
    assert referee.due_rounds(T0 + 300) == [(armed_id, 0)]  # without a grace: due


def test_a_file_made_before_rounds_were_armed_gains_the_column_and_keeps_working(tmp_path, clock):
    path = tmp_path / "old.db"
    old = Referee(open_store(path), clock=clock, scheduler=Recorder())
    game_id = start(old, DAY)
    as_before(path)
    assert columns(path) == ["game_id", "round", "deadline", "ready", "paused"]

    store = open_store(path)
    assert columns(path) == ["game_id", "round", "deadline", "ready", "paused", "armed"]
    assert armed(store, game_id) == (0,)
    referee = Referee(store, clock=clock, scheduler=Recorder(), arming_seconds=HORIZON)
    referee.command(game_id, 0, {"type": "submit_orders", "round": 0, "orders": NOTHING})
    assert referee.arm_rounds(T0 + DAY - HORIZON) == [(game_id, 0, T0 + DAY)]
    open_store(path)  # opened again: nothing more to add
    assert columns(path)[-1] == "armed" and armed(store, game_id) == (1,)


def test_adding_a_column_twice_adds_it_once(sqlite_store):
    store = sqlite_store
    add_column(store.db, "rounds_due", "armed INTEGER NOT NULL DEFAULT 0")
    assert list(store.db["rounds_due"].columns_dict).count("armed") == 1


def as_before(path) -> None:
    """The file as the version before `armed` left it: the column dropped, rows kept."""
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE rounds_due DROP COLUMN armed")
    conn.commit()
    conn.close()


def columns(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute("PRAGMA table_info(rounds_due)")]
    finally:
        conn.close()
