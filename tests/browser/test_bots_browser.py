"""Bots in seats, in a real browser against `referee serve` (its embedded worker plays
the bots' moves): a newcomer starts a game against bots from the home page and plays it
to the end by clicking; a seat goes quiet, the moderator hands it to a bot, and the
player takes it back; a player lets a bot play for them and comes back."""

import re

import pytest
from browsing import People, caught_up, create_game, shoot
from playwright.sync_api import Page, expect

# (the game as the home page names it, the bots' level): a game against bots played to
# its end from the home page; more games and levels join this list as their bots land
AGAINST_BOTS = [("Galloping Horse", "standard")]
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def my_move(page: Page) -> None:
    """The first move the seat's page offers: its first button, or the first choice of a
    choice list; sent, and the page says it was done."""
    group = page.locator("#moves form").first
    buttons = group.locator("button[name=command]")
    if buttons.count():
        buttons.first.click()
    else:
        group.get_by_role("button").first.click()
    expect(page.locator(".told")).to_contain_text("Done")


def asked_or_over(page: Page) -> bool:
    """Wait until the seat is asked to move (True) or the game is over (False)."""
    asked = page.locator("#moves form")
    expect(asked.first.or_(page.locator(".over"))).to_be_visible()
    return page.locator(".over").count() == 0


@pytest.mark.parametrize(("game", "level"), AGAINST_BOTS)
def test_a_newcomer_plays_a_whole_game_against_bots_from_the_home_page(
    people: People, game: str, level: str
):
    newcomer = people.open("/")
    newcomer.get_by_role("link", name=f"Play {game} against bots").click()
    expect(newcomer.get_by_role("heading", name=f"Play {game} against bots")).to_be_visible()
    newcomer.get_by_label("Your name").fill("Ann")
    seats = newcomer.locator("select[name=played_by]")
    bots = [n for n in range(1, seats.count()) if seats.nth(n).input_value()]
    assert bots, "every other seat starts as a bot"
    for n in bots:
        newcomer.get_by_label(f"Player {n + 1} played by").select_option(level)
    shoot(newcomer, "against-bots")
    newcomer.get_by_role("button", name="Create the game").click()
    expect(newcomer.get_by_role("heading", name="Your game is ready")).to_contain_text("ready")
    expect(newcomer.locator("p.bots")).to_contain_text(f"Bot 2 ({level})")
    newcomer.get_by_role("link", name="Play Ann's seat in this browser").click()
    expect(newcomer.locator(".you")).to_contain_text("You play Ann")
    expect(newcomer.locator("#status .bots")).to_contain_text(f"Bot 2 ({level})")
    moves = 0
    while asked_or_over(newcomer):
        my_move(newcomer)
        moves += 1
        if moves == 3:
            shoot(newcomer, "against-bots-seat")
    assert moves > 0
    feed = newcomer.locator("#feed")
    expect(feed).to_contain_text(re.compile(r"Bot 2 played"))  # a bot under its own name
    expect(feed).not_to_contain_text("Bot 2's bot")
    expect(newcomer.locator("#fairness")).to_contain_text("The log verifies")
    shoot(newcomer, "against-bots-finished")


def until_turn_of(name: str, seats: dict[str, Page], watcher: Page) -> None:
    """Everyone plays their first move until it is `name`'s turn (on every page)."""
    while (mover := re.search(r"To move: (\w+)", watcher.locator(".turn").inner_text())[1]) != name:
        my_move(seats[mover])
        caught_up([watcher], seats[mover])


def test_a_quiet_seat_is_handed_to_a_bot_by_the_moderator_and_taken_back(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-quiet-seat")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    public = people.open(links["public"])
    until_turn_of("Ben", seats, public)

    mod = people.open(links["moderator"])  # Ben is quiet: the moderator hands him to a bot
    mod.locator("summary", has_text="Hand a seat to a bot").click()
    control = mod.locator("details.control").filter(has_text="Hand a seat to a bot")
    control.get_by_label("Seat").select_option(label="Ben (seat 2)")
    control.get_by_label("Level").select_option("standard")
    control.get_by_label("Reason").fill("Ben is away this week")
    shoot(mod, "bots-moderator")
    control.get_by_role("button", name="Hand a seat to a bot").click()
    expect(mod.locator("p.told")).to_contain_text("Done: the seat is handed to a bot")
    feed = public.locator("#feed")
    expect(feed).to_contain_text(
        "The moderator handed Ben's seat to a standard bot (Ben is away this week)."
    )
    expect(feed).to_contain_text(re.compile(r"Ben's bot played \w+\."))  # the worker moved

    ben = seats["Ben"]
    expect(ben.locator("#my-seat")).to_contain_text("A standard bot plays your seat now")
    expect(ben.locator("#moves button")).to_have_count(0)
    shoot(ben, "bots-holiday")
    ben.get_by_role("button", name="Take my seat back").click()
    expect(ben.locator("p.told")).to_contain_text("Done: you play your seat again")
    expect(feed).to_contain_text("Ben took their seat back from their bot.")
    expect(ben.get_by_role("button", name="Let a bot play for me")).to_be_visible()

    until_turn_of("Ben", seats, public)
    his_own = feed.locator("li", has_text=re.compile(r"^(new )?Ben played \w+\.$"))
    before = his_own.count()
    my_move(ben)  # his own move again, from his page
    expect(his_own).to_have_count(before + 1)


def test_a_player_lets_a_bot_play_for_them_and_comes_back(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-holiday")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    public = people.open(links["public"])
    cat = seats["Cat"]
    cat.get_by_label("Bot", exact=True).select_option(label="Random: any legal move, at random")
    cat.get_by_role("button", name="Let a bot play for me").click()
    expect(cat.locator("p.told")).to_contain_text("Done: a bot plays your seat now")
    expect(public.locator("#feed")).to_contain_text("Cat handed their seat to a random bot.")
    expect(public.locator("#status .bots")).to_contain_text("Cat (random)")
    until_turn_of("Dan", seats, public)  # Cat's bot moved on the way
    expect(public.locator("#feed")).to_contain_text(re.compile(r"Cat's bot played \w+\."))
    cat.get_by_role("button", name="Take my seat back").click()
    expect(public.locator("#feed")).to_contain_text("Cat took their seat back from their bot.")
    expect(public.locator("#status .bots")).to_have_count(0)
