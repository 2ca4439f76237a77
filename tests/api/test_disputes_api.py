"""Disputes, rulings, forks and imports through the real app on a real SQLite file."""

import copy
from dataclasses import replace

import pytest
from chained import rechain
from scheduling import T0, Recorder

from referee.bots import choose, play
from referee.engine import game
from referee.engine.events import MODERATOR
from referee.engine.rng import Rng
from referee.service import Referee
from referee.store import LogicalClock, open_store
from replays.log import dumps, parse
from replays.verify import verify_bytes, verify_events

pytestmark = pytest.mark.both_stores

NDJSON = "application/x-ndjson"
CONTENT = ("seq", "type", "actor", "visibility", "payload", "command", "salt", "state_hash")


# --- helpers ---------------------------------------------------------------------------


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    error = response.get_json()["error"]
    assert error["code"] == code, error
    return error


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def get(client, path: str, headers=None) -> dict:
    response = client.get(path, headers=headers or {})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def stream(client, game_id: str, headers=None) -> list[dict]:
    return get(client, f"/games/{game_id}/events", headers)["events"]


def stored(app, game_id: str) -> list[dict]:
    return app.extensions["referee"].store.events(game_id)


def stub_of(event: dict) -> dict:
    """What a viewer who may not see `event` gets of it: its place in the chain only."""
    return {"seq": event["seq"], "prev_hash": event["prev_hash"], "hash": event["hash"]} | {
        "redacted": True
    }


def open_dispute(client, game, amendment, *, claim="a play was misread", **headers):
    body = {"claim": claim, "amendment": amendment}
    return client.post(
        f"/games/{game.game_id}/disputes", json=body, headers={**game.auth("moderator"), **headers}
    )


def rule(client, game, dispute, ruling, reason="so ruled", **extra):
    body = {"ruling": ruling, "reason": reason, **extra}
    return client.post(
        f"/games/{game.game_id}/disputes/{dispute}/ruling",
        json=body,
        headers=game.auth("moderator"),
    )


def play_turns(client, game_id: str, tokens: dict, turns: int) -> None:
    """The seat to move plays its first legal card, `turns` times (or until the end)."""
    for _ in range(turns):
        shown = get(client, f"/games/{game_id}")
        if shown["status"] != "active":
            return
        seat = shown["to_move"][0]
        move = get(client, f"/games/{game_id}", bearer(tokens[seat]))["legal"][0]
        response = client.post(
            f"/games/{game_id}/commands", json=move, headers=bearer(tokens[seat])
        )
        assert response.status_code == 201, response.get_json()


def seat_tokens(game) -> dict:
    return dict(enumerate(game.seats))


def plays_of(events) -> list[dict]:
    return [e for e in events if e["type"] == "RaceCardPlayed"]


def at_path(value, path: str):
    for key in path.split("."):
        value = value[int(key)] if isinstance(value, list) else value.get(key)
    return value


# --- opening a dispute -----------------------------------------------------------------


def test_the_moderator_opens_a_dispute_and_gets_its_fork(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 9)
    before = get(client, f"/games/{http_game.game_id}")["version"]
    dropped = plays_of(stored(app, http_game.game_id))[4]
    answer = open_dispute(client, http_game, {"kind": "drop", "seq": dropped["seq"]})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["dispute"] == before + 1 == body["version"]
    assert body["fork"]["at"] == dropped["seq"] - 1
    assert body["fork"]["after"]["seq"] == dropped["seq"] - 1
    # the next three seats played after the dropped card: now out of turn
    assert [(r["actor"], r["code"]) for r in body["fork"]["refused"][:3]] == [
        (s % 4, "rule/not_your_turn") for s in range(dropped["actor"] + 1, dropped["actor"] + 4)
    ]
    assert body["consequences"]["changes"]
    assert body["text"].startswith(f"Forked after seq {dropped['seq'] - 1} (")
    assert "refused: seq" in body["text"] and "Consequences:" in body["text"]
    [opened] = body["events"]
    assert (opened["seq"], opened["type"]) == (before + 1, "DisputeOpened")
    assert opened["payload"]["amendment"] == {"kind": "drop", "seq": dropped["seq"]}
    log = stored(app, http_game.game_id)
    assert log[-1]["type"] == "DisputeOpened" and log[-1]["visibility"] == MODERATOR


def test_a_dispute_is_hidden_from_seats_until_the_game_ends(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 5)
    opened = open_dispute(client, http_game, {"kind": "drop", "seq": 10}).get_json()["dispute"]
    [record] = [e for e in stored(app, http_game.game_id) if e["seq"] == opened]
    for viewer in (http_game.auth(0), http_game.auth(3), None):
        shown = next(e for e in stream(client, http_game.game_id, viewer) if e["seq"] == opened)
        assert shown == stub_of(record)
    play_turns(client, http_game.game_id, seat_tokens(http_game), 200)
    after = next(
        e for e in stream(client, http_game.game_id, http_game.auth(0)) if e["seq"] == opened
    )
    assert after["type"] == "DisputeOpened" and after["payload"]["claim"] == "a play was misread"


def test_the_views_list_disputes_to_whoever_may_read_their_claims(client, http_game):
    game_id = http_game.game_id
    play_turns(client, game_id, seat_tokens(http_game), 5)
    opened = open_dispute(client, http_game, {"kind": "drop", "seq": 10}).get_json()["dispute"]
    listed = [{"dispute": opened, "claim": "a play was misread", "ruling": None}]
    mine = get(client, f"/games/{game_id}", http_game.auth("moderator"))["disputes"]
    assert [{k: d[k] for k in ("dispute", "claim", "ruling")} for d in mine] == listed
    assert mine[0]["amendment"] == {"kind": "drop", "seq": 10}
    for viewer in (http_game.auth(0), None):  # a claim may name a seat's secret
        assert "disputes" not in get(client, f"/games/{game_id}", viewer)
    rule(client, http_game, opened, "kept")
    play_turns(client, game_id, seat_tokens(http_game), 200)
    for viewer in (http_game.auth(0), None):
        [shown] = get(client, f"/games/{game_id}", viewer)["disputes"]
        assert (shown["dispute"], shown["ruling"]) == (opened, "kept")


def test_only_the_games_moderator_opens_or_rules_on_a_dispute(client, http_game, new_game):
    body = {"claim": "unfair", "amendment": {"kind": "drop", "seq": 8}}
    url = f"/games/{http_game.game_id}/disputes"
    error_of(client.post(url, json=body, headers=http_game.auth(1)), 403, "auth/moderator_only")
    ruling = {"ruling": "kept", "reason": "no"}
    response = client.post(f"{url}/8/ruling", json=ruling, headers=http_game.auth(1))
    error_of(response, 403, "auth/moderator_only")
    error_of(client.post(url, json=body), 401, "auth/required")
    other = new_game(seed="another")
    error_of(client.post(url, json=body, headers=other.auth("moderator")), 403, "auth/wrong_game")
    error_of(client.post("/games/nope/disputes", json=body), 404, "game/not_found")
    assert get(client, f"/games/{http_game.game_id}")["version"] == http_game.created["version"]


@pytest.mark.parametrize(
    "amendment, status, code, field",
    [
        ({"kind": "drop", "seq": 2}, 422, "dispute/no_such_command", "amendment.seq"),
        ({"kind": "drop", "seq": 999}, 422, "dispute/no_such_command", "amendment.seq"),
        ({"kind": "submission", "round": 0, "seat": 0, "orders": {}}, 422, None, None),
        ({"kind": "drop"}, 400, "command/invalid", "amendment.seq"),
        ({"kind": "burn", "seq": 9}, 400, "command/invalid", "amendment.kind"),
    ],
)
def test_an_amendment_the_log_cannot_take_appends_nothing(
    client, app, http_game, amendment, status, code, field
):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 3)
    before = stored(app, http_game.game_id)
    response = open_dispute(client, http_game, amendment)
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == (code or "dispute/round_not_resolved")
    if field:
        assert error["details"]["field"] == field
    assert stored(app, http_game.game_id) == before


def test_a_play_the_rules_refuse_is_refused_as_an_amendment(client, app, http_game):
    before = stored(app, http_game.game_id)
    out_of_turn = {"type": "play_card", "horse": "red"}
    amendment = {"kind": "insert", "before": len(before) + 1, "actor": 2, "command": out_of_turn}
    error = error_of(open_dispute(client, http_game, amendment), 422, "dispute/amendment_refused")
    assert error["details"]["rule"] == "rule/not_your_turn"
    assert stored(app, http_game.game_id) == before


def test_a_resent_dispute_is_recorded_once(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 4)
    amendment = {"kind": "drop", "seq": plays_of(stored(app, http_game.game_id))[1]["seq"]}
    first = open_dispute(client, http_game, amendment, **{"Idempotency-Key": "d-1"})
    version = get(client, f"/games/{http_game.game_id}")["version"]
    again = open_dispute(client, http_game, amendment, **{"Idempotency-Key": "d-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json()["dispute"] == first.get_json()["dispute"] == version
    assert again.get_json()["consequences"] == first.get_json()["consequences"]
    assert get(client, f"/games/{http_game.game_id}")["version"] == version
    types = [e["type"] for e in stored(app, http_game.game_id)]
    assert types.count("DisputeOpened") == 1


# --- rulings ---------------------------------------------------------------------------


def test_a_kept_ruling_is_public_and_play_goes_on(client, http_game):
    tokens = seat_tokens(http_game)
    play_turns(client, http_game.game_id, tokens, 4)
    number = open_dispute(client, http_game, {"kind": "drop", "seq": 8}).get_json()["dispute"]
    answer = rule(client, http_game, number, "kept", "the play stands")
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["dispute"] == number and "fork_game_id" not in body
    seen = stream(client, http_game.game_id, http_game.auth(2))[-1]
    assert seen["type"] == "DisputeRuled" and "redacted" not in seen
    assert seen["payload"] == {"dispute": number, "ruling": "kept", "reason": "the play stands"}
    version = body["version"]
    play_turns(client, http_game.game_id, tokens, 1)
    shown = get(client, f"/games/{http_game.game_id}")
    assert shown["status"] == "active" and shown["version"] > version
    assert "forked_to" not in shown


def test_an_amended_ruling_moves_play_to_the_fork(client, app, http_game):
    original, tokens = http_game.game_id, seat_tokens(http_game)
    play_turns(client, original, tokens, 10)
    dropped = plays_of(stored(app, original))[5]
    opened = open_dispute(client, http_game, {"kind": "drop", "seq": dropped["seq"]}).get_json()
    answer = rule(client, http_game, opened["dispute"], "amended", "the card was never played")
    assert answer.status_code == 201, answer.get_json()
    ruled = answer.get_json()
    fork_id = ruled["fork_game_id"]
    at = ruled["fork"]["at"]
    assert at == dropped["seq"] - 1
    # the fork's outcome is the one the dispute's dry run reported
    assert ruled["consequences"] == opened["consequences"]
    assert ruled["fork"] == opened["fork"]
    [ruling] = ruled["events"]
    assert ruling["payload"]["fork"] == {"game_id": fork_id, "at": at}

    # the original is closed, refuses everything and keeps its secrets
    closed = get(client, f"/games/{original}", http_game.auth("moderator"))
    assert (closed["status"], closed["forked_to"], closed["seed"]) == ("forked", fork_id, None)
    for seat, body in [
        (0, {"type": "play_card", "horse": "red"}),
        ("moderator", {"type": "announce", "text": "hello"}),
        (
            "moderator",
            {"type": "open_dispute", "claim": "again", "amendment": {"kind": "drop", "seq": 8}},
        ),
    ]:
        response = client.post(
            f"/games/{original}/commands", json=body, headers=http_game.auth(seat)
        )
        error_of(response, 422, "game/over")
    error_of(open_dispute(client, http_game, {"kind": "drop", "seq": 8}), 422, "game/over")
    log = stored(app, original)
    assert "SeedRevealed" not in [e["type"] for e in log] and log[-1]["type"] == "DisputeRuled"
    seen = {e["seq"]: e for e in stream(client, original, http_game.auth(1))}
    others = [e for e in log if e["type"] == "RaceCardsDealt" and e["visibility"] != [1]]
    assert len(others) == 3 and [seen[e["seq"]] for e in others] == [stub_of(e) for e in others]
    error_of(client.get(f"/games/{original}/log", headers=http_game.auth(1)), 403, "log/not_yet")

    # the fork links back and shares the original's first `at` events
    forked = stored(app, fork_id)
    link = forked[at]
    assert (link["seq"], link["type"]) == (at + 1, "GameForked")
    assert link["payload"] == {
        "from_game": original,
        "at": at,
        "at_hash": log[at - 1]["hash"],
        "dispute": opened["dispute"],
    }
    assert [[e[k] for k in CONTENT] for e in forked[:at]] == [
        [e[k] for k in CONTENT] for e in log[:at]
    ]
    assert [e["recorded_at"] for e in forked[:at]] == [e["recorded_at"] for e in log[:at]]
    assert {e["game_id"] for e in forked} == {fork_id}
    shown = get(client, f"/games/{fork_id}", http_game.auth("moderator"))
    assert shown["forked_from"] == link["payload"] and shown["status"] == "active"
    for change in ruled["consequences"]["changes"]:
        assert at_path(shown, change["path"]) == change["after"], change["path"]

    # the tokens play on in the fork and still read the original
    assert get(client, f"/games/{original}", http_game.auth(2))["status"] == "forked"
    play_turns(client, fork_id, tokens, 200)
    final = get(client, f"/games/{fork_id}", http_game.auth(0))
    assert final["status"] == "finished" and final["seed"] == http_game.seed
    data = client.get(f"/games/{fork_id}/log", headers=http_game.auth(0)).get_data()
    report = verify_bytes(data)
    assert report.valid, (report.seq, report.code, report.reason)
    assert report.outcome == final["outcome"]
    original_log = client.get(f"/games/{original}/log", headers=http_game.auth("moderator"))
    assert verify_bytes(original_log.get_data()).valid
    full = verify_events(parse(original_log.get_data()), seed=http_game.seed)
    assert full.valid, (full.seq, full.code, full.reason)


def test_a_resent_amended_ruling_opens_one_fork(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 6)
    number = open_dispute(client, http_game, {"kind": "drop", "seq": 11}).get_json()["dispute"]
    body = {"ruling": "amended", "reason": "once"}
    url = f"/games/{http_game.game_id}/disputes/{number}/ruling"
    headers = {**http_game.auth("moderator"), "Idempotency-Key": "ruling-1"}
    first, again = (client.post(url, json=body, headers=headers) for _ in range(2))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    fork_id = first.get_json()["fork_game_id"]
    assert app.extensions["referee"].store.game_ids() == [http_game.game_id, fork_id]
    assert [e["type"] for e in stored(app, http_game.game_id)].count("DisputeRuled") == 1
    # without the key it is a new command, and the closed game takes none
    error_of(client.post(url, json=body, headers=http_game.auth("moderator")), 422, "game/over")


def test_the_fork_takes_disputes_and_rulings_of_its_own(client, app, http_game):
    original, tokens = http_game.game_id, seat_tokens(http_game)
    play_turns(client, original, tokens, 6)
    number = open_dispute(client, http_game, {"kind": "drop", "seq": 11}).get_json()["dispute"]
    first = rule(client, http_game, number, "amended", "first").get_json()["fork_game_id"]
    play_turns(client, first, tokens, 6)
    in_first = replace(http_game, game_id=first)  # the same tokens, now the fork's
    dropped = plays_of(stored(app, first))[-2]
    opened = open_dispute(client, in_first, {"kind": "drop", "seq": dropped["seq"]})
    assert opened.status_code == 201, opened.get_json()
    assert opened.get_json()["fork"]["at"] == dropped["seq"] - 1
    ruled = rule(client, in_first, opened.get_json()["dispute"], "amended", "second")
    assert ruled.status_code == 201, ruled.get_json()
    second = ruled.get_json()["fork_game_id"]
    link = stored(app, second)[dropped["seq"] - 1]
    assert link["type"] == "GameForked" and link["payload"]["from_game"] == first
    assert app.extensions["referee"].originals(second) == [first, original]
    for game_id, status in [(original, "forked"), (first, "forked"), (second, "active")]:
        assert get(client, f"/games/{game_id}", http_game.auth(3))["status"] == status
    play_turns(client, second, tokens, 200)
    report = verify_bytes(client.get(f"/games/{second}/log").get_data())
    assert report.valid, (report.seq, report.code, report.reason)
    assert [e["type"] for e in stored(app, second)].count("GameForked") == 2


def test_an_amended_ruling_after_the_end(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 200)
    assert get(client, f"/games/{http_game.game_id}")["status"] == "finished"
    dropped = plays_of(stored(app, http_game.game_id))[-1]
    # the seed is public: a fork left in play could not be played fairly, so it is refused
    unfinished = open_dispute(client, http_game, {"kind": "drop", "seq": dropped["seq"]})
    assert unfinished.get_json()["fork"]["status"] == "active"
    before = stored(app, http_game.game_id)
    refused = rule(client, http_game, unfinished.get_json()["dispute"], "amended", "misread")
    error_of(refused, 422, "dispute/fork_unfinished")
    assert stored(app, http_game.game_id) == before
    # an amendment whose fork ends too is ruled amended
    notice = {"type": "announce", "text": "The last card was played after a warning."}
    amendment = {"kind": "insert", "before": dropped["seq"], "actor": "moderator"}
    opened = open_dispute(client, http_game, {**amendment, "command": notice}).get_json()
    assert opened["fork"]["status"] == "finished"
    ruled = rule(client, http_game, opened["dispute"], "amended", "the warning belongs in the log")
    assert ruled.status_code == 201, ruled.get_json()
    fork_id = ruled.get_json()["fork_game_id"]
    assert get(client, f"/games/{fork_id}", http_game.auth(0))["status"] == "finished"
    log = stored(app, http_game.game_id)
    types = [e["type"] for e in log]
    assert types[types.index("SeedRevealed") + 1 :] == [
        "DisputeOpened",
        "DisputeOpened",
        "DisputeRuled",
    ]
    data = client.get(f"/games/{http_game.game_id}/log").get_data()
    report = verify_bytes(data)
    assert report.valid, (report.seq, report.code, report.reason)
    forked = verify_bytes(client.get(f"/games/{fork_id}/log").get_data())
    assert forked.valid and forked.outcome == report.outcome
    assert get(client, f"/games/{http_game.game_id}")["status"] == "finished"
    number = opened["dispute"]
    error_of(rule(client, http_game, number, "kept"), 422, "rule/already_ruled")
    error_of(rule(client, http_game, number, "amended"), 422, "rule/already_ruled")
    error_of(rule(client, http_game, 9999, "kept"), 422, "rule/no_such_dispute")
    assert stored(app, http_game.game_id) == log


def test_a_client_cannot_name_the_fork(client, app, http_game):
    play_turns(client, http_game.game_id, seat_tokens(http_game), 3)
    number = open_dispute(client, http_game, {"kind": "drop", "seq": 8}).get_json()["dispute"]
    before = stored(app, http_game.game_id)
    sneaky = {"fork": {"game_id": "mine", "at": 3}}
    response = rule(client, http_game, number, "amended", **sneaky)
    assert response.status_code == 400, response.get_json()
    body = {"type": "rule_dispute", "dispute": number, "ruling": "amended", "reason": "x", **sneaky}
    response = client.post(
        f"/games/{http_game.game_id}/commands", json=body, headers=http_game.auth("moderator")
    )
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["details"] == {"field": "fork"}
    assert stored(app, http_game.game_id) == before
    assert app.extensions["referee"].store.game_ids() == [http_game.game_id]


# --- a game in rounds ------------------------------------------------------------------


@pytest.fixture
def table(client, app):
    """A blackout-middle game for 4 on a fixed clock: (game id, seat headers, moderator's)."""
    referee = app.extensions["referee"]
    referee.clock, referee.scheduler = (lambda: T0), Recorder()
    body = {"ruleset": "blackout-middle", "players": list("abcd"), "seed": "rounds-fork"}
    created = client.post("/games", json=body).get_json()
    seats = {s["seat"]: bearer(s["token"]) for s in created["seats"]}
    return created["game_id"], seats, bearer(created["moderator_token"])


NOTHING = {"ability": None, "spectate": None, "bets": {}}


def submit(client, game_id, headers, number, orders=NOTHING):
    sent = {"type": "submit_orders", "round": number, "orders": orders}
    response = client.post(f"/games/{game_id}/commands", json=sent, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def rule_amended(client, game_id, moderator, amendment) -> str:
    url = f"/games/{game_id}/disputes"
    opened = client.post(url, json={"claim": "c", "amendment": amendment}, headers=moderator)
    assert opened.status_code == 201, opened.get_json()
    number = opened.get_json()["dispute"]
    body = {"ruling": "amended", "reason": "yes"}
    ruled = client.post(f"{url}/{number}/ruling", json=body, headers=moderator)
    assert ruled.status_code == 201, ruled.get_json()
    return ruled.get_json()["fork_game_id"]


def test_an_amended_ruling_moves_the_open_round_to_the_fork(client, app, table):
    game_id, seats, moderator = table
    referee = app.extensions["referee"]
    for seat in range(4):
        submit(client, game_id, seats[seat], 0)
    assert referee.resolve_round(game_id, 0) == "resolved"
    submit(client, game_id, seats[2], 1, {**NOTHING, "spectate": 3})
    later = T0 + 10**7
    assert referee.due_rounds(later) == [(game_id, 1)]

    clue = {"ability": {"kind": "clue", "use": ["A"]}, "spectate": None, "bets": {}}
    amendment = {"kind": "submission", "round": 0, "seat": 0, "orders": clue}
    fork_id = rule_amended(client, game_id, moderator, amendment)
    assert referee.due_rounds(later) == []  # the fork starts paused
    deadline = resume_fork(client, app, fork_id, moderator)
    assert referee.due_rounds(later) == [(fork_id, 1)]
    timed_when_near(referee, fork_id, 1, deadline)
    shown = get(client, f"/games/{fork_id}", seats[2])
    assert shown["round"]["open"]["round"] == 1
    assert shown["round"]["open"]["my_orders"]["orders"]["spectate"] == 3
    forked = stored(app, fork_id)
    drawn = forked[1]["payload"]["movements"]
    results = [e["payload"] for e in forked if e["type"] == "AbilityResolved"]
    [learned] = [r for r in results if r["kind"] is not None]  # the others used none
    assert learned["seat"] == 0
    assert learned["learned"]["movements"] == {"A": {"1": drawn["1"]["A"], "2": drawn["2"]["A"]}}
    assert referee.resolve_round(game_id, 1, now=later) == "not_open"
    assert referee.resolve_round(fork_id, 1, now=later) == "resolved"


def test_a_fork_in_the_open_round_is_scheduled_at_its_deadline(client, app, table):
    game_id, seats, moderator = table
    referee = app.extensions["referee"]
    version = submit(client, game_id, seats[1], 0)["version"]
    deadline = get(client, f"/games/{game_id}")["round"]["open"]["deadline"]
    announce = {"type": "announce", "text": "orders are due"}
    amendment = {"kind": "insert", "before": version + 1, "actor": MODERATOR, "command": announce}
    fork_id = rule_amended(client, game_id, moderator, amendment)
    # the fork's round opened among the events it shares with the original; paused
    # until the moderator resumes it, it then gets the time it had left
    assert referee.due_rounds(deadline) == []
    deadline = resume_fork(client, app, fork_id, moderator)
    timed_when_near(referee, fork_id, 0, deadline)
    assert referee.due_rounds(deadline) == [(fork_id, 0)]
    assert referee.resolve_round(game_id, 0, now=deadline) == "not_open"
    assert referee.resolve_round(fork_id, 0, now=deadline) == "resolved"


def timed_when_near(referee, game_id, number, deadline) -> None:
    """A round's deadline a day off has no timed task yet; the sweeper sends one when it
    comes within the arming horizon."""
    assert (game_id, number, deadline) not in referee.scheduler.asked
    near = deadline - referee.arming_seconds
    assert referee.arm_rounds(near) == [(game_id, number, deadline)]
    assert referee.scheduler.asked[-1] == (game_id, number, deadline)


def resume_fork(client, app, fork_id, moderator) -> int:
    """Resume a fork that starts paused: the open round keeps the time it had left at the
    fork's last recorded command; returns the new deadline."""
    paused = stored(app, fork_id)[-1]
    assert paused["type"] == "GamePaused" and "dispute" in paused["payload"]["reason"]
    before = get(client, f"/games/{fork_id}")["round"]
    assert before["paused"] is True
    body = {"type": "resume", "reason": "the ruling is published"}
    resumed = client.post(f"/games/{fork_id}/commands", json=body, headers=moderator)
    assert resumed.status_code == 201, resumed.get_json()
    event = resumed.get_json()["events"][0]["payload"]
    left = before["open"]["deadline"] - paused["payload"]["at"]
    assert event["deadline"] - event["at"] == left
    return event["deadline"]


# --- importing logs --------------------------------------------------------------------


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """Finished galloping-horse logs played by bots in another store, and their seeds."""
    store = open_store(tmp_path_factory.mktemp("import") / "other.db", clock=LogicalClock())
    referee = Referee(store)
    seeds = ["import-1", "import-2", "import-3"]
    return {
        seed: store.events(play(referee, "galloping-horse", list("abcd"), seed=seed))
        for seed in seeds
    }


def import_ndjson(client, data: bytes):
    return client.post("/games/import", data=data, content_type=NDJSON)


def test_a_finished_log_is_imported_as_it_is(client, logs):
    data = dumps(logs["import-1"])
    answer = import_ndjson(client, data)
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    game_id = body["game_id"]
    assert game_id == logs["import-1"][0]["game_id"]
    assert (body["status"], body["version"]) == ("finished", len(logs["import-1"]))
    tokens = [body["moderator_token"], *(s["token"] for s in body["seats"])]
    assert len(set(tokens)) == 5
    assert client.get(f"/games/{game_id}/log").get_data() == data
    assert (
        get(client, f"/games/{game_id}", bearer(body["seats"][1]["token"]))["status"] == "finished"
    )
    amendment = {"kind": "drop", "seq": plays_of(logs["import-1"])[-1]["seq"]}
    opened = client.post(
        f"/games/{game_id}/disputes",
        json={"claim": "recount", "amendment": amendment},
        headers=bearer(body["moderator_token"]),
    )
    assert opened.status_code == 201, opened.get_json()
    assert opened.get_json()["dispute"] == len(logs["import-1"]) + 1
    error_of(import_ndjson(client, data), 409, "import/exists")


def test_a_log_is_imported_as_json(client, logs):
    answer = client.post("/games/import", json={"log": dumps(logs["import-2"]).decode()})
    assert answer.status_code == 201, answer.get_json()
    game_id = answer.get_json()["game_id"]
    assert client.get(f"/games/{game_id}/log").get_data() == dumps(logs["import-2"])
    again = client.post("/games/import", json={"log": dumps(logs["import-2"]).decode()})
    error_of(again, 409, "import/exists")


def test_a_tampered_log_is_refused_naming_the_seq_and_code(client, app, logs):
    events = copy.deepcopy(logs["import-3"])
    moved = next(e for e in events if e["type"] == "HorseMoved")
    moved["payload"]["to"] += 3
    error = error_of(import_ndjson(client, dumps(rechain(events))), 422, "import/invalid_log")
    assert error["details"] == {"seq": moved["seq"], "code": "rules/derived"}
    assert f"seq {moved['seq']}" in error["message"]
    flipped = dumps(logs["import-3"]).replace(b'"seq":20,', b'"seq":21,', 1)
    error = error_of(import_ndjson(client, flipped), 422, "import/invalid_log")
    assert error["details"]["seq"] == 20
    assert app.extensions["referee"].store.game_ids() == []


def test_a_game_in_play_needs_its_seed(client, logs):
    in_play = logs["import-3"][:40]
    data = dumps(in_play).decode()
    error = error_of(import_ndjson(client, data.encode()), 422, "import/seed_required")
    assert error["details"] == {"field": "seed"}
    wrong = client.post("/games/import", json={"log": data, "seed": "import-2"})
    error_of(wrong, 422, "import/seed_mismatch")
    answer = client.post("/games/import", json={"log": data, "seed": "import-3"})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert (body["status"], body["version"]) == ("active", 40)
    game_id = body["game_id"]
    assert client.get(f"/games/{game_id}").get_json()["seed"] is None
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    play_turns(client, game_id, tokens, 1)
    log = client.get(f"/games/{game_id}/log", headers=bearer(body["moderator_token"])).get_data()
    assert log.startswith(dumps(in_play)) and len(parse(log)) > 40
    assert verify_events(parse(log), seed="import-3").valid


@pytest.mark.parametrize("data", [b"not json\n", b'{"seq": 1}\n[1, 2]\n', b"\xff\xfe\n", b""])
def test_unreadable_lines_are_400(client, data):
    error = error_of(import_ndjson(client, data), 400, "import/unreadable")
    assert error["details"]


def test_a_log_of_a_rules_version_this_referee_lacks_is_refused(client, logs):
    events = copy.deepcopy(logs["import-1"])
    events[0]["payload"]["ruleset_version"] = "0.0.1"
    error = error_of(import_ndjson(client, dumps(rechain(events))), 422, "import/rules_version")
    assert "0.0.1" in error["message"]


def long_log(tmp_path) -> bytes:
    """A finished galloping-horse log of more than 1 MiB: long announcements, then play."""
    store = open_store(tmp_path / "long.db", clock=LogicalClock())
    referee = Referee(store)
    game_id = referee.create_game("galloping-horse", list("abcd"), {}, "long", game_id="long")[
        "game_id"
    ]
    for n in range(260):
        referee.command(game_id, MODERATOR, {"type": "announce", "text": f"{n:03} " + "x" * 3990})
    rng = Rng("bot:long")
    for turn in range(200):
        state = referee.state(game_id)
        if game.is_closed(state):
            break
        actor, command = choose(state, rng, turn)
        referee.command(game_id, actor, command)
    return store.log_lines(game_id)


def test_an_import_may_be_bigger_than_other_bodies(client, app, tmp_path):
    data = long_log(tmp_path)
    assert (1 << 20) < len(data) < app.config["IMPORT_MAX_BYTES"]
    response = client.post("/games", data=data, content_type="application/json")
    error_of(response, 413, "request/too_large")
    answer = import_ndjson(client, data)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["status"] == "finished"
    assert client.get("/games/long/log").get_data() == data
    app.config["IMPORT_MAX_BYTES"] = 1 << 20
    error_of(import_ndjson(client, data), 413, "request/too_large")


def test_a_seats_notifications_follow_play_into_the_fork(client, app, http_game):
    original = http_game.game_id
    body = {"kind": "webhook", "url": "http://127.0.0.1:9/hook"}
    made = client.post(f"/games/{original}/subscriptions", json=body, headers=http_game.auth(1))
    assert made.status_code == 201
    play_turns(client, original, seat_tokens(http_game), 6)
    dropped = plays_of(stored(app, original))[2]
    opened = open_dispute(client, http_game, {"kind": "drop", "seq": dropped["seq"]}).get_json()
    ruled = rule(client, http_game, opened["dispute"], "amended", "never played").get_json()
    fork_id = ruled["fork_game_id"]
    listed = client.get(f"/games/{fork_id}/subscriptions", headers=http_game.auth(1)).get_json()
    assert [s["subscription_id"] for s in listed] == [made.get_json()["subscription_id"]]
