"""A game by post with a turn clock, in a real browser: the moderator sets the clock on
the new-game form, every page shows who is on the clock until when, a player takes an
extension, sets a standing choice and turns notifications on, all by clicking."""

import re

from browsing import People, create_game, shoot
from playwright.sync_api import expect

PLAYERS = ["Ann", "Ben", "Cat"]


def test_a_clocked_game_is_set_up_and_played_from_the_pages(people: People):
    moderator = people.open("/")
    clock = {"length": "24", "unit": "hours", "on_timeout": "default", "extensions": "1"}
    links = create_game(moderator, "Royal Turf", PLAYERS, "clocked", clock=clock)
    public = people.open(links["public"])
    expect(public.locator(".clocks")).to_contain_text("Turn clock: 1 day per move")
    expect(public.locator(".clocks")).to_contain_text("the referee plays a standard move")
    first = re.search(r"To move: (\w+)", public.locator(".turn").inner_text()).group(1)
    player = people.open(links[first])
    expect(player.locator(".clocks li")).to_contain_text(f"{first}: to move by")
    expect(player.locator(".clocks .countdown")).not_to_be_empty()  # counts down live

    player.get_by_role("button", name="Take an extension").click()
    expect(player.locator("#feed")).to_contain_text(f"{first} took an extension.")
    expect(player.get_by_role("button", name="Take an extension")).to_have_count(0)

    player.get_by_label("In a race, move the horse at once when only one horse may move.").check()
    player.get_by_role("button", name="Save my standing choices").click()
    expect(player.locator("#feed")).to_contain_text(f"{first}'s standing choices: move only horse.")
    expect(public.locator("#feed")).not_to_contain_text("standing choices")

    player.get_by_label("Send to").select_option("webhook")
    player.get_by_label("URL").fill("http://127.0.0.1:9/hook")
    player.get_by_label("Remind me this many hours before a deadline").fill("4, 1")
    player.get_by_role("button", name="Notify me").click()
    expect(player.get_by_role("heading", name="Notifications on")).to_be_visible()
    assert player.get_by_label("Signing secret").input_value().startswith("whsec_")
    player.get_by_role("link", name="Back to the game").click()
    expect(player.locator("#notifications")).to_contain_text("reminders 4, 1 h before a deadline")
    shoot(player, "clock-seat")

    mod = people.open(links["moderator"])
    for control in ("Extend clock", "Play for", "Pause", "Resume"):
        expect(mod.locator("summary", has_text=control)).to_have_count(1)
    shoot(mod, "clock-moderator")
