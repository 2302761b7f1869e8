"""The Survivalist (FATE18, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F18nn) and the checklist IDs it proves."""
from __future__ import annotations

import core.chance
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.scoring import marker_values
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import event_flow
from tests.blighted_reach.test_fate_guardian import no_captives
from tests.blighted_reach.c_fate_tables import (
    act_three_table, clear_row, declare_by_arrangement, free_planet, prompt_of, refused, run_steps, score_now,
    sound, take_from_supply,
)
from tests.blighted_reach.campaign_tables import put_building, put_ships
from tests.blighted_reach.flow_helpers import options, restart_round

SURVIVALIST = "FATE18"
BUILD, REPAIR = 1, 2  # Building Bunkers' new actions, by index
EDICT = (event_flow.edict, {"card": "F1805", "do": "handler", "handler": "captive_release"})
AFTER = (event_flow.summit_offer, {"seat": 0, "via": "event"})


def survivalist_table(players: int = 3, seed: int = 3):
    t = act_three_table({0: SURVIVALIST}, players, seed)
    assert t.state.fates[0] == SURVIVALIST and t.state.act == 3
    return t


def capture(t, holder: int, owner: int, count: int = 1) -> None:
    """An arranged Captive: `owner`'s agent from its supply to `holder`'s Captives."""
    s = t.state
    s.players[owner].agents -= count
    s.players[holder].captives.extend([owner] * count)


def put_bunker(t, planet: str, damaged: bool = False) -> None:
    s = t.state
    s.bunker_supply -= 1
    s.bunkers[planet] = damaged


def bunkerless_planet(t) -> str:
    """A free planet (`free_planet`'s) with no Bunker either."""
    s = t.state
    planet = free_planet(t)
    if planet not in s.bunkers:
        return planet
    box = box_for(s)
    return next(p for p in sorted(s.systems) if box.systems[p] is not None and p not in s.bunkers
                and not s.systems[p].buildings and not any(g.total for g in s.systems[p].ships))


def lead(t, seat: int, card: str):
    hands = [[f"MOB{3 + i}"] for i in range(len(t.state.players))]
    hands[seat] = [card]
    restart_round(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if prompt_of(t, "declare"):
        t.act(seat, Action("declare", {"ambition": ""}))


def ability(index: int, **params) -> Action:
    return Action("act", {"act": "ability", "pay": -1, "card": "F1803", "index": index, "params": params})


def rolls(monkeypatch, faces):
    """The battle roll shows these (die, face index): assault 0 is 2 hits, raid 2 a building hit and a key."""
    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    monkeypatch.setattr(core.chance, "roll", roll)


def scored_power(events, ambition: str) -> dict:
    return next({int(k): v for k, v in e.data["power"].items()} for e in events
                if e.type == "scored" and ambition in e.data["ambitions"])


# -- F1801 -----------------------------------------------------------------------------------------
def test_F1801_setup_side_vow_bunkers_and_the_two_laws_BR_106():
    """Act III setup: Vow of Survival gained, Building Bunkers in the play area with its 9
    tokens, Bunkers and Captive Release in the booklet; the final objective's marker on 18
    with 3 players, 22 with 2 (BR-106)."""
    t = survivalist_table()
    s = t.state
    assert "F1802" in s.players[0].lore and "F1803" in s.play_area[0]
    assert s.bunker_supply == 9 and s.bunkers == {}
    assert any("F1804" in slot for slot in s.booklet) and any("F1805" in slot for slot in s.booklet)
    assert s.objective_markers[0] == 18
    sound(t)
    assert survivalist_table(players=2).state.objective_markers[0] == 22


# -- F1803 Build Bunker -----------------------------------------------------------------------------
def bunker_site(t) -> str:
    planet = free_planet(t)
    put_ships(t.state, 0, planet, fresh=1)
    return planet


def test_F1803_build_bunker_scraps_an_agent_and_captures_a_rivals():
    t = survivalist_table()
    no_captives(t)
    planet = bunker_site(t)
    lead(t, 0, "CON2")
    s = t.state
    built = [a for a in options(t, 0) if a.params.get("card") == "F1803" and a.params.get("index") == BUILD]
    assert {a.params["params"]["system"] for a in built} >= {planet}
    agents, rival = s.players[0].agents, s.players[1].agents
    t.act(0, ability(BUILD, system=planet, capture=1))
    s = t.state
    assert s.bunkers == {planet: False} and s.bunker_supply == 8
    assert s.players[0].agents == agents - 1 and s.scrapped_agents.count(0) == 1
    assert s.players[1].agents == rival - 1 and s.players[0].captives == [1]
    sound(t)


def test_F1803_build_bunker_refusals():
    """No Loyal piece on the planet, a planet that holds a Bunker, a capture refused while a
    Rival has agents, no agent to scrap: each refused, nothing changes."""
    t = survivalist_table()
    planet = bunker_site(t)
    elsewhere = free_planet(t)
    lead(t, 0, "CON2")
    refused(t, 0, ability(BUILD, system=elsewhere, capture=1))
    refused(t, 0, ability(BUILD, system=planet, capture=-1))
    refused(t, 0, ability(BUILD, system=planet, capture=0))
    put_bunker(t, planet)
    refused(t, 0, ability(BUILD, system=planet, capture=1))
    s = t.state
    del s.bunkers[planet]
    s.bunker_supply += 1
    s.scrapped_agents.extend([0] * s.players[0].agents)
    s.players[0].agents = 0
    refused(t, 0, ability(BUILD, system=planet, capture=1))
    sound(t)


def test_F1803_a_bunker_is_a_loyal_piece_built_damaged_where_a_rival_controls_and_repaired():
    t = survivalist_table()
    planet = bunker_site(t)
    put_ships(t.state, 1, planet, fresh=2)
    lead(t, 0, "CON2")
    t.act(0, ability(BUILD, system=planet, capture=1))
    s = t.state
    assert s.bunkers[planet] is True
    put_ships(s, 0, planet, fresh=0)
    s.players[0].ships += s.systems[planet].ships[0].fresh
    s.systems[planet].ships[0].fresh = 0  # the ship leaves: the Bunker alone is a Loyal piece there
    from plugins.blighted_reach.board import has_loyal_pieces

    assert has_loyal_pieces(s, 0, planet) and not has_loyal_pieces(s, 2, planet)
    repairs = [a for a in options(t, 0) if a.params.get("card") == "F1803" and a.params.get("index") == REPAIR]
    assert [a.params["params"] for a in repairs] == [{"system": planet}]
    t.act(0, ability(REPAIR, system=planet))
    assert t.state.bunkers[planet] is False
    refused(t, 0, ability(REPAIR, system=planet))
    sound(t)


# -- Bunkers in battle (F1803, F1804) -------------------------------------------------------------------
def attacked_bunker(t, damaged: bool = False) -> str:
    """Seat 1's ships beside seat 0's lone Bunker."""
    planet = free_planet(t)
    put_bunker(t, planet, damaged)
    put_ships(t.state, 1, planet, fresh=2)
    return planet


def attack(t, planet: str, assault: int = 2):
    lead(t, 1, "AGG2")
    t.act(1, Action("act", {"act": "battle", "pay": -1, "system": planet, "defender": 0, "assault": assault}))


def test_F1804_two_hits_damage_a_bunker_and_it_opens_no_raid_dice(monkeypatch):
    """A lone Bunker can be attacked; the ships' hits go on to it (2 a step, Tough); raid dice
    cannot be collected against it when its owner has buildings elsewhere (never raided)."""
    t = survivalist_table()
    planet = attacked_bunker(t)
    lead(t, 1, "AGG2")
    assert any(put for put in t.state.systems.values() for b in put.buildings if b.owner == 0)
    refused(t, 1, Action("act", {"act": "battle", "pay": -1, "system": planet, "defender": 0, "raid": 1}))
    rolls(monkeypatch, [("assault", 0)])
    t.act(1, Action("act", {"act": "battle", "pay": -1, "system": planet, "defender": 0, "assault": 1}))
    s = t.state
    assert s.bunkers[planet] is True and s.battle is None
    assert not any(tr.kind == "bunker" for tr in s.players[1].trophies)
    sound(t)


def test_F1803_four_hits_destroy_a_bunker_a_trophy_and_a_captive_scrapped(monkeypatch):
    t = survivalist_table()
    no_captives(t)
    capture(t, 0, 2)
    planet = attacked_bunker(t)
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])
    attack(t, planet)
    s = t.state
    assert planet not in s.bunkers and s.players[1].trophies[-1].kind == "bunker"
    assert s.players[0].captives == [] and s.scrapped_agents.count(2) == 1
    sound(t)


def test_F1803_the_attacker_splits_hits_over_a_bunker_and_a_city_and_chooses_the_captive(monkeypatch):
    """4 hits on a fresh Bunker and a fresh city: 2 on each, or 4 on the Bunker (never an
    odd hit on the Bunker); a destroyed Bunker scraps a Captive of the attacker's choice."""
    t = survivalist_table()
    no_captives(t)
    capture(t, 0, 1)
    capture(t, 0, 2)
    planet = attacked_bunker(t)
    put_building(t.state, 0, planet, "city")
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])
    attack(t, planet)
    prompt = t.state.prompts[0]
    assert prompt.seat == 1
    from plugins.blighted_reach.fate_survivalist import bunker_splits

    choices = [(x.bunker, x.buildings) for x in bunker_splits(t.state, 4)]
    assert sorted(choices) == [(2, {"0": 2}), (4, {})]
    refused(t, 1, Action("assign_bunker_hits", {"bunker": 1, "buildings": {"0": 2}}))
    trophies = len(t.state.players[1].trophies)
    t.act(1, Action("assign_bunker_hits", {"bunker": 4, "buildings": {}}))
    s = t.state
    assert planet not in s.bunkers and len(s.players[1].trophies) == trophies + 1
    assert [b.kind for b in s.systems[planet].buildings] == ["city"]
    scrap = prompt_of(t, "scrap_captive")
    assert scrap.seat == 1 and {o.params["owner"] for o in scrap.options} == {1, 2}
    t.act(1, Action("scrap_captive", {"owner": 1}))
    assert t.state.players[0].captives == [2] and t.state.battle is None
    sound(t)


# -- F1802 Vow of Survival ---------------------------------------------------------------------------
def test_F1802_no_tyrant_for_the_survivalist():
    """A lead 3 would declare Tyrant: not for the holder of Vow of Survival."""
    t = survivalist_table()
    restart_round(t, [["AGG3"], ["MOB4"], ["MOB5"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG3"}))
    prompt = prompt_of(t, "declare")
    assert prompt is None or "tyrant" not in [o.params["ambition"] for o in prompt.options]
    refused(t, 0, Action("declare", {"ambition": "tyrant"}))
    assert t.state.ambition_boxes["tyrant"] == []


def test_F1802_a_won_ambition_gains_the_second_place_and_keep_the_people_safe_advances():
    """The Survivalist first in Tycoon gains the second place's Power; Keep the People Safe
    advances by the lower of its Captives (3) and its Bunkers (2)."""
    t = survivalist_table()
    for seat in range(3):
        clear_row(t, seat)
    no_captives(t)
    capture(t, 0, 1, 3)
    put_bunker(t, bunkerless_planet(t))
    put_bunker(t, bunkerless_planet(t))
    take_from_supply(t, 0, "material", 2)
    take_from_supply(t, 1, "fuel")
    declare_by_arrangement(t, "tycoon")
    s = t.state
    second = marker_values(box_for(s), s.ambition_boxes["tycoon"])[1]
    marker = s.objective_markers[0]
    power = scored_power(score_now(t), "tycoon")
    assert power[0] == second
    assert t.state.objective_markers[0] == marker - 2
    sound(t)


def test_F1802_tyrant_scored_the_survivalist_keeps_one_captive_per_bunker():
    t = survivalist_table()
    no_captives(t)
    capture(t, 0, 1, 2)
    capture(t, 0, 2)
    capture(t, 1, 0)
    put_bunker(t, bunkerless_planet(t))
    put_bunker(t, bunkerless_planet(t))
    declare_by_arrangement(t, "tyrant")
    agents = [p.agents for p in t.state.players]
    score_now(t)
    prompt = prompt_of(t, "keep_captives")
    assert prompt.seat == 0
    assert sorted(tuple(o.params["owners"]) for o in prompt.options) == [(1, 1), (1, 2)]
    refused(t, 0, Action("keep_captives", {"owners": [2, 2]}))
    t.act(0, Action("keep_captives", {"owners": [1, 2]}))
    s = t.state
    assert sorted(s.players[0].captives) == [1, 2] and s.players[1].captives == []
    assert s.players[1].agents == agents[1] + 1 and s.players[0].agents == agents[0] + 1
    sound(t)


# -- the objective's second half (F1801) -------------------------------------------------------------
def test_F1801_a_blight_crisis_at_a_bunker_advances_the_survivalist_BR_213_218():
    """Protect Against the Blight: 1 space for the Crisis at the Bunker's planet, none for
    the other; the Crisis does not hit the Bunker (BR-218: buildings never)."""
    t = survivalist_table()
    s = t.state
    planet = free_planet(t)
    put_bunker(t, planet)
    bl.place_blight(s, planet)
    other = next(p for p in sorted(s.systems) if p != planet and p not in s.bunkers and p not in s.blight)
    bl.place_blight(s, other)
    marker = s.objective_markers[0]
    bl.blight_crisis(s, planet)
    bl.blight_crisis(s, other)
    assert s.objective_markers[0] == marker - 1 and s.bunkers[planet] is False
    sound(t)


# -- F1805 Captive Release ----------------------------------------------------------------------------
def release_table():
    t = survivalist_table()
    no_captives(t)
    s = t.state
    capture(t, 0, 1, 2)
    capture(t, 0, 2)
    planet = free_planet(t)
    put_bunker(t, planet)
    put_ships(s, 1, planet, fresh=2)
    s.players[1].power = s.players[0].power + 3
    s.players[2].power = s.players[0].power + 3
    s.prompts = []
    return t, planet


def test_F1805_captive_release_all_of_the_rivals_captives_go_home():
    t, planet = release_table()
    agents = t.state.players[1].agents
    run_steps(t, EDICT, AFTER)
    prompt = prompt_of(t, "captive_release")
    assert prompt.seat == 1 and [o.params["system"] for o in prompt.options] == ["", planet]
    t.act(1, Action("captive_release", {"system": planet}))
    assert prompt_of(t, "release_or_outrage").seat == 0
    t.act(0, Action("release_or_outrage", {"choice": "release"}))
    s = t.state
    assert s.players[0].captives == [2] and s.players[1].agents == agents + 2
    assert prompt_of(t, "captive_release") is None  # seat 2 controls no Bunker
    sound(t)


def test_F1805_captive_release_refused_by_outrage_of_the_planets_type():
    t, planet = release_table()
    kind = box_for(t.state).systems[planet].type
    run_steps(t, EDICT, AFTER)
    t.act(1, Action("captive_release", {"system": planet}))
    t.act(0, Action("release_or_outrage", {"choice": "outrage"}))
    s = t.state
    assert kind in s.players[0].outrage and s.players[0].captives.count(1) == 2
    sound(t)


def test_F1805_nobody_with_less_power_or_no_captive_names_a_bunker():
    t, planet = release_table()
    t.state.players[1].power = t.state.players[0].power
    run_steps(t, EDICT, AFTER)
    assert prompt_of(t, "captive_release") is None
    sound(t)


# -- bot campaigns -----------------------------------------------------------------------------------
def test_FATE18_bot_campaigns_with_the_survivalist_in_act_three_play_to_a_winner():
    """Random bots play whole campaigns (2 and 3 players) in which a seat takes the
    Survivalist at Act II's Intermission; invariants after every action."""
    from tests.blighted_reach.c_fate_campaigns import arranged_campaign

    for players, seed in ((2, 1), (3, 2)):
        run = arranged_campaign(players, seed, {0: SURVIVALIST})
        assert run["errors"] == [] and run["winner"] is not None
        assert run["act_three_fates"][0] == SURVIVALIST


# -- ships held as Captives (Happy Hosts' Pacify, F1012) count as Captives here too -----------------
def ship_captive(t, holder: int, owner: int, count: int = 1) -> None:
    """An arranged ship Captive (as Pacify takes one, F1012): `owner`'s ship from its supply."""
    s = t.state
    s.players[owner].ships -= count
    s.ship_captives = {**s.ship_captives, str(holder): [*s.ship_captives.get(str(holder), []), *[owner] * count]}


def test_F1802_F1012_tyrant_scored_the_vow_keeps_ship_captives_among_its_captives():
    """Vow of Survival keeps 1 Captive per Bunker (2) of 3: an agent of seat 1's and ships of
    seat 1's and seat 2's (F1012); it keeps seat 1's agent and seat 2's ship, seat 1's ship
    goes home."""
    t = survivalist_table()
    no_captives(t)
    capture(t, 0, 1)
    ship_captive(t, 0, 1)
    ship_captive(t, 0, 2)
    put_bunker(t, bunkerless_planet(t))
    put_bunker(t, bunkerless_planet(t))
    declare_by_arrangement(t, "tyrant")
    ships = t.state.players[1].ships
    score_now(t)
    prompt = prompt_of(t, "keep_captives")
    assert prompt.seat == 0
    assert sorted((tuple(o.params["owners"]), tuple(o.params["ships"])) for o in prompt.options) == [
        ((), (1, 2)), ((1,), (1,)), ((1,), (2,))]
    refused(t, 0, Action("keep_captives", {"owners": [1], "ships": [1, 2]}))
    t.act(0, Action("keep_captives", {"owners": [1], "ships": [2]}))
    s = t.state
    assert s.players[0].captives == [1] and s.ship_captives == {"0": [2]} and s.players[1].ships == ships + 1
    sound(t)


def test_F1801_F1012_keep_the_people_safe_counts_ship_captives():
    """Keep the People Safe, Tycoon won: the lower of the Captives (1 agent and 1 ship taken by
    Pacify, F1012: 2) and the Bunkers (3) advances the Survivalist 2."""
    t = survivalist_table()
    for seat in range(3):
        clear_row(t, seat)
    no_captives(t)
    capture(t, 0, 1)
    ship_captive(t, 0, 2)
    for _ in range(3):
        put_bunker(t, bunkerless_planet(t))
    take_from_supply(t, 0, "material", 2)
    take_from_supply(t, 1, "fuel")
    declare_by_arrangement(t, "tycoon")
    marker = t.state.objective_markers[0]
    score_now(t)
    assert t.state.objective_markers[0] == marker - 2
    sound(t)


def test_F1803_F1012_a_destroyed_bunker_may_scrap_a_ship_captive(monkeypatch):
    """The attacker who destroys a Bunker chooses among the agent and ship Captives (F1012):
    it scraps seat 2's captured ship (out of the campaign)."""
    t = survivalist_table()
    no_captives(t)
    capture(t, 0, 2)
    ship_captive(t, 0, 2)
    planet = attacked_bunker(t)
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])
    attack(t, planet)
    scrap = prompt_of(t, "scrap_captive")
    assert scrap.seat == 1 and [o.params for o in scrap.options] == [{"owner": 2}, {"owner": 2, "ship": True}]
    t.act(1, Action("scrap_captive", {"owner": 2, "ship": True}))
    s = t.state
    assert s.players[0].captives == [2] and s.ship_captives == {} and s.scrapped_ships.count(2) == 1
    sound(t)


def test_F1805_F1012_captive_release_sends_the_rivals_ship_captives_home_too():
    """Seat 1, with only a ship among the Survivalist's Captives (F1012), may name its Bunker;
    released, that ship goes back to seat 1's supply with its agents."""
    t, planet = release_table()
    ship_captive(t, 0, 1)
    agents, ships = t.state.players[1].agents, t.state.players[1].ships
    run_steps(t, EDICT, AFTER)
    t.act(1, Action("captive_release", {"system": planet}))
    t.act(0, Action("release_or_outrage", {"choice": "release"}))
    s = t.state
    assert s.players[0].captives == [2] and s.ship_captives == {}
    assert s.players[1].agents == agents + 2 and s.players[1].ships == ships + 1
    sound(t)


def test_F1803_breaking_worlds_removes_a_bunker_onto_its_card_F1103():
    """Breaking Worlds' FAQ: Bunkers on a broken world are removed and added to its card (as
    the buildings are; no Trophy): the Bunker leaves the map and is counted on the card, the
    nine tokens still all accounted for (the rule as Breaking Worlds' action runs it)."""
    from plugins.blighted_reach.fate_planet_breaker import break_planet

    t = survivalist_table()
    planet = bunkerless_planet(t)
    put_bunker(t, planet)
    events = []
    break_planet(lambda kind, **data: events.append((kind, data)), t.state, planet)
    s = t.state
    assert planet not in s.bunkers and s.bunkers_on_worlds == 1 and planet in s.broken_worlds
    assert [d["tokens"] for k, d in events if k == "world_broken"] == [["bunker"]]
    assert not any(x.kind == "bunker" for p in s.players for x in p.trophies)
    sound(t)
