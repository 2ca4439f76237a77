"""bench/solitaire.py, Dark Horse West's Solitaire played by a bot alone, run as an
operator runs it: one row of the games' victories and what the player placed, the same
row on every run (the games and the bot's randomness are seeded)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = [sys.executable, str(ROOT / "bench" / "solitaire.py")]


def bench(*args: str) -> list[str]:
    done = subprocess.run([*BENCH, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    row = next(line for line in done.stdout.splitlines() if re.match(r"│\s+(-|\d)", line))
    return [cell.strip() for cell in row.strip("│ ").split("│")]


def test_a_row_counts_the_games_and_what_the_player_placed_the_same_each_run():
    args = ("--level", "strong", "--iterations", "3", "--games", "2", "--jobs", "2")
    row = bench(*args)
    iterations, games, victories, cities, towns = row[:5]
    assert (iterations, games) == ("3", "2")
    assert 0 <= int(victories) <= 2
    assert 1 <= float(cities) <= 3 and 2 <= float(towns) <= 6  # the setup's city and towns
    assert bench(*args)[:-1] == row[:-1]  # all but the CPU seconds


def test_random_play_is_a_row_too():
    iterations, games, victories = bench("--level", "random", "--games", "3", "--jobs", "1")[:3]
    assert (iterations, games, victories) == ("-", "3", "0")
