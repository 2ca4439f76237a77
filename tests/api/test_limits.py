"""Limits a host sets: how many events one import may hold, and an operator key that
creating and importing games take (off by default)."""

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
