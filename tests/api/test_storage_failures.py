"""A store that cannot take a write, through the real app on a real SQLite file: a full
disk (SQLite's max_page_count held at the file's size by every write), a read-only
database (query_only), a database file gone. Every write is refused with a named error
and nothing half-written, readiness names the disk, and writes succeed again at once when
the cause is gone."""

import os
import threading
from dataclasses import dataclass

import pytest

from referee.app import create_app
from replays.verify import verify_events

LARGEST = 1 << 30  # pages: far more than any test writes
SEED = "storage-seed"
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


@dataclass
class HttpGame:
    game_id: str
    tokens: dict[str, str]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[str(seat)]}"}


def create_http_game(client) -> HttpGame:
    answer = client.post("/games", json=new_game_body())
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    return HttpGame(made["game_id"], {str(s["seat"]): s["token"] for s in made["seats"]})


@pytest.fixture
def app(tmp_path):
    return create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "TESTING": True})


def hold(store, pragma: str) -> None:
    """Set a pragma on the connection of every write transaction from now on."""
    store.beginning = lambda conn: conn.execute(pragma)


def cap(store, pages: int) -> None:
    """The database may grow to `pages` pages (SQLite keeps at least its present size)."""
    hold(store, f"PRAGMA max_page_count = {pages}")


def one_move(client, game: HttpGame):
    """Send the first legal command of the seat to move."""
    seat = client.get(f"/games/{game.game_id}").get_json()["to_move"][0]
    own = client.get(f"/games/{game.game_id}", headers=game.auth(seat)).get_json()
    return client.post(
        f"/games/{game.game_id}/commands", json=own["legal"][0], headers=game.auth(seat)
    )


def until_refused(send, *, most: int = 500):
    """Send until the store refuses (the pages it has left fill up): that answer."""
    for _ in range(most):
        answer = send()
        if answer.status_code not in (200, 201):
            return answer
    pytest.fail(f"still taken after {most} writes")


def logs_valid(store, games: list[HttpGame]) -> None:
    for game in games:
        report = verify_events(store.events(game.game_id), seed=SEED)
        assert report.valid, (game.game_id, report)


def test_a_full_disk_is_507_store_full_nothing_appended_readiness_red_then_it_recovers(app):
    client = app.test_client()
    store = app.extensions["referee"].store
    games = [create_http_game(client), create_http_game(client)]
    assert client.get("/readyz").status_code == 200
    cap(store, 1)
    refused = until_refused(lambda: one_move(client, games[0]))
    assert refused.status_code == 507, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "store/full" and "full" in error["message"]
    version = client.get(f"/games/{games[0].game_id}").get_json()["version"]
    assert one_move(client, games[0]).status_code == 507
    assert client.get(f"/games/{games[0].game_id}").get_json()["version"] == version
    made = until_refused(lambda: client.post("/games", json=new_game_body()))
    assert made.status_code == 507 and made.get_json()["error"]["code"] == "store/full"
    held = store.game_ids()
    assert client.post("/games", json=new_game_body()).status_code == 507
    assert store.game_ids() == held

    red = client.get("/readyz")
    assert red.status_code == 503, red.get_json()
    disk = red.get_json()["checks"]["disk"]
    assert disk["ok"] is False and "store/full" in disk["error"]

    cap(store, LARGEST)
    assert one_move(client, games[0]).status_code == 201
    assert client.get(f"/games/{games[0].game_id}").get_json()["version"] > version
    games.append(create_http_game(client))
    assert client.get("/readyz").status_code == 200
    logs_valid(store, games)


def test_readiness_turns_green_when_space_is_freed_though_no_write_came(app):
    client = app.test_client()
    store = app.extensions["referee"].store
    game = create_http_game(client)
    cap(store, 1)
    assert until_refused(lambda: one_move(client, game)).status_code == 507
    assert client.get("/readyz").status_code == 503
    assert client.get("/readyz").status_code == 503  # its probe does not make room
    cap(store, LARGEST)
    green = client.get("/readyz")
    assert green.status_code == 200 and green.get_json()["checks"]["disk"]["ok"] is True


def test_writers_in_several_threads_on_a_full_disk_are_each_told_507(app):
    """Four clients sending commands at once (their appends committed together): each
    refusal is 507, never a 500, and every log stays whole."""
    store = app.extensions["referee"].store
    games = [create_http_game(app.test_client()) for _ in range(4)]
    cap(store, 1)
    answers: dict[str, list[int]] = {}

    def play(game: HttpGame) -> None:
        client = app.test_client()
        seen = answers.setdefault(game.game_id, [])
        for _ in range(200):
            seen.append(one_move(client, game).status_code)
            if seen[-1] != 201:
                return

    threads = [threading.Thread(target=play, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [seen[-1] for seen in answers.values()] == [507] * 4, answers
    assert all(set(seen[:-1]) <= {201} for seen in answers.values())
    cap(store, LARGEST)
    client = app.test_client()
    assert [one_move(client, game).status_code for game in games] == [201] * 4
    logs_valid(store, games)


def test_a_read_only_database_is_503_store_unavailable_with_retry_after(app):
    client = app.test_client()
    store = app.extensions["referee"].store
    game = create_http_game(client)
    hold(store, "PRAGMA query_only = ON")
    refused = one_move(client, game)
    assert refused.status_code == 503, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "store/unavailable" and "read-only" in error["message"]
    assert int(refused.headers["Retry-After"]) > 0
    assert client.post("/games", json=new_game_body()).status_code == 503
    assert store.game_ids() == [game.game_id]
    red = client.get("/readyz")
    assert red.status_code == 503
    assert "store/unavailable" in red.get_json()["checks"]["disk"]["error"]
    assert client.get(f"/games/{game.game_id}").status_code == 200  # reads still answer
    hold(store, "PRAGMA query_only = OFF")
    assert one_move(client, game).status_code == 201
    assert client.get("/readyz").status_code == 200


def test_a_database_file_gone_is_503_and_nothing_is_written_into_the_lost_file(app, tmp_path):
    client = app.test_client()
    store = app.extensions["referee"].store
    game = create_http_game(client)
    kept = tmp_path / "kept.db"
    os.rename(store.path, kept)
    refused = one_move(client, game)
    assert refused.status_code == 503, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "store/unavailable" and "gone" in error["message"]
    red = client.get("/readyz")
    assert red.status_code == 503 and red.get_json()["checks"]["disk"]["ok"] is False
    os.rename(kept, store.path)  # put back, the same file: writes go on
    assert one_move(client, game).status_code == 201
    assert client.get("/readyz").status_code == 200


def test_pages_show_a_full_disk_in_their_own_style(app):
    client = app.test_client()
    store = app.extensions["referee"].store
    cap(store, 1)
    page = client.get("/new/galloping-horse").get_data(as_text=True)
    token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    form = {"csrf_token": token, "player": PLAYERS}
    answer = until_refused(lambda: client.post("/new/galloping-horse", data=form))
    assert answer.status_code == 507
    assert answer.mimetype == "text/html"
    shown = answer.get_data(as_text=True)
    assert "<form" in shown and "disk" in shown  # the form again, saying why


def new_game_body() -> dict:
    return {"ruleset": "galloping-horse", "players": PLAYERS, "seed": SEED}
