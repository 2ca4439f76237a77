"""The search: integer UCB, rewards, determinism for a fixed Rng, the levels' entry point."""

import math
from fractions import Fraction

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, levels, search, simulate
from referee.engine import game
from referee.engine.rng import Rng

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
T0 = 1_800_000_000


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


SMOKE = [  # ruleset, seats, options, random moves before the search
    ("dark-horse", 3, {}, 25),
    ("royal-turf", 3, {"hidden_bets": True}, 2),  # betting: other seats' chips are sealed
    ("dark-horse-west", 2, {}, 25),
    ("blackout-middle", 4, {}, 25),
]


@pytest.mark.parametrize("ruleset,seats,options,before", SMOKE, ids=lambda v: str(v))
def test_the_search_plays_every_kind_of_game_with_given_pieces(ruleset, seats, options, before):
    """The machinery on turns, sealed bets in turns and sealed rounds: pieces that hand the
    search the true rules state (for this test only) and cut playouts short."""
    seed = f"smoke/{ruleset}"
    state = game.fold(game.create(ruleset, [f"p{s}" for s in range(seats)], options, seed, now=T0))
    rng = Rng("smoke-bots")
    for turn in range(before):
        actor, command = choose(state, rng, turn)
        state = game.step(state, actor, command, seed)[1]
    seat = next(a for a in game.to_move(state) if isinstance(a, int))
    view = game.view(state, seat)
    even = [Fraction(1, seats)] * seats
    pieces = search.Pieces(
        sample=lambda seen, s, r: state["rules"],
        evaluate=lambda rules_state, s: even,
        playout_moves=12,
    )
    moves = levels.root_moves(view, seat, pieces, Rng("m"))
    run = search.Search(view, seat, moves, pieces)
    for i in range(30):
        search.iterate(run, Rng(f"smoke/{i}"))
    assert sum(search.root_visits(run)) == 30
    chosen = search.best(run)
    assert chosen in view["legal"]
    if ruleset in ("royal-turf", "blackout-middle"):  # others' sealed moves: one edge
        assert unseen_edges(run.root) > 0


def unseen_edges(node: search.Node) -> int:
    """The edges of other seats' moves the searching seat cannot see, in a tree."""
    found = 0
    for (_, key), edge in node.edges.items():
        found += key == search.UNSEEN
        found += sum(unseen_edges(child) for child in edge.after.values())
    return found


def test_a_seat_that_sent_orders_searches_its_orders_again():
    seed = "search/again"
    state = game.fold(game.create("blackout-middle", PLAYERS, {}, seed, now=T0))
    sent = [c for c in game.legal(state, 0) if c["type"] == "submit_orders"][0]
    state = game.step(state, 0, {**sent, "now": T0 + 1}, seed)[1]
    view = game.view(state, 0)
    pieces = search.Pieces(sample=lambda seen, s, r: state["rules"])
    moves = levels.root_moves(view, 0, pieces, Rng("m"))
    run = search.Search(view, 0, moves, pieces)
    for i in range(len(moves) + 2):
        search.iterate(run, Rng(f"again/{i}"))
    assert sum(search.root_visits(run)) == len(moves) + 2


def test_a_ruleset_may_have_other_seats_play_by_its_policy_not_the_tree():
    """Dark Horse's bot (OPPONENTS_SEARCHED = False): another seat's move, visible or
    not, is one edge drawn by the policy on the sampled table; what it showed the observer
    still picks the child node. With the default every visible move is an edge of its own."""
    seed = "search/opponents"
    state = game.fold(game.create("dark-horse", PLAYERS, {}, seed, now=T0))
    rng = Rng("opponents")
    for turn in range(10):
        actor, command = choose(state, rng, turn)
        state = game.step(state, actor, command, seed)[1]
    seat = next(a for a in game.to_move(state) if isinstance(a, int))
    view = game.view(state, seat)
    bot = levels.bot_of("dark-horse")
    assert bot.OPPONENTS_SEARCHED is False

    def others(searched: bool) -> tuple[set, int]:
        pieces = search.Pieces.of(bot)
        pieces.opponents_searched = searched
        run = search.Search(view, seat, list(view["legal"]), pieces)
        for i in range(300):
            search.iterate(run, Rng(f"opponents/{i}"))
        keys = other_seats_keys(run.root, seat)
        return {key == search.UNSEEN for key in keys}, len(keys)

    by_policy, searched = others(False), others(True)
    assert by_policy[0] == {True} and by_policy[1] > 0
    assert searched[0] == {False} and searched[1] > by_policy[1]


def other_seats_keys(node: search.Node, seat: int) -> list[bytes]:
    """The keys of the edges of seats other than `seat`, in a tree."""
    found = []
    for (mover, key), edge in node.edges.items():
        if isinstance(mover, int) and mover != seat:
            found.append(key)
        for child in edge.after.values():
            found.extend(other_seats_keys(child, seat))
    return found
