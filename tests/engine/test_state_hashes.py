"""StateHashes gives `digest`'s hash of every state of a run, spliced or not."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import state_hashes
from referee.engine.canonical import canonical, digest
from referee.engine.state_hashes import StateHashes

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)  # past 64 bits: the stdlib writes it
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(text, inner, max_size=5),
    max_leaves=40,
)
states = st.dictionaries(text, json_values, min_size=1, max_size=6)
# an edit: a path of choices into the state, and the value put (or a key removed) there
edits = st.lists(
    st.tuples(st.lists(st.integers(0, 9), min_size=1, max_size=4), json_values, st.booleans()),
    max_size=12,
)


def edited(state, path, value, remove):
    """The state after one edit, copied on write as the rules do: the containers on the
    path are new objects, everything else is the very same object as before."""
    top = dict(state)
    node, step = top, 0
    while True:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = keys[path[step % len(path)] % len(keys)]
        child = node[key]
        step += 1
        if step >= len(path) or not isinstance(child, dict | list) or not child:
            if remove and isinstance(node, dict) and node is not top:
                del node[key]
            else:
                node[key] = value
            break
        node[key] = dict(child) if isinstance(child, dict) else list(child)
        node = node[key]
    return top


@pytest.fixture
def split_everything(monkeypatch):
    """Splice from the first byte on, so that small random states take the fast path."""
    monkeypatch.setattr(state_hashes, "PLAIN_BELOW", 0)
    monkeypatch.setattr(state_hashes, "BIG", 1)
    monkeypatch.setattr(state_hashes, "BLOCK", 64)


@settings(max_examples=300, deadline=None)
@given(states, edits)
def test_every_state_of_a_run_hashes_as_digest_does(state, changes):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state_hashes, "PLAIN_BELOW", 0)
        patch.setattr(state_hashes, "BIG", 1)
        patch.setattr(state_hashes, "BLOCK", 64)
        hashed = StateHashes()
        assert hashed(state) == digest(state)
        for path, value, remove in changes:
            state = edited(state, path, value, remove)
            assert hashed(state) == digest(state)
            assert hashed(state) == digest(state)  # the same state twice: all of it kept


@settings(max_examples=100, deadline=None)
@given(states, edits)
def test_the_default_sizes_hash_as_digest_does(state, changes):
    state = {**state, "padding": [[n, "x" * 40] for n in range(400)]}
    assert len(canonical(state)) >= state_hashes.PLAIN_BELOW
    hashed = StateHashes()
    assert hashed(state) == digest(state)
    for path, value, remove in changes:
        state = edited(state, path, value, remove)
        assert hashed(state) == digest(state)


def test_a_big_state_is_spliced_and_resumed(split_everything):
    judged = [{"seat": s, "notes": ["a note"] * 20} for s in range(12)]
    state = {"rules": {"judged": judged, "round": 1}, "seq": 1, "players": ["Ann"] * 12}
    hashed = StateHashes()
    for seq in range(2, 30):
        rules = dict(state["rules"])
        if seq % 3 == 0:
            rules["judged"] = [*judged[:-1], {"seat": 11, "notes": [f"note {seq}"]}]
        rules["round"] = seq // 5
        state = {**state, "rules": rules, "seq": seq}
        assert hashed(state) == digest(state)
    assert hashed._kept  # the unchanged parts were spliced, not encoded again


def test_what_orjson_refuses_is_hashed_by_the_standard_library(split_everything):
    hashed = StateHashes()
    state = {"big": [2**70, "x" * 100], "seq": 1}
    assert hashed(state) == digest(state)
    state = {**state, "seq": 2, "keys": {1: "a number for a key"}}
    assert hashed(state) == digest(state)
