"""The README's two commands, as make would run them on a fresh machine (`make -n`
prints the recipe without running it): `make run` installs what serving needs and
nothing more, `make test` adds the test and bench tools."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def recipe(tmp_path: Path, *args: str) -> list[str]:
    """The commands `make ARGS` would run with a virtual environment not made yet."""
    venv = f"VENV={tmp_path / 'fresh'}"
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(ROOT), venv, *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line.split("install --quiet ", 1)[1] for line in lines if "pip install" in line]


def test_make_run_installs_only_what_serving_needs(tmp_path):
    lines = recipe(tmp_path, "run")
    assert installs(lines) == ["--upgrade pip", "-e ."]
    assert lines[-1].split()[-1:] == ["serve"]


def test_make_run_takes_another_port(tmp_path):
    assert recipe(tmp_path, "run", "PORT=8123")[-1].endswith("referee serve --port 8123")


def test_make_test_adds_the_test_and_bench_tools_before_it_lints(tmp_path):
    lines = recipe(tmp_path, "test")
    assert installs(lines) == ["--upgrade pip", "-e .", "-e '.[test,bench]'"]
    first_lint = next(i for i, line in enumerate(lines) if "ruff check" in line)
    assert first_lint > max(i for i, line in enumerate(lines) if "pip install" in line)
