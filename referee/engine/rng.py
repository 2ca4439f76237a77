"""The provably fair random generator (specified in docs/fairness.md).

Every draw is a function of the game's secret seed and a label that names the use,
so a revealed seed lets anyone re-derive every outcome in any language:

    block(label, i) = HMAC-SHA256(key=seed, msg=UTF-8(label) + b"#" + ASCII(i))

The blocks of one label, i = 0, 1, 2 ..., form its byte stream. Integers are read
from it as 8-byte big-endian words with rejection sampling.
"""

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")
_WORDS = struct.Struct(">4Q")  # a block of 32 bytes read as four big-endian words
_SPAN = 1 << 64
_HEARD: ContextVar[list[str] | None] = ContextVar("heard", default=None)


@contextmanager
def heard() -> Iterator[list[str]]:
    """The labels drawn from inside the block, in order (the verifier and the replay
    theatre name each random outcome's draw); the draws themselves are unchanged."""
    labels: list[str] = []
    token = _HEARD.set(labels)
    try:
        yield labels
    finally:
        _HEARD.reset(token)


def _hear(label: str) -> None:
    listening = _HEARD.get()
    if listening is not None:
        listening.append(label)


def seed_bytes(seed: str) -> bytes:
    """The bytes a seed string stands for: its UTF-8 encoding."""
    return seed.encode("utf-8")


def commitment(seed: str) -> str:
    """The published commitment to a seed: hex SHA-256 of its bytes."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


class Stream:
    """The byte stream of one label, read 8 bytes at a time."""

    def __init__(self, key: bytes, label: str) -> None:
        self._blocks = _blocks(key, label)
        self._words: list[int] = []  # the words of the block begun, last word first

    def word(self) -> int:
        """The next unsigned 64-bit big-endian word."""
        if not self._words:  # a block holds four whole words
            self._words = list(_WORDS.unpack(next(self._blocks)))[::-1]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def _blocks(key: bytes, label: str) -> Iterator[bytes]:
    counter = 0
    prefix = label.encode("utf-8") + b"#"
    while True:
        yield hmac.digest(key, prefix + str(counter).encode("ascii"), "sha256")
        counter += 1


class Rng:
    """Labelled draws from a game's seed. A label must be used once per game."""

    def __init__(self, seed: str) -> None:
        self._key = seed_bytes(seed)

    def stream(self, label: str) -> Stream:
        """The stream for one labelled use."""
        _hear(label)
        return Stream(self._key, label)

    def below(self, label: str, n: int) -> int:
        """One uniform integer in [0, n)."""
        return self.stream(label).below(n)

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A shuffled copy: Fisher-Yates from the last index down, j = below(i + 1)."""
        out = list(items)
        stream = self.stream(label)
        for i in range(len(out) - 1, 0, -1):
            j = stream.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def hex(self, label: str, nbytes: int = 16) -> str:
        """The first nbytes of a label's stream, as hex (used for salts)."""
        _hear(label)
        return _first_block(self._key, label)[:nbytes].hex()


def salt(seed: str, seq: int) -> str:
    """The salt of the event at `seq`: `Rng(seed).hex(f"salt/{seq}")`."""
    return Rng(seed).hex(f"salt/{seq}")


# a verifier draws each salt twice (the seals, then the rules' records): the second is
# remembered; enough for the longest log the referee keeps
@lru_cache(maxsize=1 << 14)
def _first_block(key: bytes, label: str) -> bytes:
    return hmac.digest(key, label.encode("utf-8") + b"#0", "sha256")
