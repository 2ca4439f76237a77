"""`referee store copy` between SQLite files and PostgreSQL databases, either direction:
every row identical, a destination that holds games refused with nothing written, a copy
that stopped goes on with --merge, a missing source refused and not made."""

import sqlite3

import psycopg
import pytest
from command_line import run
from stores import store_target
from whole_store import PLAYERS, contents, fill

from referee.service import Referee
from referee.store import open_store
from referee.store.ops.copy import copy_store
from referee.store.ops.tables import GAME_TABLES, NOT_COPIED, UPLOADS


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A SQLite store with some of everything in it; its path."""
    path = tmp_path_factory.mktemp("source") / "source.db"
    fill(open_store(path))
    return path


@pytest.fixture(scope="module")
def whole(source):
    """Every row of the source store."""
    return contents(open_store(source, create=False))


def other_store(target):
    """A store holding one game the source does not have."""
    store = open_store(target)
    Referee(store).create_game("galloping-horse", PLAYERS, {}, "x", game_id="elsewhere")
    return store


def test_a_copy_to_postgresql_and_back_holds_every_row_of_every_table(
    source, whole, postgres_url, tmp_path
):
    there = run("store", "copy", source, postgres_url)
    assert there.exit_code == 0, there.output
    assert f"copied 8 games ({len(whole['events']):,} events) and 3 uploads" in there.output
    assert "verified 8 games" in there.output and "every last hash the source's" in there.output
    back = tmp_path / "back.db"
    again = run("store", "copy", postgres_url, back)
    assert again.exit_code == 0, again.output
    assert contents(open_store(postgres_url)) == whole
    assert contents(open_store(back)) == whole
    # the stored text of each event, byte for byte, and the order games were stored in
    for copy in (open_store(postgres_url), open_store(back)):
        assert copy.game_ids() == open_store(source, create=False).game_ids()
        for game_id in copy.game_ids():
            assert copy.log_lines(game_id) == open_store(source).log_lines(game_id)


def test_a_copy_within_one_backend_holds_every_row(backend, source, whole, tmp_path, request):
    first = store_target(backend, tmp_path / "first.db", request)
    second = store_target(backend, tmp_path / "second.db", request, another=True)
    assert run("store", "copy", source, first).exit_code == 0
    copied = run("store", "copy", first, second)
    assert copied.exit_code == 0, copied.output
    assert contents(open_store(second)) == whole


def test_a_destination_that_holds_a_game_is_refused_and_nothing_is_written(
    backend, source, tmp_path, request
):
    target = store_target(backend, tmp_path / "held.db", request)
    before = contents(other_store(target))
    refused = run("store", "copy", source, target)
    assert refused.exit_code == 1
    assert "copy/not_empty" in refused.output and "holds 1 games already" in refused.output
    assert contents(open_store(target)) == before


def test_a_game_there_with_another_log_is_named_and_nothing_is_written(source, postgres_url):
    store = open_store(postgres_url)
    # the same id as one of the source's games, another game
    Referee(store).create_game("dark-horse", PLAYERS, {}, "x", game_id="dark-horse-whole")
    before = contents(store)
    refused = run("store", "copy", source, postgres_url, "--merge")
    assert refused.exit_code == 1
    assert "copy/game_differs: game dark-horse-whole is in" in refused.output
    assert contents(store) == before


def test_a_copy_that_stopped_goes_on_with_merge_and_ends_identical(
    backend, source, whole, tmp_path, request
):
    target = store_target(backend, tmp_path / "target.db", request)
    destination = open_store(target)
    commits = []

    def fail_at_the_fourth_game() -> None:
        commits.append(1)
        if len(commits) == 4:
            raise OSError("the machine went down")

    destination.before_commit = fail_at_the_fourth_game
    with pytest.raises(OSError):
        copy_store(open_store(source, create=False), destination)
    destination.before_commit = None
    held = destination.game_ids()
    assert held == open_store(source, create=False).game_ids()[:3]
    # each game there is whole: its log ends where the source's does
    for game_id in held:
        assert destination.log_lines(game_id) == open_store(source).log_lines(game_id)
    assert "copy/not_empty" in run("store", "copy", source, target).output
    resumed = run("store", "copy", source, target, "--merge")
    assert resumed.exit_code == 0, resumed.output
    assert "copied 5 games" in resumed.output and "3 games already there skipped" in resumed.output
    assert "verified 8 games" in resumed.output
    assert contents(open_store(target)) == whole


def test_a_missing_source_is_refused_and_nothing_is_made(tmp_path):
    refused = run("store", "copy", tmp_path / "missing.db", tmp_path / "copy.db")
    assert refused.exit_code == 1
    assert "store/not_found: no such store" in refused.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_source_that_is_no_store_is_refused(tmp_path):
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE notes (text TEXT)")
    refused = run("store", "copy", tmp_path / "other.db", tmp_path / "copy.db")
    assert refused.exit_code == 1 and "store/not_a_store" in refused.output
    assert not (tmp_path / "copy.db").exists()


def test_the_tables_copied_are_every_table_of_both_backends(tmp_path, postgres_url):
    declared = {table: set(columns) for table, (columns, _) in GAME_TABLES.items()}
    declared["uploads"] = set(UPLOADS)
    kept = sqlite3.connect(open_store(tmp_path / "s.db").path)
    names = [r[0] for r in kept.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    in_sqlite = {
        name: {row[1] for row in kept.execute(f"PRAGMA table_info({name})")} for name in names
    }
    open_store(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public'"
        ).fetchall()
    in_postgres: dict[str, set[str]] = {}
    for table, column in rows:
        in_postgres.setdefault(table, set()).add(column)
    for table in ("games", "uploads"):  # the order they were stored in, numbered anew
        in_postgres[table].discard("n")
    for found in (in_sqlite, in_postgres):
        assert {t: c for t, c in found.items() if t not in NOT_COPIED} == declared


def test_a_service_copied_to_postgresql_is_served_from_it_and_its_links_still_work(
    tmp_path, postgres_url
):
    """A moderator's SQLite service moves to PostgreSQL: the app on the copy shows the
    game, the seats' links made before the move still work, the game goes on, and its log
    verifies."""
    from referee.app import create_app
    from replays.verify import verify_bytes

    path = tmp_path / "before.db"
    created = Referee(open_store(path)).create_game("galloping-horse", PLAYERS, {}, "moved")
    assert run("store", "copy", path, postgres_url).exit_code == 0
    client = create_app({"REFEREE_DB": postgres_url, "TESTING": True}).test_client()
    game_id = created["game_id"]
    shown = client.get(f"/games/{game_id}").get_json()
    seat = shown["to_move"][0]
    auth = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
    legal = client.get(f"/games/{game_id}", headers=auth).get_json()["legal"]
    answer = client.post(f"/games/{game_id}/commands", json=legal[0], headers=auth)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["version"] == shown["version"] + len(answer.get_json()["events"])
    assert verify_bytes(open_store(postgres_url).log_lines(game_id)).valid
