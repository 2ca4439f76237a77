"""Royal Turf on the pages: the board's SVG (structure and text, not pixels), the
sentences per event, the button texts, and the content and option texts; above all that
a sealed chip's value reaches neither the board nor the words of anyone who may not
see it."""

import copy
import json
import xml.etree.ElementTree as ET

import pytest

import referee.games  # noqa: F401  (registers the rulesets)
from referee.engine import game
from referee.games import royal_turf as rt
from referee.games.royal_turf.data import HORSES
from referee.games.royal_turf.describe import destination

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
SVG = "{http://www.w3.org/2000/svg}"
BANNED_TAGS = {"script", "style", "a", "image", "img", "foreignObject", "iframe"}


def play(state, command, seed):
    """`state` after the seat to move plays `command`, and the records it made."""
    records = game.execute(state, game.to_move(state)[0], command, seed)
    return game.fold(records, state), records


def played(seed, steps, players=PLAYERS, pick=0, **options):
    """A game after `steps` commands, each seat playing its legal command number `pick`
    (modulo how many it has); and every record so far."""
    records = game.create("royal-turf", players, options, seed)
    state = game.fold(records)
    for _ in range(steps):
        if state["status"] != "active":
            break
        legal = game.legal(state, game.to_move(state)[0])
        state, new = play(state, legal[pick % len(legal)], seed)
        records += new
    return state, records


def parsed(svg):
    return ET.fromstring(svg)


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def titles(root):
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}title")]


def horse_group(root, horse):
    return next(g for g in root.iter(f"{SVG}g") if g.get("data-horse") == horse)


def assert_safe_svg(svg):
    root = parsed(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("width") is None and root.get("height") is None
    assert root[0].tag == f"{SVG}title" and "Royal Turf" in root[0].text
    for element in root.iter():
        assert element.tag.removeprefix(SVG) not in BANNED_TAGS
        assert "style" not in element.attrib
        assert not any(k.startswith("on") or "href" in k for k in element.attrib)
    for size in (e.get("font-size") for e in root.iter() if e.get("font-size")):
        assert float(size) >= 11
    return root


# --- the board ----------------------------------------------------------------------


def test_every_horse_is_drawn_in_its_lane_with_its_name_and_space():
    state, _ = played("lanes", 40)
    view = game.view(state, None)
    root = assert_safe_svg(rt.board(view))
    for horse in view["state"]["horses"]:
        group = horse_group(root, horse["horse"])
        assert group.get("data-space") == str(horse["space"])
        name = horse["horse"].capitalize()
        assert f"{name} {horse['space']}" in texts(group)
    assert "Finish 40" in texts(root)


def test_numbers_every_five_spaces_the_pace_space_and_the_die():
    state, _ = played("numbers", 30)
    view = game.view(state, None)
    root = parsed(rt.board(view))
    shown = texts(root)
    assert [str(n) for n in range(0, 40, 5)] == [t for t in shown if t.isdigit()][:8]
    assert view["state"]["die"] in shown  # racing: the die face rolled
    assert any("pace" in t and "18" in t for t in shown)


def test_face_up_cards_show_their_values_and_face_down_cards_show_none():
    state, _ = played("cards", 30)
    view = game.view(state, None)
    horses = view["state"]["horses"]
    assert any(h["face_up"] for h in horses) and any(not h["face_up"] for h in horses)
    root = parsed(rt.board(view))
    for horse in horses:
        group, card = horse_group(root, horse["horse"]), horse["card"]
        spelled = f"card {card['card']}: head {card['head']}, helmet {card['helmet']}"
        if horse["face_up"]:
            assert any(spelled in t for t in titles(group))
            assert f"#{card['card']}" in texts(group)
        else:
            assert "card face down" in texts(group)
            assert f"#{card['card']}" not in texts(group)


def test_a_player_name_is_escaped():
    evil = "<img src=x onerror=alert(1)>"
    state, _ = played("escape", 20, players=["Ann", evil, "Cat"])
    svg = rt.board(game.view(state, 1))
    root = assert_safe_svg(svg)
    assert evil not in svg and "&lt;img" in svg
    assert all(e.tag != f"{SVG}img" for e in root.iter())
    assert any(evil in t for t in titles(root))  # the full name, as text


@pytest.mark.parametrize(
    "players, options",
    [
        (["Ann", "Ben"], {}),
        (["Ann", "Ben", "Cat"], {"hidden_bets": True, "crowded_field": True}),
        (PLAYERS, {"royal_turf_cards": True, "alternative_payouts": True}),
        (["A", "B", "C", "D", "E", "F"], {"hidden_bets": True, "zero_chip_uses_bet": False}),
        (["Ann", "Ben", "Cat"], {"track_length": 120, "pace_space": 70}),
    ],
)
def test_every_phase_of_a_whole_game_draws(players, options):
    records = game.create("royal-turf", players, options, "whole")
    state = game.fold(records)
    step = 0
    while state["status"] == "active":
        if step % 25 == 0:
            for viewer in (None, "moderator", *range(len(players))):
                view = game.view(state, viewer)
                assert_safe_svg(rt.board(view, highlight=(view["legal"] or [None])[0]))
        legal = game.legal(state, game.to_move(state)[0])
        state, _ = play(state, legal[step % len(legal)], "whole")
        step += 1
    view = game.view(state, None)
    root = assert_safe_svg(rt.board(view))
    winners = [players[s] for s in view["outcome"]["winners"]]
    assert any(t.startswith("Game over:") and winners[0] in t for t in texts(root))
    assert sum(t.startswith("Race ") for t in texts(root)) == 3  # the races run
    assert rt.board(view) == rt.board(copy.deepcopy(view))


def test_finish_placings_and_last_place_are_written_out():
    state, _ = played("placings", 2000)
    result = state["rules"]["results"][-1]
    root = parsed(rt.board(game.view(state, None)))
    placings = next(g for g in root.iter(f"{SVG}g") if g.get("data-placings") is not None)
    assert placings.get("data-placings") == ",".join(result["placings"])
    line = texts(placings)[0]
    first, last = result["placings"][0].capitalize(), result["last_place"].capitalize()
    assert f"1st {first}" in line and f"last: {last}" in line
    assert f"{first} 1st" in texts(horse_group(root, result["placings"][0]))


def test_the_title_names_whose_view_it_is():
    state, _ = played("title", 5, hidden_bets=True)
    seat = game.to_move(state)[0]
    title = {v: parsed(rt.board(game.view(state, v)))[0].text for v in (None, "moderator", seat)}
    assert title[None].endswith("a spectator's view")
    assert title["moderator"].endswith("the moderator's view")
    assert title[seat].endswith(f"{PLAYERS[seat]}'s view")
    page_says = {**game.view(state, None), "viewer": 2}
    assert parsed(rt.board(page_says))[0].text.endswith("Cat's view")


def test_a_seat_sees_its_own_chips_left():
    state, _ = played("own", 6, hidden_bets=True)
    view = game.view(state, 0)
    root = parsed(rt.board(view))
    rows = {g.get("data-seat"): texts(g) for g in root.iter(f"{SVG}g") if g.get("data-seat")}
    own = ", ".join(map(str, view["state"]["chips"][0]))
    assert "Ann (you)" in rows["0"] and f"chips left: {own}" in rows["0"]
    assert any("chips left (values sealed)" in t for t in rows["1"])


# --- the sealed chip: noninterference ------------------------------------------------


def sealed_pair(seed="sealed"):
    """Two Hidden Bets games alike but for the first player's first chip (1 or 2 on Red),
    then the next seat bets the same in both; with the first player's seat."""
    states, logs = [], []
    for chip in (1, 2):
        log = game.create("royal-turf", PLAYERS, {"hidden_bets": True}, seed)
        state = game.fold(log)
        first = game.to_move(state)[0]
        state, new = play(state, {"type": "place_bet", "horse": "red", "chip": chip}, seed)
        log += new
        state, new = play(state, {"type": "place_bet", "horse": "white", "chip": 1}, seed)
        states.append(state)
        logs.append(log + new)
    return states, logs, first


def test_others_and_spectators_see_the_same_board_whatever_the_sealed_chip():
    (one, two), _, first = sealed_pair()
    for viewer in [None, *(s for s in range(len(PLAYERS)) if s != first)]:
        a, b = game.view(one, viewer), game.view(two, viewer)
        assert rt.board(a) == rt.board(b)
        for command in a["legal"]:
            assert rt.label(command, a) == rt.label(command, b)
            assert rt.board(a, highlight=command) == rt.board(b, highlight=command)
    # the chip is there, drawn sealed
    root = parsed(rt.board(game.view(one, None)))
    red = titles(horse_group(root, "red"))
    assert any("face down, its value sealed" in t for t in red)
    # its owner and the moderator do see the difference
    for viewer in (first, "moderator"):
        assert rt.board(game.view(one, viewer)) != rt.board(game.view(two, viewer))


def test_others_and_spectators_read_the_same_words_whatever_the_sealed_chip():
    _, (log_one, log_two), first = sealed_pair()
    for viewer in [None, *(s for s in range(len(PLAYERS)) if s != first)]:
        told = [
            rt.narrate([game.redact(r, viewer, False) for r in log], viewer, PLAYERS)
            for log in (log_one, log_two)
        ]
        assert told[0] == told[1]
        assert any(t and "put a face-down chip on Red" in t for t in told[0])
    owner = rt.narrate([game.redact(r, first, False) for r in log_one], first, PLAYERS)
    assert f"{PLAYERS[first]} sealed chip 1 on Red (race 1, betting round 1)." in owner


# --- highlight ------------------------------------------------------------------------


def racing_view(seed="highlight"):
    state, _ = played(seed, 14)  # 4 players x 3 chips, then a move or two
    seat = game.to_move(state)[0]
    view = game.view(state, seat)
    assert view["state"]["phase"] == "racing" and view["state"]["die"]
    return view


def test_highlighting_a_move_marks_the_horse_and_the_space_it_would_reach():
    view = racing_view()
    command = view["legal"][0]
    face, steps, to = destination(view["state"], command["horse"])
    root = parsed(rt.board(view, highlight=command))
    name = command["horse"].capitalize()
    assert f"{name} would move {face} {steps} to space {to}" in titles(root)
    assert f"to {to}" in texts(root)
    assert rt.board(view, highlight=None) != rt.board(view, highlight=command)


def test_highlighting_a_bet_marks_the_horse():
    state, _ = played("bet", 2)
    view = game.view(state, game.to_move(state)[0])
    command = {"type": "place_bet", "horse": "blue", "chip": 2}
    assert command in view["legal"]
    assert "Your chip 2 would go on Blue" in titles(parsed(rt.board(view, highlight=command)))


# --- words ----------------------------------------------------------------------------


def test_labels_are_distinct_for_every_legal_command():
    for state in (
        played("labels", 1, hidden_bets=True)[0],
        played("labels", 3, zero_chip_uses_bet=False, hidden_bets=True)[0],
        played("labels", 14)[0],
        played("labels", 60, crowded_field=True)[0],
    ):
        view = game.view(state, game.to_move(state)[0])
        labels = [rt.label(c, view) for c in view["legal"]]
        assert labels and len(set(labels)) == len(labels)


def test_a_move_label_says_the_face_the_value_and_the_space():
    view = copy.deepcopy(racing_view())
    table = view["state"]
    table.update(die="helmet", placings=[], pace_chip=None)
    for index, horse in enumerate(table["horses"]):
        horse.update(space=20 + index, finished=None)
    red = table["horses"][HORSES.index("red")]
    red.update(space=7, card={"card": 1, "head": 1, "helmet": 5, "shoe": 1, "carrot": 1})
    assert rt.label({"type": "move_horse", "horse": "red"}, view) == (
        "Move Red (helmet 5: to space 12)"
    )
    red["card"]["helmet"] = 14  # space 21 is Black's: blocked back to 19
    assert rt.label({"type": "move_horse", "horse": "red"}, view) == (
        "Move Red (helmet 14: blocked, stops on space 19, takes the pace chip)"
    )
    assert rt.label({"type": "place_bet", "horse": "red", "chip": 2}, view) == "Bet chip 2 on Red"


def event(kind, **payload):
    return {"type": kind, "payload": payload}


def moved(seat, horse, face, steps, start, to):
    where = {"from": start, "to": to}
    return event("HorseMoved", race=1, seat=seat, horse=horse, face=face, steps=steps, **where)


def test_narrate_says_each_event_in_the_game_s_words():
    stub = {"seq": 9, "prev_hash": "0" * 64, "hash": "1" * 64, "redacted": True}
    events = [
        event("FirstPlayerChosen", race=2, seat=1, among=[1]),
        event("BetPlaced", race=1, round=1, seat=0, horse="red", chip=2),
        event("BetPlaced", race=1, round=1, seat=1, horse="blue"),
        stub,
        event("OrdersRevealed", round=6, seat=1, seq=9, orders={"horse": "blue", "chip": 0}),
        event("DieRolled", race=1, seat=2, face="helmet"),
        moved(2, "red", "helmet", 5, 7, 12),
        moved(0, "blue", "head", 6, 3, 7),
        event("PaceChipTaken", race=1, horse="red"),
        event("HorseFinished", race=1, horse="red", place=1),
        event("CardsTurnedUp", race=1),
        event(
            "RaceEnded", race=3, placings=["red", "blue", "white"], last="green", pace_chip="red"
        ),
        event(
            "RacePaid",
            race=3,
            multiplier=2,
            money=[1200, 0, 300],
            lines=[{"seat": 0, "amount": 1200}, {"seat": 1, "amount": -100}],
        ),
        event("GameEnded", outcome={"scores": [1200, 0, 300], "ranks": [1, 3, 2], "winners": [0]}),
        event("SeedRevealed", seed="x"),
    ]
    told = rt.narrate(events, None, ["Ann", "Ben", "Cat"])
    assert told == [
        "Ben, the richest, bets first in race 2.",
        "Ann bet chip 2 on Red.",
        "Ben put a face-down chip on Blue.",
        None,
        "Ben's face-down chip on Blue is turned over: chip 0.",
        "Cat rolled the die: helmet.",
        "Cat moved Red with helmet 5: Red goes from space 7 to space 12.",
        "Ann moved Blue with head 6: blocked, Blue stops on space 7 (from space 3).",
        "Red reaches the pace space first and takes the pace chip.",
        "Red crosses the finish line: 1st.",
        "Every horse has moved: all cards turn face up.",
        "Race 3 is over: 1st Red, 2nd Blue, 3rd White; Red has the pace chip; Green is last.",
        "Race 3 is paid (everything x2): Ann +1200, Ben -100, Cat 0. "
        "Money: Ann 1200, Ben 0, Cat 300.",
        "The game is over: Ann wins with 1200.",
        None,  # the referee's own words for it (the pages' story)
    ]


def test_narrate_a_seeded_game_one_entry_per_event():
    state, records = played("story", 3000, hidden_bets=True)
    assert state["status"] == "finished"
    for viewer in (None, 0):
        events = [game.redact(r, viewer, False) for r in records]
        told = rt.narrate(events, viewer, PLAYERS)
        assert len(told) == len(events)
        for ev, text in zip(events, told, strict=True):
            if ev.get("redacted") or ev["type"] == "SeedRevealed":
                assert text is None
            else:
                assert text and text.endswith(".")
    assert told[0] == "A game of Royal Turf was set up for Ann, Ben, Cat and Dan with Hidden Bets."
    assert told[1].startswith("Race 1: the horse cards are dealt: White card ")


# --- content and option texts ---------------------------------------------------------


def test_option_texts_cover_exactly_the_options():
    assert set(rt.OPTION_TEXTS) == set(rt.OPTIONS)
    assert all(isinstance(t, str) and t.endswith(".") for t in rt.OPTION_TEXTS.values())


def test_content_explains_the_horses_cards_and_faces_and_is_json():
    assert json.loads(json.dumps(rt.CONTENT)) == rt.CONTENT
    assert list(rt.CONTENT["horses"]) == HORSES
    assert rt.CONTENT["horses"]["red"]["name"] == "Red" and rt.CONTENT["horses"]["red"]["gate"] == 3
    assert rt.CONTENT["cards"]["1"] == {"head": 5, "helmet": 5, "shoe": 5, "carrot": 5}
    assert len(rt.CONTENT["cards"]) == 28
    assert set(rt.CONTENT["variants"]) == {
        "hidden_bets",
        "crowded_field",
        "alternative_payouts",
        "royal_turf_cards",
    }
