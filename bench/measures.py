"""What the benches share: the nearest-rank percentile, and the store's times."""

from datetime import datetime


def percentile(values: list[float], p: int) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def seconds_of(stamp: str) -> float:
    """The store's recorded_at text as seconds since 1970."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
