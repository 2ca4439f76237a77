"""The HTTP API on the real app and a real SQLite file: views, commands, errors, logs."""

import hashlib
import json

import pytest

from replays.verify import verify_bytes

pytestmark = pytest.mark.both_stores

HORSES = ["red", "yellow", "green", "blue"]


# --- helpers ---------------------------------------------------------------------------


def error_of(response, status: int, code: str | None = None) -> dict:
    """Assert an error response: its status, the one error shape, and its code."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]


def view(client, game, seat=None) -> dict:
    headers = {} if seat is None else game.auth(seat)
    response = client.get(f"/games/{game.game_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def version(client, game) -> int:
    return view(client, game, "moderator")["version"]


def log_lines(client, game, seat="moderator") -> bytes:
    headers = {} if seat is None else game.auth(seat)
    response = client.get(f"/games/{game.game_id}/log", headers=headers)
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/x-ndjson"
    return response.get_data()


def command(client, game, seat, body, **headers):
    return client.post(
        f"/games/{game.game_id}/commands", json=body, headers={**game.auth(seat), **headers}
    )


def seat_to_move(client, game) -> int:
    return view(client, game)["to_move"][0]


def play_turn(client, game) -> dict:
    """The seat to move plays its first legal command; returns the 201 body."""
    seat = seat_to_move(client, game)
    response = command(client, game, seat, view(client, game, seat)["legal"][0])
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play_to_the_end(client, game) -> dict:
    for _ in range(200):
        shown = view(client, game)
        if shown["status"] != "active":
            return shown
        play_turn(client, game)
    raise AssertionError("the game did not end within 200 commands")


# --- creating games --------------------------------------------------------------------


def test_create_game_gives_seats_tokens_and_the_seed_commitment(client, http_game):
    created = http_game.created
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2, 3]
    assert [s["name"] for s in created["seats"]] == ["Ada", "Bo", "Cy", "Di"]
    tokens = [created["moderator_token"], *http_game.seats]
    assert len(set(tokens)) == 5 and all(len(t) >= 24 for t in tokens)
    assert created["seed_commitment"] == hashlib.sha256(http_game.seed.encode()).hexdigest()
    shown = view(client, http_game)
    assert created["version"] == shown["version"]
    assert shown["status"] == "active" and shown["seed"] is None
    assert shown["seed_commitment"] == created["seed_commitment"]
    assert shown["players"] == ["Ada", "Bo", "Cy", "Di"]


def test_create_game_without_a_seed_commits_to_a_secret_one(client):
    body = {"ruleset": "galloping-horse", "players": ["a", "b", "c", "d"]}
    first, second = (client.post("/games", json=body).get_json() for _ in range(2))
    assert len(first["seed_commitment"]) == 64
    assert first["seed_commitment"] != second["seed_commitment"]
    assert first["game_id"] != second["game_id"]


def test_create_game_applies_options(client, new_game):
    game = new_game(first_seat=2, line_up=["blue", "green", "yellow", "red"], food_cards=3)
    shown = view(client, game)
    assert shown["options"] == {
        "first_seat": 2,
        "line_up": ["blue", "green", "yellow", "red"],
        "food_cards": 3,
    }
    assert shown["to_move"] == [2]
    assert shown["state"]["line_up"] == ["blue", "green", "yellow", "red"]
    assert shown["state"]["food_stack"] == 3


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"ruleset": "no-such-game", "players": ["a", "b", "c", "d"]}, 404, "ruleset/unknown"),
        ({"ruleset": "galloping-horse", "players": ["a", "b", "c"]}, 400, "players/count"),
        (
            {"ruleset": "galloping-horse", "players": ["a", "b", "c", "d"], "options": {"x": 1}},
            400,
            "options/unknown",
        ),
        (
            {
                "ruleset": "galloping-horse",
                "players": ["a", "b", "c", "d"],
                "options": {"line_up": ["red", "red", "blue", "green"]},
            },
            400,
            "options/invalid",
        ),
        (
            {
                "ruleset": "galloping-horse",
                "players": ["a", "b", "c", "d"],
                "options": {"first_seat": 4},
            },
            400,
            "options/invalid",
        ),
        ({"ruleset": "galloping-horse"}, 400, "request/invalid"),
        ({"players": ["a", "b", "c", "d"]}, 400, "request/invalid"),
        ({"ruleset": "galloping-horse", "players": "abcd"}, 400, "request/invalid"),
        (
            {"ruleset": "galloping-horse", "players": ["a", "b", "c", "x" * 41]},
            400,
            "request/invalid",
        ),
        ({"ruleset": "galloping-horse", "players": ["a", "b", "c", ""]}, 400, "request/invalid"),
        ({"ruleset": "galloping-horse", "players": ["a", "b", "c", "d"], "seed": ""}, 400, None),
        ({"ruleset": "galloping-horse", "players": ["a", "b", "c", "d"], "seed": 7}, 400, None),
        ([], 400, "request/invalid"),
    ],
)
def test_create_game_refuses_bad_requests_and_stores_nothing(app, client, body, status, code):
    error = error_of(client.post("/games", json=body), status, code)
    assert error["message"]
    assert app.extensions["referee"].store.game_ids() == []


@pytest.mark.parametrize("line_up", [["red", "yellow", "green", None], [{}, "red", 1, []]])
def test_a_line_up_of_mixed_types_is_400(client, line_up):
    body = {"ruleset": "galloping-horse", "players": ["a", "b", "c", "d"]}
    response = client.post("/games", json={**body, "options": {"line_up": line_up}})
    error_of(response, 400, "options/invalid")


GAME_START = b'{"ruleset": "galloping-horse", "players": ["a", "b", "c", '


@pytest.mark.parametrize(
    "raw",
    [
        GAME_START + b'"d"],',
        GAME_START + b'"\\ud800"]}',
        GAME_START + b'"d"], "seed": "\\udfff"}',
        GAME_START + b'"d"], "options": {"food_cards": NaN}}',
        GAME_START + b'"d"], "options": {"x": -Infinity}}',
        GAME_START + b'"d"], "options": {"x": 1e999}}',
        b"\xff\xfe\x00",
    ],
)
def test_create_game_refuses_json_the_log_cannot_hold(app, client, raw):
    response = client.post("/games", data=raw, content_type="application/json")
    error_of(response, 400, "request/invalid")
    assert app.extensions["referee"].store.game_ids() == []


# --- views -----------------------------------------------------------------------------


def test_each_seat_sees_its_own_hand_and_no_other(client, http_game):
    hands = view(client, http_game, "moderator")["state"]["hands"]
    for seat in range(4):
        shown = view(client, http_game, seat)
        assert shown["state"]["hand"] == hands[seat]
        assert sum(shown["state"]["hand"].values()) == 7
        assert "hands" not in shown["state"]
        assert shown["state"]["hand_sizes"] == [7, 7, 7, 7]
        others = [hands[s] for s in range(4) if s != seat and hands[s] != hands[seat]]
        text = json.dumps(shown)
        assert all(json.dumps(hand, sort_keys=True) not in text for hand in others)


def test_only_the_seat_to_move_is_offered_commands(client, http_game):
    mover = seat_to_move(client, http_game)
    for seat in range(4):
        legal = view(client, http_game, seat)["legal"]
        if seat == mover:
            hand = view(client, http_game, seat)["state"]["hand"]
            assert legal == [{"type": "play_card", "horse": h} for h in HORSES if hand[h] > 0]
        else:
            assert legal == []


def test_a_spectator_sees_no_hand(client, http_game):
    shown = view(client, http_game)
    assert "hand" not in shown["state"] and "hands" not in shown["state"]
    assert shown["legal"] == [] and shown["seed"] is None
    assert shown["to_move"] == [0]


def test_the_moderator_sees_every_hand(client, http_game):
    shown = view(client, http_game, "moderator")
    hands = shown["state"]["hands"]
    assert len(hands) == 4
    assert {h: sum(hand[h] for hand in hands) for h in HORSES} == dict.fromkeys(HORSES, 7)
    assert shown["legal"] == [] and "hand" not in shown["state"]


def test_views_need_a_valid_token_of_this_game(client, http_game, new_game):
    other = new_game(seed="other")
    url = f"/games/{http_game.game_id}"
    error_of(client.get(url, headers={"Authorization": "Bearer nope"}), 401, "auth/invalid_token")
    error_of(client.get(url, headers={"Authorization": "Basic abc"}), 401, "auth/malformed")
    error_of(client.get(url, headers={"Authorization": "Bearer "}), 401, "auth/malformed")
    error_of(client.get(url, headers=other.auth(0)), 403, "auth/wrong_game")
    error_of(client.get("/games/no-such-game"), 404, "game/not_found")


# --- a whole game ----------------------------------------------------------------------


def test_a_whole_game_over_http_ends_with_an_outcome_and_the_seed(client, http_game):
    first = view(client, http_game)
    final = play_to_the_end(client, http_game)

    assert final["status"] == "finished"
    assert final["version"] > first["version"] + 56  # 2 rounds x 28 cards, and more events
    assert final["seed"] == http_game.seed
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == final["seed_commitment"]
    outcome = final["outcome"]
    assert outcome["scores"] == final["state"]["food"]
    assert set(outcome) >= {"scores", "ranks", "winners"}
    assert outcome["winners"] == [s for s, r in enumerate(outcome["ranks"]) if r == 1]
    assert max(outcome["scores"]) == outcome["scores"][outcome["winners"][0]]
    assert final["to_move"] == [] and final["legal"] == []
    assert final["state"]["hand_sizes"] == [0, 0, 0, 0]

    # play has stopped: everything is public, to seats and spectators alike
    assert view(client, http_game, 1)["state"]["hands"] == final["state"]["hands"]
    lines = log_lines(client, http_game, seat=None)
    assert lines == log_lines(client, http_game, seat=2) == log_lines(client, http_game)
    report = verify_bytes(lines)
    assert report.valid, report.reason
    assert report.outcome == outcome and report.events == final["version"]
    error_of(command(client, http_game, 0, {"type": "play_card", "horse": "red"}), 422, "game/over")


# --- command errors change nothing -----------------------------------------------------


def test_commands_need_a_token(client, http_game):
    before = version(client, http_game)
    url = f"/games/{http_game.game_id}/commands"
    body = {"type": "play_card", "horse": "red"}
    error_of(client.post(url, json=body), 401, "auth/required")
    error_of(
        client.post(url, json=body, headers={"Authorization": "Bearer x"}),
        401,
        "auth/invalid_token",
    )
    error_of(
        client.post(url, json=body, headers={"Authorization": "Token x"}), 401, "auth/malformed"
    )
    assert version(client, http_game) == before


def test_another_games_token_is_forbidden(client, http_game, new_game):
    other = new_game(seed="other")
    before, other_before = version(client, http_game), version(client, other)
    response = client.post(
        f"/games/{http_game.game_id}/commands",
        json={"type": "play_card", "horse": view(client, other, 0)["legal"][0]["horse"]},
        headers=other.auth(0),
    )
    error_of(response, 403, "auth/wrong_game")
    response = client.post(
        f"/games/{http_game.game_id}/commands",
        json={"type": "announce", "text": "hi"},
        headers=other.auth("moderator"),
    )
    error_of(response, 403, "auth/wrong_game")
    assert (version(client, http_game), version(client, other)) == (before, other_before)


def test_an_unknown_game_is_not_found(client):
    for response in (
        client.post("/games/no-such-game/commands", json={"type": "play_card", "horse": "red"}),
        client.get("/games/no-such-game"),
        client.get("/games/no-such-game/events"),
        client.get("/games/no-such-game/log"),
    ):
        error_of(response, 404, "game/not_found")


@pytest.mark.parametrize(
    "raw, code",
    [
        (b"{not json", "request/invalid"),
        (b'{"type": "play_card", "horse": "red"', "request/invalid"),
        (b"[]", "request/invalid"),
        (b'"play_card"', "request/invalid"),
        (b'{"horse": "red"}', "request/invalid"),
        (b'{"type": 5, "horse": "red"}', "request/invalid"),
        (b'{"type": null, "horse": "red"}', "request/invalid"),
        (b'{"type": "", "horse": "red"}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "expected_version": "7"}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "expected_version": 7.5}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "expected_version": -1}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "expected_version": true}', "request/invalid"),
        (b'{"type": "play_card", "horse": "purple"}', "command/invalid"),
        (b'{"type": "play_card", "horse": 3}', "command/invalid"),
        (b'{"type": "play_card", "horse": ["red"]}', "command/invalid"),
        (b'{"type": "play_card"}', "command/invalid"),
        (b'{"type": "fly_away"}', "command/unknown"),
        # JSON that the canonical log could not hold: each was a 500 before
        (b'{"type": "play_card", "horse": "red", "note": NaN}', "request/invalid"),
        (b'{"type": "play_card", "horse": Infinity}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "note": 1e400}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "note": "\\ud800"}', "request/invalid"),
        (b'{"type": "play_card", "horse": "red", "note": ' + b"9" * 5000 + b"}", "request/invalid"),
        (
            b'{"type": "play_card", "note": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            "request/invalid",
        ),
        (b'{"type": "play_card", "note": ' + b"[" * 65 + b"]" * 65 + b"}", "request/invalid"),
    ],
)
def test_malformed_commands_are_400_and_append_nothing(client, http_game, raw, code):
    before = version(client, http_game)
    response = client.post(
        f"/games/{http_game.game_id}/commands",
        data=raw,
        content_type="application/json",
        headers=http_game.auth(seat_to_move(client, http_game)),
    )
    error_of(response, 400, code)
    assert version(client, http_game) == before


def test_a_command_without_a_json_body_is_400(client, http_game):
    before = version(client, http_game)
    response = client.post(
        f"/games/{http_game.game_id}/commands",
        data="type=play_card&horse=red",
        content_type="application/x-www-form-urlencoded",
        headers=http_game.auth(0),
    )
    error = error_of(response, 400, "request/invalid")
    assert "type" in error["message"]
    assert version(client, http_game) == before


def test_playing_out_of_turn_is_422(client, http_game):
    before = version(client, http_game)
    mover = seat_to_move(client, http_game)
    for seat in range(4):
        if seat != mover:
            horse = view(client, http_game, seat)["state"]["hand"]
            held = next(h for h in HORSES if horse[h] > 0)
            response = command(client, http_game, seat, {"type": "play_card", "horse": held})
            error_of(response, 422, "rule/not_your_turn")
    assert version(client, http_game) == before


def test_playing_a_card_not_in_hand_is_422(client, http_game):
    for _ in range(56):
        seat = seat_to_move(client, http_game)
        hand = view(client, http_game, seat)["state"]["hand"]
        missing = [h for h in HORSES if hand[h] == 0]
        if missing:
            break
        play_turn(client, http_game)
    else:
        raise AssertionError("no seat ever lacked a colour")
    before = version(client, http_game)
    response = command(client, http_game, seat, {"type": "play_card", "horse": missing[0]})
    error = error_of(response, 422, "rule/card_not_in_hand")
    assert missing[0] in error["message"]
    assert version(client, http_game) == before


def test_a_stale_expected_version_is_409(client, http_game):
    seat = seat_to_move(client, http_game)
    move = view(client, http_game, seat)["legal"][0]
    current = version(client, http_game)
    for stale in (current - 1, current + 1, 0):
        response = command(client, http_game, seat, {**move, "expected_version": stale})
        error = error_of(response, 409, "store/version_conflict")
        assert error["details"] == {"expected_version": stale, "version": current}
    assert version(client, http_game) == current

    response = command(client, http_game, seat, {**move, "expected_version": current})
    assert response.status_code == 201
    body = response.get_json()
    assert body["version"] == version(client, http_game) > current
    assert [e["seq"] for e in body["events"]] == list(range(current + 1, body["version"] + 1))
    assert body["events"][0]["command"] == move  # expected_version is not part of the command


def test_a_command_answer_shows_what_was_appended(client, http_game):
    seat = seat_to_move(client, http_game)
    before = view(client, http_game, seat)
    move = before["legal"][0]
    body = command(client, http_game, seat, move).get_json()
    types = [e["type"] for e in body["events"]]
    assert types[:2] == ["RaceCardPlayed", "HorseMoved"]
    assert body["events"][0]["payload"] == {"seat": seat, "horse": move["horse"]}
    assert all("state_hash" not in e for e in body["events"])
    after = view(client, http_game, seat)
    assert after["state"]["hand"][move["horse"]] == before["state"]["hand"][move["horse"]] - 1
    assert after["state"]["hand_sizes"][seat] == 6
    moved = body["events"][1]["payload"]
    assert after["state"]["horses"][move["horse"]]["distance"] == moved["to"] > moved["from"]


# --- idempotency -----------------------------------------------------------------------


def test_a_resend_with_the_same_key_returns_the_same_body_and_appends_nothing(client, http_game):
    seat = seat_to_move(client, http_game)
    move = view(client, http_game, seat)["legal"][0]
    first = command(client, http_game, seat, move, **{"Idempotency-Key": "turn-1"})
    assert first.status_code == 201
    after = version(client, http_game)
    log = log_lines(client, http_game)

    again = command(client, http_game, seat, move, **{"Idempotency-Key": "turn-1"})
    assert again.status_code == 201
    assert again.get_data() == first.get_data()
    assert version(client, http_game) == after and log_lines(client, http_game) == log

    play_turn(client, http_game)  # a late resend, after the game moved on, still replays
    late = command(client, http_game, seat, move, **{"Idempotency-Key": "turn-1"})
    assert late.status_code == 201 and late.get_data() == first.get_data()


def test_a_key_reused_for_another_command_is_409(client, http_game):
    seat = seat_to_move(client, http_game)
    move = view(client, http_game, seat)["legal"][0]
    command(client, http_game, seat, move, **{"Idempotency-Key": "k"})
    before = version(client, http_game)
    other = {**move, "expected_version": before}
    error = error_of(
        command(client, http_game, seat, other, **{"Idempotency-Key": "k"}),
        409,
        "idempotency/key_reused",
    )
    assert error["details"] == {"field": "Idempotency-Key"}
    assert version(client, http_game) == before


def test_keys_belong_to_the_sender(client, http_game):
    seat = seat_to_move(client, http_game)
    command(
        client,
        http_game,
        seat,
        view(client, http_game, seat)["legal"][0],
        **{"Idempotency-Key": "k"},
    )
    before = version(client, http_game)
    nxt = seat_to_move(client, http_game)
    response = command(
        client, http_game, nxt, view(client, http_game, nxt)["legal"][0], **{"Idempotency-Key": "k"}
    )
    assert response.status_code == 201
    assert response.get_json()["events"][0]["payload"]["seat"] == nxt
    assert version(client, http_game) > before


def test_a_failed_command_does_not_burn_its_key(client, http_game):
    seat = seat_to_move(client, http_game)
    headers = {"Idempotency-Key": "retry-me"}
    error_of(command(client, http_game, seat, {"type": "play_card", "horse": "x"}, **headers), 400)
    move = view(client, http_game, seat)["legal"][0]
    assert command(client, http_game, seat, move, **headers).status_code == 201


@pytest.mark.parametrize("key", ["", "k" * 201, "tab\there"])
def test_a_bad_idempotency_key_is_400(client, http_game, key):
    seat = seat_to_move(client, http_game)
    before = version(client, http_game)
    move = view(client, http_game, seat)["legal"][0]
    response = command(client, http_game, seat, move, **{"Idempotency-Key": key})
    assert error_of(response, 400, "request/invalid")["details"] == {"field": "Idempotency-Key"}
    assert version(client, http_game) == before


# --- events and the log ----------------------------------------------------------------


def events_of(client, game, seat=None, after=0) -> dict:
    headers = {} if seat is None else game.auth(seat)
    response = client.get(f"/games/{game.game_id}/events?after={after}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def deals(events):
    return [e for e in events if e["type"] == "RaceCardsDealt"]


def stub_of(event: dict) -> dict:
    """What a viewer who may not see `event` gets of it: its place in the chain only."""
    return {"seq": event["seq"], "prev_hash": event["prev_hash"], "hash": event["hash"]} | {
        "redacted": True
    }


def test_a_seat_sees_its_own_deal_and_only_that(client, http_game):
    shown = events_of(client, http_game, seat=1)
    assert shown["version"] == version(client, http_game)
    assert [e["seq"] for e in shown["events"]] == list(range(1, shown["version"] + 1))
    assert all("state_hash" not in e for e in shown["events"])
    dealt = deals(events_of(client, http_game, seat="moderator")["events"])
    seen = {e["seq"]: e for e in shown["events"]}
    [own] = [seen[d["seq"]] for d in dealt if d["visibility"] == [1]]
    assert own["type"] == "RaceCardsDealt" and "redacted" not in own
    assert own["visibility"] == [1] and own["payload"]["seat"] == 1
    assert len(own["payload"]["cards"]) == 7 and own["salt"]
    assert sorted(own["payload"]["cards"]) == sorted(
        h for h, n in view(client, http_game, 1)["state"]["hand"].items() for _ in range(n)
    )
    others = [d for d in dealt if d["visibility"] != [1]]
    assert sorted(d["visibility"] for d in others) == [[0], [2], [3]]
    # the other seats' deals are stubs: nothing of their type, author, audience or time
    assert [seen[d["seq"]] for d in others] == [stub_of(d) for d in others]
    assert [e["seq"] for e in shown["events"] if e.get("redacted")] == [d["seq"] for d in others]


def test_a_spectator_sees_every_deal_redacted(client, http_game):
    shown = events_of(client, http_game)["events"]
    whole = events_of(client, http_game, seat="moderator")["events"]
    dealt = deals(whole)
    assert len(dealt) == 4
    seen = {e["seq"]: e for e in shown}
    assert [seen[d["seq"]] for d in dealt] == [stub_of(d) for d in dealt]
    public = [e for e in whole if e["visibility"] == "public"]
    assert public and [seen[e["seq"]] for e in public] == [
        {k: v for k, v in e.items() if k != "state_hash"} for e in public
    ]
    assert len(public) + len(dealt) == len(shown)


def test_the_moderator_sees_every_event_whole(client, http_game):
    shown = events_of(client, http_game, seat="moderator")
    assert all("redacted" not in e and "state_hash" in e for e in shown["events"])
    assert len(deals(shown["events"])) == 4


def test_events_after_n_are_only_the_later_ones(client, http_game):
    play_turn(client, http_game)
    current = version(client, http_game)
    assert [e["seq"] for e in events_of(client, http_game, 0, after=3)["events"]] == list(
        range(4, current + 1)
    )
    assert events_of(client, http_game, 0, after=current)["events"] == []
    assert events_of(client, http_game, 0, after=current + 50)["events"] == []


@pytest.mark.parametrize("after", ["-1", "x", "1.5", "9" * 30])
def test_a_bad_after_is_400(client, http_game, after):
    response = client.get(f"/games/{http_game.game_id}/events?after={after}")
    assert "after" in error_of(response, 400, "request/invalid")["message"]


def test_the_log_is_the_moderators_until_the_end(client, http_game):
    for seat in (0, 3, None):
        headers = {} if seat is None else http_game.auth(seat)
        response = client.get(f"/games/{http_game.game_id}/log", headers=headers)
        error_of(response, 403, "log/not_yet")
    play_turn(client, http_game)
    lines = log_lines(client, http_game)
    events = [json.loads(line) for line in lines.splitlines()]
    assert [e["seq"] for e in events] == list(range(1, version(client, http_game) + 1))
    assert all("state_hash" in e and "payload" in e for e in events)
    report = verify_bytes(lines)
    assert report.valid, report.reason
    assert report.notes == ["seed not revealed yet: random outcomes not re-derived"]
    assert http_game.seed.encode() not in lines


# --- moderator commands ----------------------------------------------------------------


def test_the_moderator_announces_to_everyone(client, http_game):
    before = version(client, http_game)
    response = command(client, http_game, "moderator", {"type": "announce", "text": "Welcome!"})
    assert response.status_code == 201
    (event,) = response.get_json()["events"]
    assert event["type"] == "AnnouncementPosted" and event["seq"] == before + 1
    assert event["actor"] == "moderator" and event["payload"] == {"text": "Welcome!"}
    seen = events_of(client, http_game, seat=2, after=before)["events"]
    assert [e["payload"] for e in seen] == [{"text": "Welcome!"}]
    assert view(client, http_game)["to_move"] == [0]  # announcing does not take a turn


@pytest.mark.parametrize(
    "body, code",
    [
        ({"type": "announce"}, "command/invalid"),
        ({"type": "announce", "text": "   "}, "command/invalid"),
        ({"type": "announce", "text": "x" * 4001}, "command/invalid"),
        ({"type": "announce", "text": ["hi"]}, "command/invalid"),
        ({"type": "abandon"}, "command/invalid"),
        ({"type": "play_card", "horse": "red"}, "command/unknown"),
    ],
)
def test_bad_moderator_commands_are_400(client, http_game, body, code):
    before = version(client, http_game)
    error_of(command(client, http_game, "moderator", body), 400, code)
    assert version(client, http_game) == before


def test_abandoning_ends_the_game_and_reveals_the_seed(client, http_game):
    play_turn(client, http_game)
    response = command(client, http_game, "moderator", {"type": "abandon", "reason": "storm"})
    assert response.status_code == 201
    events = response.get_json()["events"]
    assert [e["type"] for e in events] == ["GameAbandoned", "SeedRevealed"]
    assert events[0]["payload"] == {"reason": "storm"}
    assert events[1]["payload"] == {"seed": http_game.seed}

    shown = view(client, http_game, 0)
    assert shown["status"] == "abandoned" and shown["seed"] == http_game.seed
    assert shown["outcome"] is None and shown["to_move"] == [] and shown["legal"] == []
    final = version(client, http_game)
    for seat, body in [
        (0, {"type": "play_card", "horse": "red"}),
        (1, {"type": "play_card", "horse": "red"}),
        ("moderator", {"type": "announce", "text": "too late"}),
        ("moderator", {"type": "abandon", "reason": "again"}),
    ]:
        error_of(command(client, http_game, seat, body), 422, "game/over")
    assert version(client, http_game) == final

    # once play has stopped, seats see every event whole, and the log is public
    seen = events_of(client, http_game, seat=0)["events"]
    assert all("redacted" not in e and "state_hash" in e for e in seen)
    report = verify_bytes(log_lines(client, http_game, seat=None))
    assert report.valid, report.reason
    assert report.events == final


# --- rulesets and the API document -----------------------------------------------------


def test_rulesets_list_galloping_horse(client):
    response = client.get("/rulesets")
    assert response.status_code == 200
    listed = {r["id"]: r for r in response.get_json()}
    horse = listed["galloping-horse"]
    assert (horse["min_players"], horse["max_players"]) == (4, 4)
    assert horse["options"] == {"line_up": None, "first_seat": 0, "food_cards": 40}
    assert horse["commands"]["play_card"]["fields"]["horse"]["enum"] == HORSES
    assert set(horse["moderator_commands"]) == {
        "announce",
        "abandon",
        "replace_player",
        "open_dispute",
        "rule_dispute",
        "seat_bot",
        "unseat_bot",
    }
    assert set(horse["commands"]) == {"play_card", "hand_to_bot", "take_seat_back"}
    assert horse["bot_levels"] == ["random", "standard", "strong"]
    assert client.get("/rulesets/galloping-horse").get_json() == horse


def test_an_unknown_ruleset_is_404(client):
    error = error_of(client.get("/rulesets/no-such-game"), 404, "ruleset/unknown")
    assert "galloping-horse" in error["details"]["known"]


def test_the_openapi_document_describes_the_games_api(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200
    document = json.loads(response.get_data())
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    for path in (
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/commands",
        "/games/{game_id}/events",
        "/games/{game_id}/log",
        "/rulesets",
        "/rulesets/{ruleset_id}",
    ):
        assert path in paths
    assert "post" in paths["/games"] and "post" in paths["/games/{game_id}/commands"]
    assert "409" in paths["/games/{game_id}/commands"]["post"]["responses"]


# --- HTTP-level errors -----------------------------------------------------------------


def test_http_errors_have_the_error_shape(client, http_game):
    error_of(client.get("/no-such-page"), 404, "not_found")
    error_of(client.delete("/games"), 405, "request/method_not_allowed")
    error_of(client.put(f"/games/{http_game.game_id}/commands", json={}), 405)
    big = b'{"type": "announce", "text": "' + b"x" * (1 << 20) + b'"}'
    response = client.post(
        f"/games/{http_game.game_id}/commands",
        data=big,
        content_type="application/json",
        headers=http_game.auth("moderator"),
    )
    error_of(response, 413, "request/too_large")


def test_replace_player_issues_a_new_token_and_the_old_one_stops(client, http_game):
    game = http_game
    old = game.auth(2)
    response = client.post(
        f"/games/{game.game_id}/commands",
        json={"type": "replace_player", "seat": 2, "name": "Zoe", "reason": "Cat left"},
        headers=game.auth("moderator"),
    )
    assert response.status_code == 201
    new_token = response.json["token"]
    assert response.json["events"][0]["payload"] == {"seat": 2, "name": "Zoe", "reason": "Cat left"}
    assert client.get(f"/games/{game.game_id}", headers=old).status_code == 401
    view = client.get(f"/games/{game.game_id}", headers={"Authorization": f"Bearer {new_token}"})
    assert view.status_code == 200 and view.json["players"][2] == "Zoe"
    assert sum(view.json["state"]["hand"].values()) == 7  # the seat kept its cards


@pytest.mark.parametrize(
    "body, status, code",
    [
        (
            {"type": "replace_player", "seat": 9, "name": "Zoe", "reason": "r"},
            422,
            "rule/no_such_seat",
        ),
        (
            {"type": "replace_player", "seat": "2", "name": "Zoe", "reason": "r"},
            400,
            "command/invalid",
        ),
        ({"type": "replace_player", "seat": 2, "name": "", "reason": "r"}, 400, "command/invalid"),
        ({"type": "replace_player", "seat": 2, "name": "Zoe"}, 400, "command/invalid"),
    ],
)
def test_bad_replacements_change_nothing(client, http_game, body, status, code):
    game = http_game
    before = client.get(f"/games/{game.game_id}", headers=game.auth("moderator"))
    response = client.post(
        f"/games/{game.game_id}/commands",
        json=body,
        headers=game.auth("moderator"),
    )
    assert (response.status_code, response.json["error"]["code"]) == (status, code)
    after = client.get(f"/games/{game.game_id}", headers=game.auth(2))
    assert after.status_code == 200 and after.json["version"] == before.json["version"]
