"""The commands of Blackout Middle, who must act, and what a command makes happen.

`submit_orders` is handled by the engine (sealed, committed, resolved by `resolve`); it is
documented here. The rest: trades and purchases while the rounds run, the sole winner's
`give_tol` and the moderator's `record_ec_vote` in the awards."""

from collections.abc import Callable
from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import MODERATOR, Event
from ...engine.rng import Rng
from . import awards, trades
from .state import AWARDS, OVER, ROUNDS

State = dict[str, Any]
Command = dict[str, Any]
Seat = int | str

COMMANDS: dict[str, Any] = {
    "submit_orders": {
        "description": "Seal your orders for the open round (handled by the engine). orders: "
        '{"ability": null or {"kind": "clue" or "utility", "use": [letters], "select": [letters], '
        '"gain": [letters], "guesses": [{"horse": letter, "ahead": n}]}, "spectate": null or a '
        'space 1-15, "bets": {letter: chips}}. Round 0 takes the ability only.',
        "fields": {"round": "integer", "orders": "object"},
    },
    "offer_trade": {
        "description": "Offer one of your horse cards (give) for one of another seat's (get); "
        "private to the two seats.",
        "fields": {"to": "integer", "give": "string", "get": "string"},
    },
    "accept_trade": {
        "description": "Accept an offer made to you: both hands are checked and the cards "
        "change hands at once.",
        "fields": {"offer": "integer"},
    },
    "decline_trade": {
        "description": "Decline an offer made to you.",
        "fields": {"offer": "integer"},
    },
    "withdraw_trade": {
        "description": "Withdraw an offer you made.",
        "fields": {"offer": "integer"},
    },
    "buy_card": {
        "description": "Buy a horse card with garnets: 2 garnets, each further purchase twice "
        "the previous one; private.",
        "fields": {"horse": "string"},
    },
    "give_tol": {
        "description": "As sole winner, give the second place's ToL to one of the tied seats.",
        "fields": {"seat": "integer"},
    },
}
MODERATOR_COMMANDS: dict[str, Any] = {
    "record_ec_vote": {
        "description": "Record the ToL winners' vote on the Elimination Candidate among the "
        'tied last places: {"<voter seat>": <tied seat>} for every voter.',
        "fields": {"votes": "object"},
    },
}
TRADING = ("offer_trade", "accept_trade", "decline_trade", "withdraw_trade", "buy_card")


def to_move(state: State) -> list[Seat]:
    """Nobody while rounds run (the engine tracks orders); in the awards, the sole winner
    who must give a ToL and the moderator who must record the vote."""
    if state["phase"] != AWARDS:
        return []
    chooser = awards.tol_chooser(state)
    movers: list[Seat] = [] if chooser is None else [chooser]
    return movers + ([MODERATOR] if awards.vote_pending(state) else [])


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    """Check a command in a fixed order of guards, then say what happens."""
    kind = command.get("type") if isinstance(command, dict) else None
    shapes = MODERATOR_COMMANDS if seat == MODERATOR else COMMANDS
    # game over: nothing more is accepted
    if state["phase"] == OVER:
        raise RuleViolation("game/over", "the match is over", {})
    # the command is one this actor has
    if not isinstance(kind, str) or kind not in shapes:
        known = list(shapes)
        raise BadRequest(
            "command/unknown", f"unknown command {kind!r}", {"field": "type", "known": known}
        )
    # sealed orders go through the engine, not here
    if kind == "submit_orders":
        raise BadRequest(
            "command/engine", "submit_orders is handled by the engine", {"field": "type"}
        )
    # the phase allows the command: trades while the rounds run, the rest in the awards
    wanted = ROUNDS if kind in TRADING else AWARDS
    if state["phase"] != wanted:
        when = "while the rounds run" if wanted == ROUNDS else "in the awards"
        message = f"{kind} is allowed only {when}"
        raise RuleViolation("rule/wrong_phase", message, {"phase": state["phase"]})
    # the seat may act now: in the awards, only those to move
    if kind not in TRADING and seat not in to_move(state):
        raise RuleViolation(
            "rule/not_your_turn", f"{kind}: nothing waits for you", {"to_move": to_move(state)}
        )
    if seat == MODERATOR:
        return awards.record_ec_vote(state, command, rng)
    assert isinstance(seat, int)
    return _SEAT_COMMANDS[kind](state, seat, command)


_SEAT_COMMANDS: dict[str, Callable[[State, int, Command], list[Event]]] = {
    "offer_trade": trades.offer_trade,
    "accept_trade": trades.accept_trade,
    "decline_trade": trades.decline_trade,
    "withdraw_trade": trades.withdraw_trade,
    "buy_card": trades.buy_card,
    "give_tol": awards.give_tol,
}
