"""Two machines serving one referee: two `referee serve` processes with working folders
of their own, on one PostgreSQL server and one Redis (each starts its web server, a
worker and a beat). A game created through one is played to the end through the other
while a live stream on the first follows it; overdue rounds are resolved once, whoever's
worker takes them, and one beat sweeps while the other stands by; one node killed with
SIGKILL under load loses no acknowledged command and the other keeps serving. Everything
is real: the processes, the server, Redis, the sockets; each step waits for what it
needs, the bounds are only there to fail."""

import signal
import threading
import time
from pathlib import Path

import pytest
from test_supervision import (
    BOUND,
    HOUR,
    NINE,
    Served,
    Stream,
    descendants,
    http,
    play,
    processes,
)
from waiting import wait_until

from referee.service import Referee
from referee.store import open_store
from replays.log import parse
from replays.verify import verify_events

pytestmark = pytest.mark.xdist_group("supervision")
PLAYERS = ["North", "East", "South", "West"]


def machine(where: Path, db: str, broker: str) -> Served:
    """A `referee serve` standing for one machine: its own folder, port and processes,
    the shared store and Redis; its streams hear only news (no wake of their own)."""
    where.mkdir(parents=True, exist_ok=True)
    env = {"REFEREE_VAR": str(where / "var"), "REFEREE_STREAM_WAKE": "3600"}
    return Served(where, env=env, db=db, options=("--redis-url", broker))


@pytest.fixture
def nodes(tmp_path, postgres_url, broker):
    started: list[Served] = []
    try:
        for name in ("a", "b"):
            started.append(machine(tmp_path / name, postgres_url, broker))
        yield started
    finally:
        for node in started:
            node.stop()


def create(node: Served, seed: str) -> dict:
    body = {"ruleset": "galloping-horse", "players": PLAYERS, "seed": seed}
    status, created = http(node.port, "POST", "/games", body)
    assert status == 201, created
    return created


def test_a_game_made_on_one_node_is_played_to_the_end_on_the_other_and_followed_live(
    nodes, postgres_url
):
    a, b = nodes
    created = create(a, "two-nodes")
    game_id, tokens = created["game_id"], [seat["token"] for seat in created["seats"]]
    version = http(a.port, "GET", f"/games/{game_id}")[1]["version"]
    stream = Stream(a.port, f"/games/{game_id}/stream")
    try:
        stream.until(lambda event: event["seq"] == version)  # caught up on node A
        acknowledged: list[int] = []
        play(b.port, game_id, tokens, acknowledged)  # through node B until the game ends
        shown = http(a.port, "GET", f"/games/{game_id}")[1]
        assert shown["status"] == "finished" and shown["version"] == max(acknowledged)
        # every command taken by node B reached the stream on node A, in order
        seen = [stream.until(lambda event: event["seq"] > version)["seq"]]
        while seen[-1] < shown["version"]:
            seen.append(stream.next_event()["seq"])
        assert seen == list(range(version + 1, shown["version"] + 1))
    finally:
        stream.close()
    log = open_store(postgres_url).log_lines(game_id)
    assert verify_events(parse(log), seed="two-nodes").valid


def overdue_games(db: str, count: int) -> list[str]:
    """Games in rounds whose round 0 ended an hour ago (made by a Referee whose clock is
    two hours back): a sweeper must find them."""
    referee = Referee(open_store(db), clock=lambda: int(time.time()) - 2 * HOUR)
    options = {"round_seconds": HOUR, "first_round_seconds": HOUR}
    return [
        referee.create_game("blackout-middle", NINE, options, f"overdue-{n}")["game_id"]
        for n in range(count)
    ]


def resolutions(db: str, game_id: str) -> int:
    events = open_store(db).events(game_id)
    return sum(e["type"] == "OrdersCounted" and e["payload"]["round"] == 0 for e in events)


def test_overdue_rounds_are_resolved_once_and_one_beat_sweeps(nodes, postgres_url):
    games = overdue_games(postgres_url, 6)
    for game_id in games:
        wait_until(
            lambda game_id=game_id: resolutions(postgres_url, game_id) >= 1,
            f"round 0 of {game_id} to resolve",
            bound=BOUND,
        )
    # each resolved once, though both nodes' workers take tasks and may be sent one twice
    assert [resolutions(postgres_url, game_id) for game_id in games] == [1] * len(games)
    sweeping = [node for node in nodes if "this one waits until it stops" not in node.log()]
    assert len(sweeping) == 1, [node.log()[-2000:] for node in nodes]


def test_the_standing_by_beat_takes_over_when_the_sweeping_node_dies(nodes, postgres_url):
    wait_until(
        lambda: sum("this one waits" in node.log() for node in nodes) == 1,
        "one node's beat to stand by",
        bound=BOUND,
    )
    sweeping, standby = sorted(nodes, key=lambda node: "this one waits" in node.log())
    sweeping.process.send_signal(signal.SIGKILL)
    sweeping.process.wait()
    wait_until(lambda: "this one sweeps" in standby.log(), "the standby to sweep", bound=BOUND)
    (game_id,) = overdue_games(postgres_url, 1)
    wait_until(lambda: resolutions(postgres_url, game_id) == 1, "round 0 to resolve", bound=BOUND)


def test_one_node_killed_under_load_loses_nothing_and_the_other_keeps_serving(nodes, postgres_url):
    a, b = nodes
    games = [create(a, f"kill-{n}") for n in range(2)]
    acknowledged: dict[str, list[int]] = {g["game_id"]: [] for g in games}
    players = []
    for made, node in zip(games, (a, b), strict=True):
        tokens = [seat["token"] for seat in made["seats"]]
        args = (node.port, made["game_id"], tokens, acknowledged[made["game_id"]])
        players.append(threading.Thread(target=play, args=args, daemon=True))
    for player in players:
        player.start()
    on_a = games[0]["game_id"]
    wait_until(lambda: len(acknowledged[on_a]) >= 10, "ten acknowledged commands", bound=BOUND)
    below = descendants(a.process.pid)
    a.process.send_signal(signal.SIGKILL)
    a.process.wait()
    wait_until(
        lambda: not set(below) & set(processes()), "the killed node's processes to end", bound=BOUND
    )
    for player in players:
        player.join(timeout=BOUND)
    on_b = games[1]["game_id"]
    shown = http(b.port, "GET", f"/games/{on_b}")[1]
    assert shown["status"] == "finished"  # node B served its game to the end
    # node A's game goes on through node B
    status, _ = http(b.port, "GET", f"/games/{on_a}")
    assert status == 200
    store = open_store(postgres_url)
    for n, made in enumerate(games):
        events = store.events(made["game_id"])
        assert set(acknowledged[made["game_id"]]) <= {e["seq"] for e in events}
        assert verify_events(parse(store.log_lines(made["game_id"])), seed=f"kill-{n}").valid
