"""Whatever a browser (or anyone) sends to the pages' forms, the answer is never a 500,
and a form the rules refuse appends nothing."""

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.web.seats import cookie_name

TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        ["{", "[" * 5000, '{"type": 1.5}', '{"type": NaN}', "-1", "99999999999999999999"]
    ),
    st.builds(lambda kind: json.dumps({"type": kind}), st.text(max_size=20)),
)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def browsers(app, ruleset: str, players: list[str]):
    service = app.extensions["referee"]
    created = service.create_game(ruleset, players, {}, "fuzz")
    game_id = created["game_id"]
    seat, moderator = app.test_client(), app.test_client()
    seat.set_cookie(cookie_name(game_id), created["seats"][0]["token"])
    moderator.set_cookie(cookie_name(game_id), created["moderator_token"])
    page = seat.get(f"/g/{game_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    moderator.get(f"/g/{game_id}")
    return service, game_id, seat, moderator, token


@FUZZ
@given(command=TEXT, version=TEXT, key=TEXT)
def test_any_move_form_is_answered_without_a_server_error(app, command, version, key):
    service, game_id, seat, _, token = browsers(app, "galloping-horse", ["A", "B", "C", "D"])
    before = len(service.store.events(game_id))
    data = {"csrf_token": token, "command": command, "version": version, "key": key}
    answer = seat.post(f"/g/{game_id}/move", data=data)
    assert answer.status_code < 500
    if answer.status_code != 303:
        assert len(service.store.events(game_id)) == before


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(["round", "ability", "spectate", "bet.A", "clue.use.A", "utility.select"]),
        TEXT,
    )
)
def test_any_orders_form_is_answered_without_a_server_error(app, fields):
    service, game_id, seat, _, token = browsers(app, "blackout-middle", ["A", "B", "C"])
    before = len(service.store.events(game_id))
    answer = seat.post(f"/g/{game_id}/orders", data={"csrf_token": token, **fields})
    assert answer.status_code < 500
    if answer.status_code != 303:
        assert len(service.store.events(game_id)) == before


@FUZZ
@given(
    kind=st.sampled_from(["announce", "replace_player", "open_dispute", "abandon", "x"]),
    fields=st.dictionaries(
        st.sampled_from(["text", "seat", "name", "reason", "claim", "amendment"]), TEXT
    ),
)
def test_any_moderator_form_is_answered_without_a_server_error(app, kind, fields):
    service, game_id, _, moderator, _ = browsers(app, "galloping-horse", ["A", "B", "C", "D"])
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    answer = moderator.post(
        f"/g/{game_id}/moderate", data={"csrf_token": token, "type": kind, **fields}
    )
    assert answer.status_code < 500


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(["option-line_up", "option-first_seat", "option-food_cards", "seed"]), TEXT
    ),
    players=st.lists(st.text(max_size=50), max_size=6),
)
def test_any_new_game_form_is_answered_without_a_server_error(client, fields, players):
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    answer = client.post(
        "/new/galloping-horse", data={"csrf_token": token, "player": players, **fields}
    )
    assert answer.status_code < 500
