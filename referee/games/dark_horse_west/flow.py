"""The referee's own steps between the players' commands: whose turn it is, the dice
rolled at the start of each game turn, automatic collections, the end of a game turn and
the end of the game.

`advance` is called after every command (and after setup): it appends events until a
seat has to choose. Every turn a seat is given is an event (SetupTurn, GunslingerTurn,
PlacementTurn, CollectionTurn, SettleTurn), so the log says who was asked what.
"""

from functools import reduce
from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from . import cards, collection, placement, scoring, solitaire, table, windows
from .data import BOARD, RESOURCES
from .state import COLLECTION, OVER, PLACEMENT, SETUP, apply

State = dict[str, Any]


def folded(state: State, events: list[Event]) -> State:
    """The state after events, as `apply` folds them."""
    return reduce(apply, events, state)


def advance(state: State, rng: Rng) -> list[Event]:
    """Every automatic event until a seat must choose (or the game is over)."""
    events: list[Event] = []
    while True:
        more = _next(state, rng)
        if not more:
            return events
        events += more
        state = folded(state, more)


def waiting(state: State) -> bool:
    """Whether a seat has something to decide now."""
    task, step = state["task"], state["step"]
    if task:
        return windows.task_open(state, task)
    if not step:
        return False
    if step["kind"] == "collect" and step.get("collected"):
        return windows.window_open(state, step["seat"])
    if step["kind"] == "settle":
        return windows.settle_open(state, step["seat"], final=step["final"])
    return True


def _next(state: State, rng: Rng) -> list[Event]:
    if state["phase"] == OVER or waiting(state):
        return []
    if state["task"]:
        return windows.close_task(state, state["task"])
    if state["phase"] == SETUP:
        return _setup_next(state, rng)
    if state["phase"] == PLACEMENT:
        return _placement_next(state, rng)
    if state["phase"] == COLLECTION:
        return _collection_next(state, rng)
    return []


# --- setup ----------------------------------------------------------------------------


def _setup_next(state: State, rng: Rng) -> list[Event]:
    order = state["order"]
    if state["character_mode"] == "choose":
        for seat in order:
            if state["characters"][seat] is None:
                return [event("SetupTurn", {"seat": seat, "piece": "character"})]
    for seat in reversed(order):
        if not table.cities_of(state, seat):
            return [event("SetupTurn", {"seat": seat, "piece": "city"})]
    for seat in order:
        # a moderator's map may leave a first city fewer than two town sites
        if len(table.towns_of(state, seat)) < 2 and table.town_sites(state, seat):
            return [event("SetupTurn", {"seat": seat, "piece": "town"})]
    for seat in order:
        count = state["start_rails"][seat]
        if count:
            return [cards.rails_due(seat, count, "start")]
    return start_round(state, rng, 1)


# --- a game turn starts ---------------------------------------------------------------


def start_round(state: State, rng: Rng, number: int) -> list[Event]:
    """RoundStarted, every seat's dice (jailed dice stay out, the bonus die joins, the
    Sheriff rolls the Deputy die), Wild Die tokens for doubles, Ghost dice in Solitaire,
    Marshal Law's events on doubles."""
    started = {"round": number, "jailed": state["jail"]}
    if state["solitaire"]:
        started["turns_left"] = state["solitaire"]["turns"] - number + 1
    events = [event("RoundStarted", started)]
    for seat in state["order"]:
        events += _rolled(state, seat, number, rng)
    if state["solitaire"]:
        events += solitaire.ghosts_rolled(state, number, rng)
        events += solitaire.marshal_law_draws(state, events)
    return events


def _rolled(state: State, seat: int, number: int, rng: Rng) -> list[Event]:
    count = max(0, 2 + int(state["bonus"][seat]) - state["jail"][seat])
    stream = rng.stream(f"round-{number}/dice/{seat}")
    kinds = ["normal", "normal", "bonus"][:count]
    if state["roles"]["sheriff"] == seat and kinds:
        kinds[0] = "deputy"
    rolled = [{"id": i, "kind": k, "value": stream.below(6) + 1} for i, k in enumerate(kinds)]
    payload: dict[str, Any] = {"seat": seat, "dice": rolled}
    if state["pawns"]:
        payload["gunslinger"] = stream.below(6) + 1
    events = [event("DiceRolled", payload)]
    faces = {d["value"] for d in rolled}
    if len(rolled) >= 2 and len(faces) == 1:
        if table.room_for(state, seat, "wild"):
            events.append(
                event("TokenGained", {"seat": seat, "change": {"wild": 1}, "why": "doubles"})
            )
    return events


# --- Placement Phase --------------------------------------------------------------------


def _placement_next(state: State, rng: Rng) -> list[Event]:
    for seat in state["order"]:
        if state["pawns"] and state["gun_dice"][seat] is not None:
            if len(placement.gun_targets(state, seat)) == 2:
                return [event("GunslingerTurn", {"seat": seat})]
            return [placement.gun_moved(state, seat, None)]
    if state["solitaire"] and solitaire.ghosts_due(state):
        return solitaire.ghosts_placed(state, rng)
    seat = _next_placer(state)
    if seat is not None:
        return [event("PlacementTurn", {"seat": seat})]
    return _collection_starts(state, rng)


def _next_placer(state: State) -> int | None:
    order = state["order"]
    placed = [p["seat"] for p in state["placements"] if p["seat"] is not None]
    start = (order.index(placed[-1]) + 1) if placed else 0
    for i in range(len(order)):
        seat = order[(start + i) % len(order)]
        if placement.can_place(state, seat):
            return seat
    return None


def _collection_starts(state: State, rng: Rng) -> list[Event]:
    events = [event("PlacementEnded", {"round": state["round"]})]
    events.append(event("CollectionStarted", {"round": state["round"]}))
    if state["solitaire"]:
        events += solitaire.ghost_pioneer(folded(state, events), rng)
    return events


# --- Collection Phase -------------------------------------------------------------------


def _collection_next(state: State, rng: Rng) -> list[Event]:
    trigger = _end_trigger(state)
    if trigger:
        return [trigger]
    item = next_collection(state)
    if item is not None:
        return _collection_turn(state, item, rng)
    final = _ending(state)
    for seat in state["order"]:
        if seat not in state["settled"] and windows.settle_open(state, seat, final=final):
            return [event("SettleTurn", {"seat": seat, "final": final})]
    return _round_ends(state, rng)


def next_collection(state: State) -> int | None:
    """The placement collected next: board order, then the turn order (Turn Order by
    its slots)."""
    waiting_items = [
        i
        for i, p in enumerate(state["placements"])
        if not p["collected"] and p["seat"] is not None and p["action"] in BOARD
    ]
    if not waiting_items:
        return None
    return min(waiting_items, key=lambda i: _collection_key(state, state["placements"][i]))


def _collection_key(state: State, p: dict[str, Any]) -> tuple[int, int, int]:
    row = RESOURCES.index(p["row"]) if p.get("row") else 0
    then = p["rank"] if p["action"] == "turn_order" else table.position(state, p["seat"])
    return BOARD.index(p["action"]), then, row


def _collection_turn(state: State, index: int, rng: Rng) -> list[Event]:
    p = state["placements"][index]
    turn = event("CollectionTurn", {"seat": p["seat"], "action": p["action"], "placement": index})
    if windows.collected_unasked(state, p["seat"], p["action"]):
        after = folded(state, [turn])
        return [turn, *collection.collect(after, p["seat"], {"type": "collect"}, rng)]
    return [turn]


def _end_trigger(state: State) -> Event | None:
    if state["end"] or state["solitaire"]:
        return None
    for seat in state["order"]:
        if state["goods"][seat]["influence"] >= state["end_influence"]:
            return event("GameEndTriggered", {"seat": seat, "reason": "influence"})
        if table.all_pieces_placed(state, seat):
            return event("GameEndTriggered", {"seat": seat, "reason": "all_pieces"})
    return None


def _ending(state: State) -> bool:
    """Whether this Collection Phase is the game's last."""
    if state["solitaire"]:
        return solitaire.last_round(state)
    return state["end"] is not None


def _round_ends(state: State, rng: Rng) -> list[Event]:
    events = [event("EventDiscarded", {"card": c, "why": "temporary"}) for c in state["temporary"]]
    if state["solitaire"]:
        events += solitaire.roles_lost(state)
    events.append(event("RoundEnded", {"round": state["round"]}))
    after = folded(state, events)
    if _ending(state):
        return [*events, scoring.counted(after)]
    return events + start_round(after, rng, state["round"] + 1)
