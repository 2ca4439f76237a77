"""The `referee` command: serve, bot-play, replay verify, replay show."""

import json
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
from rich.progress import track

from . import games  # noqa: F401  (registers the rulesets)
from .engine import game, registry
from .engine.errors import RefereeError
from .engine.events import MODERATOR

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
BOT_EPOCH = 946_684_800  # 2000-01-01T00:00:00Z, where the bots' logical clock starts


@click.group()
@click.version_option(package_name="referee")
def main() -> None:
    """referee: an event-sourced referee for horse-racing games."""


@main.command()
@click.option(
    "--host",
    default=lambda: os.environ.get("REFEREE_HOST", "127.0.0.1"),
    show_default="127.0.0.1 or $REFEREE_HOST",
)
@click.option(
    "--port",
    type=int,
    default=lambda: int(os.environ.get("REFEREE_PORT", "5000")),
    show_default="5000 or $REFEREE_PORT",
)
@click.option(
    "--db",
    default=lambda: os.environ.get("REFEREE_DB", "var/referee.db"),
    show_default="var/referee.db or $REFEREE_DB",
    help="SQLite file of the event store.",
)
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
def serve(host: str, port: int, db: str, redis_url: str | None, worker_count: int) -> None:
    """Serve the HTTP API with a Redis broker and a worker (embedded by default)."""
    from . import embedded
    from .app import create_app

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # so the children are stopped
    var_dir = Path(db).resolve().parent
    with embedded.redis_url(var_dir, redis_url) as broker:
        with embedded.workers(worker_count, broker=broker, db=db):
            app = create_app({"REFEREE_DB": db, "REDIS_URL": broker})
            click.echo(f"referee: store {db}; broker {broker}; {worker_count} worker(s)")
            click.echo(f"referee: API on http://{host}:{port} (docs at /docs)")
            app.run(host=host, port=port, threaded=True, use_reloader=False)


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
    help="SQLite file of the event store (resolving rounds appends to it).",
)
@click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True)
@click.option(
    "--queues",
    default="rounds,celery",
    show_default=True,
    help="`rounds` (resolving rounds: needs the SQLite file, so the referee node only) "
    "and `celery` (self-contained tasks: any machine).",
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

    argv = ["worker", "--loglevel", "INFO", "--concurrency", str(concurrency), "-Q", queues]
    if beat:
        argv += ["--beat", "--schedule", str(Path(db).resolve().parent / "celerybeat-schedule")]
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
    from .bots import play
    from .service import Referee
    from .store import EventStore, LogicalClock

    rules = _ruleset_or_exit(ruleset)
    seats = players or default_players(rules)
    options = _json_or_exit(options_json, "--options")
    out_dir = Path(out or f"var/bot-play/{ruleset}")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(db or Path(tmp) / "bot-play.db", clock=LogicalClock())
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


@main.group()
def replay() -> None:
    """Check and inspect exported game logs, offline."""


@replay.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--workers",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Fan the logs out as Celery tasks to N worker processes started here.",
)
@click.option(
    "--redis-url",
    default=None,
    help="The broker for --workers [an embedded Redis]; workers elsewhere on it help too.",
)
def replay_verify(paths, workers, redis_url) -> None:
    """Verify logs (files, or directories of *.jsonl): chain, seqs, state hashes, seed,
    every random outcome and sealed order re-derived, the outcome."""
    files = log_files(paths)
    whole_dirs = any(Path(p).is_dir() for p in paths)
    tally: dict[str, list[int]] = {}
    bad = 0
    reports = _verify_on_workers(files, workers, redis_url) if workers else _verify_here(files)
    for path, report in track(
        reports, total=len(files), description="verifying", transient=True, disable=not whole_dirs
    ):
        counts = tally.setdefault(report["ruleset"] or "?", [0, 0, 0])
        counts[0 if report["valid"] else 1] += 1
        counts[2] += report["events"]
        if not report["valid"]:
            bad += 1
            click.echo(f"INVALID {path}: seq {report['seq']}: {report['reason']}")
        elif not whole_dirs:
            note = f" ({'; '.join(report['notes'])})" if report["notes"] else ""
            click.echo(f"ok      {path}: {report['events']} events{note}")
    if whole_dirs:
        _print_tally(tally)
    click.echo(f"{len(files) - bad} valid, {bad} invalid")
    sys.exit(1 if bad else 0)


def _verify_here(files: list[Path]) -> Iterator[tuple[Path, dict]]:
    from replays.verify import verify_file
    from workers.tasks import report_of

    for path in files:
        yield path, report_of(verify_file(path))


def _verify_on_workers(
    files: list[Path], count: int, redis_url: str | None
) -> Iterator[tuple[Path, dict]]:
    """The logs shipped whole, in batches, to `referee.verify_logs` on `count` local
    workers (and any others on the same Redis)."""
    from workers.celery_app import make_celery

    from . import embedded

    size = max(1, min(50, len(files) // (count * 8)))  # a few batches per worker
    batches = [files[i : i + size] for i in range(0, len(files), size)]
    with tempfile.TemporaryDirectory() as tmp:
        with embedded.redis_url(Path(tmp), redis_url) as broker:
            unused = str(Path(tmp) / "unused.db")  # verifying needs no store
            with embedded.workers(count, broker=broker, db=unused, beat=False, loglevel="WARNING"):
                celery = make_celery(broker)
                sent = [_send(celery, batch) for batch in batches]
                for batch, result in zip(batches, sent, strict=True):
                    reports = result if isinstance(result, list) else result.get(timeout=3600)
                    yield from zip(batch, reports, strict=True)


def _send(celery, batch: list[Path]):
    """The task verifying a batch of logs; a batch with a file that is not UTF-8 is
    verified here instead (the verifier names where it breaks; tasks carry text only)."""
    from replays.verify import verify_file
    from workers.tasks import report_of

    try:
        texts = [path.read_bytes().decode("utf-8") for path in batch]
    except UnicodeDecodeError:
        return [report_of(verify_file(path)) for path in batch]
    return celery.send_task("referee.verify_logs", args=[texts])


def log_files(paths: tuple[str, ...]) -> list[Path]:
    """The files named, and every *.jsonl under the directories named, sorted."""
    found: list[Path] = []
    for path in map(Path, paths):
        found += sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
    return found


def _print_tally(tally: dict[str, list[int]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="replay verify")
    for column in ("ruleset", "valid", "invalid", "events"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    for ruleset, (valid, invalid, events) in sorted(tally.items()):
        table.add_row(ruleset, str(valid), str(invalid), f"{events:,}")
    Console().print(table)


@replay.command("show")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", "at", type=click.IntRange(1), default=None, help="Seq [the last].")
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(0),
    default=None,
    help="Instead of --at: just after this round's resolution (games in rounds).",
)
@click.option("--seat", type=int, default=None, help="Show this seat's view [the full state].")
def replay_show(file, at, round_number, seat) -> None:
    """The state (or a seat's view) after event AT, or after round ROUND was resolved."""
    from replays.log import LogLineError, read

    try:
        events = read(file)
    except LogLineError as exc:
        raise click.ClickException(exc.reason) from None
    if at is not None and round_number is not None:
        raise click.ClickException("give --at or --round, not both")
    if round_number is not None:
        at = resolved_at(events, round_number)
    at = at or len(events)
    if at > len(events):
        raise click.ClickException(f"the log has {len(events)} events, no seq {at}")
    state = game.fold(events[:at])
    if seat is not None and seat not in range(len(state["players"])):
        raise click.ClickException(f"no seat {seat}: seats are 0-{len(state['players']) - 1}")
    shown = game.view(state, MODERATOR if seat is None else seat)
    click.echo(json.dumps(shown, indent=2, sort_keys=True))


def resolved_at(events: list[dict], round_number: int) -> int:
    """The seq of the last event of the batch that resolved a round."""
    starts = [
        i
        for i, e in enumerate(events)
        if e["type"] == "OrdersCounted" and e["payload"].get("round") == round_number
    ]
    if not starts:
        raise click.ClickException(f"round {round_number} is not resolved in this log")
    end = starts[0] + 1
    while end < len(events) and events[end]["command"] is None:
        end += 1
    return events[end - 1]["seq"]


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
