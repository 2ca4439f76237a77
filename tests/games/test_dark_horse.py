"""Dark Horse: the rule text's worked examples, the README decisions, and random games."""

import copy
import json
import random

import pytest

import referee.games  # noqa: F401  (registers the rulesets)
from referee.engine import game
from referee.engine.errors import BadRequest, RefereeError, RuleViolation
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import dark_horse as dh
from referee.games.dark_horse.data import HOUSE_DECK

EXAMPLE_LINE = [6, 5, 4, 7, 1, 3, 2]  # the text's example: left = 7th, right = 1st
SECRET_KEYS = {"betting_cards_by_seat", "hands", "betting_stack_cards", "set_aside"}


def card_id(targets, steps=None, direction=None, kind="move"):
    """The id of the first house card that says this."""
    spec = {"kind": kind}
    if kind == "move":
        spec.update(targets=targets, steps=steps, direction=direction)
    return HOUSE_DECK.index(spec)


HORSE_1 = {n: card_id([{"horse": n}], 1, "choice") for n in range(1, 8)}
HORSE_FORWARD_2 = {n: card_id([{"horse": n}], 2, "forward") for n in range(1, 8)}
RIDER_FALL_OFF = card_id(None, kind="rider_fall_off")
EXCHANGE = card_id(None, kind="exchange")
RANK_4_AND_6 = card_id([{"rank": 4}, {"rank": 6}], 1, "forward")
RANK_1_BACK = card_id([{"rank": 1}], 1, "back")


def fold(state, events):
    for ev in events:
        state = dh.apply(state, ev)
    return state


def step(state, seat, command):
    """Decide and apply one command; return the new state and its events."""
    events = dh.decide(state, seat, command, Rng("test"))
    return fold(state, events), events


def racing(line=EXAMPLE_LINE, seats=3, hands=None, betting=None, stack=(), turn=0, **options):
    """A hand-built table, racing, from events: cards dealt and the line laid left to right."""
    state = dh.initial([f"p{s}" for s in range(seats)], {**dh.OPTIONS, **options})
    hands = hands or [list(range(len(HOUSE_DECK))) for _ in range(seats)]
    betting = betting or [[1, 2] for _ in range(seats)]
    events = [event("BettingCardsDealt", {"seat": s, "cards": betting[s]}) for s in range(seats)]
    events += [event("ActionCardsDealt", {"seat": s, "cards": hands[s]}) for s in range(seats)]
    events += [
        event("BettingStackFormed", {"cards": list(stack)}),
        event("PlacementStarted", {"seat": 0}),
    ]
    for i, horse in enumerate(reversed(line)):
        side = None if i == 0 else "left"
        events.append(event("HorseCardPlaced", {"seat": i % seats, "horse": horse, "side": side}))
    events += [
        event("DarkHorseRevealed", {"horse": line[0], "tokens": dh.data.TOKENS[str(seats)]}),
        event("RacingStarted", {"seat": turn}),
    ]
    return fold(state, events)


def finished(line, betting, tokens=(), dark_horse=6, **options):
    """A table whose race is over, for scoring."""
    state = racing(line=line, seats=len(betting), betting=betting, **options)
    events = [event("DarkHorseTokenTaken", {"seat": s}) for s in tokens]
    state = fold(state, events)
    return {**state, "dark_horse": dark_horse, "phase": "over", "turn": None}


def play(state, seat, card, **choices):
    return step(state, seat, {"type": "play_card", "card": card, "take_token": False, **choices})


def rejected(error, state, seat, command):
    with pytest.raises(error) as caught:
        dh.decide(state, seat, command, Rng("test"))
    return caught.value


# --- the rule text's worked examples ---------------------------------------------------


def test_five_player_placement_example():
    state = dh.initial([f"p{s}" for s in range(5)], dict(dh.OPTIONS))
    state = fold(state, dh.setup(state, Rng("placement")))
    moves = [(4, None), (7, "right"), (1, "right"), (5, "left"), (3, "right"), (6, "left")]
    moves.append((2, "right"))
    for turn, (horse, side) in enumerate(moves):
        seat = turn % 5
        assert dh.to_move(state) == [seat]
        command = {"type": "place_horse", "horse": horse}
        if side:
            command["side"] = side
        assert command in dh.legal(state, seat)
        state, events = step(state, seat, command)
    assert state["line"] == [6, 5, 4, 7, 1, 3, 2]
    assert [e["type"] for e in events] == ["HorseCardPlaced", "DarkHorseRevealed", "RacingStarted"]
    assert state["dark_horse"] == 6  # the leftmost (7th) horse, by the README decision
    assert state["tokens_left"] == 3
    assert (state["phase"], dh.to_move(state)) == ("racing", [0])


def test_move_forward_one_switches_with_the_horse_ahead():
    state, events = play(racing(), 0, HORSE_1[4], direction="forward")
    assert state["line"] == [6, 5, 7, 4, 1, 3, 2]
    assert events[1]["payload"] == {"horse": 4, "from_rank": 5, "to_rank": 4}


def test_move_forward_two_passes_two_horses():
    state, _ = play(racing(), 0, HORSE_FORWARD_2[6])
    assert state["line"] == [5, 4, 6, 7, 1, 3, 2]


def test_horse_at_first_moving_forward_moves_back_instead():
    state, events = play(racing(line=[6, 5, 2, 7, 1, 3, 4]), 0, HORSE_1[4], direction="forward")
    assert state["line"] == [6, 5, 2, 7, 1, 4, 3]
    assert events[1]["payload"] == {"horse": 4, "from_rank": 1, "to_rank": 2}


def test_two_identical_betting_cards_score_double_the_points():
    points = [10, 7, 5, 4, 3, 2, 1]  # 2nd scores 7, as in the text's example
    state = finished([6, 5, 4, 7, 1, 3, 2], [[3, 3], [1, 2]], rank_points=points)
    result = dh.outcome(state)
    assert result["scores"][0] == 14
    assert result["seats"][0]["doubled"] == [3]
    assert result["scores"][1] == 5 + 10


# --- movement decisions ----------------------------------------------------------------


def test_forward_two_from_second_stops_at_first():
    state, events = play(racing(), 0, HORSE_FORWARD_2[3])
    assert state["line"] == [6, 5, 4, 7, 1, 2, 3]
    assert events[1]["payload"] == {"horse": 3, "from_rank": 2, "to_rank": 1}


def test_horse_at_seventh_moving_back_moves_forward_instead():
    state, _ = play(racing(), 0, HORSE_1[6], direction="back")
    assert state["line"] == [5, 6, 4, 7, 1, 3, 2]


def test_rank_card_fixed_back_at_first():
    state, _ = play(racing(), 0, RANK_1_BACK)
    assert state["line"] == [6, 5, 4, 7, 1, 2, 3]


def test_two_horse_card_moves_the_first_listed_first():
    state, events = play(racing(), 0, RANK_4_AND_6)
    assert [e["payload"]["horse"] for e in events if e["type"] == "HorseMoved"] == [7, 5]
    assert state["line"] == [6, 4, 5, 1, 7, 3, 2]


def test_two_horse_card_fixes_both_horses_when_played():
    deck = [
        {"kind": "move", "targets": [{"rank": 4}, {"rank": 3}], "steps": 1, "direction": "back"}
    ]
    deck *= 6
    state = racing(hands=[[0, 1], [2, 3], [4, 5]], deck=deck)
    state, events = play(state, 0, 0)
    # #7 (4th) goes back to 5th; then #1 (3rd when played) goes back, not the new 3rd
    assert [e["payload"] for e in events[1:3]] == [
        {"horse": 7, "from_rank": 4, "to_rank": 5},
        {"horse": 1, "from_rank": 3, "to_rank": 4},
    ]
    assert state["line"] == [6, 5, 7, 1, 4, 3, 2]


def test_two_horse_card_both_in_the_chosen_direction():
    card = card_id([{"horse": 1}, {"horse": 7}], 1, "choice")
    state, events = play(racing(), 0, card, direction="forward")
    assert [e["payload"] for e in events[1:3]] == [
        {"horse": 1, "from_rank": 3, "to_rank": 2},
        {"horse": 7, "from_rank": 4, "to_rank": 3},
    ]
    assert state["line"] == [6, 5, 4, 3, 7, 1, 2]
    state, _ = play(racing(), 0, card, direction="back")
    assert state["line"] == [6, 5, 4, 7, 1, 3, 2]  # #1 drops behind #7, then #7 behind #1


def mixed_card_table(targets, direction="forward", version_1_0_0=False):
    """The example line, seat 0 holding a moderator's card with these targets."""
    deck = [{"kind": "move", "targets": targets, "steps": 1, "direction": direction}] * 6
    state = racing(hands=[[0, 1], [2, 3], [4, 5]], deck=deck)
    if version_1_0_0:
        state = {k: v for k, v in state.items() if k != "version"}
    return state


def moves(events):
    return [
        (e["payload"]["horse"], e["payload"]["from_rank"], e["payload"]["to_rank"])
        for e in events
        if e["type"] == "HorseMoved"
    ]


def test_a_horse_and_a_rank_card_moves_two_horses_when_the_rank_is_that_horse():
    # #1 is 3rd: "horse #1 and the 3rd horse" moves #1 and the 3rd of the others, #7
    state, events = play(mixed_card_table([{"horse": 1}, {"rank": 3}]), 0, 0)
    assert moves(events) == [(1, 3, 2), (7, 4, 3)]
    assert state["line"] == [6, 5, 4, 3, 7, 1, 2]
    # the rank listed first: the same two horses, that one first
    state, events = play(mixed_card_table([{"rank": 3}, {"horse": 1}]), 0, 0)
    assert moves(events) == [(7, 4, 3), (1, 4, 3)]
    assert state["line"] == EXAMPLE_LINE  # #7 passed #1, then #1 passed #7 back


def test_a_horse_and_a_rank_card_whose_horse_is_last_moves_the_horse_ahead_of_it():
    # #6 is 7th: the 7th of the others is the last of them, #5 (6th)
    _, events = play(mixed_card_table([{"horse": 6}, {"rank": 7}]), 0, 0)
    assert moves(events) == [(6, 7, 6), (5, 7, 6)]


def test_a_horse_and_a_rank_card_otherwise_moves_the_horse_at_that_rank():
    _, events = play(mixed_card_table([{"horse": 1}, {"rank": 2}]), 0, 0)
    assert moves(events) == [(1, 3, 2), (3, 3, 2)]  # #3 was 2nd when the card was played


def test_a_game_of_1_0_0_moved_the_named_horse_twice_as_recorded():
    state = mixed_card_table([{"horse": 1}, {"rank": 3}], version_1_0_0=True)
    _, events = play(state, 0, 0)
    assert moves(events) == [(1, 3, 2), (1, 2, 1)]


@pytest.mark.parametrize("targets", [[{"horse": 4}, {"horse": 4}], [{"rank": 3}, {"rank": 3}]])
def test_a_card_naming_one_horse_twice_is_refused_at_creation(targets):
    card = {"kind": "move", "targets": targets, "steps": 1, "direction": "forward"}
    deck = [{"kind": "rider_fall_off"}, {"kind": "exchange"}, card]
    with pytest.raises(BadRequest) as caught:
        game.create("dark-horse", ["a", "b"], {"deck": deck}, "seed")
    error = caught.value
    assert (error.status, error.code) == (400, "options/invalid")
    assert error.details == {"field": "options.deck[2]", "index": 2}
    assert "deck card 2" in error.message


def test_versions_and_the_stamp():
    assert (dh.VERSION, dh.VERSIONS) == ("1.1.0", ("1.0.0", "1.1.0"))
    players, options = ["a", "b"], dict(dh.OPTIONS)
    assert dh.initial(players, options)["version"] == "1.1.0"
    assert "version" not in dh.initial(players, options, version="1.0.0")


def test_rider_fall_off_sends_third_to_last():
    state, events = play(racing(), 0, RIDER_FALL_OFF)
    assert state["line"] == [1, 6, 5, 4, 7, 3, 2]
    assert events[1]["payload"] == {"horse": 1, "from_rank": 3, "to_rank": 7}


# --- Dark Horse tokens -----------------------------------------------------------------


def test_take_token_then_play():
    state, events = step(
        racing(),
        0,
        {"type": "play_card", "card": HORSE_1[1], "take_token": True, "direction": "back"},
    )
    assert [e["type"] for e in events] == [
        "DarkHorseTokenTaken",
        "ActionCardPlayed",
        "HorseMoved",
        "TurnPassed",
    ]
    assert state["tokens"] == [True, False, False] and state["tokens_left"] == 1
    assert dh.view(state, None)["token_holders"] == [0]


def test_one_token_per_player():
    state = fold(racing(hands=[[0, 1, 2]] * 3), [event("DarkHorseTokenTaken", {"seat": 0})])
    command = {"type": "play_card", "card": 0, "take_token": True, "direction": "back"}
    error = rejected(RuleViolation, state, 0, command)
    assert error.code == "rule/token_limit" and "take_token" in error.message
    assert all(not c["take_token"] for c in dh.legal(state, 0))


def test_no_token_when_none_left():
    state = fold(racing(seats=2), [event("DarkHorseTokenTaken", {"seat": 1})])
    command = {"type": "play_card", "card": HORSE_1[1], "take_token": True, "direction": "back"}
    assert rejected(RuleViolation, state, 0, command).code == "rule/no_tokens_left"
    assert all(not c["take_token"] for c in dh.legal(state, 0))


def test_no_token_with_one_action_card_left():
    state = racing(hands=[[HORSE_1[1]], [HORSE_1[2]], [HORSE_1[3]]])
    command = {"type": "play_card", "card": HORSE_1[1], "take_token": True, "direction": "back"}
    assert rejected(RuleViolation, state, 0, command).code == "rule/last_action_card"
    assert {c["take_token"] for c in dh.legal(state, 0)} == {False}
    assert {c["take_token"] for c in dh.legal(racing(), 0)} == {False, True}


# --- Exchange Betting Card -------------------------------------------------------------


def exchange_table(stack=(7, 1)):
    hands = [[EXCHANGE, HORSE_1[1]], [HORSE_1[2], HORSE_1[3]], [HORSE_1[4], HORSE_1[5]]]
    return racing(hands=hands, betting=[[2, 5], [3, 4], [6, 6]], stack=stack)


def test_exchange_own_betting_card():
    state, events = play(exchange_table(), 0, EXCHANGE, exchange={"seat": 0, "discard": 5})
    assert [(e["type"], e["visibility"]) for e in events] == [
        ("ActionCardPlayed", "public"),
        ("BettingCardDiscarded", "public"),
        ("BettingCardDrawn", [0]),
        ("TurnPassed", "public"),
    ]
    assert state["betting_cards"][0] == [2, 7] and state["betting_stack"] == [1]
    assert state["discarded_betting_cards"] == [{"seat": 0, "horse": 5}]
    assert dh.to_move(state) == [1]


def test_exchange_forces_another_player_to_discard():
    state, events = play(exchange_table(), 0, EXCHANGE, exchange={"seat": 2})
    assert events[-1]["type"] == "BettingCardExchangeForced"
    assert dh.to_move(state) == [2] and dh.legal(state, 0) == [] and dh.legal(state, 1) == []
    assert dh.legal(state, 2) == [{"type": "discard_betting_card", "horse": 6}]
    error = rejected(RuleViolation, state, 1, {"type": "play_card", "card": HORSE_1[2]})
    assert error.code == "rule/not_your_turn"
    state, events = step(state, 2, {"type": "discard_betting_card", "horse": 6})
    assert [e["type"] for e in events] == ["BettingCardDiscarded", "BettingCardDrawn", "TurnPassed"]
    assert events[1]["visibility"] == [2]
    assert state["betting_cards"][2] == [6, 7] and state["pending_discard"] is None
    assert dh.to_move(state) == [1]


def test_forced_player_chooses_the_discard():
    command = {"type": "play_card", "card": EXCHANGE, "exchange": {"seat": 2, "discard": 6}}
    error = rejected(RuleViolation, exchange_table(), 0, command)
    assert error.code == "rule/holder_chooses_discard"
    assert error.details["field"] == "exchange.discard"


def test_exchange_own_card_not_held():
    command = {"type": "play_card", "card": EXCHANGE, "exchange": {"seat": 0, "discard": 6}}
    error = rejected(RuleViolation, exchange_table(), 0, command)
    assert error.code == "rule/betting_card_not_held" and "horse 6" in error.message


def test_exchange_with_empty_stack_has_no_effect():
    state = exchange_table(stack=())
    plays = [c for c in dh.legal(state, 0) if c["card"] == EXCHANGE]
    assert plays == [
        {"type": "play_card", "card": EXCHANGE, "take_token": take} for take in (False, True)
    ]
    after, events = play(state, 0, EXCHANGE)
    assert [e["type"] for e in events] == ["ActionCardPlayed", "TurnPassed"]
    assert after["betting_cards"] == state["betting_cards"]
    command = {"type": "play_card", "card": EXCHANGE, "exchange": {"seat": 1}}
    assert rejected(RuleViolation, state, 0, command).code == "rule/betting_stack_empty"


def test_exchange_choices_in_legal():
    plays = [
        c for c in dh.legal(exchange_table(), 0) if c["card"] == EXCHANGE and not c["take_token"]
    ]
    assert [c["exchange"] for c in plays] == [
        {"seat": 0, "discard": 2},
        {"seat": 0, "discard": 5},
        {"seat": 1},
        {"seat": 2},
    ]


# --- scoring ---------------------------------------------------------------------------


def test_token_bonus_when_dark_horse_finishes_in_top_three():
    state = finished([5, 4, 7, 1, 6, 3, 2], [[1, 2], [3, 4]], tokens=[0], dark_horse=6)
    result = dh.outcome(state)
    assert result["dark_horse_rank"] == 3
    assert result["seats"][0]["token_points"] == 5
    assert result["scores"] == [4 + 10 + 5, 8 + 2]
    assert result["winners"] == [0]


def test_token_penalty_when_dark_horse_finishes_fourth_or_worse():
    state = finished([5, 4, 7, 6, 1, 3, 2], [[1, 2], [3, 4]], tokens=[0, 1], dark_horse=6)
    result = dh.outcome(state)
    assert result["dark_horse_rank"] == 4
    assert result["scores"] == [6 + 10 - 3, 8 + 2 - 3]


def test_tied_scores_share_the_victory():
    state = finished(EXAMPLE_LINE, [[1, 4], [4, 1]])
    assert dh.outcome(state)["winners"] == [0, 1]


def test_no_outcome_while_racing():
    assert dh.outcome(racing()) is None


def test_last_card_ends_the_race_and_reveals_betting_cards():
    state = racing(seats=2, hands=[[HORSE_1[1]], [HORSE_1[2]]], turn=1)
    state, _ = play(state, 1, HORSE_1[2], direction="forward")
    state, events = play(state, 0, HORSE_1[1], direction="forward")
    assert events[-1]["type"] == "RaceFinished"
    assert events[-1]["payload"]["betting_cards"] == [[1, 2], [1, 2]]
    assert state["phase"] == "over" and dh.to_move(state) == []
    assert dh.outcome(state) is not None


def test_forced_discard_on_the_last_card_comes_before_the_end():
    hands = [[EXCHANGE], [HORSE_1[2]]]
    state = racing(seats=2, hands=hands, betting=[[1, 2, 3], [4, 5, 6]], stack=[7], turn=0)
    state, _ = play(
        racing(seats=2, hands=hands, turn=1, stack=[7]), 1, HORSE_1[2], direction="back"
    )
    state, events = play(state, 0, EXCHANGE, exchange={"seat": 1})
    assert dh.outcome(state) is None and dh.to_move(state) == [1]
    state, events = step(state, 1, {"type": "discard_betting_card", "horse": 1})
    assert events[-1]["type"] == "RaceFinished" and dh.outcome(state) is not None


# --- errors ----------------------------------------------------------------------------


def test_not_your_turn():
    error = rejected(RuleViolation, racing(), 1, {"type": "play_card", "card": HORSE_1[1]})
    assert error.code == "rule/not_your_turn" and "it is seat 1's turn" in error.message


def test_unknown_command():
    error = rejected(BadRequest, racing(), 0, {"type": "gallop"})
    assert (error.code, error.details["field"]) == ("command/unknown", "type")
    assert rejected(BadRequest, racing(), 0, {"type": ["play_card"]}).code == "command/unknown"


def test_command_of_the_wrong_phase():
    error = rejected(RuleViolation, racing(), 0, {"type": "place_horse", "horse": 1})
    assert error.code == "rule/wrong_phase" and "play_card" in error.message


@pytest.mark.parametrize(
    ("command", "code", "field"),
    [
        ({"card": "one"}, "command/invalid", "card"),
        ({"card": HORSE_1[1]}, "command/invalid", "direction"),
        ({"card": HORSE_1[1], "direction": "sideways"}, "command/invalid", "direction"),
        (
            {"card": HORSE_1[1], "direction": "back", "take_token": "yes"},
            "command/invalid",
            "take_token",
        ),
        (
            {"card": HORSE_1[1], "direction": "back", "exchange": {"seat": 1}},
            "command/invalid",
            "exchange",
        ),
        ({"card": HORSE_1[3], "direction": "back"}, "rule/card_not_in_hand", "card"),
        ({"card": RIDER_FALL_OFF, "direction": "back"}, "command/invalid", "direction"),
    ],
)
def test_play_card_errors_name_the_field(command, code, field):
    hands = [[HORSE_1[1], RIDER_FALL_OFF, HORSE_FORWARD_2[1]], [HORSE_1[3]] * 1, [HORSE_1[4]]]
    error = rejected(RefereeError, racing(hands=hands), 0, {"type": "play_card", **command})
    assert (error.code, error.details["field"]) == (code, field)
    assert field in error.message


def test_fixed_direction_cannot_be_changed():
    state = racing(hands=[[HORSE_FORWARD_2[1], 0]] * 3)
    command = {"type": "play_card", "card": HORSE_FORWARD_2[1], "direction": "back"}
    assert rejected(RuleViolation, state, 0, command).code == "rule/direction_fixed"


def test_placement_errors():
    state = dh.initial(["a", "b", "c"], dict(dh.OPTIONS))
    state = fold(state, dh.setup(state, Rng("p")))
    first = {"type": "place_horse", "horse": 4, "side": "left"}
    assert rejected(RuleViolation, state, 0, first).code == "rule/first_card_in_middle"
    state, _ = step(state, 0, {"type": "place_horse", "horse": 4})
    error = rejected(BadRequest, state, 1, {"type": "place_horse", "horse": 5})
    assert (error.code, error.details["field"]) == ("command/invalid", "side")
    again = {"type": "place_horse", "horse": 4, "side": "right"}
    assert rejected(RuleViolation, state, 1, again).code == "rule/horse_already_placed"
    error = rejected(BadRequest, state, 1, {"type": "place_horse", "horse": 8, "side": "right"})
    assert error.details["field"] == "horse"
    assert len(dh.legal(state, 1)) == 6 * 2 and dh.legal(state, 0) == []


def test_discard_of_a_card_not_held():
    state, _ = play(exchange_table(), 0, EXCHANGE, exchange={"seat": 1})
    error = rejected(RuleViolation, state, 1, {"type": "discard_betting_card", "horse": 6})
    assert error.code == "rule/betting_card_not_held"
    # the message speaks of the discarder's own cards only
    assert "6" in error.message and "2" not in error.message and "5" not in error.message


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"rank_points": [10, 8, 6]}, "options.rank_points"),
        ({"rank_points": [10, 8, 6, 4, 3, 2, -1]}, "options.rank_points"),
        ({"rank_points": [10, 8, 6, 4, 3, 2, 1.5]}, "options.rank_points"),
        ({"deck": []}, "options.deck"),
        (
            {
                "deck": [
                    {"kind": "move", "targets": [{"horse": 9}], "steps": 1, "direction": "back"}
                ]
            },
            "options.deck[0]",
        ),
        ({"deck": [{"kind": "rider_fall_off"}, {"kind": "teleport"}]}, "options.deck[1]"),
        ({"first_seat": 6}, "options.first_seat"),
        ({"first_seat": True}, "options.first_seat"),
    ],
)
def test_bad_options(options, field):
    with pytest.raises(BadRequest) as caught:
        dh.check_options({**dh.OPTIONS, **options})
    assert (caught.value.code, caught.value.details["field"]) == ("options/invalid", field)


def test_first_seat_must_sit_at_the_table():
    with pytest.raises(BadRequest) as caught:
        game.create("dark-horse", ["a", "b", "c"], {"first_seat": 3}, "seed")
    assert caught.value.details["field"] == "options.first_seat"


def test_custom_deck_and_rank_points_are_used():
    deck = [{"kind": "rider_fall_off"}] * 4
    records = game.create("dark-horse", ["a", "b"], {"deck": deck, "rank_points": [1] * 7}, "s")
    rules = game.fold(records)["rules"]
    assert rules["hand_size"] == 2 and rules["rank_points"] == [1] * 7


# --- setup, views, purity --------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_deals_by_player_count(seats):
    state = dh.initial([f"p{s}" for s in range(seats)], dict(dh.OPTIONS))
    events = dh.setup(state, Rng(f"deal-{seats}"))
    state = fold(state, events)
    betting, hand = (3 if seats == 2 else 2), [8, 7, 6, 6, 5][seats - 2]
    assert [len(c) for c in state["betting_cards"]] == [betting] * seats
    assert len(state["betting_stack"]) == 14 - betting * seats
    assert [len(h) for h in state["hands"]] == [hand] * seats
    assert len(state["set_aside"]) == 33 - hand * seats
    for ev in events:
        if ev["type"] in ("BettingCardsDealt", "ActionCardsDealt"):
            assert ev["visibility"] == [ev["payload"]["seat"]]
        if ev["type"] in ("BettingStackFormed", "ActionCardsSetAside"):
            assert ev["visibility"] == "moderator"
    assert json.loads(json.dumps(state)) == state


def test_views_show_only_a_seats_own_secrets():
    state = exchange_table()
    spectator = dh.view(state, None)
    assert not SECRET_KEYS & set(spectator) and "betting_cards" not in spectator
    for seat in range(3):
        shown = dh.view(state, seat)
        assert not SECRET_KEYS & set(shown)
        assert shown["betting_cards"] == state["betting_cards"][seat]
        assert [c["card"] for c in shown["hand"]] == state["hands"][seat]
    moderator = dh.view(state, "moderator")
    assert moderator["betting_stack_cards"] == [7, 1]
    assert moderator["betting_cards_by_seat"] == [[2, 5], [3, 4], [6, 6]]
    assert spectator["betting_card_counts"] == [2, 2, 2] and spectator["betting_stack_size"] == 2
    assert spectator["horse_ranks"]["2"] == 1 and spectator["dark_horse"] == 6


def test_apply_does_not_touch_its_input():
    state = exchange_table()
    before = copy.deepcopy(state)
    events = dh.decide(
        state, 0, {"type": "play_card", "card": EXCHANGE, "exchange": {"seat": 1}}, Rng("x")
    )
    after = fold(state, events)
    after = fold(after, dh.decide(after, 1, {"type": "discard_betting_card", "horse": 3}, Rng("y")))
    assert state == before and after != before


# --- random games through the engine ---------------------------------------------------


def random_game(seats, seed, check_every_legal=False):
    players = [f"p{s}" for s in range(seats)]
    first = seed % seats
    records = game.create("dark-horse", players, {"first_seat": first}, f"seed-{seed}")
    state, log, bot = game.fold(records), list(records), random.Random(seed)
    while state["status"] == "active":
        (seat,) = game.view(state, None)["to_move"]
        check_turn(state, seat, check_every_legal, seed)
        command = bot.choice(dh.legal(state["rules"], seat))
        added = game.execute(state, seat, command, f"seed-{seed}")
        log += added
        state = game.fold(added, state)
    return state, log


def check_turn(state, seat, check_every_legal, seed):
    rules = state["rules"]
    for other in range(rules["seats"]):
        shown = game.view(state, other)
        assert not SECRET_KEYS & set(shown["state"])
        if other != seat:
            assert dh.legal(rules, other) == []
    if check_every_legal:
        for command in dh.legal(rules, seat):
            game.execute(state, seat, command, f"seed-{seed}")


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_games_finish_and_fold_to_the_same_state(seats):
    for seed in range(24):
        state, log = random_game(seats, seed, check_every_legal=seed < 2)
        assert state["status"] == "finished"
        assert game.fold(log) == state
        outcome = state["outcome"]
        assert len(outcome["scores"]) == seats and outcome["winners"]
        assert all(not hand for hand in state["rules"]["hands"])
        assert state["rules"]["phase"] == "over"


def test_same_seed_same_commands_same_records():
    _, first = random_game(4, 7)
    _, second = random_game(4, 7)
    assert first == second
