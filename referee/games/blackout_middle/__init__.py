"""Blackout Middle: 3-12 players (9 in the match) bet chips on horses A-I racing unseen
on a 15-space track, over 11 simultaneous rounds (0-10) of sealed orders.

Each round every seat seals one ability (that round's clue or utility, paid for with
horse cards), one space to spectate and its bets; the engine keeps the orders sealed and
calls `resolve` once per round. Cards trade 1 for 1 and are bought with garnets at any
time while the rounds run. After Round 10: the scoreboard, the Tokens of Life and the
Elimination Candidate. Decisions: ../shared/rules/README.md and
docs/rules/blackout-middle.md.

The package: data (numbers, ability texts and card rules from ../blackout_middle.json),
race and scoring (the building blocks), options, state (initial, setup, apply), orders
(their shape), abilities and judging (what of the orders applies), learning (what an
ability delivers), rounds (open_round, resolve), awards (scores, ToLs, EC, outcome),
trades, commands (decide, to_move), legal, views, summary (round_summary), versions (the
versions played and what changed in each); bot/ holds the bots' pieces (referee/bots:
what a seat's view says of the race, tables drawn from it, orders, playouts).

A round resolves to, in order: OrdersJudged per seat (to that seat), HorsesMoved
(moderator), HorseFinished (public), AbilityResolved per seat, ChipsWatched per seat
(Rounds 3-5) and SpaceSeen per seat (Rounds 1-10), each to its seat, SpectatingAnnounced
(public), RoundResolved (public); after Round 10 ScoresRevealed, TolsAwarded and
EliminationCandidateNamed or EliminationVoteCalled. (Version 1 sent AbilityResolved,
ChipsWatched and SpaceSeen only to the seats they had something for.)
"""

from .abilities import Dropped
from .awards import outcome
from .board import board
from .commands import COMMANDS, MODERATOR_COMMANDS, decide, to_move
from .judging import inspect_orders
from .labels import label
from .legal import legal
from .narration import CHAPTER, narrate
from .options import OPTIONS, check_options
from .orders import check_orders, default_orders
from .orders_form import order_fields, orders_from_form
from .rounds import open_round, resolve
from .state import apply, initial, setup
from .summary import round_summary
from .versions import VERSION, VERSIONS
from .views import view
from .words import CONTENT, OPTION_TEXTS

NAME = "blackout-middle"
# VERSION (the newest) and VERSIONS (every one this referee plays, oldest first) are in
# versions.py, with what changed in each
MIN_PLAYERS = 3
MAX_PLAYERS = 12
DEFAULT_PLAYERS = 9  # the match is for 9 (README: 9 by default, 3-12 allowed)
REVEAL = "end"  # bets and abilities are private: orders stay sealed until the game ends

__all__ = [
    "NAME",
    "VERSION",
    "VERSIONS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "OPTIONS",
    "COMMANDS",
    "MODERATOR_COMMANDS",
    "REVEAL",
    "Dropped",
    "check_options",
    "initial",
    "setup",
    "open_round",
    "check_orders",
    "inspect_orders",
    "default_orders",
    "resolve",
    "to_move",
    "legal",
    "decide",
    "apply",
    "view",
    "outcome",
    "round_summary",
    "board",
    "narrate",
    "CHAPTER",
    "label",
    "CONTENT",
    "OPTION_TEXTS",
    "order_fields",
    "orders_from_form",
]
