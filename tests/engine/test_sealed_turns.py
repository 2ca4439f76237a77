"""Sealed orders in a ruleset played in turns: the engine completes a ruleset's `seal`
into OrdersSubmitted + OrdersCommitted, and reveals what is still sealed when play stops.

The toy: seats take turns hiding a number 1-3 (sealed) and saying a word (public); after
`turns` turns the game ends, and every number still sealed is revealed by the engine.
"""

import sys
import types

import pytest
from chained import sealed as chained

from referee.engine import game, registry, sealed
from referee.engine.canonical import canonical
from referee.engine.events import MODERATOR, event
from referee.engine.outcome import ranked
from referee.engine.rng import Rng
from replays.verify import verify_events

SEED = "sealed-turns-seed"


def _toy() -> types.ModuleType:
    toy = types.ModuleType("sealed_turn_toy")
    toy.NAME, toy.VERSION, toy.MIN_PLAYERS, toy.MAX_PLAYERS = "sealed-turn-toy", 1, 2, 3
    toy.OPTIONS = {"turns": 2}
    toy.COMMANDS = {"hide": {"fields": {"number": "integer", "word": "string"}}}
    toy.initial = lambda players, options: {
        "seats": len(players),
        "turns": options["turns"],
        "played": 0,
        "sealed": {},
    }
    toy.setup = lambda state, rng: []
    toy.to_move = lambda state: [] if _over(state) else [state["played"] % state["seats"]]
    toy.legal = lambda state, seat: [{"type": "hide", "number": 1, "word": "hi"}]
    toy.decide = _decide
    toy.apply = _apply
    toy.view = lambda state, viewer: {"played": state["played"]}
    toy.outcome = lambda state: ranked([0] * state["seats"]) if _over(state) else None
    toy.unrevealed = lambda state: sealed.reveals(state["sealed"].values())
    return toy


def _over(state):
    return state["played"] >= state["turns"]


def _decide(state, seat, command, rng):
    number = state["played"] + 1
    return [
        sealed.seal(seat, number, {"number": command["number"]}),
        event("WordSaid", {"seat": seat, "word": command["word"]}),
    ]


def _apply(state, ev):
    state = dict(state)
    p = ev["payload"]
    if ev["type"] == "OrdersSubmitted":
        state["sealed"] = {**state["sealed"], str(ev["seq"]): {**p, "seq": ev["seq"]}}
    elif ev["type"] == "OrdersRevealed":
        state["sealed"] = {k: v for k, v in state["sealed"].items() if k != str(p["seq"])}
    elif ev["type"] == "WordSaid":
        state["played"] += 1
    return state


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    module = _toy()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(registry._RULESETS, module.NAME, module)
    return module


def play(*moves, turns=2):
    records = game.create("sealed-turn-toy", ["a", "b"], {"turns": turns}, SEED)
    state = game.fold(records)
    for seat, number in moves:
        command = {"type": "hide", "number": number, "word": f"w{number}"}
        batch = game.execute(state, seat, command, SEED)
        records, state = records + batch, game.fold(batch, state)
    return records, state


def test_a_seal_becomes_private_orders_then_a_public_commitment():
    records, _ = play((0, 3))
    submitted, committed, said = records[1:]
    assert [r["type"] for r in records[1:]] == ["OrdersSubmitted", "OrdersCommitted", "WordSaid"]
    salt = Rng(SEED).hex(f"orders/{submitted['seq']}")
    assert submitted["visibility"] == [0] and committed["visibility"] == "public"
    assert submitted["payload"] == {"round": 1, "seat": 0, "orders": {"number": 3}, "salt": salt}
    assert committed["payload"]["commitment"] == sealed.commitment(salt, {"number": 3})
    # the command rides on the first event of its batch, which only the seat may see
    assert submitted["command"] == {"type": "hide", "number": 3, "word": "w3"}
    assert said["command"] is None


def test_another_seat_sees_neither_the_orders_nor_the_command():
    records = chained(play((0, 3))[0])
    shown = [game.redact(r, 1, False) for r in records]
    # only its place in the chain: not its type, author, audience or time
    assert shown[1] == {k: records[1][k] for k in ("seq", "prev_hash", "hash")} | {"redacted": True}
    assert b'"number":3' not in b"".join(canonical(r) for r in shown)
    assert game.redact(records[1], 0, False)["payload"]["orders"] == {"number": 3}


def test_what_is_still_sealed_is_revealed_when_the_game_ends_and_the_log_verifies():
    records, state = play((0, 3), (1, 2))
    tail = [r["type"] for r in records[-4:]]
    assert tail == ["OrdersRevealed", "OrdersRevealed", "GameEnded", "SeedRevealed"]
    reveals = [r["payload"] for r in records[-4:-2]]
    assert [(r["seat"], r["orders"]) for r in reveals] == [(0, {"number": 3}), (1, {"number": 2})]
    assert state["rules"]["sealed"] == {}
    report = verify_events(chained(records))
    assert report.valid and report.checks["seals"] == "2 sealed orders checked"


def test_abandoning_the_game_reveals_what_is_sealed():
    records, state = play((0, 1), turns=4)
    batch = game.execute(state, MODERATOR, {"type": "abandon", "reason": "left"}, SEED)
    assert [r["type"] for r in batch] == ["GameAbandoned", "OrdersRevealed", "SeedRevealed"]
    assert batch[1]["payload"]["orders"] == {"number": 1}
    assert verify_events(chained(records + batch)).valid


def test_a_changed_reveal_is_named_at_its_seq():
    records, _ = play((0, 3), (1, 2))
    forged = [dict(r) for r in records]
    at = len(forged) - 4
    forged[at] = {**forged[at], "payload": {**forged[at]["payload"], "orders": {"number": 1}}}
    report = verify_events(chained(forged))
    assert not report.valid and report.seq == forged[at]["seq"] and report.code == "seal/reveal"


def test_events_without_seals_pass_through_unchanged():
    events = [event("WordSaid", {"seat": 0, "word": "hi"})]
    assert sealed.complete(events, 41, Rng(SEED)) == events
