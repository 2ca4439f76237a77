"""The production HTTP server: gunicorn with gevent workers (docs/deployment.md says why).

Each process serves every connection it holds on a greenlet of one event loop: a live
event stream, a client still sending its headers and an idle keep-alive connection each
cost a few kilobytes, not a thread, so thousands of them cannot starve a command. A
request's headers must arrive within the keep-alive time (5 s) or the connection is
closed. Errors gunicorn answers itself, before the app (a request line too long: 414;
headers too large: 431; a malformed request: 400), are JSON like the app's."""

import json
import logging
import os
import resource
from dataclasses import dataclass, replace
from typing import Any

import gevent
from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.workers.ggevent import GeventWorker

from .supervisor import set_parent_death_signal

# the common log format, with the path only: a query string can carry a token
ACCESS_FORMAT = '%(h)s - - %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms'
GUNICORN_CODES = {
    400: "request/invalid",
    403: "auth/forbidden",
    414: "request/uri_too_long",
    417: "request/expectation_failed",
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


def options(settings: Settings) -> dict[str, Any]:
    """gunicorn's settings for ours."""
    return {
        "bind": f"{settings.host}:{settings.port}",
        "workers": settings.processes,
        "worker_class": "referee.server.Worker",
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
        from .app import create_app

        return create_app({"REDIS_URL": os.environ.get("REDIS_URL") or None})


class Worker(GeventWorker):
    """gunicorn's gevent worker whose stop ends the live streams it holds at once, and
    their connections: they never end by themselves, and it would wait its whole graceful
    time (10 s) for them."""

    def handle_exit(self, sig: Any, frame: Any) -> None:
        super().handle_exit(sig, frame)
        gevent.spawn(_close_streams)  # out of the signal handler: it takes locks

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """A request answered while stopping closes its connection (gunicorn ends the
        keep-alive loop on StopIteration): it would wait out the keep-alive time."""
        answered = super().handle_request(listener_name, req, sock, addr)
        if not self.alive:
            raise StopIteration("stopping")
        return answered


def _close_streams() -> None:
    from .live import close_streams  # the app imported it in this process already

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
    from .store import DEFAULT_PATH, open_store

    open_store(os.environ.get("REFEREE_DB", DEFAULT_PATH))


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
