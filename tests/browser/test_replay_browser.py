"""The replay theatre in a real browser: a corpus log of every ruleset scrubbed end to end
from the keyboard, a tampered upload opened at its first bad event, a seat's receipt from
its own page checked against the log and against a log cut short, and a dispute's fork
side by side."""

import json
import re
from pathlib import Path

from browsing import People, shoot
from playwright.sync_api import Page, expect
from served import ROOT

from replays.log import read
from replays.tamper import damages

CORPUS = ROOT / "replays" / "corpus"
SCRUBBED = [
    CORPUS / "dark-horse" / "dark-horse-corpus-2-0.jsonl",
    CORPUS / "dark-horse-west" / "dark-horse-west-scenario-dispute-kept.jsonl",
    CORPUS / "galloping-horse" / "galloping-horse-scenario-food-runs-out.jsonl",
    CORPUS / "blackout-middle" / "blackout-middle-scenario-trades.jsonl",
    CORPUS / "royal-turf" / "royal-turf-scenario-richest-tie.jsonl",
]


def imported(site, log: Path) -> dict:
    """The log imported into the shared site (or its id, if a test before stored it)."""
    status, made = site.call("POST", "/games/import", body={"log": log.read_text("utf-8")})
    if status == 409:
        return {"game_id": read(str(log))[0]["game_id"]}
    assert status == 201, made
    return made


def at(page: Page) -> int:
    return int(page.locator("#scene").get_attribute("data-at"))


def press(page: Page, key: str) -> int:
    """Press a step's key; wait until the scene is the one its link names."""
    link = page.locator(f'#scene a[data-key="{key}"]')
    target = int(re.search(r"at=(\d+)", link.get_attribute("href")).group(1))
    page.keyboard.press(key)
    expect(page.locator("#scene")).to_have_attribute("data-at", str(target))
    return target


def can(page: Page, key: str) -> bool:
    return page.locator(f'#scene a[data-key="{key}"]').count() == 1


def test_a_corpus_log_of_every_ruleset_is_scrubbed_end_to_end_by_keyboard(people: People, site):
    for log in SCRUBBED:
        events = read(str(log))
        made = imported(site, log)
        page = people.open(f"/replay/{made['game_id']}?at=1")
        expect(page.locator("#verdict")).to_contain_text("The log is valid")
        page.locator("#theatre").focus()
        assert press(page, "ArrowRight") == 2 and press(page, "ArrowLeft") == 1
        while can(page, "PageDown"):  # round by round, race by race
            press(page, "PageDown")
        while can(page, "Shift+ArrowRight"):  # then move by move
            press(page, "Shift+ArrowRight")
        while can(page, "ArrowRight"):  # and the last move event by event
            press(page, "ArrowRight")
        assert at(page) == len(events)
        expect(page.locator("#scene .status-line")).to_contain_text("The game is")
        assert press(page, "Home") == 1 and press(page, "End") == len(events)
        assert "at=" in page.url and page.url.endswith(f"at={len(events)}&as=public")
    shoot(page, "replay")


def test_play_runs_the_log_on_and_n_goes_to_the_chosen_seats_next_event(people: People, site):
    log = SCRUBBED[0]
    events = read(str(log))
    page = people.open(f"/replay/{imported(site, log)['game_id']}?at=1&as=seat-1")
    page.get_by_label("every").select_option("200")
    page.get_by_role("button", name="▶ Play").click()
    five_or_more = re.compile(r"^([5-9]|[1-9][0-9]+)$")
    expect(page.locator("#scene")).to_have_attribute("data-at", five_or_more)
    page.locator("#theatre").focus()
    page.keyboard.press("Space")  # pause
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible()
    here = at(page)
    assert 5 <= here < len(events)
    page.keyboard.press("n")
    mine = next(e["seq"] for e in events[here:] if e["actor"] == 1)
    expect(page.locator("#scene")).to_have_attribute("data-at", str(mine))
    expect(page.locator("#scene .this-step")).to_contain_text("By")


def test_a_tampered_upload_opens_at_the_first_bad_event_with_its_reason(people: People, tmp_path):
    events = read(str(CORPUS / "blackout-middle" / "blackout-middle-scenario-trades.jsonl"))
    damage = next(
        d for d in damages(events) if d.expected_code == "rules/derived" and d.expected_seq > 50
    )
    bad = tmp_path / "tampered.jsonl"
    bad.write_bytes(damage.log)
    page = people.open("/replay")
    page.get_by_label("Log file").set_input_files(str(bad))
    page.get_by_role("button", name="Check and replay").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("The log is not valid")
    expect(verdict).to_contain_text(f"seq {damage.expected_seq}")
    expect(verdict.locator("mark.reason")).to_contain_text("differs from what the seed")
    expect(page.locator("#scene")).to_have_attribute("data-at", str(damage.expected_seq))
    expect(page.locator('.check.failed[data-check="rules"]')).to_contain_text(
        f"seq {damage.expected_seq}"
    )
    expect(page.locator('.check.passed[data-check="chain"]')).to_be_visible()
    shoot(page, "replay-verify")


def test_a_seats_receipt_is_held_by_the_log_and_not_by_a_cut_one(people: People, site, tmp_path):
    log = CORPUS / "blackout-middle" / "blackout-middle-scenario-dropped-orders.jsonl"
    made = imported(site, log)  # only this test imports it: the seats' links are new
    seat = people.open(f"/join/{made['game_id']}?token={made['seats'][0]['token']}")
    seat.get_by_text("Your receipts to paste (JSON)").click()
    given = seat.get_by_role("textbox", name="Receipts").input_value()
    receipts = json.loads(given)
    assert receipts and all(r["seq"] > 0 for r in receipts)

    page = people.open(f"/replay/{made['game_id']}")
    page.get_by_label("Receipt", exact=True).fill(given)
    page.get_by_role("button", name="Check the receipt").click()
    expect(page.locator(".receipt-result")).to_have_count(len(receipts))
    for one in receipts:
        expect(page.locator("#receipt")).to_contain_text(f"Receipt seq {one['seq']}: held.")

    last = max(r["seq"] for r in receipts)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[: last - 1]))
    upload = people.open("/replay")
    upload.get_by_label("Log file").set_input_files(str(cut))
    upload.get_by_role("button", name="Check and replay").click()
    upload.get_by_label("Receipt", exact=True).fill(given)
    upload.get_by_role("button", name="Check the receipt").click()
    expect(upload.locator("#receipt")).to_contain_text(f"Receipt seq {last}: NOT held.")
    expect(upload.locator("#receipt")).to_contain_text("cut short")
    shoot(upload, "replay-receipt")


def test_a_disputes_fork_is_shown_beside_the_original(people: People, site):
    status, made = site.call(
        "POST",
        "/games",
        body={
            "ruleset": "galloping-horse",
            "players": ["Ann", "Ben", "Cat", "Dee"],
            "seed": "fork",
        },
    )
    assert status == 201, made
    original, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    play(site, original, tokens, 10)
    _, log = site.call("GET", f"/games/{original}/events", token=made["moderator_token"])
    dropped = [e for e in log["events"] if e["type"] == "RaceCardPlayed"][5]["seq"]
    body = {"claim": "Ben says he never played it", "amendment": {"kind": "drop", "seq": dropped}}
    moderator = made["moderator_token"]
    status, opened = site.call("POST", f"/games/{original}/disputes", body=body, token=moderator)
    assert status == 201, opened
    ruling = {"ruling": "amended", "reason": "the card was never played"}
    status, ruled = site.call(
        "POST",
        f"/games/{original}/disputes/{opened['dispute']}/ruling",
        body=ruling,
        token=moderator,
    )
    assert status == 201, ruled
    play(site, ruled["fork_game_id"], tokens, 300)

    page = people.open(f"/replay/{original}")
    page.get_by_role("link", name="Disputes side by side").click()
    expect(page.locator(".dispute h2")).to_contain_text("amended")
    expect(page.locator(".column")).to_have_count(2)
    expect(page.locator(".column").first).to_contain_text("The original")
    expect(page.locator(".column").last).to_contain_text("The fork")
    expect(page.locator("li.amended").first).to_contain_text(str(dropped))
    expect(page.locator("tr.differs").first).to_be_visible()
    expect(page.locator("dl")).to_contain_text("the card was never played")
    shoot(page, "replay-dispute")


def play(site, game_id: str, tokens: list[str], turns: int) -> None:
    """The seat to move plays its first legal command, `turns` times or to the end."""
    for _ in range(turns):
        _, shown = site.call("GET", f"/games/{game_id}")
        if shown["status"] != "active":
            return
        seat = shown["to_move"][0]
        _, mine = site.call("GET", f"/games/{game_id}", token=tokens[seat])
        status, sent = site.call(
            "POST", f"/games/{game_id}/commands", body=mine["legal"][0], token=tokens[seat]
        )
        assert status == 201, sent
