"""The log reader and the verifier never crash: any bytes are events or a named line,
and any log, however damaged, is a report (INVALID at a seq with a code), never a
traceback. The import endpoint answers such logs with a 4xx and a code."""

import json
import os
from pathlib import Path

import pytest
from chained import rechain
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from replays.log import MAX_DEPTH, LogLineError, dumps, parse, read
from replays.verify import INVALID, verify_bytes

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
LOG = read(CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl")
FIELDS = sorted(LOG[0])
CHAIN = ("hash", "prev_hash", "game_id")
# REFEREE_FUZZ_EXAMPLES=2000 for a longer search than CI's
EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=1 << 63, max_value=1 << 80)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)


def nested(levels: int) -> bytes:
    return b'{"a":' + b"[" * levels + b"]" * levels + b"}"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"[" * 100_000, "deeper than"),
        (nested(MAX_DEPTH + 1), "deeper than"),
        (b'{"a": ' + b"9" * 5000 + b"}", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"a": NaN', "not valid JSON"),
    ],
)
def test_a_line_the_reader_cannot_take_is_named_with_its_number(line, why):
    with pytest.raises(LogLineError) as raised:
        parse(dumps(LOG[:2]) + line + b"\n")
    assert raised.value.seq == 3 and why in raised.value.reason


def test_a_line_nested_to_the_limit_is_read():
    assert parse(nested(MAX_DEPTH - 1)) == [{"a": parse(nested(MAX_DEPTH - 1))[0]["a"]}]


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_are_events_or_a_named_line(data):
    try:
        events = parse(data)
    except LogLineError as exc:
        assert exc.seq >= 1 and exc.reason
    else:
        assert all(isinstance(e, dict) for e in events)


@pytest.mark.parametrize("data", [b"[" * 100_000, nested(300), b'{"a": ' + b"9" * 5000 + b"}"])
def test_verify_reports_an_unreadable_log_instead_of_raising(data):
    report = verify_bytes(dumps(LOG[:3]) + data)
    assert (report.status, report.seq, report.code) == (INVALID, 4, "log/unreadable")


@FUZZ
@given(
    seq=st.integers(min_value=1, max_value=len(LOG)),
    key=st.sampled_from(FIELDS + ["payload.*", "command.*"]),
    value=JSON,
    chained=st.booleans(),
)
def test_any_value_in_any_field_of_a_real_log_is_reported_never_raised(seq, key, value, chained):
    events = [dict(e) for e in LOG]
    target = events[seq - 1]
    if key.endswith(".*"):
        outer = key[:-2]
        inner = target[outer] if isinstance(target[outer], dict) else {}
        name = sorted(inner)[0] if inner else "type"
        target[outer] = {**inner, name: value}
    else:
        target[key] = value
    # a forger re-hashing the chain after the change (which rewrites every hash and
    # prev_hash, and the game id from the first event's) must still be caught
    chained = chained and key not in CHAIN and _chainable(events)
    report = verify_bytes(dumps(rechain(events) if chained else events))
    if events != LOG:
        assert report.status == INVALID and report.code and report.seq
    else:
        assert report.valid


def _chainable(events: list[dict]) -> bool:
    """Whether a forger could re-hash these events (every one has the chain's fields)."""
    return all(isinstance(e.get("game_id"), str) for e in events)


@pytest.mark.parametrize("data", [b"[" * 100_000, nested(300), b'{"a": ' + b"9" * 5000 + b"}"])
def test_importing_an_unreadable_log_is_a_400_with_a_code(client, data):
    answer = client.post(
        "/games/import",
        data=dumps(LOG[:3]) + data,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "import/unreadable"
    assert answer.get_json()["error"]["details"] == {"line": 4}


@FUZZ
@given(
    st.dictionaries(
        st.text(max_size=6),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.integers(min_value=-(1 << 80), max_value=1 << 80)
            | st.floats(allow_nan=False, allow_infinity=False)
            | st.text(max_size=8),
            lambda children: (
                st.lists(children, max_size=3)
                | st.dictionaries(st.text(max_size=6), children, max_size=3)
            ),
            max_leaves=12,
        ),
        max_size=4,
    )
)
@example({"": -9223372036854775809})  # one below -2**63: 19 digits, a fraction to orjson
@example({"": -9962006345344120832})
@example({"": 18446744073709551615, "n": -9223372036854775808})  # orjson's own limits
def test_a_line_means_what_the_standard_library_reads_in_it(event):
    line = json.dumps(event).encode("utf-8")
    (read_back,) = parse(line)
    assert read_back == json.loads(line)
    assert repr(read_back) == repr(json.loads(line))  # integers stay integers, exactly


@pytest.mark.parametrize(
    "event",
    [
        {"many": [[1]] * (MAX_DEPTH + 1)},  # more brackets than the limit, two levels deep
        {"hex": "1" * 40, "n": 2},  # a run of digits in a string only
        {"n": 18446744073709551617, "x": 0.5},  # past 64 bits, and a fraction
        {"n": -(10**30)},
    ],
)
def test_lines_the_quick_look_cannot_clear_read_as_the_standard_library_does(event):
    line = json.dumps(event).encode("utf-8")
    (read_back,) = parse(line)
    assert repr(read_back) == repr(json.loads(line))
