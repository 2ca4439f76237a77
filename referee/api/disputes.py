"""Disputes: the moderator forks a game to see what an amendment would change, then
rules on it (kept, or amended: the game goes on in the fork)."""

from flask_smorest import Blueprint

from schemas import DisputeCreateSchema, DisputeReportSchema, RulingSchema

from ..disputes import render
from ..engine.errors import Forbidden, Unauthorized
from ..engine.events import MODERATOR
from .bodies import CanonicalJsonParser
from .games import bearer_token, error_responses, idempotency_key, referee

bp = Blueprint(
    "disputes", __name__, url_prefix="/games", description="Disputes, forks and rulings."
)
bp.ARGUMENTS_PARSER = CanonicalJsonParser()
_document_errors = error_responses(bp)


def moderator_of(game_id: str) -> None:
    """Only the game's moderator opens and rules on disputes (401 without a token, as
    for any command)."""
    viewer = referee().viewer(game_id, bearer_token())
    if viewer is None:
        raise Unauthorized("auth/required", "send the moderator's token", {})
    if viewer != MODERATOR:
        raise Forbidden("auth/moderator_only", "disputes are for the moderator", {})


@bp.route("/<game_id:game_id>/disputes", methods=["POST"])
@bp.arguments(DisputeCreateSchema(), error_status_code=400)
@bp.response(201, DisputeReportSchema)
@_document_errors
def open_dispute(body, game_id: str):
    """Record a dispute and answer with its fork: the log is forked at the amendment,
    every later command still legal is replayed, and the consequences are compared.
    An amendment the log cannot take is refused (422) and nothing is recorded."""
    moderator_of(game_id)
    command = {"type": "open_dispute", **body}
    return _answer(game_id, command)


@bp.route("/<game_id:game_id>/disputes/<int:dispute>/ruling", methods=["POST"])
@bp.arguments(RulingSchema(), error_status_code=400)
@bp.response(201, DisputeReportSchema)
@_document_errors
def rule_dispute(body, game_id: str, dispute: int):
    """Record the ruling in the game's log. `amended` opens a new game forked from this
    one at the amendment (GameForked links back here; this game is closed); tokens move
    to the fork, which goes on as the official game."""
    moderator_of(game_id)
    command = {"type": "rule_dispute", "dispute": dispute, **body}
    return _answer(game_id, command)


def _answer(game_id: str, command: dict):
    status, body = referee().command(game_id, MODERATOR, command, idempotency_key=idempotency_key())
    report = body.pop("dispute", None)
    if report is None:  # a kept ruling: the log goes on as it is
        return {**body, "dispute": command.get("dispute")}, status
    players = referee().state(game_id)["players"]
    return {**body, **report, "text": render(report, players)}, status
