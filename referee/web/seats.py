"""Who a browser is in a game: the token of its invite link, kept in a cookie.

An invite link carries its token once (`/join/{game}?token=...`); the page trades it for
a cookie for that game (HttpOnly, SameSite=Strict, never readable by a script or sent by
another site) and sends the browser on to a URL without it. The cookie is checked on
every request like a bearer token: a replaced player's cookie stops counting at once."""

from flask import request
from werkzeug.wrappers import Response

from ..engine.errors import RefereeError
from ..service import Referee, Viewer

COOKIE_DAYS = 365  # a play-by-post game can run for months


def cookie_name(game_id: str) -> str:
    """The cookie that holds this game's token."""
    return f"seat-{game_id}"


def token_of(game_id: str) -> str | None:
    """The token this browser holds for the game, if any."""
    return request.cookies.get(cookie_name(game_id)) or None


def viewer_of(service: Referee, game_id: str) -> tuple[Viewer, bool]:
    """(viewer, lost): the seat or moderator this browser's cookie stands for, None for a
    spectator; `lost` when it holds a token that no longer counts (a replaced player)."""
    token = token_of(game_id)
    if token is None:
        return None, False
    try:
        return service.viewer(game_id, token), False
    except RefereeError:
        return None, True


def keep(response: Response, game_id: str, token: str) -> Response:
    """The response, setting this game's cookie to `token`."""
    response.set_cookie(
        cookie_name(game_id),
        token,
        max_age=COOKIE_DAYS * 86400,
        path="/",
        secure=request.is_secure,
        httponly=True,
        samesite="Strict",
    )
    return response


def forget(response: Response, game_id: str) -> Response:
    """The response, dropping this game's cookie."""
    response.delete_cookie(
        cookie_name(game_id), path="/", secure=request.is_secure, httponly=True, samesite="Strict"
    )
    return response
