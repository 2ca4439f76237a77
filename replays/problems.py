"""What verification finds wrong: the seq it is at, a code naming the kind, and why.

Codes, by the check that finds them (docs/verification.md):
`log/*` reading the file, `chain/*` the hash chain, `seed/*` the seed against its
commitment, `seal/*` sealed orders and salts, `rules/*` re-deriving from seed and rules.
"""


class Invalid(Exception):
    """The first problem found in a log."""

    def __init__(self, seq: int, code: str, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq, self.code, self.reason = seq, code, reason
