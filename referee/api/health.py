"""GET /healthz (the process answers) and GET /readyz (it can do its job), for an
operator's monitor or a supervisor."""

from flask import current_app
from flask_smorest import Blueprint

from schemas import HealthSchema

from ..ops.health import readiness
from .games import referee

bp = Blueprint("health", __name__, url_prefix="", description="Liveness and readiness.")


@bp.route("/healthz")
@bp.response(200, HealthSchema)
def healthz():
    """Liveness: the process answers HTTP."""
    return {"status": "alive"}


@bp.route("/readyz")
@bp.response(200, HealthSchema)
@bp.alt_response(503, schema=HealthSchema, description="Not ready: a check failed.")
def readyz():
    """Readiness: the database takes writes and its disk does not refuse them, the broker
    answers, a worker swept the rounds within the last few sweep intervals, and no
    round waits long past its deadline. 503 with the same body when any check fails;
    free space below the disk floor is a warning (`degraded`), not a failure, as is a
    node of a shared PostgreSQL store with a broker of its own."""
    config = current_app.config
    ready, checks = readiness(
        referee().store,
        config.get("REDIS_URL"),
        sweep_seconds=config["SWEEP_SECONDS"],
        disk_floor=config["DISK_FLOOR"],
        alone=bool(config.get("EMBEDDED_BROKER")),
    )
    return {"status": "ready" if ready else "not_ready", "checks": checks}, 200 if ready else 503
