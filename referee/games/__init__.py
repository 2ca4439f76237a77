"""The rulesets the referee serves, known by id; each is imported when first asked for.
Each is a package of its own that imports the engine, this folder's shared modules (those
whose names start with `_`) and nothing of another ruleset's."""

from importlib.util import find_spec
from types import ModuleType

from ..engine.registry import know
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
