"""Any orders that pass the shape check are judged, warned about and resolved without a
crash, in every round, and judging drops exactly what it warns about."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_blackout_middle_tables import play, table, with_seen

from referee.engine.errors import BadRequest
from referee.games import blackout_middle as bm

LETTERS = st.sampled_from([*"ABCDEFGHI", "Z", "a", ""])
CARDS = st.lists(LETTERS, max_size=6)
ABILITY = st.none() | st.fixed_dictionaries(
    {"kind": st.sampled_from(["clue", "utility"])},
    optional={
        "use": CARDS,
        "select": CARDS,
        "gain": CARDS | LETTERS,
        "guesses": st.lists(
            st.fixed_dictionaries({"horse": LETTERS, "ahead": st.integers(-2, 12)}), max_size=4
        ),
    },
)
ORDERS = st.fixed_dictionaries(
    {},
    optional={
        "ability": ABILITY,
        "spectate": st.none() | st.integers(-3, 20),
        "bets": st.dictionaries(LETTERS, st.integers(1, 12), max_size=5),
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_number=st.integers(0, 10), raw=ORDERS)
def test_shaped_orders_never_crash_judging_or_resolution(round_number, raw):
    state = table(round_number)
    if round_number >= 2:
        state = with_seen(state, 0, round_number - 1, 1)
    try:
        shaped = bm.check_orders(state, 0, raw)
    except BadRequest as refused:
        assert refused.details["field"].startswith("orders")
        return
    warnings = bm.inspect_orders(state, 0, shaped)
    assert all({"part", "rule", "message"} <= set(w) for w in warnings)
    _, events = play(state, {0: shaped})
    judged = next(
        e["payload"] for e in events if e["type"] == "OrdersJudged" and e["payload"]["seat"] == 0
    )
    assert judged["dropped"] == warnings
