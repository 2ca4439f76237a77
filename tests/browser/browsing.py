"""People in browsers for the page tests: a context each, and screenshots of the pages."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, BrowserContext, Page, expect
from served import ROOT

SHOTS = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# The strong bots' search budget a move on the tests' site (REFEREE_BOT_ITERATIONS), where
# each ruleset's own is about a second of a core: whole games against strong bots would
# take many minutes on a busy 2-core machine. The pages play the same search on a smaller
# budget; how strong the bots are at their own is bench/bots.py's business, not this.
BOT_ITERATIONS = "30"


class People:
    """Browser contexts, one per person (each its own cookies, as separate browsers)."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.browser, self.base = browser, base
        self.contexts: list[BrowserContext] = []

    def open(self, url: str = "/", *, phone: bool = False, scripts: bool = True) -> Page:
        """A new person's page at `url` (a path on the site, or a whole link)."""
        context = self.browser.new_context(
            viewport=PHONE if phone else DESKTOP,
            java_script_enabled=scripts,
            accept_downloads=True,
        )
        self.contexts.append(context)
        page = context.new_page()
        page.goto(url if url.startswith("http") else self.base + url)
        if page.url.endswith("/welcome"):  # an invite link: on to the seat, where it acts
            page.wait_for_url(lambda now: not now.endswith("/welcome"))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def shoot(page: Page, name: str) -> None:
    """docs/screenshots/NAME-desktop.png and NAME-phone.png of the page as it is now."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for kind, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{kind}.png"), full_page=True)
    if size:
        page.set_viewport_size(size)


@contextmanager
def answered(page: Page, told: str | re.Pattern[str]) -> Iterator[None]:
    """Around a form sent from `page`: wait for the page that answers it, saying `told`.
    The page before may say the same of an earlier move ("Done"), so it is marked first
    and only a page without the mark counts: the answer, not the page that sent it."""
    page.evaluate("document.body.dataset.sent = 'yes'")
    yield
    expect(page.locator("body:not([data-sent]) .told")).to_contain_text(told)


def caught_up(pages: list[Page], mover: Page) -> None:
    """Wait until every page shows the version the mover's page shows (they update live,
    without a reload)."""
    version = mover.locator("#live").get_attribute("data-version")
    for page in pages:
        expect(page.locator("#live")).to_have_attribute("data-version", version)


def to_move(page: Page) -> str | None:
    """The name of the player to move, as the page says it; None when nobody is."""
    turn = page.locator(".turn")
    if not turn.count():
        return None
    return re.search(r"To move: (\w+)", turn.inner_text()).group(1)


def create_game(
    moderator: Page,
    game: str,
    players: list[str],
    seed: str,
    clock: dict[str, str] | None = None,
    *,
    short: bool = False,
    **options: str | tuple[str, str],
) -> dict[str, str]:
    """Fill the new-game form of `game` ("Galloping Horse"); the invite links by player
    name, `moderator` and `public`. Options (and the turn clock's fields) by name: the
    text to type or the choice; a length as (number, unit). `short`: a length under five
    minutes, confirmed when the form asks."""
    moderator.get_by_role("link", name=f"New {game} game").click()
    for n, name in enumerate(players):
        moderator.get_by_label(f"Player {n + 1}", exact=True).fill(name)
    fill_options(moderator, clock, **options)
    moderator.get_by_label("Seed (optional)").fill(seed)
    moderator.get_by_label("Seed (optional)").press("Enter")  # the form sent from the keyboard
    if short:
        expect(moderator.get_by_role("alert")).to_contain_text("very short for players by post")
        moderator.get_by_label("Yes, this short").check()
        moderator.get_by_role("button", name="Create the game").click()
    expect(moderator.get_by_role("heading", name="Your game is ready")).to_be_visible()
    links = {name: moderator.get_by_label(name, exact=True).input_value() for name in players}
    links["moderator"] = moderator.get_by_label("Moderator (you)").input_value()
    links["public"] = moderator.get_by_label("Spectators (public)").input_value()
    return links


def fill_options(
    page: Page, clock: dict[str, str] | None = None, **options: str | tuple[str, str]
) -> None:
    """Set options (and the turn clock's fields) on a new-game form, by name: the text to
    type or the choice; a length as (number, unit)."""
    fields: dict[str, str] = {}
    for key, value in options.items():
        if isinstance(value, tuple):
            value, fields[f"option-{key}-unit"] = value
        fields[f"option-{key}"] = value
    fields.update({f"clock-{k}": v for k, v in (clock or {}).items()})
    for name, value in fields.items():
        field = page.locator(f"#{name}")
        if field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def first_move(page: Page) -> None:
    """The first move the page offers, as a player who takes whatever comes first: the
    first button of the first kind of move, or the first entry of its choice list; sent,
    and the page says it was done (a sealed choice: recorded)."""
    group = page.locator("#moves fieldset").first
    expect(group).to_be_visible()
    choices = group.locator("select")
    if choices.count():
        choices.select_option(index=0)
    with answered(page, DONE):
        group.locator("button").first.click()


DONE = re.compile(r"Done|Your sealed choice is recorded")
