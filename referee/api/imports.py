"""POST /games/import: a recorded log, verified, becomes a game here."""

from flask import current_app, request
from flask_smorest import Blueprint
from marshmallow import ValidationError

from schemas import ImportedSchema, ImportSchema

from ..engine.errors import BadRequest
from ..ops import limits
from ..theatre.imports import import_log
from .bodies import CanonicalJsonParser
from .games import error_responses, referee, require_operator

bp = Blueprint("imports", __name__, url_prefix="/games", description="Importing recorded logs.")
NDJSON = "application/x-ndjson"


@bp.route("/import", methods=["POST"])
@bp.doc(
    requestBody={
        "required": True,
        "content": {
            "application/json": {"schema": ImportSchema},
            NDJSON: {"schema": {"type": "string", "description": "a finished JSONL log"}},
        },
    }
)
@bp.response(201, ImportedSchema)
@error_responses(bp, (400, 401, 403, 409, 413, 422))
def import_game(**_):
    """Import a JSONL log after verifying it; a log that fails is refused with the seq
    and reason. The game keeps its id, hashes and times; the importer gets new tokens."""
    require_operator()
    request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
    limit = current_app.config["IMPORT_MAX_EVENTS"]
    limits.charge_import(request.content_length or len(request.get_data()))
    if request.mimetype == NDJSON:
        return import_log(referee(), request.get_data(), max_events=limit), 201
    body = _json_body()
    return import_log(
        referee(), body["log"].encode("utf-8"), body.get("seed"), max_events=limit
    ), 201


def _json_body() -> dict:
    raw = CanonicalJsonParser().load_json(request, ImportSchema())
    if not isinstance(raw, dict):
        raise BadRequest(
            "request/invalid",
            f'send the log as {NDJSON}, or as JSON {{"log": ..., "seed": ...}}',
            {"field": "log"},
        )
    try:
        return ImportSchema().load(raw)
    except ValidationError as exc:
        field = next(iter(exc.messages))
        raise BadRequest(
            "request/invalid", f"{field}: {exc.messages[field][0]}", {"fields": exc.messages}
        ) from None
