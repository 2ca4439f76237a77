"""The abilities a bot weighs each round: a plain plan for its cards, chip limit and chips,
from its own hand and what it may bet on (house tactics for the bots, not rules).

The plan builds one card up for Round 10's utility (n x n points, capped at 20): Round 0's
utility copies it, Round 4's duplicates it, Round 7's gathers one of every other card
into it. Cards beyond those it needs pay for clues where a clue helps bets (Round 3's
spaces at the end of Round 4, Round 9's last values, of the horses it may bet on) and for
a higher chip limit (Rounds 2 and 8) or more chips (Round 9). Round 10 uses every card
for points. The plan takes only clues whose answers bound one horse each (values and
spaces): those a sample keeps exactly (Round 5's placements would tie horses together,
which the sampler keeps only approximately). Each round lists its abilities best guess
first; every one fits the hand.
"""

from typing import Any

from ..abilities import Dropped, judged_ability
from ..data import HORSES, LAST_ROUND

Hand = dict[str, int]
Ability = dict[str, Any] | None
TARGET = 5  # copies of the built-up card that reach Round 10's cap (5 x 5 > 20)


def built(hand: Hand) -> str | None:
    """The card the plan builds up: the most held (the first such horse)."""
    held = [h for h in HORSES if hand.get(h, 0) > 0]
    return max(held, key=lambda h: hand[h]) if held else None


def spare(hand: Hand, round_number: int) -> list[str]:
    """Cards the plan can do without: before Round 7, the distinct cards beyond those the
    gathering needs; after it, the built-up card's copies beyond TARGET."""
    top = built(hand)
    if top is None:
        return []
    if round_number <= 7:
        others = [h for h in HORSES if hand.get(h, 0) > 0 and h != top]
        needed = max(0, TARGET + 1 - hand[top])
        return others[needed:]
    return [top] * max(0, hand[top] - TARGET)


def abilities(hand: Hand, round_number: int, bettable: list[str], first: str) -> list[Ability]:
    """The round's abilities worth weighing, best guess first, each fitting the hand;
    `bettable`: the horses the seat may bet on now, `first`: the card Round 0 copies."""
    planned = _PLANS.get(round_number, _nothing)(hand, round_number, bettable, first)
    fitting = [a for a in planned if a is None or fits(a, hand, round_number)]
    unique = [a for i, a in enumerate(fitting) if a not in fitting[:i]]
    return unique or [None]


def fits(ability: dict[str, Any], hand: Hand, round_number: int) -> bool:
    """Whether the rules would apply this ability with this hand."""
    try:
        judged_ability(round_number, ability, hand)
    except Dropped:
        return False
    return True


def effects(ability: Ability, hand: Hand, round_number: int) -> dict[str, int]:
    """The chip limit raised and the chips gained at once by an ability."""
    if ability is None:
        return {"limit_raised": 0, "chips_gained": 0}
    done = judged_ability(round_number, ability, hand)
    return {"limit_raised": done["limit_raised"], "chips_gained": done["chips_gained"]}


def _nothing(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    return [None]


def _copy(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    return [{"kind": "utility", "select": [first]}]


def _limit_by_pairs(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    cards = spare(hand, r)[:2]
    return [None, {"kind": "utility", "use": cards}]


def _duplicate(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    top = built(hand)
    if top is None or hand[top] < 2:
        return [None]
    return [{"kind": "utility", "select": [top] * hand[top], "use": [top]}, None]


def _spaces(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    """Round 3's clue on the horses it may bet on (or spare ones): where they will stand
    at the end of Round 4, so it can follow them."""
    free = spare(hand, r)
    wanted = [h for h in bettable if h in free] or free
    return [{"kind": "clue", "use": wanted[:3]}, None]


def _gather(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    top = built(hand)
    distinct = [h for h in HORSES if hand.get(h, 0) > 0]
    if top is None or len(distinct) < 2:
        return [None]
    return [{"kind": "utility", "use": distinct, "gain": [top]}, None]


def _limit_by_distinct(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    top = built(hand)
    others = [h for h in HORSES if hand.get(h, 0) > 0 and h != top]
    options: list[Ability] = [None]
    if others:
        options.append({"kind": "utility", "use": others})
    if top is not None and hand[top] > TARGET:
        options.append({"kind": "utility", "use": [*others, top]})
    return options


def _last_values(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    top = built(hand)
    options: list[Ability] = [None]
    extra = spare(hand, r)
    if extra:
        options.append({"kind": "utility", "use": extra})
    known = [h for h in bettable if hand.get(h, 0) > (TARGET if h == top else 0)]
    if known:
        options.append({"kind": "clue", "use": known})
    return options


def _points(hand: Hand, r: int, bettable: list[str], first: str) -> list[Ability]:
    cards = [h for h in HORSES for _ in range(hand.get(h, 0))]
    return [{"kind": "utility", "use": cards}] if cards else [None]


_PLANS = {
    0: _copy,
    2: _limit_by_pairs,
    3: _spaces,
    4: _duplicate,
    7: _gather,
    8: _limit_by_distinct,
    9: _last_values,
    LAST_ROUND: _points,
}
