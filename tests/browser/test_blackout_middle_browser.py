"""A 3-seat blackout-middle game in browsers, on the real worker: every seat seals its
orders through the form each round and keeps its receipts, warnings are shown before the
deadline, a round closes once every seat has sent, and a round left alone passes its
deadline; every page moves on by itself."""

import re

from browsing import People, answered, create_game, shoot
from playwright.sync_api import Page, expect

from replays.verify import verify_bytes

PLAYERS = ["Ann", "Ben", "Cat"]
LAST_ROUND = 10  # rounds 0 to 10
DEADLINE_WAIT = 300_000  # ms, for failing only: the round's 2 s deadline, a sweep, a busy machine


def open_round(page: Page) -> int:
    """The round whose orders the seat's page asks for (it appears without a reload)."""
    heading = page.locator("#orders-h")
    expect(heading).to_be_visible()
    return int(re.search(r"round (\d+)", heading.inner_text()).group(1))


def seal(page: Page, number: int) -> None:
    with answered(page, f"Your orders for round {number} are sealed"):
        page.get_by_role("button", name=f"Seal my orders for round {number}").click()
    expect(page.locator("#receipts")).to_contain_text(str(number))


def test_three_seats_seal_orders_round_after_round_to_the_end(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Blackout Middle", PLAYERS, "browser-blackout")
    spectator = people.open(links["public"])
    spectator.evaluate("window.neverReloaded = true")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    ann = seats["Ann"]
    first = open_round(ann)
    ann.get_by_label("Ability", exact=True).select_option("clue")
    ann.get_by_role("button", name=f"Seal my orders for round {first}").click()
    dropped = ann.locator("#orders .warnings")  # a clue with no cards: it would be dropped
    expect(dropped).to_contain_text("ability.use is missing")
    shoot(ann, "sealed-orders")
    for number in range(first, LAST_ROUND + 1):
        for page in seats.values():  # each round's form arrives on every page by itself
            expect(page.locator("#orders-h")).to_contain_text(f"round {number}")
            seal(page, number)
        expect(spectator.locator("#feed")).to_contain_text(
            f"Round {number} closes: every player has sealed orders"
        )
        if number == 3:
            shoot(ann, "blackout-seat")
            shoot(spectator, "blackout-spectator")
    expect(spectator.locator("#feed")).to_contain_text(f"Round {LAST_ROUND} is resolved.")
    finish_awards(seats, people, links)
    expect(spectator.locator(".over")).to_contain_text("The game is over")
    assert spectator.evaluate("window.neverReloaded") is True
    receipts = ann.locator("#receipts tbody tr")
    assert receipts.count() == LAST_ROUND - first + 2  # round 0 twice: sent again
    with spectator.expect_download() as download:
        spectator.get_by_role("link", name="Download the full log").click()
    assert verify_bytes(open(download.value.path(), "rb").read()).valid


def finish_awards(seats: dict[str, Page], people: People, links: dict[str, str]) -> None:
    """After the last round is resolved: any choice the awards ask of a seat or the
    moderator (each a command in turn, applied at once)."""
    moderator = people.open(links["moderator"])
    pages = [*seats.values(), moderator]
    for _ in range(10):
        if pages[0].locator(".over").count():
            return
        for page in pages:
            page.reload()
            buttons = page.locator("#moves button")
            if buttons.count():
                buttons.first.click()
    expect(pages[0].locator(".over")).to_be_visible()


def test_a_round_nobody_answers_passes_its_deadline_and_the_pages_move_on(people: People):
    moderator = people.open("/")
    links = create_game(
        moderator,
        "Blackout Middle",
        PLAYERS,
        "browser-deadline",
        short=True,
        first_round_seconds=("2", "seconds"),
    )
    ben = people.open(links["Ben"])
    spectator = people.open(links["public"])
    # round 0 (the rules' first) may have passed its 2 s deadline before the pages load
    closed = "Round 0 closes at its deadline"
    expect(spectator.locator("#feed")).to_contain_text(closed, timeout=DEADLINE_WAIT)
    expect(ben.locator("#orders-h")).to_contain_text("round 1", timeout=DEADLINE_WAIT)
    expect(ben.locator("#feed")).to_contain_text(closed)


def test_news_that_leaves_a_seats_orders_form_as_it_was_leaves_its_buttons_in_place(
    people: People,
):
    """Another seat's sealed orders change Ann's page (who has sealed) but not her orders
    form: the form she may be pressing a button of stays the same element, so a press
    while the news arrives is not lost (the button was replaced under it)."""
    moderator = people.open("/")
    links = create_game(moderator, "Blackout Middle", PLAYERS, "browser-blackout-kept")
    ann, ben = people.open(links["Ann"]), people.open(links["Ben"])
    number = open_round(ann)
    # marked by a property, not an attribute: the page compares what the regions show
    ann.evaluate("document.getElementById('orders').shownBefore = true")
    seal(ben, number)
    expect(ann.locator("#status")).to_contain_text("Ben: orders sealed")
    assert ann.evaluate("document.getElementById('orders').shownBefore") is True
    seal(ann, number)  # and it still seals
