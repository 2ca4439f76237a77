"""The app's JSON: orjson's speed, Flask's rules (sorted keys, no spaces), and nothing
orjson cannot write is lost."""

import datetime
import json

from referee.app import create_app


def test_answers_are_compact_sorted_json_whatever_writes_them(tmp_path):
    app = create_app({"REFEREE_DB": str(tmp_path / "r.db")})
    with app.app_context():
        assert app.json.dumps({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'
        huge = {"b": 2**70, "a": 1}  # past orjson's 64 bits: the standard library's turn
        assert json.loads(app.json.dumps(huge)) == huge
        assert list(json.loads(app.json.dumps(huge))) == ["a", "b"]
        when = datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)
        assert json.loads(app.json.dumps({"at": when})) == {"at": "Tue, 24 Nov 2026 12:00:00 GMT"}


def test_an_api_answer_sets_no_session_cookie(client, http_game):
    answer = client.get(f"/games/{http_game.game_id}")
    assert answer.status_code == 200
    assert "Set-Cookie" not in answer.headers


def test_a_request_without_the_session_cookie_builds_no_signer(client, http_game, monkeypatch):
    interface = client.application.session_interface
    built = []
    signer = interface.get_signing_serializer
    monkeypatch.setattr(
        interface, "get_signing_serializer", lambda app: built.append(1) or signer(app)
    )
    headers = {"Authorization": f"Bearer {http_game.seats[0]}"}
    assert client.get(f"/games/{http_game.game_id}", headers=headers).status_code == 200
    assert built == []
    client.set_cookie("session", "anything")  # a page's visitor: the session is read
    assert client.get(f"/games/{http_game.game_id}").status_code == 200
    assert built
