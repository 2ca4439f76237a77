"""Notifications: a seat or the moderator subscribes a webhook or an Apprise URL to a
game, reads each subscription's delivery log, has a delivery sent again, and rotates a
webhook's signing secret (docs/notifications.md)."""

from flask_smorest import Blueprint

from schemas import DeliverySchema, SubscriptionCreateSchema, SubscriptionSchema

from ..engine.errors import Unauthorized
from ..service import role_name
from .bodies import CanonicalJsonParser
from .games import bearer_token, error_responses, referee

bp = Blueprint(
    "subscriptions", __name__, url_prefix="/games", description="Notifications of a game."
)
bp.ARGUMENTS_PARSER = CanonicalJsonParser()
_document_errors = error_responses(bp)


def subscriber(game_id: str) -> str:
    """The role of the token's holder: a seat or the moderator (401 for a spectator)."""
    viewer = referee().viewer(game_id, bearer_token())
    if viewer is None:
        raise Unauthorized("auth/required", "send a seat's or the moderator's token", {})
    return role_name(viewer)


@bp.route("/<game_id:game_id>/subscriptions", methods=["POST"])
@bp.arguments(SubscriptionCreateSchema(), error_status_code=400)
@bp.response(201, SubscriptionSchema)
@_document_errors
def subscribe(body, game_id: str):
    """Subscribe a target to your notices of this game: a seat's tell it only what it
    may see, the moderator's what the moderator sees. A webhook's signing secret is in
    this answer only. The target must resolve to public addresses (400
    subscription/not_public); 5 per seat or moderator, 30 per game (409
    subscription/too_many)."""
    return referee().subscriptions.subscribe(game_id, subscriber(game_id), body)


@bp.route("/<game_id:game_id>/subscriptions")
@bp.response(200, SubscriptionSchema(many=True))
@_document_errors
def list_subscriptions(game_id: str):
    """Your subscriptions to this game (a disabled one says why)."""
    return referee().subscriptions.listed(game_id, subscriber(game_id))


@bp.route("/<game_id:game_id>/subscriptions/<subscription_id>", methods=["DELETE"])
@bp.response(204)
@_document_errors
def unsubscribe(game_id: str, subscription_id: str):
    """Remove one of your subscriptions."""
    referee().subscriptions.unsubscribe(game_id, subscriber(game_id), subscription_id)


@bp.route("/<game_id:game_id>/subscriptions/<subscription_id>/rotate", methods=["POST"])
@bp.response(200, SubscriptionSchema)
@_document_errors
def rotate(game_id: str, subscription_id: str):
    """A new signing secret for a webhook (in this answer only); the old one still signs
    for a day, so a receiver can change over."""
    return referee().subscriptions.rotate(game_id, subscriber(game_id), subscription_id)


@bp.route("/<game_id:game_id>/subscriptions/<subscription_id>/deliveries")
@bp.response(200, DeliverySchema(many=True))
@_document_errors
def deliveries(game_id: str, subscription_id: str):
    """The delivery log: each notice, its status (delivered, failed and to be tried
    again, gave up...) and attempts; never what the target answered."""
    return referee().subscriptions.deliveries(game_id, subscriber(game_id), subscription_id)


@bp.route(
    "/<game_id:game_id>/subscriptions/<subscription_id>/deliveries/<delivery_id>/redeliver",
    methods=["POST"],
)
@bp.response(202, DeliverySchema)
@_document_errors
def redeliver(game_id: str, subscription_id: str, delivery_id: str):
    """Send a recent delivery again, under the same id (a disabled subscription is
    enabled again)."""
    service = referee()
    role = subscriber(game_id)
    pending = service.subscriptions.redeliver(game_id, role, subscription_id, delivery_id)
    if service.scheduler is not None:
        service.scheduler.deliver([delivery_id])
    return pending
