"""Bots on the pages, over the real app and a real SQLite file: the new-game form's seats
played by bots, the seat page of a seat its bot plays, the moderator's controls, a bot's
mark refused from a form, and the sentences that say a bot moved ("Ann's bot played")."""

import html
import re
from pathlib import Path

import pytest
from test_pages import create, csrf, events, links, seated

from referee import games
from referee.engine import game, registry
from referee.engine.events import MODERATOR
from referee.posts import story
from referee.theatre.imports import import_log
from referee.web.newgame import clock_from

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
TRADES = CORPUS / "blackout-middle" / "blackout-middle-scenario-trades.jsonl"
VOTE_CALLED = 231  # its lines up to the vote on the Elimination Candidate being called


def page_of(browser, game_id: str) -> str:
    return html.unescape(browser.get(f"/g/{game_id}").get_data(as_text=True))


def test_play_against_bots_is_a_form_with_every_other_seat_a_strong_bot(client, monkeypatch):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/new/galloping-horse?against=bots"' in home
    form = client.get("/new/galloping-horse?against=bots").get_data(as_text=True)
    assert "Play Galloping Horse against bots" in form and "Your name" in form
    chosen = re.findall(r'<option value="(\w*)" selected>', form)
    assert chosen[:4] == ["", "strong", "strong", "strong"]
    monkeypatch.setattr(games, "_has_sampler", lambda rules: False)  # no strong bot here
    form = client.get("/new/galloping-horse?against=bots").get_data(as_text=True)
    chosen = re.findall(r'<option value="(\w*)" selected>', form)
    assert chosen[:4] == ["", "standard", "standard", "standard"]


def test_seats_the_form_gives_to_bots_are_named_and_played_by_them(app, client):
    fields = {"player": ["Ann", "", "Robo", "Dan"], "played_by": ["", "standard", "random", ""]}
    game_id, page = create(client, **fields)
    assert "Bots play <strong>Bot 2</strong> (standard), <strong>Robo</strong> (random)" in page
    assert "Play Ann's seat in this browser" in html.unescape(page)
    shown = app.extensions["referee"].view(game_id, None)
    assert shown["players"] == ["Ann", "Bot 2", "Robo", "Dan"]
    assert shown["bots"] == {"1": "standard", "2": "random"}


@pytest.mark.parametrize(
    ("ruleset", "moves"), [("galloping-horse", False), ("blackout-middle", True)]
)
def test_a_game_against_bots_tells_its_creator_they_moderate_it_too(client, ruleset, moves):
    form = client.get(f"/new/{ruleset}?against=bots").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": ["Ann", "", ""], "seed": "s"}
    data["played_by"] = ["", "standard", "standard"]
    if ruleset == "galloping-horse":
        data.update(player=[*data["player"], ""], played_by=[*data["played_by"], "random"])
    page = html.unescape(client.post(f"/new/{ruleset}", data=data).get_data(as_text=True))
    assert "You are this game's moderator too" in page
    assert ("This game's rules also ask the moderator to move" in page) is moves


def test_a_seat_whose_game_waits_for_the_moderator_is_told_how_to_move_as_moderator(app):
    """Blackout-middle's awards, at the vote on the Elimination Candidate the moderator
    records (a recorded game, imported just before the vote)."""
    log = b"".join(TRADES.read_bytes().splitlines(keepends=True)[:VOTE_CALLED])
    made = import_log(app.extensions["referee"], log, seed="blackout-middle/trades")
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    ann = seated(app, f"/join/{game_id}?token={tokens[0]}")
    mine = page_of(ann, game_id)
    assert "To move: <strong>the moderator</strong>." in mine
    assert "The game waits for the moderator's move. Are you this game's moderator" in mine
    public = page_of(app.test_client(), game_id)
    assert "The game waits for the moderator's move.</p>" in public
    moderator = seated(app, f"/join/{game_id}?token={made['moderator_token']}")
    theirs = page_of(moderator, game_id)
    assert "waits for the moderator" not in theirs and "Record ec vote" in theirs


def test_a_bot_level_no_bot_plays_is_said_on_the_form(app, client, monkeypatch):
    monkeypatch.setattr(games, "_has_sampler", lambda rules: False)  # a ruleset without one
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    data = {
        "csrf_token": csrf(form),
        "player": PLAYERS,
        "played_by": ["", "strong", "", ""],
        "seed": "s",
    }
    answer = client.post("/new/galloping-horse", data=data)
    assert answer.status_code == 422
    assert "players.1.bot: no strong bot plays galloping-horse here yet" in html.unescape(
        answer.get_data(as_text=True)
    )


def test_a_seat_its_bot_plays_offers_the_seat_back_and_no_moves(app, client):
    game_id, page = create(client)
    ann = seated(app, links(page)[0])
    mine = page_of(ann, game_id)
    assert "Let a bot play for me" in mine and 'name="command" value="{' in mine
    app.extensions["referee"].command(game_id, 0, {"type": "hand_to_bot", "level": "standard"})
    mine = page_of(ann, game_id)
    assert "A <strong>standard bot</strong> plays your seat now" in mine
    assert "Take my seat back" in mine
    assert "Play Red" not in mine and "your bot moves for you" in mine
    assert "Played by bots: <strong>Ann</strong> (standard)" in mine


def test_a_forms_bot_mark_is_refused_and_changes_nothing(app, client):
    game_id, page = create(client)
    ann = seated(app, links(page)[0])
    before = events(app, game_id)
    form = page_of(ann, game_id)
    command = '{"type":"play_card","horse":"red","bot":"standard"}'
    answer = ann.post(f"/g/{game_id}/move", data={"csrf_token": csrf(form), "command": command})
    assert "bot is set by the referee" in html.unescape(answer.get_data(as_text=True))
    assert events(app, game_id) == before


def test_the_moderator_hands_a_seat_to_a_bot_from_the_page(app, client):
    game_id, page = create(client)
    moderator = seated(app, links(page)[-1])
    form = page_of(moderator, game_id)
    assert "Hand a seat to a bot" in form and "Give a seat back from its bot" in form
    assert '<select id="m-seat_bot-level" name="level" required>' in form
    data = {
        "csrf_token": csrf(form),
        "type": "seat_bot",
        "seat": "1",
        "level": "random",
        "reason": "away",
    }
    answer = moderator.post(f"/g/{game_id}/moderate", data=data)
    assert answer.status_code == 303
    assert app.extensions["referee"].view(game_id, None)["bots"] == {"1": "random"}
    assert "The moderator handed Ben&#39;s seat to a random bot (away)." in moderator.get(
        f"/g/{game_id}"
    ).get_data(as_text=True)


def test_a_bots_moves_are_told_as_its_seats_bots():
    records = game.create("galloping-horse", PLAYERS, {}, "told", bots={"3": "standard"})
    state = game.fold(records)
    records += _step(
        state, MODERATOR, {"type": "seat_bot", "seat": 0, "level": "random", "reason": "r"}
    )
    state = game.fold(records)
    for _ in range(4):
        seat = game.to_move(state)[0]
        level = state["bots"].get(str(seat))
        command = {**game.legal(state, seat)[0], **({"bot": level} if level else {})}
        records += _step(state, seat, command)
        state = game.fold(records)
    told = story.narrate(registry.get("galloping-horse"), records, None, PLAYERS)
    assert "Bots play Dan (standard)." in told[0]
    plays = [t for t in told if " played " in t]
    assert plays[0].startswith("Ann's bot played ")  # a person's seat its bot plays
    assert plays[1].startswith("Ben played ") and plays[2].startswith("Cat played ")
    assert plays[3].startswith("Dan played ")  # a seat created as a bot: its own name


def test_a_sentence_that_does_not_begin_with_the_player_says_whose_bot_at_its_end():
    event = {"actor": 1, "command": {"type": "submit_orders", "bot": "standard"}}
    mine = story.by_bot("Your orders for round 2 were sealed.", event, 1, PLAYERS)
    assert mine == "Your orders for round 2 were sealed (your bot)."
    theirs = story.by_bot("Orders were sealed for round 2.", event, None, PLAYERS)
    assert theirs == "Orders were sealed for round 2 (Ben's bot)."


def _step(state, actor, command):
    return game.execute(state, actor, command, "told")


def test_the_replay_theatre_tells_a_bots_moves(app, client):
    """A game whose first seat a bot plays throughout, played to its end through the
    service (the seat's bot's moves marked as the task sends them)."""
    referee = app.extensions["referee"]
    created = referee.create_game("galloping-horse", PLAYERS, {}, "replayed")
    game_id = created["game_id"]
    referee.command(game_id, 0, {"type": "hand_to_bot", "level": "standard"})
    while not game.is_over(state := referee.state(game_id)):
        seat = game.to_move(state)[0]
        bot = state["bots"].get(str(seat))
        referee.command(game_id, seat, game.legal(state, seat)[0], bot=bot)
    first = next(e for e in referee.store.events(game_id) if (e["command"] or {}).get("bot"))
    part = client.get(f"/replay/{game_id}/part?at={first['seq']}&as=public")
    shown = html.unescape(part.get_data(as_text=True))
    assert part.status_code == 200
    assert re.search(r"Ann's bot played \w+\.", shown), shown


def test_the_forms_strong_autopilot_is_the_clocks_autopilot_level():
    sent = {"length": "24", "unit": "hours", "on_timeout": "autopilot-strong"}
    assert clock_from(sent) == {
        "seconds": 86400,
        "on_timeout": "autopilot",
        "extensions": 0,
        "autopilot_level": "strong",
    }
    assert "autopilot_level" not in clock_from({**sent, "on_timeout": "autopilot"})
