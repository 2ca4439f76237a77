"""The registry of rulesets, keyed by ruleset id. A ruleset can be known by the module
that holds it and imported the first time it is asked for: verifying a log loads its
own ruleset only."""

from importlib import import_module
from types import ModuleType
from typing import Any

from .errors import NotFound

_RULESETS: dict[str, ModuleType] = {}
_KNOWN: dict[str, str] = {}  # ruleset id -> the module to import for it

REQUIRED = (
    "NAME",
    "VERSION",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "OPTIONS",
    "COMMANDS",
    "initial",
    "setup",
    "legal",
    "decide",
    "apply",
    "view",
    "outcome",
    "to_move",
)


def register(module: ModuleType) -> ModuleType:
    """Add a ruleset module; it must define the whole contract."""
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        raise TypeError(f"ruleset {module.__name__} lacks {', '.join(missing)}")
    versions = tuple(getattr(module, "VERSIONS", (module.VERSION,)))
    if versions[-1] != module.VERSION:
        raise TypeError(f"ruleset {module.__name__}: VERSIONS must end with VERSION")
    _RULESETS[module.NAME] = module
    return module


def know(ruleset_id: str, module: str) -> None:
    """Name the module of a ruleset, registered when it is first asked for."""
    _KNOWN[ruleset_id] = module


def optional(rules: ModuleType, name: str, default: Any = None) -> Any:
    """A part a ruleset may leave out (STANDING_CHOICES, resolve, inspect_orders...), or
    `default`: read from the module's names, as getattr raises and formats an
    AttributeError for each part a ruleset lacks, on every command."""
    return vars(rules).get(name, default)


def get(ruleset_id: str) -> ModuleType:
    """The ruleset module for an id, or NotFound."""
    try:
        return _RULESETS[ruleset_id]
    except KeyError:
        if ruleset_id in _KNOWN:
            return _imported(ruleset_id)
        raise NotFound(
            "ruleset/unknown",
            f"unknown ruleset {ruleset_id!r}",
            {"ruleset": ruleset_id, "known": names()},
        ) from None


def _imported(ruleset_id: str) -> ModuleType:
    module = register(import_module(_KNOWN[ruleset_id]))
    if module.NAME != ruleset_id:
        raise TypeError(f"ruleset {module.__name__} is named {module.NAME!r}, not {ruleset_id!r}")
    return module


def names() -> list[str]:
    """Every registered ruleset id, sorted."""
    return sorted({*_RULESETS, *_KNOWN})
