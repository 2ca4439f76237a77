"""The one way a test waits: poll a condition until it holds, against a generous bound
that only a failure reaches, and say what was waited for when it gives up. A test never
sleeps and hopes; how fast the machine is decides only how soon the wait ends."""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

BOUND = 120.0  # seconds: only a failure waits this long, on the busiest machine
EVERY = 0.05  # seconds between two looks


def wait_until(
    condition: Callable[[], T], what: str, *, bound: float = BOUND, every: float = EVERY
) -> T:
    """The condition's first truthy value, polled every `every` seconds; AssertionError
    naming `what` (and the last value seen) after `bound` seconds without one."""
    deadline = time.monotonic() + bound
    while True:
        seen = condition()
        if seen:
            return seen
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {bound:g} s for {what}; last saw {seen!r}")
        time.sleep(every)
