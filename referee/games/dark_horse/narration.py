"""Dark Horse's events in words: a sentence per event as the viewer received it
(`narrate`), told from what the events before it said and nothing more."""

from typing import Any

from . import cards
from .data import (
    HOUSE_DECK,
    TOKEN_BONUS,
    TOKEN_BONUS_RANKS,
    TOKEN_PENALTY,
)
from .line import moved
from .words import SIDE_WORDS, card_title, horses_text, name_of, names_text, ordinal

# what the replay page steps by besides events and moves: the events that open a phase
CHAPTER = ("phase", ("PlacementStarted", "RacingStarted"))
Action = dict[str, Any]
Event = dict[str, Any]
Command = dict[str, Any]
View = dict[str, Any]
Move = tuple[int, int, int]  # horse, from rank, to rank

# -- narration --------------------------------------------------------------------------

Payload = dict[str, Any]
Told = dict[str, Any]  # what earlier events told: the line, the game's own deck


def narrate(events: list[Event], viewer: int | str | None, players: list[str]) -> list[str | None]:
    """One sentence per event as the viewer received them (None for a redacted stub or an
    event nobody needs to read); the line and the deck are carried from earlier events."""
    told: Told = {"line": [], "deck": None, "viewer": viewer, "players": players}
    return [_sentence(ev, told) for ev in events]


def _sentence(ev: Event, told: Told) -> str | None:
    if ev.get("redacted"):
        return None
    say = _SAYINGS.get(ev.get("type", ""))
    return None if say is None else say(ev.get("payload", {}), told)


def _does(told: Told, seat: int, verb: str, *, lower: bool = False) -> str:
    """'You take' for the viewer's own seat, else 'Ann takes'."""
    if told["viewer"] == seat:
        return f"you {verb}" if lower else f"You {verb}"
    return f"{name_of(told['players'], seat)} {verb}s"


def _game_created(p: Payload, told: Told) -> str:
    told["deck"] = (p.get("options") or {}).get("deck")
    players: list[str] = p.get("players") or told["players"]
    return f"A game of Dark Horse begins for {names_text(players)}."


def _betting_cards_dealt(p: Payload, told: Told) -> str:
    return f"{_does(told, p['seat'], 'receive')} betting cards on {horses_text(p['cards'])}."


def _action_cards_dealt(p: Payload, told: Told) -> str:
    numbers = ", ".join(str(card) for card in p["cards"])
    return f"{_does(told, p['seat'], 'receive')} {len(p['cards'])} action cards: {numbers}."


def _stack_formed(p: Payload, told: Told) -> str:
    if not p["cards"]:
        return "No betting card is left for the stack."
    return f"The betting card stack, top first: {horses_text(p['cards'])}."


def _set_aside(p: Payload, told: Told) -> str:
    if not p["cards"]:
        return "No action card is set aside."
    return f"Action cards {', '.join(map(str, p['cards']))} are set aside, unused."


def _horse_card_placed(p: Payload, told: Told) -> str:
    side, line = p.get("side"), told["line"]
    told["line"] = [p["horse"], *line] if side == "left" else [*line, p["horse"]]
    where = SIDE_WORDS.get(side or "", "in the middle of the table")
    return f"{_does(told, p['seat'], 'lay')} horse #{p['horse']} {where}."


def _dark_horse_revealed(p: Payload, told: Told) -> str:
    tokens = "1 Dark Horse token is" if p["tokens"] == 1 else f"{p['tokens']} Dark Horse tokens are"
    return f"Horse #{p['horse']}, last in the line, is the Dark Horse; {tokens} put out."


def _action_card_played(p: Payload, told: Told) -> str:
    deck = told["deck"] if told["deck"] is not None else HOUSE_DECK
    card = p["card"]
    said = f"{_does(told, p['seat'], 'play')} card {card}"
    if not 0 <= card < len(deck):
        return said + "."
    action = deck[card]
    said += f" ({card_title(action)})"
    if "direction" in p:
        return f"{said}, {p['direction']}."
    if action["kind"] == cards.EXCHANGE:
        return said + _exchange_words(p.get("exchange"), told, told["viewer"] == p["seat"])
    return said + "."


def _exchange_words(exchange: dict[str, Any] | None, told: Told, you: bool) -> str:
    if exchange is None:
        return ": the betting card stack is empty, so it has no effect."
    if "discard" in exchange:
        return f" on one of {'your' if you else 'their'} own betting cards."
    return f": {name_of(told['players'], exchange['seat'])} must exchange a betting card."


def _horse_moved(p: Payload, told: Told) -> str:
    horse, start, end = p["horse"], p["from_rank"], p["to_rank"]
    line = told["line"]
    passed: list[int] = []
    # the line as the earlier events told it; a viewer who missed them hears no "passing"
    if horse in line and line.index(horse) == len(line) - start and len(line) >= end:
        passed = _passed(line, start, end)
        told["line"] = moved(line, horse, end)
    way = "forward" if end < start else "back"
    said = f"Horse #{horse} moves {way} from {ordinal(start)} to {ordinal(end)}"
    return f"{said}, passing {horses_text(passed)}." if passed else said + "."


def _passed(line: list[int], start: int, end: int) -> list[int]:
    """The horses a move from rank `start` to rank `end` passes."""
    index = len(line) - start
    return line[index + 1 : len(line) - end + 1] if end < start else line[len(line) - end : index]


def _exchange_forced(p: Payload, told: Told) -> str:
    target = name_of(told["players"], p["seat"])
    return (
        f"{name_of(told['players'], p['by'])} makes {target} discard a betting card and draw "
        f"a new one; {target} chooses which."
    )


def _betting_card_discarded(p: Payload, told: Told) -> str:
    said = _does(told, p["seat"], "discard")
    return f"{said} a betting card on #{p['horse']} (face up) to draw one from the stack."


def _race_finished(p: Payload, told: Told) -> str:
    told["line"] = list(p["line"])
    order = horses_text(list(reversed(p["line"])))
    shown = "; ".join(
        f"{name_of(told['players'], seat)} {horses_text(held) if held else 'none'}"
        for seat, held in enumerate(p["betting_cards"])
    )
    return f"The race is over. Final order, 1st to 7th: {order}. Betting cards: {shown}."


def _game_ended(p: Payload, told: Told) -> str:
    result, players = p.get("outcome") or {}, told["players"]
    scores = result.get("scores", [])
    winners = names_text(
        [name_of(players, seat) for seat in result.get("winners", [])] or ["nobody"]
    )
    verb = "wins" if len(result.get("winners", [])) == 1 else "share the victory"
    points = ", ".join(f"{name_of(players, seat)} {score}" for seat, score in enumerate(scores))
    return (
        f"{_token_words(result)}{winners} {verb} with {max(scores, default=0)} points ({points})."
    )


def _token_words(result: dict[str, Any]) -> str:
    if "dark_horse" not in result:
        return ""
    rank = result["dark_horse_rank"]
    token = TOKEN_BONUS if rank <= TOKEN_BONUS_RANKS else TOKEN_PENALTY
    return (
        f"The Dark Horse, #{result['dark_horse']}, finished {ordinal(rank)}: "
        f"each Dark Horse token scores {token:+d}. "
    )


_SAYINGS: dict[str, Any] = {
    "GameCreated": _game_created,
    "BettingCardsDealt": _betting_cards_dealt,
    "BettingStackFormed": _stack_formed,
    "ActionCardsDealt": _action_cards_dealt,
    "ActionCardsSetAside": _set_aside,
    "PlacementStarted": lambda p, t: f"{_does(t, p['seat'], 'lay')} the first horse card.",
    "HorseCardPlaced": _horse_card_placed,
    "DarkHorseRevealed": _dark_horse_revealed,
    "RacingStarted": lambda p, t: (
        f"The race starts: {_does(t, p['seat'], 'play', lower=True)} first."
    ),
    "DarkHorseTokenTaken": lambda p, t: f"{_does(t, p['seat'], 'take')} a Dark Horse token.",
    "ActionCardPlayed": _action_card_played,
    "HorseMoved": _horse_moved,
    "BettingCardExchangeForced": _exchange_forced,
    "BettingCardDiscarded": _betting_card_discarded,
    "BettingCardDrawn": lambda p, t: (
        f"{_does(t, p['seat'], 'draw')} a betting card on #{p['horse']}."
    ),
    "TurnPassed": lambda p, t: f"{name_of(t['players'], p['seat'])}'s turn.",
    "RaceFinished": _race_finished,
    "GameEnded": _game_ended,
}
