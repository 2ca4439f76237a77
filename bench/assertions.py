"""How many assertions each test file makes, at a commit and in the work tree, and every
file whose count changed: a change that speeds the suite up must not do it by asserting
less.

    .venv/bin/python bench/assertions.py --base 50831d0

An assertion is an `assert` statement, a `raise AssertionError`, a Playwright
`expect(...).to_...` check, a `pytest.raises`/`pytest.fail` call, or a `wait_until` (it
asserts that its condition comes to hold); the count is of the places in the code, not
of how often they run."""

import argparse
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def assertions(source: str) -> int:
    """The assertions in one file's source."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assert):
            count += 1
        elif isinstance(node, ast.Raise) and _names(node.exc, "AssertionError"):
            count += 1
        elif isinstance(node, ast.Call) and _names(node.func, "wait_until"):
            count += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, owner = node.func.attr, node.func.value
            if name.startswith(("to_", "not_to_")) and _from_expect(owner):
                count += 1
            elif name in ("raises", "fail") and isinstance(owner, ast.Name):
                count += owner.id == "pytest"
    return count


def _names(node: ast.expr | None, name: str) -> bool:
    """Whether `node` is the name `name`, or a call of it."""
    if isinstance(node, ast.Call):
        node = node.func
    return isinstance(node, ast.Name) and node.id == name


def _from_expect(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "expect"
    )


def at_commit(rev: str) -> dict[str, int]:
    names = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", rev, "tests"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    counts = {}
    for name in (n for n in names if n.endswith(".py")):
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{name}"], capture_output=True, text=True
        )
        counts[name] = assertions(shown.stdout)
    return counts


def in_tree() -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): assertions(path.read_text())
        for path in sorted((ROOT / "tests").rglob("*.py"))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    args = parser.parse_args()
    before, after = at_commit(args.base), in_tree()
    changed = sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    for name in changed:
        was, now = before.get(name, 0), after.get(name, 0)
        print(f"{name}: {was} -> {now} ({now - was:+d})")
    fewer = [n for n in changed if after.get(n, 0) < before.get(n, 0)]
    print(
        f"{sum(before.values())} assertions in {len(before)} files at {args.base},"
        f" {sum(after.values())} in {len(after)} now; {len(fewer)} files with fewer"
    )


if __name__ == "__main__":
    main()
