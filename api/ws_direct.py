"""graphql-transport-ws with table subscriptions written straight from their table's feed.

Strawberry's handler runs each subscription as a task that awaits its stream and sends each
result through the protocol's message helpers, the WebSocket adapter and Starlette: a task
step and half a dozen awaits per subscriber and update. Here a `tableUpdates` subscription
on the lean path (`schema.streaming.EventStream` over an `api.feeds.FeedSubscription`), on a
connection whose server offers the synchronous write (`api.ws_protocol`), is run with
`FeedSubscription.run_direct`: a caught-up subscriber's update is completed and written in
the step that hears of the new version. The message is the one strawberry would send
(`{"id", "type": "next", "payload": {"data"}}`, the same JSON encoder); errors, misses of
the compiled completion and flow control take strawberry's own way, in order. Every other
operation, and every other server, is strawberry's handler unchanged.
"""
from __future__ import annotations

import msgspec
from strawberry.asgi import ASGIWebSocketAdapter
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler

from api.feeds import FeedSubscription
from api.ws_protocol import SEND_TEXT_NOWAIT
from schema.streaming import EventStream

_encode = msgspec.json.encode  # as ConclaveGraphQL.encode_json: byte-identical messages


class DirectTransportWSHandler(BaseGraphQLTransportWSHandler):
    async def _handle_pre_execution_error(self, operation, result) -> None:
        """A subscription refused before it starts - a syntax error and an unknown operation
        name too, which strawberry answers by closing the socket (4400) - gets the protocol's
        `error` message with the errors list; the connection and its other operations live on."""
        await operation.send_initial_errors(result.errors)

    def _writer(self):
        """The server's synchronous text write for this connection, if it offers one."""
        if not isinstance(self.websocket, ASGIWebSocketAdapter):
            return None
        return self.websocket.ws.scope.get("extensions", {}).get(SEND_TEXT_NOWAIT)

    async def _send_result_stream(self, operation, result_source) -> None:
        source = getattr(result_source, "source", None)
        write = self._writer()
        if write is None or not isinstance(result_source, EventStream) or not isinstance(source, FeedSubscription):
            return await super()._send_result_stream(operation, result_source)
        operations, op_id = self.operations, operation.id

        def send_now(update) -> bool:
            if operation.completed or operations.get(op_id) is not operation:
                return False  # ended: its task, being cancelled, sends nothing more
            data = result_source.data_now(update)
            if data is None:
                return False
            return write(_encode({"id": op_id, "type": "next", "payload": {"data": data}}))

        async def send(update) -> None:
            await operation.send_next(await result_source.result(update))

        try:
            await source.run_direct(send_now, send)
        except WebSocketDisconnected:
            raise
        except Exception as exc:  # noqa: BLE001 - as the stream's own: one error result, then complete
            await operation.send_next(result_source.failed(exc))
