"""The pages: home, new game, invite links, and one page per game for each viewer.

One more shell over the Referee service (docs/pages.md): a page shows the API's view for
its viewer and offers its `legal` commands; every POST is a command the rules check."""

import json
import secrets
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from marshmallow import ValidationError

from schemas import SubscriptionCreateSchema

from ..engine import registry
from ..engine.canonical import canonical_json
from ..engine.errors import (
    BadRequest,
    NotFound,
    RefereeError,
    StoreFull,
    StoreUnavailable,
    TooMany,
)
from ..engine.events import MODERATOR
from ..engine.game import rules_of, shapes_of
from ..games import describe
from ..live import held_stream
from ..notify import notices
from ..runtime.answers import public_base
from ..service import Referee, Viewer, role_name
from ..theatre import boards
from . import disputing, present, seats
from .newgame import NewGame

bp = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)
SEEN_KEPT = 20  # games whose last-seen seq a browser's session remembers


def referee() -> Referee:
    """The app's Referee service."""
    return current_app.extensions["referee"]


@bp.errorhandler(StoreFull)
@bp.errorhandler(StoreUnavailable)
def store_trouble(error: StoreFull | StoreUnavailable) -> Response:
    """A write the disk refused, where no page caught it to show it in its own place."""
    answer = Response(render_template("store_trouble.html", reason=error.message), error.status)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        answer.headers["Retry-After"] = str(retry_after)
    return answer


# --- home and new games ------------------------------------------------------------


@bp.get("/")
def home():
    """What this is, and a game of each ruleset to start."""
    rulesets = [describe(registry.get(name)) for name in registry.names()]
    return render_template("home.html", rulesets=rulesets)


@bp.route("/new/<ruleset_id>", methods=["GET", "POST"])
def new_game(ruleset_id: str):
    """The new-game form, built from the ruleset's description; POST creates the game."""
    form = NewGame(
        _ruleset(ruleset_id),
        operator_key=bool(current_app.config.get("OPERATOR_KEY")),
        against_bots=request.args.get("against") == "bots",
    )
    if request.method == "GET":
        return render_template("new.html", form=form)
    try:
        form.read(request.form)
        form.check_operator(current_app.config.get("OPERATOR_KEY"))
        created = referee().create_game(
            form.ruleset["id"],
            form.players,
            form.options,
            form.seed,
            clock=form.clock,
            bots=form.bots,
        )
    except RefereeError as error:
        return render_template("new.html", form=form, error=error), error.status
    answer = Response(
        render_template(
            "created.html",
            created=created,
            links=invite_links(created),
            moderator_moves=present.moderator_moves(registry.get(form.ruleset["id"])),
        )
    )
    answer.headers["Cache-Control"] = "no-store"  # the links are in it
    return seats.keep(answer, created["game_id"], created["moderator_token"])


def _ruleset(ruleset_id: str) -> dict[str, Any]:
    try:
        return describe(registry.get(ruleset_id))
    except NotFound:
        abort(404)


def invite_links(created: dict[str, Any]) -> dict[str, Any]:
    """Invite links: one per seat and the moderator's, each carrying its token once."""
    game_id = created["game_id"]

    def link(token: str) -> str:
        return url_for("pages.join", game_id=game_id, token=token, _external=True)

    return {
        "moderator": link(created["moderator_token"]),
        "seats": [{**seat, "link": link(seat["token"])} for seat in created["seats"]],
        "spectators": url_for("pages.watch", game_id=game_id, _external=True),
    }


# --- taking a seat -----------------------------------------------------------------


@bp.get("/join/<game_id>")
def join(game_id: str):
    """An invite link: its token becomes this game's cookie, and the browser goes on to a
    URL without it (so it is not kept in history, logs or Referer headers)."""
    token = request.args.get("token", "")
    try:
        viewer = referee().viewer(game_id, token) if token else None
    except RefereeError:
        viewer = None
    if viewer is None:
        return render_template("stale_link.html", game_id=game_id), 403
    answer = redirect(url_for("pages.welcome", game_id=game_id), 303)
    return seats.keep(answer, game_id, token)


@bp.get("/g/<game_id>/welcome")
def welcome(game_id: str):
    """A step on the way to the seat: the browser asks for the game page itself, so the
    SameSite=Strict cookie goes with it even when the invite was opened from another site."""
    return render_template("welcome.html", game_id=game_id)


@bp.post("/g/<game_id>/leave")
def leave(game_id: str):
    """Forget this browser's seat in the game (the invite link still works)."""
    return seats.forget(redirect(url_for("pages.watch", game_id=game_id), 303), game_id)


# --- the game pages ----------------------------------------------------------------


@bp.get("/g/<game_id>")
def game_page(game_id: str):
    """The game as this browser's seat, the moderator, or a spectator may see it."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    if lost or viewer is not None:
        moved = _moved_to_fork(game_id)
        if moved is not None:
            return moved
    elif (followed := _followed_from_original(game_id)) is not None:
        viewer, token = followed
        return seats.keep(_game(game_id, viewer), game_id, token)
    answer = _game(game_id, viewer, lost=lost)
    return seats.forget(answer, game_id) if lost else answer


def _followed_from_original(game_id: str) -> tuple[Viewer, str] | None:
    """A fork opened from a link (a notice, a page of its original) by a browser that
    holds the original's cookie: the token a ruling moved here, and its seat."""
    for original in referee().originals(game_id):
        token = seats.token_of(original)
        try:
            viewer = referee().viewer(game_id, token) if token else None
        except RefereeError:  # a token of the original that did not move here
            continue
        if viewer is not None:
            return viewer, str(token)
    return None


def _moved_to_fork(game_id: str) -> Any:
    """A seat or moderator whose game a ruling closed goes on to its fork (its token
    moved there), taking the cookie along; the old game stays on its public page."""
    token = seats.token_of(game_id)
    try:
        if referee().view(game_id, None)["status"] == "active":
            return None
        fork = present.fork_of(referee().events(game_id, None)["events"])
        if fork is None or token is None or referee().viewer(fork, token) is None:
            return None
    except RefereeError:
        return None
    answer = redirect(url_for("pages.game_page", game_id=fork), 303)
    return seats.forget(seats.keep(answer, fork, token), game_id)


@bp.get("/g/<game_id>/watch")
def watch(game_id: str):
    """The public page: what a spectator may see, whoever asks."""
    return _game(game_id, None)


@bp.get("/g/<game_id>/part")
def game_part(game_id: str):
    """The live parts of this browser's game page (fetched when the game moves on)."""
    viewer, _ = seats.viewer_of(referee(), game_id)
    return _game(game_id, viewer, part=True)


@bp.get("/g/<game_id>/board")
def board(game_id: str):
    """This browser's board alone (SVG), marking the legal command `command` names."""
    viewer, _ = seats.viewer_of(referee(), game_id)
    try:
        view = referee().view(game_id, viewer)
    except NotFound:
        abort(404)
    rules = registry.get(view["ruleset"])
    looking = present.chosen(view, request.args.get("command", ""))
    drawn = boards.board(rules, {**view, "viewer": viewer}, looking)
    return Response(str(drawn), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/g/<game_id>/watch/part")
def watch_part(game_id: str):
    """The live parts of the public page."""
    return _game(game_id, None, part=True, public=True)


def _game(
    game_id: str,
    viewer: Viewer,
    *,
    lost: bool = False,
    part: bool = False,
    public: bool = False,
    error: RefereeError | None = None,
    sent: dict[str, list[str]] | None = None,
) -> Response:
    looking = request.args.get("command", "")
    try:
        disputed = None if part else request.args.get("disputed", "")
        shown = present.page(
            referee(), game_id, viewer, seen=_seen(game_id), looking=looking, disputed=disputed
        )
    except NotFound:
        return Response(render_template("missing.html", game_id=game_id), 404)
    public = public or request.endpoint in ("pages.watch", "pages.watch_part")
    if not part:
        _remember_seen(game_id, shown.view["version"])
    template = "game_part.html" if part else "game.html"
    body = render_template(
        template,
        page=shown,
        public=public,
        lost=lost,
        error=error,
        sent=sent or {},
        form_key=secrets.token_urlsafe(16),
        looking=looking,
    )
    answer = Response(body, error.status if error else 200)
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _seen(game_id: str) -> int:
    """The version this browser last saw; on a first visit all is new, so none is marked."""
    seen = session.get("seen", {}).get(game_id)
    return int(seen) if seen is not None else 1 << 62


def _remember_seen(game_id: str, version: int) -> None:
    seen = dict(session.get("seen", {}))
    seen.pop(game_id, None)
    seen[game_id] = version
    session["seen"] = dict(list(seen.items())[-SEEN_KEPT:])


# --- commands from forms -----------------------------------------------------------


@bp.post("/g/<game_id>/move")
def move(game_id: str):
    """One of the seat's legal commands, as the button or choice list sent it."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    try:
        command = _command_from(request.form.get("command", ""))
        return _run(game_id, viewer, command)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)


@bp.post("/g/<game_id>/orders")
def orders(game_id: str):
    """The whole sealed-orders form for the open round."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    sent = request.form.to_dict(flat=False)
    try:
        rules = rules_of(referee().state(game_id))
        if not hasattr(rules, "orders_from_form"):
            raise BadRequest("command/unknown", "this game takes no sealed orders", {})
        number = _int(request.form.get("round", ""), "round")
        command = {"type": "submit_orders", "round": number, "orders": rules.orders_from_form(sent)}
        return _run(game_id, viewer, command)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error, sent=sent)


@bp.post("/g/<game_id>/standing")
def standing_choices(game_id: str):
    """The seat's standing choices, as the checked boxes say (none checked: cleared)."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    command = {"type": "set_standing_choices", "choices": request.form.getlist("choice")}
    try:
        return _run(game_id, viewer, command)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)


@bp.post("/g/<game_id>/subscriptions")
def subscribe(game_id: str):
    """A new subscription of the viewer's; a webhook's secret is shown once, here."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    try:
        if viewer is None:
            raise BadRequest("auth/required", "open your invite link to take your seat first", {})
        body = subscription_from(request.form)
        made = referee().subscriptions.subscribe(game_id, role_name(viewer), body)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)
    back = url_for("pages.game_page", game_id=game_id)
    answer = Response(render_template("subscribed.html", made=made, back=back))
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.post("/g/<game_id>/subscriptions/<subscription_id>/remove")
def unsubscribe(game_id: str, subscription_id: str):
    """Remove one of the viewer's subscriptions."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    try:
        if viewer is None:
            raise BadRequest("auth/required", "open your invite link to take your seat first", {})
        referee().subscriptions.unsubscribe(game_id, role_name(viewer), subscription_id)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)
    return redirect(url_for("pages.game_page", game_id=game_id), 303)


def subscription_from(form) -> dict[str, Any]:
    """The subscription the form asks for, read by the API's own schema; reminders typed
    as "24, 4, 1"."""
    hours = [h.strip() for h in form.get("reminders", "").split(",") if h.strip()]
    if not all(h.isascii() and h.isdigit() and len(h) <= 4 for h in hours):
        raise BadRequest(
            "request/invalid", "reminders: whole hours, as 24, 4, 1", {"field": "reminders"}
        )
    sent = {
        "kind": form.get("kind", ""),
        "url": form.get("url", "").strip(),
        "reminders": [int(h) for h in hours],
    }
    if form.get("posts"):  # the moderator's: every notice it gets, and the posts
        sent["events"] = list(notices.FOR_MODERATOR)
    try:
        return SubscriptionCreateSchema().load(sent)
    except ValidationError as refused:
        field = next(iter(refused.messages))
        said = refused.messages[field]
        text = said[0] if isinstance(said, list) else next(iter(said.values()))[0]
        raise BadRequest("request/invalid", f"{field}: {text}", {"field": field}) from None


@bp.post("/g/<game_id>/post/posted")
def mark_posted(game_id: str):
    """The moderator posted the forum post: the next one starts after the event named."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    try:
        if viewer != MODERATOR:
            raise BadRequest("auth/moderator_only", "only the moderator's link can do this", {})
        since = _int(request.form.get("since", ""), "since")
        referee().mark_posted(game_id, viewer, since)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)
    flash(f"Done: the next post starts after event {since}.", "done")
    return redirect(url_for("pages.game_page", game_id=game_id) + "#post", 303)


@bp.post("/g/<game_id>/moderate")
def moderate(game_id: str):
    """A moderator's command, its fields typed as the command's shape says."""
    viewer, lost = seats.viewer_of(referee(), game_id)
    try:
        if viewer != MODERATOR:
            raise BadRequest("auth/moderator_only", "only the moderator's link can do this", {})
        command = _moderator_command(game_id, request.form)
        return _run(game_id, viewer, command)
    except RefereeError as error:
        return _game(game_id, viewer, lost=lost, error=error)


def _run(game_id: str, viewer: Viewer, command: dict[str, Any]) -> Any:
    """Send the command; on success back to the page (a reload sends nothing twice)."""
    if viewer is None:
        raise BadRequest("auth/required", "open your invite link to take your seat first", {})
    expected = request.form.get("version")
    key = request.form.get("key") or None
    status, result = referee().command(
        game_id,
        viewer,
        command,
        expected_version=_int(expected, "version") if expected else None,
        idempotency_key=key,
    )
    if "token" in result:  # a replaced player's new link: shown once, here
        name = referee().view(game_id, MODERATOR)["players"][command["seat"]]
        link = url_for("pages.join", game_id=game_id, token=result["token"], _external=True)
        answer = Response(render_template("replaced.html", name=name, link=link, game_id=game_id))
        answer.headers["Cache-Control"] = "no-store"
        return answer
    _tell(game_id, command, result)
    return redirect(url_for("pages.game_page", game_id=game_id), 303)


def _tell(game_id: str, command: dict[str, Any], result: dict[str, Any]) -> None:
    """What the command did, for the next page (receipt and warnings for sealed orders)."""
    if "receipt" in result:
        rounds = command["type"] == "submit_orders"  # else a sealed choice in a game in turns
        told = {"receipt": result["receipt"], "warnings": result["warnings"], "rounds": rounds}
        flash(json.dumps(told), "orders")
    elif command["type"] in ("open_dispute", "rule_dispute"):
        players = referee().view(game_id, MODERATOR)["players"]
        flash(disputing.told(command, result, players), "dispute")
    else:
        done = DONE.get(command["type"]) or command["type"].replace("_", " ")
        flash(f"Done: {done}.", "done")


# what a command did, in words, where its name does not say it
DONE = {
    "hand_to_bot": "a bot plays your seat now",
    "take_seat_back": "you play your seat again",
    "seat_bot": "the seat is handed to a bot",
    "unseat_bot": "the seat is given back to its player",
}


def _command_from(text: str) -> dict[str, Any]:
    try:
        command = canonical_json(text)
    except ValueError:
        command = None
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise BadRequest("command/invalid", "choose one of the moves offered", {"field": "command"})
    return command


def _int(text: str, name: str) -> int:
    if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 18):
        raise BadRequest("request/invalid", f"{name} must be a whole number", {"field": name})
    return int(text)


def _moderator_command(game_id: str, form) -> dict[str, Any]:
    """The command named by `type`, its fields read by the type its shape gives."""
    shapes = shapes_of(referee().state(game_id))[1]
    kind = form.get("type", "")
    if kind not in shapes:
        raise BadRequest("command/invalid", "choose one of the moderator's commands", {})
    command: dict[str, Any] = {"type": kind}
    for name, shape in shapes[kind]["fields"].items():
        text = form.get(name, "").strip()
        if name == "amendment" and not text:  # no JSON typed: the amendment chosen
            text = form.get("amended", "")
            if not text:
                message = "amendment: choose what should have been played, or type it as JSON"
                raise BadRequest("request/invalid", message, {"field": "amendment"})
        if text:
            command[name] = _typed(text, shape, name)
    return command


def _typed(text: str, shape: Any, name: str) -> Any:
    kind = shape if isinstance(shape, str) else shape.get("type", "string")
    if kind == "integer":
        return _int(text, name)
    if kind in ("object", "array"):
        try:
            return canonical_json(text)
        except ValueError as error:
            message = f"{name} must be JSON: {error}"
            raise BadRequest("request/invalid", message, {"field": name}) from None
    return text


# --- downloads and live news -------------------------------------------------------


@bp.get("/g/<game_id>/log.jsonl")
def log(game_id: str):
    """The full log, for the moderator any time and for everyone once the game is over."""
    viewer, _ = seats.viewer_of(referee(), game_id)
    if request.args.get("as") == "public":
        viewer = None
    try:
        body = referee().log(game_id, viewer)
    except RefereeError as error:
        return Response(error.message, error.status, mimetype="text/plain")
    answer = Response(body, mimetype="application/x-ndjson")
    answer.headers["Content-Disposition"] = f'attachment; filename="{game_id}.jsonl"'
    return answer


@bp.get("/g/<game_id>/rounds/<int:number>/summary.<fmt>")
def summary(game_id: str, number: int, fmt: str):
    """A resolved round's public summary as Markdown (`md`) or BBCode (`bbcode`)."""
    formats = {"md": "markdown", "bbcode": "bbcode"}
    try:
        text = referee().round_summary(game_id, number, formats.get(fmt, fmt), public_base())
    except RefereeError as error:
        return Response(error.message, error.status, mimetype="text/plain")
    return Response(text, mimetype="text/plain")


@bp.get("/g/<game_id>/live")
def live(game_id: str):
    """Server-sent news that the game moved on (`changed`, its version): no content, so
    anyone may listen; each page then fetches its own view."""
    service = referee()
    try:
        service.state(game_id)
    except NotFound:
        abort(404)
    wake = current_app.config["STREAM_WAKE"]
    try:
        return held_stream(stream_with_context(_news(service, game_id, _after(), wake)))
    except TooMany as error:
        return Response(
            error.message, 429, {"Retry-After": str(error.retry_after)}, mimetype="text/plain"
        )


def _after() -> int:
    text = request.args.get("after", "0")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else 0


def _news(service: Referee, game_id: str, after: int, wake: float):
    """`changed` each time the game is past the version the page showed."""
    yield "retry: 3000\n\n"
    with service.herald.watching(game_id):  # news from the other processes reaches it
        while not service.herald.hub.closing:  # the process is stopping: the page comes back
            version = service.state(game_id)["seq"]
            if version > after:
                after = version
                yield f"event: changed\ndata: {after}\n\n"
            elif not service.herald.hub.wait(game_id, after, wake):
                yield ": keep-alive\n\n"
