"""Loan and Stock tokens in the Collection Phase: paying off a loan (six resources, The
Banker five; any number, any time) and cashing a stock token (one gold or three
resources; one a turn, every one when the game is scored)."""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from .._checks import is_int
from . import table
from .data import COSTS, RESOURCES

State = dict[str, Any]
Command = dict[str, Any]


def payoff(state: State, seat: int) -> int:
    """Resources one loan costs to pay off."""
    return int(COSTS["loan_payoff"]) - (1 if table.has(state, seat, "cheap_payoff") else 0)


def may_pay_loan(state: State, seat: int) -> bool:
    """Whether the seat holds a loan and the resources to pay it off."""
    goods = state["goods"][seat]
    return goods["loan"] > 0 and table.resources_held(state, seat) >= payoff(state, seat)


def may_cash_stock(state: State, seat: int, *, final: bool = False) -> bool:
    """Whether the seat holds a stock token it may cash now."""
    return state["goods"][seat]["stock"] > 0 and (final or not state["used"][seat]["stock"])


def loan_payments(state: State, seat: int) -> list[Command]:
    """Every pay_loan the seat may send now."""
    if not may_pay_loan(state, seat):
        return []
    return [
        {"type": "pay_loan", "pay": pay} for pay in table.payments(state, seat, payoff(state, seat))
    ]


def pay_loan(state: State, seat: int, cmd: Command) -> list[Event]:
    """LoanPaid: a loan token back to the bank for its resources."""
    if state["goods"][seat]["loan"] < 1:
        raise RuleViolation("rule/no_loan", "you hold no loan token")
    pay = paid(state, seat, cmd.get("pay"), payoff(state, seat), "pay")
    change = table.combined({"loan": -1}, table.negative(pay))
    return [event("LoanPaid", {"seat": seat, "change": change})]


def stock_cashes(state: State, seat: int, *, final: bool = False) -> list[Command]:
    """Every cash_stock the seat may send now."""
    if not may_cash_stock(state, seat, final=final):
        return []
    takes = [{"gold": 1}, *table.choices(COSTS["stock_take"])]
    return [{"type": "cash_stock", "take": take} for take in takes]


def cash_stock(state: State, seat: int, cmd: Command, *, final: bool) -> list[Event]:
    """StockCashed: a stock token for one gold or three resources of choice."""
    if state["goods"][seat]["stock"] < 1:
        raise RuleViolation("rule/no_stock", "you hold no stock token")
    if state["used"][seat]["stock"] and not final:
        raise RuleViolation("rule/token_used", "one stock token a turn (every one at scoring)")
    take = cmd.get("take")
    if take != {"gold": 1} or take["gold"] is True:
        take = chosen(take, COSTS["stock_take"], "take")
    change = table.combined({"stock": -1}, take)
    return [event("StockCashed", {"seat": seat, "change": change})]


def chosen(value: Any, count: int, field: str) -> dict[str, int]:
    """Resources a seat takes from the bank: {food|wood|ore: n} adding up to `count`."""
    if not _counts(value) or sum(value.values()) != count:
        raise BadRequest(
            "command/invalid",
            f"{field} must map food, wood or ore to counts adding up to {count}",
            {"field": field},
        )
    return {r: value[r] for r in RESOURCES if r in value}


def paid(state: State, seat: int, value: Any, count: int, field: str) -> dict[str, int]:
    """Resources a seat pays: `count` of any kinds it holds."""
    pay = chosen(value, count, field)
    if not table.can_pay(state, seat, pay):
        raise RuleViolation("rule/cannot_pay", f"you do not hold {_spelled(pay)}", {"field": field})
    return pay


def _counts(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and all(k in RESOURCES for k in value)
        and all(is_int(n) and n > 0 for n in value.values())
    )


def _spelled(goods: dict[str, int]) -> str:
    return ", ".join(f"{n} {g}" for g, n in goods.items())
