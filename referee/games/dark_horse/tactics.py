"""How good a Dark Horse move or table looks to a player at a glance: the bot's judgement.

A move is worth the points the player's betting cards (and its token) would score if
the race ended after it, less what the action card played would still be worth kept in
hand: a card's worth is what it gains the player's bets on average, played in the better
direction on a line in random order. So a card that helps now is played now, and a card
that helps anywhere (its own horse forward 2) is kept for the end, when a move is no
longer undone. All values are whole numbers, in units of 1/UNIT point.
"""

from collections.abc import Iterator
from functools import lru_cache
from itertools import permutations
from typing import Any

from .cards import MOVE, RIDER_FALL_OFF, target_horses
from .data import HORSES, RANKS, RIDER_FALL_OFF_RANK, TOKEN_BONUS, TOKEN_BONUS_RANKS, TOKEN_PENALTY
from .line import CHOICE, DIRECTIONS, destination, horse_at, moved
from .state import PLACEMENT, action_cards
from .turns import DISCARD, PLAY
from .versions import RANK_AMONG_OTHERS, since

State = dict[str, Any]
Command = dict[str, Any]
Action = dict[str, Any]

# 7 * 6 * 5 * 4: every count of ways to lay up to three named horses divides it
UNIT = 840
# a card kept in hand counts KEEP_NUMERATOR / KEEP_DENOMINATOR of its worth
KEEP_NUMERATOR, KEEP_DENOMINATOR = 3, 2


def score(state: State, seat: int, line: list[int], token: bool) -> int:
    """The seat's points if the race ended with this line: its betting cards by rank, and
    its Dark Horse token if it holds one (or is taking one)."""
    points = state["rank_points"]
    size = len(line)
    total = sum(points[size - line.index(h) - 1] for h in state["betting_cards"][seat])
    if token:
        dark_rank = size - line.index(state["dark_horse"])
        total += TOKEN_BONUS if dark_rank <= TOKEN_BONUS_RANKS else TOKEN_PENALTY
    return int(total)


def values_of(state: State, seat: int, commands: list[Command]) -> list[int]:
    """How good each move looks to the mover (all commands of one kind, as `legal` lists
    them): a card by the points after it less its worth kept, a discard by the points the
    card loses, a horse card by where the mover's horses stand in the line."""
    kind = commands[0]["type"]
    if kind == PLAY:
        lines = Lines(state)
        return [_play_value(state, seat, command, lines) for command in commands]
    if kind == DISCARD:
        return [-UNIT * _card_points(state, command["horse"]) for command in commands]
    return [_place_value(state, seat, command) for command in commands]


class Lines:
    """The line after each card played, each card and direction worked out once."""

    def __init__(self, state: State) -> None:
        self.state, self.deck = state, action_cards(state)
        self.among = since(state, RANK_AMONG_OTHERS)
        self.known: dict[tuple[int, str | None], list[int]] = {}

    def after(self, command: Command) -> list[int]:
        """The line once the command's action card is played (an exchange leaves it)."""
        key = (command["card"], command.get("direction"))
        if key not in self.known:
            action = self.deck[command["card"]]
            self.known[key] = played(self.state["line"], action, key[1], self.among)
        return self.known[key]


def played(line: list[int], action: Action, direction: str | None, among: bool) -> list[int]:
    """The line after an action card (an exchange leaves it as it is)."""
    if action["kind"] == MOVE:
        way = direction or action["direction"]
        for horse in target_horses(line, action, among_others=among):
            line = moved(line, horse, destination(line, horse, way, action["steps"]))
    elif action["kind"] == RIDER_FALL_OFF:
        line = moved(line, horse_at(line, RIDER_FALL_OFF_RANK), len(line))
    return list(line)


def _play_value(state: State, seat: int, command: Command, lines: Lines) -> int:
    token = state["tokens"][seat] or bool(command.get("take_token"))
    after = UNIT * score(state, seat, lines.after(command), token)
    if "exchange" in command:
        after += _exchange_gain(state, seat, command["exchange"])
    action = lines.deck[command["card"]]
    kept = worth(card_key(action), _bets(state, seat), _points(state))
    return KEEP_DENOMINATOR * after - KEEP_NUMERATOR * kept


def _exchange_gain(state: State, seat: int, exchange: dict[str, Any] | None) -> int:
    """An own exchange gains an average card's points for the card discarded; making
    another seat exchange lets it drop its worst card, so it counts a little against."""
    if exchange is None:
        return 0
    if exchange["seat"] != seat:
        return -1
    average = UNIT * sum(state["rank_points"]) // RANKS
    return average - UNIT * _card_points(state, exchange["discard"])


def _card_points(state: State, horse: int) -> int:
    line = state["line"]
    return int(state["rank_points"][len(line) - line.index(horse) - 1])


def _place_value(state: State, seat: int, command: Command) -> int:
    """A horse card laid: the mover's horses want to be near the front (right) as the line
    stands, others at the back (left); each horse's place counts from the front."""
    line = list(state["line"])
    if command.get("side") == "left":
        line = [command["horse"], *line]
    else:
        line = [*line, command["horse"]]
    mine = set(state["betting_cards"][seat])
    return -sum(len(line) - i for i, h in enumerate(line) if h in mine) - RANKS * sum(
        1 for h in mine if h not in line
    )


def standing(state: State, seat: int) -> int:
    """How well a seat stands: its points as the line stands (a horse not yet laid counts
    as 4th), with what its hand is still worth to it."""
    if state["phase"] == PLACEMENT:
        return KEEP_DENOMINATOR * UNIT * _laid_points(state, seat)
    deck, bets, points = action_cards(state), _bets(state, seat), _points(state)
    kept = sum(worth(card_key(deck[card]), bets, points) for card in state["hands"][seat])
    now = score(state, seat, state["line"], state["tokens"][seat])
    return KEEP_DENOMINATOR * UNIT * now + KEEP_NUMERATOR * kept


def _laid_points(state: State, seat: int) -> int:
    line, points = state["line"], state["rank_points"]
    middle = points[RANKS // 2]
    return sum(
        points[len(line) - line.index(h) - 1] if h in line else middle
        for h in state["betting_cards"][seat]
    )


def _bets(state: State, seat: int) -> tuple[int, ...]:
    return tuple(sorted(state["betting_cards"][seat]))


def _points(state: State) -> tuple[int, ...]:
    return tuple(state["rank_points"])


def card_key(action: Action) -> tuple[Any, ...]:
    """An action card as a hashable key (cards alike share their worth)."""
    if action["kind"] != MOVE:
        return (action["kind"],)
    targets = tuple(tuple(t.items())[0] for t in action["targets"])
    return (MOVE, targets, action["steps"], action["direction"])


def worth(card: tuple[Any, ...], bets: tuple[int, ...], points: tuple[int, ...]) -> int:
    """What an action card gains the bets, in units of 1/UNIT point: each bet card's
    horse's average gain (a card that says forward or back played the way better for that
    horse, which may overrate it for a seat with bets both ways)."""
    return sum(horse_worth(card, horse, points) for horse in bets)


@lru_cache(maxsize=1024)
def horse_worth(card: tuple[Any, ...], horse: int, points: tuple[int, ...]) -> int:
    """What an action card gains one horse's betting card, in units of 1/UNIT point, on
    average over the places of that horse and of the horses the card names, played the
    better way for it."""
    if card[0] not in (MOVE, RIDER_FALL_OFF):
        return 0  # an exchange moves no horse
    action = _action(card)
    ways = DIRECTIONS if action.get("direction") == CHOICE else (None,)
    total, count = 0, 0
    for line in _lines(card, horse):
        before = _scored(line, horse, points)
        total += max(_scored(played(line, action, w, True), horse, points) for w in ways) - before
        count += 1
    return UNIT * total // count


def _action(card: tuple[Any, ...]) -> Action:
    if card[0] != MOVE:
        return {"kind": card[0]}
    _, targets, steps, direction = card
    return {
        "kind": MOVE,
        "targets": [{key: value} for key, value in targets],
        "steps": steps,
        "direction": direction,
    }


def _lines(card: tuple[Any, ...], horse: int) -> Iterator[list[int]]:
    """A line for every way to place the horse and the horses the card names; the other
    horses fill the rest in order (which of them stands where changes nothing)."""
    named = [value for key, value in card[1] if key == "horse"] if card[0] == MOVE else []
    keys = [horse] + [h for h in named if h != horse]
    rest = [h for h in HORSES if h not in keys]
    for places in permutations(range(RANKS), len(keys)):
        line: list[int] = list(rest)
        for place, horse in sorted(zip(places, keys, strict=True)):
            line.insert(place, horse)
        yield line


def _scored(line: list[int], horse: int, points: tuple[int, ...]) -> int:
    return points[len(line) - line.index(horse) - 1]
