"""GET /rulesets and /rulesets/{id}: what can be played and how to command it."""

from flask_smorest import Blueprint

from schemas import ErrorResponseSchema, RulesetSchema

from ..engine import registry
from ..games import describe

bp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="The rule sets served.")


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
