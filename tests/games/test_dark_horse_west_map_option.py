"""The option `map`: a moderator's own territory map and tiles replace the house ones for
one game; a map setup could not be played on is refused before the game exists."""

import copy

import pytest
from chained import sealed

from referee.bots import choose
from referee.engine import game
from referee.engine.errors import BadRequest
from referee.engine.rng import Rng
from referee.games.dark_horse_west import hexes
from replays.verify import verify_events

HOUSE = copy.deepcopy(hexes.MAP)


def north_half() -> dict:
    """The house map's four northern rows, its tiles renamed and cut to its spots."""
    cells = [c for c in HOUSE["hexes"] if c["r"] <= 3]
    spots = [c for c in cells if c["kind"] == "resource"]
    ores = [t for t in HOUSE["tiles"] if t["resource"] == "ore" and not t["rugged"]]
    others = [t for t in HOUSE["tiles"] if t not in ores]
    tiles = (ores + others)[: len(spots)]
    named = [{**t, "id": f"north-{i}"} for i, t in enumerate(tiles)]
    return {"hexes": cells, "tiles": named, "dead_centre": ["2,3", "3,3"]}


def bot_game(players: int, seed: str, options: dict) -> tuple[list, dict]:
    records = game.create("dark-horse-west", [f"p{s}" for s in range(players)], options, seed)
    state, bot = game.fold(records), Rng(f"bot:{seed}")
    for turn in range(20_000):
        if game.is_over(state):
            return records, state
        seat, command = choose(state, bot, turn)
        batch = game.execute(state, seat, command, seed)
        records, state = records + batch, game.fold(batch, state)
    raise AssertionError("no end")


@pytest.mark.parametrize("players", [1, 3, 4])
def test_a_game_on_a_moderators_map_is_laid_on_it_ends_and_verifies(players):
    north = north_half()
    options = {"map": north, "game_end_influence": 4}
    records, state = bot_game(players, f"north/{players}", options)
    layout = next(r for r in records if r["type"] == "TilesLaid")["payload"]["layout"]
    assert sorted(layout.values()) == sorted(t["id"] for t in north["tiles"])
    on_map = {hexes.hex_key((c["q"], c["r"])) for c in north["hexes"]}
    rules = state["rules"]
    assert set(rules["cities"]) | set(rules["towns"]) <= on_map
    assert verify_events(sealed(records)).valid


def test_the_map_and_its_tile_names_are_the_games_own():
    renamed = copy.deepcopy(HOUSE)
    for i, tile in enumerate(renamed["tiles"]):
        tile["id"] = f"tile-{i:02d}"
    records, state = bot_game(2, "renamed", {"map": renamed, "game_end_influence": 3})
    assert state["rules"]["map"] == renamed
    assert all(t.startswith("tile-") for t in state["rules"]["layout"].values())
    shown = game.view(state, None)["state"]
    assert shown["map"] == renamed
    assert verify_events(sealed(records)).valid


def refused(options: dict, players: int = 3) -> str:
    with pytest.raises(BadRequest) as error:
        game.create("dark-horse-west", [f"p{s}" for s in range(players)], options, "bad")
    assert error.value.code == "options/invalid"
    assert error.value.details["field"] == "options.map"
    return error.value.message


def with_hex(index: int, **fields) -> dict:
    broken = copy.deepcopy(HOUSE)
    broken["hexes"][index].update(fields)
    return broken


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        ({"hexes": []}, "house format"),
        ({"hexes": [], "tiles": []}, "7-200 hexes"),
        (with_hex(0, q="0"), "integers"),
        (with_hex(0, kind="forest"), "kind must be"),
        (with_hex(1, spot="A"), "non-resource hex"),
        (with_hex(2, spot=None), "resource hex has a spot"),
        (with_hex(0, resource="ore"), "printed food or wood"),
        (with_hex(0, safe_zone="middle"), "safe_zone"),
        ({**HOUSE, "hexes": [*HOUSE["hexes"], HOUSE["hexes"][0]]}, "twice"),
        ({**HOUSE, "tiles": HOUSE["tiles"][:-1]}, "one tile per spot"),
        ({**HOUSE, "tiles": [{**t, "rugged": True} for t in HOUSE["tiles"]]}, "plain ore"),
        ({**HOUSE, "tiles": [{**t, "id": "same"} for t in HOUSE["tiles"]]}, "distinct ids"),
        ({**HOUSE, "dead_centre": ["9,9"]}, "dead_centre"),
    ],
)
def test_a_map_of_the_wrong_shape_is_refused_naming_the_problem(broken, says):
    assert says in refused({"map": broken})


def test_two_players_need_exactly_the_plain_tiles_less_one_on_the_in_bounds_spots():
    north = north_half()
    assert "two players" in refused({"map": north}, players=2)


def test_a_map_without_room_for_every_first_city_is_refused():
    crowded = north_half()
    crowded["hexes"] = [c for c in crowded["hexes"] if c["r"] <= 1]
    spots = [c for c in crowded["hexes"] if c["kind"] == "resource"]
    crowded["tiles"] = crowded["tiles"][: len(spots)]
    crowded["dead_centre"] = []
    assert "first cities" in refused({"map": crowded}, players=4)


def test_wild_frontiers_needs_a_dead_centre_on_the_map():
    bare = {**HOUSE, "dead_centre": []}
    options = {"map": bare, "scenario": "wild_frontiers"}
    assert "Wild Frontiers" in refused(options, players=1)
