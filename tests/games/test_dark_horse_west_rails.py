"""Dark Horse West rails, access and city scoring (referee/games/dark_horse_west/rails.py):
a test per decision in docs/rules/dark-horse-west.md, the rule text's City Scoring Example
rebuilt on the house map, and properties over random boards."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.dark_horse_west import hexes as hx
from referee.games.dark_horse_west import rails as rl

EDGES = hx.map_edges()
CITY_HEXES = sorted(hx.hex_key(h) for h, c in hx.HEXES.items() if c["kind"] == "non_resource")
RESOURCE_HEXES = sorted(hx.hex_key(h) for h in hx.HEXES if hx.hex_key(h) not in CITY_HEXES)

# The rule text's City Scoring Example on the house map (rows 0-3; one player, seat 0).
# C1 = 1,1 and C2 = 4,1 are the cities; T1 = 0,0 (printed food) and T2 = 2,0 (B) lie above
# C1, T3 = 4,0 (A) and T4 = 3,2 (rugged) to the far right, above and below C2, and T5 = 0,2
# (C) and T6 = 1,3 (A) below C1. Letters are the other hexes (F/W printed food/wood, A B C
# spots, a rugged A). '#' is a rail, '*' one of the three rails the text marks with stars.
#
#    / \ / \ / \ / \ / \ / \ / \ / \ / \
#   | T1|   | T2|   | T3|   | B |   | F |      row 0:  0,0 ... 8,0
#    \ / # # # / \ # * / \ / \ / \ / \ /
#     | W | C1#   #   # C2|   |   | W |        row 1:  0,1 ... 7,1
#    / \ / \ * # # # / \ / \ / \ / \ / \
#   |   | T5|   * a | T4| a |   | C |   |      row 2: -1,2 ... 7,2
#    \ / \ / \ / \ / \ / \ / \ / \ / \ /
#     |   |   | T6| a | a | A |   |   |        row 3: -1,3 ... 6,3
#      \ / \ / \ / \ / \ / \ / \ / \ /
#
# One network runs from C1's corners to T1 and T2 above it and on, past the hex 3,1 west of
# C2, to T3 and T4 without touching C2; C2's own rail (its west side) touches T3 and T4 in a
# network of its own. No rail touches T5 or T6. The stars: 3,1|4,0 joins C2's rail to the
# big network, 1,1|1,2 (C1's south-east side) reaches T5, and 1,2|2,2 reaches T6.
EXAMPLE_CITIES = {"1,1": 0, "4,1": 0}
EXAMPLE_TOWNS = {"0,0": 0, "2,0": 0, "4,0": 0, "3,2": 0, "0,2": 0, "1,3": 0}
EXAMPLE_RAILS = [
    "0,1|1,0",  # C1's north-west corner to T1
    "1,0|1,1",  # C1's north-west side (touches T2)
    "1,1|2,0",  # C1's north-east side
    "1,1|2,1",  # C1's east side
    "1,2|2,1",
    "2,1|2,2",
    "2,2|3,1",  # touches T4
    "2,1|3,1",
    "3,0|3,1",  # touches T3
    "3,1|4,1",  # C2's west side: C2, T3 and T4, apart from the rest
]
STARS = ["3,1|4,0", "1,1|1,2", "1,2|2,2"]


# --- rails on edges, touching hexes, joined through vertices ---


def test_a_rail_touches_the_two_hexes_it_separates_and_the_two_at_its_ends():
    assert rl.touched_hexes(["1,1|2,1"]) == ["1,1", "1,2", "2,0", "2,1"]
    assert not {"0,1", "3,1", "2,2"} & set(rl.touched_hexes(["1,1|2,1"]))


def test_a_rail_on_the_border_touches_only_the_map_hexes():
    assert rl.touched_hexes(["0,0|1,-1"]) == ["0,0", "1,0"]


def test_rails_sharing_a_vertex_form_one_network_and_opposite_sides_do_not():
    assert rl.rail_networks(["1,0|1,1", "0,1|1,0"]) == [["0,1|1,0", "1,0|1,1"]]
    east, west = "1,1|2,1", "0,1|1,1"  # the two vertical sides of 1,1
    assert rl.rail_networks([west, east]) == [[west], [east]]


def test_networks_are_listed_whatever_the_order_of_the_rails():
    assert rl.rail_networks(EXAMPLE_RAILS) == rl.rail_networks(list(reversed(EXAMPLE_RAILS)))
    assert rl.rail_networks(dict.fromkeys(EXAMPLE_RAILS, None)) == rl.rail_networks(EXAMPLE_RAILS)


# --- placing rails ---


def test_a_player_reaches_the_corners_of_its_city_and_town_hexes_without_rails():
    assert rl.reached_vertices(0, [], {"1,0": 0}, {"4,0": 0}) == sorted(
        hx.vertices((1, 0)) + hx.vertices((4, 0))
    )


def test_a_rail_may_be_laid_on_a_side_of_ones_city_or_out_from_a_corner():
    cities = {"1,0": 0}
    assert rl.may_place_rail("1,0|1,1", 0, [], cities, {})  # a side
    assert rl.may_place_rail("0,1|1,1", 0, [], cities, {})  # out from its south-west corner
    assert not rl.may_place_rail("1,0|1,1", 1, [], cities, {})  # not seat 1's city


def test_a_rail_may_be_laid_along_the_border_but_not_off_the_map():
    cities = {"1,0": 0}
    assert "0,0|1,-1" in rl.rail_sites(0, [], cities, {})  # the top border
    assert not rl.may_place_rail("1,-1|2,-1", 0, [], cities, {})  # both hexes off the map


def test_rail_sites_of_a_lone_border_city_are_its_six_sides_and_five_edges_out():
    sites = rl.rail_sites(0, [], {"1,0": 0}, {})
    assert len(sites) == 11 and set(hx.sides((1, 0))) < set(sites)


def test_a_rail_not_connected_to_the_players_city_or_town_is_refused():
    assert not rl.may_place_rail("2,1|3,1", 0, [], {"1,0": 0}, {})
    assert not rl.may_place_rail("2,1|3,1", 0, ["0,0|1,0"], {"1,0": 0}, {})


def test_a_rail_extends_a_network_traced_back_to_the_players_city():
    rails = ["0,1|1,1", "0,2|1,1"]  # from 1,0's south-west corner
    assert rl.may_place_rail("1,1|1,2", 0, rails, {"1,0": 0}, {})
    assert not rl.may_place_rail("1,1|1,2", 0, rails[1:], {"1,0": 0}, {})


def test_a_rail_extends_a_network_traced_back_to_the_players_town():
    # "trace a path ... back to a city or town that they control"
    towns = {"2,0": 0}
    assert rl.may_place_rail("3,0|3,1", 0, ["2,1|3,0"], {"1,0": 0}, towns)
    assert not rl.may_place_rail("3,0|3,1", 0, ["2,1|3,0"], {"1,0": 0}, {})


def test_an_edge_that_already_carries_a_rail_is_refused():
    assert not rl.may_place_rail("1,0|1,1", 0, ["1,0|1,1"], {"1,0": 0}, {})
    assert "1,0|1,1" not in rl.rail_sites(0, ["1,0|1,1"], {"1,0": 0}, {})


def test_another_players_rails_may_be_extended_once_they_reach_your_city():
    cities = {"1,0": 0, "3,1": 1}
    theirs = ["2,1|3,0", "2,0|2,1", "1,1|2,0"]  # from seat 1's city 3,1 to seat 0's 1,0
    assert rl.may_place_rail("3,0|3,1", 0, theirs, cities, {})
    assert not rl.may_place_rail("3,0|3,1", 0, theirs[:2], cities, {})  # not yet at 1,0


def test_rails_may_cross_the_out_of_bounds_area_with_two_players():
    cities = {"5,2": 0}  # in bounds; 4,3 and 3,3 are blue
    assert rl.may_place_rail("4,2|4,3", 0, [], cities, {})
    assert rl.may_place_rail("3,3|4,3", 0, ["4,2|4,3"], cities, {})


@pytest.mark.parametrize("bad", ["1,1|1,0", "1,0|3,0", "x"])  # wrong order, no side, junk
def test_a_malformed_edge_is_an_error_not_a_refusal(bad):
    with pytest.raises(ValueError):
        rl.may_place_rail(bad, 0, [], {"1,0": 0}, {})


# --- town access ---


def test_a_city_gives_access_to_the_resource_hexes_around_it():
    # the north-west Safe Zone city: printed food and wood and the B spot
    assert rl.town_sites(0, [], {"1,0": 0}, {}, players=4) == ["0,0", "0,1", "2,0"]


def test_a_town_out_of_reach_is_refused():
    assert "0,2" not in rl.town_sites(0, [], {"1,0": 0}, {}, players=4)
    assert "0,2" not in rl.town_sites(1, ["0,1|1,1"], {"1,0": 0}, {}, players=4)


def test_rails_from_a_city_give_access_to_every_hex_they_touch():
    # the map's "one rail reaches the C ore" from a Safe Zone
    assert "0,2" in rl.town_sites(0, ["0,1|1,1"], {"1,0": 0}, {}, players=4)


def test_rails_from_a_town_alone_give_no_town_access():
    towns, cities = {"2,0": 0}, {"1,0": 0}
    from_town = ["2,1|3,0", "3,0|3,1"]  # touches T 2,0 and the A spot 4,0, not the city
    assert "4,0" not in rl.town_sites(0, from_town, cities, towns, players=4)
    joined = [*from_town, "1,1|2,0", "2,0|2,1"]
    assert "4,0" in rl.town_sites(0, joined, cities, towns, players=4)


def test_rails_anyone_built_give_access_once_connected_to_your_city():
    cities = {"1,0": 0, "3,1": 1}
    theirs = ["2,1|3,1", "2,1|3,0", "2,0|2,1", "1,1|2,0"]  # seat 1's, from 3,1 to 1,0
    assert "2,2" in rl.town_sites(0, theirs, cities, {}, players=4)
    assert "2,2" not in rl.town_sites(0, theirs[:3], cities, {}, players=4)


def test_a_hex_with_a_town_takes_no_other():
    towns = {"2,0": 1}
    assert rl.town_sites(0, [], {"1,0": 0}, towns, players=4) == ["0,0", "0,1"]


def test_two_players_build_no_town_out_of_bounds():
    cities = {"5,2": 0}
    assert "4,3" in rl.town_sites(0, [], cities, {}, players=3)
    assert "4,3" not in rl.town_sites(0, [], cities, {}, players=2)
    rails = ["4,2|4,3", "3,3|4,3"]  # along the blue dead centre
    assert "3,3" in rl.town_sites(0, rails, cities, {}, players=4)
    # the blue hexes drop out, the in-bounds 3,4 reached across them stays
    assert rl.town_sites(0, rails, cities, {}, players=2) == ["3,4", "4,2", "6,2"]


def test_face_down_tiles_visible_are_those_the_player_has_access_to():
    face_down = [hx.hex_key(h) for h in hx.spots("A")]
    cities = {"3,0": 0}
    assert rl.visible_tiles(0, [], cities, face_down) == ["4,0"]
    assert rl.visible_tiles(0, ["2,1|3,1"], cities, face_down) == ["2,2", "4,0"]
    assert rl.visible_tiles(1, ["2,1|3,1"], cities, face_down) == []


def test_wild_frontiers_dead_centre_is_reached_only_by_rails():
    dead_centre = ["2,3", "3,3"]
    for city in CITY_HEXES:
        assert not set(dead_centre) & set(rl.access(0, [], {city: 0}))
    rails = ["4,2|5,2", "4,2|4,3", "3,3|4,2"]  # from 5,2 along the badlands
    assert "3,3" in rl.town_sites(0, rails, {"5,2": 0}, {}, players=1)


def test_wild_frontiers_first_city_in_a_safe_zone():
    sites = rl.initial_city_sites({}, players=1, safe_zone_only=True)
    assert sites == ["-2,6", "1,0", "4,6", "7,0"]


# --- cities ---


def test_initial_cities_need_two_empty_hexes_between_them():
    sites = rl.initial_city_sites({"1,0": 0}, players=4)
    assert "3,1" in sites  # distance 3
    assert "3,0" not in sites and "2,1" not in sites  # distance 2
    assert not set(sites) & set(RESOURCE_HEXES)


def test_a_new_city_needs_a_connected_rail_on_one_of_its_sides():
    rails = ["0,1|1,1", "0,2|1,1", "1,1|1,2"]  # the last one lies on a side of 1,2
    assert rl.city_sites(0, rails, {"1,0": 0}, players=4) == ["1,2"]


def test_a_city_without_the_side_rail_is_refused():
    rails = ["0,1|1,1", "0,2|1,1"]  # reaches a corner of 1,2, but no side
    assert "1,2" in rl.access(0, rails, {"1,0": 0})
    assert rl.city_sites(0, rails, {"1,0": 0}, players=4) == []


def test_a_side_rail_connected_only_to_someone_elses_city_is_refused():
    rails = ["0,1|1,1", "0,2|1,1", "1,1|1,2"]
    assert rl.city_sites(1, rails, {"1,0": 0, "6,3": 1}, players=4) == []


def test_a_city_too_close_to_any_city_is_refused():
    rails = ["0,1|1,1", "0,2|1,1", "1,1|1,2"]
    assert rl.city_sites(0, rails, {"1,0": 0, "2,1": 1}, players=4) == []  # 1,2 touches 2,1
    assert "1,1" not in rl.city_sites(0, rails, {"1,0": 0}, players=4)  # touches 1,0


def test_once_the_game_starts_one_empty_hex_between_cities_is_enough():
    rails = ["1,1|2,0", "2,0|2,1", "2,0|3,0"]  # round the B spot to the west side of 3,0
    assert "3,0" in rl.city_sites(0, rails, {"1,0": 0}, players=4)  # distance 2
    assert "3,0" not in rl.initial_city_sites({"1,0": 0}, players=4)


def test_two_players_build_no_city_out_of_bounds():
    rails = ["2,5|3,4", "2,4|2,5", "1,5|2,5"]  # from 3,5 to a side of the blue 1,5
    assert rl.city_sites(0, rails, {"3,5": 0}, players=3) == ["1,5"]
    assert rl.city_sites(0, rails, {"3,5": 0}, players=2) == []
    assert "2,5" not in rl.initial_city_sites({}, players=2)


# --- city scoring ---


def test_a_neighbouring_town_without_rails_scores_nothing():
    assert rl.city_points([], {"1,0": 0}, {"0,0": 0, "2,0": 0}) == {"1,0": 0}


def test_a_rail_touching_city_and_town_scores_a_point():
    assert rl.city_points(["0,0|1,0"], {"1,0": 0}, {"0,0": 0, "2,0": 0}) == {"1,0": 1}


def test_only_the_owners_towns_score():
    towns = {"0,0": 1, "2,0": 0}
    rails = ["0,0|1,0", "1,0|2,0"]
    assert rl.city_points(rails, {"1,0": 0}, towns) == {"1,0": 1}
    assert rl.city_scores(rails, {"1,0": 0}, towns) == {0: 1, 1: 0}


def test_a_town_joins_no_networks_a_rail_must_run_through():
    cities, towns = {"1,0": 0}, {"2,0": 0, "4,0": 0}
    rails = ["1,0|2,0", "2,1|3,0", "3,0|3,1"]  # city-2,0 and, apart, 2,0-4,0
    assert rl.connected_towns("1,0", rails, cities, towns) == ["2,0"]
    joined = [*rails, "1,1|2,0", "2,0|2,1"]
    assert rl.connected_towns("1,0", joined, cities, towns) == ["2,0", "4,0"]


def test_a_city_joins_no_networks_either():
    cities, towns = {"1,0": 0, "3,0": 0}, {"0,0": 0}
    to_town = ["0,0|1,0"]  # 1,0's north-west side
    between = ["1,0|2,0", "2,-1|2,0", "2,0|3,0"]  # from 1,0 over the B spot to 3,0
    assert rl.city_points(to_town + between, cities, towns) == {"1,0": 1, "3,0": 0}


def test_a_town_counts_for_every_city_it_is_connected_to():
    cities, towns = {"1,0": 0, "3,0": 0}, {"2,0": 0}
    assert rl.city_points(["1,0|2,0", "2,0|3,0"], cities, towns) == {"1,0": 1, "3,0": 1}


def test_city_scoring_example_city_1_scores_4_and_city_2_scores_2():
    points = rl.city_points(EXAMPLE_RAILS, EXAMPLE_CITIES, EXAMPLE_TOWNS)
    assert points == {"1,1": 4, "4,1": 2}
    city_1 = rl.connected_towns("1,1", EXAMPLE_RAILS, EXAMPLE_CITIES, EXAMPLE_TOWNS)
    assert city_1 == ["0,0", "2,0", "3,2", "4,0"]  # above it, and the two far right
    city_2 = rl.connected_towns("4,1", EXAMPLE_RAILS, EXAMPLE_CITIES, EXAMPLE_TOWNS)
    assert city_2 == ["3,2", "4,0"]  # the town above and the town below it
    assert len(rl.rail_networks(EXAMPLE_RAILS)) == 2
    assert rl.city_scores(EXAMPLE_RAILS, EXAMPLE_CITIES, EXAMPLE_TOWNS) == {0: 6}


def test_city_scoring_example_the_towns_below_city_1_are_its_neighbour_and_unconnected():
    assert hx.distance((1, 1), (0, 2)) == 1 and hx.distance((1, 1), (1, 3)) == 2
    touched = {h for n in rl.rail_networks(EXAMPLE_RAILS) for h in rl.touched_hexes(n)}
    assert not {"0,2", "1,3"} & touched


def test_city_scoring_example_with_the_three_starred_rails_both_cities_score_6():
    rails = EXAMPLE_RAILS + STARS
    assert rl.city_points(rails, EXAMPLE_CITIES, EXAMPLE_TOWNS) == {"1,1": 6, "4,1": 6}
    assert rl.city_scores(rails, EXAMPLE_CITIES, EXAMPLE_TOWNS) == {0: 12}
    for star in STARS:  # each star is needed
        fewer = [r for r in rails if r != star]
        assert sum(rl.city_points(fewer, EXAMPLE_CITIES, EXAMPLE_TOWNS).values()) < 12


def test_city_scoring_example_is_a_legal_position():
    cities, towns = EXAMPLE_CITIES, EXAMPLE_TOWNS
    assert hx.distance((1, 1), (4, 1)) >= rl.INITIAL_CITY_GAP
    for i, rail in enumerate(EXAMPLE_RAILS + STARS):  # each rail laid in this order
        assert rl.may_place_rail(rail, 0, (EXAMPLE_RAILS + STARS)[:i], cities, towns), rail


# --- how far a vertex is from the player's cities, in rails (the Solitaire bot's measure) ---


def test_a_citys_corners_are_no_rails_away_and_a_step_out_one():
    far = rl.rails_to(0, [], {"1,0": 0})
    assert all(far[v] == 0 for v in hx.vertices((1, 0)))
    inner, outer = hx.edge_ends("0,1|1,1")  # out from 1,0's south-west corner
    assert sorted([far[inner], far[outer]]) == [0, 1]


def test_a_rail_laid_is_crossed_for_nothing_and_another_players_city_counts_for_nothing():
    alone = rl.rails_to(0, [], {"1,0": 0, "6,2": 1})
    laid = rl.rails_to(0, ["0,1|1,1", "0,2|1,1"], {"1,0": 0, "6,2": 1})
    end = next(v for v in hx.edge_ends("0,2|1,1") if alone[v] == 2)
    assert laid[end] == 0
    assert alone[hx.vertices((6, 2))[0]] > 0


def test_no_city_reaches_nothing():
    assert rl.rails_to(0, EXAMPLE_RAILS, {"4,1": 1}) == {}


# --- properties ---

rails_st = st.lists(st.sampled_from(EDGES), unique=True, max_size=40)
seat_st = st.integers(min_value=0, max_value=3)
cities_st = st.dictionaries(st.sampled_from(CITY_HEXES), seat_st, max_size=6)
towns_st = st.dictionaries(st.sampled_from(RESOURCE_HEXES), seat_st, max_size=10)


@given(rails_st)
def test_networks_partition_the_rails(rails):
    networks = rl.rail_networks(rails)
    flat = [r for n in networks for r in n]
    assert sorted(flat) == sorted(rails)
    corners = [set(rl.network_vertices(n)) for n in networks]
    for i, mine in enumerate(corners):
        assert not any(mine & other for other in corners[i + 1 :])
    for network in networks:
        assert rl.rail_networks(network) == [network]  # each one joined


@given(rails_st, st.sampled_from(EDGES), cities_st, towns_st)
def test_adding_a_rail_never_lowers_a_score_or_shrinks_what_is_reached(rails, new, cities, towns):
    more = [*rails, new]
    before = rl.city_points(rails, cities, towns)
    after = rl.city_points(more, cities, towns)
    assert all(after[c] >= before[c] for c in cities)
    for seat in range(4):
        assert set(rl.reached_vertices(seat, rails, cities, towns)) <= set(
            rl.reached_vertices(seat, more, cities, towns)
        )
        assert set(rl.access(seat, rails, cities)) <= set(rl.access(seat, more, cities))


@given(rails_st, cities_st, towns_st, st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_the_input(rails, cities, towns, random):
    shuffled = rails[:]
    random.shuffle(shuffled)
    backwards = dict(reversed(list(cities.items())))
    assert rl.rail_networks(shuffled) == rl.rail_networks(rails)
    assert rl.city_points(shuffled, backwards, towns) == rl.city_points(rails, cities, towns)
    assert rl.city_scores(shuffled, backwards, towns) == rl.city_scores(rails, cities, towns)
    for seat in range(4):
        assert rl.town_sites(seat, shuffled, backwards, towns, players=4) == rl.town_sites(
            seat, rails, cities, towns, players=4
        )


@given(rails_st, cities_st, towns_st, seat_st)
def test_rail_sites_are_exactly_the_edges_a_rail_may_be_placed_on(rails, cities, towns, seat):
    allowed = [e for e in EDGES if rl.may_place_rail(e, seat, rails, cities, towns)]
    assert rl.rail_sites(seat, rails, cities, towns) == allowed


@given(rails_st, cities_st, towns_st, seat_st, st.sampled_from([2, 3, 4]))
def test_sites_obey_the_placement_rules(rails, cities, towns, seat, players):
    area = set(rl.access(seat, rails, cities))
    for h in rl.town_sites(seat, rails, cities, towns, players=players):
        assert h in area and h in RESOURCE_HEXES and h not in towns
        assert hx.in_bounds(hx.parse_hex(h), players=players)
    for h in rl.city_sites(seat, rails, cities, players=players):
        assert h in CITY_HEXES and hx.in_bounds(hx.parse_hex(h), players=players)
        assert all(hx.distance(hx.parse_hex(h), hx.parse_hex(c)) >= 2 for c in cities)
        assert set(hx.sides(hx.parse_hex(h))) & set(rails)


@given(rails_st, cities_st, towns_st)
def test_a_city_scores_at_most_its_owners_towns_and_never_without_rails(rails, cities, towns):
    for city, points in rl.city_points(rails, cities, towns).items():
        assert points <= sum(1 for owner in towns.values() if owner == cities[city])
    assert not any(rl.city_points([], cities, towns).values())


@given(rails_st, cities_st, seat_st)
def test_rails_to_counts_the_fewest_rails_from_the_players_cities(rails, cities, seat):
    """0 exactly where rails join a vertex to one of the player's cities; along a map edge
    the count changes by at most one, and not at all along a rail; every vertex further
    out has a neighbour one rail nearer (or as near along a rail)."""
    far = rl.rails_to(seat, rails, cities)
    joined = set(rl.reached_vertices(seat, rails, {h: s for h, s in cities.items()}, {}))
    assert {v for v, n in far.items() if n == 0} == joined
    for v, n in far.items():
        steps = []
        for edge in hx.vertex_edges(v):
            if not hx.edge_on_map(edge):
                continue
            w = next(end for end in hx.edge_ends(edge) if end != v)
            step = 0 if edge in rails else 1
            assert far[w] <= n + step
            steps.append(far[w] + step)
        assert n == 0 or min(steps) == n
