"""Rails, access and city scoring for Dark Horse West: pure functions over plain data.

The rule text's "PLACING CITIES, TOWNS, AND RAILS" and "City Scoring Example", as decided in
docs/rules/dark-horse-west.md ("Rails, access and city scoring"). Data shapes, every key
spelled as hexes.py spells it:

- `rails`: the edges ("q1,r1|q2,r2") that carry a rail, as a list, set or the keys of a
  dict; at most one rail per edge, and rails belong to nobody;
- `cities`, `towns`: {hex key ("q,r"): seat}, who owns the city or town on each hex;
- a seat is an int; `players` is the number of players (two players leave the blue area
  out of bounds for cities and towns; rails may cross it).

A rail touches a hex when one of its two end vertices is a corner of that hex: the two hexes
it separates and the two at its ends. Rails join where they share a vertex; a rail network
is a group of rails joined that way. Every result is a sorted list (or a dict with sorted
keys), whatever the order of the input, so nothing depends on set or dict order. A key
that is not spelled as hexes.py spells it raises ValueError. City and town sites are
non-resource and resource hexes of the map, in bounds for `players`, never occupied.
"""

from collections import deque
from collections.abc import Collection, Mapping
from functools import lru_cache

from .hexes import (
    HOUSE,
    Board,
    corners,
    distance,
    edge_ends,
    hex_key,
    parse_hex,
    sides,
    vertex_edges,
)

Rails = Collection[str]
Owners = Mapping[str, int]

INITIAL_CITY_GAP = 3  # setup: at least two empty hexes between cities
CITY_GAP = 2  # once the game starts: at least one empty hex between cities


def rail_networks(rails: Rails) -> list[list[str]]:
    """The rail networks: the rails grouped by shared vertices, each group sorted."""
    at = _rails_at(rails)
    seen: set[str] = set()
    networks = []
    for rail in sorted(set(rails)):
        if rail not in seen:
            network = {r for v in _joined(set(edge_ends(rail)), at) for r in at[v]}
            seen |= network
            networks.append(sorted(network))
    return networks


def network_vertices(network: Rails) -> list[str]:
    """The vertices the rails of a network join."""
    return sorted({v for rail in network for v in edge_ends(rail)})


def touched_hexes(network: Rails, *, board: Board = HOUSE) -> list[str]:
    """The map hexes a rail of the network touches (one of its ends is their corner)."""
    return sorted({h for v in network_vertices(network) for h in _hexes_at(v, board)})


def reached_vertices(seat: int, rails: Rails, cities: Owners, towns: Owners) -> list[str]:
    """The corners of the seat's city and town hexes and every vertex rails join to them."""
    own = _owned(seat, cities) + _owned(seat, towns)
    return sorted(_joined(_corners(own), _rails_at(rails)))


def may_place_rail(
    edge: str, seat: int, rails: Rails, cities: Owners, towns: Owners, *, board: Board = HOUSE
) -> bool:
    """Whether the seat may lay a rail on the edge: on the map, free, and one end reached."""
    if not board.edge_on_map(edge) or edge in rails:
        return False
    reached = set(reached_vertices(seat, rails, cities, towns))
    return any(v in reached for v in edge_ends(edge))


def rail_sites(
    seat: int, rails: Rails, cities: Owners, towns: Owners, *, board: Board = HOUSE
) -> list[str]:
    """Every edge where the seat may lay a rail now."""
    own = tuple(_owned(seat, cities) + _owned(seat, towns))
    return list(_rail_sites(own, frozenset(rails), board))


# asked at every rail a seat lays and every rail a bot weighs: remembered by the rails and
# the seat's pieces it depends on
@lru_cache(maxsize=256)
def _rail_sites(own: tuple[str, ...], rails: frozenset[str], board: Board) -> tuple[str, ...]:
    reached = _joined(_corners(list(own)), _rails_at(rails))
    edges = {e for v in reached for e in vertex_edges(v)}
    return tuple(sorted(e for e in edges if board.edge_on_map(e) and e not in rails))


def rails_to(seat: int, rails: Rails, cities: Owners, *, board: Board = HOUSE) -> dict[str, int]:
    """For every vertex rails on the map can reach from the seat's cities, the fewest
    rails to lay to join it to one of them: 0 where rails join it already (a rail laid is
    crossed for nothing)."""
    return dict(_rails_to(tuple(_owned(seat, cities)), frozenset(rails), board))


# asked once a played-out table of a Solitaire search: remembered by what it depends on
@lru_cache(maxsize=256)
def _rails_to(
    own: tuple[str, ...], rails: frozenset[str], board: Board
) -> tuple[tuple[str, int], ...]:
    far = dict.fromkeys(sorted(_corners(list(own))), 0)
    todo = deque(far)
    while todo:
        v = todo.popleft()
        for edge in vertex_edges(v):
            if not board.edge_on_map(edge):
                continue
            step = 0 if edge in rails else 1
            w = next(end for end in edge_ends(edge) if end != v)
            if far[v] + step < far.get(w, far[v] + step + 1):
                far[w] = far[v] + step
                (todo.appendleft if step == 0 else todo.append)(w)
    return tuple(sorted(far.items()))


def free_city_hexes(cities: Owners, *, players: int, board: Board = HOUSE) -> list[str]:
    """The empty hexes where a city may stand once the game has started, rails aside."""
    return _free_city_hexes(cities, CITY_GAP, players, board)


def free_town_hexes(towns: Owners, *, players: int, board: Board = HOUSE) -> list[str]:
    """The in-bounds resource hexes no town stands on, rails and access aside."""
    return [
        hex_key(h)
        for h, cell in board.hexes.items()
        if cell["kind"] != "non_resource"
        and hex_key(h) not in towns
        and board.in_bounds(h, players=players)
    ]


def access(seat: int, rails: Rails, cities: Owners, *, board: Board = HOUSE) -> list[str]:
    """The hexes around the seat's cities or touched by rails connected to one of them."""
    return list(_access(tuple(_owned(seat, cities)), frozenset(rails), board))


# legal moves ask for one seat's access many times over one state (every card, town and
# look it might name): remembered by what it depends on, the seat's cities and the rails
@lru_cache(maxsize=256)
def _access(own: tuple[str, ...], rails: frozenset[str], board: Board) -> tuple[str, ...]:
    # a city's corners are corners of exactly the hexes around it
    joined = _joined(_corners(list(own)), _rails_at(rails))
    return tuple(sorted({h for v in joined for h in _hexes_at(v, board)} - set(own)))


def town_sites(
    seat: int, rails: Rails, cities: Owners, towns: Owners, *, players: int, board: Board = HOUSE
) -> list[str]:
    """The empty, in-bounds resource hexes where the seat may build a town."""
    return [
        h
        for h in access(seat, rails, cities, board=board)
        if _is_resource(h, board)
        and h not in towns
        and board.in_bounds(parse_hex(h), players=players)
    ]


def visible_tiles(
    seat: int, rails: Rails, cities: Owners, face_down: Collection[str], *, board: Board = HOUSE
) -> list[str]:
    """The face-down tiles the seat may look at: those on hexes it has access to."""
    return [h for h in access(seat, rails, cities, board=board) if h in face_down]


def initial_city_sites(
    cities: Owners,
    *,
    players: int,
    safe_zone_only: bool = False,
    board: Board = HOUSE,
    gap: int = INITIAL_CITY_GAP,
) -> list[str]:
    """Setup's city sites: two empty hexes from every city (Wild Frontiers: a Safe Zone)."""
    return [
        h
        for h in _free_city_hexes(cities, gap, players, board)
        if not safe_zone_only or board.cell(h)["safe_zone"]
    ]


def city_sites(
    seat: int, rails: Rails, cities: Owners, *, players: int, board: Board = HOUSE
) -> list[str]:
    """New city sites: an empty hex from every city, a rail from the seat's city on a side."""
    placed = tuple(sorted(cities.items()))
    return list(_city_sites(seat, frozenset(rails), placed, players, board))


# asked for every rail a bot weighs: remembered by the rails and cities it depends on
@lru_cache(maxsize=256)
def _city_sites(
    seat: int,
    rails: frozenset[str],
    placed: tuple[tuple[str, int], ...],
    players: int,
    board: Board,
) -> tuple[str, ...]:
    cities = dict(placed)
    at = _rails_at(rails)
    connected = {r for v in _joined(_corners(_owned(seat, cities)), at) for r in at.get(v, [])}
    return tuple(
        h
        for h in _free_city_hexes(cities, CITY_GAP, players, board)
        if connected.intersection(sides(parse_hex(h)))
    )


def connected_towns(
    city: str, rails: Rails, cities: Owners, towns: Owners, *, board: Board = HOUSE
) -> list[str]:
    """The owner's towns that one rail network touches together with the city."""
    return _connected(city, _rails_at(rails), cities, towns, board)


def _connected(
    city: str, at: dict[str, list[str]], cities: Owners, towns: Owners, board: Board
) -> list[str]:
    # only vertices some rail ends at: neighbouring hexes alone do not connect
    on_rails = [v for v in _joined(_corners([city]), at) if v in at]
    reach = {h for v in on_rails for h in _hexes_at(v, board)}
    return [t for t in _owned(cities[city], towns) if t in reach]


def city_points(
    rails: Rails, cities: Owners, towns: Owners, *, board: Board = HOUSE
) -> dict[str, int]:
    """Each city's victory points: the towns of its owner connected to it by rails."""
    key = (frozenset(rails), tuple(sorted(cities.items())), tuple(sorted(towns.items())))
    return dict(_city_points(*key, board))


# every view shows the cities' points, and the pieces change far less often than views
# are asked for: remembered by the rails and pieces they depend on
@lru_cache(maxsize=256)
def _city_points(
    rails: frozenset[str],
    cities: tuple[tuple[str, int], ...],
    towns: tuple[tuple[str, int], ...],
    board: Board,
) -> tuple[tuple[str, int], ...]:
    at, owners, placed = _rails_at(rails), dict(cities), dict(towns)
    return tuple((c, len(_connected(c, at, owners, placed, board))) for c in sorted(owners))


def city_scores(
    rails: Rails, cities: Owners, towns: Owners, *, board: Board = HOUSE
) -> dict[int, int]:
    """Each seat's victory points from its cities (0 for a seat with towns but no city)."""
    points = city_points(rails, cities, towns, board=board)
    seats = sorted(set(cities.values()) | set(towns.values()))
    return {s: sum(p for c, p in points.items() if cities[c] == s) for s in seats}


def _owned(seat: int, pieces: Owners) -> list[str]:
    """The hexes of a seat's cities (or towns), sorted."""
    return sorted(h for h, owner in pieces.items() if owner == seat)


def _rails_at(rails: Rails) -> dict[str, list[str]]:
    """For each vertex, the rails ending there."""
    at: dict[str, list[str]] = {}
    for rail in sorted(set(rails)):
        for v in edge_ends(rail):
            at.setdefault(v, []).append(rail)
    return at


def _joined(start: set[str], at: dict[str, list[str]]) -> set[str]:
    """The start vertices and every vertex joined to one of them through rails."""
    joined, todo = set(start), list(start)
    while todo:
        for rail in at.get(todo.pop(), []):
            fresh = [v for v in edge_ends(rail) if v not in joined]
            joined.update(fresh)
            todo += fresh
    return joined


def _corners(hexes: list[str]) -> set[str]:
    """The vertices of the hexes."""
    return {v for h in hexes for v in corners(parse_hex(h))}


def _hexes_at(vertex: str, board: Board) -> tuple[str, ...]:
    """The map hexes that have this vertex as a corner."""
    return board.hexes_at(vertex)


def _is_resource(h: str, board: Board) -> bool:
    """Whether a town may stand on the hex: a tile spot or printed food or wood."""
    return bool(board.cell(h)["kind"] != "non_resource")


def _free_city_hexes(cities: Owners, gap: int, players: int, board: Board) -> list[str]:
    """The in-bounds non-resource hexes at least `gap` from every city."""
    return list(_free_city_hexes_of(tuple(sorted(cities)), gap, players, board))


@lru_cache(maxsize=256)
def _free_city_hexes_of(
    cities: tuple[str, ...], gap: int, players: int, board: Board
) -> tuple[str, ...]:
    taken = [parse_hex(c) for c in cities]
    return tuple(
        sorted(
            hex_key(h)
            for h, cell in board.hexes.items()
            if cell["kind"] == "non_resource"
            and board.in_bounds(h, players=players)
            and all(distance(h, c) >= gap for c in taken)
        )
    )
