"""Reading and writing JSONL game logs (one canonical JSON event per line)."""

import json
from pathlib import Path
from typing import Any

from referee.engine.canonical import canonical

Event = dict[str, Any]


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
    events = []
    for number, line in enumerate(lines, start=1):
        try:
            event = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LogLineError(number, f"line {number} is not valid JSON: {exc}") from None
        if not isinstance(event, dict):
            raise LogLineError(number, f"line {number} is not a JSON object")
        events.append(event)
    return events


def read(path: str | Path) -> list[Event]:
    """The events of a JSONL log file."""
    return parse(Path(path).read_bytes())


def dumps(events: list[Event]) -> bytes:
    """A JSONL log: one canonical JSON event per line."""
    return b"".join(canonical(e) + b"\n" for e in events)
