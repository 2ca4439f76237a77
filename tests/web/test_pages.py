"""The pages over the real app and a real SQLite file: what each viewer is shown, the
invite-link cookie, CSRF, escaping, and errors that change nothing."""

import re
from html.parser import HTMLParser

import pytest

from referee.web.seats import cookie_name

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HOSTILE = ["<img src=x onerror=alert(1)>", "[url=javascript:alert(1)]x[/url]", "Cat", "Dan"]


class Tags(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def create(client, players=PLAYERS, **fields) -> tuple[str, str]:
    """A galloping-horse game through the new-game form: (game id, created page)."""
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": players, "seed": "page-seed", **fields}
    answer = client.post("/new/galloping-horse", data=data)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.headers["Cache-Control"] == "no-store"  # the links are in it
    page = answer.get_data(as_text=True)
    return re.search(r"/join/([0-9a-f]+)\?", page).group(1), page


def links(page: str) -> list[str]:
    """The invite links on a created page, seats first, then the moderator's."""
    return [
        m.replace("http://localhost", "").replace("&amp;", "&")
        for m in re.findall(r'value="(http://localhost/join/[^"]+)"', page)
    ]


def seated(app, link: str):
    """A new browser (test client) that opened an invite link."""
    browser = app.test_client()
    answer = browser.get(link)
    assert answer.status_code == 303
    return browser


def events(app, game_id: str) -> int:
    return len(app.extensions["referee"].store.events(game_id))


def test_home_offers_a_new_game_of_every_ruleset(client):
    page = client.get("/").get_data(as_text=True)
    for ruleset in ("galloping-horse", "dark-horse", "royal-turf", "blackout-middle"):
        assert f'href="/new/{ruleset}"' in page
    assert 'href="/new/dark-horse-west"' in page


@pytest.mark.parametrize(
    "ruleset", ["galloping-horse", "dark-horse", "royal-turf", "blackout-middle", "dark-horse-west"]
)
def test_the_new_game_form_names_every_option_with_its_default(client, ruleset):
    description = client.get(f"/rulesets/{ruleset}").get_json()
    page = client.get(f"/new/{ruleset}").get_data(as_text=True)
    for name in description["options"]:
        assert f'name="option-{name}"' in page
    assert set(description["option_texts"]) == set(description["options"])
    for text in description["option_texts"].values():
        assert text.replace("'", "&#39;").replace('"', "&#34;") in page
    assert page.count('name="player"') == description["max_players"]


def test_a_bad_option_is_named_and_creates_nothing(app, client):
    form = client.get("/new/galloping-horse").get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": PLAYERS, "option-food_cards": "lots"}
    answer = client.post("/new/galloping-horse", data=data)
    assert answer.status_code == 400
    assert "food_cards: a whole number" in answer.get_data(as_text=True)
    assert app.extensions["referee"].store.db["games"].count == 0


def test_a_list_option_may_be_typed_with_commas(app, client):
    game_id, _ = create(client, **{"option-line_up": "blue, red, green, yellow"})
    shown = app.extensions["referee"].view(game_id, None)
    assert shown["options"]["line_up"] == ["blue", "red", "green", "yellow"]


def test_creating_without_the_forms_token_is_refused(app, client):
    answer = client.post("/new/galloping-horse", data={"player": PLAYERS})
    assert answer.status_code == 400
    assert "could not be accepted" in answer.get_data(as_text=True)
    assert app.extensions["referee"].store.db["games"].count == 0


def test_the_created_page_shows_each_seats_link_once_and_the_commitment(app, client):
    game_id, page = create(client)
    assert len(links(page)) == 5
    commitment = app.extensions["referee"].view(game_id, None)["seed_commitment"]
    assert commitment in page


def test_an_invite_link_becomes_a_strict_http_only_cookie_and_leaves_the_url(app, client):
    game_id, page = create(client)
    browser = app.test_client()
    answer = browser.get(links(page)[1])
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/g/{game_id}/welcome"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{cookie_name(game_id)}=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert answer.headers["Referrer-Policy"] == "same-origin"  # no Referer leaves the site
    welcome = browser.get(answer.headers["Location"]).get_data(as_text=True)
    assert "token" not in welcome
    shown = browser.get(f"/g/{game_id}").get_data(as_text=True)
    assert "You play <strong>Ben</strong>" in shown


def test_every_page_has_a_policy_without_inline_scripts_or_handlers(app, client):
    game_id, page = create(client)
    browser = seated(app, links(page)[0])
    pages = [client.get("/"), client.get("/new/royal-turf"), client.get(f"/g/{game_id}")]
    pages += [browser.get(f"/g/{game_id}"), browser.get(f"/g/{game_id}/watch")]
    for answer in pages:
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        for tag, attrs in tags(answer.get_data(as_text=True)):
            assert not any(name.startswith("on") for name in attrs), (tag, attrs)
            assert "style" not in attrs, (tag, attrs)
            if tag == "script":
                assert attrs.get("src"), "an inline script"


def test_hostile_names_are_shown_as_text_everywhere(app, client):
    game_id, page = create(client, players=HOSTILE)
    browser = seated(app, links(page)[0])
    shown = [page, client.get(f"/g/{game_id}").get_data(as_text=True)]
    shown += [browser.get(f"/g/{game_id}").get_data(as_text=True)]
    shown += [client.get(f"/g/{game_id}/watch").get_data(as_text=True)]
    for html in shown:
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
        assert not [t for t, _ in tags(html) if t == "img"]
        assert 'href="javascript' not in html


def test_a_seat_plays_a_legal_move_from_its_page(app, client):
    game_id, page = create(client)
    seat = seated(app, links(page)[0])
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    command = re.search(r'name="command" value="([^"]+)"', shown).group(1).replace("&#34;", '"')
    version = re.search(r'name="version" value="(\d+)"', shown).group(1)
    before = events(app, game_id)
    data = {"csrf_token": csrf(shown), "command": command, "version": version, "key": "k"}
    answer = seat.post(f"/g/{game_id}/move", data=data)
    assert answer.status_code == 303
    played = events(app, game_id)
    assert played > before
    again = seat.post(f"/g/{game_id}/move", data=data)  # the same form sent twice
    assert again.status_code == 303
    assert events(app, game_id) == played
    after = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Done: play card." in after


def test_an_illegal_move_is_explained_and_appends_nothing(app, client):
    game_id, page = create(client)
    seat = seated(app, links(page)[1])  # Ben: not his turn
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    before = events(app, game_id)
    command = '{"type": "play_card", "horse": "red"}'
    answer = seat.post(f"/g/{game_id}/move", data={"csrf_token": csrf(shown), "command": command})
    assert answer.status_code == 422
    assert "Not done:" in answer.get_data(as_text=True)
    assert events(app, game_id) == before
    nonsense = seat.post(f"/g/{game_id}/move", data={"csrf_token": csrf(shown), "command": "{"})
    assert nonsense.status_code == 400
    assert "choose one of the moves offered" in nonsense.get_data(as_text=True)
    no_token = seat.post(f"/g/{game_id}/move", data={"command": command})
    assert no_token.status_code == 400
    assert events(app, game_id) == before


def test_a_spectator_cannot_move_and_sees_no_hand(app, client):
    game_id, page = create(client)
    stranger = app.test_client()
    shown = stranger.get(f"/g/{game_id}").get_data(as_text=True)
    assert "You are watching as a spectator" in shown
    assert 'name="command"' not in shown
    answer = stranger.post(
        f"/g/{game_id}/move", data={"csrf_token": csrf(shown) if "csrf" in shown else ""}
    )
    assert answer.status_code == 400


def test_replacing_a_player_kills_the_old_link_and_cookie(app, client):
    game_id, page = create(client)
    old = seated(app, links(page)[2])  # Cat
    moderator_page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "You are the <strong>moderator</strong>" in moderator_page
    data = {"csrf_token": csrf(moderator_page), "type": "replace_player", "seat": "2"}
    answer = client.post(f"/g/{game_id}/moderate", data={**data, "name": "Cyd", "reason": "left"})
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    new_link = re.search(r'value="http://localhost(/join/[^"]+)"', answer.get_data(as_text=True))
    assert app.test_client().get(links(page)[2]).status_code == 403
    lost = old.get(f"/g/{game_id}")
    assert "was replaced by the moderator" in lost.get_data(as_text=True)
    assert f"{cookie_name(game_id)}=;" in lost.headers["Set-Cookie"]
    fresh = seated(app, new_link.group(1).replace("&amp;", "&"))
    assert "You play <strong>Cyd</strong>" in fresh.get(f"/g/{game_id}").get_data(as_text=True)


def test_the_moderator_announces_and_everyone_reads_it_escaped(app, client):
    game_id, _ = create(client)
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    text = "<b>Round two</b> starts Friday"
    data = {"csrf_token": csrf(page), "type": "announce", "text": text}
    assert client.post(f"/g/{game_id}/moderate", data=data).status_code == 303
    public = client.get(f"/g/{game_id}/watch").get_data(as_text=True)
    assert "The moderator announced: &lt;b&gt;Round two&lt;/b&gt; starts Friday" in public


def test_only_the_moderator_moderates(app, client):
    game_id, page = create(client)
    seat = seated(app, links(page)[0])
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    before = events(app, game_id)
    data = {"csrf_token": csrf(shown), "type": "abandon", "reason": "mine now"}
    answer = seat.post(f"/g/{game_id}/moderate", data=data)
    assert answer.status_code == 400
    assert events(app, game_id) == before


def test_the_log_is_the_moderators_until_the_end(app, client):
    game_id, page = create(client)
    seat = seated(app, links(page)[0])
    assert seat.get(f"/g/{game_id}/log.jsonl").status_code == 403
    log = client.get(f"/g/{game_id}/log.jsonl")
    assert log.status_code == 200
    assert log.headers["Content-Disposition"].startswith("attachment")


def test_an_unknown_game_is_a_page_that_says_so(client):
    answer = client.get("/g/nosuchgame")
    assert answer.status_code == 404
    assert "No such game" in answer.get_data(as_text=True)
    assert client.get("/join/nosuchgame?token=x").status_code == 403
