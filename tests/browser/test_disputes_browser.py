"""Disputes as a moderator lives them, in real browsers against `referee serve`: a dispute
opened on a finished game by choosing the move in dispute and what should have been
played instead, found again by its claim and ruled amended; every open seat page and
the spectator's page link to the fork the moment the ruling lands, without a reload;
every subscriber is told once, through the real worker; and the replay shows both games
side by side. Then a game in play forked the same way, and what a finished game's
moderator page offers and refuses."""

import json
import re
import threading

import pytest
from browsing import People, shoot
from playwright.sync_api import Page, expect
from receiver import Receiver

PLAYERS = ["Ann", "Ben", "Cat", "Dee"]
# Dark Horse from this seed, every seat playing its first legal move, ends with Dee the
# winner; had Ann played card 25 back instead of forward, Ben would have won
DISPUTED = "Ann plays card 25"
INSTEAD = "Play card 25: move the 2nd and 5th horses back 1 (#6 2nd to 3rd, #7 5th to 6th)"
CLAIM = "Ann called out 'back' for card 25; the page took it forward"


@pytest.fixture
def receiver():
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def created(site, ruleset: str, players: list[str], seed: str) -> dict:
    status, made = site.call(
        "POST", "/games", body={"ruleset": ruleset, "players": players, "seed": seed}
    )
    assert status == 201, made
    return made


def play(site, made: dict, turns: int) -> None:
    """The seat to move plays its first legal move, `turns` times or to the end."""
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(turns):
        _, shown = site.call("GET", f"/games/{made['game_id']}")
        if shown["status"] != "active":
            return
        seat = shown["to_move"][0]
        _, mine = site.call("GET", f"/games/{made['game_id']}", token=tokens[seat])
        status, sent = site.call(
            "POST", f"/games/{made['game_id']}/commands", body=mine["legal"][0], token=tokens[seat]
        )
        assert status == 201, sent


def invite(made: dict, who: str | int) -> str:
    token = made["moderator_token"] if who == "moderator" else made["seats"][who]["token"]
    return f"/join/{made['game_id']}?token={token}"


def choose_the_move(moderator: Page, words: str) -> None:
    """Open "Open a dispute", pick the recorded move whose label holds `words`, and ask
    what could have been played instead."""
    moderator.get_by_text("Open a dispute", exact=True).click()
    moves = moderator.get_by_label("The move in dispute")
    label = next(t for t in moves.locator("option").all_inner_texts() if words in t)
    moves.select_option(label=label)
    moderator.get_by_role("button", name="Show what could have been played").click()
    expect(
        moderator.get_by_role("group", name=re.compile("What should have been played"))
    ).to_be_visible()


def open_dispute(moderator: Page, claim: str) -> int:
    """Send the open form; the dispute's number, as the answer says it."""
    moderator.get_by_label("Claim").fill(claim)
    moderator.get_by_role("button", name="Open the dispute").click()
    told = moderator.locator(".told")
    expect(told).to_contain_text(f"is open: {claim}")
    return int(re.search(r"Dispute (\d+) is open", told.inner_text()).group(1))


def rule(moderator: Page, claim: str, ruling: str, reason: str) -> None:
    """Choose the open dispute by its claim and rule on it."""
    moderator.get_by_role("radio", name=re.compile(re.escape(claim))).check()
    moderator.get_by_role("radio", name=re.compile(f"^{ruling}:")).check()
    moderator.locator("#dispute-rule").get_by_label("Reason").fill(reason)


def kept_live(pages: list[Page]) -> None:
    for page in pages:
        page.evaluate("window.neverReloaded = true")


def test_a_dispute_on_a_finished_game_from_opening_to_the_fork(people: People, site, receiver):
    made = created(site, "dark-horse", PLAYERS, "fork")
    game_id = made["game_id"]
    subscribers = {}
    for who in ["moderator", 0, 1, 2, 3]:
        token = made["moderator_token"] if who == "moderator" else made["seats"][who]["token"]
        body = {"kind": "webhook", "url": receiver.url, "events": ["dispute"]}
        status, sub = site.call("POST", f"/games/{game_id}/subscriptions", body=body, token=token)
        assert status == 201, sub
        subscribers[who] = (token, sub)
    play(site, made, 500)
    seats = {name: people.open(invite(made, n)) for n, name in enumerate(PLAYERS)}
    spectator = people.open(f"/g/{game_id}/watch")
    for page in [*seats.values(), spectator]:
        expect(page.locator(".over")).to_contain_text("Winner: Dee")
    kept_live([*seats.values(), spectator])

    # the finished game's moderator page offers disputes, and no control of play
    moderator = people.open(invite(made, "moderator"))
    expect(moderator.get_by_role("heading", name="Disputes")).to_be_visible()
    expect(moderator.get_by_role("heading", name="Controls")).to_have_count(0)
    choose_the_move(moderator, DISPUTED)
    choices = moderator.get_by_role("group", name=re.compile("What should have been played"))
    expect(choices.get_by_role("radio", name=re.compile(r"\(as recorded\)$"))).to_be_visible()
    expect(
        choices.get_by_role("radio", name="Drop this move, as if it was never made")
    ).to_be_visible()
    moderator.get_by_label(INSTEAD, exact=True).check()
    moderator.get_by_label("Claim").fill(CLAIM)
    shoot(moderator, "dispute-choose")
    number = open_dispute(moderator, CLAIM)
    expect(moderator.locator(".told")).to_contain_text("winners: Dee -> Ben")
    shoot(moderator, "dispute-open")

    # found again by its claim and when it was opened: no number to look up
    ruling = moderator.get_by_role("group", name="Open dispute")
    expect(
        ruling.get_by_role("radio", name=re.compile(re.escape(CLAIM) + r".*, opened \d{4}-"))
    ).to_be_checked()
    expect(moderator.get_by_role("spinbutton")).to_have_count(0)
    rule(moderator, CLAIM, "Amended", "Ann said back, aloud, before the card was turned")
    shoot(moderator, "dispute-rule")
    moderator.get_by_role("button", name="Rule", exact=True).click()
    expect(moderator.locator(".told")).to_contain_text(f"Dispute {number} is ruled amended")
    fork_id = re.search(r"/g/([0-9a-f]+)", moderator.url).group(1)
    assert fork_id != game_id  # the moderator went on to the fork

    # every open page links to the fork the moment the ruling lands, never reloaded
    for page in seats.values():
        link = page.get_by_role("link", name="Go to the fork")
        expect(link).to_have_attribute("href", f"/g/{fork_id}")
        expect(page.locator("#ruling")).to_contain_text(CLAIM)
        expect(page.locator("#ruling")).to_contain_text("In the fork, Ben wins")
    expect(spectator.get_by_role("link", name="Go to the fork")).to_have_attribute(
        "href", f"/g/{fork_id}/watch"
    )
    for page in [*seats.values(), spectator]:
        assert page.evaluate("window.neverReloaded") is True
    shoot(seats["Ben"], "dispute-fork-seat")
    seats["Ben"].get_by_role("link", name="Go to the fork").click()
    expect(seats["Ben"].locator(".you")).to_contain_text("You play Ben")
    expect(seats["Ben"].locator(".over")).to_contain_text("Winner: Ben")
    assert f"/g/{fork_id}" in seats["Ben"].url

    # every subscriber is told once of the opening and once of the ruling
    receiver.wait_for(2 * len(subscribers))
    for who, (token, sub) in subscribers.items():
        path = f"/games/{fork_id}/subscriptions/{sub['subscription_id']}/deliveries"
        _, logged = site.call("GET", path, token=token)
        assert sorted(d["seq"] for d in logged) == [number, number + 1], (who, logged)
    ids = {headers["webhook-id"]: json.loads(body)["data"] for headers, body in receiver.got}
    rulings = [n for n in ids.values() if n.get("ruling") == "amended"]
    assert len(rulings) == len(subscribers)
    assert all(n["fork"]["game_id"] == fork_id for n in rulings)

    # the replay shows the original and its fork side by side
    spectator.get_by_role("link", name="Disputes side by side").click()
    expect(spectator.locator(".dispute h2")).to_contain_text("amended")
    expect(spectator.locator("dl")).to_contain_text(CLAIM)
    expect(spectator.locator("dl")).to_contain_text(re.compile(r"direction back.*in place of"))
    expect(spectator.locator(".column")).to_have_count(2)
    expect(spectator.locator(".column").first.locator("li.amended").first).to_contain_text(
        "forward"
    )
    expect(spectator.locator(".column").last.locator("li.amended").first).to_contain_text("back")
    expect(spectator.locator("tr.differs").first).to_be_visible()


def test_a_game_in_play_is_forked_and_every_live_page_follows(people: People, site):
    made = created(site, "galloping-horse", PLAYERS, "fork-in-play")
    game_id = made["game_id"]
    play(site, made, 9)
    seats = {name: people.open(invite(made, n)) for n, name in enumerate(PLAYERS)}
    spectator = people.open(f"/g/{game_id}/watch")
    kept_live([*seats.values(), spectator])
    moderator = people.open(invite(made, "moderator"))
    choose_the_move(moderator, "Ben played")
    moderator.get_by_label("Drop this move, as if it was never made").check()
    claim = "Ben's card slipped from his hand"
    number = open_dispute(moderator, claim)
    expect(moderator.locator(".you")).to_contain_text("moderator")
    rule(moderator, claim, "Amended", "a dropped card is not played")
    moderator.get_by_role("button", name="Rule", exact=True).click()
    expect(moderator.locator(".told")).to_contain_text(f"Dispute {number} is ruled amended")
    fork_id = re.search(r"/g/([0-9a-f]+)", moderator.url).group(1)
    for page in seats.values():
        expect(page.get_by_role("link", name="Go to the fork")).to_have_attribute(
            "href", f"/g/{fork_id}"
        )
        expect(page.locator("#ruling")).to_contain_text("play goes on in its fork")
        expect(page.locator("#ruling")).to_contain_text("a dropped card is not played")
        expect(page.locator("#ruling")).not_to_contain_text(claim)  # the claim is not theirs
    expect(spectator.get_by_role("link", name="Go to the fork")).to_be_visible()
    for page in [*seats.values(), spectator]:
        assert page.evaluate("window.neverReloaded") is True
    seats["Cat"].get_by_role("link", name="Go to the fork").click()
    expect(seats["Cat"].locator(".you")).to_contain_text("You play Cat")
    expect(seats["Cat"].locator("#ruling")).to_have_count(0)
    spectator.get_by_role("link", name="Go to the fork").click()
    expect(spectator.locator(".you")).to_contain_text("You are watching the public page")
    assert f"/g/{fork_id}/watch" in spectator.url


def test_a_finished_games_moderator_is_offered_only_what_may_stand(people: People, site):
    made = created(site, "galloping-horse", PLAYERS, "fork-finished")
    game_id = made["game_id"]
    play(site, made, 200)
    _, log = site.call("GET", f"/games/{game_id}/events", token=made["moderator_token"])
    last = [e for e in log["events"] if e["type"] == "RaceCardPlayed"][-1]["seq"]
    moderator = people.open(invite(made, "moderator"))
    for control in ("Pause", "Announce", "Abandon", "Replace player"):
        expect(moderator.get_by_text(control, exact=True)).to_have_count(0)
    expect(moderator.get_by_text("No dispute is open.")).to_be_attached()

    # the amendment typed as JSON, the advanced way; its fork would not end
    moderator.get_by_text("Open a dispute", exact=True).click()
    expect(moderator.get_by_text("Advanced: the amendment as JSON")).to_be_visible()
    moderator.get_by_label("Amendment (JSON)").fill(json.dumps({"kind": "drop", "seq": last}))
    claim = "the last card was never played"
    moderator.get_by_label("Claim").fill(claim)
    moderator.get_by_role("button", name="Open the dispute").click()
    expect(moderator.locator(".told")).to_contain_text(f"is open: {claim}")
    expect(moderator.locator(".told")).to_contain_text("The fork stands with the game active")
    expect(
        moderator.get_by_role("radio", name=re.compile(re.escape(claim)))
    ).to_have_accessible_name(re.compile("only kept may stand"))
    rule(moderator, claim, "Amended", "it was not played")
    moderator.get_by_role("button", name="Rule", exact=True).click()
    expect(moderator.locator("#error")).to_contain_text("the seed of this game is public")
    _, after = site.call("GET", f"/games/{game_id}/events", token=made["moderator_token"])
    assert after["version"] == log["version"] + 1  # the opening, and no ruling
    rule(moderator, claim, "Kept", "the card was on the table")
    moderator.get_by_role("button", name="Rule", exact=True).click()
    expect(moderator.locator(".told")).to_contain_text("is ruled kept")
    expect(moderator.get_by_text("No dispute is open.")).to_be_attached()
