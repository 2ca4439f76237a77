"""The hash chain over a game's events (specified in docs/log-format.md)."""

from typing import Any

from .canonical import digest

GENESIS = "0" * 64
ENVELOPE = ("game_id", "recorded_at", "prev_hash", "hash")  # what the store adds
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
    content = dict(event)  # copied whole in C, then the one field left out
    content.pop("hash", None)
    return digest(content)


def rechain(
    events: list[dict[str, Any]], game_id: str, *, prev_hash: str = GENESIS, stamp: str = ""
) -> list[dict[str, Any]]:
    """Events or records sealed anew into a chain under `game_id`, after `prev_hash`, each
    keeping its recorded_at (a record without one gets `stamp`)."""
    sealed = []
    for event in events:
        record = {k: v for k, v in event.items() if k not in ENVELOPE}
        sealed.append(seal(record, game_id, prev_hash, event.get("recorded_at", stamp)))
        prev_hash = sealed[-1]["hash"]
    return sealed


def seal(record: dict[str, Any], game_id: str, prev_hash: str, recorded_at: str) -> dict[str, Any]:
    """A record with the store's envelope added and its hash computed."""
    event = {**record, "game_id": game_id, "recorded_at": recorded_at, "prev_hash": prev_hash}
    event["hash"] = event_hash(event)
    return event
