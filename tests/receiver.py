"""A real HTTP receiver on 127.0.0.1 for the notification tests."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WITHIN = 60  # seconds, for failing only


class Receiver(ThreadingHTTPServer):
    """An HTTP receiver: answers each POST with the next status of `answers` (then 200),
    with a Location header when `location` is set, and keeps (headers, body) of each and
    the address it came from; a POST to a path in `held` is answered once that event is
    set; notes the path of each GET (and answers 405). `keep_alive`: connections stay
    open for more requests (HTTP/1.1), as most receivers keep them."""

    def __init__(self, *, keep_alive: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), KeepingHandler if keep_alive else Handler)
        self.answers: list[int] = []
        self.location: str | None = None
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.peers: list[tuple[str, int]] = []  # where each POST came from
        self.held: dict[str, threading.Event] = {}
        self.asked: list[str] = []  # the paths of requests other than POST
        self.arrived = threading.Condition()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"

    def wait_for(self, count: int) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.got) >= count, WITHIN)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        server: Receiver = self.server  # type: ignore[assignment]
        body = self.rfile.read(int(self.headers["Content-Length"]))
        status = server.answers.pop(0) if server.answers else 200
        with server.arrived:
            server.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
            server.peers.append(self.client_address[:2])
            server.arrived.notify_all()
        if self.path in server.held:
            server.held[self.path].wait(WITHIN)
        self.send_response(status)
        if server.location:
            self.send_header("Location", server.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        server: Receiver = self.server  # type: ignore[assignment]
        server.asked.append(self.path)
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


class KeepingHandler(Handler):
    protocol_version = "HTTP/1.1"
