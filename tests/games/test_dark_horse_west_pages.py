"""Dark Horse West draws itself and speaks (docs/rulesets.md, "Pages"): the SVG board's
structure and words, hidden tiles and hands kept hidden, a highlighted command marked,
a sentence for every event, a distinct label for every legal command, the option texts
and the content that explains ids. Structure and text, never pixels."""

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.bots import choose
from referee.engine import game
from referee.engine.rng import Rng
from referee.games import dark_horse_west as dhw
from referee.games.dark_horse_west import board_map, labels, narration, words
from referee.games.dark_horse_west.board_content import DRAWING

SVG = "{http://www.w3.org/2000/svg}"
PACKAGE = Path(dhw.__file__).parent
HIGHLIGHT = DRAWING["highlight"]
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def played(players: list[str], options: dict, seed: str, turns: int) -> dict:
    """An engine state after `turns` random-bot commands (or the game's end)."""
    records = game.create("dark-horse-west", players, options, seed)
    state, bot = game.fold(records), Rng(f"bot:{seed}")
    for turn in range(turns):
        if game.is_over(state):
            break
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, seed), state)
    return state


def until(players: list[str], options: dict, seed: str, wanted, most: int = 3000) -> dict:
    """The first engine state (bots playing) where `wanted(state)` holds."""
    records = game.create("dark-horse-west", players, options, seed)
    state, bot = game.fold(records), Rng(f"bot:{seed}")
    for turn in range(most):
        if wanted(state):
            return state
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, seed), state)
    raise AssertionError("never reached")


def acting_view(state: dict) -> dict:
    """The view of the seat asked to act (its legal commands included)."""
    return game.view(state, game.to_move(state)[0])


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def group(root: ET.Element, title_start: str) -> ET.Element:
    """The <g> whose <title> starts with these words."""
    found = [
        g for g in root.iter(f"{SVG}g") if (g.findtext(f"{SVG}title") or "").startswith(title_start)
    ]
    assert len(found) == 1, title_start
    return found[0]


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}title")]


@pytest.fixture(scope="module")
def midgame() -> dict:
    return played(NAMES[:3], {}, "pages-mid", 160)


# --- the board ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "viewer, whose", [(None, "spectator's view"), ("moderator", "moderator's view")]
)
def test_the_board_is_one_svg_with_a_title_a_viewbox_and_no_size_or_style(midgame, viewer, whose):
    svg = dhw.board(game.view(midgame, viewer))
    root = parsed(svg)
    assert root.get("role") == "img" and root.get("viewBox", "").startswith("0 0 1000 ")
    assert root.get("width") is None and root.get("height") is None
    assert root[0].tag == f"{SVG}title" and root[0].text == f"Dark Horse West: {whose}"
    banned = {"style", "script", "a", "image", "foreignObject"}
    assert not [e.tag for e in root.iter() if e.tag.removeprefix(SVG) in banned]
    assert not [e for e in root.iter() if "style" in e.attrib or any("href" in k for k in e.attrib)]
    assert svg == dhw.board(game.view(midgame, viewer))  # deterministic


def test_a_seats_board_is_titled_with_its_name(midgame):
    seat = game.to_move(midgame)[0]
    root = parsed(dhw.board(game.view(midgame, seat)))
    assert root[0].text == f"Dark Horse West: {NAMES[seat]}'s view"


def test_a_page_may_name_the_viewer(midgame):
    waiting = game.to_move(midgame)[0]
    other = next(s for s in range(3) if s != waiting)
    view = game.view(midgame, other)
    view["state"]["hand_sizes"] = [len(view["state"]["hand"])] * 3  # nothing tells whose
    assert parsed(dhw.board(view))[0].text == "Dark Horse West: a player's view"
    named = {**view, "viewer": other}
    assert parsed(dhw.board(named))[0].text == f"Dark Horse West: {NAMES[other]}'s view"


def test_the_map_shows_every_hex_piece_and_rail_with_its_owner(midgame):
    view = game.view(midgame, None)
    state = view["state"]
    root = parsed(dhw.board(view))
    hexes = [t for t in titles(root) if t.startswith("Hex (")]
    assert len(hexes) == 60
    shown = titles(root)
    for h, seat in state["cities"].items():
        points = state["city_points"][h]
        assert f"{NAMES[seat]}'s city at ({h}): {points} points" in shown
    for h, seat in state["towns"].items():
        assert f"{NAMES[seat]}'s town at ({h})" in shown
    assert state["rails"]
    for edge in state["rails"]:
        a, b = edge.split("|")
        assert f"Rail between ({a}) and ({b})" in shown
    key = group(root, "Player 1: Ann (blue)")
    assert "1 · Ann (blue)" in " ".join(texts(key))


def test_the_action_board_shows_whose_dice_are_on_each_action():
    state = until(
        NAMES[:3],
        {},
        "pages-dice",
        lambda s: sum(p["seat"] is not None for p in s["rules"]["placements"]) >= 4,
    )
    view = game.view(state, None)
    root = parsed(dhw.board(view))
    for placement in view["state"]["placements"]:
        if placement["seat"] is None or placement["action"] == "character":
            continue
        name = dhw.CONTENT["actions"][placement["action"]]["name"]
        words = " ".join(texts(group(root, f"{name}:")))
        assert NAMES[placement["seat"]] in words
        faces = [view["state"]["dice"][placement["seat"]][d]["value"] for d in placement["dice"]]
        assert all(str(f) in words for f in faces)


def test_an_event_in_play_puts_the_event_marker_on_its_action(midgame):
    view = game.view(midgame, None)
    view["state"]["events"] = ["drought-1"]
    root = parsed(dhw.board(view))
    assert "Event: Drought" in texts(group(root, "Builder:"))
    assert "Event: Drought" not in texts(group(root, "Trader:"))
    assert any("Event in play: Drought" in t for t in texts(root))


def test_hostile_player_names_are_escaped():
    hostile = ["<img src=x onerror=alert(1)>", "Ben & <b>Co</b>", "Cat"]
    state = played(hostile, {}, "pages-names", 60)
    for viewer in (None, 0, "moderator"):
        svg = dhw.board(game.view(state, viewer))
        root = parsed(svg)
        assert "<img" not in svg and "<b>" not in svg
        assert not [e for e in root.iter() if e.tag.removeprefix(SVG) in ("img", "b")]
        assert f"Player 1: {hostile[0]} (blue)" in titles(root)


def with_secrets_swapped(state: dict) -> dict:
    """The same table with two face-down tiles swapped and seat 0's hand changed."""
    other = copy.deepcopy(state)
    rules = other["rules"]
    down = [h for h in sorted(rules["layout"]) if h not in rules["face_up"]]
    a, b = down[0], down[-1]
    rules["layout"][a], rules["layout"][b] = rules["layout"][b], rules["layout"][a]
    rules["hands"][0] = [c if c != "train_robbery-1" else "election-1" for c in rules["hands"][0]]
    rules["hands"][0] = ["train_robbery-1" if c != "election-1" else c for c in rules["hands"][0]]
    return other


def test_a_spectator_sees_face_down_tiles_and_hands_as_hidden():
    state = until(
        NAMES[:3],
        {},
        "pages-hidden",
        lambda s: bool(s["rules"]["hands"][0]) and s["rules"]["phase"] == "collection",
    )
    other = with_secrets_swapped(state)
    spectator = dhw.board(game.view(state, None))
    assert spectator == dhw.board(game.view(other, None))
    root = parsed(spectator)
    assert texts(root).count("?") == len(game.view(state, None)["state"]["face_down"])
    assert "(seen)" not in spectator
    assert not any("Your hand" in t or "'s hand" in t for t in texts(root))
    assert dhw.board(game.view(state, 0)) != dhw.board(game.view(other, 0))
    own = game.view(state, 0)
    mine = dhw.board(own)
    assert f"Your hand ({NAMES[0]})" in texts(parsed(mine))
    for card in own["state"]["hand"]:
        assert words.card_name(card) in mine
    if own["state"]["tiles_seen"]:
        assert "(seen)" in mine


def test_a_place_rail_highlight_marks_the_edge_its_hexes_and_what_it_connects():
    state = until(
        NAMES[:2], {}, "pages-rail", lambda s: (s["rules"]["task"] or {}).get("kind") == "rails"
    )
    view = acting_view(state)
    rail = next(c for c in view["legal"] if c["type"] == "place_rail")
    root = parsed(dhw.board(view, highlight=rail))
    a, b = rail["edge"].split("|")
    assert f"New rail between ({a}) and ({b})" in titles(root)
    assert f"Shown: Rail between ({a}) and ({b})" in " ".join(texts(root))
    marked = [p for p in root.iter(f"{SVG}polygon") if p.get("stroke") == HIGHLIGHT]
    on_map = [h for h in (a, b) if tuple(map(int, h.split(","))) in board_map.HOUSE.hexes]
    assert len(marked) == len(on_map)
    # a rail on the side a city and a town share connects them
    table = {"rails": [], "cities": {"1,1": 0}, "towns": {"2,0": 0}, "map": None}
    pieces, said = board_map.rail_joins(table, "1,1|2,0", ["Ann"])
    assert pieces == ["1,1", "2,0"] and said == "Ann's city (1,1) to town (2,0)"
    assert board_map.rail_joins({**table, "rails": ["1,1|2,0"]}, "0,1|1,1", ["Ann"])[0] == []


def test_a_placement_highlight_marks_its_action_space():
    state = until(
        NAMES[:3],
        {},
        "pages-place",
        lambda s: s["rules"]["step"] and s["rules"]["step"]["kind"] == "place",
    )
    view = acting_view(state)
    for command in view["legal"]:
        if command["type"] != "place" or command["action"] == "character":
            continue
        root = parsed(dhw.board(view, highlight=command))
        name = dhw.CONTENT["actions"][command["action"]]["name"]
        space = group(root, f"{name}:")
        marked = [r for r in space.iter(f"{SVG}rect") if r.get("stroke") == HIGHLIGHT]
        assert len(marked) == 1, command
        if command["action"] == "produce":
            assert marked[0].get("width") == "86"  # the icon, not the whole space
        others = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == HIGHLIGHT]
        assert len(others) == 2  # the space, and the acting seat's panel


@pytest.mark.parametrize(
    "players, options",
    [
        (1, {"difficulty": "cruel", "scenario": "gold_rush"}),
        (2, {"gunslinger": True}),
        (3, {"characters": "choose"}),
        (4, {"tiles_face_up": True}),
    ],
)
def test_every_seat_count_and_variant_draws_every_phase_and_the_outcome(players, options):
    records = game.create("dark-horse-west", NAMES[:players], options, f"pages-{players}")
    state, bot = game.fold(records), Rng(f"bot:{players}")
    phases = set()
    for turn in range(20_000):
        if game.is_over(state):
            break
        if turn % 97 == 0 or state["rules"]["phase"] not in phases:
            phases.add(state["rules"]["phase"])
            view = acting_view(state)
            parsed(dhw.board(view, highlight=view["legal"][0] if view["legal"] else None))
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, f"pages-{players}"), state)
    root = parsed(dhw.board(game.view(state, None)))
    words = texts(root)
    assert "Final scores" in words
    outcome = state["outcome"]
    for seat in range(players):
        assert f"{NAMES[seat]}: {outcome['scores'][seat]} points" in " ".join(words)
    if outcome["winners"]:
        assert any(t.startswith("Winner") for t in words)


def test_a_moderators_map_is_drawn_instead_of_the_house_map():
    house = dhw.CONTENT["map"]
    north = {
        "hexes": [c for c in house["hexes"] if c["r"] <= 3],
        "tiles": [],
        "dead_centre": [],
    }
    spots = [c for c in north["hexes"] if c["kind"] == "resource"]
    ores = [t for t in house["tiles"] if t["resource"] == "ore" and not t["rugged"]]
    rest = [t for t in house["tiles"] if t not in ores]
    north["tiles"] = [{**t, "id": f"n-{i}"} for i, t in enumerate((ores + rest)[: len(spots)])]
    state = played(NAMES[:3], {"map": north}, "pages-map", 40)
    root = parsed(dhw.board(game.view(state, None)))
    assert len([t for t in titles(root) if t.startswith("Hex (")]) == len(north["hexes"])
    assert any("moderator's map" in t for t in texts(root))


# --- words --------------------------------------------------------------------------------


def test_narrate_tells_a_hand_built_turn_in_the_games_words():
    events = [
        {"type": "RoundStarted", "payload": {"round": 2, "jailed": [0, 1]}},
        {
            "type": "DiceRolled",
            "payload": {
                "seat": 0,
                "dice": [
                    {"id": 0, "kind": "deputy", "value": 3},
                    {"id": 1, "kind": "normal", "value": 4},
                ],
            },
        },
        {
            "type": "DicePlaced",
            "payload": {"seat": 0, "action": "trader", "dice": [0, 1], "total": 7},
        },
        {"seq": 9, "prev_hash": "a", "hash": "b", "redacted": True},
        {
            "type": "DicePlaced",
            "payload": {
                "seat": 1,
                "action": "produce",
                "row": "ore",
                "slot": "plus",
                "dice": [0],
                "total": 5,
            },
        },
        {"type": "CollectionTurn", "payload": {"seat": 0, "action": "trader", "placement": 0}},
        {
            "type": "ActionCollected",
            "payload": {
                "seat": 0,
                "action": "trader",
                "placement": 0,
                "change": {"gold": 1, "wood": -4},
            },
        },
        {"type": "RailPlaced", "payload": {"seat": 1, "edge": "0,1|1,1", "why": "rail_baron"}},
        {"type": "GameCreated", "payload": {"players": ["Ann", "Ben"]}},
    ]
    told = dhw.narrate(events, None, ["Ann", "Ben"])
    assert told == [
        "Game turn 2 begins; in jail: Ben 1 die.",
        "Ann rolls 3 (Deputy die) and 4.",
        "Ann places 3+4 on Trader.",
        None,
        "Ben places dice totalling 5 on Produce Resources: ore, 4+ icon.",
        "Ann's turn to collect Trader.",
        "Ann collects Trader: pays 4 wood and gains 1 gold.",
        "Ben lays a rail between (0,1) and (1,1).",
        None,  # the referee's own event: the pages word it
    ]


def emitted_event_types() -> set[str]:
    """Every event type the package's code emits."""
    found = set()
    for path in PACKAGE.glob("*.py"):
        found |= set(re.findall(r'event\(\s*"([A-Z][A-Za-z]+)"', path.read_text("utf-8")))
    return found


def test_every_event_type_the_ruleset_emits_has_a_sentence():
    emitted = emitted_event_types()
    assert {"DicePlaced", "RailPlaced", "ScoresCounted", "GhostDiePlaced"} <= emitted
    assert emitted <= set(narration.SENTENCES)


def test_narrate_gives_one_sentence_per_event_of_a_whole_game():
    records = game.create("dark-horse-west", NAMES[:2], {"gunslinger": True}, "pages-story")
    state, bot = game.fold(records), Rng("bot:story")
    for turn in range(20_000):
        if game.is_over(state):
            break
        seat, command = choose(state, bot, turn)
        batch = game.execute(state, seat, command, "pages-story")
        records, state = records + batch, game.fold(batch, state)
    told = dhw.narrate(records, 0, NAMES[:2])
    assert len(told) == len(records)
    playing = [game.redact(r, None, over=False) for r in records]
    hidden = dhw.narrate(playing, None, NAMES[:2])
    assert [t is None for t in hidden[:8]] == [True, False, False, True, False, True, False, False]
    assert all(t is None for r, t in zip(playing, hidden, strict=True) if r.get("redacted"))
    for record, sentence in zip(records, told, strict=True):
        if record["type"] in narration.SENTENCES:
            assert isinstance(sentence, str) and sentence.endswith(".") and "None" not in sentence
    assert told[1].startswith("Turn order drawn: ")
    assert told[-1] is None  # GameEnded: the pages word it
    assert any(t and t.startswith("Final scores: Ann ") for t in told)


@pytest.mark.parametrize(
    "players, options, seed",
    [
        (3, {}, "labels-3"),
        (2, {"gunslinger": True}, "labels-2"),
        (4, {"characters": "choose"}, "labels-4"),
        (1, {"difficulty": "ornery"}, "labels-1"),
    ],
)
def test_every_legal_command_gets_a_distinct_label(players, options, seed):
    records = game.create("dark-horse-west", NAMES[:players], options, seed)
    state, bot = game.fold(records), Rng(f"bot:{seed}")
    kinds = set()
    for turn in range(150):
        if game.is_over(state):
            break
        view = acting_view(state)
        labels = [dhw.label(c, view) for c in view["legal"]]
        assert len(set(labels)) == len(labels), [w for w in labels if labels.count(w) > 1][:3]
        assert all(w and "None" not in w for w in labels)
        kinds |= {c["type"] for c in view["legal"]}
        seat, command = choose(state, bot, turn)
        state = game.fold(game.execute(state, seat, command, seed), state)
    assert {"place_city", "place_rail", "place"} <= kinds


def test_labels_read_as_the_game_speaks():
    view = {
        "players": ["Ann", "Ben"],
        "state": {
            "step": {"kind": "place", "seat": 0},
            "task": None,
            "dice": [
                [
                    {"id": 0, "kind": "normal", "value": 3, "placed": None},
                    {"id": 1, "kind": "normal", "value": 4, "placed": None},
                ],
                [],
            ],
            "characters": [None, None],
            "hand": ["land_grant-1", "land_grant-2", "mudslinging-1"],
            "placements": [],
        },
    }
    said = {
        "Rail between (0,1) and (1,1)": {"type": "place_rail", "edge": "0,1|1,1"},
        "Place dice 0+1 (3+4) on Produce Resources: ore, 2-player icon": {
            "type": "place",
            "action": "produce",
            "row": "ore",
            "slot": "two",
            "dice": [0, 1],
        },
        "Place die 0 (3) on Turn Order, Wild Die token +1": {
            "type": "place",
            "action": "turn_order",
            "dice": [0],
            "wild": 1,
        },
        "Dealer with die 0 (3): a loan for 2 food + 1 ore": {
            "type": "dealer",
            "die": 0,
            "loan": {"food": 2, "ore": 1},
        },
        "Play Land Grant #2: at (3,4)": {"type": "play_card", "card": "land_grant-2", "hex": "3,4"},
        "Play Mudslinging on Ben": {"type": "play_card", "card": "mudslinging-1", "target": 1},
        "First city at (4,4)": {"type": "place_city", "hex": "4,4"},
    }
    for expected, command in said.items():
        assert dhw.label(command, view) == expected
    assert set(labels.LABELS) == set(dhw.COMMANDS)


# --- option texts and content ------------------------------------------------------------------


def test_option_texts_cover_exactly_the_options():
    assert set(dhw.OPTION_TEXTS) == set(dhw.OPTIONS)
    assert all(isinstance(t, str) and t.endswith(".") for t in dhw.OPTION_TEXTS.values())


def test_content_explains_the_ids_views_and_commands_use():
    content = json.loads(json.dumps(dhw.CONTENT))  # JSON as served
    card = "land_grant-2".rsplit("-", 1)[0]
    assert content["cards"][card]["text"].startswith("Build a town at no cost")
    assert set(content["actions"]) == set(dhw.COMMANDS["place"]["fields"]["action"]["enum"]) - {
        "character"
    } | {"dealer"}
    assert (
        content["actions"]["rail_baron"]["collect"]
        == "pay two ore and one food to lay two rails at once"
    )
    assert content["characters"]["merchant"]["name"] == "The Merchant"
    assert set(content["produce_slots"]) == {"two", "three", "plus"}
    assert len(content["map"]["hexes"]) == 60


# --- the public feed moves with every move ------------------------------------------------


def public_sentences(records: list[dict], players: list[str]) -> list[str]:
    """What the spectator's "What happened" says of each event (the page's own words;
    empty for an event it does not list)."""
    from referee.posts import story

    public = [game.redact(r, None, over=False) for r in records]
    return story.narrate(dhw, public, None, players)


@pytest.mark.parametrize("steady", [True, False], ids=["timeout-moves", "random-bots"])
def test_every_move_of_a_two_seat_game_adds_a_sentence_to_the_public_feed(steady):
    """A keep (Scout, Prospector...) is wholly private but for who kept: the public is
    told that the seat has chosen, so the spectator's list moves on with every move."""
    records = game.create("dark-horse-west", NAMES[:2], {}, "public-feed")
    state, bot = game.fold(records), Rng("bot:public-feed")
    moves = []  # (seat, command, first index, end index) of each move's batch
    for turn in range(3000):
        if game.is_closed(state):
            break
        if steady:
            seat = game.to_move(state)[0]
            command = game.timeout_move(state, seat)
        else:
            seat, command = choose(state, bot, turn)
        batch, state = game.step(state, seat, command, "public-feed")
        moves.append((seat, command, len(records), len(records) + len(batch)))
        records += batch
    assert game.is_closed(state)
    said = public_sentences(records, NAMES[:2])
    for seat, command, first, end in moves:
        told = [t for t in said[first:end] if t]
        assert told, f"{command['type']} by seat {seat} told the public nothing"
        if command["type"] == "keep_card":
            assert told[0].startswith(f"{NAMES[seat]} has chosen from the cards drawn (")
    assert any(command["type"] == "keep_card" for _, command, _, _ in moves)


def test_what_a_seat_keeps_never_changes_a_sentence_the_others_read():
    """Twins that differ only in the card a seat keeps: the spectator and the other
    seat read the same sentences (only the keeper and the moderator learn the card)."""
    records = game.create("dark-horse-west", NAMES[:2], {}, "keep-twins")
    state = game.fold(records)
    for _ in range(3000):
        seat = game.to_move(state)[0]
        plain = [c for c in game.legal(state, seat) if c["type"] == "keep_card" and "card" in c]
        if len({c["card"] for c in plain}) > 1:
            break
        batch, state = game.step(state, seat, game.timeout_move(state, seat), "keep-twins")
        records += batch
    else:
        raise AssertionError("no seat ever kept one of several cards")
    first, other = plain[0], next(c for c in plain if c["card"] != plain[0]["card"])
    twins = [records + game.execute(state, seat, c, "keep-twins") for c in (first, other)]
    for viewer in (None, 1 - seat):
        told = [
            narration.narrate([game.redact(r, viewer, False) for r in log], viewer, NAMES[:2])
            for log in twins
        ]
        assert told[0] == told[1], viewer
    mine = [narration.narrate(log, seat, NAMES[:2])[-2:] for log in twins]
    assert mine[0] != mine[1]  # the keeper reads the card it kept
