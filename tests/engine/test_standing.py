"""Standing choices (docs/clocks.md): set privately, answered by the referee as the seat's
own command when the question comes, changed or cleared at any time, in the log."""

import pytest
from chained import sealed

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose
from referee.engine import game, registry
from referee.engine.errors import BadRequest
from referee.engine.rng import Rng
from referee.games.dark_horse_west import windows
from replays.verify import verify_events

SEED = "standing-seed"
EVERY = ["collect_free", "skip_card_window", "skip_extras", "gunslinger_only_way"]


class Table:
    """A game folded as it goes, every record kept."""

    def __init__(self, ruleset="dark-horse-west", seats=4, options=None, seed=SEED):
        self.seed = seed
        names = [f"p{s}" for s in range(seats)]
        self.records = game.create(ruleset, names, options or {}, seed)
        self.state = game.fold(self.records)

    def run(self, actor, **command):
        batch, self.state = game.step(self.state, actor, command, self.seed)
        self.records += batch
        return batch

    def steady(self):
        """The first seat asked plays its timeout move (a steady player's answer)."""
        seat = next(s for s in game.to_move(self.state) if isinstance(s, int))
        return self.run(seat, **game.timeout_move(self.state, seat))


def test_only_the_rulesets_own_choices_are_taken_each_once_in_its_order():
    table = Table()
    batch = table.run(2, type="set_standing_choices", choices=["skip_extras", "collect_free"])
    assert batch[0]["type"] == "StandingChoicesSet" and batch[0]["visibility"] == [2]
    assert batch[0]["payload"] == {"seat": 2, "choices": ["collect_free", "skip_extras"]}
    for choices, field in [
        (["always_win"], "choices"),
        ("collect_free", "choices"),
        ([1], "choices"),
    ]:
        with pytest.raises(BadRequest) as refused:
            table.run(2, type="set_standing_choices", choices=choices)
        assert refused.value.details["field"] == field
    with pytest.raises(BadRequest) as refused:  # a ruleset with none takes none
        Table("galloping-horse").run(0, type="set_standing_choices", choices=[])
    assert refused.value.code == "command/unknown"


def test_a_seat_sees_its_own_choices_the_moderator_all_and_nobody_else_any():
    table = Table()
    table.run(1, type="set_standing_choices", choices=["collect_free"])
    assert game.view(table.state, 1)["standing_choices"] == ["collect_free"]
    assert game.view(table.state, 0)["standing_choices"] == []
    assert game.view(table.state, "moderator")["standing_choices"][1] == ["collect_free"]
    assert "standing_choices" not in game.view(table.state, None)
    stub = game.redact(table.records[-1], 0, False)
    assert stub == {"seq": table.records[-1]["seq"], "redacted": True}


def test_a_free_collection_is_made_for_the_seat_as_its_own_command():
    table = Table()
    for seat in range(4):
        table.run(seat, type="set_standing_choices", choices=["collect_free"])
    applied = []
    while not applied:
        batch = table.steady()
        applied = [r for r in batch if r["type"] == "StandingChoiceApplied"]
    marker = applied[0]
    seat = marker["payload"]["seat"]
    assert marker["visibility"] == [seat] and marker["payload"]["choice"] == "collect_free"
    after = batch[batch.index(marker) + 1]
    assert after["type"] == "ActionCollected" and after["actor"] == seat
    assert after["payload"]["action"] in windows.FREE_ACTIONS


def test_every_choice_cuts_questions_and_the_game_still_ends_and_verifies():
    asked = {}
    for standing in (False, True):
        table = Table(seed="standing-ends")
        if standing:
            for seat in range(4):
                table.run(seat, type="set_standing_choices", choices=EVERY)
        count = 0
        while not game.is_over(table.state):
            table.steady()
            count += 1
        asked[standing] = count
        report = verify_events(sealed(table.records))
        assert report.valid, f"seq {report.seq} {report.code}: {report.reason}"
    assert asked[True] < asked[False] * 0.7


def test_a_seat_clears_its_choices_and_is_asked_again():
    table = Table()
    for seat in range(4):
        table.run(seat, type="set_standing_choices", choices=EVERY)
    for seat in range(4):
        table.run(seat, type="set_standing_choices", choices=[])
    for _ in range(300):
        if game.is_over(table.state):
            break
        assert "StandingChoiceApplied" not in [r["type"] for r in table.steady()]
    assert table.state["standing"] == [[], [], [], []]


def test_royal_turf_moves_the_only_horse_that_may_move():
    table = Table("royal-turf", seats=3)
    for seat in range(3):
        table.run(seat, type="set_standing_choices", choices=["move_only_horse"])
    seen = 0
    while not game.is_over(table.state):
        batch = table.steady()
        for index, record in enumerate(batch):
            if record["type"] != "StandingChoiceApplied":
                continue
            seen += 1
            seat, rest = record["payload"]["seat"], batch[index + 1 :]
            assert rest[0]["actor"] == seat
            assert any(r["type"] == "HorseMoved" for r in rest)
    assert seen > 0


def test_an_answer_never_depends_on_what_the_seat_alone_knows():
    """Noninterference of the answers themselves: in every state of random bot games,
    the answer given for a seat is the same whatever its hand holds (none, or cards
    from the deck) and whatever the face-down tiles and the deck's order are."""
    rules = registry.get("dark-horse-west")
    checked = 0
    for i in range(3):
        seed = f"standing-hands/{i}"
        state = game.fold(game.create("dark-horse-west", ["a", "b", "c"], {}, seed))
        bot = Rng(f"bot:{seed}")
        for turn in range(600):
            if game.is_over(state):
                break
            table = state["rules"]
            for seat in (s for s in game.to_move(state) if isinstance(s, int)):
                answer = rules.standing_answer(table, seat, EVERY)
                for varied in others_secrets(table, seat):
                    assert rules.standing_answer(varied, seat, EVERY) == answer
                checked += 1
            actor, command = choose(state, bot, turn)
            state = game.step(state, actor, command, seed)[1]
    assert checked > 300


def others_secrets(table: dict, seat: int) -> list[dict]:
    """The table with the seat's hand, the deck and the face-down tiles changed."""
    cards = sorted({*table["deck"], *(c for hand in table["hands"] for c in hand)})
    hands = [list(h) for h in table["hands"]]
    variants = []
    for hand in ([], cards[:3], cards[-4:]):
        hands[seat] = hand
        variants.append({**table, "hands": [list(h) for h in hands]})
    variants.append({**table, "deck": list(reversed(table["deck"]))})
    tiles = sorted(table["layout"].values())
    variants.append({**table, "layout": dict(zip(table["layout"], reversed(tiles), strict=True))})
    return variants
