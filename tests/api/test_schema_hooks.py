"""The GraphQL hooks are the schema's (schema/hookspecs.py): building the schema gives them
to the registry, whose managers then check the plugins' implementations against them."""
from __future__ import annotations

import pytest

from core import ModuleSpec, Registry, hookimpl
from core.errors import PluginError
from schema import hookspecs as schema_hookspecs
from schema.build import build_schema
from tests.core import sealed_bids


def test_building_the_schema_declares_its_hooks_on_the_registry_and_every_table_manager():
    registry = Registry(["plugins.new_capital.plugin", "plugins.guildmasters.plugin"], load_entry_points=False)
    early = registry.rules_for("new-capital", ["guildmasters"])
    assert not registry.hook.conclave_graphql_types.has_spec()  # the kernel alone does not know them
    schema = build_schema(registry)
    assert "NewCapitalState" in str(schema)
    for hook in (registry.hook, early.pm.hook, registry.rules_for("new-capital", []).pm.hook):
        assert hook.conclave_graphql_types.spec.namespace is schema_hookspecs
        assert hook.conclave_graphql_module_types.spec.namespace is schema_hookspecs
    assert str(build_schema(registry)) == str(schema)  # a second schema on the same registry: the same


def test_a_graphql_hook_that_does_not_fit_its_spec_is_refused_when_the_schema_is_built():
    class Provider:
        @staticmethod
        @hookimpl
        def conclave_register_modules():
            return [ModuleSpec(id="odd-view", game="sealed-bids", name="odd view", plugin=OddView)]

    class OddView:
        @staticmethod
        @hookimpl
        def conclave_graphql_module_types(registry):  # the spec takes no argument
            return []

    registry = Registry([sealed_bids, Provider], load_entry_points=False)
    with pytest.raises(PluginError, match="conclave_graphql_module_types"):
        build_schema(registry)


def test_the_api_service_implements_what_the_schema_asks_of_it():
    """schema/service.py declares the service the resolvers call; api.service.TableService
    is it: every method there, with the same parameters, and the same value types."""
    import inspect

    from api import service as api_service
    from schema import service as contract

    methods = [name for name, member in vars(contract.TableService).items()
               if inspect.isfunction(member) and not name.startswith("_")]
    assert {"load", "act", "join", "updates", "log", "viewer_seat"} <= set(methods)
    for name in methods:
        wanted = inspect.signature(getattr(contract.TableService, name)).parameters
        actual = inspect.signature(getattr(api_service.TableService, name)).parameters
        assert list(actual) == list(wanted), name
        assert inspect.iscoroutinefunction(getattr(api_service.TableService, name)) == \
            inspect.iscoroutinefunction(getattr(contract.TableService, name)), name
    assert api_service.Rejected is contract.Rejected and api_service.Loaded is contract.Loaded
