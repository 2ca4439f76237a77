"""`referee replay`: check and inspect exported game logs, offline."""

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
from rich.progress import track

from ..engine import game
from ..engine.events import MODERATOR


@click.group()
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

    from .. import embedded

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
