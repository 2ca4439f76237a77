"""Verify throughput on one long log, against the cheap checks run on the same log.

Two logs are built through the real service and store (`Referee` on an `EventStore` with
a `LogicalClock`, as `referee bot-play` does): a 12-seat blackout-middle game played by
the random legal bots (the longest ruleset; such a game has 550-820 events, no realistic
game comes near 10,000), and the same game with moderator announcements spread between
the bots' commands until it has exactly 10,000 events. Both end with SeedRevealed, so
`verify_file` re-derives every event from the seed. Same seed, same bytes.

Each log is timed five ways (one warm-up each, then the runs taken in turn, best run;
a short log gets up to 5 times more runs):
`verify_file` (read, parse, chain, re-derivation), `verify_events` (the same on events
already parsed), and the baselines: parse only, `check_chain` only, a plain
`game.fold` of the parsed events (no re-derivation).

    .venv/bin/python bench/long_log.py [--quick] [--events 10000] [--profile [realistic]]
"""

import argparse
import cProfile
import io
import json
import math
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, play
from referee.engine import game
from referee.engine.events import MODERATOR
from referee.engine.rng import Rng
from referee.service import Referee
from referee.store import LogicalClock, open_store
from replays.log import parse
from replays.verify import check_chain, verify_events, verify_file

OUT_DIR = Path(__file__).resolve().parent.parent / "var" / "bench"
RULESET, SEATS, SEED = "blackout-middle", 12, "bench-long"
BOT_EPOCH = 946_684_800  # as `referee bot-play`: the service clock stands still
TEXT = "Stewards' notice: the going is good to firm; all horses cleared to run."
ANNOUNCE = {"type": "announce", "text": TEXT}
RUNS, QUICK_RUNS = 7, 3
PROFILE_LINES = 25
console = Console() if sys.stdout.isatty() else Console(width=132)


# --- the logs ----------------------------------------------------------------------


def build(tmp: Path, events: int) -> dict[str, Path]:
    """The realistic game and the padded one, each written to a JSONL file in tmp."""
    store = open_store(tmp / "long-log.db", clock=LogicalClock())
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    names = [f"bot{s}" for s in range(SEATS)]
    realistic = play(referee, RULESET, names, seed=SEED, game_id="realistic")
    log = store.events(realistic)
    turns = sum(1 for e in log if e["command"] is not None)  # one batch per command
    padded = play_padded(referee, names, "padded", events=events, spread=(events - len(log), turns))
    paths = {}
    for name, game_id in (("realistic", realistic), ("padded", padded)):
        paths[name] = tmp / f"{RULESET}-{SEATS}-{name}.jsonl"
        paths[name].write_bytes(store.log_lines(game_id))
    return paths


def play_padded(
    referee: Referee, names: list[str], game_id: str, *, events: int, spread: tuple[int, int]
) -> str:
    """The game of `referee.bots.play` (same seed, same bots), with moderator announcements
    between the bots' commands: `spread` = (announcements, over so many turns), topped up
    before the command that ends the game so that the log has `events` events."""
    referee.create_game(RULESET, names, {}, SEED, game_id=game_id)
    bot_rng = Rng(f"bot:{SEED}")
    budget, turns = spread
    posted = 0
    for turn in range(100_000):
        state = referee.state(game_id)
        if game.is_over(state):
            return game_id
        actor, command = choose(state, bot_rng, turn)
        now = command.pop("now", None)
        wanted = min(budget, budget * turn // turns)
        ending = ending_records(state, actor, command, now)
        if ending:
            wanted = max(wanted, posted + events - ending - state["seq"])
        posted += announce(referee, game_id, wanted - posted, now)
        referee.command(game_id, actor, command, now=now)
    raise RuntimeError(f"game {game_id} did not end")


def ending_records(state: game.State, actor: Any, command: dict[str, Any], now: int | None) -> int:
    """How many records the command adds if it ends the game (0 if it does not)."""
    stamped = game.stamp(state, command, BOT_EPOCH if now is None else now)
    records = game.execute(state, actor, stamped, SEED)
    return len(records) if records[-1]["type"] == "SeedRevealed" else 0


def announce(referee: Referee, game_id: str, n: int, now: int | None) -> int:
    """n moderator announcements through Referee.command, at the bots' time."""
    for _ in range(n):
        referee.command(game_id, MODERATOR, ANNOUNCE, now=now)
    return max(0, n)


# --- timing ------------------------------------------------------------------------


def contenders(path: Path) -> dict[str, Callable[[], Any]]:
    """What is timed on one log: verify, then the cheap checks it is compared with."""
    events = parse(path.read_bytes())
    return {
        "verify_file": lambda: verify_file(path),
        "verify_events": lambda: verify_events(events),
        "parse": lambda: parse(path.read_bytes()),
        "check_chain": lambda: check_chain(events),
        "fold": lambda: game.fold(events),
    }


NOTES = {
    "verify_file": "read + parse + chain + re-derivation from the seed",
    "verify_events": "chain + re-derivation, events already parsed",
    "parse": "read the file + replays.log.parse",
    "check_chain": "replays.verify.check_chain, events already parsed",
    "fold": "referee.engine.game.fold, events already parsed",
}


def best_seconds(trials: dict[str, Callable[[], Any]], runs: int) -> dict[str, float]:
    """Seconds of each trial's best run: one warm-up each, then `runs` taken in turn."""
    best = {name: math.inf for name in trials}
    for trial in trials.values():
        trial()
    for _ in range(runs):
        for name, trial in trials.items():
            start = time.perf_counter()
            trial()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def measure(paths: dict[str, Path], runs: int) -> dict[str, Any]:
    """Per log: its events and the best seconds of every contender."""
    found: dict[str, Any] = {}
    for name, path in paths.items():
        report, log = verify_file(path), parse(path.read_bytes())
        assert report.valid and report.events == len(log), f"{name} log: {report}"
        assert log[-1]["type"] == "SeedRevealed", f"{name} log: seed not revealed"
        events = len(log)
        found[name] = {
            "events": events,
            "bytes": path.stat().st_size,
            "runs": runs * min(5, max(1, 5_000 // events)),  # more runs for a short log
        }
        found[name]["seconds"] = best_seconds(contenders(path), found[name]["runs"])
    return found


def show(found: dict[str, Any]) -> None:
    """One table per log: seconds, events/s and what verify_file costs against each."""
    for name, log in found.items():
        seconds, events = log["seconds"], log["events"]
        table = Table(title=f"{name} {RULESET} log, {SEATS} seats: {events:,} events")
        for column in ("measure", "best ms", "events/s", "verify_file / this", "what"):
            table.add_column(column, justify="left" if column in ("measure", "what") else "right")
        for measure_, s in seconds.items():
            cost = seconds["verify_file"] / s
            table.add_row(
                measure_, f"{s * 1000:.1f}", f"{events / s:,.0f}", f"{cost:.1f}x", NOTES[measure_]
            )
        console.print(table)
        rederive = seconds["verify_events"] - seconds["check_chain"]
        console.print(
            f"  re-derivation (verify_events - check_chain): {rederive * 1000:.1f} ms, "
            f"{rederive / seconds['check_chain']:.1f}x the chain check, "
            f"{rederive / seconds['fold']:.1f}x a plain fold"
        )


def profile(path: Path, *, lines: int = PROFILE_LINES) -> str:
    """cProfile of verify_file on one log: the top functions by own time and cumulative."""
    verify_file(path)  # warm: imports, caches
    profiler = cProfile.Profile()
    profiler.enable()
    verify_file(path)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(lines)
    stats.sort_stats("cumulative").print_stats(lines)
    return out.getvalue()


def run(*, events: int = 10_000, quick: bool = False, profiled: str | None = None) -> dict:
    """Build the logs in a temporary directory, time them, print; the figures as a dict."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=OUT_DIR, prefix="long-") as name:
        started = time.perf_counter()
        paths = build(Path(name), events)
        built = time.perf_counter() - started
        console.print(f"[dim]built the logs in {built:.1f} s[/]")
        found = measured(paths, quick=quick)
        if profiled:
            console.print(f"cProfile of verify_file on the {profiled} log:")
            console.print(profile(paths[profiled]), markup=False, highlight=False)
    return {"build_seconds": built, **found}


def measured(paths: dict[str, Path], *, quick: bool = False) -> dict:
    """Time the logs built, print the tables; the figures as a dict."""
    found = measure(paths, QUICK_RUNS if quick else RUNS)
    show(found)
    return {"ruleset": RULESET, "seats": SEATS, "seed": SEED, **found}


def main() -> None:
    """Run the long-log measurement alone."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_RUNS} runs, not {RUNS}")
    parser.add_argument("--events", type=int, default=10_000, help="events in the padded log")
    parser.add_argument(
        "--profile",
        nargs="?",
        const="padded",
        choices=("padded", "realistic"),
        help="also cProfile verify_file on that log [padded]",
    )
    args = parser.parse_args()
    figures = run(events=args.events, quick=args.quick, profiled=args.profile)
    (OUT_DIR / "long_log.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
