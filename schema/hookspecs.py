"""The hooks the schema calls on the plugins: the GraphQL types a game or module contributes.

They belong to this layer, not the kernel's (which never calls them): `build_schema` gives
this module to the registry (`Registry.add_hookspecs`), which then checks the plugins'
implementations against it like its own. Same project marker as the kernel's hooks, so
plugins implement them with `core.hookimpl`; called with keyword arguments only.
"""
from __future__ import annotations

from core.hookspecs import hookspec


@hookspec
def conclave_graphql_types() -> list[tuple]:
    """Typed GraphQL views a game contributes: `(game_id, strawberry_type, from_view)` where
    `from_view(view: dict)` builds the type from the viewer's redacted view. The schema puts
    every contributed type into the `GameState` union."""


@hookspec
def conclave_graphql_module_types() -> list[tuple]:
    """Typed GraphQL views of module state: `(module_id, strawberry_type, from_view)` where
    `from_view(module_view: dict)` builds it from `view["module_state"][module_id]`. They
    form the `ModuleState` union of `Table.moduleStates`."""
