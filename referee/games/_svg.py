"""The drawing kit the rulesets' boards share: SVG elements written one way, so that a
board says what it draws and not how SVG is spelled. Every text is escaped here;
numbers are written in as few characters as they need (one decimal at most), the same
on every machine. Pure: strings in, a string out."""

import html
from typing import Any


def escape(words: Any) -> str:
    """Text (or any value, as text) safe inside an element or an attribute's quotes."""
    return html.escape(str(words))


def number(value: Any) -> str:
    """A number as few characters as it needs (`12`, `12.5`); other values as they are."""
    return f"{round(value, 1):g}" if isinstance(value, int | float) else str(value)


def attribute(key: str) -> str:
    """A keyword as an attribute's name: `font_size` is font-size, `class_` class."""
    return key.rstrip("_").replace("_", "-")


def element(name: str, body: str | None = None, /, **attrs: Any) -> str:
    """One element: `body` is markup already escaped, None for an element that closes
    itself; an attribute given as None is left out."""
    written = "".join(
        f' {attribute(key)}="{escape(number(value))}"'
        for key, value in attrs.items()
        if value is not None
    )
    return f"<{name}{written}/>" if body is None else f"<{name}{written}>{body}</{name}>"


def text(x: float, y: float, words: Any, size: float, **attrs: Any) -> str:
    """Words at (x, y), `size` high (font_weight=, fill=, text_anchor= as attributes)."""
    return element("text", escape(words), x=x, y=y, font_size=size, **attrs)


def rect(x: float, y: float, width: float, height: float, fill: str, **attrs: Any) -> str:
    return element("rect", x=x, y=y, width=width, height=height, fill=fill, **attrs)


def circle(cx: float, cy: float, r: float, fill: str, **attrs: Any) -> str:
    return element("circle", cx=cx, cy=cy, r=r, fill=fill, **attrs)


def line(x1: float, y1: float, x2: float, y2: float, stroke: str, **attrs: Any) -> str:
    return element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs)


def title(words: Any) -> str:
    """A tooltip, or a drawing's title."""
    return f"<title>{escape(words)}</title>"


def group(tip: Any, inner: str, **attrs: Any) -> str:
    """Pieces drawn together under one tooltip (`class_=` and `data_*=` name what they
    show)."""
    return element("g", title(tip) + inner, **attrs)


def shortened(words: str, most: int) -> str:
    """Words cut to `most` characters, the last an ellipsis, where they are longer."""
    return words if len(words) <= most else words[: most - 1] + "…"


def wrapped(words: str, width: int) -> list[str]:
    """Words in lines of at most `width` characters (a longer word alone on its line)."""
    lines, current = [], ""
    for word in words.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines
