"""How near a deadline must be for its timed task to be sent: derived from the broker's
visibility timeout, which the Celery app sets explicitly (1 h unless configured)."""

import pytest

from referee.app import create_app
from workers.celery_app import arming_horizon

GONE = "redis://127.0.0.1:1/0"  # nothing is sent in these tests


def broker_app(tmp_path, **config):
    return create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "REDIS_URL": GONE, **config})


def test_by_default_the_timeout_is_an_hour_and_deadlines_are_timed_ten_minutes_ahead(tmp_path):
    app = broker_app(tmp_path)
    options = app.extensions["celery"].conf.broker_transport_options
    assert options["visibility_timeout"] == 3600
    assert options["unacked_restore_interval"] == 10
    assert app.extensions["referee"].arming_seconds == 600


def test_the_environment_sets_a_short_timeout_and_the_horizon_follows(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_VISIBILITY_TIMEOUT", "6")
    app = broker_app(tmp_path)
    assert app.extensions["celery"].conf.broker_transport_options["visibility_timeout"] == 6
    assert app.extensions["referee"].arming_seconds == 3


@pytest.mark.parametrize(
    ("visibility", "asked", "horizon"),
    [
        (3600, 600, 600),
        (3600, 60, 60),  # nearer, as asked
        (600, 600, 300),  # at most half the timeout
        (86400, 3600, 600),  # and never more than ten minutes
        (1, 600, 0),  # no timed tasks at all: the sweeper resolves every deadline
    ],
)
def test_the_horizon_is_at_most_half_the_timeout_and_ten_minutes(visibility, asked, horizon):
    assert arming_horizon(visibility, asked) == horizon
