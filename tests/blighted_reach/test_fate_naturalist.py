"""The Naturalist (FATE21, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F21nn) and the checklist IDs it proves."""
from __future__ import annotations

import core.chance
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.scoring import score_ambition
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import event_flow, fate_naturalist
from plugins.blighted_reach.setup import cluster_systems
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.c_fate_tables import (
    act_three_table, declare_by_arrangement, free_planet, prompt_of, refused, run_steps, score_now, sound,
    take_from_supply,
)
from tests.blighted_reach.campaign_tables import put_ships
from tests.blighted_reach.flow_helpers import options, restart_round

NATURALIST = "FATE21"
MOVE, REPAIR = 0, 1  # Blight Society's new actions, by index
CRISES = (event_flow.crises_begin, {"number": 0, "symbol": ""})
AFTER = (event_flow.summit_offer, {"seat": 0, "via": "event"})


def naturalist_table(players: int = 3, seed: int = 3):
    t = act_three_table({0: NATURALIST}, players, seed)
    assert t.state.fates[0] == NATURALIST and t.state.act == 3
    return t


def lead(t, seat: int, card: str, declare: str = ""):
    hands = [[f"MOB{3 + i}"] for i in range(len(t.state.players))]
    hands[seat] = [card]
    restart_round(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if declare != "keep" and prompt_of(t, "declare"):
        t.act(seat, Action("declare", {"ambition": declare}))


def declared_options(t) -> list[str]:
    prompt = prompt_of(t, "declare")
    return [o.params["ambition"] for o in prompt.options] if prompt else []


def set_blight(t, system: str, fresh: int = 0, damaged: int = 0) -> None:
    """Arranged Blight from (or back to) the supply."""
    s = t.state
    before = bl.blight(s, system)
    s.blight_supply -= fresh + damaged - before.total
    bl._set(s, system, Pieces(fresh=fresh, damaged=damaged))


def blighted_planet(t, seat: int, fresh: int = 1, damaged: int = 0, ships: int = 2) -> str:
    """A planet of no Imperial ship, not yet arranged, cleared of every ship, holding this
    Blight and (if `ships`) the seat's fresh ships."""
    s = t.state
    used = t.__dict__.setdefault("_arranged", set())
    planet = next(p for p in sorted(s.systems) if box_for(s).systems[p] is not None and p not in used
                  and p not in s.imperial and p not in s.bunkers if hasattr(s, "bunkers"))
    used.add(planet)
    for owner, here in enumerate(s.systems[planet].ships):
        s.players[owner].ships += here.total
        here.fresh = here.damaged = 0
    set_blight(t, planet, fresh, damaged)
    if ships:
        put_ships(s, seat, planet, fresh=ships)
    return planet


def rolls(monkeypatch, faces):
    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    monkeypatch.setattr(core.chance, "roll", roll)


# -- F2101 ------------------------------------------------------------------------------------------
def test_F2101_setup_side_society_guides_tile_and_law_BR_106_113():
    """Act III setup: Blight Society and Spore Guides gained, the Blightkin box by Empath,
    Blightkin Ambition in the booklet (BR-113); the marker on 16 with 3 players, 18 with 2."""
    t = naturalist_table()
    s = t.state
    assert "F2102" in s.players[0].lore and "F2103" in s.players[0].guild
    assert s.ambition_boxes["blightkin"] == [] and any("F2104" in slot for slot in s.booklet)
    assert s.objective_markers[0] == 16
    sound(t)
    assert naturalist_table(players=2).state.objective_markers[0] == 18


def test_F2101_live_in_the_garden_counts_controlled_systems_with_fresh_blight_BR_097():
    """Blightkin undeclared: 1 space per controlled system with fresh Blight (a damaged-only
    one and an uncontrolled one count nothing)."""
    t = naturalist_table()
    blighted_planet(t, 0, fresh=1)
    blighted_planet(t, 0, fresh=2, damaged=1)
    blighted_planet(t, 0, fresh=0, damaged=1)
    blighted_planet(t, 1, fresh=1)
    s = t.state
    garden = fate_naturalist.fresh_blight_controlled(s, 0)
    marker = s.objective_markers[0]
    score_now(t)
    assert garden >= 2 and t.state.objective_markers[0] == max(marker - garden, 0)
    sound(t)


def test_F2101_no_garden_advance_when_a_rival_wins_blightkin():
    t = naturalist_table()
    blighted_planet(t, 0, fresh=1)
    for _ in range(3):
        blighted_planet(t, 1, fresh=1)
    declare_by_arrangement(t, "blightkin")
    marker = t.state.objective_markers[0]
    score_now(t)
    assert t.state.objective_markers[0] == marker
    sound(t)


# -- F2104 Blightkin Ambition ------------------------------------------------------------------------
def test_F2104_blightkin_declared_instead_of_empath_scored_and_its_box_kept():
    t = naturalist_table()
    lead(t, 1, "AGG6", declare="keep")
    assert {"empath", "blightkin"} <= set(declared_options(t))
    t.act(1, Action("declare", {"ambition": "blightkin"}))
    s = t.state
    assert len(s.ambition_boxes["blightkin"]) == 1
    for _ in range(3):
        blighted_planet(t, 1, fresh=1)
    expected = score_ambition(box_for(s), s, "blightkin")
    assert expected[1] > 0
    events = score_now(t)
    power = next({int(k): v for k, v in e.data["power"].items()} for e in events
                 if e.type == "scored" and "blightkin" in e.data["ambitions"])
    assert power == expected
    s = t.state
    assert s.chapter == 2 and s.ambition_boxes["blightkin"] == []
    assert len(s.markers_available) == len(box_for(s).board.ambition_markers)
    sound(t)


def test_F2104_a_five_declares_no_blightkin():
    t = naturalist_table()
    lead(t, 1, "AGG5", declare="keep")
    assert "blightkin" not in declared_options(t)
    refused(t, 1, Action("declare", {"ambition": "blightkin"}))


# -- F2102 Blight Society ----------------------------------------------------------------------------
def society(index: int, **params) -> Action:
    return Action("act", {"act": "ability", "pay": -1, "card": "F2102", "index": index, "params": params})


def test_F2102_repair_blight_the_naturalist_controls():
    t = naturalist_table()
    planet = blighted_planet(t, 0, fresh=0, damaged=1)
    lead(t, 0, "ADM3")
    assert any(a.params.get("card") == "F2102" and a.params.get("index") == REPAIR for a in options(t, 0))
    t.act(0, society(REPAIR, system=planet))
    assert bl.blight(t.state, planet) == Pieces(fresh=1)
    refused(t, 0, society(REPAIR, system=planet))
    sound(t)


def test_F2102_move_blight_from_a_system_the_naturalist_controls_only():
    t = naturalist_table()
    planet = blighted_planet(t, 0, fresh=1)
    uncontrolled = blighted_planet(t, 1, fresh=1)
    lead(t, 0, "MOB3")
    refused(t, 0, society(MOVE, origin=uncontrolled, to=planet, fresh=1))
    move = next(a for a in options(t, 0) if a.params.get("card") == "F2102" and a.params.get("index") == MOVE
                and a.params["params"]["origin"] == planet)
    to = move.params["params"]["to"]
    t.act(0, move)
    s = t.state
    assert planet not in s.blight and bl.blight(s, to).total >= 1
    sound(t)


def test_F2102_damaging_blight_in_battle_scraps_one_agent(monkeypatch):
    t = naturalist_table()
    planet = blighted_planet(t, 0, fresh=2)
    agents = t.state.players[0].agents
    lead(t, 0, "AGG3")
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])
    t.act(0, Action("act", {"act": "battle", "pay": -1, "system": planet, "defender": -3, "assault": 2}))
    if prompt_of(t, "br.blight_hits") or (t.state.prompts and t.state.prompts[0].kind.endswith("blight_hits")):
        t.act(0, Action("assign_blight_hits", {"damage_fresh": 2}))
    s = t.state
    assert bl.blight(s, planet).fresh < 2
    assert s.players[0].agents == agents - 1 and s.scrapped_agents.count(0) == 1  # once per action
    sound(t)


def test_F2102_a_psionic_spares_the_blight_crises_where_the_naturalists_ships_are_BR_213():
    t = naturalist_table()
    sheltered = blighted_planet(t, 0, fresh=1, ships=2)
    exposed = blighted_planet(t, 1, fresh=1, ships=2)
    take_from_supply(t, 0, "psionic")
    s = t.state
    s.prompts, s.stack = [], []
    run_steps(t, CRISES, AFTER)
    prompt = prompt_of(t, "spare_blight_crises")
    assert prompt.seat == 0
    psionic, held = s.supply["psionic"], s.players[0].resources.count("psionic")
    t.act(0, Action("spare_blight_crises", {"spend": True}))
    s = t.state
    assert s.systems[sheltered].ships[0].fresh == 2 and s.systems[sheltered].ships[0].damaged == 0
    assert s.systems[exposed].ships[1].total < 2 or s.systems[exposed].ships[1].damaged > 0
    assert s.supply["psionic"] == psionic + 1 and s.players[0].resources.count("psionic") == held - 1
    assert s.blight_spared == -1
    sound(t)


def test_F2102_declining_leaves_the_crises_as_they_are():
    t = naturalist_table()
    sheltered = blighted_planet(t, 0, fresh=1, ships=2)
    take_from_supply(t, 0, "psionic")
    s = t.state
    s.prompts, s.stack = [], []
    run_steps(t, CRISES, AFTER)
    refused(t, 0, Action("spare_blight_crises", {"spend": "maybe"}))
    t.act(0, Action("spare_blight_crises", {"spend": False}))
    s = t.state
    assert s.systems[sheltered].ships[0].damaged > 0 or s.systems[sheltered].ships[0].total < 2
    assert "psionic" in s.players[0].resources
    sound(t)


# -- F2103 Spore Guides ------------------------------------------------------------------------------
def test_F2103_seed_turns_the_die_by_returned_agents_and_places_a_damaged_blight():
    """The number die rolled, turned 1 by the one agent returned from the Court (6 wraps to
    1); a damaged Blight on a system of that cluster without Blight."""
    t = naturalist_table()
    s = t.state
    card = next(c for c in s.court_row if c and not c.startswith("AID"))
    s.court_agents.setdefault(card, [0] * len(s.players))[0] += 1
    s.players[0].agents -= 1
    lead(t, 0, "CON3")
    t.act(0, Action("act", {"act": "ability", "pay": -1, "card": "F2103", "index": 0, "params": {}}))
    prompt = prompt_of(t, "seed_turn")
    assert prompt.seat == 0 and [o.params["shift"] for o in prompt.options] == [-1, 0, 1]
    refused(t, 0, Action("seed_turn", {"shift": 2}))
    cluster = prompt.args["rolled"] % 6 + 1
    s = t.state
    open_system = cluster_systems(box_for(s), cluster)[0]
    set_blight(t, open_system)  # (arranged: one system of that cluster free of Blight)
    free_before = fate_naturalist.seed_sites(s, cluster)
    agents = s.players[0].agents
    t.act(0, Action("seed_turn", {"shift": 1}))  # its one agent's card is the only answer: taken at once
    s = t.state
    assert s.players[0].agents == agents + 1 and s.court_agents[card][0] == 0
    place = prompt_of(t, "seed_place")
    if place is not None:
        assert sorted(o.params["system"] for o in place.options) == sorted(free_before)
        t.act(0, place.options[0])
    seeded = [e.data["system"] for e in t.events if e.type == "blight_seeded"]
    assert len(seeded) == 1 and seeded[0] in free_before
    assert bl.blight(t.state, seeded[0]) == Pieces(damaged=1)
    sound(t)


# -- bot campaigns -----------------------------------------------------------------------------------
def test_FATE21_bot_campaigns_with_the_naturalist_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the
    Naturalist at Act II's Intermission; invariants after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: NATURALIST})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == NATURALIST
