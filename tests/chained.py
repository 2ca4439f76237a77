"""Records chained as the store would seal them, with a fixed clock (for verify tests)."""

from referee.engine.chain import GENESIS, seal


def sealed(records, *, at="2000-01-01T00:00:00.000000Z"):
    """The records sealed into a hash chain for game `g`, every one stamped `at`."""
    events, prev = [], GENESIS
    for record in records:
        events.append(seal(record, "g", prev, at))
        prev = events[-1]["hash"]
    return events


def rechain(events):
    """Recompute every prev_hash and hash, as a forger covering their tracks would."""
    out, prev = [], GENESIS
    for e in events:
        core = {k: v for k, v in e.items() if k not in ("game_id", "prev_hash", "hash")}
        recorded_at = core.pop("recorded_at")
        out.append(seal(core, e["game_id"], prev, recorded_at))
        prev = out[-1]["hash"]
    return out
