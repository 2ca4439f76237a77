"""Blackout Middle's pages: the board drawn from a view, the sentences of the events, the
choice texts of commands, the orders form, the content and the option texts."""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from referee import bots
from referee.engine.errors import BadRequest, RuleViolation
from referee.games import blackout_middle as bm
from referee.games.blackout_middle.data import DATA, HORSES
from referee.service import Referee
from referee.store import open_store
from referee.web.forms import check_fields

ID = "blackout-middle"
SVG = "{http://www.w3.org/2000/svg}"
CLOCK = 1_800_000_000
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HOSTILE = "<img src=x onerror=alert(1)>"


# --- a game driven by hand -------------------------------------------------------


def new_game(tmp_path: Path, name: str, players: list[str] = PLAYERS, **options: Any):
    ref = Referee(open_store(tmp_path / f"{name}.db"), clock=lambda: CLOCK)
    return ref, ref.create_game(ID, players, options, "pages-seed")["game_id"]


def current(ref: Referee, gid: str) -> dict[str, Any]:
    return ref.state(gid)["rounds"]["current"]


def submit(ref: Referee, gid: str, seat: int, orders: dict[str, Any]) -> tuple[int, Any]:
    opened = current(ref, gid)
    command = {"type": "submit_orders", "round": opened["round"], "orders": orders}
    return ref.command(gid, seat, command, now=opened["deadline"] - 10)


def resolve(ref: Referee, gid: str) -> None:
    opened = current(ref, gid)
    command = {"type": "resolve_round", "round": opened["round"]}
    ref.command(gid, "referee", command, now=opened["deadline"])


def nothing() -> dict[str, Any]:
    return {"ability": None, "spectate": None, "bets": {}}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def space_at_end_of_round_1(ref: Referee, gid: str, horse: str) -> int:
    movements = ref.view(gid, "moderator")["state"]["movements"]
    return 1 + movements["1"][horse]


# --- the board -------------------------------------------------------------------


def test_board_is_a_safe_svg_with_a_title_and_no_size(tmp_path):
    ref, gid = new_game(tmp_path, "safe", ["Ann", HOSTILE, "Cat"])
    for viewer in (0, 1, None, "moderator"):
        svg = bm.board(ref.view(gid, viewer))
        root = parse(svg)
        assert root.get("role") == "img" and root.get("viewBox", "").startswith("0 0 ")
        assert root.get("width") is None and root.get("height") is None
        assert not list(root.iter(f"{SVG}img")) and "<img" not in svg
        for banned in ("style", "script", "foreignObject", "a", "image"):
            assert not list(root.iter(f"{SVG}{banned}"))
        assert all("style" not in element.attrib for element in root.iter())
    assert (
        parse(bm.board(ref.view(gid, 1)))
        .find(f"{SVG}title")
        .text.startswith(f"Blackout Middle: {HOSTILE}'s view")
    )
    assert "a spectator's view" in parse(bm.board(ref.view(gid, None))).find(f"{SVG}title").text
    assert (
        "moderator's view" in parse(bm.board(ref.view(gid, "moderator"))).find(f"{SVG}title").text
    )


def test_board_draws_each_horse_as_the_viewer_knows_it(tmp_path):
    ref, gid = new_game(tmp_path, "seen")
    for seat in range(4):
        submit(ref, gid, seat, nothing())
    resolve(ref, gid)
    space = space_at_end_of_round_1(ref, gid, "A")
    submit(ref, gid, 0, {**nothing(), "spectate": space})
    resolve(ref, gid)

    seen = ref.view(gid, 0)["state"]["you"]["seen"]["1"]
    root = parse(bm.board(ref.view(gid, 0)))
    tips = titles(root)
    for horse in seen["horses"]:
        assert f"Horse {horse}: seen on space {space} at the end of Round 1" in tips
        assert f"{horse} R1" in texts(root)
    for horse in set(HORSES) - set(seen["horses"]):
        assert f"Horse {horse}: not seen on the track, whereabouts unknown" in tips
    assert f"Space {space}: your current space" in tips
    assert "Round 2 (of Rounds 0-10) open: taking sealed orders." in texts(root)

    spectator = titles(parse(bm.board(ref.view(gid, None))))
    for horse in HORSES:
        assert f"Horse {horse}: not seen on the track, whereabouts unknown" in spectator

    positions = ref.view(gid, "moderator")["state"]["positions"]
    moderator = titles(parse(bm.board(ref.view(gid, "moderator"))))
    for horse, where in positions.items():
        assert f"Horse {horse}: on space {where}" in moderator


def test_board_marks_the_orders_looked_at(tmp_path):
    ref, gid = new_game(tmp_path, "marked")
    for seat in range(4):
        submit(ref, gid, seat, nothing())
    resolve(ref, gid)
    view = ref.view(gid, 0)
    looked_at = next(c for c in view["legal"] if (c.get("orders") or {}).get("spectate"))
    root = parse(bm.board(view, highlight=looked_at))
    space = looked_at["orders"]["spectate"]
    group = next(g for g in root.iter(f"{SVG}g") if g.findtext(f"{SVG}title") == f"Space {space}")
    assert group.find(f"{SVG}rect").get("stroke") == DATA["drawing"]["colours"]["highlight"]


def test_finished_board_shows_the_scores_and_every_horse(tmp_path):
    ref = Referee(open_store(tmp_path / "done.db"))
    gid = bots.play(ref, ID, ["Ann", HOSTILE, "Cat"], seed="pages-finished")
    view = ref.view(gid, None)
    root = parse(bm.board(view))
    words = texts(root)
    assert "Scores" in words and "Total" in words
    for row in view["outcome"]["breakdown"]:
        assert str(row["total"]) in words
    finished = [f"Horse {f['horse']}: finished" for f in view["state"]["finished"]]
    assert all(any(t.startswith(f) for t in titles(root)) for f in finished)
    candidate = view["outcome"]["elimination_candidate"]
    assert "Elimination Candidate" in words and candidate is not None
    assert "everyone's view" in root.find(f"{SVG}title").text
    named = parse(bm.board({**view, "viewer": 1})).find(f"{SVG}title").text
    assert named.startswith(f"Blackout Middle: {HOSTILE}'s view (the match is over: all revealed)")


@pytest.mark.parametrize("seats", [3, 12])
def test_board_fits_every_seat_count(tmp_path, seats):
    players = [f"Player number {n} with a long name" for n in range(seats)]
    ref, gid = new_game(tmp_path, f"seats{seats}", players)
    submit(ref, gid, seats - 1, nothing())
    root = parse(bm.board(ref.view(gid, seats - 1)))
    assert set(players) <= set(titles(root))
    assert texts(root).count("sealed") == 1 and texts(root).count("waiting") == seats - 1


def test_board_is_the_same_for_the_same_view(tmp_path):
    ref, gid = new_game(tmp_path, "same")
    view = ref.view(gid, 2)
    assert bm.board(view) == bm.board(json.loads(json.dumps(view)))


# --- secrets ---------------------------------------------------------------------


def play_with_seat_0(tmp_path: Path, name: str, orders_0: list[dict[str, Any]]):
    """Rounds 0-2 resolved and Round 3 sealed by seat 0 only; seat 0 sends orders_0[r],
    the others the same every time (seat 1 spectates where seat 0 does)."""
    ref, gid = new_game(tmp_path, name)
    for r, mine in enumerate(orders_0):
        submit(ref, gid, 0, mine)
        if r < len(orders_0) - 1:
            for seat in (1, 2, 3):
                submit(ref, gid, seat, {**nothing(), "spectate": mine["spectate"]})
            resolve(ref, gid)
    return ref, gid


def public_pages(ref: Referee, gid: str, viewers: tuple[Any, ...]) -> list[Any]:
    """The boards and the sentences of everyone who should learn nothing; commitments (a
    hash of each sealed submission, public by design) masked."""
    pages = []
    for viewer in viewers:
        view = ref.view(gid, viewer)
        told = bm.narrate(ref.events(gid, viewer)["events"], viewer, view["players"])
        masked = [re.sub(r"commitment [0-9a-f]{64}", "commitment #", t or "-") for t in told]
        pages.append((viewer, bm.board(view), masked))
    return pages


def test_other_seats_and_spectators_learn_nothing_of_sealed_orders(tmp_path):
    probe, gid = new_game(tmp_path, "probe")
    space = space_at_end_of_round_1(probe, gid, "A")
    first = [
        {"ability": {"kind": "clue", "use": ["A", "B"]}, "spectate": None, "bets": {}},
        {"ability": None, "spectate": space, "bets": {}},
        {"ability": {"kind": "utility", "use": ["C", "D"]}, "spectate": 6, "bets": {"A": 2}},
        {"ability": {"kind": "clue", "use": ["E"]}, "spectate": 7, "bets": {}},
    ]
    second = [
        {"ability": {"kind": "utility", "select": ["I"]}, "spectate": None, "bets": {}},
        {
            "ability": {"kind": "clue", "select": ["F", "G"], "use": ["G"]},
            "spectate": space,
            "bets": {},
        },
        {"ability": {"kind": "clue", "use": ["H"]}, "spectate": 6, "bets": {"A": 5}},
        {"ability": None, "spectate": 9, "bets": {"A": 1}},
    ]
    one = play_with_seat_0(tmp_path, "one", first)
    two = play_with_seat_0(tmp_path, "two", second)
    assert one[0].view(one[1], 0)["state"]["you"] != two[0].view(two[1], 0)["state"]["you"]
    viewers = (1, 2, 3, None)
    assert public_pages(*one, viewers) == public_pages(*two, viewers)
    assert public_pages(*one, (0,)) != public_pages(*two, (0,))


def test_other_seats_and_spectators_learn_nothing_of_a_private_trade(tmp_path):
    games = []
    for name, (give, get), answer in (
        ("traded", ("A", "B"), "accept"),
        ("declined", ("C", "D"), "decline"),
    ):
        ref, gid = new_game(tmp_path, name)
        ref.command(gid, 0, {"type": "offer_trade", "to": 1, "give": give, "get": get}, now=CLOCK)
        offer = ref.view(gid, 1)["state"]["you"]["open_offers"][0]["offer"]
        ref.command(gid, 1, {"type": f"{answer}_trade", "offer": offer}, now=CLOCK)
        for seat in range(4):
            submit(ref, gid, seat, nothing())
        resolve(ref, gid)
        games.append((ref, gid))
    seat_0 = [ref.view(gid, 0)["state"]["you"]["hand"] for ref, gid in games]
    assert seat_0[0] != seat_0[1]
    assert public_pages(*games[0], (2, 3, None)) == public_pages(*games[1], (2, 3, None))
    assert public_pages(*games[0], (0, 1)) != public_pages(*games[1], (0, 1))


# --- words -----------------------------------------------------------------------


def test_narrate_tells_each_event_in_the_games_words():
    players = ["Ann", "Ben", "Cat"]
    events = [
        {"seq": 5, "prev_hash": "x", "hash": "y", "redacted": True},
        {"type": "RoundOpened", "payload": {"round": 0, "deadline": 1}},
        {
            "type": "OrdersCommitted",
            "payload": {"round": 3, "seat": 1, "commitment": "ab12", "replaces": None},
        },
        {"type": "SpectatingAnnounced", "payload": {"round": 2, "spaces": [5, None, 4]}},
        {
            "type": "HorseFinished",
            "payload": {
                "round": 7,
                "horse": "D",
                "placement": 1,
                "movements": {"8": 2, "9": 3, "10": 1},
            },
        },
        {
            "type": "TradeOffered",
            "payload": {"offer": 10001, "from": 0, "to": 1, "give": "A", "get": "B"},
        },
        {
            "type": "AbilityResolved",
            "payload": {"round": 2, "seat": 0, "kind": None, "learned": {}},
        },
        {
            "type": "AbilityResolved",
            "payload": {
                "round": 1,
                "seat": 0,
                "kind": "clue",
                "learned": {"sums": {"2": 4, "3": 5, "4": 3}},
                "gained": {},
                "points": {},
            },
        },
        {
            "type": "SpaceSeen",
            "payload": {"round": 4, "seat": 2, "space": 9, "horses": ["C", "G"], "points": 2},
        },
        {"type": "CardBought", "payload": {"seat": 2, "horse": "E", "cost": 4}},
        {"type": "TolsAwarded", "payload": {"won": {"1": 2, "0": 1}, "given": {}, "choice": None}},
        {"type": "EliminationCandidateNamed", "payload": {"candidate": 2, "how": "fewest_points"}},
    ]
    assert bm.narrate(events, 0, players) == [
        None,
        "Round 0 opens: abilities only, no horse moves.",
        "Ben seals orders for Round 3 (commitment ab12).",
        "Spectated in Round 2: Ann space 5, Ben no space, Cat space 4.",
        "Horse D finishes in Round 7, placed 1st; movement values left: "
        "Round 8: 2, Round 9: 3, Round 10: 1.",
        "Ann offers Ben card A for card B (offer 10001).",
        None,
        "Ann's Round 1 clue ability: sums Round 2: 4, Round 3: 5, Round 4: 3.",
        "At the end of Round 4 Cat sees horses C, G on space 9 (2 point(s)).",
        "Cat buys card E for 4 garnets.",
        "Tokens of Life: Ben wins 2, Ann wins 1.",
        "Cat is the Elimination Candidate (with the fewest points).",
    ]


def test_narrate_has_a_sentence_for_every_event_of_a_whole_game(tmp_path):
    ref = Referee(open_store(tmp_path / "whole.db"))
    gid = bots.play(ref, ID, ["Ann", "Ben", "Cat"], seed="pages-whole")
    for viewer in (0, None, "moderator"):
        events = ref.events(gid, viewer)["events"]
        told = bm.narrate(events, viewer, ["Ann", "Ben", "Cat"])
        assert len(told) == len(events)
        fillers = ("AbilityResolved", "ChipsWatched", "SpaceSeen")
        for event, sentence in zip(events, told, strict=True):
            if event.get("redacted"):
                assert sentence is None
            elif event["type"] not in fillers:
                assert sentence, event["type"]


def test_a_resolved_round_counts_the_orders_sealed_and_names_who_sent_nothing(tmp_path):
    ref, gid = new_game(tmp_path, "counted", ["Ann", "Ben", "Cat"])
    submit(ref, gid, 0, nothing())
    submit(ref, gid, 1, nothing())
    resolve(ref, gid)  # round 0: Ann and Ben sealed, Cat silent
    resolve(ref, gid)  # round 1: nobody sent anything
    expected = [
        "Round 0 is resolved with 2 sealed submissions (Ann and Ben); Cat sent nothing: "
        "no ability, no space, no bets.",
        "Round 1 is resolved with no sealed submission; Ann, Ben and Cat sent nothing: "
        "no ability, no space, no bets.",
    ]
    for viewer in (0, 2, None, "moderator"):
        events = ref.events(gid, viewer)["events"]
        told = bm.narrate(events, viewer, ["Ann", "Ben", "Cat"])
        counted = [t for e, t in zip(events, told, strict=True) if e.get("type") == "OrdersCounted"]
        assert counted == expected, viewer


def test_a_round_every_seat_sealed_says_so():
    event = {"type": "OrdersCounted", "payload": {"round": 4, "seats": [7, 9, 12]}}
    told = bm.narrate([event], None, ["Ann", "Ben", "Cat"])
    assert told == ["Round 4 is resolved with 3 sealed submissions (Ann, Ben and Cat)."]
    one = {"type": "OrdersCounted", "payload": {"round": 5, "seats": [None, 9, None]}}
    assert bm.narrate([one], None, ["Ann", "Ben", "Cat"]) == [
        "Round 5 is resolved with 1 sealed submission (Ben); Ann and Cat sent nothing: "
        "no ability, no space, no bets."
    ]


def test_a_seats_narration_keeps_the_others_orders_sealed(tmp_path):
    ref, gid = new_game(tmp_path, "sealed")
    submit(ref, gid, 0, {"ability": {"kind": "clue", "use": ["A"]}, "spectate": None, "bets": {}})
    told = bm.narrate(ref.events(gid, 1)["events"], 1, PLAYERS)
    assert any(t and t.startswith("Ann seals orders for Round 0 (commitment ") for t in told)
    assert not any(t and "clue" in t for t in told)
    mine = bm.narrate(ref.events(gid, 0)["events"], 0, PLAYERS)
    assert "Ann sends orders for Round 0: clue: use A; no space; no bets." in mine


def test_label_gives_a_distinct_text_for_every_legal_command(tmp_path):
    ref, gid = new_game(tmp_path, "labels", starting_garnets=4)
    ref.command(gid, 1, {"type": "offer_trade", "to": 0, "give": "B", "get": "A"}, now=CLOCK)
    for _ in range(3):
        for seat in range(4):
            view = ref.view(gid, seat)
            labels = [bm.label(c, view) for c in view["legal"]]
            assert len(set(labels)) == len(labels) == len(view["legal"])
        for seat in range(4):
            submit(ref, gid, seat, nothing())
        resolve(ref, gid)
    view = ref.view(gid, 0)
    assert "Accept offer 10100: Ben's card B for Ann's card A" in [
        bm.label(c, view) for c in view["legal"]
    ]
    assert bm.label({"type": "buy_card", "horse": "C"}, view) == "Buy card C for 2 garnets"
    awards = {"players": PLAYERS, "state": {}}
    assert bm.label({"type": "give_tol", "seat": 2}, awards) == "Give the other ToL to Cat"
    vote = {"type": "record_ec_vote", "votes": {"0": 2, "1": 3}}
    assert bm.label(vote, awards) == "Record the EC vote: Ann for Cat, Ben for Dan"
    orders = {
        "ability": {"kind": "clue", "select": ["A", "A"], "use": ["A"]},
        "spectate": 4,
        "bets": {"C": 2},
    }
    command = {"type": "submit_orders", "round": 1, "orders": orders}
    assert (
        bm.label(command, awards)
        == "Seal Round 1 orders: clue: select A, A; use A; spectate space 4; bet C 2"
    )


# --- the orders form -------------------------------------------------------------


def field_names(view: dict[str, Any]) -> list[str]:
    return [f["name"] for f in check_fields(bm.order_fields(view))]


def test_a_form_filled_as_a_player_would_is_accepted_and_judged_whole(tmp_path):
    ref, gid = new_game(tmp_path, "form")
    view = ref.view(gid, 0)
    assert {"ability", "clue.use.A", "utility.select"} <= set(field_names(view))
    assert "spectate" not in field_names(view)  # Round 0 takes the ability only
    form = {"ability": ["clue"], "clue.use.A": ["1"], "clue.use.B": ["1"], "utility.select": ["C"]}
    orders = bm.orders_from_form(form)
    assert orders == {"ability": {"kind": "clue", "use": ["A", "B"]}, "spectate": None, "bets": {}}
    status, body = submit(ref, gid, 0, orders)
    assert status == 201 and body["warnings"] == []
    filled = {f["name"]: f["value"] for f in bm.order_fields(ref.view(gid, 0))}
    assert (
        filled["ability"] == "clue" and filled["clue.use.A"] == "1" and filled["clue.use.C"] == "0"
    )
    for seat in (1, 2, 3):
        submit(ref, gid, seat, nothing())
    resolve(ref, gid)

    space = space_at_end_of_round_1(ref, gid, "C")
    form = {"ability": ["clue"], "clue.select.C": ["1"], "clue.select.D": ["1"], "clue.use": ["D"]}
    orders = bm.orders_from_form({**form, "spectate": [str(space)], "utility.gain": ["H"]})
    assert orders["ability"] == {"kind": "clue", "select": ["C", "D"], "use": ["D"]}
    assert submit(ref, gid, 0, orders)[0] == 201
    for seat in (1, 2, 3):
        submit(ref, gid, seat, nothing())
    resolve(ref, gid)

    view = ref.view(gid, 0)
    assert "bet.C" in field_names(view)
    form = {"ability": ["utility"], "utility.use.E": ["1"], "utility.use.F": ["1"]}
    form |= {"spectate": ["8"], "bet.C": ["3"], "clue.use.G": ["1"]}
    orders = bm.orders_from_form(form)
    assert orders == {
        "ability": {"kind": "utility", "use": ["E", "F"]},
        "spectate": 8,
        "bets": {"C": 3},
    }
    status, body = submit(ref, gid, 0, orders)
    assert status == 201 and body["warnings"] == []
    for seat in (1, 2, 3):
        submit(ref, gid, seat, nothing())
    resolve(ref, gid)
    judged = ref.view(gid, 0)["state"]["you"]["judged"]
    assert all(not judged[r]["dropped"] for r in ("0", "1", "2"))
    assert judged["2"]["applied"]["bets"] == {"C": 3}


def as_sent(fields: list[dict[str, Any]]) -> dict[str, list[str]]:
    """What a browser sends for a form left as it was filled in."""
    return {f["name"]: f["value"] if isinstance(f["value"], list) else [f["value"]] for f in fields}


def same_orders(orders: dict[str, Any]) -> dict[str, Any]:
    """Orders with each card list sorted and empty lists left out."""
    given = orders["ability"]
    if given is not None:
        given = {k: sorted(v, key=str) if k != "guesses" else v for k, v in given.items() if v}
        if "guesses" in given:
            given["guesses"] = sorted(given["guesses"], key=lambda g: (g["horse"], g["ahead"]))
    return {**orders, "ability": given}


def test_every_legal_submission_comes_back_from_its_prefilled_form(tmp_path):
    ref, gid = new_game(tmp_path, "roundtrip", ["Ann", "Ben", "Cat"])
    for _ in range(11):
        for command in ref.view(gid, 0)["legal"]:
            if command["type"] != "submit_orders":
                continue
            submit(ref, gid, 0, command["orders"])
            fields = check_fields(bm.order_fields(ref.view(gid, 0)))
            back = bm.orders_from_form(as_sent(fields))
            assert same_orders(back) == same_orders(command["orders"]), command
        resolve(ref, gid)
    assert ref.view(gid, 0)["state"]["phase"] in ("awards", "over")


@pytest.mark.parametrize(
    "form",
    [
        {"ability": ["clue"], "clue.use.A": ["two"]},
        {"ability": ["magic"]},
        {"ability": ["none"], "spectate": ["far"]},
        {"ability": ["none"], "bet.A": ["lots"]},
        {"ability": ["none"], "bet.A": ["-3"]},
        {"ability": ["utility"], "utility.guess.A.1": ["some"]},
        {"ability": ["none"], "spectate": ["9" * 5000]},
    ],
)
def test_nonsense_in_the_form_is_refused_by_the_rules(tmp_path, form):
    ref, gid = new_game(tmp_path, "nonsense")
    orders = bm.orders_from_form(form)
    with pytest.raises((BadRequest, RuleViolation)):
        submit(ref, gid, 0, orders)


def form_view(r: int) -> dict[str, Any]:
    """A seat's view in round r holding two of every card, one A on offer."""
    you = {
        "seat": 0,
        "hand": {h: 2 for h in HORSES},
        "on_offer": {"A": 1},
        "chips": 30,
        "chip_limit": 5,
        "current_space": {"space": 4, "horses": ["B", "C"]},
    }
    return {
        "players": PLAYERS,
        "state": {"open_round": {"round": r, "seconds": 1}, "you": you},
        "round": {"open": {"round": r, "closed": None, "submitted": [False] * 4}},
    }


def test_each_rounds_form_fits_its_abilities():
    for r in range(11):
        names = field_names(form_view(r))
        assert names[0] == "ability"
        assert ("bet.B" in names) == (r > 0) and ("bet.A" not in names)
    # Round 5's utility: at most two guesses per card held
    fields = {f["name"]: f for f in bm.order_fields(form_view(5))}
    assert "utility.guess.B.2" in fields and "utility.guess.B.3" not in fields
    assert fields["clue.use.A"]["max"] == 1  # one A is on offer in a trade
    form = {
        "ability": ["utility"],
        "utility.guess.B.1": ["3"],
        "utility.guess.B.2": [""],
        "utility.guess.C.1": ["0"],
    }
    assert bm.orders_from_form(form)["ability"] == {
        "kind": "utility",
        "guesses": [{"horse": "B", "ahead": 3}, {"horse": "C", "ahead": 0}],
    }


def test_no_form_for_a_spectator_or_a_closed_round(tmp_path):
    ref, gid = new_game(tmp_path, "closed", ["Ann", "Ben", "Cat"])
    assert bm.order_fields(ref.view(gid, None)) == []
    assert bm.order_fields(ref.view(gid, "moderator")) == []
    for seat in range(3):
        submit(ref, gid, seat, nothing())
    assert bm.order_fields(ref.view(gid, 0)) == []


# --- content and options ---------------------------------------------------------


def test_option_texts_cover_exactly_the_options():
    assert set(bm.OPTION_TEXTS) == set(bm.OPTIONS)
    assert all(isinstance(t, str) and t.endswith(".") for t in bm.OPTION_TEXTS.values())


def test_content_explains_the_ids_and_is_json():
    def string_keys(value: Any) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and string_keys(v) for k, v in value.items())
        if isinstance(value, list):
            return all(string_keys(v) for v in value)
        return True

    assert json.loads(json.dumps(bm.CONTENT)) == bm.CONTENT and string_keys(bm.CONTENT)
    assert set(bm.CONTENT["horses"]) == set(HORSES)
    assert set(bm.CONTENT["rounds"]) == {str(r) for r in range(11)}
    assert bm.CONTENT["rounds"]["3"]["utility"].startswith("Select up to 3 horse cards")
