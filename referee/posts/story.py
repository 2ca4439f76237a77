"""What happened, in sentences: the ruleset's own words for its events, the referee's
for the events every game shares (announcements, rounds, disputes, the end); a move a
seat's bot made says so ("Ann's bot played Red.")."""

from collections.abc import Callable
from types import ModuleType
from typing import Any

Event = dict[str, Any]


def narrate(rules: ModuleType, events: list[Event], viewer: Any, players: list[str]) -> list[str]:
    """One sentence per event the viewer can read (redacted stubs say nothing)."""
    own = getattr(rules, "narrate", None)
    said = own(events, viewer, players) if own else [None] * len(events)
    told = [text or shared(event, players) for event, text in zip(events, said, strict=True)]
    bots_by_name: set[int] = set()  # seats created as bots: their name is the bot's
    sentences: list[str] = []
    for event, text in zip(events, told, strict=True):
        _follow(bots_by_name, event)
        if _bots_move(event) and event["actor"] not in bots_by_name:
            text = by_bot(text, event, viewer, players)
        sentences.append(_with_bots(text, event))
    return sentences


def _follow(bots_by_name: set[int], event: Event) -> None:
    """Keep the seats a bot plays under its own name (from GameCreated) until a person
    takes one (BotUnseated, PlayerReplaced)."""
    kind, payload = event.get("type"), event.get("payload") or {}
    if kind == "GameCreated":
        bots_by_name.update(int(seat) for seat in payload.get("bots") or {})
    elif kind in ("BotUnseated", "PlayerReplaced"):
        bots_by_name.discard(payload.get("seat"))


def _with_bots(text: str, event: Event) -> str:
    """GameCreated's sentence, and which seats bots play from the start."""
    bots = (event.get("payload") or {}).get("bots") if event.get("type") == "GameCreated" else None
    if not bots:
        return text
    names = event["payload"]["players"]
    said = [f"{_name(names, int(seat))} ({level})" for seat, level in bots.items()]
    return f"{text} Bots play {', '.join(said)}."


def _bots_move(event: Event) -> bool:
    """Whether an event the viewer reads is the first of a move a seat's bot sent (its
    command carries the bot's level)."""
    command = event.get("command")
    return isinstance(command, dict) and "bot" in command and isinstance(event.get("actor"), int)


def by_bot(text: str, event: Event, viewer: Any, players: list[str]) -> str:
    """A move's sentence said as the seat's bot's: "Ann played Red." becomes "Ann's bot
    played Red."; a sentence that does not begin with the player says so at its end."""
    seat = event["actor"]
    name = _name(players, seat)
    if text.startswith(f"{name} "):
        return f"{name}'s bot {text[len(name) + 1 :]}"
    if seat == viewer and text.startswith("You "):
        return f"Your bot {text[4:]}"
    whose = "your bot" if seat == viewer else f"{name}'s bot"
    return f"{text.rstrip('.')} ({whose})." if text else ""


def shared(event: Event, players: list[str]) -> str:
    """The referee's sentence for an event every game has, or a plain fallback."""
    if event.get("redacted"):
        return ""
    words = SENTENCES.get(event["type"])
    return words(event["payload"], players) if words else _spaced(event["type"]) + "."


def _spaced(kind: str) -> str:
    """`OrdersCounted` -> `Orders counted`."""
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).strip()
    return out[:1].upper() + out[1:]


def _name(players: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def _why(payload: dict) -> str:
    return f" ({payload['reason']})" if payload.get("reason") else ""


def _ended(payload: dict, players: list[str]) -> str:
    outcome = payload.get("outcome") or {}
    winners = [_name(players, s) for s in outcome.get("winners", [])]
    if not winners:
        return "The game is over."
    return f"The game is over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}."


def _counted(payload: dict, players: list[str]) -> str:
    missing = [_name(players, s) for s, seq in enumerate(payload["seats"]) if seq is None]
    tail = f"; nothing from {', '.join(missing)}" if missing else ""
    return f"Round {payload['round']}: orders counted{tail}."


def _played_for(payload: dict, players: list[str]) -> str:
    name = _name(players, payload["seat"])
    if payload["why"] == "moderator":
        return f"The moderator played for {name}{_why(payload)}."
    if payload["why"] == "autopilot":
        return f"The referee played for {name} (autopilot)."
    then = ", and will go on doing so until they rejoin" if payload.get("autopilot") else ""
    return f"{name}'s time ran out: the referee played for them{then}."


def _extended(payload: dict, players: list[str]) -> str:
    name = _name(players, payload["seat"])
    if payload["by"] == "seat":
        return f"{name} took an extension."
    return f"The moderator gave {name} more time{_why(payload)}."


def _bot_seated(payload: dict, players: list[str]) -> str:
    name, level = _name(players, payload["seat"]), payload["level"]
    if payload["by"] == "seat":
        return f"{name} handed their seat to a {level} bot."
    if payload["by"] == "clock":
        return f"{name}'s time ran out: a {level} bot plays for them until they come back."
    return f"The moderator handed {name}'s seat to a {level} bot{_why(payload)}."


def _bot_unseated(payload: dict, players: list[str]) -> str:
    name = _name(players, payload["seat"])
    if payload["by"] == "seat":
        return f"{name} took their seat back from their bot."
    return f"The moderator gave {name}'s seat back to them from their bot{_why(payload)}."


SENTENCES: dict[str, Callable[[dict, list[str]], str]] = {
    "BotSeated": _bot_seated,
    "BotUnseated": _bot_unseated,
    "ClockSet": lambda p, n: "",  # after nearly every move: the page shows the clocks instead
    "SeatLate": lambda p, n: f"{_name(n, p['seat'])}'s time ran out: the moderator decides.",
    "MovePlayedFor": _played_for,
    "ClockExtended": _extended,
    "AutopilotEnded": lambda p, n: f"{_name(n, p['seat'])} is back at the table.",
    "StandingChoicesSet": lambda p, n: (
        f"{_name(n, p['seat'])}'s standing choices: "
        f"{', '.join(c.replace('_', ' ') for c in p['choices']) or 'none'}."
    ),
    "StandingChoiceApplied": lambda p, n: (
        f"Answered for {_name(n, p['seat'])} by a standing choice "
        f"({p['choice'].replace('_', ' ')})."
    ),
    "GameCreated": lambda p, n: f"The game was created for {', '.join(p['players'])}.",
    "AnnouncementPosted": lambda p, n: f"The moderator announced: {p['text']}",
    "PlayerReplaced": lambda p, n: f"{p['name']} now plays seat {p['seat'] + 1}{_why(p)}.",
    "GameAbandoned": lambda p, n: f"The moderator abandoned the game{_why(p)}.",
    "GameEnded": _ended,
    "SeedRevealed": lambda p, n: "The seed was revealed: every draw can now be checked.",
    "GamePaused": lambda p, n: f"The moderator paused the game{_why(p)}.",
    "GameResumed": lambda p, n: f"The moderator resumed the game{_why(p)}.",
    "RoundOpened": lambda p, n: f"Round {p['round']} opened.",
    "RoundClosed": lambda p, n: f"Round {p['round']} closed ({p['why'].replace('_', ' ')}).",
    "DeadlineExtended": lambda p, n: f"The deadline was extended{_why(p)}.",
    "OrdersSubmitted": lambda p, n: f"Your orders for round {p['round']} were sealed.",
    "OrdersCommitted": lambda p, n: f"Orders were sealed for round {p['round']}.",
    "OrdersRevealed": lambda p, n: (
        f"{_name(n, p['seat'])}'s orders for round {p['round']} were revealed."
    ),
    "OrdersCounted": _counted,
    "DisputeOpened": lambda p, n: f"A dispute was opened: {p['claim']}",
    "DisputeRuled": lambda p, n: f"Dispute {p['dispute']} was ruled {p['ruling']}{_why(p)}.",
    "GameForked": lambda p, n: "The game goes on in a fork after a ruling.",
}
