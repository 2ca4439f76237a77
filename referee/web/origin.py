"""Forms are taken from this site's own pages only.

A browser says where a form was sent from: `Sec-Fetch-Site`, and `Origin` (the scheme,
host and port of the page). A form another site's page sent is refused (403) before its
fields are read; one that names neither header (an old browser, curl, a plain form
client) is left to its CSRF token, which every form carries anyway. This site is the
address the request was made to, as the server sees it: the scheme gunicorn believes
from `X-Forwarded-Proto`, and the `Host` the proxy passes through (docs/deployment.md)."""

from urllib.parse import urlsplit

from flask import Request, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.exceptions import Forbidden

DEFAULT_PORTS = {"http": 80, "https": 443}
Site = tuple[str, str, int]
csrf = CSRFProtect()


class CrossSite(Forbidden):
    """A form another site's page sent."""

    description = "This form must be sent from this site's own pages; it came from another site."


def protect() -> None:
    """Refuse a form another site sent (403), then one without its CSRF token (400)."""
    check(request)
    csrf.protect()


def check(request: Request) -> None:
    """Raise CrossSite when the browser says another site sent the request."""
    if request.headers.get("Sec-Fetch-Site", "").strip().lower() == "cross-site":
        raise CrossSite()
    sent_from = request.headers.get("Origin")
    if sent_from is None:
        return
    site = site_of(sent_from)
    if site is None or site != site_of(f"{request.scheme}://{request.host}"):
        raise CrossSite()


def site_of(origin: str) -> Site | None:
    """(scheme, host, port) of an origin, the default port filled in; None for `null`
    (a sandboxed page, a file, a redirect from elsewhere) or anything unreadable."""
    try:
        parts = urlsplit(origin.strip())
        scheme = parts.scheme.lower()
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is not a number
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port
