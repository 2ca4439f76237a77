"""Royal Turf: the options and their checks, the decks and the Royal Turf Cards deal,
Hidden Bets (sealed chips, views, reveals), the outcome, and seeded games through the
engine."""

import pytest
from test_royal_turf import (
    FLAT_CARDS,
    GATE_CARDS,
    QUIET,
    finish_table,
    fold,
    move,
    one,
    racing,
    run,
    table,
    types,
)

import referee.games  # noqa: F401  (registers the rulesets)
from referee.engine import game, sealed
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import royal_turf as rt
from referee.games.royal_turf import cards, data
from referee.games.royal_turf.data import HORSES

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def new_game(seed, players=PLAYERS, **options):
    records = game.create("royal-turf", players, options, seed)
    return records, game.fold(records)


def play(state, seat, command, seed):
    records = game.execute(state, seat, command, seed)
    return records, game.fold(records, state)


def bot_game(seed, players=PLAYERS, **options):
    """A whole game where every seat plays its first legal command: every record."""
    records, state = new_game(seed, players, **options)
    while state["status"] == "active":
        seat = game.to_move(state)[0]
        new, state = play(state, seat, game.legal(state, seat)[0], seed)
        records += new
    return records, state


# --- options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, value",
    [
        ("hidden_bets", 1),
        ("crowded_field", "yes"),
        ("alternative_payouts", None),
        ("royal_turf_cards", 0),
        ("allow_negative_balance", "false"),
        ("track_length", 9),
        ("track_length", 201),
        ("track_length", 40.0),
        ("pace_space", 40),  # must lie before the finish of a 40-space track
        ("pace_space", 0),
        ("cards", [[5, 5, 5, 5]] * 20),  # fewer than the 21 three races deal
        ("cards", [[5, 5, 5]] * 28),
        ("cards", [[5, 5, 5, -1]] * 28),
        ("cards", "house"),
        ("payouts", {"1st": [600] * 6, "2nd": [400] * 6}),
        ("payouts", {"1st": [600] * 6, "2nd": [400] * 6, "3rd": [250] * 5}),
        ("payouts", {"1st": [600] * 6, "2nd": [400] * 6, "3rd": [250] * 5 + ["x"]}),
        ("race_multipliers", [1, 2]),
        ("race_multipliers", [1, 1, True]),
        ("race_multipliers", [1, 1, 101]),
        ("tiebreak", "coin"),
        ("pace_bonus", -1),
        ("last_place_penalty", 1.5),
        ("starting_money", "100"),
        ("zero_chip_uses_bet", "no"),
        ("zero_chip_uses_bet", 0),
    ],
)
def test_bad_options_are_refused_naming_the_option(name, value):
    with pytest.raises(BadRequest) as caught:
        rt.check_options({**rt.OPTIONS, name: value})
    error = caught.value
    assert (error.status, error.code, error.details["field"]) == (
        400,
        "options/invalid",
        f"options.{name}",
    )


def test_bad_card_names_its_index_and_unknown_options_are_refused():
    with pytest.raises(BadRequest) as caught:
        rt.check_options({**rt.OPTIONS, "cards": [[5, 5, 5, 5]] * 21 + [[1, 2, 3]]})
    assert caught.value.details == {"field": "options.cards", "index": 21}
    with pytest.raises(BadRequest) as caught:
        new_game("x", hidden_bet=True)
    assert (caught.value.code, caught.value.details["field"]) == (
        "options/unknown",
        "options.hidden_bet",
    )


def test_good_options_pass():
    rt.check_options(dict(rt.OPTIONS))
    rt.check_options(
        {
            **rt.OPTIONS,
            **{v: True for v in ("hidden_bets", "crowded_field", "alternative_payouts")},
            "royal_turf_cards": True,
            "cards": FLAT_CARDS[:21],
            "payouts": {"1st": [1] * 6, "2nd": [2] * 6, "3rd": [3] * 6},
            "race_multipliers": [1, 2, 3],
            "tiebreak": "most_bets",
            "track_length": 60,
            "pace_space": 59,
        }
    )


def test_house_numbers_from_the_readme():
    assert (rt.OPTIONS["track_length"], rt.OPTIONS["pace_space"]) == (40, 18)
    assert rt.OPTIONS["race_multipliers"] == [1, 1, 2]
    assert (rt.OPTIONS["pace_bonus"], rt.OPTIONS["last_place_penalty"]) == (100, 100)
    assert (rt.OPTIONS["starting_money"], rt.OPTIONS["tiebreak"]) == (0, "share")
    assert HORSES == ["white", "black", "red", "blue", "yellow", "green", "purple"]
    assert data.DIE == ["head", "head", "head", "helmet", "shoe", "carrot"]
    assert data.HOUSE_PAYOUTS == {
        "1st": [600, 450, 350, 300, 250, 200],
        "2nd": [400, 350, 250, 200, 150, 100],
        "3rd": [250, 200, 150, 100, 100, 50],
    }
    assert data.HOUSE_CARDS == README_CARDS
    assert all(3 * h + a + b + c == 30 for h, a, b, c in data.HOUSE_CARDS)


README_CARDS = [
    [5, 5, 5, 5], [6, 4, 4, 4], [4, 6, 6, 6], [7, 3, 3, 3], [3, 7, 7, 7], [5, 3, 5, 7],
    [5, 7, 5, 3], [5, 1, 10, 4], [2, 14, 6, 4], [2, 4, 6, 14], [2, 6, 14, 4], [3, 12, 6, 3],
    [3, 3, 6, 12], [3, 6, 12, 3], [4, 9, 6, 3], [4, 3, 9, 6], [4, 6, 3, 9], [6, 2, 5, 5],
    [6, 5, 2, 5], [6, 5, 5, 2], [7, 1, 1, 7], [7, 7, 1, 1], [7, 1, 7, 1], [1, 13, 13, 1],
    [1, 1, 13, 13], [1, 13, 1, 13], [5, 10, 4, 1], [6, 10, 1, 1],
]  # fmt: skip


def test_track_length_and_pace_space_options_are_used():
    # a 30-space track with the pace chip on 10: white 25 + 5 crosses the line
    state = racing({"white": 25}, gates={**GATE_CARDS, "white": 5}, track_length=30, pace_space=10)
    _, events = move(state, "white")
    assert types(events)[:3] == ["HorseMoved", "PaceChipTaken", "HorseFinished"]


def test_custom_pace_bonus_penalty_and_multipliers_are_used():
    # race 1 times 3: seat 0's red 1st with 1 bet 600 x 3 = 1800, its purple last costs
    # 30 x 3 = 90; seat 1's 2-chip on green, the pace horse, earns 50 x 2 x 3 = 300
    bets = [[("red", 1), ("purple", 1), ("yellow", 2)], QUIET]
    options = {"race_multipliers": [3, 1, 1], "pace_bonus": 50, "last_place_penalty": 30}
    _, events = run(finish_table(bets, **options), "green", "red", "blue", "white")
    assert one(events, "RacePaid")["money"] == [1710, 300]


def test_custom_cards_move_horses_by_the_rolled_face():
    custom = [[1, 2, 3, 4], *FLAT_CARDS[1:]]  # card 1: head 1, helmet 2, shoe 3, carrot 4
    gates = {**{h: n for n, h in enumerate(HORSES, start=2)}, "red": 1}
    for face, steps in [("head", 1), ("helmet", 2), ("shoe", 3), ("carrot", 4)]:
        state, events = move(racing({}, gates=gates, face=face, cards=custom), "red")
        assert state["spaces"]["red"] == steps
        assert (events[0]["payload"]["face"], events[0]["payload"]["card"]) == (face, 1)
    shown = {h["horse"]: h["card"] for h in rt.view(state, None)["horses"]}
    assert shown["red"] == {"card": 1, "head": 1, "helmet": 2, "shoe": 3, "carrot": 4}


def test_house_card_values_by_face():
    # house card 8 is (5, 1, 10, 4): a shoe moves its horse 10
    state, _ = move(racing({}, gates={**GATE_CARDS, "red": 8}, face="shoe", cards=None), "red")
    assert state["spaces"]["red"] == 10


# --- decks and deals ------------------------------------------------------------------------


def test_royal_turf_cards_give_each_horse_its_own_card_and_return_the_set_aside():
    set_aside_seen = 0
    for n in range(12):
        state = rt.initial(PLAYERS, {**rt.OPTIONS, "royal_turf_cards": True})
        assert state["deck"] == list(range(1, 22))
        sizes = []
        for race in (1, 2, 3):
            before = list(state["deck"])
            dealt = cards.dealt(state, race, Rng(f"deal-{n}"))["payload"]
            for gate, horse in enumerate(HORSES):  # horse i owns cards 3i+1 .. 3i+3
                assert 3 * gate + 1 <= dealt["cards"][horse] <= 3 * gate + 3
            owned: list[str] = []
            for card in dealt["drawn"]:  # a duplicate is a card whose horse is already served
                horse = HORSES[(card - 1) // 3]
                assert (card in dealt["set_aside"]) == (horse in owned)
                owned += [] if horse in owned else [horse]
            assert len(owned) == 7 and dealt["drawn"][-1] not in dealt["set_aside"]
            assert set(dealt["drawn"]) <= set(before)
            state = rt.apply(state, event("CardsDealt", dealt))
            assert sorted(state["deck"]) == sorted(set(before) - set(dealt["cards"].values()))
            assert set(dealt["set_aside"]) <= set(state["deck"])  # back into the deck
            sizes.append(len(state["deck"]))
            set_aside_seen += len(dealt["set_aside"])
        assert sizes == [14, 7, 0]
        assert dealt["set_aside"] == []  # race 3: one card left per horse
    assert set_aside_seen > 0


def test_standard_deal_takes_seven_of_the_house_deck_each_race():
    state = rt.initial(PLAYERS, dict(rt.OPTIONS))
    assert state["deck"] == list(range(1, 29))
    sizes = []
    for race in (1, 2, 3):
        dealt = cards.dealt(state, race, Rng("standard"))["payload"]
        assert dealt["set_aside"] == [] and len(set(dealt["cards"].values())) == 7
        assert list(dealt["cards"].values()) == dealt["drawn"]  # in gate order
        state = rt.apply(state, event("CardsDealt", dealt))
        sizes.append(len(state["deck"]))
    assert sizes == [21, 14, 7]


@pytest.mark.parametrize(
    "options, deck_sizes",
    [
        ({}, [21, 14, 7]),
        ({"royal_turf_cards": True}, [14, 7, 0]),
        ({"crowded_field": True, "alternative_payouts": True}, [21, 14, 7]),
        (
            {
                "hidden_bets": True,
                "crowded_field": True,
                "alternative_payouts": True,
                "royal_turf_cards": True,
                "tiebreak": "most_bets",
            },
            [14, 7, 0],
        ),
    ],
)
def test_seeded_games_deal_and_pay_three_races(options, deck_sizes):
    records, state = bot_game("three-races", **options)
    sizes, money, paid = [], [0, 0, 0, 0], 0
    replay = None
    for record in records:
        replay = game.apply(replay, record)
        p = record["payload"]
        if record["type"] == "CardsDealt":
            sizes.append(len(replay["rules"]["deck"]))
        if record["type"] == "FirstPlayerChosen":
            richest = [s for s in range(4) if money[s] == max(money)]
            assert p["among"] == ([0, 1, 2, 3] if p["race"] == 1 else richest)
            assert p["seat"] in p["among"]
        if record["type"] == "RacePaid":
            paid += 1
            # gains add, a penalty takes at most what is there (never below 0 by default)
            gains = [sum(ln["amount"] for ln in p["lines"] if ln["seat"] == s) for s in range(4)]
            assert p["money"] == [m + g for m, g in zip(money, gains, strict=True)]
            assert min(p["money"]) >= 0
            assert all(ln["bets"] > 0 for ln in p["lines"])  # 0-chips are in no line
            money = p["money"]
    assert sizes == deck_sizes and paid == 3
    assert state["status"] == "finished"
    assert state["outcome"]["scores"] == money


# --- Hidden Bets --------------------------------------------------------------------------

SEED = "hidden"
CHIPS_BY_ROUND = [2, 0, 1, 1]


def hidden_betting(seed=SEED):
    """Three players bet with Hidden Bets: seat s puts chip CHIPS_BY_ROUND[r] on horse s + r.
    Returns the records of each bet and the state after them."""
    records, state = new_game(seed, PLAYERS[:3], hidden_bets=True)
    batches = []
    for index in range(12):
        seat, r = game.to_move(state)[0], index // 3
        command = {"type": "place_bet", "horse": HORSES[seat + r], "chip": CHIPS_BY_ROUND[r]}
        new, state = play(state, seat, command, seed)
        batches.append((seat, command, new))
    return batches, state


def test_hidden_bets_seal_each_chip_and_commit_to_it():
    batches, state = hidden_betting()
    seats = [seat for seat, _, _ in batches]  # four rounds of three, clockwise
    assert seats == [(seats[0] + i) % 3 for i in range(3)] * 4
    for seat, command, new in batches:
        assert types(new)[:3] == ["OrdersSubmitted", "OrdersCommitted", "BetPlaced"]
        submitted, committed, placed = new[:3]
        assert submitted["visibility"] == [seat] and submitted["command"] == command
        assert submitted["payload"]["orders"] == {
            "horse": command["horse"],
            "chip": command["chip"],
        }
        assert committed["visibility"] == placed["visibility"] == "public"
        assert committed["payload"]["commitment"] == sealed.commitment(
            submitted["payload"]["salt"], submitted["payload"]["orders"]
        )
        assert "chip" not in placed["payload"] and placed["payload"]["horse"] == command["horse"]
        other = (seat + 1) % 3
        assert game.redact(submitted, other, False) == {"seq": submitted["seq"], "redacted": True}
    assert types(batches[-1][2])[-1] == "DieRolled"
    assert state["rules"]["phase"] == "racing"
    assert [len([b for b in state["rules"]["bets"] if b["seat"] == s]) for s in range(3)] == [4] * 3


def test_hidden_bets_views_show_a_chip_only_to_its_owner():
    records, state = new_game(SEED, PLAYERS[:3], hidden_bets=True)
    first = game.to_move(state)[0]
    assert state["rules"]["chips"] == [[0, 1, 1, 2]] * 3
    _, state = play(state, first, {"type": "place_bet", "horse": "red", "chip": 2}, SEED)
    other = (first + 1) % 3
    mine, theirs, spectator = (game.view(state, v)["state"] for v in (first, other, None))
    assert mine["bets"][0]["chip"] == 2 and mine["chips"][first] == [0, 1, 1]
    assert theirs["bets"][0]["chip"] is None and theirs["bets"][0]["horse"] == "red"
    assert theirs["chips"][first] == 3 and theirs["chips"][other] == [0, 1, 1, 2]
    assert spectator["bets"][0]["chip"] is None and spectator["chips"][first] == 3
    assert game.view(state, "moderator")["state"]["bets"][0]["chip"] == 2


def test_hidden_bets_are_revealed_after_the_race_before_it_is_paid():
    batches, state = hidden_betting()
    submitted = {new[0]["seq"]: new[0]["payload"] for _, _, new in batches}
    committed = {new[1]["seq"]: new[1]["payload"] for _, _, new in batches}
    new: list[dict] = []
    while "RaceEnded" not in types(new):
        seat = game.to_move(state)[0]
        before = state
        new, state = play(state, seat, game.legal(state, seat)[0], SEED)
    kinds = types(new)
    ended, paid = kinds.index("RaceEnded"), kinds.index("RacePaid")
    assert kinds[ended + 1 : paid] == ["OrdersRevealed"] * 12
    reveals = [r["payload"] for r in new[ended + 1 : paid]]
    assert [r["seq"] for r in reveals] == sorted(submitted)
    for r in reveals:
        assert (r["orders"], r["salt"]) == (
            submitted[r["seq"]]["orders"],
            submitted[r["seq"]]["salt"],
        )
        assert sealed.commitment(r["salt"], r["orders"]) == committed[r["seq"] + 1]["commitment"]
    # between the reveals and the payment every seat sees every chip
    revealed = game.fold(new[:paid], before)
    for viewer in (0, 1, 2, None):
        shown = game.view(revealed, viewer)["state"]["bets"]
        assert [b["chip"] for b in shown] == [CHIPS_BY_ROUND[(i // 3)] for i in range(12)]
    # after the payment the race's bets stay in the results, revealed
    result = game.view(state, (batches[0][0] + 1) % 3)["state"]["results"][0]
    assert all(b["revealed"] for b in result["bets"])
    assert sorted(b["chip"] for b in result["bets"]) == sorted(CHIPS_BY_ROUND * 3)


# --- Hidden Bets: does a 0-chip use the one bet on its horse? -----------------------------


def hidden_round(order, **options):
    """Three players bet with Hidden Bets, `order` giving each turn's (horse, chip) in turn
    order: the state after the bets that were taken, and the code of the first refused."""
    _, state = new_game(SEED, PLAYERS[:3], hidden_bets=True, **options)
    for horse, chip in order:
        seat = game.to_move(state)[0]
        command = {"type": "place_bet", "horse": horse, "chip": chip}
        try:
            _, state = play(state, seat, command, SEED)
        except RuleViolation as refusal:
            return state, refusal.code
    return state, None


# each seat's first bet, then the first seat puts its second chip on its first horse
REAL_THEN_ZERO = [("red", 1), ("blue", 1), ("green", 1), ("red", 0)]
ZERO_THEN_REAL = [("red", 0), ("blue", 1), ("green", 1), ("red", 2)]
TWO_REAL = [("red", 1), ("blue", 1), ("green", 1), ("red", 2)]


@pytest.mark.parametrize("order", [REAL_THEN_ZERO, ZERO_THEN_REAL, TWO_REAL])
def test_by_default_a_zero_chip_uses_the_one_bet_on_its_horse(order):
    assert rt.OPTIONS["zero_chip_uses_bet"] is True
    _, refused_code = hidden_round(order)
    assert refused_code == "rule/horse_already_backed"


@pytest.mark.parametrize("order", [REAL_THEN_ZERO, ZERO_THEN_REAL])
def test_by_option_a_zero_chip_is_no_bet_and_shares_a_horse_with_a_real_one(order):
    state, refused_code = hidden_round(order, zero_chip_uses_bet=False)
    assert refused_code is None
    mine = [(b["horse"], b["chip"]) for b in state["rules"]["bets"] if b["seat"] == 0]
    assert sorted(mine) == sorted([order[0], order[3]])


def test_by_option_two_real_chips_on_a_horse_are_still_refused():
    _, refused_code = hidden_round(TWO_REAL, zero_chip_uses_bet=False)
    assert refused_code == "rule/horse_already_backed"


def test_by_option_legal_offers_the_zero_chip_on_a_horse_already_backed():
    state, _ = hidden_round(REAL_THEN_ZERO[:3], zero_chip_uses_bet=False)
    first = game.to_move(state)[0]
    backed = next(b["horse"] for b in state["rules"]["bets"] if b["seat"] == first)
    legal = game.legal(state, first)
    assert {"type": "place_bet", "horse": backed, "chip": 0} in legal
    assert {"type": "place_bet", "horse": backed, "chip": 1} not in legal
    default, _ = hidden_round(REAL_THEN_ZERO[:3])
    assert all(c["horse"] != backed for c in game.legal(default, first))


def test_a_game_created_before_the_option_plays_as_it_did():
    options = {k: v for k, v in rt.OPTIONS.items() if k != "zero_chip_uses_bet"}
    assert "zero_chip_uses_bet" not in rt.initial(PLAYERS[:3], options)
    state = table(seats=3, hidden_bets=True, zero_chip_uses_bet=False)
    state = {k: v for k, v in state.items() if k != "zero_chip_uses_bet"}
    state = {**state, "bets": [{"seat": 0, "horse": "red", "chip": 1, "round": 1}]}
    assert all(c["horse"] != "red" for c in rt.legal(state, 0))
    new = rt.initial(PLAYERS[:3], {**rt.OPTIONS, "zero_chip_uses_bet": False})
    assert new["zero_chip_uses_bet"] is False


def test_by_option_a_zero_chip_beside_a_real_one_earns_nothing():
    state = table(seats=3, hidden_bets=True, zero_chip_uses_bet=False)
    bets = [("red", 1, 0), ("red", 0, 0), ("red", 2, 1)]
    state = {
        **state,
        "bets": [{"seat": s, "horse": h, "chip": c, "round": 1} for h, c, s in bets],
        "placings": ["red", "blue", "white"],
        "last_place": "purple",
    }
    from referee.games.royal_turf.payouts import race_lines

    lines = [(ln["seat"], ln["for"], ln["bets"]) for ln in race_lines(state)]
    assert lines == [(0, "1st", 1), (1, "1st", 2)]


# --- the outcome --------------------------------------------------------------------------


def paid_race_3(**options):
    """Race 3 paid to money [500, 500, 100]: seat 0 had 1 + 2 bets on placed horses this
    race, seat 1 had 2 (and a 0-chip on the 3rd); before it each had 1."""
    state = table(seats=3, race=3, **options)
    bets = [
        {"seat": 0, "horse": "red", "chip": 1},
        {"seat": 0, "horse": "blue", "chip": 2},
        {"seat": 1, "horse": "red", "chip": 2},
        {"seat": 1, "horse": "white", "chip": 0},
        {"seat": 1, "horse": "purple", "chip": 1},
        {"seat": 2, "horse": "black", "chip": 2},
    ]
    state = {
        **state,
        "phase": "racing",
        "bets": [{**b, "round": 1} for b in bets],
        "placings": ["red", "blue", "white"],
        "placed_bets": [1, 1, 0],
    }
    assert rt.outcome(state) is None
    ended = {"race": 3, "placings": state["placings"], "last": "purple", "pace_chip": "red"}
    paid = {"race": 3, "multiplier": 2, "lines": [], "money": [500, 500, 100]}
    return fold(state, [event("RaceEnded", ended), event("RacePaid", paid)])


def test_ties_in_money_share_the_victory_by_default():
    state = paid_race_3()
    assert state["phase"] == "over" and rt.to_move(state) == []
    result = rt.outcome(state)
    assert (result["scores"], result["ranks"], result["winners"]) == (
        [500, 500, 100],
        [1, 1, 3],
        [0, 1],
    )


def test_most_bets_tiebreak_counts_bets_on_placed_horses_over_the_game():
    state = paid_race_3(hidden_bets=True, tiebreak="most_bets")
    # seat 0: 1 + (1 + 2) = 4; seat 1: 1 + (2 + 0) = 3, purple did not place
    assert state["placed_bets"] == [4, 3, 0]
    result = rt.outcome(state)
    assert (result["ranks"], result["winners"]) == ([1, 2, 3], [0])
