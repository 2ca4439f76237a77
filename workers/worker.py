"""The worker's entry point: `celery -A workers.worker worker` (what `referee serve` and
`referee worker` start). It builds the Flask app on REFEREE_DB and REDIS_URL, as the
Flask Celery example's make_celery.py does, so tasks use the same store code."""

import fcntl
import logging
import os
import signal
import time
import warnings
from pathlib import Path
from typing import Any

from celery.exceptions import SecurityWarning
from celery.signals import after_setup_logger, beat_init, worker_process_init

from referee.app import create_app
from referee.serve.supervisor import set_parent_death_signal
from referee.store.postgres import PostgresStore

from .celery_app import DEFAULT_BROKER

flask_app = create_app({"REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_BROKER)})
celery = flask_app.extensions["celery"]
log = logging.getLogger("referee.beat")
# the operator reads docs/deployment.md ("run as a user of its own"), not a banner
warnings.filterwarnings("ignore", category=SecurityWarning)

# fault injection for the tests that kill a worker mid-resolution: this many seconds of
# sleep inside each append's transaction, after its inserts and before its COMMIT
PAUSE_BEFORE_COMMIT = float(os.environ.get("REFEREE_PAUSE_BEFORE_COMMIT", "0") or 0)
if PAUSE_BEFORE_COMMIT:
    flask_app.extensions["referee"].store.before_commit = lambda: time.sleep(PAUSE_BEFORE_COMMIT)

_held: list[Any] = []  # the beat's lock file, open while the beat runs
WORKER_PID = os.getpid()  # the worker's own process, which forks the pool's


@after_setup_logger.connect
def quiet_celery(logger: logging.Logger, loglevel: int, **_: Any) -> None:
    """At INFO, Celery says two lines for every task (a sweep every two seconds): keep its
    warnings and errors, and the referee's own lines (a round resolved); DEBUG shows all."""
    if loglevel > logging.DEBUG:
        logging.getLogger("celery").setLevel(max(loglevel, logging.WARNING))


@worker_process_init.connect
def die_with_worker(**_: Any) -> None:
    """A pool process dies with the worker that forked it (no orphan keeps writing); one
    forked just as the worker ended (a replacement during its shutdown) ends at once."""
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != WORKER_PID:
        os._exit(1)


@beat_init.connect
def one_beat_per_database(**_: Any) -> None:
    """Hold `<database>.beat.lock` (on PostgreSQL, an advisory lock in a session of its
    own) while sweeping: a second beat on the same database waits here, a standby that
    takes over when the first one's process ends."""
    store = flask_app.extensions["referee"].store
    if isinstance(store, PostgresStore):
        _one_beat_on_server(store)
        return
    path = Path(flask_app.config["REFEREE_DB"]).resolve()
    lock = path.with_name(path.name + ".beat.lock").open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log.warning("another beat sweeps %s; this one waits until it stops", path)
        fcntl.flock(lock, fcntl.LOCK_EX)
        log.warning("the other beat stopped; this one sweeps %s now", path)
    _held.append(lock)


def _one_beat_on_server(store: PostgresStore) -> None:
    """The sweeper's advisory lock, held by a session that ends with this process (on
    any machine): the server lets it go when the session ends, however it ends."""
    held = store.hold_sweeper_lock(wait=False)
    if held is None:
        log.warning("another beat sweeps %s; this one waits until it stops", store.where)
        held = store.hold_sweeper_lock(wait=True)
        log.warning("the other beat stopped; this one sweeps %s now", store.where)
    _held.append(held)
