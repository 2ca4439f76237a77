"""Dark Horse West's Solitaire played by a bot alone: how far it gets towards the
scenario's victory in the turns the countdown gives (docs/bots.md, "Solitaire"). Game i
is seeded solo/i, the bot's randomness keyed by game and move, so a row is the same on any
machine; the games are shared among --jobs processes. Prints one row: the victories, the
cities and towns placed (the setup places a city and two towns), the gold and influence
held, the dead-centre towns, and the CPU seconds a game.

    .venv/bin/python bench/solitaire.py --games 24
    .venv/bin/python bench/solitaire.py --level strong --iterations 30 --games 24
    .venv/bin/python bench/solitaire.py --level random --games 40
    .venv/bin/python bench/solitaire.py --options '{"scenario": "gold_rush"}' --games 8
"""

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import levels
from referee.bots.matches import played_alone
from referee.games.dark_horse_west import NAME, solitaire, table

FIGURES = ("cities", "towns", "gold", "influence", "centre")


@dataclass(frozen=True)
class Job:
    level: str
    iterations: int | None
    options: str  # canonical JSON
    index: int


def played(job: Job) -> dict[str, Any]:
    """One game to its end: what the player has then, and the CPU seconds it took."""
    start = time.process_time()
    state = played_alone(
        NAME,
        json.loads(job.options),
        f"solo/{job.index}",
        job.level,
        f"b/{job.index}",
        iterations=job.iterations,
    )
    cpu = time.process_time() - start
    return {"victory": solitaire.victory(state["rules"]), **_held(state["rules"]), "cpu": cpu}


def _held(rules: dict[str, Any]) -> dict[str, int]:
    goods = rules["goods"][0]
    centre = table.board_of(rules).dead_centre
    return {
        "cities": len(table.cities_of(rules, 0)),
        "towns": len(table.towns_of(rules, 0)),
        "gold": goods["gold"],
        "influence": goods["influence"],
        "centre": sum(1 for h in centre if rules["towns"].get(h) == 0),
    }


def printed(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    shown = Table(title=f"Solitaire {args.options}: {args.level} bot")
    for column in ("iterations", "games", "victories", *FIGURES, "CPU s/game"):
        shown.add_column(column, justify="right")
    n = len(results)
    means = [f"{sum(r[f] for r in results) / n:.2f}" for f in FIGURES]
    victories = sum(r["victory"] for r in results)
    cpu = f"{sum(r['cpu'] for r in results) / n:.1f}"
    budget = "-" if args.level != "strong" else str(args.iterations or "its own")
    shown.add_row(budget, str(n), str(victories), *means, cpu)
    Console(width=120).print(shown)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=levels.LEVELS, default="strong")
    parser.add_argument("--iterations", type=int, help="the strong budget [the ruleset's]")
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    options = json.dumps(json.loads(args.options), sort_keys=True)
    jobs = [Job(args.level, args.iterations, options, i) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(played, jobs))
    printed(args, results)


if __name__ == "__main__":
    main()
