"""The SQLite file's tables, indexes and the triggers that keep the log append-only.

The delete trigger alone does not stop INSERT OR REPLACE: SQLite fires it on a
replace only with PRAGMA recursive_triggers on, so a replace is refused on insert.
"""

import sqlite3

import sqlite_utils

TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'events are append-only: REPLACE refused'); END;
"""


def create(db: sqlite_utils.Database) -> None:
    """Create every table the store needs, if missing."""
    db.table("games").create(
        {"game_id": str, "ruleset": str, "seed": str, "created_at": str},
        pk="game_id",
        if_not_exists=True,
    )
    db.table("events").create(
        {
            "game_id": str,
            "seq": int,
            "type": str,
            "actor": str,
            "visibility": str,
            "state_hash": str,
            "recorded_at": str,
            "prev_hash": str,
            "hash": str,
            "event": str,
        },
        pk=("game_id", "seq"),
        not_null={"game_id", "seq", "type", "hash"},
        if_not_exists=True,
    )
    db.table("tokens").create(
        {"token_hash": str, "game_id": str, "role": str, "active": int},
        pk="token_hash",
        if_not_exists=True,
    )
    db.table("idempotency").create(
        {"game_id": str, "role": str, "key": str, "request": str, "status": int, "response": str},
        pk=("game_id", "role", "key"),
        if_not_exists=True,
    )
    db.table("snapshots").create(
        {"game_id": str, "seq": int, "state": str, "state_hash": str},
        pk=("game_id", "seq"),
        if_not_exists=True,
    )
    # derived from the log (each game's open round), rewritten with every append: the
    # sweeper's index of rounds to resolve; `armed` once a timed task is sent
    db.table("rounds_due").create(
        {"game_id": str, "round": int, "deadline": int, "ready": int, "paused": int, "armed": int},
        pk="game_id",
        not_null={"armed"},
        defaults={"armed": 0},
        if_not_exists=True,
    )
    add_column(db, "rounds_due", "armed INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX IF NOT EXISTS rounds_due_deadline ON rounds_due (deadline)")
    # derived from the log (each clocked game's running clocks), rewritten with every
    # append: the sweeper's index of turn clocks; `armed` once a timed task is sent
    db.table("clocks_due").create(
        {"game_id": str, "seat": int, "deadline": int, "armed": int},
        pk=("game_id", "seat"),
        if_not_exists=True,
    )
    db.execute("CREATE INDEX IF NOT EXISTS clocks_due_deadline ON clocks_due (deadline)")
    # derived from the log (the seats bots are to move in, at the game's version),
    # rewritten with every append of a game that has had bots: the sweeper sends again
    # a bot move whose task was lost (docs/bots.md)
    db.table("bots_due").create(
        {"game_id": str, "seat": int, "version": int, "sent_at": int},
        pk=("game_id", "seat"),
        if_not_exists=True,
    )
    db.execute("CREATE INDEX IF NOT EXISTS bots_due_sent ON bots_due (sent_at)")
    # notifications (docs/notifications.md): not the log, never hashed; a delivery per
    # notice and subscription, its `key` making a notice enqueued twice one delivery
    db.table("subscriptions").create(
        {
            "subscription_id": str,
            "game_id": str,
            "role": str,
            "kind": str,
            "url": str,
            "secrets": str,
            "kinds": str,
            "reminders": str,
            "active": int,
            "disabled_reason": str,
            "created_at": int,
        },
        pk="subscription_id",
        if_not_exists=True,
    )
    db.table("deliveries").create(
        {
            "delivery_id": str,
            "subscription_id": str,
            "game_id": str,
            "key": str,
            "seq": int,
            "kind": str,
            "notice": str,
            "status": str,
            "attempts": int,
            "next_at": int,
            "answer": str,
            "created_at": int,
            "updated_at": int,
        },
        pk="delivery_id",
        if_not_exists=True,
    )
    db.execute("CREATE INDEX IF NOT EXISTS subscriptions_game ON subscriptions (game_id)")
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS deliveries_key ON deliveries (key)")
    db.execute(
        "CREATE INDEX IF NOT EXISTS deliveries_log ON deliveries (subscription_id, created_at)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_at)")
    # logs a visitor uploaded to the replay page: scratch copies, not games, kept within
    # byte budgets (everyone's, each client address's) and a day at most
    uploads = db.table("uploads")
    uploads.create(
        {"digest": str, "uploaded_at": int, "client": str, "bytes": int, "log": bytes},
        pk="digest",
        if_not_exists=True,
    )
    if "client" not in uploads.columns_dict:  # a database from before the budgets
        uploads.add_column("client", str, not_null_default="")
        uploads.add_column("bytes", int, not_null_default=0)
        db.execute("UPDATE uploads SET bytes = length(log)")
    # the budgets are summed from these alone: a column after a log's bytes in the row
    # is read by walking the log's overflow pages
    db.execute("DROP INDEX IF EXISTS uploads_age")
    db.execute("CREATE INDEX IF NOT EXISTS uploads_held ON uploads (uploaded_at, bytes)")
    db.execute("CREATE INDEX IF NOT EXISTS uploads_client ON uploads (client, uploaded_at, bytes)")
    # what a readiness probe writes and takes back in one transaction (always empty)
    db.table("disk_probe").create({"pad": bytes}, if_not_exists=True)
    # where each game's next forum post starts (docs/pages.md, "Forum posts"): the last
    # event of the post its moderator marked as posted; bookkeeping, not the log
    db.table("posts").create(
        {"game_id": str, "since": int, "marked_at": int}, pk="game_id", if_not_exists=True
    )
    # derived from the log (GameForked events): which game each fork continues
    db.table("forks").create(
        {"game_id": str, "forked_from": str, "at": int}, pk="game_id", if_not_exists=True
    )
    db.executescript(TRIGGERS)


def add_column(db: sqlite_utils.Database, table: str, column: str) -> None:
    """Add a column (its SQL definition) that a file made by an earlier version lacks;
    its rows get the default, nothing is rewritten. Processes starting together on one
    file may race to add it: the one that loses finds it there."""
    name = column.split()[0]
    if name in db[table].columns_dict:
        return
    try:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    except sqlite3.OperationalError:
        if name not in db[table].columns_dict:
            raise
