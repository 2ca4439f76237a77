"""The bots that play a seat from its view, at three levels: the one entry point every
caller uses (the Celery task, the bench, the tests).

A bot is handed the API's view for its seat (game.view(state, seat)) and nothing else:
not the seed, the log, another seat's secrets or the moderator's view. It reads only the
fields listed in SEEN (not even the seed's commitment), and draws its randomness from its
own Rng, so given that Rng its choice is a function of what the seat sees.

- random: a uniformly random legal command (as random_play draws one: a ruleset's
  BOT_TYPE_WEIGHTS pick the command's type first);
- standard: the ruleset's timeout_move, the move a seat out of time gets; in an open
  round of a game in rounds, the orders a seat that sent nothing gets (the rules'
  default_orders);
- strong: the information-set search (search.py) with the ruleset's bot module
  (referee/games/<package>/bot.py: sample, and policy, evaluate, orders, ITERATIONS and
  PLAYOUT_MOVES where it has them).
"""

from importlib import import_module
from types import ModuleType
from typing import Any

from ..engine import game, registry
from ..engine.rng import Rng
from . import search, simulate

LEVELS = ("random", "standard", "strong")
DEFAULT_ITERATIONS = 200  # the strong level's budget for a ruleset that names none
# the parts of a seat's view a bot reads
SEEN = (
    "ruleset",
    "ruleset_version",
    "players",
    "options",
    "status",
    "version",
    "to_move",
    "state",
    "legal",
    "outcome",
    "round",
)
Command = dict[str, Any]


def choose(
    view: dict[str, Any], seat: int, level: str, rng: Rng, *, iterations: int | None = None
) -> Command:
    """The command a bot of `level` sends for `seat`, from that seat's view alone (in a
    game in rounds the caller stamps the time on it, as on any seat's command)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    seen = {key: view[key] for key in SEEN if key in view}
    if not seen["legal"]:
        raise ValueError(f"seat {seat} has no legal command now")
    if level == "random":
        return random_move(seen, rng)
    if level == "standard":
        return standard_move(seen, seat, rng)
    return strong_move(seen, seat, rng, iterations=iterations)


def random_move(view: dict[str, Any], rng: Rng) -> Command:
    """A uniformly random legal command (by type first where the ruleset weights types)."""
    label = f"random/{view['version']}"
    options = view["legal"]
    weights = getattr(registry.get(view["ruleset"]), "BOT_TYPE_WEIGHTS", None)
    if weights is not None:
        options = one_type(options, weights, rng, label)
    return dict(options[rng.below(f"{label}/command", len(options))])


def one_type(
    options: list[dict[str, Any]], weights: dict[str, int], stream_rng: Rng, turn: int | str
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


def standard_move(view: dict[str, Any], seat: int, rng: Rng) -> Command:
    """The ruleset's timeout move on a table consistent with the view (it reads only what
    the seat knows); in an open round, the orders of a seat that sent nothing."""
    rules = registry.get(view["ruleset"])
    drawn = Rng(rng.hex(f"standard/{view['version']}"))
    sampled = bot_of(view["ruleset"]).sample(view["state"], seat, drawn)
    state = simulate.table(view, seat, sampled)
    if simulate.in_round(state):
        orders = rules.default_orders(state["rules"], seat)
        return {
            "type": simulate.SUBMIT,
            "round": state["rounds"]["current"]["round"],
            "orders": orders,
        }
    if not hasattr(rules, "timeout_move"):
        return dict(view["legal"][0])
    move = game.timeout_move(state, seat)
    if move not in view["legal"]:
        raise ValueError(f"{view['ruleset']}: the timeout move {move} is not among the legal ones")
    return move


def strong_move(
    view: dict[str, Any], seat: int, rng: Rng, *, iterations: int | None = None
) -> Command:
    """The information-set search's move, with the ruleset's bot pieces and budget."""
    module = bot_of(view["ruleset"])
    pieces = search.Pieces.of(module)
    budget = (
        iterations if iterations is not None else getattr(module, "ITERATIONS", DEFAULT_ITERATIONS)
    )
    return search.search(
        view, seat, root_moves(view, seat, pieces, rng), rng, pieces=pieces, iterations=budget
    )


def root_moves(view: dict[str, Any], seat: int, pieces: search.Pieces, rng: Rng) -> list[Command]:
    """The seat's candidate moves: its legal commands; in an open round its orders alone,
    from the ruleset's `orders` when it has one (a round's orders are too many to list)."""
    opened = open_round(view)
    if opened is None:
        return list(view["legal"])
    if pieces.orders is not None:
        return search.sealed_orders(
            pieces.orders(view["state"], seat, Rng(rng.hex(f"orders/{view['version']}"))),
            opened["round"],
        )
    sealed = [c for c in view["legal"] if c.get("type") == simulate.SUBMIT]
    return sealed or list(view["legal"])


def open_round(view: dict[str, Any]) -> dict[str, Any] | None:
    """The round a seat may still send orders in, from its view (None outside one)."""
    opened = (view.get("round") or {}).get("open")
    return None if opened is None or opened["closed"] else opened


def bot_of(ruleset: str) -> ModuleType:
    """A ruleset's bot module (referee/games/<package>/bot.py)."""
    name = f"{registry.get(ruleset).__name__}.bot"
    try:
        return import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        raise LookupError(f"{ruleset} has no bot module ({name}) yet") from None
