"""The Dark Horse West bot's ruleset part (docs/bots.md): `sample` rebuilds a full table
from one seat's view, drawing what the seat cannot see (face-down tiles it has not seen,
the deck's order, other hands, the cards another seat is choosing among, Marshal Law's
event pile)."""

from typing import Any

from ...engine.rng import Rng
from . import table
from .data import SCENARIOS, SOLITAIRE, card_kind, deck_cards
from .options import deck_counts
from .versions import FIRST

State = dict[str, Any]
View = dict[str, Any]
# the view's keys that are the table's own, as they are
KEPT = (
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
    "used",
    "settled",
    "start_rails",
    "character_mode",
    "characters_in_play",
    "deck_option",
    "tiles_face_up",
    "gunslinger",
    "map",
    "step",
)


# --- sample ------------------------------------------------------------------------------


def sample(view: View, seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees (`view` is the ruleset's view for
    it): the unseen tiles are dealt uniformly to the face-down hexes the seat has not
    seen (with two players one of them lies out of the game); the unseen cards are dealt
    uniformly to the other hands (action cards only: events are never held), the cards
    another seat is choosing among (action cards), Marshal Law's event pile (events) and
    the deck, in a uniform order. What a seat remembers beyond its view (the cards its
    Scout put back on top) is not used."""
    state: State = {key: view[key] for key in KEPT}
    seats = len(view["order"])
    state.update(
        seats=seats,
        end_influence=view["game_end_influence"],
        phase_discards=view["discarded_this_phase"],
        shuffles=0,
        looked=[sorted(view["tiles_seen"]) if s == seat else [] for s in range(seats)],
    )
    if view["rules_version"] != FIRST:
        state["version"] = view["rules_version"]
    state["layout"] = _layout(state, view, rng)
    _deal_cards(state, view, seat, rng)
    return state


def _layout(state: State, view: View, rng: Rng) -> dict[str, str]:
    """The tiles: face up and seen as they are, the rest shuffled onto the unseen hexes."""
    board = table.board_of(state)
    two = state["seats"] == 2
    known = {**view["face_up"], **view["tiles_seen"]}
    placed = set(known.values())
    in_game = [t for t, tile in board.tiles.items() if not (two and tile["rugged"])]
    pool = [t for t in in_game if t not in placed]
    unseen = [h for h in view["face_down"] if h not in known]
    drawn = rng.shuffle("sample/tiles", pool)
    layout = dict(known)
    layout.update(zip(unseen, drawn, strict=False))
    return dict(sorted(layout.items()))


def all_cards(state: State) -> list[str]:
    """Every card of this game's deck (Solitaire leaves its five out)."""
    cards = deck_cards(deck_counts({"deck": state["deck_option"]}))
    if state["solitaire"]:
        cards = [c for c in cards if c.rsplit("-", 1)[0] not in SOLITAIRE["removed_cards"]]
    return cards


def _marshal_law(state: State) -> bool:
    solo = state["solitaire"]
    return bool(solo and SCENARIOS[solo["scenario"]].get("events_apart"))


def _deal_cards(state: State, view: View, seat: int, rng: Rng) -> None:
    """Hands, the deck, the event pile and a task's drawn cards, from the unseen cards."""
    task = view["task"]
    mine = list(view["hand"])
    if task and task["kind"] == "keep" and task["seat"] == seat:
        mine += task["drawn"]
    known = set(mine) | set(view["discard"] + view["events"] + view["temporary"])
    known |= set(view["removed"])
    unseen = [c for c in all_cards(state) if c not in known]
    events = rng.shuffle("sample/events", [c for c in unseen if card_kind(c) == "event"])
    actions = rng.shuffle("sample/actions", [c for c in unseen if card_kind(c) != "event"])
    pile_size = view["event_pile_size"] if _marshal_law(state) else 0
    state["event_pile"], events = events[:pile_size], events[pile_size:]
    hands: list[list[str]] = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(sorted(actions[:size]))
            actions = actions[size:]
    state["hands"] = hands
    state["task"] = task
    if task and task["kind"] == "keep" and task["seat"] != seat:
        count = len(events) + len(actions) - view["deck_size"]
        drawn, actions = actions[:count], actions[count:]
        state["task"] = {
            **{k: v for k, v in task.items() if k != "drawing"},
            "drawn": drawn,
            "events": _drawn_events(view, task, count),
        }
    state["deck"] = rng.shuffle("sample/deck", events + actions)


def _drawn_events(view: View, task: dict[str, Any], count: int) -> list[str]:
    """The event another seat drew with its cards, when it drew one: the one last put in
    play (a guess when the draw's Winds of Change went straight to the discard pile)."""
    wanted = 3 if task["action"] == "scout" else 2
    if count >= wanted:
        return []
    played = view["temporary"] or view["events"]
    return played[-1:]
