"""The Flask application factory."""

from collections.abc import Callable
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import api, games, web  # noqa: F401  (games registers the rulesets)
from .engine import registry
from .live import Herald, Hub
from .ops import health, limits, settings
from .runtime import answers
from .runtime.gate import Gate
from .service import Referee
from .store import DEFAULT_PATH, open_store

# the pages and the API list every ruleset: all are imported with the app (before a
# server forks its processes), not on a first request
for _ruleset in registry.names():
    registry.get(_ruleset)

DEFAULTS: dict[str, Any] = {
    "REFEREE_DB": DEFAULT_PATH,
    "SNAPSHOT_EVERY": 100,
    "SWEEP_SECONDS": 2.0,
    # seconds a worker may hold a task unacknowledged before Redis hands it out again;
    # a timed task is sent only for a deadline within ARMING_SECONDS, which is kept at
    # most half of it (and at most 600 s): docs/rounds.md, "When"
    "VISIBILITY_TIMEOUT": 3600,
    "ARMING_SECONDS": 600,
    # a bot move not made this many seconds after it was sent is sent again by the
    # sweeper (its task was lost); a move takes a second or two (docs/bots.md)
    "BOT_RESEND_SECONDS": 60,
    # the strong bot's budget in search iterations a move; 0 keeps each ruleset's own
    # (about a second of one core, docs/bots.md); a smaller host or a test sets fewer
    "BOT_ITERATIONS": 0,
    "API_TITLE": "referee",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    # Swagger UI's scripts and styles from the installed swagger-ui-bundle, served here
    # (api.SWAGGER_ASSETS): the docs page works offline
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
    "STORE_BUSY_SECONDS": 5.0,  # a write waits this long for the lock, then 503 store/busy
    "MAX_CONTENT_LENGTH": 1 << 20,
    "IMPORT_MAX_BYTES": 64 << 20,  # a log of some 100,000 events
    "IMPORT_MAX_EVENTS": 100_000,
    # when set, creating and importing games take `X-Operator-Key: <key>` (docs/deployment.md)
    "OPERATOR_KEY": None,
    "STREAM_WAKE": 15.0,  # seconds: a live stream's keep-alive, and its look at the store
    # uploads kept for the replay page: everyone's together, and each client address's
    # (docs/deployment.md); past them the oldest go first
    "UPLOAD_TOTAL_BYTES": 512 << 20,
    "UPLOAD_CLIENT_BYTES": 64 << 20,
    # free space on the database's file system below which readiness warns
    "DISK_FLOOR": health.DISK_FLOOR,
    "STREAMS_PER_CLIENT": 32,  # live streams one client address holds in a web process
    # reverse proxies in front whose X-Forwarded-For, -Proto and -Host are believed (0: the
    # client is whoever connected); behind one, each visitor is counted as itself
    "PROXIES": 0,
    # where people reach the service (https://referee.example.org): links to board images in
    # notifications; pages and the API use the address they were asked on when it is unset
    "PUBLIC_URL": None,
    # private targets notifications may reach on purpose, as "10.0.0.0/8,hooks.internal"
    # (docs/notifications.md); NOTIFY_MAX_PER_ROLE and NOTIFY_MAX_PER_GAME raise the caps
    "NOTIFY_ALLOW": "",
}


class App(Flask):
    """Flask, asking once per function whether it is a coroutine (Flask asks for every
    hook and view on every request, and none of this app's is one)."""

    SYNCED_KEPT = 1024  # functions remembered; past that, asked each time again

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        synced = self._synced.get(func)
        if synced is None:
            synced = super().ensure_sync(func)
            if len(self._synced) < self.SYNCED_KEPT:
                self._synced[func] = synced
        return synced


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; REFEREE_DB (config or environment) names the SQLite file."""
    app = App(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.update(settings.read(settings.APP))  # SettingError names a bad one
    if test_config:
        app.config.from_mapping(test_config)
    _read_sizes(app)
    if app.config["PROXIES"]:
        hops = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    answers.init_app(app)
    store = open_store(app.config["REFEREE_DB"], busy_seconds=app.config["STORE_BUSY_SECONDS"])
    herald = Herald(Hub(), app.config.get("REDIS_URL") or None)
    app.extensions["referee"] = Referee(
        store, snapshot_every=app.config["SNAPSHOT_EVERY"], herald=herald
    )
    app.extensions["referee"].public_url = app.config["PUBLIC_URL"]
    app.extensions["stream_gate"] = Gate(app.config["STREAMS_PER_CLIENT"])
    api.init_app(app)
    web.init_app(app)
    limits.init_app(app)  # over the API's and the pages' routes
    app.extensions["referee"].subscriptions.configure(app.config)  # what notices may reach
    if app.config.get("REDIS_URL"):
        from workers.celery_app import celery_init_app

        celery_init_app(app)
    return app


def _read_sizes(app: Flask) -> None:
    """The upload budgets in bytes, and the disk floor checked, before anything is served."""
    for name in ("UPLOAD_TOTAL_BYTES", "UPLOAD_CLIENT_BYTES"):
        app.config[name] = settings.size(app.config[name], name)
    settings.floor_bytes(app.config["DISK_FLOOR"], 1 << 40)  # ValueError if it is not one
