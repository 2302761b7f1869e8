"""uvicorn's HTTP protocol with a read timeout: a request must arrive whole in time.

uvicorn times out idle keep-alive connections between requests, but not a connection that
sends nothing, or half a request: 1,000 half-sent requests stayed open indefinitely, each a
socket and a parser (a task too, once its headers were in). Here each connection gets a
deadline when it opens and when each new request begins; if the request's headers and body
are not complete by then, the connection is closed (an application still reading the body
gets `http.disconnect`). A WebSocket upgrade ends the deadline: from then on uvicorn's
pings watch the connection. `CONCLAVE_REQUEST_READ_TIMEOUT` (seconds, default 10) sets it;
deploy/nginx.conf shows the same limits at a proxy (client_header_timeout, client_body_timeout).

It also drops, as soon as they are made, the connections of an address the rate limits shut
out for abuse (api/limits.py: a flood of refused documents), before any parsing.
"""
from __future__ import annotations

import asyncio

from api.limits import is_shut_out
from api.settings import Settings

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - no httptools: uvicorn's own choice, without the deadline
    HttpToolsProtocol = None

_timeout: list[float] = []  # read once per process, from the environment (workers are processes)


def read_timeout() -> float:
    if not _timeout:
        _timeout.append(Settings.from_env().request_read_timeout)
    return _timeout[0]


if HttpToolsProtocol is not None:

    class ReadTimeoutHttpToolsProtocol(HttpToolsProtocol):
        read_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if self.client and is_shut_out(self.client[0]):  # penalized past its rate (api/limits.py)
                self.transport.abort()
                return
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()  # the WebSocket protocol takes the connection over
            super().handle_websocket_upgrade()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self.read_deadline is None:
                self.read_deadline = self.loop.call_later(read_timeout(), self._read_timed_out)

        def _disarm(self) -> None:
            if self.read_deadline is not None:
                self.read_deadline.cancel()
                self.read_deadline = None

        def _read_timed_out(self) -> None:
            self.read_deadline = None
            if not self.transport.is_closing():
                self.logger.info("request not received in %ss: connection closed", read_timeout())
                self.transport.close()
else:  # pragma: no cover
    ReadTimeoutHttpToolsProtocol = None


def http_protocol():
    """uvicorn's `http` setting: the protocol with the read deadline, else uvicorn's own."""
    return ReadTimeoutHttpToolsProtocol or "auto"
