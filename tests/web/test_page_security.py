"""The pages' cookies and where their forms may come from, over the real app and a real
SQLite file: every cookie is SameSite=Strict and HttpOnly (Secure over HTTPS), and a
form another site sent is refused before anything is looked at or changed."""

import re

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from referee.web.seats import cookie_name

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
REFUSED = "This form must be sent from this site"
# every POST form of the pages: a new test fails when a form is added and not listed here
FORMS = {
    "pages.new_game",
    "pages.leave",
    "pages.move",
    "pages.orders",
    "pages.standing_choices",
    "pages.subscribe",
    "pages.unsubscribe",
    "pages.moderate",
    "pages.mark_posted",
    "replay.upload",
    "replay.receipt",
    "replay.import_upload",
}
CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"},
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://localhost:8080"},  # another port
    {"Origin": "https://localhost"},  # another scheme
    {"Origin": "http://localhost.evil.example"},
    {"Origin": "not an origin"},
    {"Sec-Fetch-Site": "same-origin", "Origin": "https://evil.example"},
]


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def set_cookies(answer) -> list[str]:
    return answer.headers.getlist("Set-Cookie")


def create(client, **request) -> tuple[str, str, list[str]]:
    """A galloping-horse game from the new-game form: (game id, created page, every
    Set-Cookie header the two requests answered)."""
    form = client.get("/new/galloping-horse", **request)
    data = {"csrf_token": csrf(form.get_data(as_text=True)), "player": PLAYERS, "seed": "s"}
    created = client.post("/new/galloping-horse", data=data, **request)
    assert created.status_code == 200, created.get_data(as_text=True)
    page = created.get_data(as_text=True)
    game_id = re.search(r"/join/([0-9a-f]+)\?", page).group(1)
    return game_id, page, set_cookies(form) + set_cookies(created)


def invite(page: str, seat: int) -> str:
    found = re.findall(r'value="https?://[^/"]+(/join/[^"]+)"', page)
    return found[seat].replace("&amp;", "&")


def cookies_of_a_visit(app, base_url: str) -> list[str]:
    """Every Set-Cookie header of a game created, a seat taken, a move and a seat left."""
    client, seat = app.test_client(), app.test_client()
    game_id, page, headers = create(client, base_url=base_url)
    joined = seat.get(invite(page, 0), base_url=base_url)
    assert joined.status_code == 303
    shown = seat.get(f"/g/{game_id}", base_url=base_url)
    html = shown.get_data(as_text=True)
    command = re.search(r'name="command" value="([^"]+)"', html).group(1).replace("&#34;", '"')
    moved = seat.post(
        f"/g/{game_id}/move", data={"csrf_token": csrf(html), "command": command}, base_url=base_url
    )
    assert moved.status_code == 303, moved.get_data(as_text=True)
    left = seat.post(f"/g/{game_id}/leave", data={"csrf_token": csrf(html)}, base_url=base_url)
    assert left.status_code == 303
    headers += [h for a in (joined, shown, moved, left) for h in set_cookies(a)]
    names = {h.split("=", 1)[0] for h in headers}
    assert names == {"session", cookie_name(game_id)}  # the session's and the seat's
    assert f"{cookie_name(game_id)}=;" in " ".join(set_cookies(left))  # dropped, also strict
    return headers


def test_every_cookie_the_pages_set_is_strict_and_http_only(app):
    for header in cookies_of_a_visit(app, "http://localhost"):
        attributes = [a.strip() for a in header.split(";")]
        assert "SameSite=Strict" in attributes, header
        assert "HttpOnly" in attributes, header
        assert "Secure" not in attributes, header  # a browser would drop it over http


def test_over_https_every_cookie_is_also_secure(app):
    for header in cookies_of_a_visit(app, "https://referee.example.org"):
        attributes = [a.strip() for a in header.split(";")]
        assert {"SameSite=Strict", "HttpOnly", "Secure"} <= set(attributes), header


def test_the_session_cookie_stays_strict_whatever_flask_defaults_to(tmp_path):
    from referee.app import create_app

    app = create_app({"REFEREE_DB": str(tmp_path / "r.db"), "SESSION_COOKIE_SAMESITE": None})
    answer = app.test_client().get("/new/galloping-horse")
    assert "SameSite=Strict" in answer.headers["Set-Cookie"]


@pytest.fixture
def moderated(app):
    """A game, its moderator's browser, a seat's browser and a form token each."""
    moderator, seat = app.test_client(), app.test_client()
    game_id, page, _ = create(moderator)
    assert seat.get(invite(page, 0)).status_code == 303
    token = csrf(moderator.get(f"/g/{game_id}").get_data(as_text=True))
    return game_id, moderator, seat, token


def form_addresses(app, game_id: str) -> dict[str, str]:
    """Every POST form of the pages, by endpoint, with a real game in its address."""
    values = {
        "game_id": game_id,
        "ruleset_id": "galloping-horse",
        "subscription_id": "1",
        "digest": "0" * 64,
    }
    found = {}
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods and rule.endpoint.split(".")[0] in ("pages", "replay"):
            found[rule.endpoint] = rule.build({k: values[k] for k in rule.arguments})[1]
    return found


def stored(app) -> dict[str, int]:
    """How many rows each table holds: what a refused form must leave as it was."""
    db = app.extensions["referee"].store.db
    return {table.name: table.count for table in db.tables}


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_form_from_another_site_is_refused_at_every_page_form(app, moderated, headers):
    game_id, moderator, _, token = moderated
    addresses = form_addresses(app, game_id)
    assert set(addresses) == FORMS
    before = stored(app)
    for endpoint, address in addresses.items():
        data = {"csrf_token": token, "type": "announce", "text": "from elsewhere"}
        answer = moderator.post(address, data=data, headers=headers)
        assert answer.status_code == 403, (endpoint, answer.status_code)
        assert answer.mimetype == "text/html"
        assert REFUSED in answer.get_data(as_text=True), endpoint
    assert stored(app) == before


@pytest.mark.parametrize(
    "headers",
    [
        {},  # an old browser, a plain form client, curl: the token decides
        {"Origin": "http://localhost"},
        {"Origin": "http://localhost:80"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},  # typed or bookmarked
    ],
)
def test_a_form_from_this_site_goes_through_and_still_needs_its_token(app, moderated, headers):
    game_id, moderator, _, token = moderated
    events = len(app.extensions["referee"].store.events(game_id))
    data = {"type": "announce", "text": "Round two on Friday"}
    without = moderator.post(f"/g/{game_id}/moderate", data=data, headers=headers)
    assert without.status_code == 400 and "could not be accepted" in without.get_data(as_text=True)
    sent = {**data, "csrf_token": token}
    answer = moderator.post(f"/g/{game_id}/moderate", data=sent, headers=headers)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert len(app.extensions["referee"].store.events(game_id)) == events + 1


def test_over_https_the_origin_is_the_https_address(app):
    base = "https://referee.example.org"
    client = app.test_client()
    form = client.get("/new/galloping-horse", base_url=base).get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": PLAYERS}
    other = client.post(
        "/new/galloping-horse", data=data, base_url=base, headers={"Origin": "http://" + base[8:]}
    )
    assert other.status_code == 403 and REFUSED in other.get_data(as_text=True)
    same = client.post("/new/galloping-horse", data=data, base_url=base, headers={"Origin": base})
    assert same.status_code == 200, same.get_data(as_text=True)
    port = client.post(
        "/new/galloping-horse", data=data, base_url=base + ":443", headers={"Origin": base}
    )
    assert port.status_code == 200  # the default port, written or not, is the same origin


def test_behind_a_proxy_the_origin_is_the_address_the_proxy_was_asked_on(app):
    app.wsgi_app = ProxyFix(app.wsgi_app, x_proto=1, x_host=1)  # what the host trusts
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "referee.example.org"}
    client = app.test_client()
    form = client.get("/new/galloping-horse", headers=proxied).get_data(as_text=True)
    data = {"csrf_token": csrf(form), "player": PLAYERS}
    inside = {**proxied, "Origin": "http://localhost"}  # the address behind the proxy
    assert client.post("/new/galloping-horse", data=data, headers=inside).status_code == 403
    public = {**proxied, "Origin": "https://referee.example.org"}
    answer = client.post("/new/galloping-horse", data=data, headers=public)
    assert answer.status_code == 200, answer.get_data(as_text=True)


def test_the_json_api_takes_commands_whatever_site_the_request_names(client, http_game):
    view = client.get(f"/games/{http_game.game_id}").get_json()
    seat = view["to_move"][0]
    legal = client.get(f"/games/{http_game.game_id}", headers=http_game.auth(seat)).get_json()
    headers = {**http_game.auth(seat), "Origin": "https://evil.example"}
    headers["Sec-Fetch-Site"] = "cross-site"
    answer = client.post(
        f"/games/{http_game.game_id}/commands", json=legal["legal"][0], headers=headers
    )
    assert answer.status_code == 201, answer.get_json()


def test_no_referer_leaves_the_site_yet_its_own_forms_name_their_origin(app, moderated):
    """`Referrer-Policy: no-referrer` would make a browser send `Origin: null` with the
    site's own forms (the Fetch standard), and the origin check would refuse them all."""
    game_id, moderator, _, _ = moderated
    for address in ("/", f"/g/{game_id}", "/replay", "/new/royal-turf"):
        answer = moderator.get(address)
        assert answer.headers["Referrer-Policy"] == "same-origin"
        assert '<meta name="referrer" content="same-origin">' in answer.get_data(as_text=True)
