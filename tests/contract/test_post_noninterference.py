"""A forum post holds no secret, as noninterference: for every pair of twins of
tests/contract/test_noninterference.py (two games from one seed that differ only in one
seat's secret), the post of each command, in Markdown and BBCode, is the same in both
games for as long as the spectator is compared (until the rules reveal the secret)."""

import re

import pytest
from noninterference import GAME, Interference, Lockstep, difference
from test_noninterference import TWINS

from referee.engine import game
from referee.engine.rng import Rng
from referee.posts.summary import FORMATS

BASE = "https://referee.example"
# a salted digest (a sealed order's commitment): the one residue a secret may leave in
# what a spectator sees (docs/log-format.md, "What a redacted event tells")
DIGEST = re.compile(r"\b[0-9a-f]{64}\b")
COMPARED_AT_MOST = 60  # posts per pair (each tells the whole log again: long games are slow)


class Posts(Lockstep):
    """Twins in lockstep that also compare the post of every command."""

    compared = 0

    def observe(self, answers):
        after = self.cursor
        super().observe(answers)
        over = any(game.is_over(r.state(GAME)) for r in (self.a, self.b))
        if over or None not in self.watching or self.compared >= COMPARED_AT_MOST:
            return  # the end makes all public; or the rules showed the spectator the secret
        for fmt in FORMATS:
            told = [DIGEST.sub("<digest>", self.post(r, fmt, after)) for r in (self.a, self.b)]
            if told[0] != told[1]:
                raise Interference(f"the {fmt} post after seq {after} differs: {difference(*told)}")
        self.compared += 1

    @staticmethod
    def post(referee, fmt: str, since: int) -> str:
        return referee.post(GAME, fmt, since=since, base=BASE)["text"]


@pytest.mark.parametrize("name", sorted(TWINS))
def test_a_post_does_not_change_with_a_seats_secret(name):
    """Pairs of twins until two really differed (another secret, or another command) and
    had posts compared after every command, within 20 tries: not vacuous."""
    differing = 0
    for n in range(20):
        posts = Posts(TWINS[name], f"seed-{n}", Rng(f"chance:seed-{n}"))
        trial = posts.run(f"bots-{n}")
        differs = posts.a.store.log_lines(GAME) != posts.b.store.log_lines(GAME)
        differing += trial.forked and differs and posts.compared > 2
        if differing == 2:
            return
    pytest.fail(f"{name}: fewer than two pairs of twins differed and were compared")
