"""The option `map`: a moderator's own territory map and tiles, in the format of
../dark_horse_west_map.json, checked before a game is created so that setup can always
be played on it (docs/rules/dark-horse-west-map.md, "Replacing the map")."""

from typing import Any

from .._checks import invalid, is_int
from .hexes import SAFE_ZONES, Board, distance, hex_key
from .rails import INITIAL_CITY_GAP

KINDS = ("non_resource", "resource", "revealed_resource")
HEX_FIELDS = {
    "q", "r", "kind", "spot", "rugged", "resource", "safe_zone", "two_player_out_of_bounds",
}  # fmt: skip
MAX_HEXES = 200
FIELD = "map"


def check_map(value: Any) -> None:
    """The map's shape: hexes, tiles and dead centre as the house data file has them."""
    if value is None:
        return
    if not isinstance(value, dict) or not {"hexes", "tiles"} <= set(value):
        raise invalid(FIELD, "map must be null or {hexes, tiles, dead_centre} (the house format)")
    hexes = value["hexes"]
    if not isinstance(hexes, list) or not 7 <= len(hexes) <= MAX_HEXES:
        raise invalid(FIELD, f"map.hexes must list 7-{MAX_HEXES} hexes")
    for index, cell in enumerate(hexes):
        _check_hex(cell, index)
    if len({(c["q"], c["r"]) for c in hexes}) != len(hexes):
        raise invalid(FIELD, "map.hexes lists a hex twice")
    _check_tiles(value["tiles"], hexes)
    _check_dead_centre(value.get("dead_centre", []), hexes)


def _check_hex(cell: Any, index: int) -> None:
    where = f"map.hexes[{index}]"
    if not isinstance(cell, dict) or set(cell) != HEX_FIELDS:
        raise invalid(FIELD, f"{where} must have exactly {', '.join(sorted(HEX_FIELDS))}")
    if not all(is_int(cell[k]) and -50 <= cell[k] <= 50 for k in ("q", "r")):
        raise invalid(FIELD, f"{where}: q and r must be integers -50 to 50")
    if not all(isinstance(cell[k], bool) for k in ("rugged", "two_player_out_of_bounds")):
        raise invalid(FIELD, f"{where}: rugged and two_player_out_of_bounds are true or false")
    if cell["safe_zone"] not in (None, *SAFE_ZONES):
        raise invalid(FIELD, f"{where}: safe_zone must be null or one of {', '.join(SAFE_ZONES)}")
    if _kind_problem(cell):
        raise invalid(FIELD, f"{where}: {_kind_problem(cell)}")


def _kind_problem(cell: dict[str, Any]) -> str | None:
    kind, spot, resource = cell["kind"], cell["spot"], cell["resource"]
    if kind == "resource":
        ok = spot in ("A", "B", "C") and resource is None
        return None if ok else "a resource hex has a spot A, B or C and no printed resource"
    if kind == "revealed_resource":
        ok = spot is None and resource in ("food", "wood")
        return None if ok else "a revealed resource hex has printed food or wood and no spot"
    if kind == "non_resource":
        ok = spot is None and resource is None and not cell["rugged"]
        return None if ok else "a non-resource hex has no spot, resource or rugged border"
    return f"kind must be one of {', '.join(KINDS)}"


def _check_tiles(tiles: Any, hexes: list[dict[str, Any]]) -> None:
    shape = "map.tiles must list {id, resource (food, wood, ore), rugged} with distinct ids"
    if not isinstance(tiles, list) or not all(_is_tile(t) for t in tiles):
        raise invalid(FIELD, shape)
    if len({t["id"] for t in tiles}) != len(tiles):
        raise invalid(FIELD, shape)
    spots = [c for c in hexes if c["kind"] == "resource"]
    if len(tiles) != len(spots):
        raise invalid(FIELD, f"map.tiles must hold one tile per spot: {len(spots)}")
    ores = [t for t in tiles if t["resource"] == "ore" and not t["rugged"]]
    if len(ores) < sum(1 for c in spots if c["spot"] == "C"):
        raise invalid(FIELD, "map.tiles must hold a plain ore tile for every C spot")


def _is_tile(tile: Any) -> bool:
    return (
        isinstance(tile, dict)
        and set(tile) == {"id", "resource", "rugged"}
        and isinstance(tile["id"], str)
        and 0 < len(tile["id"]) <= 40
        and tile["resource"] in ("food", "wood", "ore")
        and isinstance(tile["rugged"], bool)
    )


def _check_dead_centre(value: Any, hexes: list[dict[str, Any]]) -> None:
    keys = {hex_key((c["q"], c["r"])): c for c in hexes}
    if not isinstance(value, list) or not all(
        isinstance(h, str) and h in keys and keys[h]["kind"] != "non_resource" for h in value
    ):
        raise invalid(FIELD, "map.dead_centre must list resource hexes of the map ('q,r')")


def check_map_table(data: dict[str, Any], players: int, scenario: str | None) -> None:
    """What the map must hold for this many players: first-city room for every seat, the
    two-player tiles, Wild Frontiers' Safe Zones and dead centre."""
    board = Board(data)
    if _first_cities(board, players) < players:
        raise invalid(FIELD, f"the map has no room for {players} first cities three apart")
    if players == 2:
        plain = sum(1 for t in board.tiles.values() if not t["rugged"])
        spots = [h for h in board.spots() if board.in_bounds(h, players=2)]
        if plain - 1 != len(spots):
            raise invalid(
                FIELD, "with two players the plain tiles less one must fill the in-bounds spots"
            )
    if scenario == "wild_frontiers":
        safe = [h for h, c in board.hexes.items() if c["safe_zone"] and c["kind"] == "non_resource"]
        if not safe or len(board.dead_centre) != 2:
            raise invalid(FIELD, "Wild Frontiers needs Safe Zone city hexes and a dead centre")


def _first_cities(board: Board, players: int) -> int:
    """How many first cities fit, placed greedily in hex order."""
    placed: list[tuple[int, int]] = []
    for h, cell in sorted(board.hexes.items()):
        if cell["kind"] != "non_resource" or not board.in_bounds(h, players=players):
            continue
        if all(distance(h, c) >= INITIAL_CITY_GAP for c in placed):
            placed.append(h)
    return len(placed)
