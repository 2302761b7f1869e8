"""Subscriptions without strawberry's per-event pipeline.

For every event strawberry's `Schema.stream` wraps graphql-core's result in its own
(`_handle_execution_result`: extension results, error processing) and runs every
extension's `on_stream_result` hook around the yield, and graphql-core maps the source
through `map_async_iterable`: together more than the event's own execution
(benchmarks/api_load.py delivers every action to five subscribers per table).

`ConclaveSchema.stream` gives the WebSocket handlers (and `subscribe`) a plain generator
for a subscription whose document `documents` has prepared (it would pass strawberry's
parsing and validation) and whose variables coerce: each source event runs on a per-event
executor, its errors go through the schema's error processing, and it is yielded as
strawberry's `ExecutionResult`. A failing source ends the stream with one error result, as
strawberry's does. Anything else - no document cache, an unprepared document, variables
that do not coerce, a subscription resolver that does not return a stream - goes to
strawberry's `stream` untouched (a subscription resolver is a generator function here:
calling it again starts nothing).
"""
from __future__ import annotations

from contextlib import aclosing, nullcontext
from typing import Any

import strawberry
from graphql import GraphQLError, OperationType, create_source_event_stream
from strawberry.execution import optimized_is_awaitable
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType as StrawberryOperationType  # not graphql-core's

from schema.prepared import DocumentCache


def as_graphql_error(error: Exception) -> GraphQLError:
    return error if isinstance(error, GraphQLError) else GraphQLError(str(error), original_error=error)


class ConclaveSchema(strawberry.Schema):
    documents: DocumentCache | None = None  # set by the app once its limits are known

    async def stream(self, query: str | None, variable_values: dict[str, Any] | None = None,
                     context_value: Any | None = None, root_value: Any | None = None,
                     operation_name: str | None = None, operation_extensions: dict[str, Any] | None = None,
                     allowed_operation_types=None):
        if (self.documents is not None and isinstance(query, str) and operation_extensions is None
                and (allowed_operation_types is None
                     or StrawberryOperationType.SUBSCRIPTION in allowed_operation_types)):
            prepared = self.documents.prepare(query)
            if (prepared is not None and prepared.kind is OperationType.SUBSCRIPTION
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

    async def _events(self, executor, source):
        try:
            async with aclosing(source) if hasattr(source, "aclose") else nullcontext():
                async for payload in source:
                    result = executor.build_per_event_executor(payload).execute_operation(False)
                    if executor.is_awaitable(result):
                        result = await result
                    if result.errors:
                        self._process_errors(result.errors)
                    yield ExecutionResult(data=result.data, errors=result.errors)
        except Exception as exc:  # noqa: BLE001 - as strawberry: the stream ends with the error
            errors = [as_graphql_error(exc)]
            self._process_errors(errors)
            yield ExecutionResult(data=None, errors=errors)
