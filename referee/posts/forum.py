"""A forum post of what happened since the last one, for a game played by post: the
public sentences, whose move it is and by when, and the board's picture.

A post holds only what a spectator may see: the events as the public stream shows them
and the public view. "Since" is the seq of the last event the previous post told; the
post tells the events after it, up to the view's version (docs/pages.md, "Forum posts").
Rendered as Markdown or BBCode by summary.py beside it, which escapes every name.
"""

from types import ModuleType
from typing import Any

from . import story

Post = dict[str, Any]
LINES_AT_MOST = 100  # the newest sentences a post lists (the game's page has them all)


def compose(
    rules: ModuleType, view: dict[str, Any], events: list[dict[str, Any]], since: int
) -> Post:
    """Title and sections of the post telling the events after `since`; `view` is the
    public view at the post's end and `events` the public stream up to it (all of it:
    a ruleset's sentences carry what earlier events told, such as who leads)."""
    said = story.narrate(rules, events, None, view["players"])
    told = [(e, " ".join(text.split())) for e, text in zip(events, said, strict=True) if text]
    news = [text for event, text in told if event["seq"] > since]
    until = view["version"]
    return {
        "title": _title(view["ruleset"], since, until),
        "sections": [
            {"heading": "What happened", "lines": _listed(news)},
            {"heading": "Now", "lines": now(view, _ending(told))},
        ],
        "at": until,
        "picture": "The board now",
        "news": len(news),
    }


def _title(ruleset: str, since: int, until: int) -> str:
    name = ruleset.replace("-", " ").title()
    if until <= since:
        return f"{name}: nothing new since event {since}"
    return f"{name}: events {since + 1} to {until}"


def _listed(news: list[str]) -> list[str]:
    if not news:
        return ["Nothing new."]
    if len(news) <= LINES_AT_MOST:
        return news
    left = len(news) - LINES_AT_MOST
    return [f"({left} earlier sentences are on the game's page.)", *news[-LINES_AT_MOST:]]


def _ending(told: list[tuple[dict[str, Any], str]]) -> str | None:
    """The sentence of the game's end (the ruleset's words for its result)."""
    ended = [text for event, text in told if event["type"] == "GameEnded"]
    return ended[-1] if ended else None


def now(view: dict[str, Any], ending: str | None = None) -> list[str]:
    """Where the game stands, in sentences: whose move it is and by when, a round's
    orders still due, the pause, or the end."""
    status = view["status"]
    if status == "finished":
        return [ending or "The game is over.", _seed(view)]
    if status == "abandoned":
        return ["The game was abandoned.", _seed(view)]
    if status != "active":
        fork = view.get("forked_to")
        return [f"A ruling moved play to game {fork}." if fork else f"The game is {status}."]
    paused = bool(
        (view.get("round") or {}).get("paused") or (view.get("clock") or {}).get("paused")
    )
    lines = (
        ["The game is paused: no deadline runs until the moderator resumes it."] if paused else []
    )
    opened = (view.get("round") or {}).get("open")
    if opened:
        return lines + [_round(view, opened, paused)]
    moving = [_to_move(view, seat, paused) for seat in view["to_move"]]
    return lines + (moving or ["Nobody is to move."])


def _round(view: dict[str, Any], opened: dict[str, Any], paused: bool) -> str:
    number = opened["round"]
    waiting = [view["players"][s] for s, sent in enumerate(opened["submitted"]) if not sent]
    if opened.get("closed") or not waiting:
        return f"Round {number} is closed: its orders are being resolved."
    due = "" if paused else f" by {_when(opened['deadline_utc'])}"
    return f"Round {number} is open: sealed orders due{due} from {_joined(waiting)}."


def _to_move(view: dict[str, Any], seat: int | str, paused: bool) -> str:
    if seat == "moderator":  # a choice the rules leave to the moderator, with no clock
        return "To move: the moderator."
    name = view["players"][seat]
    clock = view.get("clock")
    if clock is None:
        return f"To move: {name} (no time limit)."
    if clock["late"][seat]:
        return f"To move: {name} (their time ran out: the moderator decides)."
    deadline = clock["deadlines_utc"][seat]
    if paused or deadline is None:
        return f"To move: {name} (the clock is paused)."
    return f"To move: {name}, by {_when(deadline)}."


def _seed(view: dict[str, Any]) -> str:
    return f"The seed is revealed: {view['seed']} (anyone can now check every draw)."


def _when(utc: str) -> str:
    """`2027-01-15T08:01:00Z` as the pages write it: `2027-01-15 08:01:00 UTC`."""
    return utc.replace("T", " ").replace("Z", " UTC")


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
