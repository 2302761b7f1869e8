"""A module that is not enabled leaves no trace."""
from __future__ import annotations

import hashlib

import pytest

from core import Registry, create_table
from core.bot import RandomBot, play_game
from core.state import encode_state

# Final states of seeded bot games with no module, pinned when the modules arrived:
# any change here means a module (or a change made for one) altered the base game.
# (Re-pinned when packs got names: only `options["pack"]` changed, "" -> "demo".)
PINNED = {
    (2, 1): "b6cbb46bf0021d006e00ad35f602e2e04d35b382e736d6513af3ac5b80c5df61",
    (4, 1): "ded6005359613d1518c9cf304f5e187afa72838d18fb5946ad47ccf0a9637664",
    (1, 2): "7918a3ce9ab2b0541291b20ca0061be18e762891ba7e69cf47b8d0d116bf182a",
}


@pytest.mark.parametrize("players,seed", sorted(PINNED))
def test_the_same_seed_without_modules_gives_the_pinned_game(players, seed):
    played = play_game("new-capital", players, seed)
    assert hashlib.sha256(encode_state(played.table.state)).hexdigest() == PINNED[(players, seed)]


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
