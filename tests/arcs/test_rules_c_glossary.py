"""Fine print and glossary terms (digest sections 13 and 14) as the engine and the pure
rule functions apply them: the safety net, limited pieces, placing and returning, where
pieces come from, adjacency, buildings, capture, control, damage and hits, destroying,
empty slots, gaining, giving, Loyal and Rival, out of play, the play area, spending,
Trophies, and Leaders & Lore being optional."""
from __future__ import annotations

import pytest

from core.engine import create_table, legal_actions
from core.errors import ActionRejected, IllegalAction
from plugins.arcs import abilities, lore_ops
from plugins.arcs.actions import check_build, check_repair, do_tax, take_court_card
from plugins.arcs.battle import ShipHits, apply_building_hits, apply_ship_hits, raid_dice_allowed
from plugins.arcs.chapter import clean_up
from plugins.arcs.content import default_box
from plugins.arcs.control import controller
from plugins.arcs.outrage import agent_returns, provoke_outrage
from plugins.arcs.reach import reach_for
from plugins.arcs.scoring import ambition_count
from plugins.arcs.setup import place_building, place_ships
from plugins.arcs.state import Building, Ships, SystemState, Trophy
from tests.arcs.flow_helpers import act, answer, prompt_of, put
from tests.arcs.test_flow_turn_battle import leading, refused

BOX = default_box()


def test_the_safety_net_needs_no_ship_and_no_starport_and_places_three_fresh_ships():
    """ARCS-271: a seat ending its own turn with no ship and no starport on the map (a city
    does not save it) places 3 fresh Loyal ships (ARCS-274) from its supply (ARCS-275) in a
    gate of its choice; any starport, even damaged, means no such placement."""
    t = leading("CON4")  # 3SETUP01: clusters 1 and 4 out of play, a bare map
    s = t.state
    place_building(s, "2.1", 0, "city")
    supply = s.players[0].ships
    act(t, 0, "done")
    p = prompt_of(t, 0)
    assert p.kind == "return_fleet" and sorted(a.params["gate"] for a in p.options) == ["2G", "3G", "5G", "6G"]
    with pytest.raises(ActionRejected):
        answer(t, 0, "place_fleet", gate="2.2")  # a planet is no gate
    answer(t, 0, "place_fleet", gate="6G")
    s = t.state
    assert s.systems["6G"].ships[0] == Ships(fresh=3) and s.players[0].ships == supply - 3
    assert all(here.ships_of(1).total == 0 for here in s.systems.values())

    t = leading("CON4")
    place_building(t.state, "2.1", 0, "starport", damaged=True)
    act(t, 0, "done")
    assert prompt_of(t, 0) is None and prompt_of(t, 1).kind == "follow"


def test_pieces_are_limited_but_an_outrage_agent_has_a_placeholder():
    """ARCS-273: with no ship in supply a Build of a ship places nothing (the map keeps its
    count); with no agent in supply an Outrage slot is covered by a placeholder, and the
    first agent coming home replaces it before joining the supply."""
    t = leading("CON4")
    s = t.state
    place_building(s, "2.1", 0, "starport")
    s.players[0].ships = 0
    act(t, 0, "build", system="2.1", what="ship")
    assert t.state.systems["2.1"].ships_of(0).total == 0 and t.state.players[0].ships == 0
    assert [e.data["placed"] for e in t.events if e.type == "built"][-1] is False

    s = t.state
    s.players[1].agents = 0
    provoke_outrage(BOX, s, 1, "fuel")
    assert s.players[1].outrage == ["fuel"] and s.players[1].outrage_placeholders == ["fuel"]
    agent_returns(s, 1)
    assert s.players[1].outrage_placeholders == [] and s.players[1].agents == 0
    agent_returns(s, 1)
    assert s.players[1].agents == 1


def test_placed_pieces_come_from_supply_and_board_and_go_back_there():
    """ARCS-274: placed ships are fresh and Loyal; ARCS-275, ARCS-306: ships and starports
    come from the owner's own supply, cities from the owner's board leftmost first, and on
    return (Warlord scored) ships and starports go back to that supply, a city to the
    rightmost empty city slot; resources come from the general supply."""
    t = leading("CON4")
    s = t.state
    ships, ports = s.players[1].ships, s.players[1].starports
    assert place_ships(s, "2.1", 1, 2) == 2
    assert s.systems["2.1"].ships == [Ships(), Ships(fresh=2), Ships()]
    assert s.players[1].ships == ships - 2
    place_building(s, "2.2", 1, "starport")
    assert s.players[1].starports == ports - 1
    for planet in ("2.3", "3.3", "5.3"):
        place_building(s, planet, 1, "city")
    assert s.players[1].cities_on_board == [False, False, False, True, True]
    s.players[0].trophies = [Trophy(owner=1, kind="ship"), Trophy(owner=1, kind="starport"),
                             Trophy(owner=1, kind="city")]
    s.players[1].cities_on_board = [False, True, False, True, True]  # slots 1 and 3 empty
    s.players[1].resources = ["fuel", "weapon", None, None, None, None]
    clean_up(BOX, s, ["warlord"])
    assert s.players[1].ships == ships - 1 and s.players[1].starports == ports
    assert s.players[1].cities_on_board == [False, True, True, True, True]  # the rightmost empty slot
    assert s.players[0].trophies == []
    supply = s.supply["psionic"]
    place_building(s, "2.1", 0, "city")
    got = do_tax(BOX, s, 0, "2.1", 0)  # 2.1 is a Psionic planet
    assert got["resource"] == "psionic" and s.supply["psionic"] == supply - 1


def test_adjacent_means_a_shared_border():
    """ARCS-284 (ARCS-020): with the whole map in play there are 38 borders: the 6 gates in
    a ring, each gate with its 3 planets, n.1-n.2 and n.2-n.3 in each cluster, 2.3-3.1 and
    5.3-6.1; no others. A move to a system without a shared border is refused."""
    reach = reach_for(BOX, ())
    edges = {frozenset((a, b)) for a, ns in reach.neighbours.items() for b in ns}
    expected = set()
    for n in range(1, 7):
        expected.add(frozenset((f"{n}G", f"{n % 6 + 1}G")))
        for p in (1, 2, 3):
            expected.add(frozenset((f"{n}G", f"{n}.{p}")))
        expected |= {frozenset((f"{n}.1", f"{n}.2")), frozenset((f"{n}.2", f"{n}.3"))}
    expected |= {frozenset(("2.3", "3.1")), frozenset(("5.3", "6.1"))}
    assert len(expected) == 38 and edges == expected
    t = leading("MOB4")
    put(t, "2.1", 0, fresh=1)
    refused(t, 0, {"act": "move", "origin": "2.1", "path": ["2.3"], "fresh": 1})
    act(t, 0, "move", origin="2.1", path=["2.2"], fresh=1)
    assert t.state.systems["2.2"].ships_of(0).fresh == 1


def test_a_building_is_a_city_or_a_starport():
    """ARCS-285: for the raid-dice rule a starport is a building like a city: a defender's
    starport in the battle system allows raid dice; a starport elsewhere forbids them when
    the defender has none here; no building anywhere allows them. Ships are no building:
    a ship needs no empty slot."""
    systems = {"2.1": SystemState(ships=[Ships(fresh=1), Ships(fresh=1)]), "3.1": SystemState(ships=[Ships(), Ships()])}
    assert raid_dice_allowed(systems, "2.1", 1)
    systems["3.1"].buildings.append(Building(kind="starport", owner=1))
    assert not raid_dice_allowed(systems, "2.1", 1)
    systems["2.1"].buildings.append(Building(kind="starport", owner=1))
    assert raid_dice_allowed(systems, "2.1", 1)
    t = leading("CON4")
    s = t.state
    place_building(s, "2.1", 0, "starport")  # 2.1 has 1 slot: now full
    with pytest.raises(IllegalAction):
        check_build(BOX, s, 0, "2.1", "city", [])
    check_build(BOX, s, 0, "2.1", "ship", [])


def test_capture_puts_a_rival_agent_into_the_captives_box():
    """ARCS-287: taxing a Rival city under control captures one of its owner's agents from
    their supply into the taxer's Captives."""
    t = leading("ADM4")
    s = t.state
    put(t, "3.1", 0, fresh=2)
    place_building(s, "3.1", 2, "city")
    agents = s.players[2].agents
    act(t, 0, "tax", system="3.1", building=0)
    assert t.state.players[0].captives == [2] and t.state.players[2].agents == agents - 1


def test_control_is_strictly_the_most_fresh_ships():
    """ARCS-290 (ARCS-319's vector): 3, 3 and 1 fresh ships: nobody; 2 fresh + 3 damaged
    against 1 fresh: the 2; damaged ships and buildings count for nothing."""
    assert controller(SystemState(ships=[Ships(fresh=3), Ships(fresh=3), Ships(fresh=1)])) is None
    assert controller(SystemState(ships=[Ships(fresh=2, damaged=3), Ships(fresh=1)])) == 0
    assert controller(SystemState(ships=[Ships(damaged=4), Ships(fresh=1)],
                                  buildings=[Building("city", 0), Building("starport", 0)])) == 1
    assert controller(SystemState(ships=[Ships(damaged=2), Ships()])) is None


def test_a_hit_damages_a_fresh_piece_and_destroys_a_damaged_one():
    """ARCS-291, ARCS-296: fresh and damaged are the two states; one hit tips a fresh ship
    or turns a fresh building dark, a hit on a damaged piece removes it; ARCS-292: destroyed
    pieces leave the map whatever their state (a fresh ship with two hits, a damaged one
    with one); a repair makes a damaged piece fresh again."""
    ships = Ships(fresh=3, damaged=1)
    assert apply_ship_hits(ships, ShipHits(damage_fresh=1)) == Ships(fresh=2, damaged=2)
    assert apply_ship_hits(ships, ShipHits(destroy_fresh=1, destroy_damaged=1)) == Ships(fresh=2, damaged=0)
    buildings = [Building("city", 1), Building("starport", 1, damaged=True), Building("city", 1)]
    left, gone = apply_building_hits(buildings, {0: 1, 1: 1, 2: 2})
    assert left == [Building("city", 1, damaged=True)]
    assert gone == [Building("starport", 1, damaged=True), Building("city", 1)]
    t = leading("CON4")
    put(t, "2.1", 0, damaged=1)
    act(t, 0, "repair", system="2.1", piece="ship")
    assert t.state.systems["2.1"].ships_of(0) == Ships(fresh=1)


def test_an_empty_slot_holds_no_piece():
    """ARCS-293: a building goes only into an empty building slot: 2.3 (2 slots) takes a
    second building, then refuses a third."""
    t = leading("CON4")
    s = t.state
    put(t, "2.3", 0, fresh=1)
    place_building(s, "2.3", 1, "city")
    act(t, 0, "build", system="2.3", what="starport")
    assert [b.kind for b in t.state.systems["2.3"].buildings] == ["city", "starport"]
    refused(t, 0, {"act": "build", "system": "2.3", "what": "city"}, IllegalAction)


def test_gain_from_an_empty_supply_gains_nothing():
    """ARCS-294: a Tax of a Loyal city on a Psionic planet with no Psionic left in the
    general supply gains nothing (the Tax itself is still taken)."""
    t = leading("ADM4")
    s = t.state
    place_building(s, "2.1", 0, "city")
    s.supply["psionic"] = 0
    held, pips = list(s.players[0].resources), s.turn.pips
    act(t, 0, "tax", system="2.1", building=0)
    s = t.state
    assert s.players[0].resources == held and s.supply["psionic"] == 0 and s.turn.pips == pips - 1


def test_give_adds_a_card_to_a_rival_play_area():
    """ARCS-295: Generous (the Feastbringer) gives the named Guild card to the Rival with
    the least Power: it leaves the giver's play area for that Rival's."""
    t = leading("CON4")
    s = t.state
    s.players[0].leader = "LEAD07"
    s.players[0].guild = ["BC01", "BC02"]
    s.players[1].power, s.players[2].power = 4, 2
    assert lore_ops.pay_generous(s, BOX, 0, "BC02") == 2
    assert s.players[0].guild == ["BC01"] and s.players[2].guild == ["BC02"] and s.players[1].guild == []


def test_loyal_and_rival_pieces():
    """ARCS-297: a repair takes only a damaged Loyal (own-colour) piece; a Rival's damaged
    ship or building is refused; a Loyal city is taxed without control, a Rival city not."""
    t = leading("CON4")
    s = t.state
    put(t, "2.1", 1, damaged=1)
    place_building(s, "2.2", 1, "starport", damaged=True)
    with pytest.raises(IllegalAction):
        check_repair(s, 0, "2.1", "ship")
    with pytest.raises(IllegalAction):
        check_repair(s, 0, "2.2", "building", 0)
    check_repair(s, 1, "2.1", "ship")
    t = leading("ADM4")
    s = t.state
    place_building(s, "2.1", 0, "city")
    place_building(s, "3.1", 1, "city")
    refused(t, 0, {"act": "tax", "system": "3.1", "building": 0}, IllegalAction)
    act(t, 0, "tax", system="2.1", building=0)


def test_out_of_play_systems_cannot_be_touched():
    """ARCS-298: with clusters 1 and 4 out of play (3SETUP01) their systems are not on the
    table: no answer the engine lists names them, and moving, building or battling there
    is refused."""
    t = leading("AGG4")
    s = t.state
    gone = {"1G", "1.1", "1.2", "1.3", "4G", "4.1", "4.2", "4.3"}
    assert not gone & set(s.systems)
    put(t, "2G", 0, fresh=2)
    put(t, "2G", 1, fresh=1)
    listed = [a.params for a in legal_actions(s, 0, t.rules)]
    assert listed and not any(v in gone for p in listed for v in [p.get("system"), p.get("origin"), *p.get("path", [])])
    refused(t, 0, {"act": "move", "origin": "2G", "path": ["1G"], "fresh": 1})
    refused(t, 0, {"act": "battle", "system": "1G", "defender": 1, "assault": 1})
    t = leading("CON4")
    put(t, "2G", 0, fresh=1)
    refused(t, 0, {"act": "build", "system": "1.1", "what": "city"})


def test_the_play_area_holds_guild_cards_lore_and_the_leader():
    """ARCS-300: what lies in a seat's play area is that seat's: a Guild card there counts
    for its ambitions (a Material card for Tycoon), and the abilities the seat holds are
    those of the Guild cards, Lore and Leader in its play area, nobody else's."""
    t = leading("CON4")
    s = t.state
    s.players[0].resources = [None] * 6
    s.players[0].guild = ["BC01"]  # Loyal Engineers, Material suit
    s.players[0].lore = ["L14"]
    s.players[0].leader = "LEAD05"
    assert ambition_count(BOX, s, s.players[0], "tycoon") == 1
    cards = {u.card for when in ("always", "outrage", "battle_roll") for u in abilities.held(s, BOX, 0, when)}
    assert {"BC01", "L14"} <= cards
    assert {u.card for u in abilities.modifiers(s, BOX, 0, "extra_dice")} == {"LEAD05"}
    assert not any(abilities.held(s, BOX, 1, when) for when in ("always", "outrage", "battle_roll"))


def test_spending_returns_the_resource_to_the_general_supply():
    """ARCS-304: a Fuel spent in the Prelude leaves its slot and is back in the general
    supply once the Prelude closes."""
    t = leading("CON4")
    s = t.state
    s.players[0].resources[0] = "fuel"
    s.supply["fuel"] -= 1
    put(t, "2G", 0, fresh=1)
    supply = s.supply["fuel"]
    act(t, 0, "move", pay=0, origin="2G", path=["3G"], fresh=1)
    assert t.state.players[0].resources[0] is None
    put(t, "3G", 0, damaged=1)
    act(t, 0, "repair", system="3G", piece="ship")  # the first pip closes the Prelude
    assert t.state.supply["fuel"] == supply + 1


def test_trophies_are_destroyed_rival_pieces_and_ransacked_agents():
    """ARCS-309: a Ransack takes the Rival agents on the card as Trophies (the ransacker's
    own go home); Trophies of every kind count one each for Warlord; they stay while Warlord
    is not scored and are all returned when it is."""
    t = leading("CON4")
    s = t.state
    card = s.court_row[0]
    s.court_agents[card] = [1, 2, 0]
    s.players[1].agents -= 2
    s.players[0].agents -= 1
    agents0, agents1 = s.players[0].agents, s.players[1].agents
    take_court_card(BOX, s, 0, card, rivals_to="trophies")
    assert s.players[0].trophies == [Trophy(owner=1, kind="agent")] * 2 and s.players[0].agents == agents0 + 1
    s.players[0].trophies += [Trophy(owner=2, kind="ship"), Trophy(owner=2, kind="starport")]
    assert ambition_count(BOX, s, s.players[0], "warlord") == 4
    clean_up(BOX, s, ["tyrant"])
    assert len(s.players[0].trophies) == 4
    clean_up(BOX, s, ["warlord"])
    assert s.players[0].trophies == [] and s.players[1].agents == agents1 + 2


def test_leaders_and_lore_is_an_optional_mode():
    """ARCS-259: without the module no seat has a Leader or Lore; with it, after the draft,
    every seat holds exactly one Leader and one Lore card."""
    plain = create_table("arcs", 3, seed=2)
    assert all(p.leader is None and p.lore == [] for p in plain.state.players)
    t = create_table("arcs", 3, seed=2, modules=["leaders-and-lore"])
    while any(p.kind == "lal.pick" for p in t.state.prompts):
        (p,) = t.state.prompts
        t.act(p.seat, legal_actions(t.state, p.seat, t.rules)[0])
    players = t.state.players
    assert all(p.leader in BOX.leaders and len(p.lore) == 1 and p.lore[0] in BOX.lore for p in players)
    assert len({p.leader for p in players}) == 3
