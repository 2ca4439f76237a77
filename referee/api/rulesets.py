"""GET /rulesets and /rulesets/{id}: what can be played and how to command it."""

from types import ModuleType

from flask_smorest import Blueprint

from schemas import ErrorResponseSchema, RulesetSchema

from ..engine import clocks, registry, standing
from ..engine.game import command_shapes
from ..engine.rounds import has_rounds
from ..games import bot_levels

bp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="The rule sets served.")


def describe(rules: ModuleType) -> dict:
    """The public description of one ruleset."""
    commands, moderating = command_shapes(rules)
    return {
        "id": rules.NAME,
        "version": rules.VERSION,
        "min_players": rules.MIN_PLAYERS,
        "max_players": rules.MAX_PLAYERS,
        "default_players": getattr(rules, "DEFAULT_PLAYERS", rules.MIN_PLAYERS),
        "options": rules.OPTIONS,
        "option_texts": getattr(rules, "OPTION_TEXTS", {}),
        "commands": commands,
        "moderator_commands": moderating,
        "content": getattr(rules, "CONTENT", {}),
        "clock": None if has_rounds(rules) else CLOCK,
        "standing_choices": standing.offered(rules),
        "bot_levels": bot_levels(rules),
    }


# what a game in turns may be created with, and the commands a clocked game adds
CLOCK = {
    "settings": clocks.SETTINGS,
    "commands": clocks.SEAT_COMMANDS,
    "moderator_commands": clocks.MODERATOR_COMMANDS,
}


@bp.route("")
@bp.response(200, RulesetSchema(many=True))
def list_rulesets():
    """Every ruleset the referee serves."""
    return [describe(registry.get(name)) for name in registry.names()]


@bp.route("/<ruleset_id>")
@bp.response(200, RulesetSchema)
@bp.alt_response(404, schema=ErrorResponseSchema)
def get_ruleset(ruleset_id: str):
    """One ruleset: players, options with defaults and texts, command shapes, content."""
    return describe(registry.get(ruleset_id))
