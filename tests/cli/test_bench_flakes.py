"""bench/flakes.py, the flake hunter, run as a developer runs it: on a small repository
whose CI script runs pytest on a test that fails on its first run only, it clones afresh
for each run, counts the test's failure once in two runs with its first error line, and
exits 1; every run is recorded."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = [sys.executable, str(ROOT / "bench" / "flakes.py")]

FLAKY = """
import os
from pathlib import Path

def test_steady():
    assert True

def test_flaky():
    runs = Path(os.environ["FLAKES_COUNTER"])
    seen = int(runs.read_text()) if runs.exists() else 0
    runs.write_text(str(seen + 1))
    assert seen, "the first run fails"
"""


def small_repository(folder: Path) -> Path:
    repo = folder / "repo"
    (repo / ".ci").mkdir(parents=True)
    (repo / ".ci" / "run").write_text(
        f"set -e\n{sys.executable} -m pytest -p no:xdist -q -o addopts= t\n"
    )
    (repo / "t").mkdir()
    (repo / "t" / "test_some.py").write_text(FLAKY)
    for command in (["init", "-q", "-b", "main"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(repo), *command], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "t"],
        check=True,
    )
    return repo


def test_a_test_that_failed_once_is_counted_with_its_first_error(tmp_path):
    repo = small_repository(tmp_path)
    out = tmp_path / "flakes.json"
    env = {"FLAKES_COUNTER": str(tmp_path / "counter"), "COLUMNS": "250"}
    done = subprocess.run(
        [*BENCH, "--repo", str(repo), "--runs", "2", "--beside", "1", "0", "--out", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    row = next(line for line in done.stdout.splitlines() if "test_flaky" in line)
    assert "1/2" in row and "the first run fails" in row
    assert "test_steady" not in done.stdout
    runs = json.loads(out.read_text())
    assert [run["beside"] for run in runs] == [1, 0]
    assert [run["tests"] for run in runs] == [2, 2]
    assert [list(run["failed"]) for run in runs] == [["t.test_some::test_flaky"], []]
    assert [run["exit_code"] for run in runs] == [1, 0]
