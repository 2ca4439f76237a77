"""A store holding some of everything a store keeps (finished games of several rulesets
played by bots, games in play with a round open and a turn clock running, a dispute
ruled amended and its fork, subscriptions and deliveries, idempotency keys, a forum post
marked, snapshots, uploads), and a store's every row, table by table, to compare two."""

import hashlib
from typing import Any

from referee.bots import choose, play
from referee.cli import BOT_EPOCH, default_players
from referee.engine import registry
from referee.engine.events import MODERATOR
from referee.engine.rng import Rng
from referee.notify.reach import AllowList
from referee.service import Referee
from referee.store import EventStore
from referee.store.ops.tables import GAME_TABLES, UPLOADS

RULESETS = ("galloping-horse", "royal-turf", "blackout-middle", "dark-horse")
PLAYERS = ["Ada", "Bo", "Cy", "Di"]
HOOK = "http://127.0.0.1:9/hook"  # nothing is delivered: the deliveries stay pending


def fill(store: EventStore, *, tag: str = "whole") -> Referee:
    """Put some of everything into `store`; game ids end with `tag`."""
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    for ruleset in RULESETS:
        seats = [f"bot{s}" for s in range(default_players(registry.get(ruleset)))]
        play(referee, ruleset, seats, seed=f"{ruleset}/{tag}", game_id=f"{ruleset}-{tag}")
    referee.create_game("blackout-middle", PLAYERS, {}, "open", game_id=f"open-round-{tag}")
    clock = {"seconds": 86400, "on_timeout": "default"}
    referee.create_game(
        "galloping-horse", PLAYERS, {}, "clk", game_id=f"clocked-{tag}", clock=clock
    )
    fork = disputed(referee, f"disputed-{tag}")
    store.mark_posted(fork, 5, BOT_EPOCH)
    for number, game_id in enumerate(store.game_ids()[:3]):
        log = store.log_lines(game_id)
        digest = hashlib.sha256(log).hexdigest()
        store.keep_upload(
            digest,
            log,
            BOT_EPOCH + number,
            client="127.0.0.1",
            total_bytes=1 << 30,
            client_bytes=1 << 30,
        )
    fresh = Referee(store, clock=lambda: BOT_EPOCH)  # folds each log from the start
    for game_id in store.game_ids():
        fresh.state(game_id)  # and caches a snapshot of the long ones
    return referee


def disputed(referee: Referee, game_id: str) -> str:
    """A galloping-horse game with subscriptions, played a while under idempotency keys,
    then a dispute ruled amended; the fork's id."""
    created = referee.create_game("galloping-horse", PLAYERS, {}, game_id, game_id=game_id)
    referee.subscriptions.allow = AllowList.parse("127.0.0.0/8")
    for role in ("moderator", "seat-1"):
        referee.subscriptions.subscribe(game_id, role, {"kind": "webhook", "url": HOOK})
    rng = Rng(f"bot:{game_id}")
    for turn in range(12):
        actor, command = choose(referee.state(game_id), rng, turn)
        referee.command(game_id, actor, command, idempotency_key=f"turn-{turn}")
    plays = [e for e in referee.store.events(game_id) if e["type"] == "RaceCardPlayed"]
    amendment = {"kind": "drop", "seq": plays[4]["seq"]}
    _, opened = referee.command(
        game_id, MODERATOR, {"type": "open_dispute", "claim": "misread", "amendment": amendment}
    )
    ruling = {"type": "rule_dispute", "dispute": opened["events"][0]["seq"]}
    _, ruled = referee.command(game_id, MODERATOR, {**ruling, "ruling": "amended", "reason": "so"})
    assert created["game_id"] == game_id
    return ruled["dispute"]["fork_game_id"]


def contents(store: EventStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table a copy carries, sorted (PostgreSQL's `n` left out)."""
    tables = {table: columns for table, (columns, _) in GAME_TABLES.items()}
    tables["uploads"] = UPLOADS
    return {
        table: sorted(
            tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
            for row in store.query(f"SELECT {', '.join(columns)} FROM {table}")
        )
        for table, columns in tables.items()
    }
