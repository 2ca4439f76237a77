"""Verify throughput on one long log, then bulk verification of many logs: in this
process, then fanned out to 1 and 2 real Celery workers (an embedded Redis).

First (bench/long_log.py): `verify_file` on a realistic 12-seat blackout-middle bot game
and on the same game padded with moderator announcements to 10,000 events, in events/s,
with what it costs against parse only, `check_chain` only and a plain fold.

Then the bulk audit: bot games written by `referee bot-play` into var/bench, each mode
(`referee replay verify DIR [--workers N]`) run as the real command line and timed from
start to exit, so worker start-up (a few seconds) counts against the workers. Prints
logs/s and events/s per mode and the speed-up of 2 workers over 1.

    .venv/bin/python bench/verify.py [--quick] [--logs 1000] [--ruleset galloping-horse]
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import long_log
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
REFEREE = Path(sys.executable).parent / "referee"
QUICK_LOGS = 100


def referee(*args: str) -> subprocess.CompletedProcess:
    """Run the referee command line; fail loudly if it fails."""
    done = subprocess.run([str(REFEREE), *args], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"referee {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def timed(logs: Path, workers: int) -> float:
    """Seconds for `referee replay verify LOGS [--workers N]` to finish."""
    extra = ["--workers", str(workers)] if workers else []
    start = time.perf_counter()
    referee("replay", "verify", str(logs), *extra)
    return time.perf_counter() - start


def bulk(out: Path, count: int, ruleset: str) -> dict:
    """Write `count` bot games and time the verify command over them three ways."""
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        logs = Path(tmp) / "logs"
        referee("bot-play", ruleset, "--games", str(count), "--seed", "bench", "--out", str(logs))
        events = sum(len(p.read_bytes().splitlines()) for p in logs.glob("*.jsonl"))
        seconds = {
            mode: timed(logs, workers)
            for mode, workers in (("here", 0), ("1 worker", 1), ("2 workers", 2))
        }
    table = Table(title=f"verify {count} {ruleset} logs ({events:,} events)")
    for column in ("mode", "seconds", "logs/s", "events/s"):
        table.add_column(column, justify="right")
    for mode, s in seconds.items():
        table.add_row(mode, f"{s:.1f}", f"{count / s:,.0f}", f"{events / s:,.0f}")
    long_log.console.print(table)
    speedup = seconds["1 worker"] / seconds["2 workers"]
    long_log.console.print(f"2 workers over 1: {speedup:.2f}x")
    return {"logs": count, "events": events, "seconds": seconds, "speedup": speedup}


def main() -> None:
    """The long log, then the bulk audit; the figures also go to var/bench/verify.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{long_log.QUICK_RUNS} runs on the long log and {QUICK_LOGS} logs in bulk",
    )
    parser.add_argument("--logs", type=int, default=None, help="logs in bulk [1000]")
    parser.add_argument("--ruleset", default="galloping-horse", help="of the bulk logs")
    parser.add_argument("--events", type=int, default=10_000, help="events in the long log")
    args = parser.parse_args()
    out = ROOT / "var" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    longest = long_log.run(events=args.events, quick=args.quick)
    count = args.logs or (QUICK_LOGS if args.quick else 1000)
    figures = {**bulk(out, count, args.ruleset), "long_log": longest}
    (out / "verify.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
