"""A real HTTP receiver on loopback for the webhook tests: it records every POST it gets
(path, headers, body) and the status it answered, and can be told to fail."""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    status: int
    at: float = field(default_factory=time.time)

    @property
    def payload(self) -> dict:
        return json.loads(self.body)


@dataclass
class Receiver:
    """`fail_first`: answer 500 to that many requests first; `down`: answer 500 while set."""

    fail_first: int = 0
    down: bool = False
    got: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver._lock:
                    failing = receiver.down or receiver.fail_first > 0
                    if receiver.fail_first > 0:
                        receiver.fail_first -= 1
                    status = 500 if failing else 200
                    receiver.got.append(Received(self.path, dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def accepted(self, path: str | None = None) -> list[Received]:
        with self._lock:
            return [r for r in self.got if r.status == 200 and (path is None or r.path == path)]

    def all(self) -> list[Received]:
        with self._lock:
            return list(self.got)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
