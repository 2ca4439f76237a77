"""What each viewer sees of a Royal Turf table.

Everything on the table is public (cards, horses and the order they arrived in, the die,
the pace chip, money, where every chip lies, the game's options), except with Hidden Bets
the value of a chip another player put down, until the race ends; a seat sees its own
chips and its commitment receipts.
"""

from typing import Any

from ...engine.events import MODERATOR
from .cards import spec
from .data import HORSES
from .state import TERMS, option

State = dict[str, Any]


def view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The table as `viewer` (a seat, the moderator, or None) may see it."""
    sees_all = viewer == MODERATOR
    shown = {
        "race": state["race"],
        "phase": state["phase"],
        "betting_round": state["betting_round"],
        "first_player": state["first_player"],
        "turn": state["turn"],
        "die": state["die"],
        "track_length": state["track_length"],
        "pace_space": state["pace_space"],
        "horses": [_horse(state, h) for h in HORSES],
        "moves": state["moves"],
        "pace_chip": state["pace_chip"],
        "placings": state["placings"],
        "last_place": state["last_place"],
        "bets": [_bet(b, viewer, sees_all) for b in state["bets"]],
        "chips": [_chips(state, seat, viewer, sees_all) for seat in range(state["seats"])],
        "money": state["money"],
        "deck_size": len(state["deck"]),
        "results": state["results"],
        "variants": {
            name: state[name]
            for name in ("hidden_bets", "crowded_field", "alternative_payouts", "royal_turf_cards")
        },
        "options": _options(state),
    }
    return shown  # the engine hands out a copy of every view


def _horse(state: State, horse: str) -> dict[str, Any]:
    card = state["cards"].get(horse)
    place = state["placings"].index(horse) + 1 if horse in state["placings"] else None
    return {
        "horse": horse,
        "space": state["spaces"][horse],
        "card": spec(state, card) if card else None,
        # the move (counted in the race) it last went forward on: on a shared space
        # (Crowded Field) the later arrival is behind
        "arrived": state["arrived"][horse],
        "face_up": horse not in state["face_down"] and place is None,
        "finished": place,
    }


def _options(state: State) -> dict[str, Any]:
    """The options the table plays by that the rest of the view does not show (public,
    as the game's options are): what a seat needs to work out any line of play."""
    shown = {name: state[name] for name in TERMS}
    shown["cards"] = state["custom_cards"]
    shown["zero_chip_uses_bet"] = option(state, "zero_chip_uses_bet")
    return shown


def _bet(bet: dict[str, Any], viewer: int | str | None, sees_all: bool) -> dict[str, Any]:
    shown = {k: bet[k] for k in ("seat", "horse", "round", "chip")}
    if "sealed" in bet:
        shown.update(sealed=bet["sealed"], commitment=bet["commitment"], revealed=bet["revealed"])
        if not (bet["revealed"] or sees_all or viewer == bet["seat"]):
            shown["chip"] = None
    return shown


def _chips(state: State, seat: int, viewer: int | str | None, sees_all: bool) -> Any:
    held = sorted(state["chips"][seat])
    if not state["hidden_bets"] or sees_all or viewer == seat:
        return held
    return len(held)  # which chips are left would tell what was bet
