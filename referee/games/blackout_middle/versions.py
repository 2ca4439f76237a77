"""The versions of Blackout Middle this referee plays, and the rules that changed with
each (docs/rules/blackout-middle.md, "Versions"). A game plays by the rules of the
version its GameCreated names, so every published log re-derives as recorded.

2: a round's resolution sends every seat the same private events whatever it chose
(AbilityResolved every round, ChipsWatched in Rounds 3-5 and SpaceSeen in Rounds 1-10,
each saying "nothing" where nothing applied); the public scoreboard no longer tells the
garnets each seat holds (purchases are private); a card offered in a trade is held for
it while the offer is open (no ability or other offer may take it), so accepting an offer
never fails on the offering seat's hand and tells its recipient nothing of what that seat
did since. The options added with it
(`tied_second_tols`, `round10_space_scores`) are read from the game's options: a game
created before them plays as it did then.
"""

from typing import Any

from .. import _versions

VERSIONS = (1, 2)
FIRST, VERSION = VERSIONS[0], VERSIONS[-1]
# the rules that changed in 2, one name each where the code asks
SAME_SHAPE = 2  # private results in one shape whatever a seat chose
GARNETS_UNANNOUNCED = 2  # the scoreboard names the garnets awarded, not those held
CARDS_ON_OFFER = 2  # a card offered in an open trade is held for it

State = dict[str, Any]


def since(state: State, version: int) -> bool:
    """Whether the game plays by the rules of `version` or a later one."""
    return _versions.since(state, version, FIRST)
