"""Live event streams: a game's log grew, and every stream on it, in any process, hears.

The news is only "game G is at seq N": nothing of what happened. Each stream then reads
the new events from the store and redacts them for its own viewer, so Redis never holds
anything a viewer may not see. A process tells its own streams at once (the Hub), and
the other processes through Redis pub/sub (the Herald), on a channel per game: a thread
publishes, a thread listens, and neither ever blocks a command. A process listens only
to the games it holds streams on, so a command nobody watches costs one publish, sent
with others in one round trip. With Redis gone, streams still catch up: each one looks
at the store every STREAM_WAKE seconds anyway."""

import logging
import os
import queue
import random
import socket
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from flask import Response, current_app, request

from .ops.health import broker_client
from .runtime.recent import Recent

log = logging.getLogger(__name__)

CHANNEL = "referee:appended:"  # + a game id: the game's news, its seq
STREAM_WAKE = 15.0  # seconds between a stream's looks at the store with no news (a keep-alive)
LISTEN_WAIT = 5.0  # seconds a new stream waits, at most, for its process to be listening
RECONNECT_MOST = 30.0  # the listener's backoff ceiling while Redis is gone
GATHER_SECONDS = 0.02  # the publisher waits this long for more news to send at once
SHARED_KEPT = 4096  # what the streams of a process read alike, by game, viewer and point


class Hub:
    """This process's streams wait here for a game's log to pass a seq: each game has a
    bell, rung once at its next news and replaced, so a move wakes a thousand streams in
    one broadcast, with no lock for them to queue on as they wake."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._looks: dict[str, int] = {}  # asks to look at the store whatever the seq
        self._bells: dict[str, threading.Event] = {}
        self._waiting: dict[str, int] = {}  # streams waiting per game (the bell goes with the last)
        self._shared = Recent(SHARED_KEPT)
        self.clock: Callable[[], float] = time.monotonic  # what is shared is kept a second
        self.closing = False  # the process is stopping: every stream ends
        _HUBS.add(self)

    def close(self) -> None:
        """End every stream of this hub at once (they return as they wake): a process
        that stops must not wait out its graceful time for streams that never end."""
        with self._lock:
            self.closing = True
            bells = list(self._bells.values())
            self._bells.clear()
        for bell in bells:
            bell.set()

    def appended(self, game_id: str, seq: int) -> None:
        with self._lock:
            if seq <= self._versions.get(game_id, 0):
                return
            self._versions[game_id] = seq
            bell = self._bells.pop(game_id, None)
        if bell is not None:
            bell.set()

    def look(self, game_id: str) -> None:
        """Wake the game's streams to look at the store (news may have been missed)."""
        with self._lock:
            self._looks[game_id] = self._looks.get(game_id, 0) + 1
            bell = self._bells.pop(game_id, None)
        if bell is not None:
            bell.set()

    def shared(self, game_id: str, key: Any, build: Callable[[], Any]) -> Any:
        """What `build()` makes for `key` on this game, made once for every stream that
        asks alike (a thousand spectators woken by one move read the store once): kept
        until news of the game comes, and a second at most, so a stream woken by the
        clock alone, news lost, still reads the store anew."""
        with self._lock:
            mark = (self._versions.get(game_id, 0), self._looks.get(game_id, 0))
        return self._shared.held((game_id, key, mark, int(self.clock())), build)

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """True once news says the game is past `after`, or to look again (or the hub is
        closing); False after `timeout` seconds, less up to a quarter at random: streams
        opened together (a page's many visitors, a flood) do not all wake together ever
        after."""
        timeout *= 1 - random.random() / 4
        with self._lock:
            if self._versions.get(game_id, 0) > after or self.closing:
                return True
            bell = self._bells.setdefault(game_id, threading.Event())
            self._waiting[game_id] = self._waiting.get(game_id, 0) + 1
        try:
            return bell.wait(timeout)
        finally:
            self._left(game_id, bell)

    def _left(self, game_id: str, bell: threading.Event) -> None:
        with self._lock:
            self._waiting[game_id] -= 1
            if self._waiting[game_id]:
                return
            del self._waiting[game_id]
            if self._bells.get(game_id) is bell:
                del self._bells[game_id]


# every hub of this process (one per app), for close_streams
_HUBS: "weakref.WeakSet[Hub]" = weakref.WeakSet()


def close_streams() -> None:
    """Every live stream of this process ends (the process is stopping)."""
    for hub in list(_HUBS):
        hub.close()


class Herald:
    """Tells the Hub of this process and, through Redis, the Hubs of all the others."""

    def __init__(self, hub: Hub, broker: str | None = None) -> None:
        self.hub = hub
        self.broker = broker
        self._outbox: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self._threads: tuple[int, list[threading.Thread]] | None = None
        self._lock = threading.Lock()
        self._watched: dict[str, int] = {}  # game -> streams on it in this process
        self._heard: dict[str, threading.Event] = {}  # game -> its channel is subscribed
        self._control = ""  # this process's listener's own channel: "watch another game"

    def announce(self, game_id: str, seq: int) -> None:
        """A game's log is at `seq` now (called after the commit; returns at once)."""
        self.hub.appended(game_id, seq)
        if self.broker is not None:
            self._outbox.put((game_id, seq))
            self._started()

    @contextmanager
    def watching(self, game_id: str, *, wait: float = LISTEN_WAIT) -> Iterator[None]:
        """While a stream on the game is open here: news of it from the other processes
        reaches this process. Waits up to `wait` seconds for the listener to be
        subscribed, so news published once the stream reads the store cannot pass it by;
        a command never waits."""
        if self.broker is None:
            yield
            return
        self._started()
        with self._lock:
            self._watched[game_id] = self._watched.get(game_id, 0) + 1
            first = self._watched[game_id] == 1
            heard = self._heard.setdefault(game_id, threading.Event())
        try:
            if (first or not heard.is_set()) and self._ask_listener() and not heard.is_set():
                heard.wait(wait)
            yield
        finally:
            with self._lock:
                self._watched[game_id] -= 1
                last = not self._watched[game_id]
                if last:
                    del self._watched[game_id]
            if last:  # the listener unsubscribes from the game
                self._ask_listener()

    def _ask_listener(self) -> bool:
        """Wake this process's listener to subscribe to what is watched now (False when
        Redis cannot be reached: the streams then wake by the clock alone)."""
        assert self.broker is not None
        try:
            broker_client(self.broker).publish(self._control, b"")
        except redis.RedisError as exc:
            log.debug("listener not woken (%s)", type(exc).__name__)
            return False
        return True

    def _started(self) -> None:
        """The publisher and listener threads of this process (a forked process starts
        its own on first use)."""
        with self._lock:
            held = self._threads
            if held is not None and held[0] == os.getpid():
                return
            self._control = f"referee:listener:{uuid.uuid4().hex}"
            self._heard = {}
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
            news = [self._outbox.get()]
            time.sleep(GATHER_SECONDS)  # news that comes meanwhile goes in the same trip
            while not self._outbox.empty():
                news.append(self._outbox.get())
            latest: dict[str, int] = {}
            for game_id, seq in news:
                latest[game_id] = max(seq, latest.get(game_id, 0))
            try:
                pipe = broker_client(self.broker).pipeline(transaction=False)
                for game_id, seq in latest.items():
                    pipe.publish(CHANNEL + game_id, seq)
                pipe.execute()
            except redis.RedisError as exc:  # streams elsewhere catch up by their wake-up
                log.debug("news of %d games not published (%s)", len(latest), type(exc).__name__)

    def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                for game_id, seq in self._news():
                    self.hub.appended(game_id, seq)
                    delay = 0.5
            except (redis.RedisError, OSError, ValueError) as exc:
                # ValueError: redis-py reading a connection closed under it as the broker
                # went away; the listener lives on and subscribes again
                log.debug("listening for news: %s; again in %.1f s", type(exc).__name__, delay)
            with self._lock:
                for heard in self._heard.values():
                    heard.clear()
            time.sleep(delay)
            delay = min(RECONNECT_MOST, delay * 2)

    def _news(self) -> Iterator[tuple[str, int]]:
        assert self.broker is not None
        pubsub = broker_client(self.broker, timeout=None).pubsub()
        try:
            pubsub.subscribe(self._control)
            self._follow(pubsub)
            while True:
                message = pubsub.get_message(timeout=STREAM_WAKE)
                if message is None:
                    continue
                channel = _text(message["channel"])
                if channel == self._control:
                    self._follow(pubsub)
                elif message["type"] == "subscribe":  # Redis confirms: news reaches us now
                    self._subscribed(channel.removeprefix(CHANNEL))
                elif message["type"] == "message":
                    yield channel.removeprefix(CHANNEL), int(message["data"])
        finally:
            pubsub.close()

    def _follow(self, pubsub: Any) -> None:
        """Subscribe to the games watched here now, and from those no longer watched."""
        with self._lock:
            wanted = {CHANNEL + game_id for game_id in self._watched}
        leaving = {_text(channel) for channel in pubsub.pending_unsubscribe_channels}
        held = {_text(channel) for channel in pubsub.channels} - leaving - {self._control}
        if wanted - held:
            pubsub.subscribe(*sorted(wanted - held))
        if held - wanted:
            pubsub.unsubscribe(*sorted(held - wanted))
            with self._lock:
                for channel in held - wanted:
                    self._heard.pop(channel.removeprefix(CHANNEL), None)

    def _subscribed(self, game_id: str) -> None:
        """The game's channel is subscribed: its streams look at the store once more, in
        case news came while it was not (after Redis came back)."""
        with self._lock:
            heard = self._heard.setdefault(game_id, threading.Event())
        heard.set()
        self.hub.look(game_id)


def held_stream(lines: Any) -> Response:
    """A live stream's response, counted against its client's cap (429 past it) until
    the server closes it, however the client went."""
    leave = current_app.extensions["stream_gate"].enter(request.remote_addr or "-")
    answer = Response(
        lines,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
    answer.call_on_close(leave)
    sock = request.environ.get("gunicorn.socket")
    if sock is not None and "gevent.monkey" in sys.modules:
        from gevent import spawn

        watch = spawn(_when_gone, sock, leave)
        answer.call_on_close(watch.kill)  # the connection may serve another request next
    return answer


def _when_gone(sock: Any, leave: Callable[[], None]) -> None:
    """Let a stream's slot go as soon as its client closes the connection: the stream
    itself ends only at its next write (a keep-alive, STREAM_WAKE seconds later), and
    meanwhile its client would be refused a new one. A client that sends anything is
    there still; the socket closed by the server ends the watch too."""
    while True:
        try:
            if sock.recv(1, socket.MSG_PEEK):
                return
        except TimeoutError:
            continue
        except OSError:
            pass
        leave()
        return


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
