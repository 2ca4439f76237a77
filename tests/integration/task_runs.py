"""Where a test's worker counts the runs of each task (tests/integration/counted_worker.py)."""

import json
from typing import Any


def runs_key(task: str, args: list[Any]) -> str:
    """The Redis key counting a task's runs with these arguments."""
    return f"test:runs:{task}:{json.dumps(args)}"
