"""A galloping-horse game played in browsers from start to end: the moderator creates it
on the new-game form, four players open their invite links and play by clicking, and a
spectator's page follows every move live, never reloaded; its log then verifies."""

import re

from browsing import People, shoot
from playwright.sync_api import Page, expect

from replays.verify import verify_bytes

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def create_game(moderator: Page, players: list[str], seed: str) -> dict[str, str]:
    """Fill the new-game form; the invite links by player name (and `moderator`)."""
    moderator.get_by_role("link", name="New Galloping Horse game").click()
    for n, name in enumerate(players):
        moderator.get_by_label(f"Player {n + 1}", exact=True).fill(name)
    moderator.get_by_label("Seed (optional)").fill(seed)
    moderator.get_by_role("button", name="Create the game").click()
    expect(moderator.get_by_role("heading", name="Your game is ready")).to_be_visible()
    links = {name: moderator.get_by_label(name, exact=True).input_value() for name in players}
    links["moderator"] = moderator.get_by_label("Moderator (you)").input_value()
    links["public"] = moderator.get_by_label("Spectators (public)").input_value()
    return links


def to_move(page: Page) -> str:
    """The name of the player to move, as the page says it."""
    text = page.locator(".turn").inner_text()
    return re.search(r"To move: (\w+)", text).group(1)


def test_four_players_play_a_whole_game_and_the_spectator_watches_live(people: People):
    moderator = people.open("/")
    shoot(moderator, "home")
    moderator.get_by_role("link", name="New Galloping Horse game").click()
    shoot(moderator, "new-game")
    moderator.go_back()
    links = create_game(moderator, PLAYERS, "browser-galloping")
    shoot(moderator, "invite-links")
    spectator = people.open(links["public"])
    spectator.evaluate("window.neverReloaded = true")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    for name, page in seats.items():
        expect(page.locator(".you")).to_contain_text(f"You play {name}")
        assert "token" not in page.url  # the invite's token went into a cookie
    moves = 0
    while seats["Ann"].locator(".turn").count():
        mover = seats[to_move(seats["Ann"])]
        button = mover.locator("#moves button").first
        expect(button).to_be_visible()  # arrives live on the mover's page
        if moves == 4:
            shoot(mover, "seat")
        button.click()
        moves += 1
        expect(spectator.locator("#live")).to_have_attribute("data-version", re.compile(r"\d+"))
        expect(mover.locator(".told")).to_contain_text("Done")
        if moves == 6:
            shoot(spectator, "spectator")
        expect(seats["Ann"].locator("#live")).to_have_attribute(
            "data-version", mover.locator("#live").get_attribute("data-version")
        )
    assert moves == 56  # two rounds of seven cards each
    expect(spectator.locator(".over")).to_contain_text("The game is over")
    assert spectator.evaluate("window.neverReloaded") is True
    expect(spectator.locator("#fairness")).to_contain_text("The log verifies")
    shoot(spectator, "spectator-finished")
    with spectator.expect_download() as download:
        spectator.get_by_role("link", name="Download the full log").click()
    report = verify_bytes(open(download.value.path(), "rb").read())
    assert report.valid, report
    assert report.events > moves
