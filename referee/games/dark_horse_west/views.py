"""What each viewer sees of a Dark Horse West table.

Everything on the table is public (goods, tokens, roles, pieces, rails, dice, the board,
events in play, the face-up discard pile, how many cards each hand holds, what each seat
has used this game turn, the table's settings), except: the
face-down tiles (a seat sees those around its cities and along rails from them and those
it has looked at), the hands of action cards, the cards a seat is choosing among, and
the order of the deck. The moderator sees everything.
"""

from typing import Any

from ...engine.events import MODERATOR
from . import table
from .versions import FIRST

State = dict[str, Any]
PUBLIC = (
    "phase",
    "round",
    "order",
    "characters",
    "goods",
    "roles",
    "cities",
    "towns",
    "rails",
    "face_up",
    "discard",
    "events",
    "temporary",
    "removed",
    "dice",
    "placements",
    "ghosts",
    "pawns",
    "gun_dice",
    "bonus",
    "jail",
    "in_jail",
    "end",
    "result",
    "solitaire",
    # public facts the rules ask about, shown so that a bot can rebuild a full table
    # from its seat's view (referee/games/dark_horse_west/bot.py)
    "used",
    "settled",
    "start_rails",
    "character_mode",
    "characters_in_play",
    "deck_option",
    "tiles_face_up",
    "gunslinger",
)


def view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The table as `viewer` (a seat, the moderator, or None) may see it."""
    shown = {key: state[key] for key in PUBLIC}
    shown.update(
        face_down=table.face_down(state),
        hand_sizes=[len(h) for h in state["hands"]],
        deck_size=len(state["deck"]),
        event_pile_size=len(state["event_pile"]),
        step=state["step"],
        task=_task(state["task"], viewer),
        pieces_left=[
            {"cities": table.cities_left(state, s), "towns": table.towns_left(state, s)}
            for s in range(state["seats"])
        ],
        city_points=table.city_points(state),
        map=state["map"],
        game_end_influence=state["end_influence"],
        discarded_this_phase=state["phase_discards"],
        rules_version=state.get("version", FIRST),
    )
    if viewer == MODERATOR:
        shown.update(layout=state["layout"], hands=state["hands"], deck=state["deck"])
    elif isinstance(viewer, int):
        seen = table.visible_to(state, viewer)
        shown.update(hand=state["hands"][viewer], tiles_seen={h: state["layout"][h] for h in seen})
    return shown


def _task(task: dict[str, Any] | None, viewer: int | str | None) -> dict[str, Any] | None:
    """A seat's task: the cards it is choosing among are its own to see."""
    if task is None or task["kind"] != "keep" or viewer in (MODERATOR, task["seat"]):
        return task
    return {**{k: v for k, v in task.items() if k not in ("drawn", "events")}, "drawing": True}
