"""Blackout Middle's bot: samples that show each seat exactly its view and play on to the
end, from random games and from games full of the facts that tie horses together; the
draw per horse is the uniform one; candidate and playout orders the rules apply whole;
shares of the win; a strong choice that does not depend on what the seat cannot see; and
a strength check on a fixed budget."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, levels, simulate
from referee.engine import game
from referee.engine.events import REFEREE
from referee.engine.rng import Rng
from referee.games import blackout_middle as bm
from referee.games.blackout_middle import bot
from referee.games.blackout_middle.bot import drawing, knowledge, worlds
from referee.games.blackout_middle.data import HORSES
from referee.games.blackout_middle.learning import ability_result
from referee.games.blackout_middle.race import horses_on, race

T0 = 1_800_000_000


def players(n: int) -> list[str]:
    return [f"p{s}" for s in range(n)]


def random_game(seed: str, n: int) -> list[dict]:
    """The engine states of a seeded random-bot game, from creation to the end."""
    state = game.fold(game.create(bm.NAME, players(n), {}, seed, now=T0))
    states, rng = [state], Rng(f"bot:{seed}")
    for turn in range(2000):
        if game.is_closed(state):
            return states
        actor, command = choose(state, rng, turn)
        state = game.step(state, actor, command, seed)[1]
        states.append(state)
    raise AssertionError("a random blackout-middle game ends within 2000 commands")


def some_states(states: list[dict], *, middles: bool = True) -> list[dict]:
    """The state as each round opens, one in the middle of each round, and the last."""
    picked, last_round = [], None
    for index, state in enumerate(states):
        number = state["rules"]["round"]
        if number != last_round:
            picked.append(state)
            middle = states[index + 1 : index + 6] if middles else []
            picked += middle[len(middle) // 2 :][:1]
            last_round = number
    return [*picked, states[-1]]


def resolved(state: dict, seed: str) -> dict:
    """The state after the open round is resolved at its deadline."""
    current = state["rounds"]["current"]
    command = {"type": "resolve_round", "round": current["round"], "now": current["deadline"]}
    return game.step(state, REFEREE, command, seed)[1]


def submitted(state: dict, seat: int, orders: dict, seed: str) -> dict:
    """The state after a seat seals its orders for the open round."""
    current = state["rounds"]["current"]
    command = {
        "type": "submit_orders",
        "round": current["round"],
        "orders": orders,
        "now": current["deadline"] - 1,
    }
    return game.step(state, seat, command, seed)[1]


def assert_consistent(state: dict, seat: int, rng: Rng) -> dict:
    """A sample for the seat shows it exactly its view; the sample is returned."""
    seen = bm.view(state["rules"], seat)
    sampled = bot.sample(seen, seat, rng)
    assert bm.view(sampled, seat) == seen
    return sampled


@pytest.mark.parametrize("n", [3, 5, 9, 12])
def test_a_sample_shows_every_seat_exactly_its_view(n):
    states = some_states(random_game(f"sample/{n}", n), middles=n < 9)
    for index, state in enumerate(states):
        for seat in range(n):
            assert_consistent(state, seat, Rng(f"s/{n}/{index}/{seat}"))


@pytest.mark.parametrize("n", [3, 9])
def test_a_sample_is_a_table_the_rules_play_to_the_end(n):
    states = some_states(random_game(f"plays-on/{n}", n))
    for index, state in enumerate(s for s in states if not game.is_closed(s)):
        seat = index % n
        view = game.view(state, seat)
        sampled = bot.sample(view["state"], seat, Rng(f"p/{n}/{index}"))
        table = simulate.table(view, seat, sampled)
        draws = Rng(f"play/{n}/{index}").stream("commands")
        for k in itertools.count():
            if simulate.is_over(table):
                break
            assert k < 500, "a sampled table plays to the end"
            mover = simulate.actors(table)[0]
            listed = simulate.commands(table, mover)
            command = listed[draws.below(len(listed))]
            table = simulate.step(table, mover, command, Rng(f"c/{n}/{index}/{k}"))[1]
        assert table["outcome"]["winners"]


# orders a careful human might send, whose results tie horses together
SEAT_0_ABILITIES = {
    0: {"kind": "utility", "select": ["A"]},
    1: {"kind": "clue", "select": ["A", "A", "C", "E"], "use": ["C"]},
    2: {"kind": "clue", "use": ["D", "E"]},
    3: {"kind": "clue", "use": ["A", "A"]},
    4: {"kind": "clue", "use": ["F", "G"]},
    5: {"kind": "clue", "use": ["H", "I", "B"]},
}
SEAT_1_ABILITIES = {
    0: {"kind": "utility", "select": ["B"]},
    3: {"kind": "utility", "select": ["A", "C", "E"]},
    5: {"kind": "utility", "guesses": [{"horse": h, "ahead": i} for i, h in enumerate("ACDEF")]},
    6: {"kind": "utility", "use": ["B", "B"]},
}
# and one a human might send to learn all it can: sums of all nine horses and more
GREEDY_ABILITIES = {
    **SEAT_0_ABILITIES,
    1: {"kind": "clue", "select": list("ABCDEFGHI"), "use": ["B"]},
    2: {"kind": "clue", "use": ["C", "D"]},
    4: {"kind": "clue", "use": ["E", "F"]},
    5: {"kind": "clue", "use": ["G", "H", "I"]},
}


def tied_game(seed: str, first: dict | None = None) -> list[dict]:
    """A game in which seats 0 and 1 use the abilities above and bet where they may, and
    seat 2 bets its limit on what it sees, so the watches and the list of who bet say
    something; the states as each round opens."""
    state = game.fold(game.create(bm.NAME, players(4), {}, seed, now=T0))
    opened = [state]
    while state["rounds"]["current"] is not None:
        number = state["rules"]["round"]
        for seat, plan in ((0, first or SEAT_0_ABILITIES), (1, SEAT_1_ABILITIES), (2, {})):
            orders = {"ability": plan.get(number), "spectate": None, "bets": {}}
            if number > 0:
                orders["spectate"] = min(15, 1 + 2 * number)
                current = bm.view(state["rules"], seat)["you"]["current_space"]
                if current and current["horses"]:
                    orders["bets"] = {current["horses"][0]: 5 if seat == 2 else 1}
            state = submitted(state, seat, orders, seed)
        state = resolved(state, seed)
        opened.append(state)
    return opened


def learned_again(sampled: dict, seat: int) -> None:
    """The sampled table gives the seat every result it got: the horses on each space it
    spectated, the finishers, its clues, its guesses and watches, the list of who bet."""
    moves = {int(r): values for r, values in sampled["movements"].items()}
    for r, seen in sampled["seen"][seat].items():
        assert horses_on(race(moves, through=int(r))[0], seen["space"]) == seen["horses"]
    finished = race(moves, through=sampled["round"] - 1)[1]
    assert [f for f in finished] == sorted(
        sampled["announced"], key=lambda h: sampled["announced"][h]["placement"]
    )
    for result in sampled["learned"][seat]:
        r = result["round"]
        at = {**sampled, "round": r, "positions": race(moves, through=r)[0]}
        if result["kind"] == "watch":
            bets = [b.get(str(r), {}) for b in sampled["bets"]]
            assert result["chips"] == {h: sum(b.get(h, 0) for b in bets) for h in result["chips"]}
            continue
        given = sampled["judged"][seat][str(r)]["applied"]["ability"]
        if result["kind"] == "clue" or (r, result["kind"]) in ((5, "utility"), (6, "utility")):
            assert ability_result(at, seat, r, given)["learned"] == result["learned"]


@pytest.mark.parametrize("g", range(3))
def test_facts_tying_horses_together_are_kept(g):
    states = tied_game(f"tied/{g}")
    learned = states[-2]["rules"]["learned"]
    kinds = {name for result in learned[0] + learned[1] for name in result.get("learned", {})}
    assert {"sums", "differ_by_1", "spaces", "same_movement", "placements", "guesses"} <= kinds
    assert any(result["kind"] == "watch" for result in learned[1])
    assert any(result.get("learned", {}).get("bets") for result in learned[1])
    for index, state in enumerate(states):
        for seat in (0, 1, 2):
            for k in range(2):
                sampled = assert_consistent(state, seat, Rng(f"t/{g}/{index}/{seat}/{k}"))
                learned_again(sampled, seat)


def test_a_seat_that_learned_all_it_could_still_gets_its_view():
    for index, state in enumerate(tied_game("greedy", GREEDY_ABILITIES)[1::2]):
        assert_consistent(state, 0, Rng(f"g/{index}"))


def test_the_tied_facts_are_read_from_the_view():
    state = tied_game("read")[7]
    known = knowledge.facts_of(bm.view(state["rules"], 0), 0)
    kinds = Counter(tie.kind for tie in known.ties)
    assert kinds["sum"] == 3 and kinds["differ_by_1"] == 4 and kinds["same_value"] == 2
    assert kinds["placement"] == 6
    truth = worlds.World(
        {h: tuple(state["rules"]["movements"][str(r)][h] for r in range(1, 11)) for h in HORSES}
    )
    assert worlds.distance(truth, known.ties) == 0
    moved = [truth.values[h] for h in HORSES]
    assert all(worlds.count(worlds.limits_of(known, h)) for h in HORSES) and moved


def brute_force(limits: worlds.Limits) -> list[tuple[int, ...]]:
    """Every value run keeping the limits, by trying all 3**10."""
    values, spaces = limits
    found = []
    for run in itertools.product((1, 2, 3), repeat=10):
        ends = worlds.spaces_of(run)
        if all(run[i] in values[i] and ends[i + 1] in spaces[i] for i in range(10)):
            found.append(run)
    return found


def test_one_horse_is_drawn_uniformly_among_the_runs_its_facts_allow():
    known = knowledge.Knowledge(seat=0, moved=4, resolved=4)
    known.values = {h: {} for h in HORSES}
    known.spaces = {h: {} for h in HORSES}
    known.space("A", 2, frozenset({4, 5}))
    known.space("A", 4, knowledge.SPACES - {8})
    known.value("A", 3, frozenset({1, 3}))
    known.space("A", 9, knowledge.PAST_LINE)
    limits = worlds.limits_of(known, "A")
    runs = brute_force(limits)
    assert worlds.count(limits) == len(runs) > 100
    stream = Rng("uniform").stream("draws")
    drawn = Counter(worlds.draw_values(limits, stream)[:4] for _ in range(6000))
    prefixes = Counter(run[:4] for run in runs)
    for prefix, ways in prefixes.items():
        expected = 6000 * ways / len(runs)
        assert abs(drawn[prefix] - expected) < 5 * expected**0.5 + 5


def test_samples_vary_what_the_seat_does_not_know():
    state = tied_game("vary")[4]
    seen = bm.view(state["rules"], 2)
    tables = [bot.sample(seen, 2, Rng(f"v{i}")) for i in range(30)]
    assert len({str(t["movements"]) for t in tables}) == 30
    assert len({str(t["bets"][0]) for t in tables}) > 3
    assert len({t["movements"]["8"]["A"] for t in tables}) == 3


def test_the_candidate_orders_are_applied_whole():
    for index, state in enumerate(some_states(random_game("orders", 5))[:-1]):
        if state["rules"]["phase"] != "rounds":
            continue
        seat = index % 5
        found = bot.orders(bm.view(state["rules"], seat), seat, Rng(f"o/{index}"))
        assert found and len(found) == len({str(o) for o in found})
        standard = bm.default_orders(state["rules"], seat)
        assert (standard in found) == (state["rules"]["round"] > 0)
        for orders in found:
            shaped = bm.check_orders(state["rules"], seat, orders)
            assert bm.inspect_orders(state["rules"], seat, shaped) == []


def test_the_playout_orders_are_applied_whole():
    for index, state in enumerate(some_states(random_game("policy", 5))[:-1]):
        if state["rules"]["phase"] != "rounds":
            continue
        for seat in range(5):
            listed = simulate.commands(state, seat)
            command = bot.policy(state["rules"], seat, listed, Rng(f"pol/{index}/{seat}"))
            if command in listed:
                continue
            shaped = bm.check_orders(state["rules"], seat, command["orders"])
            assert bm.inspect_orders(state["rules"], seat, shaped) == []


def test_shares_of_the_win_add_up_and_follow_the_points():
    states = random_game("shares", 4)
    for state in some_states(states)[:-1]:
        shares = bot.evaluate(state["rules"], 0)
        assert sum(shares) == 1 and all(0 <= s <= 1 for s in shares)
        assert all(isinstance(s, Fraction) for s in shares)
    middle = next(s for s in states if s["rules"]["round"] == 6)["rules"]
    richer = {**middle, "spectator_points": [100, 0, 0, 0]}
    assert bot.evaluate(richer, 0)[0] > max(bot.evaluate(richer, 0)[1:])


# --- noninterference -------------------------------------------------------------


def same_views(one: dict, two: dict, seat: int) -> tuple[dict, dict]:
    first, second = game.view(one, seat), game.view(two, seat)
    drop = ("seed_commitment",)
    assert {k: v for k, v in first.items() if k not in drop} == {
        k: v for k, v in second.items() if k not in drop
    }
    return first, second


def assert_same_strong_orders(one: dict, two: dict, seat: int = 0) -> None:
    first, second = same_views(one, two, seat)
    for i in range(2):
        assert levels.choose(first, seat, "strong", Rng(f"me/{i}"), iterations=12) == (
            levels.choose(second, seat, "strong", Rng(f"me/{i}"), iterations=12)
        )


def opening(seed: str) -> dict:
    return game.fold(game.create(bm.NAME, players(4), {}, seed, now=T0))


def test_noninterference_another_seats_sealed_orders_this_round():
    state = resolved(resolved(opening("sealed"), "sealed"), "sealed")
    one = submitted(state, 1, {"ability": None, "spectate": 3, "bets": {}}, "sealed")
    two = submitted(
        state,
        1,
        {"ability": {"kind": "utility", "use": ["A", "B"]}, "spectate": 7, "bets": {"C": 2}},
        "sealed",
    )
    assert one["rounds"]["current"]["submitted"][1] != two["rounds"]["current"]["submitted"][1]
    assert_same_strong_orders(one, two)


def test_noninterference_another_seats_holdings():
    plans = (
        {"ability": {"kind": "utility", "select": ["D"]}, "spectate": None, "bets": {}},
        {"ability": {"kind": "clue", "use": ["A", "E", "F"]}, "spectate": None, "bets": {}},
    )
    tables = []
    for orders in plans:
        state = submitted(opening("holdings"), 2, orders, "holdings")
        state = resolved(state, "holdings")
        state = submitted(state, 2, {"ability": None, "spectate": 3, "bets": {}}, "holdings")
        tables.append(resolved(state, "holdings"))
    one, two = tables
    assert one["rules"]["hands"][2] != two["rules"]["hands"][2]
    assert one["rules"]["learned"][2] != two["rules"]["learned"][2]
    assert_same_strong_orders(one, two)


def with_future(state: dict, seed: str, later: int) -> dict:
    """The same game created from the same seed, its movement values from round `later`
    on drawn again (the seed's future the seats have not reached)."""
    records = game.create(bm.NAME, players(4), {}, seed, now=T0)
    other = Rng(f"{seed}/future")
    for record in records:
        if record["type"] == "MovementsDrawn":
            for r, values in record["payload"]["movements"].items():
                if int(r) >= later:
                    for h in values:
                        values[h] = 1 + other.below(f"{r}/{h}", 3)
    return game.fold(records)


def test_noninterference_the_seeds_undrawn_future():
    first, second = opening("future"), with_future(opening("future"), "future", 4)
    assert first["rules"]["movements"] != second["rules"]["movements"]
    for _ in range(3):  # rounds 0-2, every seat spectating and betting alike
        for seat in range(4):
            orders = {"ability": None, "spectate": 3 + seat, "bets": {}}
            if first["rules"]["round"] == 0:
                orders["spectate"] = None
            first = submitted(first, seat, orders, "future")
            second = submitted(second, seat, orders, "future")
        first, second = resolved(first, "future"), resolved(second, "future")
    assert_same_strong_orders(first, second)
    assert_same_strong_orders(first, second, seat=3)


# --- strength --------------------------------------------------------------------


def play_match(seed: str, n: int, strong: int, others: str, iterations: int) -> Fraction:
    """One game: the strong bot in one seat, `others` in the rest; its share of the win."""
    state = opening_for(seed, n)
    while not game.is_closed(state):
        current = state["rounds"]["current"]
        if current is not None and current["closed"]:
            state = resolved(state, seed)
            continue
        actor = game.to_move(state)[0]
        if current is None:  # the awards: the winner's choice or the moderator's vote
            command = game.stamp(state, game.legal(state, actor)[0], current_time(state))
            state = game.step(state, actor, command, seed)[1]
            continue
        level = "strong" if actor == strong else others
        rng = Rng(f"{seed}/{actor}/{state['seq']}")
        command = levels.choose(game.view(state, actor), actor, level, rng, iterations=iterations)
        if command["type"] != "submit_orders":  # a random seat's trade: it sends nothing
            command = {"type": "submit_orders", "round": current["round"], "orders": {}}
        state = submitted(state, actor, command["orders"], seed)
    winners = state["outcome"]["winners"]
    return Fraction(1, len(winners)) if strong in winners else Fraction(0)


def current_time(state: dict) -> int:
    return state["rounds"]["last_deadline"] or T0


def opening_for(seed: str, n: int) -> dict:
    return game.fold(game.create(bm.NAME, players(n), {}, seed, now=T0))


def test_strength_on_a_fixed_budget_beats_random_seats():
    shares = [play_match(f"strength/{g}", 3, g, "random", 4) for g in range(2)]
    assert sum(shares) >= 1


def test_drawing_remembers_starts_by_facts_alone():
    state = tied_game("remember")[7]
    seen = bm.view(state["rules"], 0)
    drawing._STARTS.clear()
    one = bot.sample(seen, 0, Rng("same"))
    drawing._STARTS.clear()
    bot.sample(bm.view(tied_game("other")[7]["rules"], 0), 0, Rng("other"))
    two = bot.sample(seen, 0, Rng("same"))
    assert one == two
