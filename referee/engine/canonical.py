"""Canonical JSON and the digests taken over it (specified in docs/log-format.md), and JSON
text read as the log can hold it (the API's bodies and the pages' fields).

orjson writes the canonical form fast; the standard library writes the same bytes and
takes over for what orjson refuses (integers beyond 64 bits). A test holds the two equal.
"""

import hashlib
import json
import marshal
from typing import Any

import orjson

_encoder = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)


def canonical(value: object) -> bytes:
    """UTF-8 JSON with sorted keys and no insignificant white space."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return canonical_stdlib(value)


def canonical_stdlib(value: object) -> bytes:
    """The same bytes from the standard library (also refuses NaN and infinities)."""
    return _encoder.encode(value).encode("utf-8")


def digest(value: object) -> str:
    """Hex SHA-256 of the canonical JSON of a value."""
    return hashlib.sha256(canonical(value)).hexdigest()


# no event or body the referee takes nests deeper than a dozen levels; a deeper one is
# refused before anything (hashing, the rules) walks it: orjson encodes 254 levels at
# most, and the standard library's encoder recurses
MAX_DEPTH = 64


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in a JSON value (a scalar: 0)."""
    return shape(value)[0]


def shape(value: Any) -> tuple[int, bool]:
    """(how deeply arrays and objects nest, whether a fraction is anywhere in it),
    counted without recursion."""
    if not isinstance(value, dict | list):
        return 0, isinstance(value, float)
    deepest, fraction, todo = 1, False, [(value, 1)]
    while todo:
        node, level = todo.pop()
        deepest = max(deepest, level)
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, dict | list):
                todo.append((child, level + 1))
            elif isinstance(child, float):
                fraction = True
    return deepest, fraction


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of raw bytes."""
    return hashlib.sha256(data).hexdigest()


def copied(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, text, numbers), as copy.deepcopy
    makes, made in C: views are copied at every read."""
    return marshal.loads(marshal.dumps(value))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _refuse_float(text: str) -> Any:
    raise ValueError(f"{text}: numbers must be integers (the log holds no fractions)")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different (which of two values counts is not JSON's
    to say, and the log must hold what the sender meant)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def canonical_json(text: str) -> Any:
    """JSON text as the log can hold it: ValueError naming what is wrong otherwise (a
    fraction, NaN, a key twice, nesting deeper than MAX_DEPTH, a lone surrogate)."""
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_refuse_float,
            object_pairs_hook=_refuse_duplicates,
        )
        if depth(value) > MAX_DEPTH:
            raise ValueError(f"JSON nested deeper than {MAX_DEPTH}")
        canonical(value)  # lone surrogates cannot be encoded as UTF-8
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH}") from None
    return value
