"""The drawing kit the rulesets' boards share: SVG elements written one way, so that a
board says what it draws and not how SVG is spelled. Every text is escaped here;
numbers are written in as few characters as they need (one decimal at most), the same
on every machine. Pure: strings in, a string out."""

import html
from functools import lru_cache
from itertools import chain
from typing import Any


def drawing(width: float, height: float, body: str, font: str = "sans-serif") -> str:
    """A whole board: an image `width` by `height` (a viewBox, no size of its own, so a
    page scales it), its texts in `font` unless they say otherwise."""
    box = f"0 0 {number(width)} {number(height)}"
    return element("svg", body, xmlns=SVG, role="img", viewBox=box, font_family=font)


SVG = "http://www.w3.org/2000/svg"


def escape(words: Any) -> str:
    """Text (or any value, as text) safe inside an element or an attribute's quotes."""
    return html.escape(str(words))


def number(value: Any) -> str:
    """A number as few characters as it needs, to a tenth (`12`, `12.5`); other values as
    they are."""
    if type(value) is float:
        written = f"{value:.1f}"
        return written[:-2] if written.endswith(".0") else written
    return str(value)


@lru_cache(maxsize=256)
def attribute(key: str) -> str:
    """A keyword as an attribute's name: `font_size` is font-size, `class_` class."""
    return key.rstrip("_").replace("_", "-")


def element(name: str, body: str | None = None, /, **attrs: Any) -> str:
    """One element: `body` is markup already escaped, None for an element that closes
    itself; an attribute given as None is left out."""
    written = _written(*chain.from_iterable(attrs.items()))
    return f"<{name}{written}/>" if body is None else f"<{name}{written}>{body}</{name}>"


# a board writes the same styles (and, view after view, the same map) again and again;
# keys and values come flat, so that the cache tells 1 from True
@lru_cache(maxsize=4096, typed=True)
def _written(*flat: Any) -> str:
    """Attributes given as key, value, key, value..."""
    pairs = zip(flat[::2], flat[1::2], strict=True)
    return "".join(
        f' {attribute(key)}="{escape(number(value))}"' for key, value in pairs if value is not None
    )


# a map's labels stand in the same places view after view
@lru_cache(maxsize=8192, typed=True)
def text(x: float, y: float, words: Any, size: float, **attrs: Any) -> str:
    """Words at (x, y), `size` high (font_weight=, fill=, text_anchor= as attributes)."""
    at = f'x="{number(x)}" y="{number(y)}" font-size="{number(size)}"'
    return f"<text {at}{_written(*chain.from_iterable(attrs.items()))}>{escape(words)}</text>"


def rect(x: float, y: float, width: float, height: float, fill: str, **attrs: Any) -> str:
    at = f'x="{number(x)}" y="{number(y)}" width="{number(width)}" height="{number(height)}"'
    return f"<rect {at}{_written('fill', fill, *chain.from_iterable(attrs.items()))}/>"


def circle(cx: float, cy: float, r: float, fill: str, **attrs: Any) -> str:
    at = f'cx="{number(cx)}" cy="{number(cy)}" r="{number(r)}"'
    return f"<circle {at}{_written('fill', fill, *chain.from_iterable(attrs.items()))}/>"


def line(x1: float, y1: float, x2: float, y2: float, stroke: str, **attrs: Any) -> str:
    at = f'x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}"'
    return f"<line {at}{_written('stroke', stroke, *chain.from_iterable(attrs.items()))}/>"


def polygon(points: str, fill: str, **attrs: Any) -> str:
    """A closed outline through `points` ("x,y x,y ...")."""
    return element("polygon", points=points, fill=fill, **attrs)


def path(d: str, **attrs: Any) -> str:
    return element("path", d=d, **attrs)


def titled(name: str, tip: Any, **attrs: Any) -> str:
    """One element with a tooltip of its own (a rail, a card, a token)."""
    return element(name, title(tip), **attrs)


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
