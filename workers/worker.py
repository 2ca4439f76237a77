"""The worker's entry point: `celery -A workers.worker worker` (what `referee serve` and
`referee worker` start). It builds the Flask app on REFEREE_DB and REDIS_URL, as the
Flask Celery example's make_celery.py does, so tasks use the same store code."""

import os
import time

from referee.app import create_app

from .celery_app import DEFAULT_BROKER

flask_app = create_app({"REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_BROKER)})
celery = flask_app.extensions["celery"]

# fault injection for the tests that kill a worker mid-resolution: this many seconds of
# sleep inside each append's transaction, after its inserts and before its COMMIT
PAUSE_BEFORE_COMMIT = float(os.environ.get("REFEREE_PAUSE_BEFORE_COMMIT", "0") or 0)
if PAUSE_BEFORE_COMMIT:
    flask_app.extensions["referee"].store.before_commit = lambda: time.sleep(PAUSE_BEFORE_COMMIT)
