"""The Magnate (FATE03, F301-F327) through the engine: Merchant League's frozen resources,
its Crisis, the Act I objective's Summit advances, the Resolutions, the Monopolies of Act II
and the Economy of Act III. Each test names the cards (and BR checklist IDs) it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.outrage import provoke_outrage
from plugins.arcs.rounds import round_start
from plugins.arcs.scoring import ambition_count
from plugins.blighted_reach import event_flow
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.rules_box import rules_box
from tests.blighted_reach.fate_ma_tables import ADVOCATE, MAGNATE, fated_table
from tests.blighted_reach.flow_helpers import options, play_out, ready, restart_round

CBOX = campaign_box()


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def magnate_table(players: int = 3, seed: int = 1, markers: int = 20):
    """Seat 0 plays the Magnate; every objective marker on `markers` (Act I records none)."""
    t = ready(players, seed, wanted={0: MAGNATE})
    t.state.objective_markers = [markers] * players
    return t


def declare_with_league(t, resources=None):
    """Seat 0 leads CON2 declaring Tycoon; Merchant League's offer is answered (or declined)."""
    restart_round(t, [["CON2", "ADM6"], ["MOB3", "AGG4"], ["AGG3", "ADM4"]][:len(t.state.players)], initiative=0)
    t.act(0, Action("lead", {"card": "CON2"}))
    t.act(0, Action("declare", {"ambition": "tycoon"}))
    assert [p.decision for p in t.state.prompts if p.seat == 0] == ["arcs.use_ability"]
    if resources is None:
        return t.act(0, Action("use_ability", {"card": "", "index": -1, "params": {}}))
    return t.act(0, Action("use_ability", {"card": "F302", "index": 1, "params": {"resources": list(resources)}}))


# -- Act I setup and Merchant League (F301, F302) ---------------------------------------------
def test_F301_setup_gives_the_magnate_merchant_league():
    t = magnate_table()
    assert t.state.players[0].guild == ["F302"]
    assert t.state.fates[0] == MAGNATE


def test_F302_merchant_league_takes_two_frozen_resources_that_count_for_ambitions_BR_319_BR_321_BR_322():
    """On declaring, the Magnate puts any 2 resources from the supply on Merchant League: off (BR-319)
    the resource row (never spent or discarded there), counted for ambitions (BR-321) as
    part of the play area (BR-322)."""
    t = magnate_table()
    s = t.state
    supply = dict(s.supply)
    row = list(s.players[0].resources)
    tycoon = ambition_count(rules_box(), s, s.players[0], "tycoon")
    declare_with_league(t, ["fuel", "fuel"])
    s = t.state
    assert s.card_resources == {"F302": ["fuel", "fuel"]}
    assert s.supply["fuel"] == supply["fuel"] - 2
    assert s.players[0].resources == row  # not on the row: no slot can pay with them
    assert ambition_count(rules_box(), s, s.players[0], "tycoon") == tycoon + 2
    assert [p.decision for p in s.prompts if p.seat == 0] == ["arcs.act"]  # the turn goes on


def test_F302_merchant_league_may_be_declined_and_refuses_a_bad_choice_unchanged():
    t = magnate_table()
    restart_round(t, [["CON2", "ADM6"], ["MOB3", "AGG4"], ["AGG3", "ADM4"]], initiative=0)
    t.act(0, Action("lead", {"card": "CON2"}))
    t.act(0, Action("declare", {"ambition": "tycoon"}))
    before = snapshot(t)
    for params in ({"resources": ["fuel"]}, {"resources": ["fuel", "gold"]}, {"resources": ["fuel", "fuel", "fuel"]},
                   {"resources": ["material", "material", "x"]}, {"what": 1}):
        with pytest.raises(ActionRejected):
            t.act(0, Action("use_ability", {"card": "F302", "index": 1, "params": params}))
        assert snapshot(t) == before
    t.state.supply["material"] = 1
    with pytest.raises(IllegalAction):  # the supply holds one Material only
        t.act(0, Action("use_ability", {"card": "F302", "index": 1, "params": {"resources": ["material", "material"]}}))
    t.state.supply["material"] = 2
    t.act(0, Action("use_ability", {"card": "", "index": -1, "params": {}}))
    assert t.state.card_resources == {}


def test_F302_frozen_resources_survive_outrage_and_go_when_the_card_does_BR_319():
    """Provoking Outrage discards the row's tokens but not the frozen ones (BR-319). Fuel
    Outrage discards the (fuel, protected) League itself; its resources then go back to the
    supply when the round ends (reading)."""
    t = magnate_table()
    declare_with_league(t, ["relic", "weapon"])
    s = t.state
    provoke_outrage(rules_box(), s, 0, "relic")
    assert s.card_resources == {"F302": ["relic", "weapon"]}
    provoke_outrage(rules_box(), s, 0, "fuel")
    assert "F302" in s.court_discard
    relics = s.supply["relic"]
    from plugins.blighted_reach.fate_magnate import settle_card_resources
    assert settle_card_resources(s) == {"F302": ["relic", "weapon"]}
    assert s.card_resources == {} and s.supply["relic"] == relics + 1


def test_F302_crisis_discards_every_resource_on_merchant_league_BR_219():
    """A round's Crises (the flow's steps, the event die read as a Crisis) empty the League. (BR-219)"""
    t = magnate_table()
    declare_with_league(t, ["psionic", "relic"])
    s = t.state
    psionic = s.supply["psionic"]
    ctx = Ctx(s, t.rules)
    s.prompts, s.stack, s.turn = [], [], None
    ctx.push(round_start)
    ctx.push(event_flow.crises_begin, number=1, symbol="arrow")  # Blight, then held cards' Crises
    run(ctx)
    assert "card_resources_discarded" in [e.type for e in ctx.events]
    assert s.card_resources == {} and s.supply["psionic"] == psionic + 1


# -- Summits: Transfer Asset from the League, and the Act I objective (F301) ------------------
def events_then_summit(t):
    """Seat 0 (the Magnate, initiative) leads CON2; both Rivals play Event cards; seat 0
    calls the Summit and starts Negotiations."""
    restart_round(t, [["CON2", "ADM6"], ["EVENT", "MOB3"], ["EVENT", "AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "CON2"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    act(t, 0, "done")
    for seat in (1, 2):
        t.act(seat, Action("play", {"card": "EVENT", "kind": "event"}))
        if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
            t.act(seat, Action("seize", {"card": ""}))
        act(t, seat, "done")
    t.act(0, Action("call_summit", {"call": True}))
    t.act(0, Action("call_to_order", {"kind": "start_negotiations"}))


def negotiate(t, seat, parts):
    return t.act(seat, Action("negotiate", {"move": "propose", "parts": list(parts)}))


def consent_all(t):
    """Every consent given, then every resource received placed (first legal row)."""
    while any(p.kind == "consent" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "consent")
        t.act(p.seat, Action("consent", {"proposal": p.group, "accept": True}))
    while any(p.kind == "arcs.place_resources" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "arcs.place_resources")
        t.act(p.seat, options(t, p.seat)[0])


def done(t, seat):
    return t.act(seat, Action("negotiate", {"move": "done"}))


def give_row(t, seat, row):
    """Arrange the seat's resource row (the supply pays for it)."""
    s = t.state
    for r in s.players[seat].resources:
        if r:
            s.supply[r] += 1
    for r in row:
        if r:
            s.supply[r] -= 1
    s.players[seat].resources = list(row) + [None] * (6 - len(row))


def slot_of(t, seat, resource):
    return t.state.players[seat].resources.index(resource)


def test_F302_transfer_asset_gives_a_merchant_league_resource_in_a_summit_BR_319_BR_204():
    """BR-319, BR-204."""
    t = magnate_table()
    t.state.card_resources = {"F302": ["relic"]}
    t.state.supply["relic"] -= 1
    events_then_summit(t)
    negotiate(t, 0, [{"kind": "transfer_asset", "giver": 0, "receiver": 1, "asset": "resource",
                      "source": "card", "card": "F302", "resource": "relic"}])
    consent_all(t)
    s = t.state
    assert s.card_resources == {}
    assert "relic" in s.players[1].resources or any("relic" in w.tokens for w in s.placing)


def test_F302_a_league_resource_not_there_or_on_a_rivals_card_is_refused_unchanged():
    t = magnate_table()
    t.state.card_resources = {"F302": ["relic"]}
    t.state.supply["relic"] -= 1
    events_then_summit(t)
    before = snapshot(t)
    bad = [{"kind": "transfer_asset", "giver": 0, "receiver": 1, "asset": "resource", "source": "card",
            "card": "F302", "resource": "fuel"},
           {"kind": "transfer_asset", "giver": 1, "receiver": 0, "asset": "resource", "source": "card",
            "card": "F302", "resource": "relic"}]
    for part in bad:
        with pytest.raises(ActionRejected):
            negotiate(t, 0, [part])
        assert snapshot(t) == before


def test_F301_close_deals_advances_two_per_rival_gift_but_not_for_a_gift_returned():
    """A Rival's resource or Favor advances the Magnate 2 each; a resource the Magnate gave that
    Rival in this Summit coming back does not."""
    t = magnate_table()
    events_then_summit(t)
    give_row(t, 0, ["weapon"])
    give_row(t, 1, ["material"])
    give_row(t, 2, [])
    material = slot_of(t, 1, "material")
    negotiate(t, 0, [{"kind": "promise_favor", "giver": 1, "receiver": 0},
                     {"kind": "transfer_asset", "giver": 1, "receiver": 0, "asset": "resource", "slot": material}])
    consent_all(t)
    assert t.state.objective_markers[0] == 16  # 2 gifts, 2 each
    weapon = slot_of(t, 0, "weapon")
    done(t, 1)  # seat 1's turn
    done(t, 2)
    negotiate(t, 0, [{"kind": "transfer_asset", "giver": 0, "receiver": 2, "asset": "resource", "slot": weapon}])
    consent_all(t)
    assert t.state.objective_markers[0] == 16  # giving advances nothing
    back = slot_of(t, 2, "weapon")
    done(t, 1)
    negotiate(t, 2, [{"kind": "transfer_asset", "giver": 2, "receiver": 0, "asset": "resource", "slot": back}])
    consent_all(t)
    assert t.state.objective_markers[0] == 16  # the Weapon the Magnate gave seat 2 came back: no advance


def test_F301_export_discards_three_resources_and_advances_two():
    t = magnate_table()
    events_then_summit(t)
    give_row(t, 0, ["weapon", "material", "relic"])
    s = t.state
    choices = [a.params for a in options(t, 0) if a.params.get("move") == "fate"]
    assert choices and choices[0]["name"] == "export"
    supply = dict(s.supply)
    t.act(0, Action("negotiate", {"move": "fate", "name": "export", "choice": {"slots": [0, 1, 2]}}))
    s = t.state
    assert s.players[0].resources == [None] * 6
    assert s.supply["relic"] == supply["relic"] + 1 and s.objective_markers[0] == 18


def test_F301_a_bad_export_is_refused_unchanged_and_only_the_magnate_exports_BR_319():
    """BR-319."""
    t = magnate_table()
    events_then_summit(t)
    give_row(t, 0, ["weapon", "material"])
    s = t.state
    s.card_resources = {"F302": ["relic"]}
    s.supply["relic"] -= 1
    before = snapshot(t)
    for choice in ({"slots": [0, 1]}, {"slots": [0, 1, 2]}, {"slots": [0, 0, 1]}, {"cards": ["F302"]}):
        with pytest.raises(ActionRejected):
            t.act(0, Action("negotiate", {"move": "fate", "name": "export", "choice": choice}))
        assert snapshot(t) == before
    with pytest.raises(BadParameter):
        t.act(0, Action("negotiate", {"move": "fate", "name": "smuggle", "choice": {}}))
    done(t, 0)
    give_row(t, 1, ["weapon", "material", "fuel"])
    with pytest.raises(IllegalAction):
        t.act(1, Action("negotiate", {"move": "fate", "name": "export", "choice": {"slots": [0, 1, 2]}}))


# -- bot games ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players,seed", [(2, 1), (2, 40), (3, 1), (3, 40), (4, 1), (4, 40)])
def test_bot_games_with_the_magnate_and_the_advocate_finish_act_one(players, seed):
    """Random bots play Act I to its end with both Fates at the table; the invariants hold
    after every action (play_out checks them)."""
    t, used = fated_table(players, seed, {0: MAGNATE, 1: ADVOCATE})
    play_out(t, used)
    assert t.state.finished and t.state.chapter == 3


# -- the Act I Resolution (F303) and Intermission C ---------------------------------------------
def played(chosen, markers, seed=3):
    from tests.blighted_reach.campaign_tables import act_one, end_act

    state = end_act(act_one(chosen, seed))
    state.objective_markers = list(markers)
    return state


def _to_discard(state, card):
    for pile in (state.court_deck, state.court_row):
        if card in pile:
            pile.remove(card)
    state.court_agents.pop(card, None)
    state.court_discard.append(card)


def test_F303_completed_brings_the_brokers_to_court_keeps_the_cartels_and_returns_the_interests_BR_328():
    """BR-328."""
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.fate_steps import unplayed
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = played([MAGNATE, ADVOCATE, "FATE01"], [0, 0, 0])
    _to_discard(state, "CC01")
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F304", "F305", "F306", "CC01"} <= set(state.court_deck) and "CC01" not in state.court_discard
    assert {"F307", "F308", "F309", "F310", "F311"} <= set(unplayed(CB, state, MAGNATE))
    assert not {"F307", "F308", "F309", "F310", "F311"} & set(state.court_deck)
    sound(state)


def test_F303_failed_scraps_the_brokers_and_sends_the_cartels_to_court_BR_328():
    """BR-328."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = played([MAGNATE, ADVOCATE, "FATE01"], [6, 0, 0])
    _to_discard(state, "CC04")
    power = state.players[0].power
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F304", "F305", "F306"} <= set(state.scrapped)
    assert {"F307", "F308", "F309", "F310", "F311"} <= set(state.court_deck)
    assert "CC04" in state.court_discard  # only a completed objective brings it back
    assert state.players[0].power == power - 6  # BR-090
    sound(state)


def test_F302_merchant_league_resources_return_to_the_supply_at_intermission_BR_337():
    """BR-337."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import BOX as B, CBOX as CB, ctx as flow_ctx, sound

    state = played([MAGNATE, ADVOCATE, "FATE01"], [0, 0, 0])
    state.card_resources = {"F302": ["relic", "fuel"]}
    state.supply["relic"] -= 1
    state.supply["fuel"] -= 1
    relic = state.supply["relic"]
    im.resolve_fates(flow_ctx(state), CB)
    im.clear_court(CB, state)
    im.clear_pieces(B, CB, state)
    assert state.card_resources == {} and state.supply["relic"] == relic + 1
    sound(state)


# -- Act II: the Monopolies (F312-F320), the Cartels and brokers (F304-F311) --------------------
def act_two(results=None, seed=3):
    from tests.blighted_reach.fate_ma_tables import later_act_table

    return later_act_table([MAGNATE, ADVOCATE, "FATE01"], seed=seed, results=results)


def run_steps(t, *steps):
    """Run flow steps on the table as the round's end would (then the next round starts)."""
    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    for step, args in reversed(steps):
        ctx.push(step, **args)
    run(ctx)
    return ctx.events


def gain_monopolies(t):
    return run_steps(t, (event_flow.edict, {"card": "F318", "do": "handler", "handler": "gain_monopolies"}))


def test_F312_setup_puts_the_monopolies_in_the_supply_and_the_laws_in_the_booklet():
    t = act_two()
    s = t.state
    assert s.monopoly_supply == ["F313", "F314", "F315", "F316", "F317"]
    assert all([c] in s.booklet for c in ("F318", "F319", "F320"))
    assert s.play_area[0] == []


def test_F318_gain_monopolies_gives_a_monopoly_for_more_than_half_and_F312_advances_1():
    """3 of the 5 Material is more than half: the Magnate takes the Material Monopoly from the
    supply (Corner the Market: +1); a Rival later having 3 takes it from them (no advance)."""
    t = act_two()
    give_row(t, 0, ["material", "material", "material"])
    give_row(t, 1, ["material"])
    events = gain_monopolies(t)
    s = t.state
    assert "F313" in s.play_area[0] and "F313" not in s.monopoly_supply
    assert "monopoly_gained" in [e.type for e in events]
    assert s.objective_markers[0] == 19
    give_row(t, 0, [])
    give_row(t, 1, ["material", "material", "material"])
    gain_monopolies(t)
    s = t.state
    assert "F313" in s.play_area[1] and "F313" not in s.play_area[0] and s.objective_markers[0] == 19


def test_F318_frozen_and_trust_resources_count_and_two_players_count_fewer_in_play_BR_322():
    """BR-322."""
    t = act_two()
    give_row(t, 0, ["fuel", "fuel"])
    t.state.card_resources = {"F302": ["fuel"]}
    t.state.supply["fuel"] -= 1
    gain_monopolies(t)
    assert "F314" in t.state.play_area[0]  # 2 on the row + 1 frozen on Merchant League = 3 of 5


def test_F313_F317_monopolies_count_their_supply_and_F320_war_profiteering_counts_weapons():
    t = act_two()
    give_row(t, 0, ["material"])
    give_row(t, 1, ["weapon"])
    s = t.state
    p0, p1 = s.players[0], s.players[1]
    tycoon = ambition_count(rules_box(), s, p0, "tycoon")  # the row, and Merchant League's Fuel suit
    s.monopoly_supply.remove("F313")
    s.play_area[0].append("F313")
    s.monopoly_supply.remove("F317")
    s.play_area[1].append("F317")
    assert ambition_count(rules_box(), s, p0, "tycoon") == tycoon + s.supply["material"]
    trophies = len(p1.trophies)
    weapon_cards = sum(rules_box().court[c].suit == "weapon" for c in p1.guild)
    # Warlord: Trophies, with War Profiteering the Weapon held and Weapon cards, and the
    # Weapon supply on the Weapon Monopoly
    assert ambition_count(rules_box(), s, p1, "warlord") == trophies + 1 + weapon_cards + s.supply["weapon"]
    slot = next(i for i, c in enumerate(s.booklet) if c == ["F320"])
    s.booklet.pop(slot)
    assert ambition_count(rules_box(), s, p1, "warlord") == trophies + s.supply["weapon"]


def test_F312_hold_it_advances_1_per_monopoly_at_a_chapters_end():
    from plugins.blighted_reach import objectives

    t = act_two()
    s = t.state
    for card in ("F313", "F315"):
        s.monopoly_supply.remove(card)
        s.play_area[0].append(card)
    moved = objectives.advance_at_chapter_end(rules_box(), CBOX, s)
    assert moved[0] == 2 and s.objective_markers[0] == 18


def test_F319_giving_a_monopolised_resource_needs_the_holders_consent():
    """In Negotiations a Transfer Asset of Material waits for the Material Monopoly's holder
    too (a third seat here)."""
    t = act_two()
    s = t.state
    s.monopoly_supply.remove("F313")
    s.play_area[2].append("F313")
    give_row(t, 0, ["material"])
    give_row(t, 1, ["fuel"])
    events_then_summit(t)
    negotiate(t, 0, [{"kind": "transfer_asset", "giver": 0, "receiver": 1, "asset": "resource", "slot": 0}])
    assert sorted(p.seat for p in t.state.prompts if p.kind == "consent") == [1, 2]
    group = next(p for p in t.state.prompts if p.kind == "consent").group
    t.act(2, Action("consent", {"proposal": group, "accept": False}))  # the holder refuses: nothing moves
    assert t.state.players[0].resources[0] == "material"


def test_F319_forcing_a_monopolised_resource_costs_one_favor_of_the_holder():
    from plugins.arcs.lore_ops import slot_raid_cost
    from plugins.blighted_reach import summits

    t = act_two()
    s = t.state
    s.monopoly_supply.remove("F313")
    s.play_area[2].append("F313")
    give_row(t, 1, ["material"])
    part = summits.TransferAsset(giver=1, receiver=0, asset="resource", slot=0)
    raid_cost = slot_raid_cost(rules_box(), s, 1, 0)
    assert summits.favors_to_force(rules_box(), CBOX, s, 0, part) == {1: raid_cost, 2: 1}
    assert summits.favors_to_force(rules_box(), CBOX, s, 2, part) == {1: raid_cost}  # the holder forces it
    s.booklet.remove(["F319"])
    with pytest.raises(summits.NotTradeable):
        summits.favors_to_force(rules_box(), CBOX, s, 0, part)


def test_F304_to_F308_reprints_play_with_the_base_cards_abilities():
    from plugins.arcs.content import default_box

    base = default_box().court
    for card, of in (("F304", "BC23"), ("F305", "BC24"), ("F306", "BC12"), ("F307", "BC03"), ("F308", "BC06")):
        assert rules_box().court[card].abilities == base[of].abilities
        assert rules_box().court[card].kind == "guild"


def test_F309_to_F311_cartels_hold_their_supply_discard_rivals_and_steal():
    """The Weapon, Psionic and Relic Cartels: their supply counts toward the matching
    ambition (Weapon toward Warlord), after scoring every Rival discards that resource,
    and the Prelude discards the card to steal 1 of it."""
    from plugins.arcs import court_flow

    t = act_two()
    s = t.state
    for card in ("F309", "F310", "F311"):
        for pile in (s.court_deck, s.court_row):
            if card in pile:
                pile.remove(card)
    s.players[0].guild += ["F309", "F310", "F311"]
    give_row(t, 1, ["weapon", "psionic", "relic"])
    p0 = s.players[0]
    assert ambition_count(rules_box(), s, p0, "empath") >= s.supply["psionic"]
    assert ambition_count(rules_box(), s, p0, "keeper") >= s.supply["relic"]
    warlord_without = len(p0.trophies) + s.supply["weapon"]
    assert ambition_count(rules_box(), s, p0, "warlord") >= warlord_without
    run_steps(t, (court_flow.after_scoring, {"scored": []}))
    assert t.state.players[1].resources[:3] == [None, None, None]


# -- the Act II Resolution (F321) ---------------------------------------------------------------
def ended_act_two(markers):
    from tests.blighted_reach.campaign_tables import end_act

    t = act_two()
    state = end_act(t.state)
    state.objective_markers = list(markers)
    state.prompts, state.stack, state.turn = [], [], None
    return state


def test_F321_completed_gains_prospectors_and_scraps_the_cartels_and_extortions_BR_328():
    """BR-328."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = ended_act_two([0, 0, 0])
    _to_discard(state, "CC04")
    im.resolve_fates(flow_ctx(state), CB)
    assert "F322" in state.players[0].guild
    assert {"F307", "F308", "F309", "F310", "F311", "F323", "F324"} <= set(state.scrapped)
    assert "CC04" in state.court_deck
    sound(state)


def test_F321_failed_scraps_unheld_monopolies_and_sends_their_cartels_to_court_BR_328():
    """Failed with the Material Monopoly held: the four others (in the supply) are scrapped, (BR-328)
    their Cartels (Fuel, Relic, Psionic, Weapon) join the Court deck, the Material Cartel is
    scrapped; Prospectors scrapped; the Extortions join the Court deck."""
    from plugins.blighted_reach import intermission as im
    from tests.blighted_reach.campaign_tables import CBOX as CB, ctx as flow_ctx, sound

    state = ended_act_two([7, 0, 0])
    state.monopoly_supply.remove("F313")
    state.play_area[1].append("F313")
    im.resolve_fates(flow_ctx(state), CB)
    assert {"F314", "F315", "F316", "F317", "F322", "F307"} <= set(state.scrapped)
    assert "F313" in state.play_area[1] and state.monopoly_supply == []
    assert {"F308", "F309", "F310", "F311", "F323", "F324"} <= set(state.court_deck)
    assert "F307" not in state.court_deck
    sound(state)


# -- Act III (F322-F327) ------------------------------------------------------------------------
def act_three(results=None, seed=3):
    from tests.blighted_reach.fate_ma_tables import later_act_table

    t = later_act_table([MAGNATE, ADVOCATE], seed=seed, results=results, act=3)
    if any(p.kind == "mulligan" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "mulligan")
        t.act(p.seat, Action("mulligan", {"redraw": False}))
    return t


def vox_in_court(t, card, agents_of=None, agents=0):
    """Put a Vox card in the Court row's second place (the card there back into the deck)."""
    s = t.state
    for pile in (s.court_deck, s.court_discard, s.scrapped):
        if card in pile:
            pile.remove(card)
    old = s.court_row[1]
    s.court_deck.append(old)
    s.court_row[1] = card
    s.court_agents[card] = s.court_agents.pop(old)
    for owner, n in enumerate(s.court_agents[card]):
        s.players[owner].agents += n
    s.court_agents[card] = [0] * len(s.players)
    if agents_of is not None:
        s.court_agents[card][agents_of] = agents
        s.players[agents_of].agents -= agents


def test_F325_setup_tucks_the_economy_by_title_and_adds_the_economy_law():
    from plugins.blighted_reach.fate_magnate import economy_side

    t = act_three()
    s = t.state
    assert "F326" in s.play_area[0] and ["F327"] in s.booklet
    assert economy_side(s) == ("closed" if s.titles[0] == "regent" else "open")
    s.titles[0] = "outlaw"
    assert economy_side(s) == "open"  # it flips with the Magnate's title


def test_F325_grand_ambitions_are_one_and_two_monopolies():
    from plugins.blighted_reach import objectives

    t = act_three()
    s = t.state
    assert objectives.goals_fulfilled(rules_box(), CBOX, s, 0) == 0
    s.monopoly_supply.remove("F313")
    s.play_area[0].append("F313")
    assert objectives.goals_fulfilled(rules_box(), CBOX, s, 0) == 1
    s.monopoly_supply.remove("F314")
    s.play_area[0].append("F314")
    assert objectives.goals_fulfilled(rules_box(), CBOX, s, 0) == 2


def test_F325_after_scoring_the_magnate_scraps_a_monopoly_and_all_their_resources_of_its_type():
    """After the chapter's scoring the Magnate picks one of their Monopolies: it and every
    Material they have (row, Merchant League) leave the campaign; Rivals keep theirs."""
    from plugins.arcs.rounds import chapter_end

    t = act_three()
    s = t.state
    for card in ("F313", "F315"):
        s.monopoly_supply.remove(card)
        s.play_area[0].append(card)
    give_row(t, 0, ["material", "relic"])
    give_row(t, 1, ["material"])
    s.card_resources = {"F302": ["material"]}
    s.supply["material"] -= 1
    s.hands = [[], []]
    run_steps(t, (chapter_end, {}))
    prompt = next(p for p in t.state.prompts if p.kind == "scrap_monopoly")
    assert prompt.seat == 0 and sorted(o.params["card"] for o in prompt.options) == ["F313", "F315"]
    with pytest.raises(ActionRejected):
        t.act(0, Action("scrap_monopoly", {"card": "F314"}))
    t.act(0, Action("scrap_monopoly", {"card": "F313"}))
    s = t.state
    assert "F313" in s.scrapped and "F315" in s.play_area[0]
    assert s.scrapped_resources == ["material", "material"]
    assert "material" not in s.players[0].resources and s.card_resources == {}
    assert "material" in s.players[1].resources


def test_F323_extortion_crisis_makes_the_leaders_of_each_type_discard_one_and_discards_itself():
    t = act_three()
    give_row(t, 0, ["material", "material", "fuel"])
    give_row(t, 1, ["material", "material", "fuel", "relic"])
    vox_in_court(t, "F323")
    events = run_steps(t, (event_flow.court_crisis, {"card": "F323", "number": 1, "symbol": "arrow", "answers": {}}))
    s = t.state
    assert s.players[0].resources.count("material") == 1 and s.players[1].resources.count("material") == 1  # tied
    assert "fuel" not in s.players[0].resources and "fuel" not in s.players[1].resources
    assert "relic" not in s.players[1].resources
    assert "F323" in s.court_discard and "extortion" in [e.type for e in events]


def test_F324_extortion_when_secured_steals_one_resource_even_a_frozen_one_BR_320():
    """BR-320."""
    t = act_three()
    give_row(t, 0, ["weapon"])
    t.state.card_resources = {"F302": ["relic"]}
    t.state.supply["relic"] -= 1
    vox_in_court(t, "F324", agents_of=1, agents=2)
    restart_round(t, [["CON3", "ADM4"], ["AGG4", "ADM6"]], initiative=1)
    t.act(1, Action("lead", {"card": "AGG4"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(1, Action("declare", {"ambition": ""}))
    act(t, 1, "secure", card="F324")
    offered = [a.params["params"] for a in options(t, 1) if a.type == "use_ability"]
    assert {"rival": 0, "source": "card", "card": "F302", "resource": "relic"} in offered
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(1, Action("use_ability", {"card": "F324", "index": 2, "params": {"rival": 0, "slot": 5}}))
    assert snapshot(t) == before
    t.act(1, Action("use_ability", {"card": "F324", "index": 2,
                                    "params": {"rival": 0, "source": "card", "card": "F302", "resource": "relic"}}))
    s = t.state
    assert s.card_resources == {} and "F324" in s.court_discard
    assert "relic" in s.players[1].resources or any("relic" in w.tokens for w in s.placing)


def empire_city_of(t, seat):
    """A system with the seat's city and a fresh Imperial ship (the Empire controls it)."""
    s = t.state
    return next((sy, i) for sy, h in sorted(s.systems.items()) for i, b in enumerate(h.buildings)
                if b.owner == seat and b.kind == "city" and sy in s.imperial and s.imperial[sy].fresh)


def lead_for(t, seat, card):
    hands = [["CON3", "MOB2"], ["CON4", "ADM6"]]
    hands[seat] = [card, "AGG4"]
    restart_round(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))


def test_F326_F327_closed_economy_other_regents_tax_no_empire_city_without_its_monopoly():
    from plugins.blighted_reach.fate_magnate import monopoly_resource

    t = act_three()
    system, city = empire_city_of(t, 1)
    lead_for(t, 1, "ADM4")
    before = snapshot(t)
    with pytest.raises(IllegalAction):
        act(t, 1, "tax", system=system, building=city)
    assert snapshot(t) == before
    kind = rules_box().systems[system].type
    card = next(c for c in t.state.monopoly_supply if monopoly_resource(c) == kind)
    t.state.monopoly_supply.remove(card)
    t.state.play_area[1].append(card)
    act(t, 1, "tax", system=system, building=city)  # with the matching Monopoly it may


def test_F326_F327_open_economy_loyal_cities_and_the_magnates_taxes_repeat_in_a_turn():
    t = act_three()
    s = t.state
    s.titles[0], s.first_regent = "outlaw", 1  # the Magnate turned Outlaw: Open Economy
    system, city = empire_city_of(t, 1)
    lead_for(t, 1, "ADM4")
    act(t, 1, "tax", system=system, building=city)
    act(t, 1, "tax", system=system, building=city)  # a Loyal city, taxed twice
    t2 = act_three()
    s = t2.state
    s.titles[0], s.first_regent = "outlaw", 1
    system, city = empire_city_of(t2, 1)
    s.systems[system].ships[0].fresh += 2  # the Magnate controls the Advocate's city's system
    s.players[0].ships -= 2
    s.imperial_supply += s.imperial.pop(system).total  # an Outlaw never controls where the Empire does (BR-120)
    lead_for(t2, 0, "ADM4")
    act(t2, 0, "tax", system=system, building=city)
    act(t2, 0, "tax", system=system, building=city)  # the Magnate taxes a Rival city again
    assert t2.state.players[0].captives.count(1) == 2


def test_F326_with_the_magnate_a_regent_a_loyal_city_is_taxed_once_a_turn_ARCS_141():
    t = act_three()
    s = t.state
    system, city = next((sy, i) for sy, h in sorted(s.systems.items()) for i, b in enumerate(h.buildings)
                        if b.owner == 0 and b.kind == "city")
    lead_for(t, 0, "ADM4")
    act(t, 0, "tax", system=system, building=city)
    with pytest.raises(IllegalAction):
        act(t, 0, "tax", system=system, building=city)


def test_F322_prospectors_build_a_city_without_loyal_pieces_unless_holding_its_monopoly():
    from plugins.blighted_reach.fate_magnate import monopoly_resource

    t = act_three()
    s = t.state
    assert "F322" in s.players[0].guild  # gained at F321 (completed)
    bx = rules_box()
    system = next(sy for sy, h in sorted(s.systems.items()) if bx.systems[sy] is not None
                  and len(h.buildings) < bx.systems[sy].slots and not h.ships_of(0).total
                  and not any(b.owner == 0 for b in h.buildings))
    kind = bx.systems[system].type
    card = next(c for c in s.monopoly_supply if monopoly_resource(c) == kind)
    s.monopoly_supply.remove(card)
    s.play_area[0].append(card)
    lead_for(t, 0, "CON3")
    before = snapshot(t)
    with pytest.raises(IllegalAction):  # holding that planet's Monopoly: the usual rule
        act(t, 0, "build", system=system, what="city")
    assert snapshot(t) == before
    t.state.play_area[0].remove(card)
    t.state.monopoly_supply.append(card)
    act(t, 0, "build", system=system, what="city")
    assert any(b.owner == 0 and b.kind == "city" for b in t.state.systems[system].buildings)


@pytest.mark.parametrize("act,seed", [(2, 3), (2, 5), (3, 3), (3, 5)])
def test_bot_games_of_acts_two_and_three_with_the_magnate_and_the_advocate(act, seed):
    """Random bots play a later Act with both Fates (2 players) to its end: the Monopolies,
    Liaisons, Economy, Guildmasters... offered to bots never break an invariant."""
    from tests.blighted_reach.fate_ma_tables import later_act_table

    t = later_act_table([MAGNATE, ADVOCATE], seed=seed, act=act)
    play_out(t, seed)
    assert t.state.finished and t.state.result["act"] == act
