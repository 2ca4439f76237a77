"""What a subscriber is told when a game's log grows (docs/notifications.md).

Notices are effects of the log, never part of it: they are built from the events and
the view *as the subscriber may see them* (a seat: its own view; the moderator: all),
so a seat's notice can hold nothing another seat's secret. Every notice names the game,
the seq it is about and, when it is about a deadline, that deadline in UTC; it is checked
again when sent (`still_true`) and dropped if the game has moved past it.
"""

from typing import Any

Viewer = int | str
Notice = dict[str, Any]

KINDS = {
    "your_move": "you are asked to move (once per turn)",
    "orders_due": "a round opened and your sealed orders are due",
    "round_opened": "a round opened",
    "deadline_near": "a deadline you face is some hours away (the reminders you chose)",
    "round_resolved": "a round was resolved (with its Markdown summary)",
    "timed_out": "a seat's time ran out",
    "game_ended": "the game ended or was abandoned (one notice: outcome and the seed)",
    "dispute": "a dispute was opened (once you may read its claim) or ruled",
    "post": "what a command did, as a forum post (Markdown): sent only when asked for",
}
FOR_SEATS = tuple(k for k in KINDS if k != "post")
FOR_MODERATOR = ("round_opened", "round_resolved", "timed_out", "game_ended", "dispute", "post")
ASKED_FOR = ("post",)  # sent only to a subscription that names them: one after every command


def notices(
    game_id: str,
    viewer: Viewer,
    events: list[dict[str, Any]],
    before: dict[str, Any],
    after: dict[str, Any],
) -> list[Notice]:
    """The notices one batch (`events`, redacted for the viewer) gives the viewer, from
    its views of the game before and after the batch."""
    seq, found = after["version"], []
    for event in events:
        found += _of_event(game_id, viewer, event)
        if event.get("type") == "SeedRevealed":
            found.append(_ended(game_id, event, events, after["players"]))
    if viewer == "moderator" and events:
        since = events[0]["seq"] - 1  # the batch: the post of the batch before ended there
        found.append(_notice("post", game_id, seq, "What happened, as a forum post.", since=since))
    if isinstance(viewer, int) and _asked(after, viewer) and not _asked(before, viewer):
        # a player whose bot plays the seat is not asked: the bot is
        if not _orders_round(after) and not _bot_plays(after, viewer):
            text = "It is your move."
            found.append(_notice("your_move", game_id, seq, text, **_clock(after, viewer)))
    return found


def _of_event(game_id: str, viewer: Viewer, event: dict[str, Any]) -> list[Notice]:
    kind, seq = event.get("type"), event["seq"]
    payload = event.get("payload", {})
    if kind == "RoundOpened":
        due = {"deadline": payload["deadline"]}
        opened = _notice("round_opened", game_id, seq, f"Round {payload['round']} opened.", **due)
        if isinstance(viewer, int):
            text = f"Round {payload['round']} opened: your sealed orders are due."
            return [
                opened,
                _notice("orders_due", game_id, seq, text, round=payload["round"], **due),
            ]
        return [opened]
    if kind == "OrdersCounted":
        text = f"Round {payload['round']} was resolved."
        return [_notice("round_resolved", game_id, seq, text, round=payload["round"])]
    if kind in ("SeatLate", "MovePlayedFor") and payload.get("why", "timeout") == "timeout":
        text = f"Seat {payload['seat'] + 1}'s time ran out."
        return [_notice("timed_out", game_id, seq, text, seat=payload["seat"])]
    if kind == "DisputeOpened":
        text = f"Dispute {payload['dispute']} was opened: {payload['claim']}"
        return [_notice("dispute", game_id, seq, text, dispute=payload["dispute"])]
    if kind == "DisputeRuled":
        return [_ruled(game_id, seq, payload)]
    return []


def _ruled(game_id: str, seq: int, payload: dict[str, Any]) -> Notice:
    """A ruling, as public as its event: its outcome, reason and, when amended, the fork
    that goes on as the official game."""
    number, ruling = payload["dispute"], payload["ruling"]
    data: dict[str, Any] = {"dispute": number, "ruling": ruling, "reason": payload["reason"]}
    text = f"Dispute {number} was ruled {ruling}: {payload['reason']}."
    if payload.get("fork"):
        data["fork"] = dict(payload["fork"])
        text += f" Play goes on in its fork, game {payload['fork']['game_id']}."
    else:
        text += " The game stands as recorded."
    return _notice("dispute", game_id, seq, text, **data)


def _ended(
    game_id: str, revealed: dict[str, Any], events: list[dict[str, Any]], players: list[str]
) -> Notice:
    """One notice for the end of play: the result (or why the game was abandoned) with
    the seed, which the same batch reveals."""
    seed = revealed["payload"]["seed"]
    ended = {e.get("type"): e.get("payload", {}) for e in events}
    outcome = ended.get("GameEnded", {}).get("outcome")
    if "GameAbandoned" in ended:
        reason = ended["GameAbandoned"].get("reason")
        said = "The game was abandoned" + (f" ({reason})." if reason else ".")
    else:
        said = _result(outcome, players)
    text = f"{said} The seed is revealed: {seed}"
    return _notice("game_ended", game_id, revealed["seq"], text, outcome=outcome, seed=seed)


def _result(outcome: dict[str, Any] | None, players: list[str]) -> str:
    winners = [players[s] for s in (outcome or {}).get("winners", []) if 0 <= s < len(players)]
    if not winners:
        return "The game is over."
    return f"The game is over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}."


def _asked(view: dict[str, Any], seat: int) -> bool:
    return bool(view) and seat in view.get("to_move", [])


def _bot_plays(view: dict[str, Any], seat: Any) -> bool:
    """Whether a bot plays the seat now (its player is away: not told of its moves)."""
    return str(seat) in (view.get("bots") or {})


def _orders_round(view: dict[str, Any]) -> bool:
    return bool((view.get("round") or {}).get("open"))


def _clock(view: dict[str, Any], seat: int) -> dict[str, Any]:
    clock = view.get("clock")
    if not clock or clock["deadlines"][seat] is None:
        return {}
    return {"deadline": clock["deadlines"][seat]}


def _notice(kind: str, game_id: str, seq: int, text: str, **data: Any) -> Notice:
    return {"kind": kind, "game_id": game_id, "seq": seq, "text": text, **data}


def deadlines(view: dict[str, Any], viewer: Viewer) -> list[tuple[str, int]]:
    """The deadlines the viewer faces now, to remind it of: ("round", deadline) while its
    round's orders are not sent; ("clock", deadline) while its clock runs (none while its
    bot plays the seat)."""
    if not isinstance(viewer, int) or _bot_plays(view, viewer):
        return []
    out = []
    opened = (view.get("round") or {}).get("open")
    if opened and not opened["closed"] and not opened["submitted"][viewer]:
        out.append(("round", opened["deadline"]))
    clock = view.get("clock")
    if clock and clock["deadlines"][viewer] is not None and not clock["paused"]:
        out.append(("clock", clock["deadlines"][viewer]))
    return out


def still_true(notice: Notice, view: dict[str, Any], viewer: Viewer) -> bool:
    """Whether a notice still holds when it is sent (else it is dropped as stale): a
    seat's move, orders or reminder only while it is still asked the same question."""
    kind = notice["kind"]
    if kind == "your_move":
        if not isinstance(viewer, int) or viewer not in view["to_move"]:
            return False
        return _clock(view, viewer).get("deadline") == notice.get("deadline")
    if kind == "orders_due":
        return ("round", notice["deadline"]) in deadlines(view, viewer)
    if kind == "deadline_near":
        return (notice["about"], notice["deadline"]) in deadlines(view, viewer)
    return True
