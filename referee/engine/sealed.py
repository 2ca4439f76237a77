"""Sealed orders: a seat's secret choice, recorded privately and committed publicly.

Games in rounds seal every `submit_orders` (rounds.submit); a ruleset played in turns
seals a secret part of a command by returning `seal(...)` among its events, and the
engine completes it here. Either way the log holds the same three events:

- OrdersSubmitted, seen by the seat: round, seat, orders and a salt the seed gives for
  its seq (`orders/{seq}`);
- OrdersCommitted, public, right after it: sha256(salt bytes + canonical orders), the
  seat's receipt;
- OrdersRevealed, public, later: the orders and salt again, so anyone can check them
  against the commitment (replays/seals.py does, without the rules).
"""

import hashlib
from collections.abc import Iterable
from typing import Any

from .canonical import canonical
from .events import Event, event
from .rng import Rng

SUBMITTED, COMMITTED, REVEALED = "OrdersSubmitted", "OrdersCommitted", "OrdersRevealed"


def commitment(salt: str, orders: Any) -> str:
    """sha256 over the salt's bytes followed by the canonical orders, as hex."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical(orders)).hexdigest()


def seal(seat: int, number: int, orders: Any) -> Event:
    """What a ruleset in turns returns to seal `orders` for `seat` in its round `number`;
    the engine adds the salt and the commitment."""
    return event(SUBMITTED, {"round": number, "seat": seat, "orders": orders}, to=[seat])


def sealed(
    seat: int, number: int, orders: Any, seq: int, rng: Rng, replaces: int | None = None
) -> list[Event]:
    """OrdersSubmitted (at `seq`, seen by the seat) and OrdersCommitted (public)."""
    salt = rng.hex(f"orders/{seq}")
    who = {"round": number, "seat": seat}
    return [
        event(SUBMITTED, {**who, "orders": orders, "salt": salt}, to=[seat]),
        event(COMMITTED, {**who, "commitment": commitment(salt, orders), "replaces": replaces}),
    ]


def complete(events: list[Event], seq: int, rng: Rng) -> list[Event]:
    """A ruleset's events with every `seal` made whole; `seq` is the game's seq before them."""
    out: list[Event] = []
    for ev in events:
        if ev["type"] == SUBMITTED and "salt" not in ev["payload"]:
            p = ev["payload"]
            out += sealed(p["seat"], p["round"], p["orders"], seq + len(out) + 1, rng)
        else:
            out.append(ev)
    return out


def revealed(number: int, seat: int, seq: int, orders: Any, salt: str) -> Event:
    """The public reveal of the orders sealed at `seq`."""
    return event(
        REVEALED, {"round": number, "seat": seat, "seq": seq, "orders": orders, "salt": salt}
    )


def reveals(pending: Iterable[dict[str, Any]]) -> list[Event]:
    """The reveals of sealed orders kept as {round, seat, seq, orders, salt}, in the order
    they were sealed."""
    return [
        revealed(s["round"], s["seat"], s["seq"], s["orders"], s["salt"])
        for s in sorted(pending, key=lambda s: s["seq"])
    ]
