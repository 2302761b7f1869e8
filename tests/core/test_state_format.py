"""Saved states carry their game's state-format version; an older one is migrated on load,
one format at a time, and one this release cannot read is refused with a typed error."""
from __future__ import annotations

import dataclasses

import msgspec
import pytest

from core import Registry, create_table
from core.errors import StateFormatError
from core.state import encode_msgpack
from tests.core import kernel_lab


@pytest.fixture
def spec():
    registry = Registry([kernel_lab], load_entry_points=False)
    table = create_table("kernel-lab", 4, seed=3, registry=registry)
    return registry.games["kernel-lab"], table


def saved_as(table, format: int, **changes) -> bytes:
    raw = msgspec.to_builtins(table.state)
    raw["format"] = format
    raw.update(changes)
    return msgspec.msgpack.encode(raw)


def test_a_new_table_is_written_in_its_games_current_format(spec):
    game, table = spec
    assert table.state.format == game.state_format


def test_a_current_snapshot_loads_as_it_is(spec):
    game, table = spec
    state, migrated = game.load_snapshot(encode_msgpack(table.state))
    assert (state, migrated) == (table.state, False)


def test_an_older_snapshot_is_migrated_one_format_at_a_time(spec):
    game, table = spec
    seen = []

    def rename_round(raw):  # format 0 kept the round under another name
        seen.append(0)
        raw["round"] = raw.pop("old_round")
        return raw

    def bump(raw):
        seen.append(1)
        raw["round"] += 1
        return raw

    game = dataclasses.replace(game, state_format=2, migrations={0: rename_round, 1: bump})
    old = msgspec.to_builtins(table.state)
    old.pop("format")
    old["old_round"] = old.pop("round")
    state, migrated = game.load_snapshot(msgspec.msgpack.encode(old))
    assert migrated and seen == [0, 1]
    assert state.format == 2 and state.round == table.state.round + 1
    assert type(state) is type(table.state)


@pytest.mark.parametrize("format, migrations, says", [
    (5, {}, "cannot be read by this release"),          # saved by a newer release
    (0, {}, "no migration from state format 0"),       # nothing reaches the current format
])
def test_a_snapshot_this_release_cannot_read_is_refused(spec, format, migrations, says):
    game, table = spec
    game = dataclasses.replace(game, state_format=1, migrations=migrations)
    with pytest.raises(StateFormatError, match=says):
        game.load_snapshot(saved_as(table, format))


def test_a_migration_that_leaves_a_bad_shape_is_refused(spec):
    game, table = spec
    game = dataclasses.replace(game, state_format=1, migrations={0: lambda raw: {**raw, "round": "three"}})
    with pytest.raises(StateFormatError, match="does not fit format 1"):
        game.load_snapshot(saved_as(table, 0))
