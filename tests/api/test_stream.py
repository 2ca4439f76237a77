"""GET /games/{id}/stream: the events as server-sent events, redacted for the caller as
/events is, each new one as soon as it is appended, resumable by Last-Event-ID, and ended
for a token that stops counting. In-process app: the generator is driven by hand (a
command is sent while it is suspended), so nothing waits on a timer."""

import json

import pytest


def opened(client, game_id, headers=None, **query):
    """The stream's iterator of parsed messages: ("retry"|"comment"|"event", value)."""
    answer = client.get(
        f"/games/{game_id}/stream", headers=headers or {}, query_string=query, buffered=False
    )
    assert answer.status_code == 200, answer.get_data()
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-store"
    return messages(answer.response)


def messages(chunks):
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            if not block:
                continue
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
            if block.startswith("retry"):
                yield "retry", fields["retry"]
            elif block.startswith(":"):
                yield "comment", block
            else:
                assert fields["event"] == "event"
                event = json.loads(fields["data"])
                assert fields["id"] == str(event["seq"])
                yield "event", event


def take(stream, count):
    events = []
    while len(events) < count:
        kind, value = next(stream)
        if kind == "event":
            events.append(value)
    return events


def events_of(client, game_id, headers=None, after=0):
    answer = client.get(f"/games/{game_id}/events?after={after}", headers=headers or {})
    return answer.get_json()


def test_a_stream_starts_with_the_log_so_far_then_brings_each_new_event(client, http_game):
    game_id = http_game.game_id
    so_far = events_of(client, game_id, http_game.auth(0))
    stream = opened(client, game_id, http_game.auth(0))
    assert next(stream) == ("retry", "3000")
    assert take(stream, len(so_far["events"])) == so_far["events"]

    view = client.get(f"/games/{game_id}", headers=http_game.auth(0)).get_json()
    seat = view["to_move"][0]
    mover = client.get(f"/games/{game_id}", headers=http_game.auth(seat)).get_json()
    sent = client.post(
        f"/games/{game_id}/commands", json=mover["legal"][0], headers=http_game.auth(seat)
    ).get_json()
    new = take(stream, len(sent["events"]))  # the generator sees the news without waiting
    assert new == events_of(client, game_id, http_game.auth(0), after=so_far["version"])["events"]
    assert [e["seq"] for e in new] == [e["seq"] for e in sent["events"]]


@pytest.mark.parametrize("viewer", [None, 0, 1, "moderator"], ids=str)
def test_every_viewer_streams_exactly_what_its_events_show(client, http_game, viewer):
    headers = None if viewer is None else http_game.auth(viewer)
    shown = events_of(client, http_game.game_id, headers)["events"]
    stream = opened(client, http_game.game_id, headers)
    assert take(stream, len(shown)) == shown


def test_last_event_id_resumes_after_the_seq_it_names(client, http_game):
    everything = events_of(client, http_game.game_id)["events"]
    stream = opened(client, http_game.game_id, {"Last-Event-ID": "2"})
    assert take(stream, len(everything) - 2) == everything[2:]
    junk = opened(client, http_game.game_id, {"Last-Event-ID": "x" * 40})
    assert take(junk, len(everything)) == everything  # not a seq: from the start


def test_a_replaced_players_stream_ends_before_the_seat_has_news(client, http_game):
    stream = opened(client, http_game.game_id, http_game.auth(1))
    take(stream, len(events_of(client, http_game.game_id)["events"]))
    replaced = client.post(
        f"/games/{http_game.game_id}/commands",
        json={"type": "replace_player", "seat": 1, "name": "Eve", "reason": "left"},
        headers=http_game.auth("moderator"),
    )
    assert replaced.status_code == 201
    with pytest.raises(StopIteration):
        next(stream)


def test_a_stream_of_no_game_or_with_a_bad_token_or_after_is_a_json_error(client, http_game):
    missing = client.get("/games/nothing-here/stream")
    assert (missing.status_code, missing.get_json()["error"]["code"]) == (404, "game/not_found")
    forged = client.get(
        f"/games/{http_game.game_id}/stream", headers={"Authorization": "Bearer forged"}
    )
    assert forged.status_code == 401 and forged.get_json()["error"]["code"].startswith("auth/")
    negative = client.get(f"/games/{http_game.game_id}/stream?after=-1")
    assert negative.status_code == 400 and "after" in negative.get_json()["error"]["message"]
