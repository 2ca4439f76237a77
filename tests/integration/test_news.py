"""News between processes on a real Redis: each Herald stands for a web process, with
its own Hub and its own threads. A process hears only the games it holds streams on."""

import redis

from referee.live import CHANNEL, Herald, Hub

BOUND = 60.0  # seconds: how long a test waits on an event before it fails


def heralds(broker: str) -> tuple[Herald, Herald]:
    return Herald(Hub(), broker), Herald(Hub(), broker)


def test_news_of_a_watched_game_reaches_the_other_process_and_of_no_other_game(broker):
    sender, watcher = heralds(broker)
    with watcher.watching("watched"):
        sender.announce("elsewhere", 7)  # published first, on the same connection
        sender.announce("watched", 5)
        assert watcher.hub.wait("watched", 0, BOUND)
    assert watcher.hub._versions == {"watched": 5}


def test_the_last_stream_on_a_game_ends_its_subscription(broker):
    watcher = Herald(Hub(), broker)
    client = redis.Redis(unix_socket_path=broker.removeprefix("redis+socket://"))
    channel = CHANNEL + "game"
    with watcher.watching("game"), watcher.watching("game"):
        assert dict(client.pubsub_numsub(channel)) == {channel.encode(): 1}
    while dict(client.pubsub_numsub(channel)) != {channel.encode(): 0}:
        assert watcher.hub.wait("game", 0, 0.05) is False  # no news meanwhile


def test_a_stream_opened_again_after_the_last_one_closed_hears_news(broker):
    sender, watcher = heralds(broker)
    with watcher.watching("game"):
        pass
    with watcher.watching("game"):
        sender.announce("game", 3)
        assert watcher.hub.wait("game", 0, BOUND)


def test_a_stream_opens_at_once_when_redis_cannot_be_reached(tmp_path):
    """No wait for a listener that cannot subscribe: the stream wakes by the clock."""
    watcher = Herald(Hub(), f"redis+socket://{tmp_path / 'no-redis.sock'}")
    with watcher.watching("game", wait=3600):
        watcher.announce("game", 2)  # this process's own news needs no Redis
        assert watcher.hub.wait("game", 0, BOUND)


def test_the_listener_lives_on_when_its_connection_is_closed_under_it(broker, monkeypatch):
    """redis-py reading a socket closed as the broker goes away raises ValueError, not a
    RedisError: the listener subscribes again instead of dying with it."""
    real, broken = Herald._news, []

    def news(self):
        if not broken:
            broken.append(True)
            raise ValueError("I/O operation on closed file.")
        yield from real(self)

    monkeypatch.setattr(Herald, "_news", news)
    sender, watcher = heralds(broker)
    with watcher.watching("game"):
        sender.announce("game", 4)
        assert watcher.hub.wait("game", 0, BOUND)
    assert broken == [True]
