"""Execution context for long-lived subscriptions.

graphql-core 3.3 runs each subscription event on a shallow copy of one executor, and the
copies share a memo of collected subfields keyed by the identity of per-event field lists
(`_relevant_sub_fields`). Every delivered update therefore adds entries that live until
the subscription ends: memory and GC pauses grow with the number of updates. Each event
gets its own memo here, which keeps the memo's purpose (lists within one result) and
drops it with the event.
"""
from __future__ import annotations

from typing import Any

from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext


class PerEventMemoExecutionContext(StrawberryGraphQLCoreExecutionContext):
    def build_per_event_executor(self, payload: Any):
        executor = super().build_per_event_executor(payload)
        if hasattr(executor, "_relevant_sub_fields"):
            executor._relevant_sub_fields = {}
        return executor
