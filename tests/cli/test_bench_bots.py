"""bench/bots.py, the bots' strength table, run as an operator runs it (tiny budgets,
played here): each match-up's row is written to the file named, and --markdown prints
the rows of that file as docs/bots.md's table, with the verdict of each interval."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = [sys.executable, str(ROOT / "bench" / "bots.py")]


def bench(*args: str) -> str:
    done = subprocess.run([*BENCH, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout


def test_every_match_up_is_a_row_of_the_file_and_of_the_table(tmp_path):
    out = tmp_path / "bots.json"
    bench("dark-horse", "--players", "2", "--games", "2", "--iterations", "2", "--local",
          "--out", str(out))  # fmt: skip
    rows = json.loads(out.read_text())["rows"]
    assert [(r["matchup"], r["games"], r["target"]) for r in rows] == [
        ("random", 2, 0.75),
        ("standard", 2, 0.6),
        ("tenth", 2, 0.5),
    ]
    table = bench("--markdown", "--out", str(out)).splitlines()
    assert table[0].startswith("| ruleset | n | against |")
    assert [line.split(" | ")[2] for line in table[2:]] == [
        "random",
        "standard",
        "strong, tenth budget",
    ]
    shares = [float(line.split(" | ")[5].split()[0]) for line in table[2:]]
    assert shares == [round(r["share"], 2) for r in rows]


def test_a_game_of_one_seat_is_played_alone_and_has_no_target(tmp_path):
    out = tmp_path / "bots.json"
    bench("dark-horse-west", "--players", "1", "--games", "1", "--iterations", "1", "--local",
          "--out", str(out))  # fmt: skip
    [row] = json.loads(out.read_text())["rows"]
    assert (row["players"], row["target"]) == (1, None)
    [line] = bench("--markdown", "--out", str(out)).splitlines()[2:]
    assert " | nobody (Solitaire) | " in line
    figures = (row["cpu_seconds_per_strong_move"], row["cpu_seconds_per_searched_move"])
    assert line.endswith("| - | - | {:.2f} | {:.2f} |".format(*figures))
    assert 0 < row["searched_moves"] <= row["strong_moves"]


def test_the_verdict_tells_a_shown_target_from_a_miss_and_from_too_few_games():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bots import verdict
    finally:
        sys.path.remove(str(ROOT / "bench"))
    assert verdict({"target": 0.5, "low": 0.55, "high": 0.9}) == "yes"
    assert verdict({"target": 0.5, "low": 0.3, "high": 0.49}) == "no"
    assert verdict({"target": 0.5, "low": 0.3, "high": 0.6}) == "not shown"
    assert verdict({"target": None, "low": 0.0, "high": 1.0}) == "-"
