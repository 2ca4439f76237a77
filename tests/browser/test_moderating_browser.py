"""A moderator's controls and what every page says of them, in a real browser: a pause
stops the round's deadline and the turn clocks on every page (the time left when the
game resumes, not a countdown), a control asks for the reason the rules require before
it is sent, and seats are counted from 1 on the game pages, the moderator's forms and
the replay."""

import re

from browsing import People, caught_up, create_game, shoot
from playwright.sync_api import Locator, Page, expect
from test_replay_browser import SCRUBBED, imported

from replays.log import read

PLAYERS = ["Ann", "Ben", "Cat"]


def control(moderator: Page, name: str) -> Locator:
    """One of the moderator's controls, opened."""
    summary = moderator.locator("summary", has_text=re.compile(f"^{name}$"))
    summary.click()
    return moderator.locator("details.control").filter(has=summary)


def moderate(moderator: Page, name: str, reason: str) -> None:
    """Send a control with its reason; the page comes back saying it was done."""
    form = control(moderator, name)
    form.get_by_label("Reason").fill(reason)
    form.get_by_role("button", name=name).click()
    expect(moderator.locator("p.told")).to_contain_text(f"Done: {name.lower()}")


def left(page: Page, where: str) -> int:
    """The seconds a paused deadline will have left, as the page shows them."""
    return int(page.locator(f"{where} .left").first.get_attribute("data-left"))


def test_a_control_asks_for_the_reason_the_rules_require_before_sending(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Blackout Middle", PLAYERS, "browser-reason")
    mod = people.open(links["moderator"])
    version = mod.locator("#live").get_attribute("data-version")
    for name in ("Pause", "Extend deadline", "Replace player", "Close round"):
        form = control(mod, name)
        reason = form.get_by_label("Reason")
        expect(reason).to_have_attribute("required", "")
        form.get_by_role("button", name=name).click()  # the browser keeps a blank form
        assert reason.evaluate("field => field.validity.valueMissing") is True
    mod.reload()  # nothing was sent: the game is where it was
    expect(mod.locator("#live")).to_have_attribute("data-version", version)
    expect(mod.locator("#feed")).not_to_contain_text("pause")


def test_a_paused_round_shows_the_time_it_will_have_left_and_does_not_count(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Blackout Middle", PLAYERS, "browser-paused")
    spectator = people.open(links["public"])
    ann = people.open(links["Ann"])
    mod = people.open(links["moderator"])
    expect(spectator.locator("#status .countdown")).not_to_be_empty()  # counts while it runs

    moderate(mod, "Pause", "a storm took the forum down")
    status = spectator.locator("#status")  # the spectator's page follows without a reload
    expect(status).to_contain_text("the game is paused")
    expect(status).to_contain_text("left when the game resumes")
    expect(status.locator("[data-countdown]")).to_have_count(0)
    expect(status).not_to_contain_text("Deadline:")
    before = left(spectator, "#status")
    assert 0 < before <= 48 * 3600
    shoot(spectator, "paused-round")

    ann.get_by_role("button", name=re.compile("Seal my orders for round")).click()
    expect(ann.locator(".told")).to_contain_text("are sealed")  # orders may go in while paused
    caught_up([spectator], ann)
    assert left(spectator, "#status") == before  # the time left stood still

    moderate(mod, "Resume", "the forum is back")
    expect(status).not_to_contain_text("paused")
    expect(status.locator(".countdown")).not_to_be_empty()


def test_paused_turn_clocks_show_the_time_left_and_do_not_count(people: People):
    moderator = people.open("/")
    clock = {"length": "2", "unit": "hours", "on_timeout": "wait"}
    links = create_game(moderator, "Royal Turf", PLAYERS, "browser-paused-clock", clock=clock)
    spectator = people.open(links["public"])
    mod = people.open(links["moderator"])
    expect(spectator.locator(".clocks .countdown")).not_to_be_empty()
    moderate(mod, "Pause", "holiday")
    clocks = spectator.locator(".clocks")
    expect(clocks).to_contain_text("The clocks are paused.")
    expect(clocks).to_contain_text("left when the game resumes")
    expect(clocks.locator("[data-countdown]")).to_have_count(0)
    assert 0 < left(spectator, ".clocks") <= 2 * 3600


def test_seats_are_counted_from_one_on_the_pages_and_in_the_replay(people: People, site):
    moderator = people.open("/")
    links = create_game(moderator, "Royal Turf", PLAYERS, "browser-seat-numbers")
    ben = people.open(links["Ben"])
    expect(ben.get_by_text("You play Ben (seat 2).")).to_be_visible()
    mod = people.open(links["moderator"])
    seat = control(mod, "Replace player").get_by_label("Seat")
    options = seat.locator("option").all_inner_texts()
    assert options == ["Ann (seat 1)", "Ben (seat 2)", "Cat (seat 3)"]

    log = SCRUBBED[0]
    names = read(str(log))[0]["payload"]["players"]
    replay = people.open(f"/replay/{imported(site, log)['game_id']}?at=1")
    shown = replay.get_by_label("View as").locator("option").all_inner_texts()
    assert shown[1 : len(names) + 1] == [f"{n} (seat {i + 1})" for i, n in enumerate(names)]


def test_the_new_game_form_takes_lengths_with_a_unit_and_confirms_a_short_one(people, site):
    page = people.open("/")
    page.get_by_role("link", name="New Blackout Middle game").click()
    for n, name in enumerate(PLAYERS):
        page.get_by_label(f"Player {n + 1}", exact=True).fill(name)
    length = page.get_by_label("Round length", exact=True)
    expect(length).to_have_value("24")
    expect(page.get_by_label("Round length unit", exact=True)).to_have_value("hours")
    length.fill("2")
    page.get_by_label("Round length unit", exact=True).select_option("minutes")
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Round length: 2 minutes: that is very short for players by post"
    )
    unit = page.get_by_label("Round length unit", exact=True)
    expect(unit).to_have_value("minutes")  # kept as sent
    shoot(page, "new-game-short")
    page.get_by_label("Yes, this short").check()
    page.get_by_role("button", name="Create the game").click()
    expect(page.get_by_role("heading", name="Your game is ready")).to_be_visible()
    game_id = re.search(
        r"/g/([0-9a-f]+)/watch", page.get_by_label("Spectators (public)").input_value()
    )
    assert site.call("GET", f"/games/{game_id.group(1)}")[1]["options"]["round_seconds"] == 120
