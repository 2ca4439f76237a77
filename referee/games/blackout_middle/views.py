"""What each viewer may know: the public table for everyone, a seat's own secrets for that
seat, everything for the moderator. Never positions, other seats' hands, bets or
abilities, nor movement values not yet announced, in a seat's or a spectator's view."""

from typing import Any

from ...engine.canonical import copied
from ...engine.events import MODERATOR
from .commands import to_move
from .data import HORSES, KINDS, TRACK_LENGTH, ability
from .judging import current_space
from .rounds import open_round
from .scoring import purchase_cost
from .state import ROUNDS
from .trades import on_offer, open_offers

State = dict[str, Any]


def view(state: State, viewer: int | str | None) -> dict[str, Any]:
    """The public table; a seat adds its own secrets; the moderator sees every seat's."""
    shown = public(state)
    if viewer == MODERATOR:
        shown["seats_private"] = [own(state, seat) for seat in range(state["seats"])]
        shown["positions"] = dict(state["positions"])
        shown["finished_order"] = list(state["finished"])
        shown["movements"] = {r: dict(values) for r, values in state["movements"].items()}
        shown["offers"] = [dict(o) for o in state["offers"]]
    elif isinstance(viewer, int) and 0 <= viewer < state["seats"]:
        shown["you"] = own(state, viewer)
    return copied(shown)  # nothing in a view may alias the state


def public(state: State) -> dict[str, Any]:
    """What everyone knows: the seats and options, the round, the finished horses, who
    spectated where, the end."""
    return {
        # public in the game's view too; here so that the rules' view alone says how many
        # seats play and with what chips (a bot's sampler reads nothing else)
        "seats": state["seats"],
        "options": dict(state["options"]),
        "phase": state["phase"],
        "round": state["round"],
        "open_round": open_round(state),
        "abilities": _abilities(state),
        "to_move": to_move(state),
        "horses": list(HORSES),
        "track_length": TRACK_LENGTH,
        "finished": [
            {"horse": h, **shown, "movements": dict(shown["movements"])}
            for h, shown in sorted(state["announced"].items(), key=lambda i: i[1]["placement"])
        ],
        "spectating": {r: list(spaces) for r, spaces in state["spectating"].items()},
        "scores": state["scores"],
        "tols": state["tols"],
        "elimination": state["elimination"],
    }


def own(state: State, seat: int) -> dict[str, Any]:
    """One seat's secrets: its hand, chips, bets, spaces seen, results, trades (and the
    cards it holds for its open offers), garnets."""
    return {
        "seat": seat,
        "hand": {h: n for h, n in state["hands"][seat].items() if n > 0},
        "chips": state["chips"][seat],
        "chip_limit": state["limits"][seat],
        "garnets": state["garnets"][seat],
        "purchases": state["purchases"][seat],
        "next_purchase_cost": purchase_cost(state["purchases"][seat] + 1),
        "bets": {r: dict(bets) for r, bets in state["bets"][seat].items()},
        "current_space": current_space(state, seat) if state["phase"] == ROUNDS else None,
        "seen": {r: dict(seen) for r, seen in state["seen"][seat].items()},
        "spectator_points": state["spectator_points"][seat],
        "utility_points": dict(state["utility_points"][seat]),
        "watching": list(state["watches"][seat]),
        "learned": [dict(result) for result in state["learned"][seat]],
        "judged": {r: dict(judged) for r, judged in state["judged"][seat].items()},
        "open_offers": [dict(o) for o in open_offers(state, seat)],
        "on_offer": on_offer(state, seat),
        "trades": [dict(o) for o in state["offers"] if seat in (o["from"], o["to"])],
    }


def _abilities(state: State) -> dict[str, str] | None:
    if state["phase"] != ROUNDS:
        return None
    return {kind: ability(state["round"], kind)["text"] for kind in KINDS}
