"""Fork heights: a rule that changed with a ruleset's VERSION applies to the games
created under that version or a later one, so every published version re-derives.

A ruleset that keeps older versions lists them in `VERSIONS` (oldest first, the newest
is `VERSION`) and takes `initial(players, options, *, version)`. The table of a game
created under the first version carries no version, so the states (and state hashes)
recorded under it stay exactly as they were; later versions stamp theirs.
"""

from functools import lru_cache
from typing import Any

State = dict[str, Any]
Version = str | int


@lru_cache(maxsize=64)  # a handful of versions, asked on every command
def _key(version: Version) -> tuple[int, ...]:
    return tuple(int(part) for part in str(version).split("."))


def stamped(table: State, version: Version, first: Version) -> State:
    """The table with the game's ruleset version, left out for the first version."""
    return table if version == first else {**table, "version": version}


def since(table: State, version: Version, first: Version) -> bool:
    """Whether a game's table plays by the rules of `version` or later."""
    return _key(table.get("version", first)) >= _key(version)
