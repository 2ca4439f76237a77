"""Reading and writing JSONL game logs (one canonical JSON event per line)."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from referee.engine.canonical import MAX_DEPTH, canonical, depth, shape

Event = dict[str, Any]
CHUNK = 1 << 20  # bytes of a log split into lines at a time


class LogLineError(ValueError):
    """A line that is not a JSON object; `seq` is the seq that line should hold."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq, self.reason = seq, reason


def parse(data: bytes) -> list[Event]:
    """The events of a JSONL log; LogLineError names the first unreadable line."""
    return [_event(line, number) for number, line in enumerate(_lines(data), start=1)]


def _lines(data: bytes) -> Iterator[bytes]:
    """The log's lines without their newlines, split a chunk of about CHUNK bytes at a
    time (splitting it all at once would hold a second copy of a large log)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start + CHUNK)
        chunk = data[start:] if end < 0 else data[start:end]
        if end < 0 and chunk.endswith(b"\n"):
            chunk = chunk[:-1]  # a newline ends the last line; no empty line follows it
        yield from chunk.split(b"\n")
        start = len(data) if end < 0 else end + 1


def _event(line: bytes, number: int) -> Event:
    """One line's event; LogLineError if it is not a JSON object within MAX_DEPTH.

    orjson reads it, fast. It reads everything as `json.loads` does but an integer past
    64 bits, which it makes a fraction: a line it refuses, or where it read a fraction,
    is read by the standard library, so every line means exactly what `json.loads`
    makes of it (NaN and Infinity refused). The walk that looks for fractions and
    measures the nesting is spared a line whose bytes show it needs none: no run of 19
    digits (every integer orjson cannot hold has one: below -2**63 a 19-digit one such as
    -9223372036854775809 already; a fraction written as such it reads as `json.loads`
    does) and no more brackets than MAX_DEPTH."""
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError:
        event = _stdlib_event(line, number)
    else:
        if _plain(line):
            deepest, fraction = 1, False
        else:
            deepest, fraction = shape(event)
        if fraction:
            event = _stdlib_event(line, number)
        elif deepest > MAX_DEPTH:
            raise LogLineError(number, _too_deep(number))
    if not isinstance(event, dict):
        raise LogLineError(number, f"line {number} is not a JSON object")
    return event


# every digit to "0", every opening bracket to "[", the rest to a space: one pass over
# a line shows both its runs of digits and how many brackets it opens
_MARKS = bytes(
    0x30 if 0x30 <= byte <= 0x39 else 0x5B if byte in b"[{" else 0x20 for byte in range(256)
)
_LONG_NUMBER = b"0" * 19


def _plain(line: bytes) -> bool:
    """Whether orjson read a line as `json.loads` does, and it nests within MAX_DEPTH,
    seen from its bytes alone."""
    marked = line.translate(_MARKS)
    return marked.count(b"[") <= MAX_DEPTH and _LONG_NUMBER not in marked


def _stdlib_event(line: bytes, number: int) -> Any:
    try:
        event = json.loads(line.decode("utf-8"), parse_constant=_not_a_number)
    except RecursionError:
        raise LogLineError(number, _too_deep(number)) from None
    except ValueError as exc:  # bad UTF-8 or JSON, an integer past Python's digit limit
        raise LogLineError(number, f"line {number} is not valid JSON: {exc}") from None
    if depth(event) > MAX_DEPTH:
        raise LogLineError(number, _too_deep(number))
    return event


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(number: int) -> str:
    return f"line {number} nests arrays and objects deeper than {MAX_DEPTH} levels"


def read(path: str | Path) -> list[Event]:
    """The events of a JSONL log file."""
    return parse(Path(path).read_bytes())


def dumps(events: list[Event]) -> bytes:
    """A JSONL log: one canonical JSON event per line."""
    return b"".join(canonical(e) + b"\n" for e in events)
