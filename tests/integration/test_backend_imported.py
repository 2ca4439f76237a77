"""The result backend's module is imported with the Celery app, before any thread,
greenlet or signal handler can need it: imported lazily on the first task sent, an
import still under way when `referee serve` was stopped handed a second importer a half
-made module, and the stop printed "partially initialized module
'celery.backends.redis' has no attribute 'RedisBackend'"."""

import subprocess
import sys

SAYS = """
import sys
import workers.celery_app
module = sys.modules.get("celery.backends.redis")
print(module is not None and hasattr(module, "RedisBackend"))
"""


def test_the_app_brings_its_result_backend_whole():
    said = subprocess.run([sys.executable, "-c", SAYS], capture_output=True, text=True, check=True)
    assert said.stdout.strip() == "True", said.stderr
