"""Verify a game log: chain, seed, sealed orders, then re-derivation by the rules.

1. chain: fields, seq continuity, one game id, prev_hash links, hashes, time order;
2. seed: the revealed seed matches the commitment published at seq 1;
3. seals: every sealed order against its commitment and its reveal, every salt
   against the seed (replays/seals.py);
4. rules: with the seed revealed, every event is re-derived: the setup from
   GameCreated and the seed, every later batch by running the command it records
   through the rules with the same seed. Any difference (a payload, a random outcome,
   a salt, a state hash) names the first seq where the log and the rules part ways.

A log recorded under a ruleset version this referee does not have passes or fails
steps 1-3 and is reported `partial`: its rules were not re-run.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import games  # noqa: F401  (registers the rulesets)
from referee.engine import disputes, game, registry
from referee.engine.canonical import canonical, sha256_hex
from referee.engine.chain import FIELDS, GENESIS, event_hash
from referee.engine.errors import RefereeError
from referee.engine.rng import commitment, heard
from referee.engine.state_hashes import StateHashes
from referee.runtime.recent import Recent

from .log import Event, LogLineError, parse
from .problems import Invalid
from .seals import check_seals

TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z"
)  # as the store writes it
DERIVED = ("seq", "type", "actor", "visibility", "payload", "command", "salt", "state_hash")
_FIELD_SET = frozenset(FIELDS)
VALID, INVALID, PARTIAL = "valid", "invalid", "partial"
END_EVENTS = ("GameEnded", "GameAbandoned")


@dataclass
class Report:
    """What verification found for one log: `valid`, `invalid` (at `seq`, with `code`
    and `reason`) or `partial` (steps 1-3 passed; the rules could not be re-run)."""

    status: str = VALID
    events: int = 0
    game_id: str | None = None
    ruleset: str | None = None
    ruleset_version: str | None = None
    seq: int | None = None
    code: str | None = None
    reason: str | None = None
    outcome: Any = None
    seed: str | None = None  # the seed every outcome was re-derived from, once checked
    checks: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """Every check ran and passed."""
        return self.status == VALID


def report_of(report: Report) -> dict:
    """A verification report as plain JSON."""
    return {
        "status": report.status,
        "valid": report.valid,
        "events": report.events,
        "game_id": report.game_id,
        "ruleset": report.ruleset,
        "ruleset_version": report.ruleset_version,
        "seq": report.seq,
        "code": report.code,
        "reason": report.reason,
        "checks": report.checks,
        "notes": report.notes,
    }


def verify_file(path: str | Path) -> Report:
    """Verify one JSONL log file."""
    return verify_bytes(Path(path).read_bytes())


def verify_bytes(data: bytes, *, seed: str | None = None) -> Report:
    """Verify a JSONL log given as bytes (with its `seed`, as verify_events takes it)."""
    try:
        return verify_events(parse(data), seed=seed)
    except LogLineError as exc:
        return Report(status=INVALID, seq=exc.seq, code="log/unreadable", reason=exc.reason)


def verify_events(events: list[Event], *, seed: str | None = None) -> Report:
    """Verify parsed events; the report names the first bad seq, its code and why. A
    `seed` given for a log that does not reveal it (checked against the commitment)
    re-derives it all the same."""
    try:
        return _verified(events, seed, sealing=True)
    except _Unsure:  # something is wrong: checked again step by step, to name it
        return _verified(events, seed, sealing=False)


class _Unsure(Exception):
    """A check taken in one pass with another found a problem it cannot name."""


def _verified(events: list[Event], seed: str | None, *, sealing: bool) -> Report:
    """The checks in order; `sealing`: each event's hash is checked as its content is
    compared with the rules' (one encoding less), and any problem raises _Unsure."""
    report = Report(events=len(events))
    try:
        if sealing:
            check_links(events, hashed=False)
            check_times(events)
        else:
            check_chain(events)
        report.checks["chain"] = f"{len(events)} events linked"
        report.game_id = events[0]["game_id"]
        created = _created(events[0], report)
        seed = _revealed_seed(events, created, report) or _given_seed(seed, created, report)
        report.seed = seed
        _check_seals_and_rules(events, created, seed, report, sealing)
    except Invalid as bad:
        if sealing:
            raise _Unsure from None
        report.status, report.seq, report.code, report.reason = (
            INVALID,
            bad.seq,
            bad.code,
            bad.reason,
        )
    return report


def _given_seed(seed: str | None, created: dict[str, Any], report: Report) -> str | None:
    if seed is None:
        return None
    if commitment(seed) != created.get("seed_commitment"):
        raise Invalid(1, "seed/commitment", "the seed given does not match its commitment")
    report.checks["seed"] = "given; matches the commitment published at seq 1"
    return seed


def _check_seals_and_rules(
    events: list[Event],
    created: dict[str, Any],
    seed: str | None,
    report: Report,
    sealing: bool = False,
) -> None:
    """Both run, and the lower seq either finds is reported (the seal check's at the same
    seq: it says which of orders, commitment and reveal is off). A seal problem can show
    after the event that caused it: a submission whose round was changed fails at its
    commitment, a renumbered log at its next private event; re-derivation names the first
    event that is not what the rules give."""
    found = []
    try:
        report.checks["seals"] = f"{check_seals(events, seed)} sealed orders checked"
    except Invalid as bad:
        found.append(bad)
    try:
        _check_rules(events, created, seed, report, sealing)
    except Invalid as bad:
        found.append(bad)
    if found:
        raise min(found, key=lambda bad: bad.seq)


def _check_rules(
    events: list[Event],
    created: dict[str, Any],
    seed: str | None,
    report: Report,
    sealing: bool = False,
) -> None:
    """Re-derive the log (or fold it, before the seed is out) under the rules it names;
    a version this referee does not have makes the report partial. `sealing`: every
    event's hash is checked here, as its content is compared when re-derived."""
    rules = registry.get(created["ruleset"])
    known = game.versions(rules)
    if sealing and (seed is None or report.ruleset_version not in known):
        check_links(events)  # nothing re-derived: the hashes are checked here
    if report.ruleset_version not in known:
        report.status = PARTIAL
        report.checks["rules"] = (
            f"recorded under {rules.NAME} {report.ruleset_version}; this referee has "
            f"{', '.join(str(v) for v in known)}: not re-derived"
        )
        report.outcome = _recorded_outcome(events)
        return
    if seed is None:
        report.notes.append("seed not revealed yet: random outcomes not re-derived")
        state = _fold_checked(events)
        report.checks["rules"] = "folded; state hashes match"
    else:
        state = _rederive(events, created, seed, sealing=sealing)
        report.checks["rules"] = (
            f"every event re-derived under {rules.NAME} {report.ruleset_version}"
        )
    report.outcome = state["outcome"]


def _recorded_outcome(events: list[Event]) -> Any:
    ended = [e for e in events if e["type"] == "GameEnded"]
    return ended[-1]["payload"].get("outcome") if ended else None


def check_chain(events: list[Event]) -> None:
    """Fields, seq continuity, one game id, prev_hash links, each hash, time order."""
    check_links(events)
    check_times(events)


def check_links(events: list[Event], *, hashed: bool = True) -> None:
    """Fields, seq continuity, one game id, prev_hash links and each hash (unless not
    `hashed`)."""
    if not events:
        raise Invalid(1, "log/empty", "the log is empty")
    prev = GENESIS
    for number, event in enumerate(events, start=1):
        _check_link(event, number, events[0], prev, hashed)
        prev = event["hash"]


def check_times(events: list[Event]) -> None:
    """Every recorded_at is a time as the store writes it, none before the one before."""
    stamp = ""
    for number, event in enumerate(events, start=1):
        _check_time(event, number, stamp)
        stamp = event["recorded_at"]


def _check_link(event: Event, number: int, first: Event, prev: str, hashed: bool = True) -> None:
    if event.keys() != _FIELD_SET:
        raise Invalid(
            number, "chain/fields", f"fields are {sorted(event)}, expected {sorted(FIELDS)}"
        )
    if event["seq"] != number:
        raise Invalid(number, "chain/seq", f"seq {event['seq']!r} found where {number} belongs")
    if event["game_id"] != first["game_id"]:
        raise Invalid(number, "chain/game_id", "game_id differs from the first event's")
    if event["prev_hash"] != prev:
        raise Invalid(
            number, "chain/prev_hash", "prev_hash does not match the previous event's hash"
        )
    if hashed and event_hash(event) != event["hash"]:
        raise Invalid(number, "chain/hash", "hash does not match the event's content")


def _check_time(event: Event, number: int, stamp: str) -> None:
    if not isinstance(event.get("recorded_at"), str) or not TIME.fullmatch(event["recorded_at"]):
        raise Invalid(number, "chain/time", "recorded_at is not a time YYYY-MM-DDTHH:MM:SS.ffffffZ")
    if event["recorded_at"] < stamp:
        raise Invalid(number, "chain/time", "recorded_at is earlier than the previous event's")


def _created(first: Event, report: Report) -> dict[str, Any]:
    if first["type"] != "GameCreated" or not isinstance(first["payload"], dict):
        raise Invalid(1, "rules/created", "the first event is not GameCreated")
    payload = first["payload"]
    try:
        rules = registry.get(payload["ruleset"])
    except (RefereeError, KeyError, TypeError):
        raise Invalid(1, "rules/unknown", f"unknown ruleset {payload.get('ruleset')!r}") from None
    report.ruleset, report.ruleset_version = rules.NAME, payload.get("ruleset_version")
    return payload


def _revealed_seed(events: list[Event], created: dict[str, Any], report: Report) -> str | None:
    """The revealed seed, checked against its commitment; only disputes may follow it,
    and a game that ended must reveal it."""
    revealed = [e for e in events if e["type"] == "SeedRevealed"]
    if not revealed:
        ended = [e for e in events if e["type"] in END_EVENTS]
        if ended:
            _seed_missing(events, ended[-1])
        report.checks["seed"] = "not revealed yet"
        return None
    event = revealed[0]
    seed = event["payload"].get("seed") if isinstance(event["payload"], dict) else None
    if not isinstance(seed, str) or commitment(seed) != created.get("seed_commitment"):
        raise Invalid(
            event["seq"],
            "seed/commitment",
            "the revealed seed does not match the commitment published at seq 1",
        )
    after = [e for e in events[event["seq"] :] if e["type"] not in disputes.EVENTS]
    if after:
        raise Invalid(after[0]["seq"], "seed/not_last", f"{after[0]['type']} follows SeedRevealed")
    report.checks["seed"] = "matches the commitment published at seq 1"
    return seed


def _seed_missing(events: list[Event], end: Event) -> None:
    """A game that ended reveals its seed in the same batch, after any sealed orders still
    to reveal: named where SeedRevealed belongs (an event in its place, or the next seq)."""
    later = [e for e in events[end["seq"] :] if e["type"] != "OrdersRevealed"]
    seq = later[0]["seq"] if later else len(events) + 1
    raise Invalid(seq, "seed/missing", f"{end['type']} but no SeedRevealed")


def _fold_checked(events: list[Event]) -> game.State:
    state, hashed = None, StateHashes()
    for event in events:
        state = _apply(state, event)
        if hashed(state) != event["state_hash"]:
            raise Invalid(
                event["seq"], "rules/state_hash", "state_hash differs from the state the fold gives"
            )
    assert state is not None
    return state


def _apply(state: game.State | None, event: Event) -> game.State:
    try:
        return game.apply(state, event)
    except Exception as exc:  # a tampered payload may not fit the rules at all
        raise Invalid(event["seq"], "rules/apply", f"event cannot be applied: {exc!r}") from None


def _rederive(
    events: list[Event],
    created: dict[str, Any],
    seed: str,
    draws: list | None = None,
    *,
    sealing: bool = False,
) -> game.State:
    """Re-run the log; `draws` (given) gets each move's random draws: its first seq and
    the labels it drew from; `sealing`: each event's hash is checked as it is compared."""
    try:
        with heard() as labels:
            opening = _opening(created, seed)
    except RefereeError as exc:
        raise Invalid(
            1, "rules/refused", f"GameCreated is refused by the rules: {exc.message}"
        ) from None
    except Exception as exc:  # a tampered GameCreated may not fit the rules at all
        raise Invalid(1, "rules/refused", f"GameCreated cannot be run: {exc!r}") from None
    _heard_at(draws, 1, labels)
    _compare(opening, events, 0, sealing)
    state = game.fold(opening)
    at, hashed = len(opening), StateHashes()
    if draws is None:  # the draws are told from the start
        at, state = _resumed(events, seed, sealing, at, state)
    batches = 0
    while at < len(events):
        if draws is None:  # listening to the draws costs a context per command
            batch, state = _rerun(state, events[at], seed, hashed)
        else:
            with heard() as labels:
                batch, state = _rerun(state, events[at], seed, hashed)
            _heard_at(draws, at + 1, labels)
        _compare(batch, events, at, sealing)
        at += len(batch)
        batches += 1
        if batches % RESUME_EVERY == 0:
            _RESUMES.put((seed, events[at - 1]["hash"]), (at, state))
    return state


# States re-derived at every RESUME_EVERY-th batch of the logs verified lately in this
# process, by the seed and the hash of the last event before them. That hash seals every
# event before it (each hash covers the one before), so a log whose chain holds and
# whose event there has that hash is those events, byte for byte, which the rules have
# already re-derived: its re-derivation may start there. Logs that share a beginning (a
# log and its damaged copies, a game verified as it grows) are re-run from where they
# part, not from their first event.
RESUME_EVERY = 8
RESUMES_KEPT = 256


def _resumed(
    events: list[Event], seed: str, sealing: bool, at: int, state: game.State
) -> tuple[int, game.State]:
    """Where the re-derivation of `events` may start, and the state there: the latest
    resume point kept for its seed and one of its hashes; (`at`, `state`) if none. The
    chain's links are checked already, and its hashes too unless `sealing`: then the
    events before the point are checked against their hashes here, and a point past an
    event whose hash does not hold is passed over."""
    below, checked = len(events), 0
    while True:
        found = _latest_resume(events, seed, at, below)
        if found is None:
            return at, state
        if not sealing:
            return found
        bad = next(
            (n for n in range(checked, found[0]) if event_hash(events[n]) != events[n]["hash"]),
            None,
        )
        if bad is None:
            return found
        below, checked = bad, bad


def _latest_resume(
    events: list[Event], seed: str, at: int, below: int
) -> tuple[int, game.State] | None:
    """The kept resume point at the latest of events[at:below], if any."""
    for number in range(below - 1, at - 1, -1):
        found = _RESUMES.get((seed, events[number]["hash"]))
        if found is not None:
            return found
    return None


_RESUMES = Recent(RESUMES_KEPT)


def _heard_at(draws: list | None, seq: int, labels: list[str]) -> None:
    if draws is not None and labels:
        draws.append({"seq": seq, "labels": list(dict.fromkeys(labels))})


def _opening(created: dict[str, Any], seed: str) -> list[dict[str, Any]]:
    """The opening records the rules give: a game created now; or, for a GameCreated the
    referee wrote under an older kept version or before some options existed (its options
    lack them), that GameCreated as written, then its setup and first round from it."""
    opening = game.create(
        created["ruleset"],
        created["players"],
        created["options"],
        seed,
        now=created.get("created_at"),
        clock=created.get("clock"),
        bots=created.get("bots"),
    )
    today = opening[0]["payload"]
    then = {**created, "ruleset_version": today["ruleset_version"], "options": today["options"]}
    if canonical(created) == canonical(today) or canonical(then) != canonical(today):
        return opening  # the same, or a difference the comparison will name
    return game.opening(created, seed)  # a kept version (_check_rules let no other by)


def _rerun(
    state: game.State, event: Event, seed: str, hashed: StateHashes
) -> tuple[list[dict[str, Any]], game.State]:
    if event["command"] is None:
        raise Invalid(
            event["seq"],
            "rules/uncaused",
            f"{event['type']} was not caused by any recorded command",
        )
    try:
        return game.step(state, event["actor"], event["command"], seed, hashed=hashed)
    except RefereeError as exc:
        raise Invalid(
            event["seq"], "rules/refused", f"the rules refuse the recorded command: {exc.message}"
        ) from None
    except Exception as exc:
        raise Invalid(
            event["seq"], "rules/refused", f"the recorded command cannot be run: {exc!r}"
        ) from None


def _compare(
    derived: list[dict[str, Any]], events: list[Event], at: int, sealing: bool = False
) -> None:
    for offset, record in enumerate(derived):
        if at + offset >= len(events):
            raise Invalid(
                record["seq"],
                "rules/truncated",
                f"the log ends where {record['type']} should follow",
            )
        logged = events[at + offset]
        if sealing:
            _check_sealed(logged, record)
            continue
        # compared as canonical bytes: 1 and 1.0, or 1 and true, are different entries
        if canonical([logged[k] for k in DERIVED]) != canonical([record[k] for k in DERIVED]):
            key = next(k for k in DERIVED if canonical(logged[k]) != canonical(record[k]))
            raise Invalid(
                logged["seq"], "rules/derived", f"{key} differs from what the seed and rules give"
            )


def _check_sealed(logged: Event, record: dict[str, Any]) -> None:
    """The logged event's hash seals its content, and that content is the record in the
    logged envelope, byte for byte (so every derived field is the same); Invalid, not
    told apart, if not."""
    content = dict(logged)  # copied whole in C, then the one field left out
    del content["hash"]
    encoded = canonical(content)
    if sha256_hex(encoded) != logged["hash"] or encoded != canonical(
        {
            **record,
            "game_id": logged["game_id"],
            "recorded_at": logged["recorded_at"],
            "prev_hash": logged["prev_hash"],
        }
    ):
        raise Invalid(logged["seq"], "rules/derived", "the event is not what the rules give")
