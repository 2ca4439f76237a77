"""Turn clocks on the pages: asked for on the new-game form, shown to everyone, an
extension and a rejoin from the seat's page, the clock controls on the moderator's."""

import html
import re

import pytest
from test_pages import create, csrf, events, links, seated

T0 = 1_800_000_000


@pytest.fixture
def clock(app):
    """The service's clock, moved by hand."""
    now = {"at": T0}
    app.extensions["referee"].clock = lambda: now["at"]
    return now


def clocked(client, **fields):
    data = {
        "clock-length": "24",
        "clock-unit": "hours",
        "clock-on_timeout": "default",
        "clock-extensions": "1",
    }
    return create(client, **{**data, **fields})


def test_the_new_game_form_asks_for_a_clock_only_in_games_in_turns(client):
    assert 'name="clock-length"' in client.get("/new/dark-horse").get_data(as_text=True)
    assert 'name="clock-length"' not in client.get("/new/blackout-middle").get_data(as_text=True)


def test_a_game_created_with_a_clock_shows_it_to_everyone(app, client, clock):
    game_id, _ = clocked(client)
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Turn clock: 1 day per move" in page
    assert "the referee plays a standard move for the seat" in page
    assert 'data-countdown="1800086400"' in page and "2027-01-16 08:00:00 UTC" in page


def test_a_bad_time_limit_is_explained_and_creates_nothing(app, client):
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": ["A", "B", "C", "D"], "clock-length": "ten"}
    answer = client.post("/new/galloping-horse", data=data)
    assert answer.status_code == 400
    assert "time limit per move" in answer.get_data(as_text=True)
    assert (
        app.extensions["referee"].store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    )


def test_a_seat_takes_an_extension_from_its_page(app, client, clock):
    game_id, page = clocked(client)
    seat = seated(app, links(page)[0])
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Take an extension" in shown and "1 more time." in shown
    before = events(app, game_id)
    data = {"csrf_token": csrf(shown), "command": '{"type":"take_extension"}', "key": "x1"}
    assert seat.post(f"/g/{game_id}/move", data=data).status_code == 303
    assert events(app, game_id) == before + 1
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Take an extension" not in shown  # none left
    assert "Ann took an extension." in shown
    other = seated(app, links(page)[1]).get(f"/g/{game_id}").get_data(as_text=True)
    assert "Take an extension" not in other  # not on the clock


def test_a_seat_on_autopilot_is_told_and_takes_its_seat_back(app, client, clock):
    game_id, page = clocked(client, **{"clock-on_timeout": "autopilot"})
    referee = app.extensions["referee"]
    clock["at"] = T0 + 86400
    assert referee.time_out(game_id, 0, T0 + 86400) == "timed_out"
    seat = seated(app, links(page)[0])
    shown = html.unescape(seat.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Ann's time ran out: the referee played for them" in shown
    assert "The referee is playing for you" in shown
    data = {"csrf_token": csrf(shown), "command": '{"type":"rejoin"}', "key": "r1"}
    assert seat.post(f"/g/{game_id}/move", data=data).status_code == 303
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Ann is back at the table." in shown
    assert "The referee is playing for you" not in shown


def test_the_moderator_extends_a_late_seats_clock_from_the_page(app, client, clock):
    game_id, page = clocked(client, **{"clock-on_timeout": "wait"})
    referee = app.extensions["referee"]
    clock["at"] = T0 + 86400
    referee.time_out(game_id, 0, T0 + 86400)
    moderator = seated(app, links(page)[-1])
    shown = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert "late</span>: the moderator decides" in shown
    for control in ("Extend clock", "Play for", "Pause", "Resume"):
        assert f"<summary>{control}</summary>" in shown
    data = {
        "csrf_token": csrf(shown),
        "type": "extend_clock",
        "seat": "0",
        "seconds": "7200",
        "reason": "on a train",
        "key": "e1",
    }
    assert moderator.post(f"/g/{game_id}/moderate", data=data).status_code == 303
    shown = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert "The moderator gave Ann more time (on a train)." in shown
    assert re.search(r'data-countdown="1800093600"', shown)


def test_a_seat_sets_and_clears_its_standing_choices_from_its_page(app, client):
    form = client.get("/new/dark-horse-west").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": ["Ann", "Bo"], "seed": "standing"}
    created = client.post("/new/dark-horse-west", data=data).get_data(as_text=True)
    game_id = re.search(r"/join/([0-9a-f]+)\?", created).group(1)
    seat = seated(app, links(created)[0])
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Answer routine questions for me" in shown and 'value="collect_free"' in shown
    sent = {"csrf_token": csrf(shown), "choice": ["collect_free", "skip_extras"], "key": "s1"}
    assert seat.post(f"/g/{game_id}/standing", data=sent).status_code == 303
    mine = app.extensions["referee"].view(game_id, 0)["standing_choices"]
    assert mine == ["collect_free", "skip_extras"]
    shown = html.unescape(seat.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Ann's standing choices: collect free, skip extras." in shown
    other = html.unescape(
        seated(app, links(created)[1]).get(f"/g/{game_id}").get_data(as_text=True)
    )
    assert "standing choices: collect" not in other
    cleared = {"csrf_token": csrf(shown), "key": "s2"}
    assert seat.post(f"/g/{game_id}/standing", data=cleared).status_code == 303
    assert app.extensions["referee"].view(game_id, 0)["standing_choices"] == []


def test_a_seat_turns_notifications_on_and_off_from_its_page(app, client):
    game_id, page = create(client)
    seat = seated(app, links(page)[1])
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert '<h2 id="notifications-h">Notifications</h2>' in shown
    data = {
        "csrf_token": csrf(shown),
        "kind": "webhook",
        "url": "http://127.0.0.1:9/hook",
        "reminders": "24, 1",
    }
    made = seat.post(f"/g/{game_id}/subscriptions", data=data)
    assert made.status_code == 200 and made.headers["Cache-Control"] == "no-store"
    secret = re.search(r'id="secret" readonly value="(whsec_[^"]+)"', made.get_data(as_text=True))
    assert secret
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "http://127.0.0.1:9/hook, reminders 24, 1 h before a deadline" in shown
    assert secret.group(1) not in shown  # shown once
    other = seated(app, links(page)[2]).get(f"/g/{game_id}").get_data(as_text=True)
    assert "127.0.0.1:9/hook" not in other
    bad = seat.post(
        f"/g/{game_id}/subscriptions", data={**data, "csrf_token": csrf(shown), "reminders": "soon"}
    )
    assert bad.status_code == 400 and "reminders" in bad.get_data(as_text=True)
    (sub,) = app.extensions["referee"].subscriptions.listed(game_id, "1")
    off = seat.post(
        f"/g/{game_id}/subscriptions/{sub['subscription_id']}/remove",
        data={"csrf_token": csrf(shown)},
    )
    assert off.status_code == 303
    assert app.extensions["referee"].subscriptions.listed(game_id, "1") == []
