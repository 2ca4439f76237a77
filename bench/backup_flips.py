"""Every byte of a small backup flipped, one at a time: each damaged copy must be refused
by `backup --check` and by `restore` with a RefereeError (`backup/damaged` and the like,
never a traceback, nothing left beside a target that was not made), or restore a store
whose every log verifies and whose games in play take a next command that verifies.

The backup is tests/store/test_backup_damage.py's (two short Galloping Horse games,
512-byte pages, some 20 KB); the suite flips every 97th byte of it, this flips them
all, in `--jobs` processes. It prints the bytes flipped, how many were refused and how
many restored sound, and each byte whose flip did neither (with its error), and exits 1
if there is one.

    .venv/bin/python bench/backup_flips.py [--jobs 2] [--every 1]
"""

import argparse
import json
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "store")]

from test_backup_damage import refused_or_sound, small_backup  # noqa: E402


def main() -> None:
    args = parse()
    with tempfile.TemporaryDirectory(prefix="referee-flips-") as folder:
        backup = small_backup(Path(folder))
        size = backup.stat().st_size
        offsets = list(range(0, size, args.every))
        chunks = [offsets[i :: args.jobs] for i in range(args.jobs)]
        started = time.perf_counter()
        with ProcessPoolExecutor(args.jobs) as pool:
            found = list(pool.map(flip_all, [str(backup)] * args.jobs, chunks))
        wall = time.perf_counter() - started
    verdicts: Counter[str] = Counter()
    wrong: list[tuple[int, str]] = []
    for counted, failures in found:
        verdicts.update(counted)
        wrong += failures
    report(size, len(offsets), verdicts, sorted(wrong), wall, args)
    sys.exit(1 if wrong else 0)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes flipping bytes")
    parser.add_argument("--every", type=int, default=1, help="flip every Nth byte")
    parser.add_argument("--out", type=Path, default=ROOT / "var/bench/backup_flips.json")
    return parser.parse_args()


def flip_all(backup: str, offsets: list[int]) -> tuple[Counter[str], list[tuple[int, str]]]:
    """The verdict of each flip at `offsets`, in a folder of this process's own."""
    data = Path(backup).read_bytes()
    verdicts: Counter[str] = Counter()
    wrong = []
    with tempfile.TemporaryDirectory(prefix="referee-flip-") as name:
        folder = Path(name)
        damaged = folder / "damaged.backup"
        for at in offsets:
            damaged.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :])
            try:
                verdicts[refused_or_sound(damaged, folder)] += 1
            except BaseException as error:  # noqa: BLE001 - every way a flip can go wrong is the finding
                last = traceback.format_exception_only(error)[-1].strip()
                wrong.append((at, last))
                for left in folder.glob("*target.db*"):
                    left.unlink()
    return verdicts, wrong


def report(size: int, flipped: int, verdicts: Counter[str], wrong: list, wall: float, args) -> None:
    table = Table(title=f"every {args.every} byte(s) of a {size:,}-byte backup flipped")
    for column in ("flipped", "refused", "sound", "neither", "wall s", "ms a flip"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{flipped:,}",
        f"{verdicts['refused']:,}",
        f"{verdicts['sound']:,}",
        f"{len(wrong):,}",
        f"{wall:.0f}",
        f"{1000 * wall * args.jobs / max(flipped, 1):.1f}",
    )
    console = Console()
    console.print(table)
    for at, error in wrong[:50]:
        console.print(f"byte {at}: {error}", markup=False)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    figures = {"size": size, "flipped": flipped, **verdicts, "neither": wrong, "wall": wall}
    args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
