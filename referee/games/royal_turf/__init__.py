"""Royal Turf: 2-6 players bet on seven horses over three races, then race them with a
die and each horse's card.

Each race: one horse card per gate, three betting rounds (chips 1, 1, 2), then players
take turns moving a horse whose card is face up by its card's value for the rolled face;
the first three home are paid by the payout table, the pace chip's backers get a bonus,
the last horse's backers pay a penalty, race 3 doubles everything. Richest after race 3
wins. Variants (options, freely combined): Hidden Bets (a fourth round, a 0-value bluff
chip, every chip's value sealed with a commitment until the race ends), Crowded Field,
Alternative Payouts, Royal Turf Cards. Decisions: ../shared/rules/README.md and
docs/rules/royal-turf.md.

The package: data (numbers and house content from ../royal_turf.json), options, cards
(decks and deals), track (where horses stop, last place, pace), payouts, state (initial,
setup, apply, and the sealed bets still to reveal), turns (to_move, legal, decide),
scoring (outcome), views (view); board (the SVG a page shows) and describe (sentences,
button texts, CONTENT and OPTION_TEXTS).
"""

from .board import board
from .describe import CHAPTER, CONTENT, OPTION_TEXTS, label, narrate
from .options import OPTIONS, check_options
from .scoring import outcome
from .state import apply, initial, setup, unrevealed
from .turns import (
    COMMANDS,
    STANDING_CHOICES,
    decide,
    legal,
    standing_answer,
    timeout_move,
    to_move,
)
from .views import view

NAME = "royal-turf"
VERSION = "1.0.0"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4

__all__ = [
    "NAME",
    "VERSION",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "DEFAULT_PLAYERS",
    "OPTIONS",
    "COMMANDS",
    "check_options",
    "initial",
    "setup",
    "to_move",
    "legal",
    "timeout_move",
    "STANDING_CHOICES",
    "standing_answer",
    "decide",
    "apply",
    "view",
    "outcome",
    "unrevealed",
    "board",
    "narrate",
    "CHAPTER",
    "label",
    "CONTENT",
    "OPTION_TEXTS",
]
