"""The Dark Horse bot: a sampled table fits the seat's view and plays to the end; the
playout policy plays legal moves and favours the mover's bets."""

from fractions import Fraction
from typing import Any

import pytest

import referee.games  # noqa: F401  (registers the rulesets)
from referee.bots import levels, random_play
from referee.engine import game
from referee.engine.rng import Rng
from referee.games import dark_horse as dh
from referee.games.dark_horse import bot, tactics
from referee.games.dark_horse.data import BETTING_CARDS, HOUSE_DECK

State = dict[str, Any]
GAMES_PER_COUNT = 6
# every how many moves a game's table is checked (all of them in the first game)
CHECK_EVERY = 3


def dealt(seats: int, seed: str, **options: Any) -> State:
    """A table after the deal, from a seed."""
    state = dh.initial([f"p{s}" for s in range(seats)], {**dh.OPTIONS, **options})
    for ev in dh.setup(state, Rng(seed)):
        state = dh.apply(state, ev)
    return state


def step(state: State, seat: int, command: dict[str, Any], seed: str) -> State:
    for ev in dh.decide(state, seat, command, Rng(seed)):
        state = dh.apply(state, ev)
    return state


def played_out(state: State, chance: Rng, tag: str) -> list[State]:
    """Every table of a game played by random legal moves from `state` to its end."""
    tables = [state]
    for turn in range(200):
        if dh.outcome(state) is not None:
            return tables
        (seat,) = dh.to_move(state)
        commands = dh.legal(state, seat)
        assert commands, f"seat {seat} is to move but has no legal move"
        command = commands[chance.below(f"{tag}/{turn}", len(commands))]
        state = step(state, seat, command, f"{tag}/{turn}")
        tables.append(state)
    raise AssertionError("the game did not end within 200 moves")


def tables(seats: int, games: int = GAMES_PER_COUNT) -> list[State]:
    """Tables from seeded random games: every move of the first, every few of the rest."""
    chosen = []
    for g in range(games):
        game = played_out(dealt(seats, f"dh-bot/{seats}/{g}"), Rng(f"moves/{seats}/{g}"), "m")
        chosen += game if g == 0 else game[::CHECK_EVERY]
    return chosen


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_sample_shows_the_seat_what_it_sees(seats: int) -> None:
    for n, state in enumerate(tables(seats)):
        for seat in range(seats):
            seen = dh.view(state, seat)
            drawn = bot.sample(seen, seat, Rng(f"sample/{seats}/{n}/{seat}"))
            assert dh.view(drawn, seat) == seen


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_sample_is_a_table_the_rules_play_to_the_end(seats: int) -> None:
    for n, state in enumerate(tables(seats, games=2)):
        seat = n % seats
        drawn = bot.sample(dh.view(state, seat), seat, Rng(f"sample/{n}"))
        assert _betting_cards_all_there(drawn)
        assert _action_cards_all_there(drawn)
        final = played_out(drawn, Rng(f"after/{n}"), "p")[-1]
        assert dh.outcome(final) is not None


def _betting_cards_all_there(state: State) -> bool:
    held = [h for cards in state["betting_cards"] for h in cards]
    gone = [d["horse"] for d in state["discarded_betting_cards"]]
    return sorted(held + gone + state["betting_stack"]) == sorted(BETTING_CARDS)


def _action_cards_all_there(state: State) -> bool:
    held = [c for hand in state["hands"] for c in hand]
    played = [p["card"] for p in state["played"]]
    return sorted(held + played + state["set_aside"]) == list(range(len(HOUSE_DECK)))


def test_the_unseen_cards_are_drawn_not_copied() -> None:
    """Two samples of one view deal the other seats different cards (the true hands are
    not read through some back door), and the seat's own cards stay its own."""
    state = dealt(4, "dh-bot/unseen")
    seen = dh.view(state, 0)
    drawn = [bot.sample(seen, 0, Rng(f"unseen/{n}")) for n in range(20)]
    assert len({str(d["hands"][1:]) for d in drawn}) > 10
    assert len({str(d["betting_cards"][1:] + [d["betting_stack"]]) for d in drawn}) > 10
    assert all(d["hands"][0] == state["hands"][0] for d in drawn)
    assert all(d["betting_cards"][0] == state["betting_cards"][0] for d in drawn)


def test_a_discarded_or_played_card_is_never_dealt_again() -> None:
    for n, state in enumerate(tables(3, games=2)):
        drawn = bot.sample(dh.view(state, 1), 1, Rng(f"gone/{n}"))
        played = {p["card"] for p in state["played"]}
        assert not played & {c for hand in drawn["hands"] for c in hand}
        assert _betting_cards_all_there(drawn)


def test_the_sample_knows_the_first_seat() -> None:
    state = dealt(3, "dh-bot/first", first_seat=2)
    game = played_out(state, Rng("first"), "f")
    for n, table in enumerate(game[::2]):
        drawn = bot.sample(dh.view(table, 0), 0, Rng(f"first/{n}"))
        assert drawn["first_seat"] == 2


def test_a_moderators_deck_is_kept_where_seen() -> None:
    """A moderator's deck is not in the view: the cards seen are kept, the rest guessed,
    and the sample still fits the view and plays to the end."""
    deck = [HOUSE_DECK[(n * 5) % len(HOUSE_DECK)] for n in range(30)]
    state = dealt(3, "dh-bot/deck", deck=deck)
    game = played_out(state, Rng("deck"), "d")
    for n, table in enumerate(game[::4]):
        seen = dh.view(table, 1)
        drawn = bot.sample(seen, 1, Rng(f"deck/{n}"))
        assert dh.view(drawn, 1) == seen
        assert dh.outcome(played_out(drawn, Rng(f"deck-after/{n}"), "q")[-1]) is not None


def test_the_policy_plays_a_legal_move_at_every_table() -> None:
    for n, state in enumerate(tables(4, games=2)):
        if dh.outcome(state) is not None:
            continue
        (seat,) = dh.to_move(state)
        commands = dh.legal(state, seat)
        assert bot.policy(state, seat, commands, Rng(f"policy/{n}")) in commands


def racing_table(hand: list[int], bets: list[int]) -> State:
    """Two players racing on the text's example line, seat 0 to play from `hand`."""
    state = dealt(2, "dh-bot/racing")
    return {
        **state,
        "phase": "racing",
        "turn": 0,
        "line": [6, 5, 4, 7, 1, 3, 2],
        "dark_horse": 6,
        "betting_cards": [bets, [1, 2, 3]],
        "hands": [hand, state["hands"][1]],
    }


def most_chosen(state: State, seat: int, tries: int = 40) -> tuple[dict[str, Any], int]:
    """The policy's most frequent move at a table, and how often it came."""
    commands = dh.legal(state, seat)
    chosen = [bot.policy(state, seat, commands, Rng(f"most/{n}")) for n in range(tries)]
    best = max(chosen, key=chosen.count)
    return best, chosen.count(best)


def test_the_policy_moves_the_movers_horse_forward() -> None:
    """With only a card that moves its own horse either way, the mover pushes it forward
    (whenever the policy does not draw a random move)."""
    best, times = most_chosen(racing_table([3], [4, 4, 5]), 0)  # horse #4 one either way
    assert best == {"type": "play_card", "card": 3, "take_token": False, "direction": "forward"}
    assert times > 20


def test_the_policy_plays_the_card_that_helps_now_and_keeps_the_one_that_helps_anytime():
    """Horse #4 stands 5th: "the 5th horse forward 2" helps it now, "horse #4 forward 2"
    helps it wherever it stands, so that one is kept for later."""
    rank_5_forward_2, horse_4_forward_2 = 19, 10
    best, times = most_chosen(racing_table([horse_4_forward_2, rank_5_forward_2], [4, 4, 5]), 0)
    assert best == {"type": "play_card", "card": rank_5_forward_2, "take_token": False}
    assert times > 20


def test_a_cards_worth_is_what_it_gains_the_bets_on_average() -> None:
    bets, points = (4, 5), (10, 8, 6, 4, 3, 2, 1)
    worth = {n: tactics.worth(tactics.card_key(HOUSE_DECK[n]), bets, points) for n in range(33)}
    # horse #4 forward 2 helps wherever #4 stands; "the 5th horse forward 2" moves a
    # horse that is as likely any other, which gains the bets nothing on average
    assert worth[10] > 0 == worth[19]
    assert worth[12] < 0  # horse #6 forward 2 passes the bet horses as often as not
    assert worth[31] == 0  # an exchange moves no horse
    assert worth[3] > worth[0] > 0  # one either way: best on a bet horse, still of use


def test_the_estimate_shares_the_win_and_favours_the_seat_ahead() -> None:
    """Seat 0's horses #4 and #5 stand 5th and 6th, seat 1's #1, #2, #3 stand 1st to 3rd
    (with no card left to change it): seat 1 is far more likely to win."""
    state = {**racing_table([], [4, 4, 5]), "hands": [[], []]}
    shares = bot.evaluate(state, 0)
    assert sum(shares) == 1 and all(0 <= share <= 1 for share in shares)
    assert shares[1] > 10 * shares[0]
    level = {**state, "betting_cards": [[1, 2, 3], [1, 2, 3]]}
    assert bot.evaluate(level, 0) == [Fraction(1, 2), Fraction(1, 2)]


def test_the_estimate_counts_what_a_hand_is_still_worth() -> None:
    """Two seats on the same horses: the one holding "horse #4 forward 2" stands better."""
    state = {**racing_table([10], [4, 5]), "betting_cards": [[4, 5], [4, 5]], "hands": [[10], [19]]}
    shares = bot.evaluate(state, 0)
    assert shares[0] > shares[1]


def test_every_table_of_a_game_has_an_estimate() -> None:
    for state in tables(3, games=1):
        if dh.outcome(state) is None:
            assert sum(bot.evaluate(state, 0)) == 1


def random_game(players: int, seed: str) -> list[State]:
    """The engine states of a seeded random-bot game, from the deal to the end."""
    state = game.fold(game.create(dh.NAME, [f"p{s}" for s in range(players)], {}, seed))
    states, rng = [state], Rng(f"bot:{seed}")
    for turn in range(200):
        if game.is_closed(state):
            return states
        actor, command = random_play.choose(state, rng, turn)
        state = game.step(state, actor, command, seed)[1]
        states.append(state)
    raise AssertionError("a dark-horse game ends within 200 moves")


def twin(state: State, seat: int, label: str) -> State:
    """The same game with another seat's hand and betting cards dealt anew from what no
    one else holds (its own cards with the set-aside cards and the betting stack), and
    the stack reshuffled: the seed's undrawn future differs too."""
    rules = state["rules"]
    other = (seat + 1) % rules["seats"]
    chance = Rng(label)
    hidden = chance.shuffle("action", rules["hands"][other] + rules["set_aside"])
    size = len(rules["hands"][other])
    hands = [sorted(hidden[:size]) if s == other else h for s, h in enumerate(rules["hands"])]
    unseen = chance.shuffle("betting", rules["betting_cards"][other] + rules["betting_stack"])
    count = len(rules["betting_cards"][other])
    betting = [
        sorted(unseen[:count]) if s == other else b for s, b in enumerate(rules["betting_cards"])
    ]
    changed = {
        "hands": hands,
        "set_aside": sorted(hidden[size:]),
        "betting_cards": betting,
        "betting_stack": unseen[count:],
    }
    return {**state, "rules": {**rules, **changed}}


def twins(players: int) -> list[tuple[State, State, int]]:
    """Pairs of games that differ only in what the seat to move cannot see."""
    pairs = []
    for g in range(2):
        states = random_game(players, f"twins/{players}/{g}")
        for n, state in enumerate(states[: -1 : len(states) // 5]):
            (seat,) = game.to_move(state)
            other = twin(state, seat, f"twin/{players}/{g}/{n}")
            if other["rules"] != state["rules"]:
                pairs.append((state, other, seat))
    return pairs


@pytest.mark.parametrize("players", [2, 4])
def test_noninterference_the_strong_choice_ignores_what_the_seat_cannot_see(players: int) -> None:
    pairs = twins(players)
    assert len(pairs) >= 8
    for n, (one, two, seat) in enumerate(pairs):
        assert game.view(one, seat) == game.view(two, seat)
        mine = [Rng(f"mine/{n}") for _ in range(2)]
        chosen = [
            levels.choose(game.view(s, seat), seat, "strong", rng, iterations=30)
            for s, rng in zip((one, two), mine, strict=True)
        ]
        assert chosen[0] == chosen[1]


def test_noninterference_would_catch_a_bot_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The twins do differ where it matters: a bot that reads the true table in place of
    a sample chooses differently in some twin."""
    pairs = twins(2)
    differ = 0
    for n, (one, two, seat) in enumerate(pairs):
        chosen = []
        for state in (one, two):
            monkeypatch.setattr(bot, "sample", lambda view, s, rng, true=state: true["rules"])
            view = game.view(state, seat)
            chosen.append(levels.choose(view, seat, "strong", Rng(f"peek/{n}"), iterations=30))
        differ += chosen[0] != chosen[1]
    assert differ > 0
