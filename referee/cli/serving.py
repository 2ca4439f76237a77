"""`referee serve` and `referee web`: the HTTP API with its broker and workers, or alone."""

import fcntl
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from ..serve.server import Settings
from ..store import is_postgres
from . import checked_settings, site_address

LOG_LEVELS = ["debug", "info", "warning", "error"]
_HELD: list[Any] = []  # lock files held open while this process runs


def web_options(function):
    """The options of the HTTP server, shared by `serve` and `web`."""
    for option in reversed(
        [
            click.option(
                "--host",
                default=None,
                show_default="127.0.0.1 or $REFEREE_HOST",
            ),
            click.option(
                "--port",
                type=click.IntRange(0, 65535),
                default=None,
                show_default="5000 or $REFEREE_PORT",
            ),
            click.option(
                "--db",
                default=lambda: os.environ.get("REFEREE_DB", "var/referee.db"),
                show_default="var/referee.db or $REFEREE_DB",
                help="The event store: a SQLite file, or a postgresql:// URL (several machines).",
            ),
            click.option(
                "--processes",
                type=click.IntRange(1),
                default=Settings.processes,
                show_default=True,
                help="Web server processes.",
            ),
            click.option(
                "--connections",
                type=click.IntRange(64),
                default=Settings.connections,
                show_default=True,
                help="Connections per web process: live streams, requests, idle ones.",
            ),
            click.option(
                "--timeout",
                type=click.IntRange(1),
                default=Settings.timeout,
                show_default=True,
                help="Seconds before a web process that stops answering is replaced.",
            ),
            click.option(
                "--log-level",
                type=click.Choice(LOG_LEVELS),
                default="info",
                show_default=True,
                help="info: one line per thing that matters and an access log; debug: all.",
            ),
        ]
    ):
        function = option(function)
    return function


@click.command()
@web_options
@click.option(
    "--redis-url",
    default=lambda: os.environ.get("REDIS_URL"),
    show_default="$REDIS_URL, else an embedded Redis beside the database",
    help="Broker for the Celery workers.",
)
@click.option(
    "--workers",
    "worker_count",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Celery worker processes to start beside the API.",
)
def serve(
    host: str | None,
    port: int | None,
    db: str,
    processes: int,
    connections: int,
    timeout: int,
    log_level: str,
    redis_url: str | None,
    worker_count: int,
) -> None:
    """Serve the HTTP API with a Redis broker, workers and the sweeper (embedded by
    default), restarting any of them that dies."""
    from ..runtime.shown import url as masked
    from ..serve import embedded
    from ..serve.supervisor import Supervisor
    from ..store import open_store, shown

    host, port = checked_settings_and_address(host, port)
    logging.basicConfig(
        level=log_level.upper(), format="[%(asctime)s] [%(levelname)s] %(name)s: %(message)s"
    )
    var_dir = embedded.working_folder(db)
    var_dir.mkdir(parents=True, exist_ok=True)
    _one_serve_per_database(db, var_dir)
    open_store(db)  # the tables, made once before the processes that share them start
    redis_child = None
    if not redis_url:
        socket = embedded.redis_socket(var_dir)
        redis_child = embedded.redis_child(var_dir, socket)
        redis_url = f"redis+socket://{socket}"
        os.environ["REFEREE_EMBEDDED_BROKER"] = "on"  # the children's /readyz tells
        if is_postgres(db):
            from ..ops.health import ALONE

            logging.getLogger("referee.serve").warning("%s", ALONE)
    # the store reaches the web server in its environment (REFEREE_DB), never on its
    # command line, which every user of the machine may read (ps) with any password in it
    web = [sys.executable, "-m", "referee", "web", "--host", host, "--port", str(port)]
    web += ["--processes", str(processes), "--connections", str(connections)]
    web += ["--timeout", str(timeout), "--log-level", log_level]
    supervisor = Supervisor(
        embedded.served_children(
            db=db,
            broker=redis_url,
            web=web,
            workers=worker_count,
            loglevel=log_level.upper(),
            redis_child=redis_child,
        )
    )
    signal.signal(signal.SIGTERM, lambda *_: setattr(supervisor, "stopping", True))
    signal.signal(signal.SIGINT, lambda *_: setattr(supervisor, "stopping", True))
    try:
        supervisor.start()
        home = site_address(host, port)
        click.echo(f"referee: open {home} in a browser to start a game and moderate it")
        click.echo(f"referee: API on {home}games, its docs at {home}docs")
        click.echo(
            f"referee: store {shown(db)}; broker {masked(redis_url)};"
            f" {worker_count} worker process(es)"
        )
        supervisor.run()
    finally:
        supervisor.stop()


def checked_settings_and_address(host: str | None, port: int | None) -> tuple[str, int]:
    """The settings checked (checked_settings), and the address to serve on: the options',
    else REFEREE_HOST's and REFEREE_PORT's, else 127.0.0.1:5000."""
    from ..ops.settings import SERVER, read

    checked_settings()
    given = read(SERVER)
    return host or given.get("host", "127.0.0.1"), given.get("port", 5000) if port is None else port


def _one_serve_per_database(db: str, var_dir: Path) -> None:
    """Hold `<database>.serve.lock` (a PostgreSQL store: `serve.lock` in the working
    folder, one serve per machine) for as long as this process runs (the kernel lets go
    when it ends, however it ends); refuse to start if another `referee serve` holds it."""
    path = var_dir / "serve" if is_postgres(db) else Path(db).resolve()
    lock = path.with_name(path.name + ".serve.lock").open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise click.ClickException(f"another `referee serve` is running on {path}") from None
    _HELD.append(lock)


@click.command()
@web_options
def web(
    host: str | None,
    port: int | None,
    db: str,
    processes: int,
    connections: int,
    timeout: int,
    log_level: str,
) -> None:
    """Serve the HTTP API alone (gunicorn): Redis and the workers run elsewhere (REDIS_URL)."""
    from ..ops.settings import APP, SERVER, read
    from ..serve.server import serve as serve_http

    host, port = checked_settings_and_address(host, port)
    os.environ["REFEREE_DB"] = db
    edges = {k: v for k, v in read(SERVER).items() if k not in ("host", "port")}
    if read(APP).get("PROXIES") and "per_client" not in edges:
        edges["per_client"] = None  # every connection is the proxy's: it caps each client
    settings = Settings(
        host=host,
        port=port,
        processes=processes,
        connections=connections,
        timeout=timeout,
        loglevel=log_level,
        **edges,
    )
    serve_http(settings)
