"""Forks of a log (referee/engine/fork.py) and comparisons (referee/engine/compare.py),
on logs the bots played through the real service and store."""

import copy

import pytest

from referee.bots import play
from referee.engine import compare, fork, game
from referee.engine.canonical import canonical, digest
from referee.engine.errors import BadRequest, RuleViolation
from referee.engine.events import MODERATOR, REFEREE
from referee.engine.fork import AmendmentRefused
from referee.engine.outcome import ranked
from referee.service import Referee
from referee.store import LogicalClock, open_store

T0 = 1_800_000_000
GALLOPING_SEED, BLACKOUT_SEED = "fork-1", "bm-1"
NO_CONSEQUENCES = {"status": None, "players": [], "winners": None, "changes": []}


@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    store = open_store(tmp_path_factory.mktemp("fork") / "r.db", clock=LogicalClock())
    return Referee(store, clock=lambda: T0)


@pytest.fixture(scope="module")
def galloping(referee):
    """A finished galloping-horse log."""
    play(referee, "galloping-horse", list("abcd"), seed=GALLOPING_SEED, game_id="gh")
    return referee.store.events("gh")


@pytest.fixture(scope="module")
def blackout(referee):
    """A finished blackout-middle log for 4 seats (rounds 0 and 1 closed at the deadline)."""
    play(referee, "blackout-middle", list("abcd"), seed=BLACKOUT_SEED, game_id="bm")
    return referee.store.events("bm")


def of_type(events, kind, **payload):
    return [
        e
        for e in events
        if e["type"] == kind and all(e["payload"][k] == v for k, v in payload.items())
    ]


def content(record):
    """An event's content without its seq and envelope (as a fork shifts seqs)."""
    return {k: record[k] for k in ("type", "actor", "visibility", "payload", "command")}


def later_commands(events, after):
    return [b for b in fork.batches(events) if b.first > after]


def counted(events, number):
    return of_type(events, "OrdersCounted", round=number)[0]["payload"]["seats"]


# --- drop --------------------------------------------------------------------------


def test_a_dropped_play_is_gone_and_the_seats_after_it_are_out_of_turn(galloping):
    plays = of_type(galloping, "RaceCardPlayed")
    dropped = plays[3]  # seat 3's first play
    assert dropped["payload"]["seat"] == 3
    forked = fork.fork(
        galloping, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=None
    )
    assert forked.at == dropped["seq"] - 1
    assert forked.records[0]["seq"] == forked.at + 1
    # seats 0, 1 and 2 play next in the original: it is still seat 3's turn in the fork
    assert [(r["seq"], r["actor"], r["code"]) for r in forked.refused[:3]] == [
        (p["seq"], p["payload"]["seat"], "rule/not_your_turn") for p in plays[4:7]
    ]
    # seat 3's next play comes first, then the table plays on in turn
    assert forked.records[0]["command"] == plays[7]["command"]
    assert forked.records[0]["actor"] == 3 == plays[7]["actor"]
    later = later_commands(galloping, dropped["seq"])
    assert len(forked.replayed) + len(forked.refused) == len(later)
    assert sorted(forked.replayed + [r["seq"] for r in forked.refused]) == [b.first for b in later]
    assert {r["code"] for r in forked.refused} <= {"rule/not_your_turn", "rule/card_not_in_hand"}
    played = [r for r in forked.records if r["type"] == "RaceCardPlayed"]
    assert len(played) == len(plays[4:]) - len(forked.refused)  # the plays after the drop
    # the fork is the fold of the kept events and its records
    assert digest(game.fold(forked.records, game.fold(galloping[: forked.at]))) == digest(
        forked.state
    )


def test_a_fork_draws_the_same_randomness_for_the_same_purpose(galloping):
    dropped = of_type(galloping, "RaceCardPlayed")[3]
    forked = fork.fork(
        galloping, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=None
    )
    original = of_type(galloping, "RaceCardsDealt", round=2)
    dealt = of_type(forked.records, "RaceCardsDealt", round=2)
    assert len(dealt) == len(original) == 4
    assert [d["seq"] for d in dealt] != [d["seq"] for d in original]  # later in the fork
    assert [d["payload"] for d in dealt] == [d["payload"] for d in original]
    assert [d["visibility"] for d in dealt] == [[0], [1], [2], [3]]


def test_a_fork_with_a_link_opens_with_game_forked(galloping):
    dropped = of_type(galloping, "RaceCardPlayed")[5]
    link = {"from_game": "gh", "dispute": 7}
    forked = fork.fork(
        galloping, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=link
    )
    first = forked.records[0]
    assert (first["seq"], first["type"], first["actor"]) == (forked.at + 1, "GameForked", "referee")
    assert first["payload"] == {
        "from_game": "gh",
        "at": forked.at,
        "at_hash": galloping[forked.at - 1]["hash"],
        "dispute": 7,
    }
    assert forked.state["forked_from"] == first["payload"]


def test_a_fork_of_a_fork_links_to_the_nearer_game(galloping):
    dropped = of_type(galloping, "RaceCardPlayed")[3]
    link = {"from_game": "gh", "dispute": 1}
    first = fork.fork(galloping, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=link)
    log = galloping[: first.at] + first.records
    later = of_type(first.records, "RaceCardPlayed")[-3]
    again = {"kind": "drop", "seq": later["seq"]}
    second = fork.fork(log, again, GALLOPING_SEED, link={"from_game": "gh-fork", "dispute": 2})
    assert second.at == later["seq"] - 1 > first.at
    assert second.records[0]["type"] == "GameForked"
    assert second.state["forked_from"]["from_game"] == "gh-fork"
    assert second.state["forked_from"]["at"] == second.at


def test_record_fork_is_taken_only_right_after_the_shared_events(galloping):
    state = game.fold(galloping[:20])
    command = {"type": "record_fork", "from_game": "g", "at": 19, "at_hash": "0", "dispute": None}
    with pytest.raises(RuleViolation) as caught:
        game.step(state, REFEREE, command, GALLOPING_SEED)
    assert caught.value.code == "rule/not_a_fork_point"
    with pytest.raises(RuleViolation) as caught:
        game.step(state, MODERATOR, {**command, "at": 20}, GALLOPING_SEED)
    assert caught.value.code == "rule/not_allowed"
    [record], after = game.step(state, REFEREE, {**command, "at": 20}, GALLOPING_SEED)
    assert (record["seq"], record["type"], record["visibility"]) == (21, "GameForked", "public")
    assert after["forked_from"] == {"from_game": "g", "at": 20, "at_hash": "0", "dispute": None}


def test_the_same_fork_twice_gives_the_same_records(galloping, blackout):
    dropped = of_type(galloping, "RaceCardPlayed")[3]
    drop = {"kind": "drop", "seq": dropped["seq"]}
    twice = [fork.fork(galloping, drop, GALLOPING_SEED, link={"from_game": "gh"}) for _ in range(2)]
    assert canonical(twice[0].records) == canonical(twice[1].records)
    assert canonical(twice[0].refused) == canonical(twice[1].refused)
    orders = {"ability": None, "spectate": 4, "bets": {}}
    amendment = {"kind": "submission", "round": 1, "seat": 0, "orders": orders}
    runs = [fork.fork(blackout, amendment, BLACKOUT_SEED, link=None) for _ in range(2)]
    assert canonical(runs[0].records) == canonical(runs[1].records)
    assert digest(runs[0].state) == digest(runs[1].state)


# --- replace -----------------------------------------------------------------------


def test_a_replaced_play_is_the_other_card_from_the_same_seat(galloping):
    played = of_type(galloping, "RaceCardPlayed")[9]
    seat, horse = played["payload"]["seat"], played["payload"]["horse"]
    before = game.fold(galloping[: played["seq"] - 1])
    other = next(c for c in game.legal(before, seat) if c["horse"] != horse)
    amendment = {"kind": "replace", "seq": played["seq"], "command": other}
    forked = fork.fork(galloping, amendment, GALLOPING_SEED, link=None)
    assert forked.at == played["seq"] - 1
    assert forked.inserted == [{"actor": seat, "command": other}]
    first = forked.records[0]
    assert (first["seq"], first["type"], first["actor"]) == (played["seq"], "RaceCardPlayed", seat)
    assert first["payload"]["horse"] == other["horse"]
    # the later commands are the original's after the replaced one, never it again
    tried = forked.replayed + [r["seq"] for r in forked.refused]
    assert sorted(tried) == [b.first for b in later_commands(galloping, played["seq"])]


def test_a_replaced_play_keeps_its_time_in_a_game_in_rounds(blackout):
    sent = next(b for b in fork.batches(blackout) if b.command["type"] == "submit_orders")
    untimed = {k: v for k, v in sent.command.items() if k != "now"}
    amendment = {"kind": "replace", "seq": sent.first, "command": untimed}
    forked = fork.fork(blackout, amendment, BLACKOUT_SEED, link=None)
    assert forked.inserted == [{"actor": sent.actor, "command": sent.command}]
    assert compare.consequences(game.fold(blackout), forked.state) == NO_CONSEQUENCES


def test_a_replaced_play_the_rules_refuse_is_refused_with_their_code(galloping):
    played = of_type(galloping, "RaceCardPlayed")[0]
    amendment = {"kind": "replace", "seq": played["seq"], "command": {"type": "fly"}}
    error = refused(galloping, amendment, GALLOPING_SEED)
    assert error.code == "dispute/amendment_refused" and error.details["rule"]


def test_a_dispute_cannot_be_replaced(galloping):
    disputed = with_dispute(galloping, GALLOPING_SEED)
    command = {"type": "announce", "text": "x"}
    amendment = {"kind": "replace", "seq": len(disputed), "command": command}
    error = refused(disputed, amendment, GALLOPING_SEED)
    assert error.code == "dispute/not_play"


# --- insert ------------------------------------------------------------------------


def test_an_inserted_announcement_changes_nothing_after_it(galloping):
    before = of_type(galloping, "RaceCardPlayed")[10]["seq"]
    command = {"type": "announce", "text": "the red horse was lame"}
    amendment = {"kind": "insert", "before": before, "actor": MODERATOR, "command": command}
    forked = fork.fork(galloping, amendment, GALLOPING_SEED, link=None)
    assert forked.at == before - 1
    assert forked.inserted == [{"actor": MODERATOR, "command": command}]
    assert forked.refused == []
    assert forked.replayed == [b.first for b in later_commands(galloping, forked.at)]
    announced, *rest = forked.records
    assert (announced["seq"], announced["type"]) == (before, "AnnouncementPosted")
    assert announced["payload"] == {"text": "the red horse was lame"}
    # every later event comes again, one seq later, with the same content
    assert [content(r) for r in rest] == [content(e) for e in galloping[forked.at :]]
    assert [r["seq"] for r in rest] == [e["seq"] + 1 for e in galloping[forked.at :]]
    assert compare.consequences(game.fold(galloping), forked.state) == NO_CONSEQUENCES


def test_inserted_default_orders_close_the_round_early_and_change_no_result(blackout):
    number = next(n for n in range(11) if None in counted(blackout, n))
    seat = counted(blackout, number).index(None)
    closed = of_type(blackout, "RoundClosed", round=number)[0]
    assert closed["payload"]["why"] == "deadline"
    sent = {
        "type": "submit_orders",
        "round": number,
        "orders": {"ability": None, "spectate": None, "bets": {}},
    }
    amendment = {"kind": "insert", "before": closed["seq"], "actor": seat, "command": sent}
    forked = fork.fork(blackout, amendment, BLACKOUT_SEED, link=None)
    assert forked.refused == []
    assert len(forked.replayed) == len(later_commands(blackout, forked.at))
    assert (
        of_type(forked.records, "RoundClosed", round=number)[0]["payload"]["why"] == "all_submitted"
    )
    assert counted(forked.records, number)[seat] == forked.at + 1
    assert compare.consequences(game.fold(blackout), forked.state) == NO_CONSEQUENCES


# --- submission --------------------------------------------------------------------


def test_a_changed_spectate_changes_the_seats_points_bets_and_score(blackout):
    moved = of_type(blackout, "HorsesMoved", round=1)[0]["payload"]["positions"]
    counted_seq = counted(blackout, 1)[0]
    sent = blackout[counted_seq - 1]
    old = sent["payload"]["orders"]["spectate"]
    on = {
        space: sorted(h for h, at in moved.items() if at == space) for space in set(moved.values())
    }
    new = max((s for s in on if s != old), key=lambda s: (len(on[s]), s))
    orders = {"ability": None, "spectate": new, "bets": {}}
    amendment = {"kind": "submission", "round": 1, "seat": 0, "orders": orders}
    forked = fork.fork(blackout, amendment, BLACKOUT_SEED, link=None)
    assert forked.at == counted_seq - 1
    assert forked.inserted == [{"actor": 0, "command": {**sent["command"], "orders": orders}}]
    assert of_type(forked.records, "SpaceSeen", round=1, seat=0)[0]["payload"]["horses"] == on[new]
    found = compare.consequences(game.fold(blackout), forked.state)
    changes = {c["path"]: (c["before"], c["after"]) for c in found["changes"]}
    assert changes["state.seats_private.0.judged.1.applied.spectate"] == (old, new)
    before, after = changes["state.seats_private.0.spectator_points"]
    assert after - before == len(on[new]) - len(on.get(old, []))
    row = next(r for r in found["players"] if r["seat"] == 0)
    assert row["score"] == list(changes["outcome.scores.0"])
    # round 2's bets were placed on horses seen in round 1: those not on the new space drop
    bets = blackout[counted(blackout, 2)[0] - 1]["payload"]["orders"]["bets"]
    lost = sorted(h for h in bets if h not in on[new])
    assert lost, "the bots' round-2 bets should depend on round 1's space"
    judged = of_type(forked.records, "OrdersJudged", round=2, seat=0)[0]["payload"]
    assert sorted(d["part"] for d in judged["dropped"] if d["rule"] == "not_on_current_space") == [
        f"bets.{h}" for h in lost
    ]
    assert changes["state.seats_private.0.chips"][1] > changes["state.seats_private.0.chips"][0]


def test_orders_put_in_for_a_seat_that_sent_nothing_are_timed_before_the_deadline(blackout):
    number = next(n for n in range(1, 11) if None in counted(blackout, n))  # round 0 has no spaces
    seat = counted(blackout, number).index(None)
    deadline = of_type(blackout, "RoundOpened", round=number)[0]["payload"]["deadline"]
    orders = {"ability": None, "spectate": 4, "bets": {}}
    amendment = {"kind": "submission", "round": number, "seat": seat, "orders": orders}
    forked = fork.fork(blackout, amendment, BLACKOUT_SEED, link=None)
    closing = of_type(blackout, "RoundClosed", round=number)[0]
    assert forked.at == closing["seq"] - 1  # just before the batch that closed the round
    [put_in] = forked.inserted
    assert put_in["actor"] == seat
    assert put_in["command"]["type"] == "submit_orders" and put_in["command"]["orders"] == orders
    assert put_in["command"]["now"] < deadline
    assert counted(forked.records, number)[seat] == forked.at + 1
    assert forked.refused == []
    found = compare.consequences(game.fold(blackout), forked.state)
    changes = {c["path"]: (c["before"], c["after"]) for c in found["changes"]}
    moved = of_type(blackout, "HorsesMoved", round=number)[0]["payload"]["positions"]
    seen = sorted(h for h, space in moved.items() if space == 4)
    assert changes[f"state.seats_private.{seat}.judged.{number}.applied.spectate"] == (None, 4)
    assert changes[f"state.seats_private.{seat}.seen.{number}"] == (
        None,
        {"space": 4, "horses": seen},
    )
    # one point per horse seen; nothing else in this game turned on that space
    [row] = found["players"]
    assert row["seat"] == seat and row["score"][1] - row["score"][0] == len(seen) > 0
    assert set(changes) == {
        f"outcome.breakdown.{seat}.spectator_points",
        f"outcome.breakdown.{seat}.total",
        f"outcome.scores.{seat}",
        f"state.scores.seats.{seat}.spectator_points",
        f"state.scores.seats.{seat}.total",
        f"state.seats_private.{seat}.judged.{number}.applied.spectate",
        f"state.seats_private.{seat}.seen.{number}",
        f"state.seats_private.{seat}.spectator_points",
        f"state.spectating.{number}.{seat}",
    }


# --- refusals ----------------------------------------------------------------------


def refused(events, amendment, seed):
    with pytest.raises(AmendmentRefused) as caught:
        fork.fork(events, amendment, seed, link=None)
    assert caught.value.status == 422
    return caught.value


@pytest.mark.parametrize("number", [11, 99])
def test_a_round_never_resolved_is_refused(blackout, number):
    amendment = {"kind": "submission", "round": number, "seat": 0, "orders": {}}
    error = refused(blackout, amendment, BLACKOUT_SEED)
    assert (error.code, error.details) == (
        "dispute/round_not_resolved",
        {"field": "amendment.round"},
    )


def test_the_open_round_of_a_game_in_play_is_not_resolved(blackout):
    opened = of_type(blackout, "RoundOpened", round=3)[0]
    in_play = blackout[: opened["seq"]]
    amendment = {"kind": "submission", "round": 3, "seat": 0, "orders": {}}
    assert refused(in_play, amendment, BLACKOUT_SEED).code == "dispute/round_not_resolved"


def test_a_submission_in_a_game_without_rounds_is_refused(galloping):
    amendment = {"kind": "submission", "round": 0, "seat": 0, "orders": {}}
    assert refused(galloping, amendment, GALLOPING_SEED).code == "dispute/round_not_resolved"


@pytest.mark.parametrize("seq", [1, 2, 7])
def test_a_seq_in_the_opening_events_is_no_command(galloping, seq):
    error = refused(galloping, {"kind": "drop", "seq": seq}, GALLOPING_SEED)
    assert (error.code, error.details) == ("dispute/no_such_command", {"field": "amendment.seq"})
    assert "seqs 8-" in error.message


def test_an_insert_must_come_before_a_command_or_at_the_end(galloping):
    inside = of_type(galloping, "HorseMoved")[0]["seq"]  # the second event of a batch
    command = {"type": "announce", "text": "hello"}
    amendment = {"kind": "insert", "before": inside, "actor": MODERATOR, "command": command}
    error = refused(galloping, amendment, GALLOPING_SEED)
    assert (error.code, error.details) == ("dispute/no_such_command", {"field": "amendment.before"})


def test_orders_of_the_wrong_shape_are_refused_with_the_rules_code(blackout):
    amendment = {"kind": "submission", "round": 1, "seat": 0, "orders": {"bets": "lots"}}
    error = refused(blackout, amendment, BLACKOUT_SEED)
    assert error.code == "dispute/amendment_refused"
    assert error.details == {"rule": "orders/invalid", "field": "orders.bets"}


def test_a_command_put_in_after_the_end_is_refused_as_game_over(galloping):
    command = {"type": "announce", "text": "late"}
    amendment = {
        "kind": "insert",
        "before": len(galloping) + 1,
        "actor": MODERATOR,
        "command": command,
    }
    error = refused(galloping, amendment, GALLOPING_SEED)
    assert (error.code, error.details) == ("dispute/amendment_refused", {"rule": "game/over"})


def test_a_play_out_of_turn_cannot_be_put_in(galloping):
    before = of_type(galloping, "RaceCardPlayed")[0]
    seat = (before["payload"]["seat"] + 1) % 4
    command = {"type": "play_card", "horse": "red"}
    amendment = {"kind": "insert", "before": before["seq"], "actor": seat, "command": command}
    error = refused(galloping, amendment, GALLOPING_SEED)
    assert (error.code, error.details["rule"]) == (
        "dispute/amendment_refused",
        "rule/not_your_turn",
    )


@pytest.mark.parametrize(
    "amendment, field",
    [
        (None, "amendment.kind"),
        ({"kind": "replay"}, "amendment.kind"),
        ({"kind": "drop"}, "amendment.seq"),
        ({"kind": "drop", "seq": 9, "why": "x"}, "amendment.why"),
        ({"kind": "drop", "seq": -1}, "amendment.seq"),
        ({"kind": "drop", "seq": "9"}, "amendment.seq"),
        ({"kind": "drop", "seq": True}, "amendment.seq"),
        ({"kind": "submission", "round": 1, "seat": 4, "orders": {}}, "amendment.seat"),
        ({"kind": "submission", "round": 1.5, "seat": 0, "orders": {}}, "amendment.round"),
        ({"kind": "insert", "before": 9, "actor": "referee", "command": {}}, "amendment.actor"),
        ({"kind": "insert", "before": 9, "actor": 7, "command": {"type": "x"}}, "amendment.actor"),
        ({"kind": "insert", "before": 9, "actor": 0, "command": []}, "amendment.command"),
        ({"kind": "insert", "before": 9, "actor": 0, "command": {"type": 1}}, "amendment.command"),
        ({"kind": "replace", "seq": 9}, "amendment.command"),
        ({"kind": "replace", "seq": 9, "command": "play"}, "amendment.command"),
        ({"kind": "replace", "seq": 9, "actor": 0, "command": {"type": "x"}}, "amendment.actor"),
        (
            {
                "kind": "insert",
                "before": 9,
                "actor": MODERATOR,
                "command": {"type": "open_dispute"},
            },
            "amendment.command",
        ),
    ],
)
def test_a_bad_amendment_shape_names_its_field(galloping, amendment, field):
    with pytest.raises(BadRequest) as caught:
        fork.fork(galloping, amendment, GALLOPING_SEED, link=None)
    assert (caught.value.status, caught.value.code) == (400, "command/invalid")
    assert caught.value.details == {"field": field}


def with_dispute(events, seed):
    """The log with an open_dispute recorded after it (records as the engine makes them)."""
    command = {
        "type": "open_dispute",
        "claim": "seat 1 played out of turn",
        "amendment": {"kind": "drop", "seq": of_type(events, "RaceCardPlayed")[1]["seq"]},
    }
    records, _ = game.step(game.fold(events), MODERATOR, command, seed)
    return events + records


def test_a_dispute_is_not_play_and_is_not_carried_into_a_fork(galloping):
    disputed = with_dispute(galloping, GALLOPING_SEED)
    opened = disputed[-1]
    assert opened["type"] == "DisputeOpened" and opened["visibility"] == MODERATOR
    error = refused(disputed, {"kind": "drop", "seq": opened["seq"]}, GALLOPING_SEED)
    assert error.code == "dispute/not_play"
    dropped = of_type(galloping, "RaceCardPlayed")[3]
    forked = fork.fork(disputed, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=None)
    plain = fork.fork(galloping, {"kind": "drop", "seq": dropped["seq"]}, GALLOPING_SEED, link=None)
    assert canonical(forked.records) == canonical(plain.records)
    assert opened["seq"] not in forked.replayed + [r["seq"] for r in forked.refused]


# --- compare -----------------------------------------------------------------------


def test_identical_logs_have_no_difference_and_no_consequences(galloping):
    assert compare.first_difference(galloping, copy.deepcopy(galloping)) is None
    assert compare.consequences(game.fold(galloping), game.fold(galloping)) == NO_CONSEQUENCES


def test_the_envelope_is_not_content(galloping):
    other = copy.deepcopy(galloping)
    other[20]["recorded_at"], other[20]["hash"], other[20]["game_id"] = "x", "y", "z"
    assert compare.first_difference(galloping, other) is None


def test_one_changed_event_is_named_by_seq_and_field(galloping):
    other = copy.deepcopy(galloping)
    moved = of_type(other, "HorseMoved")[4]
    moved["payload"]["to"] += 1
    found = compare.first_difference(galloping, other)
    assert (found["seq"], found["fields"]) == (moved["seq"], ["payload"])
    assert found["a"] == compare.brief(galloping[moved["seq"] - 1])
    assert found["b"]["payload"]["to"] == galloping[moved["seq"] - 1]["payload"]["to"] + 1
    moved["actor"], moved["command"] = 2, {"type": "play_card", "horse": "red"}
    fields = compare.first_difference(galloping, other)["fields"]
    assert fields == ["actor", "payload", "command"]


def test_a_log_that_is_a_prefix_of_another(galloping):
    short = galloping[:30]
    assert compare.first_difference(galloping, short) == {
        "seq": 31,
        "fields": [],
        "a": compare.brief(galloping[30]),
        "b": None,
    }
    assert compare.first_difference(short, galloping) == {
        "seq": 31,
        "fields": [],
        "a": None,
        "b": compare.brief(galloping[30]),
    }


def test_consequences_name_each_changed_score_rank_and_winner(galloping):
    before = game.fold(galloping)
    after = copy.deepcopy(before)
    outcome = before["outcome"]
    loser = max(range(4), key=lambda s: (outcome["ranks"][s], s))
    scores = list(outcome["scores"])
    scores[loser] = max(scores) + 1
    after["outcome"] = ranked(scores)
    found = compare.consequences(before, after)
    assert found["status"] is None
    assert found["winners"] == [
        [before["players"][s] for s in outcome["winners"]],
        [before["players"][loser]],
    ]
    rows = {r["seat"]: r for r in found["players"]}
    assert rows[loser]["score"] == [outcome["scores"][loser], max(outcome["scores"]) + 1]
    assert rows[loser]["rank"] == [outcome["ranks"][loser], 1]
    assert rows[loser]["winner"] == [False, True]
    for seat in outcome["winners"]:
        assert rows[seat]["winner"] == [True, False] and "score" not in rows[seat]
    assert {
        "path": f"outcome.scores.{loser}",
        "before": outcome["scores"][loser],
        "after": scores[loser],
    } in found["changes"]


def test_consequences_of_an_unfinished_state_against_the_end(galloping):
    middle, end = game.fold(galloping[:60]), game.fold(galloping)
    found = compare.consequences(middle, end)
    assert found["status"] == ["active", "finished"]
    assert found["winners"] == [[], [end["players"][s] for s in end["outcome"]["winners"]]]
    assert {r["seat"] for r in found["players"]} == {0, 1, 2, 3}
    assert all(r["score"][0] is None for r in found["players"])
    assert all("seed" not in c["path"] for c in found["changes"])
