"""Disputes told to their subscribers through the real delivery path: a real HTTP receiver
on 127.0.0.1 checking every webhook with the `standardwebhooks` package, Apprise's
json:// target to it, on a real SQLite file with the real app. Each seat and the
moderator is told of a ruling once, with its outcome and the fork, and of an opening once
it may read the claim; a seat learns nothing another seat's secret would change."""

import json
import threading

import pytest
from receiver import Receiver
from standardwebhooks.webhooks import Webhook
from stores import store_target

from referee.app import create_app

pytestmark = pytest.mark.both_stores
T0 = 1_800_000_000
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def receiver():
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def referee(app):
    service = app.extensions["referee"]
    service.clock = lambda: T0
    return service


def create(client, ruleset="galloping-horse", players=PLAYERS, **extra):
    body = {"ruleset": ruleset, "players": players, "seed": "disputed", **extra}
    created = client.post("/games", json=body).get_json()
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    auth["moderator"] = {"Authorization": f"Bearer {created['moderator_token']}"}
    return created["game_id"], auth


def subscribe_everyone(client, game_id, auth, url) -> dict:
    """A webhook of every seat's and the moderator's for dispute notices: role -> secret."""
    secrets = {}
    for role, headers in auth.items():
        body = {"kind": "webhook", "url": url, "events": ["dispute"]}
        made = client.post(f"/games/{game_id}/subscriptions", json=body, headers=headers)
        assert made.status_code == 201, made.get_json()
        secrets[role] = made.get_json()["secret"]
    return secrets


def play_first(client, game_id, auth) -> int:
    seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
    command = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"][0]
    answer = client.post(f"/games/{game_id}/commands", json=command, headers=auth[seat])
    assert answer.status_code == 201, answer.get_json()
    return seat


def plays(app, game_id) -> list[dict]:
    events = app.extensions["referee"].store.events(game_id)
    return [e for e in events if e["command"] and e["command"]["type"] == "play_card"]


def open_and_rule(client, game_id, auth, amendment, ruling="amended") -> dict:
    body = {"claim": "Bo says the card was not his", "amendment": amendment}
    opened = client.post(f"/games/{game_id}/disputes", json=body, headers=auth["moderator"])
    assert opened.status_code == 201, opened.get_json()
    number = opened.get_json()["dispute"]
    said = {"ruling": ruling, "reason": "the table agrees"}
    path = f"/games/{game_id}/disputes/{number}/ruling"
    ruled = client.post(path, json=said, headers=auth["moderator"])
    assert ruled.status_code == 201, ruled.get_json()
    return {"dispute": number, **ruled.get_json()}


def delivered(referee, receiver, secrets) -> dict:
    """Send every due delivery; each role's notices as its receiver checked them."""
    sent = [referee.deliver(d, now=T0) for d in referee.due_deliveries(T0)]
    assert set(sent) <= {"delivered"}
    receiver.wait_for(len(sent))
    by_role: dict = {role: [] for role in secrets}
    for headers, body in receiver.got:
        checked = [r for r, key in secrets.items() if _verifies(key, body, headers)]
        assert len(checked) == 1  # signed by exactly one subscriber's secret
        by_role[checked[0]].append(Webhook(secrets[checked[0]]).verify(body, headers)["data"])
    return by_role


def _verifies(secret, body, headers) -> bool:
    try:
        Webhook(secret).verify(body, headers)
    except Exception:  # noqa: BLE001 - standardwebhooks raises its own error for a bad signature
        return False
    return True


def test_a_ruling_in_play_is_told_once_to_every_seat_and_the_opening_to_the_moderator(
    client, app, referee, receiver
):
    game_id, auth = create(client)
    secrets = subscribe_everyone(client, game_id, auth, receiver.url)
    for _ in range(6):
        play_first(client, game_id, auth)
    dropped = plays(app, game_id)[2]["seq"]
    ruled = open_and_rule(client, game_id, auth, {"kind": "drop", "seq": dropped})
    fork_id, number = ruled["fork_game_id"], ruled["dispute"]
    told = delivered(referee, receiver, secrets)
    ruling = {
        "kind": "dispute",
        "game_id": game_id,
        "seq": number + 1,
        "dispute": number,
        "ruling": "amended",
        "reason": "the table agrees",
        "fork": {"game_id": fork_id, "at": dropped - 1},
        "text": f"Dispute {number} was ruled amended: the table agrees. "
        f"Play goes on in its fork, game {fork_id}.",
    }
    for seat in range(4):  # the opening is the moderator's until the end: its claim
        assert told[seat] == [ruling]  # once, with its outcome and the fork
    opening = {
        "kind": "dispute",
        "game_id": game_id,
        "seq": number,
        "dispute": number,
        "text": f"Dispute {number} was opened: Bo says the card was not his",
    }
    assert sorted(told["moderator"], key=lambda n: n["seq"]) == [opening, ruling]
    # the subscriptions went on into the fork with play
    listed = client.get(f"/games/{fork_id}/subscriptions", headers=auth[0]).get_json()
    assert [s["events"] for s in listed] == [["dispute"]]


def test_after_the_end_every_seat_is_told_of_the_opening_and_the_ruling(
    client, app, referee, receiver
):
    game_id, auth = create(client)
    while client.get(f"/games/{game_id}").get_json()["status"] == "active":
        play_first(client, game_id, auth)
    secrets = subscribe_everyone(client, game_id, auth, receiver.url)
    announce = {"type": "announce", "text": "The last card was played after a warning."}
    last = plays(app, game_id)[-1]["seq"]
    amendment = {"kind": "insert", "before": last, "actor": "moderator", "command": announce}
    ruled = open_and_rule(client, game_id, auth, amendment)
    told = delivered(referee, receiver, secrets)
    for role in secrets:
        kinds = [(n["kind"], n.get("ruling")) for n in told[role]]
        assert sorted(kinds, key=str) == [("dispute", "amended"), ("dispute", None)]
        [opening] = [n for n in told[role] if "ruling" not in n]
        assert opening["text"].endswith("Bo says the card was not his")
        [ruling] = [n for n in told[role] if "ruling" in n]
        assert ruling["fork"]["game_id"] == ruled["fork_game_id"]
    assert len(receiver.got) == 2 * len(secrets)  # every subscriber told once of each


def test_a_kept_ruling_says_the_game_stands(client, app, referee, receiver):
    game_id, auth = create(client)
    secrets = subscribe_everyone(client, game_id, {1: auth[1]}, receiver.url)
    for _ in range(3):
        play_first(client, game_id, auth)
    open_and_rule(
        client, game_id, auth, {"kind": "drop", "seq": plays(app, game_id)[0]["seq"]}, "kept"
    )
    [notice] = delivered(referee, receiver, secrets)[1]
    assert notice["ruling"] == "kept" and "fork" not in notice
    assert notice["text"].endswith("The game stands as recorded.")


def test_apprise_says_where_the_fork_is_when_the_host_named_its_address(
    client, app, referee, receiver
):
    referee.public_url = "https://referee.example/"
    game_id, auth = create(client)
    port = receiver.server_address[1]
    body = {"kind": "apprise", "url": f"json://127.0.0.1:{port}/", "events": ["dispute"]}
    made = client.post(f"/games/{game_id}/subscriptions", json=body, headers=auth[2])
    assert made.status_code == 201, made.get_json()
    for _ in range(5):
        play_first(client, game_id, auth)
    dropped = plays(app, game_id)[1]["seq"]
    ruled = open_and_rule(client, game_id, auth, {"kind": "drop", "seq": dropped})
    assert [referee.deliver(d, now=T0) for d in referee.due_deliveries(T0)] == ["delivered"]
    message = json.loads(receiver.got[0][1])
    assert "was ruled amended" in message["title"]
    assert f"The fork: https://referee.example/g/{ruled['fork_game_id']}" in message["message"]


def test_a_seats_dispute_notices_never_hold_another_seats_secret(app, receiver, backend, request):
    """Royal Turf with hidden bets, played twice from one seed, seat 0 betting another
    chip, and a dispute whose amendment puts in seat 0's other chip: seat 1 is told the
    same in both games (the forks' ids aside)."""
    told = []
    for chip, other in ((0, 2), (2, 0)):
        target = store_target(
            backend, str(app.config["REFEREE_DB"]) + f".{chip}", request, another=True
        )
        twin = create_app({"REFEREE_DB": target, "TESTING": True})
        twin.extensions["referee"].clock = lambda: T0
        client = twin.test_client()
        game_id, auth = create(
            client, "royal-turf", ["Ann", "Bo", "Cy"], options={"hidden_bets": True}
        )
        body = {"kind": "webhook", "url": receiver.url}
        sub = client.post(f"/games/{game_id}/subscriptions", json=body, headers=auth[1])
        seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
        legal = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"]
        bet = next(c for c in legal if c["chip"] == chip)
        client.post(f"/games/{game_id}/commands", json=bet, headers=auth[seat])
        for _ in range(2):
            play_first(client, game_id, auth)
        seq = plays_or_bets(twin, game_id)[0]
        swapped = {**bet, "chip": other}
        ruled = open_and_rule(
            client, game_id, auth, {"kind": "replace", "seq": seq, "command": swapped}
        )
        rows = twin.extensions["referee"].store.query(
            "SELECT notice FROM deliveries WHERE subscription_id = ? ORDER BY seq",
            (sub.get_json()["subscription_id"],),
        )
        notices = [json.loads(r[0]) for r in rows]
        text = json.dumps(notices).replace(game_id, "GAME").replace(ruled["fork_game_id"], "FORK")
        told.append(json.loads(text))
    assert told[0] == told[1]
    assert [n["kind"] for n in told[0]][-1] == "dispute"


def plays_or_bets(app, game_id) -> list[int]:
    """The seqs of the recorded commands of the seats."""
    events = app.extensions["referee"].store.events(game_id)
    return [e["seq"] for e in events if e["command"] and isinstance(e["actor"], int)]
