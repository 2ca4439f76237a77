"""When a seat is asked to act in the Collection Phase, and when it is not.

A seat is asked before and after each of its collections, and once more when the phase
ends, whenever it may do something there: play its one action card of the turn (a
public test: it holds a card and has not played one, so the log never tells others what
its hand holds), pay off a loan, cash a stock token or use a character ability. A
collection with nothing to choose is made by the referee when the seat has none of these.
"""

from typing import Any

from ...engine.events import Event, event
from . import cards, characters, tokens

State = dict[str, Any]


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
