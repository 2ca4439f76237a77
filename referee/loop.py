"""Long work on the CPU beside a web process's event loop, not in it.

A web process serves every connection on one gevent loop (referee/server.py): while one
request verifies a big log or draws a board, nothing else in that process would move.
Pure work of that size (it touches no store, no socket, no lock of the loop's) runs on
a native thread of gevent's pool instead, and the interpreter passes between it and the
loop every few milliseconds, so streams and commands go on meanwhile. The pool is
bounded (gevent's default, 10 threads a process): more such requests wait their turn.
Outside a gevent process (the tests, the workers, the command line) the work runs in
place."""

import sys
from collections.abc import Callable
from typing import TypeVar

Result = TypeVar("Result")


def beside_loop(work: Callable[..., Result], *args: object) -> Result:
    """work(*args), on a native thread when this process runs on gevent's loop."""
    if not _on_gevent():
        return work(*args)
    from gevent import get_hub

    return get_hub().threadpool.apply(work, args)


def _on_gevent() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")
