"""With scripts off the core of the game still works as plain forms: taking a seat from
the invite link, making a move, sending sealed orders. And hostile player names are only
ever text: no page runs them."""

from browsing import People, create_game
from playwright.sync_api import expect

HOSTILE = ["<img src=x onerror=alert(1)>", "[url=javascript:alert(2)]Bo[/url]", "Cy", "Di"]


def test_a_seat_takes_its_seat_and_moves_with_scripts_off(people: People):
    links = create_game(people.open("/"), "Galloping Horse", ["Ann", "Ben", "Cat", "Dan"], "plain")
    ann = people.open(links["Ann"], scripts=False)  # the welcome page's refresh, no script
    expect(ann.locator(".you")).to_contain_text("You play Ann")
    before = ann.locator("#live").get_attribute("data-version")
    ann.locator("#moves button").first.click()
    expect(ann.locator(".told")).to_contain_text("Done")
    assert int(ann.locator("#live").get_attribute("data-version")) > int(before)


def test_sealed_orders_are_sent_with_scripts_off(people: People):
    names = ["Ann", "Ben", "Cat"]
    links = create_game(people.open("/"), "Blackout Middle", names, "plain-orders")
    ben = people.open(links["Ben"], scripts=False)
    ben.get_by_role("button", name="Seal my orders for round 0").click()
    expect(ben.locator(".told")).to_contain_text("Your orders for round 0 are sealed")
    expect(ben.locator("#receipts tbody tr")).to_have_count(1)


def test_hostile_names_are_shown_as_text_and_never_run(people: People):
    moderator = people.open("/")
    dialogs: list[str] = []
    links = create_game(moderator, "Galloping Horse", HOSTILE, "hostile")
    pages = [people.open(links[who]) for who in ("moderator", "public", HOSTILE[0], HOSTILE[1])]
    for page in pages:
        page.on("dialog", lambda dialog: dialogs.append(dialog.message))
        page.reload()
        expect(page.locator("main")).to_contain_text(HOSTILE[0])
        assert page.locator("main img").count() == 0
        assert page.locator("a[href^='javascript']").count() == 0
    assert dialogs == []
