"""Random legal bots: they play whole games through the same engine and store."""

from typing import Any

from ..engine import game
from ..engine.events import REFEREE
from ..engine.rng import Rng
from ..service import Referee

# in a game in rounds, the chance at each bot turn that the deadline passes first
DEADLINE_ODDS = 25


def choose(state: game.State, stream_rng: Rng, turn: int) -> tuple[Any, dict[str, Any]]:
    """A uniformly random actor among those to move, and a random legal command of it.

    In a game played in rounds the command carries the time (`now`): just before the
    deadline, or the deadline itself when the bots let it pass; the referee resolves a
    round once it is closed or (1 turn in DEADLINE_ODDS) its deadline passes."""
    current = state.get("rounds", {}).get("current")
    if current is not None and (
        current["closed"] or stream_rng.below(f"deadline/{turn}", DEADLINE_ODDS) == 0
    ):
        now = current["deadline"] - 1 if current["closed"] else current["deadline"]
        return REFEREE, {"type": "resolve_round", "round": current["round"], "now": now}
    actors = game.to_move(state)
    actor = actors[stream_rng.below(f"seat/{turn}", len(actors))]
    options = game.legal(state, actor)
    if not options:
        raise RuntimeError(f"{actor} is to move but has no legal command")
    weights = getattr(game.rules_of(state), "BOT_TYPE_WEIGHTS", None)
    if weights is not None:
        options = _one_type(options, weights, stream_rng, turn)
    command = options[stream_rng.below(f"command/{turn}", len(options))]
    return actor, timed(state, command)


def _one_type(
    options: list[dict[str, Any]], weights: dict[str, int], stream_rng: Rng, turn: int
) -> list[dict[str, Any]]:
    """The legal commands of one type, drawn first by the ruleset's weights (1 for a type
    it does not name), for rulesets whose lists are long in some types (every payment,
    every rail) and short in others (decline, pass). Every legal command stays possible."""
    kinds = sorted({c["type"] for c in options})
    ticket = stream_rng.below(f"type/{turn}", sum(weights.get(k, 1) for k in kinds))
    for kind in kinds:
        ticket -= weights.get(kind, 1)
        if ticket < 0:
            break
    return [c for c in options if c["type"] == kind]


def timed(state: game.State, command: dict[str, Any]) -> dict[str, Any]:
    """The command with a time in it, for a game in rounds: just before the deadline."""
    rounds = state.get("rounds")
    if rounds is None:
        return command
    current = rounds["current"]
    now = current["deadline"] - 1 if current else rounds["last_deadline"] or 0
    return {**command, "now": now}


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
        if game.is_closed(state):
            return game_id
        actor, command = choose(state, bot_rng, turn)
        now = command.pop("now", None)
        referee.command(game_id, actor, command, now=now)
    raise RuntimeError(f"game {game_id} did not end within {max_commands} commands")
