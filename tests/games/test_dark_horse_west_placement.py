"""Dark Horse West, the Placement Phase: what each action asks of the dice, each action
collected once, the Wild Die and Engineer tokens, the Dealer, the Deputy die, doubles,
jail and the bonus die, whose turn it is, refused commands and what `legal` offers; on
hand-built tables, through the ruleset's pure functions (docs/rules/dark-horse-west.md
wins where the rule text is silent)."""

import copy

import dhw
import pytest

from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.rng import Rng
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west import flow

BASES = {n: dhw.set_up(n) for n in (1, 2, 3, 4)}
BASE = BASES[4]
A, B, C, D = BASE["order"]  # the four seats in turn order


def table(values, seat=A, *, players=4, kinds=None, **goods):
    """The seat is asked to place and holds these dice (and these goods, the rest as set up)."""
    state = dhw.with_dice(BASES[players], seat, values, kinds)
    return holding(state, seat, **goods)


def holding(state, seat, **goods):
    """A copy where the seat holds these amounts of goods (the others unchanged)."""
    out = copy.deepcopy(state)
    out["goods"][seat].update(goods)
    return out


def rolled(state, seat, values, *, placed=None):
    """A copy where the seat's dice show these values (all placed on `placed`, or none)."""
    out = copy.deepcopy(state)
    out["dice"][seat] = [
        {"id": i, "kind": "normal", "value": v, "placed": placed, "touched": False}
        for i, v in enumerate(values)
    ]
    return out


def held(state, *placements):
    """A copy with these placements already on the board (seat, action[, row, slot])."""
    out = copy.deepcopy(state)
    for seat, action, *spot in placements:
        made = {"seat": seat, "action": action, "dice": [0], "total": 0, "collected": False}
        if spot:
            made.update(row=spot[0], slot=spot[1])
        out["placements"].append(made)
    return out


def turn_of(state, seat):
    """A copy where the seat is asked to place (its next turn of this Placement Phase)."""
    return dhw.changed(state, step={"kind": "place", "seat": seat})


def place(action, dice, **extra):
    return {"type": "place", "action": action, "dice": dice, **extra}


def produce(row, slot, dice, **extra):
    return place("produce", dice, row=row, slot=slot, **extra)


def placed(state, seat, command):
    """The DicePlaced payload of an accepted placement."""
    return dhw.first(dhw.decide(state, seat, command), "DicePlaced")


def refused(state, seat, command, error=RuleViolation):
    """The error a refused command raises; the table is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        dhw.decide(state, seat, command)
    assert state == before
    return caught.value


def refused_placement(state, seat, command):
    assert refused(state, seat, command).code == "rule/placement_refused"


# --- what each action asks of the dice ----------------------------------------------------


def test_turn_order_takes_a_single_die_of_three_or_more():
    state = table([3, 2])
    made = placed(state, A, place("turn_order", [0]))
    assert (made["action"], made["dice"], made["total"], made["rank"]) == ("turn_order", [0], 3, 1)
    refused_placement(state, A, place("turn_order", [1]))
    refused_placement(table([3, 4]), A, place("turn_order", [0, 1]))


def test_turn_order_takes_a_wild_die_plus_one_on_a_two():
    made = placed(table([2, 1], wild=1), A, place("turn_order", [0], wild=1))
    assert (made["total"], made["modifier"], made["delta"]) == (3, "wild", 1)
    assert made["change"] == {"wild": -1}
    refused_placement(table([1, 1], wild=1), A, place("turn_order", [0], wild=1))


def test_turn_order_slots_are_ranked_in_the_order_dice_are_placed():
    # Justin places a 4 first, Gary a 6 after him: Justin has the first slot
    events, state = dhw.play(table([4, 2]), A, place("turn_order", [0]))
    assert dhw.first(events, "DicePlaced")["rank"] == 1
    assert rules.to_move(state) == [B]
    second = placed(dhw.with_dice(state, B, [6, 1]), B, place("turn_order", [0]))
    assert second["rank"] == 2


def test_a_die_on_turn_order_takes_the_first_free_slot_after_the_dealer_moves_one_away():
    state = dhw.play(table([5, 2]), A, place("turn_order", [0]))[1]
    state = dhw.play(dhw.with_dice(state, B, [4, 1]), B, place("turn_order", [0]))[1]
    move = {"placement": 0, "to": "builder", "delta": 1}
    state = dhw.play(turn_of(state, A), A, {"type": "dealer", "die": 1, "move": move})[1]
    state = dhw.play(dhw.with_dice(state, C, [6, 1]), C, place("turn_order", [0]))[1]
    ranks = {p["seat"]: p["rank"] for p in state["placements"] if p["action"] == "turn_order"}
    # B keeps its second slot; C takes "the first available 3+ spot closest to the top"
    assert ranks == {B: 2, C: 1}


def test_turn_order_is_off_limits_in_solitaire():
    state = table([5, 6], seat=0, players=1)
    refused_placement(state, 0, place("turn_order", [0]))
    assert not [c for c in rules.legal(state, 0) if c.get("action") == "turn_order"]
    assert [c for c in rules.legal(table([5, 6]), A) if c.get("action") == "turn_order"]


def test_pioneer_takes_a_natural_one_and_one_other_die():
    made = placed(table([1, 5]), A, place("pioneer", [0, 1]))
    assert (made["action"], made["dice"]) == ("pioneer", [0, 1])
    assert placed(table([1, 1]), A, place("pioneer", [0, 1]))["action"] == "pioneer"
    refused_placement(table([2, 5]), A, place("pioneer", [0, 1]))
    refused_placement(table([1, 5]), A, place("pioneer", [0]))
    three = table([1, 5, 4], kinds=["normal", "normal", "bonus"])
    refused_placement(three, A, place("pioneer", [0, 1, 2]))


def test_pioneer_takes_no_wild_die():
    refused_placement(table([2, 5], wild=1), A, place("pioneer", [0, 1], wild=-1))


def test_produce_resources_icons_depend_on_the_number_of_players():
    four = table([2, 5])
    three = table([2, 5], seat=BASES[3]["order"][0], players=3)
    two = table([2, 5], seat=BASES[2]["order"][0], players=2)
    for row in ("food", "wood", "ore"):
        made = placed(four, A, produce(row, "two", [0]))
        assert (made["action"], made["row"], made["slot"]) == ("produce", row, "two")
        assert placed(four, A, produce(row, "three", [0]))["slot"] == "three"
    s3, s2 = BASES[3]["order"][0], BASES[2]["order"][0]
    assert placed(three, s3, produce("food", "three", [0]))["slot"] == "three"
    refused_placement(two, s2, produce("food", "three", [0]))
    assert placed(two, s2, produce("food", "two", [0]))["slot"] == "two"
    refused_placement(four, A, produce("gold", "two", [0]))
    refused_placement(four, A, produce("food", "four", [0]))


def test_produce_resources_plus_icon_takes_a_single_die_of_four_or_more():
    state = table([4, 3], wild=1)
    assert placed(state, A, produce("ore", "plus", [0]))["slot"] == "plus"
    refused_placement(state, A, produce("ore", "plus", [1]))
    refused_placement(table([4, 4]), A, produce("ore", "plus", [0, 1]))
    # a modifier may be used for the 4+ icon (the text's note)
    made = placed(state, A, produce("ore", "plus", [1], wild=1))
    assert (made["total"], made["change"]) == (4, {"wild": -1})


def test_produce_resources_other_icons_take_any_single_die_and_no_modifier():
    assert placed(table([1, 6]), A, produce("wood", "two", [0]))["total"] == 1
    refused_placement(table([1, 6]), A, produce("wood", "two", [0, 1]))
    refused_placement(table([1, 6], wild=1), A, produce("wood", "two", [0], wild=1))


def test_the_homesteader_takes_the_plus_icon_with_a_three():
    state = dhw.changed(table([3, 1]), characters=[None, None, None, None])
    refused_placement(state, A, produce("food", "plus", [0]))
    state["characters"][A] = "homesteader"
    assert placed(state, A, produce("food", "plus", [0]))["slot"] == "plus"


def test_produce_resources_one_die_per_row_per_seat():
    events, state = dhw.play(table([2, 5]), A, produce("food", "two", [0]))
    state = turn_of(state, A)
    refused_placement(state, A, produce("food", "plus", [1]))
    refused_placement(state, A, produce("food", "three", [1]))
    made = placed(state, A, produce("wood", "plus", [1]))
    assert (made["row"], made["slot"]) == ("wood", "plus")


def test_produce_resources_an_icon_another_seat_holds_is_closed_and_never_shared():
    state = held(table([2, 5], engineer=1), (B, "produce", "food", "two"))
    refused_placement(state, A, produce("food", "two", [0]))
    refused_placement(state, A, produce("food", "two", [0], share=True))
    assert placed(state, A, produce("food", "three", [0]))["slot"] == "three"


def test_hired_hand_takes_dice_totalling_two():
    assert placed(table([1, 1]), A, place("hired_hand", [0, 1]))["total"] == 2
    assert placed(table([2, 5]), A, place("hired_hand", [0]))["total"] == 2
    refused_placement(table([3, 5]), A, place("hired_hand", [0]))
    made = placed(table([3, 5], wild=1), A, place("hired_hand", [0], wild=-1))
    assert (made["total"], made["delta"]) == (2, -1)


@pytest.mark.parametrize(
    ("action", "natural", "near"), [("politics", 3, 4), ("work_crew", 4, 3), ("rail_baron", 5, 6)]
)
def test_a_natural_action_takes_one_die_showing_its_number(action, natural, near):
    assert placed(table([natural, 6]), A, place(action, [0]))["total"] == natural
    refused_placement(table([near, 6]), A, place(action, [0]))
    # two dice adding up to the number are not a natural roll
    refused_placement(table([1, natural - 1]), A, place(action, [0, 1]))
    # nor is a +/-1: "you must roll that exact number"
    refused_placement(table([near, 6], wild=1), A, place(action, [0], wild=natural - near))


@pytest.mark.parametrize(
    ("action", "good", "bad"),
    [
        ("builder", [4, 2], [4, 3]),
        ("trader", [4, 3], [4, 2]),
        ("trader", [4, 4], [4, 5]),
        ("engineer", [5, 2], [6, 3]),
        ("engineer", [6, 2], [1, 5]),
        ("scout", [4, 5], [4, 6]),
        ("broker", [5, 6], [4, 6]),
        ("tycoon", [6, 6], [5, 6]),
    ],
)
def test_a_total_action_takes_dice_adding_up_to_its_number(action, good, bad):
    assert placed(table(good), A, place(action, [0, 1]))["total"] == sum(good)
    refused_placement(table(bad), A, place(action, [0, 1]))


def test_a_total_action_takes_one_two_or_three_dice():
    assert placed(table([6, 1]), A, place("builder", [0]))["total"] == 6
    three = table([1, 2, 3], kinds=["normal", "normal", "bonus"])
    assert placed(three, A, place("builder", [0, 1, 2]))["total"] == 6


@pytest.mark.parametrize("action", ["mayor", "sheriff"])
def test_mayor_and_sheriff_take_two_or_three_dice_totalling_exactly_ten(action):
    assert placed(table([4, 6]), A, place(action, [0, 1]))["total"] == 10
    three = table([3, 3, 4], kinds=["normal", "normal", "bonus"])
    assert placed(three, A, place(action, [0, 1, 2]))["total"] == 10
    refused_placement(table([5, 6]), A, place(action, [0, 1]))
    refused_placement(three, A, place(action, [0, 1]))


@pytest.mark.parametrize("action", ["mayor", "sheriff"])
def test_mayor_and_sheriff_take_no_modifier(action):
    state = table([5, 4], wild=1, engineer=1)
    refused_placement(state, A, place(action, [0, 1], wild=1))
    refused_placement(state, A, place(action, [0, 1], engineer={"die": 1, "value": 5}))
    assert not [c for c in rules.legal(state, A) if c.get("action") == action]


def reroll_seed(state, seat, by, want):
    """A seed under which re-rolling one die (`by` a Wild Die token or Lucky Break) shows
    `want`."""
    stream = f"round-{state['round']}/{by}/{seat}"
    return next(
        seed
        for seed in (f"reroll-{i}" for i in range(500))
        if Rng(seed).stream(stream).below(6) + 1 == want
    )


REROLLS = [
    ("wild_die", {"type": "reroll", "dice": [1]}),
    ("lucky_break", {"type": "play_card", "card": "lucky_break-1", "die": 1}),
]


@pytest.mark.parametrize("action", ["mayor", "sheriff"])
@pytest.mark.parametrize(("by", "command"), REROLLS, ids=["wild_die", "lucky_break"])
def test_mayor_and_sheriff_refuse_a_die_re_rolled_by_a_token_or_a_card(action, by, command):
    # "Players cannot use Wild Die, Engineer tokens, or the Dealer action space to obtain a
    # Restricted action"; a re-roll is a Wild Die token's first use, and a card's re-roll is
    # one more of "any sort of dice modifiers"
    state = table([4, 2], wild=1)
    state["hands"][A] = ["lucky_break-1"]
    _, state = dhw.play(state, A, command, reroll_seed(state, A, by, 6))
    assert [d["value"] for d in state["dice"][A]] == [4, 6]
    refused_placement(state, A, place(action, [0, 1]))
    assert not [c for c in rules.legal(state, A) if c.get("action") == action]
    # the dice as rolled still take it; a game created under 1.0.0 took re-rolled dice too
    assert placed(table([4, 6]), A, place(action, [0, 1]))["total"] == 10
    old = dhw.under(state, "1.0.0")
    assert placed(old, A, place(action, [0, 1]))["total"] == 10


def test_a_re_rolled_die_still_claims_a_natural_number():
    # a natural number refuses only the +/-1 of the Dealer and the Wild Die token
    state = table([4, 2], wild=1)
    _, state = dhw.play(
        state, A, {"type": "reroll", "dice": [1]}, reroll_seed(state, A, "wild_die", 3)
    )
    assert placed(state, A, place("politics", [1]))["total"] == 3


def test_market_takes_any_single_die_once_per_seat():
    assert placed(table([1, 6]), A, place("market", [0]))["total"] == 1
    refused_placement(table([1, 6]), A, place("market", [0, 1]))
    events, state = dhw.play(table([1, 6]), A, place("market", [0]))
    refused_placement(turn_of(state, A), A, place("market", [1]))


def test_a_die_goes_on_a_character_card_only_for_the_merchant_and_the_homesteader():
    state = table([2, 5])
    for character, ok in [
        (None, False),
        ("scoundrel", False),
        ("banker", False),
        ("merchant", True),
        ("homesteader", True),
    ]:
        state["characters"][A] = character
        if ok:
            assert placed(state, A, place("character", [0]))["action"] == "character"
            refused_placement(state, A, place("character", [0, 1]))
        else:
            refused_placement(state, A, place("character", [0]))


# --- each action collected once ------------------------------------------------------------


def test_a_seat_places_on_an_action_at_most_once():
    events, state = dhw.play(
        table([1, 5, 5], kinds=["normal", "normal", "bonus"]), A, place("rail_baron", [1])
    )
    state = turn_of(state, A)
    refused_placement(state, A, place("rail_baron", [2]))
    refused_placement(holding(state, A, engineer=1), A, place("rail_baron", [2], share=True))


def test_a_limited_action_another_seat_holds_is_closed_without_an_engineer_token():
    state = held(table([4, 3], engineer=0), (B, "trader"))
    refused_placement(state, A, place("trader", [0, 1]))
    refused_placement(state, A, place("trader", [0, 1], share=True))
    made = placed(holding(state, A, engineer=1), A, place("trader", [0, 1], share=True))
    assert (made["action"], made["share"], made["change"]) == ("trader", True, {"engineer": -1})


def test_daves_example_two_seats_share_builder_with_larry_each_with_an_engineer_token():
    larry, dave, chris = BASES[3]["order"]
    state = held(table([4, 2], seat=dave, players=3, engineer=1), (larry, "builder"))
    refused_placement(state, dave, place("builder", [0, 1]))
    events, state = dhw.play(state, dave, place("builder", [0, 1], share=True))
    assert dhw.first(events, "DicePlaced")["change"] == {"engineer": -1}
    state = holding(dhw.with_dice(state, chris, [3, 3]), chris, engineer=1)
    refused_placement(state, chris, place("builder", [0, 1]))
    made = placed(state, chris, place("builder", [0, 1], share=True))
    assert (made["seat"], made["change"]) == (chris, {"engineer": -1})


def test_sharing_a_free_action_or_an_unlimited_one_is_refused():
    state = table([4, 3], engineer=1)
    refused_placement(state, A, place("trader", [0, 1], share=True))
    refused_placement(state, A, place("market", [0], share=True))


@pytest.mark.parametrize("action", ["mayor", "sheriff"])
def test_a_restricted_action_is_never_shared(action):
    state = held(table([4, 6], engineer=1), (B, action))
    refused_placement(state, A, place(action, [0, 1]))
    refused_placement(state, A, place(action, [0, 1], share=True))


@pytest.mark.parametrize("action", ["rail_baron", "builder"])
def test_rail_baron_and_builder_take_two_seats_at_four_players(action):
    dice = [5, 1]  # a natural 5 for Rail Baron, 5 + 1 for Builder
    group = [0] if action == "rail_baron" else [0, 1]
    state = held(table(dice, engineer=1), (B, action))
    assert placed(state, A, place(action, group))["action"] == action
    full = held(state, (C, action))
    refused_placement(full, A, place(action, group))
    assert placed(full, A, place(action, group, share=True))["change"] == {"engineer": -1}
    seat3 = BASES[3]["order"][0]
    other3 = BASES[3]["order"][1]
    three = held(table(dice, seat=seat3, players=3), (other3, action))
    refused_placement(three, seat3, place(action, group))


def test_a_seat_cannot_share_an_action_holding_its_own_dice():
    state = held(table([4, 2], engineer=1), (A, "builder"), (B, "builder"))
    refused_placement(state, A, place("builder", [0, 1], share=True))


def test_an_action_a_ghost_die_holds_is_shared_with_an_engineer_token():
    state = held(table([4, 2], seat=0, players=1, engineer=1), (None, "builder"))
    refused_placement(state, 0, place("builder", [0, 1]))
    made = placed(state, 0, place("builder", [0, 1], share=True))
    assert made["change"] == {"engineer": -1}


# --- Wild Die and Engineer tokens ------------------------------------------------------------


def test_a_wild_die_token_takes_one_off_the_dice_and_is_spent():
    events, state = dhw.play(table([5, 2], wild=1), A, place("builder", [0, 1], wild=-1))
    made = dhw.first(events, "DicePlaced")
    assert (made["total"], made["delta"], made["change"]) == (6, -1, {"wild": -1})
    assert state["goods"][A]["wild"] == 0
    assert state["used"][A]["wild"] is True


def test_a_wild_die_token_is_used_once_a_game_turn():
    state = table([5, 2, 2], kinds=["normal", "normal", "bonus"], wild=2)
    events, state = dhw.play(state, A, place("turn_order", [1], wild=1))
    state = turn_of(state, A)
    assert state["goods"][A]["wild"] == 1
    assert refused(state, A, place("builder", [0, 2], wild=-1)).code == "rule/placement_refused"
    assert refused(state, A, {"type": "reroll", "dice": [0]}).code == "rule/no_token"


def test_a_wild_die_needs_a_token():
    refused_placement(table([5, 2], wild=0), A, place("builder", [0, 1], wild=-1))


@pytest.mark.parametrize(
    ("action", "dice", "values"),
    [
        ("politics", [0], [4, 6]),
        ("pioneer", [0, 1], [2, 6]),
        ("market", [0], [4, 6]),
        ("mayor", [0, 1], [5, 4]),
        ("sheriff", [0, 1], [5, 6]),
    ],
)
def test_a_wild_die_never_helps_a_natural_pioneer_any_die_or_restricted_action(
    action, dice, values
):
    state = table(values, wild=1)
    for delta in (1, -1):
        refused_placement(state, A, place(action, dice, wild=delta))


def test_an_engineer_token_sets_a_die_that_then_counts_as_natural():
    command = place("politics", [0], engineer={"die": 0, "value": 3})
    events, state = dhw.play(table([6, 2], engineer=1), A, command)
    made = dhw.first(events, "DicePlaced")
    assert (made["total"], made["engineer"], made["change"]) == (
        3,
        {"die": 0, "value": 3},
        {"engineer": -1},
    )
    die = state["dice"][A][0]
    assert (die["value"], die["engineered"], die["placed"]) == (3, True, "politics")
    assert state["goods"][A]["engineer"] == 0 and state["used"][A]["engineer"]


def test_an_engineer_token_makes_a_total_and_a_pioneer_one():
    made = placed(
        table([5, 4], engineer=1), A, place("builder", [0, 1], engineer={"die": 1, "value": 1})
    )
    assert made["total"] == 6
    made = placed(
        table([3, 4], engineer=1), A, place("pioneer", [0, 1], engineer={"die": 0, "value": 1})
    )
    assert made["action"] == "pioneer"


def test_an_engineer_token_changes_one_of_the_dice_being_placed():
    state = table([6, 2], engineer=1)
    refused_placement(state, A, place("politics", [0], engineer={"die": 1, "value": 3}))


def test_an_engineer_token_needs_a_token():
    refused_placement(
        table([6, 2], engineer=0), A, place("politics", [0], engineer={"die": 0, "value": 3})
    )


def test_one_modifier_per_placement():
    state = table([5, 5], wild=1, engineer=1)
    both = place("builder", [0, 1], wild=-1, engineer={"die": 0, "value": 2})
    refused_placement(state, A, both)


def test_one_engineer_token_a_turn_cannot_both_share_and_change_a_die():
    state = held(table([6, 2], engineer=2), (B, "politics"))
    command = place("politics", [0], engineer={"die": 0, "value": 3}, share=True)
    refused_placement(state, A, command)


def test_a_wild_die_and_an_engineer_token_may_serve_one_placement_together():
    # different token types: Wild Die for the total, Engineer to share
    state = held(table([5, 1], wild=1, engineer=1), (B, "builder"), (C, "builder"))
    made = placed(state, A, place("builder", [0], wild=1, share=True))
    assert (made["total"], made["change"]) == (6, {"engineer": -1, "wild": -1})


def test_an_engineer_token_is_used_once_a_game_turn():
    state = table([6, 1, 2], kinds=["normal", "normal", "bonus"], engineer=2)
    events, state = dhw.play(state, A, place("politics", [0], engineer={"die": 0, "value": 3}))
    state = held(turn_of(state, A), (B, "work_crew"))
    assert state["goods"][A]["engineer"] == 1
    refused_placement(state, A, place("work_crew", [1], engineer={"die": 1, "value": 4}))


# --- Wild Die re-roll ----------------------------------------------------------------------


def test_a_wild_die_token_re_rolls_dice_from_the_seed_and_the_turn_goes_on():
    state = table([2, 5], wild=1)
    events, after = dhw.play(state, A, {"type": "reroll", "dice": [0, 1]})
    assert dhw.types(events) == ["DiceRerolled"]
    stream = Rng("rules").stream(f"round-{state['round']}/wild_die/{A}")
    faces = [stream.below(6) + 1 for _ in range(2)]
    again = dhw.first(events, "DiceRerolled")
    assert again["dice"] == {"0": faces[0], "1": faces[1]}
    assert again["change"] == {"wild": -1}
    assert [d["value"] for d in after["dice"][A]] == faces
    assert after["goods"][A]["wild"] == 0
    assert rules.to_move(after) == [A]
    assert any(c["type"] == "place" for c in rules.legal(after, A))


def test_a_wild_die_token_re_rolls_one_die():
    events = dhw.decide(table([2, 5], wild=1), A, {"type": "reroll", "dice": [1]})
    assert list(dhw.first(events, "DiceRerolled")["dice"]) == ["1"]


def test_a_wild_die_token_re_rolls_three_dice_only_with_the_bonus_die():
    three = {"type": "reroll", "dice": [0, 1, 2]}
    bonus = table([2, 5, 4], kinds=["normal", "normal", "bonus"], wild=1)
    assert len(dhw.first(dhw.decide(bonus, A, three), "DiceRerolled")["dice"]) == 3
    sheriff = table([2, 5, 4], kinds=["deputy", "normal", "normal"], wild=1)
    assert refused(sheriff, A, three).code == "rule/too_many_dice"


def test_a_re_roll_needs_a_wild_die_token():
    assert refused(table([2, 5], wild=0), A, {"type": "reroll", "dice": [0]}).code == (
        "rule/no_token"
    )


def test_a_placed_die_is_not_re_rolled():
    events, state = dhw.play(table([2, 5], wild=1), A, place("market", [0]))
    state = turn_of(state, A)
    assert refused(state, A, {"type": "reroll", "dice": [0]}).code == "rule/die_placed"


# --- the Dealer ------------------------------------------------------------------------------


def test_pauls_example_the_three_on_dealer_moves_the_six_to_trader():
    state = table([6, 3], wild=0)
    command = {"type": "dealer", "die": 1, "move": {"dice": [0], "to": "trader", "delta": 1}}
    events, after = dhw.play(state, A, command)
    assert dhw.types(events)[:2] == ["DealerUsed", "DicePlaced"]
    assert dhw.first(events, "DealerUsed") == {"seat": A, "die": 1}
    made = dhw.first(events, "DicePlaced")
    assert (made["action"], made["dice"], made["total"]) == ("trader", [0], 7)
    assert (made["via"], made["delta"]) == ("dealer", 1)
    assert [d["placed"] for d in after["dice"][A]] == ["trader", "dealer"]
    assert after["used"][A]["dealer"] is True
    assert rules.to_move(after) != [A]


def test_pauls_alternative_a_wild_die_token_keeps_the_three_for_later():
    events, after = dhw.play(table([6, 3], wild=1), A, place("trader", [0], wild=1))
    assert dhw.first(events, "DicePlaced")["total"] == 7
    assert after["dice"][A][1]["placed"] is None


def test_jasons_example_the_two_on_dealer_moves_the_five_to_builder():
    command = {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "builder", "delta": 1}}
    made = dhw.first(dhw.decide(table([2, 5]), A, command), "DicePlaced")
    assert (made["action"], made["total"]) == ("builder", 6)


def test_the_dealer_moves_a_placement_made_earlier():
    events, state = dhw.play(table([5, 2]), A, place("turn_order", [0]))
    state = turn_of(state, A)
    index = len(state["placements"]) - 1
    command = {
        "type": "dealer",
        "die": 1,
        "move": {"placement": index, "to": "builder", "delta": 1},
    }
    events, after = dhw.play(state, A, command)
    moved = dhw.first(events, "DiceMoved")
    assert (moved["placement"], moved["to"], moved["total"]) == (index, "builder", 6)
    assert after["placements"][index]["action"] == "builder"
    assert "rank" not in after["placements"][index]
    assert after["dice"][A][0]["placed"] == "builder"


def test_the_dealer_moves_a_placement_onto_a_shared_action_spending_the_engineer_token():
    state = held(table([6, 2], engineer=1), (B, "trader"))
    events, state = dhw.play(state, A, place("turn_order", [0]))
    state = turn_of(state, A)
    index = len(state["placements"]) - 1
    move = {"placement": index, "to": "trader", "delta": 1, "share": True}
    events, after = dhw.play(state, A, {"type": "dealer", "die": 1, "move": move})
    assert dhw.first(events, "DiceMoved")["to"] == "trader"
    assert after["goods"][A]["engineer"] == 0
    assert after["used"][A]["engineer"] is True


def test_a_dealer_loan_gives_three_resources_of_choice_and_a_loan_token():
    state = table([2, 5], loan=0, food=0, wood=0, ore=0)
    command = {"type": "dealer", "die": 0, "loan": {"ore": 2, "food": 1}}
    events, after = dhw.play(state, A, command)
    used = dhw.first(events, "DealerUsed")
    assert used["change"] == {"food": 1, "loan": 1, "ore": 2}
    goods = after["goods"][A]
    assert (goods["food"], goods["wood"], goods["ore"], goods["loan"]) == (1, 0, 2, 1)
    assert after["dice"][A][0]["placed"] == "dealer" and after["dice"][A][1]["placed"] is None


def test_a_dealer_loan_is_refused_at_the_token_limit_of_one_per_city():
    state = table([2, 5], loan=1)
    command = {"type": "dealer", "die": 0, "loan": {"wood": 3}}
    assert list(state["cities"].values()).count(A) == 1
    assert refused(state, A, command).code == "rule/token_limit"
    two_cities = dhw.changed(state, cities={**state["cities"], "9,9": A})
    assert dhw.first(dhw.decide(two_cities, A, command), "DealerUsed")["change"]["loan"] == 1
    banker = dhw.changed(state, characters=[None] * 4)
    banker["characters"][A] = "banker"  # The Banker holds one loan more
    assert dhw.first(dhw.decide(banker, A, command), "DealerUsed")["change"]["loan"] == 1
    assert refused(holding(banker, A, loan=2), A, command).code == "rule/token_limit"


def test_a_dealer_loan_takes_exactly_three_resources():
    for take in ({"wood": 2}, {"gold": 3}, {"wood": 4}, {"wood": 0, "ore": 3}, []):
        command = {"type": "dealer", "die": 0, "loan": take}
        assert refused(table([2, 5]), A, command, BadRequest).code == "command/invalid"


def test_the_dealer_is_used_once_a_game_turn():
    state = table([2, 5, 3], kinds=["normal", "normal", "bonus"])
    events, state = dhw.play(state, A, {"type": "dealer", "die": 0, "loan": {"wood": 3}})
    state = turn_of(state, A)
    command = {"type": "dealer", "die": 1, "move": {"dice": [2], "to": "turn_order", "delta": 1}}
    assert refused(holding(state, A, loan=0), A, command).code == "rule/dealer_used"


@pytest.mark.parametrize(
    ("to", "dice", "values", "delta"),
    [
        ("politics", [1], [6, 4], -1),
        ("rail_baron", [1], [6, 4], 1),
        ("pioneer", [1, 2], [6, 2, 5], -1),
        ("market", [1], [6, 4], 1),
        ("mayor", [1, 2], [6, 5, 4], 1),
        ("sheriff", [1, 2], [6, 5, 6], -1),
    ],
)
def test_the_dealer_never_moves_dice_to_a_natural_pioneer_any_die_or_restricted_action(
    to, dice, values, delta
):
    state = table(values, kinds=["normal", "normal", "bonus"][: len(values)])
    command = {"type": "dealer", "die": 0, "move": {"dice": dice, "to": to, "delta": delta}}
    refused_placement(state, A, command)


def test_the_dealer_die_cannot_move_itself():
    command = {"type": "dealer", "die": 0, "move": {"dice": [0], "to": "builder", "delta": 1}}
    refused_placement(table([5, 2]), A, command)


def test_a_dealer_move_must_land_on_the_need_plus_or_minus_one():
    command = {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "builder", "delta": 1}}
    refused_placement(table([2, 4]), A, command)
    command = {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "builder", "delta": 2}}
    assert refused(table([2, 5]), A, command, BadRequest).code == "command/invalid"


def test_a_dealer_takes_either_a_move_or_a_loan():
    move = {"dice": [1], "to": "builder", "delta": 1}
    for command in (
        {"type": "dealer", "die": 0},
        {"type": "dealer", "die": 0, "move": move, "loan": {"wood": 3}},
    ):
        assert refused(table([2, 5]), A, command, BadRequest).code == "command/invalid"


def test_a_dealer_move_shares_a_taken_action_with_an_engineer_token():
    state = held(table([3, 6], engineer=1), (B, "trader"))
    plain = {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "trader", "delta": 1}}
    refused_placement(state, A, plain)
    shared = {**plain, "move": {**plain["move"], "share": True}}
    events, after = dhw.play(state, A, shared)
    assert dhw.first(events, "DicePlaced")["change"] == {"engineer": -1}
    assert after["goods"][A]["engineer"] == 0


# --- the Deputy die --------------------------------------------------------------------------


def sheriff_table(values, **goods):
    state = table(values, kinds=["deputy"] + ["normal"] * (len(values) - 1), **goods)
    state["roles"] = {**state["roles"], "sheriff": A}
    return state


def test_the_deputy_die_flips_to_its_bottom_face_once_and_the_turn_goes_on():
    events, after = dhw.play(sheriff_table([6, 2]), A, {"type": "flip_deputy"})
    assert dhw.types(events) == ["DeputyFlipped"]
    assert dhw.first(events, "DeputyFlipped") == {"seat": A, "die": 0, "value": 1}
    assert after["dice"][A][0]["value"] == 1 and after["dice"][A][0]["flipped"]
    assert rules.to_move(after) == [A]
    assert refused(after, A, {"type": "flip_deputy"}).code == "rule/deputy_flip"
    # the flipped 6 is now a natural 1 (and a 2 becomes a 5 for Rail Baron)
    assert placed(after, A, place("market", [0]))["total"] == 1
    flipped_two = dhw.play(sheriff_table([2, 6]), A, {"type": "flip_deputy"})[1]
    assert placed(flipped_two, A, place("rail_baron", [0]))["total"] == 5


def test_only_the_sheriff_flips_a_deputy_die():
    assert refused(table([6, 2]), A, {"type": "flip_deputy"}).code == "rule/no_deputy"


def test_the_deputy_die_is_not_flipped_after_a_re_roll():
    events, state = dhw.play(sheriff_table([6, 2], wild=1), A, {"type": "reroll", "dice": [0]})
    assert refused(state, A, {"type": "flip_deputy"}).code == "rule/deputy_flip"
    assert {"type": "flip_deputy"} not in rules.legal(state, A)


def test_re_rolling_the_other_die_leaves_the_deputy_flip():
    events, state = dhw.play(sheriff_table([6, 2], wild=1), A, {"type": "reroll", "dice": [1]})
    assert {"type": "flip_deputy"} in rules.legal(state, A)
    assert dhw.types(dhw.decide(state, A, {"type": "flip_deputy"})) == ["DeputyFlipped"]


def test_the_deputy_die_is_not_flipped_once_placed():
    events, state = dhw.play(sheriff_table([6, 2]), A, place("market", [0]))
    assert refused(turn_of(state, A), A, {"type": "flip_deputy"}).code == "rule/deputy_flip"


def test_a_flipped_deputy_die_is_placed_alone_and_never_changed():
    state = dhw.play(sheriff_table([6, 3, 4], wild=1, engineer=1), A, {"type": "flip_deputy"})[1]
    assert state["dice"][A][0]["value"] == 1
    refused_placement(state, A, place("pioneer", [0, 1]))
    refused_placement(state, A, place("builder", [0, 2], wild=1))
    refused_placement(state, A, place("hired_hand", [0], wild=1))
    refused_placement(state, A, place("work_crew", [0], engineer={"die": 0, "value": 4}))
    assert refused(state, A, {"type": "reroll", "dice": [0]}).code == "rule/deputy_flipped"
    move = {"type": "dealer", "die": 1, "move": {"dice": [0], "to": "hired_hand", "delta": 1}}
    refused_placement(state, A, move)
    assert placed(state, A, place("market", [0]))["total"] == 1


def test_a_placement_card_re_rolls_a_die_and_the_turn_goes_on():
    state = sheriff_table([6, 2], wild=0)
    state["hands"][A] = ["lucky_break-1"]
    command = {"type": "play_card", "card": "lucky_break-1", "die": 0}
    assert command in rules.legal(state, A)
    events, after = dhw.play(state, A, command)
    assert dhw.types(events) == ["CardPlayed", "DiceRerolled"]
    assert rules.to_move(after) == [A]
    # a Deputy die a card changed is not flipped that turn
    assert refused(after, A, {"type": "flip_deputy"}).code == "rule/deputy_flip"


# --- doubles, the bonus die and jail --------------------------------------------------------


def next_roll(state, seat, wanted, *, tries=400):
    """The events of the next game turn's start for the first seed whose roll for `seat`
    satisfies `wanted(values)`."""
    for n in range(tries):
        events = flow.start_round(state, Rng(f"roll-{n}"), state["round"] + 1)
        dice = next(
            e["payload"]["dice"]
            for e in events
            if e["type"] == "DiceRolled" and e["payload"]["seat"] == seat
        )
        if wanted([d["value"] for d in dice]):
            return events
    raise AssertionError("no seed gave that roll")


def doubles(values):
    return len(values) >= 2 and len(set(values)) == 1


def wild_tokens(events, seat):
    return [
        e["payload"] for e in events if e["type"] == "TokenGained" and e["payload"]["seat"] == seat
    ]


def test_doubles_give_a_wild_die_token_within_the_city_limit():
    state = holding(BASE, A, wild=0)
    events = next_roll(state, A, doubles)
    assert wild_tokens(events, A) == [{"seat": A, "change": {"wild": 1}, "why": "doubles"}]
    assert dhw.fold(state, events)["goods"][A]["wild"] == 1


def test_no_wild_die_token_for_a_roll_that_is_not_doubles():
    events = next_roll(holding(BASE, A, wild=0), A, lambda v: len(set(v)) == 2)
    assert wild_tokens(events, A) == []


def test_doubles_give_no_wild_die_token_at_the_limit_but_the_scoundrel_holds_one_more():
    state = holding(BASE, A, wild=1)  # one city: one token at most
    assert wild_tokens(next_roll(state, A, doubles), A) == []
    state["characters"][A] = "scoundrel"
    assert wild_tokens(next_roll(state, A, doubles), A)[0]["change"] == {"wild": 1}


def test_with_the_bonus_die_triples_give_a_wild_die_token_and_doubles_do_not():
    state = holding(dhw.changed(BASE, bonus=[s == A for s in range(4)]), A, wild=0)
    events = next_roll(state, A, lambda v: len(v) == 3 and len(set(v)) == 1, tries=2000)
    assert wild_tokens(events, A)[0]["change"] == {"wild": 1}
    events = next_roll(state, A, lambda v: len(v) == 3 and len(set(v)) == 2)
    assert wild_tokens(events, A) == []


def test_a_lone_die_never_gives_a_wild_die_token():
    state = holding(dhw.changed(BASE, jail=[1 if s == A else 0 for s in range(4)]), A, wild=0)
    events = next_roll(state, A, lambda v: True)
    (dice,) = [
        e["payload"]["dice"]
        for e in events
        if e["type"] == "DiceRolled" and e["payload"]["seat"] == A
    ]
    assert len(dice) == 1
    assert wild_tokens(events, A) == []


def dice_rolled(state, seat):
    events = flow.start_round(state, Rng("jail"), state["round"] + 1)
    return next(
        e["payload"]["dice"]
        for e in events
        if e["type"] == "DiceRolled" and e["payload"]["seat"] == seat
    )


@pytest.mark.parametrize(
    ("jail", "bonus", "kinds"),
    [
        (0, False, ["normal", "normal"]),
        (0, True, ["normal", "normal", "bonus"]),
        (1, False, ["normal"]),
        (1, True, ["normal", "normal"]),  # the bonus die goes to jail first
        (3, False, []),  # jail 2+: every die
        (3, True, []),  # and the bonus die too
    ],
)
def test_jailed_dice_are_not_rolled_and_a_bonus_die_adds_a_third(jail, bonus, kinds):
    state = dhw.changed(
        BASE,
        jail=[jail if s == A else 0 for s in range(4)],
        bonus=[bonus and s == A for s in range(4)],
    )
    assert [d["kind"] for d in dice_rolled(state, A)] == kinds
    assert len(dice_rolled(state, B)) == 2


def test_the_sheriff_rolls_the_deputy_die_as_its_first_die():
    state = dhw.changed(BASE, roles={"mayor": None, "sheriff": A})
    assert [d["kind"] for d in dice_rolled(state, A)] == ["deputy", "normal"]


def test_a_new_game_turn_lets_every_token_and_the_dealer_be_used_again():
    state = dhw.play(table([2, 5], wild=1), A, place("builder", [1], wild=1))[1]
    assert state["used"][A]["wild"]
    state = dhw.fold(state, flow.start_round(state, Rng("next"), state["round"] + 1))
    assert not state["used"][A]["wild"] and not state["used"][A]["dealer"]
    assert state["placements"] == []


# --- whose turn ------------------------------------------------------------------------------


def test_one_placement_a_turn_in_turn_order():
    assert BASE["step"] == {"kind": "place", "seat": A}
    events, state = dhw.play(table([2, 5]), A, place("market", [0]))
    assert dhw.first(events, "PlacementTurn") == {"seat": B}
    assert rules.to_move(state) == [B]
    assert refused(state, A, place("hired_hand", [1])).code == "rule/not_your_turn"
    assert rules.legal(state, A) == []


def test_after_the_last_seat_the_first_places_again():
    state = held(table([2, 5], seat=D), (A, "market"), (B, "market"), (C, "market"))
    events = dhw.decide(state, D, place("market", [0]))
    assert dhw.first(events, "PlacementTurn") == {"seat": A}


def test_a_seat_with_every_die_placed_is_passed_over():
    state = rolled(table([2, 5]), B, [3, 4], placed="market")
    events = dhw.decide(state, A, place("market", [0]))
    assert dhw.first(events, "PlacementTurn") == {"seat": C}


def test_a_seat_whose_die_fits_nowhere_is_passed_over():
    # B's lone 1: Market and Dealer used, every any-die icon of Produce Resources taken,
    # no token to help it onto Hired Hand, Turn Order or Politics
    state = rolled(table([2, 5]), B, [1])
    state = holding(state, B, wild=0, engineer=0)
    state["used"][B] = {**state["used"][B], "dealer": True}
    icons = [(C, "produce", r, s) for r in ("food", "wood", "ore") for s in ("two", "three")]
    state = held(state, (B, "market"), *icons)
    events = dhw.decide(state, A, place("trader", [0, 1], wild=1))
    assert dhw.first(events, "PlacementTurn") == {"seat": C}


def test_placing_is_compulsory_while_a_die_can_go_somewhere():
    state = table([2, 5])
    assert not [c for c in rules.legal(state, A) if c["type"] in ("pass", "decline")]
    assert refused(state, A, {"type": "pass"}).code == "rule/not_now"
    assert refused(state, A, {"type": "collect"}).code == "rule/not_now"


def test_the_placement_phase_ends_when_nobody_can_place():
    state = table([2, 5])
    state = rolled(state, A, [2, 5])
    state["dice"][A][1]["placed"] = "market"
    state["step"] = {"kind": "place", "seat": A}
    for seat in (B, C, D):
        state = rolled(state, seat, [3, 4], placed="trader")
    events = dhw.decide(state, A, place("hired_hand", [0]))
    kinds = dhw.types(events)
    assert kinds[:3] == ["DicePlaced", "PlacementEnded", "CollectionStarted"]
    # nobody is asked to place again: the Collection Phase asks its first seat
    assert "PlacementTurn" not in kinds and kinds[-1] == "CollectionTurn"


def test_a_seat_goes_on_placing_its_last_dice_when_the_others_are_done():
    state = table([2, 5])
    for seat in (B, C, D):
        state = rolled(state, seat, [3, 4], placed="trader")
    events, after = dhw.play(state, A, place("market", [0]))
    assert dhw.first(events, "PlacementTurn") == {"seat": A}
    assert rules.to_move(after) == [A]


# --- refused commands ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        place("dealer", [0]),
        place("nowhere", [0]),
        place("builder", [0], row="food"),
        place("builder", [0, 1], slot="two"),
        place("builder", [0, 1], wild=2),
        place("builder", [0, 1], wild="1"),
        place("builder", [0, 1], wild=True),
        place("trader", [0, 1], share="yes"),
        place("politics", [0], engineer={"die": 0}),
        place("politics", [0], engineer={"die": 0, "value": 7}),
        place("politics", [0], engineer={"die": "0", "value": 3}),
        place("politics", [0], engineer=3),
        place("market", []),
        place("market", [0, 0]),
        place("market", [2]),
        place("market", [-1]),
        place("market", ["0"]),
        place("market", [True]),
        place("market", 0),
        {"type": "place", "action": "market"},
        {"type": "dealer", "die": 5, "loan": {"wood": 3}},
        {"type": "dealer", "die": 0, "move": "builder"},
        {"type": "dealer", "die": True, "loan": {"wood": 3}},
        {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "builder", "delta": True}},
        {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "dealer", "delta": 1}},
        {"type": "reroll", "dice": []},
        {"type": "reroll", "dice": [0, 0]},
    ],
)
def test_a_malformed_command_is_a_bad_request(command):
    error = refused(table([2, 5], wild=1, engineer=1), A, command, BadRequest)
    assert error.code == "command/invalid"
    assert error.status == 400


def test_a_refused_rule_is_a_422_with_its_code():
    error = refused(table([2, 5]), A, place("politics", [0]))
    assert (error.status, error.code) == (422, "rule/placement_refused")
    assert error.to_dict()["error"]["code"] == "rule/placement_refused"


def test_a_placed_die_is_not_placed_again():
    events, state = dhw.play(table([2, 5]), A, place("market", [0]))
    state = turn_of(state, A)
    assert refused(state, A, place("hired_hand", [0])).code == "rule/die_placed"
    command = {"type": "dealer", "die": 0, "loan": {"wood": 3}}
    assert refused(state, A, command).code == "rule/die_placed"
    command = {"type": "dealer", "die": 1, "move": {"dice": [0], "to": "turn_order", "delta": 1}}
    assert refused(state, A, command).code == "rule/die_placed"


def test_a_seat_out_of_turn_is_refused():
    state = table([2, 5])
    for seat in (B, C, D):
        assert refused(state, seat, place("market", [0])).code == "rule/not_your_turn"


# --- legal -----------------------------------------------------------------------------------


def legal_tables():
    """Tables of different shapes, each with the seat asked to place."""
    three = ["normal", "normal", "bonus"]
    second_turn = turn_of(
        dhw.play(table([5, 3], wild=1, engineer=1), A, place("turn_order", [0]))[1], A
    )
    sheriff = sheriff_table([6, 4], wild=1, engineer=1)
    return [
        ("3 and 5", A, table([3, 5], wild=1, engineer=1)),
        (
            "taken actions",
            A,
            held(
                table([1, 1, 6], kinds=three, wild=1, engineer=1),
                (B, "builder"),
                (C, "builder"),
                (B, "trader"),
                (B, "produce", "food", "two"),
            ),
        ),
        ("second turn", A, second_turn),
        ("sheriff", A, sheriff),
        ("no tokens", A, table([4, 6], wild=0, engineer=0)),
        (
            "three players",
            BASES[3]["order"][0],
            table([2, 2], seat=BASES[3]["order"][0], players=3, engineer=1),
        ),
        ("solitaire", 0, table([6, 6], seat=0, players=1, engineer=1)),
    ]


@pytest.mark.parametrize("name", [t[0] for t in legal_tables()])
def test_every_command_legal_offers_is_accepted(name):
    seat, state = next((s, st) for n, s, st in legal_tables() if n == name)
    commands = rules.legal(state, seat)
    assert {c["type"] for c in commands} >= {"place", "dealer"}
    for command in commands:
        events = dhw.decide(state, seat, command)
        assert events, command


@pytest.mark.parametrize("name", [t[0] for t in legal_tables()])
def test_legal_offers_a_token_only_where_the_dice_do_not_fit_without_it(name):
    seat, state = next((s, st) for n, s, st in legal_tables() if n == name)
    for command in rules.legal(state, seat):
        if command["type"] != "place":
            continue
        for token in ("wild", "engineer", "share"):
            if token in command:
                bare = {k: v for k, v in command.items() if k != token}
                with pytest.raises(RuleViolation):
                    dhw.decide(state, seat, bare)


def test_legal_offers_the_tokens_that_make_dice_fit():
    offered = rules.legal(table([2, 5], wild=1, engineer=1), A)
    assert place("turn_order", [0], wild=1) in offered
    assert place("politics", [1], engineer={"die": 1, "value": 3}) in offered
    assert place("builder", [1], wild=1) in offered
    # a 5 fits Turn Order as it is: no token is offered for it
    assert place("turn_order", [1]) in offered
    assert not [
        c
        for c in offered
        if c.get("action") == "turn_order" and c["dice"] == [1] and ("wild" in c or "engineer" in c)
    ]
    assert not [c for c in offered if c.get("action") in ("mayor", "sheriff")]
    assert not [c for c in offered if c.get("share")]


def test_legal_offers_sharing_only_with_an_engineer_token():
    state = held(table([4, 3], engineer=1), (B, "trader"))
    assert place("trader", [0, 1], share=True) in rules.legal(state, A)
    assert place("trader", [0, 1]) not in rules.legal(state, A)
    none = holding(state, A, engineer=0)
    assert not [c for c in rules.legal(none, A) if c.get("action") == "trader"]
