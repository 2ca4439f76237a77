"""The table of a Blackout Middle game: how it starts, the secret draw, and how each event
changes it. `apply` copies what it changes and never looks anything up but the payload."""

from collections.abc import Callable
from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from .. import _versions
from .data import FIRST_ROUND, HORSES, LAST_ROUND, MOVEMENT_VALUES, UTILITY, ability
from .race import start
from .versions import FIRST, VERSION

State = dict[str, Any]
Payload = dict[str, Any]
Hand = dict[str, int]
SETUP, ROUNDS, AWARDS, OVER = "setup", "rounds", "awards", "over"
OPEN = "open"


def initial(players: list[str], options: dict[str, Any], *, version: int = VERSION) -> State:
    """The table before the draw: every seat with one card of each horse and its chips,
    under the ruleset version the game was created with."""
    seats = len(players)
    table = {
        "seats": seats,
        "options": dict(options),
        "phase": SETUP,
        "round": FIRST_ROUND,
        "movements": {},
        "positions": start(),
        "finished": [],
        "announced": {},
        "spectating": {},
        "hands": [dict.fromkeys(HORSES, 1) for _ in range(seats)],
        "chips": [options["starting_chips"]] * seats,
        "limits": [options["chip_limit"]] * seats,
        "garnets": [options["starting_garnets"]] * seats,
        "purchases": [0] * seats,
        "bets": [{} for _ in range(seats)],
        "seen": [{} for _ in range(seats)],
        "spectator_points": [0] * seats,
        "utility_points": [{} for _ in range(seats)],
        "watches": [[] for _ in range(seats)],
        "learned": [[] for _ in range(seats)],
        "judged": [{} for _ in range(seats)],
        "offers": [],
        "scores": None,
        "tols": None,
        "elimination": None,
    }
    return _versions.stamped(table, version, FIRST)


def setup(state: State, rng: Rng) -> list[Event]:
    """Draw every horse's movement value for rounds 1-10; only the moderator sees them."""
    drawn = {
        str(r): {h: MOVEMENT_VALUES[rng.below(f"movement/{r}/{h}", 3)] for h in HORSES}
        for r in range(FIRST_ROUND + 1, LAST_ROUND + 1)
    }
    # to=[]: no seat may see them, only the moderator
    return [event("MovementsDrawn", {"movements": drawn}, to=[])]


def apply(state: State, ev: Event) -> State:
    """The state after one event: a new dict; the input and what it holds stay untouched."""
    change = _CHANGES.get(ev["type"])
    if change is None:
        return state
    after = {**state, **change(state, ev["payload"])}
    return {**after, "phase": OVER} if awards_settled(after) else after


def awards_settled(state: State) -> bool:
    """Whether the ToLs and the Elimination Candidate are all decided."""
    tols, elimination = state["tols"], state["elimination"]
    return (
        tols is not None
        and tols["choice"] is None
        and elimination is not None
        and elimination.get("candidate") is not None
    )


def fold(state: State, events: list[Event]) -> State:
    """The state after a run of events."""
    for ev in events:
        state = apply(state, ev)
    return state


def replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    """A copy of a list with one item replaced."""
    if type(index) is int and 0 <= index < len(items):  # a seat: copied in C
        copy = list(items)
        copy[index] = value
        return copy
    return [value if i == index else item for i, item in enumerate(items)]


def added(hand: Hand, cards: dict[str, int], sign: int = 1) -> Hand:
    """A copy of a hand with cards added (sign 1) or taken away (sign -1)."""
    return {h: count + sign * cards.get(h, 0) for h, count in hand.items()}


def _hand_change(state: State, seat: int, cards: dict[str, int], sign: int = 1) -> Payload:
    return {"hands": replaced(state["hands"], seat, added(state["hands"][seat], cards, sign))}


def _per_round(state: State, key: str, seat: int, round_number: int, value: Any) -> Payload:
    record = {**state[key][seat], str(round_number): value}
    return {key: replaced(state[key], seat, record)}


def _orders_judged(state: State, p: Payload) -> Payload:
    seat, effects, bets = p["seat"], p["effects"], p["applied"]["bets"]
    chips = state["chips"][seat] + effects["chips_gained"] - sum(bets.values())
    # what a judgement leaves as it was (no card used, no limit raised, the same chips)
    # stays the very same object, which the state hash splices as it was
    changes = _per_round(
        state, "judged", seat, p["round"], {"applied": p["applied"], "dropped": p["dropped"]}
    )
    if effects["cards_used"] != {}:
        changes.update(_hand_change(state, seat, effects["cards_used"], -1))
    if not _same_int(effects["limit_raised"], 0):
        limit = state["limits"][seat] + effects["limit_raised"]
        changes["limits"] = replaced(state["limits"], seat, limit)
    if not _same_int(chips, state["chips"][seat]):
        changes["chips"] = replaced(state["chips"], seat, chips)
    if bets:
        changes.update(_per_round(state, "bets", seat, p["round"], dict(bets)))
    if effects["watch"]:
        changes["watches"] = replaced(state["watches"], seat, list(effects["watch"]))
    return changes


def _same_int(a: Any, b: Any) -> bool:
    """Both the same whole number (1.0 is not 1 in a state's bytes)."""
    return type(a) is int and type(b) is int and a == b


def _horses_moved(state: State, p: Payload) -> Payload:
    return {"positions": dict(p["positions"]), "finished": [*state["finished"], *p["finishing"]]}


def _horse_finished(state: State, p: Payload) -> Payload:
    shown = {k: p[k] for k in ("round", "placement", "movements")}
    return {"announced": {**state["announced"], p["horse"]: shown}}


def _learned(state: State, p: Payload) -> Payload:
    """What an ability (or a watch) delivered; a result of kind None delivered nothing."""
    if p["kind"] is None:
        return {}
    seat = p["seat"]
    changes = {"learned": replaced(state["learned"], seat, [*state["learned"][seat], dict(p)])}
    if p.get("gained"):
        changes.update(_hand_change(state, seat, p["gained"]))
    if p.get("points"):
        points = {**state["utility_points"][seat], **p["points"]}
        changes["utility_points"] = replaced(state["utility_points"], seat, points)
    return changes


def _space_seen(state: State, p: Payload) -> Payload:
    """The horses on the space spectated; a seat that spectated none saw nothing."""
    if p["space"] is None:
        return {}
    seat = p["seat"]
    seen = {"space": p["space"], "horses": list(p["horses"])}
    points = state["spectator_points"][seat] + p["points"]
    return {
        **_per_round(state, "seen", seat, p["round"], seen),
        "spectator_points": replaced(state["spectator_points"], seat, points),
    }


def _round_resolved(state: State, p: Payload) -> Payload:
    """The next round opens; after the last one the awards begin (the scores follow)."""
    changes: Payload = {"round": p["round"] + 1}
    if p["round"] == LAST_ROUND:
        changes["phase"] = AWARDS
    # Round 3's utility watch ends with the last round it names
    if p["round"] >= ability(3, UTILITY)["rounds"][-1]:
        changes["watches"] = [[] for _ in range(state["seats"])]
    return changes


def _offer_status(state: State, offer: int, status: str) -> list[dict[str, Any]]:
    return [{**o, "status": status} if o["offer"] == offer else o for o in state["offers"]]


def _trade_accepted(state: State, p: Payload) -> Payload:
    giver, taker = p["from"], p["to"]
    hands = replaced(
        state["hands"], giver, added(state["hands"][giver], {p["give"]: -1, p["get"]: 1})
    )
    hands = replaced(hands, taker, added(hands[taker], {p["give"]: 1, p["get"]: -1}))
    return {"hands": hands, "offers": _offer_status(state, p["offer"], "accepted")}


def _card_bought(state: State, p: Payload) -> Payload:
    seat = p["seat"]
    return {
        **_hand_change(state, seat, {p["horse"]: 1}),
        "garnets": replaced(state["garnets"], seat, state["garnets"][seat] - p["cost"]),
        "purchases": replaced(state["purchases"], seat, state["purchases"][seat] + 1),
    }


def _scores_revealed(state: State, p: Payload) -> Payload:
    lapsed = [{**o, "status": "lapsed"} if o["status"] == OPEN else o for o in state["offers"]]
    # the garnets held after the awards (the scoreboard of version 1 also named them)
    garnets = [state["garnets"][row["seat"]] + row["garnets_awarded"] for row in p["seats"]]
    return {"phase": AWARDS, "scores": dict(p), "garnets": garnets, "offers": lapsed}


def _tol_given(state: State, p: Payload) -> Payload:
    tols = {**state["tols"], "given": {str(p["seat"]): p["tols"]}, "choice": None}
    return {"tols": tols}


def _elimination(state: State, p: Payload) -> Payload:
    return {"elimination": {**(state["elimination"] or {}), **p}}


_CHANGES: dict[str, Callable[[State, Payload], Payload]] = {
    "MovementsDrawn": lambda s, p: {"movements": p["movements"], "phase": ROUNDS},
    "OrdersJudged": _orders_judged,
    "HorsesMoved": _horses_moved,
    "HorseFinished": _horse_finished,
    "AbilityResolved": _learned,
    "ChipsWatched": _learned,
    "SpaceSeen": _space_seen,
    "SpectatingAnnounced": lambda s, p: {
        "spectating": {**s["spectating"], str(p["round"]): list(p["spaces"])}
    },
    "RoundResolved": _round_resolved,
    "TradeOffered": lambda s, p: {"offers": [*s["offers"], {**p, "status": OPEN}]},
    "TradeAccepted": _trade_accepted,
    "TradeDeclined": lambda s, p: {"offers": _offer_status(s, p["offer"], "declined")},
    "TradeWithdrawn": lambda s, p: {"offers": _offer_status(s, p["offer"], "withdrawn")},
    "CardBought": _card_bought,
    "ScoresRevealed": _scores_revealed,
    "TolsAwarded": lambda s, p: {"tols": dict(p)},
    "TolGiven": _tol_given,
    "EliminationCandidateNamed": _elimination,
    "EliminationVoteCalled": _elimination,
    "EliminationVoteRecorded": _elimination,
}
