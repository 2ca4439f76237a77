"""How many questions a game asks its seats, with and without standing choices.

The same seeded bot games of a ruleset twice, played by steady bots (each seat asked
plays the move docs/clocks.md gives a seat out of time: it passes when it may, collects
what its dice are on, places them on the highest action they reach; games of 26-60
rounds, as people play them) or by the referee's random legal bots (`--bots random`,
as `referee bot-play` plays; games run far longer): once as today, every question
answered by a seat, and once with every seat's standing choices set at the start (all
the ruleset lists), the referee answering those questions as they come. A question is a
command a seat sends. The two runs' bots draw from the same streams, but once an answer
differs the games part, so the figures are averages over many games.

    .venv/bin/python bench/questions.py [--ruleset dark-horse-west] [--seats 4] [--games 20]
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import games  # noqa: E402, F401  (registers the rulesets)
from referee.bots import choose  # noqa: E402
from referee.engine import game, registry, standing  # noqa: E402
from referee.engine.rng import Rng  # noqa: E402

T0 = 1_800_000_000


def steady(state: game.State, rng: Rng, turn: int) -> tuple[int, dict]:
    """The first seat asked, and its timeout move."""
    seat = next(s for s in game.to_move(state) if isinstance(s, int))
    return seat, game.timeout_move(state, seat)


BOTS = {"steady": steady, "random": choose}


def questions(
    ruleset: str, seats: int, seed: str, *, standing_choices: bool, bots: str = "steady"
) -> int:
    """Commands the seats send in one bot game until it ends."""
    rules = registry.get(ruleset)
    records = game.create(ruleset, [f"p{s}" for s in range(seats)], {}, seed, now=T0)
    state = game.fold(records)
    if standing_choices:
        every = list(standing.offered(rules))
        for seat in range(seats):
            command = {"type": "set_standing_choices", "choices": every}
            state = game.step(state, seat, command, seed)[1]
    bot, asked = Rng(f"bot:{seed}"), 0
    for turn in range(50_000):
        if game.is_over(state):
            return asked
        actor, command = BOTS[bots](state, bot, turn)
        state = game.step(state, actor, command, seed)[1]
        asked += isinstance(actor, int)
    raise AssertionError(f"{ruleset} game {seed} did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="dark-horse-west")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", choices=sorted(BOTS), default="steady")
    args = parser.parse_args()
    seeds = [f"questions/{i}" for i in range(args.games)]
    counts = {
        answered: [
            questions(args.ruleset, args.seats, s, standing_choices=answered, bots=args.bots)
            for s in seeds
        ]
        for answered in (False, True)
    }
    today, answered = counts[False], counts[True]
    figures = {
        "bots": args.bots,
        "ruleset": args.ruleset,
        "seats": args.seats,
        "games": args.games,
        "standing_choices": list(standing.offered(registry.get(args.ruleset))),
        "today": {"mean": statistics.mean(today), "min": min(today), "max": max(today)},
        "with_standing_choices": {
            "mean": statistics.mean(answered),
            "min": min(answered),
            "max": max(answered),
        },
    }
    figures["ratio"] = round(figures["with_standing_choices"]["mean"] / figures["today"]["mean"], 3)
    played = f"{args.games} {args.bots} bot games"
    table = Table(title=f"questions per {args.seats}-seat {args.ruleset} game ({played})")
    for column in ("", "mean", "min", "max"):
        table.add_column(column)
    for name in ("today", "with_standing_choices"):
        f = figures[name]
        table.add_row(name.replace("_", " "), f"{f['mean']:.0f}", str(f["min"]), str(f["max"]))
    Console().print(table)
    Console().print(f"with standing choices: {figures['ratio']:.2f}x the questions of today")
    out_dir = ROOT / "var" / "bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"questions-{args.ruleset}-{args.bots}.json").write_text(
        json.dumps(figures, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
