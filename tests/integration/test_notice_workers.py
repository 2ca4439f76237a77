"""A move's notices sent by a real Celery worker process over a real Redis, from a real
SQLite file, to a real HTTP receiver that keeps its connections open: every subscriber
gets its own, signed with its own secret, and none twice."""

import threading

import pytest
from receiver import Receiver
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from referee.serve import embedded

PLAYERS = ["ann", "bob", "cat", "dan"]
SUBSCRIBERS = 5  # the most the moderator may hold in a game

pytestmark = pytest.mark.usefixtures("worker_env")


def test_a_worker_sends_a_moves_notices_to_every_subscriber(client, db, broker):
    receiver = Receiver(keep_alive=True)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    created = client.post("/games", json={"ruleset": "galloping-horse", "players": PLAYERS})
    game_id = created.get_json()["game_id"]
    mod = {"Authorization": f"Bearer {created.get_json()['moderator_token']}"}
    secrets = []
    for n in range(SUBSCRIBERS):
        body = {"kind": "webhook", "url": f"{receiver.url}/{n}", "events": ["post"]}
        made = client.post(f"/games/{game_id}/subscriptions", json=body, headers=mod)
        secrets.append(made.get_json()["secret"])
    seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
    token = {"Authorization": f"Bearer {created.get_json()['seats'][seat]['token']}"}
    legal = client.get(f"/games/{game_id}", headers=token).get_json()["legal"]
    moved = client.post(f"/games/{game_id}/commands", json=legal[0], headers=token)
    assert moved.status_code == 201
    try:
        with embedded.workers(1, broker=broker, db=db, beat=False):  # no sweeper: the task
            receiver.wait_for(SUBSCRIBERS)
    finally:
        receiver.shutdown()
        receiver.server_close()
    assert len(receiver.got) == SUBSCRIBERS
    signed_by = []
    for headers, sent in receiver.got:
        verified = [n for n, s in enumerate(secrets) if _verifies(s, sent, headers)]
        assert len(verified) == 1
        signed_by += verified
        assert Webhook(secrets[verified[0]]).verify(sent, headers)["data"]["game_id"] == game_id
    assert sorted(signed_by) == list(range(SUBSCRIBERS))
    assert len({headers["webhook-id"] for headers, _ in receiver.got}) == SUBSCRIBERS


def _verifies(secret: str, body: bytes, headers: dict[str, str]) -> bool:
    try:
        Webhook(secret).verify(body, headers)
    except WebhookVerificationError:
        return False
    return True
