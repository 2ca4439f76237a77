"""One suite over every registered ruleset: bots finish, folds agree, secrets stay put."""

import copy
import json
import re
from functools import cache

import pytest
from chained import sealed

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose, timed
from referee.engine import game, registry
from referee.engine.canonical import canonical
from referee.engine.events import may_see
from referee.engine.rng import Rng
from replays.verify import verify_events

GAMES = 300
# games of a ruleset whose random-bot games run to hundreds of game turns (dark-horse-west:
# a game ends on 11 influence or every piece built) are fewer here; its own contract file
# plays each variant (tests/contract/test_dark_horse_west_contract.py)
FEWER = {"dark-horse-west": 12}
T0 = 1_800_000_000  # the creation time of games played in rounds
RULESETS = registry.names()
# the checks over a ruleset's corpus (built once per process, see corpus) run on one
# xdist worker (--dist loadgroup), so that worker alone plays it
ON_ITS_CORPUS = [
    pytest.param(ruleset, id=ruleset, marks=pytest.mark.xdist_group(f"corpus-{ruleset}"))
    for ruleset in RULESETS
]
# the checks that play their own games run as tests of at most this many games each, so
# the workers share the costly ones (a ruleset not named: all its games in one test)
GAMES_PER_TEST = {"dark-horse-west": 1, "blackout-middle": 5}


def seats_for(rules, i: int) -> list[str]:
    count = rules.MIN_PLAYERS + i % (rules.MAX_PLAYERS - rules.MIN_PLAYERS + 1)
    return [f"p{s}" for s in range(count)]


def seed_for(ruleset: str, i: int, options: dict | None = None) -> str:
    """The seed of bot game i; games with options given have the options in theirs."""
    if not options:
        return f"contract/{ruleset}/{i}"
    return f"contract/{ruleset}/{canonical(options).decode()}/{i}"


def bot_game(ruleset: str, i: int, *, options: dict | None = None, check=None, seats=None):
    """A seeded random-bot game: (records, final state, commands)."""
    seed = seed_for(ruleset, i, options)
    players = seats or seats_for(registry.get(ruleset), i)
    records = game.create(ruleset, players, options or {}, seed, now=T0)
    state, bot, commands = game.fold(records), Rng(f"bot:{seed}"), []
    for turn in range(20_000):
        if game.is_over(state):
            return records, state, commands
        seat, command = choose(state, bot, turn)
        batch, after = game.step(state, seat, command, seed)  # the batch and its fold
        if check:
            check(state, batch)
        records, state = records + batch, after
        commands.append((seat, command))
    raise AssertionError(f"{ruleset} game {i} did not end")


@cache
def corpus(ruleset: str):
    return [bot_game(ruleset, i) for i in range(games_of(ruleset, GAMES))]


def games_of(ruleset: str, usual: int) -> int:
    """How many bot games a check plays for a ruleset."""
    return min(usual, FEWER.get(ruleset, usual))


def in_tests(count_of) -> list:
    """(ruleset, numbers) params: each ruleset's count_of(ruleset) games, GAMES_PER_TEST at
    most in one test."""
    params = []
    for ruleset in RULESETS:
        count = count_of(ruleset)
        size = GAMES_PER_TEST.get(ruleset, count)
        for start in range(0, count, size):
            numbers = range(start, min(start + size, count))
            params.append(pytest.param(ruleset, numbers, id=f"{ruleset}-{start}-{numbers[-1]}"))
    return params


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_bot_games_finish_with_an_outcome_and_a_revealed_seed(ruleset):
    for i, (records, state, _) in enumerate(corpus(ruleset)):
        assert state["status"] == "finished"
        assert [r["type"] for r in records[-2:]] == ["GameEnded", "SeedRevealed"]
        assert records[-1]["payload"]["seed"] == f"contract/{ruleset}/{i}"
        assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
        outcome = state["outcome"]
        assert len(outcome["scores"]) == len(state["players"])
        # a lost Solitaire game has no winner; every other game has one at least
        assert outcome["winners"] or outcome.get("victory") is False


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_fold_of_the_log_equals_the_state_built_step_by_step(ruleset):
    for records, state, _ in corpus(ruleset):
        assert game.fold(records) == state
        assert records[-1]["state_hash"] == game.digest(state)


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_same_seed_and_commands_give_byte_identical_records(ruleset):
    for i, (records, _, commands) in enumerate(corpus(ruleset)[:50]):
        again = replayed(ruleset, i, commands)
        assert b"".join(map(canonical, again)) == b"".join(map(canonical, records))


def replayed(ruleset: str, i: int, commands, options: dict | None = None, seats=None) -> list:
    """Bot game i created again and the same commands executed: its records."""
    seed = seed_for(ruleset, i, options)
    players = seats or seats_for(registry.get(ruleset), i)
    again = game.create(ruleset, players, options or {}, seed, now=T0)
    state = game.fold(again)
    for seat, command in commands:
        batch, state = game.step(state, seat, command, seed)
        again += batch
    return again


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_logs_verify_and_a_changed_outcome_is_caught(ruleset):
    for records, _, _ in corpus(ruleset)[:40]:
        events = sealed(records)
        assert verify_events(events).valid
    forged = copy.deepcopy(records)
    forged[-2]["payload"]["outcome"]["winners"] = [99]
    report = verify_events(sealed(forged))
    assert not report.valid and report.seq == forged[-2]["seq"]


@pytest.mark.parametrize(
    ("ruleset", "numbers"), in_tests(lambda r: games_of(r, 30) // 2 if r in FEWER else 30)
)
def test_no_view_or_stream_shows_a_seat_what_is_hidden_from_it(ruleset, numbers):
    for i in numbers:
        bot_game(ruleset, i, check=no_leaks_before(f"contract/{ruleset}/{i}"))


def no_leaks_before(seed: str):
    """A check run after every batch: nothing a seat may not see reaches its view or its
    stream. Incremental: each new piece shown is searched for every hidden payload, salt
    and the seed; each newly hidden payload is searched for in everything shown so far."""
    leaks = {}  # per seat
    public: set[bytes] = set()
    spectator_hidden: list[bytes] = []

    def check(state, batch):
        after = game.fold(batch, state)
        if game.is_over(after):
            return
        public.update(canonical(r["payload"]) for r in batch if r["visibility"] == "public")
        spectator_hidden.extend(
            canonical(r["payload"]) for r in batch if r["visibility"] != "public"
        )
        spectator = canonical(game.view(after, None))
        for payload in spectator_hidden:
            assert payload in public or payload not in spectator
        for seat in range(len(state["players"])):
            seat_leaks = leaks.setdefault(seat, SeatLeaks(seed.encode()))
            streamed = b"".join(canonical(game.redact(r, seat, False)) for r in batch)
            seat_leaks.check(batch, seat, canonical(game.view(after, seat)) + streamed, streamed)

    return check


HEX_RUN = re.compile(rb"[0-9a-f]{32,}")


class SeatLeaks:
    """What one seat may not see, and everything its streams showed it so far.

    A hidden payload may equal one the seat was shown (a card drawn in secret and later
    discarded face up): only the others must not appear. Those are kept once each, and
    dropped once the seat is shown the same bytes (what a seat was shown stays shown). A
    salt is lowercase hex, so it appears in shown bytes only inside a run of 32 or more
    hex digits: every 32-digit window of those runs is looked up among the salts."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.mine: set[bytes] = set()  # payloads the seat was shown
        self.secret: set[bytes] = set()  # hidden payloads not among those
        self.salts: set[bytes] = set()
        self.past = bytearray()  # everything streamed to the seat so far
        self.past_windows: set[bytes] = set()  # its hex windows (no run spans two events)

    def check(self, batch, seat: int, fresh: bytes, streamed: bytes) -> None:
        """`fresh`: the view after the batch and the batch as streamed to the seat."""
        shown = {canonical(r["payload"]) for r in batch if may_see(r["visibility"], seat)}
        self.mine |= shown
        self.secret -= shown
        hidden = [r for r in batch if not may_see(r["visibility"], seat)]
        new_salts = {r["salt"].encode() for r in hidden}
        new_secret = {canonical(r["payload"]) for r in hidden} - self.mine
        self.salts |= new_salts
        self.secret |= new_secret
        assert self.seed not in fresh
        assert not any_salt_in(self.salts, fresh)
        for payload in self.secret:
            assert payload not in fresh
        assert not new_salts.intersection(self.past_windows)
        for payload in new_secret:
            assert payload not in self.past
        self.past += streamed
        self.past_windows |= windows(streamed)


def any_salt_in(salts: set[bytes], text: bytes) -> bool:
    """Whether any salt appears in the text: searched for one by one when they are few,
    else looked up among the text's hex windows."""
    if len(salts) <= FEW_SALTS:
        return any(salt in text for salt in salts)
    return not salts.isdisjoint(windows(text))


FEW_SALTS = 16


def windows(text: bytes) -> set[bytes]:
    """Every run of 32 consecutive lowercase hex digits in the text."""
    return {run[i : i + 32] for run in HEX_RUN.findall(text) for i in range(len(run) - 31)}


def hidden_record(seq: int, payload: dict) -> dict:
    """A record seat 1 alone may see, with a salt of its own."""
    salt = f"{seq:032x}"
    return {"visibility": [1], "salt": salt, "payload": payload}


@pytest.mark.parametrize("salts", [1, FEW_SALTS + 1], ids=["few salts", "many salts"])
def test_the_leak_check_catches_a_hidden_payload_or_salt_shown_now_or_before(salts):
    hidden = [hidden_record(n, {"card": f"ace-{n}"}) for n in range(1, salts + 1)]
    payload, salt = canonical(hidden[0]["payload"]), hidden[0]["salt"].encode()
    for fresh, past in [(payload, b""), (b'{"x":"' + salt + b'"}', b""), (b"", payload)]:
        leaks = SeatLeaks(b"the-seed")
        leaks.check([], 0, b"", past)  # shown before the secret was made
        with pytest.raises(AssertionError):
            leaks.check(hidden, 0, fresh, b"")
    leaks = SeatLeaks(b"the-seed")
    leaks.check([{**hidden[0], "visibility": "public"}], 0, b"", b"")  # shown to all first
    leaks.check(hidden, 0, payload, b"")  # the same bytes again: no secret
    with pytest.raises(AssertionError):
        SeatLeaks(b"the-seed").check([], 0, b"...the-seed...", b"")


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_apply_never_changes_its_input_and_states_are_plain_json(ruleset):
    """The input state's canonical bytes are the same after apply (they are exact: every
    state is checked to be plain JSON, which those bytes carry unchanged)."""
    rules = registry.get(ruleset)
    for records, _, _ in corpus(ruleset)[:20]:
        state = game.fold(records[:1])
        before = plain_json(state)
        for record in records[1:]:
            after = game.apply(state, record)
            assert canonical(state) == before, f"apply mutated its input at {record['type']}"
            before = plain_json(after)
            json.loads(canonical(record), parse_float=no_float)
            state = after
        assert rules.outcome(state["rules"]) == state["outcome"]


@pytest.mark.parametrize("ruleset", ON_ITS_CORPUS)
def test_views_and_legal_never_change_the_state(ruleset):
    """The service holds states in memory and hands views out: they must not alias it."""
    for records, _, _ in corpus(ruleset)[: 2 if ruleset in FEWER else 5]:
        state = None
        for record in records[:-2]:
            state = game.apply(state, record)
            before = canonical(state)  # exact: states are plain JSON (the test above)
            for viewer in [None, "moderator", *range(len(state["players"]))]:
                shown = game.view(state, viewer)
                scribble(shown)
            assert canonical(state) == before, f"a view changed the state after {record['type']}"


def scribble(value) -> None:
    """Change every list and dict reachable from a view, as a careless caller might."""
    if isinstance(value, dict):
        for key in list(value):
            scribble(value[key])
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")


def plain_json(value) -> bytes:
    """The canonical bytes of a value that JSON carries unchanged (no tuples, no keys but
    strings), with no float anywhere."""
    encoded = canonical(value)
    assert json.loads(encoded, parse_float=no_float) == value
    return encoded


def no_float(text: str):
    """json.loads's parse_float: a float in a state or an event is an error."""
    raise AssertionError(f"a float in a state or an event: {text}")


@pytest.mark.parametrize(
    ("ruleset", "numbers"), in_tests(lambda r: games_of(r, 10) // 2 if r in FEWER else 10)
)
def test_every_legal_command_is_accepted(ruleset, numbers):
    def all_legal_accepted(state, batch):
        for actor in game.to_move(state):
            for command in game.legal(state, actor):
                assert game.execute(state, actor, timed(state, command), "any seed")

    for i in numbers:
        bot_game(ruleset, i, check=all_legal_accepted)
