"""Blackout Middle's ids in words, shared by the narration, the labels and the board:
seats, horses, cards, abilities, bets, orders, trades and what a seat learned; and what
a client needs to explain the ids (CONTENT, OPTION_TEXTS, served with the ruleset)."""

from collections.abc import Callable
from typing import Any

from .data import (
    ABILITIES,
    CHIP_LIMIT,
    DATA,
    FIRST_PURCHASE_COST,
    HORSES,
    PLACEMENT_POINTS,
    POINTS_PER_GARNET,
    PURCHASE_COST_FACTOR,
    ROUND10_UTILITY_FORMULAS,
    START_SPACE,
    STARTING_CHIPS,
    TRACK_LENGTH,
)

Players = list[str]


def name(players: Players, seat: Any) -> str:
    """A seat's player name, or "seat n" if the list does not have it."""
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def names(players: Players, seats: list[Any]) -> str:
    """Several seats' names joined with commas and "and"."""
    shown = [name(players, s) for s in seats]
    if len(shown) < 2:
        return shown[0] if shown else "nobody"
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def cards_text(cards: Any) -> str:
    """Horse cards as letters with copies: "A, A, B"."""
    if isinstance(cards, str):
        return cards
    if not isinstance(cards, list) or not cards:
        return "none"
    return ", ".join(str(card) for card in cards)


def ability_text(given: Any) -> str:
    """An ability as sent: "clue: use A, A" or "utility: select B; gain H"."""
    if not isinstance(given, dict):
        return "no ability"
    parts = [
        f"{field} {cards_text(given[field])}"
        for field in ("select", "use", "gain")
        if field in given
    ]
    for guess in given.get("guesses") or []:
        if isinstance(guess, dict):
            parts.append(f"guess {guess.get('horse')} has {guess.get('ahead')} ahead")
    return f"{given.get('kind')}: " + ("; ".join(parts) or "no cards")


def bets_text(bets: Any) -> str:
    """Bets as "bet C 2, D 1" or "no bets"."""
    if not isinstance(bets, dict) or not bets:
        return "no bets"
    return "bet " + ", ".join(f"{horse} {chips}" for horse, chips in bets.items())


def orders_text(orders: Any) -> str:
    """A whole submission: its ability, its space and its bets."""
    if not isinstance(orders, dict):
        return "nothing"
    space = orders.get("spectate")
    spectate = "no space" if space is None else f"spectate space {space}"
    return f"{ability_text(orders.get('ability'))}; {spectate}; {bets_text(orders.get('bets'))}"


def trade_text(offer: dict[str, Any], players: Players) -> str:
    """An offer: who gives which card for which card of whom."""
    giver, taker = name(players, offer.get("from")), name(players, offer.get("to"))
    return f"{giver}'s card {offer.get('give')} for {taker}'s card {offer.get('get')}"


def learned_text(result: dict[str, Any], players: Players) -> str:
    """What an ability delivered, in short: learned, cards gained, points."""
    learned = result.get("learned") or {}
    parts = [_LEARNED[key](value, players) for key, value in learned.items() if key in _LEARNED]
    if isinstance(result.get("chips"), dict):  # a watch (ChipsWatched): chips on each horse
        chips = ", ".join(f"{h} {n}" for h, n in result["chips"].items()) or "none"
        parts.append(f"chips bet on the watched horses {chips}")
    if result.get("gained"):
        gained = ", ".join(f"{n} x {horse}" for horse, n in result["gained"].items())
        parts.append(f"gained cards {gained}")
    if result.get("points"):
        points = ", ".join(f"{horse} {n}" for horse, n in result["points"].items())
        parts.append(f"points {points}")
    return "; ".join(parts) or "nothing"


def by_round(values: dict[str, Any]) -> str:
    """Values by round, in round order: "Round 1: 3, Round 2: 5"."""
    return ", ".join(f"Round {r}: {v}" for r, v in sorted(values.items(), key=lambda i: int(i[0])))


def _horse_lists(values: dict[str, Any]) -> str:
    return ", ".join(f"Round {r}: {cards_text(found)}" for r, found in values.items())


def _movements(value: dict[str, Any], players: Players) -> str:
    shown = [f"{h} ({by_round(v) or 'no rounds'})" for h, v in value.items()]
    return "movement values " + ("; ".join(shown) or "none")


def _per_horse(title: str, show: Callable[[Any], str]) -> Callable[[Any, Players], str]:
    def told(value: dict[str, Any], players: Players) -> str:
        return f"{title} " + ("; ".join(f"{h} ({show(v)})" for h, v in value.items()) or "none")

    return told


def _guesses(value: list[dict[str, Any]], players: Players) -> str:
    marks = [
        f"{g['horse']} {g['ahead']} ahead {'right' if g.get('correct') else 'wrong'}" for g in value
    ]
    return "guesses " + ", ".join(marks)


def _who_bet(value: dict[str, Any], players: Players) -> str:
    def seats(bets: dict[str, int]) -> str:
        return ", ".join(f"{name(players, s)} {n}" for s, n in bets.items()) or "nobody"

    return "bets this round " + ("; ".join(f"{h} ({seats(b)})" for h, b in value.items()) or "none")


_LEARNED: dict[str, Callable[[Any, Players], str]] = {
    "movements": _movements,
    "n": lambda v, p: "rounds told " + ", ".join(f"{h} {n}" for h, n in v.items()),
    "sums": lambda v, p: f"sums {by_round(v)}",
    "differ_by_1": _per_horse("differ by 1 from", _horse_lists),
    "spaces": _per_horse(
        "spaces", lambda v: ", ".join(f"end of Round {r}: {s}" for r, s in v.items())
    ),
    "same_movement": _per_horse("same value as", _horse_lists),
    "placements": _per_horse(
        "placements", lambda v: ", ".join(f"end of Round {r}: {ordinal(p)}" for r, p in v.items())
    ),
    "chip_limit": lambda v, p: f"chip limit now {v}",
    "watching": lambda v, p: f"watching chips on {cards_text(v)}",
    "rounds": lambda v, p: "in Rounds " + ", ".join(str(r) for r in v),
    "guesses": _guesses,
    "bets": _who_bet,
    "chips": lambda v, p: f"chips now {v}",
}


# --- what a client needs to explain ids (served as content and option_texts) ---

OPTION_TEXTS: dict[str, str] = dict(DATA["option_texts"])
CONTENT: dict[str, Any] = {
    "horses": {
        h: {"name": f"Horse {h}", "colour": fill, "ink": ink, "colour_name": colour}
        for h, (fill, ink, colour) in ((h, DATA["drawing"]["horse_colours"][h]) for h in HORSES)
    },
    "track_length": TRACK_LENGTH,
    "start_space": START_SPACE,
    "rounds": {
        r: {kind: spec["text"] for kind, spec in kinds.items()} for r, kinds in ABILITIES.items()
    },
    "placement_points": {ordinal(i): n for i, n in enumerate(PLACEMENT_POINTS, start=1)},
    "starting_chips": STARTING_CHIPS,
    "chip_limit": CHIP_LIMIT,
    "purchase_costs": {"first": FIRST_PURCHASE_COST, "factor": PURCHASE_COST_FACTOR},
    "points_per_garnet": POINTS_PER_GARNET,
    "round10_utility_formulas": dict(ROUND10_UTILITY_FORMULAS),
    "glossary": dict(DATA["glossary"]),
}
