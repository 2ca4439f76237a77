"""What an operator (or a supervisor) asks of a running service: is it alive, and is it
ready: the database takes writes, its disk has room, the broker answers, a worker swept
the rounds lately, and no round waits long past its deadline."""

import time
from functools import lru_cache
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..store import EventStore
from .settings import floor_bytes

# a store other nodes may share, and what a node on it with a broker of its own is told
SHARED = ("postgresql://", "postgres://")
ALONE = (
    "this node runs its own embedded Redis on a store other nodes share: its pages hear"
    " the other nodes' moves only at their next look at the store (STREAM_WAKE), and the"
    " sweeper's beat is not shared; give every node the same REDIS_URL"
)
SWEEP_KEY = "referee:sweep:last"  # unix seconds of the last sweep a worker ran
PROBE_SECONDS = 1.0  # how long a readiness probe waits on the broker
# free space on the database's file system below which the disk check warns (bytes, a
# size such as "1GiB", or a share of the file system such as "5%")
DISK_FLOOR = "512MiB"


@lru_cache(maxsize=8)
def broker_client(url: str, *, timeout: float | None = PROBE_SECONDS) -> redis.Redis:
    """A Redis client for a broker URL (`redis+socket://PATH` is kombu's unix socket),
    that gives up after `timeout` seconds (None: a listener's, that waits) and never
    retries; one per URL, its pool of connections kept between sweeps and probes (a
    forked process opens its own)."""
    options: dict[str, Any] = {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout or PROBE_SECONDS,
        "retry": Retry(NoBackoff(), 0),
    }
    if timeout is None:  # a connection that waits is pinged, so a dead one is noticed
        options["health_check_interval"] = 30
    if url.startswith("redis+socket://"):
        return redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"), **options)
    return redis.Redis.from_url(url, **options)


def record_sweep(url: str, now: int, *, keep_seconds: int = 3600) -> None:
    """A worker's mark that it swept the rounds at `now`."""
    broker_client(url).set(SWEEP_KEY, now, ex=keep_seconds)


def readiness(
    store: EventStore,
    broker: str | None,
    *,
    sweep_seconds: float,
    disk_floor: int | str = DISK_FLOOR,
    now: int | None = None,
    alone: bool = False,
) -> tuple[bool, dict[str, Any]]:
    """(ready, checks): each check {"ok": bool, ...what it found}; `alone`: the broker is
    this node's own (embedded), a warning on a store other nodes share."""
    now = int(time.time()) if now is None else now
    late = max(30, int(sweep_seconds * 5))  # a sweep or a round this late is a failure
    checks = {"database": _database(store)}
    checks["disk"] = _disk(store, disk_floor)  # after the probe, which may clear or set it
    if broker is None:
        checks["broker"] = {"ok": True, "configured": False}
    else:
        checks["broker"], last = _broker(broker)
        checks["sweeper"] = _sweeper(last, now, late)
        if alone and store.where.startswith(SHARED):
            checks["broker"].update(degraded=True, warning=ALONE)
    checks["rounds"] = _rounds(store, now, late)
    return all(check["ok"] for check in checks.values()), checks


def _database(store: EventStore) -> dict[str, Any]:
    try:
        store.probe_write()
    except Exception as exc:  # noqa: BLE001 - any failure is what the probe reports
        return {"ok": False, "error": _said(exc)}
    return {"ok": True}


def _disk(store: EventStore, floor: int | str) -> dict[str, Any]:
    """Fails while the disk refuses writes (full, read-only, gone, failing); warns
    (`degraded`, still ok) when its free space is below the floor."""
    check: dict[str, Any] = {"ok": store.trouble is None}
    if store.trouble is not None:
        check["error"] = f"{store.trouble.code}: {store.trouble.message}"
    space = store.disk_space()
    if space is not None:
        free, total = space
        least = floor_bytes(floor, total)
        check.update(free_bytes=free, floor_bytes=least, degraded=free < least)
    return check


def _broker(url: str) -> tuple[dict[str, Any], int | None]:
    try:
        client = broker_client(url)
        client.ping()
        last = client.get(SWEEP_KEY)
    except redis.RedisError as exc:
        return {"ok": False, "error": _said(exc)}, None
    return {"ok": True}, int(last) if last is not None else None


def _sweeper(last: int | None, now: int, late: int) -> dict[str, Any]:
    if last is None:
        return {"ok": False, "error": "no worker has swept the rounds lately"}
    ago = max(0, now - last)
    return {"ok": ago <= late, "last_sweep_seconds_ago": ago}


def _rounds(store: EventStore, now: int, late: int) -> dict[str, Any]:
    oldest = store.oldest_overdue(now)
    if oldest is None:
        return {"ok": True, "overdue": 0}
    count, deadline = oldest
    return {"ok": now - deadline <= late, "overdue": count, "oldest_seconds": now - deadline}


def _said(exc: Exception) -> str:
    """An error's class and first line (no paths or secrets beyond what it says)."""
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".strip()
