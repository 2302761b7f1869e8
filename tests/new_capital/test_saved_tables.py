"""A live table saved by an earlier release still loads and plays on as it would have:
each stored snapshot (tests/new_capital/saved_tables.py) loads through the game's
`load_snapshot` (migrated when its format is older) and the same seeded bot reaches the
same recorded end (winners, seals, action count)."""
from __future__ import annotations

import json

import pytest

from core.plugins import default_registry
from tests.new_capital.saved_tables import DATA, EXPECTED, GAME, play_on, table_from

EXPECTED_ENDS = json.loads(EXPECTED.read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED_ENDS))
def test_a_saved_table_loads_and_plays_on_as_recorded(name):
    expected = EXPECTED_ENDS[name]
    rules = default_registry().rules_for(GAME, expected["modules"])
    state, _ = rules.game.load_snapshot((DATA / f"{name}.msgpack").read_bytes())
    assert state.format == rules.game.state_format
    assert play_on(table_from(rules, state), expected["bot_seed"]) == {
        "actions": expected["actions"], "result": expected["result"]}
