"""The replay theatre: time per step when scrubbing a long log, and board PNGs, each on
a quiet machine and again beside `--busy` processes that only spin (a machine loaded by
others), in the same run.

Scrubbing: a dark-horse-west game played by bots through the real app on a real SQLite
file, its moderator announcing after every move until the log holds EVENTS events (real
events of a real game, each a move of its own; the game goes on to its end, some 15,600
events). The game ends, so its replay is public; then GET /replay/{id}/part (the part of
the page a step changes: board, event, what it changed, the feed, the controls) is timed
for `--steps` random jumps and for as many steps forward one event at a time, as the
Chromium page asks for them. Baseline, in the same run: the same scene built with the
state folded from the first event (no checkpoints). Target: p95 <= 50 ms a step, quiet
and loaded.

Board PNGs: GET /games/{id}/board.png?at=SEQ for a spread of seqs of a bot game of each
ruleset; size (target <= 200 KB), the time of its first drawing (target p95 <= 200 ms
quiet, and at most 3x that beside the busy processes), and the time of the same request
again (cached).

    .venv/bin/python bench/replay.py [--events 10000] [--steps 200] [--busy 2] [--only boards]
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import busy, percentile  # noqa: E402

from referee.app import create_app  # noqa: E402
from referee.bots import choose  # noqa: E402
from referee.engine import game  # noqa: E402
from referee.engine.events import MODERATOR  # noqa: E402
from referee.engine.rng import Rng  # noqa: E402
from referee.theatre import stage  # noqa: E402

ANNOUNCED_EACH = 8  # announcements after each move of the long game (it has some 1,000)
PLAYERS = {
    "galloping-horse": ["a", "b", "c", "d"],
    "dark-horse": ["a", "b", "c", "d"],
    "royal-turf": ["a", "b", "c", "d"],
    "dark-horse-west": ["a", "b", "c", "d"],
    "blackout-middle": ["a", "b", "c", "d", "e", "f"],
}


def played(referee, ruleset: str, seed: str, *, announce_until: int = 0) -> str:
    """A bot game to its end; with `announce_until`, the moderator announces after every
    move while the log is shorter than that."""
    game_id = referee.create_game(ruleset, PLAYERS[ruleset], {}, seed)["game_id"]
    bots, turn = Rng(f"bot:{seed}"), 0
    while not game.is_closed(state := referee.state(game_id)):
        actor, command = choose(state, bots, turn)
        referee.command(game_id, actor, command, now=command.pop("now", None))
        turn += 1
        for n in range(ANNOUNCED_EACH if announce_until else 0):
            if referee.state(game_id)["seq"] >= announce_until:
                break
            note = {"type": "announce", "text": f"After move {turn} ({n + 1})."}
            referee.command(game_id, MODERATOR, note)
    return game_id


def timed(client, url: str) -> float:
    start = time.perf_counter()
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return time.perf_counter() - start


def long_game(client, referee, events: int) -> tuple[str, int, float]:
    """The long game, its last seq, and the time of its replay's first page."""
    game_id = played(referee, "dark-horse-west", "bench-replay", announce_until=events)
    start = time.perf_counter()
    client.get(f"/replay/{game_id}")
    return game_id, referee.state(game_id)["seq"], time.perf_counter() - start


def scrubbing(client, game_id: str, jumps: list[int], walk: range) -> dict[str, list[float]]:
    """The times of the random jumps and of the steps one event on, and the CPU time
    this process spent on each kind."""
    part, times = f"/replay/{game_id}/part?at=", {}
    for what, seqs in (("random jumps", jumps), ("one event on", walk)):
        used = time.process_time()
        times[what] = [timed(client, f"{part}{at}") for at in seqs]
        times[f"{what} cpu"] = [(time.process_time() - used) / len(seqs)]
    return times


def unchecked(client, game_id: str, jumps: list[int]) -> list[float]:
    """The baseline: the same jumps with every state folded from the first event."""
    held = stage.CHECKPOINT_EVERY
    stage.CHECKPOINT_EVERY = 1 << 40
    client.application.extensions.pop("replay_stage", None)
    try:
        return [timed(client, f"/replay/{game_id}/part?at={at}") for at in jumps]
    finally:
        stage.CHECKPOINT_EVERY = held
        client.application.extensions.pop("replay_stage", None)


def board_games(referee) -> list[tuple[str, str, list[int]]]:
    """A bot game of each ruleset and 20 seqs spread over it."""
    games = []
    for ruleset in PLAYERS:
        game_id = played(referee, ruleset, f"bench-board-{ruleset}")
        last = referee.state(game_id)["seq"]
        games.append((ruleset, game_id, sorted({max(1, last * k // 20) for k in range(1, 21)})))
    return games


def boards(client, games) -> dict[str, dict[str, list[float]]]:
    """Per ruleset: each PNG's size, the time of its first drawing (and the CPU time this
    process spent on it: on a shared machine, what is left is waiting for a core), and
    the time of asking again."""
    client.application.extensions.pop("boards_drawn", None)  # nothing drawn before
    rows = {}
    for ruleset, game_id, seqs in games:
        row: dict[str, list[float]] = {"sizes": [], "drawn": [], "cpu": [], "cached": []}
        for at in seqs:
            start, used = time.perf_counter(), time.process_time()
            answer = client.get(f"/games/{game_id}/board.png?at={at}")
            row["drawn"].append(time.perf_counter() - start)
            row["cpu"].append(time.process_time() - used)
            row["sizes"].append(len(answer.data))
            row["cached"].append(timed(client, f"/games/{game_id}/board.png?at={at}"))
        rows[ruleset] = row
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--busy", type=int, default=2, help="spinning processes, loaded runs")
    parser.add_argument("--only", choices=("steps", "boards"), help="measure only these")
    parser.add_argument("--out", default="var/bench/replay.json")
    args = parser.parse_args()
    console, figures = Console(width=132), {"busy": args.busy}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"REFEREE_DB": str(Path(tmp) / "bench.db"), "TESTING": True})
        client = app.test_client()
        if args.only != "boards":
            figures |= replay_steps(console, client, args.events, args.steps, args.busy)
        if args.only != "steps":
            figures |= board_pictures(console, client, args.busy)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


def replay_steps(console, client, events: int, count: int, spinning: int) -> dict:
    """Steps through the long game's replay, quiet then loaded, and the baseline."""
    referee = client.application.extensions["referee"]
    game_id, last, first = long_game(client, referee, events)
    jumps = [random.Random(7).randrange(1, last + 1) for _ in range(count)]
    walk = range(last // 2, last // 2 + count)
    steps = {"quiet": scrubbing(client, game_id, jumps, walk)}
    with busy(spinning):
        steps["busy"] = scrubbing(client, game_id, jumps, walk)
    baseline = unchecked(client, game_id, jumps[: count // 4])
    figures = print_steps(console, steps, baseline, f"a {last:,}-event log", spinning)
    console.print(f"first page (verify panel, once): {first:.2f} s")
    return figures | {"events": last, "first_page_s": first}


def board_pictures(console, client, spinning: int) -> dict:
    """Each ruleset's board PNGs drawn quiet, then again, from nothing, loaded."""
    games = board_games(client.application.extensions["referee"])
    pictures = {"quiet": boards(client, games)}
    with busy(spinning):
        pictures["busy"] = boards(client, games)
    return print_boards(console, pictures, spinning)


def print_steps(console, steps, baseline: list[float], log: str, spinning: int) -> dict:
    """The steps' table, quiet and beside the busy processes; their figures."""
    table = Table(title=f"replay: a step of {log} (target p95 <= 50 ms), beside {spinning} busy")
    columns = ("what", "steps", "p50 ms", "p95 ms", "max ms", "CPU mean")
    for column in (*columns, "busy p50", "busy p95", "x"):
        table.add_column(column, justify="left" if column == "what" else "right")
    figures = {}
    for what in ("random jumps", "one event on"):
        quiet, loaded = ms(steps["quiet"][what]), ms(steps["busy"][what])
        cpu = ms(steps["quiet"][f"{what} cpu"])[0]
        table.add_row(
            what, str(len(quiet)), *spread(quiet), f"{cpu:.1f}", *spread(loaded)[:2],
            ratio(loaded, quiet),
        )  # fmt: skip
        key = what.replace(" ", "_")
        figures |= {
            f"{key}_p95_ms": percentile(quiet, 95),
            f"{key}_cpu_mean_ms": cpu,
            f"{key}_busy_p95_ms": percentile(loaded, 95),
        }
    base = ms(baseline)
    table.add_row(
        "baseline: random jumps, no checkpoints", str(len(base)), *spread(base), "", "", "", ""
    )
    console.print(table)
    jump = percentile(steps["quiet"]["random jumps"], 95) / percentile(baseline, 95)
    console.print(f"p95 of a jump with checkpoints / without: {jump:.3f}x")
    return figures


def print_boards(console, pictures, spinning: int) -> dict:
    """The PNGs' table, quiet and beside the busy processes; their figures."""
    targets = "<= 200 KB, p95 <= 200 ms, busy p95 <= 3x"
    table = Table(title=f"board.png per ruleset ({targets}), beside {spinning} busy")
    columns = ("ruleset", "images", "max KB", "p50 ms", "p95 ms", "max ms", "CPU p95")
    for column in (*columns, "cached p95", "busy p50", "busy p95", "x"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    figures = {}
    for ruleset, row in pictures["quiet"].items():
        quiet, loaded = ms(row["drawn"]), ms(pictures["busy"][ruleset]["drawn"])
        largest, cached = max(row["sizes"]) / 1000, percentile(ms(row["cached"]), 95)
        cpu = percentile(ms(row["cpu"]), 95)
        table.add_row(
            ruleset, str(len(quiet)), f"{largest:.0f}", *spread(quiet), f"{cpu:.1f}",
            f"{cached:.1f}", *spread(loaded)[:2], ratio(loaded, quiet),
        )  # fmt: skip
        figures |= {
            f"png_{ruleset}_max_kb": largest,
            f"png_{ruleset}_p95_ms": percentile(quiet, 95),
            f"png_{ruleset}_cpu_p95_ms": cpu,
            f"png_{ruleset}_busy_p95_ms": percentile(loaded, 95),
        }
    console.print(table)
    return figures


def ms(seconds: list[float]) -> list[float]:
    return [s * 1000 for s in seconds]


def spread(values: list[float]) -> list[str]:
    """p50, p95 and max, as the tables show them."""
    return [f"{v:.1f}" for v in (percentile(values, 50), percentile(values, 95), max(values))]


def ratio(loaded: list[float], quiet: list[float]) -> str:
    """How many times the quiet p95 the loaded p95 is."""
    return f"{percentile(loaded, 95) / percentile(quiet, 95):.2f}"


if __name__ == "__main__":
    main()
