"""Receipts against a log: does this log hold the sealed order a seat was given a receipt
for? The chain alone cannot say that a log is complete; a receipt can, for its seat: a
log cut short before the receipt's seq, or one that was rewritten before it, does not
hold it (docs/replay.md).

A receipt is what the referee answered the seat's sealed orders with (and what its page
lists under "Your receipts"): {"seq", "commitment", "hash"}, and optionally "round" and
"recorded_at", which are checked too when given.
"""

import json
from dataclasses import dataclass
from typing import Any

from .log import Event
from .problems import Invalid
from .verify import check_links

REQUIRED = ("seq", "commitment", "hash")
HELD, NOT_HELD = "held", "not held"


@dataclass(frozen=True)
class Held:
    """Whether a log holds one receipt, and why not."""

    receipt: dict[str, Any]
    held: bool
    reason: str

    @property
    def status(self) -> str:
        return HELD if self.held else NOT_HELD


class ReceiptError(ValueError):
    """Text that is not a receipt: the reason names the field."""


def read_receipts(text: str) -> list[dict[str, Any]]:
    """One receipt (a JSON object) or a list of them, each checked for its fields."""
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        raise ReceiptError(
            'a receipt is JSON: {"seq": ..., "commitment": ..., "hash": ...}'
        ) from None
    found = found if isinstance(found, list) else [found]
    if not found:
        raise ReceiptError("no receipt given")
    return [_checked(one) for one in found]


def _checked(receipt: Any) -> dict[str, Any]:
    if not isinstance(receipt, dict):
        raise ReceiptError("a receipt is a JSON object with seq, commitment and hash")
    for name in REQUIRED:
        if name not in receipt:
            raise ReceiptError(f"{name}: missing from the receipt")
    if (
        not isinstance(receipt["seq"], int)
        or isinstance(receipt["seq"], bool)
        or receipt["seq"] < 1
    ):
        raise ReceiptError("seq: a whole number from 1")
    for name in ("commitment", "hash"):
        if not isinstance(receipt[name], str):
            raise ReceiptError(f"{name}: a hex string")
    return receipt


def holds(events: list[Event], receipt: dict[str, Any]) -> Held:
    """Whether the log holds the receipt: the chain up to its seq links, the event there
    has the receipt's chain hash, and it commits to the receipt's commitment."""
    seq = receipt["seq"]
    if seq > len(events):
        return Held(
            receipt,
            False,
            f"the log ends at seq {len(events)}, before the receipt's seq {seq}: it is cut short",
        )
    try:
        check_links(events[:seq])
    except Invalid as bad:
        return Held(
            receipt, False, f"the chain is broken at seq {bad.seq} ({bad.code}): {bad.reason}"
        )
    event = events[seq - 1]
    if event["hash"] != receipt["hash"]:
        return Held(
            receipt,
            False,
            f"the event at seq {seq} has another chain hash: "
            "this log is not the one the receipt was given in",
        )
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    if payload.get("commitment") != receipt["commitment"]:
        return Held(
            receipt, False, f"the event at seq {seq} ({event['type']}) holds another commitment"
        )
    for name in ("round", "recorded_at"):
        given, logged = receipt.get(name), payload.get(name) if name == "round" else event.get(name)
        if given is not None and given != logged:
            return Held(receipt, False, f"{name}: the receipt says {given!r}, the log {logged!r}")
    return Held(
        receipt,
        True,
        f"seq {seq} ({event['type']}) holds this commitment, and the chain links up to it",
    )
