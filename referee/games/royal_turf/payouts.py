"""Paying a race: main payouts for the first three, the pace bonus, the last-place
penalty, all times the race's multiplier (race 3 doubles).

A 1-chip is one bet, a 2-chip two; a 0-chip (Hidden Bets' bluff) is no bet and earns or
costs nothing in any variant. The payout table gives the amount per bet by place and the
number of bets on the horse (6 and more share the last column). Alternative Payouts
counts chips instead: the column is the number of chips on the horse and each chip earns
one amount, whatever its value. The pace bonus and the penalty are per bet in every
variant. Gains are paid before penalties; a penalty takes what the player has (never
below 0) unless negative balances are allowed.
"""

from typing import Any

from .data import BET_COLUMNS, HOUSE_PAYOUTS, PLACES

State = dict[str, Any]
Line = dict[str, Any]


def table(state: State) -> dict[str, list[int]]:
    """The payout table of this game: the moderator's own, else the house table."""
    return state["payouts"] if state["payouts"] is not None else HOUSE_PAYOUTS


def race_lines(state: State) -> list[Line]:
    """Every payment of the race just run, gains first, then penalties."""
    multiplier = state["race_multipliers"][state["race"] - 1]
    bets = [b for b in state["bets"] if b["chip"] > 0]
    lines = []
    for place, horse in zip(PLACES, state["placings"], strict=False):
        lines += _main(state, [b for b in bets if b["horse"] == horse], place, multiplier)
    for bet in (b for b in bets if b["horse"] == state["pace_chip"]):
        lines.append(_line(bet, "pace", state["pace_bonus"], bet["chip"], multiplier))
    for bet in (b for b in bets if b["horse"] == state["last_place"]):
        lines.append(_line(bet, "last", state["last_place_penalty"], bet["chip"], multiplier))
    return lines


def _main(state: State, on_horse: list[dict], place: str, multiplier: int) -> list[Line]:
    alternative = state["alternative_payouts"]
    counted = len(on_horse) if alternative else sum(b["chip"] for b in on_horse)
    if not counted:
        return []
    rate = table(state)[place][min(counted, BET_COLUMNS) - 1]
    return [
        _line(bet, place, rate, 1 if alternative else bet["chip"], multiplier) for bet in on_horse
    ]


def _line(bet: dict, why: str, rate: int, times: int, multiplier: int) -> Line:
    return {
        "seat": bet["seat"],
        "horse": bet["horse"],
        "for": why,
        "bets": bet["chip"],
        "rate": rate,
        "amount": rate * times * multiplier,
    }


def settle(state: State, lines: list[Line]) -> tuple[list[Line], list[int]]:
    """The lines with what each penalty actually took, and the money after them all."""
    money = list(state["money"])
    for line in lines:
        if line["for"] != "last":
            money[line["seat"]] += line["amount"]
    settled = []
    for line in lines:
        if line["for"] == "last":
            taken = _taken(state, money[line["seat"]], line["amount"])
            money[line["seat"]] -= taken
            line = {**line, "due": line["amount"], "amount": -taken}
        settled.append(line)
    return settled, money


def _taken(state: State, held: int, due: int) -> int:
    if state["allow_negative_balance"]:
        return due
    return max(0, min(held, due))
