"""A bounded, thread-safe store of values used lately: the least recently used forgotten,
past a count and, for values that may be large, a total weight.

For what is derived once and never changes under its key (a board drawn at a seq, a log
on the replay's stage keyed by its last hash)."""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any


class Recent:
    """Up to `size` values by key, the least recently used dropped first; with `weigh`,
    also at most `most` in weight together (a value heavier than that is held alone)."""

    def __init__(
        self, size: int, *, weigh: Callable[[Any], int] | None = None, most: int = 0
    ) -> None:
        self.size = size
        self.weigh, self.most = weigh, most
        self._held: OrderedDict[Hashable, Any] = OrderedDict()
        self._weights: dict[Hashable, int] = {}
        self._lock = Lock()

    def get(self, key: Hashable) -> Any:
        """The value kept under `key`, or None."""
        with self._lock:
            if key in self._held:
                self._held.move_to_end(key)
            return self._held.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._held[key] = value
            self._held.move_to_end(key)
            self._weights[key] = self.weigh(value) if self.weigh else 0
            while len(self._held) > self.size or self._too_heavy():
                self._weights.pop(self._held.popitem(last=False)[0])

    def _too_heavy(self) -> bool:
        return (
            self.weigh is not None
            and len(self._held) > 1
            and sum(self._weights.values()) > self.most
        )

    def held(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """The value kept under `key`, built (outside the lock) and kept when missing."""
        value = self.get(key)
        if value is None:
            value = build()
            self.put(key, value)
        return value
