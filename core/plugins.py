"""Plugin discovery and per-table plugin managers.

The `Registry` knows every installed game and module: the built-in plugins it is given
plus third-party ones from the `conclave` entry-point group. A table never talks to the
registry's manager; it gets a `Rules` object holding a pluggy manager with its game plugin
and exactly the modules it enabled, cached per configuration.
"""
from __future__ import annotations

import dataclasses
import importlib
import os
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pluggy

from core import hookspecs
from core.content import PACK_OPTION, ContentPacks, PackSetting, parse_pack_settings
from core.errors import (
    BadOption,
    BadPlayerCount,
    IncompatibleModules,
    PluginError,
    UnknownGame,
    UnknownModule,
)

ENTRY_POINT_GROUP = "conclave"


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its default, allowed values and JSON shape.

    `kind` is the type a value must have (anything msgspec converts to, e.g. `str` or
    `list[str] | None`), checked strictly before any plugin sees the value; without it, a
    non-null default's own type. An option whose default is null and has no kind takes any
    JSON value and its plugin must check it."""

    default: Any
    choices: tuple = ()
    description: str = ""
    kind: Any = None
    # How a client offers the option (never as raw JSON): `labels` names each of `choices`
    # for people; `shape` "per-seat" is a list with one of `items` per seat (`item_labels`
    # name them), "seats" a set of seat indexes; "" is one of `choices` (or free text).
    labels: tuple = ()
    shape: str = ""
    items: tuple = ()
    item_labels: tuple = ()

    def value_type(self) -> Any:
        if self.kind is not None:
            return self.kind
        return None if self.default is None else type(self.default)


@dataclass(frozen=True)
class GameSpec:
    """A game's fixed facts, declared once as module data by the game plugin."""

    id: str
    name: str
    min_players: int
    max_players: int
    plugin: Any
    description: str = ""
    options: dict[str, OptionSpec] = field(default_factory=dict)
    hookspecs: Any = None  # module/class of game-specific hookspecs for its modules
    state_type: Any = None  # the TableState subclass, to decode stored snapshots
    campaign_only: bool = False  # every table is a campaign game: a table without one starts a campaign
    # The format of the states this release writes, and how to read older ones: `migrations[n]`
    # turns a plain-data state of format n into format n + 1 (`core.state.migrate_snapshot`).
    # Raise `state_format` with every change to the state's shape or its pending steps.
    state_format: int = 0
    migrations: dict[int, Any] = field(default_factory=dict)
    # The game's phases as data (`core.phases.Phases`, one per sequence: a round, a game's end),
    # scheduled by the kernel's `start_phase` step.
    phases: tuple[Any, ...] = ()
    # The game's own table view for the reference client: a folder holding `view.js` (an ES
    # module, see api/static/play/views.js for its contract) and what it imports. None: the
    # client's generic view.
    client_view: Path | None = None
    # The game's rules say how a table carries on without an absent player (its hook
    # `conclave_skip_seat`): a table may then choose to skip an away seat instead of having a
    # bot play it (the kernel setting `absent_seats`, `core.table_settings`).
    skips_absent_seats: bool = False

    def load_snapshot(self, data: bytes):
        """A stored snapshot of this game as a current state, and whether it was migrated."""
        from core.state import migrate_snapshot

        return migrate_snapshot(data, self.state_type, self.state_format, self.migrations)


@dataclass(frozen=True)
class ModuleSpec:
    """An optional module: which game it extends and what it cannot be combined with."""

    id: str
    game: str
    name: str
    plugin: Any
    description: str = ""
    min_players: int = 1
    max_players: int = 99
    incompatible_with: tuple[str, ...] = ()
    discouraged_with: tuple[str, ...] = ()
    client_view: Path | None = None  # parts this module adds to its game's table view (as GameSpec's)

    def enabled(self, state) -> bool:
        """Whether this table switched the module on (hooks run for every table)."""
        return self.id in state.modules

    def data(self, state) -> dict:
        """The module's part of the table state."""
        return state.module_state[self.id]


@dataclass
class Rules:
    """What a table runs with: one manager for its game + modules, and their step handlers."""

    game: GameSpec
    modules: tuple[ModuleSpec, ...]
    pm: pluggy.PluginManager
    warnings: tuple[str, ...] = ()

    @property
    def hook(self):
        return self.pm.hook

    @cached_property
    def handlers(self) -> dict[str, Any]:
        from core.groups import steps as group_steps  # the prompt groups' own steps
        from core.phases import steps as phase_steps  # scheduling, entering, leaving a declared phase

        return _merged("step handler", [group_steps, phase_steps, *self.pm.hook.conclave_step_handlers()])

    @cached_property
    def phases(self) -> dict[str, Any]:
        """The game's declared phases by name, each as the steps `core.phases.start_phase` pushes."""
        from core.phases import schedules

        return schedules(self.game.phases)

    @cached_property
    def decisions(self) -> dict[str, Any]:
        """The typed decisions of the game and its modules (`core.decisions`)."""
        return _merged("decision", self.pm.hook.conclave_decisions())


def _merged(what: str, tables) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for table in tables:
        for name, item in table.items():
            if name in merged and merged[name] is not item:
                raise PluginError(f"{what} {name!r} is registered twice")
            merged[name] = item
    return merged


def check_pending(pm: pluggy.PluginManager, what: str) -> None:
    """pluggy's `check_pending`, as a typed error: an implementation of a hook that no
    hookspec of `pm` declares is a misspelling (or a hook of a game the plugin does not
    extend) and would silently never run, so it is refused, naming the plugin and the hook.

    A hook of the layers above (`hookspecs.UPPER_LAYER_HOOKS`) whose layer has not given its
    specs yet is taken as `optionalhook` (the marker's own meaning: a hook of a part that may
    not be loaded); once the layer adds them (`Registry.add_hookspecs`) pluggy checks its
    implementations like any other."""
    for name in hookspecs.UPPER_LAYER_HOOKS:
        caller = getattr(pm.hook, name, None)
        if caller is not None and not caller.has_spec():
            for impl in caller.get_hookimpls():  # this manager's own records of the implementations
                impl.optionalhook = True
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        unknown = sorted(caller.name for caller in pm.get_hookcallers(exc.plugin) or () if not caller.has_spec())
        raise PluginError(f"plugin {pm.get_name(exc.plugin)!r} implements {', '.join(map(repr, unknown))}, which "
                          f"no hookspec of {what} declares (misspelt?)") from None


class Registry:
    """Every game and module installed, and a cache of per-configuration `Rules`.

    Its own manager and each table's know the kernel's hookspecs, every registered game's
    own (`GameSpec.hookspecs`) and those a layer above adds (`add_hookspecs`); an
    implementation of any other hook is refused (`check_pending`)."""

    def __init__(self, builtin: list[ModuleType | str] = (), load_entry_points: bool = True,
                 content_packs: tuple[PackSetting, ...] = ()) -> None:
        self._discovery = pluggy.PluginManager(hookspecs.PROJECT)
        self._discovery.add_hookspecs(hookspecs)
        self._layer_hookspecs: list[Any] = []  # added by the layers above (add_hookspecs)
        if os.environ.get("CONCLAVE_TRACE_HOOKS"):
            self._discovery.trace.root.setwriter(print)
            self._discovery.enable_tracing()
        for plugin in builtin:
            self._add(importlib.import_module(plugin) if isinstance(plugin, str) else plugin)
        if load_entry_points:
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                self._add(ep.load(), name=f"ep:{ep.name}")
        self.games: dict[str, GameSpec] = {}
        self.modules: dict[str, ModuleSpec] = {}
        for specs in self._discovery.hook.conclave_register_games():
            for spec in specs:
                if spec.id in self.games:
                    raise PluginError(f"game {spec.id!r} is registered twice")
                self.games[spec.id] = spec
        for specs in self._discovery.hook.conclave_register_modules():
            for spec in specs:
                if spec.id in self.modules:
                    raise PluginError(f"module {spec.id!r} is registered twice")
                self.modules[spec.id] = spec
        for spec_module in dict.fromkeys(g.hookspecs for g in self.games.values() if g.hookspecs is not None):
            _add_hookspecs(self._discovery, spec_module)  # modules implement their game's hooks
        check_pending(self._discovery, "the registry")
        self.packs = self._register_packs(content_packs)
        self._cache: dict[tuple[str, tuple[str, ...]], Rules] = {}
        for spec in self.modules.values():  # a module's own hooks are checked at start-up, not at its first table
            if spec.game in self.games:
                self.rules_for(spec.game, [spec.id])

    @property
    def hook(self):
        """The registry's own hooks: registration, and what plugins contribute to the layers
        above (e.g. `conclave_graphql_types`). Called with keyword arguments only."""
        return self._discovery.hook

    def add_hookspecs(self, module: Any) -> None:
        """Declare the hooks a layer above the kernel calls on the plugins (the schema: their
        GraphQL types, schema/hookspecs.py): added to this registry's manager and to every
        table's, now and later, so the plugins' implementations are checked against them.
        Adding a module again changes nothing."""
        if module in self._layer_hookspecs:
            return
        managers = [self._discovery, *(rules.pm for rules in self._cache.values())]
        for pm in managers:
            _add_hookspecs(pm, module)
        self._layer_hookspecs.append(module)
        check_pending(self._discovery, "the registry")

    def _register_packs(self, settings: tuple[PackSetting, ...]) -> ContentPacks:
        """The plugins' packs, then the operator's (a setting without a game is for every game
        that takes packs); each game's `pack` option then lists them as its choices."""
        packs = ContentPacks()
        for shipped in self._discovery.hook.conclave_content_packs():
            for game_id, named in (shipped or {}).items():
                for name, folder in named.items():
                    packs.add(game_id, name, folder)
        takes_packs = [g for g in self.games.values() if PACK_OPTION in g.options]
        for setting in settings:
            for game in takes_packs if setting.game is None else [self.game(setting.game)]:
                packs.add(game.id, setting.name, setting.folder)
        for game in takes_packs:
            option = dataclasses.replace(game.options[PACK_OPTION], choices=packs.names(game.id))
            self.games[game.id] = dataclasses.replace(game, options={**game.options, PACK_OPTION: option})
        return packs

    def _add(self, plugin: Any, name: str | None = None) -> None:
        if self._discovery.is_registered(plugin):
            return
        _register(self._discovery, plugin, name)

    def game(self, game_id: str) -> GameSpec:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(f"unknown game {game_id!r} (installed: {known})") from None

    def check_table(self, game_id: str, modules: list[str], players: int, options: dict) -> tuple[str, ...]:
        """Refuse an impossible configuration with a clear error; return advisory warnings."""
        game = self.game(game_id)
        if not (isinstance(modules, list) and all(isinstance(m, str) for m in modules)):
            raise IncompatibleModules("modules must be a list of module ids")
        if not (isinstance(options, dict) and all(isinstance(k, str) for k in options)):
            raise BadOption("options must be an object of name: value")
        if type(players) is not int:
            raise BadPlayerCount(f"the player count must be a whole number, not {type(players).__name__}")
        if not game.min_players <= players <= game.max_players:
            raise BadPlayerCount(
                f"{game.name} takes {game.min_players}-{game.max_players} players, not {players}"
            )
        from core.table_settings import kernel_options

        kernel = kernel_options(game)
        for key, value in options.items():
            spec = game.options.get(key) or kernel.get(key)
            if spec is None:
                raise BadOption(f"{game.id} has no option {key!r} (options: {', '.join(game.options) or 'none'}; "
                                f"every table: {', '.join(kernel)})")
            if key == PACK_OPTION:
                self.packs.folder(game_id, value)  # the same refusal for every unknown value
                continue
            kind = spec.value_type()
            if kind is not None:
                try:
                    msgspec.convert(value, kind, strict=True)
                except msgspec.ValidationError as exc:
                    raise BadOption(f"option {key!r}: {exc}") from None
            if spec.choices and value not in spec.choices:
                raise BadOption(f"option {key!r} must be one of {list(spec.choices)}, not {value!r}")
        if len(set(modules)) != len(modules):
            raise IncompatibleModules(f"a module is listed twice: {modules}")
        warnings: list[str] = []
        for mid in modules:
            spec = self.modules.get(mid)
            if spec is None:
                raise UnknownModule(f"unknown module {mid!r}")
            if spec.game != game_id:
                raise IncompatibleModules(f"module {mid!r} extends {spec.game!r}, not {game_id!r}")
            if not spec.min_players <= players <= spec.max_players:
                raise BadPlayerCount(
                    f"module {mid!r} takes {spec.min_players}-{spec.max_players} players, not {players}"
                )
            for other in modules:
                if other in spec.incompatible_with:
                    raise IncompatibleModules(f"module {mid!r} cannot be combined with {other!r}")
                if other in spec.discouraged_with:
                    warnings.append(f"module {mid!r} is not recommended together with {other!r}")
        for advice in self._discovery.hook.conclave_table_warnings(game=game_id, players=players, options=options,
                                                                   modules=list(modules)):
            warnings.extend(advice or [])
        return tuple(warnings)

    def rules_for(self, game_id: str, modules: list[str]) -> Rules:
        """The cached manager for this exact game + module set (module order does not matter)."""
        key = (game_id, tuple(sorted(modules)))
        rules = self._cache.get(key)
        if rules is None:
            game = self.game(game_id)
            pm = pluggy.PluginManager(hookspecs.PROJECT)
            for spec_module in (hookspecs, game.hookspecs, *self._layer_hookspecs):
                if spec_module is not None:  # every spec before the check below
                    pm.add_hookspecs(spec_module)
            _register(pm, game.plugin, f"game:{game.id}")
            specs = []
            for mid in key[1]:
                spec = self.modules.get(mid)
                if spec is None:
                    raise UnknownModule(f"unknown module {mid!r}")
                _register(pm, spec.plugin, f"module:{mid}")
                specs.append(spec)
            check_pending(pm, f"{game.id} with {', '.join(key[1]) or 'no modules'}")
            rules = Rules(game=game, modules=tuple(specs), pm=pm)
            self._cache[key] = rules
        return rules


def _register(pm: pluggy.PluginManager, plugin: Any, name: str | None) -> None:
    """`register`, where an implementation that does not fit its spec (an argument the spec
    does not have) is a `PluginError`; pluggy's message names plugin, hook and arguments."""
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from None


def _add_hookspecs(pm: pluggy.PluginManager, module: Any) -> None:
    """`add_hookspecs`, checking the implementations registered before as `_register` does."""
    try:
        pm.add_hookspecs(module)
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from None


BUILTIN_PLUGINS = (
    "plugins.new_capital.plugin",
    "plugins.guildmasters.plugin",
    "plugins.faction_heroes.plugin",
    "plugins.dilemmas.plugin",
    "plugins.queens_dilemma.plugin",
    "plugins.age_of_disorder.plugin",
    "plugins.arcs.plugin",
    "plugins.leaders_and_lore.plugin",
    "plugins.blighted_reach.plugin",
    "plugins.flagships.plugin",
)


def default_registry(content_packs: tuple[PackSetting, ...] | None = None) -> Registry:
    """The registry the app and CLI use: built-ins, installed third-party plugins (entry
    points), and plugin modules named in CONCLAVE_PLUGINS (comma-separated dotted paths),
    with the operator's content packs (`content_packs`, else CONCLAVE_CONTENT_PACKS)."""
    if content_packs is None:
        content_packs = parse_pack_settings(os.environ.get("CONCLAVE_CONTENT_PACKS", ""))
    registry = _DEFAULT.get(content_packs)
    if registry is None:
        extra = [m.strip() for m in os.environ.get("CONCLAVE_PLUGINS", "").split(",") if m.strip()]
        registry = _DEFAULT[content_packs] = Registry([*BUILTIN_PLUGINS, *extra], content_packs=content_packs)
    return registry


_DEFAULT: dict[tuple[PackSetting, ...], Registry] = {}  # one per operator pack configuration
