"""The replay theatre's pages over the real app: a public game stepped through as any
viewer; an uploaded log checked (a damaged one opens at its first bad event); receipts
checked on the page; an upload imported; a dispute's fork side by side."""

import html
import io
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.canonical import canonical
from referee.service import receipt
from replays.log import parse, read
from replays.tamper import damages

CORPUS = Path(__file__).resolve().parents[2] / "replays" / "corpus"
ROYAL = CORPUS / "royal-turf" / "royal-turf-corpus-hidden-3p-0.jsonl"
BLACKOUT = CORPUS / "blackout-middle" / "blackout-middle-corpus-4-0.jsonl"


def imported(client, log: Path) -> str:
    answer = client.post(
        "/games/import", data=log.read_bytes(), content_type="application/x-ndjson"
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["game_id"]


def token(client) -> str:
    page = client.get("/replay").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def uploaded(client, data: bytes):
    sent = {"csrf_token": token(client), "log": (io.BytesIO(data), "game.jsonl")}
    return client.post("/replay", data=sent, content_type="multipart/form-data")


def scene_at(page: str) -> int:
    return int(re.search(r'id="scene" data-at="(\d+)"', page).group(1))


def checks(page: str) -> dict[str, str]:
    return dict((k, v) for v, k in re.findall(r'<li class="check (\w+)" data-check="(\w+)"', page))


def test_a_finished_games_replay_opens_at_its_end_and_every_check_passes(client):
    game_id = imported(client, ROYAL)
    answer = client.get(f"/replay/{game_id}")
    page = answer.get_data(as_text=True)
    events = read(str(ROYAL))
    assert answer.status_code == 200 and scene_at(page) == len(events)
    assert "The log is valid" in page
    assert checks(page) == dict.fromkeys(
        ["chain", "times", "seed", "seals", "state_hashes", "rules", "outcome"], "passed"
    )
    assert 'data-key="ArrowLeft"' in page and 'data-key="End"' not in page  # at the end


def test_every_step_shows_the_board_the_event_and_what_it_changed(client):
    game_id = imported(client, ROYAL)
    events = read(str(ROYAL))
    rolled = next(e for e in events if e["type"] == "DieRolled")
    part = client.get(f"/replay/{game_id}/part?at={rolled['seq']}&as=public")
    shown = part.get_data(as_text=True)
    assert part.status_code == 200 and scene_at(shown) == rolled["seq"]
    assert "<svg" in shown and f"Event {rolled['seq']}: DieRolled" in shown
    assert "What this step changed" in shown and "<td>" in shown
    assert "Random draws in this move" in shown
    steps = dict(re.findall(r'data-key="([^"]+)" href="[^"]*\?at=(\d+)', html.unescape(shown)))
    assert steps["ArrowLeft"] == str(rolled["seq"] - 1)
    assert steps["ArrowRight"] == str(rolled["seq"] + 1)
    assert steps["Home"] == "1" and steps["End"] == str(len(events))
    assert int(steps["PageDown"]) > rolled["seq"]  # the next race


@pytest.mark.parametrize("at", ["0", "-3", "x", "99999999", "123456789012345"])
def test_a_point_outside_the_log_shows_the_nearest_end(client, at):
    game_id = imported(client, ROYAL)
    page = client.get(f"/replay/{game_id}?at={at}").get_data(as_text=True)
    assert scene_at(page) in (1, len(read(str(ROYAL))))


def test_the_public_replay_before_the_end_hides_a_sealed_chip_that_its_seat_saw(client):
    """Hidden Bets: a seat's sealed bet, as the public, another seat, the seat itself and
    the moderator (everything) had it then."""
    game_id = imported(client, ROYAL)
    events = read(str(ROYAL))
    sealed = next(e for e in events if e["type"] == "OrdersSubmitted")
    seat, at = sealed["actor"], sealed["seq"]

    def shown(eyes: str) -> str:
        return client.get(f"/replay/{game_id}/part?at={at}&as={eyes}").get_data(as_text=True)

    for hidden in ("public", f"seat-{(seat + 1) % 3}"):
        assert "A private event" in shown(hidden)
    for seeing in (f"seat-{seat}", "all"):
        assert "A private event" not in shown(seeing) and f"Event {at}: OrdersSubmitted" in shown(
            seeing
        )


def test_an_active_games_replay_is_not_open_yet(client, http_game):
    answer = client.get(f"/replay/{http_game.game_id}")
    assert answer.status_code == 403 and "opens when the game is over" in answer.get_data(
        as_text=True
    )
    assert client.get("/replay/0123456789abcdef").status_code == 404


def test_a_damaged_upload_opens_at_its_first_bad_event_with_the_reason(client):
    events = read(str(BLACKOUT))
    for damage in [d for d in damages(events) if d.expected_code == "rules/derived"][:2] + [
        d for d in damages(events) if d.expected_code == "seal/commitment"
    ][:1]:
        answer = uploaded(client, damage.log)
        assert answer.status_code == 303
        assert answer.headers["Location"].endswith(f"?at={damage.expected_seq}&as=all")
        page = client.get(answer.headers["Location"]).get_data(as_text=True)
        assert "The log is not valid" in page
        assert f"<strong>seq {damage.expected_seq}</strong>" in page
        assert f"({damage.expected_code})" in page
        assert "failed" in checks(page).values()
        assert scene_at(page) == min(damage.expected_seq, scene_at(page))


def test_an_upload_that_is_not_a_log_is_named_and_an_empty_one_refused(client):
    answer = uploaded(client, b'{"seq": 1}\nnot json\n')
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "The log is not valid" in page and "log/unreadable" in page
    empty = uploaded(client, b"")
    assert empty.status_code == 400 and "Choose a .jsonl log file" in empty.get_data(as_text=True)


def test_an_upload_larger_than_an_import_is_refused(app, client):
    app.config["IMPORT_MAX_BYTES"] = 2000
    answer = uploaded(client, BLACKOUT.read_bytes())
    assert answer.status_code == 413 and "larger than this host takes" in answer.get_data(
        as_text=True
    )


def test_an_uploaded_log_is_imported_as_a_game_only_when_asked(app, client):
    answer = uploaded(client, ROYAL.read_bytes())
    where = answer.headers["Location"]
    assert "Import this game" in client.get(where).get_data(as_text=True)
    game_id = read(str(ROYAL))[0]["game_id"]
    assert client.get(f"/games/{game_id}").status_code == 404  # checked and shown, not stored
    made = client.post(f"{where}/import", data={"csrf_token": token(client)})
    assert made.status_code == 200 and "/join/" in made.get_data(as_text=True)
    assert client.get(f"/games/{game_id}").status_code == 200
    stored = app.extensions["referee"].store.log_lines(game_id)
    assert stored == ROYAL.read_bytes()
    again = client.post(f"{where}/import", data={"csrf_token": token(client)})
    assert again.status_code == 409


def test_a_receipt_is_checked_against_the_log_on_the_page(client):
    events = read(str(BLACKOUT))
    given = [receipt(e) for e in events if e["type"] == "OrdersCommitted"]
    whole = uploaded(client, BLACKOUT.read_bytes()).headers["Location"].split("?")[0]
    held = client.post(
        f"{whole}/receipt",
        data={"csrf_token": token(client), "receipt": canonical(given[-1]).decode()},
    )
    assert f"Receipt seq {given[-1]['seq']}: held." in held.get_data(as_text=True)
    cut = b"".join(BLACKOUT.read_bytes().splitlines(keepends=True)[: given[-1]["seq"] - 1])
    short = uploaded(client, cut).headers["Location"].split("?")[0]
    refused = client.post(
        f"{short}/receipt",
        data={"csrf_token": token(client), "receipt": canonical(given[-1]).decode()},
    )
    text = refused.get_data(as_text=True)
    assert f"Receipt seq {given[-1]['seq']}: NOT held." in text and "cut short" in text
    bad = client.post(
        f"{whole}/receipt", data={"csrf_token": token(client), "receipt": '{"seq": 3}'}
    )
    assert bad.status_code == 400 and "commitment: missing" in bad.get_data(as_text=True)


def test_a_forks_dispute_shows_both_games_side_by_side(client, app, http_game):
    from disputed import amended_and_finished

    original, fork_id, dropped = amended_and_finished(client, app, http_game)
    page = client.get(f"/replay/{original}/disputes").get_data(as_text=True)
    assert "The original" in page and "The fork" in page and "the card was never played" in page
    assert f'href="/replay/{fork_id}?at=' in page
    assert page.count('class="differs"') >= 1  # the original never ended: every row differs
    assert 'class="amended"' in page and f">{dropped}</a>" in page
    assert (
        client.get(f"/replay/{fork_id}/disputes")
        .headers["Location"]
        .endswith(f"/replay/{original}/disputes")
    )
    assert "Disputes side by side" in client.get(f"/replay/{original}").get_data(as_text=True)
    assert parse(client.get(f"/games/{original}/log").get_data())  # public once the fork ended


def test_a_ruled_dispute_links_its_sides_from_the_game_page_and_the_replay(client, app, http_game):
    from disputed import amended_and_finished

    original, fork_id, _ = amended_and_finished(client, app, http_game)
    page = client.get(f"/g/{fork_id}/watch").get_data(as_text=True)
    assert f'href="/replay/{fork_id}/disputes"' in page
    forked = app.extensions["referee"].store.events(fork_id)
    link = next(e["seq"] for e in forked if e["type"] == "GameForked")
    shown = client.get(f"/replay/{fork_id}/part?at={link}").get_data(as_text=True)
    assert f'href="/replay/{fork_id}/disputes">(side by side)</a>' in shown


FUZZ_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["-1", "0", "99999999999999999999", "seat-", "seat-9", "all", "[" * 3000]),
)
FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def once_imported(app, client) -> str:
    """The game the fuzz tests step through, imported once per test."""
    if "fuzzed" not in app.extensions:
        app.extensions["fuzzed"] = imported(client, ROYAL)
    return app.extensions["fuzzed"]


@FUZZ
@given(at=FUZZ_TEXT, eyes=FUZZ_TEXT)
def test_any_point_or_viewer_asked_for_is_answered_without_a_server_error(app, client, at, eyes):
    game_id = once_imported(app, client)
    answer = client.get(f"/replay/{game_id}/part", query_string={"at": at, "as": eyes})
    assert answer.status_code == 200
    assert 1 <= scene_at(answer.get_data(as_text=True)) <= len(read(str(ROYAL)))


@FUZZ
@given(text=FUZZ_TEXT, data=st.binary(max_size=300))
def test_any_receipt_or_upload_is_answered_without_a_server_error(app, client, text, data):
    game_id = once_imported(app, client)
    checked = client.post(
        f"/replay/{game_id}/receipt", data={"csrf_token": token(client), "receipt": text}
    )
    assert checked.status_code in (200, 400)
    assert uploaded(client, data).status_code in (303, 400)


def test_an_upload_of_more_events_than_an_import_takes_is_refused(app, client):
    app.config["IMPORT_MAX_EVENTS"] = 100
    answer = uploaded(client, BLACKOUT.read_bytes())
    assert answer.status_code == 400
    assert "more events than this host takes (100)" in answer.get_data(as_text=True)


def test_uploads_are_rate_limited_as_imports_are(tmp_path):
    from referee.app import create_app

    app = create_app(
        {
            "REFEREE_DB": str(tmp_path / "limited.db"),
            "RATE_LIMITS": True,
            "RATE_LIMIT_IMPORT": "2 per minute",
        }
    )
    client = app.test_client()
    answers = [uploaded(client, ROYAL.read_bytes()).status_code for _ in range(3)]
    assert answers == [303, 303, 429]


def test_a_damage_of_every_kind_is_shown_without_a_server_error(client):
    """One damaged log of each kind the tamper corpus makes: its page, its first event
    and a point past its end answer, whatever the damage did to the rules' fold."""
    events = read(str(ROYAL))
    kinds = {}
    for damage in damages(events):
        kinds.setdefault(damage.kind, damage)
    assert len(kinds) > 20
    for damage in kinds.values():
        where = uploaded(client, damage.log).headers["Location"].split("?")[0]
        assert client.get(where).status_code == 200, damage.kind
        assert client.get(f"{where}/part?at=1&as=seat-1").status_code in (200, 404), damage.kind
        assert client.get(f"{where}/part?at=99999").status_code in (200, 404), damage.kind


@pytest.mark.parametrize(
    "line",
    [b'{"pad": 1}', b'{"seq": "2", "type": ["x"], "actor": {"seat": 1}}', b'{"seq": null}'],
)
def test_an_upload_whose_later_lines_are_not_events_is_shown_without_a_server_error(client, line):
    first = ROYAL.read_bytes().split(b"\n", 1)[0]
    where = uploaded(client, first + b"\n" + line + b"\n").headers["Location"]
    assert client.get(where).status_code == 200
    assert client.get(where.split("?")[0] + "/part?at=2").status_code in (200, 404)


def test_an_upload_no_longer_kept_is_said_to_be_gone_and_imports_nothing(app, client):
    where = uploaded(client, ROYAL.read_bytes()).headers["Location"]
    store = app.extensions["referee"].store
    with store.transaction() as conn:
        conn.execute("DELETE FROM uploads")
    app.extensions.pop("replay_stage", None)  # a process that never held it
    gone = client.get(where)
    assert gone.status_code == 404 and "no longer kept" in gone.get_data(as_text=True)
    made = client.post(f"{where}/import", data={"csrf_token": token(client)})
    assert made.status_code == 404
    assert client.get(f"/games/{read(str(ROYAL))[0]['game_id']}").status_code == 404
