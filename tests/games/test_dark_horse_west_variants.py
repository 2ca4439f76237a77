"""Dark Horse West setup, options, the Gunslinger and Solitaire variants and the views: a
test per rule of the text's GAME SETUP, TWO-PLAYER VARIANT - GUNSLINGER and SOLITAIRE
VARIANT, and per decision of docs/rules/dark-horse-west.md ("Options", "Setup", "Hidden
tiles", the Gunslinger bullet of "Placement", "Solitaire"), on games set up from a seed and
on hand-built tables."""

import copy
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from dhw import (
    changed,
    collecting,
    created,
    decide,
    first,
    fold,
    play,
    set_up,
    types,
    under,
    with_dice,
    with_goods,
)

from referee.engine import game
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import MODERATOR, event
from referee.engine.rng import Rng
from referee.games import dark_horse_west as rules
from referee.games.dark_horse_west import collection, flow, hexes, placement, solitaire, table
from referee.games.dark_horse_west.cards import event_played
from referee.games.dark_horse_west.data import (
    CARDS,
    CHARACTERS,
    START_BONUS,
    card_kind,
    card_type,
    gun_actions,
)

SEED = "rules"
PLAYERS4 = ["p0", "p1", "p2", "p3"]
SAFE_CITY_HEXES = {"1,0", "7,0", "-2,6", "4,6"}
SOLITAIRE_REMOVED = {
    "claim_jumpers",
    "ol_switcheroo",
    "whispering_campaign",
    "mudslinging",
    "winds_of_change",
}
EVENTS = sorted(c for c in CARDS if CARDS[c]["kind"] == "event")
ACTION_CARDS = sorted(c for c in CARDS if CARDS[c]["kind"] == "action")


def keys(letter: str) -> set[str]:
    """The hex keys of the tile spots marked with a letter."""
    return {hexes.hex_key(h) for h in hexes.spots(letter)}


BLUE = {hexes.hex_key(h) for h, c in hexes.HEXES.items() if c["two_player_out_of_bounds"]}
CITY_HEXES = {hexes.hex_key(h) for h, c in hexes.HEXES.items() if c["kind"] == "non_resource"}


@contextmanager
def deadline(seconds: float = 3.0) -> Iterator[None]:
    """Turns a referee that never stops stepping into a failure instead of a hung suite."""

    def stop(*_: Any) -> None:
        raise TimeoutError("the referee's automatic steps never stopped")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def records(players: int = 4, seed: str = SEED, **options: Any) -> list[dict[str, Any]]:
    """The opening records of a game through the engine."""
    return game.create("dark-horse-west", [f"p{s}" for s in range(players)], options, seed)


def record(recs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The first record of a type."""
    return next(r for r in recs if r["type"] == kind)


def refused(state: dict, seat: int, command: dict, code: str) -> None:
    """The command is refused with this code."""
    with pytest.raises(RuleViolation) as caught:
        decide(state, seat, command)
    assert caught.value.code == code


def setup_until(state: dict, piece: str) -> dict:
    """Setup played with each seat's first legal choice until `piece` is asked for."""
    while state["step"] and state["step"].get("piece") != piece:
        seat = rules.to_move(state)[0]
        state = play(state, seat, rules.legal(state, seat)[0])[1]
    return state


def setup_turns(state: dict) -> list[tuple[int, str]]:
    """(seat, piece) of every setup turn asked, playing each seat's first legal choice."""
    asked = []
    while state["phase"] == "setup" and state["task"] is None:
        asked.append((state["step"]["seat"], state["step"]["piece"]))
        seat = rules.to_move(state)[0]
        state = play(state, seat, rules.legal(state, seat)[0])[1]
    return asked


# --- setup: turn order, characters, the Game Start Bonus ---------------------------------


@pytest.mark.parametrize("seed", ["rules", "another", "third"])
def test_turn_order_is_drawn_from_the_seed(seed):
    recs = records(4, seed)
    drawn = record(recs, "TurnOrderDrawn")["payload"]["order"]
    assert drawn == Rng(seed).shuffle("setup/turn-order", [0, 1, 2, 3])
    assert game.fold(recs)["rules"]["order"] == drawn


def test_turn_orders_differ_between_seeds():
    orders = {
        tuple(record(records(4, f"s{i}"), "TurnOrderDrawn")["payload"]["order"]) for i in range(8)
    }
    assert len(orders) > 1


def test_random_characters_are_dealt_from_the_seed_distinct():
    recs = records(4, characters="random")
    dealt = record(recs, "CharactersDealt")["payload"]["characters"]
    assert dealt == Rng(SEED).shuffle("setup/characters", list(CHARACTERS))[:4]
    assert len(set(dealt)) == 4
    assert game.fold(recs)["rules"]["characters"] == dealt


def test_random_characters_come_from_those_in_play():
    in_play = ["banker", "merchant", "politician"]
    for seed in ("rules", "s1", "s2"):
        dealt = record(records(3, seed, characters_in_play=in_play), "CharactersDealt")
        assert sorted(dealt["payload"]["characters"]) == sorted(in_play)


def test_the_tracker_is_never_dealt_with_two_players():
    two = [record(records(2, f"s{i}", characters="random"), "CharactersDealt") for i in range(30)]
    three = [record(records(3, f"s{i}", characters="random"), "CharactersDealt") for i in range(30)]
    assert all("tracker" not in r["payload"]["characters"] for r in two)
    # the same seeds do deal The Tracker to a bigger table
    assert any("tracker" in r["payload"]["characters"] for r in three)


def test_chosen_characters_a_turn_per_seat_in_turn_order():
    state = created(4, characters="choose")
    asked = []
    for character in ("banker", "merchant", "scoundrel", "tracker"):
        assert state["step"]["piece"] == "character"
        seat = state["step"]["seat"]
        asked.append(seat)
        state = play(state, seat, {"type": "choose_character", "character": character})[1]
        assert state["characters"][seat] == character
    assert asked == state["order"]
    assert state["step"]["piece"] == "city"


def test_a_taken_character_is_refused():
    state = created(4, characters="choose")
    seat = state["step"]["seat"]
    state = play(state, seat, {"type": "choose_character", "character": "banker"})[1]
    nxt = state["step"]["seat"]
    assert {"type": "choose_character", "character": "banker"} not in rules.legal(state, nxt)
    refused(state, nxt, {"type": "choose_character", "character": "banker"}, "rule/character_taken")


def test_the_tracker_cannot_be_chosen_with_two_players():
    state = created(2, characters="choose")
    seat = state["step"]["seat"]
    offered = {c["character"] for c in rules.legal(state, seat)}
    assert offered == set(CHARACTERS) - {"tracker"}
    refused(
        state, seat, {"type": "choose_character", "character": "tracker"}, "rule/character_taken"
    )


def test_no_characters_means_no_deal_and_no_character_turn():
    recs = records(4, characters="none")
    assert "CharactersDealt" not in [r["type"] for r in recs]
    state = game.fold(recs)["rules"]
    assert state["characters"] == [None] * 4
    assert state["step"]["piece"] == "city"


def test_every_seat_holds_the_game_start_bonus():
    state = created(4, characters="none")
    for seat in range(4):
        goods = state["goods"][seat]
        assert (goods["food"], goods["wood"], goods["ore"], goods["wild"]) == (1, 1, 1, 1)
        assert (goods["gold"], goods["influence"], goods["engineer"], goods["loan"]) == (0, 0, 0, 0)
    assert state["start_rails"] == [1, 1, 1, 1]
    assert START_BONUS == {"food": 1, "wood": 1, "ore": 1, "wild": 1, "rails": 1}


def test_a_character_adds_its_start_game_box_to_the_bonus():
    state = created(4, characters="random")
    for seat, character in enumerate(state["characters"]):
        start = dict(CHARACTERS[character]["start"])
        rails = 1 + start.pop("rails", 0)
        for good, held in state["goods"][seat].items():
            assert held == START_BONUS.get(good, 0) + start.get(good, 0), (character, good)
        assert state["start_rails"][seat] == rails


def test_the_game_end_token_lies_on_11_unless_set():
    assert created(4)["end_influence"] == 11
    assert created(4, game_end_influence=15)["end_influence"] == 15


# --- setup: tiles ---------------------------------------------------------------------


def test_c_spots_hold_ore_face_up_b_spots_revealed_the_rest_face_down():
    recs = records(4)
    laid = record(recs, "TilesLaid")
    assert laid["visibility"] == []
    layout = laid["payload"]["layout"]
    assert set(layout) == keys("A") | keys("B") | keys("C")
    assert sorted(layout[h] for h in keys("C")) == ["ore-1", "ore-2", "ore-3", "ore-4"]
    shown = record(recs, "TilesRevealed")
    assert shown["visibility"] == "public"
    assert shown["payload"]["tiles"] == {h: layout[h] for h in sorted(keys("B") | keys("C"))}
    state = game.fold(recs)["rules"]
    assert set(table.face_down(state)) == keys("A")


def test_the_tiles_are_shuffled_by_the_seed():
    layouts = [record(records(4, f"s{i}"), "TilesLaid")["payload"]["layout"] for i in range(5)]
    assert len({tuple(sorted(lay.items())) for lay in layouts}) > 1


def test_tiles_face_up_lays_every_tile_face_up():
    recs = records(4, tiles_face_up=True)
    layout = record(recs, "TilesLaid")["payload"]["layout"]
    assert record(recs, "TilesRevealed")["payload"]["tiles"] == layout
    assert table.face_down(game.fold(recs)["rules"]) == []


def test_two_players_leave_out_the_rugged_tiles_and_one_more():
    plain = [t["id"] for t in hexes.TILES if not t["rugged"]]
    for seed in ("rules", "s1", "s2", "s3"):
        recs = records(2, seed)
        payload = record(recs, "TilesLaid")["payload"]
        layout, removed = payload["layout"], payload["removed"]
        assert removed == [plain[Rng(seed).below("setup/two-player-removed", len(plain))]]
        assert sorted([*layout.values(), *removed]) == sorted(plain)
        # the blue spots stay empty; every other spot holds a tile
        assert set(layout) == (keys("A") | keys("B") | keys("C")) - BLUE
        assert all(layout[h].startswith("ore") for h in keys("C"))
        assert set(record(recs, "TilesRevealed")["payload"]["tiles"]) == keys("B") | keys("C")


def test_two_players_no_first_city_out_of_bounds():
    state = created(2)
    sites = {c["hex"] for c in rules.legal(state, state["step"]["seat"])}
    assert sites and not sites & BLUE
    blue_city = sorted(BLUE & CITY_HEXES)[0]
    refused(
        state, state["step"]["seat"], {"type": "place_city", "hex": blue_city}, "rule/city_site"
    )


def test_two_players_no_first_town_out_of_bounds():
    state = created(2)
    last, first_seat = state["order"][1], state["order"][0]
    state = play(state, last, {"type": "place_city", "hex": "-2,6"})[1]
    # 1,2 touches the blue spot 1,3 and the in-bounds spots 0,2 and 2,2
    state = play(state, first_seat, {"type": "place_city", "hex": "1,2"})[1]
    assert state["step"] == {"kind": "setup", "seat": first_seat, "piece": "town"}
    assert {c["hex"] for c in rules.legal(state, first_seat)} == {"0,2", "2,2"}
    refused(state, first_seat, {"type": "place_town", "hex": "1,3"}, "rule/town_site")


# --- setup: first cities, towns, rails ------------------------------------------------


def test_first_cities_are_placed_in_reverse_turn_order():
    state = created(4)
    asked = [seat for seat, piece in setup_turns(state) if piece == "city"]
    assert asked == list(reversed(state["order"]))


def test_a_first_city_needs_two_empty_hexes_to_every_city():
    state = created(4)
    seat = state["step"]["seat"]
    state = play(state, seat, {"type": "place_city", "hex": "2,1"})[1]
    nxt = state["step"]["seat"]
    sites = {c["hex"] for c in rules.legal(state, nxt)}
    placed = hexes.parse_hex("2,1")
    assert all(hexes.distance(hexes.parse_hex(h), placed) >= 3 for h in sites)
    two_away = [h for h in CITY_HEXES if hexes.distance(hexes.parse_hex(h), placed) == 2]
    three_away = [h for h in CITY_HEXES if hexes.distance(hexes.parse_hex(h), placed) == 3]
    assert set(three_away) <= sites
    refused(state, nxt, {"type": "place_city", "hex": two_away[0]}, "rule/city_site")
    refused(state, nxt, {"type": "place_city", "hex": "2,1"}, "rule/city_site")
    # a resource hex takes no city
    refused(state, nxt, {"type": "place_city", "hex": "2,0"}, "rule/city_site")
    events, after = play(state, nxt, {"type": "place_city", "hex": three_away[0]})
    assert after["cities"][three_away[0]] == nxt


def test_two_towns_each_in_turn_order_next_to_the_own_city():
    state = setup_until(created(4), "town")
    asked = [seat for seat, piece in setup_turns(state) if piece == "town"]
    assert asked == [s for s in state["order"] for _ in range(2)]
    state = setup_until(created(4), "town")
    seat = state["step"]["seat"]
    city = hexes.parse_hex(table.cities_of(state, seat)[0])
    sites = {c["hex"] for c in rules.legal(state, seat)}
    assert sites and all(hexes.parse_hex(h) in hexes.neighbours(city) for h in sites)
    far = sorted(h for h in keys("A") if hexes.distance(hexes.parse_hex(h), city) > 1)[0]
    refused(state, seat, {"type": "place_town", "hex": far}, "rule/town_site")


def city_on_2_1_and_its_town_turn():
    """A 4-player setup whose first seat to place a city takes 2,1 (beside the printed
    rugged spot 2,2, face down), played on to that seat's first town."""
    state = created(4)
    seat = state["step"]["seat"]
    state = play(state, seat, {"type": "place_city", "hex": "2,1"})[1]
    state = setup_until(state, "town")
    while state["step"]["seat"] != seat:
        s = state["step"]["seat"]
        state = play(state, s, rules.legal(state, s)[0])[1]
    return state, seat


def test_first_towns_cost_nothing_even_on_a_rugged_hex():
    state, seat = city_on_2_1_and_its_town_turn()
    before = copy.deepcopy(state["goods"][seat])
    events, after = play(state, seat, {"type": "place_town", "hex": "2,2"})
    assert hexes.HEXES[(2, 2)]["rugged"]
    assert after["towns"]["2,2"] == seat
    assert after["goods"][seat] == before


def test_a_first_town_on_a_face_down_tile_turns_it_face_up():
    state, seat = city_on_2_1_and_its_town_turn()
    assert "2,2" in table.face_down(state)
    events, after = play(state, seat, {"type": "place_town", "hex": "2,2"})
    placed = first(events, "TownPlaced")
    assert placed["revealed"] == state["layout"]["2,2"]
    assert after["face_up"]["2,2"] == state["layout"]["2,2"]
    assert "2,2" not in table.face_down(after)
    # the second town, on the B spot 2,0 (face up since setup), reveals nothing
    assert after["step"] == {"kind": "setup", "seat": seat, "piece": "town"}
    assert "revealed" not in first(
        decide(after, seat, {"type": "place_town", "hex": "2,0"}), "TownPlaced"
    )


def test_start_rails_are_laid_in_turn_order_the_railroader_two():
    state = setup_until(
        created(2, characters="random", characters_in_play=["railroader", "banker"]), "rail"
    )
    railroader = state["characters"].index("railroader")
    dues = []
    while state["phase"] == "setup":
        task = state["task"]
        dues.append((task["seat"], task["count"]))
        seat = task["seat"]
        state = play(state, seat, rules.legal(state, seat)[0])[1]
        if state["task"] and state["task"]["seat"] == seat:
            state = play(state, seat, rules.legal(state, seat)[0])[1]
    assert [s for s, _ in dues] == state["order"]
    assert dict(dues)[railroader] == 2 and dict(dues)[1 - railroader] == 1
    assert len(state["rails"]) == 3


def test_setup_ends_with_the_first_round_and_its_dice():
    state = created(4)
    events: list[dict] = []
    while state["phase"] == "setup":
        seat = rules.to_move(state)[0]
        events, state = play(state, seat, rules.legal(state, seat)[0])
    tail = [t for t in types(events) if t != "TokenGained"]
    assert tail[tail.index("RoundStarted") :] == [
        "RoundStarted",
        *["DiceRolled"] * 4,
        "PlacementTurn",
    ]
    assert first(events, "RoundStarted")["round"] == 1
    rolled = [e["payload"] for e in events if e["type"] == "DiceRolled"]
    assert [r["seat"] for r in rolled] == state["order"]
    assert all(len(r["dice"]) == 2 and "gunslinger" not in r for r in rolled)
    assert all(len(table.towns_of(state, s)) == 2 for s in range(4))
    assert first(events, "PlacementTurn")["seat"] == state["order"][0]


# --- options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "field"),
    [
        (3, {"gunslinger": True}, "gunslinger"),
        (4, {"gunslinger": True}, "gunslinger"),
        (1, {"gunslinger": True}, "gunslinger"),
        (2, {"gunslinger": "yes"}, "gunslinger"),
        (2, {"difficulty": "cruel"}, "difficulty"),
        (4, {"scenario": "gold_rush"}, "scenario"),
        (1, {"difficulty": "nightmare"}, "difficulty"),
        (1, {"scenario": "klondike"}, "scenario"),
        (4, {"characters": "some"}, "characters"),
        (4, {"game_end_influence": 2}, "game_end_influence"),
        (4, {"game_end_influence": 61}, "game_end_influence"),
        (4, {"game_end_influence": True}, "game_end_influence"),
        (4, {"tiles_face_up": 1}, "tiles_face_up"),
        (1, {"solitaire_turns": 0}, "solitaire_turns"),
        (4, {"deck": {"no_such_card": 10}}, "deck"),
        (4, {"deck": {"entrepreneur": 7, "land_grant": 6}}, "deck"),
        (4, {"deck": {"entrepreneur": -1, "land_grant": 6, "foreman": 6}}, "deck"),
        (4, {"deck": {"entrepreneur": 6, "land_grant": 3}}, "deck"),
        (4, {"deck": ["entrepreneur"] * 10}, "deck"),
        (4, {"characters_in_play": ["gunfighter"]}, "characters_in_play"),
        (4, {"characters_in_play": ["banker", "banker"]}, "characters_in_play"),
        (4, {"characters_in_play": []}, "characters_in_play"),
        (3, {"characters_in_play": ["banker", "merchant"]}, "characters_in_play"),
        # The Tracker sits out with two players: one character is left for two seats
        (2, {"characters_in_play": ["tracker", "banker"]}, "characters_in_play"),
        (
            2,
            {"characters": "choose", "characters_in_play": ["tracker", "banker"]},
            "characters_in_play",
        ),
    ],
)
def test_bad_options_are_refused_naming_the_option(players, options, field):
    with pytest.raises(BadRequest) as caught:
        records(players, **options)
    assert caught.value.code == "options/invalid"
    assert caught.value.details["field"] == f"options.{field}"
    assert caught.value.status == 400


def test_too_few_characters_are_fine_without_characters():
    recs = records(3, characters="none", characters_in_play=["banker"])
    assert game.fold(recs)["rules"]["characters"] == [None] * 3


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"gunslinger": True}),
        (1, {"difficulty": "cruel", "scenario": "marshal_law"}),
        (1, {"difficulty": "chicken", "scenario": "tenderfoot", "solitaire_turns": 1}),
        (2, {"characters_in_play": ["banker", "merchant"]}),
        (4, {"game_end_influence": 3}),
        (4, {"game_end_influence": 60}),
    ],
)
def test_good_options_make_a_game(players, options):
    state = game.fold(records(players, **options))["rules"]
    assert state["phase"] == "setup" and rules.to_move(state)


def test_a_custom_deck_holds_the_copies_asked_for():
    deck = {"entrepreneur": 4, "land_grant": 3, "foreman": 2, "drought": 1}
    state = created(4, deck=deck)
    held = {}
    for card in state["deck"]:
        held[card_type(card)] = held.get(card_type(card), 0) + 1
    assert held == deck


# --- Gunslinger -------------------------------------------------------------------------


def gun_table(pawns: list[int], seat: int = 0, values: list[int] | None = None) -> dict:
    """A two-player Gunslinger table after both pawns moved: the pawns on these track
    numbers, nothing placed yet, the seat asked to place these dice."""
    state = set_up(2, gunslinger=True)
    state = changed(state, pawns=pawns, gun_dice=[None, None], placements=[])
    return with_dice(state, seat, values or [4, 4])


def test_gunslinger_pawns_start_on_trader():
    state = created(2, gunslinger=True)
    assert state["pawns"] == [7, 7]
    assert gun_actions(7) == ["trader"]
    assert created(2)["pawns"] is None


def test_the_gunslinger_die_is_rolled_with_the_dice():
    state = created(2, gunslinger=True)
    events: list[dict] = []
    while state["phase"] == "setup":
        seat = rules.to_move(state)[0]
        events, state = play(state, seat, rules.legal(state, seat)[0])
    for rolled in (e["payload"] for e in events if e["type"] == "DiceRolled"):
        assert 1 <= rolled["gunslinger"] <= 6
        assert len(rolled["dice"]) == 2  # the Gunslinger die is never placed
        assert state["gun_dice"][rolled["seat"]] == rolled["gunslinger"]


def test_the_track_numbers_the_actions_2_to_12():
    track = {n: gun_actions(n) for n in range(2, 13)}
    assert track == {
        2: ["hired_hand"],
        3: ["politics"],
        4: ["work_crew"],
        5: ["rail_baron"],
        6: ["builder"],
        7: ["trader"],
        8: ["engineer"],
        9: ["scout"],
        10: ["mayor", "sheriff"],
        11: ["broker"],
        12: ["tycoon"],
    }


@pytest.mark.parametrize(
    ("at", "roll", "targets"),
    [
        (7, 3, {"up": 10, "down": 4}),
        (7, 5, {"up": 12, "down": 2}),
        (3, 4, {"up": 7}),  # the text's example: from #3 a four must go up to #7
        (10, 3, {"down": 7}),
        (2, 6, {"up": 8}),
        (7, 6, {}),
    ],
)
def test_the_pawn_moves_the_full_roll_on_actions_2_to_12(at, roll, targets):
    state = changed(created(2, gunslinger=True), pawns=[at, 7], gun_dice=[roll, None])
    assert placement.gun_targets(state, 0) == targets


def test_a_forced_move_is_made_by_the_referee():
    state = changed(created(2, gunslinger=True), pawns=[3, 7], gun_dice=[4, None])
    moved = placement.gun_moved(state, 0, None)["payload"]
    assert (moved["from"], moved["to"], moved["die"]) == (3, 7, 4)


def test_a_six_from_trader_stays():
    state = changed(created(2, gunslinger=True), pawns=[7, 7], gun_dice=[6, None])
    moved = placement.gun_moved(state, 0, None)["payload"]
    assert (moved["from"], moved["to"]) == (7, 7)


def test_both_ways_open_is_the_seats_choice():
    state = set_up(2, gunslinger=True)
    seat = state["order"][0]
    state = changed(state, pawns=[7, 7], step={"kind": "gunslinger", "seat": seat})
    state["gun_dice"][seat] = 3
    assert rules.to_move(state) == [seat]
    assert rules.legal(state, seat) == [
        {"type": "move_gunslinger", "direction": "up"},
        {"type": "move_gunslinger", "direction": "down"},
    ]
    refused(state, seat, {"type": "place", "action": "market", "dice": [0]}, "rule/not_now")


def test_moving_off_the_track_is_refused():
    state = set_up(2, gunslinger=True)
    seat = state["order"][0]
    state = changed(state, pawns=[10, 10], step={"kind": "gunslinger", "seat": seat})
    state["gun_dice"][seat] = 3
    refused(state, seat, {"type": "move_gunslinger", "direction": "up"}, "rule/off_track")


def test_both_pawns_move_once_then_the_first_seat_places():
    state = set_up(2, gunslinger=True)
    one, two = state["order"]
    state = changed(state, pawns=[7, 7], step={"kind": "gunslinger", "seat": one})
    state["gun_dice"][one], state["gun_dice"][two] = 3, 4
    with deadline():
        events, state = play(state, one, {"type": "move_gunslinger", "direction": "up"})
    assert types(events) == ["GunslingerMoved", "GunslingerTurn"]
    assert first(events, "GunslingerTurn")["seat"] == two
    with deadline():
        events, state = play(state, two, {"type": "move_gunslinger", "direction": "down"})
    assert types(events) == ["GunslingerMoved", "PlacementTurn"]
    assert state["pawns"][one] == 10 and state["pawns"][two] == 3
    assert first(events, "PlacementTurn")["seat"] == one


def test_forced_moves_happen_once_before_any_die_is_placed():
    state = set_up(2, gunslinger=True)
    one, two = state["order"]
    state = changed(state, step=None)
    state["pawns"][one], state["pawns"][two] = 3, 7
    state["gun_dice"][one], state["gun_dice"][two] = 4, 6
    with deadline():
        events = flow.advance(state, Rng(SEED))
    assert types(events) == ["GunslingerMoved", "GunslingerMoved", "PlacementTurn"]
    moves = [e["payload"] for e in events if e["type"] == "GunslingerMoved"]
    assert [(m["seat"], m["from"], m["to"]) for m in moves] == [(one, 3, 7), (two, 7, 7)]


def test_the_other_players_pawn_blocks_the_action():
    state = gun_table([7, 7], seat=0, values=[3, 4])
    refused(
        state, 0, {"type": "place", "action": "trader", "dice": [0, 1]}, "rule/placement_refused"
    )
    moved = changed(state, pawns=[7, 4])
    events = decide(moved, 0, {"type": "place", "action": "trader", "dice": [0, 1]})
    assert first(events, "DicePlaced")["action"] == "trader"
    assert not any(
        c.get("action") == "trader" for c in rules.legal(state, 0) if c["type"] == "place"
    )


def test_your_own_pawn_alone_does_not_block_you():
    state = gun_table([7, 2], seat=0, values=[3, 4])
    events = decide(state, 0, {"type": "place", "action": "trader", "dice": [0, 1]})
    assert first(events, "DicePlaced")["action"] == "trader"


def test_both_pawns_on_one_action_block_it_for_both():
    for seat in (0, 1):
        state = gun_table([7, 7], seat=seat, values=[3, 4])
        refused(
            state,
            seat,
            {"type": "place", "action": "trader", "dice": [0, 1]},
            "rule/placement_refused",
        )


def test_a_pawn_on_10_blocks_mayor_and_sheriff():
    state = gun_table([4, 10], seat=0, values=[4, 6])
    for action in ("mayor", "sheriff"):
        refused(
            state, 0, {"type": "place", "action": action, "dice": [0, 1]}, "rule/placement_refused"
        )
    free = changed(state, pawns=[4, 9])
    assert first(
        decide(free, 0, {"type": "place", "action": "mayor", "dice": [0, 1]}), "DicePlaced"
    )


def test_the_other_players_pawn_blocks_sharing_with_an_engineer_token():
    state = gun_table([2, 8], seat=0, values=[4, 4])
    state = with_goods(state, 0, engineer=1)
    state["placements"] = [
        {"seat": 1, "action": "engineer", "dice": [0, 1], "total": 8, "collected": False}
    ]
    share = {"type": "place", "action": "engineer", "dice": [0, 1], "share": True}
    refused(state, 0, share, "rule/placement_refused")
    # with the pawn elsewhere the token shares the taken action
    events = decide(changed(state, pawns=[2, 9]), 0, share)
    assert first(events, "DicePlaced")["share"] is True


def test_the_other_players_pawn_blocks_a_dealer_move():
    state = gun_table([2, 7], seat=0, values=[2, 6])
    move = {"type": "dealer", "die": 0, "move": {"dice": [1], "to": "trader", "delta": 1}}
    refused(state, 0, move, "rule/placement_refused")
    events = decide(changed(state, pawns=[2, 4]), 0, move)
    assert first(events, "DicePlaced")["action"] == "trader"


def test_cards_are_not_blocked_by_a_pawn():
    base = gun_table([7, 3], seat=0, values=[4, 4])
    base["hands"][0] = ["election-1", "marshal_dylan-1"]
    state = collecting(base, {"seat": 0, "action": "market", "dice": [0]})
    events = decide(state, 0, {"type": "play_card", "card": "election-1", "pay": {"food": 1}})
    assert first(events, "CardPlayed")["change"] == {"food": -1, "influence": 1}
    state = collecting(changed(base, pawns=[7, 10]), {"seat": 0, "action": "market", "dice": [0]})
    events = decide(state, 0, {"type": "play_card", "card": "marshal_dylan-1"})
    assert first(events, "RoleTaken") == {"seat": 0, "role": "sheriff", "from": None}


# --- versions ------------------------------------------------------------------------------


def test_a_new_game_plays_the_newest_version_and_a_1_0_0_table_carries_no_version():
    created_ = game.create("dark-horse-west", PLAYERS4, {}, SEED)[0]["payload"]
    assert created_["ruleset_version"] == rules.VERSION == rules.VERSIONS[-1] == "1.2.0"
    options = game.resolve_options(rules, {})
    assert rules.initial(PLAYERS4, options)["version"] == "1.2.0"
    assert rules.initial(PLAYERS4, options, version="1.1.0")["version"] == "1.1.0"
    old = rules.initial(PLAYERS4, options, version="1.0.0")
    assert "version" not in old
    assert {**old, "version": "1.2.0"} == rules.initial(PLAYERS4, options)


# --- Solitaire: the Ghost dice -------------------------------------------------------------


def ghosts(*groups: list[int]) -> list[dict[str, Any]]:
    """Ghost dice: the single die's value, then each pair's two values."""
    out = [{"id": 0, "group": "single", "value": groups[0][0], "placed": None}]
    for i, pair in enumerate(groups[1:]):
        for value in pair:
            out.append({"id": len(out), "group": f"pair-{i + 1}", "value": value, "placed": None})
    return out


def solo(difficulty: str = "ornery", scenario: str = "tenderfoot", **options: Any) -> dict:
    """A Solitaire table set up and in its first Placement Phase."""
    return set_up(1, difficulty=difficulty, scenario=scenario, **options)


def placed_ghosts(state: dict, *groups: list[int], placements: list | None = None) -> list[dict]:
    """The GhostDiePlaced payloads for these Ghost dice on this table."""
    state = changed(state, ghosts=ghosts(*groups), placements=placements or [])
    return [e["payload"] for e in solitaire.ghosts_placed(state, Rng(SEED))]


@pytest.mark.parametrize(("difficulty", "pairs"), [("chicken", 0), ("ornery", 1), ("cruel", 2)])
def test_ghost_dice_counts_by_difficulty(difficulty, pairs):
    state = created(1, difficulty=difficulty)
    events: list[dict] = []
    while state["phase"] == "setup":
        events, state = play(state, 0, rules.legal(state, 0)[0])
    rolled = first(events, "GhostDiceRolled")["dice"]
    assert [d["group"] for d in rolled] == ["single"] + [
        f"pair-{i}" for i in range(1, pairs + 1) for _ in range(2)
    ]
    assert all(1 <= d["value"] <= 6 for d in rolled)


def test_no_ghost_dice_without_solitaire():
    state = set_up(2)
    assert state["ghosts"] == [] and state["solitaire"] is None


@pytest.mark.parametrize(("difficulty", "groups"), [("chicken", 1), ("ornery", 2)])
def test_chicken_and_ornery_ghosts_come_after_the_players_first_placement(difficulty, groups):
    state = solo(difficulty)
    assert state["step"] == {"kind": "place", "seat": 0}
    assert all(g["placed"] is None for g in state["ghosts"])
    state = with_dice(state, 0, [6, 2])
    events, after = play(state, 0, {"type": "place", "action": "market", "dice": [0]})
    assert types(events)[0] == "DicePlaced"
    assert types(events)[1 : 1 + groups] == ["GhostDiePlaced"] * groups
    assert all(g["placed"] for g in after["ghosts"])
    # the player goes on placing afterwards
    assert after["step"] == {"kind": "place", "seat": 0}


def test_cruel_ghosts_come_before_the_player_places_anything():
    state = created(1, difficulty="cruel")
    events: list[dict] = []
    while state["phase"] == "setup":
        events, state = play(state, 0, rules.legal(state, 0)[0])
    kinds = types(events)
    ghost_at = [i for i, k in enumerate(kinds) if k == "GhostDiePlaced"]
    assert len(ghost_at) == 3
    assert max(ghost_at) < kinds.index("PlacementTurn")
    assert state["placements"] == [p for p in state["placements"] if p["seat"] is None]


@pytest.mark.parametrize(
    ("value", "action"),
    [
        (1, "pioneer"),
        (2, "hired_hand"),
        (3, "politics"),
        (4, "work_crew"),
        (5, "rail_baron"),
        (6, "builder"),
    ],
)
def test_the_single_ghost_die_goes_on_the_action_of_its_number(value, action):
    (placed,) = placed_ghosts(solo("chicken"), [value])
    assert placed["action"] == action and placed["dice"] == [0]


@pytest.mark.parametrize(
    ("pair", "action"),
    [
        ((3, 4), "trader"),
        ((6, 1), "trader"),
        ((4, 4), "engineer"),
        ((2, 6), "engineer"),
        ((4, 5), "scout"),
        ((5, 6), "broker"),
        ((6, 6), "tycoon"),
    ],
)
def test_a_pair_of_7_or_more_blocks_the_action_of_its_total(pair, action):
    state = solo("ornery")
    single, blocked = placed_ghosts(state, [2], list(pair))
    assert single["action"] == "hired_hand"
    assert blocked["action"] == action and blocked["dice"] == [1, 2]
    after = fold(
        changed(state, ghosts=ghosts([2], list(pair)), placements=[]),
        [
            event("GhostDiePlaced", single),
            event("GhostDiePlaced", blocked),
        ],
    )
    assert {"seat": None, "action": action, "dice": [1, 2], "collected": True} in after[
        "placements"
    ]


@pytest.mark.parametrize("seed", ["rules", "s1", "s2", "s3", "s4", "s5"])
def test_a_pair_of_10_blocks_sheriff_or_mayor_by_the_seed(seed):
    state = changed(solo("ornery"), ghosts=ghosts([2], [4, 6]), placements=[])
    placed = [e["payload"] for e in solitaire.ghosts_placed(state, Rng(seed))]
    pick = Rng(seed).below(f"round-{state['round']}/pair-1/ten", 2)
    assert placed[1]["action"] == ("sheriff", "mayor")[pick]


def test_a_pair_of_10_picks_both_roles_over_seeds():
    state = changed(solo("ornery"), ghosts=ghosts([2], [5, 5]), placements=[])
    picked = {
        solitaire.ghosts_placed(state, Rng(f"s{i}"))[1]["payload"]["action"] for i in range(20)
    }
    assert picked == {"sheriff", "mayor"}


@pytest.mark.parametrize(
    ("pair", "action", "die"),
    [
        ((2, 4), "work_crew", 2),
        ((4, 2), "work_crew", 1),
        ((1, 5), "rail_baron", 2),
        ((3, 3), "politics", 1),
    ],
)
def test_a_lower_pair_places_its_highest_die_as_the_single(pair, action, die):
    _, placed = placed_ghosts(solo("ornery"), [6], list(pair))
    assert placed["action"] == action
    assert placed["dice"] == [die]  # doubles: one die


def test_a_ghost_meeting_the_players_dice_is_discarded():
    mine = [{"seat": 0, "action": "rail_baron", "dice": [0], "total": 5, "collected": False}]
    (placed,) = placed_ghosts(solo("chicken"), [5], placements=mine)
    assert placed["action"] is None
    assert (placed["blocked"], placed["by"]) == ("rail_baron", "player")
    state = changed(solo("chicken"), ghosts=ghosts([5]), placements=mine)
    after = fold(state, solitaire.ghosts_placed(state, Rng(SEED)))
    assert after["ghosts"][0]["placed"] == "discarded"
    assert after["placements"] == mine


def test_a_ghost_die_joins_the_players_dice_on_an_unlimited_action():
    # Chicken, the Ghost die shows 1, the player put 1 + 4 on Pioneer: "Any number of
    # players may place die/dice" on an unlimited action, so the ghost goes there too and
    # shows the top two cards before anything is collected
    state = changed(with_dice(solo("chicken"), 0, [1, 4]), ghosts=ghosts([1]), placements=[])
    pioneer = {"type": "place", "action": "pioneer", "dice": [0, 1]}
    events, after = play(state, 0, pioneer)
    assert first(events, "GhostDiePlaced") == {
        "dice": [0],
        "group": "single",
        "total": 1,
        "action": "pioneer",
    }
    assert after["ghosts"][0]["placed"] == "pioneer"
    kinds = types(events)
    assert "CardsRevealed" in kinds
    assert kinds.index("CardsRevealed") < kinds.index("CollectionTurn")
    # a game created under 1.0.0 keeps discarding that ghost
    events, _ = play(under(state, "1.0.0"), 0, pioneer)
    assert first(events, "GhostDiePlaced")["blocked"] == "pioneer"
    assert "CardsRevealed" not in types(events)


def test_pioneer_is_the_only_unlimited_action_a_ghost_die_reaches():
    from referee.games.dark_horse_west.data import ACTIONS, SOLITAIRE

    reached = set(SOLITAIRE["ghost_single"])
    for action in SOLITAIRE["ghost_pair"].values():
        reached |= set(action) if isinstance(action, list) else {action}
    assert {a for a in reached if ACTIONS[a]["kind"] == "unlimited"} == {"pioneer"}


def test_a_ghost_meeting_another_ghost_is_discarded():
    single, pair = placed_ghosts(solo("ornery"), [5], [1, 5])
    assert single["action"] == "rail_baron"
    assert pair["action"] is None and (pair["blocked"], pair["by"]) == ("rail_baron", "ghost")
    _, one, two = placed_ghosts(solo("cruel"), [1], [3, 4], [2, 5])
    assert one["action"] == "trader"
    assert two["action"] is None and two["by"] == "ghost"


def test_the_player_is_refused_a_ghosts_limited_action_without_an_engineer_token():
    state = with_dice(solo("ornery"), 0, [3, 4])
    state["placements"] = [{"seat": None, "action": "trader", "dice": [1, 2], "collected": True}]
    state["ghosts"] = [{**g, "placed": "x"} for g in state["ghosts"]]
    refused(
        state, 0, {"type": "place", "action": "trader", "dice": [0, 1]}, "rule/placement_refused"
    )
    state = with_goods(state, 0, engineer=1)
    events = decide(state, 0, {"type": "place", "action": "trader", "dice": [0, 1], "share": True})
    placed = first(events, "DicePlaced")
    assert placed["share"] is True and placed["change"] == {"engineer": -1}


def test_a_ghost_on_an_unlimited_action_leaves_it_open():
    state = with_dice(solo("chicken"), 0, [1, 5])
    state["placements"] = [{"seat": None, "action": "pioneer", "dice": [0], "collected": True}]
    state["ghosts"] = [{**g, "placed": "pioneer"} for g in state["ghosts"]]
    events = decide(state, 0, {"type": "place", "action": "pioneer", "dice": [0, 1]})
    assert first(events, "DicePlaced")["action"] == "pioneer"


def test_turn_order_is_off_limits_in_solitaire():
    state = with_dice(solo("chicken"), 0, [5, 6])
    assert not [c for c in rules.legal(state, 0) if c.get("action") == "turn_order"]
    refused(
        state, 0, {"type": "place", "action": "turn_order", "dice": [0]}, "rule/placement_refused"
    )
    many = with_dice(set_up(2), 0, [5, 6])
    many["step"] = {"kind": "place", "seat": 0}
    assert [c for c in rules.legal(many, 0) if c.get("action") == "turn_order"]


# --- Solitaire: a Ghost die on Pioneer, on Sheriff or Mayor -------------------------------


def pioneer_table(deck: list[str], round_number: int = 3) -> dict:
    state = solo("chicken")
    return changed(
        state,
        deck=deck,
        discard=[],
        events=[],
        round=round_number,
        placements=[{"seat": None, "action": "pioneer", "dice": [0], "collected": True}],
    )


def test_a_ghost_on_pioneer_shows_two_cards_actions_discarded():
    state = pioneer_table(["foreman-1", "land_grant-1", "drought-1"])
    events = solitaire.ghost_pioneer(state, Rng(SEED))
    assert types(events) == ["CardsRevealed"]
    shown = events[0]["payload"]
    assert shown == {
        "cards": ["foreman-1", "land_grant-1"],
        "discarded": ["foreman-1", "land_grant-1"],
        "played": None,
    }
    after = fold(state, events)
    assert after["deck"] == ["drought-1"] and after["discard"] == ["foreman-1", "land_grant-1"]


def test_a_ghost_on_pioneer_plays_an_event_it_shows():
    state = pioneer_table(["foreman-1", "drought-1", "land_grant-1"])
    events = solitaire.ghost_pioneer(state, Rng(SEED))
    assert types(events) == ["CardsRevealed", "EventPlayed"]
    assert first(events, "CardsRevealed")["discarded"] == ["foreman-1"]
    after = fold(state, events)
    assert after["events"] == ["drought-1"] and after["discard"] == ["foreman-1"]


@pytest.mark.parametrize("seed", ["rules", "s1", "s2", "s3"])
def test_a_ghost_on_pioneer_showing_two_events_plays_one_by_the_seed(seed):
    state = pioneer_table(["drought-1", "city_fire-1", "foreman-1"], round_number=4)
    events = solitaire.ghost_pioneer(state, Rng(seed))
    pick = Rng(seed).below("round-4/ghost-pioneer", 2)
    played = ["drought-1", "city_fire-1"][pick]
    assert first(events, "EventPlayed")["card"] == played
    after = fold(state, events)
    assert after["events"] == [played]
    assert after["discard"] == [c for c in ["drought-1", "city_fire-1"] if c != played]


def test_no_ghost_on_pioneer_shows_nothing():
    state = changed(pioneer_table(["drought-1", "foreman-1"]), placements=[])
    assert solitaire.ghost_pioneer(state, Rng(SEED)) == []


def test_the_ghost_pioneer_cards_show_before_anything_is_collected():
    state = with_dice(solo("chicken"), 0, [6, 5])
    state = changed(
        state,
        deck=["foreman-1", "drought-1", *state["deck"][2:]],
        discard=[],
        events=[],
        ghosts=[{"id": 0, "group": "single", "value": 1, "placed": "pioneer"}],
        placements=[
            {"seat": None, "action": "pioneer", "dice": [0], "collected": True},
            {"seat": 0, "action": "market", "dice": [0], "total": 6, "collected": False},
        ],
    )
    state["dice"][0][0]["placed"] = "market"
    events = decide(state, 0, {"type": "place", "action": "builder", "dice": [1], "wild": 1})
    kinds = types(events)
    assert (
        kinds.index("CollectionStarted") < kinds.index("CardsRevealed") < kinds.index("EventPlayed")
    )
    assert kinds.index("EventPlayed") < kinds.index("CollectionTurn")


@pytest.mark.parametrize("role", ["sheriff", "mayor"])
def test_a_ghost_on_sheriff_or_mayor_takes_the_role_at_the_end_of_the_turn(role):
    state = changed(
        solo("ornery"),
        roles={"mayor": 0, "sheriff": 0},
        placements=[{"seat": None, "action": role, "dice": [1, 2], "collected": True}],
    )
    lost = solitaire.roles_lost(state)
    assert [e["payload"] for e in lost] == [{"seat": 0, "role": role, "why": "ghost"}]
    after = fold(state, lost)
    other = "mayor" if role == "sheriff" else "sheriff"
    assert after["roles"] == {role: None, other: 0}


def test_a_ghost_elsewhere_takes_no_role():
    state = changed(
        solo("ornery"),
        roles={"mayor": 0, "sheriff": 0},
        placements=[{"seat": None, "action": "broker", "dice": [1, 2], "collected": True}],
    )
    assert solitaire.roles_lost(state) == []


def test_the_role_is_lost_when_the_turn_ends():
    state = changed(
        solo("ornery"),
        phase="collection",
        step=None,
        roles={"mayor": None, "sheriff": 0},
        placements=[{"seat": None, "action": "sheriff", "dice": [1, 2], "collected": True}],
    )
    events = flow.advance(state, Rng(SEED))
    kinds = types(events)
    assert kinds.index("RoleLost") < kinds.index("RoundEnded") < kinds.index("RoundStarted")
    assert fold(state, events)["roles"]["sheriff"] is None


# --- Solitaire: the countdown, the scenarios -----------------------------------------------


def turn_over(state: dict, round_number: int, **fields: Any) -> dict:
    """A Solitaire table whose Collection Phase of this turn has nothing left to collect."""
    return changed(
        state, phase="collection", step=None, placements=[], round=round_number, **fields
    )


def test_round_started_counts_the_turns_down():
    state = created(1)
    events: list[dict] = []
    while state["phase"] == "setup":
        events, state = play(state, 0, rules.legal(state, 0)[0])
    assert first(events, "RoundStarted") == {"round": 1, "jailed": [0], "turns_left": 28}
    short = solo("chicken", solitaire_turns=5)
    events = flow.advance(turn_over(short, 2), Rng(SEED))
    assert first(events, "RoundStarted") == {"round": 3, "jailed": [0], "turns_left": 3}
    assert "turns_left" not in first(
        flow.advance(changed(set_up(2), phase="collection", step=None, placements=[]), Rng(SEED)),
        "RoundStarted",
    )


def test_the_game_ends_after_the_last_turn():
    state = solo("chicken", solitaire_turns=5)
    events = flow.advance(turn_over(state, 4), Rng(SEED))
    assert "ScoresCounted" not in types(events) and first(events, "RoundStarted")["round"] == 5
    events = flow.advance(turn_over(state, 5), Rng(SEED))
    assert types(events)[-2:] == ["RoundEnded", "ScoresCounted"]
    result = first(events, "ScoresCounted")
    assert result["victory"] is False and result["scenario"] == "tenderfoot"
    after = fold(turn_over(state, 5), events)
    assert after["phase"] == "over"
    assert rules.outcome(after)["winners"] == []


def test_the_game_ends_at_the_end_of_the_turn_the_victory_is_met():
    state = solo("chicken", scenario="gold_rush")
    cities = {"1,0": 0, "7,0": 0, "-2,6": 0}
    won = turn_over(state, 3, cities=cities)
    won["goods"][0]["gold"] = 10
    events = flow.advance(won, Rng(SEED))
    assert types(events)[-2:] == ["RoundEnded", "ScoresCounted"]
    after = fold(won, events)
    assert first(events, "ScoresCounted")["victory"] is True
    assert rules.outcome(after)["winners"] == [0]
    assert rules.outcome(after)["victory"] is True
    # one gold short: the game goes on
    short = copy.deepcopy(won)
    short["goods"][0]["gold"] = 9
    assert "ScoresCounted" not in types(flow.advance(short, Rng(SEED)))


def test_solitaire_ignores_the_game_end_token():
    state = turn_over(solo("chicken"), 3)
    state["goods"][0]["influence"] = 30
    events = flow.advance(state, Rng(SEED))
    assert "GameEndTriggered" not in types(events) and "ScoresCounted" not in types(events)


def test_every_piece_built_ends_only_tenderfoot_and_marshal_law():
    frontier = all_pieces(turn_over(solo("chicken", scenario="wild_frontiers"), 3))
    assert "ScoresCounted" not in types(flow.advance(frontier, Rng(SEED)))
    tender = all_pieces(turn_over(solo("chicken"), 3))
    events = flow.advance(tender, Rng(SEED))
    assert first(events, "ScoresCounted")["victory"] is True


def test_a_whole_solitaire_game_runs_its_turns_and_is_lost():
    recs = records(1, solitaire_turns=2, difficulty="cruel")
    whole = game.fold(recs)
    for _ in range(300):
        if whole["status"] != "active":
            break
        seat = game.to_move(whole)[0]
        legal = game.legal(whole, seat)
        command = next((c for c in legal if c["type"] in ("pass", "decline")), legal[0])
        more, whole = game.step(whole, seat, command, SEED)
        recs += more
    assert whole["status"] == "finished"
    started = [r["payload"] for r in recs if r["type"] == "RoundStarted"]
    assert [(p["round"], p["turns_left"]) for p in started] == [(1, 2), (2, 1)]
    assert whole["outcome"]["winners"] == [] and whole["outcome"]["victory"] is False
    assert whole["outcome"]["scenario"] == "Tenderfoot"
    assert game.view(whole, 0)["status"] == "finished"


def all_pieces(state: dict, *, towns: int = 6, cities: int = 3) -> dict:
    city_hexes = ["1,0", "7,0", "-2,6"][:cities]
    town_hexes = ["0,0", "0,1", "2,0", "6,0", "8,0", "7,1"][:towns]
    return changed(state, cities={h: 0 for h in city_hexes}, towns={h: 0 for h in town_hexes})


@pytest.mark.parametrize("scenario", ["tenderfoot", "marshal_law"])
def test_tenderfoot_and_marshal_law_are_won_with_every_piece_built(scenario):
    state = solo("chicken", scenario=scenario)
    assert solitaire.victory(all_pieces(state))
    assert not solitaire.victory(all_pieces(state, towns=5))
    assert not solitaire.victory(all_pieces(state, cities=2))


def test_wild_frontiers_is_won_with_towns_on_both_dead_centre_hexes():
    state = solo("chicken", scenario="wild_frontiers")
    assert solitaire.victory(changed(state, towns={"2,3": 0, "3,3": 0}))
    assert not solitaire.victory(changed(state, towns={"2,3": 0}))
    assert not solitaire.victory(changed(state, towns={"2,3": 0, "2,2": 0}))
    # every piece built is no victory here
    assert not solitaire.victory(all_pieces(state))


@pytest.mark.parametrize(
    ("scenario", "good", "needed"), [("gold_rush", "gold", 10), ("barnstorming", "influence", 11)]
)
def test_gold_rush_and_barnstorming_need_three_cities_and_the_count(scenario, good, needed):
    state = all_pieces(solo("chicken", scenario=scenario), towns=0)
    state["goods"][0][good] = needed
    assert solitaire.victory(state)
    state["goods"][0][good] = needed - 1
    assert not solitaire.victory(state)
    two = all_pieces(solo("chicken", scenario=scenario), towns=0, cities=2)
    two["goods"][0][good] = needed + 5
    assert not solitaire.victory(two)


def test_wild_frontiers_puts_the_first_city_in_a_safe_zone():
    state = created(1, scenario="wild_frontiers")
    assert {c["hex"] for c in rules.legal(state, 0)} == SAFE_CITY_HEXES
    refused(state, 0, {"type": "place_city", "hex": "2,1"}, "rule/city_site")
    events, after = play(state, 0, {"type": "place_city", "hex": "4,6"})
    assert after["cities"] == {"4,6": 0}
    # other scenarios let the first city go anywhere
    assert len(rules.legal(created(1), 0)) > len(SAFE_CITY_HEXES)


# --- Solitaire: the deck, Marshal Law --------------------------------------------------------


def test_the_solitaire_deck_is_without_the_five_interactive_cards():
    state = created(1)
    held = {card_type(c) for c in state["deck"]}
    assert held == set(CARDS) - SOLITAIRE_REMOVED
    assert SOLITAIRE_REMOVED <= {card_type(c) for c in created(2)["deck"]}


def test_marshal_law_keeps_the_events_in_their_own_pile():
    recs = records(1, scenario="marshal_law")
    pile = record(recs, "EventPileShuffled")
    assert pile["visibility"] == []
    state = game.fold(recs)["rules"]
    assert all(card_kind(c) == "action" for c in state["deck"])
    assert {card_type(c) for c in state["deck"]} == set(ACTION_CARDS) - SOLITAIRE_REMOVED
    assert sorted(card_type(c) for c in state["event_pile"]) == sorted(
        set(EVENTS) - SOLITAIRE_REMOVED
    )
    assert state["event_pile"] == pile["payload"]["pile"]
    assert "EventPileShuffled" not in [r["type"] for r in records(1)]


def marshal_rolled(values: list[int], pile: list[str], events_in_play: list[str] | None = None):
    """Marshal Law's draws after the player's dice show these values."""
    state = solo("chicken", scenario="marshal_law")
    state = changed(with_dice(state, 0, values), event_pile=pile, events=events_in_play or [])
    return state, solitaire.marshal_law_draws(state, [])


def test_marshal_law_doubles_draw_an_event_into_play():
    state, events = marshal_rolled([4, 4], ["drought-1", "city_fire-1"])
    assert types(events) == ["EventPlayed"]
    assert first(events, "EventPlayed")["card"] == "drought-1"
    after = fold(state, events)
    assert after["events"] == ["drought-1"] and after["event_pile"] == ["city_fire-1"]


def test_marshal_law_two_alike_of_three_dice_draw_an_event():
    assert types(marshal_rolled([2, 5, 2], ["drought-1"])[1]) == ["EventPlayed"]


def test_marshal_law_no_doubles_no_event():
    assert marshal_rolled([4, 5], ["drought-1"])[1] == []
    assert marshal_rolled([4, 4], [])[1] == []


def test_marshal_law_permanent_events_stay_in_play_together():
    state, events = marshal_rolled([2, 2], ["city_fire-1"], events_in_play=["drought-1"])
    after = fold(state, events)
    assert after["events"] == ["drought-1", "city_fire-1"]
    assert "drought-1" not in after["discard"]
    # in the other scenarios a permanent event replaces the one in play
    other = changed(solo("chicken"), events=["drought-1"], discard=[])
    after = fold(other, event_played(other, "city_fire-1", None))
    assert after["events"] == ["city_fire-1"] and after["discard"] == ["drought-1"]


def test_marshal_law_the_sheriff_removes_an_event_from_the_game():
    state = changed(
        solo("chicken", scenario="marshal_law"), events=["drought-1", "city_fire-1"], discard=[]
    )
    events = collection.sheriff(state, 0, {"remove_event": "drought-1"})
    assert first(events, "EventDiscarded")["removed"] is True
    after = fold(state, events)
    assert after["events"] == ["city_fire-1"]
    assert after["removed"] == ["drought-1"] and after["discard"] == []
    # elsewhere the Sheriff only discards the event in play
    plain = changed(solo("chicken"), events=["drought-1"], discard=[])
    after = fold(plain, collection.sheriff(plain, 0, {"remove_event": "drought-1"}))
    assert after["events"] == [] and after["discard"] == ["drought-1"] and after["removed"] == []


def test_the_sheriff_removes_only_an_event_in_play():
    state = changed(solo("chicken", scenario="marshal_law"), events=["drought-1"])
    with pytest.raises(RuleViolation) as caught:
        collection.sheriff(state, 0, {"remove_event": "city_fire-1"})
    assert caught.value.code == "rule/no_such_event"


# --- views --------------------------------------------------------------------------------


def cities_placed(players: int = 4, **options: Any) -> dict:
    """A table whose first cities stand, before any town or rail."""
    return setup_until(created(players, **options), "town")


def test_a_seat_sees_the_face_down_tiles_around_its_city():
    state = cities_placed(4)
    down = set(table.face_down(state))
    for seat in range(4):
        (city,) = table.cities_of(state, seat)
        near = {hexes.hex_key(h) for h in hexes.neighbours(hexes.parse_hex(city))}
        seen = rules.view(state, seat)["tiles_seen"]
        assert seen == {h: state["layout"][h] for h in sorted(near & down)}
    assert any(rules.view(state, s)["tiles_seen"] for s in range(4))


def test_a_seat_sees_a_tile_it_has_looked_at():
    state = cities_placed(4)
    mine = set(rules.view(state, 0)["tiles_seen"])
    far = sorted(set(table.face_down(state)) - mine)[0]
    looked = fold(
        state, [event("TileLooked", {"seat": 0, "hex": far, "tile": state["layout"][far]}, to=[0])]
    )
    assert rules.view(looked, 0)["tiles_seen"][far] == state["layout"][far]
    assert far not in rules.view(state, 0)["tiles_seen"]
    # what seat 0 looked at changes no other seat's view
    for seat in (1, 2, 3):
        assert rules.view(looked, seat)["tiles_seen"] == rules.view(state, seat)["tiles_seen"]


def test_a_seat_sees_along_rails_from_its_city():
    state = cities_placed(4)
    (city,) = table.cities_of(state, 0)
    before = set(rules.view(state, 0)["tiles_seen"])
    for edge in table.rail_sites(state, 0):
        after = changed(state, rails=[edge])
        gained = set(rules.view(after, 0)["tiles_seen"]) - before
        if gained:
            break
    assert gained and all(h in table.face_down(state) for h in gained)


def test_face_up_tiles_are_not_in_tiles_seen():
    state = changed(cities_placed(4), face_up={})
    state["face_up"] = {h: state["layout"][h] for h in state["layout"]}
    assert all(rules.view(state, s)["tiles_seen"] == {} for s in range(4))
    assert rules.view(state, 0)["face_down"] == []


def test_other_seats_hands_are_never_in_a_seats_view():
    state = set_up(4)
    state["hands"] = [["foreman-1"], ["surveyor-1", "stagecoach-1"], [], ["train_robbery-1"]]
    state["discard"] = []
    for seat in range(4):
        shown = rules.view(state, seat)
        assert shown["hand"] == state["hands"][seat]
        assert "hands" not in shown and "deck" not in shown and "layout" not in shown
        assert shown["hand_sizes"] == [1, 2, 0, 1]
        text = repr(shown)
        for other in range(4):
            for card in state["hands"][other] if other != seat else []:
                assert card not in text


def test_spectators_see_no_tiles_and_no_hand():
    state = set_up(4)
    state["hands"] = [["foreman-1"], [], [], []]
    shown = rules.view(state, None)
    for secret in ("tiles_seen", "hand", "hands", "layout", "deck"):
        assert secret not in shown
    assert shown["face_down"] == table.face_down(state)
    assert shown["hand_sizes"] == [1, 0, 0, 0]
    assert "foreman-1" not in repr(shown)


def test_the_moderator_sees_layout_hands_and_deck():
    state = set_up(4)
    state["hands"] = [["foreman-1"], [], ["surveyor-1"], []]
    shown = rules.view(state, MODERATOR)
    assert shown["layout"] == state["layout"]
    assert shown["hands"] == state["hands"]
    assert shown["deck"] == state["deck"]


def test_the_cards_being_drawn_are_the_drawers_alone():
    state = set_up(4)
    task = {
        "kind": "keep",
        "seat": 1,
        "action": "pioneer",
        "drawn": ["foreman-1", "surveyor-1"],
        "events": [],
    }
    state = changed(state, task=task)
    assert rules.view(state, 1)["task"]["drawn"] == ["foreman-1", "surveyor-1"]
    for viewer in (0, 2, None):
        assert "drawn" not in rules.view(state, viewer)["task"]
        assert "foreman-1" not in repr(rules.view(state, viewer)["task"])


def test_the_engine_view_hides_the_layout_from_seats():
    recs = records(4)
    whole = game.fold(recs)
    laid = record(recs, "TilesLaid")
    assert game.redact(laid, 0, False) == {"seq": laid["seq"], "redacted": True}
    assert game.redact(laid, None, False) == {"seq": laid["seq"], "redacted": True}
    shuffled = record(recs, "DeckShuffled")
    assert game.redact(shuffled, 2, False) == {"seq": shuffled["seq"], "redacted": True}
    assert "layout" not in game.view(whole, 0)["state"]
    assert game.view(whole, MODERATOR)["state"]["layout"] == laid["payload"]["layout"]
