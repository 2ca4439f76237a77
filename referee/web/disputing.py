"""Disputes on the pages (docs/disputes.md): the moderator's forms, which name a dispute
by its claim and offer the moves the seat had at the disputed point in the ruleset's own
words; and, on every page, what an amended ruling changed and where play goes on.

Everything here is read from the viewer's own view and events: a seat is told of a
ruling what its public event says, and a claim only once the game is over."""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..disputes import render, render_consequences
from ..engine import disputes, fork, game
from ..engine.errors import RefereeError
from ..engine.events import MODERATOR
from ..posts import story
from ..service import Referee, Viewer

Event = dict[str, Any]
Words = Callable[[ModuleType, dict[str, Any], dict[str, Any]], str]  # a command in words
OVER = ("finished", "abandoned")
CLAIM_SHOWN = 90  # characters of a claim in a list of disputes
MOVES_LISTED = 500  # the newest recorded moves a dispute is chosen from (older: by seq)
_FORK_ENDS: dict[tuple[str, int, int], bool] = {}  # (game, version, dispute): its fork ends


@dataclass
class Disputing:
    """The moderator's dispute controls: the recorded moves a dispute may name, the one
    named (with the moves its sender had then), and the open disputes to rule on."""

    over: bool
    moves: list[dict[str, Any]] = field(default_factory=list)
    older: int = 0  # recorded moves left out of the list (named by their seq instead)
    chosen: dict[str, Any] | None = None
    open: list[dict[str, Any]] = field(default_factory=list)


def controls(
    service: Referee,
    game_id: str,
    rules: ModuleType,
    view: dict,
    events: list[Event],
    *,
    named: str,
    words: Words,
) -> Disputing | None:
    """The moderator's dispute controls for a game that takes disputes (all but one an
    amended ruling closed); `named` is the seq of the move in dispute, as the form sent
    it; `words` says a command as the seat's buttons do."""
    if view["status"] == disputes.FORKED:
        return None
    players = view["players"]
    told = story.narrate(rules, events, MODERATOR, players)
    recorded = [b for b in fork.batches(events) if not disputes.is_dispute_command(b.command)]
    shown = Disputing(over=view["status"] in OVER)
    shown.moves = [_move(b, told, players) for b in reversed(recorded[-MOVES_LISTED:])]
    shown.older = max(0, len(recorded) - MOVES_LISTED)
    batch = _named(recorded, named)
    if batch is not None:
        shown.chosen = _chosen(rules, events, batch, told, players, words)
    shown.open = [
        _open(service, game_id, view, events, d)
        for d in view.get("disputes", [])
        if not d["ruling"]
    ]
    return shown


def _move(batch: fork.Batch, told: list[str], players: list[str]) -> dict[str, Any]:
    said = _said(batch, told)
    sender = _who(batch.actor, players)
    return {"seq": batch.first, "label": f"seq {batch.first} · {sender}: {said}".rstrip(": ")}


def _said(batch: fork.Batch, told: list[str]) -> str:
    """The first sentence of a recorded command's events."""
    return next((t for t in told[batch.first - 1 : batch.last] if t), "")


def _named(recorded: list[fork.Batch], named: str) -> fork.Batch | None:
    if not (named.isascii() and named.isdigit() and len(named) <= 12):
        return None
    seq = int(named)
    return next((b for b in recorded if b.first <= seq <= b.last), None)


def _chosen(
    rules: ModuleType,
    events: list[Event],
    batch: fork.Batch,
    told: list[str],
    players: list[str],
    words: Words,
) -> dict[str, Any]:
    """The move in dispute and what could have been done instead: the legal moves its
    sender had just before it (in the ruleset's words), or none to drop it."""
    before = game.fold(events[: batch.first - 1])
    played = {k: v for k, v in batch.command.items() if k != "now"}
    choices = []
    if batch.command["type"] != "submit_orders" and isinstance(batch.actor, int):
        seen = game.view(before, batch.actor)
        for command in game.legal(before, batch.actor):
            amendment = {"kind": "replace", "seq": batch.first, "command": command}
            said = words(rules, command, seen)
            choices.append(
                {
                    "label": f"{said} (as recorded)" if command == played else said,
                    "value": _json(amendment),
                    "recorded": command == played,
                }
            )
    drop = {"kind": "drop", "seq": batch.first}
    choices.append({"label": "Drop this move, as if it was never made", "value": _json(drop)})
    return {
        "seq": batch.first,
        "who": _who(batch.actor, players),
        "said": _said(batch, told) or str(batch.command["type"]).replace("_", " "),
        "choices": choices,
        "example": _json(_example(events, batch, played)),
    }


def _example(events: list[Event], batch: fork.Batch, played: dict[str, Any]) -> dict[str, Any]:
    """The amendment the advanced box starts from: the recorded command, or for sealed
    orders the submission that counted, to be changed."""
    if played["type"] == "submit_orders":
        return {
            "kind": "submission",
            "round": played["round"],
            "seat": batch.actor,
            "orders": played["orders"],
        }
    return {"kind": "replace", "seq": batch.first, "command": played}


def _open(
    service: Referee, game_id: str, view: dict, events: list[Event], held: dict[str, Any]
) -> dict[str, Any]:
    """An open dispute as the ruling form names it: its claim and when it was opened;
    after the end, whether an amended ruling may stand (its fork must end too)."""
    number = held["dispute"]
    claim = held["claim"]
    short = claim if len(claim) <= CLAIM_SHOWN else claim[: CLAIM_SHOWN - 1] + "…"
    opened = _utc(events[number - 1].get("recorded_at", ""))
    shown = {"dispute": number, "claim": claim, "label": f"“{short}”, opened {opened}"}
    if view["status"] in OVER:
        ends = fork_ends(service, game_id, view, events, held)
        shown["label"] += "" if ends else " (its fork would not end: only kept may stand)"
        shown["fork_ends"] = ends
    return shown


def fork_ends(
    service: Referee, game_id: str, view: dict, events: list[Event], held: dict[str, Any]
) -> bool:
    """Whether an amended ruling on a finished game's dispute would stand: the fork ends
    too (its seed is public, so a fork in play could not be played fairly)."""
    key = (game_id, view["version"], held["dispute"])
    if key not in _FORK_ENDS:
        if len(_FORK_ENDS) > 256:
            _FORK_ENDS.clear()
        seed = service.store.seed(game_id)
        try:
            forked = fork.fork(events, held["amendment"], seed, link=None)
            _FORK_ENDS[key] = game.is_closed(forked.state)
        except RefereeError:  # the log no longer takes it: the ruling will say why
            _FORK_ENDS[key] = False
    return _FORK_ENDS[key]


def _utc(stamp: str) -> str:
    """`2026-11-25T17:22:02.950664Z` as `2026-11-25 17:22 UTC`."""
    return f"{stamp[:10]} {stamp[11:16]} UTC" if len(stamp) >= 16 else stamp


def _who(actor: Any, players: list[str]) -> str:
    if isinstance(actor, int) and 0 <= actor < len(players):
        return players[actor]
    return str(actor)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# --- what a ruling changed, on every page -------------------------------------------


def ruling(service: Referee, view: dict, events: list[Event], viewer: Viewer) -> dict | None:
    """The amended ruling that moved play out of this game, as this viewer may know it:
    its number, reason and fork (public), the claim once the viewer may read it, and,
    when both games are over, the result here and in the fork."""
    ruled = next((e for e in events if _amended(e)), None)
    if ruled is None:
        return None
    payload = ruled["payload"]
    number, moved = payload["dispute"], payload["fork"]
    opened = events[number - 1] if number <= len(events) else {}
    told = {
        "dispute": number,
        "reason": payload["reason"],
        "fork": moved["game_id"],
        "at": moved["at"],
        "claim": None if opened.get("redacted") else opened.get("payload", {}).get("claim"),
        "here": None,
        "there": None,
    }
    if view["status"] in OVER:
        there = service.view(moved["game_id"], None)
        if there["status"] in ("finished", "abandoned"):
            told["here"] = result(view)
            told["there"] = result(there)
    return told


def _amended(event: Event) -> bool:
    return event.get("type") == "DisputeRuled" and bool(event["payload"].get("fork"))


def result(view: dict[str, Any]) -> str:
    """A game's result in a few words: who won, and the scores."""
    outcome = view.get("outcome") or {}
    players = view["players"]
    winners = [players[s] for s in outcome.get("winners", [])]
    said = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}" if winners else ""
    scores = outcome.get("scores")
    if scores:
        listed = ", ".join(f"{players[s]} {score}" for s, score in enumerate(scores))
        said = f"{said} ({listed})" if said else listed
    return said or view["status"]


# --- what the moderator is told after a dispute command ---------------------------


def told(command: dict[str, Any], answer: dict[str, Any], players: list[str]) -> str:
    """What the moderator's page says after opening or ruling on a dispute (a flashed
    JSON message): its number and claim, or its ruling, and the fork's report."""
    report = answer.get("dispute")
    number = report["dispute"] if report else command.get("dispute")
    if command["type"] == "open_dispute":
        head = f"Dispute {number} is open: {command['claim']}"
    elif command.get("ruling") == "amended":
        head = f"Dispute {number} is ruled amended: play goes on in its fork."
    else:
        head = f"Dispute {number} is ruled {command.get('ruling')}: the game stands as recorded."
    full = render(report, players) if report else ""
    return json.dumps({"head": head, "gist": _gist(report), "report": full})


def _gist(report: dict[str, Any] | None) -> list[str]:
    """The report's gist for the ruling: how the fork stands, and the scores, ranks and
    winners it changes (the full report lists every other difference)."""
    if not report:
        return []
    part = report["fork"]
    changed = render_consequences({**report["consequences"], "changes": []})
    return [
        f"The fork stands with the game {part['status']}; the rules refused "
        f"{len(part['refused'])} of the later commands.",
        *(line.strip() for line in changed if line != "Consequences:"),
    ]
