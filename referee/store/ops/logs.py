"""Verify the logs a copy holds: each chain (and the rest of `referee replay verify`'s
checks) valid, and each game ending where it should, at the number of events and the
last hash of its source (the store copied, or a backup's manifest)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import orjson

from replays.verify import INVALID, PARTIAL, verify_bytes

from ...engine.errors import RefereeError
from .tables import Read, Tail

Step = Callable[[str, int, int], None]  # (what is being done, done, of how many)
LOG = "SELECT event FROM events WHERE game_id = ? ORDER BY seq"
SEED = "SELECT seed FROM games WHERE game_id = ?"


class Damaged(RefereeError):
    """A copy's logs are not what they should be: nothing was put in place."""

    status = 422
    default_code = "backup/damaged"


@dataclass
class Verified:
    """What verifying a copy's logs found."""

    games: int = 0
    events: int = 0
    # logs recorded under a ruleset version this referee does not have: chain, seed and
    # seals checked, the rules not re-run (`referee replay verify` calls them partial)
    partial: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_logs(
    read: Read, expected: Mapping[str, Tail], *, step: Step | None = None, what: str = "source"
) -> Verified:
    """Every game of `expected` verified as `read` finds it, re-derived by the rules from
    the seed the store holds (a game not over too: its seed checked against the
    commitment its log published); `what` names where the expected tails come from, in
    the problems."""
    found = Verified()
    for done, (game_id, (events, last)) in enumerate(expected.items(), start=1):
        lines = [row[0].encode("utf-8") for row in read(LOG, (game_id,))]
        seed = read(SEED, (game_id,))
        data = b"".join(line + b"\n" for line in lines)
        report = verify_bytes(data, seed=seed[0][0] if seed else None)
        if not lines:
            found.problems.append(f"game {game_id}: no events (the {what} has {events})")
        elif report.status == INVALID:
            said = f"seq {report.seq} [{report.code}]: {report.reason}"
            found.problems.append(f"game {game_id}: {said}")
        elif len(lines) != events or orjson.loads(lines[-1])["hash"] != last:
            found.problems.append(
                f"game {game_id}: ends at event {len(lines)}, hash"
                f" {orjson.loads(lines[-1])['hash']}; the {what} at event {events}, hash {last}"
            )
        else:
            found.games += 1
            found.events += len(lines)
            if report.status == PARTIAL:
                found.partial.append(game_id)
        if step is not None:
            step("verifying", done, len(expected))
    return found


def unexpected(found: Mapping[str, Tail], expected: Mapping[str, Tail], what: str) -> list[str]:
    """A problem for each game found that the expected tails do not name."""
    return [f"game {game_id}: not in the {what}" for game_id in found if game_id not in expected]
