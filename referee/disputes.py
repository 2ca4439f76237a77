"""Disputes over a stored game: the fork a dispute or an amended ruling makes, its
report (the fork point, what was replayed or refused, the consequences) and the same
report as text for a terminal or a forum post. See docs/disputes.md."""

from dataclasses import dataclass
from typing import Any

from .engine import compare, fork, game
from .engine.canonical import canonical
from .engine.errors import RuleViolation
from .engine.events import MODERATOR
from .store import NewFork

Event = dict[str, Any]


@dataclass
class Prepared:
    """A command made ready to run, with the dispute report and fork it brings."""

    command: dict[str, Any]
    report: dict[str, Any] | None = None
    fork: NewFork | None = None
    fork_state: game.State | None = None


def prepare(
    game_id: str,
    events: list[Event],
    state: game.State,
    command: dict[str, Any],
    seed: str,
    *,
    new_game_id: str,
) -> Prepared:
    """For the moderator's open_dispute and amended rule_dispute (see `makes_fork`), the
    fork they make, so an amendment the log cannot take is refused before anything is
    recorded."""
    if command["type"] == "open_dispute":
        return _opening(game_id, events, state, command, seed)
    number = command["dispute"]
    amendment = state["disputes"][str(number)]["amendment"]
    forked = fork.fork(events, amendment, seed, link={"from_game": game_id, "dispute": number})
    check_fork_may_go_on(state, forked)
    report = {"dispute": number, "fork_game_id": new_game_id, **describe(events, state, forked)}
    _pause_open_round(events, forked, seed, number)
    stamped = {**command, "fork": {"game_id": new_game_id, "at": forked.at}}
    new = NewFork(
        game_id=new_game_id,
        ruleset=state["ruleset"],
        seed=seed,
        copied=events[: forked.at],
        records=forked.records,
        due=None,  # the service fills in the fork's open round
    )
    return Prepared(stamped, report, new, forked.state)


def makes_fork(state: game.State, command: dict[str, Any]) -> bool:
    """Whether a command forks the log: opening a dispute, or an amended ruling on an
    open one (any other dispute command the rules take or refuse as it is)."""
    if command.get("type") == "open_dispute":
        return True
    opened = state.get("disputes", {}).get(str(command.get("dispute")))
    amended = command.get("type") == "rule_dispute" and command.get("ruling") == "amended"
    return amended and opened is not None and opened["ruling"] is None


def _pause_open_round(events: list[Event], forked: fork.Forked, seed: str, number: int) -> None:
    """A fork's open round starts paused at the fork's own last time, so no deadline
    passes before the moderator resumes it; resuming gives the seats the time they had."""
    rounds = forked.state.get("rounds")
    if game.is_closed(forked.state) or not rounds or rounds["current"] is None:
        return
    if rounds["paused_at"] is not None or rounds["current"]["closed"]:
        return
    reason = f"forked by the ruling on dispute {number}; resume to start the clock"
    pause = {
        "type": "pause",
        "reason": reason,
        "now": fork.last_time(events[: forked.at] + forked.records),
    }
    records, forked.state = game.step(forked.state, MODERATOR, pause, seed)
    forked.records += records


def check_fork_may_go_on(state: game.State, forked: fork.Forked) -> None:
    """A finished game's seed is public, so its fork cannot be played on fairly: an
    amended ruling there stands only if the fork ends too."""
    if game.is_over(state) and not game.is_closed(forked.state):
        raise RuleViolation(
            "dispute/fork_unfinished",
            "the seed of this game is public, so its fork cannot be played on: this "
            f"amendment leaves the fork in play after seq {forked.state['seq']}",
            {"fork_status": forked.state["status"]},
        )


def _opening(
    game_id: str, events: list[Event], state: game.State, command: dict[str, Any], seed: str
) -> Prepared:
    amendment = command.get("amendment")
    forked = fork.fork(events, amendment, seed, link={"from_game": game_id, "dispute": None})
    report = {"dispute": state["seq"] + 1, **describe(events, state, forked)}
    return Prepared(command, report)


def dispute_log(
    events: list[Event], amendment: Any, seed: str
) -> tuple[fork.Forked, dict[str, Any]]:
    """Offline, on a log's events (no store): the fork an amendment makes, and its report."""
    link = {"from_game": events[0]["game_id"], "dispute": None}
    forked = fork.fork(events, amendment, seed, link=link)
    return forked, describe(events, game.fold(events), forked)


def describe(events: list[Event], state: game.State, forked: fork.Forked) -> dict[str, Any]:
    """A fork as JSON: where it parts from the log, what it put in, replayed and refused,
    and what that changed."""
    kept = events[forked.at - 1]
    return {
        "fork": {
            "at": forked.at,
            "after": {"seq": kept["seq"], "type": kept["type"]},
            "inserted": forked.inserted,
            "replayed": len(forked.replayed),
            "refused": forked.refused,
            "status": forked.state["status"],
        },
        "consequences": compare.consequences(state, forked.state),
    }


# --- as text ---------------------------------------------------------------------


def render(report: dict[str, Any], players: list[str]) -> str:
    """A dispute report as plain text, one fact a line."""
    part = report["fork"]
    lines = [
        f"Forked after seq {part['at']} ({part['after']['type']}).",
        *(
            f"Put in: {_actor(i['actor'], players)} {_command(i['command'])}"
            for i in part["inserted"]
        ),
        f"Replayed {part['replayed']} later commands; the rules refused {len(part['refused'])}.",
        f"The fork stands with the game {part['status']}.",
        *(
            f"  refused: seq {r['seq']} {_actor(r['actor'], players)} {r['type']}: "
            f"{r['code']}: {r['message']}"
            for r in part["refused"]
        ),
    ]
    return "\n".join(lines + render_consequences(report["consequences"])) + "\n"


def render_consequences(found: dict[str, Any]) -> list[str]:
    """The consequences of a change as lines of text."""
    if not any(found.values()):
        return ["No consequences: the game comes out the same."]
    lines = ["Consequences:"]
    if found["status"]:
        lines.append(f"  status: {found['status'][0]} -> {found['status'][1]}")
    for row in found["players"]:
        changed = [
            f"{key} {_value(pair[0])} -> {_value(pair[1])}"
            for key, pair in row.items()
            if key in ("score", "rank", "winner")
        ]
        lines.append(f"  seat {row['seat'] + 1} ({row['name']}): {', '.join(changed)}")
    if found["winners"]:
        before, after = (", ".join(w) or "none" for w in found["winners"])
        lines.append(f"  winners: {before} -> {after}")
    lines += [
        f"  {c['path']}: {_value(c['before'])} -> {_value(c['after'])}" for c in found["changes"]
    ]
    return lines


def _actor(actor: Any, players: list[str]) -> str:
    if isinstance(actor, int) and 0 <= actor < len(players):
        return f"seat {actor + 1} ({players[actor]})"
    return str(actor)


def _command(command: dict[str, Any]) -> str:
    return canonical({k: v for k, v in command.items() if k != "now"}).decode("utf-8")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = "-" if value is None else canonical(value).decode("utf-8")
    return text if len(text) <= 120 else text[:117] + "..."
