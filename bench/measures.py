"""What the benches share: the nearest-rank percentile, the store's times, a report of
figures with a verdict, the memory and CPU time of a tree of processes, and processes
that load the machine while a bench measures beside them."""

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
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
    return sum(int(stat[21]) * 4 for stat in process_tree(root))


def cpu_seconds(root: int) -> float:
    """CPU time (user + system) a process and everything below it have used so far."""
    ticks = sum(int(stat[11]) + int(stat[12]) for stat in process_tree(root))
    return ticks / os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[list[str]]:
    """The fields of /proc/PID/stat after the name, for a process and all below it."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                table[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        if pid in table:
            found.append(table[pid])
        frontier += [child for child, stat in table.items() if int(stat[1]) == pid]
    return found


@contextmanager
def busy(count: int) -> Iterator[None]:
    """`count` processes that only spin, beside the block (a machine loaded by others),
    each stopped after it by its own id, and by the kernel if this process dies first (a
    bench stopped by a signal leaves none spinning)."""
    from referee.serve.supervisor import set_parent_death_signal

    def dies_with_parent() -> None:
        set_parent_death_signal(signal.SIGKILL)

    spinning = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=dies_with_parent)
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()
