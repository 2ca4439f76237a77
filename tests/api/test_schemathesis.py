"""The API against its own OpenAPI document, by schemathesis: every operation with requests
built from the document, on real games with real tokens, must never answer 5xx, must
answer in the documented shapes, status codes and content types, and must not refuse
with 400 a request the document says is valid (422 stays: the rules, which no schema can
state, refuse a well-formed move in this position). Bounded and derandomized in CI."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from referee.app import create_app

EXAMPLES = int(os.environ.get("REFEREE_SCHEMATHESIS_EXAMPLES", "25"))
RULESETS = {
    "galloping-horse": ["Ann", "Ben", "Cat", "Dan"],
    "blackout-middle": ["Ann", "Ben", "Cat"],
    "dark-horse-west": ["Ann", "Ben", "Cat"],
}


# built when the module is collected: schemathesis reads the document then (its lazy
# fixture-based loader needs a pytest internal that pytest 9 no longer has)
APP = create_app({"REFEREE_DB": str(Path(tempfile.mkdtemp(prefix="referee-st-")) / "referee.db")})
# a schema-valid request may be refused by the rules (422) or by auth, never as malformed
ACCEPTED = ["2xx", "401", "403", "404", "409", "413", "422", "429"]
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}}}
)
# a live stream never ends, so it is read by hand (test_stream.py), not here
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=CONFIG).exclude(
    path="/games/{game_id}/stream"
)
# bodies whose validity the document cannot state (docs/decisions.md): a command's fields
# are checked against its ruleset and the game's seats (a seat number past the last, a
# blank announcement), a dispute's amendment against the game's log, an import is a
# whole log, a notification URL is one Apprise knows and resolves to public addresses.
# The document gives their shapes; a refusal names the field, with 400.
GAME_DEPENDENT = {
    ("POST", "/games/{game_id}/commands"),
    ("POST", "/games/{game_id}/disputes"),
    ("POST", "/games/import"),
    ("POST", "/games/{game_id}/subscriptions"),
}


@pytest.fixture(scope="module")
def games():
    """One game per ruleset, with its moderator's and a seat's tokens."""
    client = APP.test_client()
    made = []
    for ruleset, players in RULESETS.items():
        created = client.post("/games", json={"ruleset": ruleset, "players": players})
        body = created.get_json()
        made.append((body["game_id"], body["moderator_token"], body["seats"][0]["token"]))
    yield made
    shutil.rmtree(Path(APP.config["REFEREE_DB"]).parent, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=bool(os.environ.get("CI")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_its_document(case, games):
    made = games
    pick = len(case.operation.path) % (len(made) + 1)  # a real game, or an unknown id
    if "game_id" in (case.path_parameters or {}) and pick < len(made):
        game_id, moderator, seat = made[pick]
        case.path_parameters["game_id"] = game_id
        token = moderator if case.method == "POST" else seat
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    if (case.method, case.operation.path) in GAME_DEPENDENT:
        case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
    else:
        case.call_and_validate()
