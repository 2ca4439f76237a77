"""A seat's notices never hold what the rules hide from it: in every batch of seeded bot
games of every ruleset, no notice built for a seat holds the salt or the payload of an
event that seat may not see."""

import json

import pytest

from referee import games  # noqa: F401  (registers the rulesets)
from referee.bots import choose
from referee.engine import game, registry
from referee.engine.events import may_see
from referee.engine.rng import Rng
from referee.notify.notices import deadlines, notices

T0 = 1_800_000_000


def hidden_strings(batch: list[dict], seat: int) -> list[str]:
    """The salts and payload texts of the batch's events the seat may not see."""
    out = []
    for record in batch:
        if may_see(record["visibility"], seat):
            continue
        if record.get("salt"):
            out.append(record["salt"])
        for value in record["payload"].values():
            text = json.dumps(value, sort_keys=True)
            if len(text) >= 6:  # short values (a seat number, true) say nothing alone
                out.append(text)
    return out


@pytest.mark.parametrize("ruleset", registry.names())
def test_no_seats_notice_holds_a_secret_hidden_from_it(ruleset):
    rules = registry.get(ruleset)
    told = 0
    for i in range(3):
        seed = f"notices/{ruleset}/{i}"
        seats = rules.MIN_PLAYERS + i % (rules.MAX_PLAYERS - rules.MIN_PLAYERS + 1)
        state = game.fold(game.create(ruleset, [f"p{s}" for s in range(seats)], {}, seed, now=T0))
        bot = Rng(f"bot:{seed}")
        for turn in range(400):
            if game.is_over(state):
                break
            actor, command = choose(state, bot, turn)
            batch, after = game.step(state, actor, command, seed)
            for seat in range(seats):
                shown = [game.redact(r, seat, game.is_over(after)) for r in batch]
                found = notices("g", seat, shown, game.view(state, seat), game.view(after, seat))
                text = json.dumps(found, sort_keys=True)
                if game.is_over(after):
                    continue  # everything is public once play stops
                leaked = [h for h in hidden_strings(batch, seat) if h in text]
                assert not leaked, f"seat {seat} was told {leaked[0]} at seq {batch[0]['seq']}"
                told += len(found)
            state = after
    assert told > 0


def test_a_player_whose_bot_plays_is_not_told_it_is_their_move():
    """Ann hands her seat to a bot: when the turn comes round to her seat, she is not
    told it is her move (it is her bot's) and has no deadline to be reminded of; in the
    same game with Ann at the table, she is."""
    clock = {"seconds": 3600, "on_timeout": "wait"}
    players = ["Ann", "Ben", "Cat", "Dan"]
    for holiday in (False, True):
        state = game.fold(game.create("galloping-horse", players, {}, "n", now=T0, clock=clock))
        if holiday:
            state = game.step(state, 0, {"type": "hand_to_bot", "level": "random", "now": T0}, "n")[
                1
            ]
        for seat in (0, 1, 2, 3):
            before = state
            bot = {"bot": "random"} if holiday and seat == 0 else {}
            move = {**game.legal(state, seat)[0], **bot, "now": T0}
            batch, state = game.step(state, seat, move, "n")
        assert game.to_move(state) == [0]
        views = [game.view(s, 0) for s in (before, state)]
        told = [n["kind"] for n in notices("g", 0, batch, *views)]
        assert ("your_move" in told) is not holiday
        assert bool(deadlines(views[1], 0)) is not holiday
