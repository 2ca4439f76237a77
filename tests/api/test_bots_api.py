"""Bots in seats through the HTTP app, on both stores: seats created as bots, the
moderator's and the seats' own commands to hand a seat to a bot and back, what a client
may not send, which bot levels each ruleset has, the bot moves the service asks for
after each append and the store's table of them; bad input names its field and appends
nothing."""

import pytest
from scheduling import T0, Clock
from stores import store_target

from referee import games as rulesets
from referee.app import create_app
from referee.engine import registry

pytestmark = pytest.mark.both_stores

PEOPLE = ["Ann", "Ben", "Cat", "Dan"]


class Recorder:
    """A scheduler that remembers the bot moves the service asked for."""

    def __init__(self) -> None:
        self.bot_moves: list[tuple[str, int, int]] = []

    def bot_move(self, game_id, version, seat):
        self.bot_moves.append((game_id, version, seat))

    def time_out(self, game_id, seat, deadline):
        pass


@pytest.fixture
def app(tmp_path, backend, request):
    target = store_target(backend, tmp_path / "referee.db", request)
    app = create_app({"REFEREE_DB": target, "TESTING": True})
    app.extensions["referee"].clock = Clock()
    app.extensions["referee"].scheduler = Recorder()
    return app


@pytest.fixture
def referee(app):
    return app.extensions["referee"]


def create(client, players, **body):
    return client.post(
        "/games", json={"ruleset": "galloping-horse", "players": players, "seed": "bots", **body}
    )


def auth(created, seat):
    token = created["moderator_token"] if seat == "moderator" else created["seats"][seat]["token"]
    return {"Authorization": f"Bearer {token}"}


def send(client, created, who, /, **command):
    return client.post(
        f"/games/{created['game_id']}/commands", json=command, headers=auth(created, who)
    )


def games(referee) -> int:
    return len(referee.store.game_ids())


def bots_due(referee, game_id):
    rows = referee.store.query(
        "SELECT seat, version FROM bots_due WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [tuple(row) for row in rows]


def error_of(answer, status, code):
    assert answer.status_code == status, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == code, error
    return error


def test_seats_created_as_bots_are_named_shown_and_asked_to_move(client, referee):
    players = ["Ann", {"bot": "standard"}, {"bot": "random", "name": "Robo"}, "Dan"]
    answer = create(client, players, options={"first_seat": 1})
    assert answer.status_code == 201, answer.get_json()
    created = answer.get_json()
    assert [(s["name"], s.get("bot")) for s in created["seats"]] == [
        ("Ann", None),
        ("Bot 2", "standard"),
        ("Robo", "random"),
        ("Dan", None),
    ]
    game_id, version = created["game_id"], created["version"]
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["bots"] == {"1": "standard", "2": "random"}
    assert shown["players"] == ["Ann", "Bot 2", "Robo", "Dan"]
    assert referee.scheduler.bot_moves == [(game_id, version, 1)]
    assert bots_due(referee, game_id) == [(1, version)]


def test_a_game_without_bots_asks_for_no_bot_move_and_writes_no_row(client, referee):
    created = create(client, PEOPLE).get_json()
    send(client, created, 0, type="play_card", horse=_first_horse(client, created, 0))
    assert referee.scheduler.bot_moves == []
    assert "bots" not in client.get(f"/games/{created['game_id']}").get_json()
    assert referee.store.query("SELECT COUNT(*) FROM bots_due")[0][0] == 0


@pytest.fixture
def no_strong(monkeypatch):
    """A ruleset whose package brings no sampler: the strong bot does not play it."""
    monkeypatch.setattr(rulesets, "_has_sampler", lambda rules: False)


@pytest.mark.parametrize(
    ("players", "status", "field"),
    [
        (["Ann", {"bot": "genius"}, "Cat", "Dan"], 400, "players.1.bot"),
        (["Ann", {"bot": "random", "name": ""}, "Cat", "Dan"], 400, "players.1.name"),
        (["Ann", {"bot": "random", "seat": 3}, "Cat", "Dan"], 400, "players.1.seat"),
        (["Ann", {"name": "Robo"}, "Cat", "Dan"], 400, "players.1.bot"),
        (["Ann", 7, "Cat", "Dan"], 400, "players.1"),
        (["Ann", {"bot": "strong"}, "Cat", "Dan"], 422, "players.1.bot"),
    ],
)
def test_a_bad_bot_seat_names_its_field_and_creates_nothing(
    client, referee, no_strong, players, status, field
):
    answer = create(client, players)
    assert answer.status_code == status, answer.get_json()
    assert answer.get_json()["error"]["message"].startswith(f"{field}:")
    assert games(referee) == 0


@pytest.mark.parametrize(
    ("clock", "status", "field"),
    [
        ({"autopilot_level": "strong"}, 422, "clock.autopilot_level"),
        ({"autopilot_level": "random"}, 400, "clock.autopilot_level"),
    ],
)
def test_a_clocks_autopilot_bot_is_checked(client, referee, no_strong, clock, status, field):
    answer = create(client, PEOPLE, clock={"seconds": 3600, "on_timeout": "autopilot", **clock})
    assert answer.status_code == status, answer.get_json()
    assert answer.get_json()["error"]["message"].startswith(f"{field}:")
    assert games(referee) == 0


def test_the_moderator_hands_a_quiet_seat_to_a_bot_and_back(client, referee):
    created = create(client, PEOPLE).get_json()
    game_id = created["game_id"]
    answer = send(
        client, created, "moderator", type="seat_bot", seat=0, level="standard", reason="away"
    )
    assert answer.status_code == 201, answer.get_json()
    (seated,) = answer.get_json()["events"]
    assert seated["type"] == "BotSeated" and seated["payload"]["by"] == "moderator"
    assert referee.scheduler.bot_moves == [(game_id, seated["seq"], 0)]  # seat 0 is to move
    refused = send(client, created, 0, type="play_card", horse="red")
    error = error_of(refused, 422, "rule/seat_played_by_bot")
    assert "take your seat back" in error["message"]
    assert client.get(f"/games/{game_id}").get_json()["version"] == seated["seq"]
    answer = send(client, created, "moderator", type="unseat_bot", seat=0, reason="back")
    assert answer.status_code == 201
    assert client.get(f"/games/{game_id}").get_json()["bots"] == {}
    assert bots_due(referee, game_id) == []


def test_a_player_goes_on_holiday_and_comes_back(client, referee, no_strong):
    created = create(client, PEOPLE).get_json()
    game_id = created["game_id"]
    assert send(client, created, 2, type="hand_to_bot", level="random").status_code == 201
    assert client.get(f"/games/{game_id}").get_json()["bots"] == {"2": "random"}
    assert referee.scheduler.bot_moves == []  # seat 2 is not asked yet
    assert send(client, created, 2, type="take_seat_back").status_code == 201
    error_of(send(client, created, 2, type="take_seat_back"), 422, "rule/no_bot")
    error_of(
        send(client, created, 2, type="hand_to_bot", level="strong"), 422, "bot/level_unavailable"
    )


@pytest.mark.parametrize(
    ("seat", "command", "status", "code"),
    [
        (0, {"type": "play_card", "horse": "red", "bot": "standard"}, 400, "command/invalid"),
        (
            1,
            {"type": "seat_bot", "seat": 1, "level": "random", "reason": "r"},
            403,
            "auth/moderator_only",
        ),
        ("moderator", {"type": "hand_to_bot", "level": "random"}, 400, "command/unknown"),
        (1, {"type": "hand_to_bot", "level": "genius"}, 400, "command/invalid"),
        (1, {"type": "hand_to_bot"}, 400, "command/invalid"),
        ("moderator", {"type": "seat_bot", "seat": 1, "level": "random"}, 400, "command/invalid"),
        (
            "moderator",
            {"type": "seat_bot", "seat": 9, "level": "random", "reason": "r"},
            422,
            "rule/no_such_seat",
        ),
    ],
)
def test_what_a_client_may_not_send_changes_nothing(client, referee, seat, command, status, code):
    created = create(client, PEOPLE).get_json()
    error = error_of(send(client, created, seat, **command), status, code)
    if code == "command/invalid":
        assert error["details"]["field"] in ("bot", "level", "reason")
    shown = client.get(f"/games/{created['game_id']}").get_json()
    assert shown["version"] == created["version"] and "bots" not in shown


def test_every_ruleset_says_which_bots_play_it(client):
    for name in registry.names():
        shown = client.get(f"/rulesets/{name}").get_json()
        assert shown["bot_levels"] == ["random", "standard", "strong"], name
        assert {"hand_to_bot", "take_seat_back"} <= set(shown["commands"])
        assert {"seat_bot", "unseat_bot"} <= set(shown["moderator_commands"])


def test_the_openapi_document_takes_a_bot_seat(client):
    document = client.get("/openapi.json").get_json()
    players = document["components"]["schemas"]["GameCreate"]["properties"]["players"]
    assert players["items"]["oneOf"][1] == {"$ref": "#/components/schemas/BotSeat"}
    bot = document["components"]["schemas"]["BotSeat"]["properties"]["bot"]
    assert bot["enum"] == ["random", "standard", "strong"]
    clock = document["components"]["schemas"]["Clock"]["properties"]
    assert clock["autopilot_level"]["enum"] == ["standard", "strong"]


def _first_horse(client, created, seat):
    shown = client.get(f"/games/{created['game_id']}", headers=auth(created, seat)).get_json()
    return shown["legal"][0]["horse"]


def test_the_time_asked_is_the_services(client, referee):
    created = create(client, ["Ann", {"bot": "random"}, "Cat", "Dan"], options={"first_seat": 1})
    rows = referee.store.query("SELECT sent_at FROM bots_due")
    assert [row[0] for row in rows] == [T0]
    assert created.status_code == 201


def test_the_strong_bots_budget_is_each_rulesets_own_unless_the_host_sets_one(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("REFEREE_BOT_ITERATIONS", raising=False)
    made = create_app({"REFEREE_DB": str(tmp_path / "own.db")})
    assert made.config["BOT_ITERATIONS"] == 0  # each ruleset's own, about a second a move
    made.extensions["referee"].store.close()
    monkeypatch.setenv("REFEREE_BOT_ITERATIONS", "30")
    made = create_app({"REFEREE_DB": str(tmp_path / "set.db")})
    assert made.config["BOT_ITERATIONS"] == 30
    made.extensions["referee"].store.close()
