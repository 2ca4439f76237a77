"""Whose move it is, every move a seat may make, and what a command makes happen."""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from .._checks import is_int
from . import cards
from .data import HORSES, RANKS, TOKENS
from .line import CHOICE, DIRECTIONS, SIDES
from .state import PLACEMENT, RACING, action_cards, fold
from .versions import RANK_AMONG_OTHERS, since

State = dict[str, Any]
Command = dict[str, Any]
PLACE, PLAY, DISCARD = "place_horse", "play_card", "discard_betting_card"
HORSE_FIELD = {"type": "integer", "enum": HORSES}

COMMANDS: dict[str, Any] = {
    PLACE: {
        "description": "Lay a horse card: the first in the middle (no side), "
        "every later one at the left or right end of the line.",
        "fields": {"horse": HORSE_FIELD, "side": {"type": "string", "enum": list(SIDES)}},
    },
    PLAY: {
        "description": "Optionally take a Dark Horse token, then play an action card. "
        "direction only for cards that say 'forward or back'; exchange only for the "
        "Exchange Betting Card: {seat: your seat, discard: horse} or {seat: another seat}.",
        "fields": {
            "card": {"type": "integer"},
            "take_token": {"type": "boolean", "default": False},
            "direction": {"type": "string", "enum": list(DIRECTIONS)},
            "exchange": {
                "type": "object",
                "fields": {"seat": {"type": "integer"}, "discard": HORSE_FIELD},
            },
        },
    },
    DISCARD: {
        "description": "Forced by an Exchange Betting Card: discard one of your betting "
        "cards (shown to all) and draw the top card of the stack.",
        "fields": {"horse": HORSE_FIELD},
    },
}
# the fields each command may carry besides its type
FIELDS = {PLACE: {"horse", "side"}, DISCARD: {"horse"}}
PLAY_FIELDS = {"card", "take_token"}
CHOICE_FIELDS = {
    cards.MOVE: {"direction"},
    cards.RIDER_FALL_OFF: set(),
    cards.EXCHANGE: {"exchange"},
}


def to_move(state: State) -> list[int]:
    """The seat that must act: a forced discarder first, else the seat whose turn it is."""
    pending = state["pending_discard"]
    if pending is not None:
        return [pending["seat"]]
    return [] if state["turn"] is None else [state["turn"]]


def expected(state: State) -> str | None:
    """The one command the phase allows now."""
    if state["pending_discard"] is not None:
        return DISCARD
    return {PLACEMENT: PLACE, RACING: PLAY}.get(state["phase"])


def token_refusal(state: State, seat: int) -> tuple[str, str] | None:
    """Why the seat may not take a Dark Horse token now (code, message), or None."""
    if state["tokens"][seat]:
        return "rule/token_limit", "take_token: you already hold a Dark Horse token (1 at most)"
    if state["tokens_left"] == 0:
        return "rule/no_tokens_left", "take_token: no Dark Horse token is left"
    if len(state["hands"][seat]) <= 1:
        return "rule/last_action_card", "take_token: not allowed with only 1 action card in hand"
    return None


def legal(state: State, seat: int) -> list[Command]:
    """Every complete command the seat may give now, each once, all fields spelled out."""
    if seat not in to_move(state):
        return []
    kind = expected(state)
    if kind == PLACE:
        return _placements(state)
    if kind == DISCARD:
        return [{"type": DISCARD, "horse": h} for h in sorted(set(state["betting_cards"][seat]))]
    return _plays(state, seat)


def timeout_move(state: State, seat: int) -> Command:
    """The move the referee plays for a seat out of time (docs/clocks.md): the first of
    its legal commands in their fixed order, so never a Dark Horse token (a play without
    one comes first): the first free horse on the left when laying the line, the first
    horse of its betting cards when an Exchange forces a discard, else its first action
    card in hand with the first choice the card gives."""
    return legal(state, seat)[0]


def _placements(state: State) -> list[Command]:
    free = [h for h in HORSES if h not in state["line"]]
    if not state["line"]:
        return [{"type": PLACE, "horse": h} for h in free]
    return [{"type": PLACE, "horse": h, "side": side} for h in free for side in SIDES]


def _plays(state: State, seat: int) -> list[Command]:
    takes = [False] if token_refusal(state, seat) else [False, True]
    return [
        {"type": PLAY, "card": card, "take_token": take, **choice}
        for card in state["hands"][seat]
        for take in takes
        for choice in _choices(state, seat, action_cards(state)[card])
    ]


def _choices(state: State, seat: int, action: cards.Action) -> list[Command]:
    if action["kind"] == cards.MOVE and action["direction"] == CHOICE:
        return [{"direction": d} for d in DIRECTIONS]
    if action["kind"] == cards.EXCHANGE and state["betting_stack"]:
        own = sorted(set(state["betting_cards"][seat]))
        others = [s for s in range(state["seats"]) if s != seat]
        return [{"exchange": {"seat": seat, "discard": h}} for h in own] + [
            {"exchange": {"seat": s}} for s in others
        ]
    return [{}]


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """Check a command, then say what happens: a horse card laid, a card played, a discard."""
    # seat may act now
    if seat not in to_move(state):
        raise RuleViolation("rule/not_your_turn", _whose_move(state), {"to_move": to_move(state)})
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(kind, str) or kind not in COMMANDS:
        known = list(COMMANDS)
        raise BadRequest(
            "command/unknown", f"unknown command {kind!r}", {"field": "type", "known": known}
        )
    # phase allows the command
    if kind != expected(state):
        message = f"{kind} is not allowed now: {expected(state)} is expected"
        raise RuleViolation("rule/wrong_phase", message, {"expected": expected(state)})
    # command-specific checks, in the command's own function
    return {PLACE: _place, PLAY: _play, DISCARD: _discard}[kind](state, seat, command)


def _whose_move(state: State) -> str:
    if state["pending_discard"] is not None:
        return f"seat {state['pending_discard']['seat'] + 1} must first discard a betting card"
    if state["turn"] is None:
        return "no seat may act now"
    return f"it is seat {state['turn'] + 1}'s turn"


def _place(state: State, seat: int, command: Command) -> list[Event]:
    _only_fields(command, FIELDS[PLACE])
    horse, side = _horse(command, "horse"), command.get("side")
    if state["line"] and side not in SIDES:
        raise BadRequest("command/invalid", "side must be 'left' or 'right'", {"field": "side"})
    if horse in state["line"]:
        message = f"horse: horse {horse} is already in the line"
        raise RuleViolation("rule/horse_already_placed", message, {"field": "horse"})
    if not state["line"] and side is not None:
        message = "side: the first horse card goes in the middle; give no side"
        raise RuleViolation("rule/first_card_in_middle", message, {"field": "side"})
    events = [event("HorseCardPlaced", {"seat": seat, "horse": horse, "side": side})]
    return _close_placement(state, events)


def _close_placement(state: State, events: list[Event]) -> list[Event]:
    """Once all seven are laid, the last (leftmost) horse is the Dark Horse; racing starts."""
    after = fold(state, events)
    if len(after["line"]) < RANKS:
        return events
    tokens = TOKENS[str(state["seats"])]
    events = [*events, event("DarkHorseRevealed", {"horse": after["line"][0], "tokens": tokens})]
    if not any(after["hands"]):
        return [*events, _race_finished(after)]
    return [*events, event("RacingStarted", {"seat": state["first_seat"]})]


def _play(state: State, seat: int, command: Command) -> list[Event]:
    card, take = _card(command), command.get("take_token")
    take = False if take is None else take
    if not isinstance(take, bool):
        raise BadRequest(
            "command/invalid", "take_token must be true or false", {"field": "take_token"}
        )
    if card not in state["hands"][seat]:
        message = f"card: action card {card} is not in your hand"
        raise RuleViolation("rule/card_not_in_hand", message, {"field": "card"})
    refusal = token_refusal(state, seat) if take else None
    if refusal:
        raise RuleViolation(*refusal, {"field": "take_token"})
    choices, effect = _effect(state, seat, action_cards(state)[card], command)
    taken = [event("DarkHorseTokenTaken", {"seat": seat})] if take else []
    played = event("ActionCardPlayed", {"seat": seat, "card": card, **choices})
    return _close_turn(state, [*taken, played, *effect])


def _effect(
    state: State, seat: int, action: cards.Action, command: Command
) -> tuple[Command, list[Event]]:
    """The choices a card play records, and the events its action makes."""
    _only_fields(command, PLAY_FIELDS | CHOICE_FIELDS[action["kind"]])
    if action["kind"] == cards.MOVE:
        direction = _direction(action, command)
        shown = {"direction": direction} if action["direction"] == CHOICE else {}
        among_others = since(state, RANK_AMONG_OTHERS)
        return shown, cards.move_events(state["line"], action, direction, among_others=among_others)
    if action["kind"] == cards.RIDER_FALL_OFF:
        return {}, cards.fall_off_events(state["line"])
    return _exchange(state, seat, command.get("exchange"))


def _direction(action: cards.Action, command: Command) -> str:
    given = command.get("direction")
    if given is not None and given not in DIRECTIONS:
        message = "direction must be 'forward' or 'back'"
        raise BadRequest("command/invalid", message, {"field": "direction"})
    if action["direction"] != CHOICE:
        if given not in (None, action["direction"]):
            message = f"direction: this card moves {action['direction']} only"
            raise RuleViolation("rule/direction_fixed", message, {"field": "direction"})
        return action["direction"]
    if given is None:
        message = "direction is required: this card moves forward or back"
        raise BadRequest("command/invalid", message, {"field": "direction"})
    return given


def _exchange(state: State, seat: int, choice: Any) -> tuple[Command, list[Event]]:
    """Option A: discard one of your own and draw. Option B: another seat must discard."""
    if not state["betting_stack"]:
        if choice is not None:
            message = "exchange: the betting card stack is empty, the card has no effect"
            raise RuleViolation("rule/betting_stack_empty", message, {"field": "exchange"})
        return {}, []
    target = _exchange_seat(state, choice)
    if target == seat:
        horse = _horse(choice, "discard", "exchange.discard")
        _check_held(state, seat, horse, "exchange.discard")
        return {"exchange": {"seat": seat, "discard": horse}}, _swap(state, seat, horse)
    if choice.get("discard") is not None:
        message = f"exchange.discard: seat {target + 1} chooses which betting card to discard"
        raise RuleViolation("rule/holder_chooses_discard", message, {"field": "exchange.discard"})
    forced = event("BettingCardExchangeForced", {"seat": target, "by": seat})
    return {"exchange": {"seat": target}}, [forced]


def _exchange_seat(state: State, choice: Any) -> int:
    if not isinstance(choice, dict) or not set(choice) <= {"seat", "discard"}:
        message = 'exchange must be {"seat": your seat, "discard": horse} or {"seat": other seat}'
        raise BadRequest("command/invalid", message, {"field": "exchange"})
    target = choice.get("seat")
    if not is_int(target) or not 0 <= target < state["seats"]:
        message = f"exchange.seat must be a seat number 0-{state['seats'] - 1}"
        raise BadRequest("command/invalid", message, {"field": "exchange.seat"})
    return target


def _discard(state: State, seat: int, command: Command) -> list[Event]:
    _only_fields(command, FIELDS[DISCARD])
    horse = _horse(command, "horse")
    _check_held(state, seat, horse, "horse")
    return _close_turn(state, _swap(state, seat, horse))


def _swap(state: State, seat: int, horse: int) -> list[Event]:
    """The discard is shown to all; the card drawn from the top, only to its holder."""
    drawn = state["betting_stack"][0]
    return [
        event("BettingCardDiscarded", {"seat": seat, "horse": horse}),
        event("BettingCardDrawn", {"seat": seat, "horse": drawn}, to=[seat]),
    ]


def _close_turn(state: State, events: list[Event]) -> list[Event]:
    """The turn passes clockwise unless a forced discard is pending; the last card ends it."""
    after = fold(state, events)
    if after["pending_discard"] is not None:
        return events
    if any(after["hands"]):
        return [*events, event("TurnPassed", {"seat": (after["turn"] + 1) % after["seats"]})]
    return [*events, _race_finished(after)]


def _race_finished(state: State) -> Event:
    """The final line, and every seat's betting cards turned face up."""
    cards_shown = [list(held) for held in state["betting_cards"]]
    return event("RaceFinished", {"line": list(state["line"]), "betting_cards": cards_shown})


def _only_fields(command: Command, allowed: set[str]) -> None:
    extra = sorted(
        k for k, v in command.items() if k != "type" and k not in allowed and v is not None
    )
    if extra:
        message = f"{extra[0]} does not apply to this command or card"
        raise BadRequest("command/invalid", message, {"field": extra[0]})


def _card(command: Command) -> int:
    card = command.get("card")
    if not is_int(card):
        raise BadRequest("command/invalid", "card must be an action card number", {"field": "card"})
    return card


def _horse(fields: Command, name: str, field: str | None = None) -> int:
    horse = fields.get(name)
    if not is_int(horse) or horse not in HORSES:
        message = f"{field or name} must be a horse number {HORSES[0]}-{HORSES[-1]}"
        raise BadRequest("command/invalid", message, {"field": field or name})
    return horse


def _check_held(state: State, seat: int, horse: int, field: str) -> None:
    if horse not in state["betting_cards"][seat]:
        message = f"{field}: you hold no betting card on horse {horse}"
        raise RuleViolation("rule/betting_card_not_held", message, {"field": field})
