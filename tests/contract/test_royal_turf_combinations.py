"""The contract of test_rulesets.py for every mix of Royal Turf's four variants (16, each a
boolean option): seeded bot games at 2-6 players finish with an outcome, fold to the state
built step by step, verify (every other game), replay byte for byte, and with Hidden Bets show
no seat a chip value sealed from it."""

import itertools

import pytest
from chained import sealed
from test_rulesets import bot_game, no_leaks_before, replayed, seed_for

from referee.engine import game
from referee.engine.canonical import canonical
from referee.games.royal_turf.cards import horse_of
from referee.games.royal_turf.data import CHIPS, HIDDEN_BETS_CHIPS, RACES
from referee.games.royal_turf.options import VARIANTS
from replays.verify import verify_events

RULESET = "royal-turf"
GAMES = 300
# games per mix whose log is verified: every other one (all 2-6 seat counts), as verifying
# all 300 (a second run of the rules and the hash chain) took the file from about 3.5 to
# 4.5 minutes on 2 cores
VERIFIED = range(0, GAMES, 2)
REPLAYED = 20  # games per mix replayed from their commands
LEAK_CHECKED = 4  # games per mix with Hidden Bets checked for leaks after every batch
COMBINATIONS = [
    dict(zip(VARIANTS, on, strict=True)) for on in itertools.product((False, True), repeat=4)
]
HIDDEN = [c for c in COMBINATIONS if c["hidden_bets"]]


def label(options: dict[str, bool]) -> str:
    """The variants on, joined by '+'; `standard` for none."""
    return "+".join(name for name, on in options.items() if on) or "standard"


@pytest.fixture(scope="module", params=COMBINATIONS, ids=label)
def played(request):
    """One mix's options and its GAMES bot games (one mix held at a time: pytest groups
    the tests by this module-scoped parameter)."""
    options = request.param
    return options, [bot_game(RULESET, i, options=options) for i in range(GAMES)]


def test_the_mixes_are_every_combination_of_the_four_variants():
    assert len({label(c) for c in COMBINATIONS}) == 2 ** len(VARIANTS) == 16


def test_bot_games_finish_with_an_outcome_and_a_revealed_seed(played):
    options, games = played
    for i, (records, state, _) in enumerate(games):
        assert options.items() <= records[0]["payload"]["options"].items()
        assert state["status"] == "finished"
        assert [r["type"] for r in records[-2:]] == ["GameEnded", "SeedRevealed"]
        assert records[-1]["payload"]["seed"] == seed_for(RULESET, i, options)
        assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
        outcome = state["outcome"]
        assert len(outcome["scores"]) == len(state["players"]) and outcome["winners"]
    assert {len(state["players"]) for _, state, _ in games} == {2, 3, 4, 5, 6}


def test_fold_of_the_log_equals_the_state_built_step_by_step(played):
    for records, state, _ in played[1]:
        assert game.fold(records) == state
        assert records[-1]["state_hash"] == game.digest(state)


def test_logs_verify(played):
    for i in VERIFIED:
        report = verify_events(sealed(played[1][i][0]))
        assert report.valid, f"game {i}: seq {report.seq} {report.code}: {report.reason}"


def test_same_seed_and_commands_give_byte_identical_records(played):
    options, games = played
    for i, (records, _, commands) in enumerate(games[:REPLAYED]):
        again = replayed(RULESET, i, commands, options)
        assert b"".join(map(canonical, again)) == b"".join(map(canonical, records))


def test_each_variant_shows_in_the_logs(played):
    """The options are not ignored: sealed chips with Hidden Bets, own cards at each gate
    with Royal Turf Cards, horses sharing a space only with Crowded Field, payouts counted
    by chips with Alternative Payouts."""
    options, games = played
    for records, state, _ in games:
        types = [r["type"] for r in records]
        chips = HIDDEN_BETS_CHIPS if options["hidden_bets"] else CHIPS
        bets = len(state["players"]) * len(chips) * RACES
        assert types.count("BetPlaced") == bets
        assert types.count("OrdersRevealed") == (bets if options["hidden_bets"] else 0)
        for dealt in (r["payload"] for r in records if r["type"] == "CardsDealt"):
            if options["royal_turf_cards"]:
                assert all(horse_of(card) == horse for horse, card in dealt["cards"].items())
            else:
                assert dealt["set_aside"] == [] and len(dealt["drawn"]) == len(dealt["cards"])
        for result in state["rules"]["results"]:
            for line in result["lines"]:
                assert line["bets"] > 0  # a 0-chip is paid and charged nothing
                if line["for"] in ("1st", "2nd", "3rd"):
                    times = 1 if options["alternative_payouts"] else line["bets"]
                    multiplier = 2 if result["race"] == RACES else 1
                    assert line["amount"] == line["rate"] * times * multiplier
    shared = [shares_a_space(records) for records, _, _ in games]
    assert any(shared) if options["crowded_field"] else not any(shared)


def shares_a_space(records: list[dict]) -> bool:
    """Whether two horses still running ever stand on the same space past the start."""
    spaces: dict[str, int] = {}
    for record in records:
        p = record["payload"]
        if record["type"] == "CardsDealt":
            spaces = dict.fromkeys(p["cards"], 0)
        elif record["type"] == "HorseFinished":
            spaces.pop(p["horse"])
        elif record["type"] == "HorseMoved":
            spaces[p["horse"]] = p["to"]
            if 0 < p["to"] and list(spaces.values()).count(p["to"]) > 1:
                return True
    return False


@pytest.mark.parametrize("options", HIDDEN, ids=label)
def test_no_view_or_stream_shows_a_seat_a_sealed_chip(options):
    for i in range(LEAK_CHECKED):
        check = no_leaks_before(seed_for(RULESET, i, options))
        bot_game(RULESET, i, options=options, check=check)
