"""The new-game form in people's terms: lengths of time as a number and a unit (a
round's length, the turn clock's time limit), the real limits said, and a confirmation
asked below five minutes, since people playing by post need hours (the API takes any
length the rules do); a seat option chosen by player, counted from 1."""

import html

from test_pages import csrf

PLAYERS = ["Ann", "Ben", "Cat"]


def games(app) -> int:
    return app.extensions["referee"].store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def send(client, ruleset: str, **fields):
    form = client.get(f"/new/{ruleset}").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": PLAYERS, "seed": "lengths", **fields}
    return client.post(f"/new/{ruleset}", data=data)


def options_of(app, answer) -> dict:
    game_id = answer.get_data(as_text=True).split("/join/", 1)[1].split("?", 1)[0]
    return app.extensions["referee"].view(game_id, None)["options"]


def test_round_lengths_are_shown_in_hours_with_a_unit_to_choose(client):
    page = html.unescape(client.get("/new/blackout-middle").get_data(as_text=True))
    assert '<label for="option-round_seconds">Round length</label>' in page
    assert (
        'id="option-round_seconds" name="option-round_seconds" inputmode="decimal" value="24"'
        in page
    )
    assert 'id="option-first_round_seconds" name="option-first_round_seconds"' in page
    assert '<option value="hours" selected>hours</option>' in page
    assert "24 hours by default, from 1 second to 30 days" in page
    assert "Under 5 minutes the form asks you to confirm" in page


def test_a_round_length_in_minutes_becomes_seconds(app, client):
    answer = send(
        client,
        "blackout-middle",
        **{"option-round_seconds": "30", "option-round_seconds-unit": "minutes"},
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert options_of(app, answer)["round_seconds"] == 1800


def test_a_length_under_five_minutes_is_confirmed_before_the_game_is_made(app, client):
    short = {"option-first_round_seconds": "2", "option-first_round_seconds-unit": "seconds"}
    answer = send(client, "blackout-middle", **short)
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 400 and games(app) == 0
    assert "First round length: 2 seconds: that is very short for players by post" in page
    assert 'name="short_ok" value="yes"' in page
    assert 'name="option-first_round_seconds" inputmode="decimal" value="2"' in page  # kept
    answer = send(client, "blackout-middle", short_ok="yes", **short)
    assert answer.status_code == 200 and options_of(app, answer)["first_round_seconds"] == 2


def test_the_turn_clock_says_its_real_limits_and_takes_minutes(app, client):
    page = client.get("/new/dark-horse").get_data(as_text=True)
    assert "From 1 minute to 30 days" in page and "0.02" not in page
    answer = send(client, "royal-turf", **{"clock-length": "90", "clock-unit": "minutes"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    game_id = answer.get_data(as_text=True).split("/join/", 1)[1].split("?", 1)[0]
    assert app.extensions["referee"].view(game_id, None)["clock"]["seconds"] == 5400


def test_a_time_limit_under_a_minute_is_refused_naming_the_real_minimum(app, client):
    answer = send(client, "royal-turf", **{"clock-length": "0.5", "clock-unit": "minutes"})
    assert answer.status_code == 400 and games(app) == 0
    assert "time limit per move: from 1 minute to 30 days" in answer.get_data(as_text=True)
    answer = send(client, "royal-turf", **{"clock-length": "0.02", "clock-unit": "hours"})
    assert answer.status_code == 400 and games(app) == 0  # 72 s: asked to confirm
    assert "Time limit per move: 72 seconds" in answer.get_data(as_text=True)


def test_the_first_seat_is_chosen_by_player_counted_from_one(app, client):
    page = client.get("/new/galloping-horse").get_data(as_text=True)
    assert '<option value="0" selected>Player 1</option>' in page
    assert '<option value="3">Player 4</option>' in page
    assert "0 to 3 (default 0)" not in page
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": ["A", "B", "C", "D"], "option-first_seat": "2"}
    answer = client.post("/new/galloping-horse", data=data)
    assert answer.status_code == 200 and options_of(app, answer)["first_seat"] == 2
