"""The table around the map on the pages' board: each seat's goods, character, roles,
pieces and dice; the events in play and the deck; the cards the viewer may see (its own
hand, the cards it draws); the outcome once the game is scored."""

from typing import Any

from .. import _svg as svg
from .board_actions import short
from .board_map import group, outline, seat_colour, seat_colour_name, text
from .data import card_type, gun_actions
from .words import (
    ORDINALS,
    action_name,
    card_name,
    listed,
    name_of,
)

PANEL_W, LINE = 242.0, 16.0
CARD_W, CARD_H, CARD_CHARS = 190.0, 140.0, 31
ICON_WORDS = {"sheriff_immune": "sheriff-immune", "jail_1": "jail 1", "jail_2": "jail 2+"}
TOKEN_WORDS = {"wild": "Wild Die", "engineer": "Engineer", "loan": "Loan", "stock": "Stock"}


def lines_at(x: float, y: float, rows: list[str], size: float = 12, **attrs: Any) -> list[str]:
    """Left-aligned lines of text from (x, y) down."""
    return [
        text(x, y + i * (size + 4), row, size, text_anchor="start", **attrs)
        for i, row in enumerate(rows)
    ]


# --- the seats ---------------------------------------------------------------------------


def seat_panels(
    view: dict[str, Any], content: dict[str, Any], marks: dict[str, Any], top: float
) -> tuple[list[str], float]:
    """One panel per seat, in seat order, from `top`; and the height they take."""
    state = view["state"]
    panels = [_seat_lines(view, content, s) for s in range(len(state["goods"]))]
    height = 34 + max(len(p) for p in panels) * LINE + 10
    parts = []
    for seat, rows in enumerate(panels):
        parts += _panel(view, seat, rows, (10 + seat * (PANEL_W + 4), top, height))
    return parts, height


def _panel(
    view: dict[str, Any], seat: int, rows: list[str], at: tuple[float, float, float]
) -> list[str]:
    """One seat's panel: a band in its colour naming it, then its lines."""
    x, top, height = at
    name = name_of(view["players"], seat)
    asked = seat in (view.get("to_move") or [])
    head = f"{seat + 1} · {short(name, 16)} ({seat_colour_name(seat)})"
    parts = [
        svg.rect(x, top, PANEL_W, height, "#fbf6ea", rx=6, **outline(asked)),
        svg.rect(x, top, PANEL_W, 26, seat_colour(seat), rx=6),
        text(
            x + 8,
            top + 18,
            head + (" · to act" if asked else ""),
            13,
            text_anchor="start",
            fill="#ffffff",
            font_weight="bold",
        ),
        *lines_at(x + 8, top + 44, rows, 12),
    ]
    return group(f"Player {seat + 1}: {name} ({seat_colour_name(seat)})", parts)


def _seat_lines(view: dict[str, Any], content: dict[str, Any], seat: int) -> list[str]:
    state = view["state"]
    goods = state["goods"][seat]
    character = state["characters"][seat]
    roles = [r.capitalize() for r, s in sorted(state["roles"].items()) if s == seat]
    place = state["order"].index(seat) if seat in state["order"] else None
    order = ORDINALS[place] if place is not None and place < len(ORDINALS) else "-"
    rows = [
        content["characters"][character]["name"] if character else "no character",
        f"turn order {order}" + (f" · {', '.join(roles)}" if roles else ""),
        " · ".join(f"{g} {goods[g]}" for g in ("food", "wood", "ore")),
        f"gold {goods['gold']} · influence {goods['influence']}",
        " · ".join(f"{TOKEN_WORDS[t]} {goods[t]}" for t in ("wild", "engineer")),
        " · ".join(f"{TOKEN_WORDS[t]} {goods[t]}" for t in ("loan", "stock")),
    ]
    left = state["pieces_left"][seat]
    rows.append(f"left to build: {left['cities']} cities, {left['towns']} towns")
    rows.append(f"cards in hand: {state['hand_sizes'][seat]}")
    return rows + _dice_lines(state, seat) + _extra_lines(state, seat)


def _dice_lines(state: dict[str, Any], seat: int) -> list[str]:
    rows = []
    for die in state["dice"][seat]:
        kind = {"deputy": " Deputy", "bonus": " bonus"}.get(die["kind"], "")
        where = "not placed"
        if die["placed"]:
            placed = [
                p for p in state["placements"] if p["seat"] == seat and die["id"] in p["dice"]
            ]
            row = placed[0].get("row") if placed else None
            where = f"on Produce: {row}" if row else "on " + action_name(die["placed"])
        rows.append(f"die {die['id']}{kind}: {die['value']}, {where}")
    return rows


def _extra_lines(state: dict[str, Any], seat: int) -> list[str]:
    rows = []
    if state["bonus"][seat]:
        rows.append("a bonus die next Placement Phase")
    if state["jail"][seat]:
        rows.append(f"jail: {_dice(state['jail'][seat])} out next turn")
    if state["in_jail"][seat]:
        rows.append(f"in jail this turn: {_dice(state['in_jail'][seat])}")
    pawns = state.get("pawns")
    if pawns:
        spot = " and ".join(action_name(a) for a in gun_actions(pawns[seat]))
        roll = state["gun_dice"][seat]
        rows.append(f"pawn on {pawns[seat]} ({short(spot, 18)})")
        if roll is not None:
            rows.append(f"Gunslinger die: {roll}")
    return rows


def _dice(count: int) -> str:
    return "every die" if count >= 3 else ("1 die" if count == 1 else f"{count} dice")


# --- events, deck, the game's end ------------------------------------------------------------


def table_lines(view: dict[str, Any], content: dict[str, Any]) -> list[str]:
    """The events in play, the deck and piles, the roles and how the game ends."""
    state, players = view["state"], view["players"]
    rows = []
    for card in state["events"] + state["temporary"]:
        data = content["cards"][card_type(card)]
        marker = f" (Event Marker on {action_name(data['marker'])})" if data.get("marker") else ""
        rows.append(f"Event in play: {data['name']}{marker}: {data['text']}")
    if not rows:
        rows.append("No event in play.")
    roles = [
        f"{r.capitalize()}: {name_of(players, s) if s is not None else 'nobody'}"
        for r, s in sorted(state["roles"].items())
    ]
    rows.append("; ".join(roles) + ".")
    rows.append(_piles(state))
    rows.append(_ending(state, players, content))
    return rows


def _piles(state: dict[str, Any]) -> str:
    said = f"Deck: {state['deck_size']} cards. Discard pile: {len(state['discard'])}"
    if state["discard"]:
        said += f" (top: {card_name(state['discard'][-1])})"
    if state["removed"]:
        said += f". Removed: {listed([card_name(c) for c in state['removed']])}"
    if state.get("event_pile_size"):
        said += f". Event pile: {state['event_pile_size']}"
    return said + "."


def _ending(state: dict[str, Any], players: list[str], content: dict[str, Any]) -> str:
    solo = state.get("solitaire")
    if solo:
        scenario = content["scenarios"][solo["scenario"]]
        left = max(solo["turns"] - state["round"] + (0 if state["phase"] == "over" else 1), 0)
        difficulty = solo["difficulty"].capitalize()
        return (
            f"Solitaire, {scenario['name']} ({scenario['victory_text']}), {difficulty}: "
            f"{left} game turns left."
        )
    end = state.get("end")
    said = f"Game End token at {state['game_end_influence']} influence."
    if end:
        why = "reached the Game End token" if end["reason"] == "influence" else "built everything"
        said += f" The end is triggered: {name_of(players, end['seat'])} {why}."
    return said


# --- cards ------------------------------------------------------------------------------


def card_rows(view: dict[str, Any], viewer: Any) -> list[tuple[str, list[str]]]:
    """The groups of cards this view shows face up, each with its heading."""
    state, players = view["state"], view["players"]
    groups: list[tuple[str, list[str]]] = []
    task = state.get("task") or {}
    if task.get("kind") == "keep" and "drawn" in task:
        heading = f"Drawn by {name_of(players, task['seat'])} ({action_name(task['action'])})"
        groups.append((heading + ": keep one", list(task["drawn"])))
    if "hand" in state:
        whose = "Your hand" if viewer is None else f"Your hand ({name_of(players, viewer)})"
        groups.append((whose, list(state["hand"])))
    for seat, hand in enumerate(state.get("hands") or []):
        if hand:
            groups.append((f"{name_of(players, seat)}'s hand", list(hand)))
    if state.get("discarded_this_phase"):
        groups.append(("Discarded this Collection Phase", list(state["discarded_this_phase"])))
    return groups


def cards_section(
    groups: list[tuple[str, list[str]]], content: dict[str, Any], marks: dict[str, Any], top: float
) -> tuple[list[str], float]:
    """Groups of cards drawn face up, five to a row."""
    parts, y = [], top
    for heading, cards in groups:
        parts.append(text(10, y + 16, heading, 14, text_anchor="start", font_weight="bold"))
        y += 24
        if not cards:
            parts.append(text(10, y + 14, "no cards", 12, text_anchor="start"))
            y += 24
        for n, card in enumerate(cards):
            x = 10 + (n % 5) * (CARD_W + 8)
            parts += _card(
                card,
                cards,
                content,
                (x, y + (n // 5) * (CARD_H + 8)),
                card in marks.get("cards", []),
            )
        y += -(-len(cards) // 5) * (CARD_H + 8)
    return parts, y - top


def _card(
    card: str, among: list[str], content: dict[str, Any], at: tuple[float, float], marked: bool
) -> list[str]:
    data = content["cards"][card_type(card)]
    x, y = at
    fill = "#f6dede" if data["kind"] == "event" else "#fffaf0"
    kind = "Event" if data["kind"] == "event" else "Action card"
    if data["kind"] == "event":
        kind += ", permanent" if data.get("permanent") else ", temporary"
    icons = [ICON_WORDS.get(i, i) for i in data.get("icons", [])]
    heads = [kind, *svg.wrapped("icons: " + ", ".join(icons), CARD_CHARS)] if icons else [kind]
    body = svg.wrapped(data["text"], CARD_CHARS)[: 7 - len(heads)]
    parts = [
        svg.titled(
            "rect",
            f"{data['name']} ({card}): {data['text']}",
            **{"x": x, "y": y, "width": CARD_W, "height": CARD_H, "rx": 6, "fill": fill},
            **outline(marked),
        ),
        text(x + 8, y + 17, card_name(card, among), 12, text_anchor="start", font_weight="bold"),
        *lines_at(x + 8, y + 33, heads, 11, fill="#6b604f"),
    ]
    return parts + lines_at(x + 8, y + 37 + 15 * len(heads), body, 11)


# --- the outcome --------------------------------------------------------------------------


def outcome_lines(view: dict[str, Any]) -> list[str]:
    """The final scores with each line of them, and who won."""
    state, players = view["state"], view["players"]
    result = view.get("outcome") or state.get("result")
    if not result:
        return []
    rows = []
    for seat, line in enumerate(result.get("breakdown", [])):
        cities = sum(line["cities"].values())
        roles = f", roles {len(line['roles'])}" if line["roles"] else ""
        parts = f"gold {line['gold']}, influence {line['influence']}, cities {cities}{roles}"
        parts += f", loans {line['loans']}, jail {line['jail']}"
        rows.append(f"{name_of(players, seat)}: {line['total']} points ({parts})")
    winners = [name_of(players, s) for s in result.get("winners", [])]
    if "victory" in result:
        rows.append("The scenario is won." if result["victory"] else "The scenario is lost.")
    if winners:
        rows.append(
            f"Winner: {listed(winners)}." if len(winners) == 1 else f"Winners: {listed(winners)}."
        )
    return rows
