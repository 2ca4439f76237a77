"""Canonical JSON and the digests taken over it (specified in docs/log-format.md)."""

import hashlib
import json

_encoder = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)


def canonical(value: object) -> bytes:
    """UTF-8 JSON with sorted keys and no insignificant white space."""
    return _encoder.encode(value).encode("utf-8")


def digest(value: object) -> str:
    """Hex SHA-256 of the canonical JSON of a value."""
    return hashlib.sha256(canonical(value)).hexdigest()


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of raw bytes."""
    return hashlib.sha256(data).hexdigest()
