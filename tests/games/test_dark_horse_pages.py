"""Dark Horse draws itself and speaks: the SVG's structure and text, the sentences, the
button texts, CONTENT and the option texts."""

import json
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee import bots
from referee.engine import game
from referee.engine.events import event
from referee.engine.rng import Rng
from referee.games import dark_horse as dh
from referee.games.dark_horse.board import MARK
from referee.games.dark_horse.data import HOUSE_DECK
from referee.service import Referee
from referee.store import open_store

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["Ann", "Ben", "Cat"]
EXAMPLE_LINE = [6, 5, 4, 7, 1, 3, 2]  # the rule text's example: left = 7th, right = 1st
BANNED_TAGS = {"style", "script", "a", "foreignObject", "image", "iframe"}
RANK_3_ONE = HOUSE_DECK.index(
    {"kind": "move", "targets": [{"rank": 3}], "steps": 1, "direction": "choice"}
)
EXCHANGE = HOUSE_DECK.index({"kind": "exchange"})


def fold(state, events):
    for ev in events:
        state = dh.apply(state, ev)
    return state


def racing(*, betting=None, hands=None, stack=(2, 4, 6), players=PLAYERS):
    """A table racing on the text's example line, built from events."""
    seats = len(players)
    state = dh.initial(players, dict(dh.OPTIONS))
    betting = betting or [[1, 2], [3, 3], [5, 7]][:seats]
    hands = hands or [[RANK_3_ONE, EXCHANGE, 28], [0, 1, 2], [7, 8, 9]][:seats]
    events = [event("BettingCardsDealt", {"seat": s, "cards": betting[s]}) for s in range(seats)]
    events += [event("ActionCardsDealt", {"seat": s, "cards": hands[s]}) for s in range(seats)]
    events += [event("BettingStackFormed", {"cards": list(stack)})]
    events += [event("PlacementStarted", {"seat": 0})]
    for i, horse in enumerate(reversed(EXAMPLE_LINE)):
        side = None if i == 0 else "left"
        events.append(event("HorseCardPlaced", {"seat": i % seats, "horse": horse, "side": side}))
    events += [
        event("DarkHorseRevealed", {"horse": EXAMPLE_LINE[0], "tokens": 2}),
        event("RacingStarted", {"seat": 0}),
    ]
    return fold(state, events)


def view_of(state, viewer, players=PLAYERS):
    """What GET /games/{id} returns for that viewer, built from the rules alone."""
    over = dh.outcome(state)
    return {
        "ruleset_version": dh.VERSION,
        "players": players,
        "options": dict(dh.OPTIONS),
        "status": "finished" if over else "active",
        "to_move": dh.to_move(state),
        "state": dh.view(state, "moderator" if over else viewer),
        "legal": dh.legal(state, viewer) if isinstance(viewer, int) else [],
        "outcome": over,
    }


def texts(root):
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def groups(root, cls):
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def title_of(group):
    return group.find(f"{SVG}title").text


@pytest.fixture(scope="module")
def played_game():
    """A seeded three-player game played to its end by the bots, on a real store."""
    referee = Referee(open_store(Path(tempfile.mkdtemp()) / "pages.db"))
    game_id = bots.play(referee, "dark-horse", PLAYERS, seed="pages")
    return referee, game_id


# -- the SVG -----------------------------------------------------------------------------


def test_board_is_one_svg_image_with_a_title_and_no_styles_or_scripts():
    svg = dh.board(view_of(racing(), 0))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("viewBox", "").startswith("0 0 1000 ")
    assert root.get("width") is None and root.get("height") is None
    assert root.find(f"{SVG}title").text == "Dark Horse: Ann's view"
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert not tags & BANNED_TAGS
    assert all("style" not in el.attrib for el in root.iter())
    assert dh.board(view_of(racing(), 0)) == svg  # deterministic


@pytest.mark.parametrize(
    ("viewer", "title"),
    [(None, "a spectator's view"), ("moderator", "the moderator's view"), (0, "Ann's view")],
)
def test_title_names_whose_view_it_is(viewer, title):
    root = ET.fromstring(dh.board(view_of(racing(), viewer)))
    assert root.find(f"{SVG}title").text == f"Dark Horse: {title}"


def test_a_page_may_name_the_viewer():
    """A seat's view does not name its seat: the board knows the seat that may act, and
    otherwise the page says whose view it is."""
    title = ET.fromstring(dh.board(view_of(racing(), 2))).find(f"{SVG}title").text
    assert title == "Dark Horse: a player's view"
    view = {**view_of(racing(), 2), "viewer": 2}
    assert ET.fromstring(dh.board(view)).find(f"{SVG}title").text == "Dark Horse: Cat's view"


def test_each_horse_is_drawn_with_its_number_and_rank_and_the_dark_horse_is_marked():
    root = ET.fromstring(dh.board(view_of(racing(), None)))
    horses = groups(root, "horse")
    assert [int(g.get("data-horse")) for g in horses] == EXAMPLE_LINE  # left to right
    for group, rank in zip(horses, range(7, 0, -1), strict=True):
        assert group.get("data-rank") == str(rank)
        words = texts(group)
        assert f"#{group.get('data-horse')}" in words
        assert dh.words.ordinal(rank) in words
    dark = [g for g in horses if "DARK HORSE" in texts(g)]
    assert [g.get("data-horse") for g in dark] == ["6"]
    assert title_of(dark[0]) == "Horse #6: 7th, the Dark Horse"
    assert "Dark Horse tokens left: 2" in texts(root)


def test_a_seat_sees_its_own_cards_with_their_text_and_others_face_down():
    root = ET.fromstring(dh.board(view_of(racing(), 0)))
    words = texts(root)
    assert "Your betting cards:" in words and "Your action cards (3):" in words
    cards = {g.get("data-card"): g for g in groups(root, "action-card")}
    assert set(cards) == {str(RANK_3_ONE), str(EXCHANGE), "28"}
    assert "Move the 3rd horse forward" in texts(cards[str(RANK_3_ONE)])
    assert title_of(cards["28"]).startswith("Card 28: Rider Fall Off: the horse in 3rd")
    ben = groups(root, "seat")[1]
    assert [title_of(g) for g in groups(ben, "card")] == ["Ben's betting card: face down"] * 2
    assert "?" in texts(ben)


def test_a_spectator_board_shows_hidden_cards_as_hidden_and_none_of_their_values():
    one = racing(betting=[[1, 2], [3, 3], [5, 7]], hands=[[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    two = racing(
        betting=[[6, 6], [4, 5], [1, 7]],
        hands=[[9, 10, 11], [12, 13, 14], [15, 16, 17]],
        stack=(7, 5, 3),
    )
    svg = dh.board(view_of(one, None))
    assert svg == dh.board(view_of(two, None))
    root = ET.fromstring(svg)
    assert len(groups(root, "face-down")) == 6 + 1  # every betting card, and the stack
    assert not groups(root, "action-card")
    # Ann's own view differs from the other only in what Ann holds
    assert dh.board(view_of(one, 0)) != dh.board(view_of(two, 0))


def test_a_player_name_is_escaped():
    players = ["<img src=x onerror=alert(1)>", "Ben", "Cat"]
    svg = dh.board(view_of(racing(players=players), None, players))
    root = ET.fromstring(svg)
    assert not [el for el in root.iter() if el.tag.removeprefix(SVG) == "img"]
    assert "<img" not in svg and "&lt;img src=x onerror=al" in svg


def test_highlight_marks_the_horse_a_card_moves_and_where_it_goes():
    state = racing()
    command = {
        "type": "play_card",
        "card": RANK_3_ONE,
        "take_token": True,
        "direction": "back",
    }
    assert command in dh.legal(state, 0)
    root = ET.fromstring(dh.board(view_of(state, 0), highlight=command))
    marked = [g for g in groups(root, "horse") if g.find(f"{SVG}rect").get("stroke") == MARK]
    assert [g.get("data-horse") for g in marked] == ["1"]  # the 3rd horse
    assert "moves to 4th" in texts(marked[0])
    card = [g for g in groups(root, "action-card") if g.get("data-card") == str(RANK_3_ONE)]
    assert card[0].find(f"{SVG}rect").get("stroke") == MARK


def test_highlight_marks_the_betting_card_an_exchange_gives_up_and_the_player_it_names():
    state, view = racing(), view_of(racing(), 0)
    own = {
        "type": "play_card",
        "card": EXCHANGE,
        "take_token": False,
        "exchange": {"seat": 0, "discard": 2},
    }
    other = {**own, "exchange": {"seat": 2}}
    assert own in dh.legal(state, 0) and other in dh.legal(state, 0)
    root = ET.fromstring(dh.board(view, highlight=own))
    marked = [g for g in groups(root, "card") if g.find(f"{SVG}rect").get("stroke") == MARK]
    assert {g.get("data-horse") for g in marked} == {"2"}
    root = ET.fromstring(dh.board(view, highlight=other))
    cat = groups(root, "seat")[2]
    assert any(rect.get("stroke") == MARK for rect in cat.iter(f"{SVG}rect"))


def test_placement_shows_the_line_so_far_the_horses_left_and_where_a_card_would_go():
    state = dh.initial(PLAYERS, dict(dh.OPTIONS))
    state = fold(
        state,
        [
            event("PlacementStarted", {"seat": 0}),
            event("HorseCardPlaced", {"seat": 0, "horse": 4, "side": None}),
            event("HorseCardPlaced", {"seat": 1, "horse": 7, "side": "right"}),
        ],
    )
    command = {"type": "place_horse", "horse": 1, "side": "right"}
    assert command in dh.legal(state, 2)
    root = ET.fromstring(dh.board(view_of(state, 2), highlight=command))
    horses = groups(root, "horse")
    assert [g.get("data-horse") for g in horses] == ["4", "7"]
    assert "1st so far" in texts(horses[1])
    ghost = groups(root, "laid-here")
    assert "#1 here" in texts(ghost[0])
    # the ghost is drawn right of the line: after the last horse in document order
    order = [g for g in root.iter(f"{SVG}g") if g in horses or g in ghost]
    assert order[-1] is ghost[0]
    assert "Horse cards still to lay:" in texts(root)
    assert dh.label(command, view_of(state, 2)) == "Lay horse #1 at the right end (the front)"


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_seat_count_draws_every_phase(seats):
    referee = Referee(open_store(Path(tempfile.mkdtemp()) / "seats.db"))
    players = [f"P{n}" for n in range(seats)]
    game_id = referee.create_game("dark-horse", players, {}, f"seats-{seats}")["game_id"]
    rng = Rng("bots")
    for turn in range(500):
        state = referee.state(game_id)
        for viewer in (None, "moderator", *range(seats)):
            root = ET.fromstring(dh.board(referee.view(game_id, viewer)))
            assert len(groups(root, "seat")) == seats
        if game.is_closed(state):
            break
        actor, command = bots.choose(state, rng, turn)
        command.pop("now", None)
        referee.command(game_id, actor, command)
    words = texts(root)
    assert any(w.endswith("points") for w in words)
    assert "Score" in words


def test_the_finished_race_shows_the_winner_and_every_betting_card(played_game):
    referee, game_id = played_game
    view = referee.view(game_id, None)
    result = view["outcome"]
    root = ET.fromstring(dh.board(view))
    assert root.find(f"{SVG}title").text == "Dark Horse: the finished race, every card face up"
    outcome = groups(root, "outcome")[0]
    winner = PLAYERS[result["winners"][0]]
    assert texts(outcome)[0] == f"{winner} wins with {max(result['scores'])} points"
    for seat, row in enumerate(groups(root, "seat")):
        assert not groups(row, "face-down")
        shown = sorted(int(g.get("data-horse")) for g in groups(row, "card"))
        assert shown == sorted(view["state"]["betting_cards_by_seat"][seat])
        assert any(w.startswith(f"{result['scores'][seat]} = ") for w in texts(row))


# -- the sentences -----------------------------------------------------------------------


def test_narrate_says_one_sentence_per_event_in_the_game_s_words():
    events = [
        {"type": "HorseCardPlaced", "payload": {"seat": 0, "horse": 4, "side": None}},
        {"type": "HorseCardPlaced", "payload": {"seat": 1, "horse": 7, "side": "right"}},
        {"type": "HorseCardPlaced", "payload": {"seat": 2, "horse": 1, "side": "left"}},
        {"seq": 9, "prev_hash": "a", "hash": "b", "redacted": True},
        {"type": "DarkHorseTokenTaken", "payload": {"seat": 2}},
        {
            "type": "ActionCardPlayed",
            "payload": {"seat": 2, "card": RANK_3_ONE, "direction": "forward"},
        },
        {"type": "HorseMoved", "payload": {"horse": 1, "from_rank": 3, "to_rank": 2}},
        {
            "type": "ActionCardPlayed",
            "payload": {"seat": 0, "card": EXCHANGE, "exchange": {"seat": 1}},
        },
        {"type": "BettingCardExchangeForced", "payload": {"seat": 1, "by": 0}},
        {"type": "BettingCardDiscarded", "payload": {"seat": 1, "horse": 3}},
        {"type": "TurnPassed", "payload": {"seat": 1}},
    ]
    said = dh.narrate(events, None, PLAYERS)
    assert said == [
        "Ann lays horse #4 in the middle of the table.",
        "Ben lays horse #7 at the right end (the front).",
        "Cat lays horse #1 at the left end (the rear).",
        None,
        "Cat takes a Dark Horse token.",
        f"Cat plays card {RANK_3_ONE} (The 3rd horse forward or back 1), forward.",
        "Horse #1 moves forward from 3rd to 2nd, passing #4.",
        f"Ann plays card {EXCHANGE} (Exchange Betting Card): Ben must exchange a betting card.",
        "Ann makes Ben discard a betting card and draw a new one; Ben chooses which.",
        "Ben discards a betting card on #3 (face up) to draw one from the stack.",
        "Ben's turn.",
    ]
    assert dh.narrate(events[4:5], 2, PLAYERS) == ["You take a Dark Horse token."]


def test_narrate_a_seeded_game_for_a_seat_and_a_spectator(played_game):
    referee, game_id = played_game
    for viewer in (None, 0, "moderator"):
        events = referee.events(game_id, viewer)["events"]
        said = dh.narrate(events, viewer, PLAYERS)
        assert len(said) == len(events)
        for ev, sentence in zip(events, said, strict=True):
            if ev.get("redacted") or ev["type"] == "SeedRevealed":
                assert sentence is None
            else:
                assert sentence and sentence.endswith(".")
    kinds = {ev["type"] for ev in events}
    assert {"HorseCardPlaced", "DarkHorseRevealed", "ActionCardPlayed", "HorseMoved"} <= kinds
    assert {"RaceFinished", "GameEnded"} <= kinds


def test_narrate_tells_a_private_deal_only_to_whom_it_was_dealt():
    events = [
        {"type": "BettingCardsDealt", "payload": {"seat": 0, "cards": [4, 6]}},
        {"type": "BettingCardDrawn", "payload": {"seat": 0, "horse": 5}},
    ]
    assert dh.narrate(events, 0, PLAYERS) == [
        "You receive betting cards on #4 and #6.",
        "You draw a betting card on #5.",
    ]
    stubs = [{"seq": n, "prev_hash": "x", "hash": "y", "redacted": True} for n in (2, 3)]
    assert dh.narrate(stubs, None, PLAYERS) == [None, None]


def test_narrate_the_end_names_the_dark_horse_and_the_winner():
    outcome = {
        "scores": [20, 17, 20],
        "ranks": [1, 3, 1],
        "winners": [0, 2],
        "dark_horse": 5,
        "dark_horse_rank": 3,
    }
    said = dh.narrate([{"type": "GameEnded", "payload": {"outcome": outcome}}], None, PLAYERS)
    assert said == [
        "The Dark Horse, #5, finished 3rd: each Dark Horse token scores +5. "
        "Ann and Cat share the victory with 20 points (Ann 20, Ben 17, Cat 20)."
    ]


# -- the button texts --------------------------------------------------------------------


def test_label_says_what_a_card_would_do():
    view = view_of(racing(), 0)
    command = {
        "type": "play_card",
        "card": RANK_3_ONE,
        "take_token": True,
        "direction": "back",
    }
    assert dh.label(command, view) == (
        f"Play card {RANK_3_ONE}: move the 3rd horse back 1 (#1 3rd to 4th), "
        "and take a Dark Horse token"
    )
    fall = {"type": "play_card", "card": 28, "take_token": False}
    assert dh.label(fall, view) == "Play card 28: Rider Fall Off (#1 3rd to 7th)"
    discard = {"type": "discard_betting_card", "horse": 3}
    assert dh.label(discard, view) == "Discard your betting card on #3 and draw a new one"


def test_label_is_distinct_for_every_legal_command_in_real_states():
    referee = Referee(open_store(Path(tempfile.mkdtemp()) / "labels.db"))
    game_id = referee.create_game("dark-horse", ["Ann", "Ben"], {}, "labels")["game_id"]
    rng, kinds = Rng("labels"), set()
    for turn in range(200):
        state = referee.state(game_id)
        if game.is_closed(state):
            break
        actor, command = bots.choose(state, rng, turn)
        view = referee.view(game_id, actor)
        labels = [dh.label(c, view) for c in view["legal"]]
        assert len(set(labels)) == len(labels) and all(labels)
        kinds |= {c["type"] for c in view["legal"]}
        command.pop("now", None)
        referee.command(game_id, actor, command)
    assert {"place_horse", "play_card"} <= kinds


def test_label_works_from_the_hand_built_exchange_state():
    state = racing()
    view = view_of(state, 0)
    labels = [dh.label(c, view) for c in dh.legal(state, 0)]
    assert len(set(labels)) == len(labels)
    assert (
        f"Play card {EXCHANGE}: Exchange Betting Card: Cat must discard a betting card and "
        "draw a new one" in labels
    )


# -- CONTENT and OPTION_TEXTS ------------------------------------------------------------


def test_option_texts_cover_exactly_the_options():
    assert set(dh.OPTION_TEXTS) == set(dh.OPTIONS)
    assert all(isinstance(t, str) and t.endswith(".") for t in dh.OPTION_TEXTS.values())


def test_content_explains_every_house_card_and_is_json():
    assert json.loads(json.dumps(dh.CONTENT)) == dh.CONTENT
    cards = dh.CONTENT["action_cards"]
    assert set(cards) == {str(n) for n in range(len(HOUSE_DECK))}
    assert cards[str(RANK_3_ONE)]["text"] == (
        "Move the 3rd horse forward or back 1 space (you choose which)."
    )
    assert cards["24"]["title"] == "The 4th and 6th horses forward 1"
    assert cards[str(EXCHANGE)]["title"] == "Exchange Betting Card"
    assert "betting_cards" in dh.CONTENT and "dark_horse_tokens" in dh.CONTENT
    assert {"board", "narrate", "label", "CONTENT", "OPTION_TEXTS"} <= set(dh.__all__)
