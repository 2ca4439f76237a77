"""Copy a store into another, either backend into either: every game with its log byte
for byte and its rows in every other table, each game in one transaction of the
destination, then every upload; read from one snapshot of the source, so that a copy of
a store in use is the store at one moment. A copy that stopped goes on with `merge`:
the games already there with the same log are skipped."""

from dataclasses import dataclass, field

from ...engine.errors import Conflict
from ..contract import Conn, EventStore
from .logs import Step
from .tables import (
    Read,
    Tail,
    copy_upload,
    game_rows,
    game_tails,
    put_game,
    stray_rows,
    through,
    upload_digests,
)


@dataclass
class Copied:
    """What a copy did, and what each game of the source ends with (to verify it by)."""

    games: int = 0
    events: int = 0
    skipped: int = 0  # there already with the same log
    uploads: int = 0
    tails: dict[str, Tail] = field(default_factory=dict)
    stray: dict[str, int] = field(default_factory=dict)  # rows of no stored game, left


def copy_store(
    source: EventStore,
    destination: EventStore,
    *,
    merge: bool = False,
    step: Step | None = None,
) -> Copied:
    """Copy every game and upload of `source` into `destination`, game by game; refused,
    with nothing written, if the destination holds a game (unless `merge`), or one of
    the source's games with another log (`merge` or not)."""
    with source.snapshot() as conn:
        read = through(conn)
        copied = Copied(tails=game_tails(read, source.INSERTION_ORDER), stray=stray_rows(read))
        held = game_tails(destination.query, destination.INSERTION_ORDER)
        todo = _todo(copied.tails, held, merge=merge, where=destination.where)
        copied.skipped = len(copied.tails) - len(todo)
        for done, game_id in enumerate(todo, start=1):
            copied.events += _copy_game(read, destination, game_id)
            copied.games += 1
            if step is not None:
                step("copying", done, len(todo))
        copied.uploads = _copy_uploads(read, source.INSERTION_ORDER, destination)
    return copied


def copy_into(read: Read, order: str, conn: Conn, *, step: Step | None = None) -> Copied:
    """Copy every game and upload `read` finds (`order`: its store's INSERTION_ORDER)
    into an empty store's open transaction."""
    copied = Copied(tails=game_tails(read, order), stray=stray_rows(read))
    for done, game_id in enumerate(copied.tails, start=1):
        copied.events += put_game(conn, game_rows(read, game_id))
        copied.games += 1
        if step is not None:
            step("copying", done, len(copied.tails))
    for digest in upload_digests(read, order):
        copy_upload(read, conn, digest)
        copied.uploads += 1
    return copied


def _todo(source: dict[str, Tail], held: dict[str, Tail], *, merge: bool, where: str) -> list[str]:
    """The source's games to copy, in its order; Conflict before anything is written if
    the destination holds games (without `merge`) or holds one with another log."""
    if held and not merge:
        same = sum(1 for game_id, tail in held.items() if source.get(game_id) == tail)
        raise Conflict(
            "copy/not_empty",
            f"{where} holds {len(held)} games already ({same} of them with the same log as"
            " here): nothing was copied; --merge copies the rest beside them (a copy that"
            " stopped goes on so)",
            {"games": len(held), "same": same},
        )
    differing = [g for g in source if g in held and held[g][1] != source[g][1]]
    if differing:
        raise Conflict(
            "copy/game_differs",
            f"game {differing[0]} is in {where} with another log"
            f"{f' (and {len(differing) - 1} more)' if len(differing) > 1 else ''}:"
            " nothing was copied",
            {"games": differing},
        )
    return [game_id for game_id in source if game_id not in held]


def _copy_game(read: Read, destination: EventStore, game_id: str) -> int:
    """One game's rows in one transaction of the destination; its number of events."""
    rows = game_rows(read, game_id)
    try:
        with destination.transaction() as conn:
            return put_game(conn, rows)
    except Exception as exc:
        if not destination.is_clash(exc):
            raise
        raise Conflict(
            "copy/game_differs",
            f"game {game_id} was stored in {destination.where} while copying: nothing of it"
            " was written",
            {"games": [game_id]},
        ) from None


def _copy_uploads(read: Read, order: str, destination: EventStore) -> int:
    """The uploads the destination lacks (an upload's digest names its bytes), in one
    transaction; how many."""
    held = set(upload_digests(destination.query, destination.INSERTION_ORDER))
    missing = [digest for digest in upload_digests(read, order) if digest not in held]
    if missing:
        with destination.transaction() as conn:
            for digest in missing:
                copy_upload(read, conn, digest)
    return len(missing)
