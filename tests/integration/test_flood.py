"""The edges of `referee serve` as an attacker meets them, with real sockets on 127.0.0.1:
open event streams and connections that never finish their headers, past the numbers
that once stopped the whole API (250 streams; 800 half-sent headers), while a seat plays.
Every command is answered, every stream hears every move, and the server closes each
half-sent request by itself. How fast is bench/edge.py's question, not these tests'."""

import resource
import selectors
import socket
import time
from collections.abc import Iterator

import pytest
from served import ANSWER_WITHIN, Http, serving

from replays.verify import verify_bytes

STREAMS = 400  # the docs once promised 400; 250 stopped every other request
HALF_SENT = 1000  # 800 held every request unanswered for minutes
PLAYERS = ["N", "E", "S", "W"]


@pytest.fixture(scope="module")
def uncapped(tmp_path_factory) -> Iterator[Http]:
    """`referee serve` with the per-client stream cap off: every socket here comes from
    127.0.0.1, and these tests mean to hold hundreds of streams from it."""
    yield from serving(tmp_path_factory.mktemp("flood"), REFEREE_STREAMS_PER_CLIENT="off")


@pytest.fixture(scope="module", autouse=True)
def open_files():
    """Room in this process for the sockets the tests hold (the hard limit allowing)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = STREAMS + HALF_SENT + 256
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= wanted, "raise the hard limit"
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_commands_are_answered_and_heard_by_every_stream_through_a_flood(uncapped):
    game_id, tokens, moderator = new_game(uncapped)
    streams = [stream(uncapped, f"/games/{game_id}/stream") for _ in range(STREAMS)]
    half_sent = [half_request(uncapped) for _ in range(HALF_SENT)]
    try:
        assert uncapped.call("GET", "/healthz") == (200, {"status": "alive"})
        last = 0
        for _ in range(12):
            last = play_one(uncapped, game_id, tokens)
        heard = until_heard(streams, f"id: {last}\n".encode())
        assert heard == STREAMS, f"{heard} of {STREAMS} streams heard seq {last}"
        assert until_closed(half_sent) == HALF_SENT  # the server let go of every one
    finally:
        for sock in streams + half_sent:
            sock.close()
    assert uncapped.call("GET", "/healthz")[0] == 200
    status, log = uncapped.call("GET", f"/games/{game_id}/log", token=moderator, raw=True)
    assert status == 200 and verify_bytes(log).valid


def test_a_client_past_its_stream_cap_is_told_to_come_back(tmp_path):
    """With the cap on (4 per process, 2 processes), one address gets 4 to 8 streams and
    a 429 with Retry-After for the rest; the API goes on answering."""
    served = serving(tmp_path, REFEREE_STREAMS_PER_CLIENT="4")
    http = next(served)
    try:
        game_id, _, _ = new_game(http)
        answers = [stream(http, f"/games/{game_id}/stream") for _ in range(20)]
        heads = [status_line(sock) for sock in answers]
        opened = sum("200" in head for head in heads)
        refused = [head for head in heads if " 429 " in head]
        assert 4 <= opened <= 8 and len(refused) == 20 - opened, heads
        assert all("retry-after: 15" in head.lower() for head in refused)
        assert http.call("GET", "/healthz")[0] == 200
        for sock in answers:
            sock.close()
    finally:
        served.close()


def new_game(http: Http) -> tuple[str, list[str], str]:
    """A galloping-horse game: its id, the seats' tokens, the moderator's."""
    body = {"ruleset": "galloping-horse", "players": PLAYERS, "seed": "flood"}
    status, created = http.call("POST", "/games", body=body)
    assert status == 201, created
    tokens = [seat["token"] for seat in created["seats"]]
    return created["game_id"], tokens, created["moderator_token"]


def play_one(http: Http, game_id: str, tokens: list[str]) -> int:
    """The seat to move plays its first legal move; the game's new version."""
    status, shown = http.call("GET", f"/games/{game_id}")
    assert status == 200, shown
    seat = shown["to_move"][0]
    status, own = http.call("GET", f"/games/{game_id}", token=tokens[seat])
    assert status == 200, own
    status, result = http.call(
        "POST", f"/games/{game_id}/commands", body=own["legal"][0], token=tokens[seat]
    )
    assert status == 201, result
    return result["version"]


def connected(http: Http) -> socket.socket:
    host, port = http.base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=ANSWER_WITHIN)


def stream(http: Http, path: str) -> socket.socket:
    """A raw socket asking for a stream, as the attacker's script did (no token)."""
    sock = connected(http)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def half_request(http: Http) -> socket.socket:
    """A request whose headers never end."""
    sock = connected(http)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    return sock


def status_line(sock: socket.socket) -> str:
    """The head of the answer on a socket (what came with it, up to the blank line)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(4096)
        assert chunk, "closed before it answered"
        got += chunk
    return got.split(b"\r\n\r\n")[0].decode("latin-1")


def until_heard(socks: list[socket.socket], mark: bytes) -> int:
    """How many sockets received `mark`, read until all have or ANSWER_WITHIN passed."""
    return len(read_all(socks, lambda got, _: mark in got))


def until_closed(socks: list[socket.socket]) -> int:
    """How many sockets the server closed, waiting until all are or ANSWER_WITHIN passed."""
    return len(read_all(socks, lambda _, closed: closed))


def read_all(socks: list[socket.socket], done) -> set[int]:
    """Read every socket until done(bytes so far, closed) holds for each; those it holds for."""
    got = {n: b"" for n in range(len(socks))}
    finished: set[int] = set()
    with selectors.DefaultSelector() as selector:
        for n, sock in enumerate(socks):
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, n)
        give_up = time.monotonic() + ANSWER_WITHIN
        while len(finished) < len(socks) and time.monotonic() < give_up:
            for key, _ in selector.select(timeout=1):
                n = key.data
                chunk = read_some(key.fileobj)
                got[n] += chunk or b""
                if done(got[n], chunk == b""):
                    finished.add(n)
                if chunk == b"" or n in finished:
                    selector.unregister(key.fileobj)
    return finished


def read_some(sock) -> bytes | None:
    try:
        return sock.recv(65536)
    except BlockingIOError:
        return None
    except ConnectionResetError:
        return b""
