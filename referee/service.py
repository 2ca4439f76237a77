"""The shell around the pure core: load events -> fold -> one pure call -> append."""

import functools
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from . import disputes
from .engine import clocks, game, rounds, seating
from .engine import disputes as engine_disputes
from .engine.canonical import digest
from .engine.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RuleViolation,
    Unauthorized,
)
from .engine.events import MODERATOR, REFEREE
from .engine.names import name_problem
from .games import bot_levels
from .live import Herald, Hub
from .notify import deliveries, notices, subscriptions
from .notify.subscriptions import Subscriptions
from .posts import forum, summary
from .runtime.loop import beside_loop
from .runtime.queues import GameQueues
from .store import EventStore, IdempotentReplay, StoredEvents

Viewer = int | str | None
REFEREE_ONLY = frozenset(
    {*rounds.REFEREE_COMMANDS, *clocks.REFEREE_COMMANDS, *engine_disputes.REFEREE_COMMANDS}
)
# how many times a command that names no version is decided again after losing a race
# (only to another process: this process's commands on a game queue, referee/runtime/queues.py)
RETRIES = 10
ROUND_OUTCOMES = {
    "rule/no_round_open": "not_open",
    "rule/wrong_round": "not_open",
    "rule/paused": "paused",
    "rule/not_due": "not_due",
    "game/over": "not_open",  # play stopped (ended, or closed by a ruling): no round is open
}
CLOCK_OUTCOMES = {
    "rule/no_clock_running": "not_running",
    "rule/paused": "paused",
    "rule/not_due": "not_due",
    "game/over": "not_running",
}
# a deadline (a round's, a clock's) within the arming horizon gets a timed task at once (a
# Celery ETA task, held unacknowledged by a worker until it is due); one further off is
# armed by the sweeper when it comes that near, as Redis hands a task held past the
# broker's visibility timeout out again. The horizon is at most half that timeout
# (workers.celery_app.arming_horizon) and never more than NEAR_SECONDS
NEAR_SECONDS = 600
# an armed deadline is left to its timed task this long: the sweeper sends a task of its
# own only for a deadline passed longer ago (its timed task was lost), so a round is not
# resolved by two tasks racing at its deadline
GRACE_SECONDS = 5


def utc_text(seconds: int) -> str:
    """Whole seconds since 1970 as ISO 8601 UTC text: 2026-11-22T18:00:00Z."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def wall_seconds() -> int:
    """Now, in whole seconds since 1970-01-01 UTC."""
    return int(time.time())


class Scheduler(Protocol):
    """Where the service asks for a round to be resolved: at `eta` (seconds), or now."""

    def resolve(self, game_id: str, round_number: int, eta: int | None) -> None: ...

    def time_out(self, game_id: str, seat: int, deadline: int) -> None: ...

    def deliver(self, delivery_ids: list[str]) -> None: ...

    def bot_move(self, game_id: str, version: int, seat: int) -> None: ...


def role_name(viewer: Viewer) -> str:
    """How a viewer is written in the token and idempotency tables."""
    return str(viewer)


def viewer_of(role: str) -> int | str:
    """The viewer a stored role stands for: a seat number or `moderator`."""
    return int(role) if role.isdigit() else role


class LatestStates:
    """The newest folded state of recently used games, in this process's memory.

    A state at seq n is the fold of the log's first n events, the same in every
    process, so holding it is safe; reads still fetch the events after it.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._states: OrderedDict[str, game.State] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> game.State | None:
        """The newest state held for a game, if any."""
        with self._lock:
            return self._states.get(game_id)

    def clear(self) -> None:
        """Forget every state held (as a restarted process would)."""
        with self._lock:
            self._states.clear()

    def put(self, game_id: str, state: game.State) -> None:
        """Hold a state unless a newer one is held; forget the least recently put."""
        with self._lock:
            held = self._states.pop(game_id, None)
            self._states[game_id] = state if held is None or state["seq"] >= held["seq"] else held
            while len(self._states) > self.size:
                self._states.popitem(last=False)


class Referee:
    """Games on an event store: create, read, command, stream."""

    def __init__(
        self,
        store: EventStore,
        *,
        snapshot_every: int = 100,
        clock: Callable[[], int] = wall_seconds,
        scheduler: Scheduler | None = None,
        herald: Herald | None = None,
        arming_seconds: int = NEAR_SECONDS,
    ) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.scheduler = scheduler
        self.arming_seconds = arming_seconds  # the horizon within which deadlines are timed
        self.herald = herald or Herald(Hub())  # tells live streams a log grew
        self.latest = LatestStates()
        self.queues = GameQueues()  # this process's commands on one game, one at a time
        self.subscriptions = Subscriptions(store, lambda: self.clock())
        self.public_url: str | None = None  # where people reach the service (images in notices)

    def create_game(
        self,
        ruleset: str,
        players: list[str],
        options: dict[str, Any],
        seed: str | None = None,
        *,
        game_id: str | None = None,
        clock: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
    ) -> dict[str, Any]:
        """A new game with fresh tokens; the seed is kept secret, its hash published. A
        game in turns may have a `clock` (docs/clocks.md); `bots` (seat -> level) are
        the seats bots play (docs/bots.md)."""
        seed = seed if seed is not None else secrets.token_hex(32)
        now = self.clock()
        held = {str(seat): level for seat, level in (bots or {}).items()}
        asked = {f"players.{seat}.bot": level for seat, level in held.items()}
        check_bot_levels(ruleset, {**asked, **autopilot_level(clock)})
        records = game.create(ruleset, players, options, seed, now=now, clock=clock, bots=held)
        game_id = game_id or secrets.token_hex(8)
        tokens = {role_name(MODERATOR): secrets.token_urlsafe(24)}
        tokens.update({role_name(s): secrets.token_urlsafe(24) for s in range(len(players))})
        state = game.fold(records)
        due = self.due_of(state, records, now)
        self.store.create_game(game_id, ruleset, seed, records, tokens, due=due)
        self.schedule(game_id, records, due)
        return {
            "game_id": game_id,
            "moderator_token": tokens[MODERATOR],
            "seats": [
                {"seat": s, "name": name, "token": tokens[role_name(s)], **_bot(held, s)}
                for s, name in enumerate(players)
            ],
            "seed_commitment": records[0]["payload"]["seed_commitment"],
            "version": records[-1]["seq"],
        }

    def viewer(self, game_id: str, token: str | None) -> Viewer:
        """The seat or moderator a bearer token stands for in this game; None without one."""
        if token is None:
            self.store.version(game_id)  # 404 for an unknown game before anything else
            return None
        found = self.store.role(token)
        if found is None:
            raise Unauthorized("auth/invalid_token", "the token is not valid", {})
        if found[0] != game_id and game_id not in self.originals(found[0]):
            raise Forbidden("auth/wrong_game", "the token belongs to another game", {})
        return viewer_of(found[1])

    def originals(self, game_id: str) -> list[str]:
        """The games a fork continues, nearest first (a token of a fork reads them too)."""
        found: list[str] = []
        original = self.store.forked_from(game_id)
        while original is not None and original not in found:
            found.append(original)
            original = self.store.forked_from(original)
        return found

    def state(self, game_id: str) -> game.State:
        """The current state: the newest state held (in memory, else a trusted snapshot)
        plus the events after it."""
        start, state = self._newest_held(game_id)
        records = self.store.events(game_id, after=start)
        if state is None and not records:
            self.store.version(game_id)  # raises NotFound
        state = game.fold(records, state)
        if start == 0 and len(records) >= self.snapshot_every > 0:
            self.store.save_snapshot(game_id, state["seq"], state, digest(state))
        self.latest.put(game_id, state)
        return state

    def _newest_held(self, game_id: str) -> tuple[int, game.State | None]:
        held = self.latest.get(game_id)
        return (held["seq"], held) if held else self._snapshot(game_id)

    def _snapshot(self, game_id: str, until: int | None = None) -> tuple[int, game.State | None]:
        cached = self.store.latest_snapshot(game_id, until=until)
        if cached is None:
            return 0, None
        seq, state, state_hash = cached
        if digest(state) != state_hash or self.store.state_hash_at(game_id, seq) != state_hash:
            return 0, None  # never trusted over the log: fold from the start, cache anew
        return seq, state

    def view(self, game_id: str, viewer: Viewer) -> dict[str, Any]:
        """What this viewer may know of the game now (deadlines also as UTC text)."""
        return presented(game_id, self.state(game_id), viewer)

    def command(
        self,
        game_id: str,
        viewer: Viewer,
        command: dict[str, Any],
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        now: int | None = None,
        bot: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Run one command; returns (status, body). Nothing is appended on any error.

        In a game played in rounds the command carries the referee's time (`now`, else
        the service clock) into the log; a move a seat's bot sends carries its level
        (`bot`), which no client may set."""
        if viewer is None:
            raise Unauthorized("auth/required", "send a seat's or the moderator's token", {})
        if seating.MARK in command:
            raise BadRequest(
                "command/invalid", "bot is set by the referee for a seat's bot", {"field": "bot"}
            )
        if bot is not None:
            command = {**command, seating.MARK: bot}
        request = ""  # what an Idempotency-Key stands for: digested only when one is sent
        if idempotency_key is not None:
            request = digest({"command": command, "expected_version": expected_version})
        run = Run(game_id, viewer, command, expected_version, idempotency_key, request, now)
        try:
            return self._run(run)
        except IdempotentReplay as replay:
            return replay.status, replay.response

    def _run(self, run: "Run") -> tuple[int, dict[str, Any]]:
        seed = self.store.seed(run.game_id)
        now = run.now if run.now is not None else self.clock()
        # one deadline for every wait of the command: its queue, then the store's lock
        deadline = self.store.deadline()
        with self.queues.head(run.game_id, deadline=deadline):
            done = self._decided(run, seed, now, deadline)
            self.latest.put(run.game_id, done.after)
        self.herald.announce(run.game_id, done.after["seq"])
        moved = done.prepared.fork.game_id if done.prepared.fork else None
        if done.events.subscribed:  # read as the batch was committed
            self._notify(run.game_id, done.before, done.after, done.events, moved=moved)
        self._maybe_snapshot(run.game_id, done.before["seq"], done.after)
        self.schedule(run.game_id, done.records, done.due)
        self._forked(done.prepared)
        status, body = done.respond(done.events)
        if done.tokens:  # shown once, here: a resend under the same key does not repeat it
            body = {**body, "token": next(iter(done.tokens.values()))}
        return status, body

    def _decided(self, run: "Run", seed: str, now: int, deadline: float) -> "Appended":
        """Read, decide, append; decided again on the newer state when a command of
        another process got in first, unless this one names its expected version."""
        for attempt in range(RETRIES):
            state = self.state(run.game_id)
            if run.key is not None:  # after the read: a recorded twin is in the state or here
                self.store.check_idempotency(
                    run.game_id, role_name(run.viewer), run.key, run.request
                )
            if run.expected is not None and run.expected != state["seq"]:
                raise Conflict(
                    "store/version_conflict",
                    f"the game is at version {state['seq']}, not {run.expected}",
                    {"expected_version": run.expected, "version": state["seq"]},
                )
            check_sender(state, run.viewer, run.command)
            check_bot_levels(state["ruleset"], levels_asked(run.command))
            prepared = self._prepared(run, state, seed, now)
            records, after = game.step(state, run.viewer, prepared.command, seed)
            due = self.due_of(after, records, now)
            respond = _responder(
                run.viewer, game.is_over(after), game.warnings(state, records), prepared.report
            )
            idem = (role_name(run.viewer), run.key, run.request, respond) if run.key else None
            tokens = _new_tokens(run.viewer, prepared.command)
            try:
                events = self.store.append(
                    run.game_id,
                    state["seq"],
                    records,
                    idempotency=idem,
                    tokens=tokens,
                    due=due,
                    fork=prepared.fork,
                    deadline=deadline,
                )
            except Conflict as lost:
                named = run.expected is not None
                if lost.code != "store/version_conflict" or named or attempt == RETRIES - 1:
                    raise
                continue
            return Appended(state, after, records, events, due, prepared, respond, tokens)
        raise AssertionError("unreachable")

    def _prepared(self, run: "Run", state: game.State, seed: str, now: int) -> disputes.Prepared:
        """The command stamped with the referee's time; a dispute's with its fork."""
        command = game.stamp(state, run.command, now)
        if run.viewer != MODERATOR or not disputes.makes_fork(state, command):
            return disputes.Prepared(command)
        events = self.store.events(run.game_id)[: state["seq"]]  # the fork needs the log
        new_id = secrets.token_hex(8)
        making = functools.partial(disputes.prepare, new_game_id=new_id)
        prepared = beside_loop(making, run.game_id, events, state, command, seed)
        if prepared.fork is not None and prepared.fork_state is not None:
            fork_records = [*prepared.fork.copied, *prepared.fork.records]
            prepared.fork = replace(
                prepared.fork, due=self.due_of(prepared.fork_state, fork_records, now)
            )
        return prepared

    def _forked(self, prepared: disputes.Prepared) -> None:
        """A fork just stored: hold its state and schedule its open round."""
        fork = prepared.fork
        if fork is None or prepared.fork_state is None:
            return
        self.latest.put(fork.game_id, prepared.fork_state)
        self.herald.announce(fork.game_id, prepared.fork_state["seq"])
        # a new game: its round's deadline may come from a RoundOpened among the shared events
        self.schedule(fork.game_id, [*fork.copied, *fork.records], fork.due)

    def resolve_round(self, game_id: str, round_number: int, *, now: int | None = None) -> str:
        """Resolve a round if it is still open and due: `resolved`, or why not
        (`not_open`: already resolved; `not_due`; `paused`). Safe to call any number of
        times, from any number of workers at once: the round is resolved once."""
        command = {"type": "resolve_round", "round": round_number}
        try:
            self.command(game_id, REFEREE, command, now=now)
        except RuleViolation as refused:
            if refused.code in ROUND_OUTCOMES:
                return ROUND_OUTCOMES[refused.code]
            raise
        except Conflict:
            return "not_open" if self._resolved(game_id, round_number) else "conflict"
        return "resolved"

    def _resolved(self, game_id: str, round_number: int) -> bool:
        current = self.state(game_id).get("rounds", {}).get("current")
        return current is None or current["round"] != round_number

    def time_out(self, game_id: str, seat: int, deadline: int, *, now: int | None = None) -> str:
        """Do what a seat's clock says once its deadline has passed: `timed_out`, or why
        not (`moved`: the seat's deadline is another now, as it moved or was extended;
        `not_running`; `not_due`; `paused`). Safe to call any number of times, from any
        number of workers at once: a timeout happens once."""
        clock = self.state(game_id).get("clock")
        if clock is None or clock["deadlines"][seat] != deadline:
            return "moved" if clock is not None else "not_running"
        command = {"type": "time_out", "seat": seat}
        try:
            self.command(game_id, REFEREE, command, now=now)
        except RuleViolation as refused:
            if refused.code in CLOCK_OUTCOMES:
                return CLOCK_OUTCOMES[refused.code]
            raise
        except Conflict:
            timed = self.state(game_id)["clock"]["deadlines"][seat] != deadline
            return "moved" if timed else "conflict"
        return "timed_out"

    def _notify(
        self,
        game_id: str,
        before: game.State,
        after: game.State,
        events: list[dict[str, Any]],
        *,
        moved: str | None = None,
    ) -> None:
        """Record the notices the game's subscribers are due from a batch, and have those
        due now sent; a failure here is logged and never reaches the command. `moved`: the
        fork the batch's ruling moved the subscriptions to (they are told of the ruling)."""
        try:
            held = self.subscriptions.of(game_id) + (self.subscriptions.of(moved) if moved else [])
            subscribed = [s for s in held if s["active"]]
            now = self.clock()
            summary = functools.partial(
                self.round_summary, game_id, fmt="markdown", base=self.public_url
            )
            post = functools.partial(
                self.post, game_id, "markdown", base=self.public_url, state=after
            )
            batch = deliveries.Batch(
                game_id, events, before, after, summary, post, base=self.public_url
            )
            found = [(s, deliveries.found_for(s, batch)) for s in subscribed]
            due = self.subscriptions.record(found, now)
            if due and self.scheduler is not None:
                self.scheduler.deliver(due)
        except Exception:  # noqa: BLE001 - notices are effects: the command stands
            subscriptions.log.exception("game %s: notices not recorded", game_id)

    def deliver(self, delivery_id: str, *, now: int | None = None) -> str:
        """One attempt at a delivery if it is due: `delivered`, `retrying`, `failed`,
        `dropped` (the game moved past it), or `not_due` (sent, being sent, or later)."""
        return self.deliver_all([delivery_id], now=now)[delivery_id]

    def deliver_all(self, delivery_ids: list[str], *, now: int | None = None) -> dict[str, str]:
        """One attempt at each of the deliveries that is due, claimed and written down
        together and sent side by side: what became of each, as `deliver` says."""
        now = now if now is not None else self.clock()
        claimed = self.subscriptions.claim(delivery_ids, now)
        views: dict[tuple[str, str], dict[str, Any]] = {}
        settled, sending = [], []
        for one in claimed:
            stale = self._stale(one, views)
            if stale:
                settled.append((one, "dropped", stale))
            else:
                sending.append(one)
        sent = deliveries.send_all(sending, now, allow=self.subscriptions.allow)
        for one, (delivered, detail) in zip(sending, sent, strict=True):
            settled.append((one, "delivered" if delivered else "failed", detail))
        return dict.fromkeys(delivery_ids, "not_due") | self.subscriptions.settle(settled, now)

    def _stale(self, claimed: dict[str, Any], views: dict[tuple[str, str], Any]) -> str | None:
        """Why a claimed delivery is no longer to be sent, if it is not: its subscription
        removed, or the game moved past its notice (`views`: each viewer's, read once)."""
        subscription = claimed["subscription"]
        if subscription is None:
            return "the subscription was removed"
        game_id, role = subscription["game_id"], subscription["role"]
        if (game_id, role) not in views:
            views[game_id, role] = game.view(self.state(game_id), viewer_of(role))
        if not notices.still_true(claimed["notice"], views[game_id, role], viewer_of(role)):
            return "the game moved past it"
        return None

    def due_deliveries(self, now: int | None = None, *, grace: int = 0) -> list[str]:
        """Deliveries whose time has come (first attempts, retries, reminders); one
        handed to a sender when recorded only once it is `grace` seconds old."""
        return self.subscriptions.due(now if now is not None else self.clock(), grace=grace)

    def due_clocks(self, now: int | None = None, *, grace: int = 0) -> list[tuple[str, int, int]]:
        """(game, seat, deadline) of the running clocks whose deadline has passed; one
        armed only once it passed `grace` seconds ago."""
        return self.store.due_clocks(now if now is not None else self.clock(), grace=grace)

    def arm_clocks(self, now: int | None = None) -> list[tuple[str, int, int]]:
        """Send a timed task for every running clock now due within the arming horizon
        that has none yet; returns those clocks."""
        if self.scheduler is None:
            return []  # nothing could be sent: the clocks stay unarmed
        now = now if now is not None else self.clock()
        armed = self.store.arm_clocks(now, now + self.arming_seconds)
        for game_id, seat, deadline in armed:
            self.scheduler.time_out(game_id, seat, deadline)
        return armed

    def arm_rounds(self, now: int | None = None) -> list[tuple[str, int, int]]:
        """Send a timed resolve_round for every open round now due within the arming
        horizon that has none yet; returns those (game, round, deadline)."""
        if self.scheduler is None:
            return []  # nothing could be sent: the rounds stay unarmed
        now = now if now is not None else self.clock()
        armed = self.store.arm_rounds(now, now + self.arming_seconds)
        for game_id, number, deadline in armed:
            self.scheduler.resolve(game_id, number, deadline)
        return armed

    def due_of(
        self, state: game.State, records: list[dict[str, Any]], now: int
    ) -> dict[str, Any] | None:
        """The store's row of what is due in a game, deadlines due soon armed (a timed
        task is sent for each after the commit): a game in rounds' open round, when these
        records set its deadline; a clocked game's running clocks."""
        timed = now + self.arming_seconds if self.scheduler is not None else None
        if "clock" in state:
            row: dict[str, Any] | None = {"clocks": running_clocks(state, timed)}
        else:
            row = due_row(state)
            if row is not None and row["round"] is not None:
                sets_deadline = any(r["type"] in DEADLINE_EVENTS for r in records)
                row["armed"] = sets_deadline and is_timed(row, timed)
        if "bots" in state:  # a game that has had bots: the seats they are to move in
            row = {**(row or {}), "bots": bots_row(state, now)}
        return row

    def resend_bot_moves(self, now: int | None = None, *, grace: int) -> list[tuple[str, int, int]]:
        """Send again every bot move asked more than `grace` seconds ago and still not
        played (its task was lost: a worker died with it); returns (game, version, seat)."""
        if self.scheduler is None:
            return []
        now = now if now is not None else self.clock()
        lost = self.store.resend_bots(now, grace=grace)
        for game_id, version, seat in lost:
            self.scheduler.bot_move(game_id, version, seat)
        return lost

    def due_rounds(self, now: int | None = None, *, grace: int = 0) -> list[tuple[str, int]]:
        """Open rounds that are closed or past their deadline and not paused; one armed
        only once its deadline passed `grace` seconds ago."""
        return self.store.due_rounds(now if now is not None else self.clock(), grace=grace)

    def schedule(
        self, game_id: str, records: list[dict[str, Any]], row: dict[str, Any] | None
    ) -> None:
        """Ask the scheduler to resolve the open round now if closed, or at its deadline
        if armed in this batch; to time out each clock armed in this batch at its deadline
        (deadlines further off are armed by the sweeper, arm_rounds and arm_clocks); to
        play the move of each bot asked now."""
        if self.scheduler is not None and row and "bots" in row:
            for seat in row["bots"]["seats"]:
                self.scheduler.bot_move(game_id, row["bots"]["version"], seat)
        if self.scheduler is not None and row and "clocks" in row:
            if any(r["type"] in CLOCK_EVENTS for r in records):
                for clock in row["clocks"]:
                    if clock["armed"]:
                        self.scheduler.time_out(game_id, clock["seat"], clock["deadline"])
            return
        if self.scheduler is None or not row or row.get("round") is None or row["paused"]:
            return
        if row["ready"]:
            self.scheduler.resolve(game_id, row["round"], None)
        elif row["armed"]:
            self.scheduler.resolve(game_id, row["round"], row["deadline"])

    def _maybe_snapshot(self, game_id: str, before: int, after: game.State) -> None:
        every = self.snapshot_every
        if every and after["seq"] // every > before // every:
            self.store.save_snapshot(game_id, after["seq"], after, digest(after))

    def events(self, game_id: str, viewer: Viewer, *, after: int = 0) -> dict[str, Any]:
        """The event stream after seq `after`, redacted for this viewer."""
        state = self.state(game_id)
        events = self.store.events(game_id, after=after)
        over = game.is_over(state)
        shown = [game.redact(e, viewer, over) for e in events]
        version = events[-1]["seq"] if events else state["seq"]
        return {"game_id": game_id, "events": shown, "version": version}

    def public_view_at(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        """What a spectator saw just after event `at` (now, without one): the log folded
        to that event (from the trusted snapshot nearest before it), redacted as it was
        then."""
        if at is None:
            return presented(game_id, self.state(game_id), None)
        start, state = self._snapshot(game_id, until=at)
        events = self.store.events(game_id, after=start, until=at)
        if state is None and not events:
            self.store.version(game_id)  # 404 for an unknown game
        if (events[-1]["seq"] if events else start) != at:
            raise NotFound("board/no_such_seq", f"the game has no event {at} yet", {"field": "at"})
        return presented(game_id, game.fold(events, state), None)

    def round_summary(self, game_id: str, number: int, fmt: str, base: str | None = None) -> str:
        """A resolved round's public results as Markdown or BBCode (anyone may read it);
        with `base`, the service's public URL, a link to the board's picture after it."""
        state = self.state(game_id)
        found = summary.summarize(state, self.store.events(game_id), number)
        image = summary.board_image(base, game_id, found["at"]) if base else None
        return summary.render(found, fmt, image)

    def post(
        self,
        game_id: str,
        fmt: str,
        *,
        since: int | None = None,
        base: str | None = None,
        state: game.State | None = None,
    ) -> dict[str, Any]:
        """The forum post of the events after `since` (by default, after the last post
        the moderator marked as posted) up to `state` (by default, now), from what a
        spectator may see, as Markdown or BBCode; with `base`, the service's public URL,
        a link to the board's picture: {text, title, since, until, news}."""
        summary.check_format(fmt)
        state = state if state is not None else self.state(game_id)
        until = state["seq"]
        since = self.store.posted(game_id) if since is None else since
        _check_since(since, until)
        over = game.is_over(state)
        events = [game.redact(e, None, over) for e in self.store.events(game_id, until=until)]
        made = forum.compose(game.rules_of(state), presented(game_id, state, None), events, since)
        image = summary.board_image(base, game_id, until) if base else None
        text = summary.render(made, fmt, image)
        return {
            "text": text,
            "title": made["title"],
            "since": since,
            "until": until,
            "news": made["news"],
        }

    def mark_posted(self, game_id: str, viewer: Viewer, since: int) -> dict[str, Any]:
        """The moderator posted the forum post up to event `since`: the next starts after."""
        if viewer != MODERATOR:
            raise Forbidden("auth/moderator_only", "only the moderator marks posts as posted", {})
        _check_since(since, self.state(game_id)["seq"])
        self.store.mark_posted(game_id, since, self.clock())
        return {"game_id": game_id, "since": since}

    def log(self, game_id: str, viewer: Viewer) -> bytes:
        """The full log: to the moderator at any time, to everyone once it is public."""
        if viewer != MODERATOR and not self.is_public(game_id):
            raise Forbidden("log/not_yet", "the full log is public once the game is over", {})
        return self.store.log_lines(game_id)

    def is_public(self, game_id: str) -> bool:
        """Whether a game's whole log is public: it ended; or an amended ruling closed it
        and play went on in a fork (under the same seed) that has ended since."""
        for _ in range(MAX_FORK_HOPS):
            state = self.state(game_id)
            if game.is_over(state) or "forked_to" not in state:
                return game.is_over(state)
            game_id = state["forked_to"]
        return False

    def replay_events(self, game_id: str) -> list[dict[str, Any]]:
        """The whole log of a game whose log is public, for the replay theatre."""
        self.replay_hash(game_id)
        return self.store.events(game_id)

    def replay_hash(self, game_id: str) -> str:
        """The last chain hash of a game whose log is public (403 before; 404 unknown)."""
        if not self.is_public(game_id):
            raise Forbidden(
                "replay/not_yet", "the replay opens when the game is over", {"field": "game_id"}
            )
        return str(self.store.last_hash(game_id))


DEADLINE_EVENTS = ("RoundOpened", "DeadlineExtended", "GameResumed")
MAX_FORK_HOPS = 64  # forks of forks followed to the one play went on in
CLOCK_EVENTS = ("ClockSet", "ClockExtended", "GameResumed")


def _check_since(since: int, version: int) -> None:
    """A post starts after an event the game has (0: from the start)."""
    if since < 0:
        raise BadRequest("request/invalid", "since must be 0 or more", {"field": "since"})
    if since > version:
        raise NotFound(
            "post/no_such_seq",
            f"the game has no event {since} yet: its last is {version}",
            {"field": "since", "version": version},
        )


def running_clocks(state: game.State, timed: int | None) -> list[dict[str, Any]]:
    """A clocked game's running clocks (none while paused or once play stops): seat,
    deadline, and `armed` for a deadline by `timed` (None: none is armed)."""
    clock = state["clock"]
    if game.is_closed(state) or clock["paused_at"] is not None:
        return []
    return [
        {"seat": seat, "deadline": deadline, "armed": timed is not None and deadline <= timed}
        for seat, deadline in enumerate(clock["deadlines"])
        if deadline is not None
    ]


def is_timed(row: dict[str, Any], timed: int | None) -> bool:
    """Whether an open round's deadline gets its timed task now: it is running (neither
    closed nor paused) and due by `timed` (None: no task can be sent)."""
    return timed is not None and not row["ready"] and not row["paused"] and row["deadline"] <= timed


def presented(game_id: str, state: game.State, viewer: Viewer) -> dict[str, Any]:
    """A viewer's view of a state as the API answers GET /games/{id} with it (the
    replay tools show past views the same way)."""
    shown = {"game_id": game_id, **game.view(state, viewer)}
    opened = (shown.get("round") or {}).get("open")
    if opened:
        opened["deadline_utc"] = utc_text(opened["deadline"])
    if "clock" in shown:
        deadlines = shown["clock"]["deadlines"]
        shown["clock"]["deadlines_utc"] = [d if d is None else utc_text(d) for d in deadlines]
    return shown


@dataclass(frozen=True)
class Run:
    """One command as the service runs it."""

    game_id: str
    viewer: int | str
    command: dict[str, Any]
    expected: int | None
    key: str | None
    request: str  # the digest of the command and expected version, when `key` is set
    now: int | None


@dataclass(frozen=True)
class Appended:
    """A command's batch as stored, and what the shell does with it after."""

    before: game.State
    after: game.State
    records: list[dict[str, Any]]
    events: StoredEvents
    due: dict[str, Any] | None
    prepared: disputes.Prepared
    respond: Callable[[list[dict[str, Any]]], tuple[int, dict[str, Any]]]
    tokens: dict[str, str]


def bots_row(state: game.State, now: int) -> dict[str, Any]:
    """The seats bots are to move in now (none once play stops), for the store's table of
    bot moves to make: at this version, asked at `now`."""
    waiting = [] if game.is_closed(state) else game.to_move(state)
    return {"version": state["seq"], "seats": seating.to_play(state, waiting), "at": now}


def _bot(held: dict[str, str], seat: int) -> dict[str, str]:
    level = held.get(str(seat))
    return {"bot": level} if level else {}


def autopilot_level(clock: Any) -> dict[str, Any]:
    """The bot level a clock's autopilot asks for, by its field, if it names one."""
    level = clock.get("autopilot_level") if isinstance(clock, dict) else None
    return {"clock.autopilot_level": level} if level is not None else {}


def levels_asked(command: dict[str, Any]) -> dict[str, Any]:
    """The bot level a command hands a seat to, by its field, if it does."""
    if command.get("type") in ("seat_bot", "hand_to_bot") and "level" in command:
        return {"level": command["level"]}
    return {}


def check_bot_levels(ruleset: str, asked: dict[str, Any]) -> None:
    """Every bot level asked for (by the field asking) plays this ruleset here (422
    naming those that do); a level no log may record is the rules' to refuse (400)."""
    if not asked:
        return
    rules = game.registry.get(ruleset)
    playing = bot_levels(rules)
    for field, level in asked.items():
        if level in seating.LEVELS and level not in playing:
            raise RuleViolation(
                "bot/level_unavailable",
                f"{field}: no {level} bot plays {rules.NAME} here yet; its bots are "
                f"{', '.join(playing)}",
                {"field": field, "levels": playing},
            )


def due_row(state: game.State) -> dict[str, Any] | None:
    """The open round of a game in rounds, for the store's table of due rounds."""
    rounds = state.get("rounds")
    if rounds is None:
        return None
    current = rounds["current"] if not game.is_closed(state) else None
    if current is None:
        return {"round": None, "deadline": None, "ready": False, "paused": False}
    return {
        "round": current["round"],
        "deadline": current["deadline"],
        "ready": current["closed"] is not None,
        "paused": rounds["paused_at"] is not None,
    }


def check_sender(state: game.State, viewer: Viewer, command: dict[str, Any]) -> None:
    """The shell's checks before the rules see a command: a command of the moderator's
    (or the referee's) sent by anyone else is 403, the same code for every such command;
    a replacement player's name must be printable (as at creation)."""
    kind = command.get("type")
    seats, moderating = game.shapes_of(state)
    if kind in REFEREE_ONLY and viewer != REFEREE:
        raise Forbidden("auth/referee_only", f"{kind} is sent by the referee alone", {})
    if isinstance(viewer, int) and kind in moderating and kind not in seats:
        raise Forbidden(
            "auth/moderator_only", f"{kind} is the moderator's command", {"field": "type"}
        )
    if viewer == MODERATOR and kind == "replace_player" and isinstance(command.get("name"), str):
        problem = name_problem(command["name"])
        if problem:
            raise BadRequest("command/invalid", f"name: {problem}", {"field": "name"})


def _new_tokens(viewer: Viewer, command: dict[str, Any]) -> dict[str, str]:
    """A fresh token for the seat a moderator's replace_player gives to a new player."""
    if viewer == MODERATOR and command.get("type") == "replace_player":
        return {role_name(command["seat"]): secrets.token_urlsafe(24)}
    return {}


def _responder(
    viewer: Viewer,
    over: bool,
    warnings: list[dict[str, Any]],
    report: dict[str, Any] | None = None,
):
    def respond(events: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
        shown = [game.redact(e, viewer, over) for e in events]
        body: dict[str, Any] = {"events": shown, "version": events[-1]["seq"]}
        if report is not None:  # a dispute's fork and its consequences
            body["dispute"] = report
        committed = [e for e in events if e["type"] == "OrdersCommitted"]
        if committed:
            body["receipt"] = receipt(committed[0])
            body["warnings"] = warnings
        return 201, body

    return respond


def receipt(committed: dict[str, Any]) -> dict[str, Any]:
    """A seat's proof that its sealed orders were recorded: the public commitment event's
    seq, commitment, time and chain hash."""
    return {
        "round": committed["payload"]["round"],
        "seq": committed["seq"],
        "commitment": committed["payload"]["commitment"],
        "recorded_at": committed["recorded_at"],
        "hash": committed["hash"],
    }
