"""The bot levels and the one entry point every caller uses: `choose`.

A bot sees what its seat sees (`view`, the API's view for that seat) and draws from its
own `rng`, never the game's seed. random: a uniformly random legal command (weighted by
kind as random_play does); standard: the referee's own timeout move for the seat (for a
game in rounds, the orders a seat that sent nothing is taken to have sent); strong: the
search, not in this build yet.
"""

from importlib import import_module
from typing import Any

from ..engine import registry
from ..engine.rng import Rng
from ..engine.rounds import has_rounds

LEVELS = ("random", "standard", "strong")


def choose(
    view: dict[str, Any], seat: int, level: str, rng: Rng, *, iterations: int | None = None
) -> dict[str, Any]:
    """The command the bot of `level` sends for `seat`, from the seat's view alone."""
    if level == "random":
        return _random(view, rng)
    if level == "standard":
        return _standard(view, seat, rng)
    if level == "strong":
        raise NotImplementedError("the strong bot (the search) is not in this build yet")
    raise ValueError(f"no bot level {level!r}: the levels are {', '.join(LEVELS)}")


def _random(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    options = view["legal"]
    weights = getattr(registry.get(view["ruleset"]), "BOT_TYPE_WEIGHTS", None)
    if weights is not None:
        kinds = sorted({c["type"] for c in options})
        ticket = rng.below("type", sum(weights.get(k, 1) for k in kinds))
        for kind in kinds:
            ticket -= weights.get(kind, 1)
            if ticket < 0:
                options = [c for c in options if c["type"] == kind]
                break
    return options[rng.below("command", len(options))]


def _standard(view: dict[str, Any], seat: int, rng: Rng) -> dict[str, Any]:
    rules = registry.get(view["ruleset"])
    opened = (view.get("round") or {}).get("open")
    if has_rounds(rules) and opened:
        orders = rules.default_orders(view["state"], seat)  # reads no hidden part
        return {"type": "submit_orders", "round": opened["round"], "orders": orders}
    try:
        sample = import_module(f"{rules.__name__}.bot").sample
    except (ImportError, AttributeError):
        # no sampler yet: the first legal command, which is the timeout move of the
        # rulesets that order their commands for it (galloping-horse, dark-horse)
        return view["legal"][0]
    return rules.timeout_move(sample(view["state"], seat, rng), seat)
