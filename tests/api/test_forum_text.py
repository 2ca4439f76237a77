"""Round summaries as forum readers see them: the Markdown and BBCode the API answers,
rendered by real renderers (tests/forum.py), read back as visible text and compared
with what was meant, hostile player names included."""

import os

import pytest
from forum import FORMAT_OF, NAMES, OURS, RENDERERS, seen
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.posts import summary

BASE = "http://localhost"
# what a name or sentence may hold: the markup of Markdown, HTML and BBCode, and text
MARKUP = "ab1 #*_-+>.!<>&;[]()`\\~|{}=:/@^$%?,'\"\u00e9\u200b\t"


@settings(max_examples=400, deadline=None, database=None, derandomize=bool(os.environ.get("CI")))
@given(st.text(MARKUP, min_size=1, max_size=30).filter(lambda t: t.replace("\u200b", "").strip()))
def test_any_text_shows_as_typed_in_every_renderer(text):
    picture = f"{BASE}/games/g/board.png?at=5"
    written = {"title": "T", "sections": [{"heading": "H", "lines": [text, "b"]}]}
    for name, render in RENDERERS.items():
        shown = seen(render(summary.render(written, FORMAT_OF[name], picture)))
        assert shown.items == [" ".join(text.replace("\u200b", "").split()), "b"], name
        assert shown.inside_items == [], name  # nothing typed became a tag
        assert shown.images == [(picture, False)], name  # the board, under the list


@pytest.fixture
def resolved(client, app):
    """A blackout-middle game of hostile names, its first round resolved."""
    body = {"ruleset": "blackout-middle", "players": NAMES, "seed": "forum-text"}
    made = client.post("/games", json=body).get_json()
    game_id = made["game_id"]
    for seat in made["seats"]:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        view = client.get(f"/games/{game_id}", headers=auth).get_json()
        orders = next(c for c in view["legal"] if c["type"] == "submit_orders")
        assert (
            client.post(f"/games/{game_id}/commands", json=orders, headers=auth).status_code == 201
        )
    service = app.extensions["referee"]
    assert service.resolve_round(game_id, 0) == "resolved"
    meant = summary.summarize(service.state(game_id), service.store.events(game_id), 0)
    return game_id, meant


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
def test_a_round_summary_reads_as_meant_with_hostile_names(client, resolved, renderer):
    game_id, meant = resolved
    fmt = FORMAT_OF[renderer]
    text = client.get(f"/games/{game_id}/rounds/0/summary?format={fmt}").get_data(as_text=True)
    shown = seen(RENDERERS[renderer](text))
    lines = [" ".join(line.split()) for s in meant["sections"] for line in s["lines"]]
    assert shown.items == lines
    assert shown.inside_items == []
    assert set(shown.tags) <= OURS
    assert shown.images == [(f"{BASE}/games/{game_id}/board.png?at={meant['at']}", False)]
    for name in NAMES:
        assert sum(name in item for item in shown.items) >= 1  # as typed
    assert "\\&lt;" not in RENDERERS[renderer](text)  # no stray backslash before a tag
