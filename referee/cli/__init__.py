"""The `referee` command: serve, worker, bot-play; `replay` and its subcommands in .replay;
`store copy`, `backup` and `restore` in .store."""

import sys

if sys.argv[1:2] == ["web"]:
    # the web server runs on gevent (referee/server.py): the standard library is patched
    # before anything imports it, so no module holds an unpatched socket, lock or ssl
    from gevent import monkey

    monkey.patch_all()

import fcntl  # noqa: E402
import json
import logging
import os
import signal
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.progress import track

from .. import games  # noqa: F401  (registers the rulesets)
from ..engine import registry
from ..engine.errors import RefereeError
from ..server import Settings
from ..store import is_postgres
from .dispute import diff, dispute
from .replay import replay
from .store import backup, restore, store

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
LOG_LEVELS = ["debug", "info", "warning", "error"]
_HELD: list[Any] = []  # lock files held open while this process runs
BOT_EPOCH = 946_684_800  # 2000-01-01T00:00:00Z, where the bots' logical clock starts


@click.group()
@click.version_option(package_name="referee")
def main() -> None:
    """referee: an event-sourced referee for horse-racing games."""


def web_options(function):
    """The options of the HTTP server, shared by `serve` and `web`."""
    for option in reversed(
        [
            click.option(
                "--host",
                default=lambda: os.environ.get("REFEREE_HOST", "127.0.0.1"),
                show_default="127.0.0.1 or $REFEREE_HOST",
            ),
            click.option(
                "--port",
                type=int,
                default=lambda: int(os.environ.get("REFEREE_PORT", "5000")),
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


@main.command()
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
    host: str,
    port: int,
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
    from .. import embedded
    from ..store import open_store
    from ..supervisor import Supervisor

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
    web = [sys.executable, "-m", "referee", "web", "--db", db, "--host", host, "--port", str(port)]
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
        click.echo(f"referee: store {db}; broker {redis_url}; {worker_count} worker process(es)")
        supervisor.run()
    finally:
        supervisor.stop()


def site_address(host: str, port: int) -> str:
    """The home page's address for a browser on this machine: a server listening on every
    address (0.0.0.0, ::) is reached at the loopback one."""
    shown = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in shown:  # an IPv6 address is written in brackets
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


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


@main.command()
@web_options
def web(
    host: str, port: int, db: str, processes: int, connections: int, timeout: int, log_level: str
) -> None:
    """Serve the HTTP API alone (gunicorn): Redis and the workers run elsewhere (REDIS_URL)."""
    from ..server import serve as serve_http

    os.environ["REFEREE_DB"] = db
    settings = Settings(
        host=host,
        port=port,
        processes=processes,
        connections=connections,
        timeout=timeout,
        loglevel=log_level,
    )
    serve_http(settings)


@main.command()
@click.option(
    "--redis-url",
    default=lambda: os.environ.get("REDIS_URL", DEFAULT_BROKER),
    show_default=f"$REDIS_URL or {DEFAULT_BROKER}",
)
@click.option(
    "--db",
    default=lambda: os.environ.get("REFEREE_DB", "var/referee.db"),
    show_default="var/referee.db or $REFEREE_DB",
    help="The event store: a SQLite file or a postgresql:// URL (rounds append to it).",
)
@click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True)
@click.option(
    "--queues",
    default="rounds,celery",
    show_default=True,
    help="`rounds` (resolving rounds: needs the store, so the SQLite file's machine, or any "
    "machine that reaches the PostgreSQL server) and `celery` (self-contained tasks: any machine).",
)
@click.option(
    "--beat/--no-beat",
    default=False,
    show_default=True,
    help="Also run the sweeper of overdue rounds (run it in exactly one worker).",
)
def worker(redis_url: str, db: str, concurrency: int, queues: str, beat: bool) -> None:
    """Run a Celery worker on a shared Redis (this machine or another)."""
    os.environ["REDIS_URL"], os.environ["REFEREE_DB"] = redis_url, db
    from workers.worker import celery

    from .. import embedded

    argv = ["worker", "--loglevel", "INFO", "--concurrency", str(concurrency), "-Q", queues]
    if beat:
        schedule = embedded.working_folder(db) / "celerybeat-schedule"
        argv += ["--beat", "--schedule", str(schedule)]
    celery.worker_main(argv)


@main.command("bot-play")
@click.argument("ruleset")
@click.option("--games", "count", type=click.IntRange(1), default=1, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Game i is seeded with SEED/i.")
@click.option("--players", type=int, default=None, help="Players per game [the ruleset's default].")
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Directory for the JSONL logs [var/bot-play/RULESET].",
)
@click.option("--db", default=None, help="SQLite file to play in [a temporary file].")
def bot_play(ruleset, count, seed, players, options_json, out, db) -> None:
    """Random legal bots play COUNT games through the engine and store; one log per game."""
    from ..bots import play
    from ..service import Referee
    from ..store import LogicalClock, open_store

    rules = _ruleset_or_exit(ruleset)
    seats = players or default_players(rules)
    options = _json_or_exit(options_json, "--options")
    out_dir = Path(out or f"var/bot-play/{ruleset}")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(db or Path(tmp) / "bot-play.db", clock=LogicalClock())
        referee = Referee(store, clock=lambda: BOT_EPOCH)  # same command line, same bytes
        names = [f"bot{s}" for s in range(seats)]
        for i in track(range(count), description=f"{ruleset} x{count}", transient=True):
            game_id = f"{ruleset}-{seed}-{i}"
            try:
                play(referee, ruleset, names, seed=f"{seed}/{i}", options=options, game_id=game_id)
            except RefereeError as exc:
                raise click.ClickException(f"{exc.code}: {exc.message}") from None
            (out_dir / f"{game_id}.jsonl").write_bytes(store.log_lines(game_id))
    click.echo(f"{count} {ruleset} games written to {out_dir}")


def default_players(rules) -> int:
    """The table a ruleset is usually played at: DEFAULT_PLAYERS, else its minimum."""
    return getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS)


def _ruleset_or_exit(ruleset: str):
    try:
        return registry.get(ruleset)
    except RefereeError as exc:
        raise click.ClickException(f"{exc.message}; known: {', '.join(registry.names())}") from None


def _json_or_exit(text: str, option: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint=option) from None
    if not isinstance(value, dict):
        raise click.BadParameter("must be a JSON object", param_hint=option)
    return value


replay.add_command(diff)
main.add_command(replay)
main.add_command(dispute)
main.add_command(store)
main.add_command(backup)
main.add_command(restore)
