"""workers.worker as it is, but the first run of each task stalls once it has begun, the
pid of the process running it in Redis, so a test can kill that process mid-task (the
second run, the task delivered again, goes through)."""

import os
import time
from typing import Any

from celery.signals import task_prerun
from task_runs import holder_key, runs_key

from workers.worker import celery, flask_app  # noqa: F401  (the app Celery loads)

STALL_SECONDS = 600  # the test kills the process long before


@task_prerun.connect
def stall_first_run(task: Any, args: Any, **_: Any) -> None:
    """Count the run; the first one says which process holds it, and stalls."""
    client = celery.backend.client
    if client.incr(runs_key(task.name, list(args))) == 1:
        client.set(holder_key(task.name, list(args)), os.getpid())
        time.sleep(STALL_SECONDS)
