"""workers.worker as it is, counting in its Redis each time a task begins to run, so a
test can tell how often a task ran, not only what it did (a task Redis hands out again
runs again, and only its first run changes anything)."""

import json
from typing import Any

from celery.signals import task_prerun

from workers.worker import celery, flask_app  # noqa: F401  (the app Celery loads)


def runs_key(task: str, args: list[Any]) -> str:
    """The Redis key counting a task's runs with these arguments."""
    return f"test:runs:{task}:{json.dumps(args)}"


@task_prerun.connect
def count_run(task: Any, args: Any, **_: Any) -> None:
    """One more run of this task with these arguments."""
    celery.backend.client.incr(runs_key(task.name, list(args)))
