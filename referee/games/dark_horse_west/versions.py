"""The versions of Dark Horse West this referee plays, and the rules that changed with
each (docs/rules/dark-horse-west.md, "Versions"). A game plays by the rules of the
version its GameCreated names, so every published log re-derives as recorded.

1.1.0: a Ghost die is not stopped by the player's dice on an unlimited action (Pioneer);
Mayor and Sheriff take only dice as rolled (not re-rolled by a Wild Die token or a card);
every seat is asked to collect or decline each of its collections, whatever it holds;
Surveyor looks at two face-down hexes (the only one, when one is left).

1.2.0: keeping a drawn card is told in public (`DrawChosen {seat, action}`, after the
seat's own `CardKept`): who was asked to keep a card is public, what they kept is not.
"""

from typing import Any

from .. import _versions

VERSIONS = ("1.0.0", "1.1.0", "1.2.0")
FIRST, VERSION = VERSIONS[0], VERSIONS[-1]
# the rules that changed in 1.1.0, one name each where the code asks
UNLIMITED_GHOSTS = "1.1.0"  # the player's dice on an unlimited action stop no Ghost die
RESTRICTED_AS_ROLLED = "1.1.0"  # no re-rolled die on Mayor or Sheriff
EVERY_COLLECTION_ASKED = "1.1.0"  # every seat may decline what it collects
SURVEYOR_TWO = "1.1.0"  # Surveyor looks at two hexes, as its card says
# the rules that changed in 1.2.0
PUBLIC_KEEP = "1.2.0"  # a kept card is told in public (DrawChosen), not only to its keeper

State = dict[str, Any]


def since(state: State, version: str) -> bool:
    """Whether the game plays by the rules of `version` or a later one."""
    return _versions.since(state, version, FIRST)
