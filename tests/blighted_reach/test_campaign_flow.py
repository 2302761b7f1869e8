"""The campaign around the Acts through the engine: Act I's table ends with the Intermission
(A-F, the new Fates picked in secret), its log sheet is saved to the campaign, and Act II's
table is set up from it. Each test names the BR checklist IDs it proves."""
from __future__ import annotations

import copy

import pytest

from core import default_registry
from core.engine import create_table, view_events
from core.errors import EngineError
from core.state import Action, Seat
from tests.blighted_reach.flow_helpers import GAME, PlainFateBot, fate_rule_missing, play_out

RULES = default_registry().rules_for(GAME, [])


def new_campaign(players: int) -> dict:
    return RULES.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(players)], options={})


def act_one(players: int, first_seed: int = 1):
    """A whole Act I of a campaign by bots (the first seed whose Fates' rules are all written)."""
    for seed in range(first_seed, first_seed + 80):
        campaign = new_campaign(players)
        t = create_table(GAME, players, seed=seed, campaign=copy.deepcopy(campaign))
        try:
            play_out(t, seed)
            RULES.hook.conclave_campaign_save(state=t.state, campaign=campaign)
            two = create_table(GAME, players, seed=seed + 1000, campaign=copy.deepcopy(campaign))
        except EngineError as exc:
            if fate_rule_missing(exc):
                continue
            raise
        return t, campaign, two
    pytest.skip("no seed found whose Fates are all written")


@pytest.mark.parametrize("players", [2, 3])
def test_act_one_ends_with_the_intermission_and_its_log_sheet_starts_act_two_BR_089_BR_066(players):
    """BR-089, BR-066."""
    t, campaign, two = act_one(players)
    s = t.state
    assert s.finished and s.result["act"] == 1 and s.chapter == 3
    assert s.intermission_done == ["resolve_fate", "clear_court", "clear_pieces", "repair_and_destroy",
                                   "shift_initiative_and_power", "choose_fate"]  # BR-089: all of A-F
    assert campaign["acts_played"] == 1 and not campaign["finished"] and campaign["log"]["act"] == 1
    assert two.state.act == 2
    assert [p.power for p in two.state.players] == [p.power for p in s.players]  # BR-066: Power carries over
    assert two.state.fates == s.fates and two.state.titles == s.titles
    standings = RULES.hook.conclave_campaign_standings(game=GAME, campaign=campaign)
    assert [row["power"] for row in standings] == [p.power for p in s.players]


def test_the_new_fates_are_picked_in_secret_and_revealed_together_BR_350_A_R7():
    """Until the last pick, no view or event shows what anyone picked (their own included). (BR-350)"""
    for seed in range(1, 80):
        t = create_table(GAME, 3, seed=seed, campaign=new_campaign(3))
        bot = PlainFateBot(seed)
        try:
            while not (t.state.intermission_done and t.state.intermission_done[-1] == "shift_initiative_and_power"
                       and t.state.groups):
                seat, action = bot.choose(t)
                t.act(seat, action)
        except EngineError as exc:
            if fate_rule_missing(exc):
                continue
            raise
        break
    else:
        pytest.skip("no seed found whose Fates are all written")
    offers = {s: list(t.state.fate_offers[s]) for s in range(3)}
    for viewer in (None, 0, 1, 2):
        view = t.view(viewer)
        assert view.get("fate_offer") == (offers[viewer] if viewer is not None else None)
    picked = {}
    for seat in range(3):
        fate = offers[seat][0]
        events = t.act(seat, Action("choose_fate", {"fate": fate}))
        picked[seat] = fate
        if seat < 2:
            for viewer in (None, 0, 1, 2):
                assert "fate_picks" not in t.view(viewer)
                if viewer != seat:  # a seat's own answer comes back to it alone
                    assert fate not in repr(view_events(events, viewer))
    assert any(e.type == "fates_revealed" for e in events)
    assert t.state.fates == [picked[s] for s in range(3)]
