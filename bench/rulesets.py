"""What one command costs in each ruleset, measured in one run: random-bot games played
through the pure engine (no store), timing the bots' `legal` (what a seat's view lists)
apart from `execute` (decide, apply and hash), then `verify_events` over the same logs.
Prints ms per command and events/s per ruleset, with each ruleset's ratio to
galloping-horse (the simplest game, measured in the same run).

    .venv/bin/python bench/rulesets.py [--games 20] [--ruleset dark-horse-west ...]
"""

import argparse
import time

from rich.console import Console
from rich.table import Table

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose
from referee.engine import chain, game, registry
from referee.engine.rng import Rng
from replays.verify import verify_events

BASELINE = "galloping-horse"
T0 = 1_800_000_000
console = Console(width=120)


def played(ruleset: str, i: int) -> dict[str, float]:
    """One bot game (players: the ruleset's default): seconds in legal and in execute,
    commands, events, and seconds to verify the log."""
    rules = registry.get(ruleset)
    seats = getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS)
    seed = f"bench/{ruleset}/{i}"
    records = game.create(ruleset, [f"p{s}" for s in range(seats)], {}, seed, now=T0)
    state, bot = game.fold(records), Rng(f"bot:{seed}")
    choosing = executing = 0.0
    turn = 0
    while not game.is_over(state):
        start = time.perf_counter()
        actor, command = choose(state, bot, turn)
        middle = time.perf_counter()
        batch = game.execute(state, actor, command, seed)
        state = game.fold(batch, state)
        executing += time.perf_counter() - middle
        choosing += middle - start
        records += batch
        turn += 1
    start = time.perf_counter()
    assert verify_events(chained(records)).valid
    verifying = time.perf_counter() - start
    return {
        "legal": choosing, "execute": executing, "commands": turn,
        "events": len(records), "verify": verifying,
    }  # fmt: skip


def chained(records: list[dict]) -> list[dict]:
    """The records as the store would seal them (a fixed time, the hash chain)."""
    return chain.rechain(records, "bench", stamp="2000-01-01T00:00:00.000000Z")


def measure(ruleset: str, count: int) -> dict[str, float]:
    """Totals over `count` games."""
    totals: dict[str, float] = {}
    for i in range(count):
        for key, value in played(ruleset, i).items():
            totals[key] = totals.get(key, 0) + value
    return totals


def main() -> None:
    """Measure each ruleset and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ruleset", action="append", default=None)
    args = parser.parse_args()
    names = args.ruleset or registry.names()
    if BASELINE not in names:
        names = [BASELINE, *names]
    figures = {name: measure(name, args.games) for name in names}
    base = figures[BASELINE]
    table = Table(title=f"{args.games} bot games per ruleset, one command = legal + execute")
    for column in (
        "ruleset",
        "commands",
        "events",
        "legal ms",
        "execute ms",
        "x base",
        "verify ev/s",
    ):
        table.add_column(column, justify="right")
    for name, f in figures.items():
        per = (f["legal"] + f["execute"]) / f["commands"]
        ratio = per / ((base["legal"] + base["execute"]) / base["commands"])
        legal_ms, execute_ms = (1000 * f[k] / f["commands"] for k in ("legal", "execute"))
        table.add_row(
            name, f"{f['commands']:,.0f}", f"{f['events']:,.0f}", f"{legal_ms:.2f}",
            f"{execute_ms:.2f}", f"{ratio:.1f}x", f"{f['events'] / f['verify']:,.0f}",
        )  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main()
