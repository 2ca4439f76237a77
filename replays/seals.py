"""Sealed orders and salts, checked on their own: every commitment against the orders
it seals and against their reveal, every salt against the seed.

These checks need neither the rules nor (except for the salts) the seed, so they run
on any log, including one recorded under a ruleset version this referee no longer has.
"""

from typing import Any

from referee.engine.events import PUBLIC
from referee.engine.rng import Rng
from referee.engine.sealed import commitment

from .problems import Invalid

Event = dict[str, Any]


def check_seals(events: list[Event], seed: str | None) -> int:
    """Raise Invalid at the first sealed order or salt that does not hold; returns how
    many commitments were checked."""
    problems: list[Invalid] = []
    if seed is not None:
        problems += salt_problems(events, Rng(seed))
    sealed = _sealed_orders(events, problems)
    for submitted, committed, revealed in sealed:
        problems += _seal_problems(submitted, committed, revealed)
    if problems:
        raise min(problems, key=lambda p: p.seq)
    return len(sealed)


def salt_problems(events: list[Event], rng: Rng) -> list[Invalid]:
    """Each event's salt, and each sealed order's salt, must be the seed's."""
    found = []
    for event in events:
        seq = event["seq"]
        expected = None if event["visibility"] == PUBLIC else rng.hex(f"salt/{seq}")
        if event["salt"] != expected:
            found.append(Invalid(seq, "seal/salt", "salt is not the one the seed gives"))
        elif event["type"] == "OrdersSubmitted" and _field(event, "salt") != rng.hex(
            f"orders/{seq}"
        ):
            found.append(
                Invalid(seq, "seal/salt", "the orders' salt is not the one the seed gives")
            )
    return found


def _sealed_orders(
    events: list[Event], problems: list[Invalid]
) -> list[tuple[Event, Event, Event | None]]:
    """(OrdersSubmitted, its OrdersCommitted, its OrdersRevealed or None) for every
    submission; a commitment or reveal with no submission is a problem."""
    by_seq = {e["seq"]: e for e in events}
    reveals: dict[Any, Event] = {}
    for event in events:
        kind, seq = event["type"], event["seq"]
        if kind == "OrdersCommitted" and _kind(by_seq.get(seq - 1)) != "OrdersSubmitted":
            problems.append(Invalid(seq, "seal/commitment", "commits to no submitted orders"))
        elif kind == "OrdersRevealed":
            sealed = _field(event, "seq")
            if _kind(by_seq.get(sealed)) != "OrdersSubmitted" or sealed in reveals:
                problems.append(
                    Invalid(seq, "seal/reveal", f"reveals no sealed orders at seq {sealed!r}")
                )
            reveals[sealed] = event
    return [
        (e, by_seq[e["seq"] + 1], reveals.get(e["seq"]))
        for e in events
        if e["type"] == "OrdersSubmitted" and _kind(by_seq.get(e["seq"] + 1)) == "OrdersCommitted"
    ]


def _seal_problems(submitted: Event, committed: Event, revealed: Event | None) -> list[Invalid]:
    """Where one sealed order breaks: the private record, the public commitment or the
    reveal, told apart by which two of the three still agree."""
    sealed = _field(committed, "commitment")
    of_submitted = _commitment_of(submitted)
    of_revealed = _commitment_of(revealed) if revealed else None
    where = f"the commitment published at seq {committed['seq']}"
    if _who(submitted) != _who(committed):
        return [Invalid(committed["seq"], "seal/commitment", "commits for another seat or round")]
    if revealed and (_who(revealed) != _who(submitted)):
        return [Invalid(revealed["seq"], "seal/reveal", "reveals another seat's or round's orders")]
    if of_submitted == sealed:
        if revealed and of_revealed != sealed:
            return [Invalid(revealed["seq"], "seal/reveal", f"the reveal does not match {where}")]
        return []
    if revealed and of_revealed == sealed:
        return [Invalid(submitted["seq"], "seal/commitment", f"the orders do not match {where}")]
    return [
        Invalid(
            committed["seq"],
            "seal/commitment",
            f"the commitment does not match the orders sealed at seq {submitted['seq']}",
        )
    ]


def _commitment_of(event: Event) -> str | None:
    salt, orders = _field(event, "salt"), _field(event, "orders")
    try:
        return commitment(salt, orders)
    except (TypeError, ValueError):  # a salt that is not hex, orders that are not JSON
        return None


def _who(event: Event) -> tuple[Any, Any]:
    return _field(event, "round"), _field(event, "seat")


def _field(event: Event, name: str) -> Any:
    payload = event.get("payload")
    return payload.get(name) if isinstance(payload, dict) else None


def _kind(event: Event | None) -> str | None:
    return event["type"] if event else None
