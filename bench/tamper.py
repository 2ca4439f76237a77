"""Tamper evidence, measured: every kind of damage replays/tamper.py makes of the recorded
games (replays/corpus/) and of fresh bot games, each verified; per kind, how many damaged
logs verification named exactly (the seq and the code expected), and how many undamaged
logs it accepted. Exits 1 if any figure is below 100%.

    .venv/bin/python bench/tamper.py [--games 5] [--sample 10] [--sealed 4] [--workers 2]

Field edits, deletions and swaps are made at `--sample` events spread over each log,
sealed-order damages at `--sealed` of each kind; the logs are verified in `--workers`
processes (about 90 s on 2 cores with the defaults, the bot games included).
"""

import argparse
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from referee.bots import play
from referee.cli import BOT_EPOCH, default_players
from referee.engine import registry
from referee.service import Referee
from referee.store import LogicalClock, open_store
from replays.log import parse
from replays.tamper import KINDS, damages
from replays.verify import verify_bytes

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "corpus"


def recorded_games() -> dict[str, bytes]:
    """The logs of replays/corpus/, by file name."""
    return {p.name: p.read_bytes() for p in sorted(CORPUS.rglob("*.jsonl"))}


def bot_games(count: int) -> dict[str, bytes]:
    """`count` fresh bot games of each ruleset, played as `referee bot-play` plays them."""
    logs = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "tamper.db", clock=LogicalClock())
        referee = Referee(store, clock=lambda: BOT_EPOCH)
        for ruleset in registry.names():
            names = [f"bot{s}" for s in range(default_players(registry.get(ruleset)))]
            for i in range(count):
                game_id = f"{ruleset}-tamper-{i}"
                play(referee, ruleset, names, seed=f"tamper/{i}", game_id=game_id)
                logs[game_id] = store.log_lines(game_id)
    return logs


def judged(job: tuple[str, bytes, int, int]) -> dict[str, Any]:
    """One log verified undamaged and in every damaged copy: per kind, how many copies
    and how many named exactly; the misses, with what was expected and reported."""
    name, log, sample, sealed = job
    made, exact, missed = Counter[str](), Counter[str](), []
    for damage in damages(parse(log), sample=sample, sealed=sealed):
        report = verify_bytes(damage.log)
        want = ("invalid", damage.expected_seq, damage.expected_code)
        got = (report.status, report.seq, report.code)
        made[damage.kind] += 1
        exact[damage.kind] += want == got
        if want != got:
            missed.append((name, damage.description, want, got))
    return {"accepted": verify_bytes(log).valid, "made": made, "exact": exact, "missed": missed}


def judge_all(logs: dict[str, bytes], args: argparse.Namespace) -> dict[str, Any]:
    """Every log judged, the longest first, in `args.workers` processes; totals."""
    jobs = sorted(logs.items(), key=lambda item: -len(item[1]))
    totals: dict[str, Any] = {"accepted": 0, "made": Counter(), "exact": Counter(), "missed": []}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for one in pool.map(judged, [(n, log, args.sample, args.sealed) for n, log in jobs]):
            totals["accepted"] += one["accepted"]
            totals["made"].update(one["made"])
            totals["exact"].update(one["exact"])
            totals["missed"] += one["missed"]
    return totals


def table(totals: dict[str, Any], logs: int, title: str) -> Table:
    """Per kind: damaged logs, named exactly, and the share; then undamaged logs accepted."""
    rows = Table(title=title)
    for column, justify in (("damage", "left"), ("logs", "right"), ("named exactly", "right")):
        rows.add_column(column, justify=justify)  # type: ignore[arg-type]
    rows.add_column("%", justify="right")
    for kind in KINDS:
        made, exact = totals["made"][kind], totals["exact"][kind]
        rows.add_row(kind, f"{made:,}", f"{exact:,}", _share(exact, made))
    made, exact = sum(totals["made"].values()), sum(totals["exact"].values())
    rows.add_section()
    rows.add_row("all damages", f"{made:,}", f"{exact:,}", _share(exact, made))
    rows.add_row(
        "undamaged, accepted",
        f"{logs:,}",
        f"{totals['accepted']:,}",
        _share(totals["accepted"], logs),
    )
    return rows


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="fresh bot games per ruleset")
    parser.add_argument("--sample", type=int, default=10, help="events damaged per log")
    parser.add_argument("--sealed", type=int, default=4, help="sealed orders damaged per kind")
    parser.add_argument("--workers", type=int, default=2, help="processes verifying")
    args = parser.parse_args()
    start = time.perf_counter()
    recorded, fresh = recorded_games(), bot_games(args.games)
    logs = {**recorded, **fresh}
    totals = judge_all(logs, args)
    events = sum(log.count(b"\n") for log in logs.values())
    title = (
        f"tamper evidence: {len(recorded)} recorded and {len(fresh)} fresh bot games, "
        f"{events:,} events"
    )
    console = Console()
    console.print(table(totals, len(logs), title))
    console.print(f"{time.perf_counter() - start:.1f} s on {args.workers} processes")
    for name, what, want, got in totals["missed"][:20]:
        console.print(f"MISSED {name}: {what}: expected {want}, reported {got}")
    complete = not totals["missed"] and totals["accepted"] == len(logs)
    complete = complete and all(totals["made"][kind] for kind in KINDS)
    sys.exit(0 if complete else 1)


if __name__ == "__main__":
    main()
