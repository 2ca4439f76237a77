"""What the API served while a game was played, `replay show` and `replay step` show
from its log afterwards: every view and event stream of every seat, the spectator and
the moderator, at every version, through the real app on a real SQLite file."""

import json
import random
from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from referee.app import create_app
from referee.cli import main
from referee.service import Referee

T0 = 1_800_000_000
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
VIEWERS = [0, 1, 2, 3, None, "moderator"]  # None: a spectator, without a token
DEADLINE_ODDS = 8  # in a game in rounds, 1 turn in 8 the deadline passes first


class Clock:
    """The service's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


@dataclass
class Moment:
    """What each viewer got from GET /games/{id} and GET /games/{id}/events at a version."""

    version: int
    over: bool
    views: dict = field(default_factory=dict)
    streams: dict = field(default_factory=dict)


@dataclass
class Table:
    """A game played over HTTP, and the service behind the app."""

    client: FlaskClient
    referee: Referee
    clock: Clock
    game_id: str
    tokens: dict

    def headers(self, viewer) -> dict:
        return {} if viewer is None else {"Authorization": f"Bearer {self.tokens[viewer]}"}

    def get(self, path: str, viewer=None):
        response = self.client.get(f"/games/{self.game_id}{path}", headers=self.headers(viewer))
        assert response.status_code == 200, response.get_data(as_text=True)
        return response

    def moment(self) -> Moment:
        views = {v: self.get("", v).get_json() for v in VIEWERS}
        streams = {v: self.get("/events", v).get_json() for v in VIEWERS}
        version = views["moderator"]["version"]
        return Moment(version, views["moderator"]["status"] != "active", views, streams)


@pytest.fixture
def new_table(tmp_path):
    def create(ruleset: str, options: dict) -> Table:
        app = create_app({"REFEREE_DB": str(tmp_path / "r.db"), "TESTING": True})
        referee, clock = app.extensions["referee"], Clock()
        referee.clock = clock
        client = app.test_client()
        body = {"ruleset": ruleset, "players": PLAYERS, "options": options}
        created = client.post("/games", json=body).get_json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        tokens["moderator"] = created["moderator_token"]
        return Table(client, referee, clock, created["game_id"], tokens)

    return create


def play_one(table: Table, moment: Moment, rng: random.Random) -> None:
    """One accepted command: a round resolved when closed or past its deadline, else a
    random legal command of a random viewer to move, sent over HTTP."""
    opened = (moment.views["moderator"].get("round") or {}).get("open")
    to_move = moment.views["moderator"]["to_move"]
    if opened and (opened["closed"] or not to_move or rng.randrange(DEADLINE_ODDS) == 0):
        table.clock.now = max(table.clock.now, opened["deadline"])
        assert table.referee.resolve_round(table.game_id, opened["round"]) == "resolved"
        return
    if opened:
        table.clock.now = opened["deadline"] - 1
    actor = rng.choice(to_move)
    command = rng.choice(moment.views[actor]["legal"])
    path = f"/games/{table.game_id}/commands"
    sent = table.client.post(path, json=command, headers=table.headers(actor))
    assert sent.status_code == 201, sent.get_json()


def play_to_the_end(table: Table, seed: str) -> list[Moment]:
    """Every moment of a whole game: at creation and after each accepted command."""
    rng = random.Random(seed)
    moments = [table.moment()]
    while not moments[-1].over:
        assert len(moments) < 400, "the game did not end"
        play_one(table, moments[-1], rng)
        moments.append(table.moment())
    return moments


def cli(*args: str) -> str:
    done = CliRunner().invoke(main, ["replay", *args])
    assert done.exit_code == 0, done.output
    return done.output


def as_flags(viewer) -> list[str]:
    return {None: ["--spectator"], "moderator": []}.get(viewer, ["--seat", str(viewer)])


STUB_KEYS = {"seq", "prev_hash", "hash", "redacted"}


def streamed(event: dict) -> tuple:
    """An event as a stream carried it: seq, type, actor, payload; a hidden one, its seq."""
    if event.get("redacted"):
        return event["seq"], "[hidden]"
    return event["seq"], event["type"], str(event["actor"]), event["payload"]


def stepped(output: str) -> list[tuple]:
    """The events `replay step` printed, in the same form."""
    shown: list[tuple] = []
    for line in output.splitlines():
        if line.split()[1:] == ["[hidden]"]:
            shown.append((int(line.split()[0]), "[hidden]"))
            continue
        seq, kind, actor, rest = line.split(maxsplit=3)
        shown.append((int(seq), kind, actor, json.loads(rest)))
    return shown


def first_streamed(moments: list[Moment], viewer) -> dict[int, tuple]:
    """Each event as the stream first gave it to the viewer: just after its batch."""
    first: dict[int, tuple] = {}
    for moment in moments:
        for event in moment.streams[viewer]["events"]:
            first.setdefault(event["seq"], streamed(event))
    return first


def check_stubs(moments: list[Moment]) -> None:
    """Every hidden event any viewer got is only its place in the moderator's chain."""
    for moment in moments:
        whole = {e["seq"]: e for e in moment.streams["moderator"]["events"]}
        for viewer in VIEWERS:
            for event in moment.streams[viewer]["events"]:
                if event.get("redacted"):
                    record = whole[event["seq"]]
                    assert set(event) == STUB_KEYS and event["redacted"] is True
                    assert all(event[k] == record[k] for k in ("seq", "prev_hash", "hash"))


def check_replay_matches(log, moments: list[Moment]) -> None:
    for viewer in VIEWERS:
        first = first_streamed(moments, viewer)
        for moment in moments:
            at = str(moment.version)
            shown = json.loads(cli("show", str(log), "--at", at, *as_flags(viewer)))
            assert shown == moment.views[viewer], (moment.version, viewer)
            walked = stepped(cli("step", str(log), "--to", at, *as_flags(viewer)))
            if not moment.over:
                stream = [streamed(e) for e in moment.streams[viewer]["events"]]
                assert walked == stream, (moment.version, viewer)
            # once over, the stream shows everything; step still shows each event as
            # it was first streamed
            assert walked == [first[seq] for seq in range(1, moment.version + 1)]


def fetched_log(table: Table, tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_bytes(table.get("/log").get_data())
    return log


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("galloping-horse", {}),
        ("blackout-middle", {"round_seconds": 60, "first_round_seconds": 60}),
    ],
)
def test_replay_shows_every_view_and_stream_the_api_served(new_table, tmp_path, ruleset, options):
    table = new_table(ruleset, options)
    moments = play_to_the_end(table, f"replay-views/{ruleset}")
    log = fetched_log(table, tmp_path)
    check_replay_matches(log, moments)
    check_stubs(moments)
    hidden = {seq for seq, *rest in first_streamed(moments, 0).values() if rest == ["[hidden]"]}
    assert hidden, "seat 0 never had an event hidden: nothing was tested"
    assert all("redacted" not in e for e in moments[-1].streams[0]["events"])
