"""Dark Horse in words: what each card says, a sentence per event, a label per command.

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
from .line import CHOICE, moved
from .versions import RANK_AMONG_OTHERS, VERSION, since

# what the replay page steps by besides events and moves: the events that open a phase
CHAPTER = ("phase", ("PlacementStarted", "RacingStarted"))

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


def _targets_text(targets: list[dict[str, int]]) -> str:
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
    who = _targets_text(action["targets"])
    return f"{who[0].upper()}{who[1:]} {DIRECTION_WORDS[action['direction']]} {action['steps']}"


def card_text(action: Action, *, texts: dict[str, str] = TEXTS, short: bool = False) -> str:
    """What a card does, in a sentence or two (`short`: one short sentence)."""
    if action["kind"] in (cards.RIDER_FALL_OFF, cards.EXCHANGE):
        return texts[action["kind"] + ("_short" if short else "")]
    spaces = "space" if action["steps"] == 1 else "spaces"
    way = DIRECTION_WORDS[action["direction"]]
    text = f"Move {_targets_text(action['targets'])} {way} {action['steps']} {spaces}"
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


# -- labels -----------------------------------------------------------------------------


def label(command: Command, view: View) -> str:
    """A legal command as a button text: 'Play card 17: move the 3rd horse back 1 (#1 3rd
    to 4th)', 'Lay horse #4 at the left end (the rear)'."""
    kind = command.get("type")
    if kind == "place_horse":
        return _place_label(command)
    if kind == "discard_betting_card":
        return f"Discard your betting card on #{command['horse']} and draw a new one"
    if kind == "play_card":
        return _play_label(command, view)
    return str(kind)


def _place_label(command: Command) -> str:
    side = command.get("side")
    where = SIDE_WORDS[side] if side in SIDE_WORDS else "in the middle (the first horse card)"
    return f"Lay horse #{command['horse']} {where}"


def _play_label(command: Command, view: View) -> str:
    card = command["card"]
    action = action_of(card, view)
    token = ", and take a Dark Horse token" if command.get("take_token") else ""
    if action is None:
        return f"Play card {card}{token}"
    return f"Play card {card}: {_effect_label(command, action, view)}{token}"


def _effect_label(command: Command, action: Action, view: View) -> str:
    if action["kind"] == cards.EXCHANGE:
        return _exchange_label(command.get("exchange"), view)
    line = view.get("state", {}).get("line", [])
    moves = card_moves(line, action, command.get("direction"), view.get("ruleset_version"))
    if action["kind"] == cards.RIDER_FALL_OFF:
        return f"Rider Fall Off ({moves_text(moves)})"
    way = action["direction"] if action["direction"] != CHOICE else command.get("direction", "")
    return f"move {_targets_text(action['targets'])} {way} {action['steps']} ({moves_text(moves)})"


def _exchange_label(exchange: dict[str, Any] | None, view: View) -> str:
    if exchange is None:
        return "Exchange Betting Card, no effect (the stack is empty)"
    if "discard" in exchange:
        discard = exchange["discard"]
        return f"Exchange Betting Card: discard your betting card on #{discard}, draw a new one"
    name = _name(view.get("players", []), exchange["seat"])
    return f"Exchange Betting Card: {name} must discard a betting card and draw a new one"


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


def _name(players: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def _does(told: Told, seat: int, verb: str, *, lower: bool = False) -> str:
    """'You take' for the viewer's own seat, else 'Ann takes'."""
    if told["viewer"] == seat:
        return f"you {verb}" if lower else f"You {verb}"
    return f"{_name(told['players'], seat)} {verb}s"


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
    return f": {_name(told['players'], exchange['seat'])} must exchange a betting card."


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
    target = _name(told["players"], p["seat"])
    return (
        f"{_name(told['players'], p['by'])} makes {target} discard a betting card and draw "
        f"a new one; {target} chooses which."
    )


def _betting_card_discarded(p: Payload, told: Told) -> str:
    said = _does(told, p["seat"], "discard")
    return f"{said} a betting card on #{p['horse']} (face up) to draw one from the stack."


def _race_finished(p: Payload, told: Told) -> str:
    told["line"] = list(p["line"])
    order = horses_text(list(reversed(p["line"])))
    shown = "; ".join(
        f"{_name(told['players'], seat)} {horses_text(held) if held else 'none'}"
        for seat, held in enumerate(p["betting_cards"])
    )
    return f"The race is over. Final order, 1st to 7th: {order}. Betting cards: {shown}."


def _game_ended(p: Payload, told: Told) -> str:
    result, players = p.get("outcome") or {}, told["players"]
    scores = result.get("scores", [])
    winners = names_text([_name(players, seat) for seat in result.get("winners", [])] or ["nobody"])
    verb = "wins" if len(result.get("winners", [])) == 1 else "share the victory"
    points = ", ".join(f"{_name(players, seat)} {score}" for seat, score in enumerate(scores))
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
    "TurnPassed": lambda p, t: f"{_name(t['players'], p['seat'])}'s turn.",
    "RaceFinished": _race_finished,
    "GameEnded": _game_ended,
}
