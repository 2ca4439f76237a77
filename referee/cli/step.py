"""`referee replay step`: walk a log one event at a time, as a seat, a spectator or the
moderator saw each event, with the viewer's view after it or at a prompt."""

import json

import click

from ..engine import game
from ..engine.canonical import canonical
from ..engine.errors import RefereeError
from ..engine.events import MODERATOR
from ..engine.fork import batch_end
from ..service import Viewer, presented
from .logs import read_log

PROMPT_HELP = "Enter or n: next, p: previous, g SEQ: go to SEQ, v: the view now, q: quit"


class Replay:
    """A log and the states after its events, folded one event at a time as far as the
    walk has gone and kept for going back."""

    def __init__(self, events: list[game.Record]) -> None:
        self.events = events
        self.states: list[game.State] = []

    @property
    def game_id(self) -> str:
        """The game the log belongs to."""
        return self.events[0].get("game_id", "")

    def state_at(self, seq: int) -> game.State:
        """The state after event `seq`, folding only the events not folded yet."""
        while len(self.states) < seq:
            before = self.states[-1] if self.states else None
            self.states.append(replayed(before, self.events[len(self.states)]))
        return self.states[seq - 1]

    def over_by(self, seq: int) -> bool:
        """Whether the game was over once the batch holding event `seq` was appended: the
        first moment anyone could see the event."""
        return game.is_over(self.state_at(batch_end(self.events, seq)))

    def checked(self, seq: int) -> int:
        """The seq, if the log holds it."""
        if seq > len(self.events):
            raise click.ClickException(f"the log has {len(self.events)} events, no seq {seq}")
        return seq

    def span(self, first: int, last: int | None) -> range:
        """The seqs from `first` to `last` (the last event when None)."""
        last = self.checked(len(self.events) if last is None else last)
        if self.checked(first) > last:
            raise click.ClickException(f"--from {first} is after --to {last}")
        return range(first, last + 1)


def replayed(state: game.State | None, event: game.Record) -> game.State:
    """The state after one more event of a log, or a clean error for a malformed one."""
    try:
        return game.apply(state, event)
    except (AssertionError, KeyError, TypeError, ValueError, RefereeError) as exc:
        where = f"seq {event.get('seq')} ({event.get('type')})"
        raise click.ClickException(f"{where} cannot be replayed: {exc!r}") from None


def chosen_viewer(seat: int | None, spectator: bool) -> Viewer:
    """Whose eyes: a seat, a spectator (None) or, given neither, the moderator."""
    if seat is not None and spectator:
        raise click.UsageError("give --seat or --spectator, not both")
    if spectator:
        return None
    return MODERATOR if seat is None else seat


def check_seat(replay: Replay, viewer: Viewer) -> None:
    """A seat viewer must be at the table."""
    seats = len(replay.state_at(1)["players"])
    if isinstance(viewer, int) and viewer not in range(seats):
        raise click.ClickException(f"no seat {viewer}: --seat takes a seat id, 0-{seats - 1}")


def event_line(record: game.Record) -> str:
    """One event on one line: seq, type, actor, then its payload; a hidden one, its seq."""
    if record.get("redacted"):
        return f"{record['seq']:>5}  [hidden]"
    shown = canonical(record.get("payload")).decode()
    return f"{record['seq']:>5}  {record['type']:<24} {record['actor']!s:<9}  {shown}"


def show_event(replay: Replay, viewer: Viewer, seq: int, with_view: bool) -> None:
    """Event `seq` as the viewer saw it, and with `with_view` its view just after."""
    seen = game.redact(replay.events[seq - 1], viewer, replay.over_by(seq))
    click.echo(event_line(seen))
    if with_view:
        show_view(replay, viewer, seq)


def show_view(replay: Replay, viewer: Viewer, seq: int) -> None:
    """The viewer's view after event `seq`, as GET /games/{id} gave it then."""
    shown = presented(replay.game_id, replay.state_at(seq), viewer)
    click.echo(json.dumps(shown, indent=2, sort_keys=True))


def destination(answer: str, seq: int, span: range) -> int | None:
    """The seq an answer at the prompt moves to (one past the span ends the walk), or
    None to stay, after saying why."""
    words = answer.split()
    if words in ([], ["n"]):
        return seq + 1
    wanted = seq - 1 if words == ["p"] else _sought(words)
    if wanted is None:
        click.echo(PROMPT_HELP)
    elif wanted not in span:
        click.echo(f"no seq {wanted} here: seqs {span.start}-{span[-1]}")
    else:
        return wanted
    return None


def _sought(words: list[str]) -> int | None:
    """The seq of a `g SEQ` answer, else None."""
    if len(words) == 2 and words[0] == "g" and words[1].isdigit():
        return int(words[1])
    return None


def navigate(replay: Replay, viewer: Viewer, span: range, with_view: bool) -> None:
    """Walk the span at a prompt, from its first event, until q or past its end."""
    seq = span.start
    show_event(replay, viewer, seq, with_view)
    while True:
        answer = click.prompt(f"seq {seq} [n,p,g SEQ,v,q]", default="", show_default=False)
        if answer.strip() == "q":
            return
        if answer.strip() == "v":
            show_view(replay, viewer, seq)
            continue
        target = destination(answer, seq, span)
        if target is not None and target not in span:
            return
        if target is not None:
            seq = target
            show_event(replay, viewer, seq, with_view)


@click.command("step")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--seat",
    type=int,
    default=None,
    help="As this seat saw it: its id, 0 for the first [the moderator].",
)
@click.option("--spectator", is_flag=True, help="Instead of --seat: as a spectator saw it.")
@click.option("--from", "first", type=click.IntRange(1), default=1, help="First seq [1].")
@click.option("--to", "last", type=click.IntRange(1), default=None, help="Last seq [the end].")
@click.option("--view", "with_view", is_flag=True, help="Each event's view after it, too.")
@click.option("--interactive", is_flag=True, help="A prompt after each event (n, p, g, v, q).")
def step(file, seat, spectator, first, last, with_view, interactive) -> None:
    """Walk a log event by event, each as the seat, the spectator or the moderator saw it
    once its command's batch was appended (so a batch that ended the game is shown whole)."""
    viewer = chosen_viewer(seat, spectator)
    replay = Replay(read_log(file))
    check_seat(replay, viewer)
    span = replay.span(first, last)
    if interactive:
        navigate(replay, viewer, span, with_view)
        return
    for seq in span:
        show_event(replay, viewer, seq, with_view)
