"""Notifications with the real parts: a real HTTP receiver on 127.0.0.1 that checks every
webhook with the `standardwebhooks` package, Apprise's json:// target to it, e-mail
through a real local SMTP server (aiosmtpd), on a real SQLite file with the real app.
Deliveries are driven as the worker drives them (`Referee.deliver`), with a controllable
clock for the retries and reminders."""

import json
import socket
import threading

import pytest
from aiosmtpd.controller import Controller
from receiver import Receiver
from standardwebhooks.webhooks import Webhook
from stores import store_target
from waiting import wait_until

from referee.app import create_app
from referee.notify.subscriptions import BACKOFF, GIVE_UP_AFTER, HANDED_GRACE

pytestmark = pytest.mark.both_stores

T0 = 1_800_000_000
HOUR = 3600
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WITHIN = 60  # seconds, for failing only


@pytest.fixture
def receiver():
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def clock(app):
    now = {"at": T0}
    app.extensions["referee"].clock = lambda: now["at"]
    return now


@pytest.fixture
def referee(app):
    return app.extensions["referee"]


def create(client, ruleset="galloping-horse", players=PLAYERS, **extra):
    body = {"ruleset": ruleset, "players": players, "seed": "notices", **extra}
    created = client.post("/games", json=body).get_json()
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    auth["moderator"] = {"Authorization": f"Bearer {created['moderator_token']}"}
    return created["game_id"], auth


def subscribe(client, game_id, headers, **body):
    answer = client.post(f"/games/{game_id}/subscriptions", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_first(client, game_id, auth):
    """Whoever is to move plays its first legal command."""
    seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
    command = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"][0]
    answer = client.post(f"/games/{game_id}/commands", json=command, headers=auth[seat])
    assert answer.status_code == 201, answer.get_json()
    return seat


def send_due(referee, now):
    return [referee.deliver(d, now=now) for d in referee.due_deliveries(now)]


def deliveries(client, game_id, headers, subscription):
    path = f"/games/{game_id}/subscriptions/{subscription['subscription_id']}/deliveries"
    return client.get(path, headers=headers).get_json()


def test_a_seats_turn_reaches_its_webhook_signed_and_verifiable(client, referee, receiver, clock):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    assert sub["secret"].startswith("whsec_") and sub["active"] is True
    play_first(client, game_id, auth)  # seat 0 moves: seat 1 is asked
    assert send_due(referee, T0) == ["delivered"]
    headers, body = receiver.got[0]
    verified = Webhook(sub["secret"]).verify(body, headers)
    assert verified["type"] == "referee.your_move"
    notice = verified["data"]
    assert notice["game_id"] == game_id and notice["kind"] == "your_move" and notice["seq"] > 0
    assert headers["webhook-id"] == deliveries(client, game_id, auth[1], sub)[0]["delivery_id"]
    assert send_due(referee, T0 + 99) == []  # sent once
    listed = client.get(f"/games/{game_id}/subscriptions", headers=auth[1]).get_json()
    assert [s["subscription_id"] for s in listed] == [sub["subscription_id"]]
    assert "secret" not in listed[0]


def test_a_500_twice_then_200_is_delivered_on_the_third_attempt(client, referee, receiver, clock):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    receiver.answers = [500, 500]
    play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["retrying"]
    (retried,) = deliveries(client, game_id, auth[1], sub)
    assert retried["status"] == "failed" and retried["next_at"] == T0 + BACKOFF[0]
    assert send_due(referee, T0 + BACKOFF[0] - 1) == []  # not before its backoff
    assert send_due(referee, T0 + BACKOFF[0]) == ["retrying"]
    assert send_due(referee, T0 + BACKOFF[0] + BACKOFF[1]) == ["delivered"]
    ids = {headers["webhook-id"] for headers, _ in receiver.got}
    assert len(receiver.got) == 3 and len(ids) == 1  # one notice, one id: a receiver dedupes
    (logged,) = deliveries(client, game_id, auth[1], sub)
    assert logged["status"] == "delivered" and logged["attempts"] == 3
    assert logged["answer"] == "delivered"


def test_a_target_failing_through_the_schedule_is_disabled_and_says_why(
    client, referee, receiver, clock
):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    receiver.answers = [503] * 20
    play_first(client, game_id, auth)
    now = T0
    outcomes = send_due(referee, now)
    for wait in BACKOFF:
        now += wait
        outcomes += send_due(referee, now)
    assert outcomes == ["retrying"] * len(BACKOFF) + ["failed"]
    assert now - T0 == GIVE_UP_AFTER and 5 * HOUR < GIVE_UP_AFTER <= 6 * HOUR
    assert send_due(referee, now + 30 * 86400) == []  # no attempt after the last
    assert len(receiver.got) == len(BACKOFF) + 1
    (shown,) = client.get(f"/games/{game_id}/subscriptions", headers=auth[1]).get_json()
    assert shown["active"] is False and "8 attempts over 5.6 hours" in shown["disabled_reason"]
    assert "503" not in shown["disabled_reason"]  # what the target said is not told
    (gave_up,) = deliveries(client, game_id, auth[1], sub)
    assert gave_up["status"] == "gave_up" and "503" not in json.dumps(gave_up)
    play_first(client, game_id, auth)  # nothing more is recorded for a disabled one
    assert len(deliveries(client, game_id, auth[1], sub)) == 1
    path = f"/games/{game_id}/subscriptions/{sub['subscription_id']}/deliveries"
    failed = deliveries(client, game_id, auth[1], sub)[0]["delivery_id"]
    again = client.post(f"{path}/{failed}/redeliver", headers=auth[1])
    assert again.status_code == 202 and again.get_json()["status"] == "pending"


def test_a_stale_notice_is_dropped_when_sent(client, referee, receiver, clock):
    game_id, auth = create(client)
    subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    play_first(client, game_id, auth)  # seat 1 is asked...
    play_first(client, game_id, auth)  # ...and has moved before the notice went out
    assert send_due(referee, T0) == ["dropped"]
    assert receiver.got == []


def test_a_rotated_secret_and_the_old_one_both_sign_for_a_day(client, referee, receiver, clock):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    path = f"/games/{game_id}/subscriptions/{sub['subscription_id']}/rotate"
    rotated = client.post(path, headers=auth[1]).get_json()
    assert rotated["secret"] != sub["secret"]
    play_first(client, game_id, auth)
    send_due(referee, T0)
    headers, body = receiver.got[0]
    for secret in (sub["secret"], rotated["secret"]):
        assert Webhook(secret).verify(body, headers)["type"] == "referee.your_move"


def test_others_cannot_see_or_remove_a_subscription(client, receiver, clock):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    assert client.get(f"/games/{game_id}/subscriptions", headers=auth[2]).get_json() == []
    path = f"/games/{game_id}/subscriptions/{sub['subscription_id']}"
    assert client.delete(path, headers=auth[2]).status_code == 404
    assert client.post(f"/games/{game_id}/subscriptions", json={}).status_code in (400, 401)
    spectator = client.post(
        f"/games/{game_id}/subscriptions", json={"kind": "webhook", "url": receiver.url}
    )
    assert spectator.status_code == 401
    assert client.delete(path, headers=auth[1]).status_code == 204


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "pigeon", "url": "http://127.0.0.1/x"}, "kind"),
        ({"kind": "webhook", "url": "ftp://127.0.0.1/x"}, "url"),
        ({"kind": "apprise", "url": "nonsense://whatever"}, "url"),
        ({"kind": "webhook", "url": "http://127.0.0.1/x", "events": ["everything"]}, "events"),
        ({"kind": "webhook", "url": "http://127.0.0.1/x", "reminders": [0]}, "reminders"),
    ],
)
def test_a_bad_subscription_is_a_400_naming_the_field(client, body, field):
    game_id, auth = create(client)
    answer = client.post(f"/games/{game_id}/subscriptions", json=body, headers=auth[0])
    assert answer.status_code == 400
    assert field in json.dumps(answer.get_json()["error"])
    assert client.get(f"/games/{game_id}/subscriptions", headers=auth[0]).get_json() == []


def test_apprise_json_reaches_the_same_receiver(client, referee, receiver, clock):
    game_id, auth = create(client)
    port = receiver.server_address[1]
    subscribe(client, game_id, auth["moderator"], kind="apprise", url=f"json://127.0.0.1:{port}/")
    created = subscribe(client, game_id, auth[1], kind="apprise", url=f"json://127.0.0.1:{port}/")
    assert created["url"] == "json://…"  # an Apprise URL may hold a credential
    play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["delivered"]  # seat 1's turn; nothing for the moderator
    message = json.loads(receiver.got[0][1])
    assert "It is your move." in message["message"] and f"game {game_id}" in message["message"]


def test_a_round_summary_is_mailed_through_a_real_smtp_server(client, referee, clock):
    mail = []

    class Inbox:
        async def handle_DATA(self, server, session, envelope):
            mail.append((envelope.rcpt_tos, envelope.content.decode("utf-8", "replace")))
            return "250 OK"

    port = free_port()
    smtp = Controller(Inbox(), hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        players = ["Ann", "Bo", "Cy"]
        game_id, auth = create(client, "blackout-middle", players)
        url = f"mailto://127.0.0.1:{port}?from=referee@example.org&to=mod@example.org&mode=insecure"
        subscribe(
            client, game_id, auth["moderator"], kind="apprise", url=url, events=["round_resolved"]
        )
        round_number = client.get(f"/games/{game_id}").get_json()["round"]["open"]["round"]
        referee.clock = lambda: T0 + 10 * 86400  # every deadline has passed
        assert referee.resolve_round(game_id, round_number) == "resolved"
        assert send_due(referee, T0 + 10 * 86400) == ["delivered"]
        wait_until(lambda: mail, "the round-resolved e-mail to reach the SMTP server", bound=WITHIN)
    finally:
        smtp.stop()
    ((to, message),) = mail
    assert to == ["mod@example.org"]
    assert f"Round {round_number} was resolved" in message.replace("=\r\n", "")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_reminders_come_before_a_deadline_and_not_after_the_seat_moved(
    client, referee, receiver, clock
):
    game_id, auth = create(client, clock={"seconds": 24 * HOUR})
    subscribe(
        client,
        game_id,
        auth[1],
        kind="webhook",
        url=receiver.url,
        events=["deadline_near"],
        reminders=[4, 1],
    )
    play_first(client, game_id, auth)  # seat 1 is asked until T0 + 24 h
    assert send_due(referee, T0 + 19 * HOUR) == []
    assert send_due(referee, T0 + 20 * HOUR) == ["delivered"]
    notice = json.loads(receiver.got[0][1])["data"]
    assert notice["hours"] == 4 and notice["deadline_utc"] == "2027-01-16T08:00:00Z"
    play_first(client, game_id, auth)  # seat 1 moves before the 1-hour reminder
    assert send_due(referee, T0 + 23 * HOUR) == ["dropped"]


def test_a_seats_notices_never_hold_another_seats_secret(
    client, referee, app, receiver, clock, backend, request
):
    """Royal Turf with hidden bets, played twice from one seed, seat 0 betting another
    chip: every notice seat 1's subscription records is the same in both games."""
    told = []
    for chip in (0, 2):
        target = store_target(
            backend, str(app.config["REFEREE_DB"]) + f".{chip}", request, another=True
        )
        twin = create_app({"REFEREE_DB": target, "TESTING": True})
        twin.extensions["referee"].clock = lambda: T0
        twin_client = twin.test_client()
        game_id, auth = create(
            twin_client, "royal-turf", ["Ann", "Bo", "Cy"], options={"hidden_bets": True}
        )
        sub = subscribe(twin_client, game_id, auth[1], kind="webhook", url=receiver.url)
        seat = twin_client.get(f"/games/{game_id}").get_json()["to_move"][0]
        legal = twin_client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"]
        bet = next(c for c in legal if c["chip"] == chip)
        twin_client.post(f"/games/{game_id}/commands", json=bet, headers=auth[seat])
        for _ in range(2):  # seats 1 and 2 bet as they would in either game
            assert play_first(twin_client, game_id, auth) != seat
        rows = twin.extensions["referee"].store.query(
            "SELECT notice FROM deliveries WHERE subscription_id = ?", (sub["subscription_id"],)
        )
        told.append([{**json.loads(r[0]), "game_id": None} for r in rows])
    assert told[0] == told[1] and len(told[0]) >= 1


def test_a_seat_late_under_wait_is_told_to_the_moderator_and_changes_nothing_else(
    client, referee, receiver, clock
):
    game_id, auth = create(client, clock={"seconds": HOUR, "on_timeout": "wait"})
    sub = subscribe(client, game_id, auth["moderator"], kind="webhook", url=receiver.url)
    before = client.get(f"/games/{game_id}").get_json()
    clock["at"] = T0 + HOUR
    assert referee.time_out(game_id, 0, T0 + HOUR) == "timed_out"
    assert send_due(referee, T0 + HOUR) == ["delivered"]
    notice = Webhook(sub["secret"]).verify(receiver.got[0][1], receiver.got[0][0])["data"]
    assert notice["kind"] == "timed_out" and notice["seat"] == 0
    after = client.get(f"/games/{game_id}").get_json()
    assert after["state"] == before["state"] and after["to_move"] == [0]


def test_the_end_of_the_game_is_one_notice_with_its_outcome_and_seed(
    client, referee, receiver, clock
):
    game_id, auth = create(client)
    sub = subscribe(
        client, game_id, auth[2], kind="webhook", url=receiver.url, events=["game_ended"]
    )
    port = receiver.server_address[1]
    subscribe(
        client,
        game_id,
        auth["moderator"],
        kind="apprise",
        url=f"json://127.0.0.1:{port}/",
        events=["game_ended"],
    )
    while client.get(f"/games/{game_id}").get_json()["status"] == "active":
        play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["delivered", "delivered"]  # one each
    assert send_due(referee, T0 + HOUR) == []
    ((headers, body),) = [(h, b) for h, b in receiver.got if "webhook-id" in h]
    notice = Webhook(sub["secret"]).verify(body, headers)["data"]
    outcome = client.get(f"/games/{game_id}").get_json()["outcome"]
    assert notice["outcome"] == outcome and notice["seed"] == "notices"
    winners = " and ".join(PLAYERS[s] for s in outcome["winners"])
    assert notice["text"].startswith(f"The game is over: {winners} win")
    assert "The seed is revealed: notices" in notice["text"]
    (chat,) = [json.loads(b) for h, b in receiver.got if "webhook-id" not in h]
    assert winners in chat["message"] and "The seed is revealed: notices" in chat["message"]


def test_an_abandoned_game_is_one_notice_with_the_reason_and_seed(client, referee, receiver, clock):
    game_id, auth = create(client)
    sub = subscribe(client, game_id, auth[0], kind="webhook", url=receiver.url)
    abandon = {"type": "abandon", "reason": "the table broke up"}
    answer = client.post(f"/games/{game_id}/commands", json=abandon, headers=auth["moderator"])
    assert answer.status_code == 201, answer.get_json()
    assert send_due(referee, T0) == ["delivered"]
    ((headers, body),) = receiver.got
    notice = Webhook(sub["secret"]).verify(body, headers)["data"]
    assert notice["kind"] == "game_ended" and notice["seed"] == "notices"
    assert notice["outcome"] is None
    assert notice["text"] == (
        "The game was abandoned (the table broke up). The seed is revealed: notices"
    )


def test_a_moderator_who_asks_for_posts_gets_each_commands_forum_post(
    client, app, referee, receiver, clock
):
    app.config["PUBLIC_URL"] = referee.public_url = "https://referee.example"
    game_id, auth = create(client)
    mod = auth["moderator"]
    hook = subscribe(client, game_id, mod, kind="webhook", url=receiver.url, events=["post"])
    port = receiver.server_address[1]
    subscribe(
        client, game_id, mod, kind="apprise", url=f"json://127.0.0.1:{port}/", events=["post"]
    )
    plain = subscribe(client, game_id, mod, kind="webhook", url=receiver.url)
    assert "post" not in plain["events"]  # asked for by name only: one after every command
    mover = PLAYERS[play_first(client, game_id, auth)]
    assert send_due(referee, T0) == ["delivered", "delivered"]
    ((headers, body),) = [(h, b) for h, b in receiver.got if "webhook-id" in h]
    notice = Webhook(hook["secret"]).verify(body, headers)["data"]
    version = client.get(f"/games/{game_id}").get_json()["version"]
    assert notice["kind"] == "post" and notice["seq"] == version
    posted = client.get(f"/games/{game_id}/post?since={notice['since']}").get_data(as_text=True)
    assert notice["post"] == posted  # the same text as the post a forum gets
    assert f"{mover} played" in posted and "To move: " in posted
    assert f"(https://referee.example/games/{game_id}/board.png?at={version})" in posted
    assert notice["text"] == f"Galloping Horse: events {notice['since'] + 1} to {version}"
    (chat,) = [json.loads(b) for h, b in receiver.got if "webhook-id" not in h]
    assert posted in chat["message"] and chat["title"] == f"referee: {notice['text']}"


def test_a_seat_cannot_ask_for_forum_posts(client):
    game_id, auth = create(client)
    answer = client.post(
        f"/games/{game_id}/subscriptions",
        json={"kind": "webhook", "url": "http://127.0.0.1:9/hook", "events": ["post"]},
        headers=auth[0],
    )
    assert answer.status_code == 400 and "events" in json.dumps(answer.get_json())


def test_a_subscription_made_by_another_process_hears_the_next_command(
    app, client, referee, receiver, clock, backend, tmp_path, request
):
    """Whether a game has subscribers is read as each command is committed, in every
    process: one that made none itself still records the notice."""
    game_id, auth = create(client)
    other = create_app({"REFEREE_DB": app.config["REFEREE_DB"], "TESTING": True})
    try:
        subscribe(other.test_client(), game_id, auth[1], kind="webhook", url=receiver.url)
    finally:
        other.extensions["referee"].store.close()
    play_first(client, game_id, auth)  # in this process: seat 1 is asked
    assert send_due(referee, T0) == ["delivered"]


def test_a_command_in_a_game_nobody_subscribes_to_works_out_no_notices(
    client, referee, monkeypatch
):
    worked = []
    monkeypatch.setattr(referee.subscriptions, "of", lambda *a: worked.append(a) or [])
    monkeypatch.setattr("referee.notify.deliveries.Batch", lambda *a, **k: worked.append(a))
    game_id, auth = create(client)
    play_first(client, game_id, auth)
    assert worked == []


def test_a_slow_target_holds_up_only_its_own_notice(client, referee, clock):
    """A move's notices go out side by side: while the first target of the batch has not
    answered, the others are delivered; each is written down as it went."""
    receiver = Receiver(keep_alive=True)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    receiver.held["/hook/slow"] = slow = threading.Event()
    game_id, auth = create(client)
    mod = auth["moderator"]
    paths = ["/slow", "/a", "/b", "/c"]
    subs = [
        subscribe(client, game_id, mod, kind="webhook", url=receiver.url + path, events=["post"])
        for path in paths
    ]
    play_first(client, game_id, auth)
    ids = [deliveries(client, game_id, mod, sub)[0]["delivery_id"] for sub in subs]
    outcomes: dict[str, str] = {}
    sending = threading.Thread(target=lambda: outcomes.update(referee.deliver_all(ids, now=T0)))
    try:
        sending.start()
        receiver.wait_for(len(paths))  # all four arrived: three answered, the first held
        slow.set()
        sending.join(WITHIN)
    finally:
        slow.set()
        receiver.shutdown()
        receiver.server_close()
    assert outcomes == dict.fromkeys(ids, "delivered")
    assert sorted(h["webhook-id"] for h, _ in receiver.got) == sorted(ids)
    for sub in subs:
        (logged,) = deliveries(client, game_id, mod, sub)
        assert logged["status"] == "delivered" and logged["attempts"] == 1


def test_each_delivery_of_a_batch_has_its_own_outcome(client, referee, receiver, clock):
    game_id, auth = create(client)
    mod = auth["moderator"]
    closed = socket.create_server(("127.0.0.1", 0))
    nobody = f"http://127.0.0.1:{closed.getsockname()[1]}/x"
    closed.close()  # a port nobody listens on: connection refused
    urls = {"kept": receiver.url, "failing": nobody, "removed": receiver.url}
    subs = {
        name: subscribe(client, game_id, mod, kind="webhook", url=url, events=["post"])
        for name, url in urls.items()
    }
    play_first(client, game_id, auth)
    ids = {
        name: deliveries(client, game_id, mod, sub)[0]["delivery_id"] for name, sub in subs.items()
    }
    gone = client.delete(
        f"/games/{game_id}/subscriptions/{subs['removed']['subscription_id']}", headers=mod
    )
    assert gone.status_code == 204
    outcomes = referee.deliver_all([*ids.values(), "msg_unknown"], now=T0)
    assert outcomes == {
        ids["kept"]: "delivered",
        ids["failing"]: "retrying",
        ids["removed"]: "dropped",
        "msg_unknown": "not_due",
    }
    assert [h["webhook-id"] for h, _ in receiver.got] == [ids["kept"]]
    (failed,) = deliveries(client, game_id, mod, subs["failing"])
    assert failed["status"] == "failed" and failed["next_at"] == T0 + BACKOFF[0]
    again = referee.deliver_all(list(ids.values()), now=T0)  # sent, leased or dropped
    assert again == dict.fromkeys(ids.values(), "not_due")


def test_the_sweeper_leaves_a_handed_delivery_to_its_task_a_while(client, referee, receiver, clock):
    """A delivery handed to a sender as it was recorded is not swept again until its
    task has had HANDED_GRACE seconds; a retry is swept when it is due."""
    game_id, auth = create(client)
    subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    play_first(client, game_id, auth)  # recorded, and handed to a sender, at T0
    assert referee.due_deliveries(T0 + HANDED_GRACE - 1, grace=HANDED_GRACE) == []
    (handed,) = referee.due_deliveries(T0 + HANDED_GRACE, grace=HANDED_GRACE)
    receiver.answers = [500]
    assert referee.deliver(handed, now=T0 + HANDED_GRACE) == "retrying"
    retry = T0 + HANDED_GRACE + BACKOFF[0]
    assert referee.due_deliveries(retry - 1, grace=HANDED_GRACE) == []
    assert referee.due_deliveries(retry, grace=HANDED_GRACE) == [handed]
