"""The rulebook's worked examples played through the engine: a table arranged as the example
describes (pieces moved only from and to their supplies), then every choice in it answered
with `t.act` by the seat the example names, as a client would. Lotus is seat 0, Dane 1,
Mikah 2 and Baz 3. Each test names the example's BR checklist ID and the rules it leans on.
The same examples are also tested on the pure rules modules (test_summits, test_crises,
test_edicts, test_intermission, ...); these prove the flow asks the right seat the right
question and applies the answer."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.setup import empty_slots, place_building, take_resource
from plugins.blighted_reach import summits
from plugins.blighted_reach.favors import favors_of
from tests.blighted_reach.empire_fate_tables import place_tokens, to_court
from tests.blighted_reach.flow_helpers import ready, restart_round
from tests.blighted_reach.test_event_flow import events_round

LOTUS, DANE, MIKAH, BAZ = 0, 1, 2, 3


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def blocking(t):
    (prompt,) = [p for p in t.state.prompts if p.blocking]
    return prompt


def answer(t, kind: str, **params):
    """The waiting prompt of that kind, answered by its own seat."""
    prompt = next(p for p in t.state.prompts if p.kind == kind)
    return t.act(prompt.seat, Action(kind, params))


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def pivot(t, seat, card):
    t.act(seat, Action("play", {"card": card, "kind": "pivot"}))
    if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
        t.act(seat, Action("seize", {"card": ""}))


def put_agents(t, seat: int, card: str, n: int) -> None:
    t.state.court_agents[card][seat] += n
    t.state.players[seat].agents -= n


def lotus_secures_the_council(t) -> list:
    """A round in which Dane leads, the other Rivals pivot and Lotus, with the Council's only
    agents, secures it with the last action of the round."""
    hands = [["AGG3", "ADM6"], ["MOB3", "CON4"], ["ADM4", "CON5"], ["ADM2", "CON3"]][:len(t.state.players)]
    restart_round(t, hands, initiative=DANE)
    put_agents(t, LOTUS, summits.IN_SESSION, 2)
    t.act(DANE, Action("lead", {"card": "MOB3"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(DANE, Action("declare", {"ambition": ""}))
    act(t, DANE, "done")
    for seat in range(MIKAH, len(hands)):
        pivot(t, seat, hands[seat][0])
        act(t, seat, "done")
    pivot(t, LOTUS, "AGG3")
    return act(t, LOTUS, "secure", card=summits.IN_SESSION)


def free_slot_system(t) -> str:
    box = box_for(t.state)
    return next(s for s, x in sorted(t.state.systems.items())
                if box.systems[s] is not None and len(x.buildings) < box.systems[s].slots)


# -- Summits -----------------------------------------------------------------------------------
def test_BR_190_BR_192_lotus_forces_danes_relic_with_two_favors_then_petitions_the_council():
    """BR-190: Lotus, who called the Summit by securing the Council, returns 2 of Dane's Favors
    to force him to give them his Relic (its slot's raid cost is 2, BR-189; no consent asked,
    BR-188). BR-192: Lotus then petitions the Council back to In Session (BR-191), though the
    Council is what let them call the Summit (BR-166)."""
    t = ready(3, seed=1)
    place_building(t.state, free_slot_system(t), DANE, "city")  # Dane's 4th slot (raid cost 2) opens
    assert take_resource(box_for(t.state), t.state, DANE, "relic", 3)
    assert summits.give_favor(t.state, LOTUS, DANE) and summits.give_favor(t.state, LOTUS, DANE)
    sound(t)
    lotus_secures_the_council(t)
    assert (blocking(t).seat, blocking(t).kind) == (LOTUS, "call_summit")  # the securer, BR-166
    t.act(LOTUS, Action("call_summit", {"call": True}))
    relic = {"kind": "transfer_asset", "giver": DANE, "receiver": LOTUS, "asset": "resource", "slot": 3}
    order = blocking(t)
    assert order.seat == LOTUS and Action("call_to_order", {"kind": "return_favors", "rival": DANE,
                                                            "parts": [relic]}) in order.options
    dane_agents = t.state.players[DANE].agents
    events = t.act(LOTUS, Action("call_to_order", {"kind": "return_favors", "rival": DANE, "parts": [relic]}))
    forced = [e.data for e in events if e.type == "favor_forced"]
    assert forced and forced[0]["resource"] == "relic"
    assert favors_of(t.state, LOTUS) == [] and t.state.players[DANE].agents == dane_agents + 2  # both Favors home
    assert t.state.players[DANE].resources[3] is None
    assert not any(p.kind == "consent" for p in t.state.prompts)  # forced: Dane is not asked (BR-188)
    place_tokens(t)  # Lotus places the Relic
    assert "relic" in t.state.players[LOTUS].resources
    assert t.state.council == summits.DECIDED
    t.act(LOTUS, Action("call_to_order", {"kind": "petition_council"}))
    assert t.state.council == t.state.court_row[0] == summits.IN_SESSION  # BR-192
    assert Action("call_to_order", {"kind": "petition_council"}) not in blocking(t).options  # once is enough
    sound(t)


def test_BR_209_mikah_and_dane_swap_an_agent_for_two_ships_all_at_once():
    """BR-209: in Negotiations Mikah proposes that Dane replace 1 of his agents on Construction
    Union with hers (Delegate Authority, BR-202) while she replaces 2 of her Loyal ships with
    his (Cede Control twice); only Dane is asked (BR-208) and, on his yes, all of it happens at
    once, every piece from and back to its own supply (BR-207)."""
    t = ready(3, seed=1)
    union = "CC02"
    if union not in t.state.court_row:  # drawn from the Court deck into the row's last place
        t.state.court_deck.remove(union)
        to_court(t, union)
    put_agents(t, DANE, union, 1)
    system = next(x for x, here in sorted(t.state.systems.items()) if here.ships_of(MIKAH).fresh >= 2)
    mikahs, danes = t.state.systems[system].ships_of(MIKAH).fresh, t.state.systems[system].ships_of(DANE).fresh
    supplies = (t.state.players[DANE].ships, t.state.players[MIKAH].ships, t.state.players[DANE].agents, t.state.players[MIKAH].agents)
    events_round(t)
    t.act(LOTUS, Action("call_summit", {"call": True}))
    t.act(LOTUS, Action("call_to_order", {"kind": "start_negotiations"}))
    t.act(LOTUS, Action("negotiate", {"move": "done"}))
    t.act(DANE, Action("negotiate", {"move": "done"}))
    deal = [{"kind": "delegate_authority", "giver": DANE, "receiver": MIKAH, "card": union},
            {"kind": "cede_control", "giver": MIKAH, "receiver": DANE, "system": system, "piece": "ship"},
            {"kind": "cede_control", "giver": MIKAH, "receiver": DANE, "system": system, "piece": "ship"}]
    t.act(MIKAH, Action("negotiate", {"move": "propose", "parts": deal}))
    consents = [p for p in t.state.prompts if p.kind == "consent"]
    assert [p.seat for p in consents] == [DANE]
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # Lotus is not part of it
        t.act(LOTUS, Action("consent", {"proposal": consents[0].group, "accept": True}))
    assert snapshot(t) == before
    events = t.act(DANE, Action("consent", {"proposal": consents[0].group, "accept": True}))
    assert "deal_done" in [e.type for e in events]
    assert t.state.court_agents[union][DANE] == 0 and t.state.court_agents[union][MIKAH] == 1
    assert t.state.systems[system].ships_of(MIKAH).fresh == mikahs - 2
    assert t.state.systems[system].ships_of(DANE).fresh == danes + 2
    assert (t.state.players[DANE].ships, t.state.players[MIKAH].ships, t.state.players[DANE].agents, t.state.players[MIKAH].agents) == \
        (supplies[0] - 2, supplies[1] + 2, supplies[2] + 1, supplies[3] - 1)
    sound(t)


def fill_trust(t, *resources: str) -> None:
    for r in resources:
        t.state.supply[r] -= 1
        t.state.trust.append(r)


def test_BR_171_a_first_regent_secures_the_council_leaves_the_empire_and_robs_the_trust():
    """BR-171: Lotus, the First Regent, secures the Council; in the Summit it brings they Leave
    the Empire (BR-193), the First Regent tile going to the Regent with the most Power (Mikah,
    6 against Dane's 4); then, an Outlaw, Lotus steals 3 resources from the Trust (BR-168: up to
    one per empty slot) and Mikah, the new First Regent, loses 3 Power."""
    from tests.blighted_reach.edict_tables import clear_row

    t = ready(3, seed=1)
    t.state.first_regent = LOTUS
    fill_trust(t, "material", "relic", "psionic", "fuel")
    clear_row(t.state, LOTUS)
    t.state.players[DANE].power, t.state.players[MIKAH].power = 4, 6
    sound(t)
    lotus_secures_the_council(t)
    t.act(LOTUS, Action("call_summit", {"call": True}))
    events = t.act(LOTUS, Action("call_to_order", {"kind": "leave_the_empire"}))
    left = next(e.data for e in events if e.type == "left_the_empire")
    assert left["first_regent"] == MIKAH and t.state.titles[LOTUS] == "outlaw"
    assert sorted(t.state.trust) == ["fuel", "material", "psionic", "relic"]  # the Trust stays put
    t.act(LOTUS, Action("call_to_order", {"kind": "start_negotiations"}))
    for seat in (LOTUS, DANE, MIKAH):
        t.act(seat, Action("negotiate", {"move": "done"}))
    theft = blocking(t)
    assert (theft.seat, theft.kind) == (LOTUS, "steal_trust")
    limit = len(empty_slots(box_for(t.state), t.state.players[LOTUS]))
    assert max(len(o.params["resources"]) for o in theft.options) == min(limit, 4)  # one per empty slot
    events = t.act(LOTUS, Action("steal_trust", {"resources": ["material", "psionic", "relic"]}))
    stolen = next(e.data for e in events if e.type == "trust_stolen")
    assert stolen["power_lost"] == 3 and stolen["first_regent"] == MIKAH
    assert t.state.players[MIKAH].power == 3 and t.state.players[DANE].power == 4
    assert t.state.trust == ["fuel"]
    place_tokens(t)
    assert sorted(r for r in t.state.players[LOTUS].resources if r) == ["material", "psionic", "relic"]
    assert (blocking(t).seat, blocking(t).kind) == (LOTUS, "council_event")  # then Crises or Edicts (BR-169)
    sound(t)


# -- Crises and the Blight ---------------------------------------------------------------------
def test_BR_217_a_fresh_blight_destroys_the_imperial_ship_and_hits_each_players_ship():
    """BR-217: the Crises (chosen by Lotus, who secured the Council, BR-169) begin with the
    Blight Crises (BR-212): one fresh Blight deals 3 hits (BR-213) in a system with 1 fresh
    Imperial ship and every player's ships: 2 hits damage then destroy the Imperial ship
    (BR-214: the Empire first), the third hits 1 Loyal ship of each player (BR-215, fresh
    first: BR-216); the buildings are untouched (BR-218)."""
    from plugins.arcs.state import Ships
    from plugins.blighted_reach.state import Pieces
    from tests.blighted_reach.crisis_tables import clear, set_blight, set_imperial, set_ships

    t = ready(3, seed=1)
    for system in list(t.state.blight):
        set_blight(t.state, system, 0)
    system = next(x for x, here in sorted(t.state.systems.items()) if here.buildings)
    clear(t.state, system)
    set_imperial(t.state, system, fresh=1)
    set_blight(t.state, system, fresh=1)
    for seat in (LOTUS, DANE, MIKAH):
        set_ships(t.state, seat, system, 2)
    buildings = list(t.state.systems[system].buildings)
    imperial_supply = t.state.imperial_supply
    sound(t)
    lotus_secures_the_council(t)
    t.act(LOTUS, Action("call_summit", {"call": False}))
    assert (blocking(t).seat, blocking(t).kind) == (LOTUS, "council_event")
    events = t.act(LOTUS, Action("council_event", {"resolve": "crises"}))
    (report,) = [e.data for e in events if e.data.get("system") == system and "hits" in e.data]
    assert report["hits"] == 3 and report["imperial"]["destroyed"] == 1
    here = t.state.systems[system]
    assert system not in t.state.imperial and t.state.imperial_supply == imperial_supply + 1
    assert [here.ships[s] for s in (LOTUS, DANE, MIKAH)] == [Ships(fresh=1, damaged=1)] * 3
    assert here.buildings == buildings
    assert t.state.blight[system] == Pieces(fresh=1)  # the Blight is not harmed by its own Crisis
    sound(t)


# -- Edicts ------------------------------------------------------------------------------------
def test_BR_251_BR_253_lotus_enforces_peace_collects_the_demand_and_celebrates_regency():
    """BR-251: under Peace, Lotus (First Regent) enforces the Policy (BR-241, BR-242) and
    collects its Demand (BR-244): a Relic from Mikah and a Psionic from Baz onto the First
    Regent tile (BR-247), and from Dane, who has neither, an agent as a Favor (BR-249); Lotus
    has neither, so adds none of their own. BR-253: Peace's Imperial Action then gives Dane,
    a Regent with all 5 cities built, 5 Power, and Regents with 3 or fewer built nothing
    (BR-252: Baz, with 4 built, the uncovered slot's 2)."""
    from tests.blighted_reach.edict_tables import PEACE, build_cities, clear_row, give, set_policy

    t = ready(4, seed=1)
    t.state.first_regent = LOTUS
    set_policy(t.state, PEACE)
    for seat in range(4):
        clear_row(t.state, seat)
    give(t.state, LOTUS, "material")
    give(t.state, MIKAH, "relic", "fuel")
    give(t.state, BAZ, "weapon", "psionic")
    give(t.state, DANE, "material", "weapon")
    build_cities(t.state, DANE, 5)
    build_cities(t.state, BAZ, 4)
    powers = [p.power for p in t.state.players]
    dane_agents = t.state.players[DANE].agents
    sound(t)
    lotus_secures_the_council(t)
    t.act(LOTUS, Action("call_summit", {"call": False}))
    t.act(LOTUS, Action("council_event", {"resolve": "edicts"}))
    govern = blocking(t)
    assert (govern.seat, govern.kind) == (LOTUS, "govern")  # Edict 03, the only one in a 4-player Act I
    events = t.act(LOTUS, Action("govern", {"enforce": True}))
    while any(p.kind == "collect_demand" for p in t.state.prompts):  # Lotus picks what each pays
        prompt = blocking(t)
        assert prompt.seat == LOTUS
        events += t.act(LOTUS, prompt.options[0])
    collected = {e.data["payer"]: e.data for e in events if e.type == "demand_collected"}
    assert set(collected) == {MIKAH, BAZ, DANE}  # Lotus had nothing Peace demands
    assert sorted(t.state.trust) == ["psionic", "relic"]
    assert t.state.players[MIKAH].resources[:2] == [None, "fuel"]
    assert t.state.players[BAZ].resources[:2] == ["weapon", None]
    assert favors_of(t.state, LOTUS) == [DANE] and t.state.players[DANE].agents == dane_agents - 1
    assert t.state.players[LOTUS].resources[0] == "material"
    gained = next(e.data for e in events if e.type == "imperial_action")
    assert [p.power - before for p, before in zip(t.state.players, powers)] == [0, 5, 0, 2]
    assert gained["power"] in ({0: 0, 1: 5, 2: 0, 3: 2}, {"0": 0, "1": 5, "2": 0, "3": 2})
    sound(t)


# -- Objectives and grand ambitions --------------------------------------------------------------
FOUNDER, STEWARD, ADMIRAL, MAGNATE = "FATE02", "FATE01", "FATE07", "FATE03"


def last_round(t, lead: str, ambition: str = "", others: tuple[str, ...] = ("MOB3", "AGG4", "ADM2"),
               leader: int = LOTUS) -> list:
    """The chapter's last round: `leader` leads `lead` (declaring `ambition`, if any) and takes
    no action; each Rival pivots its only card and takes none; the hands are then empty, so
    the chapter ends (ARCS-079) and is scored. Returns the events from the lead on."""
    n = len(t.state.players)
    order = [(leader + i) % n for i in range(n)]
    hands = [[] for _ in range(n)]
    hands[leader] = [lead]
    for seat, card in zip(order[1:], others):
        hands[seat] = [card]
    restart_round(t, hands, initiative=leader)
    events = t.act(leader, Action("lead", {"card": lead}))
    if any(p.kind == "declare" for p in t.state.prompts):
        events += t.act(leader, Action("declare", {"ambition": ambition}))
    while any(p.kind == "arcs.use_ability" and p.seat == leader for p in t.state.prompts):  # e.g. Parade Fleets
        events += t.act(leader, Action("use_ability", {"card": "", "index": -1, "params": {}}))  # declined
    events += act(t, leader, "done")
    for seat in order[1:]:
        pivot(t, seat, hands[seat][0])
        events += act(t, seat, "done")
    return events


def test_BR_087_lotus_an_outlaw_founder_wins_two_ambitions_controls_three_systems_and_advances_nine():
    """BR-087: at a chapter's end Lotus, an Outlaw with the Founder's objective, wins two
    ambitions (Keeper, declared earlier; Tycoon, declared by leading a 2 this round) and
    controls 3 systems: the marker advances 2 x 3 (BR-096) + 3 x 1 (BR-097) = 9 spaces, from
    16 (BR-095, 3 players) to 7."""
    from plugins.arcs.state import Marker
    from tests.blighted_reach.campaign_tables import clear_map, non_imperial_systems, put_ships
    from tests.blighted_reach.test_objectives import clear_resources

    t = ready(3, seed=1, wanted={LOTUS: FOUNDER, DANE: STEWARD, MIKAH: ADMIRAL})
    s = t.state
    assert s.objective_markers[LOTUS] == 16
    s.titles[LOTUS] = "outlaw"
    if s.first_regent == LOTUS:
        s.first_regent = DANE
    clear_resources(s)
    clear_map(s)
    keeper = s.markers_available.pop(next(i for i, m in enumerate(s.markers_available) if m.id == "B"))
    s.ambition_boxes["keeper"] = [Marker(keeper.id)]
    for r, slot in (("material", 0), ("relic", 1)):  # with Parade Fleets' Fuel: Tycoon 2, Keeper 1
        s.players[LOTUS].resources[slot] = r
        s.supply[r] -= 1
    for system in non_imperial_systems(s)[:3]:
        put_ships(s, LOTUS, system, fresh=2)
    put_ships(s, DANE, non_imperial_systems(s)[3], fresh=1)  # the Rivals keep a presence elsewhere
    put_ships(s, MIKAH, non_imperial_systems(s)[4], fresh=1)
    sound(t)
    last_round(t, "CON2", ambition="tycoon")
    assert t.state.chapter == 2  # the chapter was scored and the next one dealt
    assert t.state.objective_markers[LOTUS] == 16 - 9
    assert t.state.objective_markers[DANE] == 17 and t.state.objective_markers[MIKAH] == 13  # nothing for them
    sound(t)


def test_BR_103_dane_fulfils_one_grand_ambition_at_the_end_of_chapter_three_and_gains_4_power():
    """BR-103: Act III, the end of chapter 3, no ambition declared (BR-102): Dane (the
    Partisan, "Form a Dominant Power Bloc") holds the initiative but not more Guild cards than
    each Rival, so fulfils one of its two goals and gains 4 Power (BR-101: 4 for one in
    chapter 3; BR-099: scored with the chapter)."""
    from tests.blighted_reach.fate_ma_tables import later_act_table

    t = later_act_table([MAGNATE, "FATE06", "FATE04"], act=3)
    s = t.state
    assert s.act == 3
    s.chapter = 3
    guild = max(len(p.guild) for i, p in enumerate(s.players) if i != DANE)
    assert len(s.players[DANE].guild) <= guild  # not more than each Rival: one goal only
    before = [p.power for p in s.players]
    events = last_round(t, "MOB3", others=("AGG4", "ADM2"), leader=DANE)
    (grand,) = [e.data["power"] for e in events if e.type == "grand_ambitions"]
    assert grand == {str(DANE): 4}
    assert t.state.players[DANE].power == before[DANE] + 4
    assert [p.power for i, p in enumerate(t.state.players) if i != DANE] == [before[0], before[2]]


# -- the Intermission ----------------------------------------------------------------------------
def act_one_last_chapter():
    """Act I's third chapter: Lotus (the Admiral) has completed her objective and has 7 Power;
    Dane (the Magnate) failed with his marker on 5 and has 2 Power; Mikah (the Steward, blue)
    has completed hers with 25 Power and Material and Psionic Outrage. None of these
    objectives advances in a chapter with no ambition declared."""
    t = ready(3, seed=1, wanted={LOTUS: ADMIRAL, DANE: MAGNATE, MIKAH: STEWARD})
    s = t.state
    s.chapter = 3
    for seat, name in enumerate(("Lotus", "Dane", "Mikah")):
        s.seats[seat].name = name
    s.colours[MIKAH], s.colours[LOTUS] = s.colours[LOTUS], s.colours[MIKAH]  # Mikah plays blue
    s.objective_markers = [0, 5, 0]
    for seat, power in ((LOTUS, 7), (DANE, 2), (MIKAH, 25)):
        s.players[seat].power = power
    mikah = s.players[MIKAH]
    mikah.outrage = ["material", "psionic"]
    mikah.agents -= 2  # the agents the Outrage slots hold
    sound(t)
    return t


def finish_intermission(t, events: list) -> list:
    """Answer the Intermission's choices: every seat keeps a completed Fate, a failed one
    takes its first offer (picked in secret, A-R7)."""
    while not t.state.finished:
        prompt = next((p for p in t.state.prompts if p.blocking), t.state.prompts[0])
        if prompt.kind == "choose_fate":
            keep = t.state.fates[prompt.seat]
            choice = next((o for o in prompt.options if o.params["fate"] == keep), prompt.options[0])
        else:
            choice = prompt.options[0] if prompt.options else t.legal(prompt.seat)[0]
        events += t.act(prompt.seat, choice)
    return events


def test_BR_330_BR_346_dane_fails_on_five_and_lotus_halves_seven_to_four():
    """BR-330: at the Act's end (the Intermission's step A) Dane, who failed with his marker on
    5 and had 2 Power, drops to -3 (BR-329: Power lost = the marker's space). BR-346: step E
    then halves each positive Power rounding up (Lotus 7 -> 4) and leaves a negative one as
    it is (Dane stays at -3); the Intermission runs A to F in order (BR-089)."""
    t = act_one_last_chapter()
    events = last_round(t, "CON2")
    events = finish_intermission(t, events)
    kinds = [e.type for e in events]
    assert kinds.index("act_over") < kinds.index("fates_resolved") < kinds.index("initiative_and_power")
    resolved = next(e.data for e in events if e.type == "fates_resolved")
    assert resolved["results"][str(DANE)] == "failed" and resolved["results"][str(LOTUS)] == "completed"
    assert resolved["power"][DANE] == -3 and resolved["power"][LOTUS] == 7
    shifted = next(e.data for e in events if e.type == "initiative_and_power")
    assert shifted["power"][LOTUS] == 4 and shifted["power"][DANE] == -3
    assert [p.power for p in t.state.players][:2] == [4, -3]
    assert t.state.intermission_done == ["resolve_fate", "clear_court", "clear_pieces", "repair_and_destroy",
                                         "shift_initiative_and_power", "choose_fate"]


def test_BR_360_mikah_logs_the_steward_with_13_power_for_act_one():
    """BR-360: the Act's table ends and its log sheet is saved into the campaign: Mikah, blue,
    the Steward, completed, 13 Power (25 halved up, BR-346) and Outrage Material and Psionic
    for Act I (BR-355)."""
    from core import default_registry

    rules = default_registry().rules_for("blighted-reach", [])
    t = act_one_last_chapter()
    finish_intermission(t, last_round(t, "CON2"))
    campaign = rules.hook.conclave_campaign_new(game="blighted-reach", seats=list(t.state.seats), options={})
    rules.hook.conclave_campaign_save(state=t.state, campaign=campaign)
    mikah = campaign["log"]["players"][MIKAH]
    assert (mikah["name"], mikah["colour"], mikah["fate"]) == ("Mikah", "blue", STEWARD)
    assert mikah["acts"] == [{"act": 1, "fate": STEWARD, "result": "completed", "power": 13,
                              "outrage": ["material", "psionic"]}]
    assert campaign["acts_played"] == 1 and not campaign["finished"]


# -- a Fate's card ---------------------------------------------------------------------------------
def test_BR_310_parade_fleets_is_protected_yet_discarded_when_its_holder_provokes_fuel_outrage(monkeypatch):
    """BR-310: Lotus (the Founder) holds Parade Fleets (F202), a protected Guild card (BR-309);
    her raid destroys Dane's city on a Fuel planet, which provokes Fuel Outrage on her
    (ARCS-191), and Outrage discards her Guild cards of that suit, protected or not."""
    from tests.blighted_reach.campaign_tables import put_building
    from tests.blighted_reach.crisis_tables import clear, set_ships
    from tests.blighted_reach.test_empire_flow import act as act_and_place, rolls, turn

    t = ready(3, seed=1, wanted={LOTUS: FOUNDER})
    s = t.state
    box = box_for(s)
    assert "F202" in s.players[LOTUS].guild
    system = next(x for x in sorted(s.systems) if box.systems[x] is not None and box.systems[x].type == "fuel"
                  and not s.systems[x].buildings)
    clear(s, system)
    put_building(s, DANE, system, "city")
    s.imperial_supply += s.imperial.pop(system).total if system in s.imperial else 0
    set_ships(s, LOTUS, system, 3)
    sound(t)
    turn(t, LOTUS, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])  # two building hits and two keys
    events = act_and_place(t, LOTUS, system=system, defender=DANE, raid=2, **{"act": "battle"})
    while any(p.seat == LOTUS and p.kind != "arcs.act" for p in t.state.prompts if p.blocking):
        prompt = next(p for p in t.state.prompts if p.blocking)
        events += t.act(prompt.seat, t.legal(prompt.seat)[0])
    outrage = [e.data for e in events if e.type == "outrage"]
    assert {"seat": LOTUS, "resource": "fuel"}.items() <= outrage[0].items()
    assert not any(b.owner == DANE for b in t.state.systems[system].buildings)  # the city is destroyed
    assert "F202" not in t.state.players[LOTUS].guild and "F202" in t.state.court_discard
    assert "fuel" in t.state.players[LOTUS].outrage
    sound(t)
