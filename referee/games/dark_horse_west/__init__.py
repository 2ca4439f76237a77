"""Dark Horse West: 1-4 entrepreneurs of the Old West roll dice, place them on the action
board in turn order, then collect the actions in board order to build towns, cities and
rails on a hex territory, gain gold and influence. The game ends when a player has built
every city and town or reaches the Game End token on the influence track; the most
victory points win. Gunslinger (2 players) adds pawns that block actions; Solitaire
(1 player) adds Ghost dice, a 28-turn countdown and five scenarios.

The rule text is shared/rules/003_7103a8c1fffe081e.txt; decisions where it is silent are
in docs/rules/dark-horse-west.md; the house content (map, tiles, cards, characters) in
../dark_horse_west_map.json and ../dark_horse_west.json.

The package: data and options; hexes and rails (the map, rails, access, city scores);
commands (their fields); state (initial, apply); game_setup (the random setup); table
(questions about a table); dice and placement (the Placement Phase); collection, cards,
characters, tokens (the Collection Phase); windows (when a seat is asked); solitaire;
flow (the referee's automatic steps); turns (to_move, legal, decide); scoring
(outcome); views (view); versions (the versions played and what changed in each).
"""

from .board import board
from .board_content import CONTENT, OPTION_TEXTS
from .commands import COMMANDS
from .labels import label
from .narration import CHAPTER, narrate
from .options import OPTIONS, check_options, check_table
from .scoring import outcome
from .standing import STANDING_CHOICES, standing_answer
from .state import apply, initial
from .turns import decide, legal, setup, timeout_move, to_move
from .versions import VERSION, VERSIONS
from .views import view

NAME = "dark-horse-west"
# VERSION (the newest) and VERSIONS (every one this referee plays, oldest first) are in
# versions.py, with what changed in each
MIN_PLAYERS = 1
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 4
# random bots draw a command type by these weights (1 for others), then a command of it:
# every legal command stays possible, a decline is not drowned by a hundred ways to pay,
# and bots do not spend whole games taking and paying off loans
BOT_TYPE_WEIGHTS = {"collect": 6, "place": 6, "place_rail": 6, "keep_card": 6, "play_card": 3}

__all__ = [
    "NAME",
    "VERSION",
    "VERSIONS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "DEFAULT_PLAYERS",
    "OPTIONS",
    "COMMANDS",
    "check_options",
    "check_table",
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
    "board",
    "narrate",
    "CHAPTER",
    "label",
    "CONTENT",
    "OPTION_TEXTS",
]
