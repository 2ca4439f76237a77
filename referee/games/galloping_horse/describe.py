"""Galloping Horse in words: one sentence per event, a short text per command, and one
sentence per option (from the ruleset's data file).

Sentences carry what earlier events told (where each horse is, who holds how much food)
and never more than the events given. Events every game shares (announcements, disputes,
the seed) are left to the referee's own words (referee/posts/story.py): None here.
"""

from collections.abc import Callable
from typing import Any

from .board import horse_name, join_words, landing, winners_sentence
from .data import DATA

# what the replay page steps by besides events and moves: the events that open a round
CHAPTER = ("round", ("RoundStarted",))

OPTION_TEXTS: dict[str, str] = DATA["option_texts"]
TRACK: int = DATA["track_spaces"]
HORSES: list[str] = DATA["horses"]

Told = dict[str, Any]  # what the events so far told: names, distance per horse, food per seat


def narrate(
    events: list[dict[str, Any]], viewer: int | str | None, players: list[str]
) -> list[str | None]:
    """One sentence per event as this viewer receives it (None for a redacted stub)."""
    told: Told = {"names": list(players), "viewer": viewer, "distance": {}, "food": None}
    return [_sentence(ev, told) for ev in events]


def label(command: dict[str, Any], view: dict[str, Any]) -> str:
    """A legal command as a button's text ("Play Red (Red to space 9)")."""
    if command.get("type") != "play_card":
        return str(command.get("type", "command")).replace("_", " ").capitalize()
    horse = str(command.get("horse"))
    name = horse_name(horse)
    move = landing(view.get("state") or {}, horse)
    if move is None:
        return f"Play {name}"
    return f"Play {name} ({name} to space {move['to']}{', leads' if move['leads'] else ''})"


def _sentence(ev: dict[str, Any], told: Told) -> str | None:
    if ev.get("redacted"):
        return None
    tell = TELLERS.get(str(ev.get("type")))
    return None if tell is None else tell(ev.get("payload") or {}, told)


def _created(p: dict[str, Any], told: Told) -> str:
    told["names"] = list(p.get("players") or told["names"])
    told["food"] = [0] * len(told["names"])
    stack = (p.get("options") or {}).get("food_cards")
    food = "food" if stack is None else f"{stack} food cards"
    return f"Galloping Horse begins: {join_words(told['names'])} race for {food}."


def _lined_up(p: dict[str, Any], told: Told) -> str:
    line_up = p["line_up"]
    told["distance"] = {h: i for i, h in enumerate(line_up)}
    places = [f"{horse_name(h)} on space {i}" for i, h in enumerate(line_up)]
    return f"The horses line up, rear to front: {join_words(places)}."


def _dealt(p: dict[str, Any], told: Told) -> str:
    cards = list(p["cards"])
    counts = [f"{cards.count(h)} {horse_name(h)}" for h in HORSES if h in cards]
    who = "You are" if told["viewer"] == p["seat"] else f"{_name(told, p['seat'])} is"
    dealt = f"{join_words(counts)} race cards" if cards else "no race cards"
    return f"{who} dealt {dealt} for round {p['round']}."


def _round_started(p: dict[str, Any], told: Told) -> str:
    first = _name(told, p["first_seat"])
    if p["round"] == 1:
        return f"Round 1 begins: {first} plays first."
    return (
        f"Round {p['round'] - 1} is over: the race cards are reshuffled and dealt again, "
        f"and {first} starts round {p['round']}."
    )


def _card_played(p: dict[str, Any], told: Told) -> str:
    return f"{_name(told, p['seat'])} played {horse_name(p['horse'])}."


def _horse_moved(p: dict[str, Any], told: Told) -> str:
    horse, start, to = p["horse"], p["from"], p["to"]
    told["distance"] = {**told["distance"], horse: to}
    words = [f"{horse_name(horse)} moves from space {start % TRACK} to space {to % TRACK}"]
    if to - start > 1:
        words.append(f"jumping {_horses(to - start - 1)}")
    if to // TRACK > start // TRACK:
        words.append("crossing the start/finish line")
    return ", ".join(words) + _standing(horse, told, comma=len(words) > 1) + "."


def _standing(horse: str, told: Told, *, comma: bool) -> str:
    distance = told["distance"]
    if len(distance) < 2:
        return ""
    leader = max(distance, key=lambda h: distance[h])
    if leader == horse:
        return ", and leads" if comma else " and leads"
    return f"; {horse_name(leader)} leads"


def _food_taken(p: dict[str, Any], told: Told) -> str:
    seat = p["seat"]
    food = told["food"]
    if food is None or not 0 <= seat < len(food):
        return f"{_name(told, seat)} takes a food card."
    food[seat] += 1
    return f"{_name(told, seat)} takes a food card ({food[seat]} in all)."


def _ended(p: dict[str, Any], told: Told) -> str:
    outcome = p.get("outcome") or {}
    scores = outcome.get("scores", [])
    food = ", ".join(f"{_name(told, s)} {n}" for s, n in enumerate(scores))
    return f"The game is over: {winners_sentence(outcome, told['names'])} (food: {food})."


def _replaced(p: dict[str, Any], told: Told) -> None:
    """Remember the new name; the referee's shared words say who took the seat."""
    seat = p["seat"]
    if isinstance(seat, int) and 0 <= seat < len(told["names"]):
        told["names"][seat] = p["name"]


def _horses(count: int) -> str:
    return f"{count} horse{'' if count == 1 else 's'}"


def _name(told: Told, seat: Any) -> str:
    names = told["names"]
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


TELLERS: dict[str, Callable[[dict[str, Any], Told], str | None]] = {
    "GameCreated": _created,
    "HorsesLinedUp": _lined_up,
    "RaceCardsDealt": _dealt,
    "RoundStarted": _round_started,
    "RaceCardPlayed": _card_played,
    "HorseMoved": _horse_moved,
    "FoodTaken": _food_taken,
    "GameEnded": _ended,
    "PlayerReplaced": _replaced,
}
