"""Browser tests: Playwright driving Debian's chromium against a real `referee serve`
(gunicorn, the embedded Redis, a Celery worker, a SQLite file). They always run: `make
test` installs chromium when it is missing."""

import shutil
from pathlib import Path

import pytest
from browsing import BOT_ITERATIONS, People
from playwright.sync_api import expect
from served import serving

# bounds for failing only: a passing test never waits them out (a busy machine is slow)
expect.set_options(timeout=60_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """One xdist worker runs every browser test: they share one service and one browser."""
    for item in items:
        if item.path.is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium (no browser can be downloaded here), headless."""
    chromium = shutil.which("chromium")
    assert chromium, "chromium is missing: `make test` installs it (apt-get install chromium)"
    return {
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The whole service, as `make run` starts it, shared by the browser tests."""
    # strong bots on a small budget, so whole games against them are short (browsing.py)
    yield from serving(tmp_path_factory.mktemp("site"), REFEREE_BOT_ITERATIONS=BOT_ITERATIONS)


@pytest.fixture
def people(browser, site):
    """People at the site; their browsers close after the test."""
    crowd = People(browser, site.base)
    yield crowd
    crowd.close()
