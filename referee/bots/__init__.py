"""Bots: the random bots that play whole games through the service (random_play), and the
bots that play a seat from its view at three levels (levels: random, standard, strong)."""

from .random_play import choose, play, timed

__all__ = ["choose", "play", "timed"]
