"""Dark Horse West's Collection Phase, tokens, end and scoring (collection.py, tokens.py,
flow.py, windows.py, scoring.py): a test per rule of the text's Collection Phase, Action
Space Descriptions, Rugged Resources, Tokens and End Game, and per decision of
docs/rules/dark-horse-west.md ("Collection", "Tokens", "End and scoring"), on hand-built
tables driven through the ruleset's pure functions."""

import copy

import dhw
import pytest

from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import may_see
from referee.engine.rng import Rng
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west import flow, hexes

BASE = dhw.set_up(4)

# Seat 0's city in the north-west Safe Zone: next to printed food 0,0, printed wood 0,1
# and the B spot 2,0 (a plain food tile, face up); the others in the other corners.
CITIES = {"1,0": 0, "7,0": 1, "-2,6": 2, "4,6": 3}
HOME_TOWNS = {"0,0": 0, "0,1": 0, "2,0": 0}  # two towns on food, one on wood
# Every spot's tile, as setup lays them: the C spots plain ore, B face up, A face down.
# 2,2 is a printed rugged hex under a plain tile, 1,3 a plain hex under a rugged tile.
LAYOUT = {
    "0,2": "ore-1", "6,2": "ore-2", "-1,4": "ore-3", "5,4": "ore-4",  # C
    "2,0": "food-1", "6,0": "wood-1", "-1,6": "food-2", "3,6": "wood-2",  # B
    "4,0": "ore-5", "2,2": "food-3", "3,2": "wood-3", "4,2": "ore-6", "1,3": "food-6",
    "2,3": "food-4", "3,3": "wood-4", "4,3": "wood-5", "1,4": "food-5", "2,4": "ore-7",
    "3,4": "food-7", "1,6": "wood-6",
}  # fmt: skip
FACE_UP = {h: t for h, t in LAYOUT.items() if h in ("0,2", "6,2", "-1,4", "5,4", "2,0", "6,0")}
# Seat 0's city on 1,2 reaches 2,2 (printed rugged), 1,3 (rugged tile) and 0,2 (plain ore).
ROUGH_CITIES = {"1,2": 0, "7,0": 1, "-2,6": 2, "4,6": 3}
DECK = ["election-1", "foreman-1", "stagecoach-1", "supply_wagon-1", "land_grant-1"]
# The text's City Scoring Example (see test_dark_horse_west_rails.py), seat 0's pieces.
EXAMPLE_CITIES = {"1,1": 0, "4,1": 0, "7,0": 1, "-2,6": 2, "4,6": 3}
EXAMPLE_TOWNS = {"0,0": 0, "2,0": 0, "4,0": 0, "3,2": 0, "0,2": 0, "1,3": 0}
EXAMPLE_RAILS = [
    "0,1|1,0", "1,0|1,1", "1,1|2,0", "1,1|2,1", "1,2|2,1",
    "2,1|2,2", "2,2|3,1", "2,1|3,1", "3,0|3,1", "3,1|4,1",
]  # fmt: skip
STARS = ["3,1|4,0", "1,1|1,2", "1,2|2,2"]


def table(**fields):
    """Seat 0's home table, first in turn order 0-1-2-3, nobody holding anything."""
    fields = {
        "cities": CITIES,
        "towns": HOME_TOWNS,
        "rails": [],
        "layout": LAYOUT,
        "face_up": FACE_UP,
        "order": [0, 1, 2, 3],
        "events": [],
        "temporary": [],
        "hands": [[], [], [], []],
        "deck": DECK,
        "discard": [],
        "roles": {"mayor": None, "sheriff": None},
        "characters": [None, None, None, None],
        **fields,
    }
    state = dhw.changed(BASE, **fields)
    for seat in range(4):
        state = dhw.with_goods(state, seat)
    return state


def holding(state, seat=0, **goods):
    """The seat holds exactly these goods."""
    return dhw.with_goods(state, seat, **goods)


def at(action, state=None, seat=0, **placement):
    """The seat's placement on `action` is being collected."""
    return dhw.collecting(
        state or table(), {"seat": seat, "action": action, "dice": [0], **placement}
    )


def collect(state, seat=0, **fields):
    """The events of a collect and the state after them."""
    return dhw.play(state, seat, {"type": "collect", **fields})


def change(events):
    """What the collection paid and gained."""
    return dhw.first(events, "ActionCollected")["change"]


def refused(state, command, seat=0):
    """The error of a refused command; the table is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises((RuleViolation, BadRequest)) as info:
        dhw.decide(state, seat, command)
    assert state == before
    return info.value


def phase(state, *placements):
    """The Collection Phase of these placements, run by the referee until a seat is asked."""
    listed = [{"collected": False, "dice": [0], **p} for p in placements]
    start = dhw.changed(state, phase="collection", task=None, step=None, placements=listed)
    events = flow.advance(start, Rng("rules"))
    return events, dhw.fold(start, events)


def declined_through(events, state):
    """Every seat asked declines (or passes) until the phase is over; the collection turns
    in the order they came."""
    every = list(events)
    while state["phase"] == "collection" and rules.to_move(state):
        seat = rules.to_move(state)[0]
        kind = "pass" if state["step"]["kind"] == "settle" else "decline"
        events, state = dhw.play(state, seat, {"type": kind})
        every += events
    turns = [
        (e["payload"]["seat"], e["payload"]["action"])
        for e in every
        if e["type"] == "CollectionTurn"
    ]
    return turns, every, state


def collected_through(events, state):
    """Every seat asked collects what asks no choice (else declines) and passes its
    windows, until the phase is over; the collection turns and every event."""
    every = list(events)
    while state["phase"] == "collection" and rules.to_move(state):
        seat = rules.to_move(state)[0]
        offered = rules.legal(state, seat)
        kind = "collect" if {"type": "collect"} in offered else "decline"
        if state["step"]["kind"] == "settle" or state["step"].get("collected"):
            kind = "pass"
        events, state = dhw.play(state, seat, {"type": kind})
        every += events
    turns = [e["payload"]["seat"] for e in every if e["type"] == "CollectionTurn"]
    return turns, every, state


def finished(state):
    """The last Collection Phase of a game (the end triggered) with nothing left to collect,
    run by the referee to its scores."""
    events, after = phase(dhw.changed(state, end={"reason": "influence", "seat": 0}))
    return events, after


# --- Turn Order -------------------------------------------------------------------------


def test_turn_order_moves_the_seat_to_the_place_of_its_slot():
    # seat 3's die took the top slot (collected already), seat 0's the second
    state = at("turn_order", table(order=[3, 1, 2, 0]), rank=2)
    top = {"seat": 3, "action": "turn_order", "rank": 1, "dice": [0], "collected": True}
    state["placements"] = [top, {**state["placements"][0]}]
    state["step"]["placement"] = 1
    events, _ = collect(state)
    assert dhw.first(events, "TurnOrderChanged")["order"] == [3, 0, 1, 2]


def test_turn_order_slots_are_collected_top_first_whatever_order_they_are_listed():
    # the text: Justin's die on the top slot gives him 1st, Gary's below it 2nd
    events, after = phase(
        table(order=[2, 0, 3, 1]),
        {"seat": 3, "action": "turn_order", "rank": 2},
        {"seat": 1, "action": "turn_order", "rank": 1},
    )
    turns, _, after = collected_through(events, after)
    assert turns == [1, 3]
    assert after["order"][:2] == [1, 3]


# --- Produce Resources ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "slot", "gained"),
    [
        ("food", "two", {"food": 2}),
        ("wood", "three", {"wood": 1}),
        ("food", "plus", {"food": 3}),  # the text's Rob: two food towns and the 4+ icon
        ("ore", "two", {}),
    ],
)
def test_produce_gives_a_resource_per_town_on_that_row_and_one_more_on_the_4plus(row, slot, gained):
    events, after = collect(at("produce", row=row, slot=slot))
    assert change(events) == gained
    assert {r: after["goods"][0][r] for r in gained} == gained


def test_bumper_harvest_makes_the_4plus_icon_give_two_more():
    state = table(events=["bumper_harvest-1"])
    assert change(collect(at("produce", state, row="food", slot="plus"))[0]) == {"food": 4}
    assert change(collect(at("produce", state, row="food", slot="two"))[0]) == {"food": 2}


def test_the_4plus_icon_produces_nothing_without_a_town_on_that_resource():
    # the text: "Players cannot produce a resource if they do not have a town on that
    # resource hex type"; the 4+ resource is "in addition to" the towns' ones
    assert change(collect(at("produce", row="ore", slot="plus"))[0]) == {}


# --- Hired Hand ---------------------------------------------------------------------------


def test_hired_hand_gives_a_bonus_die_for_the_next_placement_phase_only():
    events, after = collect(at("hired_hand"))
    assert dhw.first(events, "BonusDieGained") == {"seat": 0}
    rolled = next(
        e["payload"] for e in events if e["type"] == "DiceRolled" and e["payload"]["seat"] == 0
    )
    assert [d["kind"] for d in rolled["dice"]] == ["normal", "normal", "bonus"]
    assert after["bonus"][0] is False  # used up by this roll


def test_a_second_bonus_die_is_ignored():
    events, _ = collect(at("hired_hand", table(bonus=[True, False, False, False])))
    assert "BonusDieGained" not in dhw.types(events)
    rolled = next(
        e["payload"] for e in events if e["type"] == "DiceRolled" and e["payload"]["seat"] == 0
    )
    assert len(rolled["dice"]) == 3


# --- Politics -----------------------------------------------------------------------------


def test_politics_pays_one_resource_for_one_influence():
    state = at("politics", holding(table(), ore=1, wood=1))
    assert rules.legal(state, 0)[:2] == [
        {"type": "collect", "pay": {"wood": 1}},
        {"type": "collect", "pay": {"ore": 1}},
    ]
    events, after = collect(state, pay={"ore": 1})
    assert change(events) == {"influence": 1, "ore": -1}
    assert after["goods"][0]["influence"] == 1 and after["goods"][0]["ore"] == 0


@pytest.mark.parametrize(
    "fields",
    [{"roles": {"mayor": 0, "sheriff": None}}, {"characters": ["politician", None, None, None]}],
    ids=["mayor", "the_politician"],
)
def test_the_mayor_and_the_politician_pay_nothing_for_politics(fields):
    state = at("politics", holding(table(**fields), ore=1))
    assert {"type": "collect"} in rules.legal(state, 0)
    assert change(collect(state)[0]) == {"influence": 1}
    assert refused(state, {"type": "collect", "pay": {"ore": 1}}).code == "command/invalid"


def test_politics_without_a_resource_cannot_be_collected_but_may_be_declined():
    state = at("politics")
    assert rules.legal(state, 0) == [{"type": "decline"}]
    assert refused(state, {"type": "collect", "pay": {"ore": 1}}).code == "rule/cannot_pay"
    events, after = dhw.play(state, 0, {"type": "decline"})
    assert dhw.types(events)[0] == "ActionDeclined"
    assert after["goods"][0]["influence"] == 0


# --- Work Crew ----------------------------------------------------------------------------


def test_work_crew_produces_two_chosen_types_a_resource_per_town():
    state = at("work_crew", table(towns={**HOME_TOWNS, "0,2": 0}))  # food x2, wood, ore
    assert [c.get("resources") for c in rules.legal(state, 0)] == [
        ["food", "wood"],
        ["food", "ore"],
        ["wood", "ore"],
        None,
    ]
    assert change(collect(state, resources=["food", "ore"])[0]) == {"food": 2, "ore": 1}


def test_work_crew_with_towns_on_one_type_produces_only_that_type():
    state = at("work_crew", table(towns={"0,0": 0, "2,0": 0}))
    assert rules.legal(state, 0)[0] == {"type": "collect", "resources": ["food"]}
    assert change(collect(state, resources=["food"])[0]) == {"food": 2}


@pytest.mark.parametrize(
    ("resources", "code"),
    [
        (["food", "ore"], "rule/no_town_there"),
        (["food", "food"], "command/invalid"),
        (["food"], "command/invalid"),
        (["food", "wood", "ore"], "command/invalid"),
    ],
)
def test_work_crew_refuses_a_type_without_towns_or_other_than_two_types(resources, code):
    assert refused(at("work_crew"), {"type": "collect", "resources": resources}).code == code


# --- Rail Baron ---------------------------------------------------------------------------


def test_rail_baron_pays_two_ore_and_a_food_and_lays_two_rails_at_once():
    events, state = collect(at("rail_baron", holding(table(), ore=2, food=1)))
    assert change(events) == {"food": -1, "ore": -2}
    assert dhw.first(events, "RailsDue")["count"] == 2
    offered = rules.legal(state, 0)
    assert offered and {c["type"] for c in offered} == {"place_rail"}
    assert refused(state, {"type": "decline"}).code == "rule/not_now"
    laid = []
    for _ in range(2):
        command = rules.legal(state, 0)[0]
        laid.append(command["edge"])
        _, state = dhw.play(state, 0, command)
    assert state["rails"] == sorted(laid) and state["task"] is None
    assert state["goods"][0]["ore"] == 0 and state["goods"][0]["food"] == 0


@pytest.mark.parametrize(
    ("fields", "cost"),
    [
        ({"events": ["rail_strike-1"]}, {"food": -2, "ore": -2}),
        ({"characters": ["railroader", None, None, None]}, {"food": -1, "ore": -1}),
        (
            {"events": ["rail_strike-1"], "characters": ["railroader", None, None, None]},
            {"food": -2, "ore": -1},
        ),
    ],
    ids=["rail_strike", "the_railroader", "both"],
)
def test_rail_strike_and_the_railroader_change_the_rail_baron_cost(fields, cost):
    state = at("rail_baron", holding(table(**fields), ore=3, food=3))
    assert change(collect(state)[0]) == cost


def test_rail_baron_cannot_be_collected_without_its_cost():
    state = at("rail_baron", holding(table(), ore=1, food=5))
    assert rules.legal(state, 0) == [{"type": "decline"}]
    assert refused(state, {"type": "collect"}).code == "rule/cannot_pay"


def test_rail_baron_with_nowhere_to_lay_rails_is_refused_and_costs_nothing():
    full = hexes.map_edges()
    state = at("rail_baron", holding(table(rails=full), ore=2, food=1))
    assert {"type": "collect"} not in rules.legal(state, 0)
    with pytest.raises(RuleViolation) as refused:
        collect(state)
    assert refused.value.code == "rule/rail_site"


def test_a_tycoon_rail_with_nowhere_to_go_is_forfeited_and_the_gold_kept():
    full = hexes.map_edges()
    events, after = collect(at("tycoon", table(rails=full)))
    assert dhw.first(events, "RailsForfeited") == {"seat": 0, "count": 1, "why": "tycoon"}
    assert "RailPlaced" not in dhw.types(events)
    assert after["task"] is None and len(after["rails"]) == len(full)
    assert after["goods"][0]["gold"] == 1


# --- Builder ------------------------------------------------------------------------------


def test_builder_builds_a_town_for_two_food_and_a_wood():
    state = at("builder", holding(table(towns={"0,0": 0}), food=2, wood=1))
    assert {"type": "collect", "build": "town", "hex": "0,1"} in rules.legal(state, 0)
    events, after = collect(state, build="town", hex="0,1")
    assert change(events) == {"food": -2, "wood": -1}
    assert dhw.first(events, "TownPlaced") == {"seat": 0, "hex": "0,1"}
    assert after["towns"]["0,1"] == 0


def test_drought_makes_a_town_cost_a_food_more():
    state = table(towns={"0,0": 0}, events=["drought-1"])
    short = at("builder", holding(state, food=2, wood=1))
    assert refused(short, {"type": "collect", "build": "town", "hex": "0,1"}).code == (
        "rule/cannot_pay"
    )
    events, _ = collect(at("builder", holding(state, food=3, wood=1)), build="town", hex="0,1")
    assert change(events) == {"food": -3, "wood": -1}


@pytest.mark.parametrize(
    ("layout", "h"),
    [
        (LAYOUT, "2,2"),  # a printed rugged hex under a plain tile
        (LAYOUT, "1,3"),  # a rugged tile on a plain hex
        ({**LAYOUT, "2,2": "food-6", "1,3": "food-3"}, "2,2"),  # both: the ore once
    ],
    ids=["rugged_hex", "rugged_tile", "both"],
)
def test_a_town_on_rugged_ground_costs_one_ore_more(layout, h):
    state = holding(table(cities=ROUGH_CITIES, towns={}, layout=layout), food=2, wood=1, ore=2)
    events, after = collect(at("builder", state), build="town", hex=h)
    assert change(events) == {"food": -2, "ore": -1, "wood": -1}
    assert after["towns"][h] == 0


def test_a_town_on_a_plain_tile_costs_no_ore():
    state = holding(table(cities=ROUGH_CITIES, towns={}), food=2, wood=1, ore=2)
    events, _ = collect(at("builder", state), build="town", hex="0,2")
    assert change(events) == {"food": -2, "wood": -1}


def test_the_tracker_pays_no_ore_on_rugged_ground():
    layout = {**LAYOUT, "2,2": "food-6", "1,3": "food-3"}
    state = table(
        cities=ROUGH_CITIES, towns={}, layout=layout, characters=["tracker", None, None, None]
    )
    events, _ = collect(at("builder", holding(state, food=2, wood=1)), build="town", hex="2,2")
    assert change(events) == {"food": -2, "wood": -1}


def test_a_face_down_rugged_tile_the_seat_cannot_pay_for_is_shown_and_nothing_is_paid():
    state = at("builder", holding(table(cities=ROUGH_CITIES, towns={}), food=2, wood=1))
    events, after = collect(state, build="town", hex="1,3")
    assert dhw.types(events) == ["RuggedFound"]
    assert dhw.first(events, "RuggedFound") == {"seat": 0, "hex": "1,3", "tile": "food-6"}
    assert events[0]["visibility"] == "public"
    assert after["face_up"]["1,3"] == "food-6"
    assert after["goods"] == state["goods"] and "1,3" not in after["towns"]
    # the window is still open: the seat may build elsewhere (or decline)
    assert rules.to_move(after) == [0]
    assert {"type": "collect", "build": "town", "hex": "0,2"} in rules.legal(after, 0)
    events, after = collect(after, build="town", hex="0,2")
    assert after["towns"]["0,2"] == 0 and change(events) == {"food": -2, "wood": -1}


@pytest.mark.parametrize(
    "layout", [LAYOUT, {**LAYOUT, "2,2": "food-6", "1,3": "food-3"}], ids=["plain", "rugged"]
)
def test_a_printed_rugged_hex_the_seat_cannot_pay_the_ore_for_is_refused_unrevealed(layout):
    # the printed red outline is public: the seat knows the ore is due; only a rugged
    # *tile* the player is unaware of is revealed (Rugged Resources)
    state = table(cities=ROUGH_CITIES, towns={}, layout=layout)
    state = at("builder", holding(state, food=2, wood=1))
    assert refused(state, {"type": "collect", "build": "town", "hex": "2,2"}).code == (
        "rule/cannot_pay"
    )


def test_a_face_up_rugged_tile_the_seat_cannot_pay_for_is_refused():
    shown = {**FACE_UP, "1,3": "food-6"}
    state = at(
        "builder", holding(table(cities=ROUGH_CITIES, towns={}, face_up=shown), food=2, wood=1)
    )
    assert refused(state, {"type": "collect", "build": "town", "hex": "1,3"}).code == (
        "rule/cannot_pay"
    )


CITY_RAILS = ["1,1|2,0", "2,0|2,1"]  # from seat 0's city 1,0 to a side of 2,1


@pytest.mark.parametrize(
    ("events_in_play", "cost"),
    [([], {"gold": -1, "wood": -4}), (["city_fire-1"], {"gold": -1, "wood": -5})],
    ids=["plain", "city_fire"],
)
def test_builder_builds_a_city_for_a_gold_and_four_wood_on_a_city_site(events_in_play, cost):
    state = holding(table(rails=CITY_RAILS, events=events_in_play), gold=1, wood=5)
    assert {"type": "collect", "build": "city", "hex": "2,1"} in rules.legal(
        at("builder", state), 0
    )
    events, after = collect(at("builder", state), build="city", hex="2,1")
    assert change(events) == cost
    assert dhw.first(events, "CityPlaced") == {"seat": 0, "hex": "2,1"}
    assert after["cities"]["2,1"] == 0


def test_city_fire_makes_four_wood_too_few():
    state = at("builder", holding(table(rails=CITY_RAILS, events=["city_fire-1"]), gold=1, wood=4))
    assert refused(state, {"type": "collect", "build": "city", "hex": "2,1"}).code == (
        "rule/cannot_pay"
    )


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"build": "town", "hex": "4,0"}, "rule/town_site"),  # not next to the city
        ({"build": "town", "hex": "1,1"}, "rule/town_site"),  # no resource
        ({"build": "city", "hex": "3,0"}, "rule/city_site"),  # no rail to it
        ({"build": "road", "hex": "0,0"}, "command/invalid"),
        ({"build": "town", "hex": "0,0", "take": {"ore": 1}}, "command/invalid"),
    ],
)
def test_builder_refuses_what_is_not_a_town_or_city_on_its_site(command, code):
    state = at("builder", holding(table(towns={}), food=9, wood=9, ore=9, gold=9))
    assert refused(state, {"type": "collect", **command}).code == code


def test_builder_builds_one_town_or_one_city_not_both():
    # with a card in hand the seat is asked again after collecting; it cannot collect twice
    state = holding(table(towns={}, hands=[["supply_wagon-1"], [], [], []]), food=9, wood=9)
    _, after = collect(at("builder", state), build="town", hex="0,0")
    assert rules.to_move(after) == [0]
    assert refused(after, {"type": "collect", "build": "town", "hex": "0,1"}).code == "rule/not_now"
    assert not any(c["type"] == "collect" for c in rules.legal(after, 0))


# --- Trader -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("take", "gained"),
    [({"gold": 1}, {"gold": 1}), ({"ore": 2}, {"ore": 2}), ({"food": 1, "ore": 1}, {"ore": 1})],
)
def test_trader_pays_four_resources_for_a_gold_or_two_resources(take, gained):
    state = at("trader", holding(table(), food=3, wood=2))
    events, after = collect(state, pay={"food": 3, "wood": 1}, take=take)
    assert after["goods"][0]["wood"] == 1
    assert {g: after["goods"][0][g] for g in gained} == gained
    assert sum(after["goods"][0][r] for r in ("food", "wood", "ore")) == 5 - 4 + sum(
        v for g, v in take.items() if g != "gold"
    )


def test_gold_strike_makes_traders_gold_cost_three_resources():
    state = at("trader", holding(table(events=["gold_strike-1"]), food=4))
    assert change(collect(state, pay={"food": 3}, take={"gold": 1})[0]) == {"food": -3, "gold": 1}
    # the trade for two resources still costs four
    assert refused(state, {"type": "collect", "pay": {"food": 3}, "take": {"ore": 2}}).code == (
        "command/invalid"
    )
    assert (
        refused(
            at("trader", holding(table(), food=4)),
            {"type": "collect", "pay": {"food": 3}, "take": {"gold": 1}},
        ).code
        == "command/invalid"
    )


@pytest.mark.parametrize(
    ("pay", "take"),
    [
        ({"food": 8}, {"gold": 1, "ore": 2}),  # both trades at once
        ({"food": 8}, {"gold": 2}),
        ({"food": 8}, {"ore": 4}),
        ({"food": 4}, {"gold": 1, "ore": 2}),
    ],
)
def test_trader_makes_one_trade_only(pay, take):
    state = at("trader", holding(table(), food=8))
    assert refused(state, {"type": "collect", "pay": pay, "take": take}).code == "command/invalid"


def test_trader_cannot_pay_resources_the_seat_lacks():
    state = at("trader", holding(table(), food=3, gold=2))
    assert rules.legal(state, 0) == [{"type": "decline"}]
    assert refused(state, {"type": "collect", "pay": {"food": 4}, "take": {"gold": 1}}).code == (
        "rule/cannot_pay"
    )


# --- Engineer -----------------------------------------------------------------------------


def test_engineer_moves_up_one_place_with_an_engineer_and_a_wild_die_token():
    events, after = collect(at("engineer", table(order=[1, 2, 0, 3])))
    assert change(events) == {"engineer": 1, "wild": 1}
    assert after["order"] == [1, 0, 2, 3]
    assert after["goods"][0]["engineer"] == 1 and after["goods"][0]["wild"] == 1


def test_engineer_keeps_the_first_seat_first():
    events, _ = collect(at("engineer"))
    assert dhw.first(events, "TurnOrderChanged")["order"] == [0, 1, 2, 3]


def test_engineer_gives_no_token_beyond_the_city_limit():
    full = holding(table(), wild=1, engineer=1)  # one city: one of each
    assert change(collect(at("engineer", full))[0]) == {}
    half = holding(table(), wild=1)
    assert change(collect(at("engineer", half))[0]) == {"engineer": 1}
    two_cities = holding(table(cities={**CITIES, "2,1": 0}), wild=1, engineer=1)
    assert change(collect(at("engineer", two_cities))[0]) == {"engineer": 1, "wild": 1}


# --- Scout --------------------------------------------------------------------------------


def test_scout_draws_three_cards_keeps_one_and_puts_two_back_on_top():
    events, state = collect(at("scout"))
    drawn = dhw.first(events, "CardsDrawn")
    assert drawn["cards"] == DECK[:3]
    assert next(e for e in events if e["type"] == "CardsDrawn")["visibility"] == [0]
    assert state["task"]["kind"] == "keep"
    assert {c["type"] for c in rules.legal(state, 0)} == {"keep_card"}
    _, after = dhw.play(
        state, 0, {"type": "keep_card", "card": "foreman-1", "top": ["stagecoach-1", "election-1"]}
    )
    assert after["hands"][0] == ["foreman-1"]
    assert after["deck"][:3] == ["stagecoach-1", "election-1", "supply_wagon-1"]


def test_scout_may_look_at_one_face_down_hex_seen_by_the_seat_alone():
    state = at("scout")
    looks = [c["look"] for c in rules.legal(state, 0) if "look" in c]
    down = [h for h in LAYOUT if h not in FACE_UP]
    assert sorted(looks) == sorted(down)  # seat 0's city reaches no face-down tile
    events, after = collect(state, look="4,2")
    looked = next(e for e in events if e["type"] == "TileLooked")
    assert looked["payload"] == {"seat": 0, "hex": "4,2", "tile": "ore-6"}
    assert looked["visibility"] == [0]
    assert "4,2" in after["looked"][0] and "4,2" not in after["face_up"]
    assert refused(state, {"type": "collect", "look": "2,0"}).code == "rule/not_face_down"


# --- Mayor and Sheriff ------------------------------------------------------------------


def test_mayor_gives_an_influence_a_resource_and_the_mayor_role():
    state = at("mayor", table(roles={"mayor": 2, "sheriff": None}))
    assert len([c for c in rules.legal(state, 0) if c["type"] == "collect"]) == 3
    events, after = collect(state, take={"wood": 1})
    assert change(events) == {"influence": 1, "wood": 1}
    assert dhw.first(events, "RoleTaken") == {"seat": 0, "role": "mayor", "from": 2}
    assert after["roles"]["mayor"] == 0


@pytest.mark.parametrize("take", [{"gold": 1}, {"wood": 2}, {}, None])
def test_mayor_takes_exactly_one_resource(take):
    assert refused(at("mayor"), {"type": "collect", "take": take}).code == "command/invalid"


def test_sheriff_goes_first_takes_the_role_and_rolls_the_deputy_die_next():
    events, after = collect(
        at("sheriff", table(order=[1, 2, 3, 0], roles={"mayor": None, "sheriff": 1}))
    )
    assert dhw.first(events, "TurnOrderChanged")["order"] == [0, 1, 2, 3]
    assert dhw.first(events, "RoleTaken") == {"seat": 0, "role": "sheriff", "from": 1}
    rolled = next(
        e["payload"] for e in events if e["type"] == "DiceRolled" and e["payload"]["seat"] == 0
    )
    assert rolled["dice"][0]["kind"] == "deputy"
    assert after["roles"]["sheriff"] == 0


def test_the_sheriff_may_discard_the_event_in_play_leaving_none():
    state = at("sheriff", table(events=["drought-1"]))
    assert {"type": "collect", "remove_event": "drought-1"} in rules.legal(state, 0)
    events, after = collect(state, remove_event="drought-1")
    assert dhw.first(events, "EventDiscarded")["card"] == "drought-1"
    assert after["events"] == [] and "drought-1" in after["discard"]
    kept, _ = collect(state)
    assert "EventDiscarded" not in dhw.types(kept)
    assert refused(state, {"type": "collect", "remove_event": "city_fire-1"}).code == (
        "rule/no_such_event"
    )


# --- Broker and Tycoon --------------------------------------------------------------------


def test_broker_gives_a_stock_token_within_the_limit():
    assert change(collect(at("broker"))[0]) == {"stock": 1}
    assert change(collect(at("broker", holding(table(), stock=1)))[0]) == {}


def test_tycoon_gives_a_gold_and_a_rail_laid_at_once():
    events, state = collect(at("tycoon"))
    assert change(events) == {"gold": 1}
    assert dhw.first(events, "RailsDue")["count"] == 1
    _, after = dhw.play(state, 0, rules.legal(state, 0)[0])
    assert len(after["rails"]) == 1 and after["task"] is None and after["goods"][0]["gold"] == 1


def test_railroad_boom_makes_tycoon_lay_two_rails():
    events, _ = collect(at("tycoon", table(events=["railroad_boom-1"])))
    assert dhw.first(events, "RailsDue")["count"] == 2


def test_the_railroaders_tycoon_rail_may_go_beside_any_rail():
    far = ["5,3|5,4"]  # nobody's network reaches it
    railroader = table(rails=far, characters=["railroader", None, None, None])
    _, state = collect(at("tycoon", railroader))
    assert {"type": "place_rail", "edge": "4,4|5,3"} in rules.legal(state, 0)
    _, after = dhw.play(state, 0, {"type": "place_rail", "edge": "4,4|5,3"})
    assert "4,4|5,3" in after["rails"]
    _, plain = collect(at("tycoon", table(rails=far)))
    assert refused(plain, {"type": "place_rail", "edge": "4,4|5,3"}).code == "rule/rail_site"


# --- Market -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("goods", "pay", "take", "gained"),
    [
        ({"food": 3}, {"food": 2, "wood": 1}, {"ore": 1}, {"food": -2, "ore": 1, "wood": -1}),
        ({"gold": 1}, {"gold": 1}, {"ore": 2, "wood": 1}, {"gold": -1, "ore": 2, "wood": 1}),
        ({"food": 6}, {"food": 6}, {"gold": 1}, {"food": -6, "gold": 1}),
    ],
    ids=["three_for_one", "gold_for_three", "six_for_gold"],
)
def test_market_trades(goods, pay, take, gained):
    state = at(
        "market", holding(table(), food=goods.get("food", 0), wood=1, gold=goods.get("gold", 0))
    )
    assert {"type": "collect", "pay": pay, "take": take} in rules.legal(state, 0)
    assert change(collect(state, pay=pay, take=take)[0]) == gained


def test_boom_town_makes_market_trade_two_for_one():
    state = at("market", holding(table(temporary=["boom_town-1"]), food=2))
    assert change(collect(state, pay={"food": 2}, take={"ore": 1})[0]) == {"food": -2, "ore": 1}
    plain = at("market", holding(table(), food=2))
    assert refused(plain, {"type": "collect", "pay": {"food": 2}, "take": {"ore": 1}}).code == (
        "command/invalid"
    )


def test_the_merchants_market_gold_buys_four_resources():
    merchant = at("market", holding(table(characters=["merchant", None, None, None]), gold=1))
    assert change(collect(merchant, pay={"gold": 1}, take={"ore": 4})[0]) == {"gold": -1, "ore": 4}
    plain = at("market", holding(table(), gold=1))
    assert refused(plain, {"type": "collect", "pay": {"gold": 1}, "take": {"ore": 4}}).code == (
        "command/invalid"
    )


@pytest.mark.parametrize(
    ("pay", "take", "code"),
    [
        ({"food": 3}, {"gold": 1}, "command/invalid"),  # gold costs six
        ({"food": 6}, {"ore": 2}, "command/invalid"),
        ({"gold": 1}, {"ore": 3}, "rule/cannot_pay"),  # holds no gold
        ({"ore": 3}, {"food": 1}, "rule/cannot_pay"),
    ],
)
def test_market_refuses_other_trades_and_what_the_seat_cannot_pay(pay, take, code):
    state = at("market", holding(table(), food=6))
    assert refused(state, {"type": "collect", "pay": pay, "take": take}).code == code


def test_market_is_collected_once():
    state = holding(table(hands=[["supply_wagon-1"], [], [], []]), food=6)
    _, after = collect(at("market", state), pay={"food": 3}, take={"ore": 1})
    assert rules.to_move(after) == [0]
    command = {"type": "collect", "pay": {"food": 3}, "take": {"ore": 1}}
    assert refused(after, command).code == "rule/not_now"


# --- declining and refusals -------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "placement"),
    [
        ("builder", {}),
        ("tycoon", {}),
        ("sheriff", {}),
        ("mayor", {}),
        ("engineer", {}),
        ("produce", {"row": "food", "slot": "plus"}),
        ("turn_order", {"rank": 1}),
    ],
)
def test_declining_pays_and_gains_nothing(action, placement):
    # a seat holding a card is asked even for the actions the referee collects itself
    state = holding(
        table(order=[1, 0, 2, 3], hands=[["supply_wagon-1"], [], [], []]), food=9, wood=9, gold=2
    )
    state = at(action, state, **placement)
    events, after = dhw.play(state, 0, {"type": "decline"})
    assert dhw.types(events)[0] == "ActionDeclined"
    for kind in ("ActionCollected", "TurnOrderChanged", "RoleTaken", "RailsDue", "TownPlaced"):
        assert kind not in dhw.types(events)
    assert after["goods"] == state["goods"]
    assert after["order"] == [1, 0, 2, 3] and after["placements"][0]["collected"]


@pytest.mark.parametrize("action", ["builder", "trader", "rail_baron", "politics", "market"])
def test_a_seat_that_cannot_pay_may_still_decline_to_block(action):
    state = at(action)
    assert rules.legal(state, 0) == [{"type": "decline"}]
    events, _ = dhw.play(state, 0, {"type": "decline"})
    assert dhw.first(events, "ActionDeclined") == {"seat": 0, "action": action, "placement": 0}


@pytest.mark.parametrize(
    ("action", "command", "code"),
    [
        ("trader", {"pay": {"food": 4}, "take": {"gold": 1}}, "rule/cannot_pay"),
        ("trader", {"pay": {"food": 1}, "take": {"gold": 1}}, "command/invalid"),
        ("trader", {"pay": {"gold": 4}, "take": {"ore": 2}}, "command/invalid"),
        ("politics", {"pay": {"food": 1}, "look": "4,0"}, "command/invalid"),
        ("broker", {"take": {"gold": 1}}, "command/invalid"),
        ("market", {"pay": "food", "take": {"ore": 1}}, "command/invalid"),
        ("builder", {"build": "city", "hex": "2,1"}, "rule/city_site"),
    ],
)
def test_refused_collections_append_nothing(action, command, code):
    state = at(action, holding(table(), food=1, wood=2))
    assert refused(state, {"type": "collect", **command}).code == code


def test_a_seat_must_collect_or_decline_before_passing():
    state = at("hired_hand", table(hands=[["supply_wagon-1"], [], [], []]))
    assert refused(state, {"type": "pass"}).code == "rule/not_now"
    assert refused(state, {"type": "collect"}, seat=1).code == "rule/not_your_turn"


# --- the order of collection --------------------------------------------------------------


def test_actions_are_collected_in_board_order_then_in_turn_order():
    events, state = phase(
        table(order=[2, 0, 3, 1]),
        {"seat": 0, "action": "market"},
        {"seat": 1, "action": "market"},
        {"seat": 3, "action": "tycoon"},
        {"seat": 2, "action": "market"},
        {"seat": 1, "action": "builder"},
        {"seat": 0, "action": "builder"},
        {"seat": 3, "action": "politics"},
        {"seat": 2, "action": "pioneer"},
    )
    turns, _, _ = declined_through(events, state)
    assert turns == [
        (2, "pioneer"),
        (3, "politics"),
        (0, "builder"),
        (1, "builder"),
        (3, "tycoon"),
        (2, "market"),
        (0, "market"),
        (1, "market"),
    ]


def test_a_collected_sheriff_goes_first_on_the_actions_after_it():
    events, state = phase(
        table(order=[0, 1, 2, 3]),
        {"seat": 0, "action": "market"},
        {"seat": 3, "action": "sheriff"},
        {"seat": 3, "action": "market"},
    )
    assert rules.to_move(state) == [3]
    events, state = collect(state, seat=3)
    turns, _, _ = declined_through(events, state)
    assert turns == [(3, "market"), (0, "market")]


def test_produce_resources_is_collected_in_turn_order_whatever_the_rows():
    events, state = phase(
        table(order=[2, 0, 1, 3]),
        {"seat": 0, "action": "produce", "row": "food", "slot": "two"},
        {"seat": 2, "action": "produce", "row": "wood", "slot": "two"},
    )
    turns, _, _ = collected_through(events, state)
    assert turns == [2, 0]


# --- automatic collections and windows ----------------------------------------------------

# a placement on each action a seat collects with nothing to choose
FREE_PLACEMENTS = [
    ("turn_order", {"rank": 1}),
    ("produce", {"row": "food", "slot": "two"}),
    ("hired_hand", {}),
    ("engineer", {}),
    ("broker", {}),
]


@pytest.mark.parametrize(("action", "placement"), FREE_PLACEMENTS)
def test_a_seat_holding_nothing_may_decline_an_action_with_nothing_to_choose(action, placement):
    # "If a player cannot pay or chooses to not pay for an action they are collecting, they
    # do not suffer any penalty": a seat holding nothing may decline too
    events, state = phase(table(), {"seat": 0, "action": action, **placement})
    assert dhw.types(events) == ["CollectionTurn"]
    assert rules.to_move(state) == [0]
    assert rules.legal(state, 0) == [{"type": "collect"}, {"type": "decline"}]
    events, after = dhw.play(state, 0, {"type": "decline"})
    assert dhw.types(events)[0] == "ActionDeclined"
    assert after["goods"] == state["goods"] and after["order"] == state["order"]
    assert not after["bonus"][0]


@pytest.mark.parametrize(("action", "placement"), FREE_PLACEMENTS)
def test_a_1_0_0_game_collects_for_a_seat_with_nothing_to_choose(action, placement):
    # the referee's own steps, no command from the seat
    events, _ = phase(dhw.under(table(), "1.0.0"), {"seat": 0, "action": action, **placement})
    assert dhw.types(events)[:2] == ["CollectionTurn", "ActionCollected"]
    assert dhw.first(events, "ActionCollected")["action"] == action


def test_a_first_seat_whose_die_is_on_the_second_turn_order_slot_may_stay_first():
    # seat 3 took the top slot and declined it; collecting the second slot would move seat
    # 0 from first to second, so seat 0 declines
    top = {"seat": 3, "action": "turn_order", "rank": 1, "dice": [0], "collected": True}
    mine = {"seat": 0, "action": "turn_order", "rank": 2, "dice": [0], "collected": False}
    start = dhw.changed(
        table(order=[0, 1, 2, 3]), phase="collection", task=None, step=None, placements=[top, mine]
    )
    events = flow.advance(start, Rng("rules"))
    assert dhw.types(events) == ["CollectionTurn"]
    _, after = dhw.play(dhw.fold(start, events), 0, {"type": "decline"})
    assert after["order"] == [0, 1, 2, 3]
    # a game created under 1.0.0 collected it for the seat: down to second
    old = dhw.under(start, "1.0.0")
    events = flow.advance(old, Rng("rules"))
    assert dhw.first(events, "TurnOrderChanged")["order"] == [1, 0, 2, 3]


@pytest.mark.parametrize("action", ["pioneer", "politics", "tycoon", "sheriff", "scout", "market"])
def test_actions_with_choices_or_a_decline_worth_making_wait_for_the_seat(action):
    events, state = phase(holding(table(), food=3, ore=3), {"seat": 0, "action": action})
    assert dhw.types(events) == ["CollectionTurn"]
    assert rules.to_move(state) == [0] and {"type": "decline"} in rules.legal(state, 0)


HELD = {
    None: {},
    "stock": {"stock": 1},
    "loan": {"loan": 1, "food": 6},
    "poor_loan": {"loan": 1, "food": 5},
}


@pytest.mark.parametrize(
    ("holding_", "asked"),
    [
        ({"hands": [["supply_wagon-1"], [], [], []]}, True),  # a card to play
        ({"goods": "stock"}, True),  # a stock token to cash
        ({"goods": "loan"}, True),  # a loan it can pay off
        ({"goods": "poor_loan"}, False),  # a loan it cannot pay off
        ({}, False),
    ],
)
def test_a_1_0_0_game_asks_before_a_free_collection_only_a_seat_with_something_to_do(
    holding_, asked
):
    state = holding(
        table(hands=holding_.get("hands", [[], [], [], []])), **HELD[holding_.get("goods")]
    )
    events, after = phase(dhw.under(state, "1.0.0"), {"seat": 0, "action": "hired_hand"})
    assert (dhw.types(events) == ["CollectionTurn"]) is asked
    assert (after["phase"] == "collection") is asked


HANDS = {"none": [], "card": ["supply_wagon-1"], "placement_card": ["lucky_break-1"]}


@pytest.mark.parametrize("goods", list(HELD))
@pytest.mark.parametrize("hand", list(HANDS))
def test_whether_a_seat_is_asked_to_collect_never_depends_on_what_it_holds(hand, goods):
    # the same question, in the same public event, whatever the seat's hand, tokens or
    # loans: the question tells nobody what it holds
    state = holding(table(hands=[HANDS[hand], [], [], []]), **HELD[goods])
    events, after = phase(state, {"seat": 0, "action": "hired_hand"})
    assert events == [
        {
            "type": "CollectionTurn",
            "payload": {"seat": 0, "action": "hired_hand", "placement": 0},
            "visibility": "public",
        }
    ]
    assert rules.to_move(after) == [0]
    asked = {c["type"] for c in rules.legal(after, 0)}
    assert {"collect", "decline"} <= asked


def seen_by(viewer, events, state):
    """What a viewer (another seat or a spectator) learns from a step: the events as
    redacted for it, its view, whose turn it is and its own legal commands."""
    shown = [e if may_see(e["visibility"], viewer) else {"type": e["type"]} for e in events]
    return shown, rules.view(state, viewer), rules.to_move(state), rules.legal(state, viewer)


def test_what_others_see_and_are_asked_never_depends_on_a_seats_hidden_hand():
    # tables that differ only in which card seat 0 holds (playable now, a placement card,
    # another playable one); every seat sends the first command it is offered that plays
    # no card, so the hidden hand is all that differs
    placements = (
        {"seat": 2, "action": "turn_order", "rank": 1},
        {"seat": 0, "action": "produce", "row": "food", "slot": "two"},
        {"seat": 0, "action": "hired_hand"},
        {"seat": 1, "action": "engineer"},
        {"seat": 0, "action": "market"},
        {"seat": 3, "action": "market"},
    )
    observed = []
    for card in ("supply_wagon-1", "lucky_break-1", "foreman-1"):
        state = holding(table(hands=[[card], [], [], []]), food=3)
        events, state = phase(state, *placements)
        steps = [[seen_by(v, events, state) for v in (1, 2, 3, None)]]
        while state["phase"] == "collection" and len(steps) < 60:
            seat = rules.to_move(state)[0]
            command = next(c for c in rules.legal(state, seat) if c["type"] != "play_card")
            events, state = dhw.play(state, seat, command)
            steps.append([seen_by(v, events, state) for v in (1, 2, 3, None)])
        assert state["phase"] == "placement"
        observed.append(steps)
    assert observed[0] == observed[1] == observed[2]
    # seat 0 was asked at each of its three collections, holding what it did
    asked = [e for step in observed[0] for e in step[0][0] if e["type"] == "CollectionTurn"]
    assert [e["payload"]["seat"] for e in asked] == [2, 0, 0, 1, 0, 3]


def test_a_seat_holding_a_card_is_asked_before_and_after_collecting_until_it_passes():
    state = table(hands=[["supply_wagon-1"], [], [], []])
    events, state = phase(
        state, {"seat": 0, "action": "hired_hand"}, {"seat": 1, "action": "broker"}
    )
    offered = {c["type"] for c in rules.legal(state, 0)}
    assert offered == {"collect", "decline", "play_card"}
    events, state = collect(state)
    assert dhw.types(events) == ["ActionCollected", "BonusDieGained"]  # asked again: no more
    assert {c["type"] for c in rules.legal(state, 0)} == {"play_card", "pass"}
    events, state = dhw.play(state, 0, {"type": "pass"})
    assert dhw.types(events) == ["CollectionPassed", "CollectionTurn"]
    assert dhw.first(events, "CollectionTurn")["seat"] == 1


def test_a_seat_that_played_its_card_is_not_asked_after_collecting():
    state = table(hands=[["supply_wagon-1"], [], [], []])
    _, state = phase(state, {"seat": 0, "action": "hired_hand"})
    events, state = dhw.play(
        state, 0, {"type": "play_card", "card": "supply_wagon-1", "take": {"ore": 2}}
    )
    assert dhw.types(events) == ["CardPlayed"]
    assert rules.to_move(state) == [0] and "pass" not in {c["type"] for c in rules.legal(state, 0)}
    events, state = collect(state)
    assert "CollectionPassed" not in dhw.types(events) and "RoundEnded" in dhw.types(events)


# --- tokens -------------------------------------------------------------------------------


def test_token_limits_follow_the_cities_on_the_board():
    one = holding(table(), stock=1)
    assert change(collect(at("broker", one))[0]) == {}
    three = holding(table(cities={**CITIES, "2,1": 0, "4,1": 0}), stock=2)
    assert change(collect(at("broker", three))[0]) == {"stock": 1}


def test_the_scoundrel_holds_one_wild_die_more_than_the_city_limit():
    scoundrel = holding(table(characters=["scoundrel", None, None, None]), wild=1, engineer=1)
    assert change(collect(at("engineer", scoundrel))[0]) == {"wild": 1}
    at_limit = holding(table(characters=["scoundrel", None, None, None]), wild=2, engineer=1)
    assert change(collect(at("engineer", at_limit))[0]) == {}


def test_the_banker_holds_one_loan_more_than_the_city_limit():
    command = {"type": "dealer", "die": 0, "loan": {"food": 3}}
    plain = dhw.with_dice(holding(table(), loan=1), 0, [2, 5])
    assert refused(plain, command).code == "rule/token_limit"
    banker = dhw.with_dice(
        holding(table(characters=["banker", None, None, None]), loan=1), 0, [2, 5]
    )
    events, after = dhw.play(banker, 0, command)
    assert after["goods"][0]["loan"] == 2 and after["goods"][0]["food"] == 3
    twice = dhw.with_dice(
        holding(table(characters=["banker", None, None, None]), loan=2), 0, [2, 5]
    )
    assert refused(twice, command).code == "rule/token_limit"


def test_loans_are_paid_off_with_six_resources_each_any_number_in_a_window():
    state = at("market", holding(table(), loan=2, food=6, wood=4, ore=2))
    assert {"type": "pay_loan", "pay": {"food": 6}} in rules.legal(state, 0)
    events, state = dhw.play(state, 0, {"type": "pay_loan", "pay": {"food": 6}})
    assert dhw.first(events, "LoanPaid") == {"seat": 0, "change": {"food": -6, "loan": -1}}
    _, state = dhw.play(state, 0, {"type": "pay_loan", "pay": {"wood": 4, "ore": 2}})
    assert state["goods"][0]["loan"] == 0
    assert sum(state["goods"][0][r] for r in ("food", "wood", "ore")) == 0
    assert refused(state, {"type": "pay_loan", "pay": {"food": 6}}).code == "rule/no_loan"


def test_a_loan_cannot_be_paid_off_with_fewer_resources_or_ones_not_held():
    state = at("market", holding(table(), loan=1, food=5, wood=1))
    assert refused(state, {"type": "pay_loan", "pay": {"food": 5}}).code == "command/invalid"
    assert refused(state, {"type": "pay_loan", "pay": {"food": 6}}).code == "rule/cannot_pay"


def test_the_banker_pays_a_loan_off_with_five_resources():
    banker = table(characters=["banker", None, None, None])
    state = at("market", holding(banker, loan=1, food=5))
    events, after = dhw.play(state, 0, {"type": "pay_loan", "pay": {"food": 5}})
    assert dhw.first(events, "LoanPaid")["change"] == {"food": -5, "loan": -1}
    assert after["goods"][0]["loan"] == 0


@pytest.mark.parametrize(
    ("take", "gained"), [({"gold": 1}, {"gold": 1}), ({"food": 1, "ore": 2}, {"food": 1, "ore": 2})]
)
def test_stock_is_cashed_for_a_gold_or_three_resources_once_a_turn(take, gained):
    state = at("market", holding(table(), stock=2))
    events, after = dhw.play(state, 0, {"type": "cash_stock", "take": take})
    assert dhw.first(events, "StockCashed")["change"] == {"stock": -1, **gained}
    assert after["goods"][0]["stock"] == 1
    assert not any(c["type"] == "cash_stock" for c in rules.legal(after, 0))
    assert refused(after, {"type": "cash_stock", "take": {"gold": 1}}).code == "rule/token_used"


@pytest.mark.parametrize("take", [{"gold": 2}, {"ore": 2}, {"gold": 1, "ore": 1}])
def test_stock_gives_one_gold_or_three_resources_no_other(take):
    state = at("market", holding(table(), stock=1))
    assert refused(state, {"type": "cash_stock", "take": take}).code == "command/invalid"


# --- the settle turns at the end of the Collection Phase ------------------------------------


def test_seats_that_may_still_pay_or_cash_are_asked_once_more_in_turn_order():
    state = holding(holding(table(order=[2, 0, 3, 1]), 1, stock=1), 3, loan=1, food=6)
    events, state = phase(state)
    assert dhw.first(events, "SettleTurn") == {"seat": 3, "final": False}
    assert {c["type"] for c in rules.legal(state, 3)} == {"pay_loan", "pass"}
    assert refused(state, {"type": "decline"}, seat=3).code == "rule/not_now"
    events, state = dhw.play(state, 3, {"type": "pass"})
    assert dhw.types(events) == ["SettlePassed", "SettleTurn"]
    assert dhw.first(events, "SettleTurn") == {"seat": 1, "final": False}
    events, state = dhw.play(state, 1, {"type": "cash_stock", "take": {"gold": 1}})
    assert "RoundEnded" in dhw.types(events)  # nothing more for seat 1 to do: the turn ends


def test_a_seat_with_nothing_left_to_do_is_not_asked_to_settle():
    state = holding(table(), 0, loan=1, food=5)
    state = holding(state, 1, stock=1)
    state["used"][1]["stock"] = True  # cashed one this turn
    events, _ = phase(state)
    assert "SettleTurn" not in dhw.types(events) and "RoundEnded" in dhw.types(events)


# --- the end of the game ------------------------------------------------------------------


def test_all_cities_and_towns_built_trigger_the_end_and_the_phase_is_finished():
    cities = {"1,0": 0, "5,2": 0, "-1,3": 0, "7,0": 1, "-2,6": 2, "4,6": 3}
    towns = {"0,0": 0, "0,1": 0, "6,2": 0, "0,2": 0, "-1,4": 0}
    state = holding(table(cities=cities, towns=towns), food=2, wood=1)
    state = holding(state, 1, food=3)
    events, state = phase(state, {"seat": 0, "action": "builder"}, {"seat": 1, "action": "market"})
    events, state = collect(state, build="town", hex="2,0")
    assert dhw.types(events)[:3] == ["ActionCollected", "TownPlaced", "GameEndTriggered"]
    assert dhw.first(events, "GameEndTriggered") == {"seat": 0, "reason": "all_pieces"}
    assert rules.to_move(state) == [1]  # the phase is finished
    events, state = collect(state, seat=1, pay={"food": 3}, take={"ore": 1})
    assert dhw.types(events)[-2:] == ["RoundEnded", "ScoresCounted"]
    assert "RoundStarted" not in dhw.types(events)
    assert state["phase"] == "over" and state["goods"][1]["ore"] == 1
    assert dhw.first(events, "ScoresCounted")["end"] == {"reason": "all_pieces", "seat": 0}


def test_five_towns_and_three_cities_do_not_end_the_game():
    cities = {"1,0": 0, "5,2": 0, "-1,3": 0, "7,0": 1, "-2,6": 2, "4,6": 3}
    towns = {"0,0": 0, "0,1": 0, "6,2": 0, "0,2": 0}
    state = at("builder", holding(table(cities=cities, towns=towns), food=2, wood=1))
    events, _ = collect(state, build="town", hex="2,0")
    assert "GameEndTriggered" not in dhw.types(events) and "RoundStarted" in dhw.types(events)


def test_reaching_the_game_end_influence_ends_the_game_even_if_it_is_lost_again():
    state = holding(table(hands=[[], ["mudslinging-1"], [], []]), ore=1, influence=10)
    events, state = phase(state, {"seat": 0, "action": "politics"}, {"seat": 1, "action": "market"})
    events, state = collect(state, pay={"ore": 1})
    assert dhw.first(events, "GameEndTriggered") == {"seat": 0, "reason": "influence"}
    _, state = dhw.play(state, 1, {"type": "play_card", "card": "mudslinging-1", "target": 0})
    assert state["goods"][0]["influence"] == 9  # below the token again
    events, state = dhw.play(state, 1, {"type": "decline"})
    assert dhw.types(events)[-1] == "ScoresCounted" and state["phase"] == "over"
    assert rules.outcome(state)["scores"][0] == 9


@pytest.mark.parametrize(("influence", "ends"), [(4, True), (3, False)])
def test_the_game_end_token_lies_where_the_option_puts_it(influence, ends):
    state = at("politics", holding(table(end_influence=5), ore=1, influence=influence))
    events, after = collect(state, pay={"ore": 1})
    assert ("GameEndTriggered" in dhw.types(events)) is ends
    assert (after["phase"] == "over") is ends


def test_the_final_settle_cashes_every_stock_and_pays_loans_before_scoring():
    state = holding(table(), stock=2, loan=1, food=6, influence=1)
    events, state = finished(state)
    assert dhw.first(events, "SettleTurn") == {"seat": 0, "final": True}
    _, state = dhw.play(state, 0, {"type": "cash_stock", "take": {"gold": 1}})
    _, state = dhw.play(state, 0, {"type": "cash_stock", "take": {"gold": 1}})  # every one
    events, state = dhw.play(state, 0, {"type": "pay_loan", "pay": {"food": 6}})
    assert dhw.types(events)[-1] == "ScoresCounted"  # nothing left: scored at once
    assert dhw.first(events, "ScoresCounted")["breakdown"][0]["total"] == 2 + 1
    assert rules.outcome(state)["winners"] == [0]


# --- scoring ------------------------------------------------------------------------------


def test_the_score_adds_gold_influence_cities_and_roles_less_loans_and_jail():
    state = table(
        cities=EXAMPLE_CITIES,
        towns=EXAMPLE_TOWNS,
        rails=EXAMPLE_RAILS,
        roles={"mayor": 0, "sheriff": 0},
        jail=[1, 0, 0, 0],
    )
    state = holding(state, gold=3, influence=4, loan=2, food=2)
    events, state = finished(state)
    line = dhw.first(events, "ScoresCounted")["breakdown"][0]
    assert line == {
        "gold": 3,
        "influence": 4,
        "cities": {"1,1": 4, "4,1": 2},
        "roles": ["mayor", "sheriff"],
        "loans": -2,
        "jail": -1,
        "total": 3 + 4 + 6 + 2 - 2 - 1,
    }
    assert rules.outcome(state)["scores"][0] == 12


@pytest.mark.parametrize(
    ("rails", "cities", "total"),
    [(EXAMPLE_RAILS, {"1,1": 4, "4,1": 2}, 6), (EXAMPLE_RAILS + STARS, {"1,1": 6, "4,1": 6}, 12)],
    ids=["as_drawn", "with_the_starred_rails"],
)
def test_the_city_scoring_example_reaches_the_final_score(rails, cities, total):
    state = table(cities=EXAMPLE_CITIES, towns=EXAMPLE_TOWNS, rails=rails)
    events, state = finished(state)
    assert dhw.first(events, "ScoresCounted")["breakdown"][0]["cities"] == cities
    assert rules.outcome(state)["scores"] == [total, 0, 0, 0]


def test_other_players_towns_never_score_for_a_city():
    towns = {**EXAMPLE_TOWNS, "0,0": 1}
    events, _ = finished(table(cities=EXAMPLE_CITIES, towns=towns, rails=EXAMPLE_RAILS + STARS))
    assert dhw.first(events, "ScoresCounted")["breakdown"][0]["cities"] == {"1,1": 5, "4,1": 5}


def _tied(order, goods0, goods1):
    state = holding(holding(table(order=order), 0, **goods0), 1, **goods1)
    return rules.outcome(finished(state)[1])


def test_a_tie_goes_to_the_most_influence():
    result = _tied([0, 1, 2, 3], {"gold": 3, "influence": 2}, {"gold": 1, "influence": 4})
    assert result["scores"][:2] == [5, 5]
    assert result["winners"] == [1] and result["ranks"][:2] == [2, 1]


def test_a_tie_on_influence_goes_to_the_most_resources_not_gold():
    result = _tied(
        [0, 1, 2, 3], {"gold": 3, "influence": 2, "food": 1}, {"gold": 3, "influence": 2, "wood": 2}
    )
    assert result["scores"][:2] == [5, 5] and result["winners"] == [1]


@pytest.mark.parametrize(("order", "winner"), [([1, 3, 0, 2], 1), ([2, 0, 3, 1], 0)])
def test_a_tie_on_everything_else_goes_to_the_earlier_turn_order(order, winner):
    goods = {"gold": 2, "influence": 2, "ore": 1}
    result = _tied(order, goods, goods)
    assert result["scores"][:2] == [4, 4] and result["winners"] == [winner]


def test_nobody_is_scored_before_the_game_ends():
    _, state = phase(table(), {"seat": 0, "action": "broker"})
    assert rules.outcome(state) is None


# --- every collect legal() offers is accepted ---------------------------------------------


RICH = {"food": 4, "wood": 5, "ore": 2, "gold": 1}
TABLES = {
    "produce": ("produce", {"row": "food", "slot": "plus"}, {}),
    "politics": ("politics", {}, {}),
    "work_crew": ("work_crew", {}, {"towns": {**HOME_TOWNS, "0,2": 0}}),
    "rail_baron": ("rail_baron", {}, {"events": ["rail_strike-1"]}),
    "builder": ("builder", {}, {"rails": CITY_RAILS, "towns": {"0,0": 0}}),
    "builder_rugged": ("builder", {}, {"cities": ROUGH_CITIES, "towns": {}}),
    "trader": ("trader", {}, {"events": ["gold_strike-1"]}),
    "scout": ("scout", {}, {}),
    "mayor": ("mayor", {}, {}),
    "sheriff": ("sheriff", {}, {"events": ["city_fire-1"]}),
    "tycoon": ("tycoon", {}, {"characters": ["railroader", None, None, None]}),
    "market": ("market", {}, {"temporary": ["boom_town-1"]}),
    "market_merchant": ("market", {}, {"characters": ["merchant", None, None, None]}),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_every_collect_legal_offers_is_accepted(name):
    action, placement, fields = TABLES[name]
    state = at(action, holding(table(**fields), **RICH), **placement)
    offered = [c for c in rules.legal(state, 0) if c["type"] == "collect"]
    assert offered
    for command in offered:
        events, after = dhw.play(state, 0, command)
        assert dhw.types(events)[0] == "ActionCollected", command
        assert all(n >= 0 for n in after["goods"][0].values()), command
