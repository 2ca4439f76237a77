"""A bounded, thread-safe store of values used lately: the least recently used forgotten.

For what is derived once and never changes under its key (a board drawn at a seq, a log
on the replay's stage keyed by its last hash)."""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any


class Recent:
    """Up to `size` values by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._held: OrderedDict[Hashable, Any] = OrderedDict()
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
            while len(self._held) > self.size:
                self._held.popitem(last=False)

    def held(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """The value kept under `key`, built (outside the lock) and kept when missing."""
        value = self.get(key)
        if value is None:
            value = build()
            self.put(key, value)
        return value
