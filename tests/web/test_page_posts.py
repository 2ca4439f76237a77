"""The moderator's forum post on the game page: the same text as the API's post, marked
as posted by a plain form (the next post starts after it), the moderator's alone; and a
subscription that asks for the posts."""

import html
import re

from test_pages import create, csrf, links, seated


def moderated(app, client):
    """A galloping-horse game made by the form, one move played: (game id, moderator's
    browser, the first seat's browser)."""
    game_id, made = create(client)
    *seats, moderator = [seated(app, link) for link in links(made)]
    service = app.extensions["referee"]
    seat = service.view(game_id, None)["to_move"][0]
    service.command(game_id, seat, service.view(game_id, seat)["legal"][0])
    return game_id, moderator, seats[0]


def textarea(page: str, name: str) -> str:
    return html.unescape(re.search(rf'<textarea id="{name}"[^>]*>(.*?)</textarea>', page, re.S)[1])


def test_the_moderator_page_has_the_post_and_marks_it_posted(app, client):
    game_id, moderator, _ = moderated(app, client)
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    service = app.extensions["referee"]
    for name, fmt in (("post-md", "markdown"), ("post-bb", "bbcode")):
        assert textarea(page, name) == service.post(game_id, fmt, base="http://localhost/")["text"]
    assert "Copy the post as Markdown" in page and "Copy the post as BBCode" in page
    version = service.view(game_id, None)["version"]
    assert f"the next post starts after event {version}" in page
    sent = {"csrf_token": csrf(page), "since": str(version)}
    answer = moderator.post(f"/g/{game_id}/post/posted", data=sent)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#post")
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert f"Done: the next post starts after event {version}." in page
    assert "Nothing new." in textarea(page, "post-md")
    assert f"nothing new since event {version}" in textarea(page, "post-bb")
    again = {"csrf_token": csrf(page), "since": "2"}
    assert moderator.post(f"/g/{game_id}/post/posted", data=again).status_code == 303
    assert "events 3 to" in textarea(
        moderator.get(f"/g/{game_id}").get_data(as_text=True), "post-md"
    )


def test_only_the_moderator_marks_a_post_and_a_bad_mark_changes_nothing(app, client):
    game_id, moderator, seat = moderated(app, client)
    store = app.extensions["referee"].store
    shown = seat.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'id="post"' not in shown and "Copy the post" not in shown
    assert 'id="post"' not in client.get(f"/g/{game_id}/watch").get_data(as_text=True)
    refused = seat.post(f"/g/{game_id}/post/posted", data={"csrf_token": csrf(shown), "since": "1"})
    assert refused.status_code == 400 and "only the moderator" in refused.get_data(as_text=True)
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    for since, status in (("999", 404), ("-1", 400), ("one", 400), ("", 400)):
        answer = moderator.post(
            f"/g/{game_id}/post/posted", data={"csrf_token": csrf(page), "since": since}
        )
        assert answer.status_code == status, since
        assert "since" in answer.get_data(as_text=True) or "no event" in answer.get_data(True)
    assert store.posted(game_id) == 0


def test_the_moderator_asks_for_the_posts_from_the_notifications_form(app, client):
    game_id, moderator, seat = moderated(app, client)
    page = moderator.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Also send the forum post of every move" in page
    assert "forum post" not in seat.get(f"/g/{game_id}").get_data(as_text=True)
    sent = {"csrf_token": csrf(page), "kind": "webhook", "url": "http://127.0.0.1:9/hook"}
    listed = app.extensions["referee"].subscriptions.listed
    with_posts = moderator.post(f"/g/{game_id}/subscriptions", data={**sent, "posts": "1"})
    assert with_posts.status_code == 200
    (asked,) = listed(game_id, "moderator")
    assert "post" in asked["events"]
    assert moderator.post(f"/g/{game_id}/subscriptions", data=sent).status_code == 200
    (plain,) = [s for s in listed(game_id, "moderator") if s != asked]
    assert "post" not in plain["events"] and "game_ended" in plain["events"]
