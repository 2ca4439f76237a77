"""Subscriptions and the record of their deliveries (docs/notifications.md); working out
what a batch of events tells each subscription, and sending it, is deliveries.py.

A seat or the moderator subscribes a target to a game: a webhook URL (signed as the
Standard Webhooks specification says, so a receiver checks it with an existing library)
or an Apprise URL (Discord, Slack, Matrix, Telegram, e-mail by mailto://...). After every
append the referee works out the notices each subscription's owner is due, from the log
as that owner may see it, and records one delivery per notice, all in one transaction; a
Celery task sends a batch of them side by side on kept connections, each at least once,
retried with backoff for some five and a half hours. A target reaches only
public addresses unless the operator allows others (reach.py). Nothing here enters the
game's log, and a failure here never blocks a command.
"""

import base64
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.errors import BadRequest, Conflict, NotFound
from ..store import EventStore
from . import notices, reach
from .reach import AllowList

log = logging.getLogger("referee.notify")
# seconds to wait after each failed attempt: the 8th failure, some 5.6 hours after the
# first, stops the subscription (docs/notifications.md says why so soon)
BACKOFF = (10, 60, 300, 1800, 3600, 7200, 7200)
GIVE_UP_AFTER = sum(BACKOFF)
# subscriptions a seat (or the moderator) may hold in a game, and a game in all: each one
# is worked out and recorded after every command
MAX_PER_ROLE = 5
MAX_PER_GAME = 30
# a delivery being sent is not sent again by the sweeper for this long (a batch takes at
# most two rounds of 2 * deliveries.SEND_TIMEOUT)
LEASE = 60
SECRET_OVERLAP = 86400  # a rotated-out webhook secret still signs for a day
# a delivery handed to a sender when it was recorded is left to that sender's task this
# long before the sweeper sends it again (the task may wait behind others: sending the
# whole queue again every sweep would only lengthen it)
HANDED_GRACE = 30
MAX_REMINDERS = 5
KINDS = ("webhook", "apprise")
SUBSCRIPTION_COLUMNS = (
    "subscription_id, game_id, role, kind, url, secrets, kinds, reminders, active,"
    " disabled_reason, created_at"
)


class Subscriptions:
    """The subscriptions and deliveries of one store."""

    def __init__(self, store: EventStore, clock: Callable[[], int]) -> None:
        self.store = store
        self.clock = clock
        self.allow = AllowList()  # the private targets the operator admits (NOTIFY_ALLOW)
        self.max_per_role = MAX_PER_ROLE
        self.max_per_game = MAX_PER_GAME

    # --- subscriptions -------------------------------------------------------------

    def subscribe(self, game_id: str, role: str, body: dict[str, Any]) -> dict[str, Any]:
        """A new subscription of the role's; a webhook's signing secret is shown once."""
        kind, url = body["kind"], body["url"]
        self._check_room(None, game_id, role)
        reach.check_target(kind, url, self.allow)
        allowed = notices.FOR_MODERATOR if role == "moderator" else notices.FOR_SEATS
        kinds = body.get("events") or [k for k in allowed if k not in notices.ASKED_FOR]
        unknown = [k for k in kinds if k not in allowed]
        if unknown:
            raise BadRequest(
                "subscription/invalid",
                f"no notice {unknown[0]!r} for this subscriber",
                {"field": "events", "known": list(allowed)},
            )
        reminders = sorted(set(body.get("reminders") or []), reverse=True)
        secret = new_secret() if kind == "webhook" else None
        keys = [{"secret": secret, "until": None}] if secret else []
        row = {
            "subscription_id": "sub_" + secrets.token_hex(8),
            "game_id": game_id,
            "role": role,
            "kind": kind,
            "url": url,
            "secrets": json.dumps(keys),
            "kinds": json.dumps(kinds),
            "reminders": json.dumps(reminders),
            "active": 1,
            "disabled_reason": None,
            "created_at": self.clock(),
        }
        with self.store.transaction() as conn:
            self._check_room(conn, game_id, role)  # again: another may have come meanwhile
            conn.execute(
                f"INSERT INTO subscriptions ({SUBSCRIPTION_COLUMNS}) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tuple(row.values()),
            )
        shown = _shown(row)
        if secret:
            shown["secret"] = secret
        return shown

    def configure(self, config: Mapping[str, Any]) -> None:
        """The app's settings: NOTIFY_ALLOW, NOTIFY_MAX_PER_ROLE, NOTIFY_MAX_PER_GAME."""
        self.allow = AllowList.parse(config.get("NOTIFY_ALLOW"))
        self.max_per_role = config.get("NOTIFY_MAX_PER_ROLE", MAX_PER_ROLE)
        self.max_per_game = config.get("NOTIFY_MAX_PER_GAME", MAX_PER_GAME)

    def _check_room(self, conn: Any, game_id: str, role: str) -> None:
        """409 when the role, or the game, holds as many subscriptions as it may (`conn`:
        inside the transaction that adds one)."""
        sql = (
            "SELECT count(CASE WHEN role = ? THEN 1 END), count(*) FROM subscriptions"
            " WHERE game_id = ?"
        )
        counted = (
            conn.execute(sql, (role, game_id)).fetchone()
            if conn is not None
            else self.store.query_one(sql, (role, game_id))
        )
        mine, all_ = counted or (0, 0)
        if mine >= self.max_per_role:
            raise Conflict(
                "subscription/too_many",
                f"you hold {mine} subscriptions to this game, the most one may; remove one first",
                {"limit": self.max_per_role, "per": "seat or moderator"},
            )
        if all_ >= self.max_per_game:
            raise Conflict(
                "subscription/too_many",
                f"this game has {all_} subscriptions, the most it may; one must be removed first",
                {"limit": self.max_per_game, "per": "game"},
            )

    def one(self, subscription_id: str) -> dict[str, Any] | None:
        """A subscription as stored, by its id."""
        rows = self.store.columns(
            f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE subscription_id = ?",
            (subscription_id,),
        )
        return rows[0] if rows else None

    def of(self, game_id: str, role: str | None = None) -> list[dict[str, Any]]:
        """A game's subscriptions (a role's only, when given), as stored."""
        sql = f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE game_id = ?"
        args: tuple = (game_id,)
        if role is not None:
            sql, args = sql + " AND role = ?", (game_id, role)
        return self.store.columns(sql + " ORDER BY created_at, subscription_id", args)

    def owned(self, game_id: str, role: str, subscription_id: str) -> dict[str, Any]:
        """One of the role's subscriptions (404 for anyone else's)."""
        for row in self.of(game_id, role):
            if row["subscription_id"] == subscription_id:
                return row
        raise NotFound("subscription/not_found", "no such subscription of yours", {})

    def listed(self, game_id: str, role: str) -> list[dict[str, Any]]:
        return [_shown(row) for row in self.of(game_id, role)]

    def unsubscribe(self, game_id: str, role: str, subscription_id: str) -> None:
        self.owned(game_id, role, subscription_id)
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM subscriptions WHERE subscription_id = ?", (subscription_id,))

    def rotate(self, game_id: str, role: str, subscription_id: str) -> dict[str, Any]:
        """A new webhook secret; the old one still signs for SECRET_OVERLAP seconds, so
        both are valid at once while the receiver changes over."""
        row = self.owned(game_id, role, subscription_id)
        if row["kind"] != "webhook":
            raise BadRequest("subscription/invalid", "only a webhook has a secret", {})
        now = self.clock()
        kept = [
            {**k, "until": k["until"] or now + SECRET_OVERLAP}
            for k in json.loads(row["secrets"])
            if k["until"] is None or k["until"] > now
        ]
        secret = new_secret()
        keys = [{"secret": secret, "until": None}, *kept]
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE subscriptions SET secrets = ? WHERE subscription_id = ?",
                (json.dumps(keys), subscription_id),
            )
        return {**_shown({**row, "secrets": json.dumps(keys)}), "secret": secret}

    # --- deliveries ----------------------------------------------------------------

    def record(
        self, found: list[tuple[dict[str, Any], list[dict[str, Any]]]], at: int
    ) -> list[str]:
        """A delivery per notice of each (subscription, its notices), one only however
        often the same notice is found, all in one transaction; the ids of those new and
        due by `at`."""
        due = []
        now = self.clock()
        with self.store.transaction() as conn:
            for subscription, theirs in found:
                for notice in theirs:
                    delivery_id = "msg_" + secrets.token_hex(10)
                    when = notice.pop("send_at", now)
                    cursor = conn.execute(
                        "INSERT INTO deliveries (delivery_id, subscription_id, game_id,"
                        " key, seq, kind, notice, status, attempts, next_at, answer,"
                        " created_at, updated_at) VALUES"
                        " (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)"
                        " ON CONFLICT DO NOTHING",
                        (
                            delivery_id,
                            subscription["subscription_id"],
                            subscription["game_id"],
                            _key(subscription, notice),
                            notice["seq"],
                            notice["kind"],
                            json.dumps(notice, sort_keys=True),
                            when,
                            now,
                            now,
                        ),
                    )
                    if cursor.rowcount and when <= at:
                        due.append(delivery_id)
        return due

    def due(self, now: int, *, grace: int = 0) -> list[str]:
        """Pending deliveries whose time has come (first attempts, retries, reminders);
        one handed to a sender as it was recorded or sent again (its `next_at` is still
        when that was) only once it is `grace` seconds old."""
        rows = self.store.query(
            "SELECT delivery_id FROM deliveries WHERE status = 'pending' AND next_at <= ?"
            " AND NOT (next_at = updated_at AND updated_at > ?)"
            " ORDER BY next_at, delivery_id LIMIT 1000",
            (now, now - grace),
        )
        return [row[0] for row in rows]

    def claim(self, delivery_ids: list[str], now: int) -> list[dict[str, Any]]:
        """Those of the deliveries that are due, each with its subscription (None when it
        was removed), leased to this sender for LEASE seconds in one transaction; none
        that is not due, already sent, or being sent."""
        if not delivery_ids:
            return []
        marks = ", ".join("?" * len(delivery_ids))
        with self.store.transaction() as conn:
            rows = conn.execute(
                "UPDATE deliveries SET next_at = ? WHERE status = 'pending' AND next_at <= ?"
                f" AND delivery_id IN ({marks})"
                " RETURNING delivery_id, subscription_id, notice, attempts",
                (now + LEASE, now, *delivery_ids),
            ).fetchall()
        held = self._subscriptions(sorted({row[1] for row in rows}))
        order = {delivery_id: n for n, delivery_id in enumerate(delivery_ids)}
        return [
            {
                "delivery_id": row[0],
                "notice": json.loads(row[2]),
                "attempts": row[3],
                "subscription": held.get(row[1]),
            }
            for row in sorted(rows, key=lambda row: order[row[0]])
        ]

    def _subscriptions(self, subscription_ids: list[str]) -> dict[str, dict[str, Any]]:
        if not subscription_ids:
            return {}
        marks = ", ".join("?" * len(subscription_ids))
        rows = self.store.columns(
            f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE subscription_id IN ({marks})",
            tuple(subscription_ids),
        )
        return {row["subscription_id"]: row for row in rows}

    def settle(self, attempts: list[tuple[dict[str, Any], str, str]], now: int) -> dict[str, str]:
        """Write what became of claimed deliveries, each (claimed, `delivered`, `dropped`
        or `failed`, what happened), in one transaction; each one's outcome: `delivered`,
        `dropped`, `retrying` or `failed` (the last attempt: the subscription stopped)."""
        outcomes = {}
        with self.store.transaction() as conn:
            for claimed, status, detail in attempts:
                delivery_id = claimed["delivery_id"]
                if status == "failed":
                    outcomes[delivery_id] = self._failed(conn, claimed, detail, now)
                    continue
                answer = "delivered" if status == "delivered" else detail
                conn.execute(
                    "UPDATE deliveries SET status = ?, answer = ?, updated_at = ?,"
                    " attempts = attempts + ? WHERE delivery_id = ?",
                    (status, answer[:500], now, int(status == "delivered"), delivery_id),
                )
                outcomes[delivery_id] = status
        return outcomes

    def _failed(self, conn: Any, claimed: dict[str, Any], detail: str, now: int) -> str:
        """A failed attempt: retried after the next backoff, or (the last) given up and
        the subscription stopped. What the target answered goes to the service's log
        only: its owner learns nothing of what its URL reaches but delivered or not."""
        attempts = claimed["attempts"] + 1
        delivery_id = claimed["delivery_id"]
        subscription_id = claimed["subscription"]["subscription_id"]
        log.info("delivery %s (%s) attempt %d: %s", delivery_id, subscription_id, attempts, detail)
        if attempts <= len(BACKOFF):
            conn.execute(
                "UPDATE deliveries SET attempts = ?, next_at = ?, answer = ?, updated_at = ?"
                " WHERE delivery_id = ?",
                (attempts, now + BACKOFF[attempts - 1], SAID["failed"], now, delivery_id),
            )
            return "retrying"
        conn.execute(
            "UPDATE deliveries SET status = 'failed', answer = ?, updated_at = ?,"
            " attempts = ? WHERE delivery_id = ?",
            (SAID["gave_up"], now, attempts, delivery_id),
        )
        reason = (
            f"none of {attempts} attempts over {GIVE_UP_AFTER / 3600:.1f} hours was delivered;"
            " send one again to start again"
        )
        conn.execute(
            "UPDATE subscriptions SET active = 0, disabled_reason = ? WHERE subscription_id = ?",
            (reason, subscription_id),
        )
        log.warning("subscription %s stopped: the last attempt: %s", subscription_id, detail)
        return "failed"

    def deliveries(self, game_id: str, role: str, subscription_id: str) -> list[dict[str, Any]]:
        """The delivery log of one of the role's subscriptions, newest first."""
        self.owned(game_id, role, subscription_id)
        return self.log_of(subscription_id)

    def log_of(
        self, subscription_id: str, *, limit: int = 200, delivery_id: str | None = None
    ) -> list[dict[str, Any]]:
        """A subscription's deliveries (or the one named), newest first."""
        sql = (
            "SELECT delivery_id, seq, kind, status, attempts, answer, created_at, updated_at,"
            " next_at FROM deliveries WHERE subscription_id = ?"
        )
        args: tuple = (subscription_id,)
        if delivery_id is not None:
            sql, args = sql + " AND delivery_id = ?", (subscription_id, delivery_id)
        rows = self.store.columns(
            sql + " ORDER BY created_at DESC, delivery_id LIMIT ?", (*args, limit)
        )
        return [_told(row) for row in rows]

    def redeliver(
        self, game_id: str, role: str, subscription_id: str, delivery_id: str
    ) -> dict[str, Any]:
        """Send a delivery again (the same id, so a receiver can drop it); the delivery,
        pending again."""
        self.owned(game_id, role, subscription_id)
        if not self.log_of(subscription_id, delivery_id=delivery_id):
            raise NotFound("delivery/not_found", "no such delivery of this subscription", {})
        now = self.clock()
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE deliveries SET status = 'pending', next_at = ?, attempts = 0,"
                " updated_at = ? WHERE delivery_id = ?",
                (now, now, delivery_id),
            )
            conn.execute(
                "UPDATE subscriptions SET active = 1, disabled_reason = NULL"
                " WHERE subscription_id = ?",
                (subscription_id,),
            )
        return self.log_of(subscription_id, delivery_id=delivery_id)[0]


def _key(subscription: dict[str, Any], notice: dict[str, Any]) -> str:
    """What makes a notice one delivery of a subscription, however often it is found."""
    parts = (
        subscription["subscription_id"],
        notice["kind"],
        notice["seq"],
        notice.get("deadline", ""),
        notice.get("hours", ""),
    )
    return ":".join(str(x) for x in parts)


def new_secret() -> str:
    """A webhook signing secret as the Standard Webhooks specification writes one:
    `whsec_` and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    """A subscription as its owner sees it (secrets never again)."""
    return {
        "subscription_id": row["subscription_id"],
        "kind": row["kind"],
        "url": row["url"] if row["kind"] == "webhook" else _masked(row["url"]),
        "events": json.loads(row["kinds"]),
        "reminders": json.loads(row["reminders"]),
        "active": bool(row["active"]),
        "disabled_reason": row["disabled_reason"],
    }


# what a delivery's owner is told of it, by the status shown: never what the target said
SAID = {
    "delivered": "delivered",
    "failed": "not delivered; to be tried again",
    "gave_up": "not delivered; no more attempts",
}


def _told(row: dict[str, Any]) -> dict[str, Any]:
    """A delivery as its owner sees it: `failed` while it is retried, `gave_up` after the
    last attempt, and only the referee's own words for why (an older row may hold what a
    target answered)."""
    status = row["status"]
    if status == "pending" and row["attempts"]:
        status = "failed"
    elif status == "failed":
        status = "gave_up"
    answer = row["answer"] if status == "dropped" else SAID.get(status)
    return {**row, "status": status, "answer": answer}


def _masked(url: str) -> str:
    """An Apprise URL without what may be a credential (everything past its scheme)."""
    return url.split("://", 1)[0] + "://…"
