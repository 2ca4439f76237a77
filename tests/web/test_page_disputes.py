"""The moderator's dispute forms over the real app and SQLite file: what they offer, what
they send, what a form that chose nothing or named no move gets, and a seat's cookie of
the original game opening its fork."""

import html
import json
import re

import pytest

from referee.engine import game
from referee.web import disputing
from referee.web.seats import cookie_name

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.fixture
def table(app):
    """A galloping-horse game five moves in, the moderator's browser and seat 0's."""
    service = app.extensions["referee"]
    created = service.create_game("galloping-horse", PLAYERS, {}, "page-disputes")
    game_id = created["game_id"]
    for _ in range(5):
        seat = service.view(game_id, None)["to_move"][0]
        service.command(game_id, seat, service.view(game_id, seat)["legal"][0])
    moderator, seat = app.test_client(), app.test_client()
    moderator.set_cookie(cookie_name(game_id), created["moderator_token"])
    seat.set_cookie(cookie_name(game_id), created["seats"][0]["token"])
    return service, game_id, moderator, seat


def played(service, game_id) -> list[dict]:
    return [e for e in service.store.events(game_id) if e["type"] == "RaceCardPlayed"]


def radios(page: str, name: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(rf'name="{name}" value="([^"]+)"', page)]


def test_the_moves_offered_are_the_seats_legal_moves_then_and_dropping_it(table):
    service, game_id, moderator, _ = table
    move = played(service, game_id)[2]
    page = moderator.get(f"/g/{game_id}?disputed={move['seq']}").get_data(as_text=True)
    offered = [json.loads(v) for v in radios(page, "amended")]
    before = service.store.events(game_id)[: move["seq"] - 1]
    legal = game.legal(game.fold(before), move["actor"])
    assert offered == [
        *({"kind": "replace", "seq": move["seq"], "command": c} for c in legal),
        {"kind": "drop", "seq": move["seq"]},
    ]
    assert "(as recorded)" in page and "Advanced: the amendment as JSON" in page


@pytest.mark.parametrize("named", ["", "abc", "-3", "99999", "1", "9" * 40])
def test_a_move_the_form_cannot_name_offers_no_choices_and_no_error(table, named):
    _, game_id, moderator, _ = table
    answer = moderator.get(f"/g/{game_id}?disputed={named}")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert "Open a dispute" in page and 'name="amended"' not in page


def test_the_json_typed_wins_over_the_choice_and_no_amendment_changes_nothing(table):
    service, game_id, moderator, _ = table
    move = played(service, game_id)[1]
    page = moderator.get(f"/g/{game_id}?disputed={move['seq']}").get_data(as_text=True)
    form = {"csrf_token": csrf(page), "type": "open_dispute", "claim": "misread"}
    version = service.view(game_id, None)["version"]
    refused = moderator.post(f"/g/{game_id}/moderate", data=form)
    assert refused.status_code == 400
    assert "choose what should have been played" in refused.get_data(as_text=True)
    assert service.view(game_id, None)["version"] == version  # nothing recorded
    typed = json.dumps({"kind": "drop", "seq": move["seq"]})
    chosen = radios(page, "amended")[0]
    sent = moderator.post(
        f"/g/{game_id}/moderate", data={**form, "amended": chosen, "amendment": typed}
    )
    assert sent.status_code == 303
    [opened] = [e for e in service.store.events(game_id) if e["type"] == "DisputeOpened"]
    assert opened["payload"]["amendment"] == {"kind": "drop", "seq": move["seq"]}
    told = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert f"Dispute {opened['seq']} is open: misread" in told
    assert f'name="dispute" value="{opened["seq"]}"' in told  # to rule on, by its claim


def test_only_the_newest_moves_are_listed_and_an_older_one_is_named_by_its_seq(table):
    service, game_id, moderator, _ = table
    first = played(service, game_id)[0]["seq"]
    listed = disputing.MOVES_LISTED
    disputing.MOVES_LISTED = 2
    try:
        page = moderator.get(f"/g/{game_id}?disputed={first}").get_data(as_text=True)
    finally:
        disputing.MOVES_LISTED = listed
    listing = page[
        page.index('id="disputed"') : page.index("</select>", page.index('id="disputed"'))
    ]
    assert len(re.findall(r'<option value="\d+"', listing)) == 2
    assert "An older move, by its seq" in page and f"at seq {first} (Ann)" in page


def test_a_seats_cookie_of_the_original_takes_its_seat_in_the_fork(table, client):
    service, game_id, moderator, seat = table
    move = played(service, game_id)[1]
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    form = {"csrf_token": csrf(page), "type": "open_dispute", "claim": "slipped"}
    amendment = json.dumps({"kind": "drop", "seq": move["seq"]})
    moderator.post(f"/g/{game_id}/moderate", data={**form, "amendment": amendment})
    number = service.view(game_id, "moderator")["disputes"][0]["dispute"]
    ruling = {
        "csrf_token": csrf(page),
        "type": "rule_dispute",
        "dispute": str(number),
        "ruling": "amended",
        "reason": "it slipped",
    }
    assert moderator.post(f"/g/{game_id}/moderate", data=ruling).status_code == 303
    fork = service.view(game_id, None)["forked_to"]
    part = seat.get(f"/g/{game_id}/part").get_data(as_text=True)
    assert f'href="/g/{fork}"' in part and "it slipped" in part and "slipped</" not in part
    answer = seat.get(f"/g/{fork}")
    assert "You play <strong>Ann</strong>" in answer.get_data(as_text=True)
    assert f"{cookie_name(fork)}=" in answer.headers.get("Set-Cookie", "")
    stranger = client.get(f"/g/{fork}").get_data(as_text=True)
    assert "You are watching as a spectator" in stranger
