"""Rate limits counted in the real Redis: shared by every process of the service, and
counted in memory, never refused or failed, while Redis does not answer."""

from referee.app import create_app

GAME = {"ruleset": "galloping-horse", "players": ["Ann", "Ben", "Cat", "Dan"]}


def served(tmp_path, broker, **config):
    return create_app(
        {
            "REFEREE_DB": str(tmp_path / "referee.db"),
            "REDIS_URL": broker,
            "RATE_LIMITS": True,
            "RATE_LIMIT_CREATE": "3 per hour",
            **config,
        }
    ).test_client()


def test_two_processes_share_one_count_in_redis(tmp_path, broker):
    first, second = served(tmp_path, broker), served(tmp_path, broker)
    answers = [c.post("/games", json=GAME).status_code for c in (first, second, first, second)]
    assert answers == [201, 201, 201, 429]


def test_with_redis_gone_limits_are_counted_in_memory_and_nothing_fails(tmp_path):
    gone = f"redis+socket://{tmp_path / 'nothing.sock'}"
    client = served(tmp_path, gone)
    answers = [client.post("/games", json=GAME).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]
