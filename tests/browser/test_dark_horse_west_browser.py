"""A 2-player dark-horse-west game in browsers, through its first full game turn by
clicking: setup (characters, cities, towns, rails), the Placement Phase (dice on actions,
from choice lists) and the Collection Phase, every move the first one offered."""

from browsing import People, caught_up, first_move, shoot, to_move
from playwright.sync_api import expect

PLAYERS = ["Ann", "Ben"]
MOST_MOVES = 400  # a bound for failing only


def test_two_players_play_the_first_game_turn_by_clicking(people: People):
    moderator = people.open("/")
    moderator.get_by_role("link", name="New Dark Horse West game").click()
    for n, name in enumerate(PLAYERS):
        moderator.get_by_label(f"Player {n + 1}", exact=True).fill(name)
    moderator.get_by_label("Seed (optional)").fill("browser-west")
    moderator.get_by_role("button", name="Create the game").click()
    seats = {
        name: people.open(moderator.get_by_label(name, exact=True).input_value())
        for name in PLAYERS
    }
    spectator = people.open(moderator.get_by_label("Spectators (public)").input_value())
    shot = False
    for _ in range(MOST_MOVES):
        if "Game turn 1 ends." in spectator.locator("#feed").inner_text():
            break
        mover = seats[to_move(seats["Ann"])]
        if not shot and mover.locator("#moves select").count():
            shoot(mover, "dark-horse-west-seat")
            shot = True
        first_move(mover)
        caught_up([*seats.values(), spectator], mover)
    else:
        raise AssertionError(f"the first game turn did not end within {MOST_MOVES} moves")
    expect(spectator.locator("#feed")).to_contain_text(
        "The Collection Phase of game turn 1 begins."
    )
    shoot(spectator, "dark-horse-west-spectator")
