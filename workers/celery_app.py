"""The Celery app, wired the way Flask's Celery example does it."""

import logging
import os
import queue
import threading
from datetime import UTC, datetime

# the result backend's module, imported here with the app and never later: Celery
# imports it on a thread's first task sent, and an import still under way when a signal
# handler, another thread or a greenlet needs it too hands that one a half-made module
# ("partially initialized module 'celery.backends.redis' has no attribute
# 'RedisBackend'") and the process stops with a traceback
import celery.backends.redis  # noqa: F401
from celery import Celery, Task
from flask import Flask

from referee.notify import deliveries
from referee.service import NEAR_SECONDS

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
SWEEP_SECONDS = 2.0
# Redis hands a task out again when the worker holding it has not acknowledged it this
# many seconds after taking it: kombu's default, said here as timed tasks depend on it
VISIBILITY_TIMEOUT = 3600
# resolving rounds appends to the SQLite file, so only workers on the referee node
# consume the `rounds` queue; the default queue's tasks carry their whole input and
# run on any machine
ROUNDS_QUEUE, ANYWHERE_QUEUE = "rounds", "celery"
log = logging.getLogger(__name__)


def make_celery(
    broker: str | None = None,
    *,
    sweep_seconds: float = SWEEP_SECONDS,
    visibility_timeout: int = VISIBILITY_TIMEOUT,
) -> Celery:
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
        # a publish gives up quickly when Redis is gone (the sweeper catches up)
        broker_connection_timeout=2,
        broker_transport_options={
            "socket_connect_timeout": 2,
            "socket_timeout": 5,
            "visibility_timeout": visibility_timeout,
            # look for tasks held past it every quarter of it, at most every 10 s (kombu
            # looks every 100 s), so the timeout is kept to within a quarter of itself
            "unacked_restore_interval": max(1, min(10, visibility_timeout // 4)),
            "unacked_restore_throttle": 1,
        },
        task_routes={
            "referee.resolve_round": {"queue": ROUNDS_QUEUE},
            "referee.sweep_rounds": {"queue": ROUNDS_QUEUE},
            "referee.time_out": {"queue": ROUNDS_QUEUE},
            "referee.deliver": {"queue": ROUNDS_QUEUE},
            # a bot move reads the game and appends to it, as a resolution does
            "referee.bot_move": {"queue": ROUNDS_QUEUE},
        },
        beat_schedule={
            "sweep-rounds": {"task": "referee.sweep_rounds", "schedule": sweep_seconds},
        },
    )
    return app


class CeleryScheduler:
    """Asks a worker to resolve a round: at its deadline (an ETA task), or now; and to
    time out a seat's clock at its deadline.

    A command never waits on the broker: the round's `due` row is already committed, so
    the task is only an optimisation. `resolve` hands the message to a publisher thread
    of this process and returns; the thread sends it with a short timeout and no retry,
    and a message it could not send is left to the sweeper, which resolves the round
    once a worker and Redis are back."""

    def __init__(self, celery: Celery) -> None:
        self.celery = celery
        self._outbox: queue.SimpleQueue[tuple[str, list, int | None]] = queue.SimpleQueue()
        self._publisher: tuple[int, threading.Thread] | None = None
        self._lock = threading.Lock()

    def resolve(self, game_id: str, round_number: int, eta: int | None) -> None:
        """Queue resolve_round for the publisher thread (started in this process on first
        use: a forked server process starts its own)."""
        self._outbox.put(("referee.resolve_round", [game_id, round_number], eta))
        self._start()

    def time_out(self, game_id: str, seat: int, deadline: int) -> None:
        """Queue time_out at the clock's deadline for the publisher thread."""
        self._outbox.put(("referee.time_out", [game_id, seat, deadline], deadline))
        self._start()

    def deliver(self, delivery_ids: list[str]) -> None:
        """Queue deliver for the publisher thread (notices due now), a task a batch."""
        for batch in deliveries.in_batches(delivery_ids):
            self._outbox.put(("referee.deliver", batch, None))
        self._start()

    def bot_move(self, game_id: str, version: int, seat: int) -> None:
        """Queue bot_move for the publisher thread (a bot is asked to move now)."""
        self._outbox.put(("referee.bot_move", [game_id, version, seat], None))
        self._start()

    def publish(self, task: str, args: list, eta: int | None) -> bool:
        """Send one task now; False (logged) if the broker did not take it."""
        options = {} if eta is None else {"eta": datetime.fromtimestamp(eta, UTC)}
        try:
            self.celery.send_task(
                task,
                args=args,
                retry=False,
                ignore_result=True,  # no result backend in the way (it retries for 20 s)
                **options,
            )
        except Exception as exc:  # noqa: BLE001 - the sweeper catches up anyway
            log.warning(
                "%s %s not sent (%s); the sweeper will catch up",
                task.removeprefix("referee."),
                args,
                type(exc).__name__,
            )
            return False
        return True

    def _start(self) -> None:
        with self._lock:
            held = self._publisher
            if held is not None and held[0] == os.getpid() and held[1].is_alive():
                return
            thread = threading.Thread(target=self._drain, name="resolve-publisher", daemon=True)
            thread.start()
            self._publisher = (os.getpid(), thread)

    def _drain(self) -> None:
        while True:
            self.publish(*self._outbox.get())


def celery_init_app(app: Flask) -> Celery:
    """Attach Celery to a Flask app so tasks run inside its app context, and let the
    app's Referee schedule round resolutions through it."""

    class FlaskTask(Task):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context():
                return self.run(*args, **kwargs)

    visibility = app.config.get("VISIBILITY_TIMEOUT", VISIBILITY_TIMEOUT)
    celery = make_celery(
        app.config.get("REDIS_URL"),
        sweep_seconds=app.config.get("SWEEP_SECONDS", SWEEP_SECONDS),
        visibility_timeout=visibility,
    )
    celery.Task = FlaskTask  # type: ignore[misc]
    celery.set_default()
    app.extensions["celery"] = celery
    referee = app.extensions["referee"]
    referee.scheduler = CeleryScheduler(celery)
    referee.arming_seconds = arming_horizon(
        visibility, app.config.get("ARMING_SECONDS", NEAR_SECONDS)
    )
    return celery


def arming_horizon(visibility_timeout: int, asked: int) -> int:
    """How near a deadline must be for its timed task to be sent: as asked, but at most
    half the visibility timeout (a timed task is held unacknowledged until its deadline,
    and must be acknowledged before Redis hands it out again) and at most NEAR_SECONDS."""
    return max(0, min(asked, visibility_timeout // 2, NEAR_SECONDS))
