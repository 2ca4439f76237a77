"""Scenario games (replays/scenarios/): re-playing each script gives its recorded log byte
for byte, so a rules change that alters one fails here with the scenario named; and each
recorded log really reaches the edge case its scenario is named for."""

from collections.abc import Callable
from typing import Any

import pytest

from referee.engine.fork import Batch, batches
from referee.games.dark_horse.data import HOUSE_DECK, RANK_POINTS
from referee.games.royal_turf.cards import horse_of
from referee.games.royal_turf.data import HOUSE_PAYOUTS, PLACES
from replays.log import Event, parse
from replays.scenarios import CORPUS, Scenario, play, scenarios

SCENARIOS = scenarios()
BY_ID = {s.game_id: s for s in SCENARIOS}
# an event's fields, the rules' part first (the hashes differ whenever anything does)
FIELDS = ("type", "actor", "command", "payload", "visibility", "salt", "state_hash")


def recorded(scenario: Scenario) -> list[Event]:
    """The events of a scenario's recorded log."""
    return parse(scenario.log_path.read_bytes())


def first_difference(old: bytes, new: bytes) -> str:
    """Where two logs part: the seq and type of the first event that differs."""
    pairs = zip(parse(old), parse(new), strict=False)
    for before, after in pairs:
        if before != after:
            keys = [*FIELDS, *sorted(before)]
            key = next(k for k in keys if before.get(k) != after.get(k))
            return f"seq {before['seq']} ({before['type']}): {key} differs"
    return f"the logs hold {len(parse(old))} and {len(parse(new))} events"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.game_id)
def test_scenario_replays_to_its_recorded_log(scenario):
    old = scenario.log_path.read_bytes()
    new = play(scenario)
    assert new == old, (
        f"{scenario.game_id} no longer plays as recorded ({first_difference(old, new)}); "
        "if the rules changed on purpose, bump the ruleset's VERSION and re-record: "
        "python -m replays.scenarios"
    )


def test_every_scenario_log_in_the_corpus_has_its_script():
    logs = {p.stem for p in CORPUS.rglob("*-scenario-*.jsonl")}
    assert logs == set(BY_ID)


def test_each_ruleset_has_scenarios_and_a_kept_dispute():
    from referee.engine import registry

    for ruleset in registry.names():
        names = [s.name for s in SCENARIOS if s.ruleset == ruleset]
        assert len(names) >= 3 and "dispute-kept" in names, ruleset


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.game_id)
def test_scenario_game_ended_and_revealed_its_seed(scenario):
    events = recorded(scenario)
    play_events = [e for e in events if e["type"] not in ("DisputeOpened", "DisputeRuled")]
    assert play_events[-1]["type"] == "SeedRevealed"
    assert any(e["type"] in ("GameEnded", "GameAbandoned") for e in events)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.game_id)
def test_scenario_reaches_its_edge_case(scenario):
    assert scenario.game_id in EDGE_CASES, f"no check of {scenario.game_id}'s edge case"
    EDGE_CASES[scenario.game_id](recorded(scenario))


# --- reading a log -------------------------------------------------------------------


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The payloads of every event of one type."""
    return [e["payload"] for e in events if e["type"] == kind]


def one(events: list[Event], kind: str, **fields: Any) -> dict[str, Any]:
    """The one event of a type whose payload has these fields."""
    found = [p for p in of_type(events, kind) if all(p.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, f"{len(found)} {kind} with {fields}"
    return found[0]


def batch_events(events: list[Event], batch: Batch) -> list[Event]:
    """The events one recorded command appended."""
    return events[batch.first - 1 : batch.last]


def outcome(events: list[Event]) -> dict[str, Any]:
    return one(events, "GameEnded")["outcome"]


def check_dispute_kept(events: list[Event]) -> None:
    """Disputes opened after the end, each ruled kept; the outcome stands."""
    revealed = next(e["seq"] for e in events if e["type"] == "SeedRevealed")
    after = events[revealed:]
    assert after and [e["type"] for e in after] == ["DisputeOpened", "DisputeRuled"] * (
        len(after) // 2
    )
    for opened, ruled in zip(after[::2], after[1::2], strict=True):
        assert ruled["payload"]["dispute"] == opened["seq"] == opened["payload"]["dispute"]
        assert ruled["payload"]["ruling"] == "kept"
    assert len(of_type(events, "GameEnded")) == 1


# --- galloping-horse -----------------------------------------------------------------


def check_food_runs_out(events: list[Event]) -> None:
    """Ten food cards taken, then a move that takes the lead earns nothing."""
    assert len(of_type(events, "FoodTaken")) == 10
    distance = {h: i for i, h in enumerate(one(events, "HorsesLinedUp")["line_up"])}
    taken, unfed_leads = 0, 0
    for batch in batches(events):
        found = batch_events(events, batch)
        moved = next(e["payload"] for e in found if e["type"] == "HorseMoved")
        leads = all(moved["to"] > d for h, d in distance.items() if h != moved["horse"])
        fed = any(e["type"] == "FoodTaken" for e in found)
        assert fed == (leads and taken < 10)
        taken += fed
        unfed_leads += leads and not fed
        distance[moved["horse"]] = moved["to"]
    assert unfed_leads > 0


def check_round_two_reshuffle(events: list[Event]) -> None:
    """All 28 cards dealt again after the 28th; play goes on from the seat after the last."""
    plays = [b for b in batches(events) if b.command["type"] == "play_card"]
    last_of_round_1 = batch_events(events, plays[27])
    dealt = [e["payload"] for e in last_of_round_1 if e["type"] == "RaceCardsDealt"]
    assert [d["round"] for d in dealt] == [2] * 4
    cards = sorted(c for d in dealt for c in d["cards"])
    assert all(len(d["cards"]) == 7 for d in dealt)
    assert cards == sorted(h for h in ("red", "yellow", "green", "blue") for _ in range(7))
    first_deal = [p["cards"] for p in of_type(events, "RaceCardsDealt") if p["round"] == 1]
    assert first_deal != [d["cards"] for d in dealt]
    last_seat = plays[27].actor
    started = one(events, "RoundStarted", round=2)
    assert started["first_seat"] == (last_seat + 1) % 4 and plays[28].actor == (last_seat + 1) % 4
    # the horses stay where they are: round 2's first move starts where round 1 left it
    moves = of_type(events, "HorseMoved")
    first_of_round_2 = moves[28]
    earlier = [m["to"] for m in moves[:28] if m["horse"] == first_of_round_2["horse"]]
    assert first_of_round_2["from"] == earlier[-1]


def check_shared_victory(events: list[Event]) -> None:
    result = outcome(events)
    assert len(result["winners"]) >= 2
    assert {result["scores"][w] for w in result["winners"]} == {max(result["scores"])}
    assert all(result["ranks"][w] == 1 for w in result["winners"])


# --- dark-horse ----------------------------------------------------------------------


def card_batches(events: list[Event]) -> list[Batch]:
    """The batches of action cards played."""
    return [b for b in batches(events) if b.command["type"] == "play_card"]


def action(deck: list[dict[str, Any]], batch: Batch) -> dict[str, Any]:
    return deck[batch.command["card"]]


def moves(events: list[Event], batch: Batch) -> list[dict[str, Any]]:
    return [e["payload"] for e in batch_events(events, batch) if e["type"] == "HorseMoved"]


def check_pairs_double(events: list[Event], seats_with_pairs: list[int]) -> None:
    """A pair scores its horse's points twice (2 x), not 4 x."""
    result = outcome(events)
    for seat in seats_with_pairs:
        scored = result["seats"][seat]
        assert scored["doubled"]
        held = [c["horse"] for c in scored["betting_cards"]]
        points = sum(RANK_POINTS[result["horse_ranks"][str(h)] - 1] for h in held)
        assert scored["betting_points"] == points


def check_line_edges(events: list[Event]) -> None:
    plays = card_batches(events)
    # a horse at 7th moving back goes forward instead
    back = next(b for b in plays if b.command.get("direction") == "back")
    assert moves(events, back) == [{"horse": 7, "from_rank": 7, "to_rank": 6}]
    # a horse at 1st moving forward 2 goes back 2
    forward = [b for b in plays if action(HOUSE_DECK, b).get("direction") == "forward"]
    at_first = next(b for b in forward if moves(events, b)[0]["from_rank"] == 1)
    assert action(HOUSE_DECK, at_first)["steps"] == 2
    assert moves(events, at_first)[0]["to_rank"] == 3
    # a two-horse card: the first listed reverses at 1st, the second still moves forward
    two_horses = [b for b in plays if len(action(HOUSE_DECK, b).get("targets", [])) == 2]
    by_horse = next(b for b in two_horses if "horse" in action(HOUSE_DECK, b)["targets"][0])
    first, second = moves(events, by_horse)
    assert (first["horse"], first["from_rank"], first["to_rank"]) == (1, 1, 2)
    assert second["horse"] == 7 and second["to_rank"] == second["from_rank"] - 1
    # a two-horse rank card: both horses fixed by their ranks when played
    by_rank = next(b for b in two_horses if "rank" in action(HOUSE_DECK, b)["targets"][0])
    assert [m["from_rank"] for m in moves(events, by_rank)] == [4, 6]
    # Rider Fall Off: the 3rd horse drops to 7th
    falls = [b for b in plays if action(HOUSE_DECK, b)["kind"] == "rider_fall_off"]
    assert all(
        [(m["from_rank"], m["to_rank"]) for m in moves(events, b)] == [(3, 7)] for b in falls
    )
    assert falls
    # exchange option A makes seat 0 a pair; both seats' pairs score 2 x
    assert one(events, "BettingCardDiscarded")["seat"] == 0
    assert one(events, "BettingCardDrawn")["seat"] == 0
    check_pairs_double(events, [0, 1])
    # the token: +5 when the Dark Horse ends 1st-3rd, else -3
    result = outcome(events)
    assert one(events, "DarkHorseTokenTaken")["seat"] == 0
    expected = 5 if result["dark_horse_rank"] <= 3 else -3
    assert result["seats"][0]["token_points"] == expected


def check_exchange_empty_stack(events: list[Event]) -> None:
    deck = one(events, "GameCreated")["options"]["deck"]
    assert len(one(events, "BettingStackFormed")["cards"]) == 2
    exchanges = [b for b in card_batches(events) if action(deck, b)["kind"] == "exchange"]
    assert len(exchanges) == 3
    own, forcing, empty = (batch_events(events, b) for b in exchanges)
    # option A: the player discards one of its own and draws
    assert [e["type"] for e in own] == [
        "ActionCardPlayed",
        "BettingCardDiscarded",
        "BettingCardDrawn",
        "TurnPassed",
    ]
    assert own[1]["payload"]["seat"] == own[0]["payload"]["seat"]
    # option B: another seat must discard (its own choice) and draw before play goes on
    assert [e["type"] for e in forcing] == ["ActionCardPlayed", "BettingCardExchangeForced"]
    forced = forcing[1]["payload"]["seat"]
    discard = next(b for b in batches(events) if b.command["type"] == "discard_betting_card")
    assert discard.actor == forced != forcing[0]["payload"]["seat"]
    assert [e["type"] for e in batch_events(events, discard)][:2] == [
        "BettingCardDiscarded",
        "BettingCardDrawn",
    ]
    # the stack is empty now: the third exchange is played with no effect
    assert [e["type"] for e in empty] == ["ActionCardPlayed", "TurnPassed"]
    assert "exchange" not in empty[0]["payload"]
    check_pairs_double(events, [own[0]["payload"]["seat"]])


# --- blackout-middle -----------------------------------------------------------------


def judged(events: list[Event]) -> dict[tuple[int, int], dict[str, Any]]:
    """Each OrdersJudged by (round, seat)."""
    return {(p["round"], p["seat"]): p for p in of_type(events, "OrdersJudged")}


def dropped_rules(events: list[Event]) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """What was dropped from each seat's orders, by (round, seat), as (part, rule)."""
    return {
        key: [(d["part"], d["rule"]) for d in p["dropped"]]
        for key, p in judged(events).items()
        if p["dropped"]
    }


NOTHING: dict[str, Any] = {"ability": None, "spectate": None, "bets": {}}


def check_deadline_and_replaced_orders(events: list[Event]) -> None:
    assert one(events, "RoundClosed", round=0)["why"] == "deadline"
    sent = [e for e in events if e["type"] == "OrdersSubmitted" and e["payload"]["round"] == 0]
    ann = [e["seq"] for e in sent if e["payload"]["seat"] == 0]
    assert len(ann) == 2 and not [e for e in sent if e["payload"]["seat"] == 3]
    # the replacement names the orders it replaces, and only it counts
    assert one(events, "OrdersCommitted", seat=0, replaces=ann[0])
    counted = one(events, "OrdersCounted", round=0)["seats"]
    assert counted[0] == ann[1] and counted[3] is None
    assert judged(events)[(0, 0)]["applied"]["ability"] == {"kind": "utility", "select": ["B"]}
    # Dan sent nothing: the default orders, nothing dropped
    assert judged(events)[(0, 3)]["applied"] == NOTHING
    assert judged(events)[(0, 3)]["dropped"] == []
    check_all_tied_vote(events)


def check_all_tied_vote(events: list[Event]) -> None:
    """Everybody on 0 points: a ToL each, and the ToL winners vote on the EC."""
    assert one(events, "TolsAwarded")["won"] == {"0": 1, "1": 1, "2": 1, "3": 1}
    called = one(events, "EliminationVoteCalled")
    assert called["tied"] == called["voters"] == [0, 1, 2, 3]
    assert of_type(events, "EliminationVoteRecorded")
    assert one(events, "EliminationCandidateNamed")["how"] == "vote"


def check_moderator_clock(events: list[Event]) -> None:
    opened = one(events, "RoundOpened", round=1)["deadline"]
    extended = one(events, "DeadlineExtended", round=1)["deadline"]
    assert extended == opened + 1800
    paused = of_type(events, "GamePaused")
    resumed = of_type(events, "GameResumed")
    assert len(paused) == len(resumed) == 2
    assert resumed[0]["paused_seconds"] == 4500 and resumed[0]["deadline"] == extended + 4500
    assert resumed[1]["paused_seconds"] == 0 and resumed[1]["deadline"] == extended + 4500
    # Ben's orders came during the pause and count; the moderator closed the round
    ben = next(e for e in events if e["type"] == "OrdersSubmitted" and e["payload"]["seat"] == 1)
    assert paused[0]["at"] < ben["command"]["now"] < resumed[0]["at"]
    closed = one(events, "RoundClosed", round=1)
    assert closed["why"] == "moderator" and closed["reason"]
    counted = one(events, "OrdersCounted", round=1)["seats"]
    assert counted[1] == ben["seq"] and counted[2] is None and counted[3] is None


def check_dropped_orders(events: list[Event]) -> None:
    assert dropped_rules(events) == {
        (0, 0): [("bets", "round_0"), ("spectate", "round_0")],
        (0, 1): [("ability", "card_not_held")],
        (0, 2): [("ability", "too_many_cards")],
        (1, 2): [("bets.A", "no_current_space")],
        (1, 3): [("spectate", "off_track")],
        (2, 0): [("bets.A", "not_on_current_space")],
        (2, 1): [("bets.D", "not_on_current_space"), ("bets.Z", "not_a_horse")],
        (2, 2): [("submission", "over_limit")],
    }
    ben = judged(events)[(2, 1)]
    assert ben["applied"]["bets"] == {"A": 4} and ben["effects"]["limit_raised"] == 1
    assert judged(events)[(2, 2)]["applied"] == NOTHING
    assert judged(events)[(2, 2)]["effects"]["cards_used"] == {}


def check_trades(events: list[Event]) -> None:
    trades = [e for e in events if e["type"].startswith("Trade")]
    # every trade event is private to the two seats
    for e in trades:
        assert sorted(e["visibility"]) == sorted([e["payload"]["from"], e["payload"]["to"]])
    answers = [e["payload"] for e in trades if e["type"] != "TradeOffered"]
    assert {e["type"] for e in trades} - {"TradeOffered"} == {
        "TradeAccepted",
        "TradeDeclined",
        "TradeWithdrawn",
    }
    bought = of_type(events, "CardBought")
    assert [b["cost"] for b in bought] == [2, 4]
    assert all(e["visibility"] == [0] for e in events if e["type"] == "CardBought")
    # Dan traded away the G his sealed clue uses: judged at resolution, it is dropped
    traded = one(events, "TradeAccepted", to=3)
    assert traded["get"] == "G"
    assert dropped_rules(events)[(0, 3)] == [("ability", "card_not_held")]
    # Ben's offer to Ann was never answered
    answered = {p["offer"] for p in answers}
    unanswered = [p for p in of_type(events, "TradeOffered") if p["offer"] not in answered]
    assert [(p["from"], p["to"]) for p in unanswered] == [(1, 0)]


def check_awards_tol_choice(events: list[Event]) -> None:
    scores = one(events, "ScoresRevealed")["seats"]
    assert [s["total"] for s in scores] == [2, 1, 1, 0]
    tols = one(events, "TolsAwarded")
    # only two ToLs are given out: Ann's and the one she gives (tied_second_tols two_in_all)
    assert tols["won"] == {"0": 1} and tols["choice"] == {"chooser": 0, "among": [1, 2], "tols": 1}
    assert one(events, "TolGiven") == {"by": 0, "seat": 2, "tols": 1}
    named = one(events, "EliminationCandidateNamed")
    assert named["candidate"] == 3 and named["how"] == "fewest_points"
    assert not of_type(events, "EliminationVoteCalled")
    assert outcome(events)["winners"] == [0]


def check_blackout_dispute_kept(events: list[Event]) -> None:
    check_dispute_kept(events)
    kinds = [p["amendment"]["kind"] for p in of_type(events, "DisputeOpened")]
    assert kinds == ["drop", "submission"]


def check_abandoned(events: list[Event]) -> None:
    """Abandoned in Round 2: every counted and sealed order is revealed before the seed,
    including the open round's, and nothing is scored."""
    kinds = [e["type"] for e in events]
    end = kinds.index("GameAbandoned")
    assert kinds[end + 1 :] == ["OrdersRevealed", "SeedRevealed"]
    assert one(events, "OrdersRevealed", round=2, seat=2)["orders"]["bets"] == {}
    assert "GameEnded" not in kinds
    sealed = {(p["round"], p["seat"]) for p in of_type(events, "OrdersSubmitted")}
    opened = {(p["round"], p["seat"]) for p in of_type(events, "OrdersRevealed")}
    counted = of_type(events, "OrdersCounted")
    assert (
        {(c["round"], s) for c in counted for s, q in enumerate(c["seats"]) if q} | {(2, 2)}
        == opened
        <= sealed
    )


# --- royal-turf ----------------------------------------------------------------------


def bets_by_race(events: list[Event]) -> dict[int, list[dict[str, Any]]]:
    """Each race's bets (seat, horse, chip), the chips of sealed ones read from their
    reveals (a sealed bet's OrdersSubmitted is two events before its BetPlaced)."""
    revealed = {p["seq"]: p["orders"]["chip"] for p in of_type(events, "OrdersRevealed")}
    found: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        if e["type"] == "BetPlaced":
            p = e["payload"]
            chip = p["chip"] if "chip" in p else revealed[e["seq"] - 2]
            found.setdefault(p["race"], []).append({**p, "chip": chip})
    return found


def check_race_payments(events: list[Event]) -> None:
    """Every race paid as the house table says, worked out here from the bets: 1st-3rd
    by the bets (or, with Alternative Payouts, the chips) on the horse, one amount per bet
    (per chip); 100 a bet for the pace chip; 100 a bet for last place, taken after the
    gains and never below 0; race 3 doubled; a 0-chip paid and charged nothing."""
    created = one(events, "GameCreated")
    alternative = created["options"]["alternative_payouts"]
    money = [created["options"]["starting_money"]] * len(created["players"])
    bets, ended = bets_by_race(events), {p["race"]: p for p in of_type(events, "RaceEnded")}
    paid = of_type(events, "RacePaid")
    assert [p["multiplier"] for p in paid] == [1, 1, 2]
    for race in paid:
        end, double = ended[race["race"]], race["multiplier"]
        counted = [b for b in bets[race["race"]] if b["chip"] > 0]
        gains, dues = [], []
        for place, horse in zip(PLACES, end["placings"], strict=True):
            on = [b for b in counted if b["horse"] == horse]
            column = len(on) if alternative else sum(b["chip"] for b in on)
            for b in on:
                rate = HOUSE_PAYOUTS[place][min(column, 6) - 1]
                amount = rate * (1 if alternative else b["chip"]) * double
                gains.append((b["seat"], horse, place, amount))
        for b in counted:
            if b["horse"] == end["pace_chip"]:
                gains.append((b["seat"], b["horse"], "pace", 100 * b["chip"] * double))
            if b["horse"] == end["last"]:
                dues.append((b["seat"], b["horse"], "last", 100 * b["chip"] * double))
        lines = race["lines"]
        assert sorted(
            (x["seat"], x["horse"], x["for"], x["amount"]) for x in lines if "due" not in x
        ) == sorted(gains)
        assert sorted(
            (x["seat"], x["horse"], x["for"], x["due"]) for x in lines if "due" in x
        ) == sorted(dues)
        for seat, _, _, amount in gains:
            money[seat] += amount
        for line in (x for x in lines if "due" in x):
            taken = min(money[line["seat"]], line["due"])
            assert line["amount"] == -taken
            money[line["seat"]] -= taken
        assert race["money"] == money and min(money) >= 0


def walk_races(events: list[Event]) -> list[tuple[Event, dict[str, int], dict[str, int]]]:
    """Each HorseMoved and RaceEnded with the running horses' spaces before it and the
    move at which each last arrived somewhere (0: still on the starting line)."""
    walked = []
    spaces: dict[str, int] = {}
    arrived: dict[str, int] = {}
    moves = 0
    for e in events:
        p = e["payload"]
        if e["type"] == "CardsDealt":
            spaces, arrived = dict.fromkeys(p["cards"], 0), dict.fromkeys(p["cards"], 0)
        elif e["type"] in ("HorseMoved", "RaceEnded"):
            walked.append((e, dict(spaces), dict(arrived)))
        if e["type"] == "HorseMoved":
            moves += 1
            spaces[p["horse"]] = p["to"]
            if p["to"] != p["from"]:
                arrived[p["horse"]] = moves
        elif e["type"] == "HorseFinished":
            del spaces[p["horse"]]
    return walked


def check_blocked_and_penalty_floor(events: list[Event]) -> None:
    check_race_payments(events)
    # blocked: every space from the next one to the destination is taken, so the horse
    # stays; its card still turns face down (it moves again only after CardsTurnedUp)
    walked = walk_races(events)
    blocked = [
        (e, spaces)
        for e, spaces, _ in walked
        if e["type"] == "HorseMoved"
        and e["payload"]["steps"] > 0
        and e["payload"]["to"] == e["payload"]["from"]
    ]
    assert blocked
    for e, spaces in blocked:
        p = e["payload"]
        taken = {s for h, s in spaces.items() if h != p["horse"]}
        assert set(range(p["from"] + 1, p["from"] + p["steps"] + 1)) <= taken
        later = [
            x
            for x in events[e["seq"] :]
            if x["type"] in ("HorseMoved", "CardsTurnedUp", "RaceEnded")
        ]
        upto = next(i for i, x in enumerate(later) if x["type"] != "HorseMoved")
        assert p["horse"] not in [x["payload"]["horse"] for x in later[:upto]]
    # Ann owes 200 with nothing and pays 0; Ben owes 200 with 150 won and pays 150
    first = of_type(events, "RacePaid")[0]
    penalties = {x["seat"]: (x["due"], x["amount"]) for x in first["lines"] if x["for"] == "last"}
    assert penalties == {0: (200, 0), 1: (200, -150)}
    assert first["money"] == [0, 0, 1400]


def check_hidden_bets_bluff(events: list[Event]) -> None:
    check_race_payments(events)
    players = len(one(events, "GameCreated")["players"])
    # every chip sealed: the seat's own OrdersSubmitted, the public commitment, a
    # chipless BetPlaced; four bets a seat a race; revealed after the race, before pay
    for e in (x for x in events if x["type"] == "BetPlaced"):
        submitted, committed = events[e["seq"] - 3], events[e["seq"] - 2]
        assert "chip" not in e["payload"]
        assert submitted["type"] == "OrdersSubmitted"
        assert submitted["visibility"] == [e["payload"]["seat"]]
        assert committed["type"] == "OrdersCommitted" and committed["visibility"] == "public"
    bets = bets_by_race(events)
    assert [len(bets[race]) for race in (1, 2, 3)] == [4 * players] * 3
    kinds = [e["type"] for e in events]
    for end in (i for i, kind in enumerate(kinds) if kind == "RaceEnded"):
        assert kinds[end + 1 : end + 1 + 4 * players] == ["OrdersRevealed"] * 4 * players
        assert kinds[end + 1 + 4 * players] == "RacePaid"
    # race 1: Ann's 0-chip on the winner and Ben's on the last horse pay and cost nothing
    ended, paid = of_type(events, "RaceEnded")[0], of_type(events, "RacePaid")[0]
    winner, last = ended["placings"][0], ended["last"]
    zeros = {(b["seat"], b["horse"]) for b in bets[1] if b["chip"] == 0}
    assert {(0, winner), (1, last)} <= zeros
    lines = {(x["seat"], x["horse"]) for x in paid["lines"]}
    assert (0, winner) not in lines and (1, last) not in lines
    assert (1, winner) in lines and (2, winner) in lines and (2, last) in lines
    # Royal Turf Cards: each gate gets a card of its own horse; cards of a horse that
    # already has one are set aside
    deals = of_type(events, "CardsDealt")
    assert [len(d["set_aside"]) for d in deals] == [6, 1, 0]
    for deal in deals:
        assert all(horse_of(card) == horse for horse, card in deal["cards"].items())
        seen: set[str] = set()
        for card in deal["drawn"]:
            assert (card in deal["set_aside"]) == (horse_of(card) in seen)
            seen.add(horse_of(card))


def check_richest_tie(events: list[Event]) -> None:
    check_race_payments(events)
    money = of_type(events, "RacePaid")[0]["money"]
    assert money[0] == money[1] > money[2]
    chosen = of_type(events, "FirstPlayerChosen")
    assert [(c["among"], c["seat"]) for c in chosen[1:]] == [([0, 1], 1), ([0, 1], 0)]
    result = outcome(events)
    assert result["winners"] == [0, 1] and result["ranks"] == [1, 1, 3]
    # Crowded Field: race 3's last horse shares its space with a horse that got there first
    _, spaces, arrived = [w for w in walk_races(events) if w[0]["type"] == "RaceEnded"][2]
    last = of_type(events, "RaceEnded")[2]["last"]
    mates = [h for h, s in spaces.items() if h != last and s == spaces[last]]
    assert mates and spaces[last] > 0
    assert all(arrived[h] < arrived[last] for h in mates)
    assert spaces[last] == min(spaces.values())


def check_royal_turf_dispute_kept(events: list[Event]) -> None:
    check_dispute_kept(events)
    check_race_payments(events)
    amendment = one(events, "DisputeOpened")["amendment"]
    assert amendment == {"kind": "drop", "seq": 4}
    assert events[3]["type"] == "OrdersSubmitted" and events[3]["command"]["type"] == "place_bet"


# --- dark-horse-west -------------------------------------------------------------------


def check_influence_end(events: list[Event]) -> None:
    """The end is triggered by influence in a Collection Phase that is then finished; the
    scores add up their lines and the winner is the seat with most points."""
    trigger = one(events, "GameEndTriggered")
    assert trigger["reason"] == "influence"
    seq = next(e["seq"] for e in events if e["type"] == "GameEndTriggered")
    later = [e["type"] for e in events[seq:]]
    assert "RoundStarted" not in later and "CollectionTurn" in later
    scores = one(events, "ScoresCounted")
    for line, total in zip(scores["breakdown"], scores["scores"], strict=True):
        cities = sum(line["cities"].values())
        assert (
            total
            == line["gold"]
            + line["influence"]
            + cities
            + len(line["roles"])
            + line["loans"]
            + line["jail"]
        )
    influence = [line["influence"] for line in scores["breakdown"]]
    assert influence[trigger["seat"]] >= 3
    assert outcome(events)["winners"] == [scores["scores"].index(max(scores["scores"]))]


def check_gunslinger(events: list[Event]) -> None:
    """Both pawns move every turn by their full die on actions 2-12, and nobody places
    on an action the other seat's pawn stands on."""
    from referee.games.dark_horse_west.data import gun_actions

    pawns = [7, 7]
    rounds = 0
    for e in events:
        p = e["payload"]
        if e["type"] == "RoundStarted":
            rounds += 1
        elif e["type"] == "GunslingerMoved":
            assert p["from"] == pawns[p["seat"]] and 2 <= p["to"] <= 12
            assert abs(p["to"] - p["from"]) in (p["die"], 0)
            pawns[p["seat"]] = p["to"]
        elif e["type"] == "DicePlaced":
            assert p["action"] not in gun_actions(pawns[1 - p["seat"]])
    assert len(of_type(events, "GunslingerMoved")) == 2 * rounds
    assert of_type(events, "GunslingerTurn"), "no seat ever chose a direction"


def check_solitaire_cruel_marshal_law(events: list[Event]) -> None:
    """Five Ghost dice a turn, placed before the player's first die; events only from the
    event pile; a defeat after six turns."""
    assert [len(p["dice"]) for p in of_type(events, "GhostDiceRolled")] == [5] * 6
    placed_by_ghost, seen_player = False, False
    for e in events:
        if e["type"] == "RoundStarted":
            placed_by_ghost, seen_player = False, False
        elif e["type"] == "GhostDiePlaced":
            assert not seen_player
            placed_by_ghost = True
        elif e["type"] == "DicePlaced":
            assert placed_by_ghost
            seen_player = True
            assert e["payload"]["action"] != "turn_order"
    assert of_type(events, "EventPileShuffled")
    assert not any(p.get("action") == "turn_order" for p in of_type(events, "DicePlaced"))
    result = outcome(events)
    assert result["scenario"] == "Marshal Law" and result["victory"] is False
    assert result["winners"] == []


EDGE_CASES: dict[str, Callable[[list[Event]], None]] = {
    "blackout-middle-scenario-abandoned": check_abandoned,
    "galloping-horse-scenario-food-runs-out": check_food_runs_out,
    "galloping-horse-scenario-round-two-reshuffle": check_round_two_reshuffle,
    "galloping-horse-scenario-shared-victory": check_shared_victory,
    "galloping-horse-scenario-dispute-kept": check_dispute_kept,
    "dark-horse-scenario-line-edges": check_line_edges,
    "dark-horse-scenario-exchange-empty-stack": check_exchange_empty_stack,
    "dark-horse-scenario-dispute-kept": check_dispute_kept,
    "blackout-middle-scenario-deadline-and-replaced-orders": check_deadline_and_replaced_orders,
    "blackout-middle-scenario-moderator-clock": check_moderator_clock,
    "blackout-middle-scenario-dropped-orders": check_dropped_orders,
    "blackout-middle-scenario-trades": check_trades,
    "blackout-middle-scenario-awards-tol-choice": check_awards_tol_choice,
    "blackout-middle-scenario-dispute-kept": check_blackout_dispute_kept,
    "royal-turf-scenario-blocked-and-penalty-floor": check_blocked_and_penalty_floor,
    "royal-turf-scenario-hidden-bets-bluff": check_hidden_bets_bluff,
    "royal-turf-scenario-richest-tie": check_richest_tie,
    "royal-turf-scenario-dispute-kept": check_royal_turf_dispute_kept,
    "dark-horse-west-scenario-influence-end": check_influence_end,
    "dark-horse-west-scenario-gunslinger": check_gunslinger,
    "dark-horse-west-scenario-solitaire-cruel-marshal-law": check_solitaire_cruel_marshal_law,
    "dark-horse-west-scenario-dispute-kept": check_dispute_kept,
}
