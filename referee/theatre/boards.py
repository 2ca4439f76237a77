"""Boards as pictures: a ruleset's drawing of a view as SVG (or a plain card where it has
none), and as PNG for forum posts.

The PNG: a board's SVG drawn by resvg (a Rust renderer, as the
`svg2png-py` wheel: nothing to install beside it) with the machine's fonts, then reduced
to 256 colours by Pillow, which keeps a board's flat colours and text and makes the file
about a third of the size (forums limit attachments).

svg2png-py is resvg built for speed: drawing a dark-horse-west board takes about a
quarter of the time resvg-py took (its wheels are built for size), the pixels come back
as they are (no PNG to encode and decode again), and the interpreter is free for other
threads while it draws (beside_loop's native thread then lets the web process's loop
run)."""

import html
import io
import re
from types import ModuleType
from typing import Any

import svg2png_py
from markupsafe import Markup
from PIL import Image


def board(rules: ModuleType, view: dict[str, Any], highlight: dict | None = None) -> Markup:
    """The ruleset's drawing of the view (SVG), or a plain card when it has none."""
    draw = getattr(rules, "board", None)
    if draw is not None:
        return Markup(draw(view, highlight=highlight))
    title = html.escape(f"{view['ruleset']}: {view['status']}")
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40" role="img">'
        f'<title>{title}</title><text x="10" y="25" font-size="16">{title}</text></svg>'
    )


WIDEST = 900  # pixels: a forum column; wider boards are scaled down (and their files smaller)
BACKGROUND = (255, 255, 255, 255)  # white, opaque
# what the generic families are drawn with: resvg-py's choice on Linux first (the look of
# the boards so far), then DejaVu (`make test` installs it where no font is), then the
# renderer's own default; svg2png-py has no setting for them
GENERIC = {
    "sans-serif": "Liberation Sans, DejaVu Sans, sans-serif",
    "serif": "Liberation Serif, DejaVu Serif, serif",
    "monospace": "Liberation Mono, DejaVu Sans Mono, monospace",
}
_VIEWBOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')
_FAMILY = re.compile(r'font-family="([^"]*)"')
_FONTS = svg2png_py.FontDatabase.system()  # read once per process, shared by threads


def png_of(svg: str) -> bytes:
    """The PNG of a board's SVG, at most WIDEST pixels wide, in 256 colours."""
    found = _VIEWBOX.search(svg[:2000])
    width = float(found.group(1)) if found else WIDEST
    zoom = min(1.0, WIDEST / width) if width else 1.0
    scale = (zoom, 0.0, 0.0, 0.0, zoom, 0.0)
    pixels, wide, high = svg2png_py.svg_to_rgba(
        _named_fonts(svg), _FONTS, scale, bg_color=BACKGROUND
    )
    # the canvas is the SVG's own size; the drawing, scaled, fills its top left corner
    drawn = Image.frombytes("RGB", (wide, high), pixels, "raw", "RGBX")
    image = drawn.crop((0, 0, int(wide * zoom + 0.5), int(high * zoom + 0.5)))
    reduced = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _named_fonts(svg: str) -> str:
    """The SVG with each generic font family named as the fonts that draw it (a board
    escapes every quote in its texts, so only attributes match)."""

    def named(found: re.Match[str]) -> str:
        families = [GENERIC.get(f.strip(), f.strip()) for f in found.group(1).split(",")]
        return f'font-family="{", ".join(families)}"'

    return _FAMILY.sub(named, svg)
