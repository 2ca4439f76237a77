"""Galloping Horse draws itself and speaks: the SVG's structure and text, the sentences,
the button texts, the option texts."""

import json
import xml.etree.ElementTree as ET

import pytest

from referee import bots
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import galloping_horse as gh
from referee.service import Referee
from referee.store import open_store

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
LINE_UP = ["red", "yellow", "green", "blue"]  # rear to front: red on 0 ... blue on 3
BANNED_TAGS = {"style", "script", "a", "foreignObject", "image", "iframe"}


def table(hands=None, *, first=0, food_stack=40):
    """The rules' state after setup, with chosen hands."""
    state = gh.initial(PLAYERS, {**gh.OPTIONS, "food_cards": food_stack})
    hands = hands or [["red"] * 7, ["yellow"] * 7, ["green"] * 7, ["blue"] * 7]
    events = [event("HorsesLinedUp", {"line_up": LINE_UP})]
    events += [
        event("RaceCardsDealt", {"round": 1, "seat": s, "cards": cards}, to=[s])
        for s, cards in enumerate(hands)
    ]
    events.append(event("RoundStarted", {"round": 1, "first_seat": first}))
    for ev in events:
        state = gh.apply(state, ev)
    return state


def play(state, seat, horse):
    for ev in gh.decide(state, seat, {"type": "play_card", "horse": horse}, Rng("t")):
        state = gh.apply(state, ev)
    return state


def view_of(state, viewer, players=PLAYERS):
    """What GET /games/{id} returns for that viewer, built from the rules alone."""
    over = gh.outcome(state)
    return {
        "players": players,
        "status": "finished" if over else "active",
        "to_move": gh.to_move(state),
        "state": gh.view(state, viewer),
        "legal": gh.legal(state, viewer) if isinstance(viewer, int) else [],
        "outcome": over,
    }


def parsed(svg):
    return ET.fromstring(svg)


def texts(root):
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def group(root, **attrs):
    """The <g> elements whose data-* attributes have these values."""
    found = []
    for el in root.iter(f"{SVG}g"):
        if all(el.get(f"data-{k}") == str(v) for k, v in attrs.items()):
            found.append(el)
    return found


@pytest.fixture
def referee(tmp_path):
    return Referee(open_store(tmp_path / "d.db"))


def new_game(referee, seed, **options):
    return referee.create_game(gh.NAME, PLAYERS, options, seed)["game_id"]


# --- the board


def test_svg_is_an_image_with_title_and_viewbox_and_nothing_banned():
    root = parsed(gh.board(view_of(table(), None)))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("viewBox") and root.get("width") is None and root.get("height") is None
    assert root[0].tag == f"{SVG}title"
    assert root[0].text == "Galloping Horse: spectator's view"
    for el in root.iter():
        assert el.tag.removeprefix(SVG) not in BANNED_TAGS
        assert "style" not in el.attrib and not any(a.startswith("on") for a in el.attrib)
    assert all(float(el.get("font-size")) >= 11 for el in root.iter(f"{SVG}text"))


def test_title_names_the_viewer():
    state = table()
    assert parsed(gh.board(view_of(state, 0)))[0].text == "Galloping Horse: Ann's view"
    moderator = parsed(gh.board(view_of(state, "moderator")))
    assert moderator[0].text == "Galloping Horse: moderator's view"
    # a seat that is not to move: the view alone does not say which, unless told
    assert parsed(gh.board(view_of(state, 2)))[0].text == "Galloping Horse: a player's view"
    told = {**view_of(state, 2), "viewer": 2}
    assert parsed(gh.board(told))[0].text == "Galloping Horse: Cat's view"


def test_track_has_22_numbered_spaces_and_a_start_line():
    root = parsed(gh.board(view_of(table(), None)))
    for n in range(22):
        (space,) = [g for g in group(root, space=n) if g.get("data-horse") is None]
        assert str(n) in texts(space)
    assert "Start / finish" in texts(root)


def test_each_horse_is_drawn_with_its_name_on_its_space():
    state = play(table(), 0, "red")  # red jumps yellow, green, blue: to space 4
    root = parsed(gh.board(view_of(state, None)))
    for horse, space in {"red": 4, "yellow": 1, "green": 2, "blue": 3}.items():
        (marker,) = group(root, horse=horse)
        assert marker.get("data-space") == str(space)
        assert gh.CONTENT["horses"][horse]["name"] in texts(marker)
    assert "1. Red: space 4, distance 4 (lap 1)" in texts(root)


def test_seats_show_food_hand_size_and_whose_turn():
    state = play(table(), 0, "red")
    root = parsed(gh.board(view_of(state, None)))
    (ann,) = group(root, seat=0)
    assert "Food cards: 1" in texts(ann) and "Race cards in hand: 6" in texts(ann)
    assert [g.get("data-flag") for g in group(root, seat=1)] == ["To play"]
    assert group(root, seat=0)[0].get("data-flag") == ""


def test_a_seat_sees_its_own_hand_by_colour_with_counts():
    hands = [["red", "red", "red", "green", "green", "blue", "blue"]] + [["yellow"] * 7] * 3
    root = parsed(gh.board(view_of(table(hands), 0)))
    counts = {g.get("data-card"): g.get("data-count") for g in root.iter(f"{SVG}g")}
    assert {h: counts[h] for h in LINE_UP} == {"red": "3", "yellow": "0", "green": "2", "blue": "2"}
    assert "Your hand: 7 race cards" in texts(root)
    assert "Red 3, Green 2, Blue 2" in texts(group(root, seat=0)[0])


def test_player_names_are_escaped():
    players = ["<img src=x onerror=alert(1)>", "Ben & Co", "Cat", 'Dan "D"']
    svg = gh.board(view_of(table(), None, players))
    root = parsed(svg)
    assert not [el for el in root.iter() if el.tag.removeprefix(SVG) == "img"]
    assert "<img" not in svg
    assert f"Galloping Horse: round 1 of 2, {players[0]} to play" in texts(root)
    for seat, name in enumerate(players):  # long names are cut in the box, whole in its title
        assert group(root, seat=seat)[0].find(f"{SVG}title").text == name
    assert "Ben & Co" in texts(group(root, seat=1)[0])


def test_spectator_sees_hands_face_down_and_none_of_their_cards(referee):
    first = new_game(referee, "seed-a", line_up=LINE_UP)
    second = new_game(referee, "seed-b", line_up=LINE_UP)
    assert referee.view(first, 0)["state"]["hand"] != referee.view(second, 0)["state"]["hand"]
    svg = gh.board(referee.view(first, None))
    assert svg == gh.board(referee.view(second, None))
    root = parsed(svg)
    assert len(group(root, part="face-down-hand")) == 4
    assert not group(root, part="hand") and not [g for g in root.iter() if g.get("data-card")]


def test_board_is_deterministic():
    view = view_of(play(table(), 0, "red"), 1)
    assert gh.board(view) == gh.board(json.loads(json.dumps(view)))


@pytest.mark.parametrize("horse", LINE_UP)
def test_highlight_marks_the_horse_and_where_the_rules_would_land_it(horse):
    state = play(play(table(), 0, "red"), 1, "yellow")  # yellow, green, blue, red: 2, 3, 4, 5
    command = {"type": "play_card", "horse": horse}
    holding = {**state, "hands": [{h: 1 for h in LINE_UP}] * 4}
    (moved,) = [e for e in gh.decide(holding, 2, command, Rng("t")) if e["type"] == "HorseMoved"]
    root = parsed(gh.board(view_of(state, 2), highlight=command))
    (mark,) = group(root, part="highlight")
    assert mark.get("data-horse") == horse
    assert mark.get("data-space") == str(moved["payload"]["to"] % 22)
    name = gh.CONTENT["horses"][horse]["name"]
    assert f"{name} lands here" in texts(mark)


def test_no_highlight_draws_no_mark():
    assert not group(parsed(gh.board(view_of(table(), 0))), part="highlight")


def test_finished_game_shows_winners_and_food(referee):
    game_id = bots.play(referee, gh.NAME, PLAYERS, seed="pages-end")
    view = referee.view(game_id, None)
    root = parsed(gh.board(view))
    outcome = view["outcome"]
    for seat in range(4):
        (box,) = group(root, seat=seat)
        assert f"Food cards: {outcome['scores'][seat]}" in texts(box)
        won = seat in outcome["winners"]
        assert (box.get("data-flag") == "Winner") == won
    assert texts(root)[0].startswith("Galloping Horse: game over.")


# --- words


def test_narrate_tells_the_main_events_in_the_game_s_words():
    events = [
        {"type": "GameCreated", "payload": {"players": PLAYERS, "options": {"food_cards": 40}}},
        {"type": "HorsesLinedUp", "payload": {"line_up": LINE_UP}},
        {"type": "RaceCardsDealt", "payload": {"round": 1, "seat": 1, "cards": ["red", "blue"]}},
        {"seq": 4, "prev_hash": "x", "hash": "y", "redacted": True},
        {"type": "RoundStarted", "payload": {"round": 1, "first_seat": 0}},
        {"type": "RaceCardPlayed", "payload": {"seat": 0, "horse": "red"}},
        {"type": "HorseMoved", "payload": {"horse": "red", "from": 0, "to": 4}},
        {"type": "FoodTaken", "payload": {"seat": 0, "horse": "red"}},
        {"type": "RaceCardPlayed", "payload": {"seat": 1, "horse": "yellow"}},
        {"type": "HorseMoved", "payload": {"horse": "yellow", "from": 1, "to": 2}},
        {"type": "RoundStarted", "payload": {"round": 2, "first_seat": 2}},
        {"type": "HorseMoved", "payload": {"horse": "blue", "from": 20, "to": 23}},
        {"type": "GameEnded", "payload": {"outcome": {"scores": [3, 1, 3, 0], "winners": [0, 2]}}},
    ]
    assert gh.narrate(events, 1, PLAYERS) == [
        "Galloping Horse begins: Ann, Ben, Cat and Dan race for 40 food cards.",
        "The horses line up, rear to front: Red on space 0, Yellow on space 1, "
        "Green on space 2 and Blue on space 3.",
        "You are dealt 1 Red and 1 Blue race cards for round 1.",
        None,
        "Round 1 begins: Ann plays first.",
        "Ann played Red.",
        "Red moves from space 0 to space 4, jumping 3 horses, and leads.",
        "Ann takes a food card (1 in all).",
        "Ben played Yellow.",
        "Yellow moves from space 1 to space 2; Red leads.",
        "Round 1 is over: the race cards are reshuffled and dealt again, and Cat starts round 2.",
        "Blue moves from space 20 to space 1, jumping 2 horses, "
        "crossing the start/finish line, and leads.",
        "The game is over: Ann and Cat share the victory with 3 food cards each "
        "(food: Ann 3, Ben 1, Cat 3, Dan 0).",
    ]
    assert gh.narrate(events[2:3], "moderator", PLAYERS) == [
        "Ben is dealt 1 Red and 1 Blue race cards for round 1."
    ]


def test_narrate_gives_one_entry_per_event_and_none_for_what_a_viewer_may_not_see(referee):
    game_id = bots.play(referee, gh.NAME, PLAYERS, seed="pages-words")
    for viewer in (0, None, "moderator"):
        events = referee.events(game_id, viewer)["events"]
        said = gh.narrate(events, viewer, PLAYERS)
        assert len(said) == len(events)
        for ev, sentence in zip(events, said, strict=True):
            if ev.get("redacted"):
                assert sentence is None
            elif ev["type"] in {"RaceCardPlayed", "HorseMoved", "FoodTaken", "GameEnded"}:
                assert sentence and sentence.endswith(".")
    playing = new_game(referee, "pages-words")  # while play goes on, deals stay secret
    spectator = gh.narrate(referee.events(playing, None)["events"], None, PLAYERS)
    assert spectator[:3] == [spectator[0], spectator[1], None]
    assert not [s for s in spectator if s and "dealt" in s]


def test_label_says_where_the_horse_would_go():
    view = view_of(table(), 0)
    assert (
        gh.label({"type": "play_card", "horse": "red"}, view) == "Play Red (Red to space 4, leads)"
    )
    view = view_of(table(first=1), 1)
    assert (
        gh.label({"type": "play_card", "horse": "yellow"}, view)
        == "Play Yellow (Yellow to space 4, leads)"
    )


def test_label_is_distinct_for_every_legal_command(referee):
    game_id = new_game(referee, "pages-labels")
    rng = Rng("labels")
    for turn in range(20):
        view = referee.view(game_id, referee.view(game_id, None)["to_move"][0])
        labels = [gh.label(c, view) for c in view["legal"]]
        assert len(set(labels)) == len(labels) == len(view["legal"])
        assert all(label.startswith("Play ") for label in labels)
        actor, command = bots.choose(referee.state(game_id), rng, turn)
        referee.command(game_id, actor, command)


def test_option_texts_cover_exactly_the_options_and_content_is_json():
    assert set(gh.OPTION_TEXTS) == set(gh.OPTIONS)
    assert all(isinstance(t, str) and t.endswith(".") for t in gh.OPTION_TEXTS.values())
    assert json.loads(json.dumps(gh.CONTENT)) == gh.CONTENT
    assert set(gh.CONTENT["horses"]) == set(gh.HORSES)
    assert gh.CONTENT["track"]["spaces"] == gh.TRACK
