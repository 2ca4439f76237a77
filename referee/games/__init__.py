"""The rulesets the referee serves, known by id; each is imported when first asked for.
Which bots play each here, and the public description of each (GET /rulesets, the
new-game page).

Each ruleset is a package of its own that imports the engine, this folder's shared
modules (those whose names start with `_`) and nothing of another ruleset's."""

from importlib.util import find_spec
from types import ModuleType

from ..engine import clocks, standing
from ..engine.game import command_shapes
from ..engine.registry import know
from ..engine.rounds import has_rounds
from ..engine.seating import LEVELS

for _name in ("galloping-horse", "dark-horse", "royal-turf", "dark-horse-west", "blackout-middle"):
    know(_name, f"{__name__}.{_name.replace('-', '_')}")


def bot_levels(rules: ModuleType) -> list[str]:
    """The levels whose bots play a ruleset here: random and standard always; strong
    where the ruleset brings the sampler the search needs (games/<package>/bot.py)."""
    return [level for level in LEVELS if level != "strong" or _has_sampler(rules)]


def _has_sampler(rules: ModuleType) -> bool:
    # a ruleset of one module (no package) has no bot module beside it
    return hasattr(rules, "__path__") and find_spec(f"{rules.__name__}.bot") is not None


def describe(rules: ModuleType) -> dict:
    """The public description of one ruleset."""
    commands, moderating = command_shapes(rules)
    return {
        "id": rules.NAME,
        "version": rules.VERSION,
        "min_players": rules.MIN_PLAYERS,
        "max_players": rules.MAX_PLAYERS,
        "default_players": getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS),
        "options": rules.OPTIONS,
        "option_texts": getattr(rules, "OPTION_TEXTS", {}),
        "commands": commands,
        "moderator_commands": moderating,
        "content": getattr(rules, "CONTENT", {}),
        "clock": None if has_rounds(rules) else CLOCK,
        "standing_choices": standing.offered(rules),
        "bot_levels": bot_levels(rules),
    }


# what a game in turns may be created with, and the commands a clocked game adds
CLOCK = {
    "settings": clocks.SETTINGS,
    "commands": clocks.SEAT_COMMANDS,
    "moderator_commands": clocks.MODERATOR_COMMANDS,
}
