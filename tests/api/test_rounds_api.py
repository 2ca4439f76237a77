"""Sealed rounds through the service and the HTTP app, on the toy ruleset."""

import threading

import pytest
import sealed_toy
from scheduling import T0, Clock, Recorder
from stores import store_target

from referee.app import create_app
from referee.engine import registry

pytestmark = pytest.mark.both_stores


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setitem(registry._RULESETS, sealed_toy.NAME, sealed_toy)


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


@pytest.fixture
def table(client):
    body = {
        "ruleset": "sealed-toy",
        "players": ["a", "b"],
        "options": {"round_seconds": 60},
        "seed": "api-rounds",
    }
    created = client.post("/games", json=body).get_json()
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    tokens["moderator"] = created["moderator_token"]
    return created["game_id"], {k: {"Authorization": f"Bearer {v}"} for k, v in tokens.items()}


def submit(client, game_id, headers, bid, **extra):
    body = {"type": "submit_orders", "round": 1, "orders": {"bid": bid}, **extra}
    return client.post(f"/games/{game_id}/commands", json=body, headers=headers)


def test_the_view_shows_the_open_round_and_its_deadline(client, table):
    game_id, auth = table
    shown = client.get(f"/games/{game_id}", headers=auth[0]).get_json()
    assert shown["round"]["open"]["deadline"] == T0 + 60
    assert shown["round"]["open"]["deadline_utc"] == "2027-01-15T08:01:00Z"
    assert shown["to_move"] == [0, 1]


def test_a_submission_gets_a_receipt_and_warnings(client, table):
    game_id, auth = table
    answer = submit(client, game_id, auth[0], 5)
    assert answer.status_code == 201
    body = answer.get_json()
    committed = body["events"][1]
    assert body["receipt"] == {
        "round": 1,
        "seq": committed["seq"],
        "commitment": committed["payload"]["commitment"],
        "recorded_at": committed["recorded_at"],
        "hash": committed["hash"],
    }
    assert body["warnings"] == [{"part": "bid", "rule": "toy/high", "message": "a high bid"}]
    submitted = body["events"][0]
    assert submitted["type"] == "OrdersSubmitted" and submitted["visibility"] == [0]
    stream = client.get(f"/games/{game_id}/events", headers=auth[1]).get_json()["events"]
    hidden = next(e for e in stream if e["seq"] == submitted["seq"])
    assert hidden == {
        "seq": submitted["seq"],
        "prev_hash": submitted["prev_hash"],
        "hash": submitted["hash"],
        "redacted": True,
    }
    assert [e["seq"] for e in stream if e.get("redacted")] == [submitted["seq"]]


def test_a_client_cannot_set_the_time(client, table):
    game_id, auth = table
    answer = submit(client, game_id, auth[0], 2, now=T0 + 10_000)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["details"] == {"field": "now"}
    assert client.get(f"/games/{game_id}").get_json()["version"] == 2


def test_late_and_malformed_orders_change_nothing(client, table, clock):
    game_id, auth = table
    assert submit(client, game_id, auth[0], 9).status_code == 400
    clock.now = T0 + 60
    late = submit(client, game_id, auth[0], 2)
    assert late.status_code == 422
    assert late.get_json()["error"]["code"] == "rule/deadline_passed"
    assert client.get(f"/games/{game_id}").get_json()["version"] == 2


def test_the_service_asks_for_resolution_at_the_deadline_and_when_all_have_sent(
    client, table, referee
):
    game_id, auth = table
    assert referee.scheduler.asked == [(game_id, 1, T0 + 60)]
    submit(client, game_id, auth[0], 2)
    submit(client, game_id, auth[1], 3)
    assert referee.scheduler.asked[-1] == (game_id, 1, None)
    assert referee.due_rounds() == [(game_id, 1)]


def test_resolve_round_says_why_it_did_nothing(table, referee, clock):
    game_id, _ = table
    assert referee.resolve_round(game_id, 1) == "not_due"
    assert referee.due_rounds() == []
    clock.now = T0 + 60
    assert referee.due_rounds() == [(game_id, 1)]
    assert referee.resolve_round(game_id, 1) == "resolved"
    assert referee.resolve_round(game_id, 1) == "not_open"
    assert referee.due_rounds() == []
    assert referee.scheduler.asked[-1] == (game_id, 2, T0 + 120)


def test_racing_resolvers_resolve_a_round_once(table, referee, clock, app):
    game_id, _ = table
    clock.now = T0 + 60
    results: list[str] = []
    others = [
        create_app({"REFEREE_DB": app.config["REFEREE_DB"]}).extensions["referee"] for _ in range(4)
    ]
    for other in others:
        other.clock = clock
    threads = [
        threading.Thread(target=lambda r=r: results.append(r.resolve_round(game_id, 1)))
        for r in others
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["not_open"] * 3 + ["resolved"]
    log = referee.store.events(game_id)
    assert [e["type"] for e in log].count("OrdersCounted") == 1


def test_pause_and_resume_over_http(client, table, clock, referee):
    game_id, auth = table
    url = f"/games/{game_id}/commands"
    paused = client.post(url, json={"type": "pause", "reason": "storm"}, headers=auth["moderator"])
    assert paused.status_code == 201
    clock.now = T0 + 1000
    assert referee.due_rounds() == [] and referee.resolve_round(game_id, 1) == "paused"
    resumed = client.post(url, json={"type": "resume", "reason": "calm"}, headers=auth["moderator"])
    assert resumed.get_json()["events"][0]["payload"]["deadline"] == T0 + 1060
    assert referee.scheduler.asked[-1] == (game_id, 1, T0 + 1060)
    seat = client.post(url, json={"type": "pause", "reason": "me"}, headers=auth[0])
    assert seat.status_code == 403
    assert seat.get_json()["error"]["code"] == "auth/moderator_only"


def test_the_ruleset_page_lists_the_round_commands(client):
    described = client.get("/rulesets/sealed-toy").get_json()
    assert "submit_orders" in described["commands"]
    assert {"extend_deadline", "close_round", "pause", "resume", "abandon"} <= set(
        described["moderator_commands"]
    )


def test_a_resolved_round_has_a_forum_summary(client, table, clock):
    game_id, auth = table
    url = f"/games/{game_id}/rounds/1/summary"
    assert client.get(url).status_code == 404
    submit(client, game_id, auth[1], 3)
    clock.now = T0 + 60
    client.application.extensions["referee"].resolve_round(game_id, 1)
    markdown = client.get(url).get_data(as_text=True)
    assert markdown.startswith("## Round 1 \\[toy\\]")
    assert "- a: nothing sent" in markdown and "- b: orders sealed, commitment " in markdown
    bbcode = client.get(url + "?format=bbcode").get_data(as_text=True)
    assert bbcode.startswith("[size=150][b]Round 1 [[i][/i]toy][/b][/size]")  # shown as typed
    assert "[list][*](none)[/list]" in bbcode
    assert client.get(url + "?format=html").status_code == 400
