"""Any command a client can send is accepted or refused with a RefereeError, never a crash."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, timed
from referee.engine import game, registry
from referee.engine.errors import RefereeError
from referee.engine.rng import Rng

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def midgame(ruleset: str, turns: int) -> game.State:
    rules = registry.get(ruleset)
    players = [f"p{s}" for s in range(rules.MIN_PLAYERS)]
    state = game.fold(game.create(ruleset, players, {}, "fuzz", now=1_800_000_000))
    bot = Rng("bot:fuzz")
    for turn in range(turns):
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, "fuzz"), state)
    return state


def commands_for(ruleset: str):
    rules = registry.get(ruleset)
    field_names = sorted({f for c in rules.COMMANDS.values() for f in c.get("fields", {})})
    return st.fixed_dictionaries(
        {"type": st.sampled_from([*rules.COMMANDS, "announce", "x"])},
        optional={name: json_values for name in field_names},
    )


@pytest.mark.parametrize("ruleset", registry.names())
@pytest.mark.parametrize("turns", [0, 5, 12])
def test_arbitrary_commands_never_crash_the_rules(ruleset, turns):
    state = midgame(ruleset, turns)
    seats = range(len(state["players"]))

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seat=st.sampled_from(list(seats)), command=commands_for(ruleset))
    def run(seat, command):
        command = timed(state, command)
        try:
            records = game.execute(state, seat, command, "fuzz")
        except RefereeError as error:
            assert error.status in (400, 422) and error.code and error.message
        else:
            assert records and records[0]["command"] == command

    run()
