"""Live event streams: a game's log grew, and every stream on it, in any process, hears.

The news is only "game G is at seq N": nothing of what happened. Each stream then reads
the new events from the store and redacts them for its own viewer, so Redis never holds
anything a viewer may not see. A process tells its own streams at once (the Hub), and
the other processes through Redis pub/sub (the Herald): a thread publishes, a thread
listens, and neither ever blocks a command. With Redis gone, streams still catch up:
each one looks at the store every STREAM_WAKE seconds anyway."""

import logging
import os
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import redis

from .health import broker_client

log = logging.getLogger(__name__)

CHANNEL = "referee:appended"
STREAM_WAKE = 15.0  # seconds between a stream's looks at the store with no news (a keep-alive)
LISTEN_WAIT = 5.0  # seconds a new stream waits, at most, for its process to be listening
RECONNECT_MOST = 30.0  # the listener's backoff ceiling while Redis is gone


class Hub:
    """This process's streams wait here for a game's log to pass a seq."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._versions: dict[str, int] = {}

    def appended(self, game_id: str, seq: int) -> None:
        with self._changed:
            if seq > self._versions.get(game_id, 0):
                self._versions[game_id] = seq
                self._changed.notify_all()

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """True once news says the game is past `after`; False after `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self._versions.get(game_id, 0) > after, timeout)


class Herald:
    """Tells the Hub of this process and, through Redis, the Hubs of all the others."""

    def __init__(self, hub: Hub, broker: str | None = None) -> None:
        self.hub = hub
        self.broker = broker
        self._outbox: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self._threads: tuple[int, list[threading.Thread]] | None = None
        self._lock = threading.Lock()
        self._listening = threading.Event()  # this process's listener is subscribed

    def announce(self, game_id: str, seq: int) -> None:
        """A game's log is at `seq` now (called after the commit; returns at once)."""
        self.hub.appended(game_id, seq)
        if self.broker is not None:
            self._outbox.put((game_id, seq))
            self.start()

    def start(self, *, wait: float = 0.0) -> None:
        """The publisher and listener threads of this process (a forked process starts
        its own on first use). A stream waits up to `wait` seconds for the listener to be
        subscribed, so news published once it is open cannot pass this process by; a
        command never waits."""
        if self.broker is None:
            return
        self._started()
        if wait:
            self._listening.wait(wait)

    def _started(self) -> None:
        with self._lock:
            held = self._threads
            if held is not None and held[0] == os.getpid():
                return
            self._listening = threading.Event()
            threads = [
                threading.Thread(target=self._publish, name="herald-publish", daemon=True),
                threading.Thread(target=self._listen, name="herald-listen", daemon=True),
            ]
            for thread in threads:
                thread.start()
            self._threads = (os.getpid(), threads)

    def _publish(self) -> None:
        assert self.broker is not None
        while True:
            game_id, seq = self._outbox.get()
            try:
                broker_client(self.broker).publish(CHANNEL, orjson.dumps([game_id, seq]))
            except redis.RedisError as exc:  # streams elsewhere catch up by their wake-up
                log.debug("news of game %s not published (%s)", game_id, type(exc).__name__)

    def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                for game_id, seq in self._news():
                    self.hub.appended(game_id, seq)
                    delay = 0.5
            except (redis.RedisError, OSError) as exc:
                log.debug("listening for news: %s; again in %.1f s", type(exc).__name__, delay)
            time.sleep(delay)
            delay = min(RECONNECT_MOST, delay * 2)

    def _news(self) -> Iterator[tuple[str, int]]:
        assert self.broker is not None
        pubsub = broker_client(self.broker, timeout=None).pubsub()
        try:
            pubsub.subscribe(CHANNEL)
            while True:
                message = pubsub.get_message(timeout=STREAM_WAKE)
                if message is None:
                    continue
                if message["type"] == "subscribe":  # Redis confirms: news reaches us now
                    self._listening.set()
                elif message["type"] == "message":
                    yield _parsed(message["data"])
        finally:
            pubsub.close()


def _parsed(data: Any) -> tuple[str, int]:
    game_id, seq = orjson.loads(data)
    return str(game_id), int(seq)
