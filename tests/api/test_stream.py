"""GET /games/{id}/stream: the events as server-sent events, redacted for the caller as
/events is, each new one as soon as it is appended, resumable by Last-Event-ID, and ended
for a token that stops counting. In-process app: the generator is driven by hand (a
command is sent while it is suspended), so nothing waits on a timer."""

import json

import pytest

from referee.app import create_app


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


def opening(client, path):
    """A stream's answer, not yet read (its place is held until it is closed)."""
    return client.get(path, buffered=False)


def test_a_client_holds_at_most_the_cap_of_live_streams_and_a_closed_one_frees_a_place(
    tmp_path,
):
    app = create_app({"REFEREE_DB": str(tmp_path / "r.db"), "STREAMS_PER_CLIENT": 2})
    client = app.test_client()
    game_id = created(client)
    api, page = f"/games/{game_id}/stream", f"/g/{game_id}/live"
    held = [opening(client, api), opening(client, page)]  # the API's and the pages' alike
    assert [answer.status_code for answer in held] == [200, 200]

    refused = opening(client, api)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "15"
    assert refused.get_json()["error"]["code"] == "stream/too_many"
    assert refused.get_json()["error"]["details"] == {"most": 2}
    page_refused = opening(client, page)
    assert page_refused.status_code == 429 and "Retry-After" in page_refused.headers

    held[0].close()
    again = opening(client, api)
    assert again.status_code == 200
    other = client.get(api, buffered=False, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 200  # the cap is per client address


def test_the_stream_cap_is_on_by_default_and_the_operator_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_STREAMS_PER_CLIENT", raising=False)
    app = create_app({"REFEREE_DB": str(tmp_path / "a.db")})
    assert app.config["STREAMS_PER_CLIENT"] == 32
    client = app.test_client()
    game_id = created(client)
    answers = [opening(client, f"/games/{game_id}/stream") for _ in range(33)]
    assert [a.status_code for a in answers].count(200) == 32
    assert answers[-1].status_code == 429

    monkeypatch.setenv("REFEREE_STREAMS_PER_CLIENT", "off")
    unlimited = create_app({"REFEREE_DB": str(tmp_path / "b.db")})
    assert unlimited.config["STREAMS_PER_CLIENT"] is None
    client = unlimited.test_client()
    game_id = created(client)
    answers = [opening(client, f"/games/{game_id}/stream") for _ in range(40)]
    assert {a.status_code for a in answers} == {200}


def test_streams_on_one_point_of_a_game_share_one_read_of_the_store(client, http_game):
    """A thousand spectators woken by one move read the store once, not a thousand times;
    each viewer still gets its own redaction."""
    service = client.application.extensions["referee"]
    service.herald.hub.clock = lambda: 0.0  # one second however slow the machine
    reads = []
    real = service.store.events
    service.store.events = lambda *a, **k: reads.append(a) or real(*a, **k)
    spectators = [opened(client, http_game.game_id) for _ in range(5)]
    seat = opened(client, http_game.game_id, http_game.auth(0))
    for stream in [*spectators, seat]:
        assert next(stream) == ("retry", "3000")
    shown = events_of(client, http_game.game_id)["events"]
    reads.clear()
    firsts = [take(stream, len(shown)) for stream in spectators]
    assert firsts == [shown] * 5
    spectator_reads = len(reads)
    assert (
        take(seat, len(shown)) == events_of(client, http_game.game_id, http_game.auth(0))["events"]
    )
    assert len(reads) > spectator_reads  # the seat's own read: not the spectators' text
    assert spectator_reads <= 2  # one service.events (the state's tail and the events)


def created(client):
    """A galloping-horse game's id, created over HTTP."""
    body = {"ruleset": "galloping-horse", "players": ["Ada", "Bo", "Cy", "Di"]}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201
    return answer.get_json()["game_id"]


def test_behind_a_proxy_the_operator_names_each_visitor_is_counted_as_itself(tmp_path):
    """Without PROXIES every visitor behind the proxy is the proxy's address and shares
    its cap; with it, the address the proxy says."""
    for proxies, second in ((0, 429), (1, 200)):
        app = create_app(
            {"REFEREE_DB": str(tmp_path / f"p{proxies}.db"), "STREAMS_PER_CLIENT": 1,
             "PROXIES": proxies}
        )  # fmt: skip
        client = app.test_client()
        path = f"/games/{created(client)}/stream"
        first = client.get(path, buffered=False, headers={"X-Forwarded-For": "203.0.113.7"})
        other = client.get(path, buffered=False, headers={"X-Forwarded-For": "198.51.100.9"})
        assert (first.status_code, other.status_code) == (200, second)
