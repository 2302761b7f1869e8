"""Documents parsed and validated once, for the paths that skip strawberry's per-request
pipeline (`api.fast_http`, `schema.streaming`).

A document is prepared only when strawberry's own pipeline would execute it: it parses
within the token limit (`MaxTokensLimiter`), holds exactly one operation, is within the cost
limit and passes the validation rules strawberry runs (graphql-core's, strawberry's own, and
the depth and alias limits added by `AddValidationRules`), all through the schema's
`Verdicts` (schema/validation.py). A document over the cost limit is `Refused`: the caller
answers with its error (a token stream refused once is refused again without a parse). For
anything else `prepare` says None and the caller hands the request to strawberry, which
gives its usual error.
"""
from __future__ import annotations

from collections import OrderedDict

from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse, specified_rules
from strawberry.extensions import AddValidationRules, MaxTokensLimiter, ParserCache, ValidationCache

from schema.cost import CODE, CostLimits
from schema.validation import BoundedValidation, Verdicts

CACHE_SIZE = 256
# Extensions that act only before execution (parse, validate): skipping strawberry's
# per-request hooks loses nothing while these are all the schema has.
PRE_EXECUTION_EXTENSIONS = (AddValidationRules, BoundedValidation, MaxTokensLimiter, ParserCache, ValidationCache)


def check_extensions(schema) -> None:
    for factory in schema.extensions:
        kind = factory if isinstance(factory, type) else type(factory())
        if not issubclass(kind, PRE_EXECUTION_EXTENSIONS):
            raise RuntimeError(f"cannot skip strawberry's per-request pipeline with the {kind.__name__} extension")


class Prepared:
    __slots__ = ("document", "name", "kind")

    def __init__(self, document, operation: OperationDefinitionNode) -> None:
        self.document = document
        self.name = operation.name.value if operation.name else None
        self.kind: OperationType = operation.operation


class Refused:
    """A document the cost limit refuses: `error` is the answer."""

    __slots__ = ("error",)

    def __init__(self, error: GraphQLError) -> None:
        self.error = error


class DocumentCache:
    def __init__(self, schema, max_tokens: int, rules: list, verdicts: Verdicts | None = None) -> None:
        check_extensions(schema)
        self.schema = schema
        self.max_tokens = max_tokens
        self.rules = (*specified_rules, *rules)
        self.verdicts = Verdicts(CostLimits()) if verdicts is None else verdicts
        self.entries: OrderedDict[str, Prepared | Refused | None] = OrderedDict()

    def prepare(self, query: str) -> Prepared | Refused | None:
        entries = self.entries
        if query in entries:
            entries.move_to_end(query)
            return entries[query]
        refused, keys = self.verdicts.refusal(query, self.rules)
        found: Prepared | Refused | None = None
        if refused is not None:
            found = Refused(refused)
        else:
            try:
                document = parse(query, max_tokens=self.max_tokens)
            except GraphQLError:
                document = None
            if document is not None:
                operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
                if len(operations) == 1:
                    errors = self.verdicts.errors(self.schema._schema, document, self.rules, keys)
                    if not errors:
                        found = Prepared(document, operations[0])
                    elif errors[0].extensions.get("code") == CODE:
                        found = Refused(errors[0])
        entries[query] = found
        if len(entries) > CACHE_SIZE:
            entries.popitem(last=False)
        return found
