"""HTTP refusals as JSON: the body a GraphQL client reads for any error,
`{"errors": [{"message", "extensions": {"code"}}]}`, whatever refused the request."""
from __future__ import annotations

import msgspec

CODES = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
         413: "BODY_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED"}


def error_body(code: str, message: str) -> bytes:
    return msgspec.json.encode({"errors": [{"message": message, "extensions": {"code": code}}]})


async def refuse(send, status: int, message: str, code: str | None = None,
                 headers: list[tuple[bytes, bytes]] = ()) -> None:
    """Answer the request (ASGI `send`) with `status` and a JSON error body."""
    body = error_body(code or CODES.get(status, f"HTTP_{status}"), message)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})
