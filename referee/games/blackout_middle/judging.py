"""Judging a seat's orders against the table at resolution: the ability (against the hand
held now), its immediate effects, the chip total, then each bet and the spectated space.
The same code warns a seat before resolution (inspect_orders) and drops at resolution."""

from typing import Any

from .abilities import Dropped, judged_ability, no_effects
from .data import FIRST_ROUND, HORSES, START_SPACE, TRACK_LENGTH
from .state import ROUNDS
from .trades import free_hand, on_offer

State = dict[str, Any]
Orders = dict[str, Any]


def judge(state: State, seat: int, orders: Orders) -> dict[str, Any]:
    """What of the orders applies now, what is dropped and why, and the immediate effects."""
    dropped: list[dict[str, str]] = []
    ability, effects = _ability(state, seat, orders["ability"], dropped)
    void = _chips_refusal(state, seat, orders["bets"], effects)
    if void is not None:
        nothing: Orders = {"ability": None, "spectate": None, "bets": {}}
        return {"applied": nothing, "dropped": [void.as_record()], "effects": no_effects()}
    bets = _bets(state, seat, orders["bets"], dropped)
    spectate = _spectate(state, orders["spectate"], dropped)
    applied = {"ability": ability, "spectate": spectate, "bets": bets}
    return {"applied": applied, "dropped": dropped, "effects": effects}


def inspect_orders(state: State, seat: int, orders: Orders) -> list[dict[str, str]]:
    """What would be dropped from these orders if the round were resolved now."""
    if state["phase"] != ROUNDS:
        message = "no round is taking orders now"
        return [{"part": "submission", "rule": "no_open_round", "message": message}]
    return judge(state, seat, orders)["dropped"]


def current_space(state: State, seat: int) -> dict[str, Any] | None:
    """The space the seat spectated last round and the horses it saw there, if any."""
    seen: dict[str, Any] | None = state["seen"][seat].get(str(state["round"] - 1))
    return seen


def _ability(
    state: State, seat: int, given: dict[str, Any] | None, dropped: list[dict[str, str]]
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """An incomplete or invalid ability uses nothing and loses no card; it may take only
    cards not on offer in a trade (version 2)."""
    if given is None:
        return None, no_effects()
    try:
        hand, offered = free_hand(state, seat), on_offer(state, seat)
        return given, judged_ability(state["round"], given, hand, on_offer=offered)
    except Dropped as refusal:
        dropped.append(refusal.as_record())
        return None, no_effects()


def _chips_refusal(
    state: State, seat: int, bets: dict[str, int], effects: dict[str, Any]
) -> Dropped | None:
    """Betting an invalid number of chips (all bets as sent) voids the whole submission;
    the limit and the pool count this round's ability (Rounds 2, 8 and 9)."""
    if state["round"] == FIRST_ROUND:
        return None  # round 0 takes no bets at all: they are dropped as a whole
    total = sum(bets.values())
    limit = state["limits"][seat] + effects["limit_raised"]
    pool = state["chips"][seat] + effects["chips_gained"]
    if total > limit:
        message = f"{total} chips bet, over this round's limit of {limit}: nothing applies"
        return Dropped("submission", "over_limit", message)
    if total > pool:
        message = f"{total} chips bet, but only {pool} chips are left: nothing applies"
        return Dropped("submission", "over_chips", message)
    return None


def _bets(
    state: State, seat: int, bets: dict[str, int], dropped: list[dict[str, str]]
) -> dict[str, int]:
    """Each bet stands alone: an invalid one is dropped (its chips not spent)."""
    if not bets:
        return {}
    if state["round"] == FIRST_ROUND:
        dropped.append(_drop("bets", "round_0", "round 0 takes abilities only: no bets"))
        return {}
    space, valid = current_space(state, seat), {}
    for horse, chips in bets.items():
        refusal = _bet_refusal(horse, space)
        if refusal:
            dropped.append(_drop(f"bets.{horse}", *refusal))
        else:
            valid[horse] = chips
    return valid


def _bet_refusal(horse: str, space: dict[str, Any] | None) -> tuple[str, str] | None:
    if horse not in HORSES:
        return "not_a_horse", f"bets.{horse}: {horse!r} is no horse (A-I)"
    if space is None:
        return "no_current_space", f"bets.{horse}: you spectated no space last round"
    if horse not in space["horses"]:
        return "not_on_current_space", f"bets.{horse}: {horse} was not on space {space['space']}"
    return None


def _spectate(state: State, space: int | None, dropped: list[dict[str, str]]) -> int | None:
    if space is None:
        return None
    if state["round"] == FIRST_ROUND:
        dropped.append(_drop("spectate", "round_0", "round 0 takes abilities only: no space"))
        return None
    if not START_SPACE <= space <= TRACK_LENGTH:
        message = f"spectate: space {space} is not on the track ({START_SPACE}-{TRACK_LENGTH})"
        dropped.append(_drop("spectate", "off_track", message))
        return None
    return space


def _drop(part: str, rule: str, message: str) -> dict[str, str]:
    return {"part": part, "rule": rule, "message": message}
