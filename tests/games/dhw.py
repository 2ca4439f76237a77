"""Building Dark Horse West tables for the rules tests: a real game set up from a seed,
then changed by hand (goods, dice, pieces, whose turn) the way a test needs it, and one
command decided and folded through the ruleset's pure functions."""

import copy
from functools import reduce
from typing import Any

from referee.engine import game
from referee.engine.rng import Rng
from referee.games import _versions
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west.data import GOODS

State = dict[str, Any]
NO_GOODS = {g: 0 for g in GOODS}


def created(players: int = 4, seed: str = "rules", **options: Any) -> State:
    """The rules state right after setup's events (first turn of setup asked)."""
    options.setdefault("characters", "none")
    records = game.create("dark-horse-west", [f"p{s}" for s in range(players)], options, seed)
    return game.fold(records)["rules"]


def set_up(players: int = 4, seed: str = "rules", **options: Any) -> State:
    """A table whose setup is done (each seat's first legal city, towns and rails chosen),
    with the first Placement Phase's dice rolled and the first seat asked to place."""
    state = created(players, seed, **options)
    while state["phase"] == "setup":
        seat = rules.to_move(state)[0]
        state = play(state, seat, rules.legal(state, seat)[0], seed)[1]
    return state


def under(state: State, version: str) -> State:
    """A copy of the table as a game created under `version` plays it (the tables built
    here are the newest version's)."""
    out = {k: copy.deepcopy(v) for k, v in state.items() if k != "version"}
    return _versions.stamped(out, version, rules.VERSIONS[0])


def decide(state: State, seat: int, command: dict[str, Any], seed: str = "rules") -> list[dict]:
    """The events one command makes (the ruleset's own, then the referee's steps)."""
    return rules.decide(state, seat, command, Rng(seed))


def play(
    state: State, seat: int, command: dict[str, Any], seed: str = "rules"
) -> tuple[list[dict], State]:
    """The events of one command and the state after them."""
    events = decide(state, seat, command, seed)
    return events, fold(state, events)


def fold(state: State, events: list[dict]) -> State:
    """The state after events, applied one by one."""
    return reduce(rules.apply, events, state)


def types(events: list[dict]) -> list[str]:
    """The event types, in order."""
    return [e["type"] for e in events]


def first(events: list[dict], kind: str) -> dict[str, Any]:
    """The payload of the first event of a type."""
    return next(e["payload"] for e in events if e["type"] == kind)


def changed(state: State, **fields: Any) -> State:
    """A deep copy of the state with top-level fields replaced."""
    out = copy.deepcopy(state)
    out.update(copy.deepcopy(fields))
    return out


def with_goods(state: State, seat: int, **goods: int) -> State:
    """The seat holds exactly these goods (others zero)."""
    out = copy.deepcopy(state)
    out["goods"][seat] = {**NO_GOODS, **goods}
    return out


def with_dice(state: State, seat: int, values: list[int], kinds: list[str] | None = None) -> State:
    """The seat's dice this turn show these values, none placed; the seat is asked to
    place (the Placement Phase)."""
    out = copy.deepcopy(state)
    kinds = kinds or ["normal"] * len(values)
    out["dice"][seat] = [
        {"id": i, "kind": k, "value": v, "placed": None, "touched": False}
        for i, (v, k) in enumerate(zip(values, kinds, strict=True))
    ]
    out.update(phase="placement", task=None, step={"kind": "place", "seat": seat})
    return out


def collecting(state: State, placement: dict[str, Any]) -> State:
    """The Collection Phase with one placement (made by its seat) being collected."""
    out = copy.deepcopy(state)
    out["placements"] = [{"collected": False, **placement}]
    out.update(
        phase="collection",
        task=None,
        step={
            "kind": "collect",
            "seat": placement["seat"],
            "action": placement["action"],
            "placement": 0,
        },
    )
    return out
