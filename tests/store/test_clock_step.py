"""A wall clock stepped back while a game is in play (an NTP correction): the store's
times never go backwards within a game, so the genuine log verifies."""

from datetime import UTC, datetime, timedelta

from stores import store_target

from referee.engine import game
from referee.service import Referee
from referee.store import open_store, stamp
from replays.verify import verify_bytes

SEED = "clock-step"


class SteppedClock:
    """A clock that ticks a millisecond a reading and is set back an hour when told."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 12, tzinfo=UTC)

    def __call__(self) -> str:
        self.now += timedelta(milliseconds=1)
        return stamp(self.now)

    def step_back(self) -> None:
        self.now -= timedelta(hours=1)


def play(referee: Referee, game_id: str, moves: int) -> None:
    """The first legal command of the seat to move, `moves` times."""
    for _ in range(moves):
        state = referee.state(game_id)
        seat = game.to_move(state)[0]
        referee.command(game_id, seat, game.legal(state, seat)[0], expected_version=state["seq"])


def test_a_clock_set_back_mid_game_stamps_no_earlier_time_and_the_log_verifies(
    tmp_path, backend, request
):
    clock = SteppedClock()
    store = open_store(store_target(backend, tmp_path / "store.db", request), clock=clock)
    referee = Referee(store)
    game_id = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
    play(referee, game_id, 3)
    before = store.events(game_id)[-1]["recorded_at"]
    clock.step_back()
    play(referee, game_id, 3)
    times = [e["recorded_at"] for e in store.events(game_id)]
    assert times == sorted(times)
    stepped = times[times.index(before) :]
    assert len(stepped) > 1 and set(stepped) == {before}  # the clock reads earlier: held
    referee.command(game_id, "moderator", {"type": "abandon", "reason": "test"})
    report = verify_bytes(store.log_lines(game_id))
    assert report.valid, (report.code, report.reason)


def test_a_clock_set_back_in_one_game_leaves_another_games_times_alone(tmp_path, backend, request):
    clock = SteppedClock()
    store = open_store(store_target(backend, tmp_path / "store.db", request), clock=clock)
    referee = Referee(store)
    first = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
    clock.step_back()
    second = referee.create_game("galloping-horse", ["A", "B", "C", "D"], {}, SEED)["game_id"]
    assert store.events(second)[0]["recorded_at"] < store.events(first)[0]["recorded_at"]
