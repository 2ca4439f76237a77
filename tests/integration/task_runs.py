"""Where a test's worker counts the runs of each task (tests/integration/counted_worker.py,
stalling_worker.py)."""

import json
from typing import Any


def runs_key(task: str, args: list[Any]) -> str:
    """The Redis key counting a task's runs with these arguments."""
    return f"test:runs:{task}:{json.dumps(args)}"


def holder_key(task: str, args: list[Any]) -> str:
    """The Redis key holding the pid of the process that runs a task's first run
    (tests/integration/stalling_worker.py)."""
    return f"test:holder:{task}:{json.dumps(args)}"
