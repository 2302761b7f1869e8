"""The kernel on its own terms, through a tiny test game (tests/core/sealed_bids.py):
simultaneous secret prompts, standing non-blocking prompts, typed errors, module checks."""
from __future__ import annotations

import pytest

from core import Action, Registry, create_table, view_events
from core.errors import (
    BadPlayerCount, GameOver, IllegalAction, IncompatibleModules, NotYourTurn, PluginError,
    UnknownGame, UnknownModule, BadOption,
)
from core.state import encode_state
from tests.core import sealed_bids


@pytest.fixture(scope="module")
def registry():
    return Registry(["plugins.new_capital.plugin", sealed_bids], load_entry_points=False)


def table(registry, players=3, modules=None, seed=1):
    return create_table("sealed-bids", players, seed=seed, modules=modules, registry=registry)


def test_simultaneous_prompts_are_open_for_every_seat_at_once(registry):
    t = table(registry)
    bids = [p for p in t.state.prompts if p.kind == "bid"]
    assert sorted(p.seat for p in bids) == [0, 1, 2]
    # answered in any order; the flow waits for the last one
    t.act(2, Action("bid", {"n": 3}))
    t.act(0, Action("bid", {"n": 1}))
    assert t.state.round == 1 and "settled" not in [e.type for e in t.events]
    t.act(1, Action("bid", {"n": 3}))
    settled = next(e for e in t.events if e.type == "settled")
    assert settled.data["winner"] == 1  # tie 3-3 broken by seat order (ruling G-1)
    assert t.state.round == 2


def test_secret_choice_is_hidden_from_other_viewers_in_state_and_events(registry):
    t = table(registry)
    events = t.act(0, Action("bid", {"n": 4}))
    assert t.view(0)["bids"] == {"0": 4}
    assert t.view(1)["bids"] == {"0": "sealed"}
    assert t.view(None)["bids"] == {"0": "sealed"}
    assert {"type": "my_bid", "data": {"seat": 0, "n": 4}} in view_events(events, 0)
    assert all(e["type"] != "my_bid" for e in view_events(events, 1) + view_events(events, None))
    # another seat's prompt shows only that a decision is pending, never its options
    other = [p for p in t.view(1)["prompts"] if p["seat"] == 2]
    assert other and all("options" not in p for p in other)


def test_standing_offer_does_not_block_and_closes_with_its_window(registry):
    t = table(registry, players=2)
    t.act(0, Action("gift", {"to": 1}))  # a non-blocking prompt answered out of turn
    assert t.state.coins == [4, 6]
    t.act(0, Action("bid", {"n": 0}))
    t.act(1, Action("bid", {"n": 0}))
    # the round settled even though seat 1 never answered its gift prompt; new offers opened
    assert t.state.round == 2
    assert sorted(p.kind for p in t.state.prompts if p.seat == 1) == ["bid", "gift"]


def test_rejected_actions_are_typed_and_change_nothing(registry):
    t = table(registry, players=2)
    t.act(0, Action("bid", {"n": 1}))
    before = encode_state(t.state)
    with pytest.raises(IllegalAction, match="may: gift"):
        t.act(0, Action("bid", {"n": 1}))  # seat 0 already bid; only its standing gift is open
    with pytest.raises(IllegalAction):
        t.act(1, Action("pass"))
    zero = table(registry, players=2, modules=["short-game"])
    zero.state.coins = [0, 5]
    zero.state.prompts = [p for p in zero.state.prompts if p.kind != "gift" or p.seat != 0]
    zero.act(0, Action("bid", {"n": 0}))
    with pytest.raises(NotYourTurn, match=r"^Seat 1 has no decision to make now \(waiting for Seat 2\)$"):
        zero.act(0, Action("bid", {"n": 0}))
    assert encode_state(t.state) == before


def test_game_over_refuses_actions(registry):
    t = table(registry, players=2, modules=["short-game"])
    t.act(0, Action("bid", {"n": 0}))
    t.act(1, Action("bid", {"n": 2}))
    assert t.state.finished and t.state.result == {"winners": [1]}
    with pytest.raises(GameOver):
        t.act(0, Action("bid", {"n": 0}))


def test_module_changes_rules_only_when_enabled(registry):
    assert table(registry).state.rounds == 3
    assert table(registry, modules=["long-game"]).state.rounds == 5


def test_bad_configurations_are_refused_with_clear_errors(registry):
    with pytest.raises(UnknownGame, match="no-such-game"):
        create_table("no-such-game", 2, registry=registry)
    with pytest.raises(UnknownModule, match="nope"):
        table(registry, modules=["nope"])
    with pytest.raises(IncompatibleModules, match="short-game"):
        table(registry, modules=["long-game", "short-game"])
    with pytest.raises(BadPlayerCount, match="short-game"):
        table(registry, players=4, modules=["short-game"])
    with pytest.raises(BadPlayerCount):
        table(registry, players=9)
    with pytest.raises(IncompatibleModules, match="extends 'sealed-bids'"):
        create_table("new-capital", 2, modules=["long-game"], registry=registry)
    with pytest.raises(BadOption):
        create_table("sealed-bids", 2, options={"colour": "red"}, registry=registry)


def test_duplicate_registration_is_refused():
    class Dup:
        @staticmethod
        @sealed_bids.hookimpl
        def conclave_register_games():
            return sealed_bids.conclave_register_games()

    with pytest.raises(PluginError, match="registered twice"):
        Registry([sealed_bids, Dup], load_entry_points=False)


def test_third_party_plugins_load_from_the_conclave_entry_point_group(monkeypatch):
    import core.plugins as plugins_mod

    class EP:
        name = "sealed"
        group = "conclave"

        def load(self):
            return sealed_bids

    monkeypatch.setattr(plugins_mod, "entry_points", lambda group: [EP()] if group == "conclave" else [])
    reg = Registry(["plugins.new_capital.plugin"])
    assert "sealed-bids" in reg.games and "long-game" in reg.modules
    assert create_table("sealed-bids", 2, registry=reg).state.game == "sealed-bids"


def test_per_table_managers_hold_exactly_the_enabled_modules_and_are_cached(registry):
    plain = registry.rules_for("sealed-bids", [])
    long_ = registry.rules_for("sealed-bids", ["long-game"])
    assert registry.rules_for("sealed-bids", []) is plain
    assert sealed_bids.LongGame not in [p for p in plain.pm.get_plugins()]
    assert sealed_bids.LongGame in long_.pm.get_plugins()
    assert sealed_bids.ShortGame not in long_.pm.get_plugins()
