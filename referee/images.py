"""Board images for forum posts: a board's SVG drawn as a PNG by resvg (a Rust renderer,
as a wheel: nothing to install beside it) with the machine's fonts, then reduced to 256
colours by Pillow, which keeps a board's flat colours and text and makes the file about a
third of the size (forums limit attachments)."""

import io
import re

import resvg_py
from PIL import Image

WIDEST = 900  # pixels: a forum column; wider boards are scaled down (and their files smaller)
BACKGROUND = "#ffffff"
_VIEWBOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')


def png_of(svg: str) -> bytes:
    """The PNG of a board's SVG, at most WIDEST pixels wide, in 256 colours."""
    found = _VIEWBOX.search(svg[:2000])
    width = float(found.group(1)) if found else WIDEST
    zoom = min(1.0, WIDEST / width) if width else 1.0
    drawn = bytes(resvg_py.svg_to_bytes(svg_string=svg, background=BACKGROUND, zoom=zoom))
    image = Image.open(io.BytesIO(drawn)).convert("RGB")
    reduced = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    reduced.save(out, "PNG", compress_level=6)
    return out.getvalue()
