"""Flagships in battle through the engine (BR-271, BR-279, BR-281..BR-290, BR-299, BR-303):
the tables of `test_engine` (seat 0's Flagship at 1.3, no Imperial ship there), real
battles (`t.act` on the Arcs flow) with the roll fixed by `rolls`. Faces: assault 0 = 2 hits,
1 = 2 hits + 1 self-hit; skirmish 0 = 1 hit; raid 0 = intercept + 2 keys, 2 = building hit +
key, 5 = intercept."""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.state import Trophy
from plugins.arcs.turn import Attack, check_act
from plugins.flagships.state import BoardPiece, board_of
from tests.blighted_reach.empire_tables import set_ships
from tests.blighted_reach.test_empire_flow import act, prompt_of, refused, rolls, settle, sound, turn
from tests.flagships.test_engine import CRANE, HOME, RIVAL, SEAT, flagship_table
from tests.flagships.tables import put

HULL, DEFENSE, TRACTOR = 5, 1, 2


def finish(t) -> None:
    """Whatever the battle still asks (a raid's pick, resources to place) with the first
    listed answer, until the attacker's turn is open again."""
    for _ in range(20):
        settle(t)
        waiting = [p for p in t.state.prompts if p.decision not in ("arcs.turn",) and p.kind != "turn"]
        if t.state.battle is None or not waiting:
            return
        p = waiting[0]
        t.act(p.seat, t.legal(p.seat)[0])


def battle(t, seat: int, defender: int, **dice):
    return act(t, seat, **{"act": "battle", "system": HOME, "defender": defender, **dice})


def slot(t, index: int, seat: int = SEAT):
    return board_of(t.state, seat).slots[index]


def test_the_defending_example_one_intercept_the_ship_then_the_hull_armor_BR_290_287_288_289_271(monkeypatch):
    """BR-271, BR-287, BR-288, BR-289, BR-290.
    The rulebook's Defending example: a fresh ship and a Flagship without Defense Array
    defend; the intercept deals the attacker 1 hit (the ship's). Of 3 hits, 2 destroy the
    ship; the Flagship is then the only defending ship, so the third and the building hit
    strike the Hull Armor (the top row's rightmost), destroying it: the attacker's Trophy."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city")
    put(t.state, SEAT, "hull", "armor", "starport")
    set_ships(t.state, SEAT, HOME, fresh=1)
    set_ships(t.state, RIVAL, HOME, fresh=4)
    turn(t, RIVAL, "AGG3")
    rolls(monkeypatch, [("assault", 0), ("skirmish", 0), ("raid", 2), ("raid", 5)])
    battle(t, RIVAL, SEAT, assault=1, skirmish=1, raid=2)
    finish(t)
    s = t.state
    assert s.systems[HOME].ships[RIVAL].damaged == 1 and s.systems[HOME].ships[RIVAL].fresh == 3  # 1 intercept hit
    assert s.systems[HOME].ships[SEAT].total == 0
    assert slot(t, HULL).armor is None and slot(t, HULL).upgrade == BoardPiece(kind="city")
    assert sorted((x.owner, x.kind) for x in s.players[RIVAL].trophies) == [(SEAT, "ship"), (SEAT, "starport")]
    assert board_of(s, SEAT).system == HOME  # the Flagship itself never leaves the map (BR-267)
    sound(t)


def test_a_destroyed_board_city_provokes_no_outrage_and_no_ransack_BR_279(monkeypatch):
    """BR-279: building hits destroy the Hull Armor city and then its Upgrade city; the
    defender's Outrage is unchanged and nothing is ransacked."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city", damaged=True)
    put(t.state, SEAT, "hull", "armor", "city", damaged=True)
    set_ships(t.state, RIVAL, HOME, fresh=2)
    outrage, court = list(t.state.players[RIVAL].outrage), list(t.state.court_row)
    turn(t, RIVAL, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    battle(t, RIVAL, SEAT, raid=2)
    finish(t)
    s = t.state
    assert slot(t, HULL).armor is None and slot(t, HULL).upgrade is None
    assert [x for x in s.players[RIVAL].trophies] == [Trophy(owner=SEAT, kind="city")] * 2
    assert s.players[RIVAL].outrage == outrage and s.court_row == court
    sound(t)


def test_an_attacking_flagship_rolls_its_fresh_starports_and_may_take_a_self_hit_on_the_ship_crane_BR_283_285_282_284_281(
        monkeypatch):
    """BR-281, BR-282, BR-283, BR-284, BR-285.
    The rulebook's Attacking example: 2 fresh starports on the board (Ship Crane and Hull
    Upgrades) and 1 other ship collect 3 dice (a 4th is refused). The self-hit is the
    attacker's to place: it chooses the Ship Crane though its ship could take it. A pick of
    an empty slot, or too few hits, is refused, typed, with nothing changed. Later the Hull
    Armor takes a hit before its Upgrade."""
    t = flagship_table()
    put(t.state, SEAT, "ship_crane", "upgrade", "starport")
    put(t.state, SEAT, "hull", "upgrade", "starport")
    set_ships(t.state, SEAT, HOME, fresh=1)
    set_ships(t.state, RIVAL, HOME, fresh=3)
    turn(t, SEAT, "AGG3")
    refused(t, SEAT, {"act": "battle", "system": HOME, "defender": RIVAL, "assault": 4}, IllegalAction)
    rolls(monkeypatch, [("assault", 1), ("assault", 5), ("assault", 5)])
    battle(t, SEAT, RIVAL, assault=3)
    p = prompt_of(t, SEAT)
    assert p.decision == "br.flagship_hits" and p.args == {"hits": 1}
    refused(t, SEAT, {"board": [0]}, BadParameter, type="assign_flagship_hits")  # nothing in that slot
    refused(t, SEAT, {}, BadParameter, type="assign_flagship_hits")  # the hit must land
    t.act(SEAT, Action("assign_flagship_hits", {"board": [CRANE]}))
    finish(t)
    s = t.state
    assert slot(t, CRANE).upgrade == BoardPiece(kind="starport", damaged=True)
    assert s.systems[HOME].ships[SEAT].fresh == 1  # its ship untouched
    rival = s.systems[HOME].ships[RIVAL]
    assert 2 * rival.fresh + rival.damaged == 6 - 2  # the 2 hits on the defender's ships
    sound(t)


def test_a_flagship_without_fresh_starports_collects_no_dice_BR_283():
    """BR-283: alone, with cities only on its board, the Flagship may not collect a die."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city")
    set_ships(t.state, RIVAL, HOME, fresh=1)
    turn(t, SEAT, "AGG3")
    refused(t, SEAT, {"act": "battle", "system": HOME, "defender": RIVAL, "assault": 1}, IllegalAction)


def test_a_defense_array_intercepts_one_hit_per_fresh_starport_BR_299_287(monkeypatch):
    """BR-287, BR-299: with a Defense Array and 2 fresh starports on its board the defending
    Flagship adds 2 intercept hits to its fresh ship's 1."""
    t = flagship_table()
    put(t.state, SEAT, "defense_array", "upgrade", "starport")
    put(t.state, SEAT, "hull", "upgrade", "starport")
    set_ships(t.state, SEAT, HOME, fresh=1)
    set_ships(t.state, RIVAL, HOME, fresh=4)
    turn(t, RIVAL, "AGG3")
    rolls(monkeypatch, [("raid", 5)])
    battle(t, RIVAL, SEAT, raid=1)
    p = prompt_of(t, RIVAL)
    assert p.args["hits"] == 3
    t.act(RIVAL, Action("assign_hits", {"damage_fresh": 3}))
    finish(t)
    assert t.state.systems[HOME].ships[RIVAL].damaged == 3
    sound(t)


def test_the_raid_dice_limit_against_a_flagship_owner_and_the_tractor_beam_BR_286_303():
    """BR-286, BR-303: against a Flagship owner without buildings in the system, raid dice
    need its defending Flagship: refused where only its ship is, allowed where its Flagship
    defends; a Tractor Beam on the defending Flagship forbids them."""
    t = flagship_table()
    set_ships(t.state, SEAT, "2.1", fresh=1)
    set_ships(t.state, RIVAL, "2.1", fresh=2)
    set_ships(t.state, RIVAL, HOME, fresh=2)
    turn(t, RIVAL, "AGG3")
    refused(t, RIVAL, {"act": "battle", "system": "2.1", "defender": SEAT, "raid": 1}, IllegalAction)
    check_act(box_for(t.state), t.state, RIVAL, Attack(system=HOME, defender=SEAT, raid=1), t.rules.hook)  # passes
    put(t.state, SEAT, "tractor_beam", "upgrade", "city")
    refused(t, RIVAL, {"act": "battle", "system": HOME, "defender": SEAT, "raid": 1}, IllegalAction)
