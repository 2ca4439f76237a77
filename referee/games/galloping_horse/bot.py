"""Galloping Horse's bot pieces (referee/bots, docs/bots.md): sample, policy.

What a seat sees (its view): the horses, the food, every hand's size and its own hand.
The view keeps no history, so the cards already played this round are unknown to it; a
sample deals the other hands uniformly from the round's deck less the seat's own hand,
the rest counted as played. The undrawn round-2 deal is not in the state: a playout's
own Rng deals it.
"""

from typing import Any

from ...engine.rng import Rng
from . import DECK, HAND, HORSES, TRACK

State = dict[str, Any]
ITERATIONS = 1200  # a strong move: 0.4-1 s of one core here (docs/bots.md, "How long ...")


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    """A rules state consistent with the seat's view: the other hands drawn from the
    round's 28 cards less the seat's own hand."""
    seats = len(view["hand_sizes"])
    pool = list(DECK)
    for horse in HORSES:
        for _ in range(view["hand"][horse]):
            pool.remove(horse)
    pool = rng.shuffle("hands", pool)
    hands = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(dict(view["hand"]))
            continue
        drawn, pool = pool[:size], pool[size:]
        hands.append({h: drawn.count(h) for h in HORSES})
    played = seats * HAND - sum(view["hand_sizes"])
    turn = view["turn"]
    return {
        "seats": seats,
        "round": view["round"],
        "turn": turn,
        # the option is not in the view; it matters only at setup, long past
        "first_seat": 0 if turn is None else (turn - played) % seats,
        "distance": {h: view["horses"][h]["distance"] for h in view["horses"]},
        "hands": hands,
        "food": list(view["food"]),
        "food_stack": view["food_stack"],
        "played": played,
        "line_up": view["line_up"],
    }


def policy(state: State, seat: int, commands: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    """A playout's move: a card that takes food when one does, else any card."""
    feeding = _feeding(state, commands) if state["food_stack"] else []
    pool = feeding or commands
    return pool[rng.below("card", len(pool))] if len(pool) > 1 else pool[0]


def _feeding(state: State, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands that move a horse strictly ahead of every other (as the rules' _play)."""
    distance = state["distance"]
    found = []
    for command in commands:
        horse = command["horse"]
        others = [d for h, d in distance.items() if h != horse]
        taken = {d % TRACK for d in others}
        to = distance[horse] + 1
        while to % TRACK in taken:
            to += 1
        if to > max(others):
            found.append(command)
    return found
