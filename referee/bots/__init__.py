"""Bots: the random bots that play whole games through the service (random_play), and the
bots that play a seat from its view at three levels (levels: random, standard, strong).

The bots play through the service, so they sit above it; the command line and the
workers use them. Their choices (levels, search, simulate) import no I/O and no
randomness of their own, as the rules do (docs/architecture.md)."""

from .random_play import choose, play, timed

__all__ = ["choose", "play", "timed"]
