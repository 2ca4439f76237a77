"""The versions of Dark Horse this referee plays, and the rules that changed with each
(docs/rules/dark-horse.md, "Versions"). A game plays by the rules of the version its
GameCreated names, so every published log re-derives as recorded.

1.1.0: a moderator's two-horse card naming a horse and a rank (`deck` option) moves two
horses: when the horse at that rank is the named horse, the rank is counted among the
other horses (the horse just behind it, or just ahead when it is last). Under 1.0.0 the
named horse moved twice.
"""

from typing import Any

from .. import _versions

VERSIONS = ("1.0.0", "1.1.0")
FIRST, VERSION = VERSIONS[0], VERSIONS[-1]
# the rules that changed in 1.1.0, one name each where the code asks
RANK_AMONG_OTHERS = "1.1.0"  # a rank target never names the card's named horse

State = dict[str, Any]


def since(state: State, version: str) -> bool:
    """Whether the game plays by the rules of `version` or a later one."""
    return _versions.since(state, version, FIRST)
