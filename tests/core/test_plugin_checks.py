"""Every plugin manager checks its plugins against the hookspecs it knows (pluggy's
`check_pending`): a misspelt hook would otherwise never run and nobody would notice, so it
is refused with a typed `PluginError` naming the plugin and the hook."""
from __future__ import annotations

import pytest

from core import ModuleSpec, Registry, hookimpl
from core.errors import PluginError
from core.hookspecs import hookspec
from tests.core import sealed_bids


def module(plugin, mid: str = "typo-module", game: str = "sealed-bids"):
    """A plugin providing one module of `game` whose hooks are `plugin`'s."""

    class Provider:
        @staticmethod
        @hookimpl
        def conclave_register_modules():
            return [ModuleSpec(id=mid, game=game, name=mid, plugin=plugin)]

    return Provider


class Misspelt:
    @staticmethod
    @hookimpl
    def conclave_setpu(ctx):  # conclave_setup, misspelt
        pass


def test_a_misspelt_hook_is_refused_naming_the_plugin_and_the_hook():
    with pytest.raises(PluginError, match=r"plugin 'Misspelt' implements 'conclave_setpu'.*misspelt") as caught:
        Registry([sealed_bids, Misspelt], load_entry_points=False)
    assert caught.value.code == "PLUGIN"


def test_a_misspelt_hook_of_an_enabled_module_is_refused_by_the_registry():
    with pytest.raises(PluginError, match=r"'conclave_setpu'"):
        Registry([sealed_bids, module(Misspelt)], load_entry_points=False)


def test_a_module_implementing_a_hook_its_game_does_not_declare_is_refused_at_start_up():
    """The registry's manager knows every game's own hookspecs (modules implement them); a
    table's manager only its game's, so a module implementing another game's extension point
    would never be called. Each module's table manager is built and checked with the
    registry, so it fails at start-up, not at the first table that enables it."""

    class WrongGame:
        @staticmethod
        @hookimpl
        def new_capital_after_development_draw(ctx):
            pass

    with pytest.raises(PluginError, match=r"'module:typo-module' implements 'new_capital_after_development_draw'"):
        Registry(["plugins.new_capital.plugin", sealed_bids, module(WrongGame)], load_entry_points=False)
    registry = Registry(["plugins.new_capital.plugin", sealed_bids, module(WrongGame, game="new-capital")],
                        load_entry_points=False)
    assert registry.rules_for("new-capital", ["typo-module"]).pm.hook.new_capital_after_development_draw.has_spec()


def test_game_hookspecs_are_added_before_the_check():
    """A New Capital module implements New Capital's own hooks (GameSpec.hookspecs)."""
    registry = Registry(["plugins.new_capital.plugin", "plugins.guildmasters.plugin", "plugins.dilemmas.plugin"],
                        load_entry_points=False)
    rules = registry.rules_for("new-capital", ["guildmasters", "dilemmas"])
    assert rules.pm.hook.new_capital_after_development_draw.has_spec()


class GraphQLLayer:
    """A stand-in for a layer above the kernel (the schema's hookspecs, schema/hookspecs.py)."""

    @staticmethod
    @hookspec
    def conclave_graphql_types() -> list:
        """Typed views."""

    @staticmethod
    @hookspec
    def conclave_graphql_module_types() -> list:
        """Typed module views."""


def test_upper_layer_hooks_wait_for_their_layer_then_are_checked():
    """Without the layer's specs the kernel leaves its hooks alone (the games implement
    them); once the layer adds its specs, an implementation that does not fit is refused."""

    class BadTypes:
        @staticmethod
        @hookimpl
        def conclave_graphql_types(schema):  # the spec takes no argument
            return []

    registry = Registry([sealed_bids, module(BadTypes)], load_entry_points=False)
    registry.rules_for("sealed-bids", ["typo-module"])  # accepted: no layer has declared the hook yet
    with pytest.raises(PluginError, match="conclave_graphql_types"):
        registry.add_hookspecs(GraphQLLayer)


def test_a_misspelt_upper_layer_hook_is_refused_even_without_its_layer():
    class Tpyo:
        @staticmethod
        @hookimpl
        def conclave_graphql_tpyes():
            return []

    with pytest.raises(PluginError, match="conclave_graphql_tpyes"):
        Registry([sealed_bids, module(Tpyo)], load_entry_points=False)


def test_added_layer_hookspecs_reach_every_table_manager_once():
    registry = Registry(["plugins.new_capital.plugin", "plugins.guildmasters.plugin"], load_entry_points=False)
    before = registry.rules_for("new-capital", [])
    assert not before.pm.hook.conclave_graphql_types.has_spec()
    registry.add_hookspecs(GraphQLLayer)
    registry.add_hookspecs(GraphQLLayer)  # again: nothing changes (pluggy would refuse a second spec)
    after = registry.rules_for("new-capital", ["guildmasters"])
    assert registry.hook.conclave_graphql_types.has_spec()
    assert before.pm.hook.conclave_graphql_types.has_spec() and after.pm.hook.conclave_graphql_module_types.has_spec()
    assert registry.rules_for("new-capital", []) is before


def test_an_implementation_with_an_argument_its_spec_lacks_is_a_plugin_error():
    class Odd:
        @staticmethod
        @hookimpl
        def conclave_phase_enter(ctx, phase, weather):  # no `weather` in the spec
            pass

    with pytest.raises(PluginError, match="conclave_phase_enter"):
        Registry([sealed_bids, Odd], load_entry_points=False)
    with pytest.raises(PluginError, match="conclave_phase_enter"):
        Registry([sealed_bids, module(Odd)], load_entry_points=False)
