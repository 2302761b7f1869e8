"""A module that is not enabled leaves no trace."""
from __future__ import annotations

import hashlib

import msgspec
import pytest

from core import Registry, create_table
from core.bot import RandomBot, play_game
from core.state import encode_state

# Final states of seeded bot games with no module, pinned when the modules arrived:
# any change here means a module (or a change made for one) altered the base game.
# (Re-pinned when packs got names: only `options["pack"]` changed, "" -> "demo".)
# Re-pinned when the state format gained prompt groups and typed-decision prompt fields
# (the games themselves unchanged: tests/core/test_bot_fingerprints.py).
# The state-format version is left out of the hash: it says how a state is stored, not
# what happened in the game.
PINNED = {
    (2, 1): "6e3c6e7d02f17684d7c9c68a77ad17d0b4c6e5690e8329c5b3ea36e04aaea1e7",
    (4, 1): "44d617aefeed4c0dab1bc4682a0a0f83c409f8f4b869ef46cea99c0d833bccd1",
    (1, 2): "28454d888c0b98349084137c32b16eb41c4da5ca38cccb35df62aeb7ced699d9",
}


@pytest.mark.parametrize("players,seed", sorted(PINNED))
def test_the_same_seed_without_modules_gives_the_pinned_game(players, seed):
    played = play_game("new-capital", players, seed)
    final = msgspec.to_builtins(played.table.state)
    assert final.pop("format") == played.table.rules.game.state_format
    assert hashlib.sha256(msgspec.json.encode(final)).hexdigest() == PINNED[(players, seed)]


def test_installed_but_disabled_modules_change_nothing():
    """The same game with a registry holding only the base game, and one holding every module."""
    bare = Registry(["plugins.new_capital.plugin"], load_entry_points=False)
    full = Registry(["plugins.new_capital.plugin", "plugins.guildmasters.plugin",
                     "plugins.faction_heroes.plugin", "plugins.dilemmas.plugin"], load_entry_points=False)
    finals = []
    for registry in (bare, full):
        table = create_table("new-capital", 3, seed=21, registry=registry)
        bot = RandomBot(21)
        while not table.state.finished:
            table.act(*bot.choose(table))
        finals.append(encode_state(table.state))
        assert table.state.module_state == {}
    assert finals[0] == finals[1]


@pytest.mark.parametrize("module", ["guildmasters", "faction-heroes", "dilemmas"])
def test_an_enabled_module_does_leave_its_mark(module):
    base = play_game("new-capital", 2, 1)
    moded = play_game("new-capital", 2, 1, modules=[module])
    assert module in moded.table.state.module_state
    assert encode_state(moded.table.state) != encode_state(base.table.state)


@pytest.mark.parametrize("modules", [[], ["dilemmas"], ["guildmasters", "faction-heroes", "dilemmas"]])
def test_a_tables_manager_holds_only_its_game_and_enabled_modules(modules):
    """Why the New Capital hooks never ask `state.game`: a table's plugin manager holds its
    game and its enabled modules, nothing else; another game's tables never call them."""
    from core.plugins import default_registry
    from plugins.new_capital import plugin as nc

    registry = default_registry()
    rules = registry.rules_for("new-capital", modules)
    names = {name for name, _ in rules.pm.list_name_plugin()}
    assert names == {"game:new-capital", *(f"module:{m}" for m in modules)}
    other = registry.rules_for("queens-dilemma", [])
    assert nc not in other.pm.get_plugins()
    assert not any(name.startswith("module:") for name, _ in other.pm.list_name_plugin())
