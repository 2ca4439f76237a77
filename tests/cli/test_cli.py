"""The referee command: bot-play writes logs that replay verify accepts, and flips it names."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("logs")
    result = CliRunner().invoke(
        main, ["bot-play", "galloping-horse", "--games", "3", "--seed", "9", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return sorted(out.glob("*.jsonl"))


def test_bot_play_writes_one_log_per_game(logs):
    assert [p.name for p in logs] == [f"galloping-horse-9-{i}.jsonl" for i in range(3)]
    last = json.loads(logs[0].read_text().splitlines()[-1])
    assert last["type"] == "SeedRevealed" and last["payload"]["seed"] == "9/0"


def test_bot_play_is_byte_identical_for_the_same_seed(logs, tmp_path):
    CliRunner().invoke(
        main, ["bot-play", "galloping-horse", "--games", "1", "--seed", "9", "--out", str(tmp_path)]
    )
    assert (tmp_path / logs[0].name).read_bytes() == logs[0].read_bytes()


def test_verify_accepts_untouched_logs(logs):
    result = CliRunner().invoke(main, ["replay", "verify", *map(str, logs)])
    assert result.exit_code == 0
    assert "3 valid, 0 partial, 0 invalid" in result.output


def test_verify_names_the_seq_of_a_flipped_byte(logs, tmp_path):
    lines = logs[1].read_bytes().split(b"\n")
    lines[41] = lines[41].replace(b'"seq":42', b'"seq":43')
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\n".join(lines))
    result = CliRunner().invoke(main, ["replay", "verify", str(logs[0]), str(damaged)])
    assert result.exit_code == 1
    assert "INVALID" in result.output and "seq 42 [" in result.output
    assert "1 valid, 0 partial, 1 invalid" in result.output


def test_show_gives_a_seats_view_at_a_seq(logs):
    result = CliRunner().invoke(main, ["replay", "show", str(logs[0]), "--at", "7", "--seat", "1"])
    view = json.loads(result.output)
    assert view["version"] == 7 and sum(view["state"]["hand"].values()) == 7
    assert "hands" not in view["state"]


def test_show_without_a_seat_is_the_moderators_view(logs):
    result = CliRunner().invoke(main, ["replay", "show", str(logs[0])])
    view = json.loads(result.output)
    assert view["status"] == "finished" and view["seed"] == "9/0"


def test_unknown_ruleset_and_bad_options_are_clear_errors(tmp_path):
    unknown = CliRunner().invoke(main, ["bot-play", "no-such-game", "--out", str(tmp_path)])
    assert unknown.exit_code != 0 and "unknown ruleset" in unknown.output
    bad = CliRunner().invoke(
        main, ["bot-play", "galloping-horse", "--options", "[1]", "--out", str(tmp_path)]
    )
    assert bad.exit_code != 0 and "--options" in bad.output


def test_show_past_the_end_is_refused(logs):
    result = CliRunner().invoke(main, ["replay", "show", str(logs[0]), "--at", "100000"])
    assert result.exit_code != 0 and "no seq 100000" in result.output


def test_bot_play_seats_blackout_middle_at_nine_by_default(tmp_path):
    done = CliRunner().invoke(
        main,
        ["bot-play", "blackout-middle", "--games", "1", "--seed", "nine", "--out", str(tmp_path)],
    )
    assert done.exit_code == 0, done.output
    (log,) = tmp_path.glob("*.jsonl")
    first = json.loads(log.read_bytes().splitlines()[0])
    assert len(first["payload"]["players"]) == 9


def test_replay_verify_takes_a_directory_and_tallies_it_by_ruleset(tmp_path):
    corpus = Path(__file__).resolve().parents[2] / "replays" / "corpus"
    logs = tmp_path / "logs"
    for source in corpus.rglob("*.jsonl"):
        (logs / source.parent.name).mkdir(parents=True, exist_ok=True)
        (logs / source.parent.name / source.name).write_bytes(source.read_bytes())
    damaged = sorted((logs / "blackout-middle").glob("*.jsonl"))[0]
    lines = damaged.read_bytes().splitlines(keepends=True)
    lines[40] = lines[40].replace(b'"seq":41', b'"seq":42')
    damaged.write_bytes(b"".join(lines))
    done = CliRunner().invoke(main, ["replay", "verify", str(logs)])
    assert done.exit_code == 1
    assert f"INVALID {damaged}: seq 41 [" in done.output
    total = len(list(corpus.rglob("*.jsonl")))
    assert f"{total - 1} valid, 0 partial, 1 invalid" in done.output
    assert "blackout-middle" in done.output and "galloping-horse" in done.output
    assert "ok      " not in done.output  # a directory's valid logs are tallied, not listed


def test_replay_show_a_round_as_a_seat_saw_it_after_its_resolution():
    corpus = Path(__file__).resolve().parents[2] / "replays" / "corpus" / "blackout-middle"
    log = sorted(corpus.glob("*.jsonl"))[0]
    done = CliRunner().invoke(main, ["replay", "show", str(log), "--round", "3", "--seat", "0"])
    assert done.exit_code == 0, done.output
    shown = json.loads(done.output)
    assert shown["round"]["open"]["round"] == 4 and shown["state"]["round"] == 4
    assert {"movements", "positions"}.isdisjoint(shown["state"])  # the seat's view, not all
    moderator = CliRunner().invoke(main, ["replay", "show", str(log), "--round", "3"])
    assert {"movements", "positions"} <= set(json.loads(moderator.output)["state"])
    events = [json.loads(line) for line in log.read_bytes().splitlines()]
    counted = next(
        e["seq"] for e in events if e["type"] == "OrdersCounted" and e["payload"]["round"] == 3
    )
    assert counted < shown["version"] and events[shown["version"]]["command"] is not None
    missing = CliRunner().invoke(main, ["replay", "show", str(log), "--round", "11"])
    assert missing.exit_code != 0 and "round 11 is not resolved" in missing.output
    both = CliRunner().invoke(main, ["replay", "show", str(log), "--round", "1", "--at", "3"])
    assert both.exit_code != 0 and "not both" in both.output


@pytest.mark.parametrize(
    ("host", "shown"),
    [
        ("127.0.0.1", "http://127.0.0.1:5000/"),
        ("0.0.0.0", "http://127.0.0.1:5000/"),
        ("::", "http://[::1]:5000/"),
        ("fe80::1", "http://[fe80::1]:5000/"),
        ("referee.example", "http://referee.example:5000/"),
    ],
)
def test_serve_names_the_home_page_a_browser_on_this_machine_opens(host, shown):
    from referee.cli import site_address

    assert site_address(host, 5000) == shown
