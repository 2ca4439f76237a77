"""Turn clocks through the service and the HTTP app, on a real SQLite file: creation,
the view, the store's due clocks, near deadlines timed at once and far ones armed by the
sweeper, and timeouts that happen once."""

import pytest
from scheduling import T0, Clock
from stores import store_target

from referee.app import create_app
from referee.service import NEAR_SECONDS

pytestmark = pytest.mark.both_stores

DAY = 86400
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


class Recorder:
    """A scheduler that remembers what the service asked for."""

    def __init__(self) -> None:
        self.timed: list[tuple[str, int, int]] = []

    def resolve(self, game_id, round_number, eta):
        raise AssertionError("a game in turns has no rounds")

    def time_out(self, game_id, seat, deadline):
        self.timed.append((game_id, seat, deadline))


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(tmp_path, clock, backend, request):
    target = store_target(backend, tmp_path / "referee.db", request)
    app = create_app({"REFEREE_DB": target, "TESTING": True})
    app.extensions["referee"].clock = clock
    app.extensions["referee"].scheduler = Recorder()
    return app


@pytest.fixture
def referee(app):
    return app.extensions["referee"]


def create(client, **clock):
    body = {"ruleset": "galloping-horse", "players": PLAYERS, "seed": "clocks", "clock": clock}
    return client.post("/games", json=body)


def auth(created, seat):
    token = created["moderator_token"] if seat == "moderator" else created["seats"][seat]["token"]
    return {"Authorization": f"Bearer {token}"}


def send(client, game_id, headers, **command):
    return client.post(f"/games/{game_id}/commands", json=command, headers=headers)


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({}, "seconds"),
        ({"seconds": 30}, "seconds"),
        ({"seconds": "1h"}, "seconds"),
        ({"seconds": DAY, "on_timeout": "kick"}, "on_timeout"),
        ({"seconds": DAY, "extensions": 99}, "extensions"),
        ({"seconds": DAY, "tick": 1}, "tick"),
    ],
)
def test_a_bad_clock_is_a_400_naming_the_field_and_stores_nothing(client, referee, clock, field):
    answer = create(client, **clock)
    assert answer.status_code == 400
    assert field in str(answer.get_json()["error"]["details"])
    assert referee.store.game_ids() == []


def test_a_game_in_rounds_with_a_clock_is_a_400(client):
    body = {"ruleset": "blackout-middle", "players": ["a", "b", "c"], "clock": {"seconds": 60}}
    answer = client.post("/games", json=body)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "clock/rounds"


def test_the_view_shows_each_seats_deadline_as_seconds_and_utc(client):
    created = create(client, seconds=DAY, extensions=1).get_json()
    shown = client.get(f"/games/{created['game_id']}").get_json()["clock"]
    assert shown["deadlines"] == [T0 + DAY, None, None, None]
    assert shown["deadlines_utc"] == ["2027-01-16T08:00:00Z", None, None, None]
    assert shown["on_timeout"] == "wait" and shown["extensions_left"] == [1] * 4
    assert shown["late"] == [False] * 4 and shown["paused"] is False


def test_a_far_deadline_waits_in_the_store_and_the_sweeper_arms_it_when_near(
    client, referee, clock
):
    created = create(client, seconds=DAY, on_timeout="default").get_json()
    game_id = created["game_id"]
    assert referee.scheduler.timed == []  # a day away: no task on the broker yet
    assert referee.arm_clocks() == []
    clock.now = T0 + DAY - NEAR_SECONDS
    assert referee.arm_clocks() == [(game_id, 0, T0 + DAY)]
    assert referee.scheduler.timed == [(game_id, 0, T0 + DAY)]
    assert referee.arm_clocks() == []  # armed once
    assert referee.due_clocks() == []
    clock.now = T0 + DAY
    assert referee.due_clocks() == [(game_id, 0, T0 + DAY)]


def test_a_near_deadline_is_timed_at_once_after_the_commit(client, referee, clock):
    created = create(client, seconds=300, on_timeout="default").get_json()
    game_id = created["game_id"]
    assert referee.scheduler.timed == [(game_id, 0, T0 + 300)]
    clock.now = T0 + 10
    horse = client.get(f"/games/{game_id}", headers=auth(created, 0)).get_json()["legal"][0]
    assert send(client, game_id, auth(created, 0), **horse).status_code == 201
    assert referee.scheduler.timed[-1] == (game_id, 1, T0 + 310)
    assert referee.arm_clocks() == []  # armed with the append


def test_a_timeout_happens_once_however_often_it_is_sent(client, referee, clock):
    created = create(client, seconds=DAY, on_timeout="default").get_json()
    game_id = created["game_id"]
    assert referee.time_out(game_id, 0, T0 + DAY) == "not_due"
    clock.now = T0 + DAY
    assert referee.time_out(game_id, 0, T0 + DAY) == "timed_out"
    assert referee.time_out(game_id, 0, T0 + DAY) == "moved"
    events = client.get(f"/games/{game_id}/events").get_json()["events"]
    assert [e.get("type") for e in events].count("MovePlayedFor") == 1
    assert referee.due_clocks() == []
    assert referee.store.due_clocks(T0 + 2 * DAY) == [(game_id, 1, T0 + 2 * DAY)]


def test_wait_leaves_the_seat_late_until_the_moderator_extends_its_clock(client, referee, clock):
    created = create(client, seconds=DAY).get_json()
    game_id = created["game_id"]
    clock.now = T0 + DAY
    assert referee.time_out(game_id, 0, T0 + DAY) == "timed_out"
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["clock"]["late"][0] is True and shown["to_move"] == [0]
    assert referee.due_clocks(T0 + 9 * DAY) == []  # nothing more is sent for it
    extended = send(
        client,
        game_id,
        auth(created, "moderator"),
        type="extend_clock",
        seat=0,
        seconds=3600,
        reason="travelling",
    )
    assert extended.status_code == 201
    assert referee.due_clocks(T0 + 9 * DAY) == [(game_id, 0, T0 + DAY + 3600)]


def test_clock_commands_of_others_are_refused_with_403_and_append_nothing(client, referee):
    created = create(client, seconds=DAY).get_json()
    game_id = created["game_id"]
    version = client.get(f"/games/{game_id}").get_json()["version"]
    answer = send(client, game_id, auth(created, 1), type="time_out", seat=0)
    assert answer.status_code == 403
    answer = send(client, game_id, auth(created, 1), type="pause", reason="mine")
    assert answer.status_code == 403
    answer = send(client, game_id, auth(created, 0), type="take_extension", now=1)
    assert answer.status_code == 400  # only the referee sets the time
    assert client.get(f"/games/{game_id}").get_json()["version"] == version


def test_a_pause_empties_the_due_clocks_and_resume_brings_them_back_moved(client, referee, clock):
    created = create(client, seconds=DAY, on_timeout="default").get_json()
    game_id = created["game_id"]
    moderator = auth(created, "moderator")
    assert send(client, game_id, moderator, type="pause", reason="break").status_code == 201
    assert referee.store.due_clocks(T0 + 9 * DAY) == []
    clock.now = T0 + 100
    assert send(client, game_id, moderator, type="resume", reason="back").status_code == 201
    assert referee.store.due_clocks(T0 + 9 * DAY) == [(game_id, 0, T0 + DAY + 100)]


def test_the_ruleset_and_openapi_documents_know_the_clock(client):
    spec = client.get("/openapi.json").get_json()
    create_body = spec["components"]["schemas"]["GameCreate"]["properties"]
    assert "clock" in create_body
