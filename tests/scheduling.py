"""What the tests of deadlines put in place of the service's clock and its scheduler."""

T0 = 1_800_000_000  # a fixed moment, in seconds


class Clock:
    """The service's clock, moved by hand."""

    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Recorder:
    """A scheduler that remembers what the service asked for: resolutions in `asked`,
    clock time-outs in `timed`."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int | None]] = []
        self.timed: list[tuple[str, int, int]] = []

    def resolve(self, game_id, round_number, eta):
        self.asked.append((game_id, round_number, eta))

    def time_out(self, game_id, seat, deadline):
        self.timed.append((game_id, seat, deadline))
