"""Card trades (one card for one card, both must accept) and garnet purchases. Both are
private: every event goes only to the seats concerned.

Since version 2 a card offered is held for the offer while it is open: no ability and no
other offer or accept of its seat may take it (`free_hand`), so an accept never fails on
the offering seat's hand, and its recipient learns nothing of what that seat did since.

An offer's number is 10000 x k + 100 x offerer + recipient, k counting the offers from
that offerer to that recipient (1, 2, ...): unique, and it tells a seat nothing of the
trades between other seats."""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from .._checks import is_int
from .data import HORSES, OPEN_OFFERS_PER_SEAT
from .scoring import purchase_cost
from .state import OPEN
from .versions import CARDS_ON_OFFER, since

State = dict[str, Any]
Command = dict[str, Any]
Hand = dict[str, int]


def offer_number(state: State, giver: int, taker: int) -> int:
    """The number the next offer from giver to taker gets."""
    k = 1 + sum(o["from"] == giver and o["to"] == taker for o in state["offers"])
    return 10000 * k + 100 * giver + taker


def open_offers(state: State, seat: int) -> list[dict[str, Any]]:
    """The open offers a seat made or received."""
    return [o for o in state["offers"] if o["status"] == OPEN and seat in (o["from"], o["to"])]


def on_offer(state: State, seat: int) -> Hand:
    """The cards a seat has put on the table in its open offers (a version 1 game holds
    none for its offers)."""
    if not since(state, CARDS_ON_OFFER):
        return {}
    offered: Hand = {}
    for o in open_offers(state, seat):
        if o["from"] == seat:
            offered[o["give"]] = offered.get(o["give"], 0) + 1
    return offered


def free_hand(state: State, seat: int) -> Hand:
    """The seat's cards not on offer: what its abilities, offers and accepts may take."""
    offered = on_offer(state, seat)
    return {h: n - offered.get(h, 0) for h, n in state["hands"][seat].items()}


def offer_trade(state: State, seat: int, command: Command) -> list[Event]:
    """Offer one of your cards for one of another seat's; its hand is checked on accepting."""
    taker = command.get("to")
    if not is_int(taker) or not 0 <= taker < state["seats"]:
        raise BadRequest(
            "command/invalid", f"to must be a seat number 0-{state['seats'] - 1}", {"field": "to"}
        )
    give, get = _horse(command, "give"), _horse(command, "get")
    if taker == seat:
        raise RuleViolation(
            "rule/trade_with_self", "to: you cannot trade with yourself", {"field": "to"}
        )
    if sum(o["from"] == seat for o in open_offers(state, seat)) >= OPEN_OFFERS_PER_SEAT:
        message = f"at most {OPEN_OFFERS_PER_SEAT} open offers: withdraw one first"
        raise RuleViolation("rule/too_many_offers", message, {})
    _check_free(state, seat, give, "give")
    offer = {
        "offer": offer_number(state, seat, taker),
        "from": seat,
        "to": taker,
        "give": give,
        "get": get,
    }
    return [event("TradeOffered", offer, to=[seat, taker])]


def accept_trade(state: State, seat: int, command: Command) -> list[Event]:
    """The recipient accepts: both hands are checked now and the cards change hands at once."""
    offer = _offer(state, command, seat, "to")
    if not since(state, CARDS_ON_OFFER):
        # version 1 held nothing for an offer: the offering seat may have lost the card
        _check_holds(
            state["hands"][offer["from"]], offer["give"], "offer", "the offering seat holds"
        )
    _check_free(state, seat, offer["get"], "offer")
    return [event("TradeAccepted", _public_part(offer), to=[offer["from"], seat])]


def decline_trade(state: State, seat: int, command: Command) -> list[Event]:
    """The recipient declines an open offer."""
    offer = _offer(state, command, seat, "to")
    return [event("TradeDeclined", _public_part(offer), to=[offer["from"], seat])]


def withdraw_trade(state: State, seat: int, command: Command) -> list[Event]:
    """The offering seat withdraws an open offer."""
    offer = _offer(state, command, seat, "from")
    return [event("TradeWithdrawn", _public_part(offer), to=[seat, offer["to"]])]


def buy_card(state: State, seat: int, command: Command) -> list[Event]:
    """Buy a horse card with garnets: 2, then twice the previous price."""
    horse = _horse(command, "horse")
    cost = purchase_cost(state["purchases"][seat] + 1)
    if state["garnets"][seat] < cost:
        message = f"this purchase costs {cost} garnets; you hold {state['garnets'][seat]}"
        raise RuleViolation("rule/not_enough_garnets", message, {"field": "horse"})
    return [event("CardBought", {"seat": seat, "horse": horse, "cost": cost}, to=[seat])]


def _public_part(offer: dict[str, Any]) -> dict[str, Any]:
    return {k: offer[k] for k in ("offer", "from", "to", "give", "get")}


def _horse(command: Command, field: str) -> str:
    horse = command.get(field)
    if horse not in HORSES:
        raise BadRequest("command/invalid", f"{field} must be a horse letter A-I", {"field": field})
    return str(horse)


def _offer(state: State, command: Command, seat: int, role: str) -> dict[str, Any]:
    number = command.get("offer")
    if not is_int(number):
        raise BadRequest("command/invalid", "offer must be an offer number", {"field": "offer"})
    for offer in open_offers(state, seat):
        if offer["offer"] == number and offer[role] == seat:
            return offer
    who = "to you" if role == "to" else "by you"
    message = f"offer: there is no open offer {number} made {who}"
    raise RuleViolation("rule/no_such_offer", message, {"field": "offer"})


def _check_holds(hand: Hand, horse: str, field: str, who: str) -> None:
    if hand[horse] < 1:
        message = f"{field}: {who} no {horse} card"
        raise RuleViolation("rule/card_not_held", message, {"field": field})


def _check_free(state: State, seat: int, horse: str, field: str) -> None:
    """The seat holds the card, and (version 2) one not on offer in another trade."""
    _check_holds(state["hands"][seat], horse, field, "you hold")
    if free_hand(state, seat)[horse] < 1:
        message = f"{field}: your {horse} cards are all on offer in other trades"
        raise RuleViolation("rule/card_on_offer", message, {"field": field})
