"""Bots: random legal play for whole games (random_play), and the levels a seat's bot
plays at (levels)."""

from .random_play import choose, play, timed

__all__ = ["choose", "play", "timed"]
