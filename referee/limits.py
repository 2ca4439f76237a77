"""Rate limits a host sets (flask-limiter): per client address, for creating games,
importing logs and sending commands. Off unless RATE_LIMITS is on (REFEREE_RATE_LIMITS=on);
counted in the Redis the service already has, and in this process's memory while that
Redis does not answer. docs/deployment.md says what to set behind a proxy."""

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# endpoint -> the config key of its limit
LIMITED = {
    "games.create_game": "RATE_LIMIT_CREATE",
    "imports.import_game": "RATE_LIMIT_IMPORT",
    "replay.upload": "RATE_LIMIT_IMPORT",
    "replay.import_upload": "RATE_LIMIT_IMPORT",
    "games.post_command": "RATE_LIMIT_COMMANDS",
}
DEFAULTS = {
    "RATE_LIMITS": False,
    "RATE_LIMIT_CREATE": "20 per minute;200 per day",
    "RATE_LIMIT_IMPORT": "10 per minute;100 per day",
    "RATE_LIMIT_COMMANDS": "120 per minute",
}


def storage_uri(broker: str | None) -> str:
    """The limits library's URI for the broker (kombu's redis+socket:// is redis+unix://)."""
    if not broker:
        return "memory://"
    if broker.startswith("redis+socket://"):
        return "redis+unix://" + broker.removeprefix("redis+socket://")
    return broker


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
        get_remote_address,
        app=app,
        headers_enabled=True,
        in_memory_fallback_enabled=True,  # Redis gone: count here rather than refuse all
        swallow_errors=True,  # a storage error never turns a request into a 500
    )
    for endpoint, key in LIMITED.items():
        view = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(app.config[key])(view)  # type: ignore[assignment]
