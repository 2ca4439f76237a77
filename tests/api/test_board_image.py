"""GET /games/{id}/board.svg?at=SEQ: the board as a spectator saw it after an event, for
forum posts; never anything a spectator could not see then; cached by (game, seq)."""

from referee.engine import game, registry
from referee.engine.canonical import canonical, digest
from referee.service import presented
from referee.theatre.boards import board

PLAYERS = ["Ann", "Ben", "Cat"]


def created(client, ruleset="royal-turf", **options):
    body = {"ruleset": ruleset, "players": PLAYERS, "seed": "board-image", "options": options}
    made = client.post("/games", json=body).get_json()
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in made["seats"]}
    return made["game_id"], auth


def play(client, game_id, auth, moves):
    for _ in range(moves):
        seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
        legal = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"]
        assert (
            client.post(
                f"/games/{game_id}/commands", json=legal[-1], headers=auth[seat]
            ).status_code
            == 201
        )


def test_the_board_now_and_after_an_event_is_an_svg_image(client, app):
    game_id, auth = created(client)
    play(client, game_id, auth, 4)
    now = client.get(f"/games/{game_id}/board.svg")
    assert now.status_code == 200 and now.mimetype == "image/svg+xml"
    assert (
        now.get_data(as_text=True).startswith("<svg") and now.headers["Cache-Control"] == "no-cache"
    )
    early = client.get(f"/games/{game_id}/board.svg?at=3")
    assert early.status_code == 200 and early.headers["Cache-Control"].startswith("public")
    events = app.extensions["referee"].store.events(game_id)[:3]
    then = {**app.extensions["referee"].public_view_at(game_id, 3), "viewer": None}
    assert early.get_data(as_text=True) == str(board(registry.get("royal-turf"), then))
    assert then["version"] == 3 and game.fold(events)["seq"] == 3
    assert early.get_data(as_text=True) != now.get_data(as_text=True)


def test_a_sealed_chip_is_never_drawn_until_the_race_ends(client):
    """Hidden Bets, two games from one seed whose first bettor seals another chip, the
    other seats betting alike: the images after every event are the same."""
    drawn = []
    for chip in (0, 2):
        game_id, auth = created(client, hidden_bets=True)
        seat = client.get(f"/games/{game_id}").get_json()["to_move"][0]
        legal = client.get(f"/games/{game_id}", headers=auth[seat]).get_json()["legal"]
        bet = next(c for c in legal if c["chip"] == chip)
        assert (
            client.post(f"/games/{game_id}/commands", json=bet, headers=auth[seat]).status_code
            == 201
        )
        play(client, game_id, auth, 2)  # the two other seats, the same bets in both games
        version = client.get(f"/games/{game_id}").get_json()["version"]
        drawn.append(
            [
                client.get(f"/games/{game_id}/board.svg?at={at}").get_data(as_text=True)
                for at in range(1, version + 1)
            ]
        )
    assert len(drawn[0]) == len(drawn[1]) > 3
    assert drawn[0] == drawn[1]


def test_a_board_after_a_snapshot_is_folded_from_it_and_never_from_a_forged_one(client, app):
    """The board after event `at` starts from the newest trusted snapshot at or before
    `at`, and is the board folded from the first event; a snapshot that disagrees with
    the log is passed over."""
    referee = app.extensions["referee"]
    referee.snapshot_every = 3
    game_id, auth = created(client)
    play(client, game_id, auth, 8)
    store = referee.store
    events = store.events(game_id)
    seq, state, _ = store.latest_snapshot(game_id, until=len(events) - 1)
    assert 3 <= seq < len(events) - 1 and store.latest_snapshot(game_id, until=seq - 1)
    forged = {**state, "players": ["Mallory"] * len(PLAYERS)}  # its hash right, not the log's
    with store.transaction() as conn:
        conn.execute(
            "UPDATE snapshots SET state = ?, state_hash = ? WHERE game_id = ? AND seq = ?",
            (canonical(forged).decode(), digest(forged), game_id, seq),
        )
    read, folded_from = store.events, []

    def events_read(game_id, *, after=0, until=None):
        folded_from.append(after)
        return read(game_id, after=after, until=until)

    store.events = events_read
    for at in range(1, len(events) + 1):
        drawn = client.get(f"/games/{game_id}/board.svg?at={at}").get_data(as_text=True)
        then = {**presented(game_id, game.fold(events[:at]), None), "viewer": None}
        assert drawn == str(board(registry.get("royal-turf"), then)) and "Mallory" not in drawn
    assert any(after > 0 for after in folded_from)  # some boards started from a snapshot


def test_a_bad_or_future_seq_is_refused_naming_at(client):
    game_id, _ = created(client)
    for at, status in (("0", 400), ("x", 400), ("9999", 404)):
        answer = client.get(f"/games/{game_id}/board.svg?at={at}")
        assert answer.status_code == status
        assert "at" in str(answer.get_json()["error"])
    assert client.get("/games/0123456789abcdef/board.svg").status_code == 404


def test_the_board_as_a_png_is_the_same_drawing_small_enough_for_a_forum(client, app):
    import io

    from PIL import Image

    from referee.theatre.boards import WIDEST, png_of

    game_id, auth = created(client, hidden_bets=True)
    play(client, game_id, auth, 5)
    answer = client.get(f"/games/{game_id}/board.png?at=4")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert answer.headers["Cache-Control"].startswith("public")
    picture = Image.open(io.BytesIO(answer.data))
    assert picture.format == "PNG" and picture.width <= WIDEST and len(answer.data) <= 200_000
    svg = client.get(f"/games/{game_id}/board.svg?at=4").get_data(as_text=True)
    assert answer.data == png_of(svg)  # the SVG's drawing, and drawn the same every time
    colours = picture.convert("RGB").getcolors(maxcolors=256 * 256)
    assert colours is not None and len(colours) > 8  # text and horses, not a blank page
    assert client.get(f"/games/{game_id}/board.png?at=999").status_code == 404


def test_a_round_summary_ends_with_the_board_after_that_round(client, app):
    body = {"ruleset": "blackout-middle", "players": PLAYERS, "seed": "summary-image"}
    made = client.post("/games", json=body).get_json()
    game_id = made["game_id"]
    for seat in made["seats"]:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        view = client.get(f"/games/{game_id}", headers=auth).get_json()
        orders = next(c for c in view["legal"] if c["type"] == "submit_orders")
        sent = client.post(f"/games/{game_id}/commands", json=orders, headers=auth)
        assert sent.status_code == 201
    assert app.extensions["referee"].resolve_round(game_id, 0) == "resolved"  # as a worker does
    text = client.get(f"/games/{game_id}/rounds/0/summary").get_data(as_text=True)
    link = text.strip().splitlines()[-1]
    assert link.startswith("![The board after this round](http://localhost/games/")
    url = link[link.index("(") + 1 : -1]
    at = int(url.rsplit("=", 1)[1])
    events = app.extensions["referee"].store.events(game_id)
    counted = next(e for e in events if e["type"] == "OrdersCounted")
    assert at >= counted["seq"] and (at == len(events) or events[at]["command"] is not None)
    assert client.get(url.removeprefix("http://localhost")).status_code == 200
    bbcode = client.get(f"/games/{game_id}/rounds/0/summary?format=bbcode").get_data(as_text=True)
    assert bbcode.strip().endswith(f"[img]{url}[/img]")


def test_generic_font_families_are_named_as_the_fonts_that_draw_them():
    from referee.theatre.boards import _named_fonts

    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" font-family="sans-serif">'
        '<text font-family="DejaVu Sans, Verdana, sans-serif">sans-serif, serif</text>'
        '<text font-family="Georgia, serif">font-family=&quot;sans-serif&quot;</text></svg>'
    )
    named = _named_fonts(svg)
    assert 'font-family="Liberation Sans, DejaVu Sans, sans-serif">' in named
    assert 'font-family="DejaVu Sans, Verdana, Liberation Sans, DejaVu Sans, sans-serif"' in named
    assert 'font-family="Georgia, Liberation Serif, DejaVu Serif, serif"' in named
    assert ">sans-serif, serif</text>" in named  # words of a text are not families
    assert ">font-family=&quot;sans-serif&quot;</text>" in named  # as every board escapes it


def test_a_text_in_a_generic_family_is_drawn():
    import io

    from PIL import Image

    from referee.theatre.boards import png_of

    def drawn(words: str) -> bytes:
        body = f'<text x="10" y="40" font-size="30">{words}</text>' if words else ""
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 60" '
            f'font-family="sans-serif">{body}</svg>'
        )
        return Image.open(io.BytesIO(png_of(svg))).convert("L").tobytes()

    blank, written = drawn(""), drawn("Ann wins")
    assert set(blank) == {255}  # white
    assert sum(1 for value in written if value < 128) > 200  # dark letters on it
