"""Subscriptions and their deliveries (docs/notifications.md).

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
import functools
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import apprise
import urllib3
from standardwebhooks.webhooks import Webhook

from ..engine import game
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
LEASE = 60  # a delivery being sent is not sent again by the sweeper for this long
SECRET_OVERLAP = 86400  # a rotated-out webhook secret still signs for a day
SEND_TIMEOUT = 10
# a target's answer body is not used: at most this much of it is read, within
# SEND_TIMEOUT, so the connection may be kept; a longer or slower one is dropped
ANSWER_BYTES = 64 * 1024
# deliveries sent at once by one sender (a slow target holds up only its own), and the
# most one task claims: the worst batch (every target slow to connect and to answer)
# takes two rounds of 2 * SEND_TIMEOUT, within its LEASE
SENDERS = 16
BATCH = 2 * SENDERS
# a delivery handed to a sender when it was recorded is left to that sender's task this
# long before the sweeper sends it again (the task may wait behind others: sending the
# whole queue again every sweep would only lengthen it)
HANDED_GRACE = 30
TARGETS_KEPT = 50  # the targets (scheme, host, port) a sender keeps connections open to
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


def in_batches(delivery_ids: list[str]) -> list[list[str]]:
    """The deliveries in the batches one task sends (BATCH at most)."""
    return [delivery_ids[n : n + BATCH] for n in range(0, len(delivery_ids), BATCH)]


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


# --- working out and sending ------------------------------------------------------


class Batch:
    """One batch as each subscriber's role may see it, worked out once per role, however
    many subscriptions the role holds; each round's summary and the post drawn once."""

    def __init__(
        self,
        game_id: str,
        events: list[dict[str, Any]],
        before: game.State,
        after: game.State,
        summary: Callable[[int], str],
        post: Callable[..., dict[str, Any]] | None = None,
        *,
        base: str | None = None,
    ) -> None:
        self.game_id, self.events, self.before, self.after = game_id, events, before, after
        self.summary = functools.cache(summary)
        self.post = functools.cache(post) if post else None
        self.base = base  # where people reach the service, when the host said (PUBLIC_URL)
        self._seen: dict[str, tuple[int | str, list[dict[str, Any]], dict[str, Any]]] = {}

    def seen_by(self, role: str) -> tuple[int | str, list[dict[str, Any]], dict[str, Any]]:
        """(the viewer, every notice it is due, its view after the batch)."""
        if role not in self._seen:
            viewer: int | str = int(role) if role.isdigit() else role
            over = game.is_over(self.after)
            shown = [game.redact(e, viewer, over) for e in self.events]
            after = game.view(self.after, viewer)
            found = notices.notices(
                self.game_id, viewer, shown, game.view(self.before, viewer), after
            )
            self._seen[role] = viewer, found, after
        return self._seen[role]


def found_for(subscription: dict[str, Any], batch: Batch) -> list[dict[str, Any]]:
    """The notices a subscription's owner is due from one batch, as it may see it."""
    viewer, due, view_after = batch.seen_by(subscription["role"])
    kinds = set(json.loads(subscription["kinds"]))
    found = [dict(n) for n in due if n["kind"] in kinds]
    for notice in found:
        if notice["kind"] == "round_resolved":
            notice["summary"] = batch.summary(notice["round"])
        if notice["kind"] == "post" and batch.post is not None:
            made = batch.post(since=notice["since"])
            notice.update(text=made["title"], post=made["text"], news=made["news"])
        if "fork" in notice and batch.base:
            fork = notice["fork"] = dict(notice["fork"])
            fork["url"] = f"{batch.base.rstrip('/')}/g/{fork['game_id']}"
        if "deadline" in notice:
            notice["deadline_utc"] = _utc(notice["deadline"])
    # a post only of a batch that told a spectator something (a private event alone, or
    # a clock's bookkeeping, tells nothing)
    found = [n for n in found if n["kind"] != "post" or n.get("news")]
    if "deadline_near" in kinds:
        found += _reminders(subscription, batch.game_id, view_after, viewer)
    return found


def _reminders(subscription, game_id, view, viewer) -> list[dict[str, Any]]:
    out = []
    for about, deadline in notices.deadlines(view, viewer):
        for hours in json.loads(subscription["reminders"]):
            text = f"Your {'orders are' if about == 'round' else 'move is'} due in {hours} h."
            out.append(
                {
                    "kind": "deadline_near",
                    "game_id": game_id,
                    "seq": view["version"],
                    "text": text,
                    "about": about,
                    "hours": hours,
                    "deadline": deadline,
                    "deadline_utc": _utc(deadline),
                    "send_at": deadline - hours * 3600,
                }
            )
    return out


def _utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def send_all(
    claimed: list[dict[str, Any]], now: int, *, allow: AllowList | None = None
) -> list[tuple[bool, str]]:
    """One attempt at each claimed delivery, up to SENDERS side by side: (delivered,
    what happened) of each, in order."""

    def attempt(one: dict[str, Any]) -> tuple[bool, str]:
        try:
            return send(one["subscription"], one["delivery_id"], one["notice"], now, allow=allow)
        except Exception as exc:  # noqa: BLE001 - one target's fault fails its attempt only
            log.exception("delivery %s: the send raised", one["delivery_id"])
            return False, f"raised {type(exc).__name__}"

    if len(claimed) < 2:
        return [attempt(one) for one in claimed]
    return list(_senders().map(attempt, claimed))


_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _senders() -> ThreadPoolExecutor:
    """This process's SENDERS threads, started as first needed and kept (starting them
    for every batch costs more than sending it); a forked process starts its own."""
    with _pools_lock:
        pid = os.getpid()
        if pid not in _pools:
            _pools.clear()
            _pools[pid] = ThreadPoolExecutor(SENDERS, thread_name_prefix="sender")
        return _pools[pid]


def send(
    subscription: dict[str, Any],
    delivery_id: str,
    notice: dict[str, Any],
    now: int,
    *,
    allow: AllowList | None = None,
) -> tuple[bool, str]:
    """One attempt, reaching only public addresses and those `allow` admits: (delivered,
    what happened, for the service's log)."""
    with reach.guarded(allow or AllowList()):
        try:
            if subscription["kind"] == "webhook":
                return _post(subscription, delivery_id, notice, now)
            return _apprise(subscription["url"], notice)
        except (OSError, ValueError) as refused:  # an Apprise target, before Apprise sends
            return False, f"refused: {refused}"


def _post(subscription, delivery_id, notice, now) -> tuple[bool, str]:
    sent_at = int(time.time())
    body = json.dumps(
        {"type": f"referee.{notice['kind']}", "timestamp": _utc(sent_at), "data": notice},
        sort_keys=True,
    )
    stamp = datetime.fromtimestamp(sent_at, UTC)
    keys = [
        k["secret"]
        for k in json.loads(subscription["secrets"])
        if k["until"] is None or k["until"] > now
    ]
    signature = " ".join(Webhook(key).sign(delivery_id, stamp, body) for key in keys)
    headers = {
        "content-type": "application/json",
        "user-agent": "referee",
        "webhook-id": delivery_id,
        "webhook-timestamp": str(sent_at),
        "webhook-signature": signature,
    }
    try:
        answer = reach.kept_pool(connections=SENDERS, targets=TARGETS_KEPT).request(
            "POST",
            subscription["url"],
            body=body.encode("utf-8"),
            headers=headers,
            timeout=SEND_TIMEOUT,
            retries=False,  # a failed attempt is retried on the BACKOFF schedule
            redirect=False,  # a redirect is a failure: it could point anywhere
            preload_content=False,  # the body is read bounded, below
        )
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        return False, f"{type(exc).__name__}: {exc}"
    _finish(answer)
    return 200 <= answer.status < 300, f"HTTP {answer.status}"


def _finish(answer: urllib3.BaseHTTPResponse) -> None:
    """Read the rest of an answer, undecoded, at most ANSWER_BYTES within SEND_TIMEOUT,
    and keep its connection; an answer longer or slower than that, or broken, has its
    connection dropped instead (a target cannot hold a sender or fill its memory)."""
    deadline, left = time.monotonic() + SEND_TIMEOUT, ANSWER_BYTES
    try:
        while left >= 0 and time.monotonic() < deadline:
            chunk = answer.read1(min(left + 1, 16384), decode_content=False)
            if not chunk:
                answer.release_conn()
                return
            left -= len(chunk)
    except (urllib3.exceptions.HTTPError, OSError):
        pass
    answer.close()
    answer.release_conn()


def _apprise(url: str, notice: dict[str, Any]) -> tuple[bool, str]:
    reach.check_apprise(url)
    sender = apprise.Apprise()
    sender.add(url)
    lines = [notice["text"]]
    if "deadline_utc" in notice:
        lines.append(f"Deadline: {notice['deadline_utc']}")
    if notice.get("summary"):
        lines += ["", notice["summary"]]
    if (notice.get("fork") or {}).get("url"):
        lines.append(f"The fork: {notice['fork']['url']}")
    if notice.get("post"):
        lines += ["", notice["post"]]
    lines.append(f"(game {notice['game_id']}, seq {notice['seq']})")
    title = f"referee: {notice['text']}"
    delivered = sender.notify(title=title, body="\n".join(lines))
    return bool(delivered), "sent" if delivered else "Apprise reported a failure"
