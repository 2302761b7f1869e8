"""What a GraphQL document may cost, counted on its parsed AST before graphql-core validates it.

graphql-core's validation is not linear: `OverlappingFieldsCanBeMergedRule` compares every
pair of selections sharing a response key, so 990 repeated `games { id }` took 0.8-2 s of
event-loop time. Here one bounded walk over the operations, fragments expanded, adds up:

- a weight per field: 1, more for fields that read or build much (`WEIGHTS`: a viewer's
  whole view, the log, a page of tables);
- list multipliers: the selection under a list field costs as many times as the list may
  hold (the root fields `tables` and `tablesPage`: the `first` asked for, at most the page
  maximum, 50 when not given; a variable counts as the maximum; `log`: `LOG_LENGTH`);
- repeated identical fields: one selection set (after fragment expansion) naming the same
  response key more than `max_repeats` times is refused, whatever its cost.

A subscription's cost is that of one event (every event completes the whole selection).
The walk stops as soon as the cost passes the limit and visits at most `WORK_FACTOR`
times the limit in nodes (fragments that spread fragments without fields cost nothing but
are still work), so an unbounded document gets a bounded walk. Cycles and unknown fragments
are left to validation, which refuses them.

Weights go by field name, not by type: a plugin's type with a field called `state` costs
as much as a table's, which errs on the side of refusing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from graphql import (
    DocumentNode, FieldNode, FragmentDefinitionNode, FragmentSpreadNode, GraphQLError, InlineFragmentNode,
    IntValueNode, OperationDefinitionNode, SelectionSetNode,
)

CODE = "QUERY_TOO_COMPLEX"
MAX_PAGE = 100   # tables(first:) and tablesPage(first:) at most
DEFAULT_PAGE = 50
LOG_LENGTH = 10  # what a `log` entry's selection counts times: the log has no page (yet)
WORK_FACTOR = 10
# What a field costs beyond 1, by name: its resolver builds a viewer's view, reads the log
# or the store, or creates a table.
WEIGHTS = {
    "stateJson": 20, "glossary": 20, "state": 20, "moduleStates": 10, "log": 100,
    "legalActions": 5, "prompts": 5, "tables": 10, "tablesPage": 10, "table": 2, "campaign": 5,
    "createTable": 50, "startNextGame": 50, "createCampaign": 50, "joinTable": 5, "act": 5,
}
PAGED = frozenset(("tables", "tablesPage"))


class TooComplex(Exception):
    def __init__(self, message: str, **extensions) -> None:
        super().__init__(message)
        self.message, self.extensions = message, extensions


@dataclass(frozen=True)
class CostLimits:
    max_cost: int = 2000
    max_repeats: int = 10

    def error(self, document: DocumentNode) -> GraphQLError | None:
        """The refusal of a document over the limits, else None (and the document goes on
        to validation)."""
        try:
            self.cost(document)
        except TooComplex as exc:
            return GraphQLError(exc.message, extensions={"code": CODE, **exc.extensions})
        return None

    def cost(self, document: DocumentNode) -> int:
        """The document's cost: its most expensive operation's (only one runs). Raises
        `TooComplex` past a limit."""
        fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
        worst = 0
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                try:
                    worst = max(worst, _Walk(self, fragments).selection_cost(definition.selection_set, self.max_cost,
                                                                               root=True))
                except _Over as exc:
                    raise TooComplex(f"query cost is over the limit of {self.max_cost}: at least {exc.cost}",
                                     cost=exc.cost, maxCost=self.max_cost) from None
        return worst


class _Walk:
    __slots__ = ("limits", "fragments", "work", "max_work", "active")

    def __init__(self, limits: CostLimits, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.limits, self.fragments = limits, fragments
        self.work, self.max_work = 0, limits.max_cost * WORK_FACTOR
        self.active: set[str] = set()  # fragments being expanded: a spread of one of them is a cycle

    def fields(self, selection_set: SelectionSetNode, out: list[FieldNode]) -> list[FieldNode]:
        """The selection set's fields, fragments expanded (inline and named, once per spread)."""
        for selection in selection_set.selections:
            self.work += 1
            if self.work > self.max_work:
                raise TooComplex(f"query too complex: over {self.max_work} selections to expand",
                                 maxCost=self.limits.max_cost)
            if isinstance(selection, FieldNode):
                out.append(selection)
            elif isinstance(selection, InlineFragmentNode):
                self.fields(selection.selection_set, out)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in self.active:
                    continue  # unknown or cyclic: validation says so
                self.active.add(name)
                try:
                    self.fields(fragment.selection_set, out)
                finally:
                    self.active.discard(name)
        return out

    def selection_cost(self, selection_set: SelectionSetNode, budget: int, root: bool = False) -> int:
        """The cost of a selection set, which may cost at most `budget`; past it `_Over`
        carries what was counted so far (a lower bound of the real cost)."""
        max_repeats = self.limits.max_repeats
        seen: dict[str, int] = {}
        total = 0
        for field in self.fields(selection_set, []):
            key = field.alias.value if field.alias else field.name.value
            repeats = seen[key] = seen.get(key, 0) + 1
            if repeats > max_repeats:
                raise TooComplex(f"query too complex: `{key}` is selected more than {max_repeats} times "
                                 "in one selection set", field=key, maxRepeats=max_repeats)
            total += 1 + WEIGHTS.get(field.name.value, 0)
            if total > budget:
                raise _Over(total)
            if field.selection_set is not None:
                times = multiplier(field, root)
                try:
                    below = self.selection_cost(field.selection_set, (budget - total) // times)
                except _Over as exc:
                    raise _Over(total + times * exc.cost) from None
                total += times * below
                if total > budget:
                    raise _Over(total)
        return total


class _Over(Exception):
    def __init__(self, cost: int) -> None:
        self.cost = cost


def multiplier(field: FieldNode, root: bool) -> int:
    """How many times a field's selection counts. Pages are root fields (`Query.tables`;
    `TablePage.tables` is the page itself)."""
    name = field.name.value
    if name == "log":
        return LOG_LENGTH
    if not root or name not in PAGED:
        return 1
    for argument in field.arguments or ():
        if argument.name.value == "first":
            value = argument.value
            if isinstance(value, IntValueNode):
                return max(1, min(MAX_PAGE, int(value.value)))
            return MAX_PAGE  # a variable: whatever it will be, at most the maximum
    return DEFAULT_PAGE


# -- one key for documents that differ only in comments, commas and white space ---------------
# The key is the document's tokens joined by one space: a regular expression finds them
# (block strings, strings, `...`, names, numbers, any other character alone) as GraphQL's
# lexer would, and skips what the lexer ignores (white space, commas, comments, a byte-order
# mark). Where the two could disagree the lexer refuses the text (`12abc`, a lone `.`), so a
# key can stand for a document that does not parse: a cache keyed so keeps verdicts only,
# and a document is still parsed from its own text before it runs.
_TOKEN = re.compile(r'("""(?:\\"""|[^"]|"(?!""))*"""|"(?:\\.|[^"\\\n\r])*"|\.\.\.|[_A-Za-z][_0-9A-Za-z]*'
                    r'|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[^\s,\ufeff#])|#[^\n\r]*')


def normalized(query: str) -> str:
    """The query's token stream as text (about 1.5 ms for 13 KB of 4,000 tokens, where
    parsing it takes 27)."""
    return " ".join(filter(None, _TOKEN.findall(query)))


_COMMENT = re.compile(r"#[^\n\r]*")


def quick_normalized(query: str) -> str | None:
    """A cheaper key for the common variations, comments and white space (0.1-0.2 ms for
    13 KB): the text with comments and white-space runs made one space. Only for a text
    without strings (a `#` in one is not a comment): None otherwise. Two texts with one
    quick key differ only in comments and white space, so they are one document whenever
    both parse (Python's white space is wider than GraphQL's, as above)."""
    if '"' in query:
        return None
    if "#" in query:
        query = _COMMENT.sub(" ", query)
    return " ".join(query.split())
