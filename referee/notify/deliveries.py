"""Working out what each subscription is told of a batch of events, and sending it
(docs/notifications.md): a webhook signed as the Standard Webhooks specification says,
or an Apprise URL, side by side on kept connections, each to an address the target may
reach (reach.py), in batches of BATCH a task. subscriptions.py records what is due and
what became of each.
"""

import functools
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import apprise
import urllib3
from standardwebhooks.webhooks import Webhook

from ..engine import game
from . import notices, reach
from .reach import AllowList

log = logging.getLogger("referee.notify")
SEND_TIMEOUT = 10
# a target's answer body is not used: at most this much of it is read, within
# SEND_TIMEOUT, so the connection may be kept; a longer or slower one is dropped
ANSWER_BYTES = 64 * 1024
# deliveries sent at once by one sender (a slow target holds up only its own), and the
# most one task claims: the worst batch (every target slow to connect and to answer)
# takes two rounds of 2 * SEND_TIMEOUT, within its LEASE
SENDERS = 16
BATCH = 2 * SENDERS
TARGETS_KEPT = 50  # the targets (scheme, host, port) a sender keeps connections open to


def in_batches(delivery_ids: list[str]) -> list[list[str]]:
    """The deliveries in the batches one task sends (BATCH at most)."""
    return [delivery_ids[n : n + BATCH] for n in range(0, len(delivery_ids), BATCH)]


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
