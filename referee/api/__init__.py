"""The HTTP API: flask-smorest blueprints, one per noun, and JSON errors everywhere.

Only the app imports it. It stands on the theatre, the service and everything below
them (docs/architecture.md), and never imports a page: what the pages share with it
lives lower (canonical_json in the engine, a ruleset's description in referee.games)."""

from flask import Flask, jsonify, send_from_directory
from flask_smorest import Api
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from ..engine.errors import RefereeError
from . import disputes, games, health, imports, openapi, rulesets, subscriptions

STATUS_CODES = {
    400: "request/invalid",
    401: "auth/unauthorized",
    403: "auth/forbidden",
    404: "not_found",
    405: "request/method_not_allowed",
    413: "request/too_large",
    414: "request/uri_too_long",
    415: "request/unsupported_media_type",
    429: "rate/limited",
}


class RefereeApi(Api):
    """flask-smorest's Api with the referee's error shape."""

    def handle_http_exception(self, error: HTTPException):
        """Every HTTP error as {"error": {"code", "message", "details"}}."""
        status = error.code or 500
        messages = (getattr(error, "data", None) or {}).get("messages")
        if messages:
            return _error(400, "request/invalid", _first_message(messages), {"fields": messages})
        code = STATUS_CODES.get(status, "server/error")
        message = (error.description or code) if status < 500 else "internal error"
        body, status = _error(status, code, message, {})
        # what the error says in its headers stays (405: Allow; 401: WWW-Authenticate)
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        return body, status, headers


def _first_message(messages: dict) -> str:
    """The first field error, named by its path (`players.0: Shorter than ...`)."""
    path: list[str] = []
    node: object = messages
    while isinstance(node, dict) and node:
        key = next(iter(node))
        path.append(str(key))
        node = node[key]
    text = node[0] if isinstance(node, list) and node else str(node)
    fields = [p for p in path if p not in ("json", "query", "headers", "_schema")]
    return f"{'.'.join(fields)}: {text}" if fields else str(text)


def _error(status: int, code: str, message: str, details: dict):
    return jsonify({"error": {"code": code, "message": message, "details": details}}), status


class GameId(BaseConverter):
    """A game id in a path: any segment but the names of the routes beside it (so
    `GET /games/import` is 405, not a search for a game called `import`)."""

    regex = r"(?!import(?:/|$))[^/]+"


def init_app(app: Flask) -> None:
    """Attach the API and its blueprints to the app."""
    app.url_map.converters["game_id"] = GameId
    api = RefereeApi(app)
    api.register_converter(GameId, lambda _: {"type": "string"})
    api.register_blueprint(imports.bp)
    api.register_blueprint(games.bp)
    api.register_blueprint(disputes.bp)
    api.register_blueprint(subscriptions.bp)
    api.register_blueprint(rulesets.bp)
    api.register_blueprint(health.bp)
    openapi.document(api.spec)
    app.register_error_handler(RefereeError, _referee_error)
    app.add_url_rule("/docs/assets/<path:name>", "swagger_assets", _swagger_asset)


def _swagger_asset(name: str):
    """A file of Swagger UI, from the swagger-ui-bundle package (no CDN: /docs works
    offline)."""
    return send_from_directory(str(swagger_ui_path), name, max_age=86400)


def _referee_error(error: RefereeError):
    """A RefereeError as JSON; a busy store's 503 says when to send again (Retry-After)."""
    body, status = _error(error.status, error.code, error.message, error.details)
    retry_after = getattr(error, "retry_after", None)
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return body, status, headers
