"""How the app writes JSON and opens sessions, at the cost an API request can bear.

- JSON by orjson, with Flask's rules: keys sorted, no spaces. Text is UTF-8 rather than
  escaped. What orjson does not know (a date) goes through Flask's default, and a
  value it cannot hold (an integer past 64 bits) is written by the standard library.
- The signed-cookie session is opened only for a request that carries its cookie: the API
  sends none, and needs no signer built for it on every request.
- Links in answers (summaries, posts) start where people reach the service."""

from typing import Any

import orjson
from flask import Flask, Request, current_app, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, writing with orjson where it can."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # an indent, or other options of the standard library's
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, option=OPTIONS, default=self.default).decode()
        except (orjson.JSONEncodeError, TypeError):
            return super().dumps(obj)

    def response(self, *args: Any, **kwargs: Any):
        if self._app.debug:  # pretty-printed, as Flask does for a person reading
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(f"{self.dumps(obj)}\n", mimetype=self.mimetype)


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, without building a signer for a request that
    sent no session cookie."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if app.secret_key and (
            "HTTP_COOKIE" not in request.environ  # no cookie at all: the API's callers
            or not request.cookies.get(self.get_cookie_name(app))
        ):
            return self.session_class()
        return super().open_session(app, request)


def init_app(app: Flask) -> None:
    app.json = OrjsonProvider(app)
    app.session_interface = CookieSessions()


def public_base() -> str:
    """Where people reach the service: PUBLIC_URL, else the address this request came to."""
    return current_app.config.get("PUBLIC_URL") or request.url_root
