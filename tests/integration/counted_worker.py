"""workers.worker as it is, counting in its Redis each time a task begins to run, so a
test can tell how often a task ran, not only what it did (a task Redis hands out again
runs again, and only its first run changes anything)."""

from typing import Any

from celery.signals import task_prerun
from task_runs import runs_key

from workers.worker import celery, flask_app  # noqa: F401  (the app Celery loads)


@task_prerun.connect
def count_run(task: Any, args: Any, **_: Any) -> None:
    """One more run of this task with these arguments."""
    celery.backend.client.incr(runs_key(task.name, list(args)))
