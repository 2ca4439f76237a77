"""A command's body that is plainly valid skips marshmallow (the hottest route) and loads
exactly as marshmallow would load it; every other body goes through marshmallow, which
says what is wrong."""

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from schemas import CommandSchema

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=70)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
kinds = st.one_of(st.text(min_size=0, max_size=66), values)
versions = st.one_of(st.integers(min_value=-3, max_value=2**64), st.booleans(), values)
bodies = st.one_of(
    st.fixed_dictionaries(
        {"type": kinds},
        optional={"expected_version": versions, "card": values, "seat": values, "zz": values},
    ),
    st.dictionaries(st.sampled_from(["type", "expected_version", "card"]), values, max_size=3),
    values,
)


@settings(max_examples=600, deadline=None)
@given(bodies)
def test_a_plain_body_loads_as_marshmallow_loads_it(body):
    schema = CommandSchema()
    try:
        loaded = schema.load(body)
    except ValidationError:
        loaded = None
    plain = schema.plain(body)
    if plain is not None:  # the quick path: only for what marshmallow takes, the same
        assert plain == loaded  # the order of their keys is no matter: load() takes a set's
        assert all(type(plain[k]) is type(loaded[k]) for k in plain)


def test_the_usual_commands_take_the_quick_path():
    schema = CommandSchema()
    for body in (
        {"type": "play_card", "card": 3},
        {"type": "submit_orders", "orders": [{"horse": 1}], "expected_version": 12},
        {"card": 3, "type": "x" * 64},
    ):
        assert schema.plain(body) == schema.load(body)
    for body in (
        {"type": ""},
        {"type": "x" * 65},
        {"type": 3},
        {"type": "a", "expected_version": True},
        [],
    ):
        assert schema.plain(body) is None
