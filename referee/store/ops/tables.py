"""What a store holds, table by table, as both backends keep it: the rows of each game
(its log and what goes with it) and the rows of no game (uploads). Read through one
connection and written through another, in the contract's SQL (`?` for a parameter)."""

from collections.abc import Callable

from ..contract import COLUMNS, Conn

Read = Callable[..., list[tuple]]
Rows = dict[str, list[tuple]]
Tail = tuple[int, str | None]  # a game's number of events and its last hash

# the tables that belong to a game by its game_id: their columns, and the key that orders
# a game's rows (PostgreSQL's `games` has an identity column too, `n`, numbered anew)
GAME_TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "games": (("game_id", "ruleset", "seed", "created_at"), "game_id"),
    "events": (COLUMNS, "seq"),
    "tokens": (("token_hash", "game_id", "role", "active"), "token_hash"),
    "idempotency": (("game_id", "role", "key", "request", "status", "response"), "role, key"),
    "snapshots": (("game_id", "seq", "state", "state_hash"), "seq"),
    "rounds_due": (("game_id", "round", "deadline", "ready", "paused", "armed"), "game_id"),
    "clocks_due": (("game_id", "seat", "deadline", "armed"), "seat"),
    "bots_due": (("game_id", "seat", "version", "sent_at"), "seat"),
    "subscriptions": (
        (
            "subscription_id",
            "game_id",
            "role",
            "kind",
            "url",
            "secrets",
            "kinds",
            "reminders",
            "active",
            "disabled_reason",
            "created_at",
        ),
        "subscription_id",
    ),
    "deliveries": (
        (
            "delivery_id",
            "subscription_id",
            "game_id",
            "key",
            "seq",
            "kind",
            "notice",
            "status",
            "attempts",
            "next_at",
            "answer",
            "created_at",
            "updated_at",
        ),
        "delivery_id",
    ),
    "posts": (("game_id", "since", "marked_at"), "game_id"),
    "forks": (("game_id", "forked_from", "at"), "game_id"),
}
# logs visitors uploaded to the replay page: no game's (PostgreSQL's has `n` too)
UPLOADS = ("digest", "uploaded_at", "client", "bytes", "log")
# what a store keeps and a copy leaves out: always empty (a probe takes back what it
# writes in its own transaction); PostgreSQL's record of its migrations; and the pages'
# session key its machines share, which the copy's first machine makes anew where none
# is kept (a SQLite file keeps none: its machine holds it in a file beside it), so that
# no backup holds it and page sessions start again after a move
NOT_COPIED = ("disk_probe", "schema_version", "secrets")
# every game's number of events and last hash, in the order the games were stored
TAILS = """
SELECT g.game_id, coalesce(t.events, 0), e.hash FROM games g
LEFT JOIN (SELECT game_id, count(*) AS events, max(seq) AS last FROM events GROUP BY game_id) t
  ON t.game_id = g.game_id
LEFT JOIN events e ON e.game_id = t.game_id AND e.seq = t.last
ORDER BY g.{order}
"""


def through(conn: Conn) -> Read:
    """Reads through a connection, as a store's `query` reads."""
    return lambda sql, args=(): conn.execute(sql, args).fetchall()


def game_tails(read: Read, order: str) -> dict[str, Tail]:
    """Every game's (events, last hash), in the order the store took them (`order`: the
    store's INSERTION_ORDER)."""
    return {row[0]: (row[1], row[2]) for row in read(TAILS.format(order=order))}


def game_rows(read: Read, game_id: str) -> Rows:
    """A game's rows in every table that belongs to it, each table in its key's order."""
    return {
        table: read(
            f"SELECT {', '.join(columns)} FROM {table} WHERE game_id = ? ORDER BY {key}",
            (game_id,),
        )
        for table, (columns, key) in GAME_TABLES.items()
    }


def put_game(conn: Conn, rows: Rows) -> int:
    """Insert a game's rows (as game_rows read them); the number of its events."""
    for table, found in rows.items():
        if found:
            conn.executemany(insert(table, GAME_TABLES[table][0]), found)
    return len(rows["events"])


def upload_digests(read: Read, order: str) -> list[str]:
    """The uploads kept, oldest first."""
    return [row[0] for row in read(f"SELECT digest FROM uploads ORDER BY {order}")]


def copy_upload(read: Read, conn: Conn, digest: str) -> None:
    """One upload read and written (one at a time: each may be megabytes)."""
    row = read(f"SELECT {', '.join(UPLOADS)} FROM uploads WHERE digest = ?", (digest,))[0]
    conn.execute(insert("uploads", UPLOADS), (*row[:-1], bytes(row[-1])))


def stray_rows(read: Read) -> dict[str, int]:
    """Rows of the tables of games that belong to no stored game (a copy leaves them)."""
    found = {}
    for table in list(GAME_TABLES)[1:]:  # every table but games itself
        sql = f"SELECT count(*) FROM {table} WHERE game_id NOT IN (SELECT game_id FROM games)"
        count = read(sql)[0][0]
        if count:
            found[table] = count
    return found


def insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
