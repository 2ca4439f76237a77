"""Dark Horse drawn as one SVG from a view: the line of horses, the tokens and betting
cards on the table, each player's place, the viewer's own cards and the cards played.

Only what the view holds is drawn: another player's betting cards and hand are face-down
cards with "?" until the race is over. `highlight` (a legal command) marks the horses a
card would move and where they go, where a horse card would be laid, or the betting card
or player an exchange names.
"""

from typing import Any

from .. import _svg as svg
from . import cards
from .data import DATA, HORSES, RANKS
from .words import (
    CONTENT,
    action_of,
    card_moves,
    card_text,
    card_title,
    horses_text,
    names_text,
    ordinal,
)

View = dict[str, Any]
Content = dict[str, Any]
Marks = dict[str, Any]
Parts = list[str]
Drawn = tuple[Parts, int]  # a section's parts and the y below it

WIDTH, MARGIN = 1000, 20
CARD_W, CARD_H, CARD_GAP = 110, 130, 18
SMALL_W, SMALL_H, ROW_CARD_W = 34, 46, 20
TILE_W, TILE_H, TILE_GAP, TILES_PER_ROW = 180, 118, 12, 5
ROW_H, LINE_H, NAME_CHARS, DISCARDS_SHOWN = 34, 18, 22, 10
COLUMNS = {"player": 20, "hand": 250, "betting": 420, "token": 640, "score": 780}
INK, NOTE, WHITE, PAPER, PANEL = "#1a1a1a", "#444444", "#ffffff", "#fbf8f0", "#efe9dc"
FACE_DOWN, DARK, MARK, MARK_INK, TO_MOVE = "#3e4a61", "#111111", "#d4a000", "#7a5c00", "#fff3c4"
HORSE_COLOURS: dict[str, list[str]] = DATA["drawing"]["horse_colours"]
PHASE_NAMES = {
    "setup": "Dealing",
    "placement": "Laying the horse cards",
    "racing": "The race",
    "over": "The race is over",
}


def board(view: View, *, content: Content = CONTENT, highlight: Any = None) -> str:
    """The game as the view's viewer knows it, as one `<svg>` element."""
    marks = _marks(view, highlight)
    parts: Parts = []
    y = 0
    for section in (_header, _line, _outcome, _table, _seats, _own, _moderator, _played):
        drawn, y = section(view, y, marks, content)
        parts += drawn
    height = y + MARGIN
    title = svg.title(f"Dark Horse: {_seen_by(view)}")
    return svg.drawing(WIDTH, height, title + svg.rect(0, 0, WIDTH, height, PAPER) + "".join(parts))


# -- who is looking ----------------------------------------------------------------------


def viewer_seat(view: View) -> int | None:
    """The seat whose view this is: `view["viewer"]` when the page gives it, else the seat
    that may act (a seat's view lists legal moves only on its turn), else the one seat
    whose hand and betting-card counts match the view's own cards; None if not a seat's."""
    state = view["state"]
    if "viewer" in view:
        return view["viewer"] if isinstance(view["viewer"], int) else None
    if "hand" not in state:
        return None
    if view.get("legal") and len(view.get("to_move", [])) == 1:
        return int(view["to_move"][0])
    counts = (len(state["hand"]), len(state["betting_cards"]))
    sizes = zip(state["hand_sizes"], state["betting_card_counts"], strict=True)
    fits = [seat for seat, held in enumerate(sizes) if held == counts]
    return fits[0] if len(fits) == 1 else None


def _seen_by(view: View) -> str:
    seat, state = viewer_seat(view), view["state"]
    if seat is not None:
        return f"{_name(view, seat)}'s view"
    if "viewer" in view:
        return "the moderator's view" if view["viewer"] == "moderator" else "a spectator's view"
    if "hands" in state:
        # once the race is over every viewer sees every card
        over = state["phase"] == "over"
        return "the finished race, every card face up" if over else "the moderator's view"
    return "a player's view" if "hand" in state else "a spectator's view"


def _name(view: View, seat: int) -> str:
    players = view.get("players", [])
    name = players[seat] if 0 <= seat < len(players) else f"Seat {seat + 1}"
    return svg.shortened(name, NAME_CHARS)


# -- what the highlighted command touches ------------------------------------------------


def _marks(view: View, command: Any) -> Marks:
    """What to mark for a command: moving horses (with where they go), a horse card's place,
    a player or a betting card an exchange names, the card played, a token taken."""
    if not isinstance(command, dict):
        return {}
    kind = command.get("type")
    if kind == "place_horse":
        return {"laid": (command.get("horse"), command.get("side"))}
    if kind == "discard_betting_card":
        return {"betting": command.get("horse")}
    if kind != "play_card":
        return {}
    marks: Marks = {"card": command.get("card"), "token": bool(command.get("take_token"))}
    action = action_of(command.get("card", -1), view)
    if action is None:
        return marks
    if action["kind"] == cards.EXCHANGE:
        exchange = command.get("exchange") or {}
        return {**marks, "seat": exchange.get("seat"), "betting": exchange.get("discard")}
    line, version = view["state"]["line"], view.get("ruleset_version")
    moves = card_moves(line, action, command.get("direction"), version)
    return {**marks, "horses": {horse: end for horse, _, end in moves}}


# -- drawing pieces ----------------------------------------------------------------------


def _text(
    x: float,
    y: float,
    words: str,
    size: int = 14,
    *,
    fill: str = INK,
    bold: bool = False,
    anchor: str = "start",
) -> str:
    weight = "bold" if bold else None
    place = anchor if anchor != "start" else None
    return svg.text(x, y, words, size, fill=fill, font_weight=weight, text_anchor=place)


def _group(tip: str, parts: Parts, **attrs: Any) -> str:
    """Parts with a tooltip; `class_` and data attributes name what they show."""
    return svg.group(tip, "".join(parts), **attrs)


def _outline(marked: bool, width: int = 4) -> dict[str, Any]:
    return {"stroke": MARK, "stroke_width": width} if marked else {"stroke": INK}


def _small_card(
    x: float, y: float, horse: int | None, tip: str, *, marked: bool = False, w: int = SMALL_W
) -> str:
    """A betting card (or a horse card not laid yet), `w` wide: face up with its horse, or
    face down with '?'."""
    h = w * SMALL_H // SMALL_W
    fill, ink = HORSE_COLOURS[str(horse)] if horse is not None else (FACE_DOWN, WHITE)
    size = max(11, w * 15 // SMALL_W)
    words = "?" if horse is None else f"#{horse}"
    face = [
        svg.rect(x, y, w, h, fill, rx=4, **_outline(marked)),
        _text(x + w / 2, y + h / 2 + size / 3, words, size, fill=ink, bold=True, anchor="middle"),
    ]
    if horse is None:
        return _group(tip, face, class_="card face-down")
    return _group(tip, face, class_="card", data_horse=horse)


def _token(x: float, y: float, tip: str, *, marked: bool = False) -> str:
    circle = svg.circle(x, y, 15, DARK, **_outline(marked))
    return _group(tip, [circle, _text(x, y + 5, "DH", 12, fill=WHITE, anchor="middle")])


# -- the sections, top to bottom ---------------------------------------------------------


def _header(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    phase_text = content.get("phases", {}).get(view["state"]["phase"], "")
    return [
        _text(MARGIN, y + 34, "Dark Horse", 26, bold=True),
        _text(WIDTH - MARGIN, y + 34, _seen_by(view), anchor="end"),
        _text(MARGIN, y + 60, _status(view), 15),
        _text(MARGIN, y + 80, phase_text, 12, fill=NOTE),
    ], y + 92


def _status(view: View) -> str:
    state = view["state"]
    phase = PHASE_NAMES.get(state["phase"], state["phase"])
    pending = state.get("pending_discard")
    if pending is not None:
        who, by = _name(view, pending["seat"]), _name(view, pending["by"])
        return f"{phase}: {who} must discard a betting card (Exchange Betting Card by {by})"
    if view.get("to_move"):
        return f"{phase}: {names_text([_name(view, s) for s in view['to_move']])} to move"
    if view.get("status") not in (None, "active", "finished"):
        return f"{phase} (game {view['status']})"
    return phase


def _line(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """The horse cards left (7th, the rear) to right (1st, the front)."""
    line = list(view["state"]["line"])
    slots: list[int | None] = list(line)
    laid = marks.get("laid")
    if laid is not None:
        slots = [None, *slots] if laid[1] == "left" else [*slots, None]
    left = (WIDTH - len(slots) * CARD_W - (len(slots) - 1) * CARD_GAP) / 2
    top = y + 34
    parts = [
        _text(MARGIN, y + 20, "← rear (7th)", 13, fill=NOTE),
        _text(WIDTH / 2, y + 20, "The line of horses", 15, bold=True, anchor="middle"),
        _text(WIDTH - MARGIN, y + 20, "front (1st) →", 13, fill=NOTE, anchor="end"),
    ]
    if not slots:
        parts.append(_text(WIDTH / 2, top + 70, "No horse card laid yet", 16, anchor="middle"))
    for index, horse in enumerate(slots):
        x = left + index * (CARD_W + CARD_GAP)
        drawn = _horse_card(view, x, top, horse, marks) if horse else _ghost(x, top, laid)
        parts.append(drawn)
    if len(line) == RANKS:
        return parts, top + CARD_H + 44
    unlaid, bottom = _unlaid(line, top + CARD_H + 44, marks)
    return parts + unlaid, bottom


def _horse_card(view: View, x: float, y: float, horse: int, marks: Marks) -> str:
    state = view["state"]
    rank, racing = state["horse_ranks"][str(horse)], len(state["line"]) == RANKS
    dark, moving = horse == state.get("dark_horse"), horse in marks.get("horses", {})
    fill, ink = HORSE_COLOURS[str(horse)]
    cx, bottom = x + CARD_W / 2, y + CARD_H
    rank_words = ordinal(rank) if racing else f"{ordinal(rank)} so far"
    parts = [
        svg.rect(x, y, CARD_W, CARD_H, fill, rx=8, **_outline(moving, 6)),
        _text(cx, y + 78, f"#{horse}", 42, fill=ink, bold=True, anchor="middle"),
        svg.rect(x + 8, bottom - 36, CARD_W - 16, 28, WHITE, rx=4),
        _text(cx, bottom - 16, rank_words, 16 if racing else 13, bold=True, anchor="middle"),
    ]
    if dark:
        parts.append(svg.rect(x + 8, y + 8, CARD_W - 16, 20, DARK, rx=3))
        parts.append(_text(cx, y + 23, "DARK HORSE", 12, fill=WHITE, bold=True, anchor="middle"))
    if racing:
        points = state["rank_points"][rank - 1]
        worth = f"{points} pt{'' if points == 1 else 's'}"
        parts.append(_text(cx, bottom + 17, worth, 12, fill=NOTE, anchor="middle"))
    if moving:
        goes = f"moves to {ordinal(marks['horses'][horse])}"
        parts.append(_text(cx, bottom + 36, goes, 13, fill=MARK_INK, bold=True, anchor="middle"))
    tip = f"Horse #{horse}: {ordinal(rank)}" + (", the Dark Horse" if dark else "")
    return _group(tip, parts, class_="horse", data_horse=horse, data_rank=rank)


def _ghost(x: float, y: float, laid: Any) -> str:
    """Where the highlighted horse card would be laid."""
    horse = laid[0]
    parts = [
        svg.rect(x, y, CARD_W, CARD_H, WHITE, rx=8, stroke_dasharray="8 5", **_outline(True)),
        _text(
            x + CARD_W / 2, y + 70, f"#{horse} here", 18, fill=MARK_INK, bold=True, anchor="middle"
        ),
    ]
    return _group(f"Horse #{horse} would be laid here", parts, class_="laid-here")


def _unlaid(line: list[int], y: int, marks: Marks) -> Drawn:
    """The horse cards still to lay, the highlighted one marked."""
    waiting = [h for h in HORSES if h not in line]
    laying = (marks.get("laid") or (None, None))[0]
    parts = [_text(MARGIN, y + 4, "Horse cards still to lay:", 13)]
    for index, horse in enumerate(waiting):
        x, tip = MARGIN + 170 + index * (SMALL_W + 8), f"Horse #{horse}, not laid yet"
        parts.append(_small_card(x, y - 24, horse, tip, marked=horse == laying))
    if not waiting:
        parts.append(_text(MARGIN + 170, y + 4, "none", 13))
    return parts, y + 34


def _outcome(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    result = view.get("outcome")
    if not result:
        return [], y
    winners = [_name(view, seat) for seat in result.get("winners", [])]
    verb = "wins" if len(winners) == 1 else "share the victory"
    headline = f"{names_text(winners)} {verb} with {max(result.get('scores', [0]))} points"
    parts = [
        svg.rect(MARGIN, y, WIDTH - 2 * MARGIN, 56, TO_MOVE, rx=8, stroke=MARK, stroke_width=2),
        _text(WIDTH / 2, y + 24, headline, 18, bold=True, anchor="middle"),
    ]
    if "dark_horse" in result:
        rank, token = result["dark_horse_rank"], content["dark_horse_tokens"]
        points = token["bonus"] if rank <= token["bonus_ranks"] else token["penalty"]
        words = (
            f"The Dark Horse #{result['dark_horse']} finished {ordinal(rank)}: "
            f"each token scores {points:+d}"
        )
        parts.append(_text(WIDTH / 2, y + 45, words, 13, anchor="middle"))
    return [_group("The outcome", parts, class_="outcome")], y + 68


def _table(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """Dark Horse tokens, the betting card stack and the discarded betting cards."""
    state = view["state"]
    left = state["tokens_left"]
    parts = [
        svg.rect(MARGIN, y, WIDTH - 2 * MARGIN, 92, PANEL, rx=8),
        _text(MARGIN + 12, y + 22, f"Dark Horse tokens left: {left}", bold=True),
        _text(MARGIN + 12, y + 84, _token_rule(state, content), 12, fill=NOTE),
    ]
    for index in range(left):
        taking = marks.get("token", False) and index == left - 1
        parts.append(_token(MARGIN + 30 + index * 38, y + 50, "A Dark Horse token", marked=taking))
    return parts + _stack(state, MARGIN + 370, y) + _discards(view, MARGIN + 590, y), y + 104


def _token_rule(state: dict[str, Any], content: Content) -> str:
    dark, token = state.get("dark_horse"), content["dark_horse_tokens"]
    if dark is None:
        return "Put out once all seven horse cards are laid"
    top, bonus, penalty = ordinal(token["bonus_ranks"]), token["bonus"], token["penalty"]
    return f"Dark Horse #{dark}: {bonus:+d} if it finishes 1st-{top}, else {penalty:+d}"


def _stack(state: dict[str, Any], x: int, y: int) -> Parts:
    size = state["betting_stack_size"]
    parts = [_text(x, y + 22, f"Betting card stack: {size}", bold=True)]
    if not size:
        parts.append(_text(x, y + 50, "empty", 12, fill=NOTE))
    else:
        parts.append(_small_card(x, y + 32, None, f"{size} betting cards, face down"))
        parts.append(_text(x + SMALL_W + 10, y + 60, "face down", 12, fill=NOTE))
    return parts


def _discards(view: View, x: int, y: int) -> Parts:
    discarded = view["state"]["discarded_betting_cards"]
    parts = [_text(x, y + 22, "Discarded betting cards (face up)", bold=True)]
    if not discarded:
        parts.append(_text(x, y + 50, "none", 12, fill=NOTE))
    for index, card in enumerate(discarded[:DISCARDS_SHOWN]):
        tip = f"#{card['horse']}, discarded by {_name(view, card['seat'])}"
        parts.append(_small_card(x + index * (SMALL_W + 6), y + 32, card["horse"], tip))
    if len(discarded) > DISCARDS_SHOWN:
        parts.append(_text(x, y + 90, f"and {len(discarded) - DISCARDS_SHOWN} more", 12))
    return parts


def _seats(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """One row per player: name, whose move, action cards, betting cards, token, score."""
    heads = {"player": "Player", "hand": "Action cards", "betting": "Betting cards"}
    heads |= {"token": "Dark Horse token"} | ({"score": "Score"} if view.get("outcome") else {})
    parts = [_text(COLUMNS[col], y + 20, head, 13, bold=True) for col, head in heads.items()]
    seats = len(view["state"]["hand_sizes"])
    for seat in range(seats):
        parts.append(_seat_row(view, seat, y + 28 + seat * ROW_H, marks))
    return parts, y + 28 + seats * ROW_H + 12


def _seat_row(view: View, seat: int, y: int, marks: Marks) -> str:
    to_move = seat in view.get("to_move", [])
    named = marks.get("seat") == seat and marks.get("betting") is None
    won = seat in (view.get("outcome") or {}).get("winners", [])
    name = _name(view, seat) + ("  ▶ to move" if to_move else "") + ("  ★ winner" if won else "")
    parts = [
        svg.rect(MARGIN, y, WIDTH - 2 * MARGIN, ROW_H - 4, TO_MOVE if to_move else PANEL, rx=4),
        _text(COLUMNS["player"] + 8, y + 20, name, bold=to_move),
        _text(COLUMNS["hand"], y + 20, _hand_words(view, seat), 13),
        *_betting_cells(view, seat, y, marks),
        *_token_cell(view, seat, y),
    ]
    if named:
        parts.append(
            svg.rect(MARGIN, y, WIDTH - 2 * MARGIN, ROW_H - 4, "none", rx=4, **_outline(True))
        )
    if view.get("outcome"):
        parts.append(_text(COLUMNS["score"], y + 20, _score_words(view["outcome"], seat), 13))
    return _group(_name(view, seat), parts, class_="seat", data_seat=seat)


def _hand_words(view: View, seat: int) -> str:
    state = view["state"]
    if "hands" in state:
        numbers = [str(card["card"]) for card in state["hands"][seat]]
        return f"{len(numbers)}: {', '.join(numbers)}" if numbers else "none left"
    return f"{state['hand_sizes'][seat]} in hand"


def _token_cell(view: View, seat: int, y: int) -> Parts:
    if seat not in view["state"]["token_holders"]:
        return [_text(COLUMNS["token"], y + 20, "none", 13)]
    tip = f"{_name(view, seat)} holds a Dark Horse token"
    return [
        _token(COLUMNS["token"] + 14, y + 15, tip),
        _text(COLUMNS["token"] + 38, y + 20, "holds one", 13),
    ]


def _known_betting(view: View, seat: int) -> list[int] | None:
    """A seat's betting cards if this view shows them, else None."""
    state = view["state"]
    if "betting_cards_by_seat" in state:
        return list(state["betting_cards_by_seat"][seat])
    if "betting_cards" in state and viewer_seat(view) == seat:
        return list(state["betting_cards"])
    return None


def _betting_cells(view: View, seat: int, y: int, marks: Marks) -> Parts:
    known, count = _known_betting(view, seat), view["state"]["betting_card_counts"][seat]
    # the betting card a discard or an exchange of one's own would give up
    giving_up = marks.get("betting") if viewer_seat(view) == seat else None
    parts = []
    for index in range(count):
        horse = None if known is None else known[index]
        face = "face down" if horse is None else f"#{horse}"
        x = COLUMNS["betting"] + index * (ROW_CARD_W + 5)
        marked = horse is not None and horse == giving_up
        tip = f"{_name(view, seat)}'s betting card: {face}"
        parts.append(_small_card(x, y + 2, horse, tip, marked=marked, w=ROW_CARD_W))
    words = f"{count} card{'s' if count != 1 else ''}" + (" face down" if known is None else "")
    parts.append(_text(COLUMNS["betting"] + count * (ROW_CARD_W + 5) + 6, y + 20, words, 12))
    return parts


def _score_words(result: dict[str, Any], seat: int) -> str:
    scores, detail = result.get("scores", []), result.get("seats", [])
    words = str(scores[seat]) if seat < len(scores) else "?"
    if seat < len(detail):
        token = detail[seat]["token_points"]
        words += f" = {detail[seat]['betting_points']} bets" + (
            f" {token:+d} token" if token else ""
        )
    return words


def _own(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """The viewer's own betting cards and action cards, each with what it does."""
    state = view["state"]
    if "hand" not in state:
        return [], y
    parts = [_text(MARGIN, y + 20, "Your betting cards:", 15, bold=True)]
    for index, horse in enumerate(state["betting_cards"]):
        x, tip = MARGIN + 170 + index * (SMALL_W + 8), f"Your betting card on #{horse}"
        parts.append(_small_card(x, y + 2, horse, tip, marked=horse == marks.get("betting")))
    if not state["betting_cards"]:
        parts.append(_text(MARGIN + 170, y + 20, "none", 13))
    heading = f"Your action cards ({len(state['hand'])}):"
    parts.append(_text(MARGIN, y + 76, heading, 15, bold=True))
    tiles, bottom = _tiles(state["hand"], y + 88, marks, content)
    return parts + tiles, bottom


def _tiles(hand: list[dict[str, Any]], y: int, marks: Marks, content: Content) -> Drawn:
    parts = [] if hand else [_text(MARGIN, y + 18, "none left", 13)]
    for index, held in enumerate(hand):
        row, col = divmod(index, TILES_PER_ROW)
        x, top = MARGIN + col * (TILE_W + TILE_GAP), y + row * (TILE_H + TILE_GAP)
        parts.append(_tile(x, top, held, held["card"] == marks.get("card"), content))
    rows = max(1, -(-len(hand) // TILES_PER_ROW))
    return parts, y + rows * (TILE_H + TILE_GAP)


def _tile(x: float, y: float, held: dict[str, Any], marked: bool, content: Content) -> str:
    """An action card of the viewer's hand: its number, its face, what it does."""
    action, number = held["action"], held["card"]
    short = {f"{kind}_short": text for kind, text in content["action_kinds_short"].items()}
    texts = {**content["action_kinds"], **short}
    parts = [
        svg.rect(x, y, TILE_W, TILE_H, WHITE, rx=6, **_outline(marked, 5)),
        _text(x + 8, y + 17, f"Card {number}", 12, fill=NOTE),
    ]
    titles = svg.wrapped(card_title(action), 21)[:2]
    for index, words in enumerate(titles):
        parts.append(_text(x + 8, y + 34 + index * 16, words, 13, bold=True))
    top = y + 40 + len(titles) * 16
    room = int(y + TILE_H - top) // 13
    lines = svg.wrapped(card_text(action, texts=texts, short=True), 28)[:room]
    for index, words in enumerate(lines):
        parts.append(_text(x + 8, top + index * 13, words, 11, fill=NOTE))
    tip = f"Card {number}: {card_text(action, texts=texts)}"
    return _group(tip, parts, class_="action-card", data_card=number)


def _moderator(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """What only the moderator sees while play goes on: the stack's order, the cards set aside."""
    state = view["state"]
    if "betting_stack_cards" not in state or state["phase"] == "over":
        return [], y
    stack, aside = state["betting_stack_cards"], [str(c["card"]) for c in state["set_aside"]]
    lines = [
        "Betting card stack, top first: " + (horses_text(stack) if stack else "empty"),
        "Action cards set aside: " + (", ".join(aside) or "none"),
    ]
    parts = [_text(MARGIN, y + 20, "Moderator only", 15, bold=True)]
    for index, words in enumerate(lines):
        parts.append(_text(MARGIN, y + 42 + index * LINE_H, words, 13))
    return parts, y + 42 + len(lines) * LINE_H


def _played(view: View, y: int, marks: Marks, content: Content) -> Drawn:
    """The action cards played this race, in order, in two columns."""
    played = view["state"]["played"]
    parts = [_text(MARGIN, y + 20, f"Cards played this race ({len(played)})", 15, bold=True)]
    if not played:
        return parts + [_text(MARGIN, y + 42, "none yet", 13)], y + 52
    half = -(-len(played) // 2)
    for index, play in enumerate(played):
        col, row = divmod(index, half)
        x, top = MARGIN + col * (WIDTH - 2 * MARGIN) / 2, y + 42 + row * LINE_H
        parts.append(_text(x, top, f"{index + 1}. {_play_words(view, play)}", 12))
    return parts, y + 42 + half * LINE_H


def _play_words(view: View, play: dict[str, Any]) -> str:
    said = f"{_name(view, play['seat'])}: card {play['card']}, {card_title(play['action'])}"
    if "direction" in play:
        return f"{said} ({play['direction']})"
    if play["action"]["kind"] != cards.EXCHANGE:
        return said
    exchange = play.get("exchange")
    if exchange is None:
        return f"{said} (no effect)"
    if "discard" in exchange:
        return f"{said} (own #{exchange['discard']})"
    return f"{said} ({_name(view, exchange['seat'])} exchanges)"
