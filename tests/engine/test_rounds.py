"""Sealed simultaneous rounds in the engine, on a toy ruleset (tests/sealed_toy.py)."""

import hashlib

import pytest
import sealed_toy
from chained import sealed

from referee.engine import game, registry
from referee.engine.canonical import canonical
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import MODERATOR, REFEREE
from replays.verify import verify_events

T0 = 1_800_000_000
SEED = "rounds-seed"


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    monkeypatch.setitem(registry._RULESETS, sealed_toy.NAME, sealed_toy)
    return sealed_toy


class Table:
    """A toy game folded as it goes, with every record kept."""

    def __init__(self, players=3, **options):
        self.records = game.create(
            "sealed-toy", [f"p{i}" for i in range(players)], options, SEED, now=T0
        )
        self.state = game.fold(self.records)

    def run(self, actor, now, **command):
        batch = game.execute(self.state, actor, {**command, "now": now}, SEED)
        self.records += batch
        self.state = game.fold(batch, self.state)
        return batch

    def submit(self, seat, bid, now=T0 + 1, round=None):
        number = round if round is not None else self.current["round"]
        return self.run(seat, now, type="submit_orders", round=number, orders={"bid": bid})

    def resolve(self, now, round=None):
        number = round if round is not None else self.current["round"]
        return self.run(REFEREE, now, type="resolve_round", round=number)

    @property
    def current(self):
        return self.state["rounds"]["current"]


def types(batch):
    return [r["type"] for r in batch]


def test_creation_opens_the_first_round_with_its_deadline():
    table = Table(round_seconds=90)
    assert table.records[0]["payload"]["created_at"] == T0
    assert table.records[-1]["type"] == "RoundOpened"
    assert table.records[-1]["payload"] == {"round": 1, "deadline": T0 + 90}


def test_a_submission_is_sealed_and_its_commitment_public():
    table = Table()
    submitted, committed = table.submit(0, 4)
    assert submitted["visibility"] == [0] and committed["visibility"] == "public"
    salt = submitted["payload"]["salt"]
    expected = hashlib.sha256(bytes.fromhex(salt) + canonical({"bid": 4})).hexdigest()
    assert committed["payload"] == {"round": 1, "seat": 0, "commitment": expected, "replaces": None}
    assert game.redact(submitted, 1, False) == {"seq": submitted["seq"], "redacted": True}
    assert "4" not in str(game.view(table.state, 1)["round"])
    assert game.view(table.state, 0)["round"]["open"]["my_orders"]["orders"] == {"bid": 4}


def test_a_later_submission_replaces_the_earlier_and_both_stay():
    table = Table()
    first = table.submit(0, 2)
    second = table.submit(0, 3)
    assert second[1]["payload"]["replaces"] == first[0]["seq"]
    table.submit(1, 1)
    table.submit(2, 1)
    batch = table.resolve(T0 + 2)
    assert batch[0]["type"] == "OrdersCounted"
    assert batch[0]["payload"]["seats"][0] == second[0]["seq"]
    scored = next(r for r in batch if r["type"] == "RoundScored")
    assert scored["payload"]["bids"] == [3, 1, 1] and scored["payload"]["winner"] == 0


def test_the_last_submission_closes_the_round_and_no_more_are_taken():
    table = Table(players=2)
    table.submit(0, 2)
    assert types(table.submit(1, 3))[-1] == "RoundClosed"
    assert table.current["closed"] == "all_submitted"
    with pytest.raises(RuleViolation) as refused:
        table.submit(0, 5)
    assert refused.value.code == "rule/round_closed"


def test_submissions_after_the_deadline_or_for_another_round_are_refused():
    table = Table(round_seconds=60)
    for kwargs, code in [
        ({"now": T0 + 60}, "rule/deadline_passed"),
        ({"round": 2}, "rule/wrong_round"),
    ]:
        with pytest.raises(RuleViolation) as refused:
            table.submit(0, 2, **kwargs)
        assert refused.value.code == code
    with pytest.raises(BadRequest):
        table.run(0, T0 + 1, type="submit_orders", round=1, orders={"bid": 9})


def test_a_round_is_resolved_only_when_due_and_only_once():
    table = Table(round_seconds=60)
    table.submit(1, 5)
    with pytest.raises(RuleViolation) as early:
        table.resolve(T0 + 59)
    assert early.value.code == "rule/not_due"
    batch = table.resolve(T0 + 60)
    assert types(batch)[:2] == ["RoundClosed", "OrdersCounted"]
    assert batch[0]["payload"] == {"round": 1, "why": "deadline"}
    assert batch[1]["payload"]["seats"] == [None, batch[1]["seq"] - 3, None]
    scored = next(r for r in batch if r["type"] == "RoundScored")
    assert scored["payload"]["bids"] == [0, 5, 0]  # the default orders of the silent seats
    revealed = [r for r in batch if r["type"] == "OrdersRevealed"]
    assert [r["payload"]["seat"] for r in revealed] == [1]
    assert revealed[0]["visibility"] == "public"
    assert batch[-1]["payload"] == {"round": 2, "deadline": T0 + 120}
    with pytest.raises(RuleViolation) as again:
        table.resolve(T0 + 61, round=1)
    assert again.value.code == "rule/wrong_round"


def test_reveals_match_the_commitments_seen_before():
    table = Table(players=2)
    commitments = {
        r["payload"]["seat"]: r["payload"]["commitment"]
        for r in table.submit(0, 2) + table.submit(1, 4)
        if r["type"] == "OrdersCommitted"
    }
    for r in table.resolve(T0 + 2):
        if r["type"] == "OrdersRevealed":
            p = r["payload"]
            digest = hashlib.sha256(bytes.fromhex(p["salt"]) + canonical(p["orders"])).hexdigest()
            assert digest == commitments[p["seat"]]


def test_pause_stops_the_clock_and_resume_moves_the_deadline():
    table = Table(round_seconds=60)
    table.run(MODERATOR, T0 + 10, type="pause", reason="holiday")
    with pytest.raises(RuleViolation) as paused:
        table.resolve(T0 + 500)
    assert paused.value.code == "rule/paused"
    table.submit(0, 3, now=T0 + 200)  # the deadline does not run while paused
    resumed = table.run(MODERATOR, T0 + 310, type="resume", reason="back")
    assert resumed[0]["payload"] == {
        "at": T0 + 310,
        "paused_seconds": 300,
        "deadline": T0 + 360,
        "reason": "back",
    }
    with pytest.raises(RuleViolation):
        table.resolve(T0 + 359)
    assert types(table.resolve(T0 + 360))[0] == "RoundClosed"


def test_a_paused_round_shows_the_time_it_will_have_left_when_resumed():
    table = Table(round_seconds=60)
    running = game.view(table.state, None)["round"]
    assert running["paused_at"] is None and running["open"]["left_when_resumed"] is None
    table.run(MODERATOR, T0 + 10, type="pause", reason="holiday")
    for viewer in (None, 0, MODERATOR):
        shown = game.view(table.state, viewer)["round"]
        assert shown["paused"] is True and shown["paused_at"] == T0 + 10
        assert shown["open"]["left_when_resumed"] == 50  # the deadline T0 + 60, paused at +10
    resumed = table.run(MODERATOR, T0 + 900, type="resume", reason="back")[0]["payload"]
    assert resumed["deadline"] - resumed["at"] == 50
    assert game.view(table.state, None)["round"]["open"]["left_when_resumed"] is None


def test_a_round_paused_past_its_deadline_has_nothing_left():
    table = Table(round_seconds=60)
    table.run(MODERATOR, T0 + 70, type="pause", reason="the worker was down")
    assert game.view(table.state, None)["round"]["open"]["left_when_resumed"] == 0


def test_the_moderator_extends_a_deadline_and_closes_a_round_early():
    table = Table(round_seconds=60)
    extended = table.run(MODERATOR, T0 + 5, type="extend_deadline", seconds=3600, reason="late")
    assert extended[0]["payload"] == {"round": 1, "deadline": T0 + 3660, "reason": "late"}
    closed = table.run(MODERATOR, T0 + 6, type="close_round", reason="everyone agreed")
    assert closed[0]["payload"] == {"round": 1, "why": "moderator", "reason": "everyone agreed"}
    with pytest.raises(RuleViolation):
        table.submit(0, 1, now=T0 + 7)
    assert types(table.resolve(T0 + 8))[0] == "OrdersCounted"  # closed already: resolved now


@pytest.mark.parametrize(
    "command",
    [
        {"type": "extend_deadline", "seconds": 0, "reason": "x"},
        {"type": "extend_deadline", "seconds": 60, "reason": ""},
        {"type": "close_round"},
        {"type": "resume", "reason": "not paused"},
    ],
)
def test_bad_moderator_round_commands_are_refused(command):
    table = Table()
    with pytest.raises((BadRequest, RuleViolation)):
        table.run(MODERATOR, T0 + 1, **command)


def test_seats_and_moderators_cannot_send_each_others_commands():
    table = Table()
    with pytest.raises(BadRequest):
        table.run(0, T0 + 1, type="pause", reason="mine")
    with pytest.raises(BadRequest):
        table.run(MODERATOR, T0 + 1, type="submit_orders", round=1, orders={"bid": 1})
    with pytest.raises(BadRequest):
        table.run(0, T0 + 1, type="resolve_round", round=1)


def test_a_command_without_the_referees_time_is_refused():
    table = Table()
    with pytest.raises(BadRequest) as refused:
        game.execute(
            table.state, 0, {"type": "submit_orders", "round": 1, "orders": {"bid": 1}}, SEED
        )
    assert refused.value.details["field"] == "now"


def test_a_whole_game_ends_and_its_log_verifies():
    table = Table(players=2, rounds=2)
    for number in (1, 2):
        table.submit(0, 2, now=T0 + 60 * number - 30)
        table.resolve(T0 + 60 * number)
    assert table.state["status"] == "finished"
    assert table.state["outcome"]["scores"] == [4, 0]
    assert types(table.records[-2:]) == ["GameEnded", "SeedRevealed"]
    assert verify_events(sealed(table.records)).valid


def test_orders_sealed_until_the_end_are_revealed_before_the_game_ends(monkeypatch):
    monkeypatch.setattr(sealed_toy, "REVEAL", "end")
    table = Table(players=2, rounds=2)
    for number in (1, 2):
        table.submit(1, number, now=T0 + 60 * number - 30)
        batch = table.resolve(T0 + 60 * number)
        if number == 1:
            assert "OrdersRevealed" not in types(batch)
    assert types(table.records[-4:]) == [
        "OrdersRevealed",
        "OrdersRevealed",
        "GameEnded",
        "SeedRevealed",
    ]
    assert [r["payload"]["orders"] for r in table.records[-4:-2]] == [{"bid": 1}, {"bid": 2}]
    assert verify_events(sealed(table.records)).valid


def test_abandoning_mid_round_reveals_what_was_sent():
    table = Table()
    table.submit(2, 5)
    batch = table.run(MODERATOR, T0 + 2, type="abandon", reason="no quorum")
    assert types(batch) == ["GameAbandoned", "OrdersRevealed", "SeedRevealed"]


def test_to_move_lists_the_seats_yet_to_submit_and_legal_stops_when_closed():
    table = Table(players=2)
    table.submit(1, 2)
    assert game.to_move(table.state) == [0]
    assert game.legal(table.state, 0)
    table.submit(0, 2)
    assert game.to_move(table.state) == [] and game.legal(table.state, 0) == []
