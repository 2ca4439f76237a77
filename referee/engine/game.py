"""The game lifecycle: create, execute a command, fold the log, and views.

A record is an event as the engine emits it: seq, type, actor, visibility,
payload, command (on the first event of each command's batch), salt (on events
not shown to everyone) and state_hash (of the whole state after the event).
The store adds recorded_at, prev_hash and hash.
"""

from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import clocks, disputes, moderator, registry, rounds, sealed, seating, standing
from .canonical import copied, digest
from .errors import BadRequest, RuleViolation
from .events import MODERATOR, PUBLIC, REFEREE, Event, event, may_see
from .registry import optional
from .rng import Rng, commitment, salt

State = dict[str, Any]
Record = dict[str, Any]
Actor = int | str
Hash = Callable[[State], str]  # a state's hash: `digest`, or a StateHashes for a run of states

ACTIVE, FINISHED, ABANDONED = "active", "finished", "abandoned"
MODERATOR_COMMANDS = {**moderator.COMMANDS, **seating.MODERATOR_COMMANDS}
MODERATOR_EVENTS = ("AnnouncementPosted", "PlayerReplaced")


def rules_of(state: State) -> ModuleType:
    """The ruleset module a game state belongs to."""
    return registry.get(state["ruleset"])


def resolve_options(rules: ModuleType, options: dict[str, Any] | None) -> dict[str, Any]:
    """The ruleset's defaults overlaid with the given options, checked by the ruleset."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(rules.OPTIONS))
    if unknown:
        raise BadRequest(
            "options/unknown",
            f"unknown option {unknown[0]!r} for {rules.NAME}",
            {"field": f"options.{unknown[0]}", "known": sorted(rules.OPTIONS)},
        )
    resolved = {**rules.OPTIONS, **options}
    check = optional(rules, "check_options")
    if check is not None:
        check(resolved)
    return resolved


def command_shapes(
    rules: ModuleType, *, clocked: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seats' and the moderator's command shapes in a ruleset's games (`clocked`: a
    game in turns created with a clock)."""
    seats, moderating = dict(rules.COMMANDS), {**MODERATOR_COMMANDS, **disputes.MODERATOR_COMMANDS}
    seats.update(seating.SEAT_COMMANDS)
    if rounds.has_rounds(rules):
        seats.update(rounds.SEAT_COMMANDS)
        moderating.update(rounds.MODERATOR_COMMANDS)
        moderating.update(optional(rules, "MODERATOR_COMMANDS", {}))
    else:
        if standing.offered(rules):
            seats.update(standing.SEAT_COMMANDS)
        if clocked:
            seats.update(clocks.SEAT_COMMANDS)
            moderating.update(clocks.MODERATOR_COMMANDS)
    return seats, moderating


def shapes_of(state: State) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seats' and the moderator's command shapes in this game."""
    return command_shapes(rules_of(state), clocked="clock" in state)


def check_players(rules: ModuleType, players: list[str]) -> None:
    """The number of players must fit the ruleset."""
    if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
        span = f"{rules.MIN_PLAYERS}-{rules.MAX_PLAYERS}"
        if rules.MIN_PLAYERS == rules.MAX_PLAYERS:
            span = str(rules.MIN_PLAYERS)
        raise BadRequest(
            "players/count",
            f"{rules.NAME} is played by {span} players, not {len(players)}",
            {"field": "players", "min": rules.MIN_PLAYERS, "max": rules.MAX_PLAYERS},
        )


def create(
    ruleset_id: str,
    players: list[str],
    options: dict[str, Any] | None,
    seed: str,
    *,
    now: int | None = None,
    clock: dict[str, Any] | None = None,
    bots: dict[str, str] | None = None,
) -> list[Record]:
    """The opening records of a game: GameCreated, the ruleset's setup events, and for a
    game in rounds the first RoundOpened (its deadline counted from `now`); a game in
    turns with a `clock` starts its clock at `now`; `bots` (seat as text -> level) are
    the seats bots play from the start."""
    rules = registry.get(ruleset_id)
    check_players(rules, players)
    resolved = resolve_options(rules, options)
    check_table = optional(rules, "check_table")
    if check_table is not None:
        check_table(players, resolved)
    payload = {
        "ruleset": rules.NAME,
        "ruleset_version": rules.VERSION,
        "players": list(players),
        "options": resolved,
        "seed_commitment": commitment(seed),
    }
    if clock is not None:
        if rounds.has_rounds(rules):
            raise BadRequest(
                "clock/rounds",
                f"{rules.NAME} is played in rounds with their own deadlines: it takes no clock",
                {"field": "clock"},
            )
        payload["clock"] = clocks.settings(clock)
    if bots:  # only when there are some: a game without bots is created as before
        payload["bots"] = seating.created(bots, len(players))
    if rounds.has_rounds(rules) or clock is not None:
        payload["created_at"] = _now({"now": now})
    return opening(payload, seed)


def opening(created: dict[str, Any], seed: str) -> list[Record]:
    """The opening records from a GameCreated payload as written (its version, its
    options): GameCreated, the setup events, and in rounds the first RoundOpened."""
    rules = registry.get(created["ruleset"])
    event = {"type": "GameCreated", "visibility": PUBLIC, "payload": created}
    records, state = _append([], None, [event], MODERATOR, None, seed)
    setup_events = rules.setup(state["rules"], Rng(seed))
    records, state = _append(records, state, setup_events, REFEREE, None, seed)
    if rounds.has_rounds(rules):
        opened = rounds.opening(rules, state["rules"], created["created_at"])
        records, state = _append(records, state, opened, REFEREE, None, seed)
    if "clock" in state:
        started = _clock_set(state, set(), created["created_at"])
        records, state = _append(records, state, started, REFEREE, None, seed)
    return records


def execute(state: State, actor: Actor, command: dict[str, Any], seed: str) -> list[Record]:
    """The records one command adds, or a RefereeError; the state is not changed."""
    return step(state, actor, command, seed)[0]


def step(
    state: State, actor: Actor, command: dict[str, Any], seed: str, *, hashed: Hash = digest
) -> tuple[list[Record], State]:
    """The records one command adds and the state after them (`hashed` gives each
    record's state_hash; a verifier re-running a log passes a StateHashes)."""
    if disputes.is_dispute_command(command):
        return _step_dispute(state, actor, command, seed, hashed)
    # game over: nothing more is accepted
    if state["status"] != ACTIVE:
        raise RuleViolation("game/over", f"the game is {state['status']}", {})
    # the command as the rules see it: a bot's mark checked and taken off
    bare = seating.unmarked(state, rules_of(state), actor, command)
    events = _decide(state, actor, bare, Rng(seed))
    records, after = _append([], state, events, actor, command, seed, hashed)
    if "clock" in after or "standing" in after:
        acted = _acted(state, actor, command, records)
        played, after = _played_for(after, acted, command, seed, hashed)
        records += played
    closing, after = _closing_records(after, seed, hashed)
    return records + closing, after


def _step_dispute(
    state: State, actor: Actor, command: dict[str, Any], seed: str, hashed: Hash
) -> tuple[list[Record], State]:
    """A dispute command, taken in any status but forked; it never ends a game."""
    shapes = {**disputes.MODERATOR_COMMANDS, **disputes.REFEREE_COMMANDS}
    check_fields({k: v for k, v in command.items() if k not in disputes.STAMPED}, shapes)
    events = disputes.decide(state, actor, command)
    return _append([], state, events, actor, command, seed, hashed)


def _decide(state: State, actor: Actor, command: dict[str, Any], rng: Rng) -> list[Event]:
    """Route a command to the engine's moderator and round controls or to the rules."""
    rules = rules_of(state)
    if not rounds.has_rounds(rules):
        return _decide_in_turns(state, rules, actor, command, rng)
    _now(command)
    bare = {k: v for k, v in command.items() if k != "now"}
    if actor == REFEREE:
        check_fields(bare, rounds.REFEREE_COMMANDS)
        return rounds.resolve(state, command, rules, rng)
    if actor == MODERATOR:
        ruled = optional(rules, "MODERATOR_COMMANDS", {})
        check_fields(bare, {**MODERATOR_COMMANDS, **rounds.MODERATOR_COMMANDS, **ruled})
        if bare["type"] in rounds.MODERATOR_COMMANDS:
            return rounds.moderate(state, command)
        if bare["type"] in ruled:
            return rules.decide(state["rules"], MODERATOR, bare, rng)
        return _moderated(state, bare)
    check_fields(bare, {**rules.COMMANDS, **rounds.SEAT_COMMANDS, **seating.SEAT_COMMANDS})
    if not isinstance(actor, int):
        raise BadRequest("command/unknown", f"{actor!r} gives no {bare['type']}", {})
    if bare["type"] in seating.SEAT_COMMANDS:
        return seating.decide(state, actor, bare)
    if bare["type"] in rounds.SEAT_COMMANDS:
        return rounds.submit(state, actor, command, rules, rng)
    return rules.decide(state["rules"], actor, bare, rng)


def _decide_in_turns(
    state: State, rules: ModuleType, actor: Actor, command: dict[str, Any], rng: Rng
) -> list[Event]:
    """A command in a game in turns: the moderator's, the rules', a seat's standing
    choices, and in a game with a clock the clock's own (such a command carries the
    referee's time, `now`, as in rounds)."""
    clocked = "clock" in state
    bare = command
    if clocked:
        _now(command)
        bare = {k: v for k, v in command.items() if k != "now"}
    if actor == REFEREE:
        if not clocked:
            raise BadRequest("command/unknown", "the referee gives no commands in this game", {})
        check_fields(bare, clocks.REFEREE_COMMANDS)
    elif actor == MODERATOR:
        check_fields(bare, {**MODERATOR_COMMANDS, **(clocks.MODERATOR_COMMANDS if clocked else {})})
        if bare["type"] in MODERATOR_COMMANDS:
            return _moderated(state, bare)
    else:
        assert isinstance(actor, int)
        check_fields(bare, _seat_shapes(rules, clocked))
        if bare["type"] in rules.COMMANDS:
            return sealed.complete(
                rules.decide(state["rules"], actor, bare, rng), state["seq"], rng
            )
        if bare["type"] in standing.SEAT_COMMANDS:
            return standing.decide(rules, actor, bare)
        if bare["type"] in seating.SEAT_COMMANDS:
            return seating.decide(state, actor, bare)

    def play(now_state: State, seat: int) -> list[Event]:
        return timeout_move_events(now_state, seat, rng)

    return sealed.complete(clocks.decide(state, actor, command, rules, play), state["seq"], rng)


def _moderated(state: State, command: dict[str, Any]) -> list[Event]:
    """The moderator's commands of every game: its own, and handing seats to bots."""
    if command["type"] in seating.MODERATOR_COMMANDS:
        return seating.moderate(state, command)
    return moderator.decide(state, command)


_SEAT_SHAPES: dict[tuple[ModuleType, bool], dict[str, Any]] = {}


def _seat_shapes(rules: ModuleType, clocked: bool) -> dict[str, Any]:
    """The seats' command shapes in a game in turns, made once per ruleset (read only)."""
    found = _SEAT_SHAPES.get((rules, clocked))
    if found is None:
        found = _SEAT_SHAPES[rules, clocked] = command_shapes(rules, clocked=clocked)[0]
    return found


def timeout_move(state: State, seat: int) -> dict[str, Any]:
    """The move the referee plays for a seat that let its clock run out: the ruleset's
    `timeout_move` (pure, always legal; docs/clocks.md)."""
    return rules_of(state).timeout_move(state["rules"], seat)


def timeout_move_events(state: State, seat: int, rng: Rng) -> list[Event]:
    """The rules' events of a seat's timeout move, decided as that seat's own command."""
    return rules_of(state).decide(state["rules"], seat, timeout_move(state, seat), rng)


def _acted(state: State, actor: Actor, command: dict[str, Any], records: list[Record]) -> set[int]:
    """The seats whose clock a batch restarts (if they are still asked): the seat that
    moved, a seat the referee or the moderator moved for, a seat given a new player."""
    acted = (
        {actor} if isinstance(actor, int) and command["type"] in rules_of(state).COMMANDS else set()
    )
    for record in records:
        if record["type"] in (
            "MovePlayedFor",
            "PlayerReplaced",
            "StandingChoiceApplied",
            "BotSeated",
        ):
            acted.add(record["payload"]["seat"])
    return acted


def _played_for(
    state: State, acted: set[int], command: dict[str, Any], seed: str, hashed: Hash
) -> tuple[list[Record], State]:
    """After a batch: the moves the referee plays for seats as they are asked (a seat on
    autopilot; a seat whose standing choices answer the question, as its own command),
    each until a question nobody answered in advance; then, in a clocked game, ClockSet
    if the clocks changed."""
    records: list[Record] = []
    rng = Rng(seed)
    for _ in range(clocks.MAX_AUTOPLAYED):
        if _play_stops(state):
            return records, state
        found = _answered_for(state, rng)
        if found is None:
            break
        seat, actor, events = found
        batch, state = _append([], state, events, actor, None, seed, hashed)
        records += batch
        acted = acted | {seat}
    if "clock" in state:
        clock_set = _clock_set(state, acted, command["now"])
        batch, state = _append([], state, clock_set, REFEREE, None, seed, hashed)
        records += batch
    return records, state


def _answered_for(state: State, rng: Rng) -> tuple[int, Actor, list[Event]] | None:
    """(seat, the records' actor, the events) of the next answer given for a seat."""
    rules = rules_of(state)
    waiting = rules.to_move(state["rules"])
    seat = clocks.autopiloted(state["clock"], waiting) if "clock" in state else None
    if seat is not None:
        marker = event("MovePlayedFor", {"seat": seat, "why": "autopilot"})
        moved = [marker, *timeout_move_events(state, seat, rng)]
        return seat, REFEREE, sealed.complete(moved, state["seq"], rng)
    found = standing.answer(state, rules, waiting)
    if found is None:
        return None
    seat, choice, command = found
    marker = event("StandingChoiceApplied", {"seat": seat, "choice": choice}, to=[seat])
    moved = [marker, *rules.decide(state["rules"], seat, command, rng)]
    return seat, seat, sealed.complete(moved, state["seq"], rng)


def _play_stops(state: State) -> bool:
    return state["status"] != ACTIVE or rules_of(state).outcome(state["rules"]) is not None


def _clock_set(state: State, acted: set[int], now: int) -> list[Event]:
    if _play_stops(state):
        return []
    waiting = rules_of(state).to_move(state["rules"])
    found = clocks.setting(state["clock"], waiting, acted, now)
    return [found] if found else []


def _now(command: dict[str, Any]) -> int:
    """The command's time, set by the referee: whole seconds since 1970 UTC."""
    now = command.get("now")
    if not isinstance(now, int) or isinstance(now, bool) or now < 0:
        raise BadRequest(
            "command/invalid", "now must be whole seconds, set by the referee", {"field": "now"}
        )
    return now


def stamp(state: State, command: dict[str, Any], now: int) -> dict[str, Any]:
    """The command with the referee's time in it, for a game played in rounds or with a
    clock."""
    if "rounds" not in state and "clock" not in state:
        return command
    return {**command, "now": now}


def warnings(state: State, records: list[Record]) -> list[dict[str, Any]]:
    """For a seat's submit_orders (its OrdersSubmitted among the records): what the rules
    would drop were the round resolved now."""
    inspect = optional(rules_of(state), "inspect_orders")
    sent = [r["payload"] for r in records if r["type"] == "OrdersSubmitted"]
    if inspect is None or not sent:
        return []
    return inspect(state["rules"], sent[0]["seat"], sent[0]["orders"])


def check_fields(command: dict[str, Any], shapes: dict[str, Any]) -> None:
    """The command's type must be known and it may carry only that type's fields."""
    kind = command.get("type")
    if kind not in shapes:
        raise BadRequest(
            "command/unknown", f"unknown command {kind!r}", {"field": "type", "known": list(shapes)}
        )
    fields = shapes[kind].get("fields", {})
    if all(key in fields or key == "type" for key in command):
        return
    extra = sorted(set(command) - {"type"} - set(fields))
    if extra:
        raise BadRequest(
            "command/invalid", f"{kind} has no field {extra[0]!r}", {"field": extra[0]}
        )


def _closing_records(state: State, seed: str, hashed: Hash) -> tuple[list[Record], State]:
    """GameEnded when the rules report an outcome, and SeedRevealed once play stops."""
    result = None
    if state["status"] == ACTIVE:
        result = rules_of(state).outcome(state["rules"])
        if result is None:
            return [], state
    # built only once play stops: the sealed orders still to reveal
    events: list[Event] = rounds.final_reveals(state) + _unrevealed(state)
    if result is not None:
        events.append({"type": "GameEnded", "visibility": PUBLIC, "payload": {"outcome": result}})
    events.append({"type": "SeedRevealed", "visibility": PUBLIC, "payload": {"seed": seed}})
    return _append([], state, events, REFEREE, None, seed, hashed)


def _unrevealed(state: State) -> list[Event]:
    """OrdersRevealed for the orders a ruleset in turns sealed and has not revealed."""
    unrevealed = optional(rules_of(state), "unrevealed")
    return unrevealed(state["rules"]) if unrevealed else []


def _append(
    records: list[Record],
    state: State | None,
    events: list[Event],
    actor: Actor,
    command: dict[str, Any] | None,
    seed: str,
    hashed: Hash = digest,
) -> tuple[list[Record], State]:
    """Number, salt, apply and hash each event in turn."""
    records = list(records)
    for index, ev in enumerate(events):
        seq = (state["seq"] if state else 0) + 1
        visibility = ev.get("visibility", PUBLIC)
        record = {
            "seq": seq,
            "type": ev["type"],
            "actor": actor,
            "visibility": visibility,
            "payload": ev.get("payload", {}),
            "command": command if index == 0 else None,
            "salt": None if visibility == PUBLIC else salt(seed, seq),
        }
        state = apply(state, record)
        record["state_hash"] = hashed(state)
        records.append(record)
    assert state is not None
    return records, state


def apply(state: State | None, record: Record) -> State:
    """The state after one record: engine events here, rule events by the ruleset."""
    kind = record["type"]
    if kind == "GameCreated":
        return _created(record)
    assert state is not None, "the first event of a game must be GameCreated"
    state = dict(state)
    state["seq"] = record["seq"]
    if kind not in ENGINE_EVENTS:  # most events are the rules': no engine kind to test
        state["rules"] = rules_of(state).apply(state["rules"], record)
    elif kind == "GameEnded":
        state["status"], state["outcome"] = FINISHED, record["payload"]["outcome"]
    elif kind == "GameAbandoned":
        state["status"] = ABANDONED
    elif kind == "SeedRevealed":
        state["seed"] = record["payload"]["seed"]
    elif kind == "StandingChoicesSet":
        state["standing"] = standing.apply(state, record["payload"])
    elif kind == "StandingChoiceApplied":
        pass  # a marker: the seat's answer follows as its own events
    elif kind in clocks.EVENTS and "clock" in state:
        state["clock"] = clocks.apply(state["clock"], kind, record["payload"])
    elif kind in seating.EVENTS:
        seating.apply(state, kind, record["payload"])
        if "clock" in state and kind == "BotSeated":  # the bot plays for the seat now
            state["clock"] = clocks.apply(state["clock"], "AutopilotEnded", record["payload"])
    elif kind in MODERATOR_EVENTS:
        moderator.apply(state, kind, record["payload"])
        if kind == "PlayerReplaced" and "clock" in state:
            state["clock"] = clocks.replaced(state["clock"], record["payload"]["seat"])
    elif kind in disputes.EVENTS or kind == "GameForked":
        disputes.apply(state, kind, record["payload"], record["seq"])
    elif kind in rounds.EVENTS and "rounds" in state:
        seats = len(state["players"])
        state["rounds"] = rounds.apply(
            state["rounds"], kind, record["payload"], record["seq"], seats
        )
    else:
        state["rules"] = rules_of(state).apply(state["rules"], record)
    return state


# every kind `apply` may take itself (a kind of clocks or rounds only in a game with them)
ENGINE_EVENTS = frozenset(
    (
        "GameEnded",
        "GameAbandoned",
        "SeedRevealed",
        "StandingChoicesSet",
        "StandingChoiceApplied",
        *clocks.EVENTS,
        *seating.EVENTS,
        *MODERATOR_EVENTS,
        *disputes.EVENTS,
        "GameForked",
        *rounds.EVENTS,
    )
)


def _created(record: Record) -> State:
    p = record["payload"]
    rules = registry.get(p["ruleset"])
    state = {
        "ruleset": p["ruleset"],
        "ruleset_version": p["ruleset_version"],
        "players": p["players"],
        "options": p["options"],
        "seed_commitment": p["seed_commitment"],
        "status": ACTIVE,
        "seq": record["seq"],
        "rules": _initial(rules, p),
        "outcome": None,
        "seed": None,
    }
    if rounds.has_rounds(rules):
        state["rounds"] = rounds.initial()
    if "clock" in p:
        state["clock"] = clocks.initial(p["clock"], len(p["players"]))
    if "bots" in p:
        state["bots"] = dict(p["bots"])
    return state


def _initial(rules: ModuleType, created: dict[str, Any]) -> Any:
    """The ruleset's table before setup, under the version the game was created with."""
    if len(versions(rules)) == 1:
        return rules.initial(created["players"], created["options"])
    return rules.initial(created["players"], created["options"], version=created["ruleset_version"])


def versions(rules: ModuleType) -> tuple[Any, ...]:
    """Every version of a ruleset this referee re-derives (the newest, VERSION, last)."""
    return tuple(optional(rules, "VERSIONS", (rules.VERSION,)))


def fold(records: list[Record], state: State | None = None) -> State:
    """The state after a run of records, from an earlier state or from nothing."""
    for record in records:
        state = apply(state, record)
    if state is None:
        raise ValueError("cannot fold an empty log")
    return state


def is_over(state: State) -> bool:
    """Whether the game has ended (finished or abandoned): then everything is public."""
    return state["status"] in (FINISHED, ABANDONED)


def is_closed(state: State) -> bool:
    """Whether play has stopped: ended, or closed by an amended ruling (its secrets stay
    sealed, since play goes on in the fork under the same seed)."""
    return state["status"] != ACTIVE


def view(state: State, viewer: Actor | None) -> dict[str, Any]:
    """What a viewer (seat, moderator, or None for a spectator) may know of a game."""
    rules = rules_of(state)
    over, closed = is_over(state), is_closed(state)
    seen_as = MODERATOR if over else viewer
    shown = {
        "ruleset": state["ruleset"],
        "ruleset_version": state["ruleset_version"],
        "players": state["players"],
        "options": state["options"],
        "status": state["status"],
        "version": state["seq"],
        "to_move": [] if closed else to_move(state),
        "state": rules.view(state["rules"], seen_as),
        "legal": [] if closed else legal(state, viewer),
        "outcome": state["outcome"],
        "seed_commitment": state["seed_commitment"],
        "seed": state["seed"],
    }
    if "rounds" in state:
        shown["round"] = round_view(state, seen_as)
    if "clock" in state:
        shown["clock"] = clock_view(state)
    if "bots" in state:  # who plays each seat is public, as the players' names are
        shown["bots"] = state["bots"]
    if standing.offered(rules):
        held = state.get("standing") or [[] for _ in state["players"]]
        if seen_as == MODERATOR:
            shown["standing_choices"] = held
        elif isinstance(viewer, int):
            shown["standing_choices"] = held[viewer]
    for link in ("forked_from", "forked_to"):
        if link in state:
            shown[link] = state[link]
    if state.get("disputes") and seen_as == MODERATOR:  # claims and amendments: see disputes
        shown["disputes"] = disputes.listed(state)
    # a copy: views leave the core, states are held and shared
    return copied(shown)


def to_move(state: State) -> list[Actor]:
    """Who may act now: the rules' answer, and in rounds every seat yet to submit."""
    waiting = rules_of(state).to_move(state["rules"])
    current = state.get("rounds", {}).get("current")
    if current and not current["closed"]:
        waiting = [s for s, sent in enumerate(current["submitted"]) if sent is None] + [
            a for a in waiting if not isinstance(a, int)
        ]
    return waiting


def legal(state: State, viewer: Actor | None) -> list[dict[str, Any]]:
    """The viewer's legal commands now (submit_orders only while its round takes orders)."""
    rules = rules_of(state)
    if not isinstance(viewer, int) and not (
        viewer == MODERATOR and "MODERATOR_COMMANDS" in vars(rules)
    ):
        return []
    commands = rules.legal(state["rules"], viewer)
    current = state.get("rounds", {}).get("current")
    if current is None or current["closed"]:
        commands = [c for c in commands if c.get("type") not in rounds.SEAT_COMMANDS]
    return commands


def round_view(state: State, viewer: Actor | None) -> dict[str, Any] | None:
    """The open round as a viewer sees it: deadline, who has submitted, its own orders;
    while paused, the time the round will have left when resumed (its deadline moves on
    by the time paused)."""
    rounds_state = state["rounds"]
    current, paused_at = rounds_state["current"], rounds_state["paused_at"]
    shown: dict[str, Any] = {"paused": paused_at is not None, "paused_at": paused_at, "open": None}
    if current is None:
        return shown
    shown["open"] = {
        "round": current["round"],
        "deadline": current["deadline"],
        "left_when_resumed": _left(current["deadline"], paused_at),
        "closed": current["closed"],
        "submitted": [s is not None for s in current["submitted"]],
    }
    if isinstance(viewer, int) and current["submitted"][viewer]:
        mine = current["submitted"][viewer]
        shown["open"]["my_orders"] = {
            "seq": mine["seq"],
            "orders": mine["orders"],
            "commitment": sealed.commitment(mine["salt"], mine["orders"]),
        }
    return shown


def clock_view(state: State) -> dict[str, Any]:
    """A clocked game's clocks (public, as who is asked is): the settings, each seat's
    deadline, who is late or on autopilot, and each seat's own extensions left; while
    paused, the time each running clock will have left when resumed."""
    clock = state["clock"]
    keys = (*clocks.SETTINGS, "deadlines", "late", "autopilot")
    shown = {key: clock[key] for key in keys if key in clock}
    shown["extensions_left"] = clock["extensions_left"]
    paused_at = clock["paused_at"]
    shown["paused"] = paused_at is not None
    shown["paused_at"] = paused_at
    shown["left_when_resumed"] = (
        None if paused_at is None else [_left(d, paused_at) for d in clock["deadlines"]]
    )
    return shown


def _left(deadline: int | None, paused_at: int | None) -> int | None:
    """Seconds a deadline will have left when a pause that began at `paused_at` ends."""
    if deadline is None or paused_at is None:
        return None
    return max(0, deadline - paused_at)


# what a viewer gets of an event it may not see: its place in the chain, nothing that
# depends on its content, author, audience or time (docs/log-format.md, Redaction)
STUB_KEYS = ("seq", "prev_hash", "hash")


def redact(record: Record, viewer: Actor | None, over: bool) -> Record:
    """A record as a viewer may see it; state hashes are withheld until play stops."""
    if over or viewer == MODERATOR:
        return record
    if may_see(record["visibility"], viewer):
        return {k: v for k, v in record.items() if k != "state_hash"}
    return stub(record)


def stub(record: Record) -> Record:
    """An event a viewer may not see: where it sits in the chain, and that it is hidden."""
    return {**{k: record[k] for k in STUB_KEYS if k in record}, "redacted": True}
