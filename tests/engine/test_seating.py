"""Bots in seats, in the engine (docs/bots.md, "Where bots play"): bots at creation in
GameCreated, seats handed to a bot and back by the moderator and by the seat itself, a
bot's moves recorded as its seat's commands with the bot's mark, a person's move for a
seat its bot holds refused, a clock whose autopilot is a bot, and the logs verifying."""

import pytest
from chained import sealed

from referee import games  # noqa: F401  (registers the rulesets)
from referee.engine import clocks, disputes, game, rounds, seating
from referee.engine.canonical import digest
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import MODERATOR, REFEREE
from replays.verify import verify_events

SEED = "seating-seed"
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
T0 = 1_800_000_000


class Table:
    """A galloping-horse game folded as it goes, every record kept."""

    def __init__(self, bots=None, clock=None, ruleset="galloping-horse", players=PLAYERS):
        self.records = game.create(ruleset, players, {}, SEED, now=T0, clock=clock, bots=bots)
        self.state = game.fold(self.records)
        self.now = T0

    def run(self, actor, **command):
        if "rounds" in self.state or "clock" in self.state:
            command["now"] = self.now
        batch, self.state = game.step(self.state, actor, command, SEED)
        self.records += batch
        return batch

    def bot_move(self, seat):
        """The first legal move of the seat, sent as its bot's."""
        level = seating.bot_of(self.state, seat)
        return self.run(seat, **game.legal(self.state, seat)[0], bot=level)

    def person_move(self, seat):
        return self.run(seat, **game.legal(self.state, seat)[0])

    @property
    def seat(self):
        return game.to_move(self.state)[0]


def test_bots_at_creation_are_in_game_created_and_in_every_view():
    table = Table(bots={"1": "standard", "3": "random"})
    created = table.records[0]
    assert created["payload"]["bots"] == {"1": "standard", "3": "random"}
    assert table.state["bots"] == {"1": "standard", "3": "random"}
    for viewer in (None, 0, 1, MODERATOR):
        assert game.view(table.state, viewer)["bots"] == {"1": "standard", "3": "random"}


def test_a_game_without_bots_is_created_and_folded_as_before():
    """No `bots` key anywhere: a log recorded before bots existed keeps its hashes."""
    table = Table()
    assert "bots" not in table.records[0]["payload"]
    assert "bots" not in table.state
    assert "bots" not in game.view(table.state, None)
    before = game.fold(game.create("galloping-horse", PLAYERS, {}, SEED))
    assert digest(before) == digest(table.state)


@pytest.mark.parametrize(
    ("bots", "field"),
    [({"4": "standard"}, "bots"), ({"1": "genius"}, "players.1.bot"), ({"x": "random"}, "bots")],
)
def test_bad_bots_at_creation_are_refused_naming_the_field(bots, field):
    with pytest.raises(BadRequest) as refused:
        Table(bots=bots)
    assert refused.value.details["field"] == field


def test_the_moderator_hands_a_seat_to_a_bot_and_back():
    table = Table()
    (seated,) = table.run(MODERATOR, type="seat_bot", seat=2, level="standard", reason="away")
    assert seated["type"] == "BotSeated" and seated["visibility"] == "public"
    assert seated["payload"] == {
        "seat": 2,
        "level": "standard",
        "by": "moderator",
        "reason": "away",
    }
    assert table.state["bots"] == {"2": "standard"}
    (unseated,) = table.run(MODERATOR, type="unseat_bot", seat=2, reason="back")
    assert unseated["type"] == "BotUnseated"
    assert unseated["payload"] == {"seat": 2, "by": "moderator", "reason": "back"}
    assert table.state["bots"] == {}


def test_a_player_hands_their_own_seat_to_a_bot_and_takes_it_back():
    table = Table()
    (seated,) = table.run(1, type="hand_to_bot", level="random")
    assert seated["payload"] == {"seat": 1, "level": "random", "by": "seat"}
    (changed,) = table.run(1, type="hand_to_bot", level="standard")  # another level
    assert changed["payload"]["level"] == "standard" and table.state["bots"] == {"1": "standard"}
    (back,) = table.run(1, type="take_seat_back")
    assert back["payload"] == {"seat": 1, "by": "seat"} and table.state["bots"] == {}


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        (
            MODERATOR,
            {"type": "seat_bot", "seat": 9, "level": "random", "reason": "r"},
            "rule/no_such_seat",
        ),
        (
            MODERATOR,
            {"type": "seat_bot", "seat": 1, "level": "best", "reason": "r"},
            "command/invalid",
        ),
        (MODERATOR, {"type": "seat_bot", "seat": 1, "level": "random"}, "command/invalid"),
        (MODERATOR, {"type": "unseat_bot", "seat": 1, "reason": "r"}, "rule/no_bot"),
        (1, {"type": "take_seat_back"}, "rule/no_bot"),
        (1, {"type": "hand_to_bot"}, "command/invalid"),
        (1, {"type": "hand_to_bot", "level": "random", "seat": 2}, "command/invalid"),
    ],
)
def test_bad_seat_commands_are_refused(actor, command, code):
    table = Table()
    with pytest.raises((BadRequest, RuleViolation)) as refused:
        table.run(actor, **command)
    assert refused.value.code == code


def test_the_same_bot_again_is_refused():
    table = Table(bots={"1": "random"})
    with pytest.raises(RuleViolation) as refused:
        table.run(1, type="hand_to_bot", level="random")
    assert refused.value.code == "rule/bot_seated"


def test_a_bots_move_is_its_seats_command_marked_and_the_rules_never_see_the_mark():
    seat = Table().seat
    table = Table(bots={str(seat): "standard"})
    batch = table.bot_move(seat)
    assert batch[0]["actor"] == seat
    assert batch[0]["command"]["bot"] == "standard"
    plain = Table()
    assert [r["payload"] for r in plain.person_move(seat)] == [r["payload"] for r in batch]


def test_a_persons_move_for_a_seat_its_bot_holds_is_refused():
    table = Table()
    seat = table.seat
    table.run(MODERATOR, type="seat_bot", seat=seat, level="standard", reason="quiet")
    with pytest.raises(RuleViolation) as refused:
        table.person_move(seat)
    assert refused.value.code == "rule/seat_played_by_bot"
    assert "take your seat back" in refused.value.message
    table.run(seat, type="take_seat_back")
    table.person_move(seat)  # their own again


@pytest.mark.parametrize("held", [None, "random"])
def test_a_bots_move_for_a_seat_no_such_bot_holds_is_refused(held):
    table = Table()
    seat = table.seat
    if held:
        table.run(MODERATOR, type="seat_bot", seat=seat, level=held, reason="r")
    with pytest.raises(RuleViolation) as refused:
        table.run(seat, **game.legal(table.state, seat)[0], bot="standard")
    assert refused.value.code == "rule/not_the_bot"


def test_a_bot_sends_only_moves():
    table = Table(bots={"1": "standard"})
    with pytest.raises(RuleViolation) as refused:
        table.run(1, type="take_seat_back", bot="standard")
    assert refused.value.code == "rule/not_the_bot"
    with pytest.raises(RuleViolation):
        table.run(MODERATOR, type="announce", text="hi", bot="standard")


def test_a_game_with_bots_played_to_its_end_verifies():
    """Every seat changes hands on the way: bots at creation, handed over, taken back."""
    table = Table(bots={"1": "standard", "2": "random"})
    table.run(MODERATOR, type="seat_bot", seat=3, level="standard", reason="away")
    moves = 0
    while not game.is_over(table.state):
        seat = table.seat
        if moves == 10:
            table.run(3, type="take_seat_back")
            table.run(0, type="hand_to_bot", level="random")
        if seating.bot_of(table.state, seat):
            table.bot_move(seat)
        else:
            table.person_move(seat)
        moves += 1
    assert sum(1 for r in table.records if (r["command"] or {}).get("bot")) > 20
    report = verify_events(sealed(table.records))
    assert report.valid, report
    assert report.outcome == table.state["outcome"]


def test_a_tampered_bot_mark_does_not_verify():
    table = Table(bots={"1": "standard"})
    while not game.is_over(table.state):
        seat = table.seat
        table.bot_move(seat) if seat == 1 else table.person_move(seat)
    records = [dict(r) for r in table.records]
    first = next(i for i, r in enumerate(records) if (r["command"] or {}).get("bot"))
    records[first]["command"] = {k: v for k, v in records[first]["command"].items() if k != "bot"}
    report = verify_events(sealed(records))
    assert not report.valid and report.seq == records[first]["seq"]


def test_a_game_in_rounds_takes_a_bots_sealed_orders():
    players = ["Ann", "Ben", "Cat"]
    table = Table(ruleset="blackout-middle", players=players, bots={"2": "standard"})
    number = table.state["rounds"]["current"]["round"]
    orders = {"ability": None, "spectate": None, "bets": {}}
    batch = table.run(2, type="submit_orders", round=number, orders=orders, bot="standard")
    assert batch[0]["type"] == "OrdersSubmitted" and batch[0]["command"]["bot"] == "standard"
    with pytest.raises(RuleViolation) as refused:
        table.run(2, type="submit_orders", round=number, orders=orders)
    assert refused.value.code == "rule/seat_played_by_bot"


# --- a clock whose autopilot is a bot ------------------------------------------------


def test_a_clock_names_its_autopilot_only_when_asked():
    plain = Table(clock={"seconds": 3600, "on_timeout": "autopilot"})
    assert "autopilot_level" not in plain.records[0]["payload"]["clock"]
    strong = Table(clock={"seconds": 3600, "on_timeout": "autopilot", "autopilot_level": "strong"})
    assert strong.records[0]["payload"]["clock"]["autopilot_level"] == "strong"
    assert game.view(strong.state, None)["clock"]["autopilot_level"] == "strong"
    with pytest.raises(BadRequest) as refused:
        Table(clock={"seconds": 3600, "autopilot_level": "random"})
    assert refused.value.details["field"] == "clock.autopilot_level"


def test_a_seat_out_of_time_under_a_bot_autopilot_is_handed_to_the_bot():
    clock = {"seconds": 3600, "on_timeout": "autopilot", "autopilot_level": "strong"}
    table = Table(clock=clock)
    seat = table.seat
    table.now = T0 + 3600
    batch = table.run(REFEREE, type="time_out", seat=seat)
    assert batch[0]["type"] == "BotSeated"
    assert batch[0]["payload"] == {"seat": seat, "level": "strong", "by": "clock"}
    assert table.state["bots"] == {str(seat): "strong"}
    assert table.state["clock"]["deadlines"][seat] == T0 + 2 * 3600  # the bot's own time
    assert table.state["clock"]["autopilot"][seat] is False
    assert game.to_move(table.state) == [seat]  # its bot moves next, not the referee


def test_a_bot_seated_under_the_referees_autopilot_takes_over_from_it():
    table = Table(clock={"seconds": 3600, "on_timeout": "autopilot"})
    seat = table.seat
    table.now = T0 + 3600
    table.run(REFEREE, type="time_out", seat=seat)
    assert table.state["clock"]["autopilot"][seat] is True
    table.run(MODERATOR, type="seat_bot", seat=seat, level="standard", reason="a bot instead")
    assert table.state["clock"]["autopilot"][seat] is False


def test_every_engine_event_is_folded_by_the_engine_not_the_rules():
    kinds = {*clocks.EVENTS, *seating.EVENTS, *disputes.EVENTS, *rounds.EVENTS}
    assert kinds <= game.ENGINE_EVENTS
