"""A round's public results as text for a play-by-post thread: Markdown or BBCode.

The ruleset says what is public about a round (`round_summary`); the referee adds what
its own log shows to everyone: who sent orders (with the commitment to check later),
who sent nothing, and how the round closed.
"""

import re
from typing import Any

from ..engine import game
from ..engine.errors import BadRequest, NotFound
from ..engine.fork import batch_end

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
    URL of the board's picture (after the round, or as the post ends), is shown under it,
    after a blank line so that it is no part of the last list."""
    check_format(fmt)
    picture = summary.get("picture", "The board after this round")
    if fmt == "markdown":
        text = _markdown(summary)
        return text + (f"\n![{_md(picture)}]({image})\n" if image else "")
    text = _bbcode(summary)
    return text + (f"\n[img]{image}[/img]\n" if image else "")


def check_format(fmt: str) -> None:
    """400 for a format that is neither Markdown nor BBCode."""
    if fmt not in FORMATS:
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


# escaped with a backslash: markup anywhere in a line, in CommonMark and Python-Markdown
# alike (Python-Markdown shows the backslash before any other character: `\<`, `\|`)
MARKUP = re.compile(r"([\\`*_{}\[\]])")
# markup only at the start of a line (a heading, a list, a quote): its first character
LINE_START = re.compile(r"^([#+>-])")
ORDERED = re.compile(r"^(\d+)([.)])")  # `1.` or `1)` would start a numbered list
BREAK = "[i][/i]"  # an empty tag: shows nothing, and a `[` before it opens no tag


def _md(text: str) -> str:
    """Free text (a player's name, a sentence) as Markdown that shows it as typed, one
    line, no markup of its own: an HTML tag, an entity, a link, emphasis, code, a list."""
    text = " ".join(str(text).split())
    text = re.sub(r"&(?=[#\w])", "&amp;", text)  # `&amp;` typed stays `&amp;`, `&copy` too
    text = re.sub(r"<(?=\S)", "&lt;", text)  # a tag, a comment, an autolink (`<a@b>`)
    text = text.replace("~", "&#126;")  # strikethrough (GFM, chats): no escape in all
    text = MARKUP.sub(r"\\\1", text)
    text = LINE_START.sub(r"\\\1", text)
    return ORDERED.sub(lambda m: m[1] + ("\\." if m[2] == "." else "&#41;"), text)


def _bb(text: str) -> str:
    """Free text as BBCode that shows it as typed: BBCode has no escape, so an empty tag
    after each `[` keeps it from opening a tag (`[url=...]` is seen, not followed), and
    from opening a quoted option that would swallow the rest of the post."""
    return " ".join(str(text).split()).replace("[", "[" + BREAK)
