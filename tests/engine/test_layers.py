"""The import contracts (pyproject.toml; docs/architecture.md draws them) hold on the code,
and break, naming the import, when a module climbs a layer, a ruleset imports another,
the pure core imports I/O or randomness, or two files close a circle."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("referee", "workers", "replays", "schemas")
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", str(root / "pyproject.toml")],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def copy(tmp_path) -> Path:
    """The project's packages and pyproject.toml, copied to change one file."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "corpus"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_code_keeps_every_contract(copy):
    done = lint(copy)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


LAZY = "\n\ndef _later():\n    {}\n"
BREAKS = {
    "the store climbs to the service": (
        "referee/store/schema.py",
        "from referee.service import Referee  # noqa",
        [
            "referee.store is not allowed to import referee.service",
            "referee.store.schema -> referee.service",
        ],
    ),
    "the API imports a page, inside a function": (
        "referee/api/games.py",
        LAZY.format("from referee.web import present"),
        [
            "referee.api is not allowed to import referee.web",
            "referee.api.games -> referee.web.present",
        ],
    ),
    "a ruleset imports another": (
        "referee/games/royal_turf/__init__.py",
        "from ..dark_horse import NAME as _NAME",
        ["referee.games.royal_turf is not allowed to import referee.games.dark_horse"],
    ),
    "a ruleset draws from the random module": (
        "referee/games/galloping_horse/track.py",
        "import random",
        [
            "referee.games is not allowed to import random",
            "referee.games.galloping_horse.track -> random",
        ],
    ),
    "the engine reads the clock": (
        "referee/engine/rng.py",
        "import time",
        ["referee.engine is not allowed to import time", "referee.engine.rng -> time"],
    ),
    "two files of a ruleset close a circle": (
        "referee/games/dark_horse_west/collection.py",
        LAZY.format("from .action_cards import play_card"),
        ["No cycles are allowed in referee.games.dark_horse_west", ".collection -> .action_cards"],
    ),
}


@pytest.mark.parametrize("change", sorted(BREAKS))
def test_a_broken_contract_fails_naming_the_import(copy, change):
    path, added, said = BREAKS[change]
    changed = copy / path
    changed.write_text(changed.read_text() + "\n" + added + "\n")
    done = lint(copy)
    assert done.returncode == 1, done.stdout
    for words in said:
        assert words in done.stdout, done.stdout


def test_every_pure_package_says_so_in_a_readme():
    for package in ("engine", "games"):
        assert "no I/O" in (ROOT / "referee" / package / "README.md").read_text("utf-8")
