"""Compiled value completion: the same answers as graphql-core, without its per-field cost.

graphql-core completes every field through a generic path (resolve info, awaitable checks,
error guards, type dispatch), about 140 us for one seat's `tableUpdates` event where the
same walk written out by hand costs 4 us. Every action is delivered to each subscriber of a
table, so that path decided the server's capacity (benchmarks/api_load.py).

`FastExecutionContext.complete_value` first tries a completer compiled once per
(return type, field nodes): the sub-selection is collected ahead of time with graphql-core's
own `collect_subfields`, strawberry's plain fields become `getattr`, resolvers that take only
`self` are called directly, leaves use the types' own `serialize`. Anything the compiled
path does not handle in the common way - an error, a null where the schema forbids one, an
awaitable, a wrong runtime type - raises `Miss`, and the stock `complete_value` completes
the same value from the start, so errors, paths and null propagation are graphql-core's.

Contract this relies on (true of this schema): resolvers below a root field only read, so
running them a second time after a miss changes nothing. Documents with directives
(`@skip`, `@include`, `@defer`...) or fragment variables are never compiled: their fields
depend on variables, and graphql-core completes them as before.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from graphql import (
    DirectiveNode, GraphQLObjectType, GraphQLSchema, Undefined, is_abstract_type,
    is_leaf_type, is_list_type, is_non_null_type, is_object_type, visit,
)
from graphql.execution.collect_fields import collect_subfields
from graphql.execution.values import get_argument_values
from graphql.type.scalars import GRAPHQL_MAX_INT as MAX_INT, GRAPHQL_MIN_INT as MIN_INT
from graphql.type.scalars import serialize_boolean, serialize_int, serialize_string
from graphql.language import FragmentDefinitionNode, Visitor
from graphql.pyutils import Path

from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.cast import TYPE_CAST_ATTRIBUTE

PLAN_CACHE_SIZE = 512


class Miss(Exception):
    """The compiled path cannot promise graphql-core's answer for this value."""


class Completer:
    """Completes one value of one output type. `needs_path`: some resolver below wants a
    real resolve info (path included); otherwise paths are not built at all."""

    needs_path = False

    def __call__(self, ex, value, info, path):  # pragma: no cover - every kind overrides
        raise NotImplementedError


# Values graphql-core's own serializers return unchanged: a str for String, a bool for
# Boolean, an int within GraphQL's 32-bit range for Int (anything else goes to `serialize`).
PASS_THROUGH = {serialize_string: str, serialize_boolean: bool, serialize_int: int}


class LeafCompleter(Completer):
    nullable = True

    def __init__(self, leaf_type) -> None:
        self.serialize = leaf_type.serialize
        self.exact = PASS_THROUGH.get(leaf_type.serialize)

    def __call__(self, ex, value, info, path):
        exact = self.exact
        if exact is not None and type(value) is exact and (exact is not int or MIN_INT <= value <= MAX_INT):
            return value
        if value is None or value is Undefined:
            if self.nullable:
                return None
            raise Miss
        if isinstance(value, Exception):
            raise Miss
        out = self.serialize(value)
        if out is None or out is Undefined:
            raise Miss
        return out


class NonNullLeafCompleter(LeafCompleter):
    """A non-null leaf in one call (most fields are)."""

    nullable = False


class WrappingCompleter(Completer):
    def __init__(self, inner: Completer) -> None:
        self.inner, self.needs_path = inner, inner.needs_path


class NonNullCompleter(WrappingCompleter):
    def __call__(self, ex, value, info, path):
        out = self.inner(ex, value, info, path)
        if out is None:
            raise Miss
        return out


class ListCompleter(WrappingCompleter):
    def __call__(self, ex, value, info, path):
        if value is None or value is Undefined:
            return None
        if type(value) not in (list, tuple):  # other iterables (async, streams): stock path
            raise Miss
        item = self.inner
        if self.needs_path:
            return [item(ex, v, info, Path(path, i, None)) for i, v in enumerate(value)]
        return [item(ex, v, info, None) for v in value]


ATTR, METHOD, TYPENAME, GENERIC = range(4)


class FieldPlan:
    """One response key of an object: how to resolve it and how to complete its value."""

    __slots__ = ("key", "kind", "attr", "func", "field_def", "details", "nodes", "complete", "needs_path")

    def __init__(self, key, kind, attr, func, field_def, details, complete: Completer) -> None:
        self.key, self.kind, self.attr, self.func = key, kind, attr, func
        self.field_def, self.details = field_def, details
        self.nodes = [d.node for d in details]
        self.complete = complete
        if kind in (ATTR, METHOD) and complete.needs_path:
            kind = self.kind = GENERIC  # something below reads this field's resolve info
        self.needs_path = kind == GENERIC


class ObjectCompleter(Completer):
    def __init__(self, object_type: GraphQLObjectType) -> None:
        self.type = object_type
        self.is_type_of = object_type.is_type_of
        self.fields: list[FieldPlan] = []

    def finish(self, fields: list[FieldPlan]) -> None:
        self.fields = fields
        self.needs_path = any(f.needs_path for f in fields)
        # (key, kind, getter, completer, plan): one tuple per field for the hot loop
        self.steps = [(f.key, f.kind, f.attr if f.kind == ATTR else f.func, f.complete, f) for f in fields]

    def __call__(self, ex, value, info, path):
        if value is None or value is Undefined:
            return None
        if isinstance(value, Exception):
            raise Miss
        if self.is_type_of is not None and not self.is_type_of(value, info):
            raise Miss
        return self.fields_of(ex, value, path)

    def fields_of(self, ex, source, path):
        out = {}
        parent = self.type
        for key, kind, getter, complete, f in self.steps:
            if kind == ATTR:
                out[key] = complete(ex, getattr(source, getter), None, None)
            elif kind == METHOD:
                out[key] = complete(ex, getter(source), None, None)
            elif kind == TYPENAME:
                out[key] = parent.name
            else:
                field_path = Path(path, f.key, parent.name)
                field_info = ex.build_resolve_info(f.field_def, f.nodes, parent, field_path)
                first = f.details[0]
                args = (get_argument_values(f.field_def, first.node, ex.variable_values,
                                            first.fragment_variable_values, ex.hide_suggestions)
                        if f.field_def.args or first.node.arguments else {})
                value = (f.field_def.resolve or ex.field_resolver)(source, field_info, **args)
                if ex.is_awaitable(value):
                    close = getattr(value, "close", None)
                    if close is not None:
                        close()  # a coroutine never awaited would warn; the stock path runs it
                    raise Miss
                out[f.key] = f.complete(ex, value, field_info, field_path)
        return out


class AbstractCompleter(Completer):
    needs_path = True  # strawberry's union resolver reads the field's resolve info

    def __init__(self, abstract_type, by_name: dict[str, ObjectCompleter]) -> None:
        self.type, self.by_name = abstract_type, by_name
        # The member a plain instance of a member's own class resolves to, as strawberry's
        # union resolver decides it (exact definition match, tried before anything else),
        # for members that are not generic; casts and other values ask strawberry.
        self.by_class: dict[type, ObjectCompleter] = {}
        for member in getattr(abstract_type, "types", ()):
            definition = (member.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
            origin = getattr(definition, "origin", None)
            if (origin is not None and member.name in by_name and getattr(definition, "concrete_of", None) is None
                    and not getattr(definition, "is_graphql_generic", True)):
                self.by_class[origin] = by_name[member.name]

    def __call__(self, ex, value, info, path):
        if value is None or value is Undefined:
            return None
        if isinstance(value, Exception) or info is None:
            raise Miss
        completer = self.by_class.get(type(value))
        if completer is None or getattr(value, TYPE_CAST_ATTRIBUTE, None) is not None:
            resolve_type = self.type.resolve_type or ex.type_resolver
            runtime = resolve_type(value, info, self.type)
            if isinstance(runtime, GraphQLObjectType):
                runtime = runtime.name
            completer = self.by_name.get(runtime) if isinstance(runtime, str) else None
            if completer is None:  # awaitable, unknown or impossible type: graphql-core says why
                raise Miss
        return completer(ex, value, info, path)


def _strawberry_shortcut(field_def, exception_handlers: bool) -> tuple[int, Any, Any]:
    """How to resolve a strawberry field without its wrapper, when that gives the same value."""
    sfield = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    resolve = field_def.resolve
    if sfield is None or resolve is None or exception_handlers or sfield.extensions:
        return GENERIC, None, None
    if getattr(resolve, "_is_default", False) and sfield.default_resolver is getattr:
        return ATTR, sfield.python_name, None
    resolver = sfield.base_resolver
    if (resolver is not None and not sfield.is_async and resolver.self_parameter is not None
            and not resolver.arguments and resolver.info_parameter is None
            and resolver.root_parameter is None and resolver.parent_parameter is None
            and callable(resolver.wrapped_func)):
        return METHOD, None, resolver.wrapped_func
    return GENERIC, None, None


class Compiler:
    """Builds completers for one executor's document (fragments, operation)."""

    def __init__(self, ex) -> None:
        self.ex = ex
        self.schema: GraphQLSchema = ex.schema
        self.handlers = bool(getattr(ex.schema, "_strawberry_schema", None)
                             and ex.schema._strawberry_schema.exception_handlers)

    def completer(self, return_type, details) -> Completer:
        if is_non_null_type(return_type):
            if is_leaf_type(return_type.of_type):
                return NonNullLeafCompleter(return_type.of_type)
            return NonNullCompleter(self.completer(return_type.of_type, details))
        if is_list_type(return_type):
            return ListCompleter(self.completer(return_type.of_type, details))
        if is_leaf_type(return_type):
            return LeafCompleter(return_type)
        if is_abstract_type(return_type):
            by_name = {t.name: self.object(t, details) for t in self.schema.get_possible_types(return_type)}
            return AbstractCompleter(return_type, by_name)
        if is_object_type(return_type):
            return self.object(return_type, details)
        raise Miss  # pragma: no cover - graphql has no other output types

    def object(self, object_type: GraphQLObjectType, details) -> ObjectCompleter:
        ex = self.ex
        collected = collect_subfields(self.schema, ex.fragments, ex.variable_values, ex.operation,
                                      object_type, details, ex.hide_suggestions)
        if collected.new_defer_usages or collected.forbidden_directive_instances:
            raise Miss
        completer = ObjectCompleter(object_type)
        plans = []
        for key, field_details in collected.grouped_field_set.items():
            name = field_details[0].node.name.value
            field_def = self.schema.get_field(object_type, name)
            if field_def is None:
                raise Miss
            if name == "__typename":
                kind, attr, func = TYPENAME, None, None
            elif name.startswith("__"):
                kind, attr, func = GENERIC, None, None
            else:
                kind, attr, func = _strawberry_shortcut(field_def, self.handlers)
            plans.append(FieldPlan(key, kind, attr, func, field_def, field_details,
                                   self.completer(field_def.type, field_details)))
        completer.finish(plans)
        return completer


def compilable_document(operation, fragments) -> bool:
    """No directives and no fragment variables anywhere: which fields run never depends on
    variables, so one plan serves every execution of the document."""
    found = []

    class FindDirectives(Visitor):
        def enter_directive(self, node: DirectiveNode, *_):
            found.append(node)
            return self.BREAK

    visit(operation, FindDirectives())
    for fragment in fragments.values():
        node = getattr(fragment, "definition", fragment)
        if isinstance(node, FragmentDefinitionNode) and node.variable_definitions:
            return False
        if not found:
            visit(node, FindDirectives())
    return not found


class PlanCache:
    """Completers by (return type, field nodes), bounded. The key holds the nodes' ids and
    the entry keeps the nodes alive, so an id cannot be reused while its entry exists."""

    def __init__(self, size: int = PLAN_CACHE_SIZE) -> None:
        self.size = size
        self.entries: OrderedDict = OrderedDict()
        self.documents: dict[int, tuple[Any, bool]] = {}

    def document_ok(self, ex) -> bool:
        operation = ex.operation
        found = self.documents.get(id(operation))
        if found is None or found[0] is not operation:
            if len(self.documents) >= self.size:
                self.documents.clear()
            found = self.documents[id(operation)] = (operation, compilable_document(operation, ex.fragments))
        return found[1]

    def get(self, ex, return_type, details) -> Completer | None:
        key = (id(return_type), *(id(d.node) for d in details))
        entry = self.entries.get(key)
        if entry is not None:
            return entry[1]
        if not self.document_ok(ex):
            return None
        try:
            completer: Completer | None = Compiler(ex).completer(return_type, details)
        except Miss:
            completer = None
        self.entries[key] = ([d.node for d in details], completer, return_type)
        if len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return completer
