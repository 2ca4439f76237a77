"""Whole games played through the pages' forms (the first choice each page offers), for
the rulesets played in turns, and a dispute opened and ruled from the moderator's page."""

import html
import re

import pytest
from markupsafe import escape

from referee.web.seats import cookie_name

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
MOST = 2000  # page moves, a bound for failing only
CHOICE = r'(?:name="command"|<option) value="([^"]+)"'


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def first_choice(page: str) -> dict[str, str]:
    """The form a player sends by taking the first move offered (a button or an option)."""
    form = page[page.index('<section id="moves"') :]
    fields = {
        "command": html.unescape(
            re.search(r'(?:name="command"|<option) value="([^"]+)"', form).group(1)
        ),
        "csrf_token": csrf(page),
        "key": re.search(r'name="key" value="([^"]+)"', form).group(1),
    }
    version = re.search(r'name="version" value="(\d+)"', form)
    if version:
        fields["version"] = version.group(1)
    return fields


def seat_browsers(app, created: dict) -> dict:
    browsers = {}
    for seat in created["seats"]:
        browser = app.test_client()
        browser.set_cookie(cookie_name(created["game_id"]), seat["token"])
        browsers[seat["seat"]] = browser
    return browsers


@pytest.mark.parametrize(
    ("ruleset", "players"), [("galloping-horse", 4), ("dark-horse", 3), ("royal-turf", 3)]
)
def test_a_whole_game_is_played_from_the_pages(app, client, ruleset, players):
    service = app.extensions["referee"]
    created = service.create_game(ruleset, PLAYERS[:players], {}, f"pages-{ruleset}")
    game_id, browsers = created["game_id"], seat_browsers(app, created)
    for _ in range(MOST):
        to_move = service.view(game_id, None)["to_move"]
        if not to_move:
            break
        browser = browsers[to_move[0]]
        page = browser.get(f"/g/{game_id}").get_data(as_text=True)
        answer = browser.post(f"/g/{game_id}/move", data=first_choice(page))
        assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    public = client.get(f"/g/{game_id}/watch").get_data(as_text=True)
    assert "The game is over." in public
    assert "The log verifies" in public


def test_a_dispute_is_opened_and_ruled_from_the_moderators_page(app, client):
    service = app.extensions["referee"]
    created = service.create_game("galloping-horse", PLAYERS, {}, "pages-dispute")
    game_id = created["game_id"]
    for _ in range(3):
        seat = service.view(game_id, None)["to_move"][0]
        service.command(game_id, seat, service.view(game_id, seat)["legal"][0])
    played = [e["seq"] for e in service.store.events(game_id) if e["type"] == "RaceCardPlayed"]
    moderator, seat = app.test_client(), app.test_client()
    moderator.set_cookie(cookie_name(game_id), created["moderator_token"])
    seat.set_cookie(cookie_name(game_id), created["seats"][0]["token"])
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    claim = {
        "csrf_token": csrf(page),
        "type": "open_dispute",
        "claim": "Ben's card was misread",
        "amendment": f'{{"kind": "drop", "seq": {played[1]}}}',
    }
    answer = moderator.post(f"/g/{game_id}/moderate", data=claim)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:3000]
    told = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Forked after seq" in told  # the dispute's fork and its consequences, told
    opened = [e for e in service.store.events(game_id) if e["type"] == "DisputeOpened"][0]
    ruling = {
        "csrf_token": csrf(told),
        "type": "rule_dispute",
        "dispute": str(opened["payload"]["dispute"]),
        "ruling": "amended",
        "reason": "the card was misread",
    }
    assert moderator.post(f"/g/{game_id}/moderate", data=ruling).status_code == 303
    ruled = [e for e in service.store.events(game_id) if e["type"] == "DisputeRuled"][0]
    fork = ruled["payload"]["fork"]["game_id"]
    for browser, who in ((moderator, "You are the <strong>moderator</strong>"), (seat, "Ann")):
        old = browser.get(f"/g/{game_id}")  # the closed game sends its players on
        assert old.status_code == 303 and old.headers["Location"] == f"/g/{fork}"
        assert who in browser.get(f"/g/{fork}").get_data(as_text=True)
    public = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'href="/g/{fork}"' in public


def test_the_moderator_gets_each_resolved_rounds_summary_to_paste(app):
    service = app.extensions["referee"]
    service.clock = lambda: 1_800_000_000
    created = service.create_game("blackout-middle", ["Ann", "Ben", "Cat"], {}, "summaries")
    game_id = created["game_id"]
    opened = service.view(game_id, None)["round"]["open"]
    for seat in range(3):
        orders = service.view(game_id, seat)["legal"][0]
        service.command(game_id, seat, orders)
    assert service.resolve_round(game_id, opened["round"]) == "resolved"
    moderator = app.test_client()
    moderator.set_cookie(cookie_name(game_id), created["moderator_token"])
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    markdown = service.round_summary(game_id, opened["round"], "markdown")
    bbcode = service.round_summary(game_id, opened["round"], "bbcode")
    assert html.escape(markdown, quote=False) in page
    assert html.escape(bbcode, quote=False) in page
    assert f"Copy round {opened['round']} as BBCode" in page
    spectator = app.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    assert "as BBCode" not in spectator


def test_a_seats_sealed_orders_show_what_the_rules_would_drop_until_the_deadline(app):
    from referee.games.blackout_middle import orders_from_form

    service = app.extensions["referee"]
    created = service.create_game("blackout-middle", ["Ann", "Ben", "Cat"], {}, "warnings")
    game_id = created["game_id"]
    number = service.view(game_id, None)["round"]["open"]["round"]
    orders = orders_from_form({"ability": ["clue"]})  # a clue naming no card
    status, answer = service.command(
        game_id, 0, {"type": "submit_orders", "round": number, "orders": orders}
    )
    assert answer["warnings"]
    ann, ben = app.test_client(), app.test_client()
    ann.set_cookie(cookie_name(game_id), created["seats"][0]["token"])
    ben.set_cookie(cookie_name(game_id), created["seats"][1]["token"])
    page = ann.get(f"/g/{game_id}").get_data(as_text=True)  # a later visit: still told
    assert "were the round resolved now the rules would drop" in page
    for warning in answer["warnings"]:
        assert str(escape(warning["message"])) in page  # as the page escapes it
    assert "would drop" not in ben.get(f"/g/{game_id}").get_data(as_text=True)
