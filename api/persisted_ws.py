"""Persisted queries in WebSocket operations, both protocols (api/persisted.py).

A `subscribe` (graphql-transport-ws) or `start` (legacy graphql-ws) message whose payload
carries `extensions.persistedQuery` has its query resolved before strawberry's handler reads
it: the handler then sees an ordinary operation with its text (so the lean subscription
path and the document cache serve it). A refusal is the protocol's `error` message for that
operation id - a list of errors in graphql-transport-ws, one error in graphql-ws, as each
protocol sends a refused document's - and the connection and its other operations live on.
"""
from __future__ import annotations

from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from api.persisted import PersistedQueryError, without_persisted
from api.ws_direct import DirectTransportWSHandler


def resolved(persisted, payload: dict) -> dict:
    """The payload with its query resolved and its persisted-query extension spent."""
    query = persisted.resolve(payload.get("query"), payload.get("extensions"))
    if query is None:
        return payload  # no query at all: the handler's own refusal
    return {**payload, "query": query, "extensions": without_persisted(payload.get("extensions"))}


class PersistedTransportWSHandler(DirectTransportWSHandler):
    async def handle_subscribe(self, message) -> None:
        payload = message.get("payload")
        # not yet acknowledged, a duplicate id, a malformed message: strawberry's answer (close)
        if self.connection_acknowledged and isinstance(payload, dict) and "id" in message \
                and message["id"] not in self.operations:
            try:
                message = {**message, "payload": resolved(self.view.persisted, payload)}
            except PersistedQueryError as exc:
                await self.send_message({"id": message["id"], "type": "error", "payload": [exc.formatted]})
                return
        await super().handle_subscribe(message)


class PersistedWSHandler(BaseGraphQLWSHandler):
    async def handle_start(self, message) -> None:
        payload = message.get("payload")
        if self.connection_acknowledged and isinstance(payload, dict) and "id" in message:
            try:
                message = {**message, "payload": resolved(self.view.persisted, payload)}
            except PersistedQueryError as exc:
                if message["id"] in self.tasks:  # a start with a running id replaces it, as strawberry's does
                    await self.cleanup_operation(message["id"])
                await self.send_message({"type": "error", "id": message["id"], "payload": exc.formatted})
                return
        await super().handle_start(message)
