"""The Blackout Middle bot's parts for the information-set search (referee/bots/): a
table consistent with what a seat sees (`sample`), the sealed orders worth searching
(`orders`), how every seat plays in a playout (`policy`), and a playout's value when it
is cut short (`evaluate`). docs/bots.md says how strong it plays and why.

`sample` draws the hidden movement table from everything the seat learned (worlds.py:
uniform per horse, Gibbs sweeps where facts bind horses together) and the other seats'
secret play around what is public (others.py: a plain player's choices, not uniform).
"""

from typing import Any

from ...engine.canonical import copied
from ...engine.rng import Rng
from .data import HORSES
from .drawing import draw_world
from .knowledge import knowledge
from .others import other_seats
from .versions import FIRST, VERSION
from .worlds import finishing_order

State = dict[str, Any]


def sample(view: dict[str, Any], seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees in `view` (the rules' view)."""
    known = knowledge(view, seat)
    world = draw_world(known, rng, "world")
    drawn = other_seats(view, known, world, rng, "others")
    you = view["you"]
    seats = range(view["seats"])

    def each(mine: Any, theirs: Any) -> list[Any]:
        return [mine if s == seat else theirs(drawn[s]) for s in seats]

    table: State = {
        "seats": view["seats"],
        "options": dict(view["options"]),
        "phase": view["phase"],
        "round": view["round"],
        "movements": world.movements(),
        "positions": {h: world.spaces[h][known.moved] for h in HORSES},
        "finished": finishing_order(world, known.moved),
        "announced": {
            shown["horse"]: {k: shown[k] for k in ("round", "placement", "movements")}
            for shown in view["finished"]
        },
        "spectating": {r: list(spaces) for r, spaces in view["spectating"].items()},
        "hands": each({h: you["hand"].get(h, 0) for h in HORSES}, lambda o: dict(o.hand)),
        "chips": each(you["chips"], lambda o: o.chips),
        "limits": each(you["chip_limit"], lambda o: o.limit),
        "garnets": each(you["garnets"], lambda o: view["options"]["starting_garnets"]),
        "purchases": each(you["purchases"], lambda o: 0),
        "bets": each(you["bets"], lambda o: o.bets),
        "seen": each(you["seen"], lambda o: o.seen),
        "spectator_points": each(you["spectator_points"], lambda o: o.points),
        "utility_points": each(you["utility_points"], lambda o: {}),
        "watches": each(you["watching"], lambda o: []),
        "learned": each(you["learned"], lambda o: []),
        "judged": each(you["judged"], lambda o: o.judged),
        "offers": list(you["trades"]),
        "scores": view["scores"],
        "tols": view["tols"],
        "elimination": view["elimination"],
    }
    if VERSION != FIRST:
        table["version"] = VERSION
    return copied(table)  # nothing in a sampled table aliases the view
