"""Where bots play: one bot move for a seat, chosen from what the seat sees and sent as
the seat's own command (docs/bots.md, "Where bots play"); which levels play a ruleset
here is referee.games.bot_levels. A Celery task runs `play_move`; nothing here runs in a
web request."""

import logging
import os

from ..engine import game, seating
from ..engine.errors import Conflict, RuleViolation
from ..engine.rng import Rng
from ..service import Referee
from . import levels

log = logging.getLogger("referee.bots")
# what a bot move came to: sent; the game moved past the version (`stale`); the seat is
# not asked or its bot is gone (`not_asked`); the seat has nothing legal (`no_move`)
PLAYED, STALE, NOT_ASKED, NO_MOVE = "played", "stale", "not_asked", "no_move"


def bot_rng() -> Rng:
    """A bot's randomness for one move: fresh from the operating system, never the
    game's seed, kept nowhere (the log records the move; nobody needs to re-draw it)."""
    return Rng(os.urandom(32).hex())


def play_move(
    referee: Referee, game_id: str, version: int, seat: int, iterations: int | None = None
) -> str:
    """The move of the bot holding `seat`, if the game is still at `version` and asks the
    seat: chosen from the seat's view alone and sent as the seat's command, with
    `expected_version` and the idempotency key `bot/<game>/<version>/<seat>`, so that a
    task run twice appends once and a stale one appends nothing. `iterations` is the strong
    bot's budget (None: the ruleset's own)."""
    state = referee.state(game_id)
    if state["seq"] != version:
        return STALE
    level = seating.bot_of(state, seat)
    if level is None or game.is_closed(state) or seat not in game.to_move(state):
        return NOT_ASKED
    view = game.view(state, seat)
    if not view["legal"]:
        log.warning("game %s: seat %d is asked but has no legal move", game_id, seat)
        return NO_MOVE
    command = levels.choose(view, seat, level, bot_rng(), iterations=iterations)
    key = f"bot/{game_id}/{version}/{seat}"
    try:
        referee.command(
            game_id, seat, command, expected_version=version, idempotency_key=key, bot=level
        )
    except Conflict:
        return STALE  # another run of this task, or another command, got there first
    except RuleViolation as refused:
        if refused.code in ("game/over", "rule/not_the_bot"):
            return NOT_ASKED
        raise
    return PLAYED
