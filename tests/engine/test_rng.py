"""The seeded generator follows docs/fairness.md to the byte."""

import hashlib
import hmac
from collections import Counter

from referee.engine.rng import Rng, commitment


def block(seed: str, label: str, i: int) -> bytes:
    """docs/fairness.md, written out again independently of the engine."""
    msg = label.encode() + b"#" + str(i).encode()
    return hmac.new(seed.encode(), msg, hashlib.sha256).digest()


def test_words_are_the_documented_hmac_blocks():
    stream = Rng("s").stream("deal")
    expected = block("s", "deal", 0) + block("s", "deal", 1)
    words = [stream.word() for _ in range(8)]
    assert words == [int.from_bytes(expected[i : i + 8], "big") for i in range(0, 64, 8)]


def test_below_is_the_first_word_modulo_n_when_not_rejected():
    first = int.from_bytes(block("seed", "die", 0)[:8], "big")
    assert Rng("seed").below("die", 6) == first % 6


def test_shuffle_is_fisher_yates_from_the_last_index():
    stream = Rng("k").stream("cards")
    items = list(range(10))
    for i in range(9, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert Rng("k").shuffle("cards", range(10)) == items


def test_known_answers_pin_the_generator():
    rng = Rng("referee")
    assert rng.shuffle("demo", list("abcdefg")) == KNOWN_SHUFFLE
    assert [rng.stream("dice").below(6) for _ in range(1)] == [KNOWN_DIE]
    assert commitment("referee") == hashlib.sha256(b"referee").hexdigest()


def test_labels_are_independent_and_seeds_matter():
    assert Rng("a").shuffle("x", range(20)) != Rng("a").shuffle("y", range(20))
    assert Rng("a").shuffle("x", range(20)) != Rng("b").shuffle("x", range(20))


def test_shuffles_of_three_are_close_to_uniform():
    counts = Counter(tuple(Rng(f"seed{i}").shuffle("t", "abc")) for i in range(6000))
    assert len(counts) == 6
    assert all(850 < n < 1150 for n in counts.values())


def test_rejection_sampling_never_returns_out_of_range():
    stream = Rng("r").stream("big")
    n = (1 << 63) + 1  # half the words are rejected
    assert all(0 <= stream.below(n) < n for _ in range(200))


def test_salts_are_the_first_bytes_of_their_label_stream():
    assert Rng("s").hex("salt/5") == block("s", "salt/5", 0)[:16].hex()


# Published in docs/fairness.md so an implementation in another language can check itself.
KNOWN_SHUFFLE = ["a", "g", "e", "f", "c", "d", "b"]
KNOWN_DIE = 5
