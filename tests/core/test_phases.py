"""Phases as data (core/phases.py), on the test-only game tests/core/phase_lab.py: a started
phase has exactly its declaration pending, the kernel enters and leaves each phase where the
declaration says (the `phase` event and the phase hooks), what follows the last phase is the
declared handler or the first phase again, and a bad declaration fails where it is made."""
from __future__ import annotations

import pytest

from core import Registry, create_table, view_events
from core.errors import EngineError
from core.flow import Ctx, step_name
from core.phases import Phase, Phases, enter_phase, exit_phase, start_phase
from tests.core import phase_lab
from tests.core.phase_lab import FINAL, ROUND, deal, play, score, tally


@pytest.fixture
def registry():
    return Registry([phase_lab], load_entry_points=False)


def pending(state) -> list[tuple[str, dict]]:
    """The stack as it runs: next step first."""
    return [(s.name, s.args) for s in reversed(state.stack)]


def names(steps) -> list[tuple[str, dict]]:
    return [(step_name(s), a) for s, a in steps]


def test_a_started_phase_has_its_before_steps_entering_its_steps_leaving_then_the_next_pending(registry):
    table = create_table("phase-lab", 2, registry=registry)
    ctx = Ctx(table.state, table.rules)
    ctx.state.stack = []
    ctx.call(start_phase, name="deal")
    assert pending(ctx.state) == [
        ("plab.count_round", {}), ("core.enter_phase", {"name": "deal"}), ("plab.deal", {}),
        ("core.exit_phase", {"name": "deal"}), ("core.start_phase", {"name": "play"})]
    assert pending(ctx.state)[:-1] == names(dict(ROUND)["deal"])  # iterating a declaration shows it


def test_after_the_last_phase_comes_the_declared_handler_and_a_sequence_without_one_loops(registry):
    table = create_table("phase-lab", 2, registry=registry)
    assert table.state.phase == "play" and [p.seat for p in table.state.prompts] == [0]
    assert pending(table.state) == [("plab.play", {"after": 0}), ("core.exit_phase", {"name": "play"}),
                                    ("plab.tally", {})]
    looped = Phases((Phase("deal", ((deal, {}),)), Phase("play", ((play, {}),))))
    assert looped.pending["play"][0] == ("core.start_phase", {"name": "deal"})  # bottom of the stack: the first again
    assert [n for n, _ in looped] == ["deal", "play"]


def test_phases_are_entered_and_left_by_the_kernel_in_order_with_their_events_and_hooks(registry):
    table = create_table("phase-lab", 2, registry=registry)
    events = list(table.events)
    while not table.state.finished:
        seat = table.state.prompts[0].seat
        events += table.act(seat, table.legal(seat)[-1])
    seen = [(e["data"]["round"], e["data"]["phase"]) for e in view_events(events, None) if e["type"] == "phase"]
    assert seen == [(1, "deal"), (1, "play"), (2, "deal"), (2, "play"), (2, "final")]  # counted before entering
    assert table.state.hooks == [
        ["enter", "deal", 1], ["exit", "deal", 1], ["enter", "play", 1], ["exit", "play", 1],
        ["enter", "deal", 2], ["exit", "deal", 2], ["enter", "play", 2], ["exit", "play", 2],
        ["enter", "final", 2], ["exit", "final", 2]]
    kinds = [e["type"] for e in view_events(events, None) if e["type"] in ("phase", "dealt", "scored", "game_end")]
    assert kinds == ["phase", "dealt", "phase"] * 2 + ["phase", "scored", "game_end"]
    assert table.state.phase == "final" and table.state.result == {"winners": [0, 1]}
    assert table.state.coins == [1 + 2 + 1 + 2] * 2


def test_each_start_pushes_fresh_arguments_so_a_step_changing_its_own_leaves_the_declaration_alone(registry):
    table = create_table("phase-lab", 2, registry=registry)
    ctx = Ctx(table.state, table.rules)
    ctx.call(start_phase, name="deal")
    ctx.state.stack[-2].args["name"] = "changed"  # the pending enter step's arguments
    assert ROUND.pending["deal"][-2] == ("core.enter_phase", {"name": "deal"})
    assert table.rules.phases["deal"][-2] == ("core.enter_phase", {"name": "deal"})


def test_an_undeclared_phase_is_an_engine_error(registry):
    table = create_table("phase-lab", 2, registry=registry)
    with pytest.raises(EngineError, match="no declared phase 'nowhere'"):
        Ctx(table.state, table.rules).call(start_phase, name="nowhere")


def test_a_bad_declaration_fails_where_it_is_made():
    with pytest.raises(EngineError, match="distinct"):
        Phases((Phase("deal", ((deal, {}),)), Phase("deal", ((play, {}),))))
    with pytest.raises(EngineError, match="at least one"):
        Phases(())
    with pytest.raises(EngineError, match="not a registered step handler"):
        Phases((Phase("deal", ((lambda ctx: None, {}),)),))
    with pytest.raises(EngineError, match="not a registered step handler"):
        Phases((Phase("deal", (("plab.deal", {}),)),))  # a step is never named by a string


def test_a_phase_declared_in_two_sequences_of_a_game_is_refused():
    from core.phases import schedules

    again = Phases((Phase("final", ((score, {}),)),), then=tally)
    with pytest.raises(EngineError, match="'final' is declared twice"):
        schedules((ROUND, FINAL, again))


def test_the_kernel_steps_are_registered_under_their_own_names():
    assert (step_name(start_phase), step_name(enter_phase), step_name(exit_phase)) == (
        "core.start_phase", "core.enter_phase", "core.exit_phase")
