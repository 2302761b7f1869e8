"""Hidden information with every module on: after every action of bot games, no viewer's
view shows a face-down Guildmaster or Dilemma, the cards under a hero stack's top, the two
Guildmasters on offer (except to their chooser), or any base-game secret."""
from __future__ import annotations

import json
import re

import pytest

from core.bot import play_game
from core.engine import view
from plugins.new_capital.views import hidden_from

STRINGS = re.compile(r'"([^"]+)"')


def module_secrets(state, viewer) -> set[str]:
    ms = state.module_state
    gm, dil, heroes = ms["guildmasters"], ms["dilemmas"], ms["faction-heroes"]
    secret = set(gm["zones"]["deck"]) | set(dil["zones"]["deck"]) | set(dil["zones"]["box"])
    if viewer != gm["chooser"]:
        secret |= set(gm["zones"]["dealt"])
    for stack in heroes["zones"].values():
        secret |= set(stack[:-1])
    return secret


@pytest.mark.parametrize("players,seed", [(2, 31), (3, 32), (4, 33)])
def test_no_view_shows_a_module_secret(players, seed):
    checked = []

    def after(table, seat, action):
        state = table.state
        for viewer in [None, *range(players)]:
            shown = set(STRINGS.findall(json.dumps(view(table.rules, state, viewer))))
            leaked = shown & (module_secrets(state, viewer) | hidden_from(state, viewer))
            assert not leaked, (viewer, leaked)
            for p in state.prompts:
                if p.kind == "guildmaster" and viewer is not None and viewer != p.seat:
                    assert not {o.params["card"] for o in p.options} & shown
        checked.append(1)

    played = play_game("new-capital", players, seed, modules=["guildmasters", "faction-heroes", "dilemmas"],
                       after_action=after)
    assert len(checked) == played.actions > 100
