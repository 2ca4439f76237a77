"""The Dark Horse West board for the pages: `board(view)` draws one viewer's view as an
SVG (the territory map, the action board, the seats, the cards the viewer may see, the
outcome), with presentation attributes only and every text escaped.

`highlight`, a legal command the player is looking at, is marked where it acts: a rail
(`place_rail`) drawn boldly with the two hexes it lies between and the cities and towns
it would newly connect; a hex (`place_city`, `place_town`, a build, a look, a card's
hex); the action space, Produce Resources icon or Dealer a placement uses; the card it
plays or keeps. The header says it in words (labels.label).
"""

from typing import Any

from .. import _svg as svg
from .board_actions import action_board
from .board_content import CONTENT, DRAWING
from .board_geometry import HexLayout, fitted
from .board_map import (
    HIGHLIGHT,
    INK,
    board_of,
    rail_joins,
    seat_colour,
    seat_colour_name,
    territory,
    text,
)
from .board_table import (
    card_rows,
    cards_section,
    lines_at,
    outcome_lines,
    seat_panels,
    table_lines,
)
from .data import gun_actions
from .hexes import hex_key, parse_edge
from .labels import label
from .words import name_of, step_words

WIDTH = 1000.0
FONT = "DejaVu Sans, Verdana, sans-serif"
MAP_BOX = (10.0, 0.0, 830.0, 556.0)  # x, y below the header, width, height
HEX_SIZE = 50.0  # the largest hex (centre to corner); a big moderator's map gets smaller
SIDE_X = 852.0  # the key beside the map
KEY_HEIGHT = 200.0  # the key without its players
PHASES = {
    "setup": "Setup",
    "placement": "Placement Phase",
    "collection": "Collection Phase",
    "over": "Game over",
}


def board(
    view: dict[str, Any],
    *,
    content: dict[str, Any] = CONTENT,
    highlight: dict[str, Any] | None = None,
) -> str:
    """The view as one <svg> element (role="img", a <title>, a viewBox, no size)."""
    viewer = viewer_of(view)
    marks = marks_of(highlight, view)
    parts, y = _header(view, viewer, highlight, marks)
    layout = fitted(
        board_of(view["state"]).hexes, (MAP_BOX[0], y, MAP_BOX[2], MAP_BOX[3]), largest=HEX_SIZE
    )
    parts += territory(view, layout, marks)
    parts += _key(view, y)
    y += max(_map_height(layout, view), KEY_HEIGHT + 34 * len(view["players"])) + 14
    for section in (_outcome, _table, _actions, _seats, _cards):
        drawn, height = section(view, content, marks, y, viewer)
        parts += drawn
        y += height + (14 if height else 0)
    title = f"Dark Horse West: {whose_view(view, viewer)}"
    paper = svg.element("rect", width=WIDTH, height=round(y), fill=DRAWING["paper"])
    return svg.drawing(WIDTH, round(y), svg.title(title) + paper + "".join(parts), FONT)


def _map_height(layout: HexLayout, view: dict[str, Any]) -> float:
    """How far down the map reaches below its top."""
    rows = [r for _, r in board_of(view["state"]).hexes] or [0]
    return 1.5 * layout.size * (max(rows) - min(rows)) + 2 * layout.size


# --- whose view -----------------------------------------------------------------------------


def viewer_of(view: dict[str, Any]) -> int | str | None:
    """The viewer a view was made for: a seat, "moderator" or None (a spectator). The API's
    view does not name it; a `viewer` key wins when present, else what only that viewer is
    shown says it (a seat's hand, the moderator's hands), else the seat asked to act."""
    if "viewer" in view:
        return view["viewer"]
    state = view["state"]
    if "hands" in state:
        return "moderator"
    if "hand" not in state:
        return None
    if view.get("legal") and len(view.get("to_move") or []) == 1:
        return int(view["to_move"][0])
    sizes = [s for s, n in enumerate(state["hand_sizes"]) if n == len(state["hand"])]
    return sizes[0] if len(sizes) == 1 else "seat"


def whose_view(view: dict[str, Any], viewer: int | str | None) -> str:
    """The view's owner in words."""
    if viewer is None:
        return "spectator's view"
    if viewer == "moderator":
        return "moderator's view" if view["state"]["phase"] != "over" else "the whole table"
    if viewer == "seat":
        return "a player's view"
    return f"{name_of(view['players'], viewer)}'s view"


# --- the header ------------------------------------------------------------------------------


def _header(
    view: dict[str, Any], viewer: Any, highlight: dict[str, Any] | None, marks: dict[str, Any]
) -> tuple[list[str], float]:
    state, players = view["state"], view["players"]
    parts = [
        text(
            10,
            26,
            f"Dark Horse West: {whose_view(view, viewer)}",
            20,
            text_anchor="start",
            font_weight="bold",
        )
    ]
    status = [PHASES.get(state["phase"], state["phase"])]
    if state["round"]:
        status.insert(0, f"Game turn {state['round']}")
    doing = step_words(state, players)
    if doing and state["phase"] != "over":
        status.append(doing)
    if view.get("status") not in (None, "active", "finished"):
        status.append(f"game {view['status']}")
    if state.get("map") is not None:
        status.append("moderator's map")
    parts.append(text(10, 46, " · ".join(status), 13, text_anchor="start"))
    y = 58.0
    if highlight:
        said = "Shown: " + label(highlight, view)
        if marks.get("joins"):
            said += f" (would connect {marks['joins']})"
        rows = svg.wrapped(said, 130)
        parts += lines_at(10, y + 8, rows, 13, fill=HIGHLIGHT, font_weight="bold")
        y += 17 * len(rows)
    return parts, y + 8


def _key(view: dict[str, Any], top: float) -> list[str]:
    """Beside the map: whose colour is whose, and how the hexes are marked."""
    players = view["players"]
    parts = [text(SIDE_X, top + 14, "Players", 14, text_anchor="start", font_weight="bold")]
    for seat, name in enumerate(players):
        y = top + 26 + seat * 34
        parts.append(svg.rect(SIDE_X, y, 22, 22, seat_colour(seat), rx=4, stroke=INK))
        parts.append(
            text(SIDE_X + 11, y + 16, str(seat + 1), 13, fill="#ffffff", font_weight="bold")
        )
        parts.append(text(SIDE_X + 28, y + 11, name[:18], 12, text_anchor="start"))
        parts.append(
            text(
                SIDE_X + 28, y + 25, seat_colour_name(seat), 11, text_anchor="start", fill="#6b604f"
            )
        )
    y = top + 40 + len(players) * 34
    rows = [
        "House: a city",
        "Disc: a town",
        "Number: its player",
        "Dark line: a rail",
        "?: tile face down",
        "Red border: rugged",
        "Brown edge: Safe Zone",
    ]
    if len(players) == 2:
        rows += ["Blue, out: out of", "bounds (no city or", "town with two)"]
    parts.append(text(SIDE_X, y, "Map key", 14, text_anchor="start", font_weight="bold"))
    return parts + lines_at(SIDE_X, y + 18, rows, 11)


# --- sections below the map ----------------------------------------------------------------


def _outcome(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], y: float, viewer: Any
) -> tuple[list[str], float]:
    rows = outcome_lines(view)
    if not rows:
        return [], 0
    head = text(10, y + 16, "Final scores", 16, text_anchor="start", font_weight="bold")
    return [head, *lines_at(10, y + 36, rows, 13)], 30 + 17 * len(rows)


def _table(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], y: float, viewer: Any
) -> tuple[list[str], float]:
    rows = [row for line in table_lines(view, content) for row in svg.wrapped(line, 140)]
    return lines_at(10, y + 12, rows, 12), 16 * len(rows)


def _actions(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], y: float, viewer: Any
) -> tuple[list[str], float]:
    return action_board(view, content, marks, y)


def _seats(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], y: float, viewer: Any
) -> tuple[list[str], float]:
    return seat_panels(view, content, marks, y)


def _cards(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], y: float, viewer: Any
) -> tuple[list[str], float]:
    seat = viewer if isinstance(viewer, int) else None
    return cards_section(card_rows(view, seat), content, marks, y)


# --- what a highlighted command touches ----------------------------------------------------


def marks_of(command: dict[str, Any] | None, view: dict[str, Any]) -> dict[str, Any]:
    """What to mark for a command: hexes, an edge (and the pieces it would connect),
    action spaces as (action, row, slot), cards."""
    if not command:
        return {}
    state = view["state"]
    marks: dict[str, Any] = {"hexes": [], "spots": [], "cards": [], "pieces": []}
    for key in ("hex", "look"):
        if isinstance(command.get(key), str):
            marks["hexes"].append(command[key])
    marks["hexes"] += [h for h in command.get("hexes", []) if isinstance(h, str)]
    edge = command.get("edge")
    if isinstance(edge, str):
        marks["edge"] = edge
        marks["hexes"] += [hex_key(h) for h in parse_edge(edge)]
        marks["pieces"], marks["joins"] = rail_joins(state, edge, view["players"])
    marks["spots"] = _spots(command, state)
    marks["cards"] = [
        command[k] for k in ("card", "ability", "taken") if isinstance(command.get(k), str)
    ]
    return marks


def _spots(command: dict[str, Any], state: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    kind = command.get("type")
    if kind == "place":
        return [(command.get("action"), command.get("row"), command.get("slot"))]
    if kind == "dealer":
        move = command.get("move") or {}
        spots: list[tuple[Any, Any, Any]] = [("dealer", None, None)]
        if move:
            spots.append((move.get("to"), move.get("row"), move.get("slot")))
        return spots
    if kind == "move_gunslinger":
        return _gun_spots(command, state)
    step = state.get("step") or {}
    if kind in ("collect", "decline") and step.get("action"):
        placement = state["placements"][step["placement"]]
        return [(step["action"], placement.get("row"), placement.get("slot"))]
    return []


def _gun_spots(command: dict[str, Any], state: dict[str, Any]) -> list[tuple[Any, Any, Any]]:
    seat = (state.get("step") or {}).get("seat")
    pawns, rolls = state.get("pawns") or [], state.get("gun_dice") or []
    if not isinstance(seat, int) or seat >= len(pawns) or rolls[seat] is None:
        return []
    to = pawns[seat] + (rolls[seat] if command.get("direction") == "up" else -rolls[seat])
    return [(a, None, None) for a in gun_actions(to)] if 2 <= to <= 12 else []
