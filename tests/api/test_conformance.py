"""HTTP as clients expect it: 405 with Allow, routes never read as game ids, printable
names, one value per key, and the same 403 for every command a sender may not send."""

import json
import re

import pytest

PLAYERS = ["Ada", "Bo", "Cy", "Di"]
BAD_NAMES = ["Ann\x00", "\u202eAnn", "Ann\u2066", "   ", "An\nn", "A\tb", "\x7f", "Ann\u2028"]


def test_a_method_a_route_does_not_take_is_405_with_allow_and_a_json_code(client, http_game):
    answer = client.delete(f"/games/{http_game.game_id}")
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].split(", ")) >= {"GET", "HEAD", "OPTIONS"}
    assert answer.get_json()["error"]["code"] == "request/method_not_allowed"


@pytest.mark.parametrize("path", ["/games/import", "/games/import/events", "/games/import/log"])
def test_the_import_route_is_never_read_as_a_game_id(client, path):
    answer = client.get(path)
    assert answer.status_code in (404, 405)
    assert answer.get_json()["error"]["code"] != "game/not_found"
    if path == "/games/import":
        assert answer.status_code == 405 and "POST" in answer.headers["Allow"]


def test_a_game_id_that_only_starts_like_a_route_is_a_game_id(client):
    answer = client.get("/games/importer")
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "game/not_found"


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
def test_a_name_with_a_control_character_or_only_white_space_is_refused_at_creation(client, name):
    body = {"ruleset": "galloping-horse", "players": [*PLAYERS[:3], name]}
    answer = client.post("/games", json=body)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "request/invalid" and error["message"].startswith("players.3: ")


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
def test_a_replacement_name_is_held_to_the_same_rule(client, http_game, name):
    url = f"/games/{http_game.game_id}/commands"
    before = client.get(f"/games/{http_game.game_id}/events").get_json()["version"]
    command = {"type": "replace_player", "seat": 1, "name": name, "reason": "left"}
    answer = client.post(url, json=command, headers=http_game.auth("moderator"))
    assert answer.status_code == 400
    assert answer.get_json()["error"]["details"] == {"field": "name"}
    assert client.get(f"/games/{http_game.game_id}/events").get_json()["version"] == before
    fine = {**command, "name": "Zoë 🐎"}
    assert client.post(url, json=fine, headers=http_game.auth("moderator")).status_code == 201


def test_a_key_twice_in_one_object_is_refused_and_nothing_is_appended(client, http_game):
    created = client.post(
        "/games",
        data='{"ruleset": "galloping-horse", "ruleset": "dark-horse", "players": ["A","B"]}',
        content_type="application/json",
    )
    assert created.status_code == 400 and "appears twice" in created.get_json()["error"]["message"]
    before = client.get(f"/games/{http_game.game_id}/events").get_json()["version"]
    answer = client.post(
        f"/games/{http_game.game_id}/commands",
        data='{"type": "announce", "text": "a", "text": "b"}',
        content_type="application/json",
        headers=http_game.auth("moderator"),
    )
    assert answer.status_code == 400 and "'text'" in answer.get_json()["error"]["message"]
    assert client.get(f"/games/{http_game.game_id}/events").get_json()["version"] == before


MODERATORS = [
    {"type": "announce", "text": "hello"},
    {"type": "abandon", "reason": "bored"},
    {"type": "replace_player", "seat": 0, "name": "Eve", "reason": "left"},
    {"type": "open_dispute", "claim": "unfair", "amendment": {"kind": "drop", "seq": 2}},
    {"type": "rule_dispute", "dispute": 2, "ruling": "kept", "reason": "fine"},
]


@pytest.mark.parametrize("command", MODERATORS, ids=lambda c: c["type"])
def test_a_seat_sending_a_moderators_command_gets_the_one_403(client, http_game, command):
    url = f"/games/{http_game.game_id}/commands"
    before = client.get(f"/games/{http_game.game_id}/events").get_json()["version"]
    answer = client.post(url, json=command, headers=http_game.auth(0))
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "auth/moderator_only"
    assert client.get(f"/games/{http_game.game_id}/events").get_json()["version"] == before


ROUNDS = {"round_seconds": 3600, "first_round_seconds": 3600}
NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@pytest.fixture
def rounds_game(client):
    body = {"ruleset": "blackout-middle", "players": NINE, "options": ROUNDS}
    return client.post("/games", json=body).get_json()


@pytest.mark.parametrize(
    "command",
    [
        {"type": "extend_deadline", "seconds": 60, "reason": "late"},
        {"type": "pause", "reason": "holiday"},
        {"type": "close_round", "reason": "all in"},
    ],
    ids=lambda c: c["type"],
)
def test_a_seat_sending_a_round_control_gets_the_one_403(client, rounds_game, command):
    token = rounds_game["seats"][2]["token"]
    answer = client.post(
        f"/games/{rounds_game['game_id']}/commands",
        json=command,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 403, answer.get_json()
    assert answer.get_json()["error"]["code"] == "auth/moderator_only"


@pytest.mark.parametrize("who", ["seat", "moderator"])
def test_no_one_but_the_referee_resolves_a_round(client, rounds_game, who):
    token = rounds_game["seats"][0]["token"] if who == "seat" else rounds_game["moderator_token"]
    answer = client.post(
        f"/games/{rounds_game['game_id']}/commands",
        data=json.dumps({"type": "resolve_round", "round": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "auth/referee_only"


def test_the_api_docs_page_loads_everything_from_this_server(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # no CDN: works offline
    assets = re.findall(r'(?:src|href)="(/docs/assets/[^"]+)"', html)
    assert {a.rsplit("/", 1)[1] for a in assets} >= {
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
    }
    for asset in assets:
        answer = client.get(asset)
        assert answer.status_code == 200 and len(answer.data) > 10_000, asset
    assert client.get("/docs/assets/../app.py").status_code == 404
