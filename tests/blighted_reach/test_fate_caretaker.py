"""The Caretaker (FATE05, F501-F521) through the engine: the Golems' setup, awakening and
spending them, the Unstable and Golem Worship Vox cards, Knowledge Set Free, the Act II
and III cards. Each test names the card it proves."""
from __future__ import annotations

import msgspec
import pytest

from plugins.arcs.content import box_for
from plugins.blighted_reach import fate_caretaker as ct
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import Golem
from tests.blighted_reach.flow_helpers import ready

CBOX = campaign_box()


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def caretaker_table(players: int = 3, seed: int = 1, seat: int = 0):
    return ready(players, seed, wanted={seat: ct.CARETAKER})


def sound(t) -> None:
    assert problems(rules_box(), CBOX, t.state) == []


# -- F501: Act I setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_F501_sleeping_golems_at_the_gates_of_the_clusters_without_imperial_ships(players):
    """F501: the Caretaker gains F502-F504, the two laws go into the booklet, and one
    Sleeping Golem stands at the gate of each cluster with no Imperial ship (four)."""
    t = caretaker_table(players, seed=3)
    s = t.state
    assert set(s.players[0].lore) >= {"F502", "F503"} and "F504" in s.players[0].guild
    assert ["F505"] in s.booklet and ["F506"] in s.booklet
    box = box_for(s)
    empire = {box.cluster_of(x) for x in s.imperial}
    gates = sorted(c.gate for c in box.map.clusters if c.id not in empire)
    assert len(gates) == 4
    assert sorted(g.place for g in s.golems.values()) == sorted(ct.on_map(g) for g in gates)
    assert sorted(s.golems) == sorted(ct.GOLEMS)
    assert not any(g.awake for g in s.golems.values())
    sound(t)


def test_F501_sleeping_golems_types_are_secret_in_views_and_events():
    """F501/F505: a Sleeping Golem shows no type to anyone (the tokens are shuffled face down)."""
    t = caretaker_table(3, seed=3)
    for viewer in (None, 0, 1, 2):
        shown = t.view(viewer)["golems"]
        assert len(shown) == 4 and all(g["type"] == "" and not g["awake"] for g in shown)


def test_F501_golem_placement_follows_the_table_rng():
    """F501: two tables with the same seed place the same Golems at the same gates; the
    shuffle is announced without its order."""
    a, b = caretaker_table(3, seed=3), caretaker_table(3, seed=3)
    assert a.state.golems == b.state.golems


def test_golems_invariant_finds_a_golem_in_no_place_or_on_a_missing_hearth():
    """Each Golem is in exactly one known place (the Caretaker's pieces)."""
    t = caretaker_table(3, seed=3)
    s = t.state
    s.golems["warrior"] = Golem(place="map:nowhere")
    assert any("warrior" in p for p in problems(rules_box(), CBOX, s))
    s.golems["warrior"] = Golem(place=ct.on_hearth(1))  # seat 1 holds no Golem Hearth
    assert any("Golem Hearth" in p for p in problems(rules_box(), CBOX, s))
    del s.golems["warrior"]
    assert any("not the four" in p for p in problems(rules_box(), CBOX, s))


# -- helpers -------------------------------------------------------------------------------------
from core.errors import ActionRejected, BadParameter  # noqa: E402
from core.state import Action  # noqa: E402
from plugins.arcs.state import Ships  # noqa: E402
from plugins.blighted_reach import crises  # noqa: E402
from tests.blighted_reach.flow_helpers import options, restart_round  # noqa: E402


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def lead(t, seat, card, ambition=""):
    """Lead, declare (or not), and decline Stone-Speakers' offer to end the turn."""
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ambition}))
    if ambition and any(a.params.get("card") == "F504" for a in options(t, seat)):
        t.act(seat, next(a for a in options(t, seat) if a.params.get("card") == ""))


def uses(t, seat, card):
    return [a for a in options(t, seat) if a.params.get("act") == "ability" and a.params.get("card") == card]


def give_golem(t, golem, seat=0, awake=True, hearth=True):
    t.state.golems[golem] = Golem(place=ct.on_hearth(seat) if hearth else ct.held_by(seat), awake=awake)


def ships_at(t, seat, system, fresh=0, damaged=0):
    s = t.state
    here = s.systems[system].ships[seat]
    s.players[seat].ships -= fresh + damaged
    s.systems[system].ships[seat] = Ships(fresh=here.fresh + fresh, damaged=here.damaged + damaged)


# -- F503 Golem Hearth -------------------------------------------------------------------------------
def test_F503_crisis_wakes_every_sleeping_golem_not_on_the_map():
    """F503's Crisis: the Sleeping Golems held (on the Hearth or by a Rival) turn Awake; those
    still on the map stay Sleeping."""
    t = caretaker_table(3, seed=3)
    s = t.state
    give_golem(t, "warrior", 0, awake=False)
    s.golems["seeker"] = Golem(place=ct.held_by(1))
    events = crises.resolve_fate_crisis(box_for(s), CBOX, s, 0, "F503", None)
    assert s.golems["warrior"].awake and s.golems["seeker"].awake
    assert not s.golems["protector"].awake and not s.golems["harvester"].awake  # on the map
    assert any(e.get("event") == "golems_woken" for e in events)
    assert "wake_held_golems" in crises.FATE_CRISIS_HANDLERS


def test_F503_awake_golems_show_their_type_and_held_sleeping_ones_only_to_the_holder():
    """F505: a Golem's Awake side is public; a Sleeping one held shows its type to its holder."""
    t = caretaker_table(3, seed=3)
    give_golem(t, "warrior", 0, awake=True)
    t.state.golems["seeker"] = Golem(place=ct.held_by(1))
    for viewer in (None, 0, 1, 2):
        shown = {g["type"] for g in t.view(viewer)["golems"]} - {""}
        assert "warrior" in shown
        assert ("seeker" in shown) == (viewer == 1)


# -- F502 Golem Beacon: Awaken (Influence) -------------------------------------------------------------
def golem_gate(t):
    return sorted(ct.system_of(g.place) for g in t.state.golems.values() if ct.system_of(g.place))[0]


def test_F502_awaken_takes_golems_from_controlled_systems_onto_the_hearth():
    """F502 Awaken (Influence): an influence pip takes the Golem from a gate the Caretaker
    controls onto the Golem Hearth; not winning a declared ambition, it stays Sleeping."""
    t = caretaker_table(3, seed=3)
    gate = golem_gate(t)
    ships_at(t, 0, gate, fresh=2)
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    (choice,) = uses(t, 0, "F502")
    assert choice.params["params"] == {"systems": [gate]}
    pips = t.state.turn.pips
    t.act(0, choice)
    s = t.state
    golem = next(g for g, x in s.golems.items() if x.place == ct.on_hearth(0))
    assert not s.golems[golem].awake and s.turn.pips == pips - 1
    sound(t)


def test_F502_awaken_while_winning_a_declared_ambition_flips_them_awake():
    t = caretaker_table(3, seed=3)
    gate = golem_gate(t)
    ships_at(t, 0, gate, fresh=2)
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    s = t.state
    for p in s.players:  # the Caretaker alone has Captives: winning Tyrant
        p.captives = []
    s.players[0].captives = [1]
    s.players[1].agents -= 1
    lead(t, 0, "ADM3", ambition="tyrant")
    t.act(0, uses(t, 0, "F502")[0])
    assert [g for g, x in t.state.golems.items() if x.place == ct.on_hearth(0) and x.awake]
    sound(t)


def test_F502_awaken_refuses_an_uncontrolled_system_and_changes_nothing():
    t = caretaker_table(3, seed=3)
    gate = golem_gate(t)
    ships_at(t, 0, gate, fresh=2)
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    index = uses(t, 0, "F502")[0].params["index"]
    other = sorted(ct.system_of(g.place) for g in t.state.golems.values() if ct.system_of(g.place))[1]
    before = snapshot(t)
    for params in ({"systems": [other]}, {"systems": []}, {"systems": [gate, gate]}, {"systems": "x"}, {"nope": 1}):
        with pytest.raises(ActionRejected):
            act(t, 0, "ability", card="F502", index=index, params=params)
    assert snapshot(t) == before


# -- F506 Golem Actions, F505 Golems ----------------------------------------------------------------------
def golem_uses(t, seat, golem):
    return [a for a in uses(t, seat, "F506") if a.params["params"]["golem"] == golem]


def prelude_table(seat=0, golem="harvester"):
    t = caretaker_table(3, seed=3)
    give_golem(t, golem, seat)
    t.state.objective_markers = [20, -1, -1]
    return t


def test_F506_harvester_gains_a_resource_and_goes_sleeping_to_a_rival_F505():
    """F506 Harvester in the Prelude: any one resource; then F505 the Golem flips Sleeping
    into a Rival's empty resource slot; F501B: the Caretaker advances 2."""
    t = prelude_table()
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    choices = golem_uses(t, 0, "harvester")
    assert {a.params["params"].get("resource") for a in choices} >= {"relic", "psionic"}
    rival = next(a.params["params"]["to"] for a in choices)
    before = list(t.state.players[0].resources)
    t.act(0, next(a for a in choices if a.params["params"].get("resource") == "relic"))
    while any(p.kind == "arcs.place_resources" for p in t.state.prompts):
        t.act(0, options(t, 0)[0])
    s = t.state
    assert s.players[0].resources.count("relic") == before.count("relic") + 1
    assert s.golems["harvester"] == Golem(place=ct.held_by(rival), awake=False)
    assert s.objective_markers[0] == 18
    assert s.turn.prelude  # a Prelude action: the pips are untouched
    sound(t)


def test_F506_a_golem_may_be_spent_without_its_action_and_still_advances():
    t = prelude_table(golem="warrior")
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    t.act(0, next(a for a in golem_uses(t, 0, "warrior") if a.params["params"]["act"] is False))
    assert not t.state.golems["warrior"].awake and t.state.objective_markers[0] == 18


def test_F506_warrior_destroys_every_damaged_ship_in_one_system():
    t = prelude_table(golem="warrior")
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    s = t.state
    system = "1.1"
    ships_at(t, 0, system, damaged=1)
    ships_at(t, 2, system, fresh=1, damaged=2)
    supply = [p.ships for p in s.players]
    fresh = [x.fresh for x in s.systems[system].ships]
    lead(t, 0, "ADM3")
    t.act(0, next(a for a in golem_uses(t, 0, "warrior") if a.params["params"].get("system") == system))
    s = t.state
    assert [x.fresh for x in s.systems[system].ships] == fresh
    assert [x.damaged for x in s.systems[system].ships] == [0, 0, 0]
    assert [p.ships for p in s.players] == [supply[0] + 1, supply[1], supply[2] + 2]
    sound(t)


def test_F506_protector_repairs_the_chosen_ships():
    t = prelude_table(golem="protector")
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    ships_at(t, 0, "1.1", damaged=2)
    lead(t, 0, "ADM3")
    t.act(0, next(a for a in golem_uses(t, 0, "protector") if a.params["params"].get("repair")))
    assert t.state.systems["1.1"].ships[0].damaged == 0
    sound(t)


def test_F506_seeker_takes_a_catapult_move_without_a_starport():
    """F506 Seeker: a Catapult move from one system, on past gates, with no starport there."""
    t = prelude_table(golem="seeker")
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    from plugins.arcs.turn import reach_of
    reach = reach_of(box_for(t.state), t.state)
    gate = next(iter(sorted(g for g in reach.neighbours["1.1"] if g.endswith("G"))))
    far = next(iter(sorted(g for g in reach.neighbours[gate] if g.endswith("G"))))
    index = uses(t, 0, "F506")[0].params["index"]
    to = uses(t, 0, "F506")[0].params["params"]["to"]
    act(t, 0, "ability", card="F506", index=index,
        params={"golem": "seeker", "to": to, "origin": "1.1", "path": [gate, far], "fresh": 3})
    assert t.state.systems[far].ships[0].fresh >= 3 and t.state.systems["1.1"].ships[0].total == 0
    sound(t)


def test_F506_bad_spends_are_refused_and_change_nothing():
    t = prelude_table(golem="harvester")
    t.state.golems["warrior"] = Golem(place=ct.on_hearth(0), awake=False)  # Sleeping: not spendable
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    lead(t, 0, "ADM3")
    index = uses(t, 0, "F506")[0].params["index"]
    to = uses(t, 0, "F506")[0].params["params"]["to"]
    before = snapshot(t)
    bad = [{"golem": "warrior", "to": to, "act": False},           # Sleeping
           {"golem": "harvester", "to": 0, "resource": "relic"},   # not a Rival
           {"golem": "harvester", "to": to},                       # no resource named
           {"golem": "harvester", "to": to, "system": "1.1"},      # another Golem's choice
           {"golem": "seeker", "to": to, "act": False},            # not held
           {"golem": "harvester", "to": to, "resource": "gold"}]   # not a resource
    for params in bad:
        with pytest.raises(ActionRejected):
            act(t, 0, "ability", card="F506", index=index, params=params)
    assert snapshot(t) == before


def test_F506_golem_actions_are_any_holders_prelude():
    """F506 is a law: a Rival holding an Awake Golem spends it in their own Prelude."""
    t = prelude_table(seat=1, golem="harvester")
    t.state.golems["harvester"] = Golem(place=ct.held_by(1), awake=True)
    restart_round(t, [["MOB3"], ["ADM3", "ADM6"], ["AGG4"]], initiative=1)
    lead(t, 1, "ADM3")
    assert golem_uses(t, 1, "harvester")
    t.act(1, golem_uses(t, 1, "harvester")[0])
    assert t.state.objective_markers[0] == 18  # the Caretaker advances on anyone's spend


# -- F504 Stone-Speakers -------------------------------------------------------------------------------
def test_F504_stone_speakers_ends_the_turn_takes_the_rivals_golems_and_rolls_the_event_die():
    """F504: declaring, the Caretaker ends the turn at once, takes the Golems Rivals hold onto
    the Hearth and rolls the event die; the next player follows."""
    t = caretaker_table(3, seed=3)
    t.state.golems["seeker"] = Golem(place=ct.held_by(1), awake=True)
    restart_round(t, [["ADM3", "ADM6"], ["MOB3", "MOB2"], ["AGG4", "AGG5"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": "tyrant"}))
    (speakers,) = [a for a in options(t, 0) if a.params.get("card") == "F504"]
    result = t.act(0, speakers)
    s = t.state
    assert s.golems["seeker"].place == ct.on_hearth(0)
    assert any(e.type == "event_rolled" and e.data.get("why") == "F504" for e in result)
    while s.prompts and s.prompts[0].seat != 1:  # any Crises choices
        t.act(s.prompts[0].seat, options(t, s.prompts[0].seat)[0])
        s = t.state
    assert s.turn is None and s.prompts[0].seat == 1 and s.prompts[0].kind == "follow"
    sound(t)


def test_F504_declining_stone_speakers_keeps_the_turn():
    t = caretaker_table(3, seed=3)
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": "tyrant"}))
    t.act(0, next(a for a in options(t, 0) if a.params.get("card") == ""))
    assert t.state.turn is not None and t.state.turn.pips == 3


# -- F501B the objective's counts ---------------------------------------------------------------------------
def test_F501_find_the_golems_counts_the_golems_held():
    from plugins.arcs.content import default_box as arcs_box
    from plugins.blighted_reach.objectives import count_for
    t = caretaker_table(3, seed=3)
    assert count_for("golem_held", arcs_box(), CBOX, t.state, 0) == 0
    give_golem(t, "warrior")
    t.state.golems["seeker"] = Golem(place=ct.held_by(0))
    assert count_for("golem_held", arcs_box(), CBOX, t.state, 0) == 2
    assert count_for("golem_held", arcs_box(), CBOX, t.state, 1) == 0


# -- F507 Caretaker Act I Resolution -------------------------------------------------------------------
from plugins.blighted_reach import intermission as im  # noqa: E402
from tests.blighted_reach import campaign_tables as ctab  # noqa: E402


def resolved(completed: bool):
    state = ctab.act_one([ct.CARETAKER, "FATE01", "FATE07"])
    ctab.end_act(state)
    state.objective_markers = [0 if completed else 5, 3, 3]
    return state


def test_F507_completed_golems_from_the_map_to_the_hearth_lore_and_unstables_to_the_court():
    """F507 completed: Golem Beacon scrapped, the map's Golems onto the Golem Hearth, one
    lore card per player from the lore deck and the four Unstable cards into the Court deck."""
    state = resolved(True)
    state.golems["warrior"] = Golem(place=ct.held_by(1))  # held by a Rival: stays there
    lore = len(state.lore_deck)
    im.resolve_fates(ctab.ctx(state), CBOX)
    assert "F502" in state.scrapped and "F502" not in state.players[0].lore
    assert {g for g, x in state.golems.items() if x.place == ct.on_hearth(0)} == {"protector", "seeker", "harvester"}
    assert state.golems["warrior"].place == ct.held_by(1)
    assert len(state.lore_deck) == lore - 3
    assert {"F508", "F509", "F510", "F511"} <= set(state.court_deck)
    ctab.sound(state)


def test_F507_failed_map_golems_scrapped_and_only_their_unstables_scrapped_too():
    """F507 failed: Golem Beacon scrapped, Stone-Speakers to the Court deck, the Golems on the
    map scrapped; the Unstable cards of the Golems still in play join the Court deck, the
    rest are scrapped."""
    state = resolved(False)
    state.golems["warrior"] = Golem(place=ct.on_hearth(0), awake=True)
    state.golems["seeker"] = Golem(place=ct.held_by(2))
    im.resolve_fates(ctab.ctx(state), CBOX)
    assert "F502" in state.scrapped and "F504" in state.court_deck
    assert state.golems["protector"].place == ct.SCRAPPED and state.golems["harvester"].place == ct.SCRAPPED
    assert {"F511", "F509"} <= set(state.court_deck)        # warrior, seeker in play
    assert {"F508", "F510"} <= set(state.scrapped)          # harvester, protector scrapped
    ctab.sound(state)


# -- Act II (F512-F516) ------------------------------------------------------------------------------------
from core.rng import Rng  # noqa: E402
from plugins.blighted_reach import campaign, summits  # noqa: E402
from plugins.blighted_reach import later_acts as la  # noqa: E402


def act_two(completed=True, fates=(ct.CARETAKER, "FATE01", "FATE04")):
    """Act I played with the Caretaker at seat 0 (objective completed or not), the
    Intermission done, Act II set up with every Setup side."""
    state = ctab.end_act(ctab.act_one(list(fates)))
    state.objective_markers = [0 if completed else 4, 0, 0]
    ctab.intermission(state, picks={s: f for s, f in enumerate(fates)})
    log = campaign.pack_up(ctab.BOX, CBOX, state)
    two = ctab.new_table(len(fates))
    la.set_up_later_act(ctab.BOX, CBOX, two, log, Rng(two), lambda die, faces: "arrow" if die == "event" else 3)
    for seat in la.setup_order(two):
        la.apply_setup_side(ctab.ctx(two), CBOX, seat)
    return two


def test_F505_golems_stay_with_the_campaign_between_acts():
    """F505/F507: the Golems on the Golem Hearth come to Act II as they were (the log sheet)."""
    two = act_two()
    assert sorted(ct.golems_of(two, 0)) == sorted(ct.GOLEMS)
    ctab.sound(two)


def test_F512_act_two_setup_librarians_knowledge_set_free_the_event_and_golems_awake():
    """F512: Librarians gained, Knowledge Set Free in the booklet, the extra Event (F515)
    shuffled into the action deck, every Golem Awake."""
    two = act_two()
    assert "F513" in two.players[0].guild and ["F514"] in two.booklet
    assert "F515" in two.action_deck
    assert all(g.awake for g in two.golems.values())
    ctab.sound(two)
    from plugins.blighted_reach.setup import is_event_card as is_event
    assert is_event("F515")


def test_F513_librarians_crisis_attaches_it_to_a_court_card():
    two = act_two()
    host = two.court_row[1]
    bad = {0: {"card": "nope"}}
    with pytest.raises(BadParameter):
        crises.resolve_fate_crisis(ctab.BOX, CBOX, two, 0, "F513", None, bad)
    crises.resolve_fate_crisis(ctab.BOX, CBOX, two, 0, "F513", None, {0: {"card": host}})
    assert two.attached[host] == "F513" and "F513" not in two.players[0].guild
    ctab.sound(two)


def test_F512B_and_F513_securing_a_lore_card_advances_and_librarians_attach_lore():
    """F512B: securing a lore card advances the Caretaker 2; F513: after a secure, a lore
    card from the lore deck may be attached to the card that refilled the place."""
    from core.flow import Ctx
    from plugins.blighted_reach.fate_caretaker import arcs_court_secured
    two = act_two()
    two.game = "blighted-reach"
    two.objective_markers = [12, 5, 5]
    lore = two.lore_deck.pop(0)  # secured from the Court's last place, which CC01 refilled
    refill = next(c for c in two.court_deck if c.startswith("CC"))
    two.court_deck.remove(refill)
    two.court_row.append(refill)
    two.court_agents[refill] = [0, 0, 0]
    position = len(two.court_row) - 1
    two.players[0].lore.append(lore)
    ctx = Ctx(two, SimpleRules())
    arcs_court_secured(ctx, 0, lore, position)
    assert two.objective_markers[0] == 10
    (prompt,) = two.prompts
    assert prompt.kind == "librarians" and prompt.seat == 0
    top = two.lore_deck[0]
    ct.librarians_done(ctx, 0, {"attach": True}, host=refill)
    assert two.attached[refill] == top
    ctab.sound(two)


class SimpleRules:
    """Enough of the rules for a Ctx that only prompts and emits."""
    hook = None
    handlers = {}


def unstable_in_court(two, card):
    two.court_row.append(card)
    two.court_agents[card] = [0] * len(two.players)
    if card in two.court_deck:
        two.court_deck.remove(card)


def test_F508_unstable_harvester_crisis_discards_its_holders_resources():
    two = act_two()
    unstable_in_court(two, "F508")
    two.players[0].resources[0] = two.players[0].resources[0] or "fuel"
    two.supply["fuel"] -= 0 if two.players[0].resources[0] != "fuel" else 1
    dice = crises.Dice(number=3, symbol="arrow")
    crises.resolve_court_crisis(ctab.BOX, CBOX, two, "F508", dice)
    assert not any(two.players[0].resources)
    ctab.sound(two)


def test_F510_unstable_protector_repairs_every_ship_but_the_protectors_players():
    two = act_two()
    unstable_in_court(two, "F510")
    ctab.put_ships(two, 0, "1G", damaged=1)
    ctab.put_ships(two, 1, "1G", damaged=2)
    crises.resolve_court_crisis(ctab.BOX, CBOX, two, "F510", crises.Dice(number=3, symbol="arrow"))
    assert two.systems["1G"].ships[0].damaged == 1 and two.systems["1G"].ships[1].damaged == 0
    ctab.sound(two)


def test_F511_unstable_warrior_destroys_the_warriors_players_damaged_ships():
    two = act_two()
    unstable_in_court(two, "F511")
    ctab.put_ships(two, 0, "1G", fresh=1, damaged=2)
    ctab.put_ships(two, 1, "1G", damaged=1)
    crises.resolve_court_crisis(ctab.BOX, CBOX, two, "F511", crises.Dice(number=3, symbol="arrow"))
    assert two.systems["1G"].ships[0].damaged == 0 and two.systems["1G"].ships[0].fresh >= 1
    assert two.systems["1G"].ships[1].damaged == 1
    ctab.sound(two)


def test_F509_unstable_seeker_moves_ships_from_rolled_symbol_planets_to_the_rolled_gate():
    two = act_two()
    unstable_in_court(two, "F509")
    dice = crises.Dice(number=4, symbol="hex")
    planets = crises.rolled_symbol_planets(ctab.BOX, dice)
    ctab.put_ships(two, 0, planets[0], fresh=2)
    crises.resolve_court_crisis(ctab.BOX, CBOX, two, "F509", dice)
    assert all(two.systems[p].ships[0].total == 0 for p in planets)
    assert two.systems["4G"].ships[0].fresh >= 2
    ctab.sound(two)


def test_F508_an_unstable_card_whose_golem_is_gone_is_scrapped_instead():
    two = act_two()
    unstable_in_court(two, "F508")
    two.golems["harvester"] = Golem(place=ct.SCRAPPED)
    resources = [list(p.resources) for p in two.players]
    crises.resolve_court_crisis(ctab.BOX, CBOX, two, "F508", crises.Dice(number=3, symbol="arrow"))
    assert "F508" in two.scrapped and "F508" not in two.court_row
    assert [p.resources for p in two.players] == resources
    ctab.sound(two)


def test_F509_secured_an_unstable_card_gives_its_golem_awake_to_the_securer():
    from plugins.arcs.abilities import Env, Use
    two = act_two()
    two.golems["seeker"] = Golem(place=ct.on_hearth(0), awake=False)
    ability = next(a for a in rules_box().court["F509"].abilities if a.when == "secured" and a.do == "take_golem_awake")
    two.resolving.append("F509")
    two.court_deck.remove("F509") if "F509" in two.court_deck else None
    from plugins.arcs.abilities import use
    use(Env(state=two, box=rules_box(), chance=None, emit=lambda *a, **k: None), Use(1, "F509", 1, ability), {})
    assert two.golems["seeker"] == Golem(place=ct.held_by(1), awake=True)


def test_F514_knowledge_set_free_transfers_a_golem_and_forcing_it_costs_two_favors():
    """F514: with Knowledge Set Free in the booklet, a Golem may be given in a Summit; forcing
    that gift with Return Favors costs as many Favors as its raid cost (2)."""
    two = act_two()
    part = summits.TransferGolem(giver=0, receiver=1, golem="warrior")
    assert summits.favors_to_force(ctab.BOX, CBOX, two, 1, part) == {0: 2}
    two.summit_caller, two.summit_stage = 0, "negotiations"
    summits.apply_proposal(ctab.BOX, CBOX, two, summits.Proposal(proposer=0, parts=[part]))
    assert two.golems["warrior"].place == ct.held_by(1)
    with pytest.raises(summits.NotHeld):
        summits.apply_proposal(ctab.BOX, CBOX, two, summits.Proposal(proposer=0, parts=[part]))
    ctab.sound(two)


def test_F512B_lore_received_in_a_summit_advances_unless_given_back():
    """F512B: a Rival's lore card given to the Caretaker advances 1; a card the Caretaker
    gave that Rival in the same Summit, given back, does not."""
    two = act_two()
    two.objective_markers = [12, 5, 5]
    two.summit_caller, two.summit_stage = 0, "negotiations"
    mine = "F503"
    theirs = two.lore_deck.pop(0)
    two.players[1].lore.append(theirs)
    summits.apply_proposal(ctab.BOX, CBOX, two, summits.Proposal(proposer=1, parts=[
        summits.TransferCard(giver=1, receiver=0, card=theirs)]))
    assert two.objective_markers[0] == 11
    summits.apply_proposal(ctab.BOX, CBOX, two, summits.Proposal(proposer=0, parts=[
        summits.TransferCard(giver=0, receiver=1, card=mine)]))
    summits.apply_proposal(ctab.BOX, CBOX, two, summits.Proposal(proposer=1, parts=[
        summits.TransferCard(giver=1, receiver=0, card=mine)]))
    assert two.objective_markers[0] == 11
    ctab.sound(two)


def test_F516_failed_unstable_cards_come_back_from_the_court_discard():
    from plugins.blighted_reach import intermission as imm
    two = act_two()
    two.court_discard += ["F508", "F511"]
    for c in ("F508", "F511"):
        if c in two.court_deck:
            two.court_deck.remove(c)
    two.golems["harvester"] = Golem(place=ct.SCRAPPED)
    ctab.end_act(two)
    two.objective_markers = [3, 0, 0]
    imm.resolve_fates(ctab.ctx(two), CBOX)
    assert "F511" in two.court_deck and "F508" in two.scrapped
    assert {"F517", "F518", "F519"} <= set(two.scrapped)
    ctab.sound(two)


def test_F516_completed_golem_worship_to_the_court_deck():
    from plugins.blighted_reach import intermission as imm
    two = act_two()
    ctab.end_act(two)
    two.objective_markers = [0, 0, 0]
    imm.resolve_fates(ctab.ctx(two), CBOX)
    assert {"F517", "F518", "F519"} <= set(two.court_deck)


# -- Act III (F517-F521) --------------------------------------------------------------------------------
def act_three():
    two = act_two()
    ctab.end_act(two)
    two.objective_markers = [0, 0, 0]
    ctab.intermission(two, picks={0: ct.CARETAKER, 1: "FATE01", 2: "FATE04"})
    for g in ct.GOLEMS:
        two.golems[g] = Golem(place=two.golems[g].place, awake=False)
    log = campaign.pack_up(ctab.BOX, CBOX, two)
    three = ctab.new_table(3)
    la.set_up_later_act(ctab.BOX, CBOX, three, log, Rng(three), lambda die, faces: "arrow" if die == "event" else 3)
    la.apply_setup_side(ctab.ctx(three), CBOX, 0)
    return three


def test_F520_act_three_setup_the_edict_and_golems_awake():
    three = act_three()
    assert ["F521"] in three.booklet and all(g.awake for g in three.golems.values() if g.place != ct.SCRAPPED)


def test_F517_golem_worship_crisis_each_golem_holder_returns_a_city():
    three = act_three()
    unstable_in_court(three, "F517")
    three.golems["seeker"] = Golem(place=ct.held_by(1), awake=True)
    decisions = crises.court_crisis_decisions(ctab.BOX, CBOX, three, "F517", crises.Dice(3, "arrow"))
    assert sorted(d.seat for d in decisions) == [0, 1]
    answers = {d.seat: d.options[0] for d in decisions}
    cities = [sum(p.cities_on_board) for p in three.players]
    with pytest.raises(BadParameter):
        crises.resolve_court_crisis(ctab.BOX, CBOX, three, "F517", crises.Dice(3, "arrow"), {0: {"system": "x"}})
    crises.resolve_court_crisis(ctab.BOX, CBOX, three, "F517", crises.Dice(3, "arrow"), answers)
    assert [sum(p.cities_on_board) for p in three.players][:2] == [cities[0] + 1, cities[1] + 1]
    assert three.court_deck[-1] == "F517"  # buried
    ctab.sound(three)


def test_F520B_grand_ambitions_scrap_lore_then_a_golem_at_a_chapters_end():
    """F520B: with a Golem, scrapping a lore card (not the Hearth) meets the first goal;
    scrapping a Golem the second; each once per chapter."""
    from plugins.blighted_reach.objectives import goals_fulfilled
    three = act_three()
    three.players[0].lore.append(three.lore_deck.pop(0))
    options = ct.options_golem_goals(three, 0)
    assert {"scrap_lore": "F503"} not in options
    with pytest.raises(BadParameter):
        ct.choose_golem_goal(three, 0, {"scrap_lore": "F503"})
    ct.choose_golem_goal(three, 0, next(o for o in options if "scrap_lore" in o))
    assert goals_fulfilled(ctab.BOX, CBOX, three, 0) == 1
    ct.choose_golem_goal(three, 0, {"scrap_golem": "warrior"})
    assert goals_fulfilled(ctab.BOX, CBOX, three, 0) == 2 and three.golems["warrior"].place == ct.SCRAPPED
    assert not any("scrap_lore" in o for o in ct.options_golem_goals(three, 0))
    ctab.sound(three)


def run_edicts(t):
    """The Edicts of the booklet now, as the round's end runs them (the table's own steps)."""
    from core.flow import Ctx, run
    from plugins.arcs.rounds import round_start
    from plugins.blighted_reach.event_flow import edicts_begin
    s = t.state
    s.prompts, s.stack = [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)  # the game goes on afterwards
    ctx.push(edicts_begin)
    run(ctx)


def test_F521_golems_sate_their_appetite_scraps_guild_cards_per_awake_golem_then_all_wake():
    """F521 through the engine: in turn order each player scraps a Guild card per Awake Golem
    (protected ones too; a choice when it has more); with none, the leftmost Court Guild card
    with agents goes, its agents scrapped; then every Sleeping Golem wakes."""
    t = caretaker_table(3, seed=3)
    s = t.state
    s.booklet = [slot for slot in s.booklet if slot[0] in ("F505", "F506")] + [["F521"]]
    give_golem(t, "warrior", 0, awake=True)
    give_golem(t, "seeker", 0, awake=True)   # two Awake: Stone-Speakers (protected) and one more
    s.players[0].guild.append(s.court_deck.pop(next(i for i, c in enumerate(s.court_deck) if c.startswith("CC0"))))
    s.golems["harvester"] = Golem(place=ct.held_by(1), awake=True)  # seat 1: no Guild card
    s.court_discard.extend(s.players[1].guild)
    s.players[1].guild = []
    court = next(c for c in s.court_row if c in rules_box().court and rules_box().court[c].kind == "guild")
    s.court_agents[court][2] += 2
    s.players[2].agents -= 2
    run_edicts(t)
    s = t.state
    scrapped = [c for c in ("F504",) + tuple(s.players[0].guild) if c in s.scrapped]
    assert "F504" in s.scrapped and not s.players[0].guild
    assert court in s.scrapped and s.scrapped_agents == [2, 2]
    assert all(g.awake for g in s.golems.values())
    assert scrapped
    sound(t)


def test_F521_a_player_with_more_guild_cards_chooses_which_go():
    t = caretaker_table(3, seed=3)
    s = t.state
    s.booklet = [slot for slot in s.booklet if slot[0] in ("F505", "F506")] + [["F521"]]
    give_golem(t, "warrior", 0, awake=True)
    extra = s.court_deck.pop(next(i for i, c in enumerate(s.court_deck) if c.startswith("CC0")))
    s.players[0].guild.append(extra)
    run_edicts(t)
    (prompt,) = [p for p in t.state.prompts if p.kind == "consume_sentience"]
    assert prompt.seat == 0
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("consume_sentience", {"scrap": ["nope"]}))
    assert snapshot(t) == before
    t.act(0, Action("consume_sentience", {"scrap": [extra]}))
    assert extra in t.state.scrapped and "F504" in t.state.players[0].guild
    sound(t)


# -- F503: raiding Golems ----------------------------------------------------------------------------------
def raid_on_golem_holder(golem: str, awake: bool):
    """Seat 0 holds `golem` (on its Golem Hearth); seat 1 won a battle against it in 1.1 with
    3 keys to raid with: the raid's choices are open."""
    from core.flow import Ctx, run
    from plugins.arcs.battle_flow import resolve
    from plugins.arcs.rounds import round_start
    from plugins.arcs.state import Battle
    t = caretaker_table(3, seed=3)
    s = t.state
    give_golem(t, golem, 0, awake=awake)
    ships_at(t, 1, "1.1", fresh=2)
    s.prompts, s.stack = [], []
    s.battle = Battle(attacker=1, defender=0, system="1.1", key=3)
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    ctx.push(resolve)
    run(ctx)
    return t


def test_F503_a_raid_takes_a_golem_from_the_hearth_for_two_keys():
    """F503: Golems on the Golem Hearth can be raided, two keys each; the raider keeps it
    (among its resources, holding no Hearth)."""
    t = raid_on_golem_holder("warrior", awake=True)
    steals = [a for a in options(t, 1) if a.type == "steal"]
    assert Action("steal", {"golem": "warrior"}) in steals
    t.act(1, Action("steal", {"golem": "warrior"}))
    s = t.state
    assert s.golems["warrior"] == Golem(place=ct.held_by(1), awake=True)
    assert s.battle.key == 1 and Action("steal", {"golem": "warrior"}) not in options(t, 1)
    sound(t)


def test_F503_a_raid_takes_a_sleeping_golem_blind_its_type_shown_to_thief_and_victim_only():
    """A Sleeping Golem's type is its holder's secret: the raid offers it by place, never by
    type (a bot campaign's hidden-information check caught the type in the raid's options:
    3 players, seed 2027); taken, its type is told to the thief and the victim alone."""
    from core.engine import view_events
    t = raid_on_golem_holder("harvester", awake=False)
    s = t.state
    place = s.golems["harvester"].place  # seat 0's Golem Hearth
    steals = [a.params for a in options(t, 1) if a.type == "steal"]
    assert {"golem": "sleeping", "at": place} in steals
    assert not any(p.get("golem") == "harvester" for p in steals)
    events = t.act(1, Action("steal", {"golem": "sleeping", "at": place}))
    assert t.state.golems["harvester"] == Golem(place=ct.home_of(t.state, 1), awake=False)
    told = [e for e in events if e.type == "golem_stolen_type"]
    assert len(told) == 1 and sorted(told[0].to) == [0, 1]
    assert "harvester" not in str([e for e in view_events(events, 2)])
    sound(t)


def test_F501_the_typed_view_shows_golems_without_their_sleeping_types():
    from plugins.blighted_reach.graphql import from_view
    t = caretaker_table(3, seed=3)
    give_golem(t, "warrior", 0, awake=True)
    typed = from_view(t.view(1))
    assert sorted(g.type for g in typed.golems) == ["", "", "", "warrior"]
    assert all(g.place for g in typed.golems)


def test_F517_secured_takes_any_golem_awake_and_refuses_a_scrapped_one():
    """F517: the securer takes any Golem in play, woken. A Sleeping one is named by its place
    only (face down: its type is no option's), never by its type; a scrapped one refused."""
    from plugins.arcs.abilities import Env, Use, use, candidates
    three = act_three()
    three.golems["seeker"] = Golem(place=ct.held_by(2))
    three.golems["harvester"] = Golem(place=ct.SCRAPPED)
    three.resolving.append("F517")
    if "F517" in three.court_deck:
        three.court_deck.remove("F517")
    abilities = rules_box().court["F517"].abilities
    index = next(i for i, a in enumerate(abilities) if a.do == "take_any_golem_awake")
    env = Env(state=three, box=rules_box(), chance=None, emit=lambda *a, **k: None)
    before = msgspec.json.encode(three)
    offered = candidates(env, Use(1, "F517", index, abilities[index]))
    assert {"golem": "sleeping", "at": ct.held_by(2)} in offered and not any(o.get("golem") == "seeker" for o in offered)
    for bad in ({"golem": "harvester"}, {"golem": "dragon"}, {}, {"golem": "seeker"},
                {"golem": "sleeping", "at": ct.held_by(0)}):
        with pytest.raises(ActionRejected):
            use(env, Use(1, "F517", index, abilities[index]), bad)
    assert msgspec.json.encode(three) == before
    use(env, Use(1, "F517", index, abilities[index]), {"golem": "sleeping", "at": ct.held_by(2)})
    assert three.golems["seeker"] == Golem(place=ct.held_by(1), awake=True)


def test_F520B_the_chapter_end_asks_the_caretaker_before_the_grand_ambitions_score():
    """F520B: the chapter's end offers the Caretaker its scraps (lore, then a Golem, or none)
    before the grand ambitions score."""
    three = act_three()
    steps = ct.golem_goal_steps(three)
    assert [s[1] for s in steps] == [{"seat": 0}]
    three.players[0].lore.append(three.lore_deck.pop(0))
    ctx = ctab.ctx(three)
    ct.golem_goal_offer(ctx, seat=0)
    (prompt,) = three.prompts
    lore = next(o.params for o in prompt.options if "scrap_lore" in o.params)
    three.prompts = []
    ct.golem_goal_chosen(ctx, 0, lore)
    assert three.golem_goals == [f"{three.chapter}:lore"]
    assert three.stack[-1].name.endswith("caretaker_golem_goal_offer")
    ct.golem_goal_chosen(ctx, 0, {})
    assert len(three.golem_goals) == 1
    ctab.sound(three)


def test_F520B_a_scrapped_golems_type_reaches_its_holder_alone():
    """The chapter-end choice's event names the Golem to the Caretaker only: the others
    learn that a Golem was scrapped, not which (a held Golem's type is its holder's)."""
    from core.engine import view_events
    from tests.blighted_reach.campaign_tables import ctx

    three = act_three()
    c = ctx(three)
    ct.golem_goal_chosen(c, 0, {"scrap_golem": "warrior"})
    mine, theirs = view_events(c.events, 0), view_events(c.events, 1) + view_events(c.events, None)
    assert any(e["data"].get("scrap_golem") == "warrior" for e in mine)
    assert "warrior" not in str(theirs) and any(e["type"] == "golem_goal" for e in theirs)
