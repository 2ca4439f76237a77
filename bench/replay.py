"""The replay theatre: time per step when scrubbing a 10,000-event log, and board PNGs.

Scrubbing: a dark-horse-west game played by bots through the real app on a real SQLite
file, its moderator announcing after every move until the log holds EVENTS events (real
events of a real game, each a move of its own). The game ends, so its replay is public;
then GET /replay/{id}/part (the part of the page a step changes: board, event, what it
changed, the feed, the controls) is timed for `--steps` random jumps and for as many
steps forward one event at a time, as the Chromium page asks for them. Baseline, in the
same run: the same scene built with the state folded from the first event (no
checkpoints). Target: p95 <= 50 ms a step.

Board PNGs: GET /games/{id}/board.png?at=SEQ for a spread of seqs of a bot game of each
ruleset; size (target <= 200 KB) and render time (target p95 <= 200 ms), and the time of
the same request again (cached).

    .venv/bin/python bench/replay.py [--events 10000] [--steps 200]
"""

import argparse
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

from measures import percentile  # noqa: E402

from referee import theatre  # noqa: E402
from referee.app import create_app  # noqa: E402
from referee.bots import choose  # noqa: E402
from referee.engine import game  # noqa: E402
from referee.engine.events import MODERATOR  # noqa: E402
from referee.engine.rng import Rng  # noqa: E402

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


def scrubbing(client, referee, events: int, steps: int) -> tuple[int, dict[str, list[float]]]:
    game_id = played(referee, "dark-horse-west", "bench-replay", announce_until=events)
    last = referee.state(game_id)["seq"]
    start = time.perf_counter()
    client.get(f"/replay/{game_id}")
    first = time.perf_counter() - start
    jumps = [random.Random(7).randrange(1, last + 1) for _ in range(steps)]
    times = {"first page (verify panel, once)": [first]}
    times["random jumps"] = [timed(client, f"/replay/{game_id}/part?at={at}") for at in jumps]
    walk = range(last // 2, last // 2 + steps)
    times["one event on"] = [timed(client, f"/replay/{game_id}/part?at={at}") for at in walk]
    held = theatre.CHECKPOINT_EVERY
    theatre.CHECKPOINT_EVERY = last + 1  # baseline: every state folded from the first event
    client.application.extensions.pop("replay_stage", None)
    baseline = [timed(client, f"/replay/{game_id}/part?at={at}") for at in jumps[: steps // 4]]
    times["baseline: random jumps, no checkpoints"] = baseline
    theatre.CHECKPOINT_EVERY = held
    return last, times


def boards(client, referee) -> list[tuple[str, list[int], list[float], list[float]]]:
    rows = []
    for ruleset in PLAYERS:
        game_id = played(referee, ruleset, f"bench-board-{ruleset}")
        last = referee.state(game_id)["seq"]
        seqs = sorted({max(1, last * k // 20) for k in range(1, 21)})
        sizes, drawn, cached = [], [], []
        for at in seqs:
            start = time.perf_counter()
            answer = client.get(f"/games/{game_id}/board.png?at={at}")
            drawn.append(time.perf_counter() - start)
            sizes.append(len(answer.data))
            cached.append(timed(client, f"/games/{game_id}/board.png?at={at}"))
        rows.append((ruleset, sizes, drawn, cached))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"REFEREE_DB": str(Path(tmp) / "bench.db"), "TESTING": True})
        client, referee = app.test_client(), app.extensions["referee"]
        length, steps = scrubbing(client, referee, args.events, args.steps)
        pictures = boards(client, referee)
    console = Console()
    table = Table(title=f"replay: a step of a {length:,}-event log (target p95 <= 50 ms)")
    for column in ("what", "steps", "p50 ms", "p95 ms", "max ms"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for what, values in steps.items():
        ms = [v * 1000 for v in values]
        table.add_row(
            what,
            str(len(ms)),
            f"{percentile(ms, 50):.1f}",
            f"{percentile(ms, 95):.1f}",
            f"{max(ms):.1f}",
        )
    console.print(table)
    jumps = percentile(steps["random jumps"], 95)
    base = percentile(steps["baseline: random jumps, no checkpoints"], 95)
    console.print(f"p95 of a jump with checkpoints / without: {jumps / base:.3f}x")
    table = Table(title="board.png per ruleset (targets: <= 200 KB, p95 <= 200 ms)")
    for column in ("ruleset", "images", "max KB", "p50 ms", "p95 ms", "cached p95 ms"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    for ruleset, sizes, drawn, cached in pictures:
        table.add_row(
            ruleset,
            str(len(sizes)),
            f"{max(sizes) / 1000:.0f}",
            f"{percentile(drawn, 50) * 1000:.0f}",
            f"{percentile(drawn, 95) * 1000:.0f}",
            f"{percentile(cached, 95) * 1000:.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
