"""The Royal Turf bot. Its sampler: from any seat's view of a table reached by seeded
random games (2-6 players, the variants alone and together), it draws a full table that
shows that seat the same view, that the rules play on to the end, and whose hidden parts
(other seats' sealed chips, the cards of earlier races) are drawn uniformly. Its strong
choice: the same, for the same bot Rng, in games that differ only in what the seat may
not know (another seat's sealed chip, the undrawn deck, the seed's future)."""

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from referee import bots
from referee.bots import levels, simulate
from referee.engine import game
from referee.engine.rng import Rng
from referee.games.royal_turf import bot, legal, outcome, timeout_move, to_move, view
from referee.games.royal_turf.cards import horse_of
from referee.games.royal_turf.data import HIDDEN_BETS_CHIPS, HORSES
from referee.games.royal_turf.options import VARIANTS

RULESET = "royal-turf"
MIXES = {
    "standard": {},
    **{name: {name: True} for name in VARIANTS},
    "all": dict.fromkeys(VARIANTS, True),
    "hidden_bets+free_zero": {"hidden_bets": True, "zero_chip_uses_bet": False},
}
EVERY = 5  # turns between the points a game is sampled at
PLAYOUTS = 2  # points per game whose samples are played to the end


def played(players: int, options: dict[str, Any], seed: str):
    """The engine states of a seeded random-bot game: one before every command, and the
    finished game."""
    names = [f"p{s}" for s in range(players)]
    state = game.fold(game.create(RULESET, names, options, seed))
    chance = Rng(f"bot:{seed}")
    for turn in itertools.count():
        yield state
        if game.is_over(state):
            return
        actor, command = bots.choose(state, chance, turn)
        state = game.step(state, actor, command, seed)[1]


def play_out(state: game.State, rules: dict[str, Any], seed: str) -> game.State:
    """The engine state with `rules` as its table, played by random bots to the end."""
    state = {**state, "rules": rules}
    chance = Rng(f"playout:{seed}")
    for turn in range(2_000):
        if game.is_over(state):
            return state
        actor, command = bots.choose(state, chance, turn)
        state = game.step(state, actor, command, seed)[1]
    raise AssertionError("the sampled table did not play to its end")


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("mix", MIXES)
def test_a_sampled_table_shows_the_seat_its_view_and_plays_to_the_end(mix, players):
    seed = f"sampled-{mix}-{players}"
    states = list(played(players, MIXES[mix], seed))
    points = states[::EVERY]
    played_out = set(range(0, len(points), len(points) // PLAYOUTS + 1))
    for index, state in enumerate(points):
        real = state["rules"]
        for seat in range(players):
            seen = view(real, seat)
            drawn = bot.sample(seen, seat, Rng(f"sample:{seed}/{index}/{seat}"))
            assert view(drawn, seat) == seen
            assert drawn.keys() == real.keys()
            assert to_move(drawn) == to_move(real)
            assert legal(drawn, seat) == legal(real, seat)
            assert drawn["sealed"].keys() == real["sealed"].keys()
            assert [s for s in drawn["sealed"].values() if s["seat"] == seat] == [
                {**s, "salt": drawn["sealed"][k]["salt"]}
                for k, s in real["sealed"].items()
                if s["seat"] == seat
            ]
            if index in played_out:
                assert play_out(state, drawn, f"{seed}/{index}/{seat}")["outcome"]


def a_state(options: dict[str, Any], players: int, seed: str, until) -> game.State:
    """The first state of a seeded random game where `until(rules state)` holds."""
    for state in played(players, options, seed):
        if until(state["rules"]):
            return state
    raise AssertionError("the game never got there")


def test_sealed_chips_are_drawn_uniformly_among_those_the_seat_could_have_put_down():
    def two_sealed_bets_of_seat_1(rules):
        return sum(b["seat"] == 1 for b in rules["bets"]) == 2 and rules["turn"] == 0

    real = a_state({"hidden_bets": True}, 3, "uniform-chips", two_sealed_bets_of_seat_1)["rules"]
    seen = view(real, 0)
    draws = 1400
    counted = Counter()
    for n in range(draws):
        drawn = bot.sample(seen, 0, Rng(f"draw/{n}"))
        values = tuple(b["chip"] for b in drawn["bets"] if b["seat"] == 1)
        counted[values] += 1
        assert sorted([*values, *drawn["chips"][1]]) == sorted(HIDDEN_BETS_CHIPS)
    pairs = set(itertools.permutations(HIDDEN_BETS_CHIPS, 2))  # 7 distinct pairs
    assert set(counted) == pairs
    expected = draws // len(pairs)  # 200; a draw over the 12 orderings gives 117 or 233
    assert all(expected - 50 <= c <= expected + 50 for c in counted.values()), counted


def test_a_free_zero_chip_is_the_only_chip_that_may_share_a_horse():
    def zero_chip_shared(rules):
        mine = [b for b in rules["bets"] if b["seat"] == 1]
        return rules["turn"] == 0 and len(mine) > len({b["horse"] for b in mine})

    options = {"hidden_bets": True, "zero_chip_uses_bet": False}
    real = a_state(options, 2, "free-zero", zero_chip_shared)["rules"]
    seen = view(real, 0)
    for n in range(200):
        drawn = bot.sample(seen, 0, Rng(f"draw/{n}"))
        theirs = [b for b in drawn["bets"] if b["seat"] == 1]
        shared = [h for h, k in Counter(b["horse"] for b in theirs).items() if k > 1]
        assert [b["chip"] for b in theirs if b["horse"] in shared].count(0) == 1


@pytest.mark.parametrize("royal_turf_cards", [False, True])
def test_cards_of_earlier_races_are_drawn_uniformly_from_those_off_the_table(royal_turf_cards):
    options = {"royal_turf_cards": royal_turf_cards}
    real = a_state(options, 4, f"deck-{royal_turf_cards}", lambda r: r["race"] == 2)["rules"]
    seen = view(real, 0)
    on_table = set(real["cards"].values())
    draws = 900
    counted = Counter()
    for n in range(draws):
        deck = bot.sample(seen, 0, Rng(f"draw/{n}"))["deck"]
        assert len(deck) == len(real["deck"]) and not on_table & set(deck)
        if royal_turf_cards:  # one card a horse went to race 1, one lies in the deck
            assert sorted(map(horse_of, deck)) == sorted(HORSES)
        counted.update(deck)
    off_table = len(counted)
    assert off_table == (14 if royal_turf_cards else 21) and set(real["deck"]) <= set(counted)
    expected = draws * len(real["deck"]) // off_table  # each card: 450 or 600
    assert all(expected - 75 <= c <= expected + 75 for c in counted.values()), counted


# --- the playout policy and the evaluation ----------------------------------------------


def uniform(state, seat, commands, rng):
    return commands[
        rng.below(f"uniform/{state['race']}/{len(state['bets'])}/{state['moves']}", len(commands))
    ]


def standard(state, seat, commands, rng):
    return timeout_move(state, seat)


def share_of(players: int, mine, theirs, games: int) -> Fraction:
    """The win share of a seat playing by `mine` (going round the table) against seats
    playing by `theirs`, over seeded games stepped on the pure engine."""
    won = Fraction(0)
    for index in range(games):
        seed, me = f"policy/{players}/{index}", index % players
        names = [f"p{s}" for s in range(players)]
        state = game.fold(game.create(RULESET, names, {}, seed))
        chance = Rng(seed)
        while not simulate.is_over(state):
            seat = simulate.actors(state)[0]
            rules = state["rules"]
            move = (mine if seat == me else theirs)(rules, seat, legal(rules, seat), chance)
            state = simulate.step(state, seat, move, chance)[1]
        winners = state["outcome"]["winners"]
        won += Fraction(1, len(winners)) if me in winners else 0
    return won / games


@pytest.mark.parametrize(
    "players, against, least",
    [(2, uniform, 0.9), (4, uniform, 0.6), (2, standard, 0.9), (4, standard, 0.6)],
)
def test_the_playout_policy_beats_uniform_and_standard_play(players, against, least):
    # measured over 300 games: 1.0 and 0.9 against uniform, 1.0 and 0.97 against standard
    assert share_of(players, bot.policy, against, 40) >= least


def test_the_policy_gives_the_roll_to_the_horse_it_helps_the_seat_most():
    def racing_with_a_choice(rules):
        return rules["phase"] == "racing" and rules["turn"] == 0 and len(legal(rules, 0)) > 2

    state = a_state({}, 2, "policy-roll", racing_with_a_choice)["rules"]
    stake = bot.stakes(state, 0)
    gains = {
        c["horse"]: bot._move_gain(state, stake[c["horse"]], c["horse"]) for c in legal(state, 0)
    }
    best = max(gains, key=gains.__getitem__)
    assert sorted(gains.values())[-2] < gains[best]
    picked = Counter(
        bot.policy(state, 0, legal(state, 0), Rng(f"roll/{n}"))["horse"] for n in range(80)
    )
    assert picked.most_common(1)[0][0] == best and picked[best] >= 60


def test_evaluate_shares_the_win_by_money_and_narrows_as_the_races_go_by():
    state = a_state({}, 3, "evaluate", lambda r: r["race"] == 2 and r["phase"] == "betting")[
        "rules"
    ]
    even = {**state, "money": [1000, 1000, 1000], "bets": []}
    assert bot.evaluate(even, 0) == [Fraction(1, 3)] * 3
    ahead = {**even, "money": [1600, 1000, 1000]}
    shares = bot.evaluate(ahead, 0)
    assert sum(shares) == 1 and shares[0] > shares[1] == shares[2]
    later = {**ahead, "race": 3}
    assert bot.evaluate(later, 0)[0] > shares[0]


def test_evaluate_of_a_finished_game_is_its_outcome():
    final = list(played(3, {}, "evaluate-end"))[-1]
    winners = outcome(final["rules"])["winners"]
    assert game.is_over(final)
    assert bot.evaluate(final["rules"], 0) == [
        Fraction(1, len(winners)) if seat in winners else 0 for seat in range(3)
    ]


# --- noninterference -----------------------------------------------------------------

BOT_SEAT = 0
TWIN_ITERATIONS = 24  # enough for the search to take its sample, policy and playouts


def without_digests(value: Any) -> Any:
    """A view with each sealed bet's commitment left out: a salted digest of the bet, which
    differs whenever the bet does (docs/log-format.md) and which the bot never reads."""
    if isinstance(value, dict):
        return {k: without_digests(v) for k, v in value.items() if k != "commitment"}
    if isinstance(value, list):
        return [without_digests(v) for v in value]
    return value


def strong(state: game.State, turn: int) -> dict[str, Any]:
    """The bot seat's strong choice from its API view, with a bot Rng fixed by the turn."""
    shown = game.view(state, BOT_SEAT)
    return levels.choose(shown, BOT_SEAT, "strong", Rng(f"bot/{turn}"), iterations=TWIN_ITERATIONS)


def other_chip(state: game.State, command: dict[str, Any]) -> dict[str, Any]:
    """Seat 1's bet in game B: the same horse, another chip it holds there."""
    for bet in game.legal(state, 1):
        if bet["horse"] == command["horse"] and bet["chip"] != command["chip"]:
            return bet
    raise AssertionError(f"seat 1 has no other chip for {command['horse']}")


def test_another_seats_sealed_chip_changes_neither_the_view_nor_the_strong_choice():
    seed, options = "twin-chip", {"hidden_bets": True}
    names = ["p0", "p1", "p2"]
    a = b = game.fold(game.create(RULESET, names, options, seed))
    chance, forked, compared = Rng(f"bot:{seed}"), False, 0
    for turn in itertools.count():
        if a["rules"]["race"] > 1 or game.is_over(a):
            break
        actor, command = bots.choose(a, chance, turn)
        twin = command
        moved_chip = actor == 1 and command["type"] == "place_bet"
        if moved_chip and (not forked or command not in game.legal(b, 1)):
            twin, forked = other_chip(b, command), True
        if actor == BOT_SEAT and forked and len(game.legal(a, BOT_SEAT)) > 1:
            assert without_digests(game.view(a, 0)) == without_digests(game.view(b, 0))
            assert strong(a, turn) == strong(b, turn)
            compared += 1
        a = game.step(a, actor, command, seed)[1]
        b = game.step(b, actor, twin, seed)[1]
    chips = [[bet["chip"] for bet in g["rules"]["results"][0]["bets"]] for g in (a, b)]
    assert chips[0] != chips[1] and compared >= 10


def test_the_undrawn_deck_changes_neither_the_view_nor_the_strong_choice():
    state = a_state({}, 3, "twin-deck", lambda r: r["race"] == 2 and r["turn"] == BOT_SEAT)
    rules = state["rules"]
    gone = [c for c in range(1, 29) if c not in rules["deck"] and c not in rules["cards"].values()]
    swapped = sorted([gone[0], *rules["deck"][1:]])  # a card of race 1 undrawn instead
    twin = {**state, "rules": {**rules, "deck": swapped}}
    assert without_digests(game.view(state, 0)) == without_digests(game.view(twin, 0))
    assert strong(state, 1) == strong(twin, 1)
    assert set(rules["deck"]) != set(swapped)  # the twins deal race 3 differently


def test_the_strong_choice_follows_the_bots_rng_and_is_legal():
    state = a_state({}, 2, "twin-rng", lambda r: r["phase"] == "betting" and r["turn"] == 0)
    chosen = [strong(state, turn) for turn in range(6)]
    assert all(c in game.legal(state, BOT_SEAT) for c in chosen)
    assert len({(c["horse"], c["chip"]) for c in chosen}) > 1
