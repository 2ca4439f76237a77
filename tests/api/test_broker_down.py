"""A command never waits on the broker: the round's due row is committed with the events,
and the resolve_round message is published afterwards by a thread of its own (the
sweeper catches up with any message that could not be sent)."""

import logging
import threading

from referee.app import create_app

NINE = [f"p{i}" for i in range(9)]
# a deadline within the arming horizon: its timed task is sent with the command
ROUNDS = {"round_seconds": 300, "first_round_seconds": 300}
GONE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once
BOUND = 60.0  # seconds, only for failing


def rounds_app(tmp_path):
    app = create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "REDIS_URL": GONE})
    return app, app.test_client()


def test_commands_answer_while_the_publisher_is_stuck_on_the_broker(tmp_path):
    app, client = rounds_app(tmp_path)
    scheduler = app.extensions["referee"].scheduler
    stuck, release, both_sent, sent = threading.Event(), threading.Event(), threading.Event(), []

    def hung_publish(*message):  # a broker that takes the message only when released
        stuck.set()
        assert release.wait(BOUND)
        sent.append(message)
        if len(sent) == 2:
            both_sent.set()
        return True

    scheduler.publish = hung_publish
    created = client.post(
        "/games", json={"ruleset": "blackout-middle", "players": NINE, "options": ROUNDS}
    )
    assert created.status_code == 201
    assert stuck.wait(BOUND)  # the publisher holds the deadline's message, unsent
    game_id = created.get_json()["game_id"]
    moderator = {"Authorization": f"Bearer {created.get_json()['moderator_token']}"}
    closed = client.post(
        f"/games/{game_id}/commands",
        json={"type": "close_round", "reason": "all in"},
        headers=moderator,
    )
    assert closed.status_code == 201  # answered while the publisher is still stuck
    assert sent == []
    assert app.extensions["referee"].due_rounds() == [(game_id, 0)]  # the sweeper's row
    release.set()
    assert both_sent.wait(BOUND)
    assert [(task, args) for task, args, _ in sent] == [("referee.resolve_round", [game_id, 0])] * 2
    assert sent[0][2] is not None and sent[1][2] is None  # the deadline's ETA, then now


def test_a_broker_that_refuses_is_logged_and_the_command_stands(tmp_path, caplog):
    app, client = rounds_app(tmp_path)
    scheduler = app.extensions["referee"].scheduler
    with caplog.at_level(logging.WARNING, logger="workers.celery_app"):
        assert scheduler.publish("referee.resolve_round", ["some-game", 0], None) is False
    assert "the sweeper will catch up" in caplog.text
    created = client.post(
        "/games", json={"ruleset": "blackout-middle", "players": NINE, "options": ROUNDS}
    )
    assert created.status_code == 201
    game_id = created.get_json()["game_id"]
    assert client.get(f"/games/{game_id}").get_json()["round"]["open"]["round"] == 0
