"""`referee store copy`, `referee backup` and `referee restore`: a whole store copied
between backends, backed up while the service runs, checked, and restored."""

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import Progress

from ..engine.errors import RefereeError

DB_HELP = "The event store: a SQLite file or a postgresql:// URL."


def db_option(function):
    """--db as the other commands take it."""
    return click.option(
        "--db",
        default=lambda: os.environ.get("REFEREE_DB", "var/referee.db"),
        show_default="var/referee.db or $REFEREE_DB",
        help=DB_HELP,
    )(function)


@click.group()
def store() -> None:
    """Operations on a whole event store."""


@store.command("copy")
@click.argument("source")
@click.argument("destination")
@click.option(
    "--merge",
    is_flag=True,
    help="Copy into a store that holds games: those there with the same log are skipped "
    "(a copy that stopped goes on so); one there with another log stops the copy.",
)
def store_copy(source: str, destination: str, merge: bool) -> None:
    """Copy every game from SOURCE to DESTINATION (each a SQLite file or a postgresql://
    URL): its log byte for byte and its rows in every table, one game at a time, then
    the uploads; then verify every log in DESTINATION and its last hash against SOURCE.

    SOURCE must be a store (nothing is made there) and is read as it was when the copy
    began. A DESTINATION that holds a game is refused, nothing written, without --merge."""
    from ..store import open_store, shown
    from ..store.ops.copy import copy_store
    from ..store.ops.logs import verify_logs

    with refusals():
        origin = open_store(source, create=False)
        target = open_store(destination)
        with progress() as step:
            copied = copy_store(origin, target, merge=merge, step=step)
            verified = verify_logs(target.query, copied.tails, step=step)
    skipped = f"; {copied.skipped} games already there skipped" if copied.skipped else ""
    click.echo(
        f"copied {copied.games} games ({copied.events:,} events) and {copied.uploads} uploads"
        f" from {shown(source)} to {shown(destination)}{skipped}"
    )
    for table, count in copied.stray.items():
        click.echo(f"note: {count} rows of {table} belong to no stored game: not copied")
    verdict(verified, f"{shown(destination)} ({len(copied.tails)} games)", "the source's")


@click.command()
@click.argument("dest", required=False)
@db_option
@click.option(
    "--check",
    "checked",
    metavar="BACKUP",
    help="Verify the backup BACKUP instead of taking one (every log valid and as its "
    "manifest says); nothing is written.",
)
def backup(dest: str | None, db: str, checked: str | None) -> None:
    """Back the store up into DEST, a new file (a folder: a file in it named by the time),
    while the service runs and writes: the store as it was at one moment, every command
    acknowledged before the backup began in it, with a manifest of every game's last hash.
    A SQLite store is copied by SQLite's online backup, a PostgreSQL one read in one
    REPEATABLE READ transaction; either way the backup is one SQLite file, which
    `referee restore` restores into either backend."""
    if (dest is None) == (checked is None):
        raise click.UsageError("give DEST to take a backup, or --check BACKUP to verify one")
    if checked is not None:
        check_backup(checked)
        return
    assert dest is not None
    from ..store import open_store, shown
    from ..store.ops.backup import take

    with refusals():
        started = time.monotonic()
        with progress() as step:
            path, manifest = take(open_store(db, create=False), dest, step=step)
    click.echo(
        f"backed up {len(manifest.games)} games ({manifest.events:,} events) of {shown(db)}"
        f" into {path} ({path.stat().st_size:,} bytes) in {time.monotonic() - started:.1f} s;"
        f" taken at {manifest.taken_at}"
    )


def check_backup(path: str) -> None:
    """`referee backup --check`: the verdict on a backup, exit status 1 if it fails."""
    from ..store.ops.backup import check

    with refusals(), progress() as step:
        manifest, verified = check(path, step=step)
    click.echo(f"{path}: taken at {manifest.taken_at} from {manifest.source}")
    verdict(verified, f"{path} ({len(manifest.games)} games)", "its manifest's")


@click.command()
@click.argument("backup_path", metavar="BACKUP")
@db_option
@click.option(
    "--force",
    is_flag=True,
    help="Replace a SQLite file that holds games (never one in use). A PostgreSQL "
    "database that holds games is always refused: restore into a new one.",
)
@click.option(
    "--wait",
    type=click.FloatRange(min=0),
    default=None,
    show_default="10",
    metavar="SECONDS",
    help="How long to wait for a service just stopped to let go of the store (its "
    "database sessions, its lock files) before refusing, naming what still holds it.",
)
def restore(backup_path: str, db: str, force: bool, wait: float | None) -> None:
    """Restore BACKUP (made by `referee backup`) into the store --db names, either
    backend. Refused while that store is still in use (a service, a worker) after
    --wait seconds, or holds games; every log is verified against the backup's manifest
    before the restored store takes the place of the old one, which is left as it was if
    anything fails."""
    from ..store import CLOSING_SECONDS, shown
    from ..store.ops.restore import restore as restore_backup

    waited = CLOSING_SECONDS if wait is None else wait
    with refusals(), progress() as step:
        manifest, copied, verified = restore_backup(
            backup_path, db, force=force, wait=waited, step=step
        )
    click.echo(
        f"restored {copied.games} games ({copied.events:,} events) and {copied.uploads}"
        f" uploads from {backup_path} (taken at {manifest.taken_at}) into {shown(db)}"
    )
    verdict(verified, shown(db), "the manifest's")


def verdict(verified, where: str, against: str) -> None:
    """Every problem found, and the exit status: 1 if there is one."""
    for problem in verified.problems:
        click.echo(f"INVALID {problem}")
    if verified.partial:
        click.echo(
            f"note: {len(verified.partial)} games were recorded under a ruleset version this"
            " referee does not have: chains checked, rules not re-run"
        )
    if verified.problems:
        raise click.ClickException(f"{len(verified.problems)} logs in {where} do not verify")
    click.echo(
        f"verified {verified.games} games ({verified.events:,} events): every log valid,"
        f" every last hash {against}"
    )


@contextmanager
def refusals() -> Iterator[None]:
    """A refusal as one line, its code first; the problems of a damaged copy each on one."""
    try:
        yield
    except RefereeError as exc:
        for problem in exc.details.get("problems", []):
            click.echo(f"INVALID {problem}")
        raise click.ClickException(f"{exc.code}: {exc.message}") from None


@contextmanager
def progress() -> Iterator:
    """A step callback drawing a bar per phase on stderr (none when it is not a terminal)."""
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as shown:
        tasks: dict[str, object] = {}

        def step(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = shown.add_task(what, total=total)
            shown.update(tasks[what], completed=done)  # type: ignore[arg-type]

        yield step
