"""Dark Horse's ids in words, shared by the narration, the labels and the board: ranks,
horses, what each card says and what it would do.

CONTENT (served as the ruleset's `content`) explains the ids in views and commands: each
house action card by its number, the card kinds, betting cards and Dark Horse tokens.
OPTION_TEXTS says what each option does. Both come from ../dark_horse.json.
"""

from typing import Any

from . import cards
from .data import (
    ACTION_CARDS_PER_PLAYER,
    BETTING_CARDS_PER_PLAYER,
    DATA,
    HORSES,
    HOUSE_DECK,
    RANK_POINTS,
    RANKS,
    TOKEN_BONUS,
    TOKEN_BONUS_RANKS,
    TOKEN_PENALTY,
    TOKENS,
)
from .line import CHOICE
from .versions import RANK_AMONG_OTHERS, VERSION, since

Action = dict[str, Any]
Event = dict[str, Any]
Command = dict[str, Any]
View = dict[str, Any]
Move = tuple[int, int, int]  # horse, from rank, to rank
TEXTS: dict[str, str] = DATA["texts"]
OPTION_TEXTS: dict[str, str] = DATA["option_texts"]
SIDE_WORDS = {"left": "at the left end (the rear)", "right": "at the right end (the front)"}
ORDINAL_ENDINGS = {1: "st", 2: "nd", 3: "rd"}
ACTION_KINDS = (cards.MOVE, cards.RIDER_FALL_OFF, cards.EXCHANGE)
DIRECTION_WORDS = {"forward": "forward", "back": "back", CHOICE: "forward or back"}


def ordinal(rank: int) -> str:
    """1 -> '1st', 2 -> '2nd', 3 -> '3rd', 4 -> '4th'."""
    return f"{rank}{ORDINAL_ENDINGS.get(rank, 'th')}"


def horses_text(horses: list[int]) -> str:
    """'#4', '#4 and #6', '#1, #2 and #3'."""
    names = [f"#{horse}" for horse in horses]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def names_text(names: list[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def name_of(players: list[str], seat: Any) -> str:
    """A seat's player name, or "seat n" where the list does not have it."""
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def targets_text(targets: list[dict[str, int]]) -> str:
    """'horse #4', 'the 3rd horse', 'the 4th and 6th horses', 'horse #1 and horse #7'."""
    if all("rank" in t for t in targets) and len(targets) == 2:
        return f"the {ordinal(targets[0]['rank'])} and {ordinal(targets[1]['rank'])} horses"
    words = [
        f"horse #{t['horse']}" if "horse" in t else f"the {ordinal(t['rank'])} horse"
        for t in targets
    ]
    return " and ".join(words)


def card_title(action: Action) -> str:
    """A card's face in a few words: 'Horse #4 forward 2', 'Rider Fall Off'."""
    if action["kind"] == cards.RIDER_FALL_OFF:
        return "Rider Fall Off"
    if action["kind"] == cards.EXCHANGE:
        return "Exchange Betting Card"
    who = targets_text(action["targets"])
    return f"{who[0].upper()}{who[1:]} {DIRECTION_WORDS[action['direction']]} {action['steps']}"


def card_text(action: Action, *, texts: dict[str, str] = TEXTS, short: bool = False) -> str:
    """What a card does, in a sentence or two (`short`: one short sentence)."""
    if action["kind"] in (cards.RIDER_FALL_OFF, cards.EXCHANGE):
        return texts[action["kind"] + ("_short" if short else "")]
    spaces = "space" if action["steps"] == 1 else "spaces"
    way = DIRECTION_WORDS[action["direction"]]
    text = f"Move {targets_text(action['targets'])} {way} {action['steps']} {spaces}"
    if action["direction"] == CHOICE:
        text += " (you choose)" if short else " (you choose which)"
    if len(action["targets"]) == 2:
        text += ", both the same way" + ("" if short else ", the first listed first")
    return text + "."


def _content() -> dict[str, Any]:
    """Everything a client needs to explain the ids of views and commands."""
    deck = {
        str(number): {**action, "title": card_title(action), "text": card_text(action)}
        for number, action in enumerate(HOUSE_DECK)
    }
    return {
        "horses": {str(h): f"Horse #{h}" for h in HORSES},
        "ranks": {str(rank): ordinal(rank) for rank in range(1, len(HORSES) + 1)},
        "rank_points": list(RANK_POINTS),
        "action_cards": deck,
        "action_cards_per_player": ACTION_CARDS_PER_PLAYER,
        "action_kinds": {kind: TEXTS[kind] for kind in ACTION_KINDS},
        "action_kinds_short": {kind: TEXTS[f"{kind}_short"] for kind in ACTION_KINDS[1:]},
        "movement": TEXTS["movement"],
        "two_horses": TEXTS["two_horses"],
        "betting_cards": {
            "text": TEXTS["betting_cards"],
            "per_horse": DATA["betting_cards_per_horse"],
            "per_player": BETTING_CARDS_PER_PLAYER,
        },
        "dark_horse": TEXTS["dark_horse"],
        "dark_horse_tokens": {
            "text": TEXTS["dark_horse_token"],
            "per_players": TOKENS,
            "bonus": TOKEN_BONUS,
            "penalty": TOKEN_PENALTY,
            "bonus_ranks": TOKEN_BONUS_RANKS,
        },
        "phases": {phase: TEXTS[phase] for phase in ("setup", "placement", "racing", "over")},
    }


CONTENT: dict[str, Any] = _content()


# -- what a card would do ---------------------------------------------------------------


def among_others(version: str | None) -> bool:
    """Whether a game of this ruleset version counts a rank among the other horses."""
    return since({"version": version or VERSION}, RANK_AMONG_OTHERS)


def card_moves(
    line: list[int], action: Action, direction: str | None, version: str | None
) -> list[Move]:
    """The moves (horse, from rank, to rank) a card makes on this line, in order (none
    before the line is complete)."""
    if len(line) < RANKS:
        return []
    if action["kind"] == cards.RIDER_FALL_OFF:
        made = cards.fall_off_events(line)
    elif action["kind"] == cards.MOVE:
        way = action["direction"] if action["direction"] != CHOICE else direction or "forward"
        made = cards.move_events(line, action, way, among_others=among_others(version))
    else:
        return []
    return [
        (e["payload"]["horse"], e["payload"]["from_rank"], e["payload"]["to_rank"]) for e in made
    ]


def moves_text(moves: list[Move]) -> str:
    """'#6 3rd to 4th', '#7 2nd to 1st, #2 5th to 4th' ('stays 1st' when it does not move)."""
    return ", ".join(
        f"#{h} stays {ordinal(a)}" if a == b else f"#{h} {ordinal(a)} to {ordinal(b)}"
        for h, a, b in moves
    )


def action_of(card: int, view: View, *, content: dict[str, Any] = CONTENT) -> Action | None:
    """A card's action as the view knows it: the hand, the played cards, the game's own deck
    (option `deck`), else the house deck in CONTENT."""
    state = view.get("state", {})
    hands = [state.get("hand", [])] + list(state.get("hands", []))
    for held in [*(c for hand in hands for c in hand), *state.get("played", [])]:
        if held.get("card") == card:
            return dict(held["action"])
    deck = (view.get("options") or {}).get("deck")
    if deck is not None:
        return dict(deck[card]) if 0 <= card < len(deck) else None
    found = content["action_cards"].get(str(card))
    return None if found is None else {k: found[k] for k in found if k not in ("title", "text")}
