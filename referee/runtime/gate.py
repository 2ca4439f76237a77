"""A count per client address of what one web process holds for it, with a cap: live
streams (referee/live.py) and connections (referee/serve/server.py). Only the standard
library and the errors: the web server's parent imports it before gevent patches its
processes."""

import threading
from collections.abc import Callable

from ..engine.errors import TooMany


class Gate:
    """What this process holds per client address (live streams, connections), at most
    `most` each (None: no cap). Counted in the process: a client reaching several web
    processes holds up to `most` on each."""

    def __init__(
        self, most: int | None, *, code: str = "stream/too_many", what: str = "live streams"
    ) -> None:
        self.most, self.code, self.what = most, code, what
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def enter(self, address: str) -> Callable[[], None]:
        """Count a new one of `address`, or TooMany past the cap; the function that lets
        it go (safe to call twice)."""
        with self._lock:
            held = self._held.get(address, 0)
            if self.most is not None and held >= self.most:
                raise TooMany(
                    self.code,
                    f"this address holds {held} {self.what}, the most one may; close one"
                    " or try again later",
                    {"most": self.most},
                )
            self._held[address] = held + 1
        left = threading.Event()

        def leave() -> None:
            with self._lock:
                if left.is_set():
                    return
                left.set()
                self._held[address] -= 1
                if not self._held[address]:
                    del self._held[address]

        return leave

    def held(self, address: str) -> int:
        """What `address` holds here now."""
        with self._lock:
            return self._held.get(address, 0)
