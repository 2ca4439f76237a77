"""Royal Turf in words: a sentence per event, a short text per legal command, and the
content and option texts a client needs to explain the ids of views and commands.

Every sentence is made from the event alone (and the players' names): a sealed chip's
value is said only where the event carries it (the seat's own OrdersSubmitted, and the
public OrdersRevealed after the race).
"""

from collections.abc import Callable
from typing import Any

from .data import DATA, FACES, HIDDEN_BETS_CHIPS, HORSES, HOUSE_CARDS
from .track import crossed, stop, takes_pace_chip

# what the replay page steps by besides events and moves: the events that open a race
CHAPTER = ("race", ("CardsDealt",))

Event = dict[str, Any]
Payload = dict[str, Any]
Players = list[str]

NAMES: dict[str, str] = DATA["horse_names"]
OPTION_TEXTS: dict[str, str] = DATA["option_texts"]
VARIANT_NAMES = {
    "hidden_bets": "Hidden Bets",
    "crowded_field": "Crowded Field",
    "alternative_payouts": "Alternative Payouts",
    "royal_turf_cards": "Royal Turf Cards",
}
CONTENT: dict[str, Any] = {
    "horses": {
        horse: {"name": NAMES[horse], "gate": gate, **DATA["drawing"]["horses"][horse]}
        for gate, horse in enumerate(HORSES, start=1)
    },
    "die": DATA["die"],
    "card_faces": FACES,
    "cards": {str(n): dict(zip(FACES, card, strict=True)) for n, card in enumerate(HOUSE_CARDS, 1)},
    "royal_turf_cards_per_horse": DATA["royal_turf_cards_per_horse"],
    "chips": DATA["chips"],
    "hidden_bets_chips": HIDDEN_BETS_CHIPS,
    "payouts": DATA["payouts"],
    "variants": VARIANT_NAMES,
    "drawing": {k: v for k, v in DATA["drawing"].items() if k not in ("_note", "horses")},
}


def horse_name(horse: str) -> str:
    """A horse's colour name as the board writes it ("Red")."""
    return NAMES.get(horse, str(horse))


def ordinal(place: int) -> str:
    """1 -> 1st, 2 -> 2nd, 3 -> 3rd, 4 -> 4th."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix}"


def seat_name(players: Players, seat: Any) -> str:
    """A seat's player name, or "seat n" when the seat is unknown."""
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def destination(state: dict[str, Any], horse: str) -> tuple[str, int, int] | None:
    """Where a horse moved now would stop, from a view's `state`: (face rolled, its card's
    value for that face, the space reached), or None when no die is showing or the
    horse has no card."""
    found = [h for h in state["horses"] if h["horse"] == horse]
    face = state.get("die")
    if not found or not found[0]["card"] or face not in FACES:
        return None
    steps = found[0]["card"][face]
    track = {
        "spaces": {h["horse"]: h["space"] for h in state["horses"]},
        "track_length": state["track_length"],
        "crowded_field": state["variants"]["crowded_field"],
        "placings": state["placings"],
    }
    return face, steps, stop(track, horse, steps)


# --- label ---------------------------------------------------------------------------


def label(command: dict[str, Any], view: dict[str, Any]) -> str:
    """A legal command as a button's text: "Bet chip 2 on Red", "Move Red (helmet 5: to
    space 12)"."""
    horse = command.get("horse", "")
    if command.get("type") == "place_bet":
        return f"Bet chip {command.get('chip')} on {horse_name(horse)}"
    reach = destination(view["state"], horse)
    if reach is None:
        return f"Move {horse_name(horse)}"
    return f"Move {horse_name(horse)} ({_reach_words(view['state'], horse, reach)})"


def _reach_words(state: dict[str, Any], horse: str, reach: tuple[str, int, int]) -> str:
    face, steps, to = reach
    start = next(h["space"] for h in state["horses"] if h["horse"] == horse)
    if to == start:
        where = f"stays on space {to}"
    elif crossed(state, to):
        where = f"to space {to}, across the finish line"
    elif to != start + steps:
        where = f"blocked, stops on space {to}"
    else:
        where = f"to space {to}"
    if takes_pace_chip(state, to):  # the view's table has what the rule reads
        where += ", takes the pace chip"
    return f"{face} {steps}: {where}"


# --- narrate -------------------------------------------------------------------------


def narrate(events: list[Event], viewer: int | str | None, players: Players) -> list[str | None]:
    """One sentence per event, in order; None for a redacted stub and for the events the
    referee words the same for every game (left to the pages)."""
    return [_sentence(ev, players) for ev in events]


def _sentence(ev: Event, players: Players) -> str | None:
    if ev.get("redacted"):
        return None
    words = SENTENCES.get(ev.get("type", ""))
    return words(ev.get("payload") or {}, players) if words else None


def _created(p: Payload, players: Players) -> str:
    chosen = [name for key, name in VARIANT_NAMES.items() if (p.get("options") or {}).get(key)]
    variants = f" with {_joined(chosen)}" if chosen else ""
    return f"A game of Royal Turf was set up for {_joined(p.get('players') or players)}{variants}."


def _dealt(p: Payload, players: Players) -> str:
    cards = ", ".join(f"{horse_name(h)} card {n}" for h, n in p["cards"].items())
    aside = p.get("set_aside") or []
    tail = f"; set aside (duplicates): {', '.join(map(str, aside))}" if aside else ""
    return f"Race {p['race']}: the horse cards are dealt: {cards}{tail}."


def _first_player(p: Payload, players: Players) -> str:
    name, race, among = seat_name(players, p["seat"]), p["race"], p.get("among") or []
    if race > 1 and len(among) == 1:
        return f"{name}, the richest, bets first in race {race}."
    if race > 1:
        drawn = _joined([seat_name(players, s) for s in among])
        return f"{name} bets first in race {race} (drawn among the richest: {drawn})."
    how = " (drawn at random)" if len(among) > 1 else ""
    return f"{name} bets first in race {race}{how}."


def _bet(p: Payload, players: Players) -> str:
    name, horse = seat_name(players, p["seat"]), horse_name(p["horse"])
    if "chip" in p:
        return f"{name} bet chip {p['chip']} on {horse}."
    return f"{name} put a face-down chip on {horse}."


def _betting_round(number: int) -> str:
    """A sealed chip's round over the game as race and betting round."""
    rounds = len(HIDDEN_BETS_CHIPS)
    return f"race {(number - 1) // rounds + 1}, betting round {(number - 1) % rounds + 1}"


def _sealed(p: Payload, players: Players) -> str:
    orders = p.get("orders") or {}
    return (
        f"{seat_name(players, p['seat'])} sealed chip {orders.get('chip')} on "
        f"{horse_name(orders.get('horse', ''))} ({_betting_round(p['round'])})."
    )


def _committed(p: Payload, players: Players) -> str:
    return (
        f"{seat_name(players, p['seat'])}'s chip for {_betting_round(p['round'])} "
        "is sealed with a commitment."
    )


def _revealed(p: Payload, players: Players) -> str:
    orders = p.get("orders") or {}
    return (
        f"{seat_name(players, p['seat'])}'s face-down chip on "
        f"{horse_name(orders.get('horse', ''))} is turned over: chip {orders.get('chip')}."
    )


def _rolled(p: Payload, players: Players) -> str:
    return f"{seat_name(players, p['seat'])} rolled the die: {p['face']}."


def _moved(p: Payload, players: Players) -> str:
    name, horse = seat_name(players, p["seat"]), horse_name(p["horse"])
    start, to, steps = p["from"], p["to"], p["steps"]
    if to == start:
        where = f"{horse} stays on space {to}"
    elif to != start + steps:
        where = f"blocked, {horse} stops on space {to} (from space {start})"
    else:
        where = f"{horse} goes from space {start} to space {to}"
    return f"{name} moved {horse} with {p['face']} {steps}: {where}."


def _paid(p: Payload, players: Players) -> str:
    totals = [0] * len(p["money"])
    for line in p["lines"]:
        totals[line["seat"]] += line["amount"]
    gains = ", ".join(f"{seat_name(players, s)} {_signed(t)}" for s, t in enumerate(totals))
    money = ", ".join(f"{seat_name(players, s)} {m}" for s, m in enumerate(p["money"]))
    doubled = f" (everything x{p['multiplier']})" if p.get("multiplier", 1) != 1 else ""
    return f"Race {p['race']} is paid{doubled}: {gains}. Money: {money}."


def _signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def _race_ended(p: Payload, players: Players) -> str:
    places = ", ".join(f"{ordinal(i)} {horse_name(h)}" for i, h in enumerate(p["placings"], 1))
    pace = p.get("pace_chip")
    pace_words = f"{horse_name(pace)} has the pace chip" if pace else "nobody took the pace chip"
    return f"Race {p['race']} is over: {places}; {pace_words}; {horse_name(p['last'])} is last."


def _ended(p: Payload, players: Players) -> str:
    outcome = p.get("outcome") or {}
    scores, winners = outcome.get("scores") or [], outcome.get("winners") or []
    if not winners:
        return "The game is over."
    names = _joined([seat_name(players, s) for s in winners])
    money = scores[winners[0]] if winners[0] < len(scores) else 0
    if len(winners) == 1:
        return f"The game is over: {names} wins with {money}."
    return f"The game is over: {names} share the victory with {money} each."


def _joined(names: list[str]) -> str:
    if len(names) < 2:
        return names[0] if names else "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


SENTENCES: dict[str, Callable[[Payload, Players], str]] = {
    "GameCreated": _created,
    "CardsDealt": _dealt,
    "FirstPlayerChosen": _first_player,
    "BetPlaced": _bet,
    "OrdersSubmitted": _sealed,
    "OrdersCommitted": _committed,
    "OrdersRevealed": _revealed,
    "DieRolled": _rolled,
    "HorseMoved": _moved,
    "PaceChipTaken": lambda p, n: (
        f"{horse_name(p['horse'])} reaches the pace space first and takes the pace chip."
    ),
    "HorseFinished": lambda p, n: (
        f"{horse_name(p['horse'])} crosses the finish line: {ordinal(p['place'])}."
    ),
    "CardsTurnedUp": lambda p, n: "Every horse has moved: all cards turn face up.",
    "RaceEnded": _race_ended,
    "RacePaid": _paid,
    "GameEnded": _ended,
}
