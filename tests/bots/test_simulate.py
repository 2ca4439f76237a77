"""simulate.step gives the events and the rules state game.step gives, for whole random
games of every ruleset; and a table rebuilt from a seat's view plays on."""

from typing import Any

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, simulate
from referee.engine import game, registry
from referee.engine.rng import Rng

T0 = 1_800_000_000
TABLES = [
    ("galloping-horse", 4, {}),
    ("dark-horse", 2, {}),
    ("dark-horse", 6, {}),
    ("royal-turf", 3, {"hidden_bets": True}),
    ("royal-turf", 5, {"royal_turf_cards": True, "crowded_field": True}),
    ("dark-horse-west", 2, {}),
    ("blackout-middle", 3, {}),
    ("blackout-middle", 9, {}),
]
UNSALTED = ("salt", "commitment")


def unsalted(value: Any) -> Any:
    """A value with every salt and commitment in it blanked (simulate makes none)."""
    if isinstance(value, dict):
        return {k: None if k in UNSALTED else unsalted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unsalted(v) for v in value]
    return value


def recorded(records: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    return [
        (r["type"], r["visibility"], unsalted(r["payload"]))
        for r in records
        if r["type"] != "SeedRevealed"
    ]


def simulated(events: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    return [(e["type"], e.get("visibility", "public"), unsalted(e["payload"])) for e in events]


def test_every_ruleset_is_covered():
    assert {ruleset for ruleset, _, _ in TABLES} == set(registry.names())


@pytest.mark.parametrize("ruleset,seats,options", TABLES, ids=lambda v: str(v))
def test_simulate_agrees_with_game_step(ruleset, seats, options):
    seed = f"simulate/{ruleset}/{seats}"
    players = [f"p{s}" for s in range(seats)]
    recorded_state = game.fold(game.create(ruleset, players, options, seed, now=T0))
    simulated_state, bot = recorded_state, Rng(f"bot:{seed}")
    for turn in range(20_000):
        if game.is_closed(recorded_state):
            break
        actor, command = choose(recorded_state, bot, turn)
        records, recorded_state = game.step(recorded_state, actor, command, seed)
        events, simulated_state = simulate.step(simulated_state, actor, command, Rng(seed))
        assert simulated(events) == recorded(records), (turn, actor, command)
    assert game.is_over(recorded_state) and simulate.is_over(simulated_state)
    assert unsalted(simulated_state["rules"]) == unsalted(recorded_state["rules"])
    assert simulated_state["outcome"] == recorded_state["outcome"]
    assert simulated_state["seq"] == recorded_state["seq"] - 1  # no SeedRevealed


def test_a_round_rebuilt_from_a_view_keeps_the_seats_own_orders_and_plays_on():
    players = ["Ann", "Ben", "Cat", "Dan"]
    seed = "simulate/rebuilt-round"
    state = game.fold(game.create("blackout-middle", players, {}, seed, now=T0))
    number = state["rounds"]["current"]["round"]
    for seat in (1, 2):  # Ben and Cat send orders; Ann and Dan have not yet
        command = [c for c in game.legal(state, seat) if c["type"] == "submit_orders"][-1]
        state = game.step(state, seat, {**command, "now": T0 + 1}, seed)[1]
    view = game.view(state, 1)
    table = simulate.table(view, 1, state["rules"])
    mine = table["rounds"]["current"]["submitted"]
    assert mine[1]["orders"] == state["rounds"]["current"]["submitted"][1]["orders"]
    assert mine[2] is None  # Cat's orders are hers: Ben's table draws them again
    assert simulate.actors(table) == [0, 2, 3]
    for seat in (0, 2, 3):
        assert simulate.in_round(table)
        table = simulate.step(table, seat, simulate.commands(table, seat)[0], Rng("p"))[1]
    assert simulate.actors(table) == ["referee"]
    resolve = simulate.commands(table, "referee")[0]
    events, table = simulate.step(table, "referee", resolve, Rng("p"))
    assert "RoundResolved" in [e["type"] for e in events]
    assert table["rounds"]["current"]["round"] == number + 1
    assert simulate.commands(table, 0) and all(
        c["type"] == "submit_orders" for c in simulate.commands(table, 0)
    )
