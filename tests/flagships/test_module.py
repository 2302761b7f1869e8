"""The `flagships` module plugin (issue 19, first slice): registered for the Blighted Reach
only, chosen when a campaign starts and refused for a later Act that differs; its
Intermission duty (BR-341) is registered for every campaign table."""
from __future__ import annotations

import copy

import pytest

from core.engine import create_table
from core.errors import IncompatibleModules, SetupError
from core.plugins import default_registry
from core.state import Seat
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS
from plugins.flagships import plugin

GAME = "blighted-reach"
RULES = default_registry().rules_for(GAME, [])


def campaign_after_act_one(modules: list[str]) -> dict:
    """A campaign dict as an Act I table saves it (the log sheet itself is not read before
    the modules are compared)."""
    campaign = RULES.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(3)], options={})
    campaign.update(log={"act": 1}, acts_played=1)
    if modules:
        campaign["modules"] = modules
    return campaign


def test_the_module_switches_on_for_a_campaign_and_leaves_no_trace_until_a_flagship():
    t = create_table(GAME, 3, seed=1, modules=["flagships"])
    assert t.state.modules == ["flagships"] and "flagships" not in t.state.module_state
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == []


@pytest.mark.parametrize("game", ["arcs", "queens-dilemma"])
def test_the_module_is_refused_on_other_games(game):
    with pytest.raises(SetupError):
        create_table(game, 3, seed=1, modules=["flagships"])


@pytest.mark.parametrize("first,later", [([], ["flagships"]), (["flagships"], [])])
def test_a_later_act_cannot_switch_the_module_on_or_off(first, later):
    """Chosen when the campaign starts, refused later (as Age of Disorder)."""
    with pytest.raises(IncompatibleModules):
        create_table(GAME, 3, seed=2, modules=later, campaign=copy.deepcopy(campaign_after_act_one(first)))


def test_BR_341_intermission_d_runs_the_flagship_duty_on_every_campaign_table():
    assert plugin._destroy_damaged in INTERMISSION_HOOKS["repair_and_destroy"]
