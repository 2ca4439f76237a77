"""The numbers and the house content of Royal Turf, read once from ../royal_turf.json."""

from typing import Any

from .._data import load

DATA: dict[str, Any] = load("royal_turf.json")

HORSES: list[str] = DATA["horses"]
GATES = len(HORSES)
DIE: list[str] = DATA["die"]
FACES: list[str] = DATA["card_faces"]
HOUSE_CARDS: list[list[int]] = DATA["cards"]
ROYAL_TURF_PER_HORSE: int = DATA["royal_turf_cards_per_horse"]
ROYAL_TURF_CARDS = ROYAL_TURF_PER_HORSE * GATES
RACES: int = DATA["races"]
CHIPS: list[int] = DATA["chips"]
HIDDEN_BETS_CHIPS: list[int] = DATA["hidden_bets_chips"]
PLACES: list[str] = list(DATA["payouts"])
HOUSE_PAYOUTS: dict[str, list[int]] = DATA["payouts"]
BET_COLUMNS = len(HOUSE_PAYOUTS[PLACES[0]])
