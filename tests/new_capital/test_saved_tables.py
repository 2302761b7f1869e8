"""A live table saved by an earlier release still loads and plays on as it would have:
each stored snapshot (tests/new_capital/saved_tables.py) loads through the game's
`load_snapshot` (migrated when its format is older) and the same seeded bot reaches the
same recorded end (winners, seals, action count)."""
from __future__ import annotations

import json

import msgspec
import pytest

from core.bot import RandomBot
from core.engine import create_table
from core.plugins import default_registry
from core.state import encode_msgpack
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


@pytest.mark.parametrize("name", sorted(EXPECTED_ENDS))
def test_a_format_0_table_is_migrated_to_seats_not_positions(name):
    """Format 0 loops carried a position in the turn order (`i`, `k`) and turn prompts the
    step to run next; format 1 carries the seat that last acted and the lap."""
    data = (DATA / f"{name}.msgpack").read_bytes()
    rules = default_registry().rules_for(GAME, EXPECTED_ENDS[name]["modules"])
    assert msgspec.msgpack.decode(data)["format"] == 0
    state, migrated = rules.game.load_snapshot(data)
    assert migrated
    for args in [s.args for s in state.stack] + [p.args for p in state.prompts]:
        assert not {"i", "k", "idle", "next_step"} & set(args), args
    again, migrated_again = rules.game.load_snapshot(encode_msgpack(state))
    assert not migrated_again and encode_msgpack(again) == encode_msgpack(state)


@pytest.mark.parametrize("name", sorted(EXPECTED_ENDS))
def test_a_migrated_table_is_the_one_this_release_would_have_saved(name):
    """The snapshots were taken in seeded bot games (bot seed = game seed) after `version`
    actions: played again with this code to that point, the table is byte for byte the
    migrated one, pending steps and open prompts included."""
    spec = EXPECTED_ENDS[name]
    rules = default_registry().rules_for(GAME, spec["modules"])
    migrated, _ = rules.game.load_snapshot((DATA / f"{name}.msgpack").read_bytes())
    table = create_table(GAME, spec["players"], seed=spec["seed"], modules=spec["modules"])
    bot = RandomBot(spec["seed"])
    while table.state.version < migrated.version:
        table.act(*bot.choose(table))
    assert encode_msgpack(table.state) == encode_msgpack(migrated)


def test_a_format_0_table_stopped_nowhere_in_the_round_is_refused_not_guessed():
    from core.errors import StateFormatError

    rules = default_registry().rules_for(GAME, [])
    raw = msgspec.msgpack.decode((DATA / "4p-11-bid.msgpack").read_bytes())
    raw["stack"][0][0] = "nc.no_such_step"
    with pytest.raises(StateFormatError):
        rules.game.load_snapshot(msgspec.msgpack.encode(raw))
    raw["stack"], raw["prompts"] = [], []
    with pytest.raises(StateFormatError):
        rules.game.load_snapshot(msgspec.msgpack.encode(raw))
