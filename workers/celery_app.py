"""The Celery app, wired the way Flask's Celery example does it."""

import os

from celery import Celery, Task
from flask import Flask

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"


def make_celery(broker: str | None = None) -> Celery:
    """A Celery app on Redis (REDIS_URL), with the tasks of workers.tasks."""
    url = broker or os.environ.get("REDIS_URL", DEFAULT_BROKER)
    app = Celery("referee", broker=url, backend=url, include=["workers.tasks"])
    app.conf.update(
        task_acks_late=True,  # a task whose worker dies is delivered again
        task_reject_on_worker_lost=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
    )
    return app


def celery_init_app(app: Flask) -> Celery:
    """Attach Celery to a Flask app so tasks run inside its app context."""

    class FlaskTask(Task):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context():
                return self.run(*args, **kwargs)

    celery = make_celery(app.config.get("REDIS_URL"))
    celery.Task = FlaskTask  # type: ignore[misc]
    celery.set_default()
    app.extensions["celery"] = celery
    return celery


celery = make_celery()
