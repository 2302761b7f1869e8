"""Subscriptions without strawberry's per-event pipeline.

For every event strawberry's `Schema.stream` wraps graphql-core's result in its own
(`_handle_execution_result`: extension results, error processing) and runs every
extension's `on_stream_result` hook around the yield, and graphql-core maps the source
through `map_async_iterable`: together more than the event's own execution
(benchmarks/api_load.py delivers every action to five subscribers per table).

`ConclaveSchema.stream` gives the WebSocket handlers (and `subscribe`) an `EventStream` for
a subscription whose document `documents` has prepared (it would pass strawberry's parsing
and validation) and whose variables coerce (a document `documents` refuses for its cost
gets the refusal at once): each source event is completed directly or run
on a per-event executor, its errors go through the schema's error processing, and it is
yielded as strawberry's `ExecutionResult`. A failing source ends the stream with one error
result, as strawberry's does. Anything else - no document cache, an unprepared document,
variables that do not coerce, a subscription resolver that does not return a stream - goes
to strawberry's `stream` untouched (the resolver only builds its source: calling it again
starts nothing).
"""
from __future__ import annotations

import asyncio
from contextlib import aclosing, nullcontext
from typing import Any

import strawberry
from graphql import ExecutionResult as GraphQLExecutionResult
from graphql import GraphQLError, OperationType, create_source_event_stream
from graphql.execution.collect_fields import collect_fields
from graphql.pyutils import Path
from strawberry.execution import optimized_is_awaitable
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types import ExecutionResult
from strawberry.types.execution import PreExecutionError
from strawberry.schema.schema import DEFAULT_ALLOWED_OPERATION_TYPES
from strawberry.types.graphql import OperationType as StrawberryOperationType  # not graphql-core's

from schema import errors as error_codes
from schema.execution import PLANS
from schema.prepared import DocumentCache, Prepared, Refused
from schema.validation import PENALTY, penalize


MAX_REFUSALS = 10  # documents refused for their cost on one WebSocket connection before it is closed
REFUSALS = "conclave.refusals"  # the connection's count, in its context
CLOSE_PENALTY = 1000  # requests such a closed connection counts as: a second of the default address rate
_closing: set = set()  # the loop keeps only weak references to tasks


async def _close(socket) -> None:
    socket.scope[PENALTY] = CLOSE_PENALTY  # counted at the address's rate limit (api/limits.py)
    try:
        await socket.close(code=4429, reason="too many refused operations")
    except Exception:  # noqa: BLE001 - already closed: nothing to do
        pass


def as_graphql_error(error: Exception) -> GraphQLError:
    return error if isinstance(error, GraphQLError) else GraphQLError(str(error), original_error=error)


def event_root(executor):
    """How to complete an event's one root field directly, or None.

    Strawberry resolves every subscription field of an event to the event itself, and the
    field's arguments were coerced when the stream was created (with these variables), so
    an event's response is its compiled completion under the field's response key. Any
    miss returns None and graphql-core executes the event as usual.
    """
    if executor.middleware_manager is not None and executor.middleware_manager.middlewares:
        return None
    root_type = executor.schema.subscription_type
    grouped = collect_fields(executor.schema, executor.fragments, executor.variable_values, root_type,
                             executor.operation, executor.hide_suggestions)
    if len(grouped.grouped_field_set) != 1 or grouped.new_defer_usages:
        return None
    (key, details), = grouped.grouped_field_set.items()
    field_def = executor.schema.get_field(root_type, details[0].node.name.value)
    definition = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF) if field_def else None
    if definition is None or not definition.is_subscription:
        return None
    nodes = [d.node for d in details]
    plan: list = []  # the completer, looked up on the first event (one per stream)

    def complete(payload, event=None):
        """`event`: the per-event executor when the caller has one. The compiled completion
        only reads the executor, so without a resolver below that wants a real resolve
        info (`needs_path`) the stream's own executor serves and no copy is made."""
        if not plan:
            plan.append(PLANS.get(executor, field_def.type, details))
        completer = plan[0]
        if completer is None:
            return None
        if completer.needs_path:
            event = event or executor.build_per_event_executor(payload)
            path = Path(None, key, root_type.name)
            info = event.build_resolve_info(field_def, nodes, root_type, path)
        else:
            event, info, path = executor, None, None
        try:
            return GraphQLExecutionResult({key: completer(event, payload, info, path)}, None)
        except Exception:  # noqa: BLE001 - graphql-core gives the answer, errors and all
            return None

    return complete


class ConclaveSchema(strawberry.Schema):
    documents: DocumentCache | None = None  # set by the app once its limits are known
    refusal_penalty: int = 0  # requests a refusal for cost counts as at the address's rate limit (set by the app)

    async def execute(self, query, variable_values=None, context_value=None, root_value=None, operation_name=None,
                      allowed_operation_types=None, operation_extensions=None):
        """A subscription cannot run as one response: strawberry's `execute` would call its
        resolver as a query's and fail on the stream it returns (an internal error). It is
        refused instead (the HTTP view answers 400); subscriptions run through `stream`."""
        allowed = set(allowed_operation_types or DEFAULT_ALLOWED_OPERATION_TYPES)
        allowed.discard(StrawberryOperationType.SUBSCRIPTION)
        return await super().execute(query, variable_values, context_value, root_value, operation_name, allowed,
                                     operation_extensions)

    def process_errors(self, errors, execution_context=None) -> None:
        """Codes, logs and masks errors (schema.errors) instead of strawberry's logging of
        every error with a traceback."""
        error_codes.process(errors)

    async def _prepare_operation_async(self, context, extensions_runner):
        """Strawberry's parsing and validation; what it refuses is the document's fault.

        A syntax error raised by the parser cache's hook escapes strawberry's own catch (it
        comes from entering the parsing context): `execute` turns it into an error result
        anyway, but `stream` let it end the operation's task, so a subscription with a typo
        got only `complete` (graphql-transport-ws) or nothing (graphql-ws)."""
        try:
            refused = await super()._prepare_operation_async(context, extensions_runner)
        except GraphQLError as error:
            context.pre_execution_errors = [error]
            refused = PreExecutionError(data=None, errors=[error])
        if refused is not None:
            error_codes.tag_pre_execution(refused.errors)
        return refused

    async def stream(self, query: str | None, variable_values: dict[str, Any] | None = None,
                     context_value: Any | None = None, root_value: Any | None = None,
                     operation_name: str | None = None, operation_extensions: dict[str, Any] | None = None,
                     allowed_operation_types=None):
        if (self.documents is not None and isinstance(query, str) and operation_extensions is None
                and (allowed_operation_types is None
                     or StrawberryOperationType.SUBSCRIPTION in allowed_operation_types)):
            prepared = self.documents.prepare(query)
            if isinstance(prepared, Refused):  # over the cost limit: strawberry's answer, without its pipeline
                return self._refused(prepared.error, context_value)
            if (isinstance(prepared, Prepared) and prepared.kind is OperationType.SUBSCRIPTION
                    and (operation_name is None or operation_name == prepared.name)):
                executor = self.execution_context_class.build(
                    self._schema, prepared.document, root_value, context_value, variable_values, prepared.name,
                    is_awaitable=optimized_is_awaitable)
                if not isinstance(executor, list):
                    source = create_source_event_stream(executor)
                    if executor.is_awaitable(source):
                        source = await source
                    if executor.is_async_iterable(source):
                        return self._events(executor, source)
        return await super().stream(query, variable_values, context_value, root_value, operation_name,
                                    operation_extensions, allowed_operation_types)

    async def _refused(self, error: GraphQLError, context: Any):
        """The one result of a refused document, as strawberry's pipeline gives it (both
        WebSocket protocols answer it with their error message). A WebSocket connection
        refused more than `MAX_REFUSALS` times is then closed (4429): the HTTP rate limits,
        which a refusal over HTTP counts against, never see its operations. Over HTTP (an
        event stream, api/sse.py) the refusal counts `refusal_penalty` requests at the
        address's rate, as a refused POST does."""
        self._process_errors([error])
        if self.refusal_penalty:
            penalize(context, self.refusal_penalty)
        if isinstance(context, dict):
            refusals = context[REFUSALS] = context.get(REFUSALS, 0) + 1
            socket = context.get("request")
            if refusals > MAX_REFUSALS and getattr(socket, "scope", {}).get("type") == "websocket":
                task = asyncio.get_running_loop().create_task(_close(socket))  # after the error is sent
                _closing.add(task)
                task.add_done_callback(_closing.discard)
        yield PreExecutionError(data=None, errors=[error])

    def _events(self, executor, source) -> "EventStream":
        return EventStream(self, executor, source)


class EventStream:
    """A subscription's results, as the lean path of `ConclaveSchema.stream` gives them.

    Iterated, it is an async generator of strawberry `ExecutionResult`s, one per source event.
    A handler that writes updates itself may instead take the events from `source` and turn
    each into its response with `data_now` (compiled, synchronous) or `result` (anything)."""

    def __init__(self, schema: ConclaveSchema, executor, source) -> None:
        self.schema, self.executor, self.source = schema, executor, source
        self.root = event_root(executor)
        self._results = self._iterate()

    def __aiter__(self):
        return self._results

    def __anext__(self):
        """An async iterator itself too: strawberry's HTTP view streams (graphql-sse, api/sse.py)
        only what passes its `SubscriptionExecutionResult` check (`__aiter__` and `__anext__`)."""
        return self._results.__anext__()

    async def aclose(self) -> None:
        await self._results.aclose()

    def data_now(self, payload) -> dict | None:
        """The response data of one event through the compiled completion, or None when it
        needs the executor (a miss, an error)."""
        result = self.root(payload) if self.root is not None else None
        return None if result is None else result.data  # the compiled path has no errors: a miss

    async def result(self, payload) -> ExecutionResult:
        """One event's result, errors processed as the schema does."""
        event = self.executor.build_per_event_executor(payload)
        result = self.root(payload, event) if self.root is not None else None
        if result is None:  # the compiled path changed nothing the executor holds
            result = event.execute_operation(False)
        if self.executor.is_awaitable(result):
            result = await result
        if result.errors:
            self.schema._process_errors(result.errors)
        return ExecutionResult(data=result.data, errors=result.errors)

    def failed(self, exc: Exception) -> ExecutionResult:
        """The one result a failing source ends the stream with, as strawberry's."""
        errors = [as_graphql_error(exc)]
        self.schema._process_errors(errors)
        return ExecutionResult(data=None, errors=errors)

    async def _iterate(self):
        source = self.source
        try:
            async with aclosing(source) if hasattr(source, "aclose") else nullcontext():
                async for payload in source:
                    yield await self.result(payload)
        except Exception as exc:  # noqa: BLE001 - as strawberry: the stream ends with the error
            yield self.failed(exc)
