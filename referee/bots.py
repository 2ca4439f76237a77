"""Random legal bots: they play whole games through the same engine and store."""

from typing import Any

from .engine import game
from .engine.rng import Rng
from .service import Referee


def choose(state: game.State, stream_rng: Rng, turn: int) -> tuple[int, dict[str, Any]]:
    """A uniformly random seat among those to move, and a random legal command of it."""
    rules = game.rules_of(state)
    seats = rules.to_move(state["rules"])
    seat = seats[stream_rng.below(f"seat/{turn}", len(seats))]
    options = rules.legal(state["rules"], seat)
    if not options:
        raise RuntimeError(f"seat {seat} is to move but has no legal command")
    return seat, options[stream_rng.below(f"command/{turn}", len(options))]


def play(
    referee: Referee,
    ruleset: str,
    players: list[str],
    *,
    seed: str,
    options: dict[str, Any] | None = None,
    game_id: str | None = None,
    max_commands: int = 100_000,
) -> str:
    """Create a game and play it to its end with random bots; returns the game id."""
    created = referee.create_game(ruleset, players, options or {}, seed, game_id=game_id)
    game_id = created["game_id"]
    bot_rng = Rng(f"bot:{seed}")
    for turn in range(max_commands):
        state = referee.state(game_id)
        if game.is_over(state):
            return game_id
        seat, command = choose(state, bot_rng, turn)
        referee.command(game_id, seat, command)
    raise RuntimeError(f"game {game_id} did not end within {max_commands} commands")
