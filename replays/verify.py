"""Verify a game log: chain, seq continuity, seed, re-derivation of every event, outcome.

With the seed revealed, every event is re-derived: the setup from GameCreated and
the seed, every later batch by running the command it records through the current
rules with the same seed. Any difference (a payload, a random outcome, a salt, a
state hash) names the first seq where the log and the rules part ways.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import games  # noqa: F401  (registers the rulesets)
from referee.engine import game, registry
from referee.engine.canonical import canonical, digest
from referee.engine.chain import FIELDS, GENESIS, event_hash
from referee.engine.errors import RefereeError
from referee.engine.rng import commitment

from .log import Event, LogLineError, parse

DERIVED = ("seq", "type", "actor", "visibility", "payload", "command", "salt", "state_hash")


class Invalid(Exception):
    """The first problem found: the seq it is at and why."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq, self.reason = seq, reason


@dataclass
class Report:
    """What verification found for one log."""

    valid: bool
    events: int = 0
    game_id: str | None = None
    ruleset: str | None = None
    seq: int | None = None
    reason: str | None = None
    outcome: Any = None
    notes: list[str] = field(default_factory=list)


def verify_file(path: str | Path) -> Report:
    """Verify one JSONL log file."""
    return verify_bytes(Path(path).read_bytes())


def verify_bytes(data: bytes) -> Report:
    """Verify a JSONL log given as bytes."""
    try:
        return verify_events(parse(data))
    except LogLineError as exc:
        return Report(valid=False, seq=exc.seq, reason=exc.reason)


def verify_events(events: list[Event]) -> Report:
    """Verify parsed events; the report names the first bad seq and why."""
    report = Report(valid=True, events=len(events))
    try:
        check_chain(events)
        report.game_id = events[0]["game_id"]
        state = replay(events, report)
        report.ruleset, report.outcome = state["ruleset"], state["outcome"]
    except Invalid as bad:
        report.valid, report.seq, report.reason = False, bad.seq, bad.reason
    return report


def check_chain(events: list[Event]) -> None:
    """Fields, seq continuity, one game id, prev_hash links, each hash, time order."""
    if not events:
        raise Invalid(1, "the log is empty")
    prev, stamp = GENESIS, ""
    for number, event in enumerate(events, start=1):
        if sorted(event) != sorted(FIELDS):
            raise Invalid(number, f"fields are {sorted(event)}, expected {sorted(FIELDS)}")
        if event["seq"] != number:
            raise Invalid(number, f"seq {event['seq']!r} found where {number} belongs")
        if event["game_id"] != events[0]["game_id"]:
            raise Invalid(number, "game_id differs from the first event's")
        if event["prev_hash"] != prev:
            raise Invalid(number, "prev_hash does not match the previous event's hash")
        if event_hash(event) != event["hash"]:
            raise Invalid(number, "hash does not match the event's content")
        if not isinstance(event["recorded_at"], str) or event["recorded_at"] < stamp:
            raise Invalid(number, "recorded_at is earlier than the previous event's")
        prev, stamp = event["hash"], event["recorded_at"]


def replay(events: list[Event], report: Report) -> game.State:
    """Re-derive the log from its seed if revealed, else fold it and check state hashes."""
    created = _created(events[0])
    seed = _revealed_seed(events, created)
    if seed is None:
        report.notes.append("seed not revealed yet: random outcomes not re-derived")
        return _fold_checked(events)
    return _rederive(events, created, seed)


def _created(first: Event) -> dict[str, Any]:
    if first["type"] != "GameCreated":
        raise Invalid(1, "the first event is not GameCreated")
    payload = first["payload"]
    try:
        rules = registry.get(payload["ruleset"])
    except (RefereeError, KeyError, TypeError):
        raise Invalid(1, f"unknown ruleset {payload.get('ruleset')!r}") from None
    if payload.get("ruleset_version") != rules.VERSION:
        raise Invalid(
            1,
            f"recorded under {rules.NAME} {payload.get('ruleset_version')}; "
            f"this referee has {rules.VERSION}",
        )
    return payload


def _revealed_seed(events: list[Event], created: dict[str, Any]) -> str | None:
    for event in events:
        if event["type"] == "SeedRevealed":
            seed = event["payload"].get("seed")
            if not isinstance(seed, str) or commitment(seed) != created["seed_commitment"]:
                raise Invalid(event["seq"], "the revealed seed does not match its commitment")
            if event is not events[-1]:
                raise Invalid(event["seq"] + 1, "events follow SeedRevealed")
            return seed
    return None


def _fold_checked(events: list[Event]) -> game.State:
    state = None
    for event in events:
        state = _apply(state, event)
        if digest(state) != event["state_hash"]:
            raise Invalid(event["seq"], "state_hash differs from the state the fold gives")
    assert state is not None
    return state


def _apply(state: game.State | None, event: Event) -> game.State:
    try:
        return game.apply(state, event)
    except Exception as exc:  # a tampered payload may not fit the rules at all
        raise Invalid(event["seq"], f"event cannot be applied: {exc!r}") from None


def _rederive(events: list[Event], created: dict[str, Any], seed: str) -> game.State:
    try:
        opening = game.create(
            created["ruleset"],
            created["players"],
            created["options"],
            seed,
            now=created.get("created_at"),
        )
    except RefereeError as exc:
        raise Invalid(1, f"GameCreated is refused by the rules: {exc.message}") from None
    _compare(opening, events, 0)
    state = game.fold(opening)
    at = len(opening)
    while at < len(events):
        batch, state = _rerun(state, events[at], seed)
        _compare(batch, events, at)
        at += len(batch)
    return state


def _rerun(state: game.State, event: Event, seed: str) -> tuple[list[dict[str, Any]], game.State]:
    if event["command"] is None:
        raise Invalid(event["seq"], f"{event['type']} was not caused by any recorded command")
    try:
        return game.step(state, event["actor"], event["command"], seed)
    except RefereeError as exc:
        raise Invalid(
            event["seq"], f"the rules refuse the recorded command: {exc.message}"
        ) from None
    except Exception as exc:
        raise Invalid(event["seq"], f"the recorded command cannot be run: {exc!r}") from None


def _compare(derived: list[dict[str, Any]], events: list[Event], at: int) -> None:
    for offset, record in enumerate(derived):
        if at + offset >= len(events):
            raise Invalid(record["seq"], f"the log ends where {record['type']} should follow")
        logged = events[at + offset]
        # compared as canonical bytes: 1 and 1.0, or 1 and true, are different entries
        if canonical([logged[k] for k in DERIVED]) != canonical([record[k] for k in DERIVED]):
            key = next(k for k in DERIVED if canonical(logged[k]) != canonical(record[k]))
            raise Invalid(logged["seq"], f"{key} differs from what the seed and rules give")
