"""A read timeout for half-sent requests (issue 13, point 6: 1,000 half-sent requests were
held open indefinitely): a connection whose request headers or body are not complete within
CONCLAVE_REQUEST_READ_TIMEOUT seconds is closed, while other connections are served, and a
WebSocket outlives it."""
from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
import pytest
import websockets


@pytest.fixture
def mode():
    return "embedded"


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed the socket (None: still open after `seconds`)."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return time.monotonic() - started
    except (TimeoutError, socket.timeout):
        return None
    except ConnectionResetError:
        return time.monotonic() - started


def test_half_sent_requests_are_closed_and_others_are_served_meanwhile(make_server):
    server = make_server(CONCLAVE_REQUEST_READ_TIMEOUT="1")
    half_headers = socket.create_connection(("127.0.0.1", server.port))
    half_headers.sendall(b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
    half_body = socket.create_connection(("127.0.0.1", server.port))
    half_body.sendall(b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 200\r\n\r\n{\"query\": \"{ games")
    silent = socket.create_connection(("127.0.0.1", server.port))
    try:
        started = time.monotonic()
        with httpx.Client() as client:  # served meanwhile, on another connection
            r = client.post(server.url, json={"query": "{ games { id } }"})
            assert r.status_code == 200 and r.json()["data"]["games"]
        assert time.monotonic() - started < 1
        for sock in (half_headers, half_body, silent):
            waited = closed_within(sock, 5)
            assert waited is not None, "a half-sent request was not closed"
        assert time.monotonic() - started < 4
    finally:
        for sock in (half_headers, half_body, silent):
            sock.close()
    # a keep-alive connection that sends whole requests slower than the timeout is fine
    with httpx.Client() as client:
        for _ in range(2):
            assert client.get(f"{server.base}/healthz").json() == {"ok": True}
            time.sleep(0.6)


def test_a_websocket_outlives_the_read_timeout(make_server):
    server = make_server(CONCLAVE_REQUEST_READ_TIMEOUT="1")

    async def go():
        async with websockets.connect(server.ws_url, subprotocols=["graphql-transport-ws"]) as socket_:
            await socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await socket_.recv())["type"] == "connection_ack"
            await asyncio.sleep(2.5)
            await socket_.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "{ games { id } }"}}))
            return json.loads(await asyncio.wait_for(socket_.recv(), 5))

    message = asyncio.run(go())
    assert message["type"] == "next" and message["payload"]["data"]["games"], message
