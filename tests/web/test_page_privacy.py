"""Noninterference on the pages: two games from one seed that differ only in one seat's
secret choice give every other seat, and the public, the same pages (the same HTML, but
for the per-request form tokens, the chain's hashes and the clock) until the rules make
the choice public. The pages are the API's views drawn, so they must keep its secrets."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app import create_app
from referee.service import MODERATOR
from referee.web.seats import cookie_name

GAME = "privacy0game"
NOW = 1_800_000_000
HORSES = ["white", "black", "red", "blue", "yellow", "green", "purple"]


def normalised(html: str) -> str:
    """The page without what differs by request or by chain: form tokens and keys, hashes
    (a different secret gives a different commitment and chain, by design), times, and
    the version (a private act's redacted stub still takes its seq: the documented
    residue, docs/log-format.md)."""
    html = re.sub(r'name="(csrf_token|key)" value="[^"]*"', r'name="\1"', html)
    html = re.sub(r'(data-version="|name="version" value=")\d+"', r'\1N"', html)
    html = re.sub(r"\b[0-9a-f]{64}\b", "HASH", html)
    return re.sub(r"\d{4}-\d\d-\d\d[T ][\d:.]+Z?( UTC)?", "TIME", html)


class Table:
    """One game on its own app and SQLite file, and a browser per viewer."""

    def __init__(self, where, ruleset: str, players: list[str], options: dict) -> None:
        self.app = create_app({"REFEREE_DB": str(where / "p.db"), "TESTING": True})
        self.service = self.app.extensions["referee"]
        self.service.clock = lambda: NOW
        created = self.service.create_game(ruleset, players, options, "same-seed", game_id=GAME)
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.tokens[MODERATOR] = created["moderator_token"]

    def play(self, seat, command: dict) -> None:
        self.service.command(GAME, seat, command)

    def pages(self, viewers) -> dict:
        """Each viewer's game page (None: the public page) and its live part."""
        shown = {}
        for viewer in viewers:
            browser = self.app.test_client()
            if viewer is not None:
                browser.set_cookie(cookie_name(GAME), self.tokens[viewer])
            for path in (f"/g/{GAME}", f"/g/{GAME}/part"):
                answer = browser.get(path)
                assert answer.status_code == 200
                shown[(viewer, path)] = normalised(answer.get_data(as_text=True))
        return shown


def royal_turf(where, chip: int) -> Table:
    """Hidden Bets: the first seat to bet puts chip `chip` on white."""
    table = Table(where, "royal-turf", ["Ann", "Ben", "Cat"], {"hidden_bets": True})
    first = table.service.view(GAME, None)["to_move"][0]
    table.play(first, {"type": "place_bet", "horse": "white", "chip": chip})
    return table


def test_a_sealed_chip_leaves_every_other_page_unchanged(tmp_path):
    one, two = royal_turf(tmp_path / "one", 1), royal_turf(tmp_path / "two", 2)
    bettor = one.service.view(GAME, None)["version"] and one.service.events(GAME, MODERATOR)
    first = next(e["actor"] for e in bettor["events"] if e.get("type") == "BetPlaced")
    others = [None, *[s for s in range(3) if s != first]]
    assert one.pages(others) == two.pages(others)
    assert one.pages([first]) != two.pages([first])  # the bettor sees its own chip


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(horses=st.lists(st.sampled_from(HORSES), min_size=2, max_size=2, unique=True))
def test_sealed_bets_on_any_horses_tell_the_others_nothing(tmp_path_factory, horses):
    tables = []
    for chip in (1, 2):
        table = Table(
            tmp_path_factory.mktemp("rt"), "royal-turf", ["Ann", "Ben"], {"hidden_bets": True}
        )
        for horse in horses:  # each seat bets once, the first seat's chip differs
            seat = table.service.view(GAME, None)["to_move"][0]
            mine = chip if horse == horses[0] else 1
            table.play(seat, {"type": "place_bet", "horse": horse, "chip": mine})
        tables.append(table)
    first = tables[0].service.events(GAME, MODERATOR)["events"]
    bettor = next(e["actor"] for e in first if e.get("type") == "BetPlaced")
    others = [None, 1 - bettor]
    assert tables[0].pages(others) == tables[1].pages(others)


def blackout(where, orders: dict | None) -> Table:
    """The first round open; seat 0 seals `orders` (or nothing)."""
    table = Table(where, "blackout-middle", ["Ann", "Ben", "Cat"], {})
    if orders is not None:
        number = table.service.view(GAME, None)["round"]["open"]["round"]
        table.play(0, {"type": "submit_orders", "round": number, "orders": orders})
    return table


@pytest.mark.parametrize("seat_orders", range(4))
def test_sealed_orders_tell_the_others_only_that_orders_were_sealed(tmp_path, seat_orders):
    base = blackout(tmp_path / "base", None)
    options = [
        c["orders"] for c in base.service.view(GAME, 0)["legal"] if c["type"] == "submit_orders"
    ]
    assert len(options) > 4
    one = blackout(tmp_path / "one", options[0])
    two = blackout(tmp_path / "two", options[1 + seat_orders])
    assert one.pages([0]) != two.pages([0])  # the seat sees its own orders
    assert one.pages([None, 1, 2]) == two.pages([None, 1, 2])


def test_a_private_trade_offer_tells_a_third_seat_and_the_public_nothing(tmp_path):
    quiet = blackout(tmp_path / "quiet", None)
    offers = [c for c in quiet.service.view(GAME, 0)["legal"] if c["type"] == "offer_trade"]
    assert offers, "seat 0 can offer a trade in round 1"
    offer = next(c for c in offers if c["to"] == 1)
    trading = blackout(tmp_path / "trading", None)
    trading.play(0, offer)
    assert quiet.pages([None, 2]) == trading.pages([None, 2])
    assert quiet.pages([1]) != trading.pages([1])  # the seat offered to sees the offer
