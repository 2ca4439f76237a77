"""Royal Turf with Hidden Bets over HTTP, on the real app and a real SQLite file: sealed
bets with receipts, what every other seat and a spectator may see of them, their reveal
when the race ends, a whole game to a verified log, and errors that change nothing."""

import json
from dataclasses import dataclass
from typing import Any

import pytest

from referee.engine.sealed import commitment
from replays.verify import verify_bytes

PLAYERS = ["Ann", "Ben", "Cat"]
SEED = "royal-turf-api"
HORSES = ["white", "black", "red", "blue", "yellow", "green", "purple"]
VARIANTS = ["hidden_bets", "crowded_field", "alternative_payouts", "royal_turf_cards"]


# --- helpers ---------------------------------------------------------------------------


@dataclass
class Table:
    """A royal-turf game created over HTTP: its id and the tokens."""

    game_id: str
    moderator: str
    seats: list[str]

    def auth(self, who: int | str | None) -> dict[str, str]:
        """The Authorization header of a seat, of `moderator`, or none (a spectator)."""
        if who is None:
            return {}
        token = self.moderator if who == "moderator" else self.seats[int(who)]
        return {"Authorization": f"Bearer {token}"}


def create(client, players=PLAYERS, seed=SEED, **options) -> Table:
    body = {"ruleset": "royal-turf", "players": players, "options": options, "seed": seed}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return Table(
        created["game_id"], created["moderator_token"], [s["token"] for s in created["seats"]]
    )


@pytest.fixture
def hidden(client) -> Table:
    """A 3-player royal-turf game with Hidden Bets."""
    return create(client, hidden_bets=True)


def error_of(response, status: int, code: str | None = None) -> dict:
    """Assert an error answer: its status, the one error shape, and its code."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def view(client, table: Table, who=None) -> dict:
    response = client.get(f"/games/{table.game_id}", headers=table.auth(who))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def stream(client, table: Table, who=None, after: int = 0) -> dict:
    response = client.get(f"/games/{table.game_id}/events?after={after}", headers=table.auth(who))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def command(client, table: Table, who, body, **headers):
    return client.post(
        f"/games/{table.game_id}/commands", json=body, headers={**table.auth(who), **headers}
    )


def log_of(client, table: Table, who="moderator") -> bytes:
    response = client.get(f"/games/{table.game_id}/log", headers=table.auth(who))
    assert response.status_code == 200, response.get_json()
    return response.get_data()


def unchanged(client, table: Table, before: dict) -> None:
    """Nothing was appended: the same version and the same log."""
    assert view(client, table, "moderator")["version"] == before["version"]
    assert log_of(client, table) == before["log"]


def snapshot(client, table: Table) -> dict:
    return {"version": view(client, table, "moderator")["version"], "log": log_of(client, table)}


def stub_of(event: dict) -> dict:
    """What a viewer who may not see `event` gets of it: its place in the chain only."""
    return {"seq": event["seq"], "prev_hash": event["prev_hash"], "hash": event["hash"]} | {
        "redacted": True
    }


def values_of(node: Any, key: str) -> list:
    """Every value stored under `key` anywhere in a JSON document."""
    if isinstance(node, dict):
        found = [node[key]] if key in node else []
        return found + [v for child in node.values() for v in values_of(child, key)]
    if isinstance(node, list):
        return [v for child in node for v in values_of(child, key)]
    return []


def choose(legal: list[dict], turn: int) -> dict:
    """A varied but repeatable choice among the legal commands."""
    return legal[(turn * 7) % len(legal)]


def play_one(client, table: Table, turn: int) -> tuple[int, dict, dict]:
    """The seat to move sends one of its legal commands; (seat, command, answer)."""
    seat = view(client, table)["to_move"][0]
    chosen = choose(view(client, table, seat)["legal"], turn)
    response = command(client, table, seat, chosen)
    assert response.status_code == 201, response.get_json()
    return seat, chosen, response.get_json()


# --- the ruleset's description ---------------------------------------------------------


def test_the_ruleset_page_lists_commands_and_options(client):
    described = client.get("/rulesets/royal-turf").get_json()
    assert (described["min_players"], described["max_players"]) == (2, 6)
    assert set(described["commands"]) == {
        "place_bet",
        "move_horse",
        "set_standing_choices",
        "hand_to_bot",
        "take_seat_back",
    }
    assert set(described["standing_choices"]) == {"move_only_horse"}
    bet = described["commands"]["place_bet"]["fields"]
    assert bet["horse"]["enum"] == HORSES and bet["chip"]["enum"] == [0, 1, 2]
    assert described["commands"]["move_horse"]["fields"] == {"horse": bet["horse"]}
    assert {v: described["options"][v] for v in VARIANTS} == dict.fromkeys(VARIANTS, False)
    listed = {r["id"]: r for r in client.get("/rulesets").get_json()}
    assert listed["royal-turf"] == described


def test_the_options_are_recorded_and_a_seat_sees_its_four_chips(client, hidden):
    created = stream(client, hidden)["events"][0]
    assert created["type"] == "GameCreated" and created["payload"]["options"]["hidden_bets"]
    for seat in range(3):
        state = view(client, hidden, seat)["state"]
        assert state["variants"] == {**dict.fromkeys(VARIANTS, False), "hidden_bets": True}
        assert state["chips"][seat] == [0, 1, 1, 2]
        assert [state["chips"][s] for s in range(3) if s != seat] == [4, 4]
    assert view(client, hidden)["state"]["chips"] == [4, 4, 4]
    assert view(client, hidden, "moderator")["state"]["chips"] == [[0, 1, 1, 2]] * 3


# --- sealed bets -----------------------------------------------------------------------


def test_a_sealed_bet_gets_a_receipt_and_stays_hidden_from_everyone_else(client, hidden):
    before = view(client, hidden)["version"]
    seat = view(client, hidden)["to_move"][0]
    others = [s for s in range(3) if s != seat]
    answer = command(client, hidden, seat, {"type": "place_bet", "horse": "red", "chip": 2})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()

    submitted, committed, placed = body["events"]
    assert [submitted["type"], committed["type"], placed["type"]] == [
        "OrdersSubmitted",
        "OrdersCommitted",
        "BetPlaced",
    ]
    assert submitted["visibility"] == [seat] and submitted["seq"] == before + 1
    assert submitted["payload"]["orders"] == {"horse": "red", "chip": 2}
    salt = submitted["payload"]["salt"]
    assert committed["visibility"] == "public"
    assert committed["payload"]["commitment"] == commitment(salt, {"horse": "red", "chip": 2})
    assert placed["payload"] == {"race": 1, "round": 1, "seat": seat, "horse": "red"}
    assert body["receipt"] == {
        "round": 1,
        "seq": committed["seq"],
        "commitment": committed["payload"]["commitment"],
        "recorded_at": committed["recorded_at"],
        "hash": committed["hash"],
    }
    assert body["warnings"] == []

    # the betting seat sees its chip, its chips left, and its commitment
    mine = view(client, hidden, seat)["state"]
    (bet,) = mine["bets"]
    assert bet["chip"] == 2 and bet["commitment"] == body["receipt"]["commitment"]
    assert mine["chips"][seat] == [0, 1, 1]

    # everyone else: the horse and the commitment, a null chip and counts of chips left
    for who in [*others, None]:
        state = view(client, hidden, who)["state"]
        (bet,) = state["bets"]
        assert bet["seat"] == seat and bet["horse"] == "red" and bet["chip"] is None
        assert bet["commitment"] == body["receipt"]["commitment"] and bet["revealed"] is False
        assert state["chips"][seat] == 3
        assert [isinstance(c, list) for c in state["chips"]] == [s == who for s in range(3)]

        shown = stream(client, hidden, who)
        text = json.dumps(shown)
        assert salt not in text
        assert values_of(shown, "chip") == [] and values_of(shown, "orders") == []
        hidden_event = next(e for e in shown["events"] if e["seq"] == submitted["seq"])
        assert hidden_event == stub_of(submitted)
        public = next(e for e in shown["events"] if e["seq"] == committed["seq"])
        assert public["payload"]["commitment"] == body["receipt"]["commitment"]
        assert public["hash"] == body["receipt"]["hash"]

    # the seat's own stream shows its sealed orders whole
    own = next(e for e in stream(client, hidden, seat)["events"] if e["seq"] == submitted["seq"])
    assert own["payload"]["salt"] == salt and own["command"] == submitted["command"]


def test_a_resent_bet_returns_the_same_receipt_and_appends_nothing(client, hidden):
    seat = view(client, hidden)["to_move"][0]
    bet = {"type": "place_bet", "horse": "blue", "chip": 0}
    first = command(client, hidden, seat, bet, **{"Idempotency-Key": "bet-1"})
    assert first.status_code == 201
    before = snapshot(client, hidden)
    again = command(client, hidden, seat, bet, **{"Idempotency-Key": "bet-1"})
    assert again.status_code == 201 and again.get_data() == first.get_data()
    unchanged(client, hidden, before)


# --- a whole game ----------------------------------------------------------------------


def test_a_whole_hidden_bets_game_over_http(client, hidden):
    sealed: dict[int, dict] = {}  # seq of the OrdersSubmitted -> what its seat knows
    turn = 0

    # race 1's betting: four rounds of sealed bets
    while view(client, hidden)["state"]["phase"] == "betting":
        seat, bet, answer = play_one(client, hidden, turn)
        turn += 1
        submitted, committed = answer["events"][:2]
        assert submitted["payload"]["orders"] == {"horse": bet["horse"], "chip": bet["chip"]}
        assert answer["receipt"]["seq"] == committed["seq"] == submitted["seq"] + 1
        assert answer["receipt"]["commitment"] == committed["payload"]["commitment"]
        sealed[submitted["seq"]] = {
            "seat": seat,
            "orders": submitted["payload"]["orders"],
            "salt": submitted["payload"]["salt"],
            "receipt": answer["receipt"],
            "record": submitted,
        }
        for who in (0, 1, 2, None):
            bets = view(client, hidden, who)["state"]["bets"]
            chip = next(b["chip"] for b in bets if b["sealed"] == submitted["seq"])
            assert chip == (bet["chip"] if who == seat else None)

    assert len(sealed) == 12
    state = view(client, hidden)["state"]
    assert state["phase"] == "racing" and state["chips"] == [0, 0, 0]
    every_chip = [b["chip"] for b in view(client, hidden, "moderator")["state"]["bets"]]
    assert sorted(every_chip) == [0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2]

    # before the race ends, no other seat and no spectator learns a chip or a salt
    for who in (0, 1, 2, None):
        shown = stream(client, hidden, who)
        text = json.dumps(shown)
        for seq, secret in sealed.items():
            event = next(e for e in shown["events"] if e["seq"] == seq)
            committed = next(e for e in shown["events"] if e["seq"] == seq + 1)
            assert committed["type"] == "OrdersCommitted" and committed["visibility"] == "public"
            assert committed["payload"]["commitment"] == secret["receipt"]["commitment"]
            if who == secret["seat"]:
                assert event["payload"]["orders"] == secret["orders"]
                continue
            assert event == stub_of(secret["record"])
            assert secret["salt"] not in text
        # a seat's own chips only, each in its orders and in the command that sent them
        own = [v["orders"]["chip"] for v in sealed.values() if v["seat"] == who]
        assert sorted(values_of(shown, "chip")) == sorted(own * 2)
        # the only hidden events are the other seats' sealed orders
        others = sorted(seq for seq, v in sealed.items() if v["seat"] != who)
        assert [e["seq"] for e in shown["events"] if e.get("redacted")] == others
        visible = [e for e in shown["events"] if not e.get("redacted")]
        assert not [e for e in visible if e["type"] == "OrdersRevealed"]

    # race 1 is run to its end
    while view(client, hidden)["state"]["race"] == 1:
        play_one(client, hidden, turn)
        turn += 1

    # its end made every sealed bet public, each matching its commitment and receipt
    # (the sealed orders themselves stay stubs to a spectator until play stops)
    shown = stream(client, hidden)
    assert [e["seq"] for e in shown["events"] if e.get("redacted")] == sorted(sealed)
    visible = [e for e in shown["events"] if not e.get("redacted")]
    reveals = [e for e in visible if e["type"] == "OrdersRevealed"]
    assert [e["payload"]["seq"] for e in reveals] == sorted(sealed)
    by_seq = {e["seq"]: e for e in shown["events"]}
    ended = next(e for e in visible if e["type"] == "RaceEnded")
    paid = next(e for e in visible if e["type"] == "RacePaid")
    for reveal in reveals:
        assert reveal["visibility"] == "public" and "redacted" not in reveal
        assert ended["seq"] < reveal["seq"] < paid["seq"]
        p = reveal["payload"]
        secret = sealed[p["seq"]]
        assert (p["seat"], p["orders"], p["salt"]) == (
            secret["seat"],
            secret["orders"],
            secret["salt"],
        )
        committed = by_seq[p["seq"] + 1]
        assert commitment(p["salt"], p["orders"]) == committed["payload"]["commitment"]
        assert committed["payload"]["commitment"] == secret["receipt"]["commitment"]
        assert committed["hash"] == secret["receipt"]["hash"]
        assert p["round"] == committed["payload"]["round"] == secret["receipt"]["round"]
    (result,) = view(client, hidden, 0)["state"]["results"]
    assert [(b["seat"], b["horse"], b["chip"]) for b in result["bets"]] == [
        (s["seat"], s["orders"]["horse"], s["orders"]["chip"]) for _, s in sorted(sealed.items())
    ]
    assert all(b["revealed"] for b in result["bets"])
    assert paid["payload"]["money"] == view(client, hidden, 1)["state"]["money"]
    # a 0-chip is no bet: it earns and costs nothing
    assert all(line["bets"] > 0 for line in paid["payload"]["lines"])

    # races 2 and 3 to the end of the game
    final = view(client, hidden)
    for _ in range(600):
        if final["status"] != "active":
            break
        play_one(client, hidden, turn)
        turn += 1
        final = view(client, hidden)
    assert final["status"] == "finished" and final["seed"] == SEED
    assert final["outcome"]["scores"] == final["state"]["money"]
    assert len(final["state"]["results"]) == 3

    events = stream(client, hidden)["events"]
    types = [e["type"] for e in events]
    assert types.count("OrdersSubmitted") == types.count("OrdersRevealed") == 36
    assert types[-2:] == ["GameEnded", "SeedRevealed"]
    assert all("redacted" not in e for e in events)  # play has stopped: all is public
    lines = log_of(client, hidden, None)
    assert lines == log_of(client, hidden, 2) == log_of(client, hidden)
    report = verify_bytes(lines)
    assert report.valid, report.reason
    assert report.outcome == final["outcome"] and report.events == final["version"]
    assert report.checks["seals"] == "36 sealed orders checked"
    error_of(command(client, hidden, 0, {"type": "move_horse", "horse": "red"}), 422, "game/over")


def test_abandoning_during_the_betting_reveals_the_sealed_bets(client, hidden):
    bets = [play_one(client, hidden, turn)[2]["events"][0] for turn in range(4)]
    answer = command(client, hidden, "moderator", {"type": "abandon", "reason": "storm"})
    assert answer.status_code == 201
    events = answer.get_json()["events"]
    assert [e["type"] for e in events] == ["GameAbandoned", *["OrdersRevealed"] * 4, "SeedRevealed"]
    for sent, reveal in zip(bets, events[1:5], strict=True):
        assert reveal["payload"]["seq"] == sent["seq"]
        assert reveal["payload"]["orders"] == sent["payload"]["orders"]
        assert reveal["payload"]["salt"] == sent["payload"]["salt"]
    assert all(b["revealed"] for b in view(client, hidden, 0)["state"]["bets"])
    report = verify_bytes(log_of(client, hidden, None))
    assert report.valid, report.reason
    assert report.checks["seals"] == "4 sealed orders checked"


# --- errors change nothing -------------------------------------------------------------


def test_betting_out_of_turn_is_422(client, hidden):
    mover = view(client, hidden)["to_move"][0]
    before = snapshot(client, hidden)
    for seat in range(3):
        if seat != mover:
            response = command(
                client, hidden, seat, {"type": "place_bet", "horse": "red", "chip": 1}
            )
            assert error_of(response, 422, "rule/not_your_turn")["details"] == {"turn": mover}
    unchanged(client, hidden, before)


def test_a_second_bet_on_a_horse_and_a_chip_not_held_are_422(client, hidden):
    first = view(client, hidden)["to_move"][0]
    assert (
        command(client, hidden, first, {"type": "place_bet", "horse": "red", "chip": 2}).status_code
        == 201
    )
    for _ in range(2):  # the other two seats bet; betting round 2 comes back to `first`
        seat = view(client, hidden)["to_move"][0]
        bet = {"type": "place_bet", "horse": "green", "chip": 1}
        assert command(client, hidden, seat, bet).status_code == 201
    assert view(client, hidden)["to_move"] == [first]
    assert view(client, hidden, first)["state"]["betting_round"] == 2
    before = snapshot(client, hidden)

    again = command(client, hidden, first, {"type": "place_bet", "horse": "red", "chip": 1})
    error = error_of(again, 422, "rule/horse_already_backed")
    assert error["details"] == {"field": "horse"} and "red" in error["message"]
    spent = command(client, hidden, first, {"type": "place_bet", "horse": "blue", "chip": 2})
    error = error_of(spent, 422, "rule/chip_not_held")
    assert error["details"] == {"field": "chip"} and "[0, 1, 1]" in error["message"]
    unchanged(client, hidden, before)
    legal = view(client, hidden, first)["legal"]
    assert {c["chip"] for c in legal} == {0, 1} and "red" not in {c["horse"] for c in legal}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "place_bet", "horse": "pink", "chip": 1}, "horse"),
        ({"type": "place_bet", "chip": 1}, "horse"),
        ({"type": "place_bet", "horse": 3, "chip": 1}, "horse"),
        ({"type": "move_horse", "horse": "grey"}, "horse"),
        ({"type": "place_bet", "horse": "red", "chip": "1"}, "chip"),
        ({"type": "place_bet", "horse": "red", "chip": 3}, "chip"),
        ({"type": "place_bet", "horse": "red", "chip": -1}, "chip"),
        ({"type": "place_bet", "horse": "red", "chip": True}, "chip"),
        ({"type": "place_bet", "horse": "red"}, "chip"),
        ({"type": "place_bet", "horse": "red", "chip": 1, "odds": 3}, "odds"),
    ],
)
def test_malformed_bets_are_400_naming_the_field(client, hidden, body, field):
    seat = view(client, hidden)["to_move"][0]
    before = snapshot(client, hidden)
    error = error_of(command(client, hidden, seat, body), 400, "command/invalid")
    assert error["details"] == {"field": field}
    unchanged(client, hidden, before)


def test_moving_during_betting_is_422(client, hidden):
    seat = view(client, hidden)["to_move"][0]
    before = snapshot(client, hidden)
    error_of(
        command(client, hidden, seat, {"type": "move_horse", "horse": "red"}),
        422,
        "rule/not_racing",
    )
    unchanged(client, hidden, before)


def test_betting_during_the_race_is_422(client, hidden):
    for turn in range(12):
        play_one(client, hidden, turn)
    assert view(client, hidden)["state"]["phase"] == "racing"
    seat = view(client, hidden)["to_move"][0]
    before = snapshot(client, hidden)
    bet = {"type": "place_bet", "horse": "purple", "chip": 1}
    error_of(command(client, hidden, seat, bet), 422, "rule/not_betting")
    unchanged(client, hidden, before)


def test_a_zero_chip_is_refused_without_hidden_bets(client):
    table = create(client, crowded_field=True)
    seat = view(client, table)["to_move"][0]
    shown = view(client, table, seat)
    assert shown["state"]["chips"] == [[1, 1, 2]] * 3  # face-up chips: everyone sees them
    assert {c["chip"] for c in shown["legal"]} == {1, 2}
    before = snapshot(client, table)
    response = command(client, table, seat, {"type": "place_bet", "horse": "red", "chip": 0})
    error = error_of(response, 422, "rule/chip_not_held")
    assert error["details"] == {"field": "chip"}
    unchanged(client, table, before)
    # a face-up bet is one public BetPlaced with its chip, and no receipt
    answer = command(client, table, seat, {"type": "place_bet", "horse": "red", "chip": 2})
    body = answer.get_json()
    assert [e["type"] for e in body["events"]] == ["BetPlaced"] and "receipt" not in body
    assert body["events"][0]["payload"]["chip"] == 2
    assert view(client, table, (seat + 1) % 3)["state"]["bets"][0]["chip"] == 2


@pytest.mark.parametrize(
    "options, code, field",
    [
        ({"hidden_bet": True}, "options/unknown", "options.hidden_bet"),
        ({"hidden_bets": "yes"}, "options/invalid", "options.hidden_bets"),
        ({"hidden_bets": 1}, "options/invalid", "options.hidden_bets"),
        ({"crowded_field": None}, "options/invalid", "options.crowded_field"),
        ({"alternative_payouts": "false"}, "options/invalid", "options.alternative_payouts"),
        ({"royal_turf_cards": 0}, "options/invalid", "options.royal_turf_cards"),
    ],
)
def test_bad_options_are_400_and_store_nothing(app, client, options, code, field):
    body = {"ruleset": "royal-turf", "players": PLAYERS, "options": options}
    error = error_of(client.post("/games", json=body), 400, code)
    assert error["details"]["field"] == field
    assert app.extensions["referee"].store.game_ids() == []


@pytest.mark.parametrize("players", [["solo"], [f"p{i}" for i in range(7)]])
def test_two_to_six_players(app, client, players):
    body = {"ruleset": "royal-turf", "players": players}
    error_of(client.post("/games", json=body), 400, "players/count")
    assert app.extensions["referee"].store.game_ids() == []
