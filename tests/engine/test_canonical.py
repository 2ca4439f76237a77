"""Canonical JSON: sorted keys, no spaces, UTF-8, no NaN."""

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.canonical import canonical, canonical_stdlib, digest


def test_keys_sorted_and_no_whitespace():
    assert canonical({"b": 1, "a": [1, {"d": None, "c": True}]}) == (
        b'{"a":[1,{"c":true,"d":null}],"b":1}'
    )


def test_text_is_utf8_not_escaped():
    assert canonical({"name": "Zoë"}) == '{"name":"Zoë"}'.encode()


def test_digest_is_sha256_of_canonical_bytes():
    assert digest({"a": 1}) == hashlib.sha256(b'{"a":1}').hexdigest()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(st.characters(exclude_categories=["Cs"])),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=5), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(json_values)
def test_the_fast_encoder_writes_exactly_the_standard_librarys_bytes(value):
    assert canonical(value) == canonical_stdlib(value)


def test_integers_beyond_64_bits_fall_back_to_the_standard_library():
    assert canonical(10**30) == b"1000000000000000000000000000000"


def test_a_copy_is_equal_and_shares_nothing_with_its_original():
    from referee.engine.canonical import copied

    original = {"a": [1, {"b": None, "c": [True, "x"]}], "d": {"e": -(2**70)}}
    copy_ = copied(original)
    assert copy_ == original and canonical(copy_) == canonical(original)
    copy_["a"][1]["c"].append("y")
    copy_["d"]["e"] = 0
    assert original == {"a": [1, {"b": None, "c": [True, "x"]}], "d": {"e": -(2**70)}}
