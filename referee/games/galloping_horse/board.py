"""Galloping Horse drawn as players know it: the 22-space loop, the four horses on it,
each player's food and hand, the viewer's own race cards, and the result once over.

Drawn from a view alone (`GET /games/{id}`), as one `<svg>` with presentation attributes
only; every text is escaped. Colours and words come from the ruleset's data file.
"""

import math
from typing import Any

from .. import _svg as svg
from .data import DATA
from .track import TRACK, first_empty_ahead

WIDTH, HEIGHT = 1000, 720
CX, CY = 390, 340  # centre of the loop
STRAIGHT, BEND = 320, 160  # length of each straight, radius of each bend (centre line)
LANE = 84  # width of the track band
SPACE_R, HORSE_R = 30, 26
NUMBER_OUT = 50  # how far outside the centre line the space numbers sit
PANEL_X, PANEL_W, SEAT_H = 790, 200, 124
HAND_Y, CARD_W, CARD_H = 612, 120, 70
FONT = "sans-serif"
NAME_FITS = 18  # characters of a player's name that fit in a seat's box
SEAT_BOX: dict[str, Any] = {"width": PANEL_W, "height": SEAT_H, "rx": 8, "fill": "#ffffff"}
BOLD_END: dict[str, Any] = {"anchor": "end", "weight": "bold"}
BOLD_MIDDLE: dict[str, Any] = {"anchor": "middle", "weight": "bold"}


def _content(data: dict[str, Any]) -> dict[str, Any]:
    """What a client needs to explain the ids in views and commands."""
    pages = data["pages"]
    return {
        "horses": {
            h: {"name": pages["horses"][h]["name"], "colour": pages["horses"][h]["fill"]}
            for h in data["horses"]
        },
        "track": {"spaces": data["track_spaces"], "start_space": 0, "text": pages["track"]},
        "race_cards": {
            "per_horse": data["cards_per_horse"],
            "hand_size": data["hand_size"],
            "text": pages["race_card"],
        },
        "food_cards": {"stack": data["food_cards"], "text": pages["food_card"]},
        "rounds": data["rounds"],
        "drawing": {"horses": pages["horses"], "colours": pages["colours"]},
    }


CONTENT: dict[str, Any] = _content(DATA)


def board(
    view: dict[str, Any],
    *,
    content: dict[str, Any] = CONTENT,
    highlight: dict[str, Any] | None = None,
) -> str:
    """The table as one <svg>: track, horses, players, the viewer's hand, the result."""
    state = view.get("state") or {}
    names = [str(n) for n in view.get("players", [])]
    colours = content["drawing"]["colours"]
    parts = [
        svg.title(f"Galloping Horse: {_whose_view(view, names)}"),
        svg.element("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill=colours["paper"]),
        _header(view, names, content),
        _track(content),
        _infield(state, content),
        *_horses(state, content),
        _highlight(state, content, highlight),
        *_seats(view, names, content),
        _hand(state, content),
    ]
    return svg.drawing(WIDTH, HEIGHT, "".join(parts), FONT)


def landing(state: dict[str, Any], horse: str) -> dict[str, Any] | None:
    """Where playing `horse` would take it, by the rules' movement (None if not on the track)."""
    horses = state.get("horses") or {}
    if horse not in horses:
        return None
    distance = {h: place["distance"] for h, place in horses.items()}
    to = first_empty_ahead(distance, horse)
    leads = all(to > d for h, d in distance.items() if h != horse)
    return {
        "from": horses[horse]["space"],
        "to": to % TRACK,
        "distance": to,
        "leads": leads,
        "food": leads and state.get("food_stack", 0) > 0,
    }


def horse_name(horse: str, content: dict[str, Any] = CONTENT) -> str:
    """A horse's name as players say it ("Red")."""
    return str(content["horses"].get(horse, {}).get("name", horse))


def race_order(state: dict[str, Any]) -> list[str]:
    """The horses, front (greatest distance) first."""
    horses = state.get("horses") or {}
    return sorted(horses, key=lambda h: -horses[h]["distance"])


# --- the parts of the drawing


def _whose_view(view: dict[str, Any], names: list[str]) -> str:
    seat = _viewer_seat(view)
    state = view.get("state") or {}
    if seat is not None:
        return f"{_name(names, seat)}'s view"
    if "hand" in state:
        return "a player's view"
    if view.get("viewer") == "moderator" or ("hands" in state and view.get("status") == "active"):
        return "moderator's view"
    if "hands" in state:
        return "the table after the game"
    return "spectator's view"


def _viewer_seat(view: dict[str, Any]) -> int | None:
    """The viewing seat when the view tells it: a `viewer` key, or the seat offered moves."""
    viewer = view.get("viewer")
    if isinstance(viewer, int) and not isinstance(viewer, bool):
        return viewer
    if "hand" in (view.get("state") or {}) and view.get("legal") and view.get("to_move"):
        return int(view["to_move"][0])
    return None


def _header(view: dict[str, Any], names: list[str], content: dict[str, Any]) -> str:
    words = f"Galloping Horse: {_progress(view, names, content)}"
    return _text(20, 38, words, size=20, weight="bold")


def _progress(view: dict[str, Any], names: list[str], content: dict[str, Any]) -> str:
    state = view.get("state") or {}
    status = view.get("status", "active")
    outcome = view.get("outcome")
    if outcome:
        return f"game over. {winners_sentence(outcome, names)}."
    if status != "active":
        return f"game {status}"
    round_ = f"round {state.get('round', 0)} of {content['rounds']}"
    turn = state.get("turn")
    return round_ if turn is None else f"{round_}, {_name(names, turn)} to play"


def winners_sentence(outcome: dict[str, Any], names: list[str]) -> str:
    """Who won and with how much food ("Dan wins with 8 food cards")."""
    winners = [_name(names, s) for s in outcome.get("winners", [])]
    if not winners:
        return "nobody wins"
    scores = outcome.get("scores", [])
    best = scores[outcome["winners"][0]] if winners and scores else 0
    food = f"{best} food card{'' if best == 1 else 's'}"
    if len(winners) == 1:
        return f"{winners[0]} wins with {food}"
    return f"{join_words(winners)} share the victory with {food} each"


def _track(content: dict[str, Any]) -> str:
    colours = content["drawing"]["colours"]
    left, top = CX - STRAIGHT / 2, CY - BEND
    loop = (
        f"M {left} {top} h {STRAIGHT} a {BEND} {BEND} 0 0 1 0 {2 * BEND}"
        f" h {-STRAIGHT} a {BEND} {BEND} 0 0 1 0 {-2 * BEND} Z"
    )
    band = svg.element(
        "path", d=loop, fill=colours["infield"], stroke=colours["track"], stroke_width=LANE
    )
    spaces = [_space(n, content) for n in range(content["track"]["spaces"])]
    return svg.element("g", band + _start_line(colours) + "".join(spaces), data_part="track")


def _start_line(colours: dict[str, str]) -> str:
    x, top = CX - STRAIGHT / 2, CY - BEND
    line = {"x1": x, "y1": top - LANE / 2, "x2": x, "y2": top + LANE / 2}
    white = svg.element("line", **line, stroke="#ffffff", stroke_width=8)
    chequer = svg.element(
        "line", **line, stroke=colours["ink"], stroke_width=8, stroke_dasharray="6 6"
    )
    label = _text(x, top + LANE / 2 + 18, "Start / finish", size=12, anchor="middle")
    tip = svg.title("The start/finish line: space 0 lies just past it, clockwise.")
    return svg.element("g", tip + white + chequer + label, data_part="start-finish")


def _space(number: int, content: dict[str, Any]) -> str:
    colours = content["drawing"]["colours"]
    x, y = _space_point(number, content)
    nx, ny = _space_point(number, content, out=NUMBER_OUT)
    edge = {"stroke": colours["space_edge"], "stroke_width": 2}
    disc = svg.element("circle", cx=x, cy=y, r=SPACE_R, fill=colours["space"], **edge)
    label = _text(nx, ny + 5, str(number), size=14, anchor="middle", weight="bold")
    tip = svg.title(f"Space {number}")
    return svg.element("g", tip + disc + label, data_space=number)


def _infield(state: dict[str, Any], content: dict[str, Any]) -> str:
    x, y = CX - STRAIGHT / 2 + 14, CY - BEND + LANE / 2 + 48
    lines = [("Race order, front first (clockwise):", "bold")]
    for place, horse in enumerate(race_order(state), start=1):
        lines.append((f"{place}. {_whereabouts(horse, state['horses'][horse], content)}", ""))
    line_up = ", ".join(horse_name(h, content) for h in state.get("line_up") or [])
    lines.append((f"Line-up, rear to front: {line_up or 'not yet drawn'}", ""))
    if "food_stack" in state:
        lines.append((f"Food stack: {state['food_stack']} cards left", ""))
    texts = [
        _text(x, y + 22 * i, words, size=13, weight=weight or "normal")
        for i, (words, weight) in enumerate(lines)
    ]
    return svg.element("g", "".join(texts), data_part="infield")


def _whereabouts(horse: str, where: dict[str, int], content: dict[str, Any]) -> str:
    lap = where["distance"] // content["track"]["spaces"] + 1
    name = horse_name(horse, content)
    return f"{name}: space {where['space']}, distance {where['distance']} (lap {lap})"


def _horses(state: dict[str, Any], content: dict[str, Any]) -> list[str]:
    horses = state.get("horses") or {}
    return [_horse(h, horses[h], content) for h in content["horses"] if h in horses]


def _horse(horse: str, where: dict[str, int], content: dict[str, Any]) -> str:
    look = content["drawing"]["horses"][horse]
    name = horse_name(horse, content)
    x, y = _space_point(where["space"], content)
    edge = {"stroke": content["drawing"]["colours"]["ink"], "stroke_width": 2}
    marker = svg.element("circle", cx=x, cy=y, r=HORSE_R, fill=look["fill"], **edge)
    label = _text(x, y + 4, name, size=11, fill=look["ink"], **BOLD_MIDDLE)
    tip = svg.title(_whereabouts(horse, where, content))
    return svg.element("g", tip + marker + label, data_horse=horse, data_space=where["space"])


def _highlight(
    state: dict[str, Any], content: dict[str, Any], highlight: dict[str, Any] | None
) -> str:
    if not highlight or highlight.get("type") != "play_card":
        return ""
    horse = str(highlight.get("horse"))
    move = landing(state, horse)
    if move is None:
        return ""
    colour = content["drawing"]["colours"]["highlight"]
    name = horse_name(horse, content)
    ring = {"fill": "none", "stroke": colour, "stroke_width": 5}
    x, y = _space_point(move["from"], content)
    tx, ty = _space_point(move["to"], content)
    parts = [
        svg.element("circle", cx=x, cy=y, r=SPACE_R + 6, **ring),
        svg.element("circle", cx=tx, cy=ty, r=SPACE_R + 6, stroke_dasharray="8 5", **ring),
        _inside_label(move["to"], f"{name} lands here", content, fill=colour),
        _text(20, 64, f"Play {name}: {move_words(name, move)}", size=14, fill=colour),
    ]
    tip = svg.title(f"{name} would move to space {move['to']}")
    return svg.element(
        "g", tip + "".join(parts), data_part="highlight", data_horse=horse, data_space=move["to"]
    )


def _inside_label(space: int, words: str, content: dict[str, Any], *, fill: str) -> str:
    """A label just inside the loop from a space, leaning away from the bends."""
    x, y = _space_point(space, content, out=-(SPACE_R + 14))
    anchor = "middle"
    if x > CX + STRAIGHT / 2:
        anchor = "end"
    elif x < CX - STRAIGHT / 2:
        anchor = "start"
    return _text(x, y + 4, words, size=12, fill=fill, anchor=anchor, weight="bold")


def move_words(name: str, move: dict[str, Any]) -> str:
    """A would-be move in words ("Red moves from space 4 to space 9 and leads")."""
    words = f"{name} moves from space {move['from']} to space {move['to']}"
    if move["food"]:
        return f"{words} and leads (a food card)"
    return f"{words} and leads" if move["leads"] else words


def _seats(view: dict[str, Any], names: list[str], content: dict[str, Any]) -> list[str]:
    return [_seat(view, seat, names, content) for seat in range(len(names))]


def _seat(view: dict[str, Any], seat: int, names: list[str], content: dict[str, Any]) -> str:
    colours = content["drawing"]["colours"]
    x, y = PANEL_X, 80 + seat * (SEAT_H + 8)
    flag, stroke, width = _seat_flag(view, seat, colours)
    box = svg.element("rect", x=x, y=y, stroke=stroke, stroke_width=width, **SEAT_BOX)
    you = " (you)" if _viewer_seat(view) == seat else ""
    name = _name(names, seat)
    shown = name if len(name) <= NAME_FITS else name[: NAME_FITS - 1] + "\u2026"
    texts = [svg.title(name), _text(x + 10, y + 22, shown + you, size=15, weight="bold")]
    lines = _seat_lines(view, seat, content)
    texts += [_text(x + 10, y + 44 + 19 * i, words, size=12) for i, words in enumerate(lines)]
    if flag:
        texts.append(
            _text(x + PANEL_W - 10, y + SEAT_H - 12, flag, size=13, fill=stroke, **BOLD_END)
        )
    hidden = _face_down(view, seat, names, (x + PANEL_W - 32, y + 36), colours)
    return svg.element("g", box + "".join(texts) + hidden, data_seat=seat, data_flag=flag)


def _seat_flag(view: dict[str, Any], seat: int, colours: dict[str, str]) -> tuple[str, str, int]:
    """What the seat's box says in its corner (to play, winner, rank), and its edge."""
    outcome = view.get("outcome") or {}
    if seat in (outcome.get("winners") or []):
        return "Winner", colours["winner"], 4
    if seat < len(outcome.get("ranks") or []):
        return f"Rank {outcome['ranks'][seat]}", colours["ink"], 1
    state = view.get("state") or {}
    if state.get("turn") == seat and view.get("status", "active") == "active":
        return "To play", colours["to_move"], 5
    return "", colours["ink"], 1


def _seat_lines(view: dict[str, Any], seat: int, content: dict[str, Any]) -> list[str]:
    state = view.get("state") or {}
    size = _at(state.get("hand_sizes"), seat)
    lines = [f"Food cards: {_at(state.get('food'), seat)}", f"Race cards in hand: {size}"]
    hand = _shown_hand(view, seat)
    if hand is not None:
        held = [f"{horse_name(h, content)} {hand.get(h, 0)}" for h in content["horses"]]
        lines.append(", ".join(w for w in held if not w.endswith(" 0")) or "No cards left")
    elif size:
        lines.append("Hand: face down (?)")
    return lines


def _shown_hand(view: dict[str, Any], seat: int) -> dict[str, int] | None:
    """A seat's hand when the view shows it: every hand (moderator) or the viewer's own."""
    state = view.get("state") or {}
    hands = state.get("hands")
    if isinstance(hands, list) and seat < len(hands):
        return dict(hands[seat])
    if isinstance(state.get("hand"), dict) and _viewer_seat(view) == seat:
        return dict(state["hand"])
    return None


def _face_down(
    view: dict[str, Any],
    seat: int,
    names: list[str],
    at: tuple[float, float],
    colours: dict[str, str],
) -> str:
    size = _at((view.get("state") or {}).get("hand_sizes"), seat)
    if not size or _shown_hand(view, seat) is not None:
        return ""
    x, y = at
    tip = svg.title(f"{_name(names, seat)}'s hand: {size} race cards, face down")
    card = svg.element(
        "rect",
        x=x,
        y=y,
        width=22,
        height=30,
        rx=3,
        fill=colours["hidden"],
        stroke=colours["ink"],
        stroke_width=1,
    )
    mark = _text(x + 11, y + 20, "?", size=14, anchor="middle", weight="bold", fill="#ffffff")
    return svg.element("g", tip + card + mark, data_part="face-down-hand")


def _hand(state: dict[str, Any], content: dict[str, Any]) -> str:
    hand = state.get("hand")
    if not isinstance(hand, dict):
        return ""
    total = sum(hand.values())
    heading = _text(
        20,
        HAND_Y - 10,
        f"Your hand: {total} race card{'' if total == 1 else 's'}",
        size=15,
        weight="bold",
    )
    cards = [_card(i, h, hand.get(h, 0), content) for i, h in enumerate(content["horses"])]
    return svg.element("g", heading + "".join(cards), data_part="hand")


def _card(index: int, horse: str, count: int, content: dict[str, Any]) -> str:
    look = content["drawing"]["horses"][horse]
    name = horse_name(horse, content)
    x = 20 + index * (CARD_W + 14)
    face = {"fill": look["fill"]} if count else {"fill": "#ffffff", "stroke_dasharray": "5 4"}
    ink = look["ink"] if count else content["drawing"]["colours"]["ink"]
    rect = svg.element(
        "rect",
        x=x,
        y=HAND_Y,
        width=CARD_W,
        height=CARD_H,
        rx=8,
        stroke=content["drawing"]["colours"]["ink"],
        stroke_width=2,
        **face,
    )
    words = _text(
        x + CARD_W / 2, HAND_Y + 30, name, size=15, anchor="middle", weight="bold", fill=ink
    ) + _text(x + CARD_W / 2, HAND_Y + 52, f"\u00d7 {count}", size=14, anchor="middle", fill=ink)
    tip = svg.title(f"{count} {name} race card{'' if count == 1 else 's'}")
    return svg.element("g", tip + rect + words, data_card=horse, data_count=count)


# --- geometry and SVG writing


def _space_point(number: int, content: dict[str, Any], *, out: float = 0) -> tuple[float, float]:
    step = _perimeter() / content["track"]["spaces"]
    return _on_track((number + 0.5) * step, out)


def _perimeter() -> float:
    return 2 * STRAIGHT + 2 * math.pi * BEND


def _on_track(s: float, out: float) -> tuple[float, float]:
    """The point `s` along the centre line clockwise from the start line, `out` outward."""
    s %= _perimeter()
    r, arc = BEND + out, math.pi * BEND
    left, right = CX - STRAIGHT / 2, CX + STRAIGHT / 2
    if s < STRAIGHT:  # top straight, left to right
        return left + s, CY - r
    if s < STRAIGHT + arc:  # right bend, top to bottom
        a = (s - STRAIGHT) / BEND
        return right + r * math.sin(a), CY - r * math.cos(a)
    if s < 2 * STRAIGHT + arc:  # bottom straight, right to left
        return right - (s - STRAIGHT - arc), CY + r
    a = (s - 2 * STRAIGHT - arc) / BEND  # left bend, bottom to top
    return left - r * math.sin(a), CY + r * math.cos(a)


def _text(x: float, y: float, words: str, *, size: int, **attrs: Any) -> str:
    shape = {"fill": attrs.pop("fill", "#222222")}
    if "anchor" in attrs:
        shape["text_anchor"] = attrs.pop("anchor")
    if "weight" in attrs:
        shape["font_weight"] = attrs.pop("weight")
    return svg.text(x, y, words, size, **shape, **attrs)


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def _at(values: Any, seat: int) -> Any:
    return values[seat] if isinstance(values, list) and seat < len(values) else 0


def join_words(words: list[str]) -> str:
    """Words joined the English way ("Ann, Ben and Cat")."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
