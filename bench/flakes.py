"""Hunt flaky tests: clone the repository's main (or --ref) afresh for each run, run the
suite there as CI does (`CI=true bash .ci/run`, install included), N times, each beside
K processes that only spin (a machine loaded by others), and print every test that
failed even once: how often, and the first line of its first error.

    .venv/bin/python bench/flakes.py --runs 3                 # three quiet runs
    .venv/bin/python bench/flakes.py --runs 5 --beside 2      # five beside two spinners
    .venv/bin/python bench/flakes.py --runs 8 --beside 0 0 0 2 2 2 2 2

Each run's wall time, CPU time, tests counted and failures go to var/bench/flakes.json
(--out), added to what is there; the clones go in a temporary folder and are removed
unless --keep. docs/testing.md says when to run it."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from measures import busy
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    """What one run of the suite on a fresh clone gave."""

    commit: str
    beside: int
    started: str
    exit_code: int
    wall_seconds: float
    cpu_seconds: float
    pytest_seconds: float | None
    tests: int
    skipped: int
    failed: dict[str, str] = field(default_factory=dict)  # test id -> first error line
    folders: dict[str, float] = field(default_factory=dict)  # tests/<folder> -> test-seconds
    slowest: list[tuple[float, str]] = field(default_factory=list)  # the 30 longest tests
    tail: str = ""  # the run's last lines where it failed before pytest counted


def main() -> None:
    args = parse()
    console = Console()
    commit = git(args.repo, "rev-parse", args.ref)
    spinners = args.beside * -(-args.runs // len(args.beside))
    runs = []
    for number, beside in enumerate(spinners[: args.runs], 1):
        console.print(f"run {number}/{args.runs} of {commit[:10]}, beside {beside} spinning")
        run = one_run(args.repo, commit, beside, keep=args.keep, addopts=args.addopts)
        runs.append(run)
        said = f"{run.tests} tests, {len(run.failed)} failed, exit {run.exit_code}"
        console.print(f"  {said}, {run.wall_seconds / 60:.1f} min wall")
        record(run, args.out)
    console.print(runs_table(runs))
    console.print(tally(runs))
    if any(run.exit_code for run in runs):
        sys.exit(1)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="how many runs of the suite")
    parser.add_argument(
        "--beside",
        type=int,
        nargs="+",
        default=[0],
        help="spinning processes beside each run, taken in turn (0 2: quiet, loaded, ...)",
    )
    parser.add_argument("--repo", type=Path, default=ROOT, help="the repository to clone")
    parser.add_argument("--ref", default="main", help="what to clone (a branch or commit)")
    parser.add_argument("--out", type=Path, default=ROOT / "var/bench/flakes.json")
    parser.add_argument("--keep", action="store_true", help="keep each clone and its logs")
    parser.add_argument(
        "--addopts", default="", help="more pytest options for every run (e.g. '-n 3')"
    )
    return parser.parse_args()


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def one_run(repo: Path, commit: str, beside: int, *, keep: bool, addopts: str = "") -> Run:
    """Clone `commit` into a fresh folder and run CI's script there, beside `beside`
    spinners; the junit report says which tests failed and why."""
    folder = Path(tempfile.mkdtemp(prefix="referee-flakes-", dir="/var/tmp"))
    print(f"  in {folder}", flush=True)
    clone = folder / "referee"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
    junit = folder / "junit.xml"
    env = {**os.environ, "CI": "true", "PYTEST_ADDOPTS": f"--junitxml={junit} {addopts}"}
    env.pop("VIRTUAL_ENV", None)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    clock = time.monotonic()
    with busy(beside), open(folder / "ci.log", "wb") as log:
        process = subprocess.Popen(
            ["bash", ".ci/run"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        _, status, usage = os.wait4(process.pid, 0)  # the CPU of the run's tree alone
    process.returncode = code = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - clock
    cpu = usage.ru_utime + usage.ru_stime
    run = Run(commit, beside, started, code, round(wall, 1), round(cpu, 1), None, 0, 0)
    read_junit(junit, run)
    if code and not run.failed:
        run.tail = "\n".join((folder / "ci.log").read_text(errors="replace").splitlines()[-15:])
    if not keep:
        subprocess.run(["rm", "-rf", str(folder)], check=False)
    return run


def read_junit(junit: Path, run: Run) -> None:
    """The counts, pytest's time and each failed or erred test with its first line."""
    if not junit.exists():
        return
    suite = ET.parse(junit).getroot()
    suite = suite.find("testsuite") if suite.tag == "testsuites" else suite
    assert suite is not None
    run.tests = int(suite.get("tests", 0))
    run.skipped = int(suite.get("skipped", 0))
    run.pytest_seconds = float(suite.get("time", 0))
    times = []
    for case in suite.iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        seconds = float(case.get("time", 0))
        times.append((round(seconds, 1), name))
        folder = "/".join(name.split(".")[:2])
        run.folders[folder] = round(run.folders.get(folder, 0.0) + seconds, 1)
        for trouble in list(case.findall("failure")) + list(case.findall("error")):
            said = (trouble.get("message") or trouble.text or "").strip().splitlines()
            run.failed.setdefault(name, said[0][:200] if said else "")
    run.slowest = sorted(times, reverse=True)[:30]


def record(run: Run, out: Path) -> None:
    """Add the run to the runs the file already holds."""
    out.parent.mkdir(parents=True, exist_ok=True)
    held = json.loads(out.read_text()) if out.exists() else []
    out.write_text(json.dumps([*held, asdict(run)], indent=2) + "\n")


def tally(runs: list[Run]) -> Table:
    """Each test that ever failed, how often, and its first error; then each run."""
    counts = Counter(name for run in runs for name in run.failed)
    first = {}
    for run in runs:
        for name, said in run.failed.items():
            first.setdefault(name, said)
    table = Table(title=f"tests that failed in {len(runs)} runs ({len(counts)} tests)")
    table.add_column("test")
    table.add_column("failed", justify="right")
    table.add_column("first error")
    for name, count in counts.most_common():
        table.add_row(name, f"{count}/{len(runs)}", first[name])
    for number, run in enumerate(runs, 1):
        if run.exit_code and not run.failed:
            table.add_row(f"run {number}: exit {run.exit_code}", "", run.tail[-200:])
    return table


def runs_table(runs: list[Run]) -> Table:
    """A row a run: how loaded, how long, how much CPU, what was counted."""
    table = Table(title="runs")
    for column in ("run", "beside", "wall min", "pytest min", "CPU min", "tests", "failed"):
        table.add_column(column, justify="right")
    for number, run in enumerate(runs, 1):
        pytest_minutes = f"{run.pytest_seconds / 60:.1f}" if run.pytest_seconds else "-"
        table.add_row(
            str(number),
            str(run.beside),
            f"{run.wall_seconds / 60:.1f}",
            pytest_minutes,
            f"{run.cpu_seconds / 60:.1f}",
            str(run.tests),
            str(len(run.failed)),
        )
    return table


if __name__ == "__main__":
    main()
