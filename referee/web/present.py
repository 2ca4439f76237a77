"""A game page's content for one viewer: exactly the API's view and events for that
viewer, drawn (the ruleset's board), told (sentences) and offered (legal moves)."""

import json
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from markupsafe import Markup

from replays.verify import verify_bytes

from ..engine import registry
from ..engine.game import command_shapes, rules_of
from ..engine.rounds import has_rounds
from ..games import bot_levels
from ..posts import story
from ..posts.summary import FORMATS
from ..runtime.answers import public_base
from ..service import MODERATOR, Referee, Viewer, receipt
from ..theatre.boards import board
from . import disputing, forms
from .disputing import Disputing

# the moderator's controls in words (the others are named by their command)
TITLES = {"seat_bot": "Hand a seat to a bot", "unseat_bot": "Give a seat back from its bot"}
# what each bot level plays, in a player's words
BOT_WORDS = {
    "random": "any legal move, at random",
    "standard": "the standard move, as when a clock runs out",
    "strong": "looks ahead from what your seat sees",
}
RULED = ("DisputeRuled", "GameForked")  # a dispute ruled here, or the fork of one
BUTTONS_AT_MOST = 8  # a longer list of one kind of move is a choice list, not buttons
FEED_AT_MOST = 200  # the newest sentences a page shows (the log has them all)


@dataclass
class Page:
    """What a game page shows its viewer."""

    view: dict[str, Any]
    viewer: Viewer
    rules: ModuleType
    board: Markup
    feed: list[dict[str, Any]]
    moves: list[dict[str, Any]] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    moderating: dict[str, Any] = field(default_factory=dict)
    verified: Any = None
    warnings: list[dict[str, Any]] = field(default_factory=list)  # of the seat's sealed orders
    fork: str | None = None  # where play goes on after a ruling amended this game
    ruling: dict[str, Any] | None = None  # that ruling, as this viewer may know it
    disputing: Disputing | None = None  # the moderator's dispute controls
    disputed: bool = False  # a dispute was ruled in this game, or it is a fork of one
    standing: dict[str, str] = field(default_factory=dict)  # the choices a seat may set
    subscriptions: list[dict[str, Any]] = field(default_factory=list)  # the viewer's own
    post: dict[str, Any] = field(default_factory=dict)  # the moderator's next forum post
    bot_levels: list[str] = field(default_factory=list)  # the bots that play this ruleset

    @property
    def bots(self) -> dict[int, str]:
        """The seats bots play now, by seat number."""
        return {int(seat): level for seat, level in (self.view.get("bots") or {}).items()}

    @property
    def my_bot(self) -> str | None:
        """The level of the bot playing the viewer's own seat, if one does."""
        return self.bots.get(self.seat) if self.seat is not None else None

    @property
    def titles(self) -> dict[str, str]:
        return TITLES

    @property
    def bot_words(self) -> dict[str, str]:
        return BOT_WORDS

    @property
    def order_groups(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The order form's fields under their headings, in the ruleset's order."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for one in self.orders:
            groups.setdefault(one.get("group", ""), []).append(one)
        return list(groups.items())

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    @property
    def who(self) -> str:
        """The viewer's name on the page."""
        if self.viewer == MODERATOR:
            return "the moderator"
        if self.seat is not None:
            return self.view["players"][self.seat]
        return "a spectator"


def page(
    service: Referee,
    game_id: str,
    viewer: Viewer,
    *,
    seen: int = 0,
    looking: str = "",
    disputed: str | None = None,
) -> Page:
    """The page for a viewer; `seen` is the last seq this browser was shown (newer
    sentences are marked new); `looking` a legal command the board marks; `disputed`
    the move a moderator's dispute names (None: a live part, without the controls)."""
    view = service.view(game_id, viewer)
    events = service.events(game_id, viewer)["events"]
    rules = registry.get(view["ruleset"])
    drawn = board(rules, {**view, "viewer": viewer}, chosen(view, looking))
    shown = Page(view, viewer, rules, drawn, feed(rules, view, events, viewer, seen))
    shown.bot_levels = bot_levels(rules)
    # a moderator may have moves (votes); a seat its bot plays has none of its own
    if (shown.seat is not None and shown.my_bot is None) or viewer == MODERATOR:
        shown.orders = order_fields(rules, view) if shown.seat is not None else []
        shown.moves = moves(rules, view, skip_orders=bool(shown.orders))
    if shown.seat is not None and shown.orders:
        shown.warnings = standing_warnings(service, game_id, view, shown.seat)
    if shown.seat is not None:
        seat = shown.seat
        shown.receipts = [receipt(e) for e in events if _own_commitment(e, seat)]
        shown.standing = getattr(rules, "STANDING_CHOICES", {})
    if shown.seat is not None or viewer == MODERATOR:
        shown.subscriptions = subscriptions_of(service, game_id, str(viewer))
    if viewer == MODERATOR:
        shown.post = forum_post(service, game_id)
        shown.moderating = command_shapes(rules, clocked="clock" in view)[1]
        if has_rounds(rules):
            shown.summaries = summaries(service, game_id, resolved_rounds(events))
    if viewer == MODERATOR and disputed is not None:
        shown.disputing = disputing.controls(
            service, game_id, rules, view, events, named=disputed, words=label
        )
    shown.fork = fork_of(events)
    shown.ruling = disputing.ruling(service, view, events, viewer)
    shown.disputed = any(e.get("type") in RULED for e in events)
    if view.get("seed"):
        shown.verified = verified(service, game_id, view["version"])
    return shown


def moderator_moves(rules: ModuleType) -> bool:
    """Whether the rules give the moderator moves of their own (blackout-middle's vote),
    as the engine offers them (game.legal)."""
    return bool(vars(rules).get("MODERATOR_COMMANDS"))


def subscriptions_of(service: Referee, game_id: str, role: str) -> list[dict[str, Any]]:
    """The viewer's subscriptions, each with its last few deliveries."""
    held = service.subscriptions
    return [
        {**s, "deliveries": held.log_of(s["subscription_id"], limit=5)}
        for s in held.listed(game_id, role)
    ]


def fork_of(events: list[dict[str, Any]]) -> str | None:
    """The game a ruling moved play to, if one did."""
    for event in events:
        if event.get("type") == "DisputeRuled" and event["payload"].get("fork"):
            return str(event["payload"]["fork"]["game_id"])
    return None


def summaries(service: Referee, game_id: str, numbers: list[int]) -> list[dict[str, Any]]:
    """Each resolved round's summary as Markdown and BBCode, newest first."""
    return [
        {
            "round": n,
            "markdown": service.round_summary(game_id, n, "markdown", public_base()),
            "bbcode": service.round_summary(game_id, n, "bbcode", public_base()),
        }
        for n in reversed(numbers)
    ]


def forum_post(service: Referee, game_id: str) -> dict[str, Any]:
    """The moderator's next forum post (after the last one marked as posted), as Markdown
    and BBCode of the same events."""
    state = service.state(game_id)
    made = {fmt: service.post(game_id, fmt, base=public_base(), state=state) for fmt in FORMATS}
    return {
        "markdown": made["markdown"]["text"],
        "bbcode": made["bbcode"]["text"],
        "since": made["markdown"]["since"],
        "until": made["markdown"]["until"],
    }


_VERIFIED: dict[tuple[str, int], Any] = {}


def verified(service: Referee, game_id: str, version: int) -> Any:
    """`referee replay verify` of the public log, once per (game, version)."""
    key = (game_id, version)
    if key not in _VERIFIED:
        if len(_VERIFIED) > 256:
            _VERIFIED.clear()
        _VERIFIED[key] = verify_bytes(service.log(game_id, None))
    return _VERIFIED[key]


def chosen(view: dict[str, Any], text: str) -> dict[str, Any] | None:
    """The legal command a form value names, if it names one (only those are drawn)."""
    if not text:
        return None
    return next((c for c in view.get("legal") or [] if encode(c) == text), None)


def feed(
    rules: ModuleType, view: dict, events: list[dict], viewer: Viewer, seen: int
) -> list[dict[str, Any]]:
    """Sentences, newest first; a redacted event tells nothing, so it is not listed."""
    told = story.narrate(rules, events, viewer, view["players"])
    items = [
        {"seq": e["seq"], "at": e.get("recorded_at", ""), "text": text, "new": e["seq"] > seen}
        for e, text in zip(events, told, strict=True)
        if text
    ]
    return items[::-1][:FEED_AT_MOST]


def moves(rules: ModuleType, view: dict[str, Any], *, skip_orders: bool) -> list[dict[str, Any]]:
    """The legal commands grouped by kind, each with its words: buttons when a kind has
    few, a choice list when it has many."""
    shapes = command_shapes(rules)[0]
    groups: dict[str, dict[str, Any]] = {}
    for command in view.get("legal") or []:
        kind = command["type"]
        if skip_orders and kind == "submit_orders":
            continue
        group = groups.setdefault(
            kind,
            {"kind": kind, "about": shapes.get(kind, {}).get("description", ""), "choices": []},
        )
        group["choices"].append({"label": label(rules, command, view), "value": encode(command)})
    for group in groups.values():
        group["buttons"] = len(group["choices"]) <= BUTTONS_AT_MOST
    return list(groups.values())


def label(rules: ModuleType, command: dict[str, Any], view: dict[str, Any]) -> str:
    """A command in the ruleset's words, or its fields spelled out."""
    words = getattr(rules, "label", None)
    if words is not None:
        return str(words(command, view))
    fields = ", ".join(f"{k} {v}" for k, v in command.items() if k != "type")
    return command["type"].replace("_", " ").capitalize() + (f": {fields}" if fields else "")


def encode(command: dict[str, Any]) -> str:
    """A command as a form value (sent back as it is, checked by the rules)."""
    return json.dumps(command, sort_keys=True, separators=(",", ":"))


def order_fields(rules: ModuleType, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The sealed-orders form for the open round, when the seat may send orders now."""
    fields = getattr(rules, "order_fields", None)
    legal = view.get("legal") or []
    if fields is None or not any(c["type"] == "submit_orders" for c in legal):
        return []
    return forms.check_fields(fields(view))


def standing_warnings(
    service: Referee, game_id: str, view: dict[str, Any], seat: int
) -> list[dict[str, Any]]:
    """What the rules would drop from the seat's sealed orders were the round resolved
    now (the warnings its submission was answered with, kept until the deadline)."""
    mine = (open_round(view) or {}).get("my_orders")
    state = service.state(game_id)
    inspect = getattr(rules_of(state), "inspect_orders", None)
    if not mine or inspect is None:
        return []
    return list(inspect(state["rules"], seat, mine["orders"]))


def open_round(view: dict[str, Any]) -> dict[str, Any] | None:
    """The open round of a game in rounds, if one is open."""
    return (view.get("round") or {}).get("open")


def resolved_rounds(events: list[dict[str, Any]]) -> list[int]:
    """The rounds whose orders were counted (their summaries can be posted)."""
    return [e["payload"]["round"] for e in events if e.get("type") == "OrdersCounted"]


def _own_commitment(event: dict[str, Any], seat: int) -> bool:
    return event.get("type") == "OrdersCommitted" and event.get("actor") == seat


def _about(shapes: dict[str, Any], kind: str) -> str:
    return shapes.get(kind, {}).get("description", "")
