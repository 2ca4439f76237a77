"""Games: create, view, command, stream events, export the log."""

import functools
import hmac
import json
from typing import Any

from flask import Response, current_app, jsonify, request
from flask_smorest import Blueprint

from schemas import (
    BoardQuerySchema,
    CommandResultSchema,
    CommandSchema,
    ErrorResponseSchema,
    EventsQuerySchema,
    EventStreamSchema,
    GameCreatedSchema,
    GameCreateSchema,
    GameViewSchema,
    PostedSchema,
    PostQuerySchema,
    SummaryQuerySchema,
)

from ..engine import registry
from ..engine.disputes import STAMPED
from ..engine.errors import BadRequest, Forbidden, RefereeError, Unauthorized
from ..live import held_stream
from ..runtime.answers import public_base
from ..runtime.loop import beside_loop
from ..runtime.recent import Recent
from ..service import Referee
from ..theatre import boards
from ..theatre.boards import board
from .bodies import CanonicalJsonParser

BOARDS_KEPT = 256  # board images held in a process (a PNG is some 30-110 KB)
bp = Blueprint("games", __name__, url_prefix="/games", description="Games and their event logs.")
bp.ARGUMENTS_PARSER = CanonicalJsonParser()
ERRORS = (400, 401, 403, 404, 409, 422)


def referee() -> Referee:
    """The app's Referee service."""
    return current_app.extensions["referee"]


def bearer_token() -> str | None:
    """The token from `Authorization: Bearer ...`, or None for a spectator."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("auth/malformed", "use the header 'Authorization: Bearer <token>'", {})
    return token.strip()


def require_operator() -> None:
    """When the host set an operator key, creating and importing games take it in
    `X-Operator-Key` (401 without it, 403 with another)."""
    key = current_app.config.get("OPERATOR_KEY")
    if not key:
        return
    sent = request.headers.get("X-Operator-Key")
    if sent is None:
        raise Unauthorized(
            "auth/operator_key",
            "this host creates and imports games for its operator only: send X-Operator-Key",
            {"field": "X-Operator-Key"},
        )
    if not hmac.compare_digest(sent.encode("utf-8"), str(key).encode("utf-8")):
        raise Forbidden("auth/operator_key", "the operator key is not this host's", {})


def idempotency_key() -> str | None:
    """The Idempotency-Key header: 1-200 printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= 200 and key.isascii() and key.isprintable()):
        raise BadRequest(
            "request/invalid",
            "Idempotency-Key must be 1-200 printable ASCII characters",
            {"field": "Idempotency-Key"},
        )
    return key


def documents(*decorators):
    """A decorator giving a view the OpenAPI documents flask-smorest's `decorators` give
    it, and none of their wrappers: each wrapper would run on every request."""

    def document(view):
        documented = view
        for decorator in reversed(decorators):
            documented = decorator(documented)
        view._apidoc = documented._apidoc
        return view

    return document


def error_responses(blueprint: Blueprint, statuses: tuple[int, ...] = ERRORS):
    """A decorator documenting a view's error answers in the OpenAPI document. The view
    keeps only the documents (in the order of `statuses`, as stacked decorators)."""
    answers = [blueprint.alt_response(s, schema=ErrorResponseSchema) for s in statuses]
    return documents(*reversed(answers))


_document_errors = error_responses(bp)


@bp.route("", methods=["POST"])
@bp.arguments(GameCreateSchema(), error_status_code=400)
@bp.response(201, GameCreatedSchema)
@_document_errors
def create_game(body):
    """Create a game; the seed's hash is published, the seed kept until the end."""
    require_operator()
    names, bots = seated(body["players"])
    return referee().create_game(
        body["ruleset"],
        names,
        body["options"],
        body.get("seed"),
        clock=body.get("clock"),
        bots=bots,
    )


def seated(players: list[Any]) -> tuple[list[str], dict[int, str]]:
    """The players' names and the seats bots play, from the seats as sent: a name, or a
    bot ({"bot": level}, named "Bot N" for seat N unless it has a name)."""
    names: list[str] = []
    bots: dict[int, str] = {}
    for seat, player in enumerate(players):
        if isinstance(player, dict):
            bots[seat] = player["bot"]
            player = player.get("name") or f"Bot {seat + 1}"
        names.append(player)
    return names, bots


@bp.route("/<game_id:game_id>")
@bp.response(200, GameViewSchema)
@_document_errors
def get_game(game_id: str):
    """The game as the caller (seat, moderator or spectator) may see it."""
    viewer = referee().viewer(game_id, bearer_token())
    return referee().view(game_id, viewer)


COMMAND = CommandSchema()


@bp.route("/<game_id:game_id>/commands", methods=["POST"])
@documents(bp.arguments(COMMAND, error_status_code=400), bp.response(201, CommandResultSchema))
@_document_errors
def post_command(game_id: str):
    """Send a command (Idempotency-Key makes a resend safe); nothing is appended on error."""
    # the hottest route: its body parsed and its answer made here, as flask-smorest's
    # wrappers would (the documents are theirs), without running them on every command
    body = bp.ARGUMENTS_PARSER.parse(COMMAND, request, location="json", error_status_code=400)
    viewer = referee().viewer(game_id, bearer_token())
    key = idempotency_key()
    expected = body.pop("expected_version", None)
    for field in STAMPED:  # the referee's clock times every command, and names forks
        if field in body:
            raise BadRequest("command/invalid", f"{field} is set by the referee", {"field": field})
    status, result = referee().command(
        game_id, viewer, body, expected_version=expected, idempotency_key=key
    )
    # the service builds the documented shape (CommandResultSchema): sent as it is, as the
    # hottest route, without a marshmallow dump that would copy it field by field
    return jsonify(result), status


@bp.route("/<game_id:game_id>/events")
@bp.arguments(EventsQuerySchema(), location="query", error_status_code=400)
@bp.response(200, EventStreamSchema)
@_document_errors
def get_events(query, game_id: str):
    """The events after seq `after`, redacted for the caller."""
    viewer = referee().viewer(game_id, bearer_token())
    return referee().events(game_id, viewer, after=query["after"])


@bp.route("/<game_id:game_id>/board.svg")
@bp.arguments(BoardQuerySchema(), location="query", error_status_code=400)
@bp.response(200, content_type="image/svg+xml")
@_document_errors
def board_svg(query, game_id: str):
    """The board as a spectator saw it just after event `at` (default: now), as an SVG
    image to post in a forum thread: never anything a spectator could not see then."""
    at = query.get("at")
    return _image(drawn_board(game_id, at), "image/svg+xml", at)


@bp.route("/<game_id:game_id>/board.png")
@bp.arguments(BoardQuerySchema(), location="query", error_status_code=400)
@bp.response(200, content_type="image/png")
@_document_errors
def board_png(query, game_id: str):
    """The same board as a PNG (at most 900 pixels wide), for forums that take no SVG."""
    at = query.get("at")

    def drawn() -> bytes:
        return beside_loop(boards.png_of, drawn_board(game_id, at))

    png = drawn() if at is None else _boards_drawn().held(("png", game_id, at), drawn)
    return _image(png, "image/png", at)


def drawn_board(game_id: str, at: int | None) -> str:
    """The public board after event `at` (now, without one), drawn once per (game, seq)."""

    def drawn() -> str:
        view = referee().public_view_at(game_id, at)
        return str(board(registry.get(view["ruleset"]), {**view, "viewer": None}))

    # an event's board never changes: the log only grows
    return drawn() if at is None else _boards_drawn().held(("svg", game_id, at), drawn)


def _image(body: str | bytes, mimetype: str, at: int | None) -> Response:
    answer = Response(body, mimetype=mimetype)
    answer.headers["Cache-Control"] = "public, max-age=86400" if at else "no-cache"
    return answer


def _boards_drawn() -> Recent:
    """The boards drawn lately, by (kind, game, seq)."""
    return current_app.extensions.setdefault("boards_drawn", Recent(BOARDS_KEPT))


@bp.route("/<game_id:game_id>/stream")
@bp.arguments(EventsQuerySchema(), location="query", error_status_code=400)
@bp.response(200, content_type="text/event-stream")
@_document_errors
def stream_events(query, game_id: str):
    """The events after seq `after` (or the Last-Event-ID header) as server-sent events,
    redacted for the caller, then each new one as it is appended; a comment line every
    15 s keeps the stream open. Event `event`, id the seq, data the event's JSON."""
    token = bearer_token()
    service = referee()
    viewer = service.viewer(game_id, token)
    after = max(query["after"], last_event_id())
    service.events(game_id, viewer, after=after)  # a game that is not there: 404 now
    wake = current_app.config["STREAM_WAKE"]
    return held_stream(live_events(service, game_id, token, after, wake))


def last_event_id() -> int:
    """The seq an EventSource that reconnects says it saw (0 if none, or not a seq)."""
    text = request.headers.get("Last-Event-ID", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else 0


def live_events(service: Referee, game_id: str, token: str | None, after: int, wake: float):
    """Lines of server-sent events, until the client goes or the token stops counting
    (a replaced player's stream ends: it must not see the seat's next secrets)."""
    yield "retry: 3000\n\n"
    hub = service.herald.hub
    with service.herald.watching(game_id):  # news from the other processes reaches it
        while not hub.closing:  # the process is stopping: the client comes back elsewhere
            try:  # a spectator stays one; a token may stop counting
                viewer = None if token is None else service.viewer(game_id, token)
            except RefereeError:
                return
            build = functools.partial(news, service, game_id, viewer, after)
            text, after = hub.shared(game_id, (viewer, after), build)
            if text:
                yield text
            if not hub.wait(game_id, after, wake):
                yield ": keep-alive\n\n"


def news(service: Referee, game_id: str, viewer, after: int) -> tuple[str, int]:
    """The server-sent events after seq `after` for this viewer, and the seq they reach."""
    lines = []
    for event in service.events(game_id, viewer, after=after)["events"]:
        after = event["seq"]
        lines.append(f"id: {after}\nevent: event\ndata: {json.dumps(event)}\n\n")
    return "".join(lines), after


@bp.route("/<game_id:game_id>/log")
@bp.response(200, content_type="application/x-ndjson")
@_document_errors
def get_log(game_id: str):
    """The full JSONL log: for the moderator any time, for everyone once the game is over."""
    viewer = referee().viewer(game_id, bearer_token())
    return Response(referee().log(game_id, viewer), mimetype="application/x-ndjson")


@bp.route("/<game_id:game_id>/rounds/<int:number>/summary")
@bp.arguments(SummaryQuerySchema(), location="query", error_status_code=400)
@bp.response(200, content_type="text/plain")
@_document_errors
def get_round_summary(query, game_id: str, number: int):
    """A resolved round's public results, ready to paste into a forum thread."""
    text = referee().round_summary(game_id, number, query["format"], public_base())
    return Response(text, mimetype="text/plain")


@bp.route("/<game_id:game_id>/post")
@bp.arguments(PostQuerySchema(), location="query", error_status_code=400)
@bp.response(
    200,
    {"type": "string", "description": "the post, as Markdown or BBCode"},
    content_type="text/plain",
)
@_document_errors
def get_post(query, game_id: str):
    """A forum post of what happened since the last post: the public sentences, whose
    move it is and by when, and the board's picture; only what a spectator may see.
    `since` defaults to the last post the moderator marked as posted."""
    made = referee().post(game_id, query["format"], since=query.get("since"), base=public_base())
    return Response(made["text"], mimetype="text/plain")


@bp.route("/<game_id:game_id>/post/since", methods=["PUT"])
@bp.arguments(PostedSchema(), error_status_code=400)
@bp.response(200, PostedSchema)
@_document_errors
def mark_posted(body, game_id: str):
    """The moderator posted the post that ended at event `since`: the next post (and
    `GET /games/{id}/post` without `since`) starts after it."""
    token = bearer_token()
    if token is None:
        raise Unauthorized("auth/required", "send the moderator's token", {})
    return referee().mark_posted(game_id, referee().viewer(game_id, token), body["since"])
