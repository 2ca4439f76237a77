"""Galloping Horse: each rule of the text, on hand-built tables."""

import pytest

from referee.engine import game
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import galloping_horse as gh

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
LINE_UP = ["red", "yellow", "green", "blue"]  # rear to front: red on 0 ... blue on 3


def table(hands=None, *, line_up=LINE_UP, distance=None, food_stack=40, first=0, round_=1):
    """A table after setup, with chosen hands and optionally moved horses."""
    state = gh.initial(PLAYERS, {**gh.OPTIONS, "food_cards": food_stack})
    hands = hands or [["red"] * 7, ["yellow"] * 7, ["green"] * 7, ["blue"] * 7]
    events = [event("HorsesLinedUp", {"line_up": line_up})]
    events += [
        event("RaceCardsDealt", {"round": round_, "seat": s, "cards": cards}, to=[s])
        for s, cards in enumerate(hands)
    ]
    events.append(event("RoundStarted", {"round": round_, "first_seat": first}))
    for ev in events:
        state = gh.apply(state, ev)
    if distance:
        state = {**state, "distance": {**state["distance"], **distance}}
    return state


def play(state, seat, horse, rng=None):
    events = gh.decide(state, seat, {"type": "play_card", "horse": horse}, rng or Rng("t"))
    for ev in events:
        state = gh.apply(state, ev)
    return state, events


def types(events):
    return [ev["type"] for ev in events]


def test_preparation_four_horses_on_consecutive_spaces():
    state = table()
    assert state["distance"] == {"red": 0, "yellow": 1, "green": 2, "blue": 3}


def test_horse_moves_one_space_when_the_space_ahead_is_empty():
    state, events = play(table(first=3), 3, "blue")
    assert state["distance"]["blue"] == 4
    assert events[1]["payload"] == {"horse": "blue", "from": 3, "to": 4}


def test_horse_skips_every_occupied_space_to_the_next_empty_one():
    state, _ = play(table(), 0, "red")  # yellow, green, blue ahead on 1, 2, 3
    assert state["distance"]["red"] == 4


def test_leading_move_takes_one_food_card():
    state, events = play(table(), 0, "red")
    assert "FoodTaken" in types(events)
    assert state["food"] == [1, 0, 0, 0] and state["food_stack"] == 39


def test_move_that_does_not_lead_takes_no_food():
    state = table(distance={"blue": 10})
    state, events = play(state, 0, "red")  # red to 4, blue still ahead on 10
    assert "FoodTaken" not in types(events) and state["food"] == [0, 0, 0, 0]


def test_equal_to_the_leader_is_not_ahead_of_all():
    # on a loop two horses can share a distance only a lap apart; equal distance
    # never leads, so a horse level with another takes nothing
    state = table(distance={"red": 5, "yellow": 27})
    _, events = play(state, 0, "red")  # red to 6, yellow already at 27
    assert "FoodTaken" not in types(events)


def test_empty_food_stack_gives_nothing():
    state, events = play(table(food_stack=0), 0, "red")
    assert "FoodTaken" not in types(events) and state["food"] == [0, 0, 0, 0]


def test_the_track_is_a_22_space_loop():
    state = table(distance={"red": 21, "yellow": 22, "green": 23, "blue": 2})
    # red on space 21; spaces 0 (yellow) and 1 (green) are taken, 2 holds blue
    state, _ = play(state, 0, "red")
    assert state["distance"]["red"] == 25 and state["distance"]["red"] % 22 == 3


def test_turns_go_clockwise_from_the_first_seat():
    state = table(first=2)
    assert gh.to_move(state) == [2]
    state, _ = play(state, 2, "green")
    assert gh.to_move(state) == [3]


def test_not_your_turn_and_card_not_in_hand_are_refused():
    state = table()
    with pytest.raises(RuleViolation) as not_turn:
        gh.decide(state, 1, {"type": "play_card", "horse": "yellow"}, Rng("t"))
    assert not_turn.value.code == "rule/not_your_turn"
    with pytest.raises(RuleViolation) as no_card:
        gh.decide(state, 0, {"type": "play_card", "horse": "blue"}, Rng("t"))
    assert no_card.value.code == "rule/card_not_in_hand"


@pytest.mark.parametrize(
    "command", [{"type": "play"}, {"type": "play_card"}, {"type": "play_card", "horse": "purple"}]
)
def test_malformed_commands_name_the_field(command):
    with pytest.raises(BadRequest) as bad:
        gh.decide(table(), 0, command, Rng("t"))
    assert bad.value.details["field"] in ("type", "horse")


def test_legal_lists_one_play_per_colour_held():
    hands = [["red", "red", "blue", "blue", "blue", "green", "green"]] + [["yellow"] * 7] * 3
    state = table(hands)
    assert gh.legal(state, 0) == [
        {"type": "play_card", "horse": h} for h in ("red", "green", "blue")
    ]
    assert gh.legal(state, 1) == []


def full_round(seed="round"):
    records = game.create("galloping-horse", PLAYERS, {"first_seat": 1}, seed)
    state = game.fold(records)
    for _ in range(28):
        seat = gh.to_move(state["rules"])[0]
        command = gh.legal(state["rules"], seat)[0]
        batch = game.execute(state, seat, command, seed)
        records += batch
        state = game.fold(batch, state)
    return records, state


def test_round_two_reshuffles_all_28_cards_and_continues_clockwise():
    records, state = full_round()
    rules = state["rules"]
    assert rules["round"] == 2 and rules["played"] == 0
    # round 1 began with seat 1, so seat 0 played the 28th card; seat 1 goes next
    assert gh.to_move(rules) == [1]
    deals = [r for r in records if r["type"] == "RaceCardsDealt" and r["payload"]["round"] == 2]
    dealt = sorted(c for r in deals for c in r["payload"]["cards"])
    assert dealt == sorted(gh.DECK) and [r["visibility"] for r in deals] == [[0], [1], [2], [3]]
    assert [sum(h.values()) for h in rules["hands"]] == [7, 7, 7, 7]


def test_the_game_ends_after_two_rounds_and_most_food_wins():
    state = {**table(), "round": 2, "played": 28, "food": [5, 9, 2, 9]}
    assert gh.outcome(state) == {"scores": [5, 9, 2, 9], "ranks": [3, 1, 4, 1], "winners": [1, 3]}
    assert gh.outcome({**state, "played": 27}) is None


def test_deal_and_line_up_come_from_the_seed():
    a = game.create("galloping-horse", PLAYERS, {}, "same")
    b = game.create("galloping-horse", PLAYERS, {}, "same")
    c = game.create("galloping-horse", PLAYERS, {}, "other")
    assert a == b and a != c
    line_up = a[1]["payload"]["line_up"]
    assert line_up == Rng("same").shuffle("line-up", gh.HORSES)


def test_line_up_option_is_used_and_checked():
    records = game.create("galloping-horse", PLAYERS, {"line_up": LINE_UP}, "s")
    assert records[1]["payload"]["line_up"] == LINE_UP
    with pytest.raises(BadRequest) as bad:
        game.create("galloping-horse", PLAYERS, {"line_up": ["red", "red"]}, "s")
    assert bad.value.details["field"] == "options.line_up"


def test_views_show_a_seat_only_its_own_hand():
    state = table()
    assert gh.view(state, 2)["hand"] == {"red": 0, "yellow": 0, "green": 7, "blue": 0}
    assert "hands" not in gh.view(state, 2)
    assert "hand" not in gh.view(state, None) and "hands" not in gh.view(state, None)
    assert gh.view(state, "moderator")["hands"] == state["hands"]


def test_a_field_the_command_does_not_have_is_refused_by_name():
    state = game.fold(game.create("galloping-horse", PLAYERS, {"first_seat": 0}, "f"))
    with pytest.raises(BadRequest) as bad:
        game.execute(state, 0, {"type": "play_card", "horse": "red", "speed": 9}, "f")
    assert bad.value.code == "command/invalid" and bad.value.details["field"] == "speed"
