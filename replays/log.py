"""Reading and writing JSONL game logs (one canonical JSON event per line)."""

import json
from pathlib import Path
from typing import Any

from referee.engine.canonical import canonical

Event = dict[str, Any]
# no event the referee writes nests deeper than a dozen levels; a deeper line is refused
# before anything (hashing, the rules) walks it
MAX_DEPTH = 64


class LogLineError(ValueError):
    """A line that is not a JSON object; `seq` is the seq that line should hold."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq, self.reason = seq, reason


def parse(data: bytes) -> list[Event]:
    """The events of a JSONL log; LogLineError names the first unreadable line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [_event(line, number) for number, line in enumerate(lines, start=1)]


def _event(line: bytes, number: int) -> Event:
    """One line's event; LogLineError if it is not a JSON object within MAX_DEPTH."""
    try:
        event = json.loads(line.decode("utf-8"))
    except RecursionError:
        raise LogLineError(number, _too_deep(number)) from None
    except ValueError as exc:  # bad UTF-8 or JSON, an integer past Python's digit limit
        raise LogLineError(number, f"line {number} is not valid JSON: {exc}") from None
    if not isinstance(event, dict):
        raise LogLineError(number, f"line {number} is not a JSON object")
    if depth(event) > MAX_DEPTH:
        raise LogLineError(number, _too_deep(number))
    return event


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in a JSON value (a scalar: 0), counted without
    recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        node, level = todo.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in node)
    return deepest


def _too_deep(number: int) -> str:
    return f"line {number} nests arrays and objects deeper than {MAX_DEPTH} levels"


def read(path: str | Path) -> list[Event]:
    """The events of a JSONL log file."""
    return parse(Path(path).read_bytes())


def dumps(events: list[Event]) -> bytes:
    """A JSONL log: one canonical JSON event per line."""
    return b"".join(canonical(e) + b"\n" for e in events)
