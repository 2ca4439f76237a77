"""Commands on one game queue in this process: one at a time reads, decides and appends.

Two commands of one process then never race for the same version of a game, and a
command that names no version is decided on the state the previous one left (group
commit would otherwise put both in one batch, where all but the first lose). The
database still decides every conflict: a command of another process is kept out of a
version by the unique (game, seq) key, and the service decides again a command that
lost to one. Games do not wait for each other."""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..engine.errors import Busy

BUSY = "the game is busy with other commands; nothing was written, send again"


@dataclass
class _Queue:
    lock: threading.Lock = field(default_factory=threading.Lock)
    waiting: int = 0  # commands holding or waiting for the lock; the queue goes at 0


class GameQueues:
    """A queue per game, kept while some command holds or waits for it."""

    def __init__(self) -> None:
        self._queues: dict[str, _Queue] = {}
        self._guard = threading.Lock()

    @contextmanager
    def head(self, game_id: str, *, deadline: float) -> Iterator[None]:
        """At the head of the game's queue; Busy (nothing done) if not there by
        `deadline` (time.monotonic())."""
        with self._guard:
            queue = self._queues.setdefault(game_id, _Queue())
            queue.waiting += 1
        try:
            if not queue.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise Busy(None, BUSY)
            try:
                yield
            finally:
                queue.lock.release()
        finally:
            with self._guard:
                queue.waiting -= 1
                if not queue.waiting:
                    del self._queues[game_id]

    def __len__(self) -> int:
        """How many games have a queue now."""
        with self._guard:
            return len(self._queues)
