"""The Empire, the Free States and the Blight played through the engine: real campaign tables
(Act I set up, then pieces arranged through their supplies), real turns (`t.act` answers to
the Arcs flow's prompts). Each test names the BR checklist IDs it plays through; every
refusal is a typed error that leaves the state byte-identical.

Seed 3, 3 players: seat 0 (FATE02) and seat 2 (FATE03) ignore no Law; seat 1 (FATE07, the
First Regent) ignores the Movement and Presence Laws. One fresh Imperial ship stands in every
system of clusters 2 and 3."""
from __future__ import annotations

import msgspec
import pytest

import core.chance
from core.engine import apply
from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.arcs.state import Trophy
from plugins.blighted_reach import empire
from plugins.blighted_reach.blight import BLIGHT
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.state import FREE, Pieces
from tests.blighted_reach.empire_tables import (
    give_building, give_free, remove_building, set_imperial, set_ships,
)
from tests.blighted_reach.flow_helpers import ready, restart_round

REGENT, FIRST_REGENT, OTHER = 0, 1, 2  # seat 2 turns Outlaw where a test needs one
SPARE = ("ADM6", "CON6", "MOB6", "AGG6", "ADM5", "CON5")


# -- helpers ------------------------------------------------------------------------------
def campaign_table():
    t = ready(3, 3)
    assert t.state.fates == ["FATE02", "FATE07", "FATE03"] and t.state.first_regent == FIRST_REGENT
    return t


def outlaw(t, seat: int = OTHER) -> None:
    empire.become_outlaw(t.state, seat)


def turn(t, seat: int, card: str) -> None:
    """A new round in which `seat` leads `card` (declaring nothing); the others hold a card each.
    The round under way, if any, is set aside: its played cards go to the discard."""
    s = t.state
    s.action_discard.extend([*(p.card for p in s.plays if p.card), *s.facedown])
    s.plays, s.facedown, s.queue, s.surpasses, s.turn, s.battle = [], [], [], [], None, None
    s.lead, s.lead_seat, s.declared = "", -1, False
    spare = iter(c for c in SPARE if c != card)
    restart_round(t, [[card] if s == seat else [next(spare)] for s in range(len(t.state.players))], initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))
    assert t.state.turn is not None and t.state.turn.seat == seat


def act(t, seat: int, **params):
    """One turn action; a resource it gains is then placed (the owner's first listed placement)."""
    events = t.act(seat, Action("act", params))
    settle(t)
    return events


def settle(t) -> None:
    """Every resource waiting to be placed goes where its owner's first listed placement puts it."""
    while any(p.decision == "arcs.place_resources" for p in t.state.prompts):
        placing = next(p for p in t.state.prompts if p.decision == "arcs.place_resources")
        t.act(placing.seat, t.legal(placing.seat)[0])


def held(t, seat: int, resource: str) -> int:
    return t.state.players[seat].resources.count(resource)


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def refused(t, seat: int, params: dict, error=ActionRejected, type: str = "act"):
    before = snapshot(t)
    with pytest.raises(error):
        t.act(seat, Action(type, params))
    assert snapshot(t) == before


def sound(t) -> None:
    assert t.rules.hook.conclave_check_invariants(state=t.state) == [[]]


def rolls(monkeypatch, faces):
    """The battle roll shows these (die, face index) pairs. Faces: assault 0 = 2 hits, 1 = 2
    hits + 1 self-hit, 5 blank; skirmish 0 = 1 hit, 3 blank; raid 0 = intercept + 2 keys,
    2 = building hit + key, 5 = intercept."""
    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)
    monkeypatch.setattr(core.chance, "roll", roll)


def prompt_of(t, seat: int):
    return next(p for p in t.state.prompts if p.seat == seat)


def city(t, system: str, owner: int) -> int:
    return next(i for i, b in enumerate(t.state.systems[system].buildings) if b.owner == owner and b.kind == "city")


# -- taxing (BR-122, BR-123, BR-124, BR-133, BR-177, BR-184) ---------------------------------
def test_a_regent_taxes_as_controller_where_the_empire_rules_and_a_free_city_captures_nobody_BR_122_123_177_184():
    """BR-122, BR-123, BR-177, BR-184.
    3.3 is Empire-controlled (a fresh Imperial ship); the Outlaw has 3 fresh ships there,
    the Regent 1, so the base rule would call it the Outlaw's. On the Regent's turn the
    Presence Law makes it the Regent's: it taxes the Outlaw's city there (capturing an agent,
    ARCS-139) and the Free city (capturing nobody)."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    mine = give_building(s, OTHER, "3.3", "city")
    set_ships(s, OTHER, "3.3", fresh=3)
    set_ships(s, REGENT, "3.3", fresh=1)
    free = next(i for i, b in enumerate(s.systems["3.3"].buildings) if b.owner == FREE)
    turn(t, REGENT, "ADM3")
    agents = s.players[OTHER].agents
    act(t, REGENT, system="3.3", building=mine, **{"act": "tax"})
    s = t.state
    assert s.players[REGENT].captives == [OTHER] and s.players[OTHER].agents == agents - 1
    act(t, REGENT, system="3.3", building=free, **{"act": "tax"})
    s = t.state
    assert s.players[REGENT].captives == [OTHER]  # BR-184: the Free city gave no captive
    assert held(t, REGENT, "weapon") == 2
    sound(t)


def test_taxing_needs_loyal_pieces_and_the_truce_law_shields_a_rival_regent_BR_124_133():
    """BR-124, BR-133.
    BR-124: without a Loyal piece in 2.3 (Empire-controlled) the Regent cannot tax the
    Outlaw's city there. BR-133: in 2.2 the Regent even outnumbers the Rival Regent (the base
    rule's control), yet an Imperial ship is there: the Truce Law refuses the tax."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.2", fresh=4)
    turn(t, REGENT, "ADM3")
    refused(t, REGENT, {"act": "tax", "system": "2.3", "building": city(t, "2.3", OTHER)}, IllegalAction)
    refused(t, REGENT, {"act": "tax", "system": "2.2", "building": city(t, "2.2", FIRST_REGENT)}, IllegalAction)
    set_imperial(t.state, "2.2")  # no Imperial ship: no truce, and the Regent controls by ships
    act(t, REGENT, system="2.2", building=city(t, "2.2", FIRST_REGENT), **{"act": "tax"})
    assert t.state.players[REGENT].captives == [FIRST_REGENT]
    sound(t)


def test_an_outlaw_taxes_a_free_city_only_where_it_controls_BR_177_184():
    """BR-177, BR-184.
    An Outlaw never controls an Empire system (3.3); in 1.3 (no Imperial ship) its fresh
    ships control, and the Free city there pays, capturing nobody."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, OTHER, "3.3", fresh=4)
    set_ships(s, OTHER, "1.3", fresh=2)
    turn(t, OTHER, "ADM3")
    refused(t, OTHER, {"act": "tax", "system": "3.3", "building": 0}, IllegalAction)
    act(t, OTHER, system="1.3", building=0, **{"act": "tax"})
    s = t.state
    assert s.players[OTHER].captives == []
    assert held(t, OTHER, "material") == 1
    sound(t)


# -- building (BR-126, BR-177) ---------------------------------------------------------------
def test_the_rulebook_example_outlaw_builds_damaged_the_regent_fresh_BR_126_122():
    """BR-122, BR-126.
    BR-126's example: an Outlaw with 4 fresh ships, a Regent with 2 and 1 fresh Imperial
    ship in 3.3. By the base rule the Outlaw controls; with the Empire, on the Outlaw's turn
    the Empire controls (its city is placed damaged) and on the Regent's turn the Regent
    does (its starport is placed fresh)."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    for _ in range(2):
        remove_building(s, "3.3", 0)
    set_ships(s, OTHER, "3.3", fresh=4)
    set_ships(s, REGENT, "3.3", fresh=2)
    turn(t, OTHER, "CON3")
    act(t, OTHER, system="3.3", what="city", **{"act": "build"})
    assert [(b.kind, b.owner, b.damaged) for b in t.state.systems["3.3"].buildings] == [("city", OTHER, True)]
    turn(t, REGENT, "CON3")
    act(t, REGENT, system="3.3", what="starport", **{"act": "build"})
    assert [(b.kind, b.owner, b.damaged) for b in t.state.systems["3.3"].buildings] == [
        ("city", OTHER, True), ("starport", REGENT, False)]
    sound(t)


def test_a_free_starport_builds_ships_for_its_controller_once_a_turn_BR_177():
    """BR-177.
    The Regent controls 3.3 on its turn (Presence Law) and builds a fresh ship at the Free
    starport there; that starport is used for the turn. The Outlaw, who never controls an
    Empire system, is refused."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    port = give_free(s, "3.3", "starport")
    set_ships(s, REGENT, "3.3", fresh=1)
    set_ships(s, OTHER, "3.3", fresh=3)
    turn(t, REGENT, "CON3")
    act(t, REGENT, system="3.3", what="ship", **{"act": "build"})
    s = t.state
    assert s.systems["3.3"].ships[REGENT].fresh == 2 and s.turn.starports_used == [["3.3", port]]
    refused(t, REGENT, {"act": "build", "system": "3.3", "what": "ship"}, IllegalAction)
    turn(t, OTHER, "CON3")
    refused(t, OTHER, {"act": "build", "system": "3.3", "what": "ship"}, IllegalAction)
    sound(t)


# -- repairing (BR-123, BR-124, BR-125, BR-177) ---------------------------------------------
def test_a_regent_repairs_imperial_ships_and_free_buildings_it_commands_BR_123_124_177():
    """BR-123, BR-124, BR-177."""
    t = campaign_table()
    s = t.state
    set_imperial(s, "2.1", damaged=1)
    set_imperial(s, "2.2", damaged=1)
    free = give_free(s, "3.3", "city", damaged=True)
    set_ships(s, REGENT, "3.3", fresh=1)
    turn(t, REGENT, "CON3")
    refused(t, REGENT, {"act": "repair", "system": "2.2", "piece": "imperial"}, IllegalAction)  # BR-124
    act(t, REGENT, system="2.1", piece="imperial", **{"act": "repair"})
    act(t, REGENT, system="3.3", piece="building", building=free, **{"act": "repair"})
    s = t.state
    assert s.imperial["2.1"] == Pieces(fresh=1) and not s.systems["3.3"].buildings[free].damaged
    sound(t)


def test_ignoring_the_presence_law_commands_imperial_ships_anywhere_BR_125():
    """BR-125.
    The First Regent's Fate (FATE07) ignores the Presence Law: it repairs the Imperial
    ship of 2.3, where it has no Loyal piece."""
    t = campaign_table()
    s = t.state
    assert "presence" in empire.laws_ignored(t.rules.game.plugin.campaign_box(), s, FIRST_REGENT)
    set_imperial(s, "2.3", damaged=1)
    turn(t, FIRST_REGENT, "CON3")
    act(t, FIRST_REGENT, system="2.3", piece="imperial", **{"act": "repair"})
    assert t.state.imperial["2.3"] == Pieces(fresh=1)
    sound(t)


# -- moving (BR-127..BR-131, BR-237) -------------------------------------------------------
def test_imperial_ships_move_only_with_as_many_loyal_ships_BR_127():
    """BR-127."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_imperial(s, "2.1", fresh=2)
    turn(t, REGENT, "MOB3")
    move = {"act": "move", "origin": "2.1", "path": ["2G"]}
    refused(t, REGENT, {**move, "imperial_fresh": 1}, BadParameter)  # alone
    refused(t, REGENT, {**move, "fresh": 1, "imperial_fresh": 2}, IllegalAction)  # 2 for 1 Loyal
    refused(t, REGENT, {**move, "fresh": 2, "imperial_fresh": 3}, BadParameter)  # only 2 there
    act(t, REGENT, **move, fresh=2, imperial_fresh=2)
    s = t.state
    assert s.systems["2.1"].ships[REGENT].fresh == 1 and "2.1" not in s.imperial
    assert s.systems["2G"].ships[REGENT].fresh == 2 and s.imperial["2G"] == Pieces(fresh=3)
    sound(t)
    set_ships(s, OTHER, "2.3", fresh=2)
    turn(t, OTHER, "MOB3")
    refused(t, OTHER, {"act": "move", "origin": "2.3", "path": ["2G"], "fresh": 2, "imperial_fresh": 1},
            IllegalAction)  # Outlaws never command Imperial ships


def test_the_rulebook_catapult_with_imperial_ships_BR_128_129():
    """BR-128, BR-129.
    BR-128: from a Loyal starport, 3 Loyal and 2 Imperial ships leave; 1 Loyal ship is left
    in 3G, 1 Imperial ship in 2G; 2 Loyal and 1 Imperial finish in 2.1. Both gates are the
    Empire's, which never stops a Regent (BR-129). Leaving 2 Loyal ships in 3G would move 2
    Imperial with 1 Loyal on the next leg: refused."""
    t = campaign_table()
    s = t.state
    for _ in range(2):
        remove_building(s, "3.3", 0)
    give_building(s, REGENT, "3.3", "starport")
    set_ships(s, REGENT, "3.3", fresh=3)
    set_imperial(s, "3.3", fresh=2)
    turn(t, REGENT, "MOB3")
    move = {"act": "move", "origin": "3.3", "path": ["3G", "2G", "2.1"], "fresh": 3, "imperial_fresh": 2}
    refused(t, REGENT, {**move, "drops": [[2, 0], [0, 0], [0, 0]], "imperial_drops": [[0, 0], [1, 0], [0, 0]]},
            IllegalAction)
    before = {g: t.state.imperial[g].fresh for g in ("3G", "2G", "2.1")}
    act(t, REGENT, **move, drops=[[1, 0], [0, 0], [0, 0]], imperial_drops=[[0, 0], [1, 0], [0, 0]])
    s = t.state
    assert s.systems["3G"].ships[REGENT].fresh == 1 and s.imperial["3G"].fresh == before["3G"]
    assert s.systems["2G"].ships[REGENT].total == 0 and s.imperial["2G"].fresh == before["2G"] + 1
    assert s.systems["2.1"].ships[REGENT].fresh == 3 + 2 and s.imperial["2.1"].fresh == before["2.1"] + 1
    assert "3.3" not in s.imperial
    sound(t)


def test_catapult_stops_of_the_empire_regents_outlaws_and_the_blight_BR_129_130_131_237():
    """BR-129, BR-130, BR-131, BR-237.
    From a Loyal starport in 3.3: an Outlaw stops in the Empire's 3G (BR-129); a Regent's
    Loyal-only group stops in a Rival Regent's 4G, a group with an Imperial ship goes on
    (BR-130); anyone stops in an Outlaw's gate (BR-131) and in a gate holding Blight (BR-237)."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    for _ in range(2):
        remove_building(s, "3.3", 0)
    give_building(s, REGENT, "3.3", "starport")
    give_building(s, OTHER, "3.3", "starport")
    set_ships(s, REGENT, "3.3", fresh=2)
    set_ships(s, OTHER, "3.3", fresh=2)
    set_ships(s, FIRST_REGENT, "4G", fresh=1)
    s.blight_supply += s.blight.pop("4G").total  # 4G: the Rival Regent's gate, nothing else
    turn(t, OTHER, "MOB3")
    refused(t, OTHER, {"act": "move", "origin": "3.3", "path": ["3G", "4G"], "fresh": 1}, IllegalAction)
    act(t, OTHER, origin="3.3", path=["3G"], fresh=1, **{"act": "move"})  # ending there is a move
    turn(t, REGENT, "MOB3")
    refused(t, REGENT, {"act": "move", "origin": "3.3", "path": ["3G", "4G", "5G"], "fresh": 1}, IllegalAction)
    act(t, REGENT, origin="3.3", path=["3G", "4G", "5G"], fresh=1, imperial_fresh=1, **{"act": "move"})
    s = t.state
    assert s.systems["5G"].ships[REGENT].fresh == 1 and s.imperial["5G"] == Pieces(fresh=1)
    set_imperial(s, "3G")  # 3G is now the Outlaw's (its fresh ship, no Imperial one)
    refused(t, REGENT, {"act": "move", "origin": "3.3", "path": ["3G", "4G"], "fresh": 1}, IllegalAction)
    set_ships(s, OTHER, "3G")
    assert s.blight["1G"].total == 1
    set_ships(s, REGENT, "2.1", fresh=1)
    for _ in range(len(s.systems["2.1"].buildings)):
        remove_building(s, "2.1", 0)
    give_building(s, REGENT, "2.1", "starport")
    refused(t, REGENT, {"act": "move", "origin": "2.1", "path": ["2G", "1G", "6G"], "fresh": 1}, IllegalAction)
    act(t, REGENT, origin="2.1", path=["2G", "1G"], fresh=1, **{"act": "move"})
    sound(t)


# -- battle (BR-132..BR-141) -----------------------------------------------------------------
def test_a_regent_attacks_with_imperial_ships_and_may_hit_its_own_attacking_ones_BR_135_141_132(monkeypatch):
    """BR-132, BR-135, BR-141.
    BR-141's last case: the Regent attacks the Outlaw with 2 Loyal ships and the Imperial
    one: three dice (two without it). The self-hits are the Regent's to assign: it destroys
    its attacking Imperial ship (BR-132's exception), which becomes the Outlaw's Trophy."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.3", fresh=2)
    set_ships(s, OTHER, "2.3", fresh=2)
    turn(t, REGENT, "AGG3")
    refused(t, REGENT, {"act": "battle", "system": "2.3", "defender": OTHER, "assault": 3}, IllegalAction)
    rolls(monkeypatch, [("assault", 1), ("assault", 1), ("assault", 5)])
    act(t, REGENT, system="2.3", defender=OTHER, assault=3, imperial_fresh=1, **{"act": "battle"})
    p = prompt_of(t, REGENT)
    assert p.decision == "br.side_hits" and p.args == {"side": "attacking", "hits": 2}
    refused(t, REGENT, {"loyal": {"damage_fresh": 1}}, BadParameter, type="assign_side_hits")  # 2 must land
    t.act(REGENT, Action("assign_side_hits", {"imperial": {"destroy_fresh": 1}}))
    s = t.state
    assert "2.3" not in s.imperial and s.systems["2.3"].ships[REGENT].fresh == 2
    assert s.players[OTHER].trophies == [Trophy(owner=EMPIRE, kind="ship")]
    assert s.systems["2.3"].ships[OTHER].total == 0  # 4 hits on its 2 fresh ships
    assert [x.owner for x in s.players[REGENT].trophies] == [OTHER, OTHER]
    assert s.battle is None and s.battle_imperial == Pieces()
    sound(t)


def test_imperial_ships_defend_a_regent_and_shield_its_buildings_BR_136_140_141(monkeypatch):
    """BR-136, BR-140, BR-141.
    BR-141: the Outlaw attacking a Regent with 2 Loyal ships and 1 Imperial one faces 3
    defending ships: an intercept deals it 3 hits. BR-140: 6 hits destroy the three ships and
    leave the Regent's city standing; a 7th hit would reach it."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.1", fresh=2)
    set_ships(s, OTHER, "2.1", fresh=4)
    turn(t, OTHER, "AGG3")
    rolls(monkeypatch, [("raid", 5)])
    act(t, OTHER, system="2.1", defender=REGENT, raid=1, **{"act": "battle"})
    assert prompt_of(t, OTHER).args == {"owner": OTHER, "hits": 3}  # the base split: only its Loyal ships
    t.act(OTHER, Action("assign_hits", {"damage_fresh": 3}))
    rolls(monkeypatch, [("assault", 0)] * 3)
    act(t, OTHER, system="2.1", defender=REGENT, assault=3, **{"act": "battle"})
    s = t.state
    assert s.systems["2.1"].ships[REGENT].total == 0 and "2.1" not in s.imperial
    assert [(b.kind, b.damaged) for b in s.systems["2.1"].buildings] == [("city", False)]
    assert sorted((x.owner, x.kind) for x in s.players[OTHER].trophies) == [(EMPIRE, "ship"), (REGENT, "ship"),
                                                                          (REGENT, "ship")]
    sound(t)


def test_the_seventh_hit_reaches_the_regents_city_BR_140(monkeypatch):
    """BR-140."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.1", fresh=2)
    set_ships(s, OTHER, "2.1", fresh=4)
    turn(t, OTHER, "AGG3")
    rolls(monkeypatch, [("assault", 0)] * 3 + [("skirmish", 0)])
    act(t, OTHER, system="2.1", defender=REGENT, assault=3, skirmish=1, **{"act": "battle"})
    s = t.state
    assert [(b.kind, b.damaged) for b in s.systems["2.1"].buildings] == [("city", True)]
    sound(t)


def test_the_truce_law_in_battle_BR_133_137():
    """BR-133, BR-137.
    BR-133: a Regent cannot choose a Rival Regent as defender where Imperial ships are;
    BR-137: only an Outlaw may choose the Empire. Refusals change nothing."""
    t = campaign_table()
    s = t.state
    set_ships(s, REGENT, "2.2", fresh=2)
    turn(t, REGENT, "AGG3")
    refused(t, REGENT, {"act": "battle", "system": "2.2", "defender": FIRST_REGENT, "assault": 2}, IllegalAction)
    refused(t, REGENT, {"act": "battle", "system": "2.2", "defender": EMPIRE, "assault": 2}, IllegalAction)
    refused(t, REGENT, {"act": "battle", "system": "2.2", "defender": -4, "assault": 2}, BadParameter)
    assert not any(a.params.get("act") == "battle" and a.params["system"] == "2.2" for a in t.legal(REGENT))


def test_an_outlaw_battles_the_empire_and_the_first_regent_takes_its_losses_BR_137_138_139(monkeypatch):
    """BR-137, BR-138, BR-139.
    The Empire defends with its Imperial ship only, not the Regent's ships there (BR-138);
    its intercept destroys an Outlaw ship, which the First Regent takes (BR-139); the Outlaw
    takes the Imperial ship it destroys."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.1", fresh=2)
    set_ships(s, OTHER, "2.1", fresh=1, damaged=1)
    turn(t, OTHER, "AGG3")
    rolls(monkeypatch, [("raid", 5), ("assault", 0)])
    act(t, OTHER, system="2.1", defender=EMPIRE, raid=1, assault=1, **{"act": "battle"})
    assert prompt_of(t, OTHER).args == {"side": "attacking", "hits": 1}
    t.act(OTHER, Action("assign_side_hits", {"loyal": {"destroy_damaged": 1}}))
    s = t.state
    assert s.players[FIRST_REGENT].trophies == [Trophy(owner=OTHER, kind="ship")]
    assert s.players[OTHER].trophies == [Trophy(owner=EMPIRE, kind="ship")] and "2.1" not in s.imperial
    assert s.systems["2.1"].ships[REGENT].fresh == 2
    sound(t)


def test_with_no_first_regent_the_outlaws_losses_go_home_BR_139(monkeypatch):
    """BR-139."""
    t = campaign_table()
    s = t.state
    for seat in (OTHER, REGENT, FIRST_REGENT):
        outlaw(t, seat)
    assert s.first_regent == -1
    set_ships(s, OTHER, "2.3", damaged=1)
    supply = s.players[OTHER].ships
    turn(t, OTHER, "AGG3")
    rolls(monkeypatch, [("raid", 5)])
    act(t, OTHER, system="2.3", defender=EMPIRE, raid=1, **{"act": "battle"})
    s = t.state
    assert s.systems["2.3"].ships[OTHER].total == 0 and s.players[OTHER].ships == supply + 1
    assert all(p.trophies == [] for p in s.players)
    sound(t)


# -- the Free States (BR-178..BR-183) --------------------------------------------------------
def test_battling_the_free_states_trophies_outrage_and_one_resource_raided_BR_178_179_180_181_183(monkeypatch):
    """BR-178, BR-179, BR-180, BR-181, BR-183.
    Every Free building in 3.3 defends (BR-180) and takes the dice's hits (two HITs and a
    building hit here, split by the attacker); a destroyed Free city is the attacker's Trophy
    (BR-179) and Outrages it in weapons (BR-183); the keys buy one weapon, once (BR-181)."""
    t = campaign_table()
    s = t.state
    set_ships(s, REGENT, "3.3", fresh=2)
    weapons = s.supply["weapon"]
    turn(t, REGENT, "AGG3")
    rolls(monkeypatch, [("assault", 0), ("raid", 2)])
    act(t, REGENT, system="3.3", defender=FREE, assault=1, raid=1, **{"act": "battle"})
    assert prompt_of(t, REGENT).decision == "arcs.building_hits"
    t.act(REGENT, Action("assign_building_hits", {"hits": {"0": 2, "1": 1}}))
    s = t.state
    assert [(b.owner, b.damaged) for b in s.systems["3.3"].buildings] == [(FREE, True)]
    assert s.players[REGENT].trophies == [Trophy(owner=FREE, kind="city")]
    assert "weapon" in s.players[REGENT].outrage
    assert [a.params for a in t.legal(REGENT)] == [{"take": True}, {"take": False}]
    t.act(REGENT, Action("raid_free_states", {"take": True}))
    settle(t)
    s = t.state
    assert s.supply["weapon"] == weapons - 1 and s.battle is None and not s.free_raided
    sound(t)


# -- the Blight (BR-231..BR-236) ---------------------------------------------------------------
def blighted(t, fresh: int = 0, damaged: int = 0):
    s = t.state
    s.blight_supply += s.blight["1.1"].total - fresh - damaged
    s.blight["1.1"] = Pieces(fresh=fresh, damaged=damaged)
    set_ships(s, REGENT, "1.1", fresh=2)


def test_two_hits_flip_a_fresh_blight_and_the_attacker_takes_none_BR_233_236(monkeypatch):
    """BR-233, BR-236.
    BR-236: two dice, two hits, against a fresh Blight: it turns damaged, the attacker is untouched."""
    t = campaign_table()
    blighted(t, fresh=1)
    turn(t, REGENT, "AGG3")
    rolls(monkeypatch, [("skirmish", 0), ("skirmish", 0)])
    act(t, REGENT, system="1.1", defender=BLIGHT, skirmish=2, **{"act": "battle"})
    s = t.state
    assert s.blight["1.1"] == Pieces(damaged=1) and s.systems["1.1"].ships[REGENT].fresh == 2
    sound(t)


def test_the_blight_is_tough_ignores_building_hits_and_never_intercepts_BR_231_234_235(monkeypatch):
    """BR-231, BR-234, BR-235."""
    t = campaign_table()
    blighted(t, fresh=1)
    turn(t, REGENT, "AGG3")
    rolls(monkeypatch, [("skirmish", 0), ("raid", 2)])  # one HIT, one building hit and a key
    act(t, REGENT, system="1.1", defender=BLIGHT, skirmish=1, raid=1, **{"act": "battle"})
    assert t.state.blight["1.1"] == Pieces(fresh=1)
    rolls(monkeypatch, [("raid", 5), ("raid", 0)])  # intercepts only
    act(t, REGENT, system="1.1", defender=BLIGHT, raid=2, **{"act": "battle"})
    s = t.state
    assert s.systems["1.1"].ships[REGENT].fresh == 2 and s.battle is None
    sound(t)


def test_destroyed_blight_is_a_trophy_BR_232(monkeypatch):
    """BR-232."""
    t = campaign_table()
    blighted(t, fresh=1, damaged=1)
    turn(t, REGENT, "AGG3")
    rolls(monkeypatch, [("assault", 0), ("assault", 0)])  # 4 hits: 2 steps
    act(t, REGENT, system="1.1", defender=BLIGHT, assault=2, **{"act": "battle"})
    p = prompt_of(t, REGENT)
    assert p.decision == "br.blight_hits"
    refused(t, REGENT, {"damage_fresh": 1}, BadParameter, type="assign_blight_hits")  # every pair must land
    t.act(REGENT, Action("assign_blight_hits", {"destroy_fresh": 1}))
    s = t.state
    assert s.blight["1.1"] == Pieces(damaged=1) and s.players[REGENT].trophies == [Trophy(owner=BLIGHT, kind="blight")]
    sound(t)


# -- the chapter's clean-up -----------------------------------------------------------------------
def test_warlord_returns_imperial_free_and_blight_trophies_to_their_supplies():
    """Warlord scored: a Trophy of the Empire, of the Free States and of the Blight go back to
    their supplies (the base clean-up returns players' pieces only)."""
    t = campaign_table()
    s = t.state
    s.imperial_supply -= 1
    s.free_city_supply -= 1
    s.blight_supply -= 1
    s.players[REGENT].trophies = [Trophy(owner=EMPIRE, kind="ship"), Trophy(owner=FREE, kind="city"),
                                  Trophy(owner=BLIGHT, kind="blight")]
    supplies = (s.imperial_supply, s.free_city_supply, s.blight_supply)
    s.ambition_boxes["warlord"].append(s.markers_available.pop())
    sound(t)
    turn(t, REGENT, "AGG3")
    chapter = t.state.chapter
    while t.state.chapter == chapter:
        seat = t.state.prompts[0].seat
        legal = t.legal(seat)
        done = [a for a in legal if a.params.get("act") == "done"]
        t.act(seat, done[0] if done else legal[0])
    s = t.state
    assert (s.imperial_supply, s.free_city_supply, s.blight_supply) == tuple(n + 1 for n in supplies)
    assert all(p.trophies == [] for p in s.players)
    sound(t)


# -- what the prompts offer ------------------------------------------------------------------------
def test_listed_answers_name_imperial_ships_and_campaign_defenders_and_are_accepted_BR_127_135_137():
    """BR-127, BR-135, BR-137.
    The turn's listed answers offer moves and battles with the Imperial ships to a Regent and
    battles against the Empire to an Outlaw; each listed answer is accepted as listed."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_ships(s, REGENT, "2.3", fresh=2)
    turn(t, REGENT, "AGG3")
    listed = [a.params for a in t.legal(REGENT)]
    assert any(p["act"] == "move" and p["imperial_fresh"] for p in listed)
    assert any(p["act"] == "battle" and p["defender"] == OTHER and p["imperial_fresh"] for p in listed)
    for action in t.legal(REGENT):
        apply(t.rules, t.state, REGENT, action)  # on a copy
    turn(t, OTHER, "AGG3")
    assert any(a.params.get("defender") == EMPIRE for a in t.legal(OTHER))


# -- card effects read the Empire's control (BR-120..BR-124) -----------------------------------
def skirmishers_for(t, seat: int) -> None:
    """Skirmishers (CC05, BC13's reprint) into the seat's Guild cards, from wherever it lies
    (out of the Court row, the Court deck's top card takes its place)."""
    s = t.state
    for player in s.players:
        if "CC05" in player.guild:
            player.guild.remove("CC05")
    for pile in (s.court_deck, s.court_discard):
        if "CC05" in pile:
            pile.remove("CC05")
    if "CC05" in s.court_row:
        i = s.court_row.index("CC05")
        s.court_row[i] = s.court_deck.pop(0)
        s.court_agents[s.court_row[i]] = s.court_agents.pop("CC05")
    s.players[seat].guild.append("CC05")


def test_a_card_placing_ships_where_you_control_reads_the_empires_control_BR_120_BR_122_BR_124():
    """Skirmishers' Prelude places 3 ships in a system its holder controls. In 2.1 stand 1
    fresh Imperial ship, 1 of the Regent's and 2 of an Outlaw's: by the base count the Outlaw
    would control it, but the Empire does (BR-120), and on the Regent's turn the Regent, who
    has a Loyal piece there, controls it through the Presence Law (BR-122); the Outlaw does
    not (BR-124: no control through the Empire), and is refused, the state unchanged."""
    t = campaign_table()
    s = t.state
    outlaw(t)
    set_imperial(s, "2.1", fresh=1)
    set_ships(s, REGENT, "2.1", fresh=1)
    set_ships(s, OTHER, "2.1", fresh=2)
    skirmishers_for(t, OTHER)
    turn(t, OTHER, "AGG3")
    listed = [a.params["params"] for a in t.legal(OTHER) if a.params.get("card") == "CC05"]
    assert {"system": "2.1"} not in listed
    refused(t, OTHER, {"act": "ability", "card": "CC05", "index": 1, "params": {"system": "2.1"}}, IllegalAction)
    skirmishers_for(t, REGENT)
    turn(t, REGENT, "AGG3")
    listed = [a.params["params"] for a in t.legal(REGENT) if a.params.get("card") == "CC05"]
    assert {"system": "2.1"} in listed
    act(t, REGENT, **{"act": "ability", "card": "CC05", "index": 1, "params": {"system": "2.1"}})
    assert t.state.systems["2.1"].ships[REGENT].fresh == 4 and "CC05" not in t.state.players[REGENT].guild
    sound(t)


def lore_for(t, seat: int, card: str) -> None:
    """A base Lore card (in the campaign's Court or Lore deck) into the seat's play area."""
    s = t.state
    for pile in (s.court_deck, s.court_discard, s.lore_deck):
        if card in pile:
            pile.remove(card)
    assert card not in s.court_row
    s.players[seat].lore.append(card)


def move_in(t, seat: int, origin: str, gate: str) -> list:
    turn(t, seat, "MOB3")
    return act(t, seat, **{"act": "move", "pay": -1, "origin": origin, "path": [gate], "fresh": 1, "damaged": 0,
                           "drops": [], "imperial_fresh": 0, "imperial_damaged": 0, "imperial_drops": []})


def test_gate_ports_capture_only_where_its_holder_controls_the_gate_not_the_empire_BR_120():
    """Gate Ports (L08): a Rival moving into a gate its holder controls, with a fresh
    starport there, loses an agent to it. With a fresh Imperial ship in the gate the Empire
    controls it (BR-120), the holder does not while a Rival moves, and nothing is captured;
    once the Imperial ship is gone the holder's 3 ships control it and the next Rival ship
    moving in is captured from."""
    from tests.blighted_reach.campaign_tables import put_building

    t = campaign_table()
    s = t.state
    gate, origin = "2G", "2.1"
    lore_for(t, REGENT, "L08")
    for seat in range(3):
        set_ships(s, seat, gate, fresh=0)
    set_imperial(s, gate, fresh=1)
    set_ships(s, REGENT, gate, fresh=3)
    put_building(s, REGENT, gate, "starport")
    set_ships(s, OTHER, origin, fresh=3)
    agents = s.players[OTHER].agents
    events = move_in(t, OTHER, origin, gate)
    assert "agent_captured" not in [e.type for e in events] and t.state.players[OTHER].agents == agents
    set_imperial(t.state, gate, fresh=0)
    events = move_in(t, OTHER, origin, gate)
    captured = [e.data for e in events if e.type == "agent_captured"]
    assert captured and captured[0]["seat"] == REGENT and t.state.players[OTHER].agents == agents - 1
    assert OTHER in t.state.players[REGENT].captives
    sound(t)
