"""The Dark Horse West territory map: its hexes, and the sides and corners rails use.

Hexes are pointy-top, in axial coordinates (q, r): r is the row counted from the top and
q grows eastwards along a row, so the north-west corner hex is (0, 0) and rows further
down start at smaller q. Every key below is a string, fit for JSON keys and event payloads:

- a hex is "q,r", e.g. "0,0" or "-3,6";
- an edge (a hex side, where one rail lies) is named by the two hexes it separates,
  lower (q, r) first: "q1,r1|q2,r2";
- a vertex (a hex corner, where rails meet) is named by the three hexes meeting there,
  in (q, r) order: "a|b|c".

Each edge and vertex has exactly one spelling; `parse_edge` and `parse_vertex` refuse any
other. The grid itself is infinite: an edge or vertex is on the map when at least one of
its hexes is, so rails may run along the map's outer border (edges with one side off the
map) but never wholly outside it. The map, the two-player out-of-bounds area and the 20
tiles are house content, read from ../dark_horse_west_map.json.
"""

from functools import lru_cache
from typing import Any

from .._data import load

Hex = tuple[int, int]

# Counter-clockwise from east: E, NE, NW, W, SW, SE. Consecutive directions are
# neighbours of each other, so hex, hex + d[i] and hex + d[i+1] meet at one vertex.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

SAFE_ZONES = ("northwest", "northeast", "southwest", "southeast")


def hex_key(h: Hex) -> str:
    """The key "q,r" of a hex."""
    return f"{h[0]},{h[1]}"


# the pure key functions below are asked the same few hundred keys again and again by the
# rail and access searches: remembered (bounded; a key that does not parse is not kept)
KEYS_KEPT = 4096


@lru_cache(maxsize=KEYS_KEPT)
def parse_hex(key: str) -> Hex:
    """The hex named by "q,r"; ValueError if it is not spelled that way."""
    q, r = (int(part) for part in key.split(","))
    if hex_key((q, r)) != key:
        raise ValueError(f"not a hex key: {key!r}")
    return q, r


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around a hex, counter-clockwise from east (on the map or not)."""
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Steps from hex to hex; 1 between neighbours, 3 leaves two empty hexes between."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def edge_key(a: Hex, b: Hex) -> str:
    """The key of the side between two neighbouring hexes; ValueError if they do not touch."""
    if distance(a, b) != 1:
        raise ValueError(f"hexes {hex_key(a)} and {hex_key(b)} share no side")
    return "|".join(hex_key(h) for h in sorted((a, b)))


def parse_edge(key: str) -> tuple[Hex, Hex]:
    """The two hexes an edge key names; ValueError unless it is the edge's one spelling."""
    a, b = (parse_hex(part) for part in key.split("|"))
    if edge_key(a, b) != key:
        raise ValueError(f"not an edge key: {key!r}")
    return a, b


def sides(h: Hex) -> list[str]:
    """The six edges of a hex, counter-clockwise from its east side."""
    return list(_sides(h))


@lru_cache(maxsize=KEYS_KEPT)
def _sides(h: Hex) -> tuple[str, ...]:
    return tuple(edge_key(h, n) for n in neighbours(h))


@lru_cache(maxsize=KEYS_KEPT)
def vertex_key(a: Hex, b: Hex, c: Hex) -> str:
    """The key of the corner where three mutually neighbouring hexes meet."""
    if not distance(a, b) == distance(b, c) == distance(a, c) == 1:
        raise ValueError(f"hexes {hex_key(a)}, {hex_key(b)}, {hex_key(c)} meet at no corner")
    return "|".join(hex_key(h) for h in sorted((a, b, c)))


@lru_cache(maxsize=KEYS_KEPT)
def parse_vertex(key: str) -> tuple[Hex, Hex, Hex]:
    """The three hexes a vertex key names; ValueError unless it is the vertex's one spelling."""
    a, b, c = (parse_hex(part) for part in key.split("|"))
    if vertex_key(a, b, c) != key:
        raise ValueError(f"not a vertex key: {key!r}")
    return a, b, c


def vertices(h: Hex) -> list[str]:
    """The six corners of a hex, counter-clockwise from the one between its E and NE sides."""
    return list(corners(h))


@lru_cache(maxsize=KEYS_KEPT)
def corners(h: Hex) -> tuple[str, ...]:
    """`vertices`, as a tuple (remembered)."""
    around = neighbours(h)
    return tuple(vertex_key(h, around[i], around[(i + 1) % 6]) for i in range(6))


# an edge always has the same two ends: remembered (the map has 211 edges; only keys that
# parse are kept), since the rail searches ask for them again and again
@lru_cache(maxsize=1024)
def edge_ends(edge: str) -> tuple[str, str]:
    """The two vertices a rail on this edge joins: where its hexes meet their two common
    neighbours."""
    a, b = parse_edge(edge)
    c, d = (n for n in neighbours(a) if distance(n, b) == 1)
    return vertex_key(a, b, c), vertex_key(a, b, d)


def vertex_edges(vertex: str) -> list[str]:
    """The three edges meeting at a vertex (in the infinite grid; see `edge_on_map`)."""
    return list(_vertex_edges(vertex))


@lru_cache(maxsize=KEYS_KEPT)
def _vertex_edges(vertex: str) -> tuple[str, str, str]:
    a, b, c = parse_vertex(vertex)
    return edge_key(a, b), edge_key(a, c), edge_key(b, c)


class Board:
    """A territory map: its hexes by (q, r), its tiles by id and its dead centre (the
    Wild Frontiers hexes), read from data in the format of ../dark_horse_west_map.json
    (the house map, or a moderator's own given as the option `map`)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.hexes: dict[Hex, dict[str, Any]] = {(h["q"], h["r"]): h for h in data["hexes"]}
        self.tiles: dict[str, dict[str, Any]] = {t["id"]: t for t in data["tiles"]}
        self.dead_centre: tuple[str, ...] = tuple(data.get("dead_centre", ()))
        self._at: dict[str, tuple[str, ...]] = {}
        self._edges: dict[str, bool] = {}

    def hexes_at(self, vertex: str) -> tuple[str, ...]:
        """The keys of the map hexes that have this vertex as a corner (remembered)."""
        found = self._at.get(vertex)
        if found is None:
            found = tuple(hex_key(h) for h in parse_vertex(vertex) if self.on_map(h))
            if len(self._at) < KEYS_KEPT:
                self._at[vertex] = found
        return found

    def cell(self, key: str) -> dict[str, Any]:
        """The map's entry for a hex named by its key."""
        return self.hexes[parse_hex(key)]

    def on_map(self, h: Hex) -> bool:
        """Whether the hex is printed on the territory map."""
        return h in self.hexes

    def in_bounds(self, h: Hex, *, players: int) -> bool:
        """Whether a city or town may stand on the hex (the blue area is out with two)."""
        return self.on_map(h) and not (players == 2 and self.hexes[h]["two_player_out_of_bounds"])

    def edge_on_map(self, edge: str) -> bool:
        """Whether a rail may lie on the edge: at least one of its two hexes is on the map
        (remembered: the rail searches ask for the same edges again and again)."""
        found = self._edges.get(edge)
        if found is None:
            found = any(self.on_map(h) for h in parse_edge(edge))
            if len(self._edges) < KEYS_KEPT:
                self._edges[edge] = found
        return found

    def vertex_on_map(self, vertex: str) -> bool:
        """Whether the vertex is a corner of some hex on the map."""
        return any(self.on_map(h) for h in parse_vertex(vertex))

    def edges(self) -> list[str]:
        """Every edge on the map (every side of every map hex), each once."""
        return sorted({edge for h in self.hexes for edge in sides(h)})

    def vertices(self) -> list[str]:
        """Every vertex on the map (every corner of every map hex), each once."""
        return sorted({vertex for h in self.hexes for vertex in vertices(h)})

    def spots(self, letter: str | None = None) -> list[Hex]:
        """The resource hexes where tiles lie, or only those marked `letter` (A, B, C)."""
        return [
            h for h, cell in self.hexes.items() if cell["spot"] and letter in (None, cell["spot"])
        ]

    def safe_zone(self, corner: str) -> list[Hex]:
        """The hexes of one corner's Safe Zone."""
        return [h for h, cell in self.hexes.items() if cell["safe_zone"] == corner]


MAP: dict[str, Any] = load("dark_horse_west_map.json")
HOUSE = Board(MAP)
HEXES: dict[Hex, dict[str, Any]] = HOUSE.hexes
TILES: list[dict[str, Any]] = MAP["tiles"]


def on_map(h: Hex) -> bool:
    """Whether the hex is on the house map."""
    return HOUSE.on_map(h)


def in_bounds(h: Hex, *, players: int) -> bool:
    """Whether a city or town may stand on the hex of the house map."""
    return HOUSE.in_bounds(h, players=players)


def edge_on_map(edge: str) -> bool:
    """Whether a rail may lie on the edge of the house map."""
    return HOUSE.edge_on_map(edge)


def vertex_on_map(vertex: str) -> bool:
    """Whether the vertex is a corner of some hex of the house map."""
    return HOUSE.vertex_on_map(vertex)


def map_edges() -> list[str]:
    """Every edge on the house map."""
    return HOUSE.edges()


def map_vertices() -> list[str]:
    """Every vertex on the house map."""
    return HOUSE.vertices()


def spots(letter: str | None = None) -> list[Hex]:
    """The tile spots of the house map, or only those marked `letter`."""
    return HOUSE.spots(letter)


def safe_zone(corner: str) -> list[Hex]:
    """The hexes of one corner's Safe Zone on the house map."""
    return HOUSE.safe_zone(corner)
