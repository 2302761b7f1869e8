"""The Imperial Council on real Act I tables: its two sides, securing it, its return at the
round's end and the four steps its securer resolves, with the rulebook's "tough first day"
example. Each test names the BR IDs it proves; a refused choice raises a typed error and
leaves the state byte-identical."""
from __future__ import annotations

import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from plugins.blighted_reach import council
from plugins.blighted_reach.council import DECIDED, IN_SESSION
from plugins.blighted_reach.trust import frozen_resources
from plugins.arcs.setup import empty_slots
from tests.blighted_reach.edict_tables import BOX, clear_row, give, snapshot, sound, table


def refused(state, error, call, *args):
    before = snapshot(state)
    with pytest.raises(error):
        call(*args)
    assert snapshot(state) == before


def fill_trust(state, *resources):
    for r in resources:
        state.supply[r] -= 1
        state.trust.append(r)


def secure(state, seat, rival_agents: dict[int, int] | None = None):
    """Rivals influence the Council, the seat puts one more agent than any, then secures it."""
    for rival, n in (rival_agents or {}).items():
        for _ in range(n):
            council.influence(state, rival, IN_SESSION)
    for _ in range(max((rival_agents or {0: 0}).values()) + 1):
        council.influence(state, seat, IN_SESSION)
    council.secure_council(state, seat)
    sound(state)


def test_council_starts_in_session_and_returns_to_it_each_act_BR_161_173():
    """BR-161: In Session at the start; BR-173: back In Session at a new Act's start, or by
    a Summit's Petition (agents on it stay)."""
    state = table(3)
    assert state.council == IN_SESSION and state.court_row[0] == IN_SESSION
    secure(state, 1)
    council.return_council(state)
    council.apply_council_event(state, 1, {"resolve": "crises"})
    assert state.court_row[0] == DECIDED
    council.start_act(state)
    assert state.council == IN_SESSION and state.court_row[0] == IN_SESSION and IN_SESSION in state.court_agents
    sound(state)
    council.flip_council(state, DECIDED)
    state.court_agents[DECIDED][2] = 1  # (an agent moved onto it, as Council Intrigue may)
    state.players[2].agents -= 1
    assert council.flip_council(state, IN_SESSION) is True
    assert state.court_agents[IN_SESSION] == [0, 0, 1] and DECIDED not in state.court_agents
    sound(state)


def test_in_session_it_is_influenced_and_secured_like_a_court_card_BR_162_164_175():
    """BR-162: influence and secure as any Court card; BR-164/BR-175: securing flips it to
    Decided and takes it out of the Court, tucked under the securer's play: their agents go
    home, a Rival's become Captives, and the Court refills its place."""
    state = table(3, seed=4)
    top, agents0, agents2 = state.court_deck[0], state.players[0].agents, state.players[2].agents
    secure(state, 0, {2: 1})
    assert state.council == DECIDED and council.is_tucked(state) and state.council_secured_by == 0
    assert IN_SESSION not in state.court_row and DECIDED not in state.court_row
    assert state.court_row[0] == top and state.court_agents[top] == [0, 0, 0]
    assert state.players[0].agents == agents0 and state.players[0].captives == [2]
    assert state.players[2].agents == agents2 - 1
    assert council.council_overrides_events(state)


def test_decided_it_cannot_be_influenced_or_secured_BR_172_176():
    """BR-172/BR-176: on its Decided side nobody may influence or secure it."""
    state = table(3)
    secure(state, 1)
    council.return_council(state)
    for seat in range(3):
        refused(state, IllegalAction, council.influence, state, seat, DECIDED)
        refused(state, IllegalAction, council.check_secure, state, seat, DECIDED)
    refused(state, ActionRejected, council.secure_council, state, 0)


def test_council_is_never_buried_scrapped_or_discarded_BR_163():
    """BR-163: removal checks refuse the Council on either side, and only it."""
    for side in (IN_SESSION, DECIDED):
        with pytest.raises(IllegalAction):
            council.check_removable(side)
    council.check_removable("CC01")


def test_it_returns_decided_leftmost_at_round_end_BR_165_176():
    """BR-165/BR-176: at the round's end the Council goes back to the Court, Decided side up
    (leftmost, where setup put it), and its securer resolves it."""
    state = table(4, seed=2)
    secure(state, 3, {1: 2})
    row = list(state.court_row)
    assert council.return_council(state) == 3
    assert state.court_row == [DECIDED, *row] and state.court_agents[DECIDED] == [0, 0, 0, 0]
    sound(state)
    refused(state, IllegalAction, council.return_council, state)


def test_a_regent_securer_becomes_first_regent_with_the_trust_BR_167():
    """BR-167: a Regent securer takes the First Regent tile and the Trust on it."""
    state = table(3, first_regent=0)
    fill_trust(state, "relic", "fuel")
    secure(state, 2)
    council.return_council(state)
    assert council.council_title_step(state) == "first_regent"
    refused(state, NotYourTurn, council.become_first_regent, state, 1)
    council.become_first_regent(state, 2)
    assert state.first_regent == 2 and frozen_resources(state, 2) == ["relic", "fuel"]
    assert frozen_resources(state, 0) == []
    sound(state)


def test_an_outlaw_securer_steals_up_to_their_empty_slots_BR_168():
    """BR-168: an Outlaw steals from the Trust at most one resource per empty resource slot;
    the First Regent loses 1 Power per resource stolen; the loot comes to be placed."""
    state = table(3, first_regent=0)
    fill_trust(state, "relic", "relic", "psionic")
    state.titles[1] = "outlaw"
    clear_row(state, 1)
    give(state, 1, *["material"] * (len(empty_slots(BOX, state.players[1])) - 2))
    assert council.theft_limit(BOX, state, 1) == 2
    secure(state, 1)
    council.return_council(state)
    assert council.council_title_step(state) == "steal"
    options = council.options_council_theft(BOX, state, 1)
    assert {"resources": ["psionic", "relic", "relic"]} not in options
    assert options[0] == {"resources": []} and {"resources": ["relic", "relic"]} in options
    refused(state, IllegalAction, council.apply_council_theft, BOX, state, 1,
            {"resources": ["psionic", "relic", "relic"]})
    refused(state, IllegalAction, council.apply_council_theft, BOX, state, 1, {"resources": ["fuel"]})
    refused(state, BadParameter, council.apply_council_theft, BOX, state, 1, {"take": ["relic"]})
    refused(state, NotYourTurn, council.apply_council_theft, BOX, state, 2, {"resources": ["relic"]})
    state.players[0].power = 1
    assert council.apply_council_theft(BOX, state, 1, {"resources": ["relic", "psionic"]}) == 2
    assert state.trust == ["relic"] and state.players[0].power == -1
    assert [(p.seat, sorted(p.tokens)) for p in state.placing] == [(1, ["psionic", "relic"])]
    sound(state)


def test_securer_chooses_crises_or_edicts_BR_169():
    """BR-169: the securer, not a die, chooses Crises or Edicts; that closes the Council's
    resolution (Event cards no longer give way)."""
    state = table(3)
    secure(state, 2)
    council.return_council(state)
    assert council.options_council_event(state) == [{"resolve": "crises"}, {"resolve": "edicts"}]
    refused(state, NotYourTurn, council.apply_council_event, state, 0, {"resolve": "edicts"})
    refused(state, IllegalAction, council.apply_council_event, state, 2, {"resolve": "summit"})
    refused(state, BadParameter, council.apply_council_event, state, 2, {"roll": True})
    assert council.apply_council_event(state, 2, {"resolve": "edicts"}) == "edicts"
    assert state.council_secured_by == -1 and not council.council_overrides_events(state)
    assert council.options_council_event(state) == []


def test_titles_are_read_after_the_summit_BR_170():
    """BR-170: steps 2 and 3 follow the title the securer holds after step 1's Summit: a
    Regent who left the Empire there steals; an Outlaw invited back becomes First Regent."""
    state = table(3, first_regent=0)
    secure(state, 1)
    council.return_council(state)
    assert council.council_title_step(state) == "first_regent"
    state.titles[1] = "outlaw"  # the Summit: Leave the Empire
    assert council.council_title_step(state) == "steal"
    refused(state, IllegalAction, council.become_first_regent, state, 1)
    state.titles[1] = "regent"  # the Summit: Invite to Empire
    assert council.council_title_step(state) == "first_regent"
    refused(state, IllegalAction, council.apply_council_theft, BOX, state, 1, {"resources": []})


def test_tough_first_day_on_the_job_BR_171():
    """BR-171 (worked example): the First Regent secures the Council; in the Summit they
    leave the Empire, the tile going to the Regent with the most Power; then, an Outlaw,
    they steal 3 resources from the Trust, and the new First Regent loses 3 Power."""
    state = table(3, seed=21, first_regent=0)
    fill_trust(state, "material", "relic", "psionic", "fuel")
    clear_row(state, 0)
    state.players[1].power, state.players[2].power = 4, 6
    secure(state, 0)
    assert council.return_council(state) == 0
    # Step 1, the Summit (another module): Leave the Empire hands the tile to seat 2.
    state.titles[0], state.first_regent = "outlaw", 2
    assert council.council_title_step(state) == "steal"
    assert council.theft_limit(BOX, state, 0) == 3
    council.apply_council_theft(BOX, state, 0, {"resources": ["material", "psionic", "relic"]})
    assert state.players[2].power == 3 and state.players[1].power == 4
    assert state.trust == ["fuel"] and frozen_resources(state, 2) == ["fuel"]
    assert council.apply_council_event(state, 0, {"resolve": "crises"}) == "crises"
    sound(state)
