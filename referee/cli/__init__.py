"""The `referee` command: worker, bot-play; `serve` and `web` in .serving, `replay` and its
subcommands in .replay, `dispute` in .dispute, `store copy`, `backup` and `restore` in
.store, each imported only when it runs.

The top of the layers (docs/architecture.md): it may import everything, and nothing
imports it but `python -m referee` and the corpus's scenarios."""

import sys

if sys.argv[1:2] == ["web"]:
    # the web server runs on gevent (referee/serve/server.py): the standard library is patched
    # before anything imports it, so no module holds an unpatched socket, lock or ssl
    from gevent import monkey

    monkey.patch_all()

import json  # noqa: E402
import os
import tempfile
from pathlib import Path

import click

from .lazy import LazyGroup

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
BOT_EPOCH = 946_684_800  # 2000-01-01T00:00:00Z, where the bots' logical clock starts
# each command's module is imported when it runs: `replay verify` needs no web stack
COMMANDS = {
    "serve": "referee.cli.serving:serve",
    "web": "referee.cli.serving:web",
    "replay": "referee.cli.replay:replay",
    "dispute": "referee.cli.dispute:dispute",
    "store": "referee.cli.store:store",
    "backup": "referee.cli.store:backup",
    "restore": "referee.cli.store:restore",
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option(package_name="referee")
def main() -> None:
    """referee: an event-sourced referee for horse-racing games."""


def checked_settings() -> None:
    """Every setting in the environment read before anything starts; a bad one stops the
    command at once, exit status 1, named (docs/deployment.md lists them)."""
    from ..ops.settings import SettingError, check

    try:
        check()
    except SettingError as exc:
        raise click.ClickException(f"setting {exc}") from None


def site_address(host: str, port: int) -> str:
    """The home page's address for a browser on this machine: a server listening on every
    address (0.0.0.0, ::) is reached at the loopback one."""
    shown = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in shown:  # an IPv6 address is written in brackets
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


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
    checked_settings()
    os.environ["REDIS_URL"], os.environ["REFEREE_DB"] = redis_url, db
    from workers.worker import celery

    from ..serve import embedded

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
    from rich.progress import track

    from ..bots import play
    from ..engine.errors import RefereeError
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
    from .. import games  # noqa: F401  (registers the rulesets)
    from ..engine import registry
    from ..engine.errors import RefereeError

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
