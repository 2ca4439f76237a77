"""Dark Horse: 2-6 players lay seven horse cards in a line, then race them with action cards.

Each player secretly holds betting cards on horses. On a turn a player may take a Dark
Horse token, then must play an action card, which moves horses by switching places.
When every dealt action card is played, each betting card scores by its horse's rank and
each token +5 or -3 by the Dark Horse's rank; the highest total wins, ties share.
Decisions where the text is silent: ../shared/rules/README.md and docs/rules/dark-horse.md.

The package: data (numbers and house deck from ../dark_horse.json), line (the horses and
how they move), cards (action cards), options, state (initial, setup, apply), turns
(to_move, legal, decide), scoring (outcome), versions (the versions played and what
changed in each), board (the SVG a page shows), words (what ids and cards say, CONTENT,
OPTION_TEXTS), narration (a sentence per event), labels (a label per command); view is
here.
"""

from typing import Any

from ...engine.events import MODERATOR
from .board import board
from .labels import label
from .line import ranks
from .narration import CHAPTER, narrate
from .options import OPTIONS, check_options
from .scoring import outcome
from .state import OVER, action_cards, apply, initial, setup
from .turns import COMMANDS, decide, legal, timeout_move, to_move
from .versions import VERSION, VERSIONS
from .words import CONTENT, OPTION_TEXTS

NAME = "dark-horse"
# VERSION (the newest) and VERSIONS (every one this referee plays, oldest first) are in
# versions.py, with what changed in each
MIN_PLAYERS = 2
MAX_PLAYERS = 6

__all__ = [
    "NAME",
    "VERSION",
    "VERSIONS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "OPTIONS",
    "COMMANDS",
    "check_options",
    "initial",
    "setup",
    "to_move",
    "legal",
    "timeout_move",
    "decide",
    "apply",
    "view",
    "outcome",
    "board",
    "narrate",
    "CHAPTER",
    "label",
    "CONTENT",
    "OPTION_TEXTS",
]

State = dict[str, Any]


def view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The public table; a seat adds its own betting cards and hand; the moderator sees all."""
    shown = _public(state)
    if viewer == MODERATOR:
        shown["betting_cards_by_seat"] = state["betting_cards"]
        shown["hands"] = [_hand(state, hand) for hand in state["hands"]]
        shown["betting_stack_cards"] = state["betting_stack"]
        shown["set_aside"] = [_card(state, card) for card in state["set_aside"]]
    elif isinstance(viewer, int) and 0 <= viewer < state["seats"]:
        shown["betting_cards"] = state["betting_cards"][viewer]
        shown["hand"] = _hand(state, state["hands"][viewer])
    return shown  # the engine hands out a copy of every view


def _public(state: State) -> dict[str, Any]:
    shown = {
        "phase": state["phase"],
        "turn": state["turn"],
        "to_move": to_move(state),
        "line": state["line"],
        "horse_ranks": ranks(state["line"]),
        "dark_horse": state["dark_horse"],
        "tokens_left": state["tokens_left"],
        "token_holders": [seat for seat, held in enumerate(state["tokens"]) if held],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "betting_card_counts": [len(held) for held in state["betting_cards"]],
        "betting_stack_size": len(state["betting_stack"]),
        "played": [
            {**play, "action": action_cards(state)[play["card"]]} for play in state["played"]
        ],
        "discarded_betting_cards": state["discarded_betting_cards"],
        "pending_discard": state["pending_discard"],
        "rank_points": state["rank_points"],
    }
    if state["phase"] == OVER:
        # the betting cards are turned face up at the end
        shown["betting_cards_by_seat"] = state["betting_cards"]
    return shown


def _card(state: State, card: int) -> dict[str, Any]:
    return {"card": card, "action": action_cards(state)[card]}


def _hand(state: State, hand: list[int]) -> list[dict[str, Any]]:
    return [_card(state, card) for card in hand]
