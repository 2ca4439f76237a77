"""`referee replay`: check and inspect exported game logs, offline."""

import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .lazy import LazyGroup
from .logs import read_log

if TYPE_CHECKING:
    from multiprocessing.pool import Pool


@click.group(
    cls=LazyGroup, lazy={"step": "referee.cli.step:step", "diff": "referee.cli.dispute:diff"}
)
def replay() -> None:
    """Check and inspect exported game logs, offline."""


@replay.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--workers",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Verify on N processes of this machine [0: in this process].",
)
@click.option(
    "--redis-url",
    default=None,
    help="Instead, send the logs as Celery tasks over this Redis, to --workers N Celery "
    "workers started here and any others on it (other machines).",
)
@click.option("--checks", is_flag=True, help="Also print what each check found, per log.")
@click.option("--json", "as_json", is_flag=True, help="One JSON report per log instead.")
@click.option(
    "--receipt",
    "receipt_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A receipt a seat was given (JSON, one or a list); every log must hold it. Repeatable.",
)
def replay_verify(paths, workers, redis_url, checks, as_json, receipt_files) -> None:
    """Verify logs (files, or directories of *.jsonl): the hash chain, the seed against
    its commitment, every sealed order against its commitment and reveal, then every
    event re-derived from the seed and the rules the log was recorded under.

    Exit status: 0 all valid; 1 any invalid; 2 none invalid but some partial (recorded
    under a ruleset version this referee does not have: chain, seed and seals checked,
    the rules not re-run). With --receipt, a log that does not hold a receipt (cut short
    before it, or another log) is invalid too."""
    receipts = _receipts(receipt_files)
    files = log_files(paths)
    whole_dirs = any(Path(p).is_dir() for p in paths) and not as_json
    tally: dict[str, dict[str, int]] = {}
    with _verified(files, workers, redis_url) as reports:
        if whole_dirs:
            reports = _with_progress(reports, len(files))
        for path, report in reports:
            _tally(tally, report)
            if as_json:
                click.echo(json.dumps({"path": str(path), **report}, sort_keys=True))
            else:
                _print_report(path, report, quiet=whole_dirs and not checks, checks=checks)
    totals = {status: sum(c[status] for c in tally.values()) for status in STATUSES}
    if whole_dirs:
        _print_tally(tally)
    if not as_json:
        click.echo(", ".join(f"{totals[s]} {s}" for s in STATUSES))
    missing = _check_receipts(files, receipts, as_json) if receipts else 0
    sys.exit(1 if totals["invalid"] or missing else 2 if totals["partial"] else 0)


def _tally(tally: dict[str, dict[str, int]], report: dict) -> None:
    """Count a report under its ruleset: its status and its events."""
    counts = tally.setdefault(report["ruleset"] or "?", dict.fromkeys(STATUSES + ("events",), 0))
    counts[report["status"]] += 1
    counts["events"] += report["events"]


def _with_progress(reports: Iterator[tuple[Path, dict]], total: int) -> Iterator:
    """The reports as they come, with a progress bar while they do."""
    from rich.progress import track

    return iter(track(reports, total=total, description="verifying", transient=True))


def _receipts(paths: tuple[str, ...]) -> list[dict]:
    """The receipts in the files named, or a clean error naming the file and field."""
    from replays.receipts import ReceiptError, read_receipts

    found: list[dict] = []
    for path in paths:
        try:
            found += read_receipts(Path(path).read_text("utf-8"))
        except (ReceiptError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"{path}: {exc}") from None
    return found


def _check_receipts(files: list[Path], receipts: list[dict], as_json: bool) -> int:
    """Each receipt against each log; how many a log did not hold."""
    from replays.log import LogLineError, read
    from replays.receipts import holds

    missing = 0
    for path in files:
        try:
            events = read(str(path))
        except LogLineError:
            events = []
        for receipt in receipts:
            held = holds(events, receipt)
            missing += not held.held
            if as_json:
                line = {"path": str(path), "receipt": receipt, "status": held.status}
                click.echo(json.dumps({**line, "reason": held.reason}, sort_keys=True))
            else:
                said = "held    " if held.held else "NOT HELD"
                click.echo(f"{said} {path}: receipt seq {receipt['seq']}: {held.reason}")
    return missing


STATUSES = ("valid", "partial", "invalid")


def _print_report(path: Path, report: dict, *, quiet: bool, checks: bool) -> None:
    """One log's verdict: INVALID and PARTIAL always, ok unless quiet."""
    if report["status"] == "invalid":
        click.echo(f"INVALID {path}: seq {report['seq']} [{report['code']}]: {report['reason']}")
    elif report["status"] == "partial":
        click.echo(f"PARTIAL {path}: {report['checks'].get('rules')}")
    elif not quiet:
        note = f" ({'; '.join(report['notes'])})" if report["notes"] else ""
        click.echo(f"ok      {path}: {report['events']} events{note}")
    if checks:
        for name, found in report["checks"].items():
            click.echo(f"        {name}: {found}")


@contextmanager
def _verified(
    files: list[Path], workers: int, redis_url: str | None
) -> Iterator[Iterator[tuple[Path, dict]]]:
    """(path, report) of each log, in order: here, on a pool of this machine's processes,
    or as Celery tasks over a Redis (--redis-url)."""
    if redis_url:
        yield _verify_on_workers(files, workers, redis_url)
    elif workers:
        with _processes(workers) as pool:
            size = max(1, min(50, len(files) // (workers * 8)))  # a few batches per process
            yield zip(files, pool.imap(_report, files, chunksize=size), strict=True)
    else:
        yield ((path, _report(path)) for path in files)


@contextmanager
def _processes(count: int) -> Iterator["Pool"]:
    """`count` processes forked from this one, with the verifier already imported: each
    reads and verifies the logs it is given by path (nothing but paths and reports is
    sent between processes), and imports only the rulesets its logs name."""
    from multiprocessing import get_context

    import replays.verify  # noqa: F401  (imported once, here, before the fork)

    with get_context("fork").Pool(count) as pool:
        yield pool


def _report(path: Path) -> dict:
    """One log verified, its report as JSON."""
    from replays.verify import report_of, verify_file

    return report_of(verify_file(path))


def _verify_on_workers(
    files: list[Path], count: int, redis_url: str | None
) -> Iterator[tuple[Path, dict]]:
    """The logs shipped whole, in batches, to `referee.verify_logs` on `count` local
    Celery workers (none: on the workers already on that Redis) and any others there."""
    from workers.celery_app import make_celery

    from ..serve import embedded

    size = max(1, min(50, len(files) // (count * 8)))  # a few batches per worker
    batches = [files[i : i + size] for i in range(0, len(files), size)]
    with tempfile.TemporaryDirectory() as tmp:
        with embedded.redis_url(Path(tmp), redis_url) as broker:
            unused = str(Path(tmp) / "unused.db")  # verifying needs no store
            # the verify queue alone: on an operator's Redis, a worker with no store
            # must not take the rounds' tasks
            local = embedded.workers(
                count, broker=broker, db=unused, beat=False, loglevel="WARNING", queues="celery"
            )
            with local if count else nullcontext():
                celery = make_celery(broker)
                sent = [_send(celery, batch) for batch in batches]
                for batch, result in zip(batches, sent, strict=True):
                    reports = result if isinstance(result, list) else result.get(timeout=3600)
                    yield from zip(batch, reports, strict=True)


def _send(celery, batch: list[Path]):
    """The task verifying a batch of logs; a batch with a file that is not UTF-8 is
    verified here instead (the verifier names where it breaks; tasks carry text only)."""
    from replays.verify import report_of, verify_file

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


def _print_tally(tally: dict[str, dict[str, int]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="replay verify")
    for column in ("ruleset", *STATUSES, "events"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    for ruleset, counts in sorted(tally.items()):
        table.add_row(ruleset, *(str(counts[s]) for s in STATUSES), f"{counts['events']:,}")
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
@click.option(
    "--seat",
    type=int,
    default=None,
    help="This seat's view: its id, 0 for the first [the moderator's].",
)
@click.option("--spectator", is_flag=True, help="Instead of --seat: a spectator's view.")
def replay_show(file, at, round_number, seat, spectator) -> None:
    """The view after event AT, or after round ROUND was resolved, exactly as
    GET /games/{id} gave it then to the seat, the spectator or the moderator."""
    from ..service import presented
    from .step import Replay, check_seat, chosen_viewer

    viewer = chosen_viewer(seat, spectator)
    replay = Replay(read_log(file))
    if at is not None and round_number is not None:
        raise click.ClickException("give --at or --round, not both")
    if round_number is not None:
        at = resolved_at(replay.events, round_number)
    at = replay.checked(at or len(replay.events))
    check_seat(replay, viewer)
    shown = presented(replay.game_id, replay.state_at(at), viewer)
    click.echo(json.dumps(shown, indent=2, sort_keys=True))


def resolved_at(events: list[dict], round_number: int) -> int:
    """The seq of the last event of the batch that resolved a round."""
    from ..engine.fork import batch_end

    counted = [
        e["seq"]
        for e in events
        if e["type"] == "OrdersCounted" and e["payload"].get("round") == round_number
    ]
    if not counted:
        raise click.ClickException(f"round {round_number} is not resolved in this log")
    return batch_end(events, counted[0])
