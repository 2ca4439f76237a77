"""The rounds: which one takes sealed orders now, and resolving a round all at once:
judge every seat's orders, move the horses, deliver what each seat learns, announce what
is public, and after Round 10 reveal the scores.

Since version 2 the private events of a resolution depend on the round and the number of
seats alone: every seat gets its AbilityResolved, its ChipsWatched (Rounds 3-5) and its
SpaceSeen (Rounds 1-10), in seat order, each saying "nothing" where nothing applied, so
nobody learns from the count, order or audience of the events what a seat chose."""

from typing import Any

from ...engine.errors import RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from .awards import final_events
from .data import FIRST_ROUND, LAST_ROUND, UTILITY, ability
from .judging import judge
from .learning import ability_result, movement, nothing_learned
from .options import option
from .orders import check_orders, default_orders
from .race import advance, horses_on
from .state import ROUNDS, fold
from .versions import SAME_SHAPE, since

State = dict[str, Any]


def open_round(state: State) -> dict[str, int] | None:
    """The round taking sealed orders now and its duration; None once Round 10 is resolved."""
    if state["phase"] != ROUNDS:
        return None
    first = state["round"] == FIRST_ROUND
    seconds = state["options"]["first_round_seconds" if first else "round_seconds"]
    return {"round": state["round"], "seconds": seconds}


def resolve(state: State, submissions: list[Any], rng: Rng) -> list[Event]:
    """Every event of one round's resolution, in order (see the package docstring)."""
    if state["phase"] != ROUNDS:
        raise RuleViolation("rule/no_open_round", "no round is taking orders now", {})
    r = state["round"]
    orders = [_orders(state, seat, submissions) for seat in range(state["seats"])]
    events = [_orders_judged(state, seat, given) for seat, given in enumerate(orders)]
    after = fold(state, events)
    moved = _movement(after, r) if r > FIRST_ROUND else []
    after = fold(after, moved)
    delivered = [*_abilities(after, r), *_watched(after, r), *_spaces_seen(after, r)]
    closing = [*_announcement(after, r), event("RoundResolved", {"round": r})]
    events = [*events, *moved, *delivered, *closing]
    if r == LAST_ROUND:
        events += final_events(fold(after, [*delivered, *closing]))
    return events


def _orders(state: State, seat: int, submissions: list[Any]) -> dict[str, Any]:
    """The seat's orders as check_orders leaves them; a missing seat sent nothing."""
    given = submissions[seat] if seat < len(submissions) else None
    return default_orders(state, seat) if given is None else check_orders(state, seat, given)


def _orders_judged(state: State, seat: int, orders: dict[str, Any]) -> Event:
    """What of the seat's orders applies and what was dropped, for that seat alone."""
    judged = judge(state, seat, orders)
    return event("OrdersJudged", {"round": state["round"], "seat": seat, **judged}, to=[seat])


def _movement(state: State, r: int) -> list[Event]:
    """All horses move; the moderator sees where; finishers are announced with their
    placement and every movement value they had left."""
    positions, finishing = advance(state["positions"], state["movements"][str(r)])
    moved = event(
        "HorsesMoved", {"round": r, "positions": positions, "finishing": finishing}, to=[]
    )
    placed = len(state["finished"])
    return [moved] + [
        event(
            "HorseFinished",
            {
                "round": r,
                "horse": horse,
                "placement": placed + index,
                "movements": {
                    str(f): movement(state, f, horse) for f in range(r + 1, LAST_ROUND + 1)
                },
            },
        )
        for index, horse in enumerate(finishing, start=1)
    ]


def _abilities(state: State, r: int) -> list[Event]:
    """What each applied ability delivers; since version 2 every seat's result, "nothing"
    (kind None) for a seat whose ability did not apply."""
    events = []
    for seat in range(state["seats"]):
        given = state["judged"][seat][str(r)]["applied"]["ability"]
        if given is not None:
            result = ability_result(state, seat, r, given)
        elif since(state, SAME_SHAPE):
            result = nothing_learned(seat, r)
        else:
            continue
        events.append(event("AbilityResolved", result, to=[seat]))
    return events


def _watched(state: State, r: int) -> list[Event]:
    """Round 3's utility: the chips bet on each watched horse this round, by everyone;
    since version 2 every seat gets one, "nothing" (kind None) when it watches none."""
    if r not in ability(3, UTILITY)["rounds"]:
        return []
    on_horse = [bets.get(str(r), {}) for bets in state["bets"]]
    every = since(state, SAME_SHAPE)
    return [
        event(
            "ChipsWatched",
            {
                "round": r,
                "seat": seat,
                "kind": "watch" if watch else None,
                "chips": {h: sum(b.get(h, 0) for b in on_horse) for h in watch},
            },
            to=[seat],
        )
        for seat, watch in enumerate(state["watches"])
        if watch or every
    ]


def _spaces_seen(state: State, r: int) -> list[Event]:
    """Each spectator learns the horses on its space now and scores 1 point per horse
    (Round 10's space by option); since version 2 every seat gets one, space None when it
    spectated none. Round 0 takes no spaces."""
    if r == FIRST_ROUND:
        return []
    events = []
    for seat in range(state["seats"]):
        space = state["judged"][seat][str(r)]["applied"]["spectate"]
        if space is None and not since(state, SAME_SHAPE):
            continue
        horses = [] if space is None else horses_on(state["positions"], space)
        payload = {
            "round": r,
            "seat": seat,
            "space": space,
            "horses": horses,
            "points": len(horses) if _space_scores(state, r) else 0,
        }
        events.append(event("SpaceSeen", payload, to=[seat]))
    return events


def _space_scores(state: State, r: int) -> bool:
    """Whether the space spectated this round scores: Round 10's never becomes a current
    space, so it scores only by option (round10_space_scores)."""
    return r != LAST_ROUND or bool(option(state["options"], "round10_space_scores"))


def _announcement(state: State, r: int) -> list[Event]:
    if r == FIRST_ROUND:
        return []
    spaces = [state["judged"][s][str(r)]["applied"]["spectate"] for s in range(state["seats"])]
    return [event("SpectatingAnnounced", {"round": r, "spaces": spaces})]
