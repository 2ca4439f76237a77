"""Dark Horse West's variants under the contract: random-bot games of every variant finish
and verify, fold to the state built step by step, replay byte for byte, show no seat a
secret, accept every legal command; and a legal command with one field garbled is
accepted or refused with a clear error, never a crash."""

import copy

import pytest
from chained import sealed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rulesets import bot_game, no_leaks_before, replayed, seed_for

from referee.bots import choose, timed
from referee.engine import game
from referee.engine.canonical import canonical
from referee.engine.errors import RefereeError
from referee.engine.rng import Rng
from referee.games.dark_horse_west.data import DIFFICULTIES, SCENARIOS
from replays.verify import verify_events

RULESET = "dark-horse-west"
SOLO = [{"difficulty": d, "scenario": s} for d in DIFFICULTIES for s in SCENARIOS]
VARIANTS = [
    ({"gunslinger": True}, 2, 6),
    ({"characters": "choose"}, 3, 3),
    ({"characters": "none", "tiles_face_up": True}, 4, 3),
    ({"game_end_influence": 5}, 4, 4),
    *[(options, 1, 4) for options in SOLO],
]
IDS = [canonical(options).decode() for options, _, _ in VARIANTS]


def seats(count: int) -> list[str]:
    return [f"p{s}" for s in range(count)]


@pytest.fixture(scope="module", params=VARIANTS, ids=IDS)
def played(request):
    options, count, games = request.param
    return (
        options,
        count,
        [bot_game(RULESET, i, options=options, seats=seats(count)) for i in range(games)],
    )


def test_bot_games_finish_fold_and_verify(played):
    options, _, games = played
    for i, (records, state, _) in enumerate(games):
        assert state["status"] == "finished"
        assert records[-1]["payload"]["seed"] == seed_for(RULESET, i, options)
        assert game.fold(records) == state
        assert verify_events(sealed(records)).valid


def test_same_seed_and_commands_give_byte_identical_records(played):
    options, count, games = played
    records, _, commands = games[0]
    again = replayed(RULESET, 0, commands, options, seats=seats(count))
    assert b"".join(map(canonical, again)) == b"".join(map(canonical, records))


def test_solitaire_reports_its_scenario_and_victory(played):
    options, _, games = played
    for _, state, _ in games:
        outcome = state["outcome"]
        if "scenario" in options:
            assert outcome["scenario"] == SCENARIOS[options["scenario"]]["name"]
            assert outcome["winners"] == ([0] if outcome["victory"] else [])
        else:
            assert "victory" not in outcome and outcome["winners"]


def test_no_view_or_stream_shows_a_seat_what_is_hidden_from_it(played):
    options, count, _ = played
    check = no_leaks_before(seed_for(RULESET, 0, options))
    bot_game(RULESET, 0, options=options, check=check, seats=seats(count))


def test_every_legal_command_is_accepted(played):
    options, count, _ = played

    def all_legal_accepted(state, batch):
        for actor in game.to_move(state):
            for command in game.legal(state, actor):
                assert game.execute(state, actor, timed(state, command), "any seed")

    bot_game(RULESET, 1, options=options, check=all_legal_accepted, seats=seats(count))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)


def midgames(count: int, options: dict, turns: int) -> list[game.State]:
    """The states a bot game passes through, every few commands."""
    seed = f"fuzz/{count}/{turns}"
    state = game.fold(game.create(RULESET, seats(count), options, seed))
    bot, out = Rng(f"bot:{seed}"), []
    for turn in range(turns):
        if game.is_over(state):
            break
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, seed), state)
        if turn % 7 == 0:
            out.append(state)
    return out


@pytest.mark.parametrize(
    ("count", "options"), [(4, {}), (2, {"gunslinger": True}), (1, {"difficulty": "cruel"})]
)
def test_a_legal_command_with_a_garbled_field_never_crashes(count, options):
    states = midgames(count, options, 400)

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), garbage=json_values)
    def run(data, garbage):
        state = data.draw(st.sampled_from(states))
        actor = game.to_move(state)[0]
        command = copy.deepcopy(data.draw(st.sampled_from(game.legal(state, actor))))
        fields = sorted(set(command) - {"type"})
        if fields:
            command[data.draw(st.sampled_from(fields))] = garbage
        seat = data.draw(st.sampled_from([actor, *range(count)]))
        try:
            game.execute(state, seat, command, "fuzz")
        except RefereeError as error:
            assert error.status in (400, 422) and error.code and error.message

    run()
