"""Validation that cannot run away: the cost limit first, then graphql-core's rules, with
verdicts cached by token stream.

Strawberry's `ValidationCache` is keyed by the document, which its `ParserCache` keys by the
query's text: a different comment each time missed both, and every request paid a parse and
a whole validation (1.5 s for 990 repeated fields). Here a document's verdict is keyed by
its tokens (`schema.cost.normalized`, about 1 ms for 13 KB), and a document over the cost
limit is refused before graphql-core's validation sees it, so what reaches validation is
bounded too. Only "valid" and "refused" are kept: an invalid document's errors point at
lines and columns of its own text, so it is validated again (it is within the limit).

`BoundedValidation` is the strawberry extension (in place of `ValidationCache`);
`schema.prepared.DocumentCache` asks the same `Verdicts` for the lean paths.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

from graphql import DocumentNode, GraphQLError
from strawberry.extensions.base_extension import SchemaExtension

from schema.cost import CostLimits, normalized

VALID = object()


class Verdicts:
    def __init__(self, limits: CostLimits, maxsize: int = 512) -> None:
        self.limits, self.maxsize = limits, maxsize
        self.entries: OrderedDict[tuple, object] = OrderedDict()

    @staticmethod
    def key(query: str, rules: tuple) -> tuple:
        return rules, normalized(query)

    def refusal(self, key: tuple) -> GraphQLError | None:
        """The cost refusal already given to this token stream, if any: no parse needed."""
        verdict = self.entries.get(key)
        return verdict if isinstance(verdict, GraphQLError) else None

    def errors(self, schema, document: DocumentNode, rules: tuple, key: tuple | None) -> list[GraphQLError]:
        """The document's errors (none: it may run): over the cost limit, or graphql-core's."""
        entries = self.entries
        if key is not None:
            verdict = entries.get(key)
            if verdict is not None:
                entries.move_to_end(key)
                return [] if verdict is VALID else [verdict]
        refused = self.limits.error(document)
        if refused is not None:
            self._keep(key, refused)
            return [refused]
        from strawberry.schema.schema import validate_document  # lazily: strawberry.schema imports extensions

        found = validate_document(schema, document, rules)
        if not found:
            self._keep(key, VALID)
        return list(found)

    def _keep(self, key: tuple | None, verdict: object) -> None:
        if key is None:
            return
        self.entries[key] = verdict
        if len(self.entries) > self.maxsize:
            self.entries.popitem(last=False)


class BoundedValidation(SchemaExtension):
    """Strawberry's validation step through `Verdicts` (pass it as a factory)."""

    def __init__(self, verdicts: Verdicts) -> None:
        super().__init__()
        self.verdicts = verdicts

    def on_validate(self) -> Iterator[None]:
        ctx = self.execution_context
        rules = tuple(ctx.validation_rules)
        key = self.verdicts.key(ctx.query, rules) if isinstance(ctx.query, str) else None
        ctx.pre_execution_errors = self.verdicts.errors(ctx.schema._schema, ctx.graphql_document, rules, key)
        yield
