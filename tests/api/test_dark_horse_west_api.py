"""Dark Horse West over HTTP, on the real app and a real SQLite file: the ruleset's
description, a whole game played by its seats to a verified log, what each seat and a
spectator may see of the face-down tiles and the hands, and errors that change nothing."""

from dataclasses import dataclass

import pytest

from replays.scenarios import growing
from replays.verify import verify_bytes

PLAYERS = ["Ann", "Ben", "Cat"]
SEED = "dark-horse-west-api"


@dataclass
class Table:
    """A game created over HTTP: its id and the tokens."""

    game_id: str
    moderator: str
    seats: list[str]

    def auth(self, who) -> dict[str, str]:
        if who is None:
            return {}
        token = self.moderator if who == "moderator" else self.seats[int(who)]
        return {"Authorization": f"Bearer {token}"}


def create(client, players=PLAYERS, **options) -> Table:
    body = {"ruleset": "dark-horse-west", "players": players, "options": options, "seed": SEED}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    return Table(made["game_id"], made["moderator_token"], [s["token"] for s in made["seats"]])


def view(client, table: Table, who=None) -> dict:
    response = client.get(f"/games/{table.game_id}", headers=table.auth(who))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def stream(client, table: Table, who=None) -> list[dict]:
    response = client.get(f"/games/{table.game_id}/events?after=0", headers=table.auth(who))
    assert response.status_code == 200
    return response.get_json()["events"]


def send(client, table: Table, who, body):
    return client.post(f"/games/{table.game_id}/commands", json=body, headers=table.auth(who))


def log_of(client, table: Table) -> bytes:
    response = client.get(f"/games/{table.game_id}/log", headers=table.auth("moderator"))
    assert response.status_code == 200
    return response.get_data()


def play_to_end(client, table: Table, limit: int = 3000) -> None:
    for _ in range(limit):
        shown = view(client, table, "moderator")
        if shown["status"] != "active":
            return
        seat = shown["to_move"][0]
        legal = view(client, table, seat)["legal"]
        body = {**growing(legal), "expected_version": shown["version"]}
        response = send(client, table, seat, body)
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")


@pytest.fixture
def table(client) -> Table:
    return create(client, game_end_influence=3)


def test_the_ruleset_is_described_with_its_options_and_commands(client):
    described = client.get("/rulesets/dark-horse-west").get_json()
    assert (described["min_players"], described["max_players"]) == (1, 4)
    assert described["options"]["game_end_influence"] == 11
    assert {"place", "dealer", "collect", "play_card", "keep_card"} <= set(described["commands"])


def test_a_whole_game_over_http_ends_and_its_log_verifies(client, table):
    play_to_end(client, table)
    shown = view(client, table)
    assert shown["status"] == "finished" and shown["outcome"]["winners"]
    assert shown["seed"] == SEED
    report = verify_bytes(log_of(client, table))
    assert report.valid, report.reason


def test_a_seat_sees_the_tiles_around_its_city_and_no_other_hand(client, table):
    while view(client, table, "moderator")["state"]["phase"] == "setup":
        seat = view(client, table, "moderator")["to_move"][0]
        assert send(client, table, seat, view(client, table, seat)["legal"][0]).status_code == 201
    moderator = view(client, table, "moderator")["state"]
    for seat in range(len(PLAYERS)):
        mine = view(client, table, seat)["state"]
        assert set(mine["tiles_seen"]) <= set(moderator["face_down"])
        assert all(moderator["layout"][h] == t for h, t in mine["tiles_seen"].items())
        assert "hands" not in mine and "layout" not in mine and "deck" not in mine
    spectator = view(client, table)["state"]
    assert "tiles_seen" not in spectator and "hand" not in spectator and "layout" not in spectator


def test_other_seats_see_the_hidden_setup_events_redacted(client, table):
    whole = stream(client, table, "moderator")
    setup = [e for e in whole if e["type"] in ("TilesLaid", "DeckShuffled")]
    assert {e["type"] for e in setup} == {"TilesLaid", "DeckShuffled"}
    assert next(e for e in setup if e["type"] == "TilesLaid")["payload"]["layout"]
    for who in (0, 1, None):
        seen = {e["seq"]: e for e in stream(client, table, who)}
        # only each one's place in the chain: not its type, author, audience or time
        assert [seen[e["seq"]] for e in setup] == [
            {"seq": e["seq"], "prev_hash": e["prev_hash"], "hash": e["hash"], "redacted": True}
            for e in setup
        ]


def test_errors_are_clear_and_append_nothing(client, table):
    before = log_of(client, table)
    seat = view(client, table, "moderator")["to_move"][0]
    other = (seat + 1) % len(PLAYERS)
    wrong = send(client, table, other, {"type": "place_city", "hex": "1,0"})
    assert wrong.status_code == 422 and wrong.get_json()["error"]["code"] == "rule/not_your_turn"
    bad = send(client, table, seat, {"type": "place_city", "hex": "9,9"})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "rule/city_site"
    odd = send(client, table, seat, {"type": "place_city", "hex": ["1,0"], "color": "red"})
    assert odd.status_code == 400 and odd.get_json()["error"]["details"]["field"] == "color"
    assert log_of(client, table) == before


def test_options_are_checked_against_the_players(client):
    body = {"ruleset": "dark-horse-west", "players": PLAYERS, "options": {"gunslinger": True}}
    response = client.post("/games", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["details"]["field"] == "options.gunslinger"
    solo = {"ruleset": "dark-horse-west", "players": ["Ann"], "options": {"scenario": "gold_rush"}}
    assert client.post("/games", json=solo).status_code == 201
