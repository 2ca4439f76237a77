"""The Celery app, wired the way Flask's Celery example does it."""

import logging
import os
from datetime import UTC, datetime

from celery import Celery, Task
from flask import Flask

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
SWEEP_SECONDS = 2.0
# resolving rounds appends to the SQLite file, so only workers on the referee node
# consume the `rounds` queue; the default queue's tasks carry their whole input and
# run on any machine
ROUNDS_QUEUE, ANYWHERE_QUEUE = "rounds", "celery"
log = logging.getLogger(__name__)


def make_celery(broker: str | None = None, *, sweep_seconds: float = SWEEP_SECONDS) -> Celery:
    """A Celery app on Redis (REDIS_URL), with the tasks of workers.tasks and the
    sweeper of overdue rounds on its beat schedule."""
    url = broker or os.environ.get("REDIS_URL", DEFAULT_BROKER)
    app = Celery("referee", broker=url, backend=url, include=["workers.tasks"])
    app.conf.update(
        task_acks_late=True,  # a task whose worker dies is delivered again
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=3600,
        broker_connection_retry_on_startup=True,
        task_routes={
            "referee.resolve_round": {"queue": ROUNDS_QUEUE},
            "referee.sweep_rounds": {"queue": ROUNDS_QUEUE},
        },
        beat_schedule={
            "sweep-rounds": {"task": "referee.sweep_rounds", "schedule": sweep_seconds},
        },
    )
    return app


class CeleryScheduler:
    """Asks a worker to resolve a round: at its deadline (an ETA task), or now."""

    def __init__(self, celery: Celery) -> None:
        self.celery = celery

    def resolve(self, game_id: str, round_number: int, eta: int | None) -> None:
        """Send resolve_round; a lost message is caught up by the sweeper, so a broker
        error is logged, never raised into the command that was already recorded."""
        options = {} if eta is None else {"eta": datetime.fromtimestamp(eta, UTC)}
        try:
            self.celery.send_task("referee.resolve_round", args=[game_id, round_number], **options)
        except Exception:  # noqa: BLE001 - the sweeper resolves the round anyway
            log.exception("could not send resolve_round for round %s", round_number)


def celery_init_app(app: Flask) -> Celery:
    """Attach Celery to a Flask app so tasks run inside its app context, and let the
    app's Referee schedule round resolutions through it."""

    class FlaskTask(Task):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context():
                return self.run(*args, **kwargs)

    celery = make_celery(
        app.config.get("REDIS_URL"), sweep_seconds=app.config.get("SWEEP_SECONDS", SWEEP_SECONDS)
    )
    celery.Task = FlaskTask  # type: ignore[misc]
    celery.set_default()
    app.extensions["celery"] = celery
    app.extensions["referee"].scheduler = CeleryScheduler(celery)
    return celery
