"""The hash chain over a game's events (specified in docs/log-format.md)."""

from typing import Any

from .canonical import digest

GENESIS = "0" * 64
FIELDS = (
    "game_id",
    "seq",
    "type",
    "actor",
    "visibility",
    "payload",
    "command",
    "salt",
    "state_hash",
    "recorded_at",
    "prev_hash",
    "hash",
)


def event_hash(event: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of every field of an event but `hash` itself."""
    return digest({k: v for k, v in event.items() if k != "hash"})


def seal(record: dict[str, Any], game_id: str, prev_hash: str, recorded_at: str) -> dict[str, Any]:
    """A record with the store's envelope added and its hash computed."""
    event = {**record, "game_id": game_id, "recorded_at": recorded_at, "prev_hash": prev_hash}
    event["hash"] = event_hash(event)
    return event
