"""Limits a host sets: how many events one import may hold, an operator key that creating
and importing games take (off by default), and rate limits per client address (on by
default; the suite turns them off, so these turn them on)."""

from pathlib import Path

import pytest

from referee.app import create_app

LOG = Path(__file__).resolve().parents[2] / "replays" / "corpus" / "galloping-horse"
GAME = {"ruleset": "galloping-horse", "players": ["Ann", "Ben", "Cat", "Dan"]}
NDJSON = {"Content-Type": "application/x-ndjson"}


def app_with(tmp_path, **config):
    return create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "TESTING": True, **config})


def a_log() -> bytes:
    return (LOG / "galloping-horse-corpus-0.jsonl").read_bytes()


def test_an_import_of_more_events_than_the_host_takes_is_413_and_stores_nothing(tmp_path):
    data = a_log()
    lines = data.count(b"\n")
    app = app_with(tmp_path, IMPORT_MAX_EVENTS=lines - 1)
    answer = app.test_client().post("/games/import", data=data, headers=NDJSON)
    assert answer.status_code == 413
    error = answer.get_json()["error"]
    assert error["code"] == "import/too_many_events"
    assert error["details"] == {"max_events": lines - 1}
    assert app.extensions["referee"].store.game_ids() == []
    exact = app_with(tmp_path / "exact", IMPORT_MAX_EVENTS=lines)
    assert exact.test_client().post("/games/import", data=data, headers=NDJSON).status_code == 201


@pytest.mark.parametrize("route", ["create", "import"])
def test_with_an_operator_key_creating_and_importing_take_it(tmp_path, route):
    app = app_with(tmp_path, OPERATOR_KEY="s3cret-key")
    client = app.test_client()

    def send(headers):
        if route == "create":
            return client.post("/games", json=GAME, headers=headers)
        return client.post("/games/import", data=a_log(), headers={**NDJSON, **headers})

    missing = send({})
    assert missing.status_code == 401
    assert missing.get_json()["error"]["code"] == "auth/operator_key"
    wrong = send({"X-Operator-Key": "guess"})
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "auth/operator_key"
    assert app.extensions["referee"].store.game_ids() == []
    assert send({"X-Operator-Key": "s3cret-key"}).status_code == 201


def test_with_an_operator_key_seats_still_play_with_their_own_tokens(tmp_path):
    client = app_with(tmp_path, OPERATOR_KEY="s3cret-key").test_client()
    created = client.post("/games", json=GAME, headers={"X-Operator-Key": "s3cret-key"})
    game = created.get_json()
    seat_token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    assert client.get(f"/games/{game['game_id']}", headers=seat_token).status_code == 200
    assert client.get(f"/games/{game['game_id']}/events").status_code == 200


def test_without_an_operator_key_anyone_may_create(tmp_path):
    assert app_with(tmp_path).test_client().post("/games", json=GAME).status_code == 201


def limited(tmp_path, **limits):
    return app_with(tmp_path, RATE_LIMITS=True, **limits)


def test_rate_limits_are_on_in_an_app_made_with_no_setting(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)  # the suite turns them off
    app = create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "RATE_LIMIT_CREATE": "2/hour"})
    client = app.test_client()
    assert [client.post("/games", json=GAME).status_code for _ in range(3)] == [201, 201, 429]
    assert len(app.extensions["referee"].store.game_ids()) == 2


@pytest.mark.parametrize("said", ["off", "OFF", "0", "no", "false"])
def test_the_operator_turns_rate_limits_off(tmp_path, monkeypatch, said):
    monkeypatch.setenv("REFEREE_RATE_LIMITS", said)
    client = create_app(
        {"REFEREE_DB": str(tmp_path / "referee.db"), "RATE_LIMIT_CREATE": "2/hour"}
    ).test_client()
    assert [client.post("/games", json=GAME).status_code for _ in range(4)] == [201] * 4


def test_a_rate_limit_switch_that_is_neither_on_nor_off_stops_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_RATE_LIMITS", "of")
    with pytest.raises(ValueError, match="REFEREE_RATE_LIMITS"):
        create_app({"REFEREE_DB": str(tmp_path / "referee.db")})


def test_creating_games_from_the_page_counts_with_the_api(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_CREATE="2 per hour")
    client = app.test_client()
    assert client.post("/games", json=GAME).status_code == 201
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    token = form.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    sent = {"csrf_token": token, "player": GAME["players"]}
    assert client.post("/new/galloping-horse", data=sent).status_code == 200
    assert client.post("/new/galloping-horse", data=sent).status_code == 429
    assert client.get("/new/galloping-horse").status_code == 200  # the form itself is not
    assert len(app.extensions["referee"].store.game_ids()) == 2


def test_creating_past_the_limit_is_429_with_retry_after_and_creates_nothing(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_CREATE="2 per hour")
    client = app.test_client()
    assert [client.post("/games", json=GAME).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/games", json=GAME)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "rate/limited"
    assert "2 per 1 hour" in refused.get_json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) > 0
    assert len(app.extensions["referee"].store.game_ids()) == 2
    other = client.post("/games", json=GAME, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201  # per client address


def test_commands_past_the_limit_are_429_and_append_nothing(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_COMMANDS="2 per hour")
    client = app.test_client()
    created = client.post("/games", json=GAME).get_json()
    game_id = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    statuses = []
    for _ in range(3):
        shown = client.get(f"/games/{game_id}").get_json()
        seat = shown["to_move"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        own = client.get(f"/games/{game_id}", headers=auth).get_json()
        sent = client.post(f"/games/{game_id}/commands", json=own["legal"][0], headers=auth)
        statuses.append(sent.status_code)
    assert statuses == [201, 201, 429]
    assert client.get(f"/games/{game_id}").get_json()["version"] == shown["version"]


def test_imports_past_the_limit_are_429(tmp_path):
    client = limited(tmp_path, RATE_LIMIT_IMPORT="1 per hour").test_client()
    data = a_log()
    assert client.post("/games/import", data=data, headers=NDJSON).status_code == 201
    again = client.post("/games/import", data=data, headers=NDJSON)
    assert again.status_code == 429 and again.get_json()["error"]["code"] == "rate/limited"


def test_imports_are_kept_for_good_so_their_bytes_have_a_daily_budget(tmp_path):
    """Each import counts its MiB (rounded up) against its client's day and everyone's:
    past either, 429 import/budget with the time until room comes back, nothing stored."""
    app = limited(tmp_path, IMPORT_MIB_PER_CLIENT="2 per day")
    client = app.test_client()
    data = a_log()
    assert len(data) < 1 << 20  # one MiB of the budget each
    assert client.post("/games/import", data=data, headers=NDJSON).status_code == 201
    store = app.extensions["referee"].store
    imported = store.game_ids()
    # refused as a game stored already, after it was counted: the budget counts what is sent
    assert client.post("/games/import", data=data, headers=NDJSON).status_code == 409
    refused = client.post("/games/import", data=data, headers=NDJSON)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "import/budget"
    assert 3600 < int(refused.headers["Retry-After"]) <= 86401
    assert store.game_ids() == imported
    elsewhere = client.post(
        "/games/import", data=data, headers=NDJSON, environ_base={"REMOTE_ADDR": "10.1.2.3"}
    )
    assert elsewhere.status_code == 409  # another address has its own day (the game exists)

    everyone = limited(tmp_path / "all", IMPORT_MIB_IN_ALL="1 per day").test_client()
    assert everyone.post("/games/import", data=data, headers=NDJSON).status_code == 201
    second = everyone.post(
        "/games/import", data=data, headers=NDJSON, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert second.get_json()["error"]["code"] == "import/budget"


def test_the_import_budget_is_on_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)
    app = create_app({"REFEREE_DB": str(tmp_path / "referee.db")})
    assert app.config["IMPORT_MIB_PER_CLIENT"] == "256 per day"
    assert app.config["IMPORT_MIB_IN_ALL"] == "2048 per day"
    assert "referee_limiter" in app.extensions


def test_creating_from_many_addresses_is_bounded_in_all(tmp_path):
    """30 addresses once made 600 games in 5 s, each within its own limit: the games of
    every client together have a limit of their own."""
    app = limited(tmp_path, RATE_LIMIT_CREATE="2 per hour", RATE_LIMIT_CREATE_IN_ALL="5 per hour")
    client = app.test_client()
    made = [
        client.post("/games", json=GAME, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
        for n in range(1, 8)
    ]
    assert [answer.status_code for answer in made] == [201] * 5 + [429] * 2
    assert "5 per 1 hour" in made[-1].get_json()["error"]["message"]
    assert len(app.extensions["referee"].store.game_ids()) == 5
