"""The action board of the pages' board: the seventeen action spaces in collection order,
what each asks of the dice, the dice placed on it (whose, showing what), the Event
Marker, Gunslinger pawns and Ghost dice."""

from typing import Any

from .. import _svg as svg
from .board_content import DRAWING, WORDS
from .board_geometry import xy
from .board_map import INK, group, outline, seat_colour, text
from .data import BOARD, PRODUCE_SLOTS, RESOURCES, card_type, gun_actions
from .words import name_of

COLUMNS, CELL_W, CELL_H, GAP = 6, 160.0, 150.0, 4.0
CHIP_H, DIE = 18.0, 15.0
NAME_CHARS = 9  # a name longer than this is cut short on a chip


def need_words(need: dict[str, Any]) -> str:
    """What an action asks of the dice, in a few words."""
    kind = need["type"]
    if kind == "at_least":
        return f"one die {need['value']}+"
    if kind == "natural":
        return f"natural {need['value']}"
    if kind == "sum":
        return "total " + " or ".join(str(v) for v in need["values"])
    if kind == "pioneer":
        return "natural 1 + any die"
    if kind == "restricted":
        return f"exactly {need['value']}, as rolled"
    return "any one die"


def short(name: str, chars: int = NAME_CHARS) -> str:
    """A name cut to fit a chip."""
    return svg.shortened(name, chars)


def action_board(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], top: float
) -> tuple[list[str], float]:
    """The action board from `top`, and the height it takes."""
    parts = [
        text(
            10,
            top + 16,
            "Action board (collected in this order)",
            15,
            text_anchor="start",
            font_weight="bold",
        )
    ]
    cell = 0
    for action in BOARD:
        width = 2 if action == "produce" else 1
        x = 10 + (cell % COLUMNS) * (CELL_W + GAP)
        y = top + 26 + (cell // COLUMNS) * (CELL_H + GAP)
        box = (x, y, width * CELL_W + (width - 1) * GAP, CELL_H)
        parts += _space(view, content, marks, action, box)
        cell += width
    rows = -(-cell // COLUMNS)
    return parts, 26 + rows * (CELL_H + GAP)


def _space(
    view: dict[str, Any],
    content: dict[str, Any],
    marks: dict[str, Any],
    action: str,
    box: tuple[float, float, float, float],
) -> list[str]:
    state = view["state"]
    data = content["actions"][action]
    x, y, w, h = box
    number = f"{data['number']} · " if data["number"] else ""
    fill = DRAWING["action_fill"][data["kind"]]
    marked = (action, None, None) in marks.get("spots", [])
    title = f"{data['name']}: {data['place']}; {data['collect']}"
    parts = [
        svg.rect(x, y, w, h, fill, rx=6, **outline(marked)),
        text(x + 8, y + 17, f"{number}{data['name']}", 13, text_anchor="start", font_weight="bold"),
    ]
    need, kind = _need_lines(data, state)
    if action == "produce":
        parts.append(text(x + 8, y + 32, f"{need} · {kind}", 11, text_anchor="start"))
        parts += _produce_rows(view, marks, box)
    else:
        parts.append(text(x + 8, y + 32, need, 11, text_anchor="start"))
        parts.append(text(x + 8, y + 46, kind, 11, text_anchor="start", fill="#6b604f"))
        parts += _chips(view, action, x + 6, y + 53)
    return group(title, parts + _event_marker(state, content, action, box))


def _need_lines(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, str]:
    """What the action asks of the dice, and its kind."""
    kind = data["kind"]
    if kind == "limited" and len(state["goods"]) == 4 and data.get("four_player_places"):
        kind = f"limited, {data['four_player_places']} places"
    return need_words(data["need"]), kind


def _chips(view: dict[str, Any], action: str, x: float, y: float) -> list[str]:
    """The dice on an action (and the Gunslinger pawns standing on it), one row each."""
    state, players = view["state"], view["players"]
    parts = []
    rows = [(i, p) for i, p in enumerate(state["placements"]) if p["action"] == action]
    for n, (index, placement) in enumerate(rows):
        parts += _chip(state, players, index, placement, (x, y + n * CHIP_H))
    pawns = state.get("pawns") or []
    standing = [s for s, at in enumerate(pawns) if action in gun_actions(at)]
    for n, seat in enumerate(standing):
        row = y + (len(rows) + n) * CHIP_H
        pawn = [(x + 1, row + 15), (x + 8, row + 2), (x + 15, row + 15)]
        parts.append(svg.polygon(" ".join(map(xy, pawn)), seat_colour(seat), stroke=INK))
        words = f"{short(name_of(players, seat))}'s Gunslinger pawn"
        parts.append(text(x + 20, row + 13, words, 11, text_anchor="start"))
    return parts


def _chip(
    state: dict[str, Any],
    players: list[str],
    index: int,
    placement: dict[str, Any],
    at: tuple[float, float],
    width: float = 148.0,
) -> list[str]:
    """One placement: its dice as squares in the owner's colour, then whose they are
    (the one being collected framed, `width` wide)."""
    x, y = at
    seat = placement["seat"]
    faces = _faces(state, placement)
    parts = []
    step = state.get("step") or {}
    if step.get("kind") == "collect" and step.get("placement") == index:
        parts.append(svg.rect(x - 3, y - 1, width, CHIP_H, "#ffffff", stroke=INK, stroke_width=2))
    for n, face in enumerate(faces):
        left = x + n * (DIE + 2)
        parts.append(svg.rect(left, y + 1, DIE, DIE, seat_colour(seat), rx=3, stroke=INK))
        parts.append(
            text(left + DIE / 2, y + 13, str(face), 11, fill="#ffffff", font_weight="bold")
        )
    parts.append(
        text(
            x + len(faces) * (DIE + 2) + 3,
            y + 13,
            _chip_words(players, placement, faces),
            11,
            text_anchor="start",
        )
    )
    return parts


def _faces(state: dict[str, Any], placement: dict[str, Any]) -> list[Any]:
    seat = placement["seat"]
    if seat is None:
        ghosts = {g["id"]: g["value"] for g in state.get("ghosts", [])}
        return [ghosts.get(d, "?") for d in placement["dice"]]
    dice = state["dice"][seat]
    return [dice[d]["value"] if d < len(dice) else "?" for d in placement["dice"]]


def _chip_words(players: list[str], placement: dict[str, Any], faces: list[Any]) -> str:
    who = "Ghost" if placement["seat"] is None else short(name_of(players, placement["seat"]))
    said = f"slot {placement['rank']}: {who}" if placement.get("rank") else who
    total = placement.get("total")
    if total is not None and all(isinstance(f, int) for f in faces) and total != sum(faces):
        said += f" = {total}"
    return said + (" ✓" if placement.get("collected") and placement["seat"] is not None else "")


def _produce_rows(
    view: dict[str, Any], marks: dict[str, Any], box: tuple[float, float, float, float]
) -> list[str]:
    state = view["state"]
    x, y, _, _ = box
    slots = PRODUCE_SLOTS[str(len(state["goods"]))]
    parts = []
    for r, row in enumerate(RESOURCES):
        top = y + 42 + r * 34
        parts.append(text(x + 8, top + 17, row, 12, text_anchor="start", font_weight="bold"))
        for s, slot in enumerate(slots):
            left = x + 50 + s * 90
            parts += _slot(view, marks, row, slot, (left, top))
    return parts


def _slot(
    view: dict[str, Any], marks: dict[str, Any], row: str, slot: str, at: tuple[float, float]
) -> list[str]:
    state = view["state"]
    x, y = at
    marked = ("produce", row, slot) in marks.get("spots", [])
    parts = [svg.rect(x, y, 86, 28, "#f7f1e1", rx=4, **outline(marked, "#8a7a5e"))]
    parts.append(text(x + 43, y + 10, WORDS["produce_slots"][slot], 9.5, fill="#6b604f"))
    taken = [
        (i, p)
        for i, p in enumerate(state["placements"])
        if p["action"] == "produce" and p.get("row") == row and p.get("slot") == slot
    ]
    for index, placement in taken[:1]:
        parts += _chip(state, view["players"], index, placement, (x + 3, y + 10), 82.0)
    return parts


def _event_marker(
    state: dict[str, Any],
    content: dict[str, Any],
    action: str,
    box: tuple[float, float, float, float],
) -> list[str]:
    """The Event Marker on this action: a red band naming the event, along the bottom
    (on Produce Resources, whose rows fill it, at the top right)."""
    x, y, w, h = box
    parts = []
    on = [
        c
        for c in state["events"] + state["temporary"]
        if content["cards"][card_type(c)].get("marker") == action
    ]
    for n, card in enumerate(on):
        data = content["cards"][card_type(card)]
        left, top, width = x + 3, y + h - 20 - n * 20, w - 6
        if action == "produce":
            left, top, width = x + w - 172, y + 4 + n * 20, 168
        band = {"x": left, "y": top, "width": width, "height": 17, "rx": 3}
        tip = f"Event {data['name']}: {data['text']}"
        parts.append(svg.titled("rect", tip, **band, fill=DRAWING["event"]))
        words = f"Event: {data['name']}"
        parts.append(
            text(left + width / 2, top + 13, words, 11, fill="#ffffff", font_weight="bold")
        )
    return parts
