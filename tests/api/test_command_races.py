"""Commands racing on one game, through the app on a real SQLite file: a command that
names no `expected_version` is decided again on the newer state when another got in
first, and refused only by the rules; one that names a version is refused on a mismatch;
an Idempotency-Key still records a command once."""

import threading
from collections import Counter

import pytest

from referee.app import create_app
from referee.engine.errors import Conflict

pytestmark = pytest.mark.both_stores

PLAYERS = [f"P{n}" for n in range(12)]
SEATS_SENDING = 11  # one seat never sends, so the round stays open and every order legal
WRITERS = 24
EACH = 5
ANSWER_WITHIN = 120  # seconds: a bound for a failing test only


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def announce(text: str) -> dict[str, str]:
    return {"type": "announce", "text": text}


@pytest.fixture
def table(client):
    """A 12-seat blackout-middle game: (game id, every seat's headers, the moderator's)."""
    body = {"ruleset": "blackout-middle", "players": PLAYERS, "seed": "races"}
    created = client.post("/games", json=body).get_json()
    seats = [bearer(s["token"]) for s in created["seats"]]
    return created["game_id"], seats, bearer(created["moderator_token"])


def senders(client, game_id: str, seats, moderator) -> list[tuple[dict, dict]]:
    """(headers, command) per writer: seats replacing their orders, the moderator
    announcing; all legal at once, and none naming a version."""
    found = []
    for seat in seats[:SEATS_SENDING]:
        legal = client.get(f"/games/{game_id}", headers=seat).get_json()["legal"]
        found.append((seat, legal[0]))
    while len(found) < WRITERS:
        found.append((moderator, {"type": "announce", "text": f"news {len(found)}"}))
    return found


def races_lost(app) -> list[Conflict]:
    """The conflicts the store answers this app's appends with from now on (each one a
    race a command lost, then decided again or refused)."""
    store = app.extensions["referee"].store
    append = store.append
    lost: list[Conflict] = []

    def counted(*args, **kwargs):
        try:
            return append(*args, **kwargs)
        except Conflict as conflict:
            lost.append(conflict)
            raise

    store.append = counted
    return lost


def test_many_writers_on_one_game_without_a_version_are_never_refused(app, client, table):
    game_id, seats, moderator = table
    start = threading.Barrier(WRITERS)
    statuses: list[int] = []
    lost = races_lost(app)

    def write(headers: dict, command: dict) -> None:
        browser = app.test_client()
        start.wait(ANSWER_WITHIN)
        for _ in range(EACH):
            sent = browser.post(f"/games/{game_id}/commands", json=command, headers=headers)
            statuses.append(sent.status_code)

    threads = [
        threading.Thread(target=write, args=pair)
        for pair in senders(client, game_id, seats, moderator)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(ANSWER_WITHIN)
    assert Counter(statuses) == {201: WRITERS * EACH}
    assert lost == []  # one process's commands on a game queue: none even lost a race
    log = app.extensions["referee"].store.events(game_id)
    kinds = Counter(e["type"] for e in log)
    assert kinds["OrdersCommitted"] == SEATS_SENDING * EACH
    assert kinds["AnnouncementPosted"] == (WRITERS - SEATS_SENDING) * EACH
    assert len(app.extensions["referee"].queues) == 0  # no queue outlives its commands


@pytest.fixture
def other_process(app):
    """The app of another web process on the same database file."""
    return create_app({"REFEREE_DB": app.config["REFEREE_DB"], "TESTING": True})


def first_in(app, send_first) -> None:
    """Have `send_first()` run after this app's next command was decided and before it
    is appended, as another process's command would get in first."""
    store = app.extensions["referee"].store
    append = store.append
    pending = [send_first]

    def later(*args, **kwargs):
        while pending:
            pending.pop()()
        return append(*args, **kwargs)

    store.append = later


@pytest.fixture
def turns(client):
    """A galloping-horse game: (game id, the seat to move's headers, the moderator's)."""
    body = {"ruleset": "galloping-horse", "players": PLAYERS[:4], "seed": "turns"}
    created = client.post("/games", json=body).get_json()
    seat = client.get(f"/games/{created['game_id']}").get_json()["to_move"][0]
    token = created["seats"][seat]["token"]
    return created["game_id"], bearer(token), bearer(created["moderator_token"])


def test_a_command_that_became_illegal_meanwhile_gets_the_rules_answer(
    app, client, other_process, turns
):
    game_id, seat, _ = turns
    url = f"/games/{game_id}/commands"
    legal = client.get(f"/games/{game_id}", headers=seat).get_json()["legal"]
    other = other_process.test_client()
    first_in(app, lambda: other.post(url, json=legal[0], headers=seat))  # another tab
    lost = races_lost(app)
    version = app.extensions["referee"].store.version(game_id)
    answer = client.post(url, json=legal[1], headers=seat)
    assert len(lost) == 1  # it lost the race, was decided again, and the rules refused it
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["error"]["code"] == "rule/not_your_turn"
    log = app.extensions["referee"].store.events(game_id, after=version)
    played = [e["payload"]["horse"] for e in log if e["type"] == "RaceCardPlayed"]
    assert played == [legal[0]["horse"]]


def test_a_command_naming_its_version_is_still_refused_when_another_got_in(
    app, client, other_process, turns
):
    game_id, _, moderator = turns
    url = f"/games/{game_id}/commands"
    other = other_process.test_client()
    first_in(app, lambda: other.post(url, json=announce("a"), headers=moderator))
    version = app.extensions["referee"].store.version(game_id)
    body = {"type": "announce", "text": "b", "expected_version": version}
    answer = client.post(url, json=body, headers=moderator)
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "store/version_conflict"
    assert app.extensions["referee"].store.version(game_id) == version + 1


def test_a_retried_command_is_recorded_once_under_its_key(app, client, other_process, turns):
    game_id, _, moderator = turns
    url = f"/games/{game_id}/commands"
    other = other_process.test_client()
    first_in(app, lambda: other.post(url, json=announce("a"), headers=moderator))
    version = app.extensions["referee"].store.version(game_id)
    keyed = {**moderator, "Idempotency-Key": "once"}
    answer = client.post(url, json={"type": "announce", "text": "b"}, headers=keyed)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["version"] == version + 2  # decided again after the other
    again = client.post(url, json={"type": "announce", "text": "b"}, headers=keyed)
    assert (again.status_code, again.get_json()) == (201, answer.get_json())
    store = app.extensions["referee"].store
    assert store.version(game_id) == version + 2
    rows = store.query_one(
        "SELECT COUNT(*) FROM idempotency WHERE game_id = ? AND key = 'once'", (game_id,)
    )
    assert rows[0] == 1


def test_a_command_that_keeps_losing_is_refused_after_the_bounded_retries(
    app, client, other_process, turns
):
    from referee.service import RETRIES

    game_id, _, moderator = turns
    url = f"/games/{game_id}/commands"
    other = other_process.test_client()
    store = app.extensions["referee"].store
    append = store.append

    def always_later(*args, **kwargs):  # another process gets in before every attempt
        other.post(url, json={"type": "announce", "text": "first"}, headers=moderator)
        return append(*args, **kwargs)

    store.append = always_later
    version = store.version(game_id)
    answer = client.post(url, json={"type": "announce", "text": "last"}, headers=moderator)
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "store/version_conflict"
    texts = [e["payload"]["text"] for e in store.events(game_id, after=version)]
    assert texts == ["first"] * RETRIES
