"""The replay theatre's pages: step through a public game's log, or a log a visitor
uploads; see why it is valid, check a receipt against it, and compare a dispute's fork
(docs/replay.md)."""

import hashlib
from dataclasses import dataclass, field
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from replays.audit import Check, audit
from replays.log import LogLineError, parse
from replays.receipts import Held, ReceiptError, holds, read_receipts
from replays.verify import Report, verify_events

from ..engine import registry
from ..engine.errors import Forbidden, NotFound, RefereeError, StoreFull, StoreUnavailable
from ..engine.events import MODERATOR
from ..ops import limits
from ..posts import story
from ..runtime.loop import beside_loop
from ..runtime.recent import Recent
from ..service import Referee
from ..theatre import boards
from ..theatre.imports import import_log
from ..theatre.stage import ALL, PUBLIC, Eyes, Theatre, Unplayable
from . import pages, present
from .changes import changes
from .origin import protect

bp = Blueprint("replay", __name__, url_prefix="/replay")
bp.register_error_handler(StoreFull, pages.store_trouble)
bp.register_error_handler(StoreUnavailable, pages.store_trouble)
FEED_AT_MOST = 200  # the newest sentences a step shows (the log has them all)
UPLOAD_SECONDS = 86400  # an uploaded log is kept a day at most (and within the budgets)
THEATRES_KEPT = 16  # logs held in this process, stepped through
# ...and at most this much log among them: a parsed log takes some six times its size
# in memory, so a large upload is held alone rather than beside fifteen others
STAGE_BYTES = 64 << 20
EVENT_BYTES = 1 << 10  # what a stored game's event counts for on the stage


def referee() -> Referee:
    return current_app.extensions["referee"]


@dataclass
class Showing:
    """A log on the stage: its theatre, its verification, and where it came from."""

    theatre: Theatre | None
    report: Report
    game_id: str
    upload: str | None = None  # the digest of an uploaded log
    checks: list[Check] = field(default_factory=list)
    bytes: int = 0  # the log's size: what holding it on stage weighs

    @property
    def stage(self) -> Theatre:
        """The theatre of a log that folds (every stored game's does)."""
        if self.theatre is None:
            raise NotFound("replay/unplayable", "this log cannot be stepped through", {})
        return self.theatre

    @property
    def base(self) -> str:
        """The page's URL without a point or a viewer."""
        if self.upload:
            return url_for("replay.page", digest=self.upload)
        return url_for("replay.page", game_id=self.game_id)


def _stage() -> Recent:
    """The logs this process has on stage: a stored game's keyed by its last hash (a log
    only grows), an upload's by its digest."""
    stage = Recent(THEATRES_KEPT, weigh=lambda showing: showing.bytes, most=STAGE_BYTES)
    return current_app.extensions.setdefault("replay_stage", stage)


def showing_stored(game_id: str) -> Showing:
    """A stored game whose log is public, on stage."""
    last = referee().replay_hash(game_id)
    return _stage().held(
        ("game", last), lambda: _showing(referee().replay_events(game_id), game_id)
    )


def showing_upload(digest: str) -> Showing:
    """An uploaded log, on stage: read from the store only when this process does not
    hold it already (404 once the store has dropped it)."""

    def build() -> Showing:
        data = referee().store.upload(digest)
        if data is None:
            message = "this upload is no longer kept: upload it again"
            raise NotFound("replay/upload_gone", message, {})
        return _showing_bytes(data, digest)

    return _stage().held(("upload", digest), build)


def _showing_bytes(data: bytes, digest: str) -> Showing:
    try:
        events = parse(data)
    except LogLineError as exc:
        report = Report(status="invalid", seq=exc.seq, code="log/unreadable", reason=exc.reason)
        return Showing(None, report, "", digest)
    if not events:
        report = Report(status="invalid", seq=1, code="log/empty", reason="the log is empty")
        return Showing(None, report, "", digest)
    game_id = str(events[0].get("game_id", ""))
    return _showing(events, game_id, digest, len(data))


def _showing(
    events: list[dict[str, Any]], game_id: str, upload: str | None = None, size: int = 0
) -> Showing:
    """A log on stage, verified and folded beside the web process's loop (a long log
    takes seconds)."""
    return beside_loop(_staged, events, game_id, upload, size)


def _staged(events: list[dict[str, Any]], game_id: str, upload: str | None, size: int) -> Showing:
    report = verify_events(events)
    theatre = Theatre(game_id, events) if _foldable_start(events) else None
    if theatre is not None:
        theatre.check_playable()
        if theatre.playable == 0:
            theatre = None
    weight = 0 if theatre is None else size or len(events) * EVENT_BYTES  # what it holds
    return Showing(theatre, report, game_id, upload, bytes=weight)


def _foldable_start(events: list[dict[str, Any]]) -> bool:
    first = events[0]
    payload = first.get("payload")
    return (
        first.get("type") == "GameCreated"
        and isinstance(payload, dict)
        and payload.get("ruleset") in registry.names()
    )


def checks_of(showing: Showing) -> list[Check]:
    """Every check of the log, each with its own pass or fail (run once per log)."""
    if not showing.checks and showing.theatre is not None:
        showing.checks = audit(showing.theatre.events)
    return showing.checks


# --- pages -------------------------------------------------------------------------


@bp.before_request
def _guard() -> None:
    """An upload may be as large as an import; a form comes from this site and carries
    its CSRF token."""
    if request.endpoint == "replay.upload":
        request.max_content_length = _upload_limit()
    if request.method == "POST":
        protect()


@bp.errorhandler(413)
def _too_large(_error):
    problem = f"This log is larger than this host takes ({_upload_limit():,} bytes)."
    return _upload_page(problem, 413, "request/too_large")


@bp.get("")
def start():
    """Upload a log to replay and check it."""
    return _upload_page()


@bp.post("")
def upload():
    """An uploaded log: kept (not a game) within the host's upload budgets, so its page
    can be stepped through."""
    sent = request.files.get("log")
    data = sent.read(_upload_limit() + 1) if sent else b""
    problem = _upload_problem(data)
    if problem:
        return _upload_page(problem, 400, "replay/upload_invalid")
    digest = hashlib.sha256(data).hexdigest()
    config = current_app.config
    try:
        referee().store.keep_upload(
            digest,
            data,
            referee().clock(),
            client=limits.client(),
            total_bytes=config["UPLOAD_TOTAL_BYTES"],
            client_bytes=config["UPLOAD_CLIENT_BYTES"],
            seconds=UPLOAD_SECONDS,
        )
    except RefereeError as refused:  # over the budgets, or the disk refused it
        said = refused.message[:1].upper() + refused.message[1:]
        return _upload_page(f"{said}.", refused.status, refused.code)
    # staged from the bytes in hand: reading them back from the store would copy them
    showing = _stage().held(("upload", digest), lambda: _showing_bytes(data, digest))
    if showing.report.status != "invalid":
        return redirect(url_for("replay.page", digest=digest), 303)
    # the uploader holds the whole log: the bad event is shown whole
    bad = url_for("replay.page", digest=digest, at=showing.report.seq, **{"as": ALL})
    return redirect(bad, 303)


def _upload_page(problem: str = "", status: int = 200, code: str = "") -> Response:
    """The upload form, with why the last upload was refused."""
    most = min(_upload_limit(), int(current_app.config["UPLOAD_CLIENT_BYTES"]))
    page = render_template("replay_upload.html", limit=most, problem=problem, code=code)
    return Response(page, status)


def _upload_limit() -> int:
    return int(current_app.config["IMPORT_MAX_BYTES"])


def _upload_problem(data: bytes) -> str:
    if not data:
        return "Choose a .jsonl log file to upload."
    if len(data) > _upload_limit():
        return f"This log is larger than this host takes ({_upload_limit():,} bytes)."
    most = int(current_app.config["IMPORT_MAX_EVENTS"])
    if data.count(b"\n", 0, len(data) - 1) >= most:
        return f"This log has more events than this host takes ({most:,})."
    return ""


@bp.get("/<game_id>", endpoint="page")
@bp.get("/log/<digest>", endpoint="page")
def page(game_id: str | None = None, digest: str | None = None):
    """A public game's replay, or an upload's, at `?at=SEQ`, as `?as=` sees it."""
    return _page(_source(game_id, digest))


@bp.get("/<game_id>/part", endpoint="part")
@bp.get("/log/<digest>/part", endpoint="part")
def part(game_id: str | None = None, digest: str | None = None):
    """The part of the replay page one step changes (fetched by the page's script)."""
    return _page(_source(game_id, digest), part=True)


@bp.post("/<game_id>/receipt", endpoint="receipt")
@bp.post("/log/<digest>/receipt", endpoint="receipt")
def receipt(game_id: str | None = None, digest: str | None = None):
    """A receipt pasted on the page, checked against this log."""
    return _page(_source(game_id, digest), receipt=request.form.get("receipt", ""))


def _source(game_id: str | None, digest: str | None):
    """The log a replay URL names: an upload's by its digest, else a stored game's."""
    if digest is not None:
        return lambda: showing_upload(digest)
    return lambda: showing_stored(str(game_id))


@bp.post("/log/<digest>/import")
def import_upload(digest: str):
    """Store an uploaded log as a game (verified again, with new links for its seats)."""
    try:
        showing = showing_upload(digest)
    except RefereeError:
        return _page(lambda: showing_upload(digest))  # it says the upload is gone
    try:
        key = current_app.config.get("OPERATOR_KEY")
        if key and request.form.get("operator_key", "") != key:
            raise Forbidden("auth/operator_key", "this host's operator key is needed", {})
        data = referee().store.upload(digest)
        if data is None:
            raise NotFound("replay/upload_gone", "this upload is no longer kept", {})
        limit = current_app.config.get("IMPORT_MAX_EVENTS")
        limits.charge_import(len(data))
        created = import_log(referee(), data, max_events=limit)
    except RefereeError as error:
        return _page(lambda: showing, error=error)
    links = pages.invite_links(created)
    answer = Response(render_template("created.html", created=created, links=links))
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _page(get, *, part: bool = False, receipt: str | None = None, error=None) -> Response:
    try:
        showing = get()
    except NotFound as missing:
        return Response(render_template("replay_missing.html", reason=missing.message), 404)
    except RefereeError as refused:
        body = render_template("replay_missing.html", reason=refused.message)
        return Response(body, refused.status)
    scene, unshown = _scene_or_why(showing)
    if part and scene is None:
        return Response(render_template("replay_missing.html", reason=unshown), 404)
    checked = _receipt(showing, receipt) if receipt is not None else None
    template = "replay_part.html" if part else "replay.html"
    body = render_template(
        template,
        showing=showing,
        scene=scene,
        checks=[] if part else checks_of(showing),
        checked=checked,
        error=error,
        operator_key=bool(current_app.config.get("OPERATOR_KEY")),
        disputes=showing.theatre is not None and _disputed(showing.theatre),
        unshown=unshown,
    )
    status = error.status if error else 400 if checked and checked.get("problem") else 200
    answer = Response(body, status)
    answer.headers["Cache-Control"] = "no-store" if showing.upload else "public, max-age=60"
    return answer


def _scene_or_why(showing: Showing) -> tuple["Scene | None", str]:
    """The scene asked for, or why this log cannot show one (a damaged upload may fold
    into a state the board or the view cannot read)."""
    if showing.theatre is None:
        return None, f"this log cannot be stepped through: {showing.report.reason}"
    try:
        return _scene(showing), ""
    except Exception as exc:  # noqa: BLE001 - only an upload's damage gets here
        if not showing.upload:
            raise
        return None, f"this point of the log cannot be shown: {exc!r}"


def _disputed(theatre: Theatre) -> bool:
    """Whether a game has a ruled dispute, or is a fork of one."""
    return bool(theatre.chapters(present.RULED))


def _receipt(showing: Showing, text: str) -> dict[str, Any]:
    """The receipts pasted, each held or not by this log."""
    try:
        receipts = read_receipts(text)
    except ReceiptError as problem:
        return {"text": text, "problem": str(problem), "results": []}
    events = showing.theatre.events if showing.theatre else []
    results: list[Held] = [holds(events, one) for one in receipts]
    return {"text": text, "problem": "", "results": results}


# --- one point of the log ----------------------------------------------------------


@dataclass
class Scene:
    """The replay at one seq, as one viewer saw it."""

    at: int
    eyes: Eyes
    view: dict[str, Any]
    board: Any
    event: dict[str, Any]
    said: str
    feed: list[dict[str, Any]]
    changed: list[dict[str, str]]
    draws: list[str]
    steps: dict[str, int | None]
    chapter: str
    seats: list[str]
    next_of: list[int | None]
    broken: Unplayable | None


def _scene(showing: Showing) -> Scene:
    theatre = showing.theatre
    assert theatre is not None
    first = theatre.state_at(1)
    rules = registry.get(first["ruleset"])
    eyes = Eyes.parse(request.args.get("as"), len(first["players"]))
    at = _at(request.args.get("at"), theatre)
    before = theatre.view(at - 1, eyes) if at > 1 else None  # first: the last step's state
    view = theatre.view(at, eyes)
    told = theatre.sentences(eyes, at, _narrator(rules))
    seen = theatre.seen(at, eyes)
    word, kinds = getattr(rules, "CHAPTER", ("round", ()))
    chapters = theatre.chapters(kinds)
    return Scene(
        at=at,
        eyes=eyes,
        view=view,
        board=boards.board(rules, {**view, "viewer": eyes.viewer}),
        event=seen,
        said=told[at - 1],
        feed=_feed(theatre, told, at),
        changed=changes(before, view),
        draws=theatre.draws(at) if not seen.get("redacted") else [],
        steps=_steps(theatre, at, chapters),
        chapter=word,
        seats=list(first["players"]),
        next_of=[theatre.next_of(s, at) for s in range(len(first["players"]))],
        broken=theatre.broken,
    )


def _narrator(rules):
    """The ruleset's sentences for a run of events, as a theatre asks for them."""
    return lambda events, viewer, players: story.narrate(rules, events, viewer, players)


def _at(text: str | None, theatre: Theatre) -> int:
    """The seq asked for, within what the log can show (the last that folds)."""
    last = theatre.playable
    if text and text.isascii() and text.isdigit() and len(text) <= 12:
        return max(1, min(int(text), last))
    return last


def _feed(theatre: Theatre, told: list[str], at: int) -> list[dict[str, Any]]:
    items = []
    for seq in range(at, 0, -1):
        if told[seq - 1]:
            ruled = theatre.events[seq - 1]["type"] in present.RULED
            items.append({"seq": seq, "text": told[seq - 1], "now": seq == at, "ruled": ruled})
            if len(items) >= FEED_AT_MOST:
                break
    return items


def _steps(theatre: Theatre, at: int, chapters: list[int]) -> dict[str, int | None]:
    """Where each control goes from `at` (None where there is nowhere to go)."""
    last = theatre.playable
    earlier = [c for c in chapters if c < at]
    later = [c for c in chapters if c > at and c <= last]
    next_move = theatre.next_move(at)
    return {
        "first": 1 if at > 1 else None,
        "previous_chapter": earlier[-1] if earlier else None,
        "previous_move": theatre.previous_move(at),
        "previous": at - 1 if at > 1 else None,
        "next": at + 1 if at < last else None,
        "next_move": next_move if next_move and next_move <= last else None,
        "next_chapter": later[0] if later else None,
        "last": last if at < last else None,
    }


def viewers(seats: list[str]) -> list[tuple[str, str]]:
    """The choices of `as`: the public, each seat, everything."""
    return (
        [(PUBLIC, "The public (as spectators saw it)")]
        + [(f"seat-{i}", f"{name} (seat {i + 1})") for i, name in enumerate(seats)]
        + [(ALL, "Everything (as the moderator saw it)")]
    )


@bp.app_template_global()
def replay_viewers(seats: list[str]) -> list[tuple[str, str]]:
    return viewers(seats)


# --- disputes side by side ---------------------------------------------------------

COLUMN_AT_MOST = 400  # sentences a column shows from the fork point


@bp.get("/<game_id>/disputes")
def disputes(game_id: str):
    """A game's disputes: each claim, amendment and ruling; for an amended ruling, the
    original and its fork side by side from the fork point."""
    try:
        showing = showing_stored(game_id)
    except RefereeError as refused:
        body = render_template("replay_missing.html", reason=refused.message)
        return Response(body, refused.status)
    original = _original_of(showing)
    if original is not showing:
        return redirect(url_for("replay.disputes", game_id=original.game_id), 303)
    ruled = [_dispute(showing, e) for e in showing.stage.events if e["type"] == "DisputeRuled"]
    answer = Response(render_template("replay_disputes.html", showing=showing, ruled=ruled))
    answer.headers["Cache-Control"] = "public, max-age=60"
    return answer


def _original_of(showing: Showing) -> Showing:
    """The game a fork was forked from (a fork's disputes page is its original's)."""
    first_fork = next((e for e in showing.stage.events if e["type"] == "GameForked"), None)
    if first_fork is None:
        return showing
    try:
        return showing_stored(first_fork["payload"]["from_game"])
    except RefereeError:
        return showing


def _dispute(showing: Showing, ruled: dict[str, Any]) -> dict[str, Any]:
    """One ruled dispute: its claim and amendment, ruling and reason, and the columns."""
    theatre = showing.stage
    opened = theatre.events[ruled["payload"]["dispute"] - 1]["payload"]
    players = theatre.state_at(1)["players"]
    told = {
        "number": ruled["payload"]["dispute"],
        "claim": opened["claim"],
        "amendment": _amendment_words(opened["amendment"], players),
        "ruling": ruled["payload"]["ruling"],
        "reason": ruled["payload"]["reason"],
        "fork": None,
    }
    fork = ruled["payload"].get("fork")
    if fork:
        told["fork"] = _fork_columns(showing, fork["game_id"], fork["at"], opened["amendment"])
    return told


def _amendment_words(amendment: dict[str, Any], players: list[str]) -> str:
    kind = amendment["kind"]
    if kind == "drop":
        return f"play the game again without the command at seq {amendment['seq']}"
    if kind == "insert":
        who = amendment["actor"]
        name = players[who] if isinstance(who, int) and who < len(players) else who
        return f"play {name}'s {amendment['command'].get('type')} before seq {amendment['before']}"
    if kind == "replace":
        command = amendment["command"]
        fields = ", ".join(f"{k} {v}" for k, v in command.items() if k not in ("type", "now"))
        put = str(command.get("type")).replace("_", " ") + (f" ({fields})" if fields else "")
        return f"{put} in place of the command at seq {amendment['seq']}"
    seat = players[amendment["seat"]]
    return f"take other orders from {players and seat} for round {amendment['round']}"


def _fork_columns(showing: Showing, fork_id: str, at: int, amendment: dict) -> dict[str, Any]:
    """Both games from the fork point: their sentences, last boards and outcomes."""
    try:
        forked = showing_stored(fork_id)
    except RefereeError as refused:
        return {"game_id": fork_id, "closed": refused.message}
    marked = _marked(showing.stage, forked.stage, at, amendment)
    columns = [_column(showing, at, marked[0]), _column(forked, at, marked[1])]
    players = showing.stage.state_at(1)["players"]
    return {
        "game_id": fork_id,
        "at": at,
        "columns": columns,
        "outcomes": _outcome_rows(columns, players),
        "closed": None,
    }


def _marked(original: Theatre, fork: Theatre, at: int, amendment: dict) -> tuple[set, set]:
    """The seqs to mark: the original's dropped or replaced command, and in the fork the
    inserted or replacing command or the amended orders (its first move after the fork
    point)."""
    ours: set[int] = set()
    if amendment["kind"] in ("drop", "replace"):
        start = original.previous_move(amendment["seq"] + 1) or amendment["seq"]
        ours = set(range(start, original.batch_end(start) + 1))
    if amendment["kind"] == "drop":
        return ours, set()
    theirs_start = fork.next_move(at + 1)
    theirs = set(range(theirs_start, fork.batch_end(theirs_start) + 1)) if theirs_start else set()
    return ours, theirs


def _column(showing: Showing, at: int, marked: set[int]) -> dict[str, Any]:
    theatre = showing.stage
    rules = registry.get(theatre.state_at(1)["ruleset"])
    everything = Eyes(ALL, MODERATOR)
    told = theatre.sentences(everything, theatre.playable, _narrator(rules))
    rows = [
        {"seq": seq, "text": told[seq - 1], "amended": seq in marked}
        for seq in range(at + 1, theatre.playable + 1)
        if told[seq - 1]
    ][:COLUMN_AT_MOST]
    view = theatre.view(theatre.playable, everything)
    return {
        "game_id": showing.game_id,
        "rows": rows,
        "board": boards.board(rules, {**view, "viewer": None}),
        "outcome": view.get("outcome") or {},
        "status": view["status"],
    }


def _outcome_rows(columns: list[dict[str, Any]], players: list[str]) -> list[dict[str, Any]]:
    """Each player's score and rank in both games, and whether they differ."""
    rows = []
    for seat, name in enumerate(players):
        pair = [_result(c["outcome"], seat) for c in columns]
        rows.append({"name": name, "results": pair, "differs": pair[0] != pair[1]})
    return rows


def _result(outcome: dict[str, Any], seat: int) -> str:
    if not outcome:
        return "no result"
    score = (outcome.get("scores") or [None] * (seat + 1))[seat]
    won = " (wins)" if seat in outcome.get("winners", []) else ""
    return f"{score}{won}"
