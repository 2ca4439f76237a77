"""Whose turn it is, the legal commands, and what a bet or a move makes happen.

Betting: from the race's first player clockwise, one chip per player per betting round.
Racing: from the same player clockwise, the referee rolls the die before each turn
(DieRolled ends the previous command's batch) and the player moves a horse whose card is
face up by its card's value for that face. The third horse home ends the race: the last
place is found, sealed bets are revealed, the race is paid and the next one prepared.
"""

from functools import reduce
from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from ...engine.sealed import seal
from .._checks import is_int
from .cards import value
from .data import DIE, HIDDEN_BETS_CHIPS, HORSES, PLACES, RACES
from .payouts import race_lines, settle
from .state import (
    BETTING,
    RACING,
    apply,
    betting_rounds,
    next_seat,
    option,
    prepare,
    sealed_round,
    unrevealed,
)
from .track import crossed, rearmost, running, stop, takes_pace_chip

State = dict[str, Any]
HORSE_FIELD = {"type": "string", "enum": HORSES}
CHIP_VALUES = sorted(set(HIDDEN_BETS_CHIPS))

COMMANDS: dict[str, Any] = {
    "place_bet": {
        "description": "Put one of your betting chips on a horse you have not backed this "
        "race (with Hidden Bets the chip's value is sealed until the race ends).",
        "fields": {"horse": HORSE_FIELD, "chip": {"type": "integer", "enum": CHIP_VALUES}},
    },
    "move_horse": {
        "description": "Move a horse whose card is face up by its card's value for the "
        "face the referee rolled.",
        "fields": {"horse": HORSE_FIELD},
    },
}


def to_move(state: State) -> list[int]:
    """The seat whose turn it is, while a race is being bet on or run."""
    return [] if state["turn"] is None else [state["turn"]]


def legal(state: State, seat: int | str | None) -> list[dict[str, Any]]:
    """Every bet (horse and chip) or every move the seat may make now."""
    if not isinstance(seat, int) or seat != state["turn"]:
        return []
    if state["phase"] == BETTING:
        chips = sorted(set(state["chips"][seat]))
        return [
            {"type": "place_bet", "horse": h, "chip": c}
            for h in HORSES
            for c in chips
            if h not in _backed(state, seat, c)
        ]
    return [{"type": "move_horse", "horse": h} for h in _movable(state)]


STANDING_CHOICES = {
    "move_only_horse": "In a race, move the horse at once when only one horse may move.",
}


def standing_answer(
    state: State, seat: int, choices: list[str]
) -> tuple[str, dict[str, Any]] | None:
    """(the choice, the command) that answers the seat's question now, if one does (the
    horses that may move are public: their cards are face up)."""
    if "move_only_horse" not in choices or state["phase"] != RACING or seat != state["turn"]:
        return None
    movable = _movable(state)
    return (
        ("move_only_horse", {"type": "move_horse", "horse": movable[0]})
        if len(movable) == 1
        else None
    )


def timeout_move(state: State, seat: int) -> dict[str, Any]:
    """The move the referee plays for a seat out of time (docs/clocks.md): its smallest
    chip on the first horse it may back with it, horses in their fixed order; in a race,
    the first horse whose card is face up that may move."""
    if state["phase"] == BETTING:
        return min(legal(state, seat), key=lambda bet: bet["chip"])
    return legal(state, seat)[0]


def decide(state: State, seat: int, command: dict[str, Any], rng: Rng) -> list[Event]:
    """Check a bet or a move against the rules, then say what happens."""
    # seat may act now
    if seat != state["turn"]:
        raise RuleViolation(
            "rule/not_your_turn", f"it is seat {state['turn'] + 1}'s turn", {"turn": state["turn"]}
        )
    horse = _horse(command)
    if command["type"] == "place_bet":
        return _bet(state, seat, horse, command, rng)
    return _move(state, seat, horse, rng)


def _horse(command: dict[str, Any]) -> str:
    horse = command.get("horse")
    if horse not in HORSES:
        raise BadRequest(
            "command/invalid", f"horse must be one of {', '.join(HORSES)}", {"field": "horse"}
        )
    return horse


# --- betting -----------------------------------------------------------------------


def _bet(state: State, seat: int, horse: str, command: dict[str, Any], rng: Rng) -> list[Event]:
    # phase allows the command
    if state["phase"] != BETTING:
        raise RuleViolation("rule/not_betting", "bets are placed before the race, not now")
    # command-specific checks: a chip the player holds, on a horse not yet backed
    chip = command.get("chip")
    if not is_int(chip) or chip not in CHIP_VALUES:
        raise BadRequest("command/invalid", "chip must be 0, 1 or 2", {"field": "chip"})
    if chip not in state["chips"][seat]:
        raise RuleViolation(
            "rule/chip_not_held",
            f"you hold no {chip}-chip now (your chips: {sorted(state['chips'][seat])})",
            {"field": "chip"},
        )
    if horse in _backed(state, seat, chip):
        raise RuleViolation(
            "rule/horse_already_backed",
            f"you already bet on {horse} this race: one bet per horse",
            {"field": "horse"},
        )
    return _placed(state, seat, horse, chip) + _after_bet(state, seat, rng)


def _backed(state: State, seat: int, chip: int) -> list[str]:
    """The horses this chip of the seat may not go on: those it already bet on this race
    (one bet per horse). A 0-chip uses that bet unless option zero_chip_uses_bet is false
    (the FAQ: 0-chips "do not count as bets"); then it goes on any horse and takes none."""
    uses = bool(option(state, "zero_chip_uses_bet"))
    if chip == 0 and not uses:
        return []
    return [b["horse"] for b in state["bets"] if b["seat"] == seat and (b["chip"] or uses)]


def _placed(state: State, seat: int, horse: str, chip: int) -> list[Event]:
    where = {"race": state["race"], "round": state["betting_round"], "seat": seat, "horse": horse}
    if not state["hidden_bets"]:
        return [event("BetPlaced", {**where, "chip": chip})]
    # sealed first: the command travels on the batch's first event, which only the seat sees
    sealed = seal(seat, sealed_round(state), {"horse": horse, "chip": chip})
    return [sealed, event("BetPlaced", where)]


def _after_bet(state: State, seat: int, rng: Rng) -> list[Event]:
    last_round = state["betting_round"] == betting_rounds(state)
    if last_round and next_seat(state, seat) == state["first_player"]:
        return [_rolled(state, state["first_player"], rng)]
    return []


def _rolled(state: State, seat: int, rng: Rng) -> Event:
    face = DIE[rng.below(f"race-{state['race']}/roll-{state['moves']}", len(DIE))]
    return event("DieRolled", {"race": state["race"], "seat": seat, "face": face})


# --- racing ------------------------------------------------------------------------


def _movable(state: State) -> list[str]:
    return [h for h in running(state) if h not in state["face_down"]]


def _move(state: State, seat: int, horse: str, rng: Rng) -> list[Event]:
    # phase allows the command
    if state["phase"] != RACING:
        raise RuleViolation("rule/not_racing", "horses move once every bet is placed")
    # command-specific checks: a horse still running, its card face up
    if horse in state["placings"]:
        raise RuleViolation(
            "rule/horse_finished", f"{horse} has finished the race", {"field": "horse"}
        )
    if horse in state["face_down"]:
        raise RuleViolation(
            "rule/card_face_down",
            f"{horse}'s card is face down until every horse has moved",
            {"field": "horse"},
        )
    events = _moved(state, seat, horse)
    after = _folded(state, events)
    if len(after["placings"]) == len(PLACES):
        return events + _race_end(after, rng)
    if not _movable(after):
        events.append(event("CardsTurnedUp", {"race": state["race"]}))
        after = _folded(after, events[-1:])
    return [*events, _rolled(after, after["turn"], rng)]


def _moved(state: State, seat: int, horse: str) -> list[Event]:
    card, face = state["cards"][horse], state["die"]
    steps = value(state, card, face)
    to = stop(state, horse, steps)
    events = [
        event(
            "HorseMoved",
            {
                "race": state["race"],
                "seat": seat,
                "horse": horse,
                "face": face,
                "card": card,
                "steps": steps,
                "from": state["spaces"][horse],
                "to": to,
            },
        )
    ]
    if takes_pace_chip(state, to):
        events.append(event("PaceChipTaken", {"race": state["race"], "horse": horse}))
    if crossed(state, to):
        place = len(state["placings"]) + 1
        events.append(
            event("HorseFinished", {"race": state["race"], "horse": horse, "place": place})
        )
    return events


def _folded(state: State, events: list[Event]) -> State:
    return reduce(apply, events, state)


def _race_end(state: State, rng: Rng) -> list[Event]:
    """RaceEnded, the reveals of sealed bets, RacePaid, and the next race's preparation."""
    ended = event(
        "RaceEnded",
        {
            "race": state["race"],
            "placings": state["placings"],
            "last": rearmost(state),
            "pace_chip": state["pace_chip"],
        },
    )
    events = [ended, *unrevealed(state)]
    after = _folded(state, events)
    lines, money = settle(after, race_lines(after))
    events.append(
        event(
            "RacePaid",
            {
                "race": state["race"],
                "multiplier": state["race_multipliers"][state["race"] - 1],
                "lines": lines,
                "money": money,
            },
        )
    )
    if state["race"] == RACES:
        return events
    return events + prepare(_folded(after, events[-1:]), state["race"] + 1, rng)
