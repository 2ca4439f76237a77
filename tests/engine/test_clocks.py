"""Turn clocks in the engine (docs/clocks.md): deadlines in the log, timeouts as the
referee's commands, wait / default / autopilot, extensions, pause, and every ruleset in
turns played to its end by its clocks alone, the log verifying."""

import pytest
from chained import sealed

from referee import games  # noqa: F401  (registers the rulesets)
from referee.engine import game, registry, rounds
from referee.engine.errors import BadRequest, Forbidden, RuleViolation
from referee.engine.events import MODERATOR, REFEREE
from referee.service import check_sender
from replays.verify import verify_events

T0 = 1_800_000_000
HOUR = 3600
SEED = "clock-seed"
IN_TURNS = [name for name in registry.names() if not rounds.has_rounds(registry.get(name))]
# each ruleset in turns, and Royal Turf's sealed bets (the referee seals a bet it places)
TABLES = [(name, {}) for name in IN_TURNS] + [("royal-turf", {"hidden_bets": True})]
PLAYERS = {"galloping-horse": 4, "dark-horse": 3, "royal-turf": 3, "dark-horse-west": 2}


class Table:
    """A clocked game folded as it goes, every record kept; time moves only by `now`."""

    def __init__(self, ruleset="galloping-horse", seats=None, seed=SEED, options=None, **clock):
        seats = seats or PLAYERS[ruleset]
        clock = {"seconds": HOUR, **clock}
        self.seed = seed
        self.records = game.create(
            ruleset, [f"p{s}" for s in range(seats)], options or {}, seed, now=T0, clock=clock
        )
        self.state = game.fold(self.records)

    def run(self, actor, now, **command):
        check_sender(self.state, actor, command)
        batch, self.state = game.step(self.state, actor, {**command, "now": now}, self.seed)
        self.records += batch
        return batch

    def time_out(self, seat, now):
        return self.run(REFEREE, now, type="time_out", seat=seat)

    def move(self, seat, now):
        """The seat plays the first of its legal commands itself."""
        command = game.legal(self.state, seat)[0]
        return self.run(seat, now, **command)

    @property
    def clock(self):
        return self.state["clock"]

    @property
    def asked(self):
        return [s for s in game.to_move(self.state) if isinstance(s, int)]


def types(batch):
    return [r["type"] for r in batch]


# --- settings --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({}, "clock.seconds"),
        ({"seconds": 59}, "clock.seconds"),
        ({"seconds": "3600"}, "clock.seconds"),
        ({"seconds": True}, "clock.seconds"),
        ({"seconds": HOUR, "on_timeout": "kick"}, "clock.on_timeout"),
        ({"seconds": HOUR, "extensions": -1}, "clock.extensions"),
        ({"seconds": HOUR, "extensions": 11}, "clock.extensions"),
        ({"seconds": HOUR, "tick": 1}, "clock.tick"),
        ([HOUR], "clock"),
    ],
)
def test_a_bad_clock_is_refused_naming_its_field(clock, field):
    with pytest.raises(BadRequest) as refused:
        game.create("galloping-horse", ["a", "b", "c", "d"], {}, SEED, now=T0, clock=clock)
    assert refused.value.details["field"] == field


def test_a_game_in_rounds_takes_no_clock():
    with pytest.raises(BadRequest) as refused:
        game.create(
            "blackout-middle", [f"p{i}" for i in range(3)], {}, SEED, now=T0, clock={"seconds": 60}
        )
    assert refused.value.code == "clock/rounds"


def test_a_game_without_a_clock_is_recorded_as_before():
    records = game.create("galloping-horse", ["a", "b", "c", "d"], {}, SEED, now=T0)
    assert "clock" not in records[0]["payload"] and "created_at" not in records[0]["payload"]
    assert "ClockSet" not in types(records)
    assert "clock" not in game.view(game.fold(records), None)


# --- the clock in the log ----------------------------------------------------------


def test_creation_records_the_clock_and_starts_it_for_the_seat_asked_first():
    table = Table(on_timeout="default", extensions=2)
    created = table.records[0]["payload"]
    assert created["clock"] == {"seconds": HOUR, "on_timeout": "default", "extensions": 2}
    assert created["created_at"] == T0
    assert table.records[-1]["type"] == "ClockSet"
    assert table.records[-1]["visibility"] == "public"
    assert table.clock["deadlines"] == [T0 + HOUR, None, None, None]
    shown = game.view(table.state, None)["clock"]
    assert shown["deadlines"] == [T0 + HOUR, None, None, None]
    assert shown["extensions_left"] == [2, 2, 2, 2] and shown["on_timeout"] == "default"


def test_a_move_stops_the_movers_clock_and_starts_the_next_seats():
    table = Table()
    batch = table.move(0, T0 + 100)
    assert types(batch)[-1] == "ClockSet"
    assert table.clock["deadlines"] == [None, T0 + 100 + HOUR, None, None]
    assert batch[0]["command"]["now"] == T0 + 100  # the time is in the recorded command


def test_a_timeout_before_the_deadline_is_refused_and_changes_nothing():
    table = Table(on_timeout="default")
    with pytest.raises(RuleViolation) as refused:
        table.time_out(0, T0 + HOUR - 1)
    assert refused.value.code == "rule/not_due"
    with pytest.raises(RuleViolation) as refused:
        table.time_out(1, T0 + HOUR)
    assert refused.value.code == "rule/no_clock_running"


def test_only_the_referee_times_a_seat_out_and_only_the_moderator_extends_a_clock():
    table = Table()
    with pytest.raises(Forbidden):
        table.run(1, T0 + HOUR, type="time_out", seat=0)
    with pytest.raises(Forbidden):
        table.run(MODERATOR, T0 + HOUR, type="time_out", seat=0)
    with pytest.raises(Forbidden):
        table.run(1, T0, type="extend_clock", seat=1, seconds=60, reason="mine")


def test_wait_marks_the_seat_late_and_changes_nothing_else():
    table = Table(on_timeout="wait")
    before = table.state["rules"]
    batch = table.time_out(0, T0 + HOUR)
    assert types(batch) == ["SeatLate"]
    assert batch[0]["payload"] == {"seat": 0, "deadline": T0 + HOUR}
    assert table.state["rules"] == before and table.asked == [0]
    assert table.clock["late"] == [True, False, False, False]
    assert table.clock["deadlines"] == [None, None, None, None]
    with pytest.raises(RuleViolation):  # no clock runs: nothing is sent twice
        table.time_out(0, T0 + 2 * HOUR)


def test_a_late_seat_that_moves_is_late_no_more():
    table = Table(on_timeout="wait")
    table.time_out(0, T0 + HOUR)
    table.move(0, T0 + 2 * HOUR)
    assert table.clock["late"] == [False] * 4
    assert table.clock["deadlines"] == [None, T0 + 3 * HOUR, None, None]


def test_the_moderator_gives_a_late_seat_more_time_or_plays_for_it():
    table = Table(on_timeout="wait")
    table.time_out(0, T0 + HOUR)
    batch = table.run(
        MODERATOR, T0 + 2 * HOUR, type="extend_clock", seat=0, seconds=600, reason="ill"
    )
    assert types(batch) == ["ClockExtended"]
    assert table.clock["deadlines"][0] == T0 + 2 * HOUR + 600 and table.clock["late"][0] is False
    batch = table.run(MODERATOR, T0 + 2 * HOUR + 1, type="play_for", seat=0, reason="away")
    assert types(batch)[:2] == ["MovePlayedFor", "RaceCardPlayed"]
    assert batch[0]["payload"] == {"seat": 0, "why": "moderator", "reason": "away"}
    assert table.asked == [1]
    with pytest.raises(RuleViolation) as refused:
        table.run(MODERATOR, T0 + 2 * HOUR + 2, type="play_for", seat=0, reason="again")
    assert refused.value.code == "rule/not_asked"


def test_default_plays_the_rulesets_timeout_move_and_the_clock_goes_on():
    table = Table(on_timeout="default")
    expected = registry.get("galloping-horse").timeout_move(table.state["rules"], 0)
    batch = table.time_out(0, T0 + HOUR)
    assert batch[0]["type"] == "MovePlayedFor" and batch[0]["actor"] == REFEREE
    assert batch[0]["command"] == {"type": "time_out", "seat": 0, "now": T0 + HOUR}
    assert batch[1]["payload"] == {"seat": 0, "horse": expected["horse"]}
    assert table.clock["autopilot"] == [False] * 4
    assert table.clock["deadlines"] == [None, T0 + 2 * HOUR, None, None]


def test_autopilot_plays_for_the_seat_whenever_it_is_asked_until_it_rejoins():
    table = Table(on_timeout="autopilot")
    table.time_out(0, T0 + HOUR)
    assert table.clock["autopilot"] == [True, False, False, False]
    for seat in (1, 2):
        table.move(seat, T0 + HOUR + seat)
    batch = table.move(3, T0 + HOUR + 3)  # seat 0 is asked next: played at once
    played = [r for r in batch if r["type"] == "MovePlayedFor"]
    assert [p["payload"] for p in played] == [{"seat": 0, "why": "autopilot"}]
    assert table.asked == [1]
    table.run(0, T0 + HOUR + 4, type="rejoin")
    assert table.clock["autopilot"] == [False] * 4
    with pytest.raises(RuleViolation) as refused:
        table.run(0, T0 + HOUR + 5, type="rejoin")
    assert refused.value.code == "rule/not_on_autopilot"


def test_a_new_player_takes_the_seat_off_autopilot_with_a_fresh_clock():
    table = Table(on_timeout="autopilot")
    table.time_out(0, T0 + HOUR)
    table.run(MODERATOR, T0 + HOUR + 9, type="replace_player", seat=0, name="Kit", reason="left")
    assert table.clock["autopilot"][0] is False


def test_a_seat_takes_its_own_extensions_while_it_has_some():
    table = Table(extensions=1)
    batch = table.run(0, T0 + 10, type="take_extension")
    assert batch[0]["payload"] == {"seat": 0, "deadline": T0 + 2 * HOUR, "by": "seat"}
    assert table.clock["deadlines"][0] == T0 + 2 * HOUR
    assert table.clock["extensions_left"] == [0, 1, 1, 1]
    with pytest.raises(RuleViolation) as refused:
        table.run(0, T0 + 20, type="take_extension")
    assert refused.value.code == "rule/no_extensions_left"
    with pytest.raises(RuleViolation) as refused:
        table.run(1, T0 + 20, type="take_extension")
    assert refused.value.code == "rule/no_clock_running"


def test_a_pause_stops_every_clock_and_resume_moves_the_deadlines_by_the_pause():
    table = Table(on_timeout="default")
    table.run(MODERATOR, T0 + 100, type="pause", reason="holiday")
    with pytest.raises(RuleViolation) as refused:
        table.time_out(0, T0 + 5 * HOUR)
    assert refused.value.code == "rule/paused"
    table.run(0, T0 + 200, **game.legal(table.state, 0)[0])  # moving while paused is fine
    assert table.clock["deadlines"][1] == T0 + 100 + HOUR  # counted from the pause
    batch = table.run(MODERATOR, T0 + 1100, type="resume", reason="back")
    assert batch[0]["payload"]["paused_seconds"] == 1000
    assert table.clock["deadlines"][1] == T0 + 1100 + HOUR
    assert game.view(table.state, 2)["clock"]["paused"] is False


def test_a_paused_clock_shows_the_time_each_seat_will_have_left_when_resumed():
    table = Table()
    assert game.view(table.state, None)["clock"]["left_when_resumed"] is None
    table.run(MODERATOR, T0 + 100, type="pause", reason="holiday")
    shown = game.view(table.state, None)["clock"]
    assert shown["paused_at"] == T0 + 100
    assert shown["left_when_resumed"] == [HOUR - 100, None, None, None]  # seat 0 is asked
    table.run(0, T0 + 200, **game.legal(table.state, 0)[0])  # asked during the pause
    assert game.view(table.state, 2)["clock"]["left_when_resumed"] == [None, HOUR, None, None]
    table.run(MODERATOR, T0 + 5000, type="resume", reason="back")
    shown = game.view(table.state, None)["clock"]
    assert shown["paused_at"] is None and shown["left_when_resumed"] is None
    assert shown["deadlines"][1] == T0 + 5000 + HOUR


def test_bad_clock_commands_are_refused_naming_the_field():
    table = Table()
    for command, field in [
        ({"type": "extend_clock", "seat": 0, "seconds": 0, "reason": "x"}, "seconds"),
        ({"type": "extend_clock", "seat": "0", "seconds": 60, "reason": "x"}, "seat"),
        ({"type": "extend_clock", "seat": 0, "seconds": 60, "reason": " "}, "reason"),
        ({"type": "play_for", "seat": 0}, "reason"),
    ]:
        with pytest.raises(BadRequest) as refused:
            table.run(MODERATOR, T0, **command)
        assert refused.value.details["field"] == field
    with pytest.raises(BadRequest) as refused:
        table.run(0, T0, type="take_extension", seconds=5)
    assert refused.value.details["field"] == "seconds"


# --- every ruleset in turns, its seats silent ----------------------------------------


def play_silently(table: Table) -> int:
    """Let every clock run out, earliest first, until play stops; the timeouts taken."""
    timeouts = 0
    while not game.is_over(table.state):
        deadlines = [(d, s) for s, d in enumerate(table.clock["deadlines"]) if d is not None]
        assert deadlines, f"nobody is on the clock: {game.to_move(table.state)}"
        deadline, seat = min(deadlines)
        table.time_out(seat, deadline)
        timeouts += 1
        assert timeouts < 5_000
    return timeouts


@pytest.mark.parametrize("on_timeout", ["default", "autopilot"])
@pytest.mark.parametrize(("ruleset", "options"), TABLES)
def test_silent_seats_reach_the_end_and_the_log_verifies(ruleset, options, on_timeout):
    table = Table(ruleset, options=options, on_timeout=on_timeout)
    timeouts = play_silently(table)
    assert table.state["status"] == "finished" and table.state["outcome"]["winners"]
    assert [r["type"] for r in table.records[-2:]] == ["GameEnded", "SeedRevealed"]
    if on_timeout == "autopilot":  # every seat timed out once, then was played for
        assert timeouts == len(table.state["players"])
    report = verify_events(sealed(table.records))
    assert report.valid, f"seq {report.seq} {report.code}: {report.reason}"


@pytest.mark.parametrize(("ruleset", "options"), TABLES)
def test_the_timeout_move_is_always_legal(ruleset, options):
    """In every state of seeded games played by timeouts and own moves, for every seat
    asked, the ruleset's timeout move is one of its legal commands."""
    rules = registry.get(ruleset)
    for i in range(3):
        table = Table(ruleset, seed=f"{SEED}/{i}", options=options, on_timeout="default")
        now, turn = T0, 0
        while not game.is_over(table.state):
            for seat in table.asked:
                assert rules.timeout_move(table.state["rules"], seat) in game.legal(
                    table.state, seat
                )
            seat, turn = table.asked[0], turn + 1
            if turn % 2:
                now = table.clock["deadlines"][seat]
                table.time_out(seat, now)
            else:
                now += 1
                table.move(seat, now)


def test_standing_choices_work_in_a_clocked_game_and_restart_the_seats_clock():
    table = Table("royal-turf", seats=3, on_timeout="default")
    for seat in range(3):
        batch = table.run(seat, T0 + seat, type="set_standing_choices", choices=["move_only_horse"])
        assert batch[0]["type"] == "StandingChoicesSet"
    now, answered = T0 + 10, 0
    while not game.is_over(table.state):
        seat = table.asked[0]
        now += 1
        batch = table.move(seat, now)
        answered += sum(r["type"] == "StandingChoiceApplied" for r in batch)
    assert answered > 0
    assert verify_events(sealed(table.records)).valid
