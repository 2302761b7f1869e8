"""Validation that cannot run away: the cost limit first, then graphql-core's rules, with
verdicts cached by token stream.

Strawberry's `ValidationCache` is keyed by the document, which its `ParserCache` keys by the
query's text: a different comment each time missed both, and every request paid a parse and
a whole validation (1.5 s for 990 repeated fields). Here a document's verdict is keyed by
its tokens (`schema.cost.normalized`, about 1.5 ms for 13 KB; first a quicker key for texts
that differ only in comments and white space, 0.1-0.2 ms), and a document over the cost
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

from schema.cost import CODE, CostLimits, normalized, quick_normalized

PENALTY = "conclave.penalty"  # the ASGI scope key api.limits reads

VALID = object()


class Verdicts:
    def __init__(self, limits: CostLimits, maxsize: int = 512) -> None:
        self.limits, self.maxsize = limits, maxsize
        self.entries: OrderedDict[tuple, object] = OrderedDict()

    @staticmethod
    def _quick_keys(query: str, rules: tuple) -> list[tuple]:
        """The quick key of a query, if it has one (texts differing in comments and white space only)."""
        quick = quick_normalized(query)
        return [] if quick is None else [(rules, "quick", quick)]

    @classmethod
    def keys(cls, query: str, rules: tuple) -> list[tuple]:
        """The verdict keys of a query: the quick one if it has one, then its token stream's."""
        return cls._quick_keys(query, rules) + [(rules, "tokens", normalized(query))]

    def refusal(self, query: str, rules: tuple) -> tuple[GraphQLError | None, list[tuple]]:
        """The cost refusal already given to this document (no parse needed), if any, and
        its keys (the token stream's computed only when the quick key misses)."""
        quick = self._quick_keys(query, rules)
        if quick and isinstance(self.entries.get(quick[0]), GraphQLError):
            return self.entries[quick[0]], []
        keys = quick + [(rules, "tokens", normalized(query))]
        verdict = self.entries.get(keys[-1])
        if isinstance(verdict, GraphQLError):
            self._keep(keys[:-1], verdict)
            return verdict, keys
        return None, keys

    def errors(self, schema, document: DocumentNode, rules: tuple, keys: list[tuple]) -> list[GraphQLError]:
        """The document's errors (none: it may run): over the cost limit, or graphql-core's."""
        entries = self.entries
        for key in keys:
            verdict = entries.get(key)
            if verdict is not None:
                entries.move_to_end(key)
                self._keep(keys, verdict)
                return [] if verdict is VALID else [verdict]
        refused = self.limits.error(document)
        if refused is not None:
            self._keep(keys, refused)
            return [refused]
        from strawberry.schema.schema import validate_document  # lazily: strawberry.schema imports extensions

        found = validate_document(schema, document, rules)
        if not found:
            self._keep(keys, VALID)
        return list(found)

    def _keep(self, keys: list[tuple], verdict: object) -> None:
        for key in keys:
            self.entries[key] = verdict
        while len(self.entries) > self.maxsize:
            self.entries.popitem(last=False)


class BoundedValidation(SchemaExtension):
    """Strawberry's validation step through `Verdicts` (pass it as a factory)."""

    def __init__(self, verdicts: Verdicts, penalty: int = 0) -> None:
        super().__init__()
        self.verdicts, self.penalty = verdicts, penalty

    def on_validate(self) -> Iterator[None]:
        ctx = self.execution_context
        rules = tuple(ctx.validation_rules)
        keys = self.verdicts.keys(ctx.query, rules) if isinstance(ctx.query, str) else []
        errors = ctx.pre_execution_errors = self.verdicts.errors(ctx.schema._schema, ctx.graphql_document, rules, keys)
        if errors and errors[0].extensions.get("code") == CODE and self.penalty:
            penalize(ctx.context, self.penalty)
        yield


def penalize(context, requests: int) -> None:
    """Count a refused request as `requests` against its address's HTTP rate limit
    (`api.limits.PENALTY`; nothing over WebSocket, whose scope the HTTP limits never see)."""
    request = context.get("request") if isinstance(context, dict) else None
    scope = getattr(request, "scope", None)
    if isinstance(scope, dict) and scope.get("type") == "http":
        scope[PENALTY] = requests
