"""A real HTTP receiver on 127.0.0.1 for the notification tests."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WITHIN = 60  # seconds, for failing only


class Receiver(ThreadingHTTPServer):
    """An HTTP receiver: answers each POST with the next status of `answers` (then 200),
    with a Location header when `location` is set, and keeps (headers, body) of each;
    notes the path of each GET (and answers 405)."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.answers: list[int] = []
        self.location: str | None = None
        self.got: list[tuple[dict[str, str], bytes]] = []
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
            server.arrived.notify_all()
        self.send_response(status)
        if server.location:
            self.send_header("Location", server.location)
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        server: Receiver = self.server  # type: ignore[assignment]
        server.asked.append(self.path)
        self.send_response(405)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass
