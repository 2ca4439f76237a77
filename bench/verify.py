"""Verify throughput on one long log and on each ruleset's bot games against eventsourcing's
reconstruction, then bulk verification of many logs: in this process, then fanned out to
1 and 2 real Celery workers (an embedded Redis).

First (bench/long_log.py): `verify_file` on a realistic 12-seat blackout-middle bot game
and on the same game padded with moderator announcements to 10,000 events, in events/s,
with what it costs against parse only, `check_chain` only and a plain fold.

Then each ruleset (bot games written by `referee bot-play`: 20 galloping-horse and
dark-horse, 10 royal-turf, 3 blackout-middle at 12 seats, 1 dark-horse-west at 4 seats, its
random bots' games run to some 10,000 events) and the two long logs: `verify_file` in
events/s against `repository.get` of a 10,000-event aggregate of the `eventsourcing`
library (as in bench/store.py), taken in turn with it, best run, wall clock and CPU time.
Target: verify >= 1x the baseline, >= 2x on galloping-horse.

Then the bulk audit: bot games written by `referee bot-play` into var/bench, each mode
(`referee replay verify DIR [--workers N] [--redis-url URL]`) run as the real command
line and timed from start to exit (best of 3), so start-up counts: in this process, on 1
and 2 processes forked by the command, and as tasks to 2 Celery workers on an embedded
Redis. Prints logs/s and events/s per mode and the speed-up of 2 processes over this
one (target >= 1.6x, 0.8 x 2, on a quiet machine), with the load average.

    .venv/bin/python bench/verify.py [--quick] [--logs 1000] [--ruleset galloping-horse]
    .venv/bin/python bench/verify.py --rulesets-only   # the per-ruleset table alone
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import long_log
from rich.table import Table
from store import es_aggregate, es_app

from referee.serve import embedded
from replays.verify import verify_file

ROOT = Path(__file__).resolve().parents[1]
REFEREE = Path(sys.executable).parent / "referee"
QUICK_LOGS = 100
# realistic logs per ruleset: (games, players; None = the ruleset's default)
REALISTIC = {
    "galloping-horse": (20, None),
    "dark-horse": (20, None),
    "royal-turf": (10, None),
    "blackout-middle": (3, 12),
    "dark-horse-west": (1, 4),
}
TARGETS = {"galloping-horse": 2.0}  # verify over eventsourcing's reconstruction; else 1.0
ES_EVENTS = 10_000


def referee(*args: str) -> subprocess.CompletedProcess:
    """Run the referee command line; fail loudly if it fails."""
    done = subprocess.run([str(REFEREE), *args], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"referee {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def timed(logs: Path, extra: list[str]) -> float:
    """Seconds for `referee replay verify LOGS [extra]` to finish."""
    start = time.perf_counter()
    referee("replay", "verify", str(logs), *extra)
    return time.perf_counter() - start


def bulk(out: Path, count: int, ruleset: str, runs: int) -> dict:
    """Write `count` bot games and time the verify command over them four ways, each
    the best of `runs` taken in turn; the target: 2 processes >= 1.6x this process."""
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        logs = Path(tmp) / "logs"
        referee("bot-play", ruleset, "--games", str(count), "--seed", "bench", "--out", str(logs))
        events = sum(len(p.read_bytes().splitlines()) for p in logs.glob("*.jsonl"))
        with embedded.redis_url(Path(tmp), None) as broker:
            modes = {
                "in this process": [],
                "1 process": ["--workers", "1"],
                "2 processes": ["--workers", "2"],
                "2 Celery workers, embedded Redis": ["--workers", "2", "--redis-url", broker],
            }
            load = os.getloadavg()[0]
            seconds = dict.fromkeys(modes, math.inf)
            for _ in range(runs):
                for mode, extra in modes.items():
                    seconds[mode] = min(seconds[mode], timed(logs, extra))
            load = max(load, os.getloadavg()[0])
    table = Table(title=f"verify {count} {ruleset} logs ({events:,} events), best of {runs}")
    for column in ("mode", "seconds", "logs/s", "events/s", "x this process"):
        table.add_column(column, justify="right")
    here = seconds["in this process"]
    for mode, s in seconds.items():
        table.add_row(
            mode, f"{s:.2f}", f"{count / s:,.0f}", f"{events / s:,.0f}", f"{here / s:.2f}x"
        )
    long_log.console.print(table)
    speedup = here / seconds["2 processes"]
    met = "PASS" if speedup >= 1.6 else "MISS"
    said = f"2 processes over this one: {speedup:.2f}x (target >= 1.6x: {met})"
    long_log.console.print(f"{said}; load average {load:.1f}")
    return {
        "logs": count, "events": events, "runs": runs, "seconds": seconds,
        "speedup": speedup, "load_average": load,
    }  # fmt: skip


def realistic_logs(out: Path) -> dict[str, list[Path]]:
    """Each ruleset's bot games, written by `referee bot-play` under out (seed `bench`)."""
    found = {}
    for ruleset, (count, players) in REALISTIC.items():
        logs = out / ruleset
        extra = ["--players", str(players)] if players else []
        extra += ["--games", str(count), "--seed", "bench", "--out", str(logs)]
        referee("bot-play", ruleset, *extra)
        found[ruleset] = sorted(logs.glob("*.jsonl"))
    return found


def best_of(trials: dict[str, object], runs: int) -> dict[str, dict[str, float]]:
    """Best wall and CPU seconds of each trial: one warm-up each, then runs taken in turn."""
    best = {name: {"wall": math.inf, "cpu": math.inf} for name in trials}
    for trial in trials.values():
        trial()  # type: ignore[operator]
    for _ in range(runs):
        for name, trial in trials.items():
            wall, cpu = time.perf_counter(), time.process_time()
            trial()  # type: ignore[operator]
            best[name]["wall"] = min(best[name]["wall"], time.perf_counter() - wall)
            best[name]["cpu"] = min(best[name]["cpu"], time.process_time() - cpu)
    return best


def verify_all(paths: list[Path]) -> int:
    """verify_file over every log; the events verified (every log must be valid)."""
    events = 0
    for path in paths:
        report = verify_file(path)
        assert report.valid, f"{path}: {report}"
        events += report.events
    return events


def per_ruleset(out: Path, long_paths: dict[str, Path], runs: int) -> dict:
    """verify_file on each ruleset's logs and on the long logs, against eventsourcing's
    repository.get of a 10,000-event aggregate taken in turn with it."""
    with tempfile.TemporaryDirectory(dir=out, prefix="rulesets-") as tmp:
        logs = realistic_logs(Path(tmp))
        logs |= {f"blackout-middle, {name} log": [path] for name, path in long_paths.items()}
        app = es_app(Path(tmp) / "es.db")
        notice = es_aggregate(app, ES_EVENTS)
        events = {name: verify_all(paths) for name, paths in logs.items()}
        trials = {name: (lambda paths=paths: verify_all(paths)) for name, paths in logs.items()}
        trials["eventsourcing"] = lambda: app.repository.get(notice.id)
        best = best_of(trials, runs)
    es = best.pop("eventsourcing")
    figures = {}
    for name, seconds in best.items():
        ruleset = name.split(",")[0]
        rates = {clock: events[name] / s for clock, s in seconds.items()}
        figures[name] = {
            "logs": len(logs[name]),
            "events": events[name],
            "verify_events_per_s": rates,
            "eventsourcing_events_per_s": {clock: ES_EVENTS / s for clock, s in es.items()},
            "ratio": {clock: rates[clock] * s / ES_EVENTS for clock, s in es.items()},
            "target": TARGETS.get(ruleset, 1.0),
        }
    show_rulesets(figures)
    return figures


def show_rulesets(figures: dict) -> None:
    """One row per ruleset: verify and eventsourcing in events/s, ratio, PASS or MISS."""
    table = Table(title="verify_file against eventsourcing's reconstruction (best run)")
    columns = ("logs", "logs", "events", "verify ev/s", "eventsourcing ev/s", "ratio", "ratio CPU")
    for column in (*columns, "target", "result"):
        table.add_column(column, justify="left" if column == "logs" else "right")
    for name, f in figures.items():
        ratio = f["ratio"]
        met = "PASS" if ratio["wall"] >= f["target"] else "MISS"
        table.add_row(
            name,
            str(f["logs"]),
            f"{f['events']:,}",
            f"{f['verify_events_per_s']['wall']:,.0f}",
            f"{f['eventsourcing_events_per_s']['wall']:,.0f}",
            f"{ratio['wall']:.2f}x",
            f"{ratio['cpu']:.2f}x",
            f">= {f['target']:g}",
            met,
        )
    long_log.console.print(table)


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
    parser.add_argument(
        "--rulesets-only", action="store_true", help="the per-ruleset table alone, no bulk audit"
    )
    args = parser.parse_args()
    out = ROOT / "var" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    runs = long_log.QUICK_RUNS if args.quick else long_log.RUNS
    with tempfile.TemporaryDirectory(dir=out, prefix="long-") as tmp:
        long_paths = long_log.build(Path(tmp), args.events)
        longest = {} if args.rulesets_only else long_log.measured(long_paths, quick=args.quick)
        rulesets = per_ruleset(out, long_paths, runs)
    figures = {"rulesets": rulesets, "long_log": longest}
    if not args.rulesets_only:
        count = args.logs or (QUICK_LOGS if args.quick else 1000)
        figures |= bulk(out, count, args.ruleset, 1 if args.quick else 3)
    (out / "verify.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
