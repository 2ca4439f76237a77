"""Turn clocks enforced by real Celery worker processes over a real Redis, on a real
SQLite file, with the real HTTP app: an overdue clock times out, a worker killed while a
timeout is due leaves it to happen exactly once after a restart, and a timed task sent
for a near deadline is taken when it comes."""

import os
import signal
import threading
import time

import pytest
from receiver import Receiver
from standardwebhooks.webhooks import Webhook
from test_rounds_workers import HOUR, WITHIN, log_of, wait_until_ready, wait_until_writing
from waiting import wait_until

from referee.serve import embedded

PLAYERS = ["ann", "bob", "cat", "dan"]


pytestmark = pytest.mark.usefixtures("worker_env")


def start_game(client, on_timeout="default", seconds=HOUR):
    body = {
        "ruleset": "galloping-horse",
        "players": PLAYERS,
        "clock": {"seconds": seconds, "on_timeout": on_timeout},
    }
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    return created.get_json()["game_id"]


def timeouts(app, game_id, seat=0):
    return [
        e
        for e in log_of(app, game_id)
        if e["type"] in ("MovePlayedFor", "SeatLate") and e["payload"]["seat"] == seat
    ]


def wait_for_timeout(app, game_id, seat=0):
    """Poll the log until the seat has timed out."""
    wait_until(lambda: timeouts(app, game_id, seat), f"seat {seat} to time out", bound=WITHIN)


def created_two_hours_ago(app):
    """The service's clock two hours back: a one-hour clock started then passed an hour
    ago by the worker's clock, so no deadline can pass while the test sets up."""
    then = int(time.time()) - 2 * HOUR
    app.extensions["referee"].clock = lambda: then


@pytest.mark.parametrize("on_timeout", ["default", "wait"])
def test_an_overdue_clock_is_timed_out_by_a_worker(client, app, db, broker, on_timeout):
    created_two_hours_ago(app)
    game_id = start_game(client, on_timeout)
    with embedded.workers(1, broker=broker, db=db):
        wait_for_timeout(app, game_id)
    (timed,) = timeouts(app, game_id)
    assert timed["actor"] == "referee" and timed["command"]["type"] == "time_out"
    shown = client.get(f"/games/{game_id}").get_json()
    if on_timeout == "wait":
        assert timed["type"] == "SeatLate" and shown["clock"]["late"][0] is True
    else:
        assert timed["type"] == "MovePlayedFor" and shown["to_move"] == [1]


def test_a_worker_killed_while_a_timeout_is_due_leaves_it_to_happen_once(client, app, db, broker):
    created_two_hours_ago(app)
    game_id = start_game(client)
    # the worker sleeps inside every append's transaction; it is killed long before
    slow = {"REFEREE_PAUSE_BEFORE_COMMIT": str(WITHIN)}
    with embedded.workers(1, broker=broker, db=db, env=slow) as (doomed,):
        wait_until_ready(app.extensions["celery"])
        wait_until_writing(db)  # the worker took the timeout and sits inside the transaction
        os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait()
    assert timeouts(app, game_id) == []
    with embedded.workers(1, broker=broker, db=db):  # the sweeper finds the overdue clock
        wait_for_timeout(app, game_id)
        wait_for_the_sweeper_to_pass(app)
    assert len(timeouts(app, game_id)) == 1
    events = log_of(app, game_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def wait_for_the_sweeper_to_pass(app):
    """Send a sweep and wait for its answer: every task sent before it (a duplicate
    timeout) has been taken by the one worker by then."""
    celery = app.extensions["celery"]
    celery.send_task("referee.sweep_rounds").get(timeout=WITHIN)


def test_the_timed_task_of_a_near_deadline_is_taken_when_it_comes(client, app, db, broker):
    """A one-minute clock started 55 seconds ago by the service's clock runs out in
    seconds: its timed task is sent at once, and the worker takes it at the deadline (no
    beat runs, so no sweeper can do it)."""
    then = int(time.time()) - 55
    app.extensions["referee"].clock = lambda: then
    game_id = start_game(client, seconds=60)
    deadline = then + 60
    armed = (
        app.extensions["referee"]
        .store.db.execute("SELECT armed FROM clocks_due WHERE game_id = ?", (game_id,))
        .fetchone()
    )
    assert armed == (1,)
    with embedded.workers(1, broker=broker, db=db, beat=False):
        wait_for_timeout(app, game_id)
    (timed,) = timeouts(app, game_id)
    assert timed["command"]["now"] >= deadline


def test_a_worker_delivers_a_notice_to_a_real_receiver(client, app, db, broker):
    """Seat 0's clock runs out (under `default` the referee moves for it), so seat 1 is
    asked: the worker's deliver task posts seat 1 its signed notice."""
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    created_two_hours_ago(app)
    body = {
        "ruleset": "galloping-horse",
        "players": PLAYERS,
        "clock": {"seconds": HOUR, "on_timeout": "default"},
    }
    created = client.post("/games", json=body).get_json()
    game_id = created["game_id"]
    seat_one = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    subscribed = client.post(
        f"/games/{game_id}/subscriptions",
        json={"kind": "webhook", "url": receiver.url, "events": ["your_move"]},
        headers=seat_one,
    )
    secret = subscribed.get_json()["secret"]
    try:
        with embedded.workers(1, broker=broker, db=db):  # its sweeper times seat 0 out
            receiver.wait_for(1)
    finally:
        receiver.shutdown()
        receiver.server_close()
    headers, sent = receiver.got[0]
    notice = Webhook(secret).verify(sent, headers)["data"]
    assert notice["kind"] == "your_move" and notice["game_id"] == game_id
