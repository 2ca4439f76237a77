"""Rate limits per client address (flask-limiter), on by default: for creating games (by
the API or the new-game page), importing logs and uploading them to the replay, and
commands (the API's, the pages' forms, disputes and subscriptions). The operator turns
them off with REFEREE_RATE_LIMITS=off (the app's RATE_LIMITS). Counted in the Redis the
service already has, and in this process's memory while that Redis does not answer (or
when there is none). docs/deployment.md says what to set behind a proxy.

Also how a host writes sizes (`512MiB`) and switches (`on`, `off`) in its settings."""

import logging
import time

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse

from ..engine.errors import TooMany

# the config key of a limit -> the endpoints that share its count (POST only), so that
# a client has one count per kind of write whichever route it takes
LIMITED = {
    "RATE_LIMIT_CREATE": ("games.create_game", "pages.new_game"),
    "RATE_LIMIT_IMPORT": ("imports.import_game", "replay.upload", "replay.import_upload"),
    "RATE_LIMIT_COMMANDS": (
        "games.post_command",
        "disputes.open_dispute",
        "disputes.rule_dispute",
        "subscriptions.subscribe",
        "pages.move",
        "pages.orders",
        "pages.standing_choices",
        "pages.moderate",
        "pages.subscribe",
    ),
}
# limits counted over every client together: what bounds the whole, whatever number of
# addresses the writes come from (docs/security.md)
IN_ALL = {"RATE_LIMIT_CREATE_IN_ALL": LIMITED["RATE_LIMIT_CREATE"]}
DEFAULTS = {
    "RATE_LIMITS": True,
    "RATE_LIMIT_CREATE": "20 per minute;200 per day",
    "RATE_LIMIT_CREATE_IN_ALL": "120 per minute;5000 per day",
    "RATE_LIMIT_IMPORT": "10 per minute;100 per day",
    "RATE_LIMIT_COMMANDS": "120 per minute",
    # imported games are kept for good: MiB a day, a client's and all clients' together
    "IMPORT_MIB_PER_CLIENT": "256 per day",
    "IMPORT_MIB_IN_ALL": "2048 per day",
}
MIB = 1 << 20
log = logging.getLogger("referee.limits")


def storage_uri(broker: str | None) -> str:
    """The limits library's URI for the broker (kombu's redis+socket:// is redis+unix://)."""
    if not broker:
        return "memory://"
    if broker.startswith("redis+socket://"):
        return "redis+unix://" + broker.removeprefix("redis+socket://")
    return broker


def client() -> str:
    """The client's address as the rate limits count it (behind a proxy, the address
    ProxyFix makes of its headers)."""
    return get_remote_address()


def init_app(app: Flask) -> None:
    """Wrap the limited endpoints of an app whose blueprints are registered."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if not app.config["RATE_LIMITS"]:
        return
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(app.config.get("REDIS_URL")))
    app.config.setdefault(
        "RATELIMIT_STORAGE_OPTIONS", {"socket_timeout": 1, "socket_connect_timeout": 1}
    )
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "referee:limits")
    app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")  # no burst at a window's edge
    limiter = Limiter(
        client,
        app=app,
        headers_enabled=True,
        in_memory_fallback_enabled=True,  # Redis gone: count here rather than refuse all
        swallow_errors=True,  # a storage error never turns a request into a 500
    )
    app.extensions["referee_limiter"] = limiter
    for key, endpoints in LIMITED.items():
        shared = limiter.shared_limit(app.config[key], scope=key, methods=["POST"])
        for endpoint in endpoints:
            app.view_functions[endpoint] = shared(app.view_functions[endpoint])  # type: ignore[assignment]
    for key, endpoints in IN_ALL.items():
        everyone = limiter.shared_limit(
            app.config[key], scope=key, methods=["POST"], key_func=lambda: "everyone"
        )
        for endpoint in endpoints:
            app.view_functions[endpoint] = everyone(app.view_functions[endpoint])  # type: ignore[assignment]


def charge_import(size: int) -> None:
    """Count an import of `size` bytes (in MiB, rounded up) against its client's daily
    budget and everyone's; TooMany past either, and nothing is counted. A count the
    limits' storage cannot take lets the import through (as the rate limits do)."""
    limiter = current_app.extensions.get("referee_limiter")
    if limiter is None:  # the limits are off
        return
    cost = max(1, -(-size // MIB))
    budgets = [
        (parse(current_app.config["IMPORT_MIB_PER_CLIENT"]), client()),
        (parse(current_app.config["IMPORT_MIB_IN_ALL"]), "everyone"),
    ]
    try:
        for item, who in budgets:
            if not limiter.limiter.test(item, "import-mib", who, cost=cost):
                refused = TooMany(
                    "import/budget",
                    f"imports of {item.amount} MiB a {item.GRANULARITY.name} are taken"
                    f" {'from this address' if who != 'everyone' else 'on this host'};"
                    " try again later",
                    {"mib": cost},
                )
                reset = limiter.limiter.get_window_stats(item, "import-mib", who).reset_time
                refused.retry_after = max(1, int(reset - time.time()) + 1)
                raise refused
        for item, who in budgets:
            limiter.limiter.hit(item, "import-mib", who, cost=cost)
    except TooMany:
        raise
    except Exception as exc:  # noqa: BLE001 - a storage fault never refuses an import
        log.warning("import budget not counted (%s)", type(exc).__name__)
