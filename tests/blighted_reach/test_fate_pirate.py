"""The Pirate (FATE12, a B Fate) through the engine: an Act I with A Fates, its Intermission
giving seat 0 the Pirate, the Act II table created from the packed log sheet. Each test
names the card it plays (F12nn) and the checklist IDs it proves.

The Pirate's Fate Set is not complete yet (fates.json keeps `effects_complete: false`: the
Pirate Fleet, the Smugglers and the Act III Rumors are not built), so the engine refuses its
sides (RuleMissing). These tests mark the Fate complete INSIDE THE TEST (`complete` fixture)
to play the cards that are built."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.errors import ActionRejected
from core.flow import Ctx, run
from core.engine import create_table
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.battle_flow import resolve
from plugins.arcs.rounds import round_start
from plugins.arcs.setup import open_slots, place_ships
from plugins.arcs.state import Battle
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import fate_pirate as pirate
from plugins.blighted_reach import intermission as im
from plugins.blighted_reach import objectives
from plugins.blighted_reach.fate_steps import RuleMissing
from plugins.blighted_reach.state import FREE
from plugins.flagships.content import default_content as flagship_content
from plugins.flagships.state import board_of
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, ctx, end_act
from tests.blighted_reach.flow_helpers import GAME, options, restart_round

PIRATE = "FATE12"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


@pytest.fixture
def complete(monkeypatch):
    """The Pirate's Fate marked complete for this test only (see the module docstring)."""
    monkeypatch.setitem(CBOX.fates, PIRATE, msgspec.structs.replace(CBOX.fates[PIRATE], effects_complete=True))


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == []


def refused(t, seat: int, action: Action) -> None:
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(seat, action)
    assert snapshot(t) == before


def pirate_intermission(state, seat: int):
    """Intermission A-F with every objective completed; the seat's offer arranged to hold the
    Pirate (the B Fates' draw, BR-349) and picked; the others keep their Fates."""
    state.objective_markers = [0] * len(state.players)
    run_ctx = ctx(state)
    im.resolve_fates(run_ctx, CBOX)
    im.clear_court(CBOX, state)
    im.clear_pieces(BOX, CBOX, state)
    for s in im.repair_and_destroy(BOX, CBOX, state):
        im.place_after_elimination(BOX, CBOX, state, s, "1G")
    im.shift_initiative_and_power(CBOX, state)
    state.options = {**state.options, "later_fates": "box"}
    im.offer_fates(CBOX, state)
    state.fate_offers[seat] = [state.fates[seat], PIRATE]
    for s in range(len(state.players)):
        im.pick_fate(state, s, PIRATE if s == seat else state.fates[s])
    im.reveal_fates(CBOX, state)
    return state


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, start: int = 20, place: bool = True):
    """The Act II table with the Pirate at `seat`; `place` answers its Flagship prompt with the
    first system offered and every other seat's objective start."""
    state = end_act(act_one(A_FATES[:players], seed))
    pirate_intermission(state, seat)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    t = create_table(GAME, players, seed=seed, campaign=campaign)
    if place:
        finish_setup(t, start)
    return t


def finish_setup(t, start: int = 20) -> None:
    """The Flagship at the first system offered, the freed city slots' resources placed as
    first offered (ARCS-250), then every objective start."""
    while any(p.kind in ("place_flagship", "arcs.place_resources") for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind in ("place_flagship", "arcs.place_resources"))
        t.act(p.seat, options(t, p.seat)[0])
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    assert not t.state.prompts or all(p.kind not in ("place_flagship", "objective_start") for p in t.state.prompts)


def loyal_buildings(state, seat: int) -> int:
    return sum(b.owner == seat for here in state.systems.values() for b in here.buildings)


def take_from_supply(state, resource: str) -> str:
    state.supply[resource] -= 1
    return resource


# -- F1201 Pirate Act II Setup ---------------------------------------------------------------


def test_F1201_without_its_fate_complete_the_setup_is_refused_before_anything_changes():
    """BR-066: a Fate whose cards lack effects stops loudly (RuleMissing) at its setup side."""
    state = end_act(act_one(A_FATES[:3], 3))
    pirate_intermission(state, 0)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": 3, "acts_played": 1, "log": log, "finished": False, "winner": -1, "acts": []}
    with pytest.raises(RuleMissing):
        create_table(GAME, 3, seed=3, campaign=campaign)


def test_F1201_setup_grants_the_flagship_its_starports_the_cards_and_gate_ships_BR_066_BR_265(complete):
    """BR-066 (the Fate's setup side, step F), BR-004/BR-265: the Pirate names a system with
    its ships (one elsewhere is refused, state unchanged); it gets its Flagship there, its
    Loyal buildings become Free ones in their slots, a fresh starport stands on the Tractor
    Beam and the Defense Array, it gains the Pirate Hoard and Pirate Fleet, and each cluster
    in play without a Loyal ship of its gets one ship on the gate."""
    t = act_two_table(place=False)
    s = t.state
    assert s.fates[0] == PIRATE
    assert "F1202" in s.players[0].lore and "F1203" in s.players[0].guild
    prompt = next(p for p in s.prompts if p.kind == "place_flagship")
    sites = [o.params["system"] for o in prompt.options]
    assert sites == pirate.flagship_sites(s, 0)
    elsewhere = next(x for x in sorted(s.systems) if x not in sites)
    refused(t, 0, Action("place_flagship", {"system": elsewhere}))
    buildings, free_before = loyal_buildings(s, 0), sum(b.owner == FREE for h in s.systems.values() for b in h.buildings)
    ships_before = s.players[0].ships
    bare = [c.gate for c in BOX.map.clusters if c.gate in s.systems and not any(
        s.systems[x].ships_of(0).total for x in (c.gate, *(p.id for p in c.planets)) if x in s.systems)
        and c.gate != sites[0] and all(p.id != sites[0] for p in c.planets)]
    t.act(0, Action("place_flagship", {"system": sites[0]}))
    s = t.state
    ship = board_of(s, 0)
    assert ship is not None and ship.system == sites[0]
    assert loyal_buildings(s, 0) == 0
    assert sum(b.owner == FREE for h in s.systems.values() for b in h.buildings) == free_before + buildings
    content = flagship_content()
    built = [content.upgrades[i].id for i, slot in enumerate(ship.slots) if slot.upgrade is not None]
    assert sorted(built) == ["defense_array", "tractor_beam"]
    assert all(s.systems[g].ships_of(0).fresh >= 1 for g in bare)
    assert s.players[0].ships == ships_before - len(bare)
    finish_setup(t)
    sound(t)


def test_F1201_objective_counts_the_hoard_and_the_types_it_leads_BR_097(complete):
    """BR-097 (chapter-end advances): 1 per resource on the Hoard, and 1 per resource type of
    which the Hoard holds more than each Rival has (the Rivals' rows and cards counted)."""
    t = act_two_table()
    s = t.state
    for seat in range(3):
        s.players[seat].resources = [None] * len(s.players[seat].resources)
    s.supply = {r: 5 for r in s.supply}  # the emptied rows' tokens back in the supply
    s.card_resources[pirate.HOARD] = [take_from_supply(s, r) for r in ("fuel", "fuel", "relic", "weapon")]
    s.players[1].resources[0] = take_from_supply(s, "fuel")
    s.players[2].resources[0] = take_from_supply(s, "relic")
    assert pirate.hoard_types_ahead(s, 0) == ["fuel", "weapon"]
    marker = s.objective_markers[0]
    moved = objectives.advance_at_chapter_end(BOX, CBOX, s)
    assert moved[0] == 4 + 2 and s.objective_markers[0] == marker - 6


def test_F1201_two_players_count_the_ambition_boxes_as_a_rival_BR_097(complete):
    t = act_two_table(players=2)
    s = t.state
    for tokens in s.ambition_tokens.values():
        for r in tokens:
            s.supply[r] += 1
    s.ambition_tokens = {a: [] for a in s.ambition_tokens}
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "material")]
    for i, r in enumerate(s.players[1].resources):
        if r:
            s.supply[r] += 1
            s.players[1].resources[i] = None
    s.trust, s.first_regent = [], s.first_regent
    rival_row = [r for r in s.players[1].resources if r]
    assert rival_row == [] and pirate.hoard_types_ahead(s, 0) == ["material"]
    s.ambition_tokens = {**s.ambition_tokens, "tycoon": [take_from_supply(s, "material")]}
    sound(t)
    assert pirate.hoard_types_ahead(s, 0) == []


# -- F1202 Pirate Hoard ------------------------------------------------------------------------------


def raid(t, attacker: int, defender: int, system: str, keys: int):
    """A battle at its raid: the attacker holds `keys` keys against the defender there."""
    s = t.state
    for seat in (attacker, defender):
        place_ships(s, system, seat, 1)
    s.prompts, s.stack = [], []
    s.battle = Battle(attacker=attacker, defender=defender, system=system, key=keys)
    run_ctx = Ctx(s, t.rules)
    run_ctx.push(round_start)
    run_ctx.push(resolve)
    run(run_ctx)


def test_F1202_the_pirates_raid_puts_a_stolen_resource_on_the_hoard_ARCS_200(complete):
    """F1202: a resource the Pirate steals may go on its Hoard (or on its board, the base
    answer); the raid pays the slot's cost; an unknown slot is refused, state unchanged."""
    t = act_two_table()
    s = t.state
    victim = 1
    slot = next(i for i, r in enumerate(s.players[victim].resources) if r)
    resource = s.players[victim].resources[slot]
    raid(t, 0, victim, "1.1", keys=3)
    steals = [a for a in options(t, 0) if a.type == "steal"]
    assert Action("steal", {"hoard_slot": slot}) in steals and Action("steal", {"slot": slot}) in steals
    refused(t, 0, Action("steal", {"hoard_slot": 5 if slot != 5 else 4}) if s.players[victim].resources[5 if slot != 5 else 4] is None
            else Action("steal", {"hoard_slot": 99}))
    t.act(0, Action("steal", {"hoard_slot": slot}))
    s = t.state
    assert s.card_resources[pirate.HOARD] == [resource] and s.players[victim].resources[slot] is None
    sound(t)


def test_F1202_a_rival_raids_a_hoard_token_for_two_keys_and_outrage_spares_the_hoard(complete):
    """F1202: a Hoard token costs a Rival's raid 2 keys (with 1 key it is not offered); the
    Pirate's Outrage of that type leaves the Hoard alone (ARCS-191 discards the row only)."""
    from plugins.arcs.outrage import provoke_outrage

    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "relic"), take_from_supply(s, "relic")]
    provoke_outrage(pirate.box_for(s), s, 0, "relic")
    assert s.card_resources[pirate.HOARD] == ["relic", "relic"]
    raid(t, 1, 0, "1.1", keys=1)
    assert Action("steal", {"hoard": "relic"}) not in options(t, 1)
    raid(t, 1, 0, "1.1", keys=2)
    assert Action("steal", {"hoard": "relic"}) in options(t, 1)
    t.act(1, Action("steal", {"hoard": "relic"}))
    while any(p.seat == 1 and p.kind == "arcs.place_resources" for p in t.state.prompts):
        t.act(1, options(t, 1)[0])
    s = t.state
    assert s.card_resources[pirate.HOARD] == ["relic"]
    sound(t)


def test_F1202_hoard_tokens_count_for_ambitions_BR_321(complete):
    from plugins.arcs.scoring import ambition_count

    t = act_two_table()
    s = t.state
    before = ambition_count(pirate.box_for(s), s, s.players[0], "keeper")
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "relic")]
    assert ambition_count(pirate.box_for(s), s, s.players[0], "keeper") == before + 1


def test_F1202_prelude_moves_a_hoard_token_onto_the_board_to_spend_it(complete):
    """F1202: in its Prelude the Pirate moves a Hoard token into an empty slot (then spends
    it as any token); a resource the Hoard lacks is refused, state unchanged."""
    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "fuel")]
    first = open_slots(BOX, s.players[0])[0]
    if s.players[0].resources[first]:
        s.supply[s.players[0].resources[first]] += 1
        s.players[0].resources[first] = None
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    uses = [a for a in options(t, 0) if a.params.get("act") == "ability" and a.params.get("card") == pirate.HOARD]
    assert uses
    use = uses[0]
    slot = use.params["params"]["slot"]
    bad = Action(use.type, {**use.params, "params": {"resource": "psionic", "slot": slot}})
    refused(t, 0, bad)
    t.act(0, use)
    s = t.state
    assert s.players[0].resources[slot] == "fuel" and pirate.HOARD not in s.card_resources
    assert s.turn.prelude
    sound(t)


# -- F1204 Pirate Act II Resolution --------------------------------------------------------------------


def resolution_state(complete_objective: bool):
    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, r) for r in ("fuel", "relic", "weapon")]
    return t, s


def test_F1204_completed_gains_smugglers_scraps_two_and_keeps_hoard_tokens_BR_328(complete):
    """BR-328: completed, the Pirate gains Pirate Smugglers, Call to Action and Silver-Tongues
    are scrapped, the Hoard's tokens go into its empty slots and the rest to the supply."""
    from plugins.blighted_reach.fate_steps import run_side

    t, s = resolution_state(True)
    player = s.players[0]
    empty = [i for i in open_slots(BOX, player) if player.resources[i] is None]
    supply = dict(s.supply)
    run_side(ctx(s), CBOX, 0, PIRATE, "F1204", "success")
    assert "F1205" in player.guild and {"F1206", "F1207"} <= set(s.scrapped)
    kept = min(3, len(empty))
    assert sum(1 for i in empty if player.resources[i] is not None) == kept
    assert pirate.HOARD not in s.card_resources
    assert sum(s.supply.values()) == sum(supply.values()) + 3 - kept
    sound(t)


def test_F1204_failed_sends_its_cards_to_the_court_deck_and_the_hoard_to_the_supply_BR_328(complete):
    from plugins.blighted_reach.fate_steps import run_side

    t, s = resolution_state(False)
    supply = dict(s.supply)
    run_side(ctx(s), CBOX, 0, PIRATE, "F1204", "failure")
    assert "F1203" not in s.players[0].guild
    assert {"F1203", "F1205", "F1206", "F1207"} <= set(s.court_deck)
    assert pirate.HOARD not in s.card_resources
    assert s.supply["fuel"] == supply["fuel"] + 1 and s.supply["relic"] == supply["relic"] + 1
    sound(t)


# -- F1206 Call to Action, F1207 Silver-Tongues ----------------------------------------------------------


def test_F1206_crisis_the_seat_with_most_resources_draws_the_bottom_action_card():
    """F1206 Crisis: the seat with strictly the most resources (BR-322's count) draws the
    action discard's bottom card; a tie for the most draws nothing."""
    from plugins.blighted_reach.crises import CrisisCall

    state = end_act(act_one(A_FATES[:3], 3))
    for seat in range(3):
        for i, r in enumerate(state.players[seat].resources):
            if r:
                state.supply[r] += 1
                state.players[seat].resources[i] = None
    state.trust = []
    state.players[2].resources[0] = take_from_supply(state, "fuel")
    state.action_discard = ["ADM9", "MOB2"]
    effect = next(e for e in CBOX.effects_of("F1206") if e.when == "crisis")
    call = CrisisCall(box=BOX, cbox=CBOX, state=state, card="F1206", holder=-1, dice=None, effect=effect)
    out = pirate.FATE_CRISIS_HANDLERS["most_resources_draws_bottom_action"].apply(call)
    assert out["seat"] == 2 and out["drawn"] == "ADM9" and state.hands[2][-1] == "ADM9"
    assert state.action_discard == ["MOB2"]
    state.players[1].resources[0] = take_from_supply(state, "relic")
    assert pirate.most_resources(state) == -1
    out = pirate.FATE_CRISIS_HANDLERS["most_resources_draws_bottom_action"].apply(call)
    assert out["seat"] == -1 and state.action_discard == ["MOB2"]


def test_F1207_silver_tongues_is_the_base_cards_prelude_steal():
    """F1207 reprints Silver-Tongues (BC20): its Prelude discards it to steal a Guild card or a
    resource, by the base op."""
    from plugins.blighted_reach.rules_box import rules_box

    from plugins.arcs.content import default_box as base_box

    box = rules_box()
    assert [a.do for a in box.court["F1207"].abilities] == [a.do for a in base_box().court["BC20"].abilities]
    assert box.court["F1207"].suit == "psionic"


# -- bots play the Pirate ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,seed", [(3, 3), (2, 5)])
def test_bots_play_act_two_with_the_pirate_to_its_end(complete, players, seed):
    """Random bots play an Act II where seat 0 took the Pirate, from its setup (the Flagship
    placed by the bot) to the Act's end, with the invariants checked after every action."""
    from tests.blighted_reach.flow_helpers import play_out

    t = act_two_table(players=players, seed=seed, place=False)
    assert t.state.fates[0] == PIRATE
    actions = play_out(t, seed)
    assert actions > 0 and t.state.finished
    assert t.state.fate_results[0] in ("completed", "failed")  # its Resolution ran at Intermission A
