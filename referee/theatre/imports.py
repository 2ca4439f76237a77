"""Importing a recorded log: verified first, then stored as it is, with new tokens."""

import secrets
from typing import Any

from replays.log import LogLineError, parse
from replays.verify import Report, verify_events

from ..engine import game
from ..engine.errors import BadRequest, RuleViolation, TooLarge
from ..engine.events import MODERATOR
from ..runtime.loop import beside_loop
from ..service import Referee, role_name


def import_log(
    referee: Referee, data: bytes, seed: str | None = None, *, max_events: int | None = None
) -> dict[str, Any]:
    """Store a log that passes verification under its own game id; a game still being
    played needs its seed (checked against the commitment) to go on. A log of more than
    `max_events` lines is refused before it is read."""
    if max_events is not None and data.count(b"\n", 0, len(data) - 1) >= max_events:
        raise TooLarge(
            "import/too_many_events",
            f"this host imports logs of at most {max_events} events",
            {"max_events": max_events},
        )
    events, report, state = beside_loop(_verified, data, seed)
    if report.code == "seed/commitment" and report.seq == 1:  # the seed sent, not a reveal
        raise RuleViolation(
            "import/seed_mismatch",
            "the seed does not match the commitment published at seq 1",
            {"field": "seed"},
        )
    if report.status == "invalid":
        raise RuleViolation(
            "import/invalid_log",
            f"the log fails verification at seq {report.seq} [{report.code}]: {report.reason}",
            {"seq": report.seq, "code": report.code},
        )
    if report.status == "partial":
        raise RuleViolation("import/rules_version", str(report.checks.get("rules")), {})
    if report.seed is None:
        raise RuleViolation(
            "import/seed_required",
            "the log's seed is not revealed: send the seed to import a game still being played",
            {"field": "seed"},
        )
    return _stored(referee, events, state, report.seed, report.checks)


def _verified(data: bytes, seed: str | None) -> tuple[list[dict[str, Any]], Report, Any]:
    """The log's events, their verification and (when valid) the state they fold to."""
    events = _parsed(data)
    report = verify_events(events, seed=seed)
    return events, report, game.fold(events) if report.status == "valid" else None


def _parsed(data: bytes) -> list[dict[str, Any]]:
    try:
        events = parse(data)
    except LogLineError as exc:
        raise BadRequest("import/unreadable", exc.reason, {"line": exc.seq}) from None
    if not events:
        raise BadRequest("import/unreadable", "the log is empty", {"field": "log"})
    return events


def _stored(
    referee: Referee,
    events: list[dict[str, Any]],
    state: Any,
    seed: str,
    checks: dict[str, str],
) -> dict[str, Any]:
    game_id = events[0]["game_id"]
    seats = range(len(state["players"]))
    tokens = {role_name(MODERATOR): secrets.token_urlsafe(24)}
    tokens.update({role_name(s): secrets.token_urlsafe(24) for s in seats})
    due = referee.due_of(state, events, referee.clock())
    referee.store.import_game(game_id, state["ruleset"], seed, events, tokens, due=due)
    referee.latest.put(game_id, state)
    referee.schedule(game_id, events, due)
    return {
        "game_id": game_id,
        "moderator_token": tokens[MODERATOR],
        "seats": [
            {"seat": s, "name": state["players"][s], "token": tokens[role_name(s)]} for s in seats
        ],
        "seed_commitment": state["seed_commitment"],
        "version": state["seq"],
        "status": state["status"],
        "checks": checks,
    }
