"""Fast steps of a game on the pure engine, for the bots' searches and playouts.

A step here is game.step without what only a recorded game needs: no state hashes, no
salts and no commitments (a sealed order's salt and commitment are None), no clocks, no
standing choices, no SeedRevealed, and no engine checks of a command's fields (the bots
send commands the rules listed). Otherwise the events and the rules state are the ones
game.step gives for the same commands and the same Rng (tests/bots/test_simulate.py).
"""

from types import ModuleType
from typing import Any

from ..engine import game, rounds
from ..engine.events import MODERATOR, PUBLIC, REFEREE, Event, event
from ..engine.game import ACTIVE, Actor, State
from ..engine.rng import Rng
from ..engine.sealed import COMMITTED, REVEALED, SUBMITTED

Command = dict[str, Any]
# the events game.apply takes itself, and the game's creation
ENGINE_EVENTS = game.ENGINE_EVENTS | {"GameCreated"}
SUBMIT = "submit_orders"
RESOLVE = "resolve_round"
# the time a round is resolved at when nobody said (only a deadline counts from it)
NO_TIME = 0


def table(
    view: dict[str, Any], seat: int, rules_state: dict[str, Any], *, own_orders: bool = True
) -> State:
    """The engine state around a rules state, from a seat's API view (game.view): status,
    seq and players as the seat sees them; in a game in rounds, the open round with the
    seat's own orders in it (unless `own_orders` is false: the seat chooses again) and
    every other seat's orders still to come (the seat does not know them, so a search
    draws them)."""
    state: State = {
        "ruleset": view["ruleset"],
        "ruleset_version": view["ruleset_version"],
        "players": list(view["players"]),
        "options": view["options"],
        "seed_commitment": None,
        "status": view["status"],
        "seq": view["version"],
        "rules": rules_state,
        "outcome": view["outcome"],
        "seed": None,
    }
    if "round" in view:
        state["rounds"] = _rounds(view, seat if own_orders else None)
    return state


def _rounds(view: dict[str, Any], seat: int | None) -> State:
    opened = view["round"]["open"]
    bookkeeping = rounds.initial()
    if opened is None:
        return bookkeeping
    submitted: list[Any] = [None] * len(view["players"])
    mine = opened.get("my_orders")
    if mine is not None and seat is not None:
        submitted[seat] = {"seq": mine["seq"], "orders": mine["orders"], "salt": None}
    bookkeeping["current"] = {
        "round": opened["round"],
        "deadline": opened["deadline"],
        "closed": None,
        "submitted": submitted,
    }
    bookkeeping["last_deadline"] = opened["deadline"]
    return bookkeeping


def actors(state: State) -> list[Actor]:
    """Who acts now: nobody once play stops, the referee once the open round is closed,
    else game.to_move (every seat yet to send orders, in a round)."""
    if state["status"] != ACTIVE:
        return []
    current = state.get("rounds", {}).get("current")
    if current is not None and current["closed"]:
        return [REFEREE]
    return game.to_move(state)


def commands(state: State, actor: Actor) -> list[Command]:
    """What an actor may send now: the rules' legal commands; in an open round a seat's
    orders alone (trades are left out, so a seat acts once a round), and the referee's
    resolve_round once the round is closed."""
    current = state.get("rounds", {}).get("current")
    if actor == REFEREE:
        return [{"type": RESOLVE, "round": current["round"]}] if current else []
    listed = game.legal(state, actor)
    if current is not None and isinstance(actor, int):
        return [c for c in listed if c.get("type") == SUBMIT] or listed
    return listed


def step(state: State, actor: Actor, command: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events of one command and the state after them (`now` in the command is the
    time in a game in rounds; without it, a second before the open round's deadline)."""
    rules = game.rules_of(state)
    events = _decided(state, rules, actor, command, rng)
    state = applied(state, events)
    if actor == REFEREE and "rounds" in state:
        opened = rounds.opening(rules, state["rules"], _now(state, command))
        events, state = events + opened, applied(state, opened)
    closing = _closing(state, rules)
    return events + closing, applied(state, closing)


def decided(state: State, actor: Actor, command: Command, rng: Rng) -> list[Event]:
    """The first events of a command, not applied (a round's resolution without the next
    round's opening, and without the game's end)."""
    return _decided(state, game.rules_of(state), actor, command, rng)


def applied(state: State, events: list[Event]) -> State:
    """The state after events, numbered on from the state's seq: the rules' events
    straight to the rules, the engine's through game.apply."""
    if not events:
        return state
    state, rules = dict(state), game.rules_of(state)
    for ev in events:
        record = {
            "seq": state["seq"] + 1,
            "type": ev["type"],
            "visibility": ev.get("visibility", PUBLIC),
            "payload": ev.get("payload", {}),
        }
        if record["type"] in ENGINE_EVENTS:
            state = game.apply(state, record)
        else:
            state["rules"], state["seq"] = rules.apply(state["rules"], record), record["seq"]
    return state


def in_round(state: State) -> bool:
    """Whether a round is open and takes orders."""
    current = state.get("rounds", {}).get("current")
    return current is not None and not current["closed"]


def is_over(state: State) -> bool:
    """Whether play has stopped in a simulated game."""
    return state["status"] != ACTIVE


def _decided(
    state: State, rules: ModuleType, actor: Actor, command: Command, rng: Rng
) -> list[Event]:
    bare = {k: v for k, v in command.items() if k != "now"}
    if "rounds" not in state:
        return _unsalted(rules.decide(state["rules"], actor, bare, rng))
    if actor == REFEREE:
        return _resolved(state, rules, rng)
    if isinstance(actor, int) and bare["type"] == SUBMIT:
        return _submitted(state, actor, bare, rules)
    return rules.decide(state["rules"], MODERATOR if actor == MODERATOR else actor, bare, rng)


def _unsalted(events: list[Event]) -> list[Event]:
    """A ruleset's events with every `seal` made whole, without salt or commitment."""
    out: list[Event] = []
    for ev in events:
        if ev["type"] == SUBMITTED and "salt" not in ev["payload"]:
            p = ev["payload"]
            out += _sealed(p["seat"], p["round"], p["orders"], None)
        else:
            out.append(ev)
    return out


def _sealed(seat: int, number: int, orders: Any, replaces: int | None) -> list[Event]:
    who = {"round": number, "seat": seat}
    return [
        event(SUBMITTED, {**who, "orders": orders, "salt": None}, to=[seat]),
        event(COMMITTED, {**who, "commitment": None, "replaces": replaces}),
    ]


def _submitted(state: State, seat: int, command: Command, rules: ModuleType) -> list[Event]:
    """A seat's orders for the open round, sealed; RoundClosed once every seat has sent."""
    current = state["rounds"]["current"]
    orders = rules.check_orders(state["rules"], seat, command.get("orders"))
    previous = current["submitted"][seat]
    events = _sealed(seat, current["round"], orders, previous["seq"] if previous else None)
    if all(s is not None or i == seat for i, s in enumerate(current["submitted"])):
        events.append(event("RoundClosed", {"round": current["round"], "why": "all_submitted"}))
    return events


def _resolved(state: State, rules: ModuleType, rng: Rng) -> list[Event]:
    """rounds.resolve without its second fold of the rules state: the open round closed,
    counted, resolved and (in rulesets that reveal each round) revealed."""
    current = state["rounds"]["current"]
    number = current["round"]
    events = (
        [] if current["closed"] else [event("RoundClosed", {"round": number, "why": "deadline"})]
    )
    counted = [s["seq"] if s else None for s in current["submitted"]]
    events.append(event("OrdersCounted", {"round": number, "seats": counted}))
    submissions = [
        s["orders"] if s else rules.default_orders(state["rules"], seat)
        for seat, s in enumerate(current["submitted"])
    ]
    events += rules.resolve(state["rules"], submissions, rng)
    if rounds.reveals_each_round(rules):
        events += [_revealed(number, seat, s) for seat, s in enumerate(current["submitted"]) if s]
    return events


def _revealed(number: int, seat: int, submitted: dict[str, Any]) -> Event:
    payload = {"round": number, "seat": seat, "seq": submitted["seq"]}
    return event(REVEALED, {**payload, "orders": submitted["orders"], "salt": submitted["salt"]})


def _now(state: State, command: Command) -> int:
    """The time a round is resolved at: the command's, else just before the deadline."""
    if "now" in command:
        return int(command["now"])
    last = state["rounds"]["last_deadline"]
    return NO_TIME if last is None else last - 1


def _closing(state: State, rules: ModuleType) -> list[Event]:
    """Once the rules report an outcome: the sealed orders still to reveal, and GameEnded."""
    if state["status"] != ACTIVE:
        return []
    result = rules.outcome(state["rules"])
    if result is None:
        return []
    reveals: list[Event] = rounds.final_reveals(state)
    unrevealed = getattr(rules, "unrevealed", None)
    if unrevealed is not None:
        reveals += unrevealed(state["rules"])
    return [*reveals, {"type": "GameEnded", "visibility": PUBLIC, "payload": {"outcome": result}}]
