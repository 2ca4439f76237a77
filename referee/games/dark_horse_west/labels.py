"""Dark Horse West's commands in words: `label` names a legal command for a button,
short and distinct from every other legal command of the same view."""

from collections.abc import Callable
from typing import Any

from .data import CARDS, card_type
from .words import (
    action_name,
    card_name,
    cards_words,
    character_name,
    edge_words,
    goods_words,
    gun_spot,
    hex_words,
    listed,
    name_of,
    spot_words,
)


def label(command: dict[str, Any], view: dict[str, Any]) -> str:
    """A legal command in the game's words, short enough for a button, distinct from
    every other legal command of the same view."""
    words = LABELS.get(command.get("type", ""))
    if words is None:
        return str(command.get("type", "?")).replace("_", " ").capitalize()
    return words(command, view["state"], view.get("players", []))


def actor(state: dict[str, Any]) -> int | None:
    """The seat asked to act in a view's state."""
    for part in (state.get("task"), state.get("step")):
        if part and isinstance(part.get("seat"), int):
            return int(part["seat"])
    return None


def dice_words(state: dict[str, Any], ids: list[int], *, seat: int | None = None) -> str:
    """Dice of the acting seat by id with their faces: "dice 0+1 (3+4)"."""
    seat = actor(state) if seat is None else seat
    faces = state["dice"][seat] if seat is not None else []
    shown = [str(faces[i]["value"]) if i < len(faces) else "?" for i in ids]
    noun = "die" if len(ids) == 1 else "dice"
    return f"{noun} {'+'.join(str(i) for i in ids)} ({'+'.join(shown)})"


def _place(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    where = spot_words(c["action"], c.get("row"), c.get("slot"))
    if c["action"] == "character":
        where = f"your character card ({character_name(state['characters'][actor(state)])})"
    said = f"Place {dice_words(state, c['dice'])} on {where}"
    if c.get("wild"):
        said += f", Wild Die token {c['wild']:+d}"
    if c.get("engineer"):
        said += f", Engineer token: die {c['engineer']['die']} to {c['engineer']['value']}"
    if c.get("share"):
        said += ", sharing with an Engineer token"
    return said


def _dealer_label(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    said = f"Dealer with {dice_words(state, [c['die']])}: "
    if "loan" in c:
        return said + f"a loan for {goods_words(c['loan'])}"
    move = c["move"]
    if "placement" in move:
        placed = state["placements"][move["placement"]]
        source = (
            f"your dice on {spot_words(placed['action'], placed.get('row'), placed.get('slot'))}"
        )
    else:
        source = dice_words(state, move["dice"])
    target = spot_words(move["to"], move.get("row"), move.get("slot"))
    share = ", sharing with an Engineer token" if move.get("share") else ""
    return said + f"move {source} {move['delta']:+d} to {target}{share}"


def _play(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    said = f"Play {card_name(c['card'], _hand(state))}"
    if "target" in c:
        said += f" on {name_of(players, c['target'])}"
    parts = []
    if "hex" in c:
        parts.append(f"at {hex_words(c['hex'])}")
    if "hexes" in c:
        parts.append(f"look at {listed([hex_words(h) for h in c['hexes']])}")
    if "take" in c:
        parts.append(f"take {goods_words(c['take'])}")
    if "pay" in c:
        parts.append(f"pay {goods_words(c['pay'])}")
    if "resource" in c:
        parts.append(f"produce {c['resource']}")
    if "die" in c:
        parts.append(f"re-roll {dice_words(state, [c['die']])}")
    if "remove_event" in c:
        parts.append(f"discard the event {card_name(c['remove_event'])}")
    return said + (f": {', '.join(parts)}" if parts else "")


def _hand(state: dict[str, Any]) -> list[str]:
    """The acting seat's hand as this view shows it (a seat's own, or the moderator's)."""
    if "hand" in state:
        return list(state["hand"])
    seat = actor(state)
    hands = state.get("hands") or []
    return list(hands[seat]) if seat is not None and seat < len(hands) else []


def _collect(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    step = state.get("step") or {}
    placement = _current(state)
    said = f"Collect {spot_words(step.get('action'), placement.get('row'), placement.get('slot'))}"
    parts = []
    if "build" in c:
        parts.append(f"a {c['build']} at {hex_words(c['hex'])}")
    if "resources" in c:
        parts.append(f"produce {listed(c['resources'])}" if c["resources"] else "produce nothing")
    if "pay" in c:
        parts.append(f"pay {goods_words(c['pay'])}")
    if "take" in c:
        parts.append(f"take {goods_words(c['take'])}")
    if "look" in c:
        parts.append(f"look at {hex_words(c['look'])}")
    if "remove_event" in c:
        parts.append(f"discard the event {card_name(c['remove_event'])}")
    return said + (f": {', '.join(parts)}" if parts else "")


def _current(state: dict[str, Any]) -> dict[str, Any]:
    step = state.get("step") or {}
    index = step.get("placement")
    placements = state.get("placements") or []
    return placements[index] if isinstance(index, int) and index < len(placements) else {}


def _keep(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    drawn = list((state.get("task") or {}).get("drawn", []))
    if c.get("card"):
        said = f"Keep {card_name(c['card'], drawn)}"
    elif c.get("ability"):
        data = CARDS[card_type(c["ability"])]
        what = "take 1 gold" if data.get("ability") == "take_gold" else "lay 1 rail"
        said = f"Use {data['name']}'s ability ({what}), keep no card"
    else:
        said = "Keep no card"
    if c.get("top"):
        said += f"; back on top: {cards_words(c['top'], drawn)}"
    return said


def _ability(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    ability = c["ability"]
    among = _hand(state) + list(state.get("discarded_this_phase") or [])
    if ability == "sell_card":
        return f"Discard {card_name(c['card'], among)} for {goods_words(c['take'])} (The Scoundrel)"
    if ability == "swap_card":
        return (
            f"Discard {card_name(c['card'], among)}, take {card_name(c['taken'], among)} "
            "(The Scoundrel)"
        )
    if ability == "merchant_trade":
        return f"Trade {goods_words(c['pay'])} for {goods_words(c['take'])} (The Merchant)"
    if ability == "track":
        return f"Look at the tile at {hex_words(c['hex'])} (The Tracker)"
    return "Produce food on your towns (The Homesteader)"


def _town(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    return f"First town at {hex_words(c['hex'])}"


def _gun(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    seat = actor(state)
    pawns, rolls = state.get("pawns") or [], state.get("gun_dice") or []
    if seat is None or seat >= len(pawns) or rolls[seat] is None:
        return f"Move the Gunslinger pawn {c['direction']}"
    roll = rolls[seat] if c["direction"] == "up" else -rolls[seat]
    return f"Move the Gunslinger pawn {c['direction']} to {gun_spot(pawns[seat] + roll)}"


def _flip(c: dict[str, Any], state: dict[str, Any], players: list[str]) -> str:
    seat = actor(state)
    deputy = [d for d in (state["dice"][seat] if seat is not None else []) if d["kind"] == "deputy"]
    if not deputy:
        return "Flip the Deputy die"
    return f"Flip the Deputy die from {deputy[0]['value']} to {7 - deputy[0]['value']}"


LABELS: dict[str, Callable[[dict[str, Any], dict[str, Any], list[str]], str]] = {
    "choose_character": lambda c, s, n: f"Take {character_name(c['character'])}",
    "place_city": lambda c, s, n: f"First city at {hex_words(c['hex'])}",
    "place_town": _town,
    "place_rail": lambda c, s, n: f"Rail {edge_words(c['edge'])}",
    "move_gunslinger": _gun,
    "flip_deputy": _flip,
    "reroll": lambda c, s, n: f"Wild Die token: re-roll {dice_words(s, c['dice'])}",
    "place": _place,
    "dealer": _dealer_label,
    "play_card": _play,
    "collect": _collect,
    "decline": lambda c, s, n: (
        f"Decline {action_name((s.get('step') or {}).get('action'))}: pay nothing, gain nothing"
    ),
    "keep_card": _keep,
    "pay_loan": lambda c, s, n: f"Pay off a loan with {goods_words(c['pay'])}",
    "cash_stock": lambda c, s, n: f"Cash a Stock token for {goods_words(c['take'])}",
    "use_ability": _ability,
    "pass": lambda c, s, n: "Done: let the game go on",
}
