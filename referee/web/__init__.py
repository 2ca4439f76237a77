"""The browser pages: moderator, player and spectator pages over the Referee service.

Security (docs/pages.md): every cookie (the session's, the invite tokens') is HttpOnly,
SameSite=Strict and Secure over HTTPS; a form another site sent is refused and every form
carries a CSRF token (Flask-WTF); pages send a Content-Security-Policy without inline
scripts, and no Referer ever leaves the site.

Only the app imports it. It stands on the theatre, the service and everything below
them (docs/architecture.md), and never imports the API."""

import json
import os
from typing import Any

from flask import Flask, Response, render_template, request
from flask_wtf.csrf import CSRFError

from ..runtime.answers import CookieSessions
from . import origin, pages, replay, secret
from .origin import csrf, protect

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
        app.config["SECRET_KEY"] = (
            os.environ.get("REFEREE_SECRET_KEY")
            or app.extensions["referee"].store.shared_secret("session")
            or secret.key_beside(app.config["REFEREE_DB"])
        )
    # set, not defaulted: Flask's own defaults hold these keys already (SameSite unset)
    app.config["SESSION_COOKIE_SAMESITE"] = "Strict"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.session_interface = SessionCookie()
    # forms stay open for days in a play-by-post game; and the HTTPS Referer check is
    # off: the Origin check (origin.py) does its work, also for a browser that sends no
    # Referer (SameSite cookies and the token guard)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # the API takes tokens, not cookies
    csrf.init_app(app)
    app.jinja_env.filters["fromjson"] = json.loads
    app.jinja_env.filters["duration"] = duration
    app.jinja_env.filters["sentence"] = sentence
    app.register_blueprint(pages.bp)
    app.register_blueprint(replay.bp)
    app.register_error_handler(CSRFError, _refused)
    app.register_error_handler(origin.CrossSite, _refused)
    app.after_request(_headers)


class SessionCookie(CookieSessions):
    """Flask's signed session cookie, Secure whenever the request came over HTTPS (as the
    invite cookies are), so it works on plain http://127.0.0.1 too; opened only for a
    request that sent it (referee/runtime/answers.py)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


@pages.bp.before_request
def _check_form() -> None:
    if request.method == "POST":
        protect()


def _refused(error: CSRFError | origin.CrossSite) -> Any:
    page = render_template("refused.html", reason=error.description)
    return Response(page, error.code or 400)


def _headers(response: Response) -> Response:
    """No Referer to another site; pages (HTML) also get the Content-Security-Policy.

    `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null`
    with the site's own forms, which the origin check must refuse."""
    headers = response.headers
    # set, not defaulted: no view sets these itself (a lookup that misses raises, and an
    # exception on every answer costs more than the answer's own headers)
    headers["Referrer-Policy"] = "same-origin"
    headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype == "text/html" and not request.path.startswith("/docs"):
        headers["Content-Security-Policy"] = POLICY
        headers["X-Frame-Options"] = "DENY"
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
