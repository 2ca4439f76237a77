"""Dark Horse West cards and characters: drawing (Pioneer, Scout), the five event rules,
every event and action card, every icon, when a card may be played, every character's
Start Game box and abilities (docs/rules/dark-horse-west.md "Cards", "Characters";
the house deck and characters in referee/games/dark_horse_west.json), on real tables
set up from a seed and then changed by hand (tests/games/dhw.py)."""

import dhw
import pytest

from referee.engine.errors import BadRequest, RuleViolation
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west import table as tb

# The base table (seed "rules", four players), turn order [2, 0, 3, 1]:
#   seat 0: city 2,1; towns 2,0 (food-4) and 2,2 (food-5, a rugged spot): two food towns
#   seat 1: city -1,2; towns 0,1 (printed wood) and 0,2 (ore-2)
#   seat 2: city 2,5; towns 1,6 (wood-1) and 2,4 (wood-2); may build on 3,4 (a face-down
#           rugged wood tile on a rugged spot)
#   seat 3: city -1,5; towns -1,4 (ore-1) and -1,6 (wood-4); may build on -2,5 (printed
#           wood, not rugged)
# Face down: 1,3 1,4 2,3 3,2 3,3 3,4 4,0 4,2 4,3. Every seat holds 1 food, 1 wood, 1 ore
# and a Wild Die token; nobody holds a card; the deck is the house deck, shuffled.
BASE = dhw.set_up(4)
ORDER = [2, 0, 3, 1]
PLAIN = ["land_grant-1", "foreman-1", "supply_wagon-1", "stagecoach-1"]  # no events
# rails that give seat 0 a city site on 4,1 (a rail on its west side, reached from 2,1)
CITY_RAILS = ["2,1|3,0", "3,0|3,1", "3,1|4,0", "3,1|4,1"]


def hands(seat, cards):
    out = [[] for _ in range(BASE["seats"])]
    out[seat] = list(cards)
    return out


def at(seat, action="market", *, cards=(), state=None, dice=(0,), **fields):
    """The Collection Phase, the seat's placement on `action` being collected, the seat
    holding `cards`; other top-level fields replaced."""
    state = dhw.changed(state or BASE, hands=hands(seat, cards), **fields)
    placement = {"seat": seat, "action": action, "dice": list(dice)}
    if action == "produce":
        placement.update(row="food", slot="plus")
    return dhw.collecting(state, placement)


def as_character(state, seat, character):
    characters = list(state["characters"])
    characters[seat] = character
    return dhw.changed(state, characters=characters)


def goods(state, seat, **held):
    return dhw.with_goods(state, seat, **held)


def used(state, seat, **flags):
    out = dhw.changed(state)
    out["used"][seat].update(flags)
    return out


def play(state, seat, card, **fields):
    return dhw.play(state, seat, {"type": "play_card", "card": card, **fields})


def refused(state, seat, command, error=RuleViolation):
    with pytest.raises(error) as caught:
        dhw.decide(state, seat, command)
    return caught.value


def collect(state, seat, **fields):
    return dhw.play(state, seat, {"type": "collect", **fields})


def keep(state, seat, **fields):
    return dhw.play(state, seat, {"type": "keep_card", **fields})


def ability(state, seat, name, **fields):
    return dhw.play(state, seat, {"type": "use_ability", "ability": name, **fields})


def every(events, kind):
    return [e["payload"] for e in events if e["type"] == kind]


def to_next_round(state, seat):
    """Decline the placement being collected (unless collected), pass every window left;
    the events up to the next Placement Phase (or the score) and the state then."""
    done = state["step"].get("collected")
    events, state = dhw.play(state, seat, {"type": "pass" if done else "decline"})
    while state["phase"] == "collection":
        ev, state = dhw.play(state, rules.to_move(state)[0], {"type": "pass"})
        events += ev
    return events, state


def dice_rolled(events, seat):
    return next(p["dice"] for p in every(events, "DiceRolled") if p["seat"] == seat)


# --- drawing: Pioneer and Scout -------------------------------------------------------------


def test_pioneer_draws_two_cards_that_only_the_drawer_sees():
    state = at(0, "pioneer", dice=(0, 1), deck=[*PLAIN])
    events, state = collect(state, 0)
    drawn = next(e for e in events if e["type"] == "CardsDrawn")
    assert drawn["payload"]["cards"] == PLAIN[:2]
    assert drawn["visibility"] == [0]
    assert rules.to_move(state) == [0]
    assert state["task"]["drawn"] == PLAIN[:2]
    assert rules.view(state, 1)["task"].get("drawn") is None


def test_pioneer_keeps_one_card_and_discards_the_other_face_up():
    state = at(0, "pioneer", dice=(0, 1), deck=[*PLAIN])
    _, state = collect(state, 0)
    events, state = keep(state, 0, card="foreman-1")
    assert dhw.types(events)[:3] == ["CardKept", "DrawChosen", "CardsDiscarded"]
    assert events[0]["visibility"] == [0]
    assert events[1]["visibility"] == events[2]["visibility"] == "public"
    assert dhw.first(events, "DrawChosen") == {"seat": 0, "action": "pioneer"}
    assert dhw.first(events, "CardsDiscarded")["cards"] == ["land_grant-1"]
    assert state["hands"][0] == ["foreman-1"]
    assert state["discard"] == ["land_grant-1"]
    assert state["deck"] == PLAIN[2:]


def test_a_keep_is_told_in_public_from_1_2_0_and_only_to_the_keeper_before():
    state = at(0, "scout", dice=(0, 1), deck=[*PLAIN, "surveyor-1"])
    _, state = collect(state, 0)
    chosen = {"card": "foreman-1", "top": ["supply_wagon-1", "land_grant-1"]}
    events, _ = keep(state, 0, **chosen)
    assert [(e["type"], e["visibility"]) for e in events] == [
        ("CardKept", [0]),
        ("DrawChosen", "public"),
    ]
    assert dhw.first(events, "DrawChosen") == {"seat": 0, "action": "scout"}
    events, _ = keep(dhw.under(state, "1.1.0"), 0, **chosen)
    assert dhw.types(events) == ["CardKept"]


def test_pioneer_keeps_only_a_card_it_drew():
    state = at(0, "pioneer", dice=(0, 1), deck=[*PLAIN])
    _, state = collect(state, 0)
    assert refused(state, 0, {"type": "keep_card", "card": "stagecoach-1"}).code == "rule/keep"


def test_scout_draws_three_keeps_one_and_puts_the_other_two_back_on_top_in_the_order_given():
    state = at(0, "scout", dice=(0, 1), deck=[*PLAIN, "surveyor-1"])
    events, state = collect(state, 0)
    assert dhw.first(events, "CardsDrawn")["cards"] == PLAIN[:3]
    events, state = keep(state, 0, card="foreman-1", top=["supply_wagon-1", "land_grant-1"])
    assert "CardsDiscarded" not in dhw.types(events)
    assert dhw.first(events, "CardKept")["top"] == ["supply_wagon-1", "land_grant-1"]
    assert events[0]["visibility"] == [0]
    assert state["hands"][0] == ["foreman-1"]
    assert state["deck"] == ["supply_wagon-1", "land_grant-1", "stagecoach-1", "surveyor-1"]
    assert state["discard"] == []


def test_scout_must_put_back_every_other_card():
    state = at(0, "scout", dice=(0, 1), deck=[*PLAIN])
    _, state = collect(state, 0)
    short = {"type": "keep_card", "card": "foreman-1", "top": ["land_grant-1"]}
    assert refused(state, 0, short).code == "rule/keep"
    stray = {"type": "keep_card", "card": "foreman-1", "top": ["land_grant-1", "stagecoach-1"]}
    assert refused(state, 0, stray).code == "rule/keep"


def test_scout_looks_at_a_face_down_hex_that_only_it_sees():
    state = at(0, "scout", dice=(0, 1), deck=[*PLAIN])
    events, state = collect(state, 0, look="4,3")
    looked = next(e for e in events if e["type"] == "TileLooked")
    assert looked["payload"] == {"seat": 0, "hex": "4,3", "tile": BASE["layout"]["4,3"]}
    assert looked["visibility"] == [0]
    assert "4,3" in rules.view(state, 0)["tiles_seen"]
    assert "4,3" not in rules.view(state, 1).get("tiles_seen", {})


def test_one_event_drawn_comes_into_play_at_once_and_the_other_card_is_kept():
    state = at(0, "pioneer", dice=(0, 1), deck=["drought-1", "land_grant-1", "foreman-1"])
    events, state = collect(state, 0)
    played = next(e for e in events if e["type"] == "EventPlayed")
    assert played["visibility"] == "public"
    assert played["payload"]["card"] == "drought-1"
    # no choice is left: the referee keeps the other card, nothing is discarded
    assert "CardKept" in dhw.types(events)
    assert "CardsDiscarded" not in dhw.types(events)
    assert state["events"] == ["drought-1"]
    assert state["hands"][0] == ["land_grant-1"]
    assert state["task"] is None


def test_scout_drawing_one_event_keeps_one_of_the_two_other_cards():
    deck = ["foreman-1", "city_fire-1", "land_grant-1", "stagecoach-1"]
    state = at(0, "scout", dice=(0, 1), deck=deck)
    events, state = collect(state, 0)
    assert dhw.first(events, "EventPlayed")["card"] == "city_fire-1"
    assert state["task"]["drawn"] == ["foreman-1", "land_grant-1"]
    _, state = keep(state, 0, card="land_grant-1", top=["foreman-1"])
    assert state["hands"][0] == ["land_grant-1"]
    assert state["deck"] == ["foreman-1", "stagecoach-1"]
    assert state["events"] == ["city_fire-1"]


def test_two_events_drawn_go_back_the_deck_is_reshuffled_and_drawn_again():
    deck = ["drought-1", "city_fire-1", *PLAIN]
    state = at(0, "pioneer", dice=(0, 1), deck=deck, discard=["surveyor-1"])
    events, state = collect(state, 0)
    kinds = dhw.types(events)
    assert kinds[1:4] == ["CardsDrawn", "CardsReturned", "DeckShuffled"]
    assert events[2]["visibility"] == [0]
    shuffled = events[3]
    assert shuffled["visibility"] == []
    assert sorted(shuffled["payload"]["deck"]) == sorted([*deck, "surveyor-1"])
    again = [e["payload"]["cards"] for e in events if e["type"] == "CardsDrawn"]
    assert len(again) >= 2
    assert again[1] == shuffled["payload"]["deck"][:2]
    assert dhw.first(events, "CardsReturned")["cards"] == ["drought-1", "city_fire-1"]
    # no event from the first draw came into play
    first_played = [p["card"] for p in every(events, "EventPlayed")]
    assert first_played == [c for c in again[-1] if c in ("drought-1", "city_fire-1")]


def test_an_empty_deck_is_the_discard_pile_shuffled():
    state = at(0, "pioneer", dice=(0, 1), deck=[], discard=["foreman-1", "supply_wagon-1"])
    events, state = collect(state, 0)
    shuffled = dhw.first(events, "DeckShuffled")
    assert sorted(shuffled["deck"]) == ["foreman-1", "supply_wagon-1"]
    assert dhw.first(events, "CardsDrawn")["cards"] == shuffled["deck"]
    assert state["discard"] == []


def test_a_short_deck_is_shuffled_with_the_discard_pile_before_drawing():
    state = at(
        0, "scout", dice=(0, 1), deck=["foreman-1"], discard=["land_grant-1", "stagecoach-1"]
    )
    events, _ = collect(state, 0)
    shuffled = dhw.first(events, "DeckShuffled")
    assert sorted(shuffled["deck"]) == ["foreman-1", "land_grant-1", "stagecoach-1"]
    assert dhw.first(events, "CardsDrawn")["cards"] == shuffled["deck"]


def test_gold_strike_drawn_gives_a_gold_instead_of_keeping_a_card():
    state = at(0, "pioneer", dice=(0, 1), deck=["gold_strike-1", "land_grant-1", "foreman-1"])
    _, state = collect(state, 0)
    assert state["events"] == ["gold_strike-1"]
    options = rules.legal(state, 0)
    assert {"type": "keep_card", "ability": "gold_strike-1", "top": []} in options
    events, state = keep(state, 0, ability="gold_strike-1")
    assert dhw.first(events, "EventAbilityUsed")["change"] == {"gold": 1}
    assert dhw.first(events, "CardsDiscarded")["cards"] == ["land_grant-1"]
    assert state["goods"][0]["gold"] == 1
    assert state["hands"][0] == []
    assert state["events"] == ["gold_strike-1"]  # in play whether the ability is used or not


def test_railroad_boom_drawn_gives_a_rail_to_lay_instead_of_keeping_a_card():
    state = at(0, "scout", dice=(0, 1), deck=["railroad_boom-1", *PLAIN])
    _, state = collect(state, 0)
    events, state = keep(state, 0, ability="railroad_boom-1", top=PLAIN[:2])
    due = dhw.first(events, "RailsDue")
    assert (due["seat"], due["count"], due["why"]) == (0, 1, "railroad_boom")
    assert state["hands"][0] == []
    assert state["deck"][:2] == PLAIN[:2]
    edge = tb.rail_sites(state, 0)[0]
    events, after = dhw.play(state, 0, {"type": "place_rail", "edge": edge})
    assert edge in after["rails"]
    assert after["goods"][0] == state["goods"][0]  # the rail is free


# --- events -------------------------------------------------------------------------------


def builder_town(seat, hex_, events=(), **held):
    state = goods(at(seat, "builder", dice=(0, 1), events=list(events)), seat, **held)
    return collect(state, seat, build="town", hex=hex_)


def test_drought_makes_a_town_cost_one_more_food():
    events, state = builder_town(3, "-2,5", food=3, wood=1)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -2, "wood": -1}
    events, state = builder_town(3, "-2,5", ["drought-1"], food=3, wood=1)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -3, "wood": -1}
    assert state["towns"]["-2,5"] == 3
    assert refused_build(3, "-2,5", ["drought-1"], food=2, wood=1).code == "rule/cannot_pay"


def refused_build(seat, hex_, events, **held):
    state = goods(at(seat, "builder", dice=(0, 1), events=list(events)), seat, **held)
    return refused(state, seat, {"type": "collect", "build": "town", "hex": hex_})


def city_table(events=(), **held):
    state = dhw.changed(BASE, rails=sorted(BASE["rails"] + CITY_RAILS))
    return goods(at(0, "builder", dice=(0, 1), state=state, events=list(events)), 0, **held)


def test_city_fire_makes_a_city_cost_one_more_wood():
    assert tb.city_sites(city_table(), 0) == ["4,1"]
    events, _ = collect(city_table(gold=1, wood=5), 0, build="city", hex="4,1")
    assert dhw.first(events, "ActionCollected")["change"] == {"gold": -1, "wood": -4}
    events, state = collect(city_table(["city_fire-1"], gold=1, wood=5), 0, build="city", hex="4,1")
    assert dhw.first(events, "ActionCollected")["change"] == {"gold": -1, "wood": -5}
    assert state["cities"]["4,1"] == 0
    short = city_table(["city_fire-1"], gold=1, wood=4)
    command = {"type": "collect", "build": "city", "hex": "4,1"}
    assert refused(short, 0, command).code == "rule/cannot_pay"


def test_gold_strike_makes_traders_gold_cost_three_resources():
    state = goods(at(0, "trader", dice=(0, 1)), 0, food=3)
    command = {"type": "collect", "pay": {"food": 3}, "take": {"gold": 1}}
    assert refused(state, 0, command, BadRequest).code == "command/invalid"
    struck = dhw.changed(state, events=["gold_strike-1"])
    events, after = dhw.play(struck, 0, command)
    assert after["goods"][0]["gold"] == 1
    assert after["goods"][0]["food"] == 0


def test_bumper_harvest_makes_the_4_plus_icon_give_two_extra():
    events, _ = collect(at(0, "produce"), 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": 3}
    events, _ = collect(at(0, "produce", events=["bumper_harvest-1"]), 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": 4}


def test_rail_strike_makes_rail_baron_cost_one_more_food():
    events, _ = collect(goods(at(0, "rail_baron"), 0, ore=2, food=2), 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -1, "ore": -2}
    struck = goods(at(0, "rail_baron", events=["rail_strike-1"]), 0, ore=2, food=2)
    events, _ = collect(struck, 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -2, "ore": -2}
    short = goods(at(0, "rail_baron", events=["rail_strike-1"]), 0, ore=2, food=1)
    assert refused(short, 0, {"type": "collect"}).code == "rule/cannot_pay"


def test_railroad_boom_makes_tycoon_give_two_rails():
    events, _ = collect(at(0, "tycoon"), 0)
    assert dhw.first(events, "RailsDue")["count"] == 1
    events, state = collect(at(0, "tycoon", events=["railroad_boom-1"]), 0)
    assert dhw.first(events, "RailsDue")["count"] == 2
    assert state["goods"][0]["gold"] == 1


def test_winds_of_change_reverses_the_turn_order_at_once_and_is_discarded():
    deck = ["winds_of_change-1", "land_grant-1", "foreman-1"]
    state = at(0, "pioneer", dice=(0, 1), deck=deck, events=["drought-1"])
    events, state = collect(state, 0)
    assert dhw.first(events, "TurnOrderChanged")["order"] == list(reversed(ORDER))
    assert state["order"] == list(reversed(ORDER))
    assert dhw.first(events, "EventDiscarded")["card"] == "winds_of_change-1"
    assert "winds_of_change-1" in state["discard"]
    assert state["events"] == ["drought-1"]  # a temporary event replaces nothing
    assert state["temporary"] == []
    assert state["hands"][0] == ["land_grant-1"]


def test_boom_town_makes_markets_first_trade_two_for_one_this_phase():
    plain = goods(at(0, "market"), 0, food=2)
    command = {"type": "collect", "pay": {"food": 2}, "take": {"ore": 1}}
    assert refused(plain, 0, command, BadRequest).code == "command/invalid"
    booming = dhw.changed(plain, temporary=["boom_town-1"])
    events, state = dhw.play(booming, 0, command)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -2, "ore": 1}


def test_boom_town_drawn_is_temporary_and_discarded_when_the_phase_ends():
    deck = ["boom_town-1", "land_grant-1", "foreman-1"]
    state = at(0, "pioneer", dice=(0, 1), deck=deck, events=["drought-1"])
    _, state = collect(state, 0)
    assert state["temporary"] == ["boom_town-1"]
    assert state["events"] == ["drought-1"]
    assert tb.event_on(state, "boom_town") and tb.event_on(state, "drought")
    events, state = to_next_round(state, 0)
    gone = [p for p in every(events, "EventDiscarded") if p["card"] == "boom_town-1"]
    assert gone and gone[0]["why"] == "temporary"
    assert dhw.types(events).index("EventDiscarded") < dhw.types(events).index("RoundEnded")
    assert state["temporary"] == []
    assert state["events"] == ["drought-1"]
    assert state["discard"].count("boom_town-1") == 1


def test_a_new_permanent_event_replaces_and_discards_the_old_one():
    deck = ["city_fire-1", "land_grant-1", "foreman-1"]
    state = at(0, "pioneer", dice=(0, 1), deck=deck, events=["drought-1"])
    _, state = collect(state, 0)
    assert state["events"] == ["city_fire-1"]
    assert "drought-1" in state["discard"]
    assert not tb.event_on(state, "drought")


def test_the_sheriff_may_discard_the_event_in_play_leaving_none():
    state = at(0, "sheriff", dice=(0, 1), events=["rail_strike-1"])
    assert {"type": "collect", "remove_event": "rail_strike-1"} in rules.legal(state, 0)
    events, state = collect(state, 0, remove_event="rail_strike-1")
    assert state["events"] == []
    assert "rail_strike-1" in state["discard"]
    assert state["roles"]["sheriff"] == 0
    assert state["order"][0] == 0


def test_the_sheriff_removes_only_an_event_in_play():
    state = at(0, "sheriff", dice=(0, 1), events=["rail_strike-1"])
    command = {"type": "collect", "remove_event": "drought-1"}
    assert refused(state, 0, command).code == "rule/no_such_event"


# --- action cards ---------------------------------------------------------------------------


def test_entrepreneur_lays_a_free_rail():
    state = at(0, cards=["entrepreneur-1"])
    events, state = play(state, 0, "entrepreneur-1")
    assert dhw.first(events, "RailsDue")["count"] == 1
    assert rules.to_move(state) == [0]
    edge = tb.rail_sites(state, 0)[-1]
    assert {"type": "place_rail", "edge": edge} in rules.legal(state, 0)
    _, after = dhw.play(state, 0, {"type": "place_rail", "edge": edge})
    assert edge in after["rails"]
    assert after["goods"][0] == BASE["goods"][0]
    assert "entrepreneur-1" in after["discard"] and after["hands"][0] == []


def test_election_takes_politics_paying_one_resource():
    state = goods(at(0, cards=["election-1"]), 0, wood=1)
    events, state = play(state, 0, "election-1", pay={"wood": 1})
    assert dhw.first(events, "CardPlayed")["change"] == {"influence": 1, "wood": -1}
    assert state["goods"][0]["influence"] == 1 and state["goods"][0]["wood"] == 0
    broke = goods(at(0, cards=["election-1"]), 0)
    assert refused(broke, 0, {"type": "play_card", "card": "election-1"}, BadRequest)


def test_election_is_free_for_the_mayor():
    state = goods(at(0, cards=["election-1"], roles={"mayor": 0, "sheriff": None}), 0)
    events, state = play(state, 0, "election-1")
    assert state["goods"][0]["influence"] == 1
    assert dhw.first(events, "CardPlayed")["change"] == {"influence": 1}


def test_marshal_dylan_takes_the_sheriff_action():
    state = at(0, cards=["marshal_dylan-1"], roles={"mayor": None, "sheriff": 3})
    events, state = play(state, 0, "marshal_dylan-1")
    assert state["order"] == [0, 2, 3, 1]
    assert state["roles"]["sheriff"] == 0
    assert dhw.first(events, "RoleTaken") == {"seat": 0, "role": "sheriff", "from": 3}
    events, _ = to_next_round(state, 0)
    assert [d["kind"] for d in dice_rolled(events, 0)] == ["deputy", "normal"]


def test_marshal_dylan_may_discard_the_event_in_play():
    state = at(0, cards=["marshal_dylan-1"], events=["drought-1"])
    _, state = play(state, 0, "marshal_dylan-1", remove_event="drought-1")
    assert state["events"] == []


def claim_table(**fields):
    """Seat 1 holds a town on 2,2, next to seat 0's city."""
    towns = {**BASE["towns"], "2,2": 1}
    return at(0, cards=["claim_jumpers-1"], towns=towns, **fields)


def test_claim_jumpers_replaces_anothers_town_and_gives_it_back_to_them():
    state = claim_table(roles={"mayor": 0, "sheriff": None})
    events, state = play(state, 0, "claim_jumpers-1", hex="2,2")
    assert dhw.types(events)[:4] == ["CardPlayed", "TownReturned", "TownPlaced", "Jailed"]
    assert dhw.first(events, "TownReturned") == {"seat": 1, "hex": "2,2"}
    assert state["towns"]["2,2"] == 0
    assert tb.towns_left(state, 1) == 4  # the town is back in seat 1's supply
    assert tb.towns_left(state, 0) == 4
    # jail 1: the Mayor token is lost at once, one die next turn
    assert state["roles"]["mayor"] is None
    assert state["jail"][0] == 1
    events, _ = to_next_round(state, 0)
    assert len(dice_rolled(events, 0)) == 1


def test_claim_jumpers_needs_access_to_the_hex_and_anothers_town():
    state = claim_table()
    not_reached = {"type": "play_card", "card": "claim_jumpers-1", "hex": "-1,4"}
    assert refused(state, 0, not_reached).code == "rule/claim"
    own = {"type": "play_card", "card": "claim_jumpers-1", "hex": "2,0"}
    assert refused(state, 0, own).code == "rule/claim"


def test_claim_jumpers_cannot_target_the_sheriff():
    state = claim_table(roles={"mayor": None, "sheriff": 1})
    command = {"type": "play_card", "card": "claim_jumpers-1", "hex": "2,2"}
    assert refused(state, 0, command).code == "rule/sheriff_immune"
    assert not [c for c in rules.legal(state, 0) if c["type"] == "play_card"]


def test_the_ol_switcheroo_swaps_places_with_another_player():
    state = at(0, cards=["ol_switcheroo-1"])
    events, state = play(state, 0, "ol_switcheroo-1", target=1)
    assert state["order"] == [2, 1, 3, 0]
    assert dhw.first(events, "CardPlayed")["target"] == 1


@pytest.mark.parametrize(("card", "lost"), [("whispering_campaign-1", 1), ("mudslinging-1", 2)])
def test_whispering_campaign_and_mudslinging_cost_the_target_influence_and_corrupt(card, lost):
    state = at(0, cards=[card])
    state["goods"][1]["influence"] = 3
    events, state = play(state, 0, card, target=1)
    assert state["goods"][1]["influence"] == 3 - lost
    assert dhw.first(events, "InfluenceLost")["change"] == {"influence": -lost}
    assert state["goods"][0]["influence"] == 0
    assert state["order"] == [2, 3, 1, 0]  # corruption: the user goes last


@pytest.mark.parametrize("card", ["whispering_campaign-1", "mudslinging-1"])
def test_influence_cards_need_a_target_with_influence(card):
    state = at(0, cards=[card])
    assert refused(state, 0, {"type": "play_card", "card": card, "target": 1}).code == (
        "rule/no_influence"
    )
    assert not [c for c in rules.legal(state, 0) if c["type"] == "play_card"]


def test_land_grant_builds_a_town_for_nothing():
    state = goods(at(3, cards=["land_grant-1"]), 3)
    events, state = play(state, 3, "land_grant-1", hex="-2,5")
    assert "change" not in dhw.first(events, "CardPlayed")
    assert state["towns"]["-2,5"] == 3
    assert state["goods"][3] == dhw.NO_GOODS


def test_land_grant_on_a_face_down_tile_reveals_it():
    rails = sorted(BASE["rails"] + CITY_RAILS)
    state = goods(at(0, cards=["land_grant-1"], rails=rails), 0)
    assert "4,0" in tb.town_sites(state, 0) and "4,0" in tb.face_down(state)
    events, state = play(state, 0, "land_grant-1", hex="4,0")
    assert dhw.first(events, "TownPlaced")["revealed"] == BASE["layout"]["4,0"]
    assert "4,0" not in tb.face_down(state)


def test_land_grant_on_rugged_ground_still_costs_its_ore():
    state = goods(at(2, cards=["land_grant-1"]), 2, ore=1)
    events, state = play(state, 2, "land_grant-1", hex="3,4")
    assert dhw.first(events, "CardPlayed")["change"] == {"ore": -1}
    assert state["towns"]["3,4"] == 2
    # without the ore: 3,4 is printed rugged, its cost known to all, so a plain refusal
    broke = goods(at(2, cards=["land_grant-1"]), 2)
    with pytest.raises(RuleViolation) as refused:
        play(broke, 2, "land_grant-1", hex="3,4")
    assert refused.value.code == "rule/cannot_pay"


def test_land_grant_on_a_face_down_rugged_tile_without_the_ore_shows_it_and_builds_nothing():
    # 1,3 is a plain spot; its face-down tile (food-7) is rugged
    rails = sorted([*BASE["rails"], "1,2|2,2"])
    state = goods(at(0, cards=["land_grant-1"], rails=rails), 0)
    assert tb.is_rugged(state, "1,3") and "1,3" in tb.face_down(state)
    events, after = play(state, 0, "land_grant-1", hex="1,3")
    assert dhw.first(events, "RuggedFound")["tile"] == BASE["layout"]["1,3"]
    assert events[0]["visibility"] == "public"
    assert "1,3" not in after["towns"] and "1,3" in after["face_up"]
    assert after["goods"][0] == dhw.NO_GOODS


def test_land_grant_on_a_printed_rugged_hex_without_the_ore_is_refused_and_shows_nothing():
    # 3,2 is a printed rugged spot whose face-down tile (food-3) is not rugged: the ore is
    # known to be due, so the seat simply cannot pay; nobody learns the tile
    rails = sorted([*BASE["rails"], "2,2|3,1"])
    state = goods(at(0, cards=["land_grant-1"], rails=rails), 0)
    assert "3,2" in tb.town_sites(state, 0) and "3,2" in tb.face_down(state)
    command = {"type": "play_card", "card": "land_grant-1", "hex": "3,2"}
    assert refused(state, 0, command).code == "rule/cannot_pay"


def test_supply_wagon_takes_two_resources_of_choice():
    state = goods(at(0, cards=["supply_wagon-1"]), 0)
    wrong = {"type": "play_card", "card": "supply_wagon-1", "take": {"ore": 3}}
    assert refused(state, 0, wrong, BadRequest).details["field"] == "take"
    _, state = play(state, 0, "supply_wagon-1", take={"ore": 1, "wood": 1})
    assert (state["goods"][0]["ore"], state["goods"][0]["wood"]) == (1, 1)


def test_foreman_produces_one_resource_type_the_player_has_towns_on():
    state = goods(at(0, cards=["foreman-1"]), 0)
    events, state = play(state, 0, "foreman-1", resource="food")
    assert state["goods"][0]["food"] == 2  # one per food town
    other = goods(at(0, cards=["foreman-1"]), 0)
    command = {"type": "play_card", "card": "foreman-1", "resource": "ore"}
    assert refused(other, 0, command).code == "rule/no_town_there"


def test_surveyor_looks_at_two_face_down_hexes_privately():
    hexes = ["1,3", "4,3"]
    state = at(0, cards=["surveyor-1"])
    events, state = play(state, 0, "surveyor-1", hexes=hexes)
    looks = [e for e in events if e["type"] == "TileLooked"]
    assert [e["payload"]["hex"] for e in looks] == hexes
    assert all(e["visibility"] == [0] for e in looks)
    assert [e["payload"]["tile"] for e in looks] == [BASE["layout"][h] for h in hexes]
    assert set(hexes) <= set(rules.view(state, 0)["tiles_seen"])
    assert not set(hexes) & set(rules.view(state, 1)["tiles_seen"])


def test_surveyor_looks_at_two_hexes_as_its_card_says_one_only_when_one_is_left():
    # the card: "Look at two face-down resource hexes anywhere"
    state = at(0, cards=["surveyor-1"])
    one = {"type": "play_card", "card": "surveyor-1", "hexes": ["4,3"]}
    assert refused(state, 0, one).code == "rule/look_two"
    offered = [c for c in rules.legal(state, 0) if c.get("card") == "surveyor-1"]
    assert offered and all(len(c["hexes"]) == 2 for c in offered)
    up = {h: tile for h, tile in state["layout"].items() if h != "4,3"}
    last = dhw.changed(state, face_up=up)
    assert tb.face_down(last) == ["4,3"]
    events, _ = play(last, 0, "surveyor-1", hexes=["4,3"])
    assert [p["hex"] for p in every(events, "TileLooked")] == ["4,3"]
    # a game created under 1.0.0 looked at one or two
    events, _ = play(dhw.under(state, "1.0.0"), 0, "surveyor-1", hexes=["4,3"])
    assert [p["hex"] for p in every(events, "TileLooked")] == ["4,3"]


def test_surveyor_looks_only_at_face_down_hexes():
    state = at(0, cards=["surveyor-1"])
    up = {"type": "play_card", "card": "surveyor-1", "hexes": ["2,0"]}
    assert refused(state, 0, up).code == "rule/not_face_down"
    three = {"type": "play_card", "card": "surveyor-1", "hexes": ["1,3", "1,4", "2,3"]}
    assert refused(state, 0, three, BadRequest).code == "command/invalid"


def test_stagecoach_gives_a_bonus_die_next_placement_phase():
    state = at(0, cards=["stagecoach-1"])
    _, state = play(state, 0, "stagecoach-1")
    assert state["bonus"][0] is True
    events, _ = to_next_round(state, 0)
    assert [d["kind"] for d in dice_rolled(events, 0)] == ["normal", "normal", "bonus"]
    assert len(dice_rolled(events, 1)) == 2


def lucky_table(values=(2, 5), **fields):
    fields.setdefault("hands", hands(0, ["lucky_break-1"]))
    state = dhw.changed(BASE, **fields)
    return dhw.with_dice(state, 0, list(values))


def test_lucky_break_re_rolls_one_unplaced_die_on_the_placement_turn():
    state = lucky_table()
    events, state = play(state, 0, "lucky_break-1", die=0)
    rolled = dhw.first(events, "DiceRerolled")
    assert rolled["by"] == "lucky_break" and list(rolled["dice"]) == ["0"]
    assert state["dice"][0][0]["value"] == rolled["dice"]["0"]
    assert state["dice"][0][1]["value"] == 5
    assert state["goods"][0]["wild"] == 1  # no Wild Die token spent
    assert rules.to_move(state) == [0]  # still its placement turn
    assert state["step"]["kind"] == "place"


def test_lucky_break_on_the_deputy_die_forfeits_its_flip():
    state = lucky_table(roles={"mayor": None, "sheriff": 0})
    state = dhw.with_dice(state, 0, [2, 5], ["deputy", "normal"])
    assert {"type": "flip_deputy"} in rules.legal(state, 0)
    _, state = play(state, 0, "lucky_break-1", die=0)
    assert {"type": "flip_deputy"} not in rules.legal(state, 0)
    assert refused(state, 0, {"type": "flip_deputy"}).code == "rule/deputy_flip"


def test_lucky_break_re_rolls_only_an_unplaced_die():
    state = lucky_table()
    state["dice"][0][0]["placed"] = "market"
    command = {"type": "play_card", "card": "lucky_break-1", "die": 0}
    assert refused(state, 0, command).code == "rule/die_placed"
    assert {"type": "play_card", "card": "lucky_break-1", "die": 1} in rules.legal(state, 0)
    assert command not in rules.legal(state, 0)


def test_lucky_break_is_not_played_in_the_collection_phase():
    state = at(0, cards=["lucky_break-1"])
    command = {"type": "play_card", "card": "lucky_break-1", "die": 0}
    assert refused(state, 0, command).code == "rule/card_timing"
    assert command not in rules.legal(state, 0)


def test_train_robbery_takes_two_gold_corrupts_and_jails_every_die():
    state = at(0, cards=["train_robbery-1"], roles={"mayor": 0, "sheriff": 0})
    state["bonus"][0] = True
    events, state = play(state, 0, "train_robbery-1")
    assert state["goods"][0]["gold"] == 2
    assert state["order"] == [2, 3, 1, 0]
    assert state["roles"] == {"mayor": None, "sheriff": None}
    events, after = to_next_round(state, 0)
    assert dice_rolled(events, 0) == []  # two dice and the bonus die
    assert after["in_jail"][0] >= 3
    assert rules.to_move(after) != [0]


# --- icons ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "field"),
    [
        ("supply_wagon-1", "take"),
        ("foreman-1", "resource"),
        ("surveyor-1", "hexes"),
        ("ol_switcheroo-1", "target"),
    ],
)
def test_a_choice_card_needs_its_field(card, field):
    state = at(0, cards=[card])
    error = refused(state, 0, {"type": "play_card", "card": card}, (BadRequest, RuleViolation))
    assert error.details.get("field") == field
    assert state["hands"][0] == [card]


def test_a_placement_card_is_played_only_on_the_placement_turn():
    state = lucky_table()
    assert rules.to_move(state) == [0]
    other = dhw.changed(state, step={"kind": "place", "seat": 1})
    command = {"type": "play_card", "card": "lucky_break-1", "die": 0}
    assert refused(other, 0, command).code == "rule/not_your_turn"


@pytest.mark.parametrize("card", ["supply_wagon-1", "stagecoach-1", "election-1"])
def test_other_cards_are_not_played_in_the_placement_phase(card):
    state = lucky_table(hands=hands(0, [card]))
    state = goods(state, 0, food=2)
    command = {"type": "play_card", "card": card, "take": {"food": 2}}
    command = command if card == "supply_wagon-1" else {"type": "play_card", "card": card}
    assert refused(state, 0, command).code == "rule/card_timing"
    assert not [c for c in rules.legal(state, 0) if c["type"] == "play_card"]


def test_an_immediate_card_is_never_held():
    deck = ["winds_of_change-1", "foreman-1", "land_grant-1"]
    state = at(0, "pioneer", dice=(0, 1), deck=deck)
    _, state = collect(state, 0)
    assert "winds_of_change-1" not in state["hands"][0]
    state = at(0, "scout", dice=(0, 1), deck=["foreman-1", "winds_of_change-1", *PLAIN[1:]])
    _, state = collect(state, 0)
    assert all("winds_of_change-1" not in (c.get("card") or "") for c in rules.legal(state, 0))


@pytest.mark.parametrize(
    ("card", "fields"),
    [
        ("ol_switcheroo-1", {"target": 3}),
        ("whispering_campaign-1", {"target": 3}),
        ("mudslinging-1", {"target": 3}),
    ],
)
def test_the_sheriff_cannot_be_targeted(card, fields):
    state = at(0, cards=[card], roles={"mayor": None, "sheriff": 3})
    for seat in (1, 2, 3):
        state["goods"][seat]["influence"] = 4
    assert refused(state, 0, {"type": "play_card", "card": card, **fields}).code == (
        "rule/sheriff_immune"
    )
    targets = {c.get("target") for c in rules.legal(state, 0) if c["type"] == "play_card"}
    assert targets == {1, 2}


def test_corruption_sends_the_user_last():
    state = at(2, cards=["train_robbery-1"])
    _, state = play(state, 2, "train_robbery-1")
    assert state["order"] == [0, 3, 1, 2]


def test_corruption_sends_the_politician_one_place_down():
    state = as_character(at(2, cards=["whispering_campaign-1"]), 2, "politician")
    state["goods"][1]["influence"] = 1
    _, state = play(state, 2, "whispering_campaign-1", target=1)
    assert state["order"] == [0, 2, 3, 1]


def test_corruption_leaves_the_politician_last_when_last():
    state = as_character(at(1, cards=["train_robbery-1"]), 1, "politician")
    _, state = play(state, 1, "train_robbery-1")
    assert state["order"] == ORDER


def test_jail_1_costs_one_die_next_turn_the_bonus_die_first():
    state = claim_table()
    state["bonus"][0] = True
    _, state = play(state, 0, "claim_jumpers-1", hex="2,2")
    events, _ = to_next_round(state, 0)
    assert [d["kind"] for d in dice_rolled(events, 0)] == ["normal", "normal"]


def test_jail_costs_the_sheriff_role_at_once():
    state = claim_table(roles={"mayor": None, "sheriff": 0})
    events, state = play(state, 0, "claim_jumpers-1", hex="2,2")
    assert state["roles"]["sheriff"] is None
    events, _ = to_next_round(state, 0)
    assert "deputy" not in [d["kind"] for d in dice_rolled(events, 0)]


def test_dice_in_jail_at_the_end_cost_a_point():
    ended = {"reason": "influence", "seat": 1}
    state = at(0, cards=["train_robbery-1"], end=ended)
    score_free, _ = to_next_round(dhw.changed(state, hands=hands(0, [])), 0)
    _, state = play(state, 0, "train_robbery-1")
    events, state = to_next_round(state, 0)
    scored = dhw.first(events, "ScoresCounted")
    before = dhw.first(score_free, "ScoresCounted")
    assert scored["breakdown"][0]["jail"] == -1
    assert before["breakdown"][0]["jail"] == 0
    assert scored["scores"][0] == before["scores"][0] + 2 - 1  # two gold, one point in jail
    assert state["phase"] == "over"


# --- timing -------------------------------------------------------------------------------


def test_one_card_per_game_turn():
    state = at(0, cards=["supply_wagon-1", "stagecoach-1"])
    _, state = play(state, 0, "stagecoach-1")
    command = {"type": "play_card", "card": "supply_wagon-1", "take": {"food": 2}}
    assert refused(state, 0, command).code == "rule/card_played"
    assert not [c for c in rules.legal(state, 0) if c["type"] == "play_card"]


def test_a_placement_card_counts_as_the_card_of_the_game_turn():
    state = lucky_table(hands=hands(0, ["lucky_break-1", "stagecoach-1"]))
    _, state = play(state, 0, "lucky_break-1", die=0)
    later = dhw.collecting(state, {"seat": 0, "action": "market", "dice": [1]})
    command = {"type": "play_card", "card": "stagecoach-1"}
    assert refused(later, 0, command).code == "rule/card_played"


def test_a_card_may_be_played_again_next_game_turn():
    state = at(0, cards=["supply_wagon-1", "stagecoach-1"])
    _, state = play(state, 0, "stagecoach-1")
    _, state = to_next_round(state, 0)
    state = dhw.collecting(state, {"seat": 0, "action": "market", "dice": [0]})
    _, state = play(state, 0, "supply_wagon-1", take={"food": 2})
    assert state["hands"][0] == []


def test_a_card_is_played_before_or_after_the_seats_collection():
    state = goods(at(0, cards=["supply_wagon-1"]), 0, food=3)
    command = {"type": "play_card", "card": "supply_wagon-1", "take": {"ore": 2}}
    assert command in rules.legal(state, 0)
    _, before = dhw.play(state, 0, command)
    assert before["goods"][0]["ore"] == 2
    assert rules.to_move(before) == [0]  # the collection is still to be made
    _, collected = collect(state, 0, pay={"food": 3}, take={"wood": 1})
    assert collected["step"]["collected"] is True
    assert command in rules.legal(collected, 0)
    _, after = dhw.play(collected, 0, command)
    assert after["goods"][0]["ore"] == 2
    assert after["hands"][0] == []


def test_a_card_is_not_played_in_someone_elses_turn():
    state = at(0, cards=["supply_wagon-1"])
    state["hands"][1] = ["stagecoach-1"]
    command = {"type": "play_card", "card": "stagecoach-1"}
    assert refused(state, 1, command).code == "rule/not_your_turn"
    assert rules.legal(state, 1) == []


def test_a_card_not_held_is_not_played():
    state = at(0, cards=["supply_wagon-1"])
    command = {"type": "play_card", "card": "stagecoach-1"}
    assert refused(state, 0, command).code == "rule/card_not_held"
    state["hands"][1] = ["stagecoach-1"]
    assert refused(state, 0, command).code == "rule/card_not_held"


def test_a_hand_is_seen_by_its_holder_alone():
    state = at(0, cards=["stagecoach-1", "supply_wagon-1"])
    assert rules.view(state, 0)["hand"] == ["stagecoach-1", "supply_wagon-1"]
    assert rules.view(state, 1)["hand"] == []
    assert "hands" not in rules.view(state, None)
    assert rules.view(state, None)["hand_sizes"] == [2, 0, 0, 0]


def test_a_played_card_leaves_the_hand_for_the_discard_pile_in_public():
    state = at(0, cards=["stagecoach-1", "supply_wagon-1"])
    events, state = play(state, 0, "stagecoach-1")
    assert events[0]["type"] == "CardPlayed" and events[0]["visibility"] == "public"
    assert state["hands"][0] == ["supply_wagon-1"]
    assert state["discard"][-1] == "stagecoach-1"


# --- characters: the Start Game box -----------------------------------------------------

START = {
    "scoundrel": {"food": 2, "wood": 2, "ore": 2, "wild": 2},
    "merchant": {"food": 1, "wood": 2, "ore": 2, "gold": 1, "wild": 1},
    "tracker": {"food": 2, "wood": 1, "ore": 2, "wild": 1},
    "railroader": {"food": 2, "wood": 1, "ore": 2, "wild": 1},
    "banker": {"food": 1, "wood": 1, "ore": 1, "gold": 1, "stock": 1, "wild": 1},
    "politician": {"food": 1, "wood": 1, "ore": 1, "influence": 1, "wild": 1},
    "homesteader": {"food": 3, "wood": 2, "ore": 1, "wild": 1},
}


@pytest.mark.parametrize("character", sorted(START))
def test_a_chosen_character_brings_its_start_game_box(character):
    state = dhw.created(4, characters="choose")
    seat = rules.to_move(state)[0]
    command = {"type": "choose_character", "character": character}
    assert command in rules.legal(state, seat)
    events, state = dhw.play(state, seat, command)
    assert dhw.first(events, "CharacterChosen") == {"seat": seat, "character": character}
    assert state["goods"][seat] == {**dhw.NO_GOODS, **START[character]}
    assert state["characters"][seat] == character
    assert state["start_rails"][seat] == (2 if character == "railroader" else 1)


@pytest.mark.parametrize("seed", ["deal-1", "deal-2", "deal-3"])
def test_dealt_characters_bring_their_start_game_boxes(seed):
    state = dhw.created(4, seed=seed, characters="random")
    dealt = state["characters"]
    assert len(set(dealt)) == 4 and None not in dealt
    for seat, character in enumerate(dealt):
        assert state["goods"][seat] == {**dhw.NO_GOODS, **START[character]}


def test_a_character_is_chosen_only_once():
    state = dhw.created(3, characters="choose")
    seat = rules.to_move(state)[0]
    _, state = dhw.play(state, seat, {"type": "choose_character", "character": "banker"})
    nxt = rules.to_move(state)[0]
    command = {"type": "choose_character", "character": "banker"}
    assert refused(state, nxt, command).code == "rule/character_taken"
    assert command not in rules.legal(state, nxt)


def test_the_railroader_lays_a_second_start_rail():
    state = dhw.created(4, characters="choose")
    railroader = rules.to_move(state)[0]
    seen = []
    while state["phase"] == "setup":
        seat = rules.to_move(state)[0]
        options = rules.legal(state, seat)
        pick = {"type": "choose_character", "character": "railroader"}
        command = pick if pick in options else options[0]
        events, state = dhw.play(state, seat, command)
        seen += events
    dues = {p["seat"]: p["count"] for p in every(seen, "RailsDue") if p["why"] == "start"}
    assert dues[railroader] == 2
    assert sorted(dues.values()) == [1, 1, 1, 2]
    laid = [p for p in every(seen, "RailPlaced") if p["why"] == "start"]
    assert sum(1 for p in laid if p["seat"] == railroader) == 2
    assert len(state["rails"]) == 5


@pytest.mark.parametrize("seed", ["two-1", "two-2", "two-3", "two-4", "two-5", "two-6"])
def test_the_tracker_is_not_dealt_with_two_players(seed):
    state = dhw.created(2, seed=seed, characters="random")
    assert "tracker" not in state["characters"]


def test_the_tracker_is_not_offered_with_two_players():
    state = dhw.created(2, characters="choose")
    seat = rules.to_move(state)[0]
    offered = {c["character"] for c in rules.legal(state, seat)}
    assert offered == set(START) - {"tracker"}
    command = {"type": "choose_character", "character": "tracker"}
    assert refused(state, seat, command).code == "rule/character_taken"
    three = dhw.created(3, characters="choose")
    assert "tracker" in {c["character"] for c in rules.legal(three, rules.to_move(three)[0])}


# --- characters: abilities ----------------------------------------------------------------


def scoundrel(action="market", **fields):
    return as_character(at(0, action, **fields), 0, "scoundrel")


def test_the_scoundrel_holds_a_wild_die_over_the_limit():
    # one city: one Wild Die token is the limit; the Scoundrel may hold a second
    events, _ = collect(at(0, "engineer", dice=(0, 1)), 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"engineer": 1}
    events, state = collect(scoundrel("engineer", dice=(0, 1)), 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"engineer": 1, "wild": 1}
    assert state["goods"][0]["wild"] == 2


def test_the_scoundrel_sells_a_card_for_two_resources():
    state = goods(scoundrel(cards=["foreman-1", "stagecoach-1"]), 0)
    command = {"type": "use_ability", "ability": "sell_card", "card": "foreman-1"}
    command["take"] = {"ore": 2}
    assert command in rules.legal(state, 0)
    events, state = dhw.play(state, 0, command)
    assert dhw.first(events, "AbilityUsed")["change"] == {"ore": 2}
    assert state["goods"][0]["ore"] == 2
    assert state["hands"][0] == ["stagecoach-1"]
    assert "foreman-1" in state["discard"]
    assert state["used"][0]["card"] is False  # selling is not playing a card


def test_the_scoundrel_swaps_a_card_for_one_discarded_this_phase():
    state = scoundrel("pioneer", dice=(0, 1), cards=["stagecoach-1"], deck=[*PLAIN])
    _, state = collect(state, 0)
    _, state = keep(state, 0, card="land_grant-1")  # foreman-1 discarded face up
    events, state = ability(state, 0, "swap_card", card="stagecoach-1", taken="foreman-1")
    assert dhw.first(events, "AbilityUsed")["taken"] == "foreman-1"
    assert state["hands"][0] == ["foreman-1", "land_grant-1"]
    assert "foreman-1" not in state["discard"]
    assert "stagecoach-1" in state["discard"]


def test_the_scoundrel_does_not_take_a_played_card_or_an_older_discard():
    state = scoundrel(cards=["stagecoach-1", "supply_wagon-1"], discard=["foreman-1"])
    _, state = play(state, 0, "supply_wagon-1", take={"food": 2})
    assert "supply_wagon-1" in state["discard"]
    for taken in ("supply_wagon-1", "foreman-1"):
        command = {"type": "use_ability", "ability": "swap_card", "card": "stagecoach-1"}
        assert refused(state, 0, {**command, "taken": taken}).code == "rule/not_discarded"
    assert not [c for c in rules.legal(state, 0) if c.get("ability") == "swap_card"]


def test_other_characters_do_not_sell_cards():
    state = as_character(at(0, cards=["foreman-1"]), 0, "banker")
    command = {"type": "use_ability", "ability": "sell_card", "card": "foreman-1"}
    assert refused(state, 0, {**command, "take": {"ore": 2}}).code == "rule/not_your_ability"


def test_each_ability_once_per_collection_phase():
    state = scoundrel(cards=["foreman-1", "stagecoach-1", "land_grant-1"])
    _, state = ability(state, 0, "sell_card", card="foreman-1", take={"ore": 2})
    command = {"type": "use_ability", "ability": "sell_card", "card": "stagecoach-1"}
    assert refused(state, 0, {**command, "take": {"food": 2}}).code == "rule/ability_used"
    assert not [c for c in rules.legal(state, 0) if c.get("ability") == "sell_card"]
    # another ability is still open the same phase
    _, state = ability(state, 0, "swap_card", card="stagecoach-1", taken="foreman-1")
    assert "foreman-1" in state["hands"][0]


def merchant(with_die=True, **fields):
    state = as_character(at(0, **fields), 0, "merchant")
    return used(state, 0, character_die=0) if with_die else state


def test_the_merchant_places_a_die_on_its_card():
    state = as_character(dhw.with_dice(BASE, 0, [2, 5]), 0, "merchant")
    command = {"type": "place", "action": "character", "dice": [0]}
    events, state = dhw.play(state, 0, command)
    assert dhw.first(events, "DicePlaced")["action"] == "character"
    assert state["used"][0]["character_die"] == 0
    other = dhw.with_dice(BASE, 0, [2, 5])
    assert refused(other, 0, command).code == "rule/placement_refused"


def test_the_merchant_trades_two_resources_for_one_with_the_die_on_its_card():
    state = goods(merchant(), 0, food=2)
    events, state = ability(state, 0, "merchant_trade", pay={"food": 2}, take={"ore": 1})
    assert dhw.first(events, "AbilityUsed")["change"] == {"food": -2, "ore": 1}
    assert (state["goods"][0]["food"], state["goods"][0]["ore"]) == (0, 1)
    again = {"type": "use_ability", "ability": "merchant_trade"}
    again.update(pay={"ore": 1, "wood": 1}, take={"food": 1})
    assert refused(goods(state, 0, ore=1, wood=1), 0, again).code == "rule/ability_used"


def test_the_merchant_trades_only_with_a_die_on_its_card():
    state = goods(merchant(with_die=False), 0, food=2)
    command = {"type": "use_ability", "ability": "merchant_trade"}
    command.update(pay={"food": 2}, take={"ore": 1})
    assert refused(state, 0, command).code == "rule/no_character_die"
    assert not [c for c in rules.legal(state, 0) if c["type"] == "use_ability"]


def test_the_merchants_gold_buys_four_resources_at_market():
    command = {"type": "collect", "pay": {"gold": 1}, "take": {"wood": 4}}
    events, state = dhw.play(goods(merchant(with_die=False), 0, gold=1), 0, command)
    assert state["goods"][0]["wood"] == 4 and state["goods"][0]["gold"] == 0
    plain = goods(at(0), 0, gold=1)
    assert refused(plain, 0, command, BadRequest).code == "command/invalid"
    _, state = dhw.play(plain, 0, {**command, "take": {"wood": 3}})
    assert state["goods"][0]["wood"] == 3


def test_the_tracker_pays_no_rugged_ore():
    state = goods(at(2, "builder", dice=(0, 1)), 2, food=2, wood=1)
    with pytest.raises(RuleViolation) as refused:  # others need the ore
        collect(state, 2, build="town", hex="3,4")
    assert refused.value.code == "rule/cannot_pay"
    tracker = as_character(state, 2, "tracker")
    events, after = collect(tracker, 2, build="town", hex="3,4")
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -2, "wood": -1}
    assert after["towns"]["3,4"] == 2


def test_the_tracker_looks_at_a_face_down_hex_privately():
    state = as_character(at(0), 0, "tracker")
    assert {"type": "use_ability", "ability": "track", "hex": "4,3"} in rules.legal(state, 0)
    events, state = ability(state, 0, "track", hex="4,3")
    looked = next(e for e in events if e["type"] == "TileLooked")
    assert looked["visibility"] == [0]
    assert looked["payload"]["tile"] == BASE["layout"]["4,3"]
    assert "4,3" in rules.view(state, 0)["tiles_seen"]
    command = {"type": "use_ability", "ability": "track", "hex": "4,2"}
    assert refused(state, 0, command).code == "rule/ability_used"
    face_up = as_character(at(0), 0, "tracker")
    command = {"type": "use_ability", "ability": "track", "hex": "2,0"}
    assert refused(face_up, 0, command).code == "rule/not_face_down"


def test_the_railroader_pays_one_ore_less_for_rail_baron():
    state = as_character(goods(at(0, "rail_baron"), 0, ore=1, food=1), 0, "railroader")
    events, _ = collect(state, 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"food": -1, "ore": -1}
    assert refused(as_character(state, 0, None), 0, {"type": "collect"}).code == "rule/cannot_pay"


def test_the_railroaders_tycoon_rail_goes_beside_any_rail():
    far = "-1,7|0,6"  # beside the rail 0,6|0,7, nowhere near seat 0's pieces
    assert far not in tb.rail_sites(BASE, 0)
    state = as_character(at(0, "tycoon"), 0, "railroader")
    events, state = collect(state, 0)
    assert dhw.first(events, "RailsDue")["anywhere"] is True
    assert {"type": "place_rail", "edge": far} in rules.legal(state, 0)
    _, after = dhw.play(state, 0, {"type": "place_rail", "edge": far})
    assert far in after["rails"]
    _, plain = collect(at(0, "tycoon"), 0)
    assert refused(plain, 0, {"type": "place_rail", "edge": far}).code == "rule/rail_site"


def test_the_banker_holds_one_more_loan():
    state = goods(dhw.with_dice(BASE, 0, [2, 5]), 0, loan=1)
    command = {"type": "dealer", "die": 0, "loan": {"food": 3}}
    assert refused(state, 0, command).code == "rule/token_limit"
    banker = as_character(state, 0, "banker")
    _, after = dhw.play(banker, 0, command)
    assert after["goods"][0]["loan"] == 2 and after["goods"][0]["food"] == 3


def test_the_banker_pays_off_a_loan_with_five_resources():
    state = as_character(goods(at(0), 0, loan=1, food=5, wood=1), 0, "banker")
    command = {"type": "pay_loan", "pay": {"food": 5}}
    assert command in rules.legal(state, 0)
    _, after = dhw.play(state, 0, command)
    assert after["goods"][0]["loan"] == 0 and after["goods"][0]["food"] == 0
    six = {"type": "pay_loan", "pay": {"food": 5, "wood": 1}}
    assert refused(state, 0, six, BadRequest).code == "command/invalid"
    plain = as_character(state, 0, None)
    assert refused(plain, 0, command, BadRequest).code == "command/invalid"


def test_the_politician_takes_politics_for_free():
    state = as_character(goods(at(0, "politics"), 0), 0, "politician")
    assert {"type": "collect"} in rules.legal(state, 0)
    events, after = collect(state, 0)
    assert dhw.first(events, "ActionCollected")["change"] == {"influence": 1}
    plain = goods(at(0, "politics"), 0)
    assert not [c for c in rules.legal(plain, 0) if c["type"] == "collect"]


def test_the_politician_takes_election_for_free():
    state = as_character(goods(at(0, cards=["election-1"]), 0), 0, "politician")
    events, after = play(state, 0, "election-1")
    assert after["goods"][0] == {**dhw.NO_GOODS, "influence": 1}
    command = {"type": "play_card", "card": "election-1", "pay": {"food": 1}}
    assert refused(goods(state, 0, food=1), 0, command, BadRequest).details["field"] == "pay"


def test_the_homesteader_takes_the_4_plus_icon_with_a_3():
    command = {"type": "place", "action": "produce", "row": "food", "slot": "plus", "dice": [0]}
    plain = dhw.with_dice(BASE, 0, [3, 5])
    assert refused(plain, 0, command).code == "rule/placement_refused"
    homesteader = as_character(plain, 0, "homesteader")
    events, state = dhw.play(homesteader, 0, command)
    assert dhw.first(events, "DicePlaced")["slot"] == "plus"
    two = as_character(dhw.with_dice(BASE, 0, [2, 5]), 0, "homesteader")
    assert refused(two, 0, command).code == "rule/placement_refused"


def test_the_homestead_produces_food_with_the_die_on_its_card():
    state = used(as_character(goods(at(0), 0), 0, "homesteader"), 0, character_die=1)
    assert {"type": "use_ability", "ability": "homestead"} in rules.legal(state, 0)
    events, state = ability(state, 0, "homestead")
    assert dhw.first(events, "AbilityUsed")["change"] == {"food": 2}  # two food towns
    assert state["goods"][0]["food"] == 2
    command = {"type": "use_ability", "ability": "homestead"}
    assert refused(state, 0, command).code == "rule/ability_used"
    no_die = as_character(goods(at(0), 0), 0, "homesteader")
    assert refused(no_die, 0, command).code == "rule/no_character_die"


def test_abilities_are_not_used_in_the_placement_phase():
    state = as_character(dhw.with_dice(BASE, 0, [2, 5]), 0, "tracker")
    command = {"type": "use_ability", "ability": "track", "hex": "4,3"}
    assert refused(state, 0, command).code == "rule/not_now"
    assert command not in rules.legal(state, 0)


def test_abilities_are_used_again_next_collection_phase():
    state = scoundrel(cards=["foreman-1", "stagecoach-1"])
    _, state = ability(state, 0, "sell_card", card="foreman-1", take={"ore": 2})
    _, state = to_next_round(state, 0)
    state = dhw.collecting(state, {"seat": 0, "action": "market", "dice": [0]})
    _, state = ability(state, 0, "sell_card", card="stagecoach-1", take={"ore": 2})
    assert state["hands"][0] == []


# --- legal(): what it offers, decide accepts -------------------------------------------------

HAND = [
    "claim_jumpers-1",
    "election-1",
    "entrepreneur-1",
    "foreman-1",
    "land_grant-1",
    "marshal_dylan-1",
    "mudslinging-1",
    "ol_switcheroo-1",
    "stagecoach-1",
    "supply_wagon-1",
    "surveyor-1",
    "train_robbery-1",
    "whispering_campaign-1",
]


def card_tables():
    """Collection windows on tables of two, three and four players, with characters."""
    out = []
    for players, seed in ((4, "rules"), (3, "three"), (2, "two")):
        base = dhw.set_up(players, seed=seed)
        for seat in range(players):
            towns = dict(base["towns"])
            other = (seat + 1) % players
            sites = [h for h in tb.town_sites(base, seat)]
            if sites and seat % 2 == 0:
                towns[sites[0]] = other  # a town of another seat to claim
            state = dhw.changed(
                base,
                towns=towns,
                events=["drought-1"],
                roles={"mayor": None, "sheriff": (seat + 2) % players},
            )
            state["hands"][seat] = list(HAND)
            state["goods"][seat].update(food=2, wood=2, ore=1, gold=1, loan=1)
            state["goods"][other]["influence"] = 2
            state["phase_discards"] = ["lucky_break-2"]
            state["discard"] = ["lucky_break-2"]
            character = ["scoundrel", "merchant", "tracker", "homesteader"][seat]
            if players == 2 and character == "tracker":
                character = "banker"
            state = used(as_character(state, seat, character), seat, character_die=1)
            out.append(dhw.collecting(state, {"seat": seat, "action": "market", "dice": [0]}))
    return out


def accepted(state, kinds):
    seat = rules.to_move(state)[0]
    offered = [c for c in rules.legal(state, seat) if c["type"] in kinds]
    for command in offered:
        dhw.decide(state, seat, command)  # raises if refused
    return offered


def test_every_card_and_ability_legal_offers_is_accepted():
    seen = set()
    for state in card_tables():
        offered = accepted(state, ("play_card", "use_ability"))
        seen |= {c.get("card", "") for c in offered if c["type"] == "play_card"}
        seen |= {c["ability"] for c in offered if c["type"] == "use_ability"}
    assert {"sell_card", "swap_card", "merchant_trade", "track", "homestead"} <= seen
    assert set(HAND) <= seen


def test_legal_offers_claim_jumpers_only_on_a_town_it_may_take():
    state = claim_table()
    offered = [c for c in rules.legal(state, 0) if c["type"] == "play_card"]
    assert offered == [{"type": "play_card", "card": "claim_jumpers-1", "hex": "2,2"}]
    dhw.decide(state, 0, offered[0])


def test_every_lucky_break_legal_offers_is_accepted():
    for values in ([1, 6], [3, 3], [2, 4, 6]):
        kinds = ["normal", "normal", "bonus"][: len(values)]
        state = dhw.with_dice(
            dhw.changed(BASE, hands=hands(0, ["lucky_break-1"])), 0, values, kinds
        )
        state["dice"][0][0]["placed"] = "market"
        offered = accepted(state, ("play_card",))
        assert [c["die"] for c in offered] == list(range(1, len(values)))


KEEP_DECKS = [
    ("pioneer", PLAIN),
    ("pioneer", ["gold_strike-1", *PLAIN]),
    ("pioneer", ["foreman-1", "railroad_boom-1", *PLAIN[2:]]),
    ("scout", PLAIN),
    ("scout", ["land_grant-1", "gold_strike-1", *PLAIN[1:]]),
    ("scout", ["railroad_boom-1", *PLAIN]),
    ("scout", ["boom_town-1", *PLAIN]),
]


@pytest.mark.parametrize(("action", "deck"), KEEP_DECKS)
@pytest.mark.parametrize("players", [2, 4])
def test_every_keep_card_legal_offers_is_accepted(action, deck, players):
    base = BASE if players == 4 else dhw.set_up(2, seed="two")
    state = dhw.collecting(
        dhw.changed(base, deck=list(deck)), {"seat": 0, "action": action, "dice": [0, 1]}
    )
    _, state = collect(state, 0)
    if state["task"] is None:  # one way to keep: the referee kept it
        assert state["hands"][0]
        return
    offered = accepted(state, ("keep_card",))
    assert offered
    drawn = state["task"]["drawn"]
    assert {c.get("card") for c in offered} - {None} == set(drawn)
