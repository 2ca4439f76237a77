"""The engine and the rulesets do no I/O and draw no randomness of their own."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "referee"
BANNED = {
    "flask",
    "celery",
    "sqlite3",
    "sqlite_utils",
    "redis",
    "os",
    "time",
    "datetime",
    "random",
    "uuid",
    "logging",
    "requests",
    "socket",
    "subprocess",
    "threading",
    "secrets",
}
# the bots' core decides moves from a view alone, as purely as the rules
BOTS_CORE = [ROOT / "bots" / name for name in ("levels.py", "search.py", "simulate.py")]
PURE_FILES = (
    sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "games").rglob("*.py")) + BOTS_CORE
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_imports_nothing_banned(path):
    assert imported_modules(path) & BANNED == set()


def test_the_scan_sees_a_banned_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom random import choice\nfrom . import fine\n")
    assert imported_modules(sample) & BANNED == {"os", "random"}


def test_every_pure_package_says_so_in_a_readme():
    for package in ("engine", "games"):
        assert "no I/O" in (ROOT / package / "README.md").read_text("utf-8")
