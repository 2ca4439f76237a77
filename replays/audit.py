"""Each check `referee replay verify` makes, run on its own with its own pass or fail: the
replay theatre's verify panel (docs/replay.md).

`verify_events` stops at the first problem and names it; an audit runs every check it
can, so a page shows which held and which did not. A check that needs what an earlier one
could not give (the seed, for re-derivation) is `skipped`, with why.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.engine import game

from . import verify
from .log import Event
from .problems import Invalid
from .seals import check_seals

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass
class Check:
    """One check's result: `found` says what it found, or why it did not run."""

    key: str
    title: str
    status: str = PASSED
    found: str = ""
    seq: int | None = None
    code: str | None = None
    reason: str | None = None
    draws: list[dict[str, Any]] = field(default_factory=list)

    def failed(self, bad: Invalid) -> "Check":
        self.status, self.seq, self.code, self.reason = FAILED, bad.seq, bad.code, bad.reason
        return self

    def skipped(self, why: str) -> "Check":
        self.status, self.found = SKIPPED, why
        return self


def audit(events: list[Event]) -> list[Check]:
    """Every check of a parsed log, in the order `referee replay verify` makes them."""
    checks = [_links(events), _times(events)]
    unreadable: Invalid | None
    try:
        created = verify._created(events[0], verify.Report()) if events else None
    except Invalid as bad:
        created, unreadable = None, bad
    else:
        unreadable = Invalid(1, "log/empty", "the log is empty") if not events else None
    seed_check, seed = _seed(events, created, unreadable)
    checks += [seed_check, _seals(events, seed, unreadable), _state_hashes(events)]
    rederived = _rederived(events, created, seed, unreadable, seed_check)
    return [*checks, rederived, _outcome(events, rederived)]


def _links(events: list[Event]) -> Check:
    found = f"{len(events)} events in order, each linked to the one before by its hash"
    return _ran(Check("chain", "Chain and seq"), lambda: verify.check_links(events), found)


def _times(events: list[Event]) -> Check:
    found = "every recorded time is well formed and none goes back"
    return _ran(Check("times", "Times"), lambda: verify.check_times(events), found)


def _ran(check: Check, run: Callable[[], Any], found: str) -> Check:
    """The check, passed with what it found, or failed where `run` raised."""
    try:
        run()
    except Invalid as bad:
        return check.failed(bad)
    except Exception as exc:  # a log too broken for this check to read
        return check.failed(Invalid(1, f"{check.key}/unreadable", f"cannot be read: {exc!r}"))
    check.found = found
    return check


def _seed(
    events: list[Event], created: dict | None, unreadable: Invalid | None
) -> tuple[Check, str | None]:
    check = Check("seed", "Seed against its commitment")
    if unreadable is not None or created is None:
        return check.failed(unreadable or Invalid(1, "rules/created", "no GameCreated")), None
    try:
        seed = verify._revealed_seed(events, created, verify.Report())
    except Invalid as bad:
        return check.failed(bad), None
    except Exception as exc:  # a log too broken to find its reveal in
        return check.failed(Invalid(1, "seed/unreadable", f"cannot be read: {exc!r}")), None
    if seed is None:
        return check.skipped("the seed is not revealed yet (the game is still being played)"), None
    check.found = f"the revealed seed {seed!r} hashes to the commitment published at seq 1"
    return check, seed


def _seals(events: list[Event], seed: str | None, unreadable: Invalid | None) -> Check:
    check = Check("seals", "Sealed orders against their commitments")
    if unreadable is not None:
        return check.failed(unreadable)
    try:
        count = check_seals(events, seed)
    except Invalid as bad:
        return check.failed(bad)
    except Exception as exc:  # a log too broken to read its seals
        return check.failed(Invalid(1, "seals/unreadable", f"cannot be read: {exc!r}"))
    check.found = f"{count} sealed orders match their commitments and reveals"
    return check


def _state_hashes(events: list[Event]) -> Check:
    check = Check("state_hashes", "State hashes")
    if not events:
        return check.failed(Invalid(1, "log/empty", "the log is empty"))
    found = f"the state after each of the {len(events)} events hashes to its state_hash"
    return _ran(check, lambda: verify._fold_checked(events), found)


def _rederived(
    events: list[Event],
    created: dict | None,
    seed: str | None,
    unreadable: Invalid | None,
    seed_check: Check,
) -> Check:
    check = Check("rules", "Every event re-derived from the seed and the commands")
    if unreadable is not None or created is None:
        return check.skipped("needs a readable GameCreated")
    if seed is None:
        return check.skipped(f"needs the seed ({seed_check.found or seed_check.reason})")
    report = verify.Report()
    report.ruleset_version = created.get("ruleset_version")
    rules = verify.registry.get(created["ruleset"])
    if report.ruleset_version not in game.versions(rules):
        return check.skipped(f"recorded under {rules.NAME} {report.ruleset_version}, not kept")
    try:
        verify._rederive(events, created, seed, check.draws)
    except Invalid as bad:
        return check.failed(bad)
    except Exception as exc:  # a log too broken to re-run
        return check.failed(Invalid(1, "rules/unreadable", f"cannot be re-run: {exc!r}"))
    count = sum(len(d["labels"]) for d in check.draws)
    check.found = (
        f"every event, payload and random outcome is what the rules give from the seed "
        f"and the recorded commands ({count} labelled draws)"
    )
    return check


def _outcome(events: list[Event], rederived: Check) -> Check:
    check = Check("outcome", "The outcome")
    ended = next((e for e in reversed(events) if e.get("type") == "GameEnded"), None)
    if ended is None:
        return check.skipped("the game has not ended")
    if rederived.status == FAILED and rederived.seq == ended["seq"]:
        return check.failed(Invalid(ended["seq"], rederived.code or "", rederived.reason or ""))
    if rederived.status != PASSED:
        return check.skipped(f"re-derivation did not reach the end (seq {ended['seq']})")
    outcome = ended["payload"].get("outcome") or {}
    players = events[0]["payload"]["players"]
    winners = " and ".join(players[w] for w in outcome.get("winners", [])) or "nobody"
    check.found = f"the rules give the recorded outcome: {winners} won"
    return check
