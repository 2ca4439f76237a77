"""The moderator's forum post in browsers: it follows the game live, one button copies
it, and without scripts it is a text area to select; "I posted it" (a plain form) starts
the next post after it."""

from browsing import People, answered, caught_up, create_game, shoot, to_move
from playwright.sync_api import Page, expect
from waiting import wait_until

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
WITHIN = 60  # seconds, for failing only


def clipboard(page: Page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def copied(page: Page, text: str) -> None:
    """Wait until the clipboard holds `text` (the copy is asynchronous)."""
    wait_until(lambda: clipboard(page) == text, "the post to reach the clipboard", bound=WITHIN)


def play_first(page: Page) -> None:
    """The first move offered on a seat's page."""
    with answered(page, "Done"):
        page.locator("#moves button").first.click()


def test_the_moderator_copies_the_post_and_marks_it_posted(people: People):
    moderator = people.open("/")
    moderator.context.grant_permissions(["clipboard-read", "clipboard-write"])
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-post")
    moderator.goto(links["moderator"])
    expect(moderator.get_by_role("heading", name="Forum post")).to_be_visible()
    post = moderator.locator("#post")
    markdown = post.get_by_role("textbox", name="Markdown")
    first = to_move(moderator)
    expect(markdown).to_contain_text(f"To move: {first} (no time limit).")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    play_first(seats[first])
    caught_up([moderator], seats[first])
    expect(markdown).to_contain_text(f"{first} played")  # live, without a reload
    second = to_move(moderator)
    expect(markdown).to_contain_text(f"To move: {second} (no time limit).")
    post.get_by_role("button", name="Copy the post as Markdown").click()
    copied(moderator, markdown.input_value())
    post.get_by_role("button", name="Copy the post as BBCode").click()
    copied(moderator, post.get_by_role("textbox", name="BBCode").input_value())
    assert clipboard(moderator).startswith("[size=150][b]Galloping Horse: events 1 to ")
    post.scroll_into_view_if_needed()
    shoot(moderator, "forum-post")

    plain = people.open(links["moderator"], scripts=False)
    plain_post = plain.locator("#post")
    expect(plain_post.get_by_role("button", name="Copy the post as Markdown")).to_be_hidden()
    text = plain_post.get_by_role("textbox", name="Markdown")
    expect(text).to_have_value(markdown.input_value())
    text.focus()
    plain.keyboard.press("Control+A")  # select it all, to copy by hand
    chosen = text.evaluate("area => area.value.slice(area.selectionStart, area.selectionEnd)")
    assert chosen == markdown.input_value()
    plain_post.get_by_role("button", name="I posted it").click()
    expect(plain.locator(".told")).to_contain_text("Done: the next post starts after event")
    expect(plain.locator("#post").get_by_role("textbox", name="Markdown")).to_contain_text(
        "Nothing new."
    )

    play_first(seats[second])
    caught_up([moderator], seats[second])
    expect(markdown).to_contain_text(f"{second} played")
    assert f"{first} played" not in markdown.input_value()  # told in the post marked posted
