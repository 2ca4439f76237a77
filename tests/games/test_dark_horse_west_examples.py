"""Every worked example of the Dark Horse West rule text, each a test named after it.

Examples tested where their rule is: Paul's 6 and 3 and Jason's 2 and 5 (Dealer), Dave's
Builder shared with Larry's (Engineer token): test_dark_horse_west_placement.py; Justin
and Gary's Turn Order slots and Rob's food with the 4+ icon:
test_dark_horse_west_collection.py; the Gunslinger pawn on #3 rolling a four:
test_dark_horse_west_variants.py; the City Scoring Example: test_dark_horse_west_rails.py
and test_dark_horse_west_collection.py. The text's "Lose one Influence point" penalty
example names no card of the house deck (no card costs its own player influence).
"""

import dhw
import pytest

from referee.engine.errors import RuleViolation
from referee.engine.rng import Rng
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west import hexes, solitaire, table

BASE = dhw.set_up(3, seed="examples")
SEAT = BASE["order"][0]


def placing(values: list[int], **goods: int):
    """The first seat in turn order to place, with these dice and goods."""
    state = dhw.with_goods(BASE, SEAT, **goods) if goods else BASE
    return dhw.with_dice(dhw.changed(state, placements=[]), SEAT, values)


def offered(state, action: str) -> list[list[int]]:
    """The groups of dice legal() offers to place on an action, without a token."""
    return sorted(
        c["dice"]
        for c in rules.legal(state, SEAT)
        if c["type"] == "place" and c["action"] == action and len(c) == 3
    )


def test_a_two_and_a_four_give_hired_hand_work_crew_or_builder():
    state = placing([2, 4])
    assert offered(state, "hired_hand") == [[0]]
    assert offered(state, "work_crew") == [[1]]
    assert offered(state, "builder") == [[0, 1]]


def test_a_three_and_a_five_give_politics_rail_baron_or_eight_on_trader_or_engineer():
    state = placing([3, 5])
    assert offered(state, "politics") == [[0]]
    assert offered(state, "rail_baron") == [[1]]
    assert offered(state, "trader") == offered(state, "engineer") == [[0, 1]]


def test_two_dice_are_never_placed_on_market_together():
    state = placing([3, 5])
    with pytest.raises(RuleViolation):
        dhw.decide(state, SEAT, {"type": "place", "action": "market", "dice": [0, 1]})
    assert offered(state, "market") == [[0], [1]]


def test_rail_baron_takes_a_natural_five_not_a_two_and_a_three():
    two_and_three = {"type": "place", "action": "rail_baron", "dice": [0, 1]}
    with pytest.raises(RuleViolation) as refused:
        dhw.decide(placing([2, 3]), SEAT, two_and_three)
    assert refused.value.code == "rule/placement_refused"
    a_four = {"type": "place", "action": "rail_baron", "dice": [0], "wild": 1}
    with pytest.raises(RuleViolation) as refused:
        dhw.decide(placing([4, 3], wild=1), SEAT, a_four)
    assert "+/-1" in refused.value.message
    five = {"type": "place", "action": "rail_baron", "dice": [0]}
    assert dhw.first(dhw.decide(placing([5, 3]), SEAT, five), "DicePlaced")["total"] == 5


def collecting(action: str, **goods: int):
    state = dhw.with_goods(BASE, SEAT, **goods)
    return dhw.collecting(state, {"seat": SEAT, "action": action, "dice": [0], "total": 6})


def test_joseph_builds_one_town_or_one_city_never_both():
    state = collecting("builder", food=9, wood=9, ore=9, gold=9)
    state = dhw.changed(state, rails=sorted([*BASE["rails"], *TO_A_CITY_SITE]))
    choices = [c for c in rules.legal(state, SEAT) if c["type"] == "collect"]
    assert {"town", "city"} == {c["build"] for c in choices}
    events, after = dhw.play(state, SEAT, {"type": "collect", "build": "town", "hex": "3,2"})
    assert dhw.types(events)[:2] == ["ActionCollected", "TownPlaced"]
    assert not any(c["type"] == "collect" for c in rules.legal(after, SEAT))


def test_alisa_trades_four_resources_once_for_one_gold_and_not_twice():
    state = collecting("trader", food=8)
    events, after = dhw.play(
        state, SEAT, {"type": "collect", "pay": {"food": 4}, "take": {"gold": 1}}
    )
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -4, "gold": 1}
    assert after["goods"][SEAT]["gold"] == 1 and after["goods"][SEAT]["food"] == 4
    assert not any(c["type"] == "collect" for c in rules.legal(after, SEAT))
    with pytest.raises(RuleViolation):
        dhw.decide(after, SEAT, {"type": "collect", "pay": {"food": 4}, "take": {"gold": 1}})


def test_drought_puts_the_event_marker_on_builder():
    state = dhw.changed(BASE, deck=["drought-1", "land_grant-1"], discard=[])
    state = dhw.collecting(state, {"seat": SEAT, "action": "pioneer", "dice": [0, 1]})
    events = dhw.decide(state, SEAT, {"type": "collect"})
    assert dhw.first(events, "EventPlayed") == {
        "card": "drought-1", "seat": SEAT, "permanent": True, "marker": "builder",
    }  # fmt: skip


def test_the_blue_player_produces_a_food_and_a_wood_never_ore_and_two_food_with_a_third_town():
    towns = {h: s for h, s in BASE["towns"].items() if s != SEAT}
    two = dhw.changed(BASE, towns={**towns, "0,0": SEAT, "0,1": SEAT})  # printed food, wood
    crew = dhw.collecting(
        dhw.with_goods(two, SEAT), {"seat": SEAT, "action": "work_crew", "dice": [0]}
    )
    assert [c["resources"] for c in rules.legal(crew, SEAT) if c["type"] == "collect"] == [
        ["food", "wood"]
    ]
    with pytest.raises(RuleViolation):
        dhw.decide(crew, SEAT, {"type": "collect", "resources": ["food", "ore"]})
    events = dhw.decide(crew, SEAT, {"type": "collect", "resources": ["food", "wood"]})
    assert dhw.first(events, "ActionCollected")["change"] == {"food": 1, "wood": 1}
    three = dhw.changed(two, towns={**two["towns"], "8,0": SEAT})  # another printed food
    crew = dhw.collecting(
        dhw.with_goods(three, SEAT), {"seat": SEAT, "action": "work_crew", "dice": [0]}
    )
    events = dhw.decide(crew, SEAT, {"type": "collect", "resources": ["food", "wood"]})
    assert dhw.first(events, "ActionCollected")["change"] == {"food": 2, "wood": 1}


# rails from seat 0's city on 2,1 round 3,1 to a corner and a side of 4,1, a city site
TO_A_CITY_SITE = ["2,2|3,1", "3,1|3,2", "3,1|4,1"]


def grown_to_a_city_site():
    """The table with rails from the seat's city to the city site 4,1."""
    state = dhw.changed(BASE, rails=sorted([*BASE["rails"], *TO_A_CITY_SITE]))
    assert SEAT == 0 and "4,1" in table.city_sites(state, SEAT)
    return state


def test_entrepreneur_after_a_new_city_lays_its_rail_further_out():
    state = grown_to_a_city_site()
    site = "4,1"
    built = dhw.changed(state, cities={**state["cities"], site: SEAT})
    card = {"type": "play_card", "card": "entrepreneur-1"}
    rails_before = set(rail_choices(state, card))
    rails_after = set(rail_choices(built, card))
    sides_of_new_city = set(hexes.sides(hexes.parse_hex(site)))
    assert (rails_after - rails_before) & sides_of_new_city


def rail_choices(state, card):
    """Where the Entrepreneur's free rail may go, played in a collection window."""
    state = dhw.changed(state, hands=[(["entrepreneur-1"] if s == SEAT else []) for s in range(3)])
    state = dhw.collecting(state, {"seat": SEAT, "action": "market", "dice": [0]})
    _, after = dhw.play(state, SEAT, card)
    return [c["edge"] for c in rules.legal(after, SEAT)]


def test_the_scoundrel_sells_one_card_and_swaps_one_but_no_more():
    state = dhw.changed(
        BASE,
        characters=[("scoundrel" if s == SEAT else None) for s in range(3)],
        hands=[
            (["foreman-1", "election-1", "supply_wagon-1"] if s == SEAT else []) for s in range(3)
        ],
        phase_discards=["land_grant-1"],
        discard=["land_grant-1"],
    )
    state = dhw.collecting(state, {"seat": SEAT, "action": "market", "dice": [0]})
    sell = {"type": "use_ability", "ability": "sell_card", "card": "foreman-1", "take": {"ore": 2}}
    events, state = dhw.play(state, SEAT, sell)
    assert dhw.first(events, "AbilityUsed")["change"] == {"ore": 2}
    swap = {
        "type": "use_ability",
        "ability": "swap_card",
        "card": "election-1",
        "taken": "land_grant-1",
    }
    events, state = dhw.play(state, SEAT, swap)
    assert "land_grant-1" in state["hands"][SEAT] and "election-1" not in state["hands"][SEAT]
    for again in (sell | {"card": "supply_wagon-1"}, swap | {"card": "supply_wagon-1"}):
        with pytest.raises(RuleViolation) as refused:
            dhw.decide(state, SEAT, again)
        assert refused.value.code == "rule/ability_used"


@pytest.mark.parametrize(
    ("pair", "blocked"), [((6, 3), "scout"), ((4, 3), "trader"), ((5, 3), "engineer")]
)
def test_ornery_ghost_pairs_block_the_action_of_their_total(pair, blocked):
    solo = dhw.set_up(1, seed="examples-solo", difficulty="ornery")
    ghosts = [
        {"id": 0, "group": "single", "value": 6, "placed": None},
        {"id": 1, "group": "pair-1", "value": pair[0], "placed": None},
        {"id": 2, "group": "pair-1", "value": pair[1], "placed": None},
    ]
    state = dhw.changed(solo, ghosts=ghosts, placements=[])
    events = solitaire.ghosts_placed(state, Rng("examples"))
    placed = {e["payload"]["group"]: e["payload"]["action"] for e in events}
    assert placed == {"single": "builder", "pair-1": blocked}
