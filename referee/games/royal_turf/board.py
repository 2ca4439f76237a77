"""Royal Turf drawn from a viewer's view alone: the straight track with the seven horses
in their lanes, each horse's card and the chips bet on it, the die, the placings, every
player's money and chips, and the results of the races run.

A chip whose value the view leaves out (Hidden Bets, another player's chip before the
race ends) is drawn sealed, a dark chip with "?": nothing about it is guessed, and the
drawing never shows a commitment (it would differ with the sealed value).
"""

from typing import Any

from .. import _svg as svg
from .data import RACES
from .describe import CONTENT, destination, horse_name, ordinal, seat_name

View = dict[str, Any]
Content = dict[str, Any]

WIDTH = 1240
LANE_WIDTH = WIDTH - 12
HEAD_Y, STATUS_Y, VARIANTS_Y = 30, 54, 74
PACE_ROW_Y, NUMBER_ROW_Y = 98, 118
LANES_TOP, LANE_HEIGHT = 128, 44
LABEL_X = 14
START_X, FINISH_X, PAST_X = 150, 640, 666
CARD_X, CARD_WIDTH, FACE_X0, FACE_STEP = 746, 224, 820, 44
BET_X0, BET_ROOM, BET_STEP, CHIP_R = 1002, 216, 40, 13
PILL_HEIGHT, CHAR_WIDTH = 20, 7.4
DIE_X, DIE_Y, DIE_WIDTH, DIE_HEIGHT = 1060, 12, 166, 56
MONEY_X, CHIPS_X, STATUS_X = 280, 420, 660
ROW, GAP = 22, 30
FONT, SMALL, BIG = 13, 11, 20
NAME_ON_CHIP, NAME_IN_ROW, NAME_IN_RESULT = 5, 20, 12
BOLD = "bold"
UNKNOWN = "unknown"  # a view that does not say whose it is (and need not: all is public)
SEEN_BY: dict[str | None, str] = {"moderator": "the moderator's view", None: "a spectator's view"}


def board(view: View, *, content: Content = CONTENT, highlight: dict | None = None) -> str:
    """The view as one SVG element; `highlight` (a legal command) marks its horse, and
    for a move the space the horse would reach."""
    state = view["state"]
    lanes_bottom = LANES_TOP + LANE_HEIGHT * len(state["horses"])
    bottom, lower = _lower(view, content, lanes_bottom + GAP)
    height = bottom + 16
    drawn = [
        svg.rect(0, 0, WIDTH, height, "#ffffff"),
        _header(view, content),
        _track(state, content, lanes_bottom),
        _marks(view, content, highlight),  # under the pieces, so it hides none of them
        *(_lane(view, content, index, horse) for index, horse in enumerate(state["horses"])),
        lower,
    ]
    return svg.drawing(WIDTH, height, svg.title(_title(view)) + "".join(drawn))


# --- whose view -----------------------------------------------------------------------


def viewer_of(view: View) -> int | str | None:
    """Whose view this is: the view's `viewer` when the page adds one, else what the
    chips tell with Hidden Bets (a seat sees only its own), else the seat offered moves;
    UNKNOWN when nothing tells (then every player's view of the table is the same)."""
    if "viewer" in view:
        return view["viewer"]
    state = view["state"]
    if state["variants"]["hidden_bets"] and view["status"] == "active":
        own = [seat for seat, chips in enumerate(state["chips"]) if isinstance(chips, list)]
        if len(own) == len(state["chips"]):
            return "moderator"
        return own[0] if own else None
    if view.get("legal") and state["turn"] is not None:
        return int(state["turn"])
    return UNKNOWN


def _title(view: View) -> str:
    whose = viewer_of(view)
    if isinstance(whose, int):
        seen = f"{seat_name(view['players'], whose)}'s view"
    else:
        seen = SEEN_BY.get(whose, "the table as every player sees it")
    return f"Royal Turf, race {max(view['state']['race'], 1)} of {RACES}: {seen}"


# --- header ---------------------------------------------------------------------------


def _header(view: View, content: Content) -> str:
    state, colours = view["state"], content["drawing"]
    chosen = [name for key, name in content["variants"].items() if state["variants"].get(key)]
    variants = "Variants: " + (", ".join(chosen) if chosen else "none (standard game)")
    return (
        _text(LABEL_X, HEAD_Y, f"Royal Turf: race {max(state['race'], 1)} of {RACES}", BIG, BOLD)
        + _text(LABEL_X, STATUS_Y, _phase_words(view, content), 15)
        + _text(LABEL_X, VARIANTS_Y, variants, FONT, fill=colours["muted"])
        + _die(state, colours)
    )


def _phase_words(view: View, content: Content) -> str:
    state, players = view["state"], view["players"]
    if view["status"] == "abandoned":
        return "The game was abandoned."
    if view.get("outcome"):
        return "Game over: " + _winners(view["outcome"], players)
    if view["status"] != "active":
        return "The game is over."
    if state["last_place"] is not None:
        return f"Race {state['race']} is over: paying out."
    turn = seat_name(players, state["turn"])
    if state["phase"] == "betting":
        rounds = len(content["hidden_bets_chips" if state["variants"]["hidden_bets"] else "chips"])
        return f"Betting round {state['betting_round']} of {rounds}: {turn} to place a chip."
    if state["phase"] == "racing":
        die = f" with {state['die']}" if state["die"] else ""
        return f"Racing: {turn} to move a horse{die}."
    return f"Preparing race {max(state['race'], 1)}."


def _winners(outcome: dict[str, Any], players: list[str]) -> str:
    winners, scores = outcome.get("winners") or [], outcome.get("scores") or []
    if not winners:
        return "no winner."
    names, money = [seat_name(players, s) for s in winners], scores[winners[0]]
    if len(names) == 1:
        return f"{names[0]} wins with {money}."
    return f"{', '.join(names[:-1])} and {names[-1]} share the victory with {money} each."


def _die(state: dict[str, Any], colours: Content) -> str:
    face = state["die"]
    tip = f"The die shows {face}" if face else "The die has not been rolled for this turn"
    return svg.group(
        tip,
        svg.rect(DIE_X, DIE_Y, DIE_WIDTH, DIE_HEIGHT, colours["card"], stroke=colours["ink"], rx=8)
        + _text(DIE_X + 10, DIE_Y + 18, "Die", SMALL, fill=colours["muted"])
        + _centred(
            DIE_X + DIE_WIDTH / 2, DIE_Y + 42, face or "not rolled", 18, BOLD if face else None
        ),
    )


# --- the track ------------------------------------------------------------------------


def space_x(state: dict[str, Any], space: int) -> float:
    """The x of a space on the track; a horse past the finish line stands beyond it."""
    if space >= state["track_length"]:
        return PAST_X
    return START_X + space * (FINISH_X - START_X) / state["track_length"]


def _track(state: dict[str, Any], content: Content, bottom: int) -> str:
    colours, length = content["drawing"], state["track_length"]
    fills = colours["lane"]
    lanes = [
        svg.rect(
            LABEL_X - 8, LANES_TOP + i * LANE_HEIGHT, LANE_WIDTH, LANE_HEIGHT, fills[i % len(fills)]
        )
        for i in range(len(state["horses"]))
    ]
    return (
        "".join(lanes)
        + _numbers(state, bottom)
        + _line(START_X, LANES_TOP, START_X, bottom, colours["ink"], 2)
        + svg.group(
            f"The finish line: space {length}",
            _line(FINISH_X, PACE_ROW_Y - 12, FINISH_X, bottom, colours["ink"], 4)
            + _text(FINISH_X + 6, PACE_ROW_Y, f"Finish {length}", FONT, BOLD),
        )
        + _pace(state, colours, bottom)
        + _columns(state, content)
    )


def _numbers(state: dict[str, Any], bottom: int) -> str:
    length = state["track_length"]
    step = 5 * -(-length // 60)  # every 5 spaces on a track up to 60 long
    marks = []
    for space in range(0, length, step):  # the finish line has its own label
        x = space_x(state, space)
        marks.append(_line(x, LANES_TOP, x, bottom, "#c5cae9", 1))
        marks.append(_centred(x, NUMBER_ROW_Y, str(space), SMALL))
    return svg.group(f"Spaces 0 to {length}", "".join(marks))


def _pace(state: dict[str, Any], colours: Content, bottom: int) -> str:
    space, holder = state["pace_space"], state["pace_chip"]
    x = space_x(state, space)
    if holder:
        tip, words, chip = f"{horse_name(holder)} took the pace chip", f"pace {space}", ""
        words += f" (chip: {horse_name(holder)})"
    else:
        tip = f"The pace chip lies on space {space}: the first horse to reach or pass it takes it"
        words = f"pace chip {space}"
        chip = _circle(x, PACE_ROW_Y - 5, 8, colours["pace"], stroke=colours["ink"])
    return svg.group(
        tip,
        _line(x, PACE_ROW_Y, x, bottom, colours["pace"], 2, dash="6 4")
        + chip
        + _text(x - 12, PACE_ROW_Y, words, FONT, BOLD, text_anchor="end"),
    )


def _columns(state: dict[str, Any], content: Content) -> str:
    colours = content["drawing"]
    heads = [_text(CARD_X + 6, NUMBER_ROW_Y, "card", SMALL, fill=colours["muted"])]
    for index, face in enumerate(content["card_faces"]):
        x, rolled = FACE_X0 + index * FACE_STEP, face == state["die"]
        if rolled:
            heads.append(svg.rect(x - 21, NUMBER_ROW_Y - 13, 42, 18, colours["highlight"], rx=4))
        heads.append(_centred(x, NUMBER_ROW_Y, face, SMALL, BOLD if rolled else None))
    heads.append(_text(BET_X0, NUMBER_ROW_Y, "bets (chip, player)", SMALL, fill=colours["muted"]))
    return "".join(heads)


# --- one horse's lane -----------------------------------------------------------------


def _lane(view: View, content: Content, index: int, horse: dict[str, Any]) -> str:
    state, name = view["state"], horse_name(horse["horse"])
    middle = LANES_TOP + index * LANE_HEIGHT + LANE_HEIGHT / 2
    notes = [f"gate {index + 1}"]
    notes += ["pace chip"] if state["pace_chip"] == horse["horse"] else []
    notes += ["last"] if state["last_place"] == horse["horse"] else []
    return svg.element(
        "g",
        _text(LABEL_X, middle - 3, name, 15, BOLD)
        + _text(LABEL_X, middle + 13, ", ".join(notes), SMALL, fill=content["drawing"]["muted"])
        + _pill(state, content, horse, middle)
        + _card(state, content, horse, middle)
        + _bets(view, content, horse["horse"], middle),
        data_horse=horse["horse"],
        data_space=horse["space"],
    )


def _pill(state: dict[str, Any], content: Content, horse: dict[str, Any], middle: float) -> str:
    name, space, place = horse_name(horse["horse"]), horse["space"], horse["finished"]
    words = f"{name} {ordinal(place)}" if place else f"{name} {space}"
    tip = (
        f"{name} finished {ordinal(place)} (space {space})" if place else f"{name} on space {space}"
    )
    width = len(words) * CHAR_WIDTH + 14
    # past the line a horse stands just beyond it, clear of the cards
    x = space_x(state, space) if space < state["track_length"] else FINISH_X + 6 + width / 2
    colour, ink = content["horses"][horse["horse"]], content["drawing"]["ink"]
    return svg.group(
        tip,
        svg.rect(
            x - width / 2,
            middle - PILL_HEIGHT / 2,
            width,
            PILL_HEIGHT,
            colour["fill"],
            stroke=ink,
            rx=10,
        )
        + _centred(x, middle + 4.5, words, FONT, BOLD, fill=colour["ink"]),
    )


def _card(state: dict[str, Any], content: Content, horse: dict[str, Any], middle: float) -> str:
    colours, card, name = content["drawing"], horse["card"], horse_name(horse["horse"])
    top, centre = middle - LANE_HEIGHT / 2 + 5, CARD_X + CARD_WIDTH / 2
    if horse["finished"] or not card:
        words = f"finished {ordinal(horse['finished'])}" if horse["finished"] else "no card"
        tip = f"{name}'s card is out of play" if card else f"{name} has no card yet"
        box = _card_box(top, "none", colours["muted"], stroke_dasharray="4 3")
        return svg.group(tip, box + _centred(centre, middle + 5, words, FONT))
    if not horse["face_up"]:
        box = _card_box(top, colours["card_back"], colours["ink"])
        words = _centred(centre, middle + 5, "card face down", FONT, BOLD, fill="#ffffff")
        return svg.group(f"{name}'s card is face down until every horse has moved", box + words)
    values = [
        _centred(
            FACE_X0 + i * FACE_STEP,
            middle + 5,
            str(card[face]),
            15,
            BOLD if face == state["die"] else None,
        )
        for i, face in enumerate(content["card_faces"])
    ]
    number = _text(CARD_X + 8, middle + 5, f"#{card['card']}", FONT, fill=colours["muted"])
    spelled = ", ".join(f"{face} {card[face]}" for face in content["card_faces"])
    box = _card_box(top, colours["card"], colours["ink"])
    return svg.group(f"{name}'s card {card['card']}: {spelled}", box + number + "".join(values))


def _card_box(top: float, fill: str, stroke: str, **attrs: Any) -> str:
    return svg.rect(CARD_X, top, CARD_WIDTH, LANE_HEIGHT - 10, fill, stroke=stroke, rx=5, **attrs)


def _bets(view: View, content: Content, horse: str, middle: float) -> str:
    on_horse = [b for b in view["state"]["bets"] if b["horse"] == horse]
    step = min(BET_STEP, BET_ROOM / max(len(on_horse), 1))
    return "".join(
        _chip(view["players"], content["drawing"], bet, BET_X0 + CHIP_R + i * step, middle - 5)
        for i, bet in enumerate(on_horse)
    )


def _chip(players: list[str], colours: Content, bet: dict[str, Any], x: float, y: float) -> str:
    owner, horse = seat_name(players, bet["seat"]), horse_name(bet["horse"])
    seat_colour = colours["seats"][bet["seat"] % len(colours["seats"])]
    if bet["chip"] is None:  # sealed, and this viewer may not see its value
        tip = f"{owner}'s chip on {horse}: face down, its value sealed until the race ends"
        face = _circle(x, y, CHIP_R, colours["sealed_chip"]["fill"], stroke=seat_colour, width=3)
        face += _centred(x, y + 5, "?", 14, BOLD, fill=colours["sealed_chip"]["ink"])
    else:
        sealed = "sealed" in bet and not bet["revealed"]
        tip = f"{owner}'s chip on {horse}: {bet['chip']}" + (" (face down)" if sealed else "")
        dash = "3 2" if sealed else None  # face down: only its owner and the moderator see it
        face = _circle(x, y, CHIP_R, seat_colour, stroke=colours["ink"], width=2, dash=dash)
        face += _centred(x, y + 5, str(bet["chip"]), 14, BOLD, fill="#ffffff")
    name = _centred(x, y + CHIP_R + 12, svg.shortened(owner, NAME_ON_CHIP), SMALL)
    return svg.group(tip, face + name)


# --- highlight ------------------------------------------------------------------------


def _marks(view: View, content: Content, highlight: dict | None) -> str:
    state = view["state"]
    gates = [h["horse"] for h in state["horses"]]
    if not highlight or highlight.get("horse") not in gates:
        return ""
    horse, colour = highlight["horse"], content["drawing"]["highlight"]
    top = LANES_TOP + gates.index(horse) * LANE_HEIGHT
    ring = svg.rect(
        LABEL_X - 6,
        top + 2,
        LANE_WIDTH - 4,
        LANE_HEIGHT - 4,
        "none",
        stroke=colour,
        stroke_width=4,
        rx=6,
    )
    if highlight.get("type") == "place_bet":
        tip = f"Your chip {highlight.get('chip')} would go on {horse_name(horse)}"
        return svg.group(tip, ring + _ghost_chip(state, colour, highlight, top))
    reach = destination(state, horse) if highlight.get("type") == "move_horse" else None
    if reach is None:
        return svg.group(horse_name(horse), ring)
    face, steps, to = reach
    x = space_x(state, to)
    target = _circle(x, top + LANE_HEIGHT / 2, 14, "none", stroke=colour, width=3, dash="4 3")
    target += _centred(x, top + 11, f"to {to}", SMALL, BOLD)
    return svg.group(f"{horse_name(horse)} would move {face} {steps} to space {to}", ring + target)


def _ghost_chip(state: dict[str, Any], colour: str, highlight: dict, top: float) -> str:
    count = sum(1 for b in state["bets"] if b["horse"] == highlight["horse"])
    x = BET_X0 + CHIP_R + count * min(BET_STEP, BET_ROOM / (count + 1))
    y = top + LANE_HEIGHT / 2 - 5
    ghost = _circle(x, y, CHIP_R, "none", stroke=colour, width=3, dash="4 3")
    return ghost + _centred(x, y + 5, str(highlight.get("chip")), 14, BOLD)


# --- placings, players and results ----------------------------------------------------


def _lower(view: View, content: Content, y: int) -> tuple[int, str]:
    state, players, whose = view["state"], view["players"], viewer_of(view)
    parts = [_placings(state, y), _text(LABEL_X, y + GAP, "Players", 15, BOLD)]
    y += GAP
    for seat in range(len(players)):
        y += ROW
        parts.append(_seat_row(view, content["drawing"], seat, whose, y))
    if state["results"]:
        y += GAP
        parts.append(_text(LABEL_X, y, "Races run", 15, BOLD))
    for result in state["results"]:
        y += ROW
        parts.append(_text(LABEL_X, y, _result_words(result, players), FONT))
    return y, "".join(parts)


def _placings(state: dict[str, Any], y: int) -> str:
    placed = state["placings"]
    places = [f"{ordinal(i)} {horse_name(h)}" for i, h in enumerate(placed, 1)]
    places += [f"{ordinal(i)} -" for i in range(len(placed) + 1, 4)]
    last = horse_name(state["last_place"]) if state["last_place"] else "-"
    pace = horse_name(state["pace_chip"]) if state["pace_chip"] else "not taken"
    words = f"Placings: {', '.join(places)}; last: {last}; pace chip: {pace}"
    shown = _text(LABEL_X, y, words, 15, BOLD)
    return svg.element("g", shown, data_placings=",".join(placed))


def _seat_row(view: View, colours: Content, seat: int, whose: Any, y: int) -> str:
    state, players = view["state"], view["players"]
    chips = state["chips"][seat]
    if isinstance(chips, list):
        held = f"chips left: {', '.join(map(str, chips))}" if chips else "no chips left"
    else:
        held = f"{chips} chips left (values sealed)"
    name = svg.shortened(players[seat], NAME_IN_ROW) + (" (you)" if whose == seat else "")
    colour = colours["seats"][seat % len(colours["seats"])]
    return svg.group(
        players[seat],
        _circle(LABEL_X + 7, y - 5, 7, colour, stroke=colours["ink"])
        + _text(LABEL_X + 22, y, name, FONT, BOLD if whose == seat else None)
        + _text(MONEY_X, y, f"money {state['money'][seat]}", FONT)
        + _text(CHIPS_X, y, held, FONT)
        + _text(STATUS_X, y, _seat_status(view, seat), FONT, BOLD),
        data_seat=seat,
    )


def _seat_status(view: View, seat: int) -> str:
    state, outcome = view["state"], view.get("outcome")
    if outcome:
        rank = outcome["ranks"][seat]
        return "winner" if seat in outcome["winners"] else f"{ordinal(rank)} place"
    notes = []
    if view["status"] == "active" and state["turn"] == seat:
        notes.append("to bet" if state["phase"] == "betting" else "to move a horse")
    if state["first_player"] == seat and state["phase"] in ("betting", "racing"):
        notes.append("first player this race")
    return ", ".join(notes)


def _result_words(result: dict[str, Any], players: list[str]) -> str:
    places = ", ".join(f"{ordinal(i)} {horse_name(h)}" for i, h in enumerate(result["placings"], 1))
    pace = horse_name(result["pace_chip"]) if result["pace_chip"] else "none"
    totals = [0] * len(players)
    for line in result["lines"]:
        totals[line["seat"]] += line["amount"]
    paid = ", ".join(_paid(p, t) for p, t in zip(players, totals, strict=True))
    last = horse_name(result["last_place"])
    return f"Race {result['race']}: {places}; pace {pace}; last {last}. Paid: {paid}."


def _paid(name: str, total: int) -> str:
    short = svg.shortened(name, NAME_IN_RESULT)
    return f"{short} {total:+d}" if total else f"{short} 0"


# --- the board's own pieces (the kit draws them: referee/games/_svg.py) ---------------


def _text(
    x: float, y: float, words: str, size: int, weight: str | None = None, **attrs: Any
) -> str:
    attrs.setdefault("fill", "#1a1a1a")
    return svg.text(x, y, words, size, font_weight=weight, **attrs)


def _centred(
    x: float, y: float, words: str, size: int, weight: str | None = None, **attrs: Any
) -> str:
    return _text(x, y, words, size, weight, text_anchor="middle", **attrs)


def _circle(
    x: float, y: float, r: float, fill: str, *, stroke: str, width: int = 1, dash: str | None = None
) -> str:
    return svg.circle(x, y, r, fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash)


def _line(
    x1: float, y1: float, x2: float, y2: float, colour: str, width: int, dash: str | None = None
) -> str:
    return svg.line(x1, y1, x2, y2, colour, stroke_width=width, stroke_dasharray=dash)
