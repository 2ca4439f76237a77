"""The state hash of state after state, with the bytes of `digest` and less work.

States are copied on write: the parts an event leaves alone are the very same objects in
the next state. A `StateHashes` keeps the canonical bytes of the big parts of the last
state, keyed by the part's identity (holding the part, so that the identity cannot be
taken by another object), and splices them into the next state's encoding as orjson
fragments: only what is new is encoded. SHA-256 reads its input in order, so the
hasher's state is saved every few kilobytes, and the next hash resumes from the last
saved point before the first block that differs. A small state is hashed plainly, as
`digest` does: splicing saves nothing there.

Sound only while nothing changes a part of a state in place once the state has been
hashed (the rules' `apply` returns new objects for what it changes); tests hold these
hashes equal to `digest` over every ruleset's games and over random states.
"""

import hashlib
from typing import Any

import orjson

from .canonical import canonical

PLAIN_BELOW = 8192  # a state that encoded to fewer bytes is hashed plainly
BIG = 1024  # a part that encodes to at least this many bytes is kept and spliced
DEPTH = 4  # how deep parts are looked for
BLOCK = 4096  # bytes hashed between two saved hasher states
_SORTED = orjson.OPT_SORT_KEYS

Path = tuple[Any, ...]


class StateHashes:
    """`digest(state)` of successive states of one game, reusing the last one's work."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, bytes]] = {}  # id -> (big part, its bytes)
        self._big: dict[Path, tuple[tuple[Any, ...], int]] = {}  # path -> (big children, size)
        self._last = b""  # the last state's canonical bytes
        self._marks: list[Any] = []  # mark i: SHA-256 of the last state's first i blocks

    def __call__(self, state: Any) -> str:
        """Hex SHA-256 of the canonical JSON of a state, as `digest` gives it."""
        if len(self._last) >= PLAIN_BELOW and type(state) is dict:
            old, self._kept = self._kept, {}
            try:
                return self._hashed(self._encoded(state, (), 0, old))
            except (TypeError, ValueError):  # what orjson refuses: `canonical` decides
                pass
        self._kept, self._marks = {}, []
        self._last = canonical(state)
        return hashlib.sha256(self._last).hexdigest()

    def _encoded(self, value: Any, path: Path, depth: int, old: dict) -> bytes:
        """A part's canonical bytes: kept from the last state if it is the very same
        object, else encoded with its own big parts spliced in."""
        kept = old.get(id(value))
        if kept is not None and kept[0] is value:
            self._kept[id(value)] = kept
            return kept[1]
        big = self._big.get(path)
        if big is None or not big[0]:
            encoded = orjson.dumps(value, option=_SORTED)
        else:
            spliced = dict(value) if type(value) is dict else list(value)
            for child in big[0]:
                if _holds(value, child):
                    part = self._encoded(value[child], (*path, child), depth + 1, old)
                    spliced[child] = orjson.Fragment(part)
            encoded = orjson.dumps(spliced, option=_SORTED)
        if depth:
            self._kept[id(value)] = (value, encoded)
        if depth < DEPTH and (big is None or len(encoded) > 2 * big[1]):
            self._survey(value, path, len(encoded))
        return encoded

    def _survey(self, value: Any, path: Path, size: int) -> None:
        """Note which children of a big part are big themselves (again once it doubled)."""
        if size < BIG or type(value) not in (dict, list):
            self._big[path] = ((), size)
            return
        children = value.items() if type(value) is dict else enumerate(value)
        self._big[path] = (
            tuple(
                name
                for name, child in children
                if type(child) in (dict, list) and len(orjson.dumps(child, option=_SORTED)) >= BIG
            ),
            size,
        )

    def _hashed(self, encoded: bytes) -> str:
        """SHA-256 of the bytes, resumed after the blocks they share with the last state's."""
        last, view, marks = self._last, memoryview(encoded), self._marks
        same = 0
        while (
            same + 1 < len(marks)
            and (same + 1) * BLOCK <= len(encoded)
            and last.startswith(view[same * BLOCK : (same + 1) * BLOCK], same * BLOCK)
        ):
            same += 1
        del marks[same + 1 :]
        hasher = marks[same].copy() if marks else hashlib.sha256()
        if not marks:
            marks.append(hasher.copy())
        for start in range(same * BLOCK, len(encoded), BLOCK):
            block = view[start : start + BLOCK]
            hasher.update(block)
            if len(block) == BLOCK:
                marks.append(hasher.copy())
        self._last = encoded
        return hasher.hexdigest()


def _holds(value: Any, child: Any) -> bool:
    """Whether a part still has a child by that key or index, itself an object or array."""
    if type(value) is dict:
        found = value.get(child, None) if type(child) is str else None
    else:
        found = value[child] if type(child) is int and child < len(value) else None
    return type(found) in (dict, list)
