"""Marshmallow schemas for every HTTP body, and the OpenAPI document built from them."""

from collections.abc import Callable
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from referee.engine import clocks, seating
from referee.engine.names import NAME_LIMIT, name_problem


def _printable_name(name: str) -> None:
    problem = name_problem(name)
    if problem:
        raise ValidationError(problem)


NAME: list[Callable[[str], Any]] = [validate.Length(min=1, max=NAME_LIMIT), _printable_name]
MAX_SEQ = 2**63 - 1  # SQLite's largest integer


class Body(Schema):
    """A schema of this API. Its instances are never changed once made, so a copy of one
    is itself: flask-smorest deep-copies every view's documents, schemas in them, each
    time an app registers its blueprints (a third of making an app, in every test)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "Body":
        return self


class ClockSchema(Body):
    """A turn clock for a game played in turns (docs/clocks.md)."""

    seconds = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=clocks.MIN_SECONDS, max=clocks.MAX_SECONDS),
        metadata={"description": "the time limit per move, in seconds"},
    )
    on_timeout = fields.String(
        load_default=clocks.WAIT,
        validate=validate.OneOf(clocks.ON_TIMEOUT),
        metadata={
            "description": "wait: the seat is marked late and the moderator decides; "
            "default: the referee plays the seat's timeout move; autopilot: it does so for "
            "the rest of the game, until the seat rejoins or is given a new player"
        },
    )
    extensions = fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(min=0, max=clocks.MAX_EXTENSIONS),
        metadata={"description": "how many times each seat may take more time itself"},
    )
    autopilot_level = fields.String(
        validate=validate.OneOf(clocks.AUTOPILOT_LEVELS),
        metadata={
            "description": "who the autopilot is: standard (the default), the referee's "
            "timeout moves in the same batch; strong, the strong bot, handed the seat when "
            "its time runs out (BotSeated by the clock) until the player takes it back "
            "(GET /rulesets/{id} bot_levels says where it plays)"
        },
    )


class BotSeatSchema(Body):
    """A seat a bot plays from the start: its level, and a name ("Bot 2" by default)."""

    bot = fields.String(
        required=True,
        validate=validate.OneOf(seating.LEVELS),
        metadata={"description": "the bot's level (GET /rulesets/{id} bot_levels)"},
    )
    name = fields.String(validate=NAME)


class PlayerField(fields.Field):
    """A seat at creation: a player's name, or a bot ({"bot": level, "name": ...})."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            for check in NAME:
                check(value)
            return value
        if isinstance(value, dict):
            return BotSeatSchema().load(value)
        raise ValidationError('a player\'s name, or a bot: {"bot": "standard"}')


class SubscriptionCreateSchema(Body):
    """POST /games/{id}/subscriptions: a target and what to be told."""

    kind = fields.String(
        required=True,
        validate=validate.OneOf(["webhook", "apprise"]),
        metadata={"description": "webhook: signed HTTP POSTs; apprise: an Apprise URL"},
    )
    url = fields.String(required=True, validate=validate.Length(min=8, max=2000))
    events = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        validate=validate.Length(max=20),
        metadata={
            "description": "the notices to send (default: every one you may get but the "
            "moderator's `post`, sent only when named)"
        },
    )
    reminders = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=168)),
        validate=validate.Length(max=5),
        metadata={"description": "hours before each of your deadlines to be reminded"},
    )


class SubscriptionSchema(Body):
    """A subscription as its owner sees it; `secret` only when it is made or rotated."""

    subscription_id = fields.String()
    kind = fields.String()
    url = fields.String(metadata={"description": "an Apprise URL is shown without its credentials"})
    events = fields.List(fields.String())
    reminders = fields.List(fields.Integer())
    active = fields.Boolean()
    disabled_reason = fields.String(allow_none=True)
    secret = fields.String(metadata={"description": "the webhook's signing secret (whsec_...)"})


class DeliverySchema(Body):
    """One notice's delivery to one subscription."""

    delivery_id = fields.String(metadata={"description": "the webhook-id header"})
    seq = fields.Integer()
    kind = fields.String()
    status = fields.String(
        metadata={
            "description": "pending, delivered, failed (to be tried again at next_at),"
            " gave_up (no more attempts) or dropped (the game moved past it)"
        }
    )
    attempts = fields.Integer()
    answer = fields.String(
        allow_none=True,
        metadata={"description": "the referee's word on it, never what the target answered"},
    )
    created_at = fields.Integer()
    updated_at = fields.Integer()
    next_at = fields.Integer()


class GameCreateSchema(Body):
    """POST /games: which ruleset, who plays, options, optionally the seed, and for a
    game in turns optionally a clock."""

    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.List(
        PlayerField(),
        required=True,
        validate=validate.Length(min=1, max=12),
        metadata={
            "description": 'each seat: its player\'s name, or {"bot": level} for a seat a '
            'bot plays ({"bot": level, "name": "Robo"} to name it; "Bot 2" by default)'
        },
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=256))
    clock = fields.Nested(ClockSchema)


class SeatSchema(Body):
    """A seat with its player's name and bearer token."""

    seat = fields.Integer()
    name = fields.String()
    token = fields.String()
    bot = fields.String(metadata={"description": "a seat a bot plays: its level"})


class GameCreatedSchema(Body):
    """The answer to POST /games: tokens are shown once, here."""

    game_id = fields.String()
    moderator_token = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    seed_commitment = fields.String()
    version = fields.Integer()


class CommandSchema(Body):
    """POST /games/{id}/commands: a command type, its fields, and an optional version check."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=0))

    def plain(self, data: Any) -> dict[str, Any] | None:
        """The body as load() returns it, when it is plainly valid (a type of 1-64
        characters, a version that is a whole number from 0); else None, and load() says
        what is wrong. Commands come more than anything else: this is their quick path."""
        if type(data) is not dict or type(data.get("type")) is not str:
            return None
        if not 1 <= len(data["type"]) <= 64:
            return None
        version = data.get("expected_version", 0)
        if type(version) is not int or version < 0:
            return None
        return dict(data)  # a dict of its own, as load() makes


class EventSchema(Body):
    """An event as the caller may see it (redacted events carry no payload)."""

    class Meta:
        unknown = INCLUDE

    game_id = fields.String()
    seq = fields.Integer()
    type = fields.String()
    actor = fields.Raw()
    visibility = fields.Raw()
    payload = fields.Dict()
    command = fields.Dict(allow_none=True)
    salt = fields.String(allow_none=True)
    state_hash = fields.String()
    recorded_at = fields.String()
    prev_hash = fields.String()
    hash = fields.String()
    redacted = fields.Boolean()


class ReceiptSchema(Body):
    """A seat's proof that its sealed orders were recorded."""

    round = fields.Integer()
    seq = fields.Integer(metadata={"description": "seq of the public OrdersCommitted event"})
    commitment = fields.String(metadata={"description": "sha256(salt || canonical orders)"})
    recorded_at = fields.String()
    hash = fields.String(metadata={"description": "chain hash of the OrdersCommitted event"})


class WarningSchema(Body):
    """A part of the orders the rules would drop were the round resolved now."""

    part = fields.String()
    rule = fields.String()
    message = fields.String()


class CommandResultSchema(Body):
    """The events a command appended, as its sender may see them; `token` only when a
    moderator's replace_player issued one (shown once); `receipt` and `warnings` for
    submit_orders."""

    events = fields.List(fields.Nested(EventSchema))
    version = fields.Integer()
    token = fields.String()
    receipt = fields.Nested(ReceiptSchema)
    warnings = fields.List(fields.Nested(WarningSchema))


class EventStreamSchema(Body):
    """GET /games/{id}/events."""

    game_id = fields.String()
    events = fields.List(fields.Nested(EventSchema))
    version = fields.Integer()


class EventsQuerySchema(Body):
    """?after=N: only events with seq > N."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ))


class BoardQuerySchema(Body):
    """?at=SEQ: the board after that event (default: now)."""

    at = fields.Integer(validate=validate.Range(min=1, max=MAX_SEQ))


class SummaryQuerySchema(Body):
    """?format=markdown|bbcode for a round summary."""

    format = fields.String(load_default="markdown", validate=validate.OneOf(["markdown", "bbcode"]))


class PostQuerySchema(Body):
    """?since=SEQ&format=markdown|bbcode for a forum post."""

    format = fields.String(load_default="markdown", validate=validate.OneOf(["markdown", "bbcode"]))
    since = fields.Integer(
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={
            "description": "the last event the previous post told; by default, the last "
            "post the moderator marked as posted (0 before any)"
        },
    )


class PostedSchema(Body):
    """Where the next forum post starts: after event `since`."""

    game_id = fields.String(dump_only=True)
    since = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "the last event of the post that was posted"},
    )


class GameViewSchema(Body):
    """A viewer's view of a game."""

    class Meta:
        unknown = INCLUDE

    game_id = fields.String()
    ruleset = fields.String()
    ruleset_version = fields.Raw(
        metadata={"description": "as the ruleset names it (text or number)"}
    )
    players = fields.List(fields.String())
    options = fields.Dict()
    status = fields.String()
    version = fields.Integer()
    to_move = fields.List(fields.Raw(), metadata={"description": "seats, or `moderator`"})
    state = fields.Dict()
    legal = fields.List(fields.Dict())
    outcome = fields.Dict(allow_none=True)
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)
    round = fields.Dict(
        metadata={
            "description": "games in rounds: the open round, its deadline, who has sent; "
            "while paused, when the pause began and the time the round will have left"
        }
    )
    bots = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "a game that has had bots: the seats bots play now (seat "
            "number as text -> level); a seat not in it is played by its player"
        },
    )
    standing_choices = fields.Raw(
        metadata={
            "description": "a seat's own standing choices (the moderator: every seat's); "
            "absent for a spectator"
        }
    )
    clock = fields.Dict(
        metadata={
            "description": "games in turns with a clock: its settings, each seat's deadline "
            "(seconds and UTC text; null while not asked), who is late or on autopilot, "
            "the extensions each seat has left, and whether it is paused (since when, and "
            "the time each clock will have left when the game resumes)"
        }
    )
    forked_from = fields.Dict(
        metadata={"description": "a fork: {from_game, at, at_hash, dispute} of its original"}
    )
    forked_to = fields.String(
        metadata={"description": "a game closed by an amended ruling: the fork that goes on"}
    )
    disputes = fields.List(
        fields.Dict(),
        metadata={
            "description": "the moderator's (everyone's once the game is over): each dispute's "
            "number (the seq of its DisputeOpened), claim, amendment and ruling (null while open)"
        },
    )


class RulesetSchema(Body):
    """A ruleset: players, options with defaults and what each means, command shapes, and
    the content that explains the ids in its views (cards, abilities, action spaces, map)."""

    id = fields.String()
    version = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    default_players = fields.Integer()
    options = fields.Dict()
    option_texts = fields.Dict(keys=fields.String(), values=fields.String())
    commands = fields.Dict()
    moderator_commands = fields.Dict()
    content = fields.Dict()
    clock = fields.Dict(
        allow_none=True,
        metadata={
            "description": "a ruleset in turns: the clock's settings at creation and the "
            "commands a clocked game adds (null for a ruleset in rounds)"
        },
    )
    standing_choices = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "the routine questions a seat may answer in advance "
            "(set_standing_choices): id -> what it does"
        },
    )
    bot_levels = fields.List(
        fields.String(),
        metadata={
            "description": "the levels of the bots that play this ruleset here, for seats "
            "at creation, seat_bot, hand_to_bot and a clock's autopilot_level"
        },
    )


class ErrorBodySchema(Body):
    """code (namespaced), message, details."""

    code = fields.String()
    message = fields.String()
    details = fields.Dict()


class ErrorResponseSchema(Body):
    """Every error: {"error": {"code", "message", "details"}}."""

    error = fields.Nested(ErrorBodySchema)


class DisputeCreateSchema(Body):
    """POST /games/{id}/disputes: the claim, and the amendment whose fork settles it."""

    claim = fields.String(required=True, validate=validate.Length(min=1, max=4000))
    amendment = fields.Dict(
        required=True,
        metadata={
            "description": "{kind: submission, round, seat, orders} | {kind: drop, seq} | "
            "{kind: insert, before, actor, command} | {kind: replace, seq, command}"
        },
    )


class RulingSchema(Body):
    """POST /games/{id}/disputes/{d}/ruling."""

    ruling = fields.String(required=True, validate=validate.OneOf(["kept", "amended"]))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=4000))


class DisputeReportSchema(Body):
    """A dispute's fork: where it parts from the log, what it put in, how many later
    commands were replayed and which the rules refused, and the consequences."""

    class Meta:
        unknown = INCLUDE

    dispute = fields.Integer(metadata={"description": "the seq of the DisputeOpened event"})
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    fork = fields.Dict()
    consequences = fields.Dict()
    fork_game_id = fields.String(metadata={"description": "the game an amended ruling opens"})
    text = fields.String(metadata={"description": "the report as plain text"})


class ImportSchema(Body):
    """POST /games/import as JSON: the JSONL log as text, and the seed of a game still
    being played (checked against its commitment). A finished log can also be sent as
    the body itself, with Content-Type application/x-ndjson."""

    log = fields.String(required=True, validate=validate.Length(min=1))
    seed = fields.String(validate=validate.Length(min=1, max=256))


class ImportedSchema(GameCreatedSchema):
    """The answer to an import: new tokens for the imported game, and what was checked."""

    status = fields.String()
    checks = fields.Dict(keys=fields.String(), values=fields.String())


class HealthSchema(Body):
    """GET /healthz and /readyz: a status and, for readiness, each check's result."""

    status = fields.String(metadata={"description": "alive | ready | not_ready"})
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        metadata={"description": "database, disk, broker, sweeper, rounds: {ok, ...}"},
    )
