"""People in browsers for the page tests: a context each, and screenshots of the pages."""

from playwright.sync_api import Browser, BrowserContext, Page
from served import ROOT

SHOTS = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


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
