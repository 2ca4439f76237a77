"""Blackout Middle's legal commands as short choice texts in the game's words (`label`)."""

from typing import Any

from .words import name, orders_text, trade_text

Players = list[str]


def label(command: dict[str, Any], view: dict[str, Any]) -> str:
    """A legal command as a short choice text in the game's words."""
    players: Players = view.get("players", [])
    kind = command.get("type")
    if kind == "submit_orders":
        return f"Seal Round {command.get('round')} orders: {orders_text(command.get('orders'))}"
    if kind == "offer_trade":
        to = name(players, command.get("to"))
        return f"Offer {to} card {command.get('give')} for card {command.get('get')}"
    if kind in _OFFER_VERBS:
        return _offer_label(kind, command.get("offer"), view, players)
    if kind == "buy_card":
        return f"Buy card {command.get('horse')} for {_price(view)} garnets"
    if kind == "give_tol":
        return f"Give the other ToL to {name(players, command.get('seat'))}"
    if kind == "record_ec_vote":
        votes = command.get("votes") or {}
        cast = [f"{name(players, v)} for {name(players, s)}" for v, s in votes.items()]
        return "Record the EC vote: " + ", ".join(cast)
    return str(kind)


_OFFER_VERBS = {"accept_trade": "Accept", "decline_trade": "Decline", "withdraw_trade": "Withdraw"}


def _offer_label(kind: str, number: Any, view: dict[str, Any], players: Players) -> str:
    mine = ((view.get("state") or {}).get("you") or {}).get("open_offers", [])
    found = next((o for o in mine if o["offer"] == number), None)
    verb = _OFFER_VERBS[kind]
    if found is None:
        return f"{verb} offer {number}"
    return f"{verb} offer {number}: {trade_text(found, players)}"


def _price(view: dict[str, Any]) -> Any:
    return ((view.get("state") or {}).get("you") or {}).get("next_purchase_cost", "?")
