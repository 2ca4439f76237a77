"""A whole game played from the keyboard alone, and every control named for a screen
reader (Playwright's accessibility snapshot of each page kind)."""

import re

from browsing import People
from playwright.sync_api import Page, expect
from test_galloping_horse_browser import PLAYERS, create_game, to_move

UNNAMED = re.compile(r"^\s*- (button|link|textbox|combobox|checkbox|spinbutton|radio)\s*(\[|:|$)")


def unnamed_controls(page: Page) -> list[str]:
    """Lines of the page's accessibility tree for a control with no accessible name."""
    tree = page.locator("body").aria_snapshot()
    return [line for line in tree.splitlines() if UNNAMED.match(line)]


def press_move(page: Page) -> None:
    """Skip link, then the first move, by the keyboard: Tab, Enter, Tab, Enter."""
    page.locator("body").focus()
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to your move")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("name", "command")
    page.keyboard.press("Enter")


def test_a_game_played_without_the_mouse_and_every_control_named(people: People):
    moderator = people.open("/")
    assert unnamed_controls(moderator) == []
    moderator.keyboard.press("Tab")  # the skip link, then the site's links and the forms
    links = create_game(moderator, PLAYERS, "keyboard-galloping")
    assert unnamed_controls(moderator) == []
    seats = {name: people.open(links[name]) for name in PLAYERS}
    spectator = people.open(links["public"])
    moves = 0
    while seats["Ann"].locator(".turn").count():
        mover = seats[to_move(seats["Ann"])]
        expect(mover.locator("#moves button").first).to_be_visible()
        if moves == 0:
            assert unnamed_controls(mover) == []
            assert unnamed_controls(spectator) == []
        press_move(mover)
        moves += 1
        expect(mover.locator(".told")).to_contain_text("Done")
    assert moves == 56
    moderator.goto(links["moderator"])
    expect(moderator.locator(".over")).to_contain_text("The game is over")
    assert unnamed_controls(moderator) == []
