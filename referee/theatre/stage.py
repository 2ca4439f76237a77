"""The replay theatre's core: a whole log to step through, as any viewer saw it then.

A `Theatre` holds one log and the states after its events, kept at checkpoints (every
CHECKPOINT_EVERY events, as snapshots are), so a step anywhere folds at most that many
events. It knows the log's moves (a command's batch), its rounds or races (the ruleset's
CHAPTER events), who did what, and when the game became public; each event is shown to a
viewer redacted as the live pages showed it once its batch was appended (docs/replay.md).

Eyes are who looks: `public` (a spectator at that moment), `seat-N`, or `all` (the
moderator, who saw everything).
"""

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

from ..engine import game
from ..engine.events import MODERATOR
from ..engine.rng import heard
from ..service import Viewer, presented

CHECKPOINT_EVERY = 64
END_EVENTS = ("GameEnded", "GameAbandoned")
PUBLIC, ALL = "public", "all"


@dataclass(frozen=True)
class Eyes:
    """Who looks at a replay: the viewer whose view and events are shown."""

    name: str
    viewer: Viewer

    @classmethod
    def parse(cls, text: str | None, seats: int) -> "Eyes":
        """`public`, `all` or `seat-N` (a seat at the table); anything else: public."""
        if text == ALL:
            return cls(ALL, MODERATOR)
        if text and text.startswith("seat-") and text[5:].isdigit() and len(text) < 9:
            seat = int(text[5:])
            if seat < seats:
                return cls(text, seat)
        return cls(PUBLIC, None)


class Unplayable(Exception):
    """An event the rules cannot fold (a tampered log): the replay stops before it."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq, self.reason = seq, reason


class Theatre:
    """One log, stepped through: states, views, events and sentences at any seq."""

    def __init__(self, game_id: str, events: list[game.Record]) -> None:
        self.game_id = game_id
        self.events = events
        self._kept: dict[int, game.State] = {}
        self._last: tuple[int, game.State | None] = (0, None)  # the last state asked for
        self._told: dict[tuple[str, bool], list[str]] = {}
        self.playable = len(events)  # the last seq that folds
        self.broken: Unplayable | None = None
        # by place in the log, which is each event's seq in a log that folds; a damaged
        # upload's events may lack a seq, a type or an actor, or hold anything there
        self.moves = [
            n for n, e in enumerate(events, start=1) if n == 1 or e.get("command") is not None
        ]
        self._by_type: dict[Any, list[int]] = {}
        self._by_actor: dict[Any, list[int]] = {}
        for n, e in enumerate(events, start=1):
            self._by_type.setdefault(_key(e.get("type")), []).append(n)
            self._by_actor.setdefault(_key(e.get("actor")), []).append(n)
        self.over_at = self._over_at()

    @property
    def last(self) -> int:
        """The last seq of the log."""
        return len(self.events)

    def state_at(self, seq: int) -> game.State:
        """The state after event `seq`, folded from the nearest checkpoint before it, or
        from the last state asked for when that is nearer (a step one event on)."""
        seq = min(seq, self.playable)
        base = seq - seq % CHECKPOINT_EVERY
        while base and base not in self._kept:
            base -= CHECKPOINT_EVERY
        state = self._kept.get(base)
        last, held = self._last
        if base < last <= seq:
            base, state = last, held
        for at in range(base + 1, seq + 1):
            state = self._apply(state, at)
            if at % CHECKPOINT_EVERY == 0:
                self._kept[at] = state
        assert state is not None
        self._last = (seq, state)  # one tuple: a thread reading it meanwhile sees a pair
        return state

    def _apply(self, state: game.State | None, seq: int) -> game.State:
        try:
            return game.apply(state, self.events[seq - 1])
        except Exception as exc:  # a tampered log may not fit the rules at all
            self.playable = min(self.playable, seq - 1)
            self.broken = Unplayable(seq, f"the event cannot be folded: {exc!r}")
            raise self.broken from None

    def check_playable(self) -> None:
        """Fold the whole log once, so `playable` and `broken` say how far it goes."""
        try:
            self.state_at(self.last)
        except Unplayable:
            pass

    def view(self, seq: int, eyes: Eyes) -> dict[str, Any]:
        """The viewer's view just after event `seq`, as GET /games/{id} gave it then."""
        return presented(self.game_id, self.state_at(seq), eyes.viewer)

    def batch_end(self, seq: int) -> int:
        """The seq of the last event of the batch that holds event `seq`."""
        later = bisect_right(self.moves, seq)
        return self.moves[later] - 1 if later < len(self.moves) else self.last

    def _over_at(self) -> int:
        """The first seq everything was public from: the end of the batch that ended the
        game (past the log when it never ended)."""
        ended = self.chapters(END_EVENTS)
        return self.last + 1 if not ended else self.batch_end(ended[0])

    def public_by(self, at: int) -> bool:
        """Whether everything was public once the batch holding event `at` was appended."""
        return self.batch_end(at) >= self.over_at

    def seen(self, seq: int, eyes: Eyes, at: int | None = None) -> dict[str, Any]:
        """Event `seq` as the viewer had it at point `at` (itself by default): redacted
        until the batch that ended the game was appended, whole from then on (the live
        pages then showed the whole log)."""
        return game.redact(self.events[seq - 1], eyes.viewer, self.public_by(at or seq))

    def seen_until(self, at: int, eyes: Eyes) -> list[dict[str, Any]]:
        """Events 1..at as the viewer had them at point `at`."""
        return [self.seen(seq, eyes, at) for seq in range(1, at + 1)]

    def sentences(self, eyes: Eyes, at: int, narrate) -> list[str]:
        """Events 1..at told to the viewer as it had them then, one sentence each ('' for
        what it could not read). Told once per viewer, before and after the end: a
        sentence depends only on the events before it, so a prefix is what the viewer had
        read by any point."""
        public = self.public_by(at)
        key = (eyes.name, public)
        if key not in self._told:
            players = self.state_at(1)["players"]
            events = [game.redact(e, eyes.viewer, public) for e in self.events]
            self._told[key] = narrate(events, eyes.viewer, players)
        return self._told[key][:at]

    def previous_move(self, seq: int) -> int | None:
        """The first event of the last move that starts before `seq`."""
        at = bisect_left(self.moves, seq)
        return self.moves[at - 1] if at > 0 else None

    def next_move(self, seq: int) -> int | None:
        """The first event of the next move."""
        at = bisect_right(self.moves, seq)
        return self.moves[at] if at < len(self.moves) else None

    def chapters(self, kinds: tuple[str, ...]) -> list[int]:
        """The seqs of the events of these types (those that open a round or race)."""
        return sorted(seq for kind in kinds for seq in self._by_type.get(kind, []))

    def next_of(self, seat: int, seq: int) -> int | None:
        """The next event the seat itself did after `seq`."""
        did = self._by_actor.get(seat, [])
        at = bisect_right(did, seq)
        return did[at] if at < len(did) else None

    @property
    def seed(self) -> str | None:
        """The seed the log reveals (read from its SeedRevealed event, not folded)."""
        revealed = self.chapters(("SeedRevealed",))
        if not revealed or self.playable < revealed[0]:
            return None
        payload = self.events[revealed[0] - 1].get("payload")
        return payload.get("seed") if isinstance(payload, dict) else None

    def draws(self, seq: int) -> list[str]:
        """The labels of the random draws the move holding `seq` made, re-derived from the
        revealed seed (none before the seed is out, or for a move that drew nothing)."""
        start = self.moves[bisect_right(self.moves, seq) - 1]
        seed = self.seed
        record = self.events[start - 1]
        if seed is None or (start > 1 and record.get("command") is None):
            return []
        try:
            with heard() as labels:
                if start == 1:  # the setup: the deal, the shuffles, the draws for seats
                    game.opening(record["payload"], seed)
                else:
                    game.step(self.state_at(start - 1), record["actor"], record["command"], seed)
        except Exception:  # a command the rules refuse: the verify panel says so
            return []
        return list(dict.fromkeys(labels))


def _key(value: Any) -> Any:
    """A value as an index key: itself when it can be one, else its text."""
    return value if isinstance(value, str | int) or value is None else repr(value)
