"""Blackout Middle drawn from a view alone, as one `<svg>`: the track with the horses as
the viewer knows them (where its spectating showed them, the finished ones in the finish
area, the rest as not seen; every horse where it is for the moderator and once the match
is over), the round, who has sealed orders and the public spectating table, the viewing
seat's own table (chips, limit, garnets, cards, bets, what it learned) and the scores.

Pure and deterministic; every text is escaped; presentation attributes only."""

from typing import Any

from .. import _svg as svg
from .data import DATA, HORSES, LAST_ROUND, START_SPACE, TRACK_LENGTH
from .words import (
    CONTENT,
    bets_text,
    cards_text,
    learned_text,
    name,
    orders_text,
    ordinal,
    trade_text,
)

View = dict[str, Any]
Content = dict[str, Any]
Marked = dict[str, Any]  # what the highlighted command names: space, horses, cards, seat
DRAW: dict[str, Any] = DATA["drawing"]
INK: dict[str, str] = DRAW["colours"]
WIDTH, MARGIN, SPACE = DRAW["width"], DRAW["margin"], DRAW["space_width"]
TOKEN, LINE = DRAW["token_height"], DRAW["line_height"]
FONT, SMALL, HEADING = DRAW["font_size"], DRAW["small_font_size"], DRAW["heading_font_size"]
WRAP = DRAW["wrap_chars"]
TRACK_TOP = 70  # below the two heading lines
TRACK_HEIGHT = 30 + len(HORSES) * (TOKEN + 2)  # the space numbers, then a stack of every horse
FINISH_X = MARGIN + TRACK_LENGTH * SPACE + 10
NAME_CHARS = 16  # a name longer than this is cut in the tables (the tooltip has it whole)


def board(view: View, *, content: dict[str, Any] = CONTENT, highlight: Any = None) -> str:
    """The view as an SVG element (role img, a title, a viewBox, no width or height).
    `highlight`, a legal command, is marked: a submission's space and bet horses, the card
    of a trade or purchase, the seat given a ToL."""
    state, players = view.get("state") or {}, list(view.get("players") or [])
    marked = _marked(highlight)
    parts: list[str] = []
    y = _heading(parts, view, state, players)
    y = _track(parts, state, content, marked, y)
    y = _public(parts, view, state, players, y)
    you = state.get("you")
    if you is not None:
        y = _own_table(parts, view, you, players, content, marked, y)
    for seat in state.get("seats_private") or []:
        y = _seat_lines(parts, seat, players, y)
    y = _outcome(parts, state, players, marked, y)
    title = svg.title(f"Blackout Middle: {_whose(view, state, players)}, {_round_words(state)}")
    background = svg.rect(0, 0, WIDTH, y + MARGIN, INK["background"])
    return svg.drawing(WIDTH, y + MARGIN, title + background + "".join(parts))


# --- pieces ----------------------------------------------------------------------


def _text(x: float, y: float, words: Any, *, size: int = FONT, **attrs: Any) -> str:
    shown = attrs if "fill" in attrs else {"fill": INK["ink"], **attrs}
    return svg.text(x, y, words, size, **shown)


def _lines(parts: list[str], texts: list[str], y: int, *, x: int = MARGIN) -> int:
    """Texts one under the other (long ones wrapped); the y below them."""
    for words in texts:
        for line in svg.wrapped(words, WRAP):
            y += LINE
            parts.append(_text(x, y, line))
    return y


def _section(parts: list[str], heading: str, y: int) -> int:
    y += LINE + 10
    parts.append(_text(MARGIN, y, heading, size=HEADING, font_weight="bold"))
    return y


def _token(x: int, y: int, horse: str, words: str, tip: str, content: Content, **how: Any) -> str:
    """A horse's token: its colour, its letter (and a note), a tooltip; dashed if unknown."""
    shown = content["horses"].get(horse, {})
    fill, ink = shown.get("colour", INK["unknown"]), shown.get("ink", INK["ink"])
    if how.get("unknown"):
        fill, ink = INK["unknown"], INK["ink"]
    edge = INK["highlight"] if how.get("marked") else INK["ink"]
    outline = {
        "stroke": edge,
        "stroke_width": 3 if how.get("marked") else 1,
        "stroke_dasharray": "4 3" if how.get("unknown") else None,
    }
    wide = how.get("wide", SPACE - 10)
    return svg.group(
        tip,
        svg.rect(x, y, wide, TOKEN, fill, rx=5, **outline)
        + _text(x + 5, y + TOKEN - 6, words, size=SMALL, fill=ink, font_weight="bold"),
    )


# --- heading ---------------------------------------------------------------------


def _whose(view: View, state: dict[str, Any], players: list[str]) -> str:
    """Whose view: the page may name the viewer (`viewer`); else the view tells (a seat's
    has `you`, the moderator's every seat's secrets, as everyone's does once it is over)."""
    over = view.get("status") in ("finished", "abandoned")
    if "viewer" in view:
        viewer = view["viewer"]
        whose = {None: "a spectator's view", "moderator": "the moderator's view"}.get(viewer)
        whose = whose or f"{name(players, viewer)}'s view"
        return whose + (" (the match is over: all revealed)" if over else "")
    if state.get("you") is not None:
        return f"{name(players, state['you'].get('seat'))}'s view"
    if state.get("seats_private") is not None:
        return "everyone's view of the match (all revealed)" if over else "the moderator's view"
    return "a spectator's view"


def _round_words(state: dict[str, Any]) -> str:
    opened = state.get("open_round")
    if opened is not None:
        return f"Round {opened['round']} (of Rounds 0-{LAST_ROUND}) open"
    if state.get("phase") == "awards":
        return "the awards"
    if state.get("phase") == "over":
        return "the match is over"
    return f"Round {state.get('round')}"


def _heading(parts: list[str], view: View, state: dict[str, Any], players: list[str]) -> int:
    whose = _whose(view, state, players)
    parts.append(_text(MARGIN, 28, f"Blackout Middle: {whose}", size=HEADING, font_weight="bold"))
    opened = (view.get("round") or {}).get("open") or {}
    status = _round_words(state)
    if opened.get("closed"):
        status += ", closed: waiting to be resolved"
    elif opened:
        status += ": taking sealed orders"
    if (view.get("round") or {}).get("paused"):
        status += " (paused)"
    parts.append(_text(MARGIN, 50, status[0].upper() + status[1:] + "."))
    return TRACK_TOP


# --- the track -------------------------------------------------------------------


def _where(state: dict[str, Any]) -> tuple[dict[int, list[tuple[str, str, str]]], list[str]]:
    """Each space's horses as (horse, note, tooltip), and the horses not seen on the track.
    From the positions when the view has them, else from the seat's spectating."""
    finished = {f["horse"] for f in state.get("finished") or []}
    on_space: dict[int, list[tuple[str, str, str]]] = {}
    positions = state.get("positions")
    if positions is not None:
        for horse in sorted(h for h in positions if h not in finished):
            tip = f"Horse {horse}: on space {positions[horse]}"
            on_space.setdefault(positions[horse], []).append((horse, horse, tip))
        return on_space, []
    last_seen = _last_seen(state.get("you") or {})
    for horse, (r, space) in sorted(last_seen.items()):
        if horse not in finished:
            tip = f"Horse {horse}: seen on space {space} at the end of Round {r}"
            on_space.setdefault(space, []).append((horse, f"{horse} R{r}", tip))
    unknown = [h for h in HORSES if h not in finished and h not in last_seen]
    return on_space, unknown


def _last_seen(you: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each horse's latest sighting by this seat: (round, space)."""
    seen: dict[str, tuple[int, int]] = {}
    for r, found in sorted((you.get("seen") or {}).items(), key=lambda i: int(i[0])):
        for horse in found.get("horses") or []:
            seen[horse] = (int(r), found["space"])
    return seen


def _track(
    parts: list[str], state: dict[str, Any], content: Content, marked: Marked, y: int
) -> int:
    current = ((state.get("you") or {}).get("current_space") or {}).get("space")
    for space in range(START_SPACE, TRACK_LENGTH + 1):
        x = MARGIN + (space - START_SPACE) * SPACE
        fill = INK["current_space"] if space == current else INK["space"]
        edge, thick = (
            (INK["highlight"], 3) if space == marked.get("space") else (INK["space_edge"], 1)
        )
        tip = f"Space {space}" + (": your current space" if space == current else "")
        box = svg.rect(x, y, SPACE - 4, TRACK_HEIGHT, fill, stroke=edge, stroke_width=thick)
        parts.append(svg.group(tip, box + _text(x + 4, y + 18, space, font_weight="bold")))
    on_space, unknown = _where(state)
    for space, horses in sorted(on_space.items()):
        x = MARGIN + (space - START_SPACE) * SPACE + 3
        for i, (horse, words, tip) in enumerate(horses):
            top = y + 26 + i * (TOKEN + 2)
            bet = horse in marked.get("horses", ())
            parts.append(_token(x, top, horse, words, tip, content, marked=bet))
    _finish_area(parts, state, content, y)
    y += TRACK_HEIGHT
    notes = []
    if current is not None:
        notes.append(f"Your current space: {current} (shaded).")
    if state.get("positions") is None and state.get("you") is not None:
        notes.append("R3 on a horse: seen there at the end of Round 3.")
    if notes:
        y = _lines(parts, [" ".join(notes)], y)
    return _not_seen(parts, unknown, content, y)


def _finish_area(parts: list[str], state: dict[str, Any], content: Content, y: int) -> None:
    wide = WIDTH - MARGIN - FINISH_X
    parts.append(
        svg.rect(FINISH_X, y, wide, TRACK_HEIGHT, INK["finish"], stroke=INK["space_edge"])
        + _text(FINISH_X + 6, y + 18, "Finished", font_weight="bold")
    )
    for i, done in enumerate(sorted(state.get("finished") or [], key=lambda f: f["placement"])):
        left = ", ".join(f"R{r}: {v}" for r, v in sorted(done["movements"].items(), key=_round))
        tip = (
            f"Horse {done['horse']}: finished {ordinal(done['placement'])} in Round "
            f"{done['round']}; movement values left: {left or 'none'}"
        )
        words = f"{ordinal(done['placement'])} {done['horse']} (Round {done['round']})"
        top = y + 26 + i * (TOKEN + 2)
        parts.append(_token(FINISH_X + 5, top, done["horse"], words, tip, content, wide=wide - 10))


def _round(item: tuple[str, Any]) -> int:
    return int(item[0])


def _not_seen(parts: list[str], unknown: list[str], content: Content, y: int) -> int:
    if not unknown:
        return y
    y += 8
    parts.append(_text(MARGIN, y + TOKEN - 6, "Not seen, whereabouts unknown:"))
    for i, horse in enumerate(unknown):
        x = MARGIN + 220 + i * SPACE
        tip = f"Horse {horse}: not seen on the track, whereabouts unknown"
        parts.append(_token(x, y, horse, f"{horse} ?", tip, content, unknown=True))
    return y + TOKEN


# --- what everyone knows ---------------------------------------------------------


def _public(parts: list[str], view: View, state: dict[str, Any], players: list[str], y: int) -> int:
    """The spectating table (public) and who has sealed orders for the open round."""
    y = _section(parts, "Spectating and sealed orders (public)", y)
    opened = (view.get("round") or {}).get("open")
    spectating = state.get("spectating") or {}
    header = ["Player", *[f"R{r}" for r in range(1, LAST_ROUND + 1)]]
    if opened:
        header.append(f"Round {opened['round']} orders")
    y += LINE
    for i, words in enumerate(header):
        parts.append(_text(_column(i), y, words, font_weight="bold"))
    for seat, player in enumerate(players):
        y += LINE
        parts.append(svg.group(player, _text(_column(0), y, svg.shortened(player, NAME_CHARS))))
        for r in range(1, LAST_ROUND + 1):
            spaces = spectating.get(str(r))
            if spaces is not None and seat < len(spaces):
                parts.append(_text(_column(r), y, "–" if spaces[seat] is None else spaces[seat]))
        if opened:
            parts.append(_sealed(seat, bool(opened["submitted"][seat]), y))
    return _lines(parts, ["A number: the space spectated that round; –: none."], y)


def _column(i: int) -> int:
    return MARGIN if i == 0 else MARGIN + 150 + (i - 1) * 55


def _sealed(seat: int, sealed: bool, y: int) -> str:
    x = _column(LAST_ROUND + 1)
    if not sealed:
        return _text(x, y, "waiting", fill=INK["faint_ink"])
    return svg.group(
        "Orders sealed: only their commitment is public",
        svg.circle(x + 7, y - 4, 7, INK["sealed"])
        + _text(x + 4, y, "?", size=SMALL, fill="#ffffff", font_weight="bold")
        + _text(x + 20, y, "sealed"),
    )


# --- the viewing seat's own table ------------------------------------------------


def _own_table(
    parts: list[str],
    view: View,
    you: dict[str, Any],
    players: list[str],
    content: Content,
    marked: Marked,
    y: int,
) -> int:
    y = _section(parts, f"Your table ({name(players, you.get('seat'))}, private)", y)
    y = _lines(parts, [_counts_line(you)], y)
    y = _hand(parts, you, content, marked, y)
    return _lines(parts, _own_lines(view, you, players), y)


def _counts_line(you: dict[str, Any]) -> str:
    return (
        f"Chips {you.get('chips')} · chip limit {you.get('chip_limit')} a round · garnets "
        f"{you.get('garnets')} (next card costs {you.get('next_purchase_cost')}) · spectator "
        f"points {you.get('spectator_points')} · utility points "
        f"{sum((you.get('utility_points') or {}).values())}"
    )


def _hand(parts: list[str], you: dict[str, Any], content: Content, marked: Marked, y: int) -> int:
    hand, offered = you.get("hand") or {}, you.get("on_offer") or {}
    y += 8
    parts.append(_text(MARGIN, y + TOKEN - 6, "Horse cards:" if hand else "Horse cards: none"))
    for i, horse in enumerate(h for h in HORSES if hand.get(h)):
        held = f"{horse} x{hand[horse]}" + (
            f", {offered[horse]} offered" if offered.get(horse) else ""
        )
        tip = f"{hand[horse]} card(s) {horse}" + (
            f", {offered[horse]} on offer" if offered.get(horse) else ""
        )
        mark = horse in marked.get("cards", ())
        parts.append(
            _token(MARGIN + 100 + i * 96, y, horse, held, tip, content, marked=mark, wide=95)
        )
    return y + TOKEN


def _own_lines(view: View, you: dict[str, Any], players: list[str]) -> list[str]:
    space = you.get("current_space")
    lines = [
        "Current space: none"
        if not space
        else f"Current space: {space['space']}, horses seen there: {cards_text(space['horses'])}"
    ]
    opened = (view.get("round") or {}).get("open") or {}
    if opened:
        mine = opened.get("my_orders")
        sealed = f"sealed: {orders_text(mine['orders'])}" if mine else "none sealed yet"
        lines.append(f"Your Round {opened['round']} orders: {sealed}")
    bets = [
        f"Round {r}: {bets_text(b)}" for r, b in sorted((you.get("bets") or {}).items(), key=_round)
    ]
    lines.append("Bets: " + ("; ".join(bets) or "none"))
    if you.get("watching"):
        lines.append(f"Watching chips on: {cards_text(you['watching'])}")
    lines += [
        f"Learned, Round {found['round']} {found['kind']}: {learned_text(found, players)}"
        for found in you.get("learned") or []
    ]
    lines += _dropped(you)
    lines += [
        f"Open offer {o['offer']}: {trade_text(o, players)}" for o in you.get("open_offers") or []
    ]
    return lines


def _dropped(you: dict[str, Any]) -> list[str]:
    return [
        f"Dropped from your Round {r} orders: " + "; ".join(d["message"] for d in judged["dropped"])
        for r, judged in sorted((you.get("judged") or {}).items(), key=_round)
        if judged.get("dropped")
    ]


def _seat_lines(parts: list[str], seat: dict[str, Any], players: list[str], y: int) -> int:
    """One seat's secrets in short, for the moderator (and everyone once the match is over)."""
    who = name(players, seat.get("seat"))
    y = _section(parts, f"{who}'s table", y)
    hand = ", ".join(f"{h} x{n}" for h, n in (seat.get("hand") or {}).items()) or "none"
    bets = [
        f"R{r}: {bets_text(b)}" for r, b in sorted((seat.get("bets") or {}).items(), key=_round)
    ]
    learned = [
        f"R{f['round']} {f['kind']}: {learned_text(f, players)}" for f in seat.get("learned") or []
    ]
    return _lines(
        parts,
        [_counts_line(seat), f"Cards: {hand}", "Bets: " + ("; ".join(bets) or "none"), *learned],
        y,
    )


# --- the end ---------------------------------------------------------------------


def _outcome(
    parts: list[str], state: dict[str, Any], players: list[str], marked: Marked, y: int
) -> int:
    scores = state.get("scores")
    if not scores:
        return y
    y = _section(parts, "Scores", y)
    tols = state.get("tols") or {}
    given = {**(tols.get("won") or {}), **(tols.get("given") or {})}
    candidate = (state.get("elimination") or {}).get("candidate")
    header = ["Player", "Chips", "Spectating", "Utility", "Total", "Garnets", "ToLs", ""]
    y += LINE
    for i, words in enumerate(header):
        parts.append(_text(_score_column(i), y, words, font_weight="bold"))
    for row in sorted(scores["seats"], key=lambda s: (-s["total"], s["seat"])):
        y += LINE
        seat = row["seat"]
        note = "Elimination Candidate" if seat == candidate else ""
        cells = [
            svg.shortened(name(players, seat), NAME_CHARS),
            row["chip_points"],
            row["spectator_points"],
            row["utility_points"],
            row["total"],
            row["garnets_awarded"],
            given.get(str(seat), 0),
            note,
        ]
        weight = "bold" if seat == marked.get("seat") else "normal"
        for i, cell in enumerate(cells):
            parts.append(_text(_score_column(i), y, cell, font_weight=weight))
    return _lines(parts, _outcome_notes(state, scores, players), y)


def _score_column(i: int) -> int:
    return MARGIN + (0 if i == 0 else 150 + (i - 1) * 95)


def _outcome_notes(state: dict[str, Any], scores: dict[str, Any], players: list[str]) -> list[str]:
    order = ", ".join(f"{ordinal(i)} {h}" for i, h in enumerate(scores["order"], start=1))
    notes = [f"Final order of the horses: {order}.", "Garnets: awarded, 1 per 30 points."]
    choice = (state.get("tols") or {}).get("choice")
    if choice:
        among = ", ".join(name(players, s) for s in choice["among"])
        notes.append(f"{name(players, choice['chooser'])} must give a ToL to one of: {among}.")
    found = state.get("elimination") or {}
    if found and found.get("candidate") is None:
        tied = ", ".join(name(players, s) for s in found.get("tied", []))
        notes.append(f"Tied for the fewest points: {tied}; the moderator records the vote.")
    return notes


# --- the command looked at -------------------------------------------------------


def _marked(command: Any) -> Marked:
    """What the board marks for a legal command: a space, bet horses, cards, a seat."""
    if not isinstance(command, dict):
        return {}
    kind = command.get("type")
    if kind == "submit_orders":
        orders = command.get("orders") or {}
        bets = orders.get("bets")
        return {
            "space": orders.get("spectate"),
            "horses": tuple(bets) if isinstance(bets, dict) else (),
        }
    if kind == "offer_trade":
        return {"cards": (command.get("give"),)}
    if kind == "buy_card":
        return {"cards": (command.get("horse"),)}
    if kind == "give_tol":
        return {"seat": command.get("seat")}
    return {}
