"""The Dark Horse bot's knowledge: a table drawn to fit a seat's view, and a playout policy.

`sample` fills in what a seat cannot see: the other seats' betting cards and action
hands, the betting stack's order and the set-aside action cards. Everything else (the
line, the Dark Horse, tokens, every card played, every betting card discarded, hand and
stack sizes) is public and copied. The seat's view holds everything the seat ever saw
that narrows the deal: its own cards now, the cards played and the discards; what it
drew itself it still holds or has discarded face up. The sample does not read intentions
from the other seats' moves (which horses they push, which card they chose to discard,
whether they took a token): every deal that fits the cards is equally likely, which is
the chance of the deal given the cards seen, before any inference about play.

`policy` plays a playout move greedily for the mover's own betting cards (the line
after the move scored for its bets and its token), with some moves drawn at random so
that playouts still explore; `ITERATIONS` is the strong level's budget.
"""

from collections import Counter
from typing import Any

from ...engine.rng import Rng
from .cards import MOVE, RIDER_FALL_OFF, target_horses
from .data import (
    ACTION_CARDS_PER_PLAYER,
    BETTING_CARDS,
    HOUSE_DECK,
    RANKS,
    RIDER_FALL_OFF_RANK,
    TOKEN_BONUS,
    TOKEN_BONUS_RANKS,
    TOKEN_PENALTY,
)
from .line import destination, horse_at, moved
from .state import PLACEMENT, RACING, action_cards
from .turns import DISCARD, PLAY
from .versions import RANK_AMONG_OTHERS, VERSION, since

State = dict[str, Any]
View = dict[str, Any]
Command = dict[str, Any]

# the strong level's iterations a move: about 1 s a move on one core here (docs/bots.md)
ITERATIONS = 1000
# a playout move is the policy's best 3 times in 4, else any legal move
GREEDY_IN, GREEDY_OUT_OF = 3, 4


def sample(view: View, seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees in `view` (the ruleset's view of that
    seat): the unseen betting cards and action cards dealt uniformly at random among the
    deals that fit the cards shown. Draws the labels "betting" and "action" once each, so
    each sample wants a fresh `rng`.

    A moderator's own deck (option `deck`) is not in the view: when a card shown differs
    from the house card of its number, the unseen cards are taken to be the house cards
    of their numbers (the deck as long as the cards shown need), and the game to play by
    the newest ruleset version."""
    seats = len(view["hand_sizes"])
    deck = _deck(view, seat)
    betting, stack = _betting(view, seat, rng)
    hands, set_aside = _hands(view, seat, len(deck or HOUSE_DECK), rng)
    table = {
        "seats": seats,
        "first_seat": _first_seat(view, seats),
        "rank_points": list(view["rank_points"]),
        "custom_deck": deck,
        "hand_size": _hand_size(seats, len(deck or HOUSE_DECK)),
        "phase": view["phase"],
        "turn": view["turn"],
        "line": list(view["line"]),
        "dark_horse": view["dark_horse"],
        "tokens_left": view["tokens_left"],
        "tokens": [s in view["token_holders"] for s in range(seats)],
        "betting_cards": betting,
        "betting_stack": stack,
        "discarded_betting_cards": [dict(d) for d in view["discarded_betting_cards"]],
        "hands": hands,
        "set_aside": set_aside,
        "played": [{k: v for k, v in p.items() if k != "action"} for p in view["played"]],
        "pending_discard": _copied(view["pending_discard"]),
    }
    return {**table, "version": VERSION}


def _copied(value: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


def _seen_cards(view: View) -> dict[int, dict[str, Any]]:
    """Every action card the seat has seen, by number: its hand and the cards played."""
    seen = {card["card"]: card["action"] for card in view.get("hand", [])}
    seen.update({play["card"]: play["action"] for play in view["played"]})
    return seen


def _deck(view: View, seat: int) -> list[dict[str, Any]] | None:
    """None (the house deck) when every card seen is the house card of its number, else a
    deck of the cards seen with house cards for the numbers unseen."""
    seen = _seen_cards(view)
    if all(n < len(HOUSE_DECK) and HOUSE_DECK[n] == action for n, action in seen.items()):
        return None
    seats = len(view["hand_sizes"])
    size = max([max(seen) + 1, seats * _own_dealt(view, seat)])
    return [seen.get(n, HOUSE_DECK[n % len(HOUSE_DECK)]) for n in range(size)]


def _own_dealt(view: View, seat: int) -> int:
    """How many action cards the seat was dealt: those it holds and those it played."""
    played = sum(1 for play in view["played"] if play["seat"] == seat)
    return len(view.get("hand", [])) + played


def _hand_size(seats: int, deck_size: int) -> int:
    """The action cards dealt each seat, as the deal counts them."""
    return min(ACTION_CARDS_PER_PLAYER[str(seats)], deck_size // seats)


def _first_seat(view: View, seats: int) -> int:
    """The seat that laid the first horse card: the seat of the first card played, or,
    before any, counted back from the seat to move by the horse cards laid."""
    if view["played"]:
        return int(view["played"][0]["seat"])
    if view["phase"] == PLACEMENT:
        return int((view["turn"] - len(view["line"])) % seats)
    return int(view["turn"]) if view["phase"] == RACING else 0


def _betting(view: View, seat: int, rng: Rng) -> tuple[list[list[int]], list[int]]:
    """Every seat's betting cards and the stack, top first: the cards not held by the
    seat nor discarded, shuffled, dealt to the other seats by their counts, the rest the
    stack."""
    if "betting_cards_by_seat" in view:  # the race is over: all face up
        known: list[list[int]] = [sorted(cards) for cards in view["betting_cards_by_seat"]]
        shown = [h for cards in known for h in cards]
        return known, _shuffled(_left(BETTING_CARDS, shown, view), rng, "betting")
    unseen = _left(BETTING_CARDS, view["betting_cards"], view)
    pool = _shuffled(unseen, rng, "betting")
    cards, counts = [], view["betting_card_counts"]
    for other in range(len(counts)):
        if other == seat:
            cards.append(sorted(view["betting_cards"]))
            continue
        cards.append(sorted(pool[: counts[other]]))
        pool = pool[counts[other] :]
    return cards, pool


def _left(all_cards: list[int], held: list[int], view: View) -> list[int]:
    """The betting cards neither held (as given) nor discarded face up, in order."""
    gone = Counter(held) + Counter(d["horse"] for d in view["discarded_betting_cards"])
    left = []
    for horse in all_cards:
        if gone[horse]:
            gone[horse] -= 1
        else:
            left.append(horse)
    return left


def _hands(view: View, seat: int, deck_size: int, rng: Rng) -> tuple[list[list[int]], list[int]]:
    """Every seat's action hand and the set-aside cards: the cards the seat has not seen,
    shuffled, dealt to the other seats by their hand sizes, the rest set aside."""
    seen = _seen_cards(view)
    pool = _shuffled([n for n in range(deck_size) if n not in seen], rng, "action")
    hands = []
    for other, size in enumerate(view["hand_sizes"]):
        if other == seat:
            hands.append(sorted(card["card"] for card in view["hand"]))
            continue
        hands.append(sorted(pool[:size]))
        pool = pool[size:]
    return hands, sorted(pool)


def _shuffled(items: list[int], rng: Rng, label: str) -> list[int]:
    return rng.shuffle(label, items)


def score(state: State, seat: int, line: list[int], token: bool) -> int:
    """The seat's points if the race ended with this line: its betting cards by rank, and
    its Dark Horse token if it holds one (or is taking one)."""
    points = state["rank_points"]
    size = len(line)
    total = sum(points[size - line.index(h) - 1] for h in state["betting_cards"][seat])
    if token:
        dark_rank = size - line.index(state["dark_horse"])
        total += TOKEN_BONUS if dark_rank <= TOKEN_BONUS_RANKS else TOKEN_PENALTY
    return total


def policy(state: State, seat: int, commands: list[Command], rng: Rng) -> Command:
    """A playout move: usually the move best for the mover's own bets (ties drawn at
    random), sometimes any legal move."""
    label = f"policy/{len(state['line'])}/{len(state['played'])}/{state['pending_discard']}"
    stream = rng.stream(label)
    if stream.below(GREEDY_OUT_OF) >= GREEDY_IN:
        return commands[stream.below(len(commands))]
    values = values_of(state, seat, commands)
    best = max(values)
    top = [c for c, v in zip(commands, values, strict=True) if v == best]
    return top[stream.below(len(top))]


def values_of(state: State, seat: int, commands: list[Command]) -> list[int]:
    """How good each move looks to the mover at a glance, in sevenths of a point: the
    line after it scored for the mover's bets, a discard by the points the card loses
    against an average draw, a horse card by where the mover's horses stand in the line."""
    kind = commands[0]["type"]
    if kind == PLAY:
        lines = Lines(state)
        return [_play_value(state, seat, command, lines) for command in commands]
    if kind == DISCARD:
        return [-_card_points(state, command["horse"]) for command in commands]
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
            self.known[key] = self._moved(self.deck[command["card"]], key[1])
        return self.known[key]

    def _moved(self, action: dict[str, Any], direction: str | None) -> list[int]:
        line = self.state["line"]
        if action["kind"] == MOVE:
            way = direction or action["direction"]
            for horse in target_horses(line, action, among_others=self.among):
                line = moved(line, horse, destination(line, horse, way, action["steps"]))
        elif action["kind"] == RIDER_FALL_OFF:
            line = moved(line, horse_at(line, RIDER_FALL_OFF_RANK), len(line))
        return list(line)


def _play_value(state: State, seat: int, command: Command, lines: Lines) -> int:
    token = state["tokens"][seat] or bool(command.get("take_token"))
    after = RANKS * score(state, seat, lines.after(command), token)
    if "exchange" in command:
        after += _exchange_gain(state, seat, command["exchange"])
    return after


def _exchange_gain(state: State, seat: int, exchange: dict[str, Any] | None) -> int:
    """An own exchange gains an average card's points for the card discarded; making
    another seat exchange lets it drop its worst card, so it counts a little against."""
    if exchange is None:
        return 0
    if exchange["seat"] != seat:
        return -1
    return sum(state["rank_points"]) - RANKS * _card_points(state, exchange["discard"])


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
