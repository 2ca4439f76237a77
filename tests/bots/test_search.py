"""The search: integer UCB, rewards, determinism for a fixed Rng, the levels' entry point."""

import math

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import levels, search, simulate
from referee.engine import game
from referee.engine.rng import Rng

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def opening_view(seed: str = "search", seat: int = 0) -> dict:
    state = game.fold(game.create("galloping-horse", PLAYERS, {}, seed))
    return game.view(state, seat)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 1000, 123_456, 10**9])
def test_integer_log_is_within_one_unit_of_the_float_one(n):
    assert abs(search._ln(n) - math.log(n) * search.SCALE) <= 2


def test_rewards_share_a_tie_and_give_nothing_to_losers():
    assert search.rewards({"winners": [2]}, 4) == [0, 0, search.REWARD, 0]
    third = search.REWARD // 3
    assert search.rewards({"winners": [0, 1, 3]}, 4) == [third, third, 0, third]
    assert search.REWARD % 16 == 0 and all(search.REWARD % k == 0 for k in range(1, 17))


def test_the_strong_choice_is_the_same_for_the_same_rng():
    view = opening_view()
    chosen = [levels.choose(view, 0, "strong", Rng("mine"), iterations=60) for _ in range(2)]
    assert chosen[0] == chosen[1] and chosen[0] in view["legal"]


def test_the_search_itself_is_deterministic_visit_for_visit():
    view = opening_view()
    bot = levels.bot_of("galloping-horse")
    pieces = search.Pieces.of(bot)

    def visits(rng_seed: str) -> list[int]:
        run = search.Search(view, 0, list(view["legal"]), pieces)
        rng = Rng(rng_seed)
        for i in range(80):
            search.iterate(run, Rng(rng.hex(f"i/{i}")))
        return search.root_visits(run)

    assert visits("a") == visits("a")
    assert sum(visits("a")) == 80
    assert visits("a") != visits("b")  # the Rng does steer it


def test_a_lone_legal_move_is_played_without_search():
    view = opening_view()
    view = {**view, "legal": view["legal"][:1]}
    assert levels.choose(view, 0, "strong", Rng("x"), iterations=10**9) == view["legal"][0]


def test_levels_random_and_standard():
    view = opening_view()
    drawn = {str(levels.choose(view, 0, "random", Rng(f"r{i}"))) for i in range(40)}
    assert drawn == {str(c) for c in view["legal"]}
    state = game.fold(game.create("galloping-horse", PLAYERS, {}, "search"))
    assert levels.choose(view, 0, "standard", Rng("s")) == game.timeout_move(state, 0)


def test_an_unknown_level_or_no_legal_move_is_refused():
    view = opening_view()
    with pytest.raises(ValueError, match="unknown bot level"):
        levels.choose(view, 0, "expert", Rng("x"))
    with pytest.raises(ValueError, match="no legal command"):
        levels.choose(opening_view(seat=1), 1, "random", Rng("x"))


def test_the_bot_reads_no_seed_and_no_commitment():
    view = opening_view()
    other = {**view, "seed_commitment": "0" * 64, "seed": "leaked", "clock": None}
    for level in levels.LEVELS:
        assert levels.choose(view, 0, level, Rng("x"), iterations=30) == levels.choose(
            other, 0, level, Rng("x"), iterations=30
        )


def test_table_rebuilds_the_engine_state_from_a_view():
    state = game.fold(game.create("galloping-horse", PLAYERS, {}, "table"))
    view = game.view(state, 2)
    rebuilt = simulate.table(view, 2, state["rules"])
    assert simulate.actors(rebuilt) == game.to_move(state)
    assert rebuilt["seq"] == state["seq"] and rebuilt["status"] == "active"
    assert "seed" not in view or view["seed"] is None
