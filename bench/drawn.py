"""What the rulesets draw and say, as digests, to compare before and after a change that
should change nothing a player sees (a move, a split, the drawing kit).

For every corpus log, at every third event and the last, for a spectator, the moderator
and each seat: the board's SVG (`board`), the same SVG with each tag's attributes sorted
and every number written to a tenth (`normal`: equal when the drawing is the same though
the bytes differ), the label of each legal command (`label`), and, once per log and
viewer, the narration of the events as that viewer receives them (`narrate`). Prints
one line per ruleset and takes about a minute:

    .venv/bin/python bench/drawn.py            # on the change
    git stash; .venv/bin/python bench/drawn.py # on the code before it (or a worktree)
"""

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import referee.games  # noqa: E402,F401 (the rulesets known by id)
from referee.engine import game  # noqa: E402
from replays.log import read  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "replays" / "corpus"
TAG = re.compile(r'<(\w+)((?:\s+[\w-]+="[^"]*")*)\s*(/?)>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def tenth(value: str) -> str:
    try:
        return f"{round(float(value), 1):g}"
    except ValueError:
        return value


def normal(svg: str) -> str:
    """The SVG with each tag's attributes in name order and every number to a tenth."""

    def tag(found: re.Match[str]) -> str:
        pairs = sorted((k, tenth(v)) for k, v in ATTRIBUTE.findall(found.group(2)))
        written = "".join(f' {k}="{v}"' for k, v in pairs)
        return f"<{found.group(1)}{written}{found.group(3)}>"

    return TAG.sub(tag, svg)


def viewers(state: dict[str, Any]) -> list[Any]:
    return [None, "moderator", *range(len(state["players"]))]


def drawn(path: Path, digests: dict[str, Any]) -> None:
    records = read(str(path))
    state: Any = None
    for index, record in enumerate(records):
        state = game.apply(state, record)
        if index % 3 and index != len(records) - 1:
            continue
        rules = game.rules_of(state)
        for viewer in viewers(state):
            view = game.view(state, viewer)
            if hasattr(rules, "board"):
                svg = rules.board(view)
                digests["board"].update(svg.encode())
                digests["normal"].update(normal(svg).encode())
            for command in view["legal"][:40] if hasattr(rules, "label") else []:
                digests["label"].update(rules.label(command, view).encode())
    rules, over = game.rules_of(state), game.is_over(state)
    for viewer in viewers(state):
        shown = [game.redact(r, viewer, over) for r in records]
        told = rules.narrate(shown, viewer, state["players"])
        digests["narrate"].update(json.dumps(told).encode())


def main() -> None:
    by_ruleset: dict[str, dict[str, Any]] = {}
    for path in sorted(CORPUS.glob("*/*.jsonl")):
        kinds = ("board", "normal", "narrate", "label")
        digests = by_ruleset.setdefault(path.parent.name, {k: hashlib.sha256() for k in kinds})
        drawn(path, digests)
    for ruleset, digests in by_ruleset.items():
        print(ruleset, *(f"{k}={d.hexdigest()[:12]}" for k, d in digests.items()))


if __name__ == "__main__":
    main()
