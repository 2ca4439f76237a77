"""Shared fixtures: a store on a real SQLite file, the real Flask app, and a game over HTTP."""

from dataclasses import dataclass

import pytest

from referee.app import create_app
from referee.store import EventStore

PLAYERS = ["Ada", "Bo", "Cy", "Di"]
SEED = "conftest-seed"


@pytest.fixture
def store(tmp_path):
    """An EventStore on a fresh SQLite file."""
    return EventStore(tmp_path / "store.db")


@pytest.fixture
def app(tmp_path):
    """The real app on a fresh SQLite file."""
    return create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "TESTING": True})


@pytest.fixture
def client(app):
    """A test client of the real app."""
    return app.test_client()


@dataclass
class HttpGame:
    """A game created over HTTP: its id, seed, tokens and the creation response."""

    game_id: str
    seed: str
    moderator: str
    seats: list[str]
    created: dict

    def auth(self, seat: int | str) -> dict[str, str]:
        """The Authorization header of a seat (an int) or of `moderator`."""
        token = self.moderator if seat == "moderator" else self.seats[seat]
        return {"Authorization": f"Bearer {token}"}


def create_http_game(client, *, seed: str = SEED, **options) -> HttpGame:
    """POST /games for a galloping-horse game and wrap the answer."""
    body = {"ruleset": "galloping-horse", "players": PLAYERS, "options": options, "seed": seed}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return HttpGame(
        game_id=created["game_id"],
        seed=seed,
        moderator=created["moderator_token"],
        seats=[s["token"] for s in created["seats"]],
        created=created,
    )


@pytest.fixture
def new_game(client):
    """A factory: new_game(seed=..., **options) creates another game over HTTP."""
    return lambda **kwargs: create_http_game(client, **kwargs)


@pytest.fixture
def http_game(new_game) -> HttpGame:
    """A fresh galloping-horse game created through POST /games."""
    return new_game()
