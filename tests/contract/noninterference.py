"""Twin games for noninterference: two games from the same seed that differ only in one
secret (a seat's hidden hand, the hidden deck, a sealed bet, a private ability, a trade),
played in lockstep by the same random bots through the real service and store.

Every viewer the secret does not belong to (the other seats, a spectator) must receive
the same things from both games: the same view after every command, the same event
stream, the same answers to its own commands, until the rules make the secret known to
it. The only residue allowed is documented in docs/log-format.md ("What a redacted event
tells"): salted digests (`hash`, `prev_hash`, a sealed order's `commitment`) differ,
since they are digests of different secrets under a salt only the seed reveals.

A viewer stops being compared at the first event it may see whose content differs
between the twins, if that event's type is one by which the rules reveal a secret to
that viewer (the twin's `reveals`); any other difference fails, with the seq and what
differed.
"""

import copy
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from referee import bots
from referee.cli import BOT_EPOCH
from referee.engine import game, registry
from referee.engine.errors import RefereeError
from referee.engine.events import REFEREE
from referee.engine.rng import Rng
from referee.service import Referee
from referee.store import LogicalClock, open_store

Command = dict[str, Any]
Event = dict[str, Any]
Move = tuple[Any, Command]  # an actor and its command
GAME = "twin"
DIGESTS = ("hash", "prev_hash", "commitment")  # salted: they differ with any secret
MAX_COMMANDS = 400


class Interference(AssertionError):
    """A viewer received something that depends on a secret it may not know."""


@dataclass(frozen=True)
class Twin:
    """How two games differ: a patch to game B's setup events, or, at a seat's n-th
    command, another command in game B that differs from game A's only in secret."""

    ruleset: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    parties: tuple[int, ...] = ()  # the seats the secret belongs to
    reveals: tuple[str, ...] = ()  # event types by which the rules reveal a secret
    seen: tuple[str, ...] = ()  # keys of a view's state by which the rules show a secret
    patch: Callable[[list[Event], Rng], list[Event]] | None = None
    seat: int | None = None  # whose command differs
    # the commands games A and B get at the seat's forking turn (and, third, another seat
    # to send game B's), or None to wait for its next turn
    fork: Callable[[game.State, int, Command, Rng], tuple[Any, ...] | None] | None = None
    public: Callable[[Command], Any] = lambda command: command
    standing: tuple[str, ...] = ()  # standing choices every seat sets at the start


@dataclass
class Trial:
    """What one run of a twin compared."""

    steps: int = 0  # commands sent to both games while some viewer was still compared
    forked: bool = False
    compared: set[Any] = field(default_factory=set)  # viewers still compared at the end


def digests_hidden(value: Any) -> Any:
    """The value with every salted digest replaced by a placeholder (and state hashes,
    shown only once play stops, left out: that batch is compared by its events)."""
    if isinstance(value, dict):
        return {
            k: "<digest>" if k in DIGESTS else digests_hidden(v)
            for k, v in value.items()
            if k != "state_hash"
        }
    if isinstance(value, list | tuple):
        return [digests_hidden(v) for v in value]
    return value


def referee_pair() -> tuple[Referee, Referee]:
    """Two referees on fresh stores, each with the bots' logical clocks."""
    return tuple(  # type: ignore[return-value]
        Referee(open_store(":memory:", clock=LogicalClock()), clock=lambda: BOT_EPOCH)
        for _ in range(2)
    )


def create_twins(twin: Twin, seed: str, chance: Rng) -> tuple[Referee, Referee]:
    """Game A as the seed deals it; game B the same with its setup patched."""
    first, second = referee_pair()
    names = [f"p{s}" for s in range(twin.players)]
    first.create_game(twin.ruleset, names, twin.options, seed, game_id=GAME)
    rules = registry.get(twin.ruleset)
    if twin.patch is None:
        second.create_game(twin.ruleset, names, twin.options, seed, game_id=GAME)
    else:
        setup, patch = rules.setup, twin.patch
        with mock.patch.object(rules, "setup", lambda table, rng: patch(setup(table, rng), chance)):
            second.create_game(twin.ruleset, names, twin.options, seed, game_id=GAME)
    for referee, seat in itertools.product(
        (first, second), range(twin.players) if twin.standing else ()
    ):
        command = {"type": "set_standing_choices", "choices": list(twin.standing)}
        referee.command(GAME, seat, command)
    return first, second


class Lockstep:
    """Two games driven by the same bots; every compared viewer watched after each command."""

    def __init__(self, twin: Twin, seed: str, chance: Rng, *, fork_at: int = 0) -> None:
        self.twin, self.chance, self.fork_at = twin, chance, fork_at
        self.a, self.b = create_twins(twin, seed, chance)
        self.parties = set(twin.parties)
        viewers: list[Any] = [s for s in range(twin.players) if s not in self.parties]
        self.watching: list[Any] = [*viewers, None]
        self.trial = Trial(forked=twin.patch is not None)
        self.seat_turns = 0
        self.cursor = 0

    def run(self, bot_seed: str) -> Trial:
        """Play until the game ends, nobody is left to compare, or the twins part."""
        self.observe({})
        bot_rng = Rng(f"bot:{bot_seed}")
        for turn in range(MAX_COMMANDS):
            state = self.a.state(GAME)
            if game.is_closed(state) or game.is_closed(self.b.state(GAME)) or not self.watching:
                break  # once play stops, the rules make everything public
            actor, command = bots.choose(state, bot_rng, turn)
            now = command.pop("now", None)
            mine, other = self.counterpart(actor, command)
            if other is None:
                break
            answers = self.send(mine, other, now)
            self.trial.steps += 1
            self.observe(answers)
        self.trial.compared = set(self.watching)
        return self.trial

    def counterpart(self, actor: Any, command: Command) -> tuple[Move, Move | None]:
        """The moves for games A and B: the fork (from the seat's fork_at-th turn on,
        the first turn that has one; in game B perhaps by another seat), the same move,
        or for a seat that knows the secret a legal one that looks the same to everyone
        else, or else a move legal in both games, sent to both (a seat does not play the
        card only one game gives it while it has another); None ends the trial."""
        twin, move = self.twin, (actor, command)
        if not self.trial.forked and actor == twin.seat and twin.fork is not None:
            self.seat_turns += 1
            if self.seat_turns > self.fork_at:
                forked = twin.fork(self.a.state(GAME), actor, command, self.chance)
                if forked is not None:
                    self.trial.forked = True
                    return (actor, forked[0]), ((forked[2:] or (actor,))[0], forked[1])
        if actor == REFEREE or actor not in self.parties:
            return move, move
        legal_b = game.legal(self.b.state(GAME), actor)
        if command in legal_b:
            return move, move
        same = [c for c in legal_b if twin.public(c) == twin.public(command)]
        if same:
            return move, (actor, same[0])
        both = [c for c in game.legal(self.a.state(GAME), actor) if c in legal_b]
        return ((actor, both[0]), (actor, both[0])) if both else (move, None)

    def send(self, mine: Move, other: Move, now: int | None) -> dict[Any, Any]:
        """A move to game A and its counterpart to game B: the answers, by actor."""
        answers: dict[Any, list[Any]] = {}
        for referee, (actor, sent) in ((self.a, mine), (self.b, other)):
            try:
                answer = referee.command(GAME, actor, copy.deepcopy(sent), now=now)
            except RefereeError as refused:
                answer = ("refused", refused.code, refused.message)
            answers.setdefault(actor, []).append(answer)
        for actor, pair in answers.items():
            if len(pair) == 2 and pair[0][0] != pair[1][0] and actor in self.watching:
                raise Interference(f"{actor!r} was answered {pair[0]!r} and {pair[1]!r}")
        return {actor: pair for actor, pair in answers.items() if len(pair) == 2}

    def observe(self, answers: dict[Any, Any]) -> None:
        """Compare what every watched viewer receives now from both games."""
        after, state = self.cursor, self.a.state(GAME)
        self.cursor = state["seq"]
        if game.is_over(state) or game.is_over(self.b.state(GAME)):
            return  # a game ended (its batch revealed its scores): everything is public now
        for viewer in list(self.watching):
            streams = [r.events(GAME, viewer, after=after)["events"] for r in (self.a, self.b)]
            if self.revealed_to(viewer, *streams):
                continue
            views = [digests_hidden(r.view(GAME, viewer)) for r in (self.a, self.b)]
            if views[0] != views[1] and self.seen(views[0]) == self.seen(views[1]):
                self.stop(viewer)  # the rules show it the secret in its view
                continue
            if views[0] != views[1]:
                raise Interference(f"{label(viewer)}'s view differs: {difference(*views)}")
            if viewer in answers:
                mine = [digests_hidden(answer) for answer in answers[viewer]]
                if mine[0] != mine[1]:
                    raise Interference(f"{label(viewer)}'s answer differs: {difference(*mine)}")

    def seen(self, view: dict[str, Any]) -> dict[str, Any]:
        """A view without the parts by which the rules show a viewer the secret."""
        return {
            **view,
            "state": {k: v for k, v in view["state"].items() if k not in self.twin.seen},
        }

    def stop(self, viewer: Any) -> None:
        """The rules have shown this viewer the secret: it is compared no more."""
        self.watching.remove(viewer)
        if isinstance(viewer, int):
            self.parties.add(viewer)

    def revealed_to(self, viewer: Any, first: list[Event], second: list[Event]) -> bool:
        """Whether the streams part at an event the rules show this viewer (it stops
        being compared); raises if they part in any other way."""
        first, second = digests_hidden(first), digests_hidden(second)
        if first == second:
            return False
        for one, two in itertools.zip_longest(first, second, fillvalue={}):
            if one == two:
                continue
            if self.reveal(one, two):
                self.stop(viewer)
                return True
            raise Interference(
                f"{label(viewer)}'s stream differs at seq {one.get('seq')} "
                f"({one.get('type', 'redacted')}, {two.get('type', 'redacted')}): "
                f"{difference(one, two)}"
            )
        return False

    def reveal(self, one: Event, two: Event) -> bool:
        """Whether two events at one place are the rules revealing a secret to the viewer:
        both shown and of one type by which the rules reveal, or one such event where the
        other game has a hidden event or none (a card drawn in one game is an event card
        the rules play in public, in the other a card its drawer keeps)."""
        shown = [e for e in (one, two) if e and not e.get("redacted")]
        kinds = {e["type"] for e in shown}
        return bool(shown) and len(kinds) == 1 and kinds <= set(self.twin.reveals)


def label(viewer: Any) -> str:
    """A viewer as a message names it."""
    return "the spectator" if viewer is None else f"seat {viewer}"


def difference(one: Any, two: Any, path: str = "") -> str:
    """Where two JSON values first differ, and how."""
    if isinstance(one, dict) and isinstance(two, dict):
        for key in sorted(set(one) | set(two), key=str):
            if one.get(key, "<absent>") != two.get(key, "<absent>"):
                return difference(
                    one.get(key, "<absent>"), two.get(key, "<absent>"), f"{path}.{key}"
                )
    if isinstance(one, list) and isinstance(two, list) and len(one) == len(two):
        for i, (x, y) in enumerate(zip(one, two, strict=True)):
            if x != y:
                return difference(x, y, f"{path}[{i}]")
    return f"{path or 'value'}: {str(one)[:300]} != {str(two)[:300]}"


# --- secrets to vary ------------------------------------------------------------------


def swap_hands(kind: str, one: int, two: int) -> Callable[[list[Event], Rng], list[Event]]:
    """A setup patch: seats `one` and `two` swap one card of their `kind` deals, a card
    one holds and the other does not (chosen by the chance stream)."""

    def patch(events: list[Event], chance: Rng) -> list[Event]:
        events = copy.deepcopy(events)
        dealt = {e["payload"]["seat"]: e for e in events if e["type"] == kind}
        mine, theirs = dealt[one]["payload"]["cards"], dealt[two]["payload"]["cards"]
        giving = sorted({c for c in mine if c not in theirs}, key=str)
        taking = sorted({c for c in theirs if c not in mine}, key=str)
        if not giving or not taking:
            return events
        gave = giving[chance.below("give", len(giving))]
        took = taking[chance.below("take", len(taking))]
        mine[mine.index(gave)], theirs[theirs.index(took)] = took, gave
        mine.sort(key=str)
        theirs.sort(key=str)
        return events

    return patch


def swap_hidden(kind: str, key: str) -> Callable[[list[Event], Rng], list[Event]]:
    """A setup patch: two entries of a hidden list (a shuffled deck) change places."""

    def patch(events: list[Event], chance: Rng) -> list[Event]:
        events = copy.deepcopy(events)
        for hidden in (e for e in events if e["type"] == kind):
            pile = hidden["payload"][key]
            if len(pile) > 1:
                i = chance.below("first", len(pile))
                j = (i + 1 + chance.below("second", len(pile) - 1)) % len(pile)
                pile[i], pile[j] = pile[j], pile[i]
        return events

    return patch


def another(public: Callable[[Command], Any]) -> Callable[..., tuple[Command, Command] | None]:
    """A fork: the bot's command in game A, in game B another legal command of the seat
    that looks the same to everyone else."""

    def fork(state: game.State, seat: int, command: Command, chance: Rng):
        others = [
            c
            for c in game.legal(state, seat)
            if c != command and public(c) == public(command) and c["type"] == command["type"]
        ]
        return (command, others[chance.below("fork", len(others))]) if others else None

    return fork


def swap_layout(kind: str, key: str, shown: str) -> Callable[[list[Event], Rng], list[Event]]:
    """A setup patch: two face-down tiles of a hidden layout change places (tiles that
    the setup's `shown` events turn face up stay where they are)."""

    def patch(events: list[Event], chance: Rng) -> list[Event]:
        events = copy.deepcopy(events)
        face_up = {h for e in events if e["type"] == shown for h in e["payload"]["tiles"]}
        for hidden in (e for e in events if e["type"] == kind):
            layout = hidden["payload"][key]
            down = sorted(h for h in layout if h not in face_up and layout[h] is not None)
            tiles = sorted({str(layout[h]) for h in down})
            if len(tiles) < 2:
                continue
            i = chance.below("first", len(down))
            other = [h for h in down if str(layout[h]) != str(layout[down[i]])]
            j = other[chance.below("second", len(other))]
            layout[down[i]], layout[j] = layout[j], layout[down[i]]
        return events

    return patch
