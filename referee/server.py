"""The production HTTP server: gunicorn with threaded workers (docs/deployment.md says why).

Each process answers requests on a pool of threads; a live event stream holds one thread
while it is open, so the threads bound the streams a process can hold. Connections that
send nothing wait in the process's poller, not on a thread, and are closed after the
keep-alive timeout. Errors gunicorn answers itself, before the app (a request line too
long: 414; headers too large: 431; a malformed request: 400), are JSON like the app's."""

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

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
    threads: int = 200  # so a process holds some 200 streams at once
    connections: int = 1000  # per process: accepted, idle or busy
    timeout: int = 30  # a request, and a process that stops answering its parent
    keepalive: int = 5  # seconds an idle connection is kept
    loglevel: str = "info"
    accesslog: bool = True


def options(settings: Settings) -> dict[str, Any]:
    """gunicorn's settings for ours."""
    return {
        "bind": f"{settings.host}:{settings.port}",
        "workers": settings.processes,
        "worker_class": "gthread",
        "threads": settings.threads,
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
    processes making them at once on a new file can find it locked and fail to boot."""
    if server.app.app is not None:  # another app (bench/web.py's baseline)
        return
    from .app import DEFAULTS
    from .store import EventStore

    EventStore(os.environ.get("REFEREE_DB", DEFAULTS["REFEREE_DB"]))


def _post_fork(server: Any, worker: Any) -> None:
    """A web process dies with the gunicorn process that started it."""
    import signal

    set_parent_death_signal(signal.SIGKILL)


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
    Server(settings).run()
