"""The territory map of the pages' board: every hex with its kind and tile as the viewer
may see it, cities and towns in their owners' colours (numbered, named in a <title>),
rails on hex sides, and what a highlighted command would touch."""

from typing import Any

from .. import _svg as svg
from . import rails as rail_rules
from .board_content import DRAWING
from .board_geometry import HexLayout, xy
from .hexes import DIRECTIONS, HOUSE, SAFE_ZONES, Board, Hex, hex_key, parse_hex
from .words import edge_words, hex_words, name_of

INK, FAINT = DRAWING["ink"], DRAWING["faint"]
FILL: dict[str, str] = DRAWING["hex_fill"]
RUGGED, SAFE, OUT = DRAWING["rugged"], DRAWING["safe"], DRAWING["out_of_bounds"]
HIGHLIGHT, RAIL = DRAWING["highlight"], DRAWING["rail"]
FONT = 11  # the smallest text on the map
PIECE = {"stroke": INK, "stroke_width": 1.5}  # a city's or a town's outline


def seat_colour(seat: int | None) -> str:
    """A seat's colour (a Ghost die's grey for no seat)."""
    if seat is None:
        return str(DRAWING["ghost"][0])
    return str(DRAWING["seat_colours"][seat % len(DRAWING["seat_colours"])][0])


def seat_colour_name(seat: int | None) -> str:
    """A seat's colour in words."""
    if seat is None:
        return str(DRAWING["ghost"][1])
    return str(DRAWING["seat_colours"][seat % len(DRAWING["seat_colours"])][1])


def board_of(state: dict[str, Any]) -> Board:
    """The game's map: the house map, or the moderator's own (the option `map`)."""
    data = state.get("map")
    return HOUSE if data is None else Board(data)


def text(x: float, y: float, body: str, size: float = FONT, **attrs: Any) -> str:
    """A text element, centred unless told otherwise."""
    attrs.setdefault("text_anchor", "middle")
    attrs.setdefault("fill", INK)
    return svg.text(x, y, body, size, **attrs)


def outline(marked: bool, plain: str = INK) -> dict[str, Any]:
    """The stroke of a box: thick in the highlight's colour where a command touches it."""
    return {"stroke": HIGHLIGHT, "stroke_width": 4} if marked else {"stroke": plain}


def group(title: str, parts: list[str]) -> list[str]:
    """Parts drawn as one <g> whose <title> names them (a tooltip, and a handle for tests)."""
    return [svg.group(title, "".join(parts))]


def territory(view: dict[str, Any], layout: HexLayout, marks: dict[str, Any]) -> list[str]:
    """Every part of the map, bottom layer first."""
    state, players = view["state"], view["players"]
    board = board_of(state)
    seen = _tiles_known(state)
    parts = [p for h in sorted(board.hexes) for p in _hex(h, board, state, seen, layout)]
    parts += [_safe_zone(board, name, layout) for name in SAFE_ZONES]
    parts += [p for e in state["rails"] for p in _rail(e, layout)]
    parts += _pieces(state, players, layout)
    return parts + _marks(marks, board, layout)


def _tiles_known(state: dict[str, Any]) -> dict[str, str]:
    """The face-down tiles this view shows (a seat's `tiles_seen`, the moderator's layout)."""
    down = set(state.get("face_down", []))
    known = state.get("tiles_seen") or state.get("layout") or {}
    return {h: t for h, t in known.items() if h in down}


def _hex(
    h: Hex, board: Board, state: dict[str, Any], seen: dict[str, str], layout: HexLayout
) -> list[str]:
    cell, key = board.hexes[h], hex_key(h)
    tile = _tile(board, state, key, seen)
    x, y = layout.centre(h)
    s = layout.size / 50
    spot = f" {cell['spot']}" if cell["spot"] else ""
    parts = [
        svg.polygon(layout.points(h), _fill(cell, tile), stroke="#8a7a5e"),
        text(x, y - 29 * s, f"{key}{spot}", FONT, fill=FAINT),
    ]
    if cell["kind"] == "resource":
        dashed = {"stroke": INK, "stroke_width": 1, "stroke_dasharray": "4 3"}
        parts.append(svg.polygon(layout.points(h, 0.84), "none", **dashed))
    if cell["rugged"] or (tile and tile["rugged"]):
        parts.append(svg.polygon(layout.points(h, 0.93), "none", stroke=RUGGED, stroke_width=3.5))
    if _out_of_bounds(cell, state):
        parts.append(svg.polygon(layout.points(h), OUT, fill_opacity=0.28, stroke="none"))
    return group(_hex_title(key, cell, tile), parts + _hex_words(key, cell, tile, state, (x, y, s)))


def _tile(
    board: Board, state: dict[str, Any], key: str, seen: dict[str, str]
) -> dict[str, Any] | None:
    """What lies on a hex as the viewer sees it: resource, rugged, face up, known."""
    cell = board.cell(key)
    if cell["resource"]:
        return {"resource": cell["resource"], "rugged": False, "up": True, "printed": True}
    if key in state["face_up"]:
        found = board.tiles.get(state["face_up"][key], {})
        return {"resource": found.get("resource"), "rugged": found.get("rugged"), "up": True}
    if key in state.get("face_down", []):
        found = board.tiles.get(seen.get(key, ""), {})
        return {"resource": found.get("resource"), "rugged": found.get("rugged"), "up": False}
    return None


def _out_of_bounds(cell: dict[str, Any], state: dict[str, Any]) -> bool:
    return bool(cell["two_player_out_of_bounds"]) and len(state["goods"]) == 2


def _fill(cell: dict[str, Any], tile: dict[str, Any] | None) -> str:
    if tile and tile["up"] and tile["resource"]:
        return FILL[tile["resource"]]
    if cell["kind"] == "resource":
        return FILL["C"] if cell["spot"] == "C" else FILL["spot"]
    return FILL["non_resource"]


def _hex_title(key: str, cell: dict[str, Any], tile: dict[str, Any] | None) -> str:
    words = {"non_resource": "non-resource hex (a city only)", "resource": "resource hex"}
    said = f"Hex {hex_words(key)}: {words.get(cell['kind'], 'printed ' + str(cell['resource']))}"
    if cell["spot"]:
        said += f", spot {cell['spot']}"
    if tile and not tile.get("printed"):
        seen = f" ({tile['resource']} as you see it)" if tile["resource"] else ""
        said += f", tile {tile['resource']}" if tile["up"] else f", tile face down{seen}"
    if cell["rugged"] or (tile and tile["rugged"]):
        said += ", rugged (a town costs one more ore)"
    if cell["safe_zone"]:
        said += f", {cell['safe_zone']} Safe Zone"
    return said


def _hex_words(
    key: str,
    cell: dict[str, Any],
    tile: dict[str, Any] | None,
    state: dict[str, Any],
    at: tuple[float, float, float],
) -> list[str]:
    """The hex's own words: its tile (or "?") and its marks (rugged, safe, out)."""
    x, y, s = at
    parts = []
    occupied = key in state["towns"] or key in state["cities"]
    line = ""
    if tile and tile.get("printed"):
        line = f"printed {tile['resource']}"
    elif tile and tile["up"]:
        line = str(tile["resource"])
    elif tile:
        line = "face down"
        centre = f"{tile['resource']} (seen)" if tile["resource"] else "?"
        parts.append(text(x, y + 3 * s, centre, 18 if centre == "?" else 12, font_weight="bold"))
    elif cell["kind"] == "resource" and not occupied:
        line = "no tile"
    if key in state["cities"]:
        points = state.get("city_points", {}).get(key, 0)
        line = f"city, {points} point{'' if points == 1 else 's'}"
    if line:
        parts.append(text(x, y + 17 * s, line, FONT))
    mark = _mark_word(cell, tile, state)
    if mark:
        colour = {"rugged": RUGGED, "safe": SAFE}.get(mark, OUT)
        parts.append(text(x, y + 29 * s, mark, FONT, fill=colour, font_weight="bold"))
    return parts


def _mark_word(cell: dict[str, Any], tile: dict[str, Any] | None, state: dict[str, Any]) -> str:
    if _out_of_bounds(cell, state):
        return "out"
    if cell["rugged"] or (tile and tile["rugged"]):
        return "rugged"
    return "safe" if cell["safe_zone"] else ""


def _safe_zone(board: Board, name: str, layout: HexLayout) -> str:
    """The outer border of one Safe Zone, drawn thick."""
    zone = set(board.safe_zone(name))
    path = []
    for h in sorted(zone):
        for i, (dq, dr) in enumerate(DIRECTIONS):
            if (h[0] + dq, h[1] + dr) not in zone:
                a, b = layout.side(h, i)
                path.append(f"M{xy(a)}L{xy(b)}")
    if not path:
        return ""
    border = {"stroke": SAFE, "stroke_width": 4.5, "stroke_linecap": "round"}
    return svg.path("".join(path), fill="none", **border)


def _rail(edge: str, layout: HexLayout) -> list[str]:
    (x1, y1), (x2, y2) = layout.edge(edge)
    ends = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
    rail = {"stroke": RAIL, "stroke_width": 7, "stroke_linecap": "round"}
    return [
        svg.titled("line", f"Rail {edge_words(edge)}", **ends, **rail),
        svg.line(x1, y1, x2, y2, "#f4e3c1", stroke_width=1.5, stroke_dasharray="2 4"),
    ]


def _pieces(state: dict[str, Any], players: list[str], layout: HexLayout) -> list[str]:
    parts = []
    lift = layout.size * 0.14
    points = state.get("city_points", {})
    for h, seat in sorted(state["cities"].items()):
        title = f"{name_of(players, seat)}'s city at {hex_words(h)}: {points.get(h, 0)} points"
        parts += city(_lifted(layout, h, lift), seat, title, layout.size / 50)
    for h, seat in sorted(state["towns"].items()):
        title = f"{name_of(players, seat)}'s town at {hex_words(h)}"
        parts += town(_lifted(layout, h, lift), seat, title, layout.size / 50)
    return parts


def _lifted(layout: HexLayout, h: str, lift: float) -> tuple[float, float]:
    x, y = layout.centre(parse_hex(h))
    return x, y - lift


def city(at: tuple[float, float], seat: int, title: str, s: float = 1.0) -> list[str]:
    """A city token: a house in the owner's colour with the owner's number."""
    x, y = at
    w, h = 17 * s, 14 * s
    outline = [(x - w, y + h), (x - w, y - 2 * s), (x, y - h - 4 * s), (x + w, y - 2 * s)]
    outline.append((x + w, y + h))
    points = " ".join(xy(p) for p in outline)
    return [
        svg.titled("polygon", title, points=points, fill=seat_colour(seat), **PIECE),
        text(x, y + 7 * s, str(seat + 1), 14, fill="#ffffff", font_weight="bold"),
    ]


def town(at: tuple[float, float], seat: int, title: str, s: float = 1.0) -> list[str]:
    """A town token: a disc in the owner's colour with the owner's number."""
    x, y = at
    return [
        svg.titled("circle", title, cx=x, cy=y, r=12 * s, fill=seat_colour(seat), **PIECE),
        text(x, y + 5 * s, str(seat + 1), 13, fill="#ffffff", font_weight="bold"),
    ]


# --- a highlighted command --------------------------------------------------------------


def rail_joins(state: dict[str, Any], edge: str, players: list[str]) -> tuple[list[str], str]:
    """The hexes of the towns and cities a rail on `edge` would newly connect, and what
    it would connect, in words."""
    board = board_of(state)
    before, after = state["rails"], [*state["rails"], edge]
    pieces: list[str] = []
    said = []
    for c, seat in sorted(state["cities"].items()):
        old = set(
            rail_rules.connected_towns(c, before, state["cities"], state["towns"], board=board)
        )
        new = rail_rules.connected_towns(c, after, state["cities"], state["towns"], board=board)
        fresh = [t for t in new if t not in old]
        if fresh:
            pieces += [c, *fresh]
            towns = " and ".join(hex_words(t) for t in fresh)
            said.append(f"{name_of(players, seat)}'s city {hex_words(c)} to town {towns}")
    return sorted(set(pieces)), "; ".join(said)


def _marks(marks: dict[str, Any], board: Board, layout: HexLayout) -> list[str]:
    parts = []
    for key in marks.get("hexes", []):
        h = parse_hex(key)
        if board.on_map(h):
            parts.append(
                svg.polygon(layout.points(h, 0.9), "none", stroke=HIGHLIGHT, stroke_width=5)
            )
    for key in marks.get("pieces", []):
        x, y = layout.centre(parse_hex(key))
        ring = {"stroke": HIGHLIGHT, "stroke_width": 3, "stroke_dasharray": "5 3"}
        parts.append(svg.circle(x, y, layout.size * 0.55, "none", **ring))
    edge = marks.get("edge")
    if edge:
        (x1, y1), (x2, y2) = layout.edge(edge)
        ends = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
        new = {"stroke": HIGHLIGHT, "stroke_width": 10, "stroke_linecap": "round"}
        parts.append(svg.titled("line", f"New rail {edge_words(edge)}", **ends, **new))
        middle = ((x1 + x2) / 2, (y1 + y2) / 2 - 8)
        parts.append(text(*middle, "new rail", 12, fill=HIGHLIGHT, font_weight="bold"))
    return parts
