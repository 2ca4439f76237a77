"""Long work on the CPU beside a web process's event loop, not in it.

A web process serves every connection on one gevent loop (referee/serve/server.py): while one
request verifies a big log or draws a board, nothing else in that process would move.
Pure work of that size (it touches no store, no socket, no lock of the loop's) runs on
a native thread of gevent's pool instead, and the interpreter passes between it and the
loop every few milliseconds, so streams and commands go on meanwhile. So does a batch of
appends while the disk flushes it (store/contract.py). The pool is bounded (gevent's
default, 10 threads a process): more such requests wait their turn. Outside a gevent
process (the tests, the workers, the command line) the work runs in place."""

import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

Result = TypeVar("Result")


def beside_loop(work: Callable[..., Result], *args: object) -> Result:
    """work(*args), on a native thread when this process runs on gevent's loop. A greenlet
    killed while it waits (a server stopping) waits on until the work ends: what the work
    holds, a transaction, is never taken up by another while it still runs."""
    if not _on_gevent():
        return work(*args)
    from gevent import get_hub

    hub = get_hub()
    running = hub.threadpool.spawn(_beside, hub, work, *args)
    try:
        raised, value = running.get()
    except BaseException:
        while not running.ready():
            try:
                running.wait()
            except BaseException:  # noqa: BLE001, S112 - killed again: still wait
                continue
        raise
    if raised:
        raise value
    return value


def on_loop(call: Callable[..., object], *args: object) -> None:
    """call(*args) on the loop: at once there; from beside it, in a greenlet of its own
    once the loop next runs (a call may wait for a lock, which the loop's own callbacks
    may not). What the work beside the loop logs goes through here: the logging module's
    locks are the loop's, and a native thread that takes one can leave a greenlet waiting
    for it unwoken."""
    hub = getattr(_BESIDE, "hub", None)
    if hub is None:
        call(*args)
    else:
        from gevent import spawn

        hub.loop.run_callback_threadsafe(spawn, call, *args)


def pause(seconds: float) -> None:
    """Sleep: on the loop, the loop serves meanwhile; beside it, this thread alone sleeps
    (gevent's sleep there would start a loop of the thread's own)."""
    if getattr(_BESIDE, "hub", None) is not None:
        _native_sleep()(seconds)
    else:
        time.sleep(seconds)


def os_thread_local() -> threading.local:
    """Storage per OS thread, even in a process where gevent made `threading.local` per
    greenlet (a web process): a connection per greenlet would be a connection per open
    stream."""
    if "gevent.monkey" in sys.modules:
        from gevent import monkey

        return monkey.get_original("threading", "local")()
    return threading.local()


def _beside(hub: Any, work: Callable[..., Result], *args: Any) -> tuple[bool, Any]:
    """(raised, the result or the exception): an exception is handed back to be raised
    in the greenlet that waits, as if the work ran there. Raised here, gevent's pool
    would log it with its traceback first, a client's bad log among them."""
    _BESIDE.hub = hub
    try:
        return False, work(*args)
    except Exception as exc:  # noqa: BLE001 - raised again by the caller
        return True, exc
    finally:
        _BESIDE.hub = None


def _native_sleep() -> Callable[[float], None]:
    from gevent import monkey

    return monkey.get_original("time", "sleep")


def _on_gevent() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


_BESIDE = os_thread_local()  # .hub: the loop a native thread works beside, meanwhile
