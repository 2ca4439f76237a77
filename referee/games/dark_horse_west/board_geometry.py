"""Where the hexes of a territory map lie in a picture: pointy-top hexes in axial
coordinates (hexes.py), rows going down, q going east, odd rows half a hex in. Shared by
the pages' board (board.py) and the documentation's map (docs/tools/draw_map.py)."""

import math
from collections.abc import Iterable
from functools import lru_cache

from .hexes import DIRECTIONS, Hex, parse_edge

ROOT3 = math.sqrt(3)
Point = tuple[float, float]


class HexLayout:
    """Hexes of `size` (centre to corner) whose grid starts at (`left`, `top`)."""

    def __init__(self, size: float, left: float, top: float) -> None:
        self.size, self.left, self.top = size, left, top

    def centre(self, h: Hex) -> Point:
        """The centre of a hex."""
        q, r = h
        return (
            self.left + ROOT3 * self.size * (q + r / 2 + 0.5),
            self.top + self.size + 1.5 * self.size * r,
        )

    def corner(self, h: Hex, angle: float, scale: float = 1.0) -> Point:
        """A point on the hex's outline at `angle` degrees (counter-clockwise from east)."""
        x, y = self.centre(h)
        rad = math.radians(angle)
        return x + scale * self.size * math.cos(rad), y - scale * self.size * math.sin(rad)

    def points(self, h: Hex, scale: float = 1.0) -> str:
        """The six corners of a hex as an SVG points list, shrunk by `scale`."""
        return _outline(self.size, self.left, self.top, h, scale)

    def side(self, h: Hex, direction: int) -> tuple[Point, Point]:
        """The two ends of the hex's side towards DIRECTIONS[direction]."""
        return self.corner(h, 60 * direction - 30), self.corner(h, 60 * direction + 30)

    def edge(self, key: str) -> tuple[Point, Point]:
        """The two ends of an edge ("q1,r1|q2,r2"), the side its two hexes share."""
        a, b = parse_edge(key)
        return self.side(a, DIRECTIONS.index((b[0] - a[0], b[1] - a[1])))


# a board draws every hex of the map again, in the same place, for every view
@lru_cache(maxsize=1024)
def _outline(size: float, left: float, top: float, h: Hex, scale: float) -> str:
    layout = HexLayout(size, left, top)
    return " ".join(xy(layout.corner(h, 30 + 60 * k, scale)) for k in range(6))


def xy(p: Point) -> str:
    """A point as SVG text, to a tenth."""
    return f"{p[0]:.1f},{p[1]:.1f}"


def fitted(
    hexes: Iterable[Hex], box: tuple[float, float, float, float], *, largest: float
) -> HexLayout:
    """The layout that fits every hex in `box` (x, y, width, height), hexes at most
    `largest` in size, the map's top-left hex touching the box's top-left."""
    cells = list(hexes) or [(0, 0)]
    across = [q + r / 2 for q, r in cells]
    rows = [r for _, r in cells]
    x, y, width, height = box
    size = min(
        largest,
        width / (ROOT3 * (max(across) - min(across) + 1)),
        height / (2 + 1.5 * (max(rows) - min(rows))),
    )
    return HexLayout(size, x - ROOT3 * size * min(across), y - 1.5 * size * min(rows))
