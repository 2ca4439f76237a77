"""Benchmark the event store against raw sqlite3 and the eventsourcing library.

One run, one temporary directory under var/bench (the project's disk), every baseline
measured in the same process. Prints a table of figures, ratios and PASS/MISS against
the targets in docs/performance.md, and writes the figures to var/bench/store.json.

    .venv/bin/python bench/store.py [--quick]
"""

import argparse
import json
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import metadata
from itertools import count
from pathlib import Path
from typing import Any

import sqlite_utils
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from rich.console import Console
from rich.table import Table

from referee import games  # noqa: F401  (registers the rulesets)
from referee.app import create_app
from referee.bots import play
from referee.engine import game
from referee.engine.errors import Conflict
from referee.engine.events import MODERATOR
from referee.service import Referee
from referee.store import COLUMNS, EventStore, open_store, schema
from replays.verify import verify_events

# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

OUT_DIR = Path(__file__).resolve().parent.parent / "var" / "bench"
RULESET, PLAYERS, SEED = "galloping-horse", ["Ann", "Ben", "Cat", "Dan"], "bench-seed"
TEXT = "Stewards' notice: the going is good to firm; all horses cleared to run."
ANNOUNCE = {"type": "announce", "text": TEXT}
WRITERS = 8
INSERT = f"INSERT INTO events VALUES ({', '.join('?' * len(COLUMNS))})"

APPEND = "EventStore.append of pre-built records, one per transaction"
COMMAND = "Referee.command: snapshot + fold + execute + append (+ snapshot every 100)"
ES_SAVE = "eventsourcing Application.save of one event, SQLite recorder (WAL, FULL)"
RACE = "EventStore.append at the version read, retry on Conflict"
VERIFY = "replays.verify.verify_events: hash chain + re-derivation from the seed"
LOADED = "events already in memory (no DB read, no JSON decoding)"
READ = "EventStore.events (SQLite read + JSON decoding) included"
GET = "Flask test client, moderator token, real SQLite file"
PAST = "events past the last snapshot (taken every 100)"
SNAPSHOT_OFFSETS = (50, 99)  # the typical and the worst distance from the last snapshot

Trial = Callable[[], tuple[int, float]]  # one timed repetition: (operations, seconds)
console = Console() if sys.stdout.isatty() else Console(width=132)
game_ids = count(1)


@dataclass(frozen=True)
class Sizes:
    """How much work each measurement does."""

    reps: int = 5
    appends: int = 500  # single appends per repetition
    per_writer: int = 100  # appends per thread per repetition
    bot_games: int = 200
    es_events: int = 10_000  # events in the eventsourcing aggregate
    big_game: int = 10_000  # events in the big game, before SNAPSHOT_OFFSETS more
    requests: int = 200  # GETs per game


QUICK = Sizes(
    reps=3, appends=150, per_writer=30, bot_games=20, es_events=2_000, big_game=1_000, requests=50
)


@dataclass
class Figure:
    """One measured figure, its baseline, their ratio, and the target on that ratio."""

    name: str
    unit: str
    value: float
    baseline: str
    baseline_value: float
    target: str = ""  # ">= 0.8", "<= 2", or "" when reported without a target
    note: str = ""  # what the figure includes

    @property
    def ratio(self) -> float:
        """The figure over its baseline."""
        return self.value / self.baseline_value

    @property
    def status(self) -> str:
        """PASS or MISS against the target, "-" without one."""
        if not self.target:
            return "-"
        op, limit = self.target.split()
        ok = self.ratio >= float(limit) if op == ">=" else self.ratio <= float(limit)
        return "PASS" if ok else "MISS"


# --- timing ------------------------------------------------------------------------


def interleaved(trials: dict[str, Trial], reps: int) -> dict[str, float]:
    """Operations/s of each trial: one warm-up each, then the median of reps, taken in turn."""
    rates: dict[str, list[float]] = {name: [] for name in trials}
    for trial in trials.values():
        trial()
    for _ in range(reps):
        for name, trial in trials.items():
            done, seconds = trial()
            rates[name].append(done / seconds)
    return {name: statistics.median(r) for name, r in rates.items()}


def timed(work: Callable[[], int]) -> tuple[int, float]:
    """(operations, seconds) of one call."""
    start = time.perf_counter()
    done = work()
    return done, time.perf_counter() - start


def on_threads(prepare: Callable[[int], Callable[[], int]], n: int) -> tuple[int, float]:
    """Run prepare(i)() on n threads released together; (total operations, seconds)."""
    barrier = threading.Barrier(n + 1)

    def body(i: int) -> int:
        job = prepare(i)  # connections and aggregates are made before the clock starts
        barrier.wait()
        return job()

    with ThreadPoolExecutor(n) as pool:
        futures = [pool.submit(body, i) for i in range(n)]
        barrier.wait()
        start = time.perf_counter()
        done = sum(f.result() for f in futures)
    return done, time.perf_counter() - start


def percentile(samples: list[float], p: int) -> float:
    """The p-th percentile (1-99) of samples."""
    return statistics.quantiles(samples, n=100, method="inclusive")[p - 1]


# --- fixtures ----------------------------------------------------------------------


def announcement_chain(n: int) -> tuple[list[dict], list[dict]]:
    """The opening records of the bench game and n moderator announcements after it."""
    opening = game.create(RULESET, PLAYERS, {}, SEED)
    state, records = game.fold(opening), []
    for _ in range(n):
        batch = game.execute(state, MODERATOR, ANNOUNCE, SEED)
        state = game.fold(batch, state)
        records += batch
    return opening, records


def stored_rows(opening: list[dict], records: list[dict]) -> list[tuple]:
    """The rows our store writes for the records (so raw sqlite3 inserts the same bytes)."""
    store = open_store(":memory:")
    store.create_game("g", RULESET, SEED, opening, {})
    store.append("g", len(opening), records)
    return store.db.execute("SELECT * FROM events WHERE seq > ?", (len(opening),)).fetchall()


def new_game(store: EventStore, opening: list[dict]) -> str:
    """A fresh bench game in our store."""
    game_id = f"g{next(game_ids)}"
    store.create_game(game_id, RULESET, SEED, opening, {})
    return game_id


def raw_connection(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection set up as our store sets up its own."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def raw_database(path: Path) -> None:
    """A raw database with our events table (same columns, key and triggers)."""
    schema.create(sqlite_utils.Database(raw_connection(path)))


class Notice(Aggregate):
    """The eventsourcing baseline: an aggregate that records announcements."""

    def __init__(self) -> None:
        self.count, self.last = 0, ""

    @event("Announced")
    def announce(self, text: str) -> None:
        """Record one announcement."""
        self.count, self.last = self.count + 1, text


def es_app(path: Path) -> Application:
    """An eventsourcing application on its SQLite recorder."""
    return Application(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    )


def es_aggregate(app: Application, events: int) -> Notice:
    """A saved Notice with `events` events (Created included), saved 100 at a time."""
    notice = Notice()
    for i in range(1, events):
        notice.announce(TEXT)
        if i % 100 == 0:
            app.save(notice)
    app.save(notice)
    return notice


def bot_logs(path: Path, n: int) -> tuple[EventStore, list[str], list[list[dict]]]:
    """n finished bot games, half galloping-horse, half dark-horse, in a store on a file."""
    store = open_store(path)
    referee = Referee(store)
    rulesets = ("galloping-horse", "dark-horse")
    ids = [play(referee, rulesets[i % 2], PLAYERS, seed=f"bench-{i}") for i in range(n)]
    return store, ids, [store.events(g) for g in ids]


def http_game(referee: Referee, events: int) -> tuple[str, str]:
    """A galloping-horse game padded with announcements to `events` events; (id, token)."""
    created = referee.create_game(RULESET, PLAYERS, {}, SEED)
    pad(referee, created["game_id"], events)
    return created["game_id"], created["moderator_token"]


def pad(referee: Referee, game_id: str, events: int) -> None:
    """Moderator announcements through Referee.command until the game has `events` events."""
    version = referee.store.version(game_id)
    while version < events:
        _, body = referee.command(game_id, MODERATOR, ANNOUNCE)
        version = body["version"]


# --- 1. durable single appends -----------------------------------------------------


def single_appends(tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict[str, Any]]:
    """Our append of one event per transaction vs raw INSERT + COMMIT, same file system."""
    opening, records = announcement_chain(sizes.appends)
    rows = stored_rows(opening, records)
    ours, referee = open_store(tmp / "single-ours.db"), Referee(open_store(tmp / "single-svc.db"))
    raw_database(tmp / "single-raw.db")
    conn = raw_connection(tmp / "single-raw.db")
    app = es_app(tmp / "single-es.db")

    def ours_trial() -> tuple[int, float]:
        game_id = new_game(ours, opening)
        return timed(lambda: sum(len(ours.append(game_id, r["seq"] - 1, [r])) for r in records))

    def raw_trial() -> tuple[int, float]:
        game_id = f"g{next(game_ids)}"
        return timed(lambda: sum(raw_commit(conn, (game_id, *row[1:])) for row in rows))

    def command_trial() -> tuple[int, float]:
        game_id = referee.create_game(RULESET, PLAYERS, {}, SEED)["game_id"]
        return timed(lambda: sum(command_once(referee, game_id) for _ in records))

    def es_trial() -> tuple[int, float]:
        notice = Notice()
        app.save(notice)
        return timed(lambda: sum(es_save_once(app, notice) for _ in records))

    rates = interleaved(
        {"ours": ours_trial, "raw": raw_trial, "command": command_trial, "es": es_trial},
        sizes.reps,
    )
    raw = ("raw sqlite3", rates["raw"])
    return [
        Figure("1 append, 1 event/txn", "/s", rates["ours"], *raw, ">= 0.8", APPEND),
        Figure("1 Referee.command (info)", "/s", rates["command"], *raw, "", COMMAND),
        Figure("1 eventsourcing save (info)", "/s", rates["es"], *raw, "", ES_SAVE),
    ], {}


def raw_commit(conn: sqlite3.Connection, row: tuple) -> int:
    """One INSERT in its own durable transaction."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(INSERT, row)
    conn.execute("COMMIT")
    return 1


def command_once(referee: Referee, game_id: str) -> int:
    """One moderator announcement through the service."""
    referee.command(game_id, MODERATOR, ANNOUNCE)
    return 1


def es_save_once(app: Application, notice: Notice) -> int:
    """One eventsourcing event saved in its own transaction."""
    notice.announce(TEXT)
    app.save(notice)
    return 1


# --- 2. eight concurrent writers ---------------------------------------------------


def concurrent_appends(tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict[str, Any]]:
    """8 threads: each on its own game, all racing on one game, eventsourcing, raw sqlite3."""
    k = sizes.per_writer
    opening, records = announcement_chain(WRITERS * k)
    rows = stored_rows(opening, records)
    ours = open_store(tmp / "writers-ours.db")
    raw_database(tmp / "writers-raw.db")
    app = es_app(tmp / "writers-es.db")
    conflicts: list[int] = []
    trials = {
        "own": lambda: on_threads(own_game_writer(ours, opening, records[:k]), WRITERS),
        "race": lambda: same_game_race(ours, opening, records, conflicts),
        "es": lambda: on_threads(es_writer(app, k), WRITERS),
        "raw": lambda: on_threads(raw_writer(tmp / "writers-raw.db", rows[:k]), WRITERS),
    }
    rates = interleaved(trials, sizes.reps)
    es, raw = ("eventsourcing, 8 threads", rates["es"]), ("raw sqlite3, 8 threads", rates["raw"])
    race = f"{RACE}; median {statistics.median(conflicts):.0f} conflicts per run"
    return [
        Figure("2 8 writers, own games", "/s", rates["own"], *es, "", APPEND),
        Figure("2 8 writers, own games", "/s", rates["own"], *raw, "", APPEND),
        Figure("2 8 writers, one game", "/s", rates["race"], *es, "", race),
        Figure("2 8 writers, one game", "/s", rates["race"], *raw, "", race),
    ], {"race_conflicts": conflicts}


def own_game_writer(store: EventStore, opening: list[dict], records: list[dict]):
    """Thread i appends the records, one per transaction, to a game of its own."""

    def prepare(i: int) -> Callable[[], int]:
        game_id = new_game(store, opening)
        return lambda: sum(len(store.append(game_id, r["seq"] - 1, [r])) for r in records)

    return prepare


def same_game_race(
    store: EventStore, opening: list[dict], records: list[dict], conflicts: list[int]
) -> tuple[int, float]:
    """All threads append to one game at the version they read, retrying on Conflict."""
    game_id, lost = new_game(store, opening), [0] * WRITERS

    def prepare(i: int) -> Callable[[], int]:
        store.version(game_id)  # opens this thread's connection

        def job() -> int:
            done = 0
            while (index := store.version(game_id) - len(opening)) < len(records):
                try:
                    done += len(store.append(game_id, index + len(opening), [records[index]]))
                except Conflict:
                    lost[i] += 1
            return done

        return job

    result = on_threads(prepare, WRITERS)
    conflicts.append(sum(lost))
    return result


def es_writer(app: Application, k: int):
    """Thread i saves k events, one per save, on an aggregate of its own."""

    def prepare(i: int) -> Callable[[], int]:
        notice = Notice()
        app.save(notice)
        return lambda: sum(es_save_once(app, notice) for _ in range(k))

    return prepare


def raw_writer(path: Path, rows: list[tuple]):
    """Thread i inserts the rows, one per transaction, under a game id of its own."""

    def prepare(i: int) -> Callable[[], int]:
        conn, game_id = raw_connection(path), f"g{next(game_ids)}"
        return lambda: sum(raw_commit(conn, (game_id, *row[1:])) for row in rows)

    return prepare


# --- 3 and 4. replay, verify and fold ----------------------------------------------


def replay_and_fold(tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict[str, Any]]:
    """Verify and fold bot-game logs vs eventsourcing's repository.get of a long aggregate."""
    started = time.perf_counter()
    store, ids, logs = bot_logs(tmp / "bots.db", sizes.bot_games)
    built = time.perf_counter() - started
    total = sum(map(len, logs))
    app = es_app(tmp / "replay-es.db")
    notice = es_aggregate(app, sizes.es_events)
    assert all(verify_events(log).valid for log in logs), "a bot game log does not verify"

    trials = {
        "verify": lambda: timed(lambda: sum(verify_events(log).events for log in logs)),
        "load_verify": lambda: timed(
            lambda: sum(verify_events(store.events(g)).events for g in ids)
        ),
        "fold": lambda: timed(lambda: fold_all(logs)),
        "load_fold": lambda: timed(lambda: fold_all(store.events(g) for g in ids)),
        "es": lambda: timed(lambda: app.repository.get(notice.id).version),
    }
    rates = interleaved(trials, sizes.reps)
    es = (f"eventsourcing get, {sizes.es_events:,} events", rates["es"])
    facts = {"bot_games": len(ids), "bot_events": total, "bot_build_seconds": built}
    return [
        Figure("3 verify", "events/s", rates["verify"], *es, ">= 5", f"{VERIFY}; {LOADED}"),
        Figure(
            "3 load + verify", "events/s", rates["load_verify"], *es, ">= 5", f"{VERIFY}; {READ}"
        ),
        Figure("4 fold", "events/s", rates["fold"], *es, ">= 10", LOADED),
        Figure("4 load + fold", "events/s", rates["load_fold"], *es, ">= 10", READ),
    ], facts


def fold_all(logs) -> int:
    """Fold every log from nothing; the number of events folded."""
    return sum(game.fold(log)["seq"] for log in logs)


# --- 5. GET state through the HTTP app -----------------------------------------------


def get_latency(tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict[str, Any]]:
    """GET /games/{id} as the moderator: a 10-event game vs a big game, same app and file."""
    app = create_app({"REFEREE_DB": str(tmp / "http.db"), "TESTING": True})
    referee: Referee = app.extensions["referee"]
    started = time.perf_counter()
    small, big = http_game(referee, 10), http_game(referee, sizes.big_game)
    facts: dict[str, Any] = {"big_game_build_seconds": time.perf_counter() - started}
    figures = []
    for past in SNAPSHOT_OFFSETS:  # the big game is snapshotted every 100 events
        pad(referee, big[0], sizes.big_game + past)
        for mode, forget in GET_MODES.items():
            samples = get_samples(
                app.test_client(),
                {"small": small, "big": big},
                sizes.requests,
                before=(lambda: referee.latest.clear()) if forget else None,
            )
            median = {k: statistics.median(v) * 1000 for k, v in samples.items()}
            p95 = {k: percentile(v, 95) * 1000 for k, v in samples.items()}
            name = f"5 GET {mode}, {sizes.big_game + past:,} events"
            note = f"{GET}; {past} {PAST}; {mode}: {GET_MODE_NOTES[mode]}"
            for stat, ms in (("median", median), ("p95", p95)):
                small_ms = ("10-event game", ms["small"])
                figures.append(Figure(f"{name}, {stat}", "ms", ms["big"], *small_ms, "<= 2", note))
            facts[f"get_ms_{mode}_{past}_past_snapshot"] = {"median": median, "p95": p95}
    return figures, facts


# warm: the process holds the newest state; cold: as after a restart, from the snapshot
GET_MODES = {"warm": False, "cold": True}
GET_MODE_NOTES = {
    "warm": "newest state held in memory, events after it read",
    "cold": "memory cleared before each GET: newest snapshot + events after it",
}


def get_samples(
    client, games_: dict[str, tuple[str, str]], n: int, *, before=None
) -> dict[str, list[float]]:
    """Seconds per GET for each game, requests alternating between games after a warm-up."""
    samples: dict[str, list[float]] = {name: [] for name in games_}
    for i in range(-20, n):
        for name, (game_id, token) in games_.items():
            if before:
                before()
            start = time.perf_counter()
            response = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
            seconds = time.perf_counter() - start
            assert response.status_code == 200, response.get_data(as_text=True)
            if i >= 0:
                samples[name].append(seconds)
    return samples


# --- report ------------------------------------------------------------------------


def machine(tmp: Path) -> dict[str, Any]:
    """What the figures were measured on."""
    probe = sqlite3.connect(":memory:")
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "sqlite_default_synchronous": probe.execute("PRAGMA synchronous").fetchone()[0],
        "eventsourcing": metadata.version("eventsourcing"),
        "temp_dir": str(tmp.resolve()),
    }


def show(figures: list[Figure]) -> None:
    """The table of figures."""
    table = Table(title="referee event store benchmark")
    for column in ("Figure", "Ours", "Baseline", "Baseline value", "Ratio", "Target", "Result"):
        table.add_column(column, justify="left" if column in ("Figure", "Baseline") else "right")
    for f in figures:
        colour = {"PASS": "green", "MISS": "red"}.get(f.status, "dim")
        table.add_row(
            f.name,
            amount(f.value, f.unit),
            f.baseline,
            amount(f.baseline_value, f.unit),
            f"{f.ratio:.2f}x",
            f.target or "-",
            f"[{colour}]{f.status}[/]",
        )
    console.print(table)


def amount(value: float, unit: str) -> str:
    """A figure with its unit: milliseconds to 3 places, rates to the unit."""
    return f"{value:.3f} ms" if unit == "ms" else f"{value:,.0f} {unit}"


def finish(figures: list[Figure], facts: dict[str, Any], started: float, out: Path) -> None:
    """The run's table on the console and its figures in `out`, with how long it took."""
    facts["seconds"] = time.perf_counter() - started
    facts["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    show(figures)
    write_json(out, figures, facts)
    console.print(f"{len(figures)} figures in {facts['seconds']:.0f} s -> {out}")


def write_json(path: Path, figures: list[Figure], facts: dict[str, Any]) -> None:
    """The figures as JSON, with ratio and status spelled out."""
    rows = [{**asdict(f), "ratio": f.ratio, "status": f.status} for f in figures]
    path.write_text(json.dumps({**facts, "figures": rows}, indent=2) + "\n")


def main() -> None:
    """Run every measurement in one temporary directory and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repetitions")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "store.json")
    args = parser.parse_args()
    sizes = QUICK if args.quick else Sizes()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=OUT_DIR, prefix="run-") as name:
        tmp = Path(name)
        facts: dict[str, Any] = {"machine": machine(tmp), "sizes": asdict(sizes)}
        figures: list[Figure] = []
        for step in (single_appends, concurrent_appends, replay_and_fold, get_latency):
            console.print(f"[dim]{step.__doc__}[/]")
            found, more = step(tmp, sizes)
            figures += found
            facts.update(more)
    finish(figures, facts, started, args.out)


if __name__ == "__main__":
    main()
