"""The browser pages: moderator, player and spectator pages over the Referee service.

Security (docs/pages.md): invite tokens live in HttpOnly SameSite=Strict cookies, every
form carries a CSRF token (Flask-WTF), pages send a Content-Security-Policy without
inline scripts, and nothing is sent as a Referer."""

import json
import os
from typing import Any

from flask import Flask, Response, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect

from . import pages, replay, secret

csrf = CSRFProtect()

POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)


def init_app(app: Flask) -> None:
    """Attach the pages, their session key and CSRF protection to the app."""
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("REFEREE_SECRET_KEY") or secret.key_beside(
            app.config["REFEREE_DB"]
        )
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Strict")
    app.config.setdefault("SESSION_COOKIE_HTTPONLY", True)
    # forms stay open for days in a play-by-post game; and with no Referer sent, the
    # HTTPS Referer check would refuse every form (SameSite cookies and the token guard)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # the API takes tokens, not cookies
    csrf.init_app(app)
    app.jinja_env.filters["fromjson"] = json.loads
    app.jinja_env.filters["duration"] = duration
    app.jinja_env.filters["sentence"] = sentence
    app.register_blueprint(pages.bp)
    app.register_blueprint(replay.bp)
    app.register_error_handler(CSRFError, _csrf_refused)
    app.after_request(_headers)


@pages.bp.before_request
def _check_csrf() -> None:
    if request.method == "POST":
        csrf.protect()


def _csrf_refused(error: CSRFError) -> Any:
    page = render_template("refused.html", reason=error.description)
    return Response(page, 400)


def _headers(response: Response) -> Response:
    """No Referer ever; pages (HTML) also get the Content-Security-Policy."""
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html" and not request.path.startswith("/docs"):
        response.headers.setdefault("Content-Security-Policy", POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def sentence(text: str) -> str:
    """Text as a sentence: its first letter a capital, the rest as written (names kept)."""
    return text[:1].upper() + text[1:]


def duration(seconds: int) -> str:
    """Seconds as a person says them: `1 day 2 hours`, `30 minutes`."""
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}{'s' if count != 1 else ''}")
    return " ".join(parts) or f"{seconds} seconds"
