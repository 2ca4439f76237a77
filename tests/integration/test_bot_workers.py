"""Bots played by real Celery worker processes over a real Redis, on a real SQLite file,
with the real HTTP app: games of bots played to their end (in turns, and in sealed
rounds), a bot move delivered several times appended once, and a bot move whose task
was lost sent again by the sweeper."""

import pytest
from test_rounds_workers import WITHIN, log_of, wait_until_ready
from waiting import wait_until

from referee.engine import game
from referee.serve import embedded
from replays.verify import verify_bytes

pytestmark = pytest.mark.usefixtures("worker_env")

GAMES = {
    "galloping-horse": ["random", "standard", "standard", "random"],
    "blackout-middle": ["standard", "random", "standard"],
}


def create(client, ruleset, players, **body):
    answer = client.post("/games", json={"ruleset": ruleset, "players": players, **body})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def bot_batches(events, seat):
    """The first events of the moves the seat's bot sent."""
    return [e for e in events if e["actor"] == seat and (e["command"] or {}).get("bot")]


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_game_of_bots_is_played_to_its_end_by_the_workers(client, app, db, broker, ruleset):
    options = {"round_seconds": 3600, "first_round_seconds": 3600}
    created = create(
        client,
        ruleset,
        [{"bot": level} for level in GAMES[ruleset]],
        options=options if ruleset == "blackout-middle" else {},
    )
    game_id = created["game_id"]
    assert [s["name"] for s in created["seats"]][:2] == ["Bot 1", "Bot 2"]
    moderator = {"Authorization": f"Bearer {created['moderator_token']}"}

    def over() -> bool:
        """The end; meanwhile the moderator records what it is asked to (a vote)."""
        shown = client.get(f"/games/{game_id}", headers=moderator).get_json()
        if "moderator" in shown["to_move"] and shown["legal"]:
            body = {**shown["legal"][0], "expected_version": shown["version"]}
            client.post(f"/games/{game_id}/commands", json=body, headers=moderator)
        return shown["status"] == "finished"

    with embedded.workers(1, broker=broker, db=db):
        wait_until(over, "the game to end", bound=WITHIN)
    events = log_of(app, game_id)
    for seat, level in enumerate(GAMES[ruleset]):
        moves = bot_batches(events, seat)
        assert moves and {m["command"]["bot"] for m in moves} == {level}
    people = [e for e in events if isinstance(e["actor"], int) and e["command"]]
    assert all(e["command"].get("bot") for e in people)  # every seat's move was its bot's
    log = client.get(f"/games/{game_id}/log").get_data()
    report = verify_bytes(log)
    assert report.valid, report


def test_a_bot_move_delivered_several_times_is_appended_once(client, app, db, broker):
    """Seat 1's bot moves first; a person plays seat 2, so the game waits after it."""
    created = create(
        client,
        "galloping-horse",
        ["Ann", {"bot": "random"}, "Cat", "Dan"],
        options={"first_seat": 1},
    )
    game_id, version = created["game_id"], created["version"]
    celery = app.extensions["celery"]
    with embedded.workers(2, broker=broker, db=db):
        wait_until_ready(celery)
        sent = [celery.send_task("referee.bot_move", args=[game_id, version, 1]) for _ in range(4)]
        results = [task.get(timeout=WITHIN) for task in sent]
    assert set(results) <= {"played", "stale"}, results
    events = log_of(app, game_id)
    (move,) = bot_batches(events, 1)
    assert move["seq"] == version + 1
    assert game.to_move(app.extensions["referee"].state(game_id)) == [2]


def test_a_stale_bot_move_does_nothing(client, app, db, broker):
    created = create(client, "galloping-horse", ["Ann", {"bot": "random"}, "Cat", "Dan"])
    game_id, version = created["game_id"], created["version"]
    celery = app.extensions["celery"]
    with embedded.workers(1, broker=broker, db=db):
        wait_until_ready(celery)
        stale = celery.send_task("referee.bot_move", args=[game_id, version - 1, 1])
        not_asked = celery.send_task("referee.bot_move", args=[game_id, version, 1])
        assert (stale.get(timeout=WITHIN), not_asked.get(timeout=WITHIN)) == ("stale", "not_asked")
    assert len(log_of(app, game_id)) == version  # seat 0, a person, is to move


def test_a_lost_bot_move_is_sent_again_by_the_sweeper(client, app, db, broker, monkeypatch):
    """The game is made with no broker to send its bot's move to (the move is lost); a
    worker's sweeper finds it once it is a second late, and the bot moves."""
    monkeypatch.setenv("REFEREE_BOT_RESEND_SECONDS", "1")
    referee = app.extensions["referee"]
    scheduler, referee.scheduler = referee.scheduler, None
    created = create(
        client,
        "galloping-horse",
        ["Ann", {"bot": "standard"}, "Cat", "Dan"],
        options={"first_seat": 1},
    )
    referee.scheduler = scheduler
    game_id = created["game_id"]
    with embedded.workers(1, broker=broker, db=db):
        wait_until(lambda: bot_batches(log_of(app, game_id), 1), "the bot's move", bound=WITHIN)
    assert len(bot_batches(log_of(app, game_id), 1)) == 1
