"""What the benches share: the nearest-rank percentile, the store's times, and a report
of figures with a verdict."""

import json
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table


def percentile(values: list[float], p: int) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def seconds_of(stamp: str) -> float:
    """The store's recorded_at text as seconds since 1970."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def report(title: str, figures: dict, target: str, met: bool, out: Path) -> None:
    """Print the figures and the target's PASS or MISS as a table; write them as JSON."""
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        table.add_row(key, f"{value:.3f}" if isinstance(value, float) else str(value))
    table.add_row(f"target: {target}", "PASS" if met else "MISS")
    Console().print(table)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


def memory_kib(root: int) -> int:
    """Resident memory of a process and everything below it, in KiB."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                table[int(entry.name)] = (int(stat[1]), int(stat[21]) * 4)
            except OSError:
                continue
    total, frontier = 0, [root]
    while frontier:
        pid = frontier.pop()
        total += table.get(pid, (0, 0))[1]
        frontier += [child for child, (parent, _) in table.items() if parent == pid]
    return total
