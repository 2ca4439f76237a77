"""Forking a log to settle a dispute: keep its events up to a point, put the amendment
in, and replay every later recorded command the rules still take, with the same seed
(so the same randomness: draws are labelled by what they are for, not by seq).

The original is never touched; the fork is a new list of records. See docs/disputes.md.
"""

from dataclasses import dataclass, field
from typing import Any

from . import disputes, game
from .errors import RefereeError, RuleViolation
from .events import REFEREE

Record = dict[str, Any]


class AmendmentRefused(RuleViolation):
    """The amendment cannot be applied to this log (status 422, nothing recorded)."""


@dataclass(frozen=True)
class Batch:
    """One recorded command and the events it appended (seqs first..last)."""

    first: int
    last: int
    actor: Any
    command: dict[str, Any]


@dataclass
class Plan:
    """Where a fork starts, what the amendment puts in, and what is replayed after."""

    at: int
    inserted: list[tuple[Any, dict[str, Any]]]
    later: list[Batch]


@dataclass
class Forked:
    """A fork: `at` events shared with the original, then `records`."""

    at: int
    records: list[Record]
    state: game.State
    inserted: list[dict[str, Any]] = field(default_factory=list)
    replayed: list[int] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)


def batches(records: list[Record]) -> list[Batch]:
    """The recorded commands after the opening events, with the events of each."""
    found: list[Batch] = []
    for record in records:
        if record["command"] is not None:
            found.append(Batch(record["seq"], record["seq"], record["actor"], record["command"]))
        elif found:
            found[-1] = Batch(found[-1].first, record["seq"], found[-1].actor, found[-1].command)
    return found


def batch_end(records: list[Record], seq: int) -> int:
    """The seq of the last event of the batch that holds event `seq`."""
    end = seq
    while end < len(records) and records[end].get("command") is None:
        end += 1
    return end


def last_time(records: list[Record]) -> int:
    """The referee's time of the last recorded command of a game in rounds (its creation
    time before any command)."""
    times = [b.command["now"] for b in batches(records) if "now" in b.command]
    return times[-1] if times else records[0]["payload"]["created_at"]


def fork(
    records: list[Record], amendment: Any, seed: str, *, link: dict[str, Any] | None
) -> Forked:
    """The fork an amendment makes of a log. With `link` ({from_game, dispute}) its first
    new event is GameForked, as in the fork an amended ruling opens."""
    plan = plan_fork(records, amendment)
    state = game.fold(records[: plan.at])
    forked = Forked(at=plan.at, records=[], state=state)
    if link is not None:
        _run(forked, REFEREE, _record_fork(records, plan.at, link), seed)
    for actor, command in plan.inserted:
        command = _timed(forked.state, command, records[: plan.at])
        try:
            _run(forked, actor, command, seed)
        except RefereeError as refused:
            raise AmendmentRefused(
                "dispute/amendment_refused",
                f"the rules refuse the amendment: {refused.message}",
                {"rule": refused.code, **refused.details},
            ) from None
        forked.inserted.append({"actor": actor, "command": command})
    for batch in plan.later:
        _replay(forked, batch, seed)
    return forked


def _run(forked: Forked, actor: Any, command: dict[str, Any], seed: str) -> None:
    records, forked.state = game.step(forked.state, actor, command, seed)
    forked.records += records


def _replay(forked: Forked, batch: Batch, seed: str) -> None:
    """Replay one later command, or note why the rules no longer take it."""
    if disputes.is_dispute_command(batch.command):
        return  # disputes of the original are not carried into its fork
    try:
        _run(forked, batch.actor, batch.command, seed)
    except RefereeError as refused:
        forked.refused.append(
            {
                "seq": batch.first,
                "actor": batch.actor,
                "type": batch.command.get("type"),
                "code": refused.code,
                "message": refused.message,
            }
        )
        return
    forked.replayed.append(batch.first)


def _record_fork(records: list[Record], at: int, link: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "record_fork",
        "from_game": link["from_game"],
        "at": at,
        "at_hash": records[at - 1].get("hash", records[at - 1]["state_hash"]),
        "dispute": link.get("dispute"),
    }


# --- planning --------------------------------------------------------------------


def plan_fork(records: list[Record], amendment: Any) -> Plan:
    """Where the amendment forks the log and what it puts in there."""
    created = records[0]["payload"]
    amendment = disputes.check_amendment(amendment, len(created["players"]))
    recorded = batches(records)
    kind = amendment["kind"]
    if kind == "drop":
        return _dropping(recorded, amendment["seq"])
    if kind == "insert":
        return _inserting(recorded, amendment, len(records))
    if kind == "replace":
        return _replacing(recorded, amendment)
    return _submitting(records, recorded, amendment)


def _dropping(recorded: list[Batch], seq: int) -> Plan:
    index = _batch_with(recorded, seq)
    batch = recorded[index]
    if disputes.is_dispute_command(batch.command):
        raise AmendmentRefused("dispute/not_play", f"seq {seq} records a dispute, not play", {})
    return Plan(at=batch.first - 1, inserted=[], later=recorded[index + 1 :])


def _replacing(recorded: list[Batch], amendment: dict[str, Any]) -> Plan:
    """Another command in place of the recorded one whose batch holds `seq`, from the
    same sender and at the same time (the move the seat should have made instead)."""
    index = _batch_with(recorded, amendment["seq"])
    batch = recorded[index]
    if disputes.is_dispute_command(batch.command):
        raise AmendmentRefused(
            "dispute/not_play", f"seq {amendment['seq']} records a dispute, not play", {}
        )
    sent = dict(amendment["command"])
    if "now" in batch.command and "now" not in sent:
        sent["now"] = batch.command["now"]
    return Plan(at=batch.first - 1, inserted=[(batch.actor, sent)], later=recorded[index + 1 :])


def _inserting(recorded: list[Batch], amendment: dict[str, Any], length: int) -> Plan:
    before = amendment["before"]
    starts = [b.first for b in recorded]
    if before != length + 1 and before not in starts:
        raise AmendmentRefused(
            "dispute/no_such_command",
            f"seq {before} does not start a recorded command; insert before one of "
            f"{_span(starts)} or at {length + 1} (the end)",
            {"field": "amendment.before"},
        )
    later = [b for b in recorded if b.first >= before]
    return Plan(at=before - 1, inserted=[(amendment["actor"], amendment["command"])], later=later)


def _submitting(records: list[Record], recorded: list[Batch], amendment: dict[str, Any]) -> Plan:
    """A seat's orders for a resolved round, in place of the submission that counted
    (or, where its default orders were used, sent just before the round closed)."""
    number, seat = amendment["round"], amendment["seat"]
    counted = _counted(records, number)
    seq = counted[seat] if seat < len(counted) else None
    if seq is not None:
        index = _batch_with(recorded, seq)
        sent = {**recorded[index].command, "orders": amendment["orders"]}
        first = recorded[index].first
        return Plan(at=first - 1, inserted=[(seat, sent)], later=recorded[index + 1 :])
    closed = _closing(records, number)
    index = _batch_with(recorded, closed)
    sent = {"type": "submit_orders", "round": number, "orders": amendment["orders"]}
    first = recorded[index].first
    return Plan(at=first - 1, inserted=[(seat, sent)], later=recorded[index:])


def _counted(records: list[Record], number: int) -> list[Any]:
    for record in records:
        if record["type"] == "OrdersCounted" and record["payload"]["round"] == number:
            return list(record["payload"]["seats"])
    raise AmendmentRefused(
        "dispute/round_not_resolved",
        f"round {number} is not resolved in this log",
        {"field": "amendment.round"},
    )


def _closing(records: list[Record], number: int) -> int:
    return next(
        r["seq"] for r in records if r["type"] == "RoundClosed" and r["payload"]["round"] == number
    )


def _batch_with(recorded: list[Batch], seq: int) -> int:
    for index, batch in enumerate(recorded):
        if batch.first <= seq <= batch.last:
            return index
    raise AmendmentRefused(
        "dispute/no_such_command",
        f"seq {seq} is not part of a recorded command (the opening events are the game's "
        f"setup; recorded commands span {_span([b.first for b in recorded])})",
        {"field": "amendment.seq"},
    )


def _span(starts: list[int]) -> str:
    return f"seqs {starts[0]}-{starts[-1]}" if starts else "no seqs"


def _timed(state: game.State, command: dict[str, Any], kept: list[Record]) -> dict[str, Any]:
    """An inserted command in a game in rounds arrives just after the last kept command
    (before the open round's deadline), unless it names its own time."""
    rounds = state.get("rounds")
    if rounds is None or "now" in command:
        return command
    now = last_time(kept)
    current = rounds["current"]
    if current is not None and rounds["paused_at"] is None:
        now = min(now, current["deadline"] - 1)
    return {**command, "now": now}
