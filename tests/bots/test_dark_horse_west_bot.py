"""Dark Horse West's bot: samples consistent with the seat's view (every seat, 1-4
players, Gunslinger and Solitaire), tables the rules play on to the end, a policy and an
evaluation without floats, and a strong choice that does not depend on what the seat
cannot see."""

import copy
from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, levels, simulate
from referee.bots.matches import played_alone
from referee.engine import game
from referee.engine.rng import Rng
from referee.games import dark_horse_west as dhw
from referee.games.dark_horse_west import bot, table
from referee.games.dark_horse_west.data import card_kind

State = dict[str, Any]
TABLES = [
    (1, {}),
    (1, {"scenario": "marshal_law", "difficulty": "cruel"}),
    (1, {"scenario": "wild_frontiers", "difficulty": "ornery"}),
    (2, {}),
    (2, {"gunslinger": True}),
    (3, {"characters": "choose"}),
    (4, {}),
]


def random_game(players: int, seed: str, options: dict[str, Any]) -> Iterator[State]:
    """The engine states of a seeded random-bot game, from setup to the end."""
    names = [f"p{s}" for s in range(players)]
    state = game.fold(game.create(dhw.NAME, names, options, seed))
    rng = Rng(f"bot:{seed}")
    for turn in range(20_000):
        yield state
        if simulate.is_over(state):
            return
        actor, command = choose(state, rng, turn)
        state = simulate.step(state, actor, command, Rng(f"{seed}/{turn}"))[1]
    raise AssertionError("a random dark-horse-west game ends within 20000 commands")


@cache
def table_game(index: int) -> list[State]:
    """The states of the random game of TABLES[index], played once for every test."""
    players, options = TABLES[index]
    return list(random_game(players, f"table/{index}", options))


def every(states: Iterable[State], step: int) -> Iterator[tuple[int, State]]:
    """Every `step`-th state, numbered."""
    for n, state in enumerate(states):
        if n % step == 0:
            yield n, state


@pytest.mark.parametrize("index", range(len(TABLES)))
def test_a_sample_shows_every_seat_exactly_its_view(index):
    players = TABLES[index][0]
    checked = Counter()
    for n, state in every(table_game(index), 2 * players + 1):
        rules = state["rules"]
        for seat in range(players):
            seen = dhw.view(rules, seat)
            sampled = bot.sample(seen, seat, Rng(f"s/{n}/{seat}"))
            assert dhw.view(sampled, seat) == seen
            assert dhw.to_move(sampled) == dhw.to_move(rules)
            checked[rules["phase"]] += 1
    assert checked["placement"] > 10 and checked["collection"] > 10


@pytest.mark.parametrize("index", range(len(TABLES)))
def test_a_sampled_table_is_one_the_rules_play_on_to_the_end(index):
    players = TABLES[index][0]
    states = table_game(index)
    for k, state in enumerate(states[1 : -1 : len(states) // 3]):
        seat = k % players
        view = game.view(state, seat)
        sampled = bot.sample(view["state"], seat, Rng(f"deal/{k}"))
        _same_cards(sampled, state["rules"])
        table = simulate.table(view, seat, sampled)
        for turn in range(5_000):
            if simulate.is_over(table):
                break
            mover = simulate.actors(table)[0]
            moves = simulate.commands(table, mover)
            move = bot.policy(table["rules"], mover, moves, Rng(f"p/{k}/{turn}"))
            assert move in moves
            table = simulate.step(table, mover, move, Rng(f"c/{k}/{turn}"))[1]
        assert simulate.is_over(table)


def _same_cards(sampled: State, rules: State) -> None:
    """The sample holds the game's cards, each once, and hands hold no events."""
    places = ("deck", "discard", "events", "temporary", "removed", "event_pile")
    held = [c for key in places for c in sampled[key]] + [c for h in sampled["hands"] for c in h]
    task = sampled["task"] or {}
    held += task.get("drawn", []) if task.get("kind") == "keep" else []
    truth = [c for key in places for c in rules[key]] + [c for h in rules["hands"] for c in h]
    truth += (rules["task"] or {}).get("drawn", []) if task.get("kind") == "keep" else []
    assert sorted(held) == sorted(truth)
    assert all(card_kind(c) != "event" for h in sampled["hands"] for c in h)
    assert set(sampled["layout"].values()) <= set(table.board_of(rules).tiles)
    assert len(set(sampled["layout"].values())) == len(sampled["layout"])


def test_samples_vary_what_the_seat_cannot_see_and_keep_what_it_can():
    state = _midgame(2, "vary")
    rules = state["rules"]
    seen = dhw.view(rules, 0)
    samples = [bot.sample(seen, 0, Rng(f"v{i}")) for i in range(40)]
    unseen = [h for h in seen["face_down"] if h not in seen["tiles_seen"]]
    assert unseen
    assert len({tuple(s["layout"][h] for h in unseen) for s in samples}) > 20
    assert len({tuple(s["deck"]) for s in samples}) > 20
    for sampled in samples:
        assert sampled["hands"][0] == rules["hands"][0]
        assert all(sampled["layout"][h] == t for h, t in seen["tiles_seen"].items())
        assert all(sampled["layout"][h] == t for h, t in seen["face_up"].items())


def test_an_unseen_tile_lands_on_each_unseen_hex():
    """Uniform among the consistent layouts: over many samples every tile the seat has not
    seen turns up on an unseen hex (with two players, one of them lies out of the game)."""
    for players in (2, 4):
        state = _midgame(players, f"uniform/{players}")
        seen = dhw.view(state["rules"], 0)
        unseen = [h for h in seen["face_down"] if h not in seen["tiles_seen"]]
        where = Counter()
        for i in range(400):
            sampled = bot.sample(seen, 0, Rng(f"u{i}"))
            where.update((h, sampled["layout"][h]) for h in unseen[:1])
        tiles = {t for _, t in where}
        shown = set(seen["face_up"].values()) | set(seen["tiles_seen"].values())
        assert not tiles & shown
        assert min(where.values()) > 400 // (3 * len(tiles))


def _midgame(players: int, seed: str, moves: int = 120) -> State:
    """A game played this far by the policy (seat 0 still sees face-down tiles it has not
    looked at)."""
    state = game.fold(game.create(dhw.NAME, [f"p{s}" for s in range(players)], {}, seed))
    for n in range(moves):
        mover = simulate.actors(state)[0]
        move = bot.policy(state["rules"], mover, simulate.commands(state, mover), Rng(f"m{n}"))
        state = simulate.step(state, mover, move, Rng(f"{seed}/{n}"))[1]
    return state


def test_policy_and_evaluate_decide_without_floats():
    for index in (0, 3, 6):
        players = TABLES[index][0]
        for _n, state in every(table_game(index), 31 * players):
            rules = state["rules"]
            shares = bot.evaluate(rules, 0)
            assert all(isinstance(s, Fraction) and 0 <= s <= 1 for s in shares)
            assert len(shares) == players
            assert players == 1 or sum(shares) == 1
            for seat in dhw.to_move(rules):
                worth = bot.Worth(rules, seat)
                assert all(type(worth.of(c)) is int for c in dhw.legal(rules, seat))


def test_the_policy_beats_the_standard_bot():
    """The playout policy alone, in seat 0 and seat 1 in turn, against the timeout move."""
    won = 0
    for g in range(4):
        state = game.fold(game.create(dhw.NAME, ["a", "b"], {}, f"policy/{g}"))
        for n in range(5_000):
            if simulate.is_over(state):
                break
            mover = simulate.actors(state)[0]
            if mover == g % 2:
                view = game.view(state, mover)
                sampled = bot.sample(view["state"], mover, Rng(f"s/{g}/{n}"))
                move = bot.policy(sampled, mover, view["legal"], Rng(f"p/{g}/{n}"))
            else:
                move = game.timeout_move(state, mover)
            state = simulate.step(state, mover, move, Rng(f"c/{g}/{n}"))[1]
        won += (g % 2) in state["outcome"]["winners"]
    assert won >= 3


# --- noninterference --------------------------------------------------------------------


def twins(players: int, seed: str) -> tuple[State, State]:
    """Two tables that differ only in what seat 0 cannot see: another seat's hand (a card
    swapped with one in the deck), two face-down tiles seat 0 has not seen, and the order
    of the undrawn deck; seat 0 is asked to place its dice."""
    state = _midgame(players, seed, moves=60)
    while not _placing(state, 0):
        mover = simulate.actors(state)[0]
        move = bot.policy(state["rules"], mover, simulate.commands(state, mover), Rng("t"))
        state = simulate.step(state, mover, move, Rng(f"{seed}/t/{state['seq']}"))[1]
    other = copy.deepcopy(state)
    rules = other["rules"]
    rules["deck"] = list(reversed(rules["deck"]))
    holder = next((s for s in range(1, players) if rules["hands"][s]), None)
    if holder is not None and rules["deck"]:
        hand = rules["hands"][holder]
        swap = next(c for c in rules["deck"] if card_kind(c) != "event")
        rules["deck"][rules["deck"].index(swap)] = hand[0]
        rules["hands"][holder] = sorted([swap, *hand[1:]])
    seen = dhw.view(rules, 0)
    unseen = [h for h in seen["face_down"] if h not in seen["tiles_seen"]]
    one, two = unseen[0], unseen[-1]
    rules["layout"][one], rules["layout"][two] = rules["layout"][two], rules["layout"][one]
    assert rules != state["rules"]
    return state, other


def _placing(state: State, seat: int) -> bool:
    step = state["rules"]["step"]
    return bool(step and step["kind"] == "place" and step["seat"] == seat)


@pytest.mark.parametrize("players", [2, 4])
def test_noninterference_the_strong_choice_ignores_what_the_seat_cannot_see(players):
    first, second = twins(players, f"twins/{players}")
    one, two = game.view(first, 0), game.view(second, 0)
    assert one == two
    for i in range(2):
        mine = Rng(f"me/{i}")
        assert levels.choose(one, 0, "strong", mine, iterations=30) == levels.choose(
            two, 0, "strong", mine, iterations=30
        )


# --- Solitaire: the work left to the scenario's victory ---


def solitaire_table() -> State:
    """A Tenderfoot table of a random game: its first city placed, sites for towns."""
    return next(
        s["rules"]
        for s in table_game(0)
        if table.cities_of(s["rules"], 0) and table.town_sites(s["rules"], 0)
    )


def test_solitaire_work_left_falls_with_a_resource_short_a_build_and_a_rail_to_a_site():
    rules = solitaire_table()
    work = bot.work_left(rules)
    assert table.cities_left(rules, 0) and table.towns_left(rules, 0)
    more = copy.deepcopy(rules)
    more["goods"][0]["wood"] += 1  # every city still to build takes four
    assert bot.work_left(more) == work - bot.SHORT
    built = copy.deepcopy(rules)
    built["towns"][table.town_sites(rules, 0)[0]] = 0  # a town, as if free
    assert bot.work_left(built) <= work - bot.BUILD
    nearer = [e for e in table.rail_sites(rules, 0) if _with_rail(rules, e) == work - bot.RAIL]
    assert bot.rails_short(rules, 3, 6) > 0 and nearer  # a rail towards a site
    assert all(_with_rail(rules, e) <= work for e in table.rail_sites(rules, 0))


def _with_rail(rules: State, edge: str) -> int:
    return bot.work_left({**rules, "rails": [*rules["rails"], edge]})


def test_solitaire_is_weighed_against_the_pace_from_where_the_search_began():
    rules = solitaire_table()
    sampled = bot.sample(dhw.view(rules, 0), 0, Rng("sample"))
    assert sampled[bot.SEARCHED_FROM] == [bot.work_left(rules), rules["round"]]
    later = {**sampled, "round": sampled["round"] + 1}
    richer = copy.deepcopy(later)
    richer["goods"][0]["wood"] += 4
    assert bot.on_the_way(richer) > bot.on_the_way(later)  # work done tells within a turn
    assert bot.on_the_way(later) < Fraction(1, 2)  # a turn gone, nothing done: behind
    won = {**sampled, "towns": {**sampled["towns"]}, "cities": {**sampled["cities"]}}
    for h in bot._town_hexes(won)[: table.towns_left(won, 0)]:
        won["towns"][h] = 0
    for h in ("-1,0", "8,4", "3,8")[: table.cities_left(won, 0)]:
        won["cities"][h] = 0
    assert bot.on_the_way(won) == 1


def test_the_strong_solitaire_bot_builds_where_random_play_does_not():
    """Tenderfoot, 28 turns, three seeded games: random play builds a town or two beyond
    the setup's city and two towns; the strong bot, on a small budget, leaves less work
    in every game, builds more in all and meets the victory in one."""
    strong = [solitaire_game(index, "strong") for index in range(3)]
    random_ = [solitaire_game(index, "random") for index in range(3)]
    assert all(bot.work_left(s) < bot.work_left(r) for s, r in zip(strong, random_, strict=True))
    assert sum(map(_built, strong)) >= sum(map(_built, random_)) + 6
    assert any(bot.solitaire.victory(s) for s in strong)


def _built(rules: State) -> int:
    return len(table.cities_of(rules, 0)) + len(table.towns_of(rules, 0))


def solitaire_game(index: int, level: str) -> State:
    """The rules table at the end of bench/solitaire.py's game `index` played by the bot
    of `level` on a budget of 30."""
    seed, key = f"solo/{index}", f"b/{index}"
    return played_alone(dhw.NAME, {}, seed, level, key, iterations=30)["rules"]
