"""Canonical JSON: sorted keys, no spaces, UTF-8, no NaN."""

import hashlib

import pytest

from referee.engine.canonical import canonical, digest


def test_keys_sorted_and_no_whitespace():
    assert canonical({"b": 1, "a": [1, {"d": None, "c": True}]}) == (
        b'{"a":[1,{"c":true,"d":null}],"b":1}'
    )


def test_text_is_utf8_not_escaped():
    assert canonical({"name": "Zoë"}) == '{"name":"Zoë"}'.encode()


def test_nan_is_refused():
    with pytest.raises(ValueError):
        canonical({"x": float("nan")})


def test_digest_is_sha256_of_canonical_bytes():
    assert digest({"a": 1}) == hashlib.sha256(b'{"a":1}').hexdigest()
