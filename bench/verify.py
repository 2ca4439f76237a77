"""Bulk verification of many logs: in this process, then fanned out to 1 and 2 real
Celery workers (`referee replay verify DIR --workers N`, an embedded Redis).

The logs are bot games written by `referee bot-play` into var/bench. Each mode runs the
real command line and is timed from start to exit, so worker start-up (a few seconds)
counts against the workers. Prints logs/s and events/s per mode and the speed-up of 2
workers over 1.

    .venv/bin/python bench/verify.py [--logs 1000] [--ruleset galloping-horse]
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
REFEREE = Path(sys.executable).parent / "referee"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--ruleset", default="galloping-horse")
    args = parser.parse_args()
    out = ROOT / "var" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        logs = Path(tmp) / "logs"
        referee(
            "bot-play",
            args.ruleset,
            "--games",
            str(args.logs),
            "--seed",
            "bench",
            "--out",
            str(logs),
        )
        events = sum(len(p.read_bytes().splitlines()) for p in logs.glob("*.jsonl"))
        seconds = {
            mode: timed(logs, workers)
            for mode, workers in (("here", 0), ("1 worker", 1), ("2 workers", 2))
        }
    table = Table(title=f"verify {args.logs} {args.ruleset} logs ({events:,} events)")
    for column in ("mode", "seconds", "logs/s", "events/s"):
        table.add_column(column, justify="right")
    for mode, s in seconds.items():
        table.add_row(mode, f"{s:.1f}", f"{args.logs / s:,.0f}", f"{events / s:,.0f}")
    Console().print(table)
    speedup = seconds["1 worker"] / seconds["2 workers"]
    Console().print(f"2 workers over 1: {speedup:.2f}x")
    figures = {"logs": args.logs, "events": events, "seconds": seconds, "speedup": speedup}
    (out / "verify.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
