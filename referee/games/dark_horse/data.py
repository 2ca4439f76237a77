"""The numbers and the house deck of Dark Horse, read once from ../dark_horse.json."""

from typing import Any

from .._data import load

DATA: dict[str, Any] = load("dark_horse.json")

HORSES: list[int] = DATA["horses"]
RANKS = len(HORSES)
RANK_POINTS: list[int] = DATA["rank_points"]
BETTING_CARDS: list[int] = [h for h in HORSES for _ in range(DATA["betting_cards_per_horse"])]
BETTING_CARDS_PER_PLAYER: dict[str, int] = DATA["betting_cards_per_player"]
ACTION_CARDS_PER_PLAYER: dict[str, int] = DATA["action_cards_per_player"]
TOKENS: dict[str, int] = DATA["tokens"]
TOKEN_BONUS: int = DATA["token_bonus"]
TOKEN_PENALTY: int = DATA["token_penalty"]
TOKEN_BONUS_RANKS: int = DATA["token_bonus_ranks"]
RIDER_FALL_OFF_RANK: int = DATA["rider_fall_off_rank"]
HOUSE_DECK: list[dict[str, Any]] = DATA["action_cards"]
