"""The Collection Phase: each action collected once, in board order, paying its cost or
declining it (a declined action costs nothing: that is how blocking works).

`collect` takes the command's choices (what to pay, what to take, where to build) for
the placement whose turn it is; `collect_commands` lists every complete choice.
"""

from collections.abc import Callable
from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from .. import _checks
from . import cards, table
from .data import COSTS, SCENARIOS
from .tokens import chosen, paid

State = dict[str, Any]
Command = dict[str, Any]
Change = dict[str, int]


def current(state: State) -> dict[str, Any]:
    """The placement being collected."""
    return dict(state["placements"][state["step"]["placement"]])


def collect(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    """ActionCollected (with what was paid and gained) and what the action brings."""
    p = current(state)
    return _COLLECT[p["action"]](state, seat, p, cmd, rng)


def decline(state: State, seat: int) -> list[Event]:
    """ActionDeclined: the seat takes nothing and pays nothing."""
    p = current(state)
    payload = {"seat": seat, "action": p["action"], "placement": state["step"]["placement"]}
    return [event("ActionDeclined", payload)]


def collected(state: State, seat: int, change: Change, **details: Any) -> Event:
    """The ActionCollected event of the placement being collected."""
    p = current(state)
    payload = {"seat": seat, "action": p["action"], "placement": state["step"]["placement"]}
    return event("ActionCollected", {**payload, **details, "change": table.combined(change)})


def _no_fields(cmd: Command, *allowed: str) -> None:
    extra = sorted(set(cmd) - {"type", *allowed})
    if extra:
        raise BadRequest(
            "command/invalid", f"this collection takes no {extra[0]!r}", {"field": extra[0]}
        )


# --- one function per action ------------------------------------------------------------


def _turn_order(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    ahead = [
        x for x in state["placements"] if x["action"] == "turn_order" and x["rank"] < p["rank"]
    ]
    order = table.moved_to(state["order"], seat, len(ahead))
    return [
        collected(state, seat, {}),
        event("TurnOrderChanged", {"order": order, "why": "turn_order", "seat": seat}),
    ]


def _pioneer(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    return [collected(state, seat, {}), *cards.draw(state, seat, 2, "pioneer", rng)]


def _produce(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    row = p["row"]
    towns = table.towns_on(state, seat, row)
    extra = 0
    if p["slot"] == "plus" and towns:  # nothing is produced without a town on it
        extra = 2 if table.event_on(state, "bumper_harvest") else 1
    return [collected(state, seat, {row: towns + extra})]


def _hired_hand(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    return [collected(state, seat, {}), *bonus_die(state, seat)]


def bonus_die(state: State, seat: int) -> list[Event]:
    """BonusDieGained, unless the seat already has its one bonus die coming."""
    if state["bonus"][seat]:
        return []
    return [event("BonusDieGained", {"seat": seat})]


def politics_cost(state: State, seat: int) -> int:
    """Resources Politics costs: one, none for the Mayor or The Politician."""
    free = state["roles"]["mayor"] == seat or table.has(state, seat, "free_politics")
    return 0 if free else int(COSTS["politics"])


def _politics(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "pay")
    return [collected(state, seat, politics_gain(state, seat, cmd))]


def politics_gain(state: State, seat: int, cmd: Command) -> Change:
    """What the Politics action (or Election) pays and gains."""
    cost = politics_cost(state, seat)
    pay = paid(state, seat, cmd.get("pay"), cost, "pay") if cost else {}
    if not cost and cmd.get("pay"):
        raise BadRequest("command/invalid", "you pay nothing for Politics", {"field": "pay"})
    return table.combined({"influence": 1}, table.negative(pay))


def _work_crew(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "resources")
    types = table.produced_types(state, seat)
    wanted = cmd.get("resources", [])
    need = min(2, len(types))
    if (
        not isinstance(wanted, list)
        or not all(isinstance(r, str) for r in wanted)
        or len(set(wanted)) != len(wanted)
        or len(wanted) != need
    ):
        raise BadRequest(
            "command/invalid",
            f"resources must name {need} different resource types",
            {"field": "resources"},
        )
    if any(r not in types for r in wanted):
        raise RuleViolation(
            "rule/no_town_there",
            f"you produce only what you have towns on: {', '.join(types) or 'nothing'}",
            {"field": "resources"},
        )
    return [collected(state, seat, {r: table.towns_on(state, seat, r) for r in wanted})]


def rail_baron_cost(state: State, seat: int) -> Change:
    """Two ore and a food (Rail Strike: a food more; The Railroader: an ore less)."""
    cost = dict(COSTS["rail_baron"])
    if table.event_on(state, "rail_strike"):
        cost["food"] += 1
    if table.has(state, seat, "cheap_rail_baron"):
        cost["ore"] -= 1
    return {g: n for g, n in cost.items() if n}


def _rail_baron(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    cost = rail_baron_cost(state, seat)
    _afford(state, seat, cost)
    if not table.rail_sites(state, seat):
        raise RuleViolation("rule/rail_site", "there is no edge where you may lay a rail")
    return [collected(state, seat, table.negative(cost)), cards.rails_due(seat, 2, "rail_baron")]


def _afford(state: State, seat: int, cost: Change) -> None:
    if not table.can_pay(state, seat, cost):
        wanted = ", ".join(f"{n} {g}" for g, n in cost.items())
        raise RuleViolation("rule/cannot_pay", f"this costs {wanted}", {"cost": cost})


def town_cost(
    state: State, seat: int, h: str, *, free: bool = False, rugged: bool = True
) -> Change:
    """A town: two food and a wood (Drought: a food more), and an ore on rugged ground
    (Land Grant: only that ore)."""
    cost = {} if free else dict(COSTS["town"])
    if not free and table.event_on(state, "drought"):
        cost["food"] += 1
    return table.combined(cost, table.rugged_cost(state, seat, h) if rugged else {})


def city_cost(state: State) -> Change:
    """A city: a gold and four wood (City Fire: a wood more)."""
    cost = dict(COSTS["city"])
    if table.event_on(state, "city_fire"):
        cost["wood"] += 1
    return cost


def _builder(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "build", "hex")
    build, h = cmd.get("build"), cmd.get("hex")
    if build not in ("town", "city"):
        raise BadRequest("command/invalid", "build must be town or city", {"field": "build"})
    if build == "city":
        return _city(state, seat, h)
    return build_town(
        state, seat, h, lambda change: collected(state, seat, change, build="town", hex=h)
    )


def _city(state: State, seat: int, h: Any) -> list[Event]:
    if table.cities_left(state, seat) < 1:
        raise RuleViolation("rule/no_city_left", "all three of your cities are built")
    if h not in table.city_sites(state, seat):
        raise RuleViolation(
            "rule/city_site",
            "a city goes on an empty hex two or more from every city, with a rail from one of "
            "your cities on one of its sides",
            {"field": "hex"},
        )
    cost = city_cost(state)
    _afford(state, seat, cost)
    return [
        collected(state, seat, table.negative(cost), build="city", hex=h),
        event("CityPlaced", {"seat": seat, "hex": h}),
    ]


def build_town(
    state: State, seat: int, h: Any, paid_by: Callable[[Change], Event], *, free: bool = False
) -> list[Event]:
    """The events of building a town on `h` (Builder or Land Grant); an unknown rugged tile
    the seat cannot pay for is shown to everyone and nothing is paid or built."""
    if table.towns_left(state, seat) < 1:
        raise RuleViolation("rule/no_town_left", "all six of your towns are built")
    if h not in table.town_sites(state, seat):
        raise RuleViolation(
            "rule/town_site",
            "a town goes on an empty resource hex next to your city or reached by rails from it",
            {"field": "hex"},
        )
    cost = town_cost(state, seat, h, free=free)
    hidden = h in table.face_down(state)
    if not table.can_pay(state, seat, cost):
        # only a rugged tile face down is a surprise; a printed rugged hex is not
        unaware = hidden and table.is_rugged(state, h) and not table.printed_rugged(state, h)
        base = town_cost(state, seat, h, free=free, rugged=False)
        if unaware and table.can_pay(state, seat, base):
            return [rugged_found(state, seat, h)]
        _afford(state, seat, cost)
    placed = {"seat": seat, "hex": h}
    if hidden:
        placed["revealed"] = state["layout"][h]
    return [paid_by(table.negative(cost)), event("TownPlaced", placed)]


def rugged_found(state: State, seat: int, h: str) -> Event:
    """RuggedFound: the face-down tile is rugged, the seat cannot pay the ore; it shows the
    tile to everyone and loses nothing."""
    tile = state["layout"][h]
    return event("RuggedFound", {"seat": seat, "hex": h, "tile": tile})


def _trader(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "pay", "take")
    take: Change = {"gold": 1}
    if is_gold(cmd.get("take")):
        count = 3 if table.event_on(state, "gold_strike") else COSTS["trader_gold"]
    else:
        take = chosen(cmd.get("take"), COSTS["trader_take"], "take")
        count = COSTS["trader_resources"]
    pay = paid(state, seat, cmd.get("pay"), count, "pay")
    return [collected(state, seat, table.combined(table.negative(pay), take))]


def is_gold(value: Any) -> bool:
    """Whether a take is exactly one gold."""
    return (
        isinstance(value, dict)
        and list(value) == ["gold"]
        and _checks.is_int(value["gold"])
        and value["gold"] == 1
    )


def _engineer(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    gain = {t: 1 for t in ("engineer", "wild") if table.room_for(state, seat, t)}
    up = max(table.position(state, seat) - 1, 0)
    order = table.moved_to(state["order"], seat, up)
    return [
        collected(state, seat, gain),
        event("TurnOrderChanged", {"order": order, "why": "engineer", "seat": seat}),
    ]


def _scout(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "look")
    events = [collected(state, seat, {})]
    look = cmd.get("look")
    if look is not None:
        events.append(looked(state, seat, look, "look"))
    return events + cards.draw(state, seat, 3, "scout", rng)


def looked(state: State, seat: int, h: Any, field: str) -> Event:
    """TileLooked, seen by the seat alone: what lies under a face-down tile."""
    if h not in table.face_down(state):
        raise RuleViolation(
            "rule/not_face_down", "look at a face-down resource hex", {"field": field}
        )
    return event("TileLooked", {"seat": seat, "hex": h, "tile": state["layout"][h]}, to=[seat])


def _mayor(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "take")
    take = chosen(cmd.get("take"), 1, "take")
    return [
        collected(state, seat, table.combined({"influence": 1}, take)),
        *role_taken(state, seat, "mayor"),
    ]


def role_taken(state: State, seat: int, role: str) -> list[Event]:
    """RoleTaken: the Mayor or Sheriff token moves to the seat."""
    if state["roles"][role] == seat:
        return []
    return [event("RoleTaken", {"seat": seat, "role": role, "from": state["roles"][role]})]


def _sheriff(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "remove_event")
    return [collected(state, seat, {}), *sheriff(state, seat, cmd)]


def sheriff(state: State, seat: int, cmd: Command) -> list[Event]:
    """First in turn order, the Sheriff token and the Deputy die; the Sheriff may discard
    the event in play (Marshal Law: remove one from the game)."""
    remove = cmd.get("remove_event")
    order = table.moved_to(state["order"], seat, 0)
    events = [event("TurnOrderChanged", {"order": order, "why": "sheriff", "seat": seat})]
    events += role_taken(state, seat, "sheriff")
    if remove is not None:
        events.append(_event_removed(state, remove))
    return events


def _event_removed(state: State, card: Any) -> Event:
    if card not in state["events"]:
        raise RuleViolation(
            "rule/no_such_event", "remove_event names an event in play", {"field": "remove_event"}
        )
    removed = bool(state["solitaire"]) and SCENARIOS[state["solitaire"]["scenario"]].get(
        "events_apart", False
    )
    return event("EventDiscarded", {"card": card, "why": "sheriff", "removed": removed})


def _broker(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    gain = {"stock": 1} if table.room_for(state, seat, "stock") else {}
    return [collected(state, seat, gain)]


def _tycoon(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd)
    count = 2 if table.event_on(state, "railroad_boom") else 1
    anywhere = table.has(state, seat, "tycoon_anywhere")
    return [
        collected(state, seat, {"gold": 1}),
        cards.rails_due(seat, count, "tycoon", anywhere=anywhere),
    ]


def market_options(state: State, seat: int) -> list[tuple[int, Change, list[Change]]]:
    """Market's trades as (resources paid, gold paid, what may be taken)."""
    trade = 2 if table.event_on(state, "boom_town") else COSTS["market_trade"]
    buy = COSTS["market_buy_take"] + (1 if table.has(state, seat, "market_bargain") else 0)
    return [
        (trade, {}, table.choices(1)),
        (0, {"gold": 1}, table.choices(buy)),
        (COSTS["market_sell"], {}, [{"gold": 1}]),
    ]


def _market(state: State, seat: int, p: dict[str, Any], cmd: Command, rng: Rng) -> list[Event]:
    _no_fields(cmd, "pay", "take")
    pay, take = cmd.get("pay"), cmd.get("take")
    for count, gold, takes in market_options(state, seat):
        if (is_gold(pay) if gold else _is_count(pay, count)) and take in takes:
            cost = gold or paid(state, seat, pay, count, "pay")
            _afford(state, seat, cost)
            take = takes[takes.index(take)]
            return [collected(state, seat, table.combined(table.negative(cost), take))]
    raise BadRequest(
        "command/invalid",
        "Market trades 3 resources for 1, 1 gold for 3 resources, or 6 resources for 1 gold",
        {"field": "pay"},
    )


def _is_count(value: Any, count: int) -> bool:
    if count < 1 or not isinstance(value, dict) or "gold" in value:
        return False
    return sum(v for v in value.values() if _checks.is_int(v)) == count


_COLLECT: dict[str, Callable[[State, int, dict[str, Any], Command, Rng], list[Event]]] = {
    "turn_order": _turn_order,
    "pioneer": _pioneer,
    "produce": _produce,
    "hired_hand": _hired_hand,
    "politics": _politics,
    "work_crew": _work_crew,
    "rail_baron": _rail_baron,
    "builder": _builder,
    "trader": _trader,
    "engineer": _engineer,
    "scout": _scout,
    "mayor": _mayor,
    "sheriff": _sheriff,
    "broker": _broker,
    "tycoon": _tycoon,
    "market": _market,
}


# --- the legal choices --------------------------------------------------------------------


def collect_commands(state: State, seat: int) -> list[Command]:
    """Every complete `collect` the seat may send for the placement being collected."""
    action = current(state)["action"]
    options = _OPTIONS.get(action, lambda s, seat: [{}])(state, seat)
    return [{"type": "collect", **o} for o in options]


def _politics_options(state: State, seat: int) -> list[Command]:
    cost = politics_cost(state, seat)
    return [{"pay": pay} for pay in table.payments(state, seat, cost)] if cost else [{}]


def _work_crew_options(state: State, seat: int) -> list[Command]:
    types = table.produced_types(state, seat)
    if len(types) <= 1:
        return [{"resources": types}]
    return [{"resources": [a, b]} for i, a in enumerate(types) for b in types[i + 1 :]]


def _rail_baron_options(state: State, seat: int) -> list[Command]:
    ok = table.can_pay(state, seat, rail_baron_cost(state, seat))
    return [{}] if ok and table.rail_sites(state, seat) else []


def _builder_options(state: State, seat: int) -> list[Command]:
    out = []
    if table.cities_left(state, seat) and table.can_pay(state, seat, city_cost(state)):
        out += [{"build": "city", "hex": h} for h in table.city_sites(state, seat)]
    if table.towns_left(state, seat):
        for h in table.town_sites(state, seat):
            base = town_cost(state, seat, h)
            if table.can_pay(state, seat, base):
                out.append({"build": "town", "hex": h})
    return out


def _trader_options(state: State, seat: int) -> list[Command]:
    gold = 3 if table.event_on(state, "gold_strike") else COSTS["trader_gold"]
    out = [{"pay": pay, "take": {"gold": 1}} for pay in table.payments(state, seat, gold)]
    for pay in table.payments(state, seat, COSTS["trader_resources"]):
        out += [{"pay": pay, "take": take} for take in table.choices(COSTS["trader_take"])]
    return out


def _scout_options(state: State, seat: int) -> list[Command]:
    looks = [h for h in table.face_down(state) if h not in table.visible_to(state, seat)]
    return [{}] + [{"look": h} for h in looks]


def _mayor_options(state: State, seat: int) -> list[Command]:
    return [{"take": take} for take in table.choices(1)]


def _sheriff_options(state: State, seat: int) -> list[Command]:
    return [{}] + [{"remove_event": card} for card in state["events"]]


def _market_options(state: State, seat: int) -> list[Command]:
    out = []
    for count, gold, takes in market_options(state, seat):
        pays = [gold] if gold else table.payments(state, seat, count)
        out += [
            {"pay": pay, "take": take}
            for pay in pays
            if table.can_pay(state, seat, pay)
            for take in takes
        ]
    return out


_OPTIONS: dict[str, Callable[[State, int], list[Command]]] = {
    "politics": _politics_options,
    "work_crew": _work_crew_options,
    "rail_baron": _rail_baron_options,
    "builder": _builder_options,
    "trader": _trader_options,
    "scout": _scout_options,
    "mayor": _mayor_options,
    "sheriff": _sheriff_options,
    "market": _market_options,
}
