"""What a notification may reach, with the suite's allow-list cleared (the referee's
default): every spelling of a non-public address is refused at subscription; at delivery
the address connected to is checked again (a name that rebinds to loopback is refused at
connect), redirects are not followed, Apprise's own connections are checked the same
way; the delivery log tells a seat nothing of what a target answered; the caps.

These machines may send to loopback only. The tests answer every name themselves
(`reach.resolve`: no query leaves the machine), and every test here runs behind a
fence that records each connection attempt and refuses, and fails the test on, any
address off loopback, so that a broken check cannot send anything away."""

import ipaddress
import json
import logging
import select
import smtplib
import socket
import threading

import pytest
import requests
import urllib3
from receiver import Receiver
from test_notifications import T0, create, deliveries, play_first, send_due, subscribe

from referee.app import create_app
from referee.notify import deliveries as sending
from referee.notify import reach
from referee.notify.reach import AllowList, guarded

REAL_RESOLVE = reach.resolve
PUBLIC = "93.184.216.34"  # a public address no test reaches: the fence stands before it
LOOPBACK = ipaddress.ip_network("127.0.0.0/8")


@pytest.fixture(autouse=True)
def fence(monkeypatch):
    """Every network connection attempt of the test, recorded (those of threads that
    were running before it began, other tests' leftovers, are not the test's; but the
    notices' senders, kept for the process, send for it); one off loopback, from any
    thread, is refused and fails the test."""
    tried, away = [], []
    before = {
        thread.ident for thread in threading.enumerate() if not thread.name.startswith("sender")
    } - {threading.get_ident()}

    def fenced(name):
        plain = getattr(socket.socket, name)

        def attempt(sock, *args):
            address = args[-1]
            if sock.family not in (socket.AF_INET, socket.AF_INET6):
                return plain(sock, *args)  # a unix socket (another test's Redis) stays here
            if threading.get_ident() not in before:
                tried.append(address)
            if not on_loopback(address):
                away.append(address)
                raise ConnectionRefusedError(f"fenced: {address} is off loopback")
            return plain(sock, *args)

        return attempt

    for name in ("connect", "connect_ex", "sendto"):
        monkeypatch.setattr(socket.socket, name, fenced(name))
    yield tried
    assert away == [], f"tried to reach beyond loopback: {away}"


def on_loopback(address) -> bool:
    """Whether every address this one stands for is on loopback (a name, as the test's
    resolver answers it)."""
    try:
        found = [info[4][0] for info in reach.resolve(address[0], address[1])]
    except (OSError, TypeError, IndexError):
        return False
    hosts = [ipaddress.ip_address(h) for h in found]
    return all(h in LOOPBACK or h == ipaddress.ip_address("::1") for h in hosts)


@pytest.fixture(autouse=True)
def names(monkeypatch):
    """The names the tests resolve, as each test says; an address resolves to itself (in
    any spelling getaddrinfo takes), any other name to nothing."""
    table = {
        "localhost": ["127.0.0.1", "::1"],
        "localhost.": ["127.0.0.1"],
        "hooks.example.test": [PUBLIC],
        "example.org": [PUBLIC],
        "gmail.com": [PUBLIC],
        "smtp.gmail.com": [PUBLIC],
        "metadata.internal": ["169.254.169.254"],  # refused at subscribe: never connected
        "mixed.test": [PUBLIC, "127.0.0.1"],
        "private.test": ["10.1.2.3"],  # refused at subscribe: never connected
    }

    def lookup(host, port, family=0, type=0, proto=0, flags=0):
        found = []
        for address in table.get(host.lower() if isinstance(host, str) else host, [host]):
            try:
                found += REAL_RESOLVE(
                    address, port, family, type, proto, flags | socket.AI_NUMERICHOST
                )
            except socket.gaierror:
                pass  # not of the family asked, or a name: never a query
        if not found:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return found

    monkeypatch.setattr(reach, "resolve", lookup)
    return table


@pytest.fixture
def listener():
    """A real socket listening on 127.0.0.1 that no test may reach."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server


def touched(server) -> bool:
    """Whether anything connected to the listener (the kernel queues it at once)."""
    return bool(select.select([server], [], [], 0)[0])


@pytest.fixture
def app(tmp_path):
    """The app as a host runs it: no allow-list."""
    return create_app({"REFEREE_DB": str(tmp_path / "referee.db"), "NOTIFY_ALLOW": ""})


@pytest.fixture
def referee(app):
    return app.extensions["referee"]


@pytest.fixture
def clock(referee):
    now = {"at": T0}
    referee.clock = lambda: now["at"]
    return now


@pytest.fixture
def receiver():
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def allow(referee, entries: str) -> None:
    referee.subscriptions.allow = AllowList.parse(entries)


WEBHOOKS = [
    "http://127.0.0.1:{port}/x",
    "https://127.0.0.1:{port}/x",
    "http://localhost:{port}/x",
    "http://localhost.:{port}/x",
    "http://LocalHost:{port}/x",
    "http://[::1]:{port}/x",
    "http://0.0.0.0:{port}/x",
    "http://0:{port}/x",
    "http://[::]:{port}/x",
    "http://127.1:{port}/x",
    "http://2130706433:{port}/x",
    "http://0177.0.0.1:{port}/x",
    "http://0x7f.1:{port}/x",
    "http://0x7f000001:{port}/x",
    "http://[::ffff:127.0.0.1]:{port}/x",
    "http://[::ffff:7f00:1]:{port}/x",
    "http://127.0.0.1.:{port}/x",
    "http://user@127.0.0.1:{port}/x",
    "http://127.0.0.1:5000/games",  # the referee's own port
    "http://10.0.0.5/x",  # refused at subscribe: never connected
    "http://172.16.0.1/x",  # refused at subscribe: never connected
    "http://192.168.1.1/x",  # refused at subscribe: never connected
    "http://100.64.0.1/x",  # refused at subscribe: never connected
    "http://169.254.169.254/latest/meta-data/",  # refused at subscribe: never connected
    "http://metadata.internal/computeMetadata/v1/",  # refused at subscribe: never connected
    "http://[fe80::1]/x",  # refused at subscribe: never connected
    "http://[fc00::1]/x",  # refused at subscribe: never connected
    "http://[fd12:3456::1]/x",  # refused at subscribe: never connected
    "http://[fec0::1]/x",  # refused at subscribe: never connected
    "http://224.0.0.1/x",  # refused at subscribe: never connected
    "http://[ff02::1]/x",  # refused at subscribe: never connected
    "http://[ff0e::1]/x",  # refused at subscribe: never connected
    "http://255.255.255.255/x",  # refused at subscribe: never connected
    "http://240.0.0.1/x",  # refused at subscribe: never connected
    "http://192.0.2.1/x",  # refused at subscribe: never connected
    "http://198.18.0.1/x",  # refused at subscribe: never connected
    "http://[64:ff9b::7f00:1]/x",
    "http://[2002:7f00:1::]/x",
    "http://[::7f00:1]/x",
    "http://mixed.test/x",  # one public address and one loopback
    "http://private.test/x",
    "http://no-such-name.test/x",
]
APPRISE = [
    "json://127.0.0.1:{port}/",
    "json://localhost:{port}/",
    "form://[::1]:{port}/",
    "xml://10.0.0.1/",  # refused at subscribe: never connected
    "json://2130706433:{port}/",
    "json://[::ffff:127.0.0.1]/",
    "json://[::ffff:7f00:1]:{port}/",
    "jsons://169.254.169.254/",  # refused at subscribe: never connected
    "mailto://u:p@127.0.0.1:{port}?from=a@b.org&to=c@d.org",
    "mailto://u:p@example.org?smtp=127.0.0.1&from=a@b.org&to=c@d.org",
    "ntfy://127.0.0.1:{port}/topic",
    "matrix://u:p@10.0.0.1/#room",
    "gotify://169.254.169.254/token",  # refused at subscribe: never connected
    "rsyslog://127.0.0.1:{port}",
    "apprise://127.0.0.1:{port}/token",
]


@pytest.mark.parametrize(
    ("kind", "url"), [("webhook", u) for u in WEBHOOKS] + [("apprise", u) for u in APPRISE]
)
def test_a_target_off_the_public_internet_is_refused_in_any_spelling(
    client, listener, fence, kind, url
):
    game_id, auth = create(client)
    url = url.format(port=listener.getsockname()[1])
    answer = client.post(
        f"/games/{game_id}/subscriptions", json={"kind": kind, "url": url}, headers=auth[1]
    )
    assert answer.status_code == 400, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == "subscription/not_public" and error["details"]["field"] == "url"
    assert client.get(f"/games/{game_id}/subscriptions", headers=auth[1]).get_json() == []
    assert fence == [] and not touched(listener)


@pytest.mark.parametrize("url", ["syslog://", "syslog://localhost", "windows://"])
def test_an_apprise_service_of_the_referees_own_machine_is_refused(client, url):
    game_id, auth = create(client)
    body = {"kind": "apprise", "url": url}
    answer = client.post(f"/games/{game_id}/subscriptions", json=body, headers=auth[1])
    assert answer.status_code == 400
    assert answer.get_json()["error"]["details"]["field"] == "url"


@pytest.mark.parametrize(
    ("kind", "url"),
    [
        ("webhook", "https://hooks.example.test/x"),
        ("apprise", "discord://1234567890/abcdefghij"),
        ("apprise", "tgram://123456789:abcdefg_hijklmnop/12315544/"),
        ("apprise", "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ/#general"),
        ("apprise", "mailto://u:p@gmail.com"),
        ("apprise", "json://hooks.example.test/"),
        ("apprise", "mailgun://noreply@mg.no-such-name.test/apikey"),  # a sender's domain
    ],
)
def test_a_public_target_is_subscribed(client, fence, kind, url):
    game_id, auth = create(client)
    subscribe(client, game_id, auth[1], kind=kind, url=url)
    assert fence == []  # checked by name, nothing sent


def test_loopback_is_refused_by_default_and_admitted_by_the_allow_list(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_NOTIFY_ALLOW")
    url = "http://127.0.0.1:9/x"
    for entries, status in ((None, 400), ("10.0.0.0/8, 127.0.0.0/8", 201), ("localhost", 400)):
        if entries is not None:
            monkeypatch.setenv("REFEREE_NOTIFY_ALLOW", entries)
        app = create_app({"REFEREE_DB": str(tmp_path / f"{status}-{entries}.db")})
        client = app.test_client()
        game_id, auth = create(client)
        body = {"kind": "webhook", "url": url}
        answer = client.post(f"/games/{game_id}/subscriptions", json=body, headers=auth[0])
        assert answer.status_code == status, (entries, answer.get_json())


def test_an_allowed_name_is_admitted_whatever_it_resolves_to(
    client, referee, receiver, names, clock
):
    names["hooks.internal"] = ["127.0.0.1"]
    allow(referee, "hooks.internal")
    game_id, auth = create(client)
    port = receiver.server_address[1]
    subscribe(client, game_id, auth[1], kind="webhook", url=f"http://hooks.internal:{port}/hook")
    subscribe(client, game_id, auth[1], kind="apprise", url=f"json://hooks.internal:{port}/")
    play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["delivered", "delivered"]
    assert {h["host"] for h, _ in receiver.got} == {f"hooks.internal:{port}"}


def test_a_bad_allow_list_stops_the_app_from_starting(tmp_path):
    with pytest.raises(ValueError, match="neither a network nor a host name"):
        create_app({"REFEREE_DB": str(tmp_path / "r.db"), "NOTIFY_ALLOW": "10.0.0.0/8, a b"})


@pytest.mark.parametrize(
    ("kind", "url"),
    [
        ("webhook", "http://rebind.test:{port}/hook"),
        ("apprise", "json://rebind.test:{port}/"),
        ("apprise", "mailto://u:p@rebind.test:{port}?from=a@b.org&to=c@d.org&mode=insecure"),
    ],
)
def test_a_name_that_rebinds_to_loopback_is_refused_when_sent(
    client, referee, listener, names, fence, clock, kind, url
):
    names["rebind.test"] = [PUBLIC]  # public when subscribed...
    game_id, auth = create(client)
    sub = subscribe(
        client, game_id, auth[1], kind=kind, url=url.format(port=listener.getsockname()[1])
    )
    names["rebind.test"] = ["127.0.0.1"]  # ...loopback when sent
    play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["retrying"]
    assert fence == [] and not touched(listener)
    (logged,) = deliveries(client, game_id, auth[1], sub)
    assert logged["status"] == "failed" and "127.0.0.1" not in json.dumps(logged)


@pytest.mark.parametrize("layers", ["adapter and socket module", "adapter alone"])
def test_a_webhook_connects_to_the_address_it_checked_without_asking_again(
    listener, names, fence, monkeypatch, layers
):
    """The name answers an allowed address (127.0.0.2, where nobody listens) to the first
    question and the listener's to any later one: the connection asks once and tries
    only the address it checked, with or without the socket module's own check."""
    port = listener.getsockname()[1]
    if layers == "adapter alone":
        monkeypatch.setattr(reach, "_checked", lambda sock, address: address)
        monkeypatch.setattr(socket, "getaddrinfo", lambda *a: reach.resolve(*a))
    asked = []
    plain = reach.resolve

    def flipping(host, *args):
        if host == "flip.test":
            names["flip.test"] = ["127.0.0.1"] if asked else ["127.0.0.2"]
            asked.append(host)
        return plain(host, *args)

    monkeypatch.setattr(reach, "resolve", flipping)
    pools = reach.webhook_pool()
    with guarded(AllowList.parse("127.0.0.2/32")), pytest.raises(urllib3.exceptions.HTTPError):
        pools.request("POST", f"http://flip.test:{port}/hook", body=b"{}", timeout=5, retries=False)
    assert asked == ["flip.test"] and not touched(listener)
    assert [a[:2] for a in fence] == [("127.0.0.2", port)]


def test_a_kept_connection_is_checked_again_before_a_send_uses_it(client, referee, clock, fence):
    """One delivery's connection is kept and serves the next; once the allow-list no
    longer admits the address it reached, no delivery goes through it."""
    receiver = Receiver(keep_alive=True)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    allow(referee, "127.0.0.0/8")
    game_id, auth = create(client)
    mod = auth["moderator"]
    sub = subscribe(client, game_id, mod, kind="webhook", url=receiver.url, events=["post"])
    seen: set[str] = set()

    def the_next_moves() -> str:
        play_first(client, game_id, auth)
        (new,) = {d["delivery_id"] for d in deliveries(client, game_id, mod, sub)} - seen
        seen.add(new)
        return new

    try:
        for _ in range(2):
            assert referee.deliver(the_next_moves(), now=T0) == "delivered"
        assert receiver.peers[0] == receiver.peers[1]  # one connection served both
        allow(referee, "")
        assert referee.deliver(the_next_moves(), now=T0) == "retrying"
    finally:
        receiver.shutdown()
        receiver.server_close()
    assert len(receiver.got) == 2


def test_apprise_connections_of_every_kind_are_checked_while_a_send_is_in_force(listener, names):
    """What Apprise's plugins connect by: requests, smtplib, a socket by name or by
    address, UDP; each refused on loopback inside `guarded`, and reaching it outside."""
    port = listener.getsockname()[1]
    names["rebind.test"] = ["127.0.0.1"]

    def by_socket(how, kind=socket.SOCK_STREAM):
        with socket.socket(socket.AF_INET, kind) as sock:
            return how(sock)

    attempts = [
        lambda: requests.get(f"http://rebind.test:{port}/", timeout=5),
        lambda: smtplib.SMTP("rebind.test", port, timeout=5),
        lambda: socket.create_connection(("127.0.0.1", port), timeout=5),
        lambda: by_socket(lambda s: s.connect(("rebind.test", port))),
        lambda: by_socket(lambda s: s.connect_ex(("127.0.0.1", port))),
        lambda: by_socket(lambda s: s.sendto(b"x", ("127.0.0.1", port)), socket.SOCK_DGRAM),
        lambda: by_socket(lambda s: s.sendto(b"x", 0, ("rebind.test", port)), socket.SOCK_DGRAM),
    ]
    with guarded(AllowList()):
        for attempt in attempts:
            with pytest.raises((OSError, requests.ConnectionError)):
                attempt()
    assert not touched(listener)
    with socket.create_connection(("127.0.0.1", port), timeout=5):  # outside: as ever
        assert touched(listener)


def test_an_apprise_service_on_a_host_of_its_own_is_checked_as_it_connects(
    client, referee, names, fence, clock
):
    """discord:// names no host: Apprise resolves discord.com itself, inside the guard."""
    names["discord.com"] = names["discordapp.com"] = ["127.0.0.1"]
    game_id, auth = create(client)
    subscribe(client, game_id, auth[1], kind="apprise", url="discord://1234567890/abcdefghij")
    play_first(client, game_id, auth)
    assert send_due(referee, T0) == ["retrying"]
    assert fence == []  # refused as it resolved, before any connection


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed_even_to_an_allowed_target(client, referee, clock, status):
    allow(referee, "127.0.0.0/8")
    first, second = Receiver(), Receiver()
    for server in (first, second):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        first.answers, first.location = [status], second.url
        game_id, auth = create(client)
        sub = subscribe(client, game_id, auth[1], kind="webhook", url=first.url)
        play_first(client, game_id, auth)
        assert send_due(referee, T0) == ["retrying"]  # a 3xx is a failed delivery
    finally:
        for server in (first, second):
            server.shutdown()
            server.server_close()
    assert len(first.got) == 1 and second.got == [] and second.asked == []
    assert deliveries(client, game_id, auth[1], sub)[0]["status"] == "failed"


def test_the_delivery_log_says_delivered_or_not_and_never_what_the_target_said(
    client, app, referee, receiver, clock, caplog
):
    allow(referee, "127.0.0.0/8")
    game_id, auth = create(client)
    receiver.answers = [404, 405]
    closed = socket.create_server(("127.0.0.1", 0))
    nobody = f"http://127.0.0.1:{closed.getsockname()[1]}/x"
    closed.close()  # a port nobody listens on: connection refused
    hook = subscribe(client, game_id, auth[1], kind="webhook", url=receiver.url)
    gone = subscribe(client, game_id, auth[1], kind="webhook", url=nobody)
    play_first(client, game_id, auth)
    with caplog.at_level(logging.INFO, logger="referee.notify"):
        assert send_due(referee, T0) == ["retrying", "retrying"]
    told = [deliveries(client, game_id, auth[1], s)[0] for s in (hook, gone)]
    for logged in told:
        assert logged["status"] == "failed"
        assert logged["answer"] == "not delivered; to be tried again"
    link = f"/join/{game_id}?token={auth[1]['Authorization'].split()[1]}"
    seat = app.test_client()
    assert seat.get(link).status_code == 303
    page = seat.get(f"/g/{game_id}").get_data(as_text=True)
    notifications = page[page.index('id="notifications"') :]  # not a game id with 404 in it
    for shown in (json.dumps(told), notifications[: notifications.index("</section>")]):
        for said in (" 404", " 405", "HTTP", "ConnectionError", "refused", "Errno"):
            assert said not in shown
    assert "not delivered; to be tried again" in page and "failed" in page
    assert "HTTP 404" in caplog.text and "ConnectionError" in caplog.text  # the operator's
    send_due(referee, T0 + 10)
    assert deliveries(client, game_id, auth[1], hook)[0]["status"] == "failed"  # 405 now


def test_a_seat_holds_five_subscriptions_and_a_game_thirty(client, fence):
    players = [f"P{n}" for n in range(9)]
    created = client.post("/games", json={"ruleset": "blackout-middle", "players": players})
    created = created.get_json()
    game_id = created["game_id"]
    seats = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    body = {"kind": "webhook", "url": "https://hooks.example.test/x"}
    path = f"/games/{game_id}/subscriptions"
    for _ in range(5):
        assert client.post(path, json=body, headers=seats[0]).status_code == 201
    sixth = client.post(path, json=body, headers=seats[0])
    assert sixth.status_code == 409
    assert sixth.get_json()["error"]["code"] == "subscription/too_many"
    assert sixth.get_json()["error"]["details"] == {"limit": 5, "per": "seat or moderator"}
    assert len(client.get(path, headers=seats[0]).get_json()) == 5
    for n in range(30 - 5):
        assert client.post(path, json=body, headers=seats[1 + n // 5]).status_code == 201
    over = client.post(path, json=body, headers=seats[6])
    assert over.status_code == 409 and over.get_json()["error"]["details"]["per"] == "game"
    assert client.get(path, headers=seats[6]).get_json() == []
    assert fence == []


class EndlessAnswer:
    """A target on 127.0.0.1 that answers a POST 200 and then sends its body without end,
    `chunk` bytes at a time, `pause` seconds apart, until the sender hangs up."""

    def __init__(self, chunk: int, pause: float = 0) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.chunk, self.pause = chunk, pause
        self.sent, self.hung_up = 0, threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.getsockname()[1]}/hook"

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn:
            conn.recv(65536)  # the request (small: one notice)
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            piece = b"%x\r\n%s\r\n" % (self.chunk, b"x" * self.chunk)
            try:
                while not self.hung_up.wait(self.pause):  # a drip, not a wait for an event
                    conn.sendall(piece)
                    self.sent += self.chunk
            except OSError:
                self.hung_up.set()


def _send_to(url: str) -> tuple[bool, str]:
    subscription = {"kind": "webhook", "url": url, "secrets": json.dumps([])}
    notice = {"kind": "post", "game_id": "g", "seq": 1, "text": "t"}
    return sending.send(subscription, "d1", notice, T0, allow=AllowList.parse("127.0.0.0/8"))


def test_an_answer_without_end_is_read_no_further_than_its_bound(monkeypatch):
    """A target that answers 200 and then streams its body for ever cannot hold the
    sender or fill its memory: at most ANSWER_BYTES of it is read, then the connection
    is dropped, and the notice counts as delivered (the status said so)."""
    monkeypatch.setattr(sending, "ANSWER_BYTES", 256 * 1024)
    target = EndlessAnswer(chunk=16 * 1024)
    assert _send_to(target.url) == (True, "HTTP 200")
    assert target.hung_up.wait(60)
    assert target.sent >= 256 * 1024  # it went on sending until the sender hung up


def test_an_answer_dripping_slowly_is_dropped_when_the_send_time_is_up(monkeypatch):
    """A body sent a byte at a time, each within the socket's timeout, never ends a read:
    the send's own time bound does."""
    monkeypatch.setattr(sending, "SEND_TIMEOUT", 1)
    target = EndlessAnswer(chunk=1, pause=0.05)
    outcome: list[tuple[bool, str]] = []
    sender = threading.Thread(target=lambda: outcome.append(_send_to(target.url)))
    sender.start()
    sender.join(60)  # a bound for failing only
    assert outcome == [(True, "HTTP 200")]
    assert target.hung_up.wait(60)
