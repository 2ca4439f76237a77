"""Arbitrary bodies to POST /games and POST /games/{id}/commands: never a 5xx, one error
shape, and a game moves on only when a command is answered 201."""

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app import create_app
from replays.verify import verify_bytes

HORSES = ["red", "yellow", "green", "blue"]
PLAYERS = ["Ada", "Bo", "Cy", "Di"]
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def maybe(valid, *, also=json_values):
    """Mostly plausible values, sometimes anything at all."""
    return st.one_of(valid, also)


options = st.dictionaries(
    st.sampled_from(["line_up", "first_seat", "food_cards", "speed"]),
    st.one_of(
        st.permutations(HORSES),
        st.lists(st.sampled_from(HORSES) | json_values, max_size=5),
        st.integers(min_value=-2, max_value=1002),
        json_values,
    ),
    max_size=4,
)

game_bodies = st.one_of(
    json_values,
    # anything in any field
    st.fixed_dictionaries(
        {},
        optional={
            "ruleset": maybe(st.sampled_from(["galloping-horse", "no-such-game", ""])),
            "players": maybe(st.lists(st.sampled_from(PLAYERS) | st.text(max_size=45), max_size=6)),
            "options": maybe(options),
            "seed": maybe(st.text(max_size=300)),
        },
    ),
    # a playable game, with options and seed fuzzed
    st.fixed_dictionaries(
        {"ruleset": st.just("galloping-horse"), "players": st.permutations(PLAYERS)},
        optional={"options": options, "seed": maybe(st.text(max_size=300))},
    ),
)

command_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "type": maybe(st.sampled_from(["play_card", "announce", "abandon", "fly"])),
            "horse": maybe(st.sampled_from([*HORSES, "purple"])),
            "text": maybe(st.text(max_size=10)),
            "reason": maybe(st.text(max_size=10)),
            "expected_version": maybe(st.integers(min_value=-1, max_value=12)),
            "extra": json_values,
        },
    ),
)

senders = st.sampled_from(["0", "1", "2", "3", "moderator", "spectator", "bogus", "malformed"])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One app and SQLite file for every example (each command example makes its own game)."""
    app = create_app({"REFEREE_DB": str(tmp_path_factory.mktemp("fuzz") / "referee.db")})
    return app.test_client()


def assert_error_shape(response):
    body = response.get_json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str)
    assert isinstance(body["error"]["details"], dict)


def game_count(client) -> int:
    return len(client.application.extensions["referee"].store.game_ids())


@FUZZ
@given(body=game_bodies)
def test_post_games_never_fails_and_only_201_makes_a_game(client, body):
    before = game_count(client)
    response = client.post("/games", json=body)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code == 201:
        created = response.get_json()
        assert game_count(client) == before + 1
        assert len(created["seats"]) == len(body["players"])
        if "seed" in body:
            assert created["seed_commitment"] == hashlib.sha256(body["seed"].encode()).hexdigest()
    else:
        assert response.status_code in (400, 404), response.get_json()
        assert_error_shape(response)
        assert game_count(client) == before


def new_game(client, opening_moves: int):
    body = {"ruleset": "galloping-horse", "players": PLAYERS}
    created = client.post("/games", json=body).get_json()
    game_id = created["game_id"]
    tokens = {str(s["seat"]): s["token"] for s in created["seats"]}
    tokens["moderator"] = created["moderator_token"]
    for _ in range(opening_moves):
        seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
        auth = {"Authorization": f"Bearer {tokens[str(seat)]}"}
        move = client.get(f"/games/{game_id}", headers=auth).get_json()["legal"][0]
        assert client.post(f"/games/{game_id}/commands", json=move, headers=auth).status_code == 201
    return game_id, tokens


def headers_of(sender: str, tokens: dict[str, str]) -> dict[str, str]:
    if sender == "spectator":
        return {}
    if sender == "bogus":
        return {"Authorization": "Bearer not-a-token"}
    if sender == "malformed":
        return {"Authorization": tokens["0"]}
    return {"Authorization": f"Bearer {tokens[sender]}"}


def moderator_view(client, game_id, tokens) -> dict:
    auth = {"Authorization": f"Bearer {tokens['moderator']}"}
    response = client.get(f"/games/{game_id}", headers=auth)
    assert response.status_code == 200
    return response.get_json()


@FUZZ
@given(
    body=command_bodies,
    sender=senders,
    opening_moves=st.integers(min_value=0, max_value=3),
    key=st.none() | st.sampled_from(["k1", "k2"]),
)
def test_post_commands_never_fails_and_only_201_moves_the_game(
    client, body, sender, opening_moves, key
):
    game_id, tokens = new_game(client, opening_moves)
    before = moderator_view(client, game_id, tokens)["version"]
    headers = headers_of(sender, tokens)
    if key is not None:
        headers["Idempotency-Key"] = key
    response = client.post(f"/games/{game_id}/commands", json=body, headers=headers)

    assert response.status_code < 500, response.get_data(as_text=True)
    after = moderator_view(client, game_id, tokens)["version"]
    if response.status_code == 201:
        result = response.get_json()
        assert result["version"] == after > before
        assert [e["seq"] for e in result["events"]] == list(range(before + 1, after + 1))
        assert result["events"][0]["command"] == {
            k: v for k, v in body.items() if k != "expected_version"
        }
    else:
        assert response.status_code in (400, 401, 403, 404, 409, 422), response.get_json()
        assert_error_shape(response)
        assert after == before
    log = client.get(f"/games/{game_id}/log", headers=headers_of("moderator", tokens))
    report = verify_bytes(log.get_data())
    assert report.valid, f"seq {report.seq}: {report.reason}"


raw_pieces = st.sampled_from(
    [
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b'"type"',
        b'"play_card"',
        b'"horse"',
        b'"red"',
        b"NaN",
        b"-Infinity",
        b"1e999",
        b'"\\ud800"',
        b"9" * 40,
        b"null",
        b"true",
        b" ",
        b"\xff",
    ]
)


@FUZZ
@given(raw=st.lists(raw_pieces, max_size=20).map(b"".join) | st.binary(max_size=64))
def test_raw_bytes_never_fail(client, raw):
    game_id, tokens = new_game(client, 0)
    for url, headers in (
        ("/games", {}),
        (f"/games/{game_id}/commands", headers_of("0", tokens)),
        (f"/games/{game_id}/commands", headers_of("moderator", tokens)),
    ):
        response = client.post(url, data=raw, content_type="application/json", headers=headers)
        assert response.status_code < 500, (raw, response.get_data(as_text=True))
        if response.status_code >= 400:
            assert_error_shape(response)
