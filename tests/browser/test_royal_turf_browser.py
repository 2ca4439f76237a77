"""A royal-turf Hidden Bets game in browsers: while the race runs, no seat's page but the
bettor's, and not the public page, ever shows the value of a sealed chip; once the race
ends every chip is turned over for all to read."""

import re

from browsing import People, answered, caught_up, create_game, shoot, to_move
from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Ben", "Cat"]
SEALED = re.compile(r"^(\w+)'s chip on (\w+): face down, its value sealed until the race ends$")
SHOWN = re.compile(r"^(\w+)'s chip on (\w+): (\d)( \(face down\))?$")


def chips(page: Page) -> tuple[set, dict]:
    """(sealed chips, chips with a value shown) on the page's board, by (owner, horse)."""
    titles = page.locator("#board svg title").all_text_contents()
    sealed = {m.groups() for t in titles if (m := SEALED.match(t))}
    shown = {m.group(1, 2): int(m.group(3)) for t in titles if (m := SHOWN.match(t))}
    return sealed, shown


def mover(seats: dict[str, Page]) -> Page | None:
    name = to_move(next(iter(seats.values())))
    return None if name is None else seats[name]


def betting(page: Page) -> bool:
    """Whether the page's moves are bets."""
    legend = page.locator("#moves legend").first
    expect(legend).to_be_visible()
    return legend.inner_text() == "Place bet"


def race_over(page: Page) -> bool:
    return "Race 1 is over" in page.locator("#feed").inner_text()


def bet_the_last_choice(page: Page) -> tuple[str, str]:
    """The last bet offered (the highest chip on the last horse): from the choice list
    while there are many, from the buttons once they are few."""
    choices = page.locator("#moves select")
    if choices.count():
        last = choices.locator("option").last
        text = last.inner_text()
        choices.select_option(last.get_attribute("value"))
        page.get_by_role("button", name="Place bet", exact=True).click()
    else:
        button = page.locator("#moves button").last
        text = button.inner_text()
        button.click()
    value, horse = re.search(r"Bet chip (\d) on (\w+)", text).groups()
    return value, horse


def test_sealed_chips_stay_sealed_on_every_other_page_until_the_race_ends(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Royal Turf", PLAYERS, "browser-royal-turf", hidden_bets="yes")
    spectator = people.open(links["public"])
    seats = {name: people.open(links[name]) for name in PLAYERS}
    bets: dict[tuple[str, str], int] = {}
    while (page := mover(seats)) is not None and not race_over(spectator):
        if betting(page):
            name = next(n for n, p in seats.items() if p is page)
            with answered(page, "Your sealed choice is recorded"):
                value, horse = bet_the_last_choice(page)
            bets[(name, horse)] = int(value)
        else:
            with answered(page, "Done"):
                page.locator("#moves button").first.click()  # a horse to move: few, buttons
        caught_up([*seats.values(), spectator], page)
        if race_over(spectator):
            break
        for other, seen in [*seats.items(), ("public", spectator)]:
            sealed, shown = chips(seen)
            mine = {k: v for k, v in bets.items() if k[0] == other}
            assert shown == mine, (other, shown)  # a seat sees its own chips' values only
            assert sealed == set(bets) - set(mine)
        if len(bets) == 9:
            shoot(spectator, "royal-turf-spectator")
    assert len(bets) >= 9
    told = spectator.locator("#feed").inner_text()  # the race ended: every chip turned over
    for (name, horse), value in bets.items():
        assert f"{name}'s face-down chip on {horse} is turned over: chip {value}." in told
