"""A round's public results as text for a play-by-post thread: Markdown or BBCode.

The ruleset says what is public about a round (`round_summary`); the referee adds what
its own log shows to everyone: who sent orders (with the commitment to check later),
who sent nothing, and how the round closed.
"""

import re
from typing import Any

from .engine import game
from .engine.errors import BadRequest, NotFound
from .engine.fork import batch_end

Summary = dict[str, Any]
FORMATS = ("markdown", "bbcode")


def summarize(state: game.State, events: list[dict[str, Any]], number: int) -> Summary:
    """Title and sections for a resolved round, from public facts only."""
    rules = game.rules_of(state)
    counted = _public(events, "OrdersCounted", number)
    if not hasattr(rules, "round_summary") or not counted:
        raise NotFound("round/not_resolved", f"round {number} has not been resolved", {})
    summary = rules.round_summary(state["rules"], number, state["players"])
    sections = [*summary["sections"], _orders(state, events, number, counted[0])]
    # the board as the table saw it once the round's resolution was appended
    at = batch_end(events, counted[0]["seq"])
    return {"title": summary["title"], "sections": sections, "at": at}


def _public(events: list[dict[str, Any]], kind: str, number: int) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e["type"] == kind and e["visibility"] == "public" and e["payload"]["round"] == number
    ]


def _orders(state: game.State, events: list, number: int, counted: dict) -> dict[str, Any]:
    commitments = {
        e["seq"]: e["payload"]["commitment"] for e in _public(events, "OrdersCommitted", number)
    }
    lines = []
    for seat, seq in enumerate(counted["payload"]["seats"]):
        name = state["players"][seat]
        if seq is None:
            lines.append(f"{name}: nothing sent (no orders taken)")
        else:
            lines.append(f"{name}: orders sealed, commitment {commitments.get(seq + 1, '?')}")
    closed = _public(events, "RoundClosed", number)
    why = closed[0]["payload"]["why"].replace("_", " ") if closed else "?"
    return {"heading": f"Orders (round closed: {why})", "lines": lines}


def render(summary: Summary, fmt: str, image: str | None = None) -> str:
    """The summary as Markdown or BBCode, with every piece of text escaped; `image`, the
    URL of the board's picture after the round, is shown under it."""
    if fmt == "markdown":
        text = _markdown(summary)
        return text + (f"![The board after this round]({image})\n" if image else "")
    if fmt == "bbcode":
        text = _bbcode(summary)
        return text + (f"[img]{image}[/img]\n" if image else "")
    raise BadRequest(
        "request/invalid", f"format must be one of {', '.join(FORMATS)}", {"field": "format"}
    )


def _markdown(summary: Summary) -> str:
    out = [f"## {_md(summary['title'])}", ""]
    for section in summary["sections"]:
        out += [f"**{_md(section['heading'])}**", ""]
        out += [f"- {_md(line)}" for line in section["lines"]] or ["- (none)"]
        out.append("")
    return "\n".join(out)


def _bbcode(summary: Summary) -> str:
    out = [f"[size=150][b]{_bb(summary['title'])}[/b][/size]", ""]
    for section in summary["sections"]:
        out.append(f"[b]{_bb(section['heading'])}[/b]")
        items = "".join(f"[*]{_bb(line)}" for line in section["lines"]) or "[*](none)"
        out += [f"[list]{items}[/list]", ""]
    return "\n".join(out)


def board_image(base: str, game_id: str, at: int) -> str:
    """The URL of the public board after event `at`, as a PNG for a forum post."""
    return f"{base.rstrip('/')}/games/{game_id}/board.png?at={at}"


def _md(text: str) -> str:
    """Markdown with its markup characters escaped (player names are free text)."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~])", r"\\\1", str(text))


def _bb(text: str) -> str:
    """BBCode cannot escape brackets: they become parentheses."""
    return str(text).replace("[", "(").replace("]", ")")
