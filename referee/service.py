"""The shell around the pure core: load events -> fold -> one pure call -> append."""

import secrets
import threading
from collections import OrderedDict
from typing import Any

from . import games  # noqa: F401  (registers the rulesets)
from .engine import game
from .engine.canonical import digest
from .engine.errors import Conflict, Forbidden, Unauthorized
from .engine.events import MODERATOR
from .store import EventStore, IdempotentReplay

Viewer = int | str | None
RETRIES = 3


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

    def __init__(self, store: EventStore, *, snapshot_every: int = 100) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.latest = LatestStates()

    def create_game(
        self,
        ruleset: str,
        players: list[str],
        options: dict[str, Any],
        seed: str | None = None,
        *,
        game_id: str | None = None,
    ) -> dict[str, Any]:
        """A new game with fresh tokens; the seed is kept secret, its hash published."""
        seed = seed if seed is not None else secrets.token_hex(32)
        records = game.create(ruleset, players, options, seed)
        game_id = game_id or secrets.token_hex(8)
        tokens = {role_name(MODERATOR): secrets.token_urlsafe(24)}
        tokens.update({role_name(s): secrets.token_urlsafe(24) for s in range(len(players))})
        self.store.create_game(game_id, ruleset, seed, records, tokens)
        return {
            "game_id": game_id,
            "moderator_token": tokens[MODERATOR],
            "seats": [
                {"seat": s, "name": name, "token": tokens[role_name(s)]}
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
        if found[0] != game_id:
            raise Forbidden("auth/wrong_game", "the token belongs to another game", {})
        return viewer_of(found[1])

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

    def _snapshot(self, game_id: str) -> tuple[int, game.State | None]:
        cached = self.store.latest_snapshot(game_id)
        if cached is None:
            return 0, None
        seq, state, state_hash = cached
        if digest(state) != state_hash or self.store.state_hash_at(game_id, seq) != state_hash:
            return 0, None  # never trusted over the log: fold from the start, cache anew
        return seq, state

    def view(self, game_id: str, viewer: Viewer) -> dict[str, Any]:
        """What this viewer may know of the game now."""
        return {"game_id": game_id, **game.view(self.state(game_id), viewer)}

    def command(
        self,
        game_id: str,
        viewer: Viewer,
        command: dict[str, Any],
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Run one command; returns (status, body). Nothing is appended on any error."""
        if viewer is None:
            raise Unauthorized("auth/required", "send a seat's or the moderator's token", {})
        request = digest({"command": command, "expected_version": expected_version})
        try:
            return self._run(game_id, viewer, command, expected_version, idempotency_key, request)
        except IdempotentReplay as replay:
            return replay.status, replay.response

    def _run(self, game_id, viewer, command, expected_version, key, request):
        seed = self.store.seed(game_id)
        for attempt in range(RETRIES):
            state = self.state(game_id)
            if key is not None:  # after the read: a recorded twin is in the state or seen here
                self.store.check_idempotency(game_id, role_name(viewer), key, request)
            if expected_version is not None and expected_version != state["seq"]:
                raise Conflict(
                    "store/version_conflict",
                    f"the game is at version {state['seq']}, not {expected_version}",
                    {"expected_version": expected_version, "version": state["seq"]},
                )
            records, after = game.step(state, viewer, command, seed)
            respond = _responder(viewer, game.is_over(after))
            idem = (role_name(viewer), key, request, respond) if key else None
            tokens = _new_tokens(viewer, command)
            try:
                events = self.store.append(
                    game_id, state["seq"], records, idempotency=idem, tokens=tokens
                )
            except Conflict:
                if expected_version is not None or attempt == RETRIES - 1:
                    raise
                continue
            self.latest.put(game_id, after)
            self._maybe_snapshot(game_id, state["seq"], after)
            status, body = respond(events)
            if tokens:  # shown once, here: a resend under the same key does not repeat it
                body = {**body, "token": next(iter(tokens.values()))}
            return status, body
        raise AssertionError("unreachable")

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

    def log(self, game_id: str, viewer: Viewer) -> bytes:
        """The full log: to the moderator at any time, to everyone once play has stopped."""
        if viewer != MODERATOR and not game.is_over(self.state(game_id)):
            raise Forbidden("log/not_yet", "the full log is public once the game is over", {})
        return self.store.log_lines(game_id)


def _new_tokens(viewer: Viewer, command: dict[str, Any]) -> dict[str, str]:
    """A fresh token for the seat a moderator's replace_player gives to a new player."""
    if viewer == MODERATOR and command.get("type") == "replace_player":
        return {role_name(command["seat"]): secrets.token_urlsafe(24)}
    return {}


def _responder(viewer: Viewer, over: bool):
    def respond(events: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
        shown = [game.redact(e, viewer, over) for e in events]
        return 201, {"events": shown, "version": events[-1]["seq"]}

    return respond
