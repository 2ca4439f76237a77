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

The search does not play on to the end: a playout stops at once (PLAYOUT_MOVES = 0) and
`evaluate` estimates each seat's share of the win from how it stands (tactics.py: its
points as the line stands, with what its hand is still worth), each ODDS_POINTS points
ahead doubling a seat's odds. A win or a loss at the end of a random race says little
about the move that led to it (docs/bots.md); the estimate says more, for less.
`policy` plays a move the way tactics.py judges moves at a glance, with some drawn at
random; it plays the other seats' moves in the search too (OPPONENTS_SEARCHED = False),
each by its own sampled cards, where the one tree would have them pick their moves knowing
this seat's bets. `ITERATIONS` is the strong level's budget.
"""

from collections import Counter
from fractions import Fraction
from typing import Any

from ...engine.rng import Rng
from .data import ACTION_CARDS_PER_PLAYER, BETTING_CARDS, HOUSE_DECK
from .state import PLACEMENT, RACING
from .tactics import KEEP_DENOMINATOR, UNIT, standing, values_of
from .versions import VERSION

State = dict[str, Any]
View = dict[str, Any]
Command = dict[str, Any]

# the strong level's iterations a move, where the search plays best: more plays no better, and
# at three and four seats worse (docs/bots.md, "Dark Horse"); under 0.1 s a move here
ITERATIONS = 400
# a playout is cut at once and evaluated
PLAYOUT_MOVES = 0
# each ODDS_POINTS points a seat stands ahead doubles its odds of winning
ODDS_POINTS = 2
# the other seats' moves are drawn by the policy on the sampled table, not searched: in the
# one tree they would choose knowing this seat's betting cards (docs/bots.md, "Dark Horse")
OPPONENTS_SEARCHED = False
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


def evaluate(state: State, seat: int) -> list[Fraction]:
    """Each seat's share of the win, estimated from how it stands: odds doubling every
    ODDS_POINTS points ahead of the seat standing worst."""
    standings = [standing(state, s) for s in range(state["seats"])]
    step = KEEP_DENOMINATOR * UNIT * ODDS_POINTS
    odds = [2 ** ((value - min(standings)) // step) for value in standings]
    return [Fraction(o, sum(odds)) for o in odds]
