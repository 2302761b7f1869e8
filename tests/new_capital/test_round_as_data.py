"""The round is declared once, as data (rounds.PHASES): what is pending when a phase starts
is exactly its declaration, and a game walks the phases in that order round after round
(the Round Anatomy, QNC-255..274)."""
from __future__ import annotations

import pytest

from core.bot import RandomBot
from core.engine import create_table, view_events
from core.flow import step_name
from plugins.new_capital.rounds import PHASES, start_phase


def test_a_new_phase_has_exactly_its_declared_steps_pending_QNC_255():
    table = create_table("new-capital", 3, seed=5)
    assert [p.kind for p in table.state.prompts] == ["draft_leader"] * 3  # the round waits for the draft
    development = [(step_name(step), args) for step, args in dict(PHASES)["development"]]
    assert [(s.name, s.args) for s in reversed(table.state.stack)] == [
        *development, (step_name(start_phase), {"name": "crisis"})]


@pytest.mark.parametrize("players,modules", [(1, []), (2, ["guildmasters"]), (4, ["dilemmas", "faction-heroes"])])
def test_every_round_enters_the_declared_phases_in_order_QNC_255_274(players, modules):
    table = create_table("new-capital", players, seed=60 + players, modules=modules)
    bot = RandomBot(players)
    entered = []
    while not table.state.finished:
        table.act(*bot.choose(table))
        entered += [(e["data"]["round"], e["data"]["phase"]) for e in view_events(table.events, None)
                    if e["type"] == "phase"]
    names = [name for name, _ in PHASES]
    rounds = table.state.round
    assert rounds >= 2
    expected = [(r, n) for r in range(1, rounds + 1) for n in names]
    # the last round stops at the solo end (after Score) or at the Refresh's victory check
    assert entered == expected[:len(entered)] and len(entered) >= len(expected) - 1
