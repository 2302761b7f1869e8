"""Whole Arcs games by the random bot: invariants after every action, no secret in any view
or event for any seat or a spectator, every listed legal action accepted as listed, and a
stale version refused by the service."""
from __future__ import annotations

import asyncio

import pytest

from api.db import Database
from api.live.memory import MemoryStore
from api.service import Rejected, TableService
from api.settings import Settings
from core.bot import play_game
from core.engine import apply, legal_actions
from core.secrets import viewers
from core.plugins import BUILTIN_PLUGINS, Registry


def no_secret_fields(table, seat, action):
    """ARCS-281: no view carries the hands, decks, discard or face-down cards themselves."""
    for viewer in viewers(table):
        assert not {"hands", "action_deck", "action_discard", "court_deck", "facedown"} & set(table.view(viewer))


MODULES = [pytest.param(None, id="base"), pytest.param(["leaders-and-lore"], id="leaders-and-lore")]


@pytest.mark.parametrize("modules", MODULES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_keep_invariants_and_hide_secrets(players, modules):
    """With and without Leaders & Lore: the module's draft, Lore and Leader abilities keep
    the table sound and every secret hidden (Farseers' look reaches its holder alone)."""
    for seed in range(4):
        # check_hidden (ARCS-281, ARCS-111): no other seat's hand, deck order, discard or face-down
        # card in any view or event of a seat or a spectator, after every action, except what
        # a card showed that viewer alone (Farseers' look): `core.secrets`.
        played = play_game("arcs", players, seed, modules=modules, check_invariants=True, check_hidden=True,
                           after_action=no_secret_fields)
        assert played.table.state.finished and played.invariant_errors == []
        result = played.table.state.result
        assert result["winners"] == [played.table.state.winner] and result["chapter"] <= 5  # ARCS-244


def round_trip(table, seat, action):
    """Every listed answer of the next decision is accepted unchanged (checked on a copy)."""
    s = table.state
    if s.finished or s.version % 3:
        return
    for who in sorted({p.seat for p in s.prompts}):
        for listed in legal_actions(s, who, table.rules):
            apply(table.rules, s, who, listed)


@pytest.mark.parametrize("modules", MODULES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_round_trip(players, modules):
    played = play_game("arcs", players, 11, modules=modules, after_action=round_trip)
    assert played.table.state.finished


def test_a_stale_version_is_refused_and_changes_nothing(tmp_path):
    registry = Registry(list(BUILTIN_PLUGINS), load_entry_points=False)
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    service = TableService(registry, MemoryStore(db), db, Settings(rate_per_second=1e9, rate_burst=10**9, allow_chosen_seeds=True))

    async def scenario():
        loaded, _, code = await service.create_table("arcs", 3, seed=4)
        tokens = [(await service.join(loaded.id, s, f"P{s}", code))[0] for s in range(3)]
        holder = loaded.state.initiative
        first = legal_actions(loaded.state, holder, loaded.rules)[0]
        with pytest.raises(Rejected) as refused:
            await service.act(loaded.id, tokens[holder], {"type": first.type, "params": dict(first.params)},
                              expected_version=5)
        after = await service.load(loaded.id)
        return refused.value.code, after.version

    code, version = asyncio.run(scenario())
    assert code == "STALE_VERSION" and version == 0


def test_graphql_view_builds_for_every_viewer_and_shows_only_the_own_hand():
    """The typed `ArcsState` (GameState union): built from each redacted view; the viewer's
    hand, a spectator's none, other hands as counts."""
    from plugins.arcs.graphql import from_view

    def check(table, seat, action):
        s = table.state
        for viewer in [*range(len(s.players)), None]:
            typed = from_view(table.view(viewer))
            assert typed.hand == (None if viewer is None else s.hands[viewer])
            assert [p.hand_count for p in typed.players] == [len(h) for h in s.hands]
            assert typed.chapter == s.chapter and len(typed.systems) == len(s.systems)

    assert play_game("arcs", 3, 5, after_action=check).table.state.finished
