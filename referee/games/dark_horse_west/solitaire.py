"""The Solitaire variant: Ghost dice that take and block actions (Chicken: one die;
Ornery: and a pair; Cruel: and a second pair, all placed before the player), the turn
countdown, Marshal Law's events, and the five scenarios' victories."""

from functools import reduce
from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from . import placement, table, versions
from .data import ACTIONS, SCENARIOS, SOLITAIRE, card_kind
from .state import apply

State = dict[str, Any]


def _folded(state: State, events: list[Event]) -> State:
    return reduce(apply, events, state)


def ghosts_rolled(state: State, number: int, rng: Rng) -> list[Event]:
    """GhostDiceRolled: the single Ghost die and the difficulty's pairs."""
    solo = state["solitaire"]
    stream = rng.stream(f"round-{number}/ghost-dice")
    groups = ["single"] + [
        f"pair-{i + 1}" for i in range(SOLITAIRE["ghost_pairs"][solo["difficulty"]])
    ]
    rolled, next_id = [], 0
    for group in groups:
        for _ in range(1 if group == "single" else 2):
            rolled.append({"id": next_id, "group": group, "value": stream.below(6) + 1})
            next_id += 1
    return [event("GhostDiceRolled", {"dice": rolled})]


def marshal_law_draws(state: State, events: list[Event]) -> list[Event]:
    """Marshal Law: the player's doubles draw an event from the pile into play."""
    from .cards import event_played

    if not SCENARIOS[state["solitaire"]["scenario"]].get("events_apart"):
        return []
    after = _folded(state, events)
    values = [d["value"] for d in after["dice"][0]]
    if len(values) == len(set(values)) or not after["event_pile"]:
        return []
    return event_played(after, after["event_pile"][0], None)


def ghosts_due(state: State) -> bool:
    """Whether the Ghost dice are placed now: Cruel before the player, the others right
    after the player's first placement."""
    if not state["ghosts"] or any(g["placed"] for g in state["ghosts"]):
        return False
    if state["solitaire"]["difficulty"] == "cruel":
        return True
    return bool(state["placements"]) or not placement.can_place(state, 0)


def ghosts_placed(state: State, rng: Rng) -> list[Event]:
    """GhostDiePlaced for each group: the single die on the action of its number; a pair
    of 7+ blocks the action of its total (10: Sheriff or Mayor at random), a lower pair
    uses its highest die as the single does. A ghost that meets another ghost, or the
    player's dice on a limited action, is discarded."""
    events: list[Event] = []
    groups: dict[str, list[dict[str, Any]]] = {}
    for g in state["ghosts"]:
        groups.setdefault(g["group"], []).append(g)
    for group, members in groups.items():
        after = _folded(state, events)
        events.append(_ghost(after, group, members, rng))
    return events


def _ghost(state: State, group: str, members: list[dict[str, Any]], rng: Rng) -> Event:
    values = [g["value"] for g in members]
    total = sum(values)
    used = [g["id"] for g in members]
    if group != "single" and total >= 7:
        action = SOLITAIRE["ghost_pair"][str(total)]
        if isinstance(action, list):  # 10: Sheriff or Mayor, by the seed
            action = action[rng.below(f"round-{state['round']}/{group}/ten", len(action))]
    else:
        top = max(values)
        used = [next(g["id"] for g in members if g["value"] == top)]
        action = SOLITAIRE["ghost_single"][top - 1]
    payload: dict[str, Any] = {"dice": used, "group": group, "total": total}
    holders = _holders(state, action)
    if holders:
        by = "player" if 0 in holders else "ghost"
        return event("GhostDiePlaced", {**payload, "action": None, "blocked": action, "by": by})
    return event("GhostDiePlaced", {**payload, "action": action})


def _holders(state: State, action: str) -> list[int | None]:
    """Who stops a Ghost die on an action: dice there (None for a ghost); on an unlimited
    action, open to any number of dice, only another ghost (1.0.0: the player's too)."""
    holders = [p["seat"] for p in state["placements"] if p["action"] == action]
    unlimited = ACTIONS[action]["kind"] == "unlimited"
    if unlimited and versions.since(state, versions.UNLIMITED_GHOSTS):
        return [seat for seat in holders if seat is None]
    return holders


def ghost_pioneer(state: State, rng: Rng) -> list[Event]:
    """A Ghost die on Pioneer: the top two cards are shown before anything is collected;
    an event comes into play (two: one at random), the rest are discarded."""
    from .cards import event_played
    from .game_setup import reshuffled

    if not any(p["seat"] is None and p["action"] == "pioneer" for p in state["placements"]):
        return []
    events: list[Event] = []
    if len(state["deck"]) < 2 and state["discard"]:
        events.append(reshuffled(state, rng, []))
        state = _folded(state, events)
    shown = state["deck"][:2]
    found = [c for c in shown if card_kind(c) == "event"]
    chosen = (
        found[rng.below(f"round-{state['round']}/ghost-pioneer", len(found))]
        if len(found) > 1
        else None
    )
    played = chosen or (found[0] if found else None)
    thrown = [c for c in shown if c != played]
    events.append(event("CardsRevealed", {"cards": shown, "discarded": thrown, "played": played}))
    if played:
        events += event_played(_folded(state, events), played, None)
    return events


def roles_lost(state: State) -> list[Event]:
    """A Ghost die that blocked Sheriff or Mayor takes that role from the player."""
    blocked = {p["action"] for p in state["placements"] if p["seat"] is None}
    return [
        event("RoleLost", {"seat": 0, "role": role, "why": "ghost"})
        for role in ("mayor", "sheriff")
        if role in blocked and state["roles"][role] == 0
    ]


def last_round(state: State) -> bool:
    """The countdown has run out, or the scenario is won."""
    return state["round"] >= state["solitaire"]["turns"] or victory(state)


def victory(state: State) -> bool:
    """Whether the player meets the scenario's victory condition now."""
    scenario = SCENARIOS[state["solitaire"]["scenario"]]
    kind, goods = scenario["victory"], state["goods"][0]
    cities = len(table.cities_of(state, 0))
    if kind == "all_pieces":
        return table.all_pieces_placed(state, 0)
    if kind == "dead_centre":
        return all(state["towns"].get(h) == 0 for h in table.board_of(state).dead_centre)
    if kind == "cities_and_gold":
        return cities >= scenario["cities"] and goods["gold"] >= scenario["gold"]
    return cities >= scenario["cities"] and goods["influence"] >= scenario["influence"]
