"""A live table saved by the release before typed decisions (state format 0) still loads
and plays on to the same end: the snapshots in data/ were recorded from that release
(tests/queens_dilemma/snapshots.py) with how a seeded bot finished each one."""
from __future__ import annotations

import json

import pytest

from core.state import encode_msgpack
from tests.queens_dilemma.snapshots import DATA, RESULTS, continue_bot, load

RECORDED = json.loads(RESULTS.read_text())


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_table_saved_by_the_previous_release_loads_and_ends_as_it_did(name):
    """Each old snapshot migrates (format 0 -> 1) and the same bot reaches the recorded result
    in the recorded number of actions."""
    raw = (DATA / f"{name}.msgpack").read_bytes()
    table = load(name)
    assert table.state.format == 1 and table.state.version == RECORDED[name]["version"]
    assert all(not p.options for p in table.state.prompts if p.decision)
    assert encode_msgpack(table.state) != raw or not any(p.decision for p in table.state.prompts)
    ended = continue_bot(table)
    assert ended == {"actions": RECORDED[name]["actions"], "result": RECORDED[name]["result"]}


def test_the_snapshots_cover_open_payments_a_forced_payment_and_age_of_disorder():
    kinds = {name: {p.kind for p in load(name).state.prompts} for name in RECORDED}
    assert "payment" in kinds["vote6"] and "vote" in kinds["vote6"]
    assert "forced_payment" in kinds["forced3"]
    assert any(RECORDED[n]["modules"] == ["age-of-disorder"] and "payment" in k for n, k in kinds.items())


def test_a_current_table_loads_without_migration():
    from core import default_registry
    from tests.queens_dilemma.snapshots import POINTS, play_to

    players, seed, modules, stop = POINTS["vote6"]
    table = play_to(players, seed, modules, stop)
    state, migrated = default_registry().rules_for("queens-dilemma", []).game.load_snapshot(encode_msgpack(table.state))
    assert not migrated and state == table.state


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_migrated_table_is_the_one_this_release_reaches(name):
    """The old snapshot, migrated (its phases as the kernel schedules them: core/phases.py),
    is byte for byte the table this code reaches at the same point of the same seeded game,
    pending steps and open prompts included."""
    from tests.queens_dilemma.snapshots import POINTS, play_to

    players, seed, modules, stop = POINTS[name]
    assert encode_msgpack(load(name).state) == encode_msgpack(play_to(players, seed, modules, stop).state)
