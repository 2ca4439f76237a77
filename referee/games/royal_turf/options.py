"""The options of a Royal Turf game: the four variants and the house numbers a moderator
may replace, with their checks."""

from typing import Any

from .._checks import invalid, is_int
from .data import BET_COLUMNS, DATA, FACES, PLACES, RACES, ROYAL_TURF_CARDS

TIEBREAKS = ("share", "most_bets")
VARIANTS = ("hidden_bets", "crowded_field", "alternative_payouts", "royal_turf_cards")
MAX_AMOUNT = 1_000_000
MAX_CARD_VALUE = 99
MAX_CARDS = 200

OPTIONS: dict[str, Any] = {
    **{variant: False for variant in VARIANTS},
    "track_length": DATA["track_length"],
    "pace_space": DATA["pace_space"],
    "cards": None,
    "payouts": None,
    "pace_bonus": DATA["pace_bonus"],
    "last_place_penalty": DATA["last_place_penalty"],
    "race_multipliers": DATA["race_multipliers"],
    "starting_money": DATA["starting_money"],
    "allow_negative_balance": False,
    "tiebreak": "share",
    "zero_chip_uses_bet": True,
}
# what a game created before an option existed (its GameCreated lacks the key) plays by
LEGACY: dict[str, Any] = {"zero_chip_uses_bet": True}


def check_options(options: dict[str, Any]) -> None:
    """Variants, allow_negative_balance and zero_chip_uses_bet are booleans; the numbers
    are whole and in range; cards (null: the house deck) and payouts (null: the house
    table) keep the house format; tiebreak is share or most_bets."""
    for name in (*VARIANTS, "allow_negative_balance", "zero_chip_uses_bet"):
        if not isinstance(options[name], bool):
            raise invalid(name, f"{name} must be true or false")
    _check_track(options)
    for name in ("pace_bonus", "last_place_penalty", "starting_money"):
        _check_amount(options, name)
    _check_multipliers(options["race_multipliers"])
    if options["cards"] is not None:
        _check_cards(options["cards"], options["royal_turf_cards"])
    if options["payouts"] is not None:
        _check_payouts(options["payouts"])
    if options["tiebreak"] not in TIEBREAKS:
        raise invalid("tiebreak", f"tiebreak must be one of {', '.join(TIEBREAKS)}")


def _check_track(options: dict[str, Any]) -> None:
    track, pace = options["track_length"], options["pace_space"]
    if not is_int(track) or not 10 <= track <= 200:
        raise invalid("track_length", "track_length must be an integer 10-200")
    if not is_int(pace) or not 1 <= pace < track:
        raise invalid("pace_space", f"pace_space must be an integer from 1 to {track - 1}")


def _check_amount(options: dict[str, Any], name: str) -> None:
    if not is_int(options[name]) or not 0 <= options[name] <= MAX_AMOUNT:
        raise invalid(name, f"{name} must be an integer 0-{MAX_AMOUNT}")


def _check_multipliers(value: Any) -> None:
    if not isinstance(value, list) or len(value) != RACES or not all(_small(m) for m in value):
        raise invalid("race_multipliers", f"race_multipliers must list {RACES} integers 0-100")


def _small(value: Any) -> bool:
    return is_int(value) and 0 <= value <= 100


def _check_cards(cards: Any, royal_turf: bool) -> None:
    least = ROYAL_TURF_CARDS if royal_turf else RACES * len(DATA["horses"])
    if not isinstance(cards, list) or not least <= len(cards) <= MAX_CARDS:
        raise invalid("cards", f"cards must be null or a list of {least}-{MAX_CARDS} horse cards")
    for index, card in enumerate(cards):
        if not isinstance(card, list) or len(card) != len(FACES) or not all(map(_value, card)):
            raise invalid(
                "cards",
                f"card {index} must list {len(FACES)} integers 0-{MAX_CARD_VALUE} "
                f"({', '.join(FACES)})",
                index=index,
            )


def _value(value: Any) -> bool:
    return is_int(value) and 0 <= value <= MAX_CARD_VALUE


def _check_payouts(table: Any) -> None:
    shape = f"payouts must map {', '.join(PLACES)} to {BET_COLUMNS} amounts (1 to 6+ bets)"
    if not isinstance(table, dict) or sorted(table) != sorted(PLACES):
        raise invalid("payouts", shape)
    for place in PLACES:
        row = table[place]
        if not isinstance(row, list) or len(row) != BET_COLUMNS:
            raise invalid("payouts", shape, place=place)
        if not all(is_int(a) and 0 <= a <= MAX_AMOUNT for a in row):
            raise invalid("payouts", f"payouts {place} must be integers 0-{MAX_AMOUNT}")
