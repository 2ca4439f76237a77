"""Draw the Dark Horse West territory map from its data into docs/rules/dark-horse-west-map.svg.

Run from the repository root: `.venv/bin/python docs/tools/draw_map.py`. The picture is
plain SVG built from strings (no dependencies), so it is the same on every machine;
tests/games/test_dark_horse_west_map.py fails when the committed SVG differs from what
`render()` draws now, so the picture never drifts from referee/games/dark_horse_west_map.json.
"""

import math
from pathlib import Path

from referee.games.dark_horse_west.board_geometry import HexLayout, xy
from referee.games.dark_horse_west.hexes import DIRECTIONS, HEXES, SAFE_ZONES, Hex, hex_key

OUT = Path(__file__).resolve().parents[1] / "rules" / "dark-horse-west-map.svg"

SIZE = 40.0  # centre to corner
LEFT, TOP = 24.0, 64.0  # where the map's first hex begins
LAYOUT = HexLayout(SIZE, LEFT, TOP)  # the geometry the pages' board draws with too
LEGEND_X = 680.0
WIDTH, HEIGHT = 1000, 560

FILL = {
    "non_resource": "#f7f1e1",
    "spot": "#dcc79b",
    "C": "#b9bcc6",
    "food": "#f2c75c",
    "wood": "#86b873",
}
RUGGED = "#c0392b"
SAFE = "#6b3d12"
INK = "#3b3126"
# The two-player out-of-bounds area: blue stripes, so the kind beneath still shows.
STRIPES = (
    '<defs><pattern id="blue" width="9" height="9" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="9" height="9" fill="#2f7fd6" fill-opacity="0.18"/>'
    '<rect width="4.5" height="9" fill="#2f7fd6" fill-opacity="0.55"/></pattern></defs>'
)


def centre(h: Hex) -> tuple[float, float]:
    """The pixel centre of a hex: rows go down, q goes east, odd rows sit half a hex in."""
    return LAYOUT.centre(h)


def corner(h: Hex, angle: float, scale: float = 1.0) -> tuple[float, float]:
    """A point on the hex's outline at `angle` degrees (counter-clockwise from east)."""
    return LAYOUT.corner(h, angle, scale)


def points(h: Hex, scale: float = 1.0) -> str:
    """The six corners of a hex as an SVG points list, shrunk by `scale`."""
    return LAYOUT.points(h, scale)


_xy = xy


def fill(cell: dict) -> str:
    """The colour of a hex's kind (printed food or wood, C spots in ore grey)."""
    if cell["kind"] == "revealed_resource":
        return FILL[cell["resource"]]
    if cell["kind"] == "resource":
        return FILL["C"] if cell["spot"] == "C" else FILL["spot"]
    return FILL["non_resource"]


def text(x: float, y: float, body: str, size: float, **attrs: str) -> str:
    """A centred text element."""
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="middle"'
        f"{extra}>{body}</text>"
    )


def hex_body(h: Hex, cell: dict) -> list[str]:
    """One hex: its colour, the dashed inner border of a tile spot, red if rugged, blue if
    out of bounds with two players, then its labels."""
    parts = [f'<polygon points="{points(h)}" fill="{fill(cell)}" stroke="#8a7a5e"/>']
    if cell["two_player_out_of_bounds"]:
        parts.append(f'<polygon points="{points(h)}" fill="url(#blue)"/>')
    if cell["kind"] == "resource":
        parts.append(
            f'<polygon points="{points(h, 0.8)}" fill="none" stroke="{INK}" '
            'stroke-width="1.2" stroke-dasharray="4 3"/>'
        )
    if cell["rugged"]:
        parts.append(
            f'<polygon points="{points(h, 0.93)}" fill="none" stroke="{RUGGED}" '
            'stroke-width="3.5"/>'
        )
    return parts + labels(h, cell)


def labels(h: Hex, cell: dict) -> list[str]:
    """The spot letter or printed resource, and the axial coordinates small at the bottom."""
    x, y = centre(h)
    parts = [text(x, y - 19, hex_key(h), 9, fill="#5d5345")]
    if cell["spot"]:
        parts.append(text(x, y + 8, cell["spot"], 20, font_weight="bold", fill=INK))
        under = {"B": "shown", "C": "ore"}.get(cell["spot"])
        if cell["rugged"]:
            under = "rugged"
        if under:
            parts.append(text(x, y + 21, under, 9, fill=RUGGED if cell["rugged"] else INK))
    elif cell["resource"]:
        parts.append(text(x, y + 8, cell["resource"].upper(), 12, font_weight="bold", fill=INK))
    elif cell["safe_zone"]:
        parts.append(text(x, y + 8, "SAFE", 10, font_weight="bold", fill=SAFE))
    return parts


def safe_zone_outline(name: str) -> str:
    """The outer border of one Safe Zone's hexes, drawn thick."""
    zone = {h for h, cell in HEXES.items() if cell["safe_zone"] == name}
    path = []
    for h in sorted(zone):
        for i, (dq, dr) in enumerate(DIRECTIONS):
            if (h[0] + dq, h[1] + dr) not in zone:
                a, b = corner(h, 60 * i - 30), corner(h, 60 * i + 30)
                path.append(f"M{_xy(a)}L{_xy(b)}")
    return (
        f'<path d="{"".join(path)}" fill="none" stroke="{SAFE}" stroke-width="4.5" '
        'stroke-linecap="round"/>'
    )


def legend() -> list[str]:
    """The key to the colours and marks, beside the map."""
    rows: list[tuple[str, str, str]] = [
        (FILL["non_resource"], "", "Non-resource hex: a city only"),
        (FILL["spot"], "A", "Tile spot: a town only; tile face down"),
        (FILL["spot"], "B", "Tile spot: tile revealed at setup"),
        (FILL["C"], "C", "Tile spot: one of four ore tiles, face up"),
        (FILL["spot"], "rugged", "Rugged (red): a town costs +1 ore"),
        (FILL["food"], "FOOD", "Printed food (revealed resource)"),
        (FILL["wood"], "WOOD", "Printed wood (revealed resource)"),
        (FILL["non_resource"], "safe", "Safe Zone (brown border): food,"),
        (FILL["non_resource"], "blue", "Out of bounds with 2 players:"),
    ]
    parts = [
        f'<text x="{LEGEND_X:.1f}" y="{TOP + 4:.1f}" font-size="15" font-weight="bold" '
        f'fill="{INK}">Legend</text>'
    ]
    for i, (colour, mark, words) in enumerate(rows):
        parts += legend_row(TOP + 30 + 40 * i, colour, mark, words)
    more = {7: "wood and a city hex touching both", 8: "no city or town; rails may cross"}
    for i, words in more.items():
        parts.append(
            f'<text x="{LEGEND_X + 40:.1f}" y="{TOP + 30 + 40 * i + 18:.1f}" font-size="12" '
            f'fill="{INK}">{words}</text>'
        )
    return parts


def legend_row(y: float, colour: str, mark: str, words: str) -> list[str]:
    """One swatch (a small hex) with its mark and its words."""
    x, s = LEGEND_X + 14, 14.0
    hexagon = " ".join(
        f"{x + s * math.cos(math.radians(30 + 60 * k)):.1f},"
        f"{y - s * math.sin(math.radians(30 + 60 * k)):.1f}"
        for k in range(6)
    )
    stroke = {"rugged": (RUGGED, "3"), "safe": (SAFE, "3.5")}.get(mark, ("#8a7a5e", "1"))
    parts = [
        f'<polygon points="{hexagon}" fill="{colour}" stroke="{stroke[0]}" '
        f'stroke-width="{stroke[1]}"/>'
    ]
    if mark == "blue":
        parts.append(f'<polygon points="{hexagon}" fill="url(#blue)"/>')
    elif mark in ("A", "B", "C"):
        parts.append(text(x, y + 5, mark, 13, font_weight="bold", fill=INK))
    elif mark in ("FOOD", "WOOD"):
        parts.append(text(x, y + 3, mark[0], 10, font_weight="bold", fill=INK))
    parts.append(
        f'<text x="{LEGEND_X + 40:.1f}" y="{y + 4:.1f}" font-size="12" fill="{INK}">{words}</text>'
    )
    return parts


def render() -> str:
    """The whole picture as SVG text."""
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fffdf7"/>',
        STRIPES,
        text(
            LEFT + 312,
            30,
            "Dark Horse West: territory map (house design)",
            18,
            font_weight="bold",
            fill=INK,
        ),
        text(
            LEFT + 312,
            48,
            "hexes in axial coordinates q,r (north at the top); see dark-horse-west-map.md",
            11,
            fill="#5d5345",
        ),
    ]
    body = [part for h, cell in sorted(HEXES.items()) for part in hex_body(h, cell)]
    zones = [safe_zone_outline(name) for name in SAFE_ZONES]
    return "\n".join(head + body + zones + legend() + ["</svg>"]) + "\n"


def main() -> None:
    """Write the picture beside the map's description."""
    OUT.write_text(render(), "utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
