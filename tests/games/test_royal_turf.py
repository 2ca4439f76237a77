"""Royal Turf: every FAQ answer and the worked example of the rule text, race payouts
computed by hand, betting and racing, on hand-built tables (README decisions win)."""

import pytest

from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import royal_turf as rt
from referee.games.royal_turf import payouts, track
from referee.games.royal_turf.data import HORSES

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
# a moderator's deck where card n moves its horse n spaces whatever face the die shows
FLAT_CARDS = [[n] * 4 for n in range(1, 29)]
GATE_CARDS = {h: n for n, h in enumerate(HORSES, start=1)}  # white 1 ... purple 7
# bets nobody is paid for in FINISH: black, yellow and green never place, purple is last
QUIET = [("black", 1), ("yellow", 1), ("green", 2)]
# a race near its end, with the card (= steps) of each horse: green reaches the pace
# space, then red, blue and white cross the line in that order; purple is rearmost
FINISH_CARDS = {"white": 10, "black": 2, "red": 6, "blue": 8, "yellow": 3, "green": 5, "purple": 1}
FINISH = {"white": 30, "black": 10, "red": 35, "blue": 33, "yellow": 12, "green": 14, "purple": 2}


def fold(state, events):
    for ev in events:
        state = rt.apply(state, ev)
    return state


def table(*, seats=4, first=0, race=1, gates=None, **options):
    """A table betting on `race`: the flat deck unless options say otherwise, one card per
    gate (`gates`, default white 1 ... purple 7) and the first player chosen."""
    options = {"cards": FLAT_CARDS, **options}
    state = rt.initial(PLAYERS[:seats], {**rt.OPTIONS, **options})
    gates = gates or GATE_CARDS
    dealt = {"race": race, "cards": gates, "drawn": list(gates.values()), "set_aside": []}
    chosen = {"race": race, "seat": first, "among": [first]}
    return fold(state, [event("CardsDealt", dealt), event("FirstPlayerChosen", chosen)])


def place_all(state, bets):
    """Every face-up bet of the race in turn order; bets[seat] lists (horse, chip) by round."""
    seats = state["seats"]
    for index in range(len(bets[0])):
        for i in range(seats):
            seat = (state["first_player"] + i) % seats
            horse, chip = bets[seat][index]
            where = {"race": state["race"], "round": index + 1, "seat": seat, "horse": horse}
            state = rt.apply(state, event("BetPlaced", {**where, "chip": chip}))
    return state


def racing(spaces, bets=None, *, seats=4, money=None, face="head", **kw):
    """A table whose bets are all placed, the horses on `spaces`, the die rolled."""
    state = place_all(table(seats=seats, **kw), bets or [QUIET] * seats)
    assert state["phase"] == "racing"
    rolled = {"race": state["race"], "seat": state["turn"], "face": face}
    state = rt.apply(state, event("DieRolled", rolled))
    state = {**state, "spaces": {**state["spaces"], **spaces}}
    return state if money is None else {**state, "money": money}


def finish_table(bets, **kw):
    return racing(FINISH, bets, gates=FINISH_CARDS, seats=len(bets), **kw)


def move(state, horse, seat=None, rng=None):
    """Decide and apply one move: (state after, events)."""
    seat = state["turn"] if seat is None else seat
    events = rt.decide(state, seat, {"type": "move_horse", "horse": horse}, rng or Rng("t"))
    return fold(state, events), events


def run(state, *horses):
    """Each horse moved in turn by the seat to move: (state after, every event)."""
    every = []
    for horse in horses:
        state, events = move(state, horse)
        every += events
    return state, every


def bet(state, seat, horse, chip):
    events = rt.decide(state, seat, {"type": "place_bet", "horse": horse, "chip": chip}, Rng("t"))
    return fold(state, events), events


def refused(state, seat, command, error=RuleViolation):
    with pytest.raises(error) as caught:
        rt.decide(state, seat, command, Rng("t"))
    return caught.value


def types(events):
    return [ev["type"] for ev in events]


def one(events, kind):
    (found,) = [ev["payload"] for ev in events if ev["type"] == kind]
    return found


def lines_of(paid, seat):
    return sorted(
        (ln["for"], ln["horse"], ln["amount"]) for ln in paid["lines"] if ln["seat"] == seat
    )


# --- the FAQ ------------------------------------------------------------------------------


def test_faq_a_blocked_horse_moves_zero_spaces_and_its_card_still_turns_face_down():
    # white on 0 moves 3 (card 3) but 1, 2 and 3 are taken: it stays put
    spaces = {"black": 1, "red": 2, "blue": 3}
    state = racing(spaces, gates={**GATE_CARDS, "white": 3, "black": 9, "red": 10, "blue": 11})
    state, events = move(state, "white")
    assert events[0]["payload"]["steps"] == 3
    assert (events[0]["payload"]["from"], events[0]["payload"]["to"]) == (0, 0)
    assert state["spaces"]["white"] == 0
    assert "white" in state["face_down"]
    assert {"type": "move_horse", "horse": "white"} not in rt.legal(state, state["turn"])
    assert refused(state, state["turn"], {"type": "move_horse", "horse": "white"}).code == (
        "rule/card_face_down"
    )


def test_blocked_horse_stops_on_the_first_empty_space_behind_its_destination():
    # white on 2 moves 4 to 6: 6 and 5 are taken, 4 is free; it passes black on 3
    spaces = {"white": 2, "black": 3, "red": 5, "blue": 6}
    state = racing(spaces, gates={**GATE_CARDS, "white": 4, "black": 9, "red": 10, "blue": 11})
    state, events = move(state, "white")
    assert state["spaces"]["white"] == 4
    assert events[0]["payload"]["steps"] == 4


def test_a_horse_jumps_over_horses_to_a_free_destination():
    state = racing({"black": 1, "red": 2}, gates={**GATE_CARDS, "white": 3, "red": 9})
    state, _ = move(state, "white")
    assert state["spaces"]["white"] == 3


def test_faq_pace_chip_tie_goes_to_the_first_mover():
    # green 14 + 5 = 19 reaches 18 first; yellow 12 + 9 = 21 passes it next move, farther
    state = racing({"green": 14, "yellow": 12}, gates={**GATE_CARDS, "green": 5, "yellow": 9})
    state, first = move(state, "green")
    assert one(first, "PaceChipTaken") == {"race": 1, "horse": "green"}
    state, second = move(state, "yellow")
    assert state["spaces"]["yellow"] == 21
    assert "PaceChipTaken" not in types(second)
    assert state["pace_chip"] == "green"


def test_pace_chip_needs_the_stop_not_the_destination_to_reach_18():
    # yellow 13 + 5 = 18 is taken by green, so it stops on 17: no pace chip
    state = racing({"green": 18, "yellow": 13}, gates={**GATE_CARDS, "yellow": 5})
    state, events = move(state, "yellow")
    assert state["spaces"]["yellow"] == 17
    assert "PaceChipTaken" not in types(events)


def test_faq_several_players_on_one_horse_and_the_column_counts_them_all():
    state = table(seats=2)
    state, _ = bet(state, 0, "red", 2)
    assert {"type": "place_bet", "horse": "red", "chip": 1} in rt.legal(state, 1)
    state, events = bet(state, 1, "red", 1)
    assert events[0]["payload"] == {"race": 1, "round": 1, "seat": 1, "horse": "red", "chip": 1}
    # red wins with 2 + 1 = 3 bets: 1st, 3 bets = 350 per bet (red also takes the pace chip)
    bets = [[("red", 2), ("black", 1), ("yellow", 1)], [("red", 1), ("black", 1), ("green", 2)]]
    state, events = run(finish_table(bets), "red", "blue", "white")
    paid = one(events, "RacePaid")
    assert ("1st", "red", 700) in lines_of(paid, 0)  # 350 x 2
    assert ("1st", "red", 350) in lines_of(paid, 1)  # 350 x 1


def test_faq_pace_and_placement_are_both_paid():
    # red 35 + 6 = 41: it passes 18 first and wins in the same move
    bets = [[("red", 1), ("black", 1), ("yellow", 2)], QUIET]
    state, events = run(finish_table(bets), "red", "blue", "white")
    assert types(events)[:3] == ["HorseMoved", "PaceChipTaken", "HorseFinished"]
    paid = one(events, "RacePaid")
    # 1st with 1 bet on red: 600; pace 100 x 1
    assert lines_of(paid, 0) == [("1st", "red", 600), ("pace", "red", 100)]
    assert paid["money"][0] == 700


PENALTY = [[("purple", 1), ("black", 1), ("yellow", 2)], QUIET]


@pytest.mark.parametrize(
    "race, money, negative, after, taken",
    [
        (1, 50, False, 0, -50),  # owes 100, has 50: pays 50, floors at 0
        (1, 50, True, -50, -100),  # 50 - 100
        (1, 250, False, 150, -100),  # can pay in full
        (3, 150, False, 0, -150),  # race 3: owes 200, has 150
        (3, 150, True, -50, -200),  # 150 - 200
    ],
)
def test_faq_unpaid_last_place_penalty(race, money, negative, after, taken):
    state = finish_table(PENALTY, race=race, money=[money, 0], allow_negative_balance=negative)
    state, events = run(state, "red", "blue", "white")
    paid = one(events, "RacePaid")
    assert one(events, "RaceEnded")["last"] == "purple"
    (line,) = [ln for ln in paid["lines"] if ln["for"] == "last"]
    assert (line["seat"], line["due"], line["amount"]) == (0, 100 * (1 if race == 1 else 2), taken)
    assert paid["money"] == [after, 0]


def test_penalty_is_taken_after_the_race_gains():
    # seat 0 has 0: red 1st with 1 bet pays 600, then purple's penalty takes 100;
    # seat 1's 2-chip on green, the pace horse, earns 200
    bets = [[("red", 1), ("purple", 1), ("yellow", 2)], QUIET]
    state, events = run(finish_table(bets), "green", "red", "blue", "white")
    assert one(events, "RacePaid")["money"] == [500, 200]


def test_faq_zero_chips_are_not_held_in_the_standard_game():
    error = refused(table(), 0, {"type": "place_bet", "horse": "red", "chip": 0})
    assert error.code == "rule/chip_not_held"
    assert all(c["chip"] != 0 for c in rt.legal(table(), 0))


@pytest.mark.parametrize("alternative", [False, True])
def test_faq_zero_chips_are_no_bets_and_earn_nothing(alternative):
    state = table(seats=3, hidden_bets=True, alternative_payouts=alternative)
    bets = [("red", 0), ("red", 1), ("red", 2), ("blue", 0), ("green", 0), ("green", 2)]
    state = {
        **state,
        "bets": [
            {"seat": s % 3, "horse": h, "chip": c, "round": 1} for s, (h, c) in enumerate(bets)
        ],
        "placings": ["red", "blue", "white"],
        "pace_chip": "blue",
        "last_place": "green",
    }
    lines = payouts.race_lines(state)
    assert [ln for ln in lines if ln["seat"] == 0] == []  # seat 0 put down only 0-chips
    assert [ln for ln in lines if ln["horse"] == "blue"] == []  # 2nd and pace, 0-chip only
    # red: bets 1 + 2 = 3 -> 350 per bet; Alternative: 2 chips -> 450 per chip
    main = sorted((ln["seat"], ln["amount"]) for ln in lines if ln["for"] == "1st")
    assert main == ([(1, 450), (2, 450)] if alternative else [(1, 350), (2, 700)])
    # last: seat 0's 0-chip costs nothing, seat 2's 2-chip costs 200
    assert [(ln["seat"], ln["amount"]) for ln in lines if ln["for"] == "last"] == [(2, 200)]


# --- the worked example and whole races -----------------------------------------------------


def test_text_example_two_chip_on_a_horse_paying_350_for_2_bets_gets_700():
    # blue comes 2nd with seat 0's 2-chip alone on it: house 2nd, 2 bets = 350; 350 x 2
    bets = [[("blue", 2), ("black", 1), ("yellow", 1)], QUIET]
    state, events = run(finish_table(bets), "red", "blue", "white")
    paid = one(events, "RacePaid")
    assert lines_of(paid, 0) == [("2nd", "blue", 700)]
    assert paid["money"] == [700, 0]


FOUR = [
    [("red", 2), ("blue", 1), ("purple", 1)],
    [("red", 1), ("green", 2), ("white", 1)],
    [("blue", 2), ("red", 1), ("purple", 1)],
    [("white", 2), ("blue", 1), ("green", 1)],
]


@pytest.mark.parametrize(
    "alternative, race, money",
    [
        # red 1st: 4 bets -> 300/bet (seat 0: 600, 1: 300, 2: 300); blue 2nd: 4 bets ->
        # 200/bet (0: 200, 2: 400, 3: 200); white 3rd: 3 bets -> 150/bet (1: 150, 3: 300);
        # pace green (1: 200, 3: 100); last purple (0: -100, 2: -100)
        # 0: 600+200-100, 1: 300+150+200, 2: 400+300-100, 3: 200+300+100
        (False, 1, [700, 650, 600, 600]),
        (False, 3, [1400, 1300, 1200, 1200]),  # everything doubled
        # Alternative: red 3 chips -> 350 each; blue 3 chips -> 250 each; white 2 chips ->
        # 200 each; pace and penalty per bet as above
        # 0: 350+250-100, 1: 350+200+200, 2: 350+250-100, 3: 250+200+100
        (True, 1, [500, 750, 500, 550]),
        (True, 3, [1000, 1500, 1000, 1100]),  # (350+250)*2-200, 750*2, 600*2-200, 550*2
    ],
)
def test_full_race_payouts_by_hand(alternative, race, money):
    state = finish_table(FOUR, race=race, alternative_payouts=alternative)
    state, events = run(state, "green", "red", "blue", "white")
    ended = one(events, "RaceEnded")
    assert ended == {
        "race": race,
        "placings": ["red", "blue", "white"],
        "last": "purple",
        "pace_chip": "green",
    }
    paid = one(events, "RacePaid")
    assert (paid["race"], paid["multiplier"], paid["money"]) == (race, race // 3 + 1, money)
    assert state["money"] == money
    assert state["placed_bets"] == [3, 2, 3, 3]  # chips on red, blue, white per seat
    if race == 3:
        assert types(events)[-2:] == ["RaceEnded", "RacePaid"]
        assert state["phase"] == "over"
        assert rt.outcome(state)["winners"] == [money.index(max(money))]
    else:
        assert types(events)[-4:] == ["RaceEnded", "RacePaid", "CardsDealt", "FirstPlayerChosen"]
        richest = money.index(max(money))
        assert one(events, "FirstPlayerChosen") == {"race": 2, "seat": richest, "among": [richest]}
        assert (state["race"], state["phase"], rt.to_move(state)) == (2, "betting", [richest])
        assert state["chips"] == [[1, 1, 2]] * 4 and state["bets"] == []


def test_custom_payout_table_is_used():
    table_ = {"1st": [9, 8, 7, 6, 5, 4], "2nd": [90, 80, 70, 60, 50, 40], "3rd": [1] * 6}
    bets = [[("blue", 2), ("black", 1), ("yellow", 1)], QUIET]
    state, events = run(finish_table(bets, payouts=table_), "red", "blue", "white")
    assert one(events, "RacePaid")["money"] == [160, 0]  # 2nd, 2 bets: 80 x 2


def test_six_and_more_bets_share_the_last_column():
    # 4 players put 2 + 2 + 1 + 1 = 6 bets on red, the winner: 200 per bet
    bets = [[("red", c), ("black", 1), ("yellow", 3 - c)] for c in (2, 2, 1, 1)]
    state, events = run(finish_table(bets), "green", "red", "blue", "white")
    assert one(events, "RacePaid")["money"] == [400, 400, 200, 200]


def test_tied_richest_players_draw_the_next_first_player_among_themselves():
    # FOUR in race 1 pays 700, 650, 600, 600; with 50 already, seat 1 ties seat 0 at 700
    seen = set()
    for n in range(16):
        state = finish_table(FOUR, money=[0, 50, 0, 0])
        state, _ = run(state, "green", "red", "blue")
        _, events = move(state, "white", rng=Rng(f"tie-{n}"))
        chosen = one(events, "FirstPlayerChosen")
        assert chosen["among"] == [0, 1]
        seen.add(chosen["seat"])
    assert seen == {0, 1}


# --- betting ---------------------------------------------------------------------------


def test_betting_goes_clockwise_from_the_first_player_for_three_rounds():
    state = table(first=2)
    order = []
    for index in range(12):
        seat = rt.to_move(state)[0]
        order.append(seat)
        state, events = bet(state, seat, HORSES[index // 4], [1, 1, 2][index // 4])
    assert order == [2, 3, 0, 1] * 3
    assert types(events) == ["BetPlaced", "DieRolled"]
    assert events[1]["payload"]["seat"] == 2
    assert (state["phase"], rt.to_move(state)) == ("racing", [2])
    assert rt.legal(state, 2) == [{"type": "move_horse", "horse": h} for h in HORSES]
    assert all(chips == [] for chips in state["chips"])


def test_one_bet_per_horse_per_player_and_only_held_chips():
    state, _ = bet(table(seats=2), 0, "red", 2)
    state, _ = bet(state, 1, "blue", 1)
    assert refused(state, 0, {"type": "place_bet", "horse": "red", "chip": 1}).code == (
        "rule/horse_already_backed"
    )
    assert refused(state, 0, {"type": "place_bet", "horse": "blue", "chip": 2}).code == (
        "rule/chip_not_held"
    )
    assert {c["horse"] for c in rt.legal(state, 0)} == set(HORSES) - {"red"}
    assert {c["chip"] for c in rt.legal(state, 0)} == {1}


@pytest.mark.parametrize(
    "command, field",
    [
        ({"type": "place_bet", "horse": "pink", "chip": 1}, "horse"),
        ({"type": "place_bet", "chip": 1}, "horse"),
        ({"type": "place_bet", "horse": "red", "chip": "1"}, "chip"),
        ({"type": "place_bet", "horse": "red", "chip": True}, "chip"),
        ({"type": "place_bet", "horse": "red"}, "chip"),
        ({"type": "move_horse", "horse": 3}, "horse"),
    ],
)
def test_malformed_commands_are_bad_requests_naming_the_field(command, field):
    state = table() if command["type"] == "place_bet" else racing({})
    error = refused(state, 0, command, BadRequest)
    assert (error.status, error.code, error.details["field"]) == (400, "command/invalid", field)


def test_not_your_turn_and_wrong_phase():
    state = table()
    error = refused(state, 1, {"type": "place_bet", "horse": "red", "chip": 1})
    assert (error.code, error.details) == ("rule/not_your_turn", {"turn": 0})
    assert rt.legal(state, 1) == []
    assert refused(state, 0, {"type": "move_horse", "horse": "red"}).code == "rule/not_racing"
    state = racing({})
    assert refused(state, 0, {"type": "place_bet", "horse": "red", "chip": 1}).code == (
        "rule/not_betting"
    )
    assert refused(state, 1, {"type": "move_horse", "horse": "red"}).code == "rule/not_your_turn"


# --- racing ---------------------------------------------------------------------------------


def test_cards_turn_up_when_every_running_horse_has_moved_and_a_finished_card_is_out():
    # red (35 + 6) finishes in the first cycle; the others creep forward from the start
    gates = {"white": 1, "black": 2, "red": 6, "blue": 3, "yellow": 4, "green": 5, "purple": 7}
    state = racing({"red": 35}, gates=gates)
    state, events = run(state, "red", "white", "black", "blue", "yellow", "green")
    assert "CardsTurnedUp" not in types(events)
    assert rt.legal(state, state["turn"]) == [{"type": "move_horse", "horse": "purple"}]
    assert refused(state, state["turn"], {"type": "move_horse", "horse": "red"}).code == (
        "rule/horse_finished"
    )
    state, events = move(state, "purple")
    assert types(events) == ["HorseMoved", "CardsTurnedUp", "DieRolled"]
    assert events[2]["payload"]["seat"] == state["turn"] == 3  # 7 moves from seat 0: 7 % 4
    running = [h for h in HORSES if h != "red"]
    assert rt.legal(state, 3) == [{"type": "move_horse", "horse": h} for h in running]
    shown = {h["horse"]: h for h in rt.view(state, 0)["horses"]}
    assert (shown["red"]["face_up"], shown["red"]["finished"]) == (False, 1)
    # the second cycle has six running horses: the sixth move turns the cards up
    state, events = run(state, *running[:5])
    assert "CardsTurnedUp" not in types(events)
    state, events = move(state, running[5])
    assert "CardsTurnedUp" in types(events)


def test_race_ends_the_moment_the_third_horse_finishes():
    state, events = run(finish_table([QUIET] * 4), "green", "red", "blue")
    assert "RaceEnded" not in types(events) and state["placings"] == ["red", "blue"]
    state, events = move(state, "white")
    assert types(events)[:4] == ["HorseMoved", "HorseFinished", "RaceEnded", "RacePaid"]
    assert "DieRolled" not in types(events) and "CardsTurnedUp" not in types(events)
    assert one(events, "HorseFinished") == {"race": 1, "horse": "white", "place": 3}
    ended = one(events, "RaceEnded")
    assert ended["placings"] == ["red", "blue", "white"]
    assert ended["last"] == "purple"  # on 2, with black 10, yellow 12, green 19


@pytest.mark.parametrize(
    "at, last",
    [
        ({"black": 0, "yellow": 0, "purple": 0}, "purple"),  # start line: the higher gate
        ({"black": 0, "yellow": 0, "purple": 1}, "yellow"),
        ({"black": 5, "yellow": 6, "purple": 4}, "purple"),  # the lowest space
    ],
)
def test_last_place_is_the_rearmost_running_horse(at, last):
    state = finish_table([QUIET] * 4)
    state = {**state, "spaces": {**state["spaces"], **at}}
    assert track.rearmost(state) == last
    _, events = run(state, "red", "blue", "white")
    assert one(events, "RaceEnded")["last"] == last


@pytest.mark.parametrize("first, second", [("yellow", "purple"), ("purple", "yellow")])
def test_crowded_field_shares_spaces_and_the_later_arrival_is_behind(first, second):
    # yellow 0 + 3 and purple 2 + 1 both land on 3
    state = racing({**FINISH, "yellow": 0}, [QUIET] * 4, gates=FINISH_CARDS, crowded_field=True)
    state, _ = run(state, first, second)
    assert state["spaces"]["yellow"] == state["spaces"]["purple"] == 3
    state, events = run(state, "red", "blue", "white")
    assert one(events, "RaceEnded")["last"] == second


@pytest.mark.parametrize("first, second", [("yellow", "purple"), ("purple", "yellow")])
def test_every_view_shows_who_arrived_later_on_a_shared_space(first, second):
    state = racing({**FINISH, "yellow": 0}, [QUIET] * 4, gates=FINISH_CARDS, crowded_field=True)
    state, _ = run(state, first, second)
    for viewer in (0, 3, None):
        shown = {h["horse"]: h for h in rt.view(state, viewer)["horses"]}
        assert shown[second]["arrived"] > shown[first]["arrived"] > 0
        assert rt.view(state, viewer)["moves"] == 2


def test_every_view_shows_the_options_the_table_plays_by():
    state = table(race_multipliers=[1, 2, 3], tiebreak="most_bets", zero_chip_uses_bet=False)
    for viewer in (0, None):
        shown = rt.view(state, viewer)["options"]
        assert shown["race_multipliers"] == [1, 2, 3] and shown["tiebreak"] == "most_bets"
        assert shown["cards"] == FLAT_CARDS and shown["zero_chip_uses_bet"] is False
        assert shown["payouts"] is None and shown["pace_bonus"] == rt.OPTIONS["pace_bonus"]


def test_standard_game_blocks_the_same_move():
    # yellow 0 + 3 lands on 3; purple 2 + 1 finds 3 taken and 2 is where it stands
    state = racing({**FINISH, "yellow": 0}, [QUIET] * 4, gates=FINISH_CARDS)
    state, events = run(state, "yellow", "purple")
    assert (state["spaces"]["yellow"], state["spaces"]["purple"]) == (3, 2)  # purple moved 0
    assert "purple" in state["face_down"]


def test_finishing_spaces_are_never_blocked():
    # blue 33 + 8 = 41, where red already stands after crossing the line
    state, _ = run(finish_table([QUIET] * 4), "red", "blue")
    assert state["spaces"]["red"] == state["spaces"]["blue"] == 41
    assert state["placings"] == ["red", "blue"]
