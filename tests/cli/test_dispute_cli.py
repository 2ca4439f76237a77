"""`referee dispute` and `referee replay diff` on corpus logs and bot logs."""

import json
from pathlib import Path

import pytest
from command_line import ok, run

from referee.engine.events import MODERATOR
from replays.log import dumps, read

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
GALLOPING = CORPUS / "galloping-horse" / "galloping-horse-corpus-0.jsonl"
BLACKOUT = CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl"
CONTENT = ("seq", "type", "actor", "visibility", "payload", "command", "salt", "state_hash")


def plays(events) -> list[dict]:
    return [e for e in events if e["type"] == "RaceCardPlayed"]


@pytest.fixture(scope="module")
def galloping():
    return read(GALLOPING)


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bots")
    ok("bot-play", "galloping-horse", "--games", "1", "--seed", "cli-dispute", "--out", out)
    [log] = out.glob("*.jsonl")
    return log


# --- referee dispute -------------------------------------------------------------------


def test_dropping_a_play_prints_the_fork_point_refusals_and_consequences(galloping):
    dropped = plays(galloping)[2]
    text = ok("dispute", GALLOPING, "--drop-event", dropped["seq"])
    report = json.loads(ok("dispute", GALLOPING, "--drop-event", dropped["seq"], "--json"))
    at = dropped["seq"] - 1
    assert report["fork"]["at"] == at
    assert report["fork"]["after"] == {"seq": at, "type": galloping[at - 1]["type"]}
    assert report["fork"]["inserted"] == []
    lines = text.splitlines()
    assert lines[0] == f"Forked after seq {at} ({galloping[at - 1]['type']})."
    refused = report["fork"]["refused"]
    assert refused[0]["code"] == "rule/not_your_turn"
    assert lines[1] == (
        f"Replayed {report['fork']['replayed']} later commands; the rules refused {len(refused)}."
    )
    for row in refused:
        name = galloping[0]["payload"]["players"][row["actor"]]
        assert (
            f"  refused: seq {row['seq']} seat {row['actor'] + 1} ({name}) play_card: "
            f"{row['code']}: {row['message']}"
        ) in lines
    found = report["consequences"]
    assert found["status"] == ["finished", "active"]
    assert "  status: finished -> active" in lines
    for row in found["players"]:
        assert any(line.startswith(f"  seat {row['seat'] + 1} ({row['name']}): ") for line in lines)
    for change in found["changes"]:
        assert any(line.startswith(f"  {change['path']}: ") for line in lines)


def test_the_fork_written_out_verifies_and_shares_the_first_events(galloping, tmp_path):
    dropped = plays(galloping)[2]
    out = tmp_path / "fork.jsonl"
    ok("dispute", GALLOPING, "--drop-event", dropped["seq"], "--out", out)
    forked = read(out)
    at = dropped["seq"] - 1
    assert [[e[k] for k in CONTENT] for e in forked[:at]] == [
        [e[k] for k in CONTENT] for e in galloping[:at]
    ]
    assert [e["recorded_at"] for e in forked[:at]] == [e["recorded_at"] for e in galloping[:at]]
    assert {e["game_id"] for e in forked} == {f"{galloping[0]['game_id']}-fork"}
    assert forked[at]["type"] == "GameForked"
    assert forked[at]["payload"]["at_hash"] == galloping[at - 1]["hash"]
    verified = run("replay", "verify", out)
    assert verified.exit_code == 0, verified.output
    assert "1 valid, 0 partial, 0 invalid" in verified.output


def test_a_submission_in_blackout_middle(tmp_path):
    events = read(BLACKOUT)
    counted = next(e for e in events if e["type"] == "OrdersCounted" and e["payload"]["round"] == 1)
    orders = {"ability": None, "spectate": 3, "bets": {}}
    args = ["dispute", BLACKOUT, "--round", 1, "--seat", 2, "--submission", json.dumps(orders)]
    report = json.loads(ok(*args, "--json"))
    sent = events[counted["payload"]["seats"][2] - 1]
    assert report["fork"]["at"] == sent["seq"] - 1
    [put_in] = report["fork"]["inserted"]
    assert put_in == {"actor": 2, "command": {**sent["command"], "orders": orders}}
    changes = {c["path"]: c for c in report["consequences"]["changes"]}
    assert changes["state.seats_private.2.judged.1.applied.spectate"]["after"] == 3
    text = ok(*args, "--out", tmp_path / "fork.jsonl")
    sent_text = (
        '{"orders":{"ability":null,"bets":{},"spectate":3},"round":1,"type":"submit_orders"}'
    )
    assert f"Put in: seat 3 (bot2) {sent_text}" in text.splitlines()  # without its time
    assert "  state.seats_private.2.judged.1.applied.spectate: " in text
    assert run("replay", "verify", tmp_path / "fork.jsonl").exit_code == 0


def test_an_inserted_announcement_changes_nothing(galloping):
    before = plays(galloping)[6]["seq"]
    command = json.dumps({"type": "announce", "text": "a horse is lame"})
    args = ["dispute", GALLOPING, "--insert-command", command, "--actor", MODERATOR]
    text = ok(*args, "--before", before)
    lines = text.splitlines()
    assert lines[0] == f"Forked after seq {before - 1} ({galloping[before - 2]['type']})."
    assert lines[1] == 'Put in: moderator {"text":"a horse is lame","type":"announce"}'
    later = sum(1 for e in galloping[before - 1 :] if e["command"] is not None)
    assert lines[2] == f"Replayed {later} later commands; the rules refused 0."
    assert lines[3:] == [
        "The fork stands with the game finished.",
        "No consequences: the game comes out the same.",
    ]
    # at the end (the default place) of a finished game, the rules take nothing more
    late = run(*args)
    assert late.exit_code == 1
    assert "dispute/amendment_refused" in late.output and "finished" in late.output


def test_a_seat_inserts_a_play(galloping):
    first = plays(galloping)[0]
    seat, horse = first["payload"]["seat"], first["payload"]["horse"]
    command = json.dumps({"type": "play_card", "horse": horse})
    args = ["dispute", GALLOPING, "--insert-command", command, "--actor", seat]
    report = json.loads(ok(*args, "--before", first["seq"], "--json"))
    assert report["fork"]["inserted"] == [
        {"actor": seat, "command": {"type": "play_card", "horse": horse}}
    ]
    # the same play twice in a row: the seat's recorded play comes out of turn
    assert report["fork"]["refused"][0]["seq"] == first["seq"]
    assert report["fork"]["refused"][0]["code"] == "rule/not_your_turn"


def test_a_play_replaced_by_another_card(galloping):
    played = plays(galloping)[4]
    seat, horse = played["payload"]["seat"], played["payload"]["horse"]
    other = next(h for h in ("red", "blue", "green", "yellow") if h != horse)
    command = json.dumps({"type": "play_card", "horse": other})
    args = ["dispute", GALLOPING, "--replace-event", played["seq"], "--command", command]
    text = ok(*args)
    assert text.splitlines()[1] == f'Put in: seat {seat + 1} (bot{seat}) {{"horse":"{other}",' + (
        '"type":"play_card"}'
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--drop-event", "9", "--insert-command", "{}", "--actor", "0"], "give one of"),
        ([], "give one of"),
        (["--submission", "{}"], "--submission goes with --round and --seat"),
        (["--submission", "{}", "--round", "1"], "--submission goes with --round and --seat"),
        (["--submission", "{not json"], "not JSON"),
        (["--insert-command", "[1,"], "not JSON"),
        (["--insert-command", '{"type": "announce", "text": "x"}'], "needs --actor"),
        (["--drop-event", "0"], "--drop-event"),
        (["--drop-event", "9", "--actor", "1"], "go with --insert-command"),
        (["--drop-event", "9", "--before", "12"], "go with --insert-command"),
        (["--replace-event", "9"], "--replace-event goes with --command"),
        (["--drop-event", "9", "--command", "{}"], "--replace-event goes with --command"),
    ],
)
def test_usage_errors(args, message):
    result = run("dispute", GALLOPING, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_an_amendment_the_log_cannot_take_is_a_clean_error(tmp_path):
    result = run("dispute", GALLOPING, "--drop-event", 3, "--out", tmp_path / "fork.jsonl")
    assert result.exit_code == 1
    assert "dispute/no_such_command" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "fork.jsonl").exists()
    result = run("dispute", GALLOPING, "--round", 2, "--seat", 7, "--submission", "{}")
    assert result.exit_code == 1 and "there is no seat 7" in result.output


def test_a_tampered_log_is_refused_before_forking(galloping, tmp_path):
    damaged = tmp_path / "damaged.jsonl"
    lines = GALLOPING.read_bytes().split(b"\n")
    lines[30] = lines[30].replace(b'"seq":31', b'"seq":32')
    damaged.write_bytes(b"\n".join(lines))
    result = run("dispute", damaged, "--drop-event", plays(galloping)[2]["seq"])
    assert result.exit_code == 1
    assert "is invalid: seq 31 [" in result.output and "Forked" not in result.output
    unreadable = tmp_path / "unreadable.jsonl"
    unreadable.write_bytes(b"{}\nnot json\n")
    result = run("dispute", unreadable, "--drop-event", 8)
    assert result.exit_code == 1 and "line 2 is not valid JSON" in result.output


def test_a_game_in_play_needs_its_seed(bot_log, tmp_path):
    events = read(bot_log)
    in_play = tmp_path / "in-play.jsonl"
    in_play.write_bytes(dumps(events[:60]))
    dropped = plays(events)[4]["seq"]
    result = run("dispute", in_play, "--drop-event", dropped)
    assert result.exit_code == 1 and "give it with --seed" in result.output
    wrong = run("dispute", in_play, "--drop-event", dropped, "--seed", "guess")
    assert wrong.exit_code == 1 and "seed/commitment" in wrong.output
    seed = events[-1]["payload"]["seed"]
    report = json.loads(ok("dispute", in_play, "--drop-event", dropped, "--seed", seed, "--json"))
    assert report["fork"]["at"] == dropped - 1
    assert report["consequences"]["status"] is None  # both still in play


# --- referee replay diff ---------------------------------------------------------------


def test_a_log_agrees_with_itself(galloping, bot_log):
    text = ok("replay", "diff", GALLOPING, GALLOPING)
    assert text.splitlines() == [
        "The logs agree event for event.",
        "No consequences: the game comes out the same.",
    ]
    found = json.loads(ok("replay", "diff", GALLOPING, GALLOPING, "--json"))
    assert found["first_difference"] is None
    assert found["consequences"] == {"status": None, "players": [], "winners": None, "changes": []}
    other = ok("replay", "diff", GALLOPING, bot_log)
    assert "First difference at seq 1 (payload):" in other
    assert "different tables" not in other  # same ruleset, version and players


def test_a_log_and_its_fork_part_at_the_fork(galloping, tmp_path):
    fork = tmp_path / "fork.jsonl"
    dropped = plays(galloping)[2]["seq"]
    ok("dispute", GALLOPING, "--drop-event", dropped, "--out", fork)
    found = json.loads(ok("replay", "diff", GALLOPING, fork, "--json"))
    first = found["first_difference"]
    assert first["seq"] == dropped
    assert first["a"]["type"] == "RaceCardPlayed" and first["b"]["type"] == "GameForked"
    assert "type" in first["fields"] and "payload" in first["fields"]
    assert found["consequences"]["status"] == ["finished", "active"]
    text = ok("replay", "diff", GALLOPING, fork)
    assert f"First difference at seq {dropped} (" in text
    assert f"  {GALLOPING}: RaceCardPlayed by " in text
    assert f"  {fork}: GameForked by referee " in text
    assert "  status: finished -> active" in text
    shorter = tmp_path / "shorter.jsonl"
    shorter.write_bytes(dumps(galloping[:50]))
    text = ok("replay", "diff", GALLOPING, shorter)
    assert "First difference at seq 51 (one log ends):" in text
    assert f"  {shorter}: (no event: the log ends here)" in text


def test_logs_of_different_tables_are_not_compared(galloping, tmp_path):
    text = ok("replay", "diff", GALLOPING, BLACKOUT)
    assert text.splitlines()[-1] == "The logs are of different tables: outcomes not compared."
    assert json.loads(ok("replay", "diff", GALLOPING, BLACKOUT, "--json"))["consequences"] is None
