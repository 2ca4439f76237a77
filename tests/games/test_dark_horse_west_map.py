"""Dark Horse West's house territory map: every constraint the rule text and the house brief
set, computed from the data file, the geometry rails will use, and the drawn picture."""

import importlib.util
import math
from collections import Counter
from pathlib import Path

import pytest

from referee.games.dark_horse_west import hexes as hx
from referee.games.dark_horse_west.hexes import HEXES, TILES, distance, neighbours

ROOT = Path(__file__).resolve().parents[2]
CITY_HEXES = sorted(h for h, cell in HEXES.items() if cell["kind"] == "non_resource")
RESOURCE_HEXES = {h for h, cell in HEXES.items() if cell["kind"] != "non_resource"}
OUT_OF_BOUNDS = {h for h, cell in HEXES.items() if cell["two_player_out_of_bounds"]}
# the map and the ring of off-map hexes around it
NEAR = sorted(set(HEXES) | {n for h in HEXES for n in neighbours(h)})


def pixel(h):
    """A hex's centre, in hex sizes (centre to corner), x east and y south."""
    q, r = h
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def map_centre():
    xs, ys = zip(*(pixel(h) for h in HEXES), strict=True)
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def from_centre(h):
    (x, y), (cx, cy) = pixel(h), map_centre()
    return math.hypot(x - cx, y - cy)


def touching(h, among):
    return [n for n in neighbours(h) if n in among]


def groups(cells):
    """The connected groups (by shared sides) of a set of hexes."""
    left, found = set(cells), []
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            h = todo.pop()
            group.add(h)
            todo += [n for n in touching(h, left)]
            left -= set(touching(h, left))
        found.append(group)
    return found


def spread(candidates, count, gap, placed=()):
    """Every choice of `count` more hexes, each at least `gap` from the others and `placed`."""
    if count == 0:
        yield placed
        return
    for i, h in enumerate(candidates):
        if all(distance(h, p) >= gap for p in placed):
            yield from spread(candidates[i + 1 :], count - 1, gap, (*placed, h))


def cities_fit(candidates, players, *, first=None):
    """A placement of 3 cities per player: the first ones at distance >= 3 from each other
    (two empty hexes between), all at distance >= 2 (one empty hex between), or None."""
    firsts = [first] if first else spread(candidates, players, 3)
    for initial in firsts:
        rest = [h for h in candidates if h not in initial]
        for later in spread(rest, 2 * players, 2, initial):
            return later
    return None


def mirror_east_west(h):
    q, r = h
    return 8 - q - r, r


def mirror_north_south(h):
    q, r = h
    return q + r - 3, 6 - r


# --- the grid ---


def test_the_map_is_a_landscape_hex_grid_of_seven_rows_nine_and_eight_wide():
    rows = Counter(r for _, r in HEXES)
    assert [rows[r] for r in range(7)] == [9, 8, 9, 8, 9, 8, 9]
    xs, ys = zip(*(pixel(h) for h in HEXES), strict=True)
    assert max(xs) - min(xs) + math.sqrt(3) > max(ys) - min(ys) + 2  # wider than tall
    assert hx.MAP["_note"].startswith("House content")


def test_every_hex_is_one_of_the_three_printed_kinds_and_says_only_what_its_kind_has():
    for cell in HEXES.values():
        assert cell["kind"] in ("non_resource", "resource", "revealed_resource")
        assert (cell["spot"] is not None) == (cell["kind"] == "resource")
        assert (cell["resource"] is not None) == (cell["kind"] == "revealed_resource")
        assert cell["resource"] in (None, "food", "wood")
        assert not cell["rugged"] or cell["kind"] == "resource"


def test_the_map_is_symmetric_so_every_corner_and_side_plays_alike():
    for h, cell in HEXES.items():
        for mirror in (mirror_east_west, mirror_north_south):
            other = HEXES[mirror(h)]
            for field in ("kind", "spot", "rugged", "resource"):
                assert other[field] == cell[field], (h, mirror.__name__, field)
            assert (other["safe_zone"] is None) == (cell["safe_zone"] is None)
        east_west = HEXES[mirror_east_west(h)]["two_player_out_of_bounds"]
        assert east_west == cell["two_player_out_of_bounds"]


# --- tile spots ---


def test_twenty_tile_spots_four_c_four_b_twelve_a():
    assert len(hx.spots()) == 20
    assert Counter(HEXES[h]["spot"] for h in hx.spots()) == {"A": 12, "B": 4, "C": 4}


def test_b_spots_are_the_top_two_and_the_bottom_two():
    top, bottom = min(r for _, r in HEXES), max(r for _, r in HEXES)
    assert sorted(r for _, r in hx.spots("B")) == [top, top, bottom, bottom]


def test_eight_rugged_spots_are_the_eight_spots_nearest_the_centre_all_marked_a():
    rugged = {h for h in hx.spots() if HEXES[h]["rugged"]}
    assert len(rugged) == 8
    assert rugged == set(sorted(hx.spots(), key=from_centre)[:8])
    assert {HEXES[h]["spot"] for h in rugged} == {"A"}
    assert len(groups(rugged)) == 1


def test_the_dead_centre_is_two_rugged_spots_side_by_side():
    nearest = sorted(HEXES, key=from_centre)
    a, b = nearest[:2]
    assert from_centre(a) == pytest.approx(from_centre(b))
    assert from_centre(b) < from_centre(nearest[2])
    assert HEXES[a]["rugged"] and HEXES[b]["rugged"]
    assert distance(a, b) == 1 and a[1] == b[1]  # neighbours in the same row


def test_the_ore_c_spots_lie_near_each_safe_zone_but_not_in_it():
    starts = [h for c in hx.SAFE_ZONES for h in hx.safe_zone(c) if h in CITY_HEXES]
    for h in hx.spots("C"):
        assert not HEXES[h]["rugged"]
        assert min(distance(h, start) for start in starts) == 2  # one rail away


# --- safe zones ---


def test_four_corner_safe_zones_each_with_printed_food_and_wood_and_a_city_hex_touching_three():
    cx, cy = map_centre()
    for corner in hx.SAFE_ZONES:
        zone = hx.safe_zone(corner)
        printed = [h for h in zone if HEXES[h]["kind"] == "revealed_resource"]
        cities = [h for h in zone if HEXES[h]["kind"] == "non_resource"]
        assert sorted(HEXES[h]["resource"] for h in printed) == ["food", "wood"]
        assert distance(*printed) == 1 and cities
        for city in cities:
            assert all(distance(city, h) == 1 for h in printed)
            assert touching(city, set(hx.spots()))  # so it touches three resource hexes
        north, west = corner.startswith("north"), corner.endswith("west")
        for h in zone:
            x, y = pixel(h)
            assert (y < cy) == north and (x < cx) == west
    printed_all = {h for h, cell in HEXES.items() if cell["kind"] == "revealed_resource"}
    assert len(printed_all) == 8
    assert printed_all == {h for c in hx.SAFE_ZONES for h in hx.safe_zone(c)} & printed_all


def test_all_four_players_may_start_in_a_safe_zone():
    starts = [h for c in hx.SAFE_ZONES for h in hx.safe_zone(c) if h in CITY_HEXES]
    assert len(starts) == 4
    assert all(distance(a, b) >= 3 for a in starts for b in starts if a != b)


# --- cities ---


def test_every_city_hex_touches_at_least_two_resource_hexes():
    for h in CITY_HEXES:
        assert len(touching(h, RESOURCE_HEXES)) >= 2, h


def test_first_cities_never_share_a_resource_hex_so_two_first_towns_always_fit():
    for a in CITY_HEXES:
        for b in CITY_HEXES:
            if distance(a, b) >= 3:
                assert not set(touching(a, RESOURCE_HEXES)) & set(touching(b, RESOURCE_HEXES))


def test_four_players_fit_three_cities_each_under_the_spacing_rules():
    placed = cities_fit(CITY_HEXES, 4)
    assert placed is not None and len(set(placed)) == 12
    assert all(distance(a, b) >= 2 for a in placed for b in placed if a != b)
    assert all(distance(a, b) >= 3 for a in placed[:4] for b in placed[:4] if a != b)


def test_four_players_fit_three_cities_each_even_when_all_start_in_safe_zones():
    starts = tuple(h for c in hx.SAFE_ZONES for h in hx.safe_zone(c) if h in CITY_HEXES)
    assert cities_fit(CITY_HEXES, 4, first=starts) is not None


# --- two players ---


def test_the_out_of_bounds_area_is_one_region_of_seven_spots_and_no_c():
    assert len(groups(OUT_OF_BOUNDS)) == 1
    inside = [h for h in OUT_OF_BOUNDS if HEXES[h]["kind"] == "resource"]
    assert len(inside) == 7
    assert not [h for h in inside if HEXES[h]["spot"] == "C"]
    assert not [h for h in OUT_OF_BOUNDS if HEXES[h]["safe_zone"]]


def test_two_players_use_exactly_the_in_bounds_spots():
    in_bounds = [h for h in hx.spots() if hx.in_bounds(h, players=2)]
    rugged_tiles = sum(t["rugged"] for t in TILES)
    assert len(in_bounds) == len(TILES) - rugged_tiles - 1 == 13


def test_two_players_get_two_mirrored_halves_each_with_two_safe_zones():
    city_hexes = [h for h in CITY_HEXES if hx.in_bounds(h, players=2)]
    west, east = sorted(groups(city_hexes), key=lambda g: min(pixel(h)[0] for h in g))
    assert {mirror_east_west(h) for h in west} == east
    for half, side in ((west, "west"), (east, "east")):
        corners = {HEXES[h]["safe_zone"] for h in half} - {None}
        assert corners == {f"north{side}", f"south{side}"}
    shared = [h for h in hx.spots() if touching(h, west) and touching(h, east)]
    assert len(shared) == 1 and hx.in_bounds(shared[0], players=2)


def test_two_player_city_hexes_touch_two_in_bounds_resource_hexes_and_fit_the_cities():
    in_bounds = {h for h in HEXES if hx.in_bounds(h, players=2)}
    city_hexes = sorted(set(CITY_HEXES) & in_bounds)
    for h in city_hexes:
        assert len(touching(h, RESOURCE_HEXES & in_bounds)) >= 2, h
    assert cities_fit(city_hexes, 2) is not None
    assert hx.in_bounds(city_hexes[0], players=4) and not hx.in_bounds((-1, 0), players=4)
    assert all(hx.in_bounds(h, players=3) for h in OUT_OF_BOUNDS)


# --- tiles ---


def test_twenty_tiles_seven_food_six_wood_seven_ore_two_of_each_rugged():
    assert len({t["id"] for t in TILES}) == 20
    assert Counter(t["resource"] for t in TILES) == {"food": 7, "wood": 6, "ore": 7}
    rugged = Counter(t["resource"] for t in TILES if t["rugged"])
    assert rugged == {"food": 2, "wood": 2, "ore": 2}


def test_plain_ore_covers_the_c_spots_even_after_two_players_drop_a_random_tile():
    plain_ore = [t for t in TILES if t["resource"] == "ore" and not t["rugged"]]
    assert len(plain_ore) - 1 >= len(hx.spots("C")) == 4


# --- geometry ---


@pytest.mark.parametrize("h", NEAR)
def test_neighbours_are_six_at_distance_one_and_symmetric(h):
    around = neighbours(h)
    assert len(set(around)) == 6
    for n in around:
        assert distance(h, n) == distance(n, h) == 1
        assert h in neighbours(n)
    assert distance(h, h) == 0


def test_distance_counts_steps_and_keeps_the_triangle_inequality():
    assert distance((0, 0), (3, 0)) == 3
    assert distance((0, 0), (-3, 6)) == 6
    assert distance((1, 0), (-2, 6)) == 6
    sample = NEAR[::7]
    for a in sample:
        for b in sample:
            assert distance(a, b) == distance(b, a)
            assert all(distance(a, b) <= distance(a, c) + distance(c, b) for c in sample)


@pytest.mark.parametrize("h", NEAR)
def test_a_hex_has_six_sides_and_six_vertices_whose_ends_are_its_own(h):
    sides, corners = hx.sides(h), hx.vertices(h)
    assert len(set(sides)) == 6 and len(set(corners)) == 6
    for side, n in zip(sides, neighbours(h), strict=True):
        assert set(hx.parse_edge(side)) == {h, n}
        ends = hx.edge_ends(side)
        assert len(set(ends)) == 2
        assert all(end in corners and end in hx.vertices(n) for end in ends)
        assert all(side in hx.vertex_edges(end) for end in ends)
    for corner in corners:
        assert h in hx.parse_vertex(corner)
        assert all(corner in hx.vertices(other) for other in hx.parse_vertex(corner))


@pytest.mark.parametrize("vertex", hx.map_vertices())
def test_every_vertex_joins_three_edges_each_ending_there(vertex):
    edges = hx.vertex_edges(vertex)
    assert len(set(edges)) == 3
    assert all(vertex in hx.edge_ends(edge) for edge in edges)
    on_map = [h for h in hx.parse_vertex(vertex) if hx.on_map(h)]
    assert on_map and hx.vertex_on_map(vertex)
    # an outer corner of the border, with one map hex, has two edges on the map
    assert sum(hx.edge_on_map(edge) for edge in edges) == (2 if len(on_map) == 1 else 3)


def test_the_map_is_one_piece_without_holes_and_rails_may_follow_its_border():
    edges, corners = hx.map_edges(), hx.map_vertices()
    assert len(corners) - len(edges) + len(HEXES) == 1  # Euler, for a disc
    assert all(hx.edge_on_map(edge) for edge in edges)
    border = [e for e in edges if not all(hx.on_map(h) for h in hx.parse_edge(e))]
    assert len(border) == 6 * len(HEXES) - 2 * (len(edges) - len(border))
    assert "-1,0|0,0" in border and not hx.edge_on_map("-2,0|-1,0")


def test_keys_have_exactly_one_spelling():
    assert hx.hex_key((-3, 6)) == "-3,6" and hx.parse_hex("-3,6") == (-3, 6)
    assert hx.edge_key((1, 0), (0, 0)) == "0,0|1,0"
    assert hx.vertex_key((1, 0), (0, 1), (0, 0)) == "0,0|0,1|1,0"
    for bad in ("+1,0", "01,0", " 1,0", "1,0,0", "1;0"):
        with pytest.raises(ValueError):
            hx.parse_hex(bad)
    for bad in ("1,0|0,0", "0,0|2,0", "0,0|0,0", "0,0"):
        with pytest.raises(ValueError):
            hx.parse_edge(bad)
    for bad in ("0,1|0,0|1,0", "0,0|1,0|2,0", "0,0|1,0"):
        with pytest.raises(ValueError):
            hx.parse_vertex(bad)


# --- the picture ---


def test_the_committed_picture_is_what_the_drawing_tool_draws_from_the_data_now():
    path = ROOT / "docs" / "tools" / "draw_map.py"
    spec = importlib.util.spec_from_file_location("draw_map", path)
    assert spec and spec.loader
    draw_map = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw_map)
    committed = (ROOT / "docs" / "rules" / "dark-horse-west-map.svg").read_text("utf-8")
    assert committed == draw_map.render(), "run .venv/bin/python docs/tools/draw_map.py"
