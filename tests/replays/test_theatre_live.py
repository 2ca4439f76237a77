"""No replay reveals what the live game hid at that time: every corpus log is played again
through the service, batch by batch, and what a spectator was given after each batch (its
events and its view, as GET /games/{id}/events and GET /games/{id} answered) is what the
replay theatre shows the public at that seq. A seq inside a batch was never shown live on
its own: there the replay shows a prefix of the batch's events."""

from pathlib import Path

import pytest

from referee.cli import BOT_EPOCH
from referee.engine import game, registry
from referee.engine.canonical import canonical
from referee.engine.disputes import STAMPED
from referee.service import Referee
from referee.store import LogicalClock, open_store
from referee.theatre.stage import Eyes, Theatre
from replays.log import read

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
PUBLIC = Eyes("public", None)


def newest(log: Path) -> bool:
    """A log recorded under the ruleset's version of today (older ones cannot be played
    again as new games)."""
    created = read(str(log))[0]["payload"]
    return created["ruleset_version"] == registry.get(created["ruleset"]).VERSION


LOGS = [log for log in sorted(CORPUS.rglob("*.jsonl")) if newest(log)]


def played_live(log: Path, tmp_path: Path) -> tuple[list[dict], list[tuple[int, list, dict]]]:
    """The log's commands sent again through a fresh service; its stored log, and after
    each batch what a spectator was given: (last seq, events, view)."""
    recorded = read(str(log))
    created = recorded[0]["payload"]
    store = open_store(tmp_path / "live.db", clock=LogicalClock())
    referee = Referee(store, clock=lambda: BOT_EPOCH)
    game_id = recorded[0]["game_id"]
    referee.create_game(
        created["ruleset"],
        created["players"],
        created["options"],
        referee_seed(recorded),
        game_id=game_id,
        clock=created.get("clock"),
    )
    shown = [spectator(referee, game_id)]
    for event in recorded[len(store.events(game_id)) :]:
        if event["command"] is None or event["seq"] <= shown[-1][0]:
            continue
        command = {k: v for k, v in event["command"].items() if k not in ("now", *STAMPED)}
        referee.command(game_id, event["actor"], command, now=event["command"].get("now"))
        shown.append(spectator(referee, game_id))
    return store.events(game_id), shown


def referee_seed(recorded: list[dict]) -> str:
    return next(e["payload"]["seed"] for e in recorded if e["type"] == "SeedRevealed")


def spectator(referee: Referee, game_id: str) -> tuple[int, list, dict]:
    events = referee.events(game_id, None)["events"]
    return events[-1]["seq"], events, referee.view(game_id, None)


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_the_public_replay_at_each_seq_is_what_the_live_spectator_was_shown(log, tmp_path):
    events, shown = played_live(log, tmp_path)
    assert kinds(events) == kinds(read(str(log)))  # the same game again
    theatre = Theatre(events[0]["game_id"], events)
    before, had = 0, []
    for last, live_events, live_view in shown:
        if theatre.public_by(last) != theatre.public_by(before or 1):
            had = []  # the game ended: the whole log is shown again, whole
        assert canonical(live_events[: len(had)]) == canonical(had)  # shown before, unchanged
        for seq in range(len(had) + 1, last + 1):  # inside the batch too: a prefix of it
            assert canonical(theatre.seen(seq, PUBLIC, last)) == canonical(live_events[seq - 1])
            assert seq <= before or theatre.public_by(seq) == theatre.public_by(last)
        assert canonical(theatre.view(last, PUBLIC)) == canonical(live_view)
        before, had = last, live_events
    assert before == len(events) and game.is_over(theatre.state_at(len(events)))


def kinds(events: list[dict]) -> list[tuple]:
    """What happened, by whom (times and hashes differ: a log recorded second in a run of
    bot games has later times, and a GameCreated written before an option existed lacks
    it, where a game created today names it)."""
    return [(e["type"], e["actor"], canonical(e["command"])) for e in events]
