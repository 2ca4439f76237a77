"""The action deck: drawing (Pioneer two, Scout three), events coming into play, keeping
cards and laying rails. Playing an action card is action_cards.py.

The deck's order is secret (DeckShuffled is seen by nobody); what a seat draws and keeps
it alone sees; events and played cards are public, discarded cards lie face up.
"""

from functools import reduce
from itertools import permutations
from typing import Any

from ...engine.errors import RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from . import table, versions
from .data import CARDS, card_kind, card_type
from .game_setup import reshuffled
from .state import apply

State = dict[str, Any]
Command = dict[str, Any]
REDRAWS = 5  # two events drawn: reshuffle and draw again, at most this often


def _folded(state: State, events: list[Event]) -> State:
    return reduce(apply, events, state)


# --- drawing ----------------------------------------------------------------------------


def draw(state: State, seat: int, count: int, action: str, rng: Rng, tries: int = 0) -> list[Event]:
    """CardsDrawn (the seat alone sees them) and every event among them put into play;
    two or more events: back into the deck with the discard pile, shuffled, drawn again."""
    events: list[Event] = []
    if len(state["deck"]) < count and state["discard"]:
        events.append(reshuffled(state, rng, []))
        state = _folded(state, events)
    drawn = state["deck"][:count]
    found = [c for c in drawn if card_kind(c) == "event"]
    seen = event("CardsDrawn", {"seat": seat, "cards": drawn, "action": action}, to=[seat])
    if len(found) >= 2 and tries < REDRAWS:
        back = event("CardsReturned", {"seat": seat, "cards": drawn}, to=[seat])
        after = _folded(state, [*events, seen, back])
        again = [seen, back, reshuffled(after, rng, [])]
        return events + again + draw(_folded(after, again[2:]), seat, count, action, rng, tries + 1)
    events.append(seen)
    state = _folded(state, [seen])
    for card in found:
        played = event_played(state, card, seat)
        events += played
        state = _folded(state, played)
    return events


def event_played(state: State, card: str, seat: int | None) -> list[Event]:
    """EventPlayed: the event comes into play (a permanent one replaces the one in play,
    except in Marshal Law); Winds of Change reverses the turn order and is discarded."""
    data = CARDS[card_type(card)]
    payload = {"card": card, "seat": seat, "permanent": data["permanent"], "marker": data["marker"]}
    if state["solitaire"] and _marshal_law(state):
        payload["accumulate"] = True
    events = [event("EventPlayed", payload)]
    if card_type(card) == "winds_of_change":
        order = list(reversed(state["order"]))
        events += [
            event("TurnOrderChanged", {"order": order, "why": "winds_of_change", "seat": seat}),
            event("EventDiscarded", {"card": card, "why": "used"}),
        ]
    return events


def _marshal_law(state: State) -> bool:
    from .data import SCENARIOS

    return bool(SCENARIOS[state["solitaire"]["scenario"]].get("events_apart"))


# --- keeping ----------------------------------------------------------------------------


def keep_options(state: State, task: dict[str, Any]) -> list[Command]:
    """Every keep_card: one card kept (Scout: the rest back on top in a chosen order), or
    an event's ability used instead of keeping a card."""
    drawn = task["drawn"]
    scout = task["action"] == "scout"
    out = []
    for card in drawn:
        rest = [c for c in drawn if c != card]
        tops = [list(t) for t in permutations(rest)] if scout else [[]]
        out += [{"type": "keep_card", "card": card, "top": top} for top in tops]
    for ev in _abilities(state, task):
        tops = [list(t) for t in permutations(drawn)] if scout else [[]]
        out += [{"type": "keep_card", "ability": ev, "top": top} for top in tops]
    if not out:
        out.append({"type": "keep_card", "top": []})
    return out


def _abilities(state: State, task: dict[str, Any]) -> list[str]:
    """The events drawn in this draw whose ability the seat may use instead."""
    usable = []
    for ev in task.get("events", []):
        ability = CARDS[card_type(ev)].get("ability")
        if ability == "take_gold" or (
            ability == "place_rail" and table.rail_sites(state, task["seat"])
        ):
            usable.append(ev)
    return usable


def keep(state: State, seat: int, cmd: Command) -> list[Event]:
    """CardKept (the seat alone sees it), DrawChosen (everyone: the seat has chosen) and,
    for Pioneer, the other card discarded face up; or an event's ability."""
    task = state["task"]
    wanted = {"type": "keep_card", "top": cmd.get("top", []), **_chosen_keep(cmd)}
    if wanted not in keep_options(state, task):
        raise RuleViolation(
            "rule/keep",
            "keep one drawn card (Scout: the others back on top, every one, in your order) or "
            "use a drawn event's ability instead",
            {"field": "card"},
        )
    card, ability = cmd.get("card"), cmd.get("ability")
    events = [event("CardKept", {"seat": seat, "card": card, "top": wanted["top"]}, to=[seat])]
    if versions.since(state, versions.PUBLIC_KEEP):  # whose choice it was is public
        events.append(event("DrawChosen", {"seat": seat, "action": task["action"]}))
    if task["action"] == "pioneer":
        thrown = [c for c in task["drawn"] if c != card]
        if thrown:
            events.append(event("CardsDiscarded", {"seat": seat, "cards": thrown}))
    if ability:
        events += _ability_used(state, seat, ability)
    return events


def _chosen_keep(cmd: Command) -> dict[str, Any]:
    return {k: cmd[k] for k in ("card", "ability") if cmd.get(k) is not None}


def _ability_used(state: State, seat: int, card: str) -> list[Event]:
    if CARDS[card_type(card)]["ability"] == "take_gold":
        return [event("EventAbilityUsed", {"seat": seat, "card": card, "change": {"gold": 1}})]
    used = event("EventAbilityUsed", {"seat": seat, "card": card})
    return [used, rails_due(seat, 1, "railroad_boom")]


# --- rails --------------------------------------------------------------------------------


def rails_due(seat: int, count: int, why: str, *, anywhere: bool = False) -> Event:
    """RailsDue: the seat lays `count` rails now (or forfeits them if it has nowhere)."""
    payload = {"seat": seat, "count": count, "why": why, "anywhere": anywhere}
    return event("RailsDue", payload)


def rail_commands(state: State, task: dict[str, Any]) -> list[Command]:
    """Every place_rail the seat may send for its rails task."""
    sites = table.rail_sites(state, task["seat"], anywhere=task.get("anywhere", False))
    return [{"type": "place_rail", "edge": e} for e in sites]


def place_rail(state: State, seat: int, cmd: Command) -> list[Event]:
    """RailPlaced on a free edge the seat's network (or any rail, for The Railroader's
    Tycoon rail) reaches."""
    task = state["task"]
    edge = cmd.get("edge")
    if {"type": "place_rail", "edge": edge} not in rail_commands(state, task):
        raise RuleViolation(
            "rule/rail_site",
            "a rail goes on a free edge with one end on your city or town or on rails "
            "reaching them",
            {"field": "edge"},
        )
    return [event("RailPlaced", {"seat": seat, "edge": edge, "why": task["why"]})]
