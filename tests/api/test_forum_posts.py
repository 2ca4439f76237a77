"""Forum posts for every ruleset: `GET /games/{id}/post` rendered by real Markdown and
BBCode renderers (tests/forum.py) reads as the public page tells the game, with hostile
player names shown as typed; where a post starts (`since`, the moderator's mark); and the
OpenAPI document."""

import re
from html.parser import HTMLParser

import pytest
from forum import FORMAT_OF, NAMES, OURS, RENDERERS, seen

from referee import bots
from referee.engine.rng import Rng
from referee.posts import forum

BASE = "http://localhost"
SEATS = {
    "galloping-horse": 4,
    "dark-horse": 4,
    "royal-turf": 4,
    "dark-horse-west": 2,
    "blackout-middle": 4,
}
IN_TURNS = {"clock": {"seconds": 86400}}


def played(app, ruleset: str, commands: int) -> dict:
    """A game of hostile names after `commands` random bots' commands, or fewer if it
    ends (a clock when the game is played in turns)."""
    service = app.extensions["referee"]
    clock = None if ruleset == "blackout-middle" else IN_TURNS["clock"]
    made = service.create_game(ruleset, NAMES[: SEATS[ruleset]], {}, f"post-{ruleset}", clock=clock)
    rng = Rng(f"bots-{ruleset}")
    for turn in range(commands):
        if service.state(made["game_id"])["status"] != "active":
            break
        actor, command = bots.choose(service.state(made["game_id"]), rng, turn)
        service.command(made["game_id"], actor, command, now=command.pop("now", None))
    return made


class Feed(HTMLParser):
    """The sentences of a page's "What happened" list, newest first."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside, self.item, self.items = False, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "section" and dict(attrs).get("id") == "feed":
            self.inside = True
        elif self.inside and tag == "li":
            self.item = []

    def handle_endtag(self, tag):
        if tag == "section":
            self.inside = False
        elif tag == "li" and self.item is not None:
            self.items.append(" ".join("".join(self.item).split()))
            self.item = None

    def handle_data(self, data):
        if self.item is not None:
            self.item.append(data)


def public_feed(client, game_id: str) -> list[str]:
    reader = Feed()
    reader.feed(client.get(f"/g/{game_id}/watch").get_data(as_text=True))
    return reader.items


def when(utc: str) -> str:
    return utc.replace("T", " ").replace("Z", " UTC")


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
@pytest.mark.parametrize("ruleset", sorted(SEATS))
def test_a_post_tells_what_the_public_page_tells_and_whose_move_it_is(
    app, client, ruleset, renderer
):
    game_id = played(app, ruleset, 10)["game_id"]
    view = client.get(f"/games/{game_id}").get_json()
    fmt = FORMAT_OF[renderer]
    text = client.get(f"/games/{game_id}/post?since=0&format={fmt}").get_data(as_text=True)
    shown = seen(RENDERERS[renderer](text))
    assert shown.inside_items == [] and set(shown.tags) <= OURS  # no name became markup
    told = list(reversed(public_feed(client, game_id)))
    assert len(told) > 3
    assert shown.items[: len(told)] == told  # every sentence, oldest first, as typed
    now = shown.items[len(told) :]
    assert now and all(name in shown.text for name in NAMES[: SEATS[ruleset]])
    if "clock" in view:
        deadlines = view["clock"]["deadlines_utc"]
        assert now == [
            f"To move: {view['players'][s]}, by {when(deadlines[s])}." for s in view["to_move"]
        ]
    else:
        opened = view["round"]["open"]
        assert now[0].startswith(f"Round {opened['round']} is ")
    picture = f"{BASE}/games/{game_id}/board.png?at={view['version']}"
    assert shown.images == [(picture, False)]
    assert f"events 1 to {view['version']}" in shown.text


def test_the_board_picture_of_a_post_is_the_public_board_then(app, client):
    game_id = played(app, "royal-turf", 6)["game_id"]
    text = client.get(f"/games/{game_id}/post").get_data(as_text=True)
    (url,) = re.findall(r"\]\((http://localhost/games/[^)]+)\)", text)
    picture = client.get(url.removeprefix(BASE))
    assert picture.status_code == 200 and picture.mimetype == "image/png"


def test_a_post_starts_after_the_last_one_the_moderator_marked(app, client):
    made = played(app, "galloping-horse", 8)
    game_id = made["game_id"]
    moderator = {"Authorization": f"Bearer {made['moderator_token']}"}
    whole = seen(RENDERERS["commonmark"](client.get(f"/games/{game_id}/post").get_data(True)))
    version = client.get(f"/games/{game_id}").get_json()["version"]
    marked = client.put(f"/games/{game_id}/post/since", json={"since": 10}, headers=moderator)
    assert marked.status_code == 200 and marked.get_json() == {"game_id": game_id, "since": 10}
    later = seen(RENDERERS["commonmark"](client.get(f"/games/{game_id}/post").get_data(True)))
    assert f"events 11 to {version}" in later.text
    news = later.items[: later.items.index(next(i for i in later.items if "To move" in i))]
    assert 0 < len(news) < whole.items.index(next(i for i in whole.items if "To move" in i))
    assert whole.items[: len(whole.items) - 1][-len(news) :] == news  # the newest sentences
    given = client.get(f"/games/{game_id}/post?since={version}").get_data(True)
    assert f"nothing new since event {version}" in given and "Nothing new." in given
    assert client.put(f"/games/{game_id}/post/since", json={"since": version}, headers=moderator)
    assert "Nothing new." in client.get(f"/games/{game_id}/post").get_data(True)


@pytest.mark.parametrize(
    ("who", "body", "status", "field"),
    [
        ("seat", {"since": 1}, 403, None),
        (None, {"since": 1}, 401, None),
        ("moderator", {"since": 10_000}, 404, "since"),
        ("moderator", {"since": -1}, 400, "since"),
        ("moderator", {"since": "3"}, 400, "since"),
        ("moderator", {}, 400, "since"),
    ],
)
def test_only_the_moderator_marks_a_post_and_a_bad_mark_changes_nothing(
    app, client, who, body, status, field
):
    made = played(app, "dark-horse", 4)
    game_id = made["game_id"]
    tokens = {"seat": made["seats"][0]["token"], "moderator": made["moderator_token"]}
    headers = {"Authorization": f"Bearer {tokens[who]}"} if who else {}
    before = client.get(f"/games/{game_id}/post").get_data(True)
    answer = client.put(f"/games/{game_id}/post/since", json=body, headers=headers)
    assert answer.status_code == status
    if field:
        assert field in str(answer.get_json()["error"])
    assert client.get(f"/games/{game_id}/post").get_data(True) == before


@pytest.mark.parametrize(
    ("query", "status"),
    [("since=999", 404), ("since=-1", 400), ("since=x", 400), ("format=html", 400)],
)
def test_a_bad_post_query_is_refused_naming_the_field(app, client, query, status):
    game_id = played(app, "dark-horse", 2)["game_id"]
    answer = client.get(f"/games/{game_id}/post?{query}")
    assert answer.status_code == status
    assert query.split("=")[0] in str(answer.get_json()["error"])


def test_an_unknown_game_has_no_post(client):
    assert client.get("/games/0123456789abcdef/post").status_code == 404


def test_the_post_routes_are_in_the_openapi_document(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    post = paths["/games/{game_id}/post"]["get"]
    assert {p["name"] for p in post["parameters"] if p["in"] == "query"} >= {"since", "format"}
    assert "text/plain" in post["responses"]["200"]["content"]
    assert "put" in paths["/games/{game_id}/post/since"]


def now_of(client, game_id: str) -> list[str]:
    """The items of a post's "Now" section, as CommonMark renders them."""
    text = client.get(f"/games/{game_id}/post").get_data(as_text=True)
    now = text[text.index("**Now**") :]
    return seen(RENDERERS["commonmark"](now)).items


def test_a_post_says_when_the_game_is_paused_late_over_or_abandoned(app, client):
    service = app.extensions["referee"]
    made = played(app, "galloping-horse", 3)
    game_id = made["game_id"]
    seat = service.view(game_id, None)["to_move"][0]
    name = NAMES[seat]
    service.command(game_id, "moderator", {"type": "pause", "reason": "holidays"})
    assert now_of(client, game_id) == [
        "The game is paused: no deadline runs until the moderator resumes it.",
        f"To move: {name} (the clock is paused).",
    ]
    service.command(game_id, "moderator", {"type": "abandon", "reason": "no quorum"})
    seed = service.view(game_id, None)["seed"]
    assert now_of(client, game_id) == [
        "The game was abandoned.",
        f"The seed is revealed: {seed} (anyone can now check every draw).",
    ]
    finished = played(app, "galloping-horse", 200)["game_id"]
    view = service.view(finished, None)
    assert view["status"] == "finished"
    ending, seeded = now_of(client, finished)
    winners = [NAMES[s] for s in view["outcome"]["winners"]]
    assert ending.startswith("The game is over: ") and all(w in ending for w in winners)
    assert seeded == f"The seed is revealed: {view['seed']} (anyone can now check every draw)."


def test_a_seat_whose_time_ran_out_waits_for_the_moderator_in_the_post(app, client):
    service = app.extensions["referee"]
    service.clock = lambda: 1_800_000_000
    made = service.create_game(
        "dark-horse", NAMES[:3], {}, "late", clock={"seconds": 3600, "on_timeout": "wait"}
    )
    game_id = made["game_id"]
    seat = service.view(game_id, None)["to_move"][0]
    assert service.time_out(game_id, seat, 1_800_003_600, now=1_800_003_600) == "timed_out"
    assert now_of(client, game_id) == [
        f"To move: {NAMES[seat]} (their time ran out: the moderator decides)."
    ]


def test_a_choice_left_to_the_moderator_is_named_in_the_post():
    """Blackout Middle's awards wait for the moderator to record a vote: the post names
    the moderator among those to move (a seat's own line beside it)."""
    view = {"status": "active", "players": ["Ann", "Ben"], "to_move": [0, "moderator"]}
    assert forum.now(view) == ["To move: Ann (no time limit).", "To move: the moderator."]
