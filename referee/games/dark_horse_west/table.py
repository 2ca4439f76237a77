"""Questions about a Dark Horse West table that the rules ask again and again: token
limits, what a seat holds and can pay, its pieces, where it may build, what it may see,
and its place in the turn order. Pure functions of the state."""

from itertools import combinations_with_replacement
from typing import Any

from . import hexes, rails
from .data import CHARACTERS, CITIES, RESOURCES, TOWNS, card_type

State = dict[str, Any]
Change = dict[str, int]


def has(state: State, seat: int, ability: str) -> bool:
    """Whether the seat's character has this ability."""
    character = state["characters"][seat]
    return character is not None and ability in CHARACTERS[character]["abilities"]


def cities_of(state: State, seat: int) -> list[str]:
    """The hexes of the seat's cities."""
    return sorted(h for h, s in state["cities"].items() if s == seat)


def towns_of(state: State, seat: int) -> list[str]:
    """The hexes of the seat's towns."""
    return sorted(h for h, s in state["towns"].items() if s == seat)


def cities_left(state: State, seat: int) -> int:
    """City tokens the seat has not placed."""
    return CITIES - len(cities_of(state, seat))


def towns_left(state: State, seat: int) -> int:
    """Town tokens the seat has not placed."""
    return TOWNS - len(towns_of(state, seat))


def token_cap(state: State, seat: int, token: str) -> int:
    """How many tokens of a limited type the seat may hold: one per city on the board
    (The Scoundrel one more Wild Die, The Banker one more Loan)."""
    extra = {"wild": "extra_wild_die", "loan": "extra_loan"}.get(token)
    return len(cities_of(state, seat)) + (1 if extra and has(state, seat, extra) else 0)


def room_for(state: State, seat: int, token: str) -> bool:
    """Whether the seat may take one more token of this type."""
    return state["goods"][seat][token] < token_cap(state, seat, token)


def board_of(state: State) -> hexes.Board:
    """The game's territory map: the house map, or the moderator's own (option `map`)."""
    data = state["map"]
    if data is None:
        return hexes.HOUSE
    kept = _BOARDS.get(id(data))
    if kept is None or kept[0] is not data:
        # the entry holds the data alive, so its id names it until it is dropped
        kept = (data, hexes.Board(data))
        _BOARDS[id(data)] = kept
        while len(_BOARDS) > 32:
            _BOARDS.pop(next(iter(_BOARDS)))
    return kept[1]


_BOARDS: dict[int, tuple[Any, hexes.Board]] = {}


def resource_of(state: State, h: str) -> str | None:
    """The resource a hex yields: printed, or its tile's (face up or not)."""
    board = board_of(state)
    cell = board.cell(h)
    if cell["resource"]:
        return str(cell["resource"])
    tile = state["layout"].get(h)
    return str(board.tiles[tile]["resource"]) if tile else None


def is_rugged(state: State, h: str) -> bool:
    """A printed rugged hex or a rugged tile on it (the ore is paid once either way)."""
    board = board_of(state)
    tile = state["layout"].get(h)
    tile_rugged = bool(tile and board.tiles[tile]["rugged"])
    return bool(board.cell(h)["rugged"]) or tile_rugged


def printed_rugged(state: State, h: str) -> bool:
    """A Rugged Resource Hex printed on the map (its cost is no surprise)."""
    return bool(board_of(state).cell(h)["rugged"])


def towns_on(state: State, seat: int, resource: str) -> int:
    """How many of the seat's towns stand on hexes of this resource."""
    return sum(1 for h in towns_of(state, seat) if resource_of(state, h) == resource)


def produced_types(state: State, seat: int) -> list[str]:
    """The resources the seat has towns on, and so can produce."""
    return [r for r in RESOURCES if towns_on(state, seat, r)]


def resources_held(state: State, seat: int) -> int:
    """Food, wood and ore together (gold is not a resource)."""
    return sum(state["goods"][seat][r] for r in RESOURCES)


def can_pay(state: State, seat: int, cost: Change) -> bool:
    """Whether the seat holds every good of a fixed cost."""
    return all(state["goods"][seat][g] >= n for g, n in cost.items())


def payments(state: State, seat: int, count: int) -> list[Change]:
    """Every way to pay `count` resources of any kind from what the seat holds."""
    held = state["goods"][seat]
    ways = []
    for combo in combinations_with_replacement(RESOURCES, count):
        pay = {r: combo.count(r) for r in RESOURCES if combo.count(r)}
        if all(held[r] >= n for r, n in pay.items()):
            ways.append(pay)
    return ways


def choices(count: int) -> list[Change]:
    """Every way to take `count` resources of any kind from the bank."""
    return [
        {r: combo.count(r) for r in RESOURCES if combo.count(r)}
        for combo in combinations_with_replacement(RESOURCES, count)
    ]


def negative(change: Change) -> Change:
    """A cost as a change of goods."""
    return {g: -n for g, n in change.items() if n}


def combined(*changes: Change) -> Change:
    """Changes added up, zeros dropped, in a fixed key order."""
    total: Change = {}
    for change in changes:
        for good, n in change.items():
            total[good] = total.get(good, 0) + n
    return {g: n for g, n in sorted(total.items()) if n}


def position(state: State, seat: int) -> int:
    """The seat's place in the turn order, 0 for first."""
    return int(state["order"].index(seat))


def moved_to(order: list[int], seat: int, index: int) -> list[int]:
    """The turn order with a seat moved to an index."""
    rest = [s for s in order if s != seat]
    return rest[:index] + [seat] + rest[index:]


def corrupted(state: State, seat: int) -> list[int]:
    """The turn order after a corruption icon: the user goes last (The Politician one
    place down)."""
    order = state["order"]
    if has(state, seat, "soft_corruption"):
        return moved_to(order, seat, min(position(state, seat) + 1, len(order) - 1))
    return moved_to(order, seat, len(order) - 1)


def face_down(state: State) -> list[str]:
    """Hexes whose tile lies face down."""
    return sorted(h for h in state["layout"] if h not in state["face_up"])


def visible_to(state: State, seat: int) -> list[str]:
    """The face-down tiles the seat may look at now: around its cities and along rails
    from them, and those it has looked at (Scout, Surveyor, The Tracker)."""
    down = face_down(state)
    near = rails.visible_tiles(seat, state["rails"], state["cities"], down, board=board_of(state))
    return sorted(set(near) | {h for h in state["looked"][seat] if h in down})


def town_sites(state: State, seat: int) -> list[str]:
    """Hexes where the seat may build a town now."""
    sites = rails.town_sites(
        seat,
        state["rails"],
        state["cities"],
        state["towns"],
        players=state["seats"],
        board=board_of(state),
    )
    return [h for h in sites if resource_of(state, h) is not None]


def city_sites(state: State, seat: int) -> list[str]:
    """Hexes where the seat may build a new city now."""
    return rails.city_sites(
        seat, state["rails"], state["cities"], players=state["seats"], board=board_of(state)
    )


def rail_sites(state: State, seat: int, *, anywhere: bool = False) -> list[str]:
    """Edges where the seat may lay a rail (The Railroader's Tycoon rail: beside any rail)."""
    board = board_of(state)
    own = rails.rail_sites(seat, state["rails"], state["cities"], state["towns"], board=board)
    if not anywhere:
        return own
    beside = {
        e
        for v in rails.network_vertices(state["rails"])
        for e in hexes.vertex_edges(v)
        if board.edge_on_map(e) and e not in state["rails"]
    }
    return sorted(beside | set(own))


def rugged_cost(state: State, seat: int, h: str) -> Change:
    """The extra ore a town on this hex costs (none for The Tracker)."""
    if is_rugged(state, h) and not has(state, seat, "no_rugged_cost"):
        return {"ore": 1}
    return {}


def events_in_play(state: State) -> list[str]:
    """The card types of the events in play, permanent and temporary."""
    return [card_type(c) for c in state["events"] + state["temporary"]]


def event_on(state: State, card: str) -> bool:
    """Whether an event (by card type) is in play."""
    return card in events_in_play(state)


def city_points(state: State) -> dict[str, int]:
    """Each city's points: its owner's towns connected to it by rails."""
    return rails.city_points(state["rails"], state["cities"], state["towns"], board=board_of(state))


def access(state: State, seat: int) -> list[str]:
    """The hexes the seat has access to (around its cities, along rails from them)."""
    return rails.access(seat, state["rails"], state["cities"], board=board_of(state))


def all_pieces_placed(state: State, seat: int) -> bool:
    """Whether the seat has every city and town on the board (an end condition)."""
    return cities_left(state, seat) == 0 and towns_left(state, seat) == 0
