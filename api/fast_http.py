"""POST /graphql without the per-request framework cost, for well-formed requests.

Measured with benchmarks/api_load.py, strawberry's HTTP view and `Schema.execute` (request
adapters, extension hooks around each phase, context managers) and Starlette's routing
cost more per `act` than the action itself. This ASGI middleware answers the common
request directly: a JSON body `{query, variables?, operationName?}` whose document parses
within the token limit and passes the same validation rules as the view (graphql-core's,
strawberry's, and our depth and alias limits), holding one query or mutation. It executes
the cached document with graphql-core and `FastExecutionContext` and writes the response
strawberry would write: `{"data": …, "errors": [formatted…]}`, errors logged through the
schema's `process_errors`.

Everything else - GET, GraphiQL, other content types, streaming `Accept` headers, malformed
JSON or requests, documents that fail to parse or validate, subscriptions over HTTP,
several operations - goes to strawberry's view unchanged, body included, so every refusal
keeps its exact status and message.

It may stand in for the view only while the schema's extensions act before execution (the
parser and validation caches, the token limit, added validation rules): `DocumentCache`
refuses to start otherwise.
"""
from __future__ import annotations

import msgspec
from graphql import GraphQLError, OperationType, execute
from starlette.requests import Request
from strawberry.execution import optimized_is_awaitable

from api.auth import refused_over_http
from api.persisted import NO_STORE, PersistedQueries, PersistedQueryError
from api.refusals import refuse
from api.tokens import bearer
from schema.execution import FastExecutionContext
from schema.prepared import DocumentCache, Refused
from schema.validation import PENALTY

REQUEST_KEYS = frozenset(("query", "variables", "operationName", "extensions"))


class FastGraphQLHTTP:
    def __init__(self, app, schema, holder: dict, documents: DocumentCache, penalty: int = 0,
                 persisted: PersistedQueries | None = None) -> None:
        self.app, self.schema, self.holder, self.documents = app, schema, holder, documents
        self.persisted = persisted or PersistedQueries(documents=documents)
        self.penalty = penalty  # requests a refusal for cost counts as at the address's rate limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/graphql":
            return await self.app(scope, receive, send)
        content_type = accept = authorization = b""
        for name, value in scope["headers"]:
            if name == b"content-type":
                content_type = value
            elif name == b"accept":
                accept = value
            elif name == b"authorization":
                authorization = value
        if (not content_type.lower().startswith(b"application/json")
                or b"multipart/mixed" in accept or b"text/event-stream" in accept):
            return await self.app(scope, receive, send)
        token = bearer(authorization.decode("latin-1")) if authorization else None
        service = self.holder["service"]
        if token is not None and await refused_over_http(service, token, send):
            return  # as the view would (api/auth.py)
        body = await read_body(receive)
        try:
            request = self.request_of(body)
        except PersistedQueryError as exc:
            return await refuse(send, exc.status, exc.message, exc.code, NO_STORE if exc.status == 200 else ())
        if request is None:
            return await self.app(scope, replay(body, receive), send)
        if isinstance(request, Refused):  # over the cost limit: refused without a parse or a validation
            if self.penalty:
                scope[PENALTY] = self.penalty
            return await self.respond(send, None, [request.error])
        prepared, variables = request
        context = {"request": Request(scope), "response": None, "service": service, "token": token}
        try:
            result = execute(self.schema._schema, prepared.document, context_value=context, variable_values=variables,
                             operation_name=prepared.name, executor_class=FastExecutionContext,
                             is_awaitable=optimized_is_awaitable)
            if optimized_is_awaitable(result):
                result = await result
            data, errors = result.data, result.errors
        except Exception as exc:  # noqa: BLE001 - as strawberry's execute: an error, not a 500
            data, errors = None, [exc if isinstance(exc, GraphQLError) else GraphQLError(str(exc), original_error=exc)]
        await self.respond(send, data, errors)

    async def respond(self, send, data, errors) -> None:
        response = {"data": data}
        if errors:
            self.schema.process_errors(errors)
            response["errors"] = [e.formatted for e in errors]
        payload = msgspec.json.encode(response)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(payload)).encode()),
                                (b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": payload})

    def request_of(self, body: bytes):
        """(prepared document, variables) for a request this path answers, its `Refused`
        for a document over the cost limit, else None; raises `PersistedQueryError`."""
        try:
            data = msgspec.json.decode(body)
        except msgspec.DecodeError:
            return None
        if type(data) is not dict or not data.keys() <= REQUEST_KEYS:
            return None
        query, variables, name = data.get("query"), data.get("variables"), data.get("operationName")
        extensions = data.get("extensions")
        if not (variables is None or type(variables) is dict) or not (extensions is None or type(extensions) is dict):
            return None
        if not (name is None or type(name) is str):
            return None
        query = self.persisted.resolve(query, extensions)  # as the view does, after its own checks
        if type(query) is not str:
            return None
        prepared = self.documents.prepare(query)
        if isinstance(prepared, Refused):
            return prepared
        if (prepared is None or prepared.kind not in (OperationType.QUERY, OperationType.MUTATION)
                or (name is not None and name != prepared.name)):
            return None
        return prepared, variables


async def read_body(receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replay(body: bytes, receive):
    """A receive channel that gives the already-read body once, then the client's own."""
    sent = False

    async def again():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
