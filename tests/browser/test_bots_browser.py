"""Bots in seats, in a real browser against `referee serve` (its embedded worker plays
the bots' moves): a newcomer starts a game of each ruleset against strong bots from the
home page and plays it to the end by clicking, moderating it too where the rules ask the
moderator to move; a seat goes quiet, the moderator hands it to a bot, and the player
takes it back; a player lets a bot play for them and comes back."""

import re

import pytest
from browsing import (
    BOT_ITERATIONS,
    People,
    answered,
    caught_up,
    create_game,
    fill_options,
    first_move,
    shoot,
)
from playwright.sync_api import Page, Route, expect
from served import ROOT, Http

# (the game as the home page names it, the options a newcomer sets on the form, how the
# feed tells a move of the bot in seat 2, under its own name): a whole game of each
# against strong bots, from the home page. Dark Horse West: no characters, which its form
# says is for new players; every other option as the form has it
AGAINST_BOTS = [
    ("Galloping Horse", {}, r"Bot 2 played \w+\."),
    ("Dark Horse", {}, r"Bot 2 (plays card|lays horse)"),
    ("Royal Turf", {}, r"Bot 2 (bet chip \d on|moved) \w+"),
    ("Dark Horse West", {"characters": "none"}, r"Bot 2 places .+ on "),
    ("Blackout Middle", {}, r"Bot 2 seals orders for Round \d+"),
]
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
MOST_ACTIONS = 1000  # the newcomer's, in one game: a bound for failing only
SHOT_AT = 3  # the newcomer's page is shot when asked again after this many actions
# moves the newcomer leaves alone: blackout-middle's trades and purchases between rounds'
# orders (the bots neither make nor answer them)
DEALS = re.compile(r"^(Offer|Accept|Decline|Withdraw) trade$|^Buy card$")
TRADES = ROOT / "replays" / "corpus" / "blackout-middle" / "blackout-middle-scenario-trades.jsonl"
VOTE_CALLED = 231  # its lines up to the vote on the Elimination Candidate being called


@pytest.mark.parametrize(("game", "options", "bot_moved"), AGAINST_BOTS)
def test_a_newcomer_plays_a_whole_game_against_strong_bots_from_the_home_page(
    people: People, site: Http, game: str, options: dict[str, str], bot_moved: str
):
    newcomer = people.open("/")
    newcomer.get_by_role("link", name=f"Play {game} against bots").click()
    expect(newcomer.get_by_role("heading", name=f"Play {game} against bots")).to_be_visible()
    newcomer.get_by_label("Your name").fill("Ann")
    seats = newcomer.locator("select[name=played_by]")
    bots = [seats.nth(n).input_value() for n in range(1, seats.count())]
    assert bots[0] == "strong" and set(bots) <= {"strong", ""}  # every other seat, as it comes
    fill_options(newcomer, **options)
    slug = game.lower().replace(" ", "-")
    newcomer.get_by_label("Seed (optional)").fill(f"browser-bots-{slug}")
    if game == "Galloping Horse":
        shoot(newcomer, "against-bots")
    newcomer.get_by_role("button", name="Create the game").click()
    expect(newcomer.get_by_role("heading", name="Your game is ready")).to_be_visible()
    expect(newcomer.locator("p.bots")).to_contain_text("Bot 2 (strong)")
    expect(newcomer.locator(".you-moderate")).to_contain_text("You are this game's moderator too")
    links = {  # kept, as the page says to
        "seat": newcomer.get_by_label("Ann", exact=True).input_value(),
        "moderator": newcomer.get_by_label("Moderator (you)").input_value(),
    }
    newcomer.get_by_role("link", name="Play Ann's seat in this browser").click()
    expect(newcomer.locator(".you")).to_contain_text("You play Ann")
    expect(newcomer.locator("#status .bots")).to_contain_text("Bot 2 (strong)")
    acted = play_to_the_end(newcomer, links, f"against-bots-{slug}-seat")
    assert acted >= SHOT_AT
    expect(newcomer.locator(".over")).to_contain_text("The game is over")
    feed = newcomer.locator("#feed")
    expect(feed).to_contain_text(re.compile(bot_moved))  # a bot under its own name
    expect(feed).not_to_contain_text("Bot 2's bot")
    expect(newcomer.locator("#fairness")).to_contain_text("The log verifies")
    shoot(newcomer, f"against-bots-{slug}-finished")
    assert f"strong bots' budget: {BOT_ITERATIONS} iterations" in served_log(site)


def play_to_the_end(page: Page, links: dict[str, str], shot: str) -> int:
    """The newcomer plays their seat until the game is over, whatever it asks: the first
    move offered, the round's orders sealed as the form has them, and the moderator's
    move on the moderator's page when the seat's page says the game waits for it; the
    number of their actions."""
    sealed = None  # the last round whose orders the newcomer sealed
    for acted in range(MOST_ACTIONS):
        asked = asked_of(page, sealed)
        if asked == "over":
            return acted
        if acted == SHOT_AT:
            shoot(page, shot)
        if asked == "orders":
            sealed = seal_orders(page)
        elif asked == "move":
            first_move(page)
        else:
            moderate(page, links)
    raise AssertionError(f"the game did not end within {MOST_ACTIONS} of the newcomer's actions")


def asked_of(page: Page, sealed: int | None) -> str:
    """Wait until the seat's page asks something: `orders` (a round's orders not yet
    sealed), `move`, `moderator` (the game waits for the moderator's move), or `over`."""
    over = page.locator(".over")
    orders = page.locator("#orders-h")
    if sealed is not None:
        orders = orders.filter(has_not_text=re.compile(rf"round {sealed}$"))
    moves = page.locator("#play:not(:has(#orders)) #moves fieldset").filter(
        has_not=page.locator("legend", has_text=DEALS)
    )
    moderator = page.locator(".moderator-asked")
    expect(over.or_(orders).or_(moves).or_(moderator).first).to_be_visible()
    for asked, where in (("over", over), ("orders", orders), ("move", moves)):
        if where.count():
            return asked
    return "moderator"


def seal_orders(page: Page) -> int:
    """The open round's orders as the form offers them, sealed; the round's number."""
    number = int(re.search(r"round (\d+)", page.locator("#orders-h").inner_text())[1])
    with answered(page, f"Your orders for round {number} are sealed"):
        page.get_by_role("button", name=f"Seal my orders for round {number}").click()
    return number


def moderate(page: Page, links: dict[str, str]) -> None:
    """The newcomer is the game's moderator too: their seat's page says so, the
    moderator's link takes this browser to the moderator's page, where the first move
    offered is made, and the seat's link brings it back."""
    expect(page.locator(".moderator-asked")).to_contain_text("Open the moderator's link")
    page.goto(links["moderator"])
    expect(page.locator(".you")).to_contain_text("You are the moderator")
    first_move(page)
    page.goto(links["seat"])
    expect(page.locator(".you")).to_contain_text("You play Ann")


def test_a_player_who_moderates_too_records_the_vote_their_seats_page_waits_for(
    people: People, site: Http
):
    """Blackout-middle's awards at the vote on the Elimination Candidate, which only the
    moderator records (a recorded game, imported just before the vote): the seat's page
    says the game waits for the moderator, and its player, who moderates too, records it
    on the moderator's page and comes back to the end."""
    lines = TRADES.read_bytes().splitlines(keepends=True)[:VOTE_CALLED]
    body = {"log": b"".join(lines).decode(), "seed": "blackout-middle/trades"}
    status, made = site.call("POST", "/games/import", body=body)
    assert status == 201, made
    join = f"{site.base}/join/{made['game_id']}?token="
    links = {"seat": join + made["seats"][0]["token"], "moderator": join + made["moderator_token"]}
    ann = people.open(links["seat"])
    expect(ann.locator(".turn")).to_contain_text("To move: the moderator.")
    shoot(ann, "moderator-asked")
    moderate(ann, links)
    expect(ann.locator(".over")).to_contain_text("The game is over")
    expect(ann.locator("#feed")).to_contain_text("The vote on the Elimination Candidate: Ann for")


def test_a_live_answer_that_comes_after_a_newer_one_is_dropped(people: People, site: Http):
    """Moves in quick succession (bots') overlap a page's fetches of its view: the answer
    for the older version, coming after the newer one was shown, leaves the page as it is
    (it stayed behind the game, asking nothing, when it did not)."""
    moderator = people.open("/")
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-out-of-order")
    ann, ben = people.open(links["Ann"]), people.open(links["Ben"])
    spectator = people.open(links["public"])
    spectator.evaluate(COUNT_PARSED)
    held: list[Route] = []
    spectator.route(
        re.compile(r"/part$"), lambda route: held.append(route) if not held else route.continue_()
    )
    with spectator.expect_request(re.compile(r"/part$")):
        first_move(ann)  # the spectator's page asks for its view after Ann's move: held
    older = site.call("GET", links["public"].replace(site.base, "") + "/part", raw=True)[1]
    first_move(ben)
    caught_up([spectator], ben)  # the answer after Ben's move came first, and is shown
    held[0].fulfill(status=200, content_type="text/html; charset=utf-8", body=older)
    spectator.wait_for_function("() => window.parsed >= 2")  # both answers read
    caught_up([spectator], ben)


# counts the views a page has read (each read is shown, or dropped, at once)
COUNT_PARSED = """() => {
  window.parsed = 0;
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (...args) {
    const parsed = parse.apply(this, args);
    if (parsed.getElementById("live")) window.parsed += 1;
    return parsed;
  };
}"""


def served_log(site: Http) -> str:
    """What `referee serve` and its workers wrote (the site's own log files)."""
    return "".join(f.read_text() for f in sorted(site.db.parent.glob("serve-*.log")))


def until_turn_of(name: str, seats: dict[str, Page], watcher: Page) -> None:
    """Everyone plays their first move until it is `name`'s turn, as the watcher's page
    says; a seat a bot plays moves by itself (and may move the moment the seat before it
    has, so the watcher is only asked to have moved past each mover)."""
    while True:
        turn = watcher.locator(".turn").inner_text()
        mover = re.search(r"To move: (\w+)", turn)[1]
        if mover == name:
            return
        if f"{mover} (bot)" not in turn:
            first_move(seats[mover])
        expect(watcher.locator(".turn")).not_to_contain_text(f"To move: {mover}")


def test_a_quiet_seat_is_handed_to_a_bot_by_the_moderator_and_taken_back(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-quiet-seat")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    public = people.open(links["public"])
    until_turn_of("Ben", seats, public)

    mod = people.open(links["moderator"])  # Ben is quiet: the moderator hands him to a bot
    mod.locator("summary", has_text="Hand a seat to a bot").click()
    control = mod.locator("details.control").filter(has_text="Hand a seat to a bot")
    control.get_by_label("Seat").select_option(label="Ben (seat 2)")
    control.get_by_label("Level").select_option("standard")
    control.get_by_label("Reason").fill("Ben is away this week")
    shoot(mod, "bots-moderator")
    control.get_by_role("button", name="Hand a seat to a bot").click()
    expect(mod.locator("p.told")).to_contain_text("Done: the seat is handed to a bot")
    feed = public.locator("#feed")
    expect(feed).to_contain_text(
        "The moderator handed Ben's seat to a standard bot (Ben is away this week)."
    )
    expect(feed).to_contain_text(re.compile(r"Ben's bot played \w+\."))  # the worker moved

    ben = seats["Ben"]
    expect(ben.locator("#my-seat")).to_contain_text("A standard bot plays your seat now")
    expect(ben.locator("#moves button")).to_have_count(0)
    shoot(ben, "bots-holiday")
    ben.get_by_role("button", name="Take my seat back").click()
    expect(ben.locator("p.told")).to_contain_text("Done: you play your seat again")
    expect(feed).to_contain_text("Ben took their seat back from their bot.")
    expect(ben.get_by_role("button", name="Let a bot play for me")).to_be_visible()

    until_turn_of("Ben", seats, public)
    his_own = feed.locator("li", has_text=re.compile(r"^(new )?Ben played \w+\.$"))
    before = his_own.count()
    first_move(ben)  # his own move again, from his page
    expect(his_own).to_have_count(before + 1)


def test_a_player_lets_a_bot_play_for_them_and_comes_back(people: People):
    moderator = people.open("/")
    links = create_game(moderator, "Galloping Horse", PLAYERS, "browser-holiday")
    seats = {name: people.open(links[name]) for name in PLAYERS}
    public = people.open(links["public"])
    cat = seats["Cat"]
    cat.get_by_label("Bot", exact=True).select_option(label="Random: any legal move, at random")
    cat.get_by_role("button", name="Let a bot play for me").click()
    expect(cat.locator("p.told")).to_contain_text("Done: a bot plays your seat now")
    expect(public.locator("#feed")).to_contain_text("Cat handed their seat to a random bot.")
    expect(public.locator("#status .bots")).to_contain_text("Cat (random)")
    until_turn_of("Dan", seats, public)  # Cat's bot moved on the way
    expect(public.locator("#feed")).to_contain_text(re.compile(r"Cat's bot played \w+\."))
    cat.get_by_role("button", name="Take my seat back").click()
    expect(public.locator("#feed")).to_contain_text("Cat took their seat back from their bot.")
    expect(public.locator("#status .bots")).to_have_count(0)
