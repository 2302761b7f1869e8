"""The execution context every operation runs with.

Two changes to graphql-core 3.3's executor, both measured with benchmarks/api_load.py:

- Per-event memo. graphql-core runs each subscription event on a shallow copy of one
  executor, and the copies share a memo of collected subfields keyed by the identity of
  per-event field lists (`_relevant_sub_fields`). Every delivered update therefore adds
  entries that live until the subscription ends: memory and GC pauses grow with the number
  of updates. Each event gets its own memo here, which keeps the memo's purpose (lists
  within one result) and drops it with the event.
- Compiled completion (`schema.fast_completion`): values are completed by a plan compiled
  once per selection, falling back to graphql-core's own completion whenever the plan
  cannot promise the same answer.
"""
from __future__ import annotations

import weakref
from typing import Any

from graphql.execution import values as graphql_values
from graphql.execution.executor import CollectedErrors
from graphql.type.definition import GraphQLResolveInfoHelpers
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from schema.fast_completion import PlanCache

PLANS = PlanCache()


class VariableSignatures:
    """graphql-core 3.3 works out each variable's signature (its type looked up in the schema
    from the definition's AST) again for every request: 10 of the 112 us graphql-core spent
    executing an `act` with its three variables (measured in process, the service stubbed).
    A signature is a pure function of the schema and the definition node, and an immutable
    tuple: kept here per (schema, node), the entry holding both so that neither id can be
    reused while it lives. Installed over the name graphql-core's variable coercion calls."""

    def __init__(self, original, size: int = 4096) -> None:
        self.original, self.size = original, size
        self.entries: dict[tuple[int, int], tuple] = {}

    def __call__(self, schema, var_def_node):
        key = (id(schema), id(var_def_node))
        entry = self.entries.get(key)
        if entry is not None:
            return entry[2]
        signature = self.original(schema, var_def_node)
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[key] = (schema, var_def_node, signature)
        return signature

    @classmethod
    def install(cls) -> None:
        if not isinstance(graphql_values.get_variable_signature, cls):
            graphql_values.get_variable_signature = cls(graphql_values.get_variable_signature)


VariableSignatures.install()


class PerEventMemoExecutionContext(StrawberryGraphQLCoreExecutionContext):
    def build_per_event_executor(self, payload: Any):
        executor = super().build_per_event_executor(payload)
        if hasattr(executor, "_relevant_sub_fields"):
            executor._relevant_sub_fields = {}
        return executor


class FastExecutionContext(PerEventMemoExecutionContext):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """graphql-core's resolver helpers are the executor's bound methods, a reference
        cycle: every executed request left its executor and variables (28 objects) for the
        cycle collector. The same helpers through a weak reference leave none."""
        super().__init__(*args, **kwargs)
        ref = weakref.ref(self)
        self.async_helpers = GraphQLResolveInfoHelpers(gather=lambda values: ref().gather_async_work(values),
                                                       track=lambda values: ref().track_async_work(values))

    def build_per_event_executor(self, payload: Any):
        """`copy.copy` of the executor, as graphql-core's, without copy's generic protocol
        (about 4 us per event): the executors keep their state in `__dict__`."""
        executor = object.__new__(type(self))
        executor.__dict__.update(self.__dict__)
        executor.root_value = payload
        executor.collected_errors = CollectedErrors()
        executor._relevant_sub_fields = {}
        return executor

    def complete_value(self, return_type, field_details_list, info, path, result, position_context):
        if (position_context is None and self.abort_signal is None
                and (self.middleware_manager is None or not self.middleware_manager.middlewares)):
            completer = PLANS.get(self, return_type, field_details_list)
            if completer is not None:
                try:
                    return completer(self, result, info, path)
                except Exception:  # noqa: BLE001 - errors and edge cases: graphql-core answers
                    pass
        return super().complete_value(return_type, field_details_list, info, path, result, position_context)
