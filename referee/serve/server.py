"""The production HTTP server: gunicorn with gevent workers (docs/deployment.md says why).

Each process serves every connection it holds on a greenlet of one event loop: a live
event stream, a client still sending its headers and an idle keep-alive connection each
cost a few kilobytes, not a thread, so thousands of them cannot starve a command. A
request's headers must arrive within the keep-alive time (5 s) or the connection is
closed. Errors gunicorn answers itself, before the app (a request line too long: 414;
headers too large: 431; a malformed request: 400), are JSON like the app's."""

import io
import ipaddress
import json
import logging
import os
import resource
import time
from dataclasses import dataclass, replace
from typing import Any

import gevent
from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http.body import Body
from gunicorn.workers.ggevent import GeventWorker

from ..engine.errors import TooMany, TooSlow
from ..runtime.gate import Gate
from .supervisor import set_parent_death_signal

# the common log format, with the path only: a query string can carry a token
ACCESS_FORMAT = '%(h)s - - %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms'
GUNICORN_CODES = {
    400: "request/invalid",
    403: "auth/forbidden",
    408: "request/body_timeout",
    414: "request/uri_too_long",
    417: "request/expectation_failed",
    429: "request/too_many_connections",
    431: "request/headers_too_large",
    501: "request/not_implemented",
}


@dataclass(frozen=True)
class Settings:
    """What an operator sets (`referee serve --help` names each)."""

    host: str = "127.0.0.1"
    port: int = 5000
    processes: int = 2
    connections: int = 10_000  # per process: streams, requests, idle and half-sent ones
    timeout: int = 30  # a process that stops answering its parent is replaced
    keepalive: int = 5  # seconds for a request's headers, and for an idle connection
    loglevel: str = "info"
    accesslog: bool = True
    # connections one client address holds in each web process (an IPv6 address: its
    # /64); None: no cap (behind a proxy, which is every connection's address)
    per_client: int | None = 128
    # seconds a request's body has to arrive in, and more at the rate below for a large
    # one (a 1 MiB body: 10 + 16 s); None: bodies wait as long as their clients
    body_seconds: float | None = 10.0
    body_rate: int = 64 << 10  # bytes a second


def options(settings: Settings) -> dict[str, Any]:
    """gunicorn's settings for ours."""
    return {
        "bind": f"{settings.host}:{settings.port}",
        "workers": settings.processes,
        "worker_class": "referee.serve.server.Worker",
        "worker_connections": settings.connections,
        "timeout": settings.timeout,
        "graceful_timeout": 10,
        "keepalive": settings.keepalive,
        "limit_request_line": 8190,
        "accesslog": "-" if settings.accesslog else None,
        "access_log_format": ACCESS_FORMAT,
        "errorlog": "-",
        "loglevel": settings.loglevel,
        "logger_class": QuietLogger,
        "post_fork": _post_fork,
        "worker_exit": _close_store,
        "on_starting": _make_tables,
        "proc_name": "referee-web",
        "control_socket_disable": True,  # no socket in $HOME shared by every server
    }


class Server(BaseApplication):
    """gunicorn serving create_app() (REFEREE_DB and REDIS_URL from the environment)."""

    def __init__(self, settings: Settings, app: Any = None) -> None:
        self.settings = settings
        self.app = app  # another WSGI app on the same settings (bench/web.py's baseline)
        super().__init__()

    def load_config(self) -> None:
        for key, value in options(self.settings).items():
            if key in self.cfg.settings:  # a setting this gunicorn has
                self.cfg.set(key, value)

    def load(self) -> Any:
        if self.app is not None:
            return self.app
        from ..app import create_app

        return create_app({"REDIS_URL": os.environ.get("REDIS_URL") or None})


class Worker(GeventWorker):
    """gunicorn's gevent worker, with the edges a server facing clients needs itself: a
    cap on the connections of each client address, a request body that must arrive in
    time (read whole before the app sees it: the app never waits on a client), and a
    stop that ends the live streams it holds at once, and their connections (they never
    end by themselves, and it would wait its whole graceful time, 10 s, for them)."""

    def init_process(self) -> None:
        self.edges = getattr(self.app, "settings", Settings())
        self.gate: Gate | None = None  # made on the loop, once gevent patched the locks
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """One connection, counted against its address's cap: past it, 429 and closed."""
        if self.gate is None:
            self.gate = Gate(self.edges.per_client, code=TOO_MANY, what="connections here")
        try:
            leave = self.gate.enter(client_key(addr))
        except TooMany as refused:
            self._refuse(client, 429, "Too Many Requests", refused.message)
            util.close(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            leave()

    def handle_exit(self, sig: Any, frame: Any) -> None:
        super().handle_exit(sig, frame)
        gevent.spawn(_close_streams)  # out of the signal handler: it takes locks

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """A request whose body arrives in time, answered; one answered while stopping
        closes its connection (gunicorn ends the keep-alive loop on StopIteration): it
        would wait out the keep-alive time."""
        try:
            self._timed_body(req)
        except TooSlow as slow:
            self._refuse(sock, 408, "Request Timeout", slow.message)
            raise StopIteration("body not in time") from None
        answered = super().handle_request(listener_name, req, sock, addr)
        if not self.alive:
            raise StopIteration("stopping")
        return answered

    def _timed_body(self, req: Any) -> None:
        """The request's body read against its time (TimedReader); one no larger than
        the app takes of any request is read whole here, before the app sees it, which
        then never waits on a client. A larger one (an import) is read by the app as it
        comes, and TooSlow is its answer, 408, if it comes too slowly."""
        length = getattr(req.body.reader, "length", None)  # None: chunked
        if self.edges.body_seconds is None or length == 0:
            return
        req.body.reader = TimedReader(req.body.reader, self.edges)
        if length is not None and length <= self._most_read_here():
            req.body = Body(io.BytesIO(req.body.read()))

    def _most_read_here(self) -> int:
        return int(getattr(self.wsgi, "config", {}).get("MAX_CONTENT_LENGTH") or 1 << 20)

    def _refuse(self, sock: Any, status: int, reason: str, message: str) -> None:
        """An error answered on a connection about to be closed (a client that sends
        nothing more may never read it)."""
        try:
            write_json_error(sock, status, reason, message)
        except OSError:
            pass


class TimedReader:
    """A request body's reader that must have given `done` bytes within body_seconds
    and done / body_rate seconds more of the request's start; TooSlow otherwise."""

    def __init__(self, reader: Any, edges: Settings) -> None:
        self.reader, self.edges = reader, edges
        self.started, self.done = time.monotonic(), 0

    def read(self, size: int) -> bytes:
        seconds, rate = self.edges.body_seconds or 0.0, self.edges.body_rate
        wanted = min(size, getattr(self.reader, "length", size))  # what is still to come
        left = self.started + seconds + (self.done + wanted) / rate - time.monotonic()
        slow = TooSlow(None, SLOW_BODY.format(seconds, rate >> 10), {})
        with gevent.Timeout(max(0.001, left), slow):
            piece = self.reader.read(size)
        self.done += len(piece)
        return piece


TOO_MANY = "request/too_many_connections"
SLOW_BODY = "the request's body did not arrive in time: {:g} s, and a second more for each {} KiB"


def client_key(addr: Any) -> str:
    """What a connection is counted under: its IPv4 address, its IPv6 address's /64
    (one host is given a whole /64), or nothing for a Unix socket."""
    host = addr[0] if isinstance(addr, tuple) and addr else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _close_streams() -> None:
    from ..live import close_streams  # the app imported it in this process already

    close_streams()


class QuietLogger(Logger):
    """gunicorn's logger; its lines about each worker booting are kept for --log-level
    debug (the supervisor says what matters)."""

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if msg.startswith(("Booting worker", "Worker exiting", "Using worker")):
            self.debug(msg, *args, **kwargs)
        else:
            super().info(msg, *args, **kwargs)


def _make_tables(server: Any) -> None:
    """The store's tables, made once in the parent before the web processes start: two
    processes making them at once on a new file can find it locked and fail to boot. The
    parent imports no more than the store: the web processes patch the standard library
    for gevent when they start, and what the parent imported they inherit unpatched."""
    if server.app.app is not None:  # another app (bench/web.py's baseline)
        return
    from ..store import DEFAULT_PATH, open_store

    open_store(os.environ.get("REFEREE_DB", DEFAULT_PATH))


def _close_store(server: Any, worker: Any) -> None:
    """A web process that ends closes its store (a PostgreSQL pool's connections) while
    its loop still runs: left to the interpreter's end, the pool's threads are reaped
    in a finalized greenlet, with an error in the log at every stop."""
    service = getattr(getattr(worker, "wsgi", None), "extensions", {}).get("referee")
    if service is not None:
        service.store.close()


def _post_fork(server: Any, worker: Any) -> None:
    """A web process dies with the gunicorn process that started it."""
    import signal

    set_parent_death_signal(signal.SIGKILL)


FILES_BESIDE_CONNECTIONS = 256  # the database, its WAL, logs, Redis, the workers' pipes


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files towards `wanted` (never past the
    hard limit, which only the operator raises); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def write_json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it could not read, in the API's error shape."""
    code = GUNICORN_CODES.get(status_int, "server/error")
    message = mesg if status_int < 500 else "internal error"
    body = json.dumps({"error": {"code": code, "message": message, "details": {}}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


util.write_error = write_json_error  # the one function gunicorn writes these errors with


def serve(settings: Settings) -> None:
    """Run the server until SIGTERM or SIGINT."""
    logging.getLogger("referee").setLevel(settings.loglevel.upper())
    Server(within_open_files(settings)).run()


def within_open_files(settings: Settings) -> Settings:
    """The settings with as many connections per process as open files allow: the limit
    is raised first (the web processes inherit it), and the connections lowered, with a
    warning, only where the hard limit is too low."""
    limit = raise_open_files(settings.connections + FILES_BESIDE_CONNECTIONS)
    most = max(64, limit - FILES_BESIDE_CONNECTIONS)
    if settings.connections <= most:
        return settings
    logging.getLogger("referee.server").warning(
        "%d connections per process asked, %d open files allowed: serving %d",
        settings.connections,
        limit,
        most,
    )
    return replace(settings, connections=most)
