"""A tiny ruleset played in sealed rounds, for testing the engine's rounds alone.

Three rounds; each seat bids 1-5 chips; the highest bid no other seat matched scores its
bid. A seat that sends nothing bids 0. Orders are revealed after each round, or at the
end with the option `reveal_at_end` (then REVEAL is read from the state's options by the
test that swaps the module attribute).
"""

from referee.engine.errors import BadRequest
from referee.engine.events import event
from referee.engine.outcome import ranked

NAME = "sealed-toy"
VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 4
OPTIONS = {"rounds": 3, "round_seconds": 60}
COMMANDS = {"submit_orders": {"fields": {"round": "integer", "orders": "object"}}}
REVEAL = "round"


def initial(players, options):
    return {
        "round": 1,
        "rounds": options["rounds"],
        "seconds": options["round_seconds"],
        "scores": [0] * len(players),
        "seats": len(players),
    }


def setup(state, rng):
    return []


def open_round(state):
    if state["round"] > state["rounds"]:
        return None
    return {"round": state["round"], "seconds": state["seconds"]}


def check_orders(state, seat, orders):
    if not isinstance(orders, dict) or set(orders) != {"bid"}:
        raise BadRequest("orders/invalid", "orders must be {bid}", {"field": "orders"})
    bid = orders["bid"]
    if not isinstance(bid, int) or isinstance(bid, bool) or not 1 <= bid <= 5:
        raise BadRequest("orders/invalid", "orders.bid must be 1-5", {"field": "orders.bid"})
    return {"bid": bid}


def inspect_orders(state, seat, orders):
    return (
        [{"part": "bid", "rule": "toy/high", "message": "a high bid"}] if orders["bid"] == 5 else []
    )


def default_orders(state, seat):
    return {"bid": 0}


def resolve(state, submissions, rng):
    bids = [s["bid"] for s in submissions]
    unique = [b for b in bids if b and bids.count(b) == 1]
    winner = bids.index(max(unique)) if unique else None
    return [event("RoundScored", {"round": state["round"], "bids": bids, "winner": winner})]


def to_move(state):
    return []


def legal(state, seat):
    if state["round"] > state["rounds"]:
        return []
    return [
        {"type": "submit_orders", "round": state["round"], "orders": {"bid": b}}
        for b in range(1, 6)
    ]


def decide(state, seat, command, rng):
    raise BadRequest("command/unknown", "no such command", {})


def apply(state, record):
    p = record["payload"]
    scores = list(state["scores"])
    if p["winner"] is not None:
        scores[p["winner"]] += p["bids"][p["winner"]]
    return {**state, "round": state["round"] + 1, "scores": scores}


def view(state, viewer):
    return {"round": state["round"], "scores": state["scores"]}


def outcome(state):
    if state["round"] <= state["rounds"]:
        return None
    return ranked(state["scores"])


def round_summary(state, number, players):
    return {"title": f"Round {number} [toy]", "sections": [{"heading": "Bids", "lines": []}]}
