"""When a seat is asked to act in the Collection Phase, and when it is not.

Each collection asks its seat to collect or decline, whatever the seat holds (from
1.1.0: declining is every seat's right, and the question must not tell others what the
seat holds). After collecting, and once more when the phase ends, a seat is asked again
whenever it may still do something: play its one action card of the turn (a public test:
it holds a card and has not played one, so the log never tells others what its hand
holds), pay off a loan, cash a stock token or use a character ability.

1.0.0 games: a collection with nothing to choose (FREE_ACTIONS) is made by the referee
when the seat has none of those things to do.
"""

from typing import Any

from ...engine.events import Event, event
from . import cards, characters, tokens, versions

State = dict[str, Any]
# the actions whose collection takes no choice: nothing to pay, take or place
FREE_ACTIONS = ("turn_order", "produce", "hired_hand", "engineer", "broker")


def collected_unasked(state: State, seat: int, action: str) -> bool:
    """Whether the referee collects a placement without asking its seat: never from 1.1.0
    (a seat's standing order to always collect, when there is one, is read here); in
    1.0.0 an action with nothing to choose, for a seat with nothing to do in its window."""
    if versions.since(state, versions.EVERY_COLLECTION_ASKED):
        return False
    return action in FREE_ACTIONS and not window_open(state, seat)


def card_window(state: State, seat: int) -> bool:
    """Whether the seat may still play an action card this game turn (public test)."""
    return bool(state["hands"][seat]) and not state["used"][seat]["card"]


def anytime_open(state: State, seat: int, *, final: bool = False) -> bool:
    """Whether the seat may pay a loan, cash stock or use an ability now."""
    return (
        tokens.may_pay_loan(state, seat)
        or tokens.may_cash_stock(state, seat, final=final)
        or bool(characters.ability_commands(state, seat))
    )


def window_open(state: State, seat: int) -> bool:
    """Whether a seat's collection window holds anything for it to choose."""
    return card_window(state, seat) or anytime_open(state, seat)


def settle_open(state: State, seat: int, *, final: bool) -> bool:
    """Whether a seat is asked at the end of the Collection Phase."""
    return anytime_open(state, seat, final=final)


def task_open(state: State, task: dict[str, Any]) -> bool:
    """Whether a task (rails to lay, cards to keep) leaves the seat a choice."""
    if task["kind"] == "rails":
        return bool(cards.rail_commands(state, task))
    return len(cards.keep_options(state, task)) > 1


def close_task(state: State, task: dict[str, Any]) -> list[Event]:
    """What the referee does with a task that leaves no choice: rails with nowhere to go
    are forfeited; the only way to keep cards is taken."""
    if task["kind"] == "rails":
        payload = {"seat": task["seat"], "count": task["count"], "why": task["why"]}
        return [event("RailsForfeited", payload)]
    only = cards.keep_options(state, task)
    return cards.keep(state, task["seat"], only[0] if only else {"type": "keep_card"})
