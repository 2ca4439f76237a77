"""A galloping-horse game played in browsers from start to end, from the keyboard alone:
the moderator creates it on the new-game form, four players open their invite links and
play with Tab and Enter, and a spectator's page follows every move live, never reloaded;
every control has an accessible name, and the log downloaded at the end verifies."""

import re

from browsing import People, answered, caught_up, create_game, shoot, to_move
from playwright.sync_api import Page, expect

from replays.verify import verify_bytes

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
UNNAMED = re.compile(r"^\s*- (button|link|textbox|combobox|checkbox|spinbutton|radio)\s*(\[|:|$)")


def unnamed_controls(page: Page) -> list[str]:
    """Lines of the page's accessibility tree for a control with no accessible name."""
    tree = page.locator("body").aria_snapshot()
    return [line for line in tree.splitlines() if UNNAMED.match(line)]


def press_move(page: Page) -> None:
    """The skip link, then the first move, by the keyboard: Tab, Enter, Tab, Enter."""
    page.locator("body").focus()
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to your move")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("name", "command")
    page.keyboard.press("Enter")


def test_four_players_play_a_whole_game_from_the_keyboard_watched_live(people: People):
    moderator = people.open("/")
    shoot(moderator, "home")
    assert unnamed_controls(moderator) == []
    moderator.get_by_role("link", name="New Galloping Horse game").click()
    shoot(moderator, "new-game")
    assert unnamed_controls(moderator) == []
    moderator.go_back()
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-galloping")
    shoot(moderator, "invite-links")
    assert unnamed_controls(moderator) == []
    spectator = people.open(links["public"])
    spectator.evaluate("window.neverReloaded = true")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    for name, page in seats.items():
        expect(page.locator(".you")).to_contain_text(f"You play {name}")
        assert "token" not in page.url  # the invite's token went into a cookie
    moves = 0
    while (name := to_move(seats["Ann"])) is not None:
        mover = seats[name]
        expect(mover.locator("#moves button").first).to_be_visible()  # it arrives live
        if moves == 4:
            shoot(mover, "seat")
            assert unnamed_controls(mover) == [] and unnamed_controls(spectator) == []
        with answered(mover, "Done"):
            press_move(mover)
        moves += 1
        caught_up([*seats.values(), spectator], mover)
        if moves == 6:
            shoot(spectator, "spectator")
    assert moves == 56  # two rounds of seven cards each
    expect(spectator.locator(".over")).to_contain_text("The game is over")
    assert spectator.evaluate("window.neverReloaded") is True
    expect(spectator.locator("#fairness")).to_contain_text("The log verifies")
    shoot(spectator, "spectator-finished")
    moderator.goto(links["moderator"])
    assert unnamed_controls(moderator) == []
    with spectator.expect_download() as download:
        spectator.get_by_role("link", name="Download the full log").click()
    report = verify_bytes(open(download.value.path(), "rb").read())
    assert report.valid, report
    assert report.events > moves
