"""Lore, taxes and Summits with a Flagship through the engine (issue 19, third slice): real
campaign tables (seed 3, 3 players, seat 0's Flagship as in `test_engine`), real answers
through `t.act`; refusals typed, the state byte-identical; the invariants hold after each
change."""
from __future__ import annotations

from core.engine import legal_actions
from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.flagships.state import board_of
from tests.blighted_reach.crisis_tables import set_blight
from tests.blighted_reach.empire_tables import set_ships
from tests.blighted_reach.flow_helpers import ready
from tests.blighted_reach.test_empire_flow import act, lore_for, refused, snapshot, sound, turn
from tests.blighted_reach.test_event_flow import negotiate, summit
from tests.flagships.tables import put
from tests.flagships.test_engine import HOME, RIVAL, SEAT, flagship_table


def test_cities_on_the_board_are_never_taxed_and_its_starports_build_one_ship_BR_278():
    """BR-278.
    Two cities and two starports on the board: the Tax answers listed name only cities on
    the map, a Tax naming a building index past the map's is refused (typed, unchanged);
    the board's starports give one ship a turn at the Flagship, no more."""
    t = flagship_table()
    for layer in ("upgrade", "armor"):
        put(t.state, SEAT, "hull", layer, "city")
        put(t.state, SEAT, "defense_array", layer, "starport")
    turn(t, SEAT, "ADM3")
    s = t.state
    taxes = [a.params for a in legal_actions(s, SEAT, t.rules) if a.params.get("act") == "tax"]
    assert taxes and all(p["building"] < len(s.systems[p["system"]].buildings) for p in taxes)
    assert all(s.systems[p["system"]].buildings[p["building"]].kind == "city" for p in taxes)
    refused(t, SEAT, {"act": "tax", "system": HOME, "building": len(s.systems[HOME].buildings)})
    turn(t, SEAT, "CON2")
    act(t, SEAT, **{"act": "build", "system": HOME, "what": "ship"})
    refused(t, SEAT, {"act": "build", "system": HOME, "what": "ship"}, IllegalAction)
    assert t.state.systems[HOME].ships_of(SEAT).fresh == 1
    sound(t)


def test_gate_ports_let_a_flagship_player_build_a_loyal_starport_in_a_gate_again_BR_295_268():
    """BR-268, BR-295.
    With the Flagship in gate 1G and Gate Ports held, its owner builds a Loyal starport in
    the gate, on the map; a starport on a planet is still refused (typed, unchanged). Without
    the lore the gate's starport is refused too. A Rival battling there may collect raid dice
    against that starport as usual (a defending building)."""
    bare = flagship_table(system="1G")
    set_blight(bare.state, "1G", 0)
    turn(bare, SEAT, "CON2")
    refused(bare, SEAT, {"act": "build", "system": "1G", "what": "starport"}, IllegalAction)
    t = flagship_table(system="1G")
    set_blight(t.state, "1G", 0)
    lore_for(t, SEAT, "L08")
    set_ships(t.state, SEAT, "1.1", fresh=1)
    turn(t, SEAT, "CON2")
    refused(t, SEAT, {"act": "build", "system": "1.1", "what": "starport"}, IllegalAction)
    ports = t.state.players[SEAT].starports
    act(t, SEAT, **{"act": "build", "system": "1G", "what": "starport"})
    s = t.state
    assert [(b.kind, b.owner) for b in s.systems["1G"].buildings] == [("starport", SEAT)]
    assert s.players[SEAT].starports == ports - 1
    sound(t)
    set_ships(t.state, RIVAL, "1G", fresh=2)
    turn(t, RIVAL, "AGG3")
    raids = [a.params for a in legal_actions(t.state, RIVAL, t.rules)
             if a.params.get("act") == "battle" and a.params["system"] == "1G" and a.params.get("raid")]
    assert raids  # the Raid Dice Limit is met by the defending building (BR-286)


def test_cede_control_cannot_reach_the_pieces_on_a_flagship_board_BR_293():
    """BR-293.
    In a Summit, seat 0 (its Flagship board holding a city and a starport, no Loyal building
    left on the map) proposes to cede a city: naming any building slot of its Flagship's
    system is refused, typed, the Summit unchanged; the board keeps its pieces."""
    t = ready(3, seed=1)
    from plugins.arcs.content import box_for
    from plugins.flagships import rules

    s = t.state
    home = next(name for name, here in sorted(s.systems.items()) if here.ships_of(SEAT).total)
    rules.grant(box_for(s), s, SEAT, home)
    put(s, SEAT, "hull", "upgrade", "city")
    put(s, SEAT, "hull", "armor", "starport")
    _settle_placings(t)
    summit(t)
    before = snapshot(t)
    for slot in range(len(t.state.systems[home].buildings) + 2):
        for piece in ("city", "starport"):
            try:
                negotiate(t, SEAT, "propose", [{"kind": "cede_control", "giver": SEAT, "receiver": RIVAL,
                                                "system": home, "piece": piece, "slot": slot}])
            except ActionRejected:
                assert snapshot(t) == before
            else:
                raise AssertionError(f"ceding {piece} {slot} of {home} was accepted")
    assert sorted(p.kind for _, _, p in board_of(t.state, SEAT).pieces()) == ["city", "starport"]
    negotiate(t, SEAT, "propose", [{"kind": "promise_favor", "giver": SEAT, "receiver": RIVAL}])  # seat 0 may propose
    assert any(p.kind == "consent" for p in t.state.prompts)
    assert t.rules.hook.conclave_check_invariants(state=t.state) == [[]]


def _settle_placings(t) -> None:
    """The returned Loyal cities' placement records leave with them (the grant's own tokens
    go back to the supply), as `test_engine.flagship_table` does."""
    s = t.state
    for record in [r for r in s.placing if r.seat == SEAT]:
        for token in record.tokens:
            s.supply[token] += 1
        s.placing.remove(record)


# -- Lore & Flagships (BR-294, BR-296, BR-297) ----------------------------------------------------
def count_dice(monkeypatch, face: int = 0) -> list:
    """Every roll shows `face` on each die; returns the list of dice kinds rolled, per roll."""
    import core.chance

    seen: list = []

    def roll(ctx, seat, faces, dice, why=""):
        seen.append(list(dice))
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": face} for d in dice])
        return [(d, face) for d in dice]
    monkeypatch.setattr(core.chance, "roll", roll)
    return seen


def test_galactic_rifles_fire_one_die_per_fresh_starport_on_the_board_BR_297(monkeypatch):
    """BR-297.
    The Flagship alone at 1.3, two fresh starports and a damaged one on its board, Galactic
    Rifles held: Fire Rifles from 1.3 at the Rival's ships in 1G rolls 2 skirmish dice (not
    1 for the Flagship, nor 3); the legal actions list it. With only damaged starports on the
    board there is no die to fire, and the answer is refused (typed, unchanged)."""
    t = flagship_table()
    lore_for(t, SEAT, "L02")
    put(t.state, SEAT, "hull", "upgrade", "starport")
    put(t.state, SEAT, "hull", "armor", "starport")
    put(t.state, SEAT, "ship_crane", "upgrade", "starport", damaged=True)
    set_blight(t.state, "1G", 0)
    set_ships(t.state, RIVAL, "1G", fresh=3)
    turn(t, SEAT, "AGG3")
    fire = {"act": "ability", "card": "L02", "index": 0, "params": {"system": HOME, "target": "1G", "defender": RIVAL}}
    assert {**fire, "pay": -1} in [a.params for a in legal_actions(t.state, SEAT, t.rules)]
    seen = count_dice(monkeypatch)
    t.act(SEAT, Action("act", fire))
    assert seen and all(dice == ["skirmish", "skirmish"] for dice in seen)  # its trial on a copy rolls too
    _answer_all(t)
    assert t.state.systems["1G"].ships_of(RIVAL).damaged == 2  # a hit per die, fresh ships first
    sound(t)
    monkeypatch.undo()  # the next table is set up with real dice
    bare = flagship_table()
    lore_for(bare, SEAT, "L02")
    put(bare.state, SEAT, "hull", "upgrade", "starport", damaged=True)
    set_blight(bare.state, "1G", 0)
    set_ships(bare.state, RIVAL, "1G", fresh=3)
    turn(bare, SEAT, "AGG3")
    refused(bare, SEAT, fire, IllegalAction)


def _answer_all(t) -> None:
    """Every prompt but the turn's own answered with its first listed answer."""
    for _ in range(20):
        waiting = [p for p in t.state.prompts if p.decision != "arcs.act"]
        if not waiting:
            return
        p = waiting[0]
        t.act(p.seat, t.legal(p.seat)[0])


def test_hidden_harbors_count_a_fresh_starport_on_the_board_in_the_flagships_system_BR_294():
    """BR-294.
    The Flagship defends at 1.3 with Hidden Harbors held: a fresh starport on its board bars
    the Rival's raid dice (refused, typed, unchanged); with that starport damaged the same
    dice are allowed (the defending Flagship meets the Raid Dice Limit, BR-286)."""
    from plugins.arcs.content import box_for
    from plugins.arcs.turn import Attack, check_act

    for damaged, barred in ((False, True), (True, False)):
        t = flagship_table()
        lore_for(t, SEAT, "L05")
        put(t.state, SEAT, "hull", "upgrade", "starport", damaged=damaged)
        set_ships(t.state, RIVAL, HOME, fresh=2)
        turn(t, RIVAL, "AGG3")
        if barred:
            refused(t, RIVAL, {"act": "battle", "system": HOME, "defender": SEAT, "raid": 1}, IllegalAction)
        else:
            check_act(box_for(t.state), t.state, RIVAL, Attack(system=HOME, defender=SEAT, raid=1), t.rules.hook)


def test_gate_ports_capture_with_a_fresh_starport_on_the_board_of_a_flagship_in_the_gate_BR_294():
    """BR-294.
    The Flagship alone in gate 1G (its owner controls it), Gate Ports held: a Rival's ship
    moving in from 1.1 loses an agent to its owner when the board holds a fresh starport,
    and not when it holds none."""
    for port, captured in ((True, [RIVAL]), (False, [])):
        t = flagship_table(system="1G")
        set_blight(t.state, "1G", 0)
        lore_for(t, SEAT, "L08")
        if port:
            put(t.state, SEAT, "hull", "upgrade", "starport")
        set_ships(t.state, RIVAL, "1.1", fresh=1)
        agents = t.state.players[RIVAL].agents
        turn(t, RIVAL, "MOB3")
        act(t, RIVAL, **{"act": "move", "origin": "1.1", "path": ["1G"], "fresh": 1})
        assert t.state.players[SEAT].captives == captured
        assert t.state.players[RIVAL].agents == agents - len(captured)
        sound(t)


def test_mirror_plating_makes_a_defending_flagship_with_a_defense_array_intercept_BR_296_299(monkeypatch):
    """BR-296, BR-299.
    The Flagship alone defends at 1.3 with a Defense Array and one fresh starport. The Rival
    rolls a blank assault die: no intercept rolled, so without Mirror Plating it takes no
    hit; with Mirror Plating held the added intercept makes the Flagship deal its Defense
    Array's 1 hit, as it would for any fresh Loyal ship."""
    from tests.blighted_reach.test_empire_flow import rolls

    for mirror, hits in ((False, 0), (True, 1)):
        t = flagship_table()
        if mirror:
            lore_for(t, SEAT, "L04")
        put(t.state, SEAT, "defense_array", "upgrade", "starport")
        set_ships(t.state, RIVAL, HOME, fresh=2)
        turn(t, RIVAL, "AGG3")
        rolls(monkeypatch, [("assault", 5)])
        act(t, RIVAL, **{"act": "battle", "system": HOME, "defender": SEAT, "assault": 1})
        _answer_all(t)
        assert t.state.systems[HOME].ships[RIVAL].fresh == 2 - hits
        sound(t)
        monkeypatch.undo()  # the next table is set up with real dice


def test_sprinter_drives_step_the_flagship_once_more_after_its_move_BR_296():
    """BR-296.
    Sprinter Drives held: after a Move that takes the Flagship from 1.3 to 1G, the window
    offers the Flagship one more step; a system not bordering 1G is refused (typed,
    unchanged); it steps to 2G, and is not offered again. A later move of other ships only
    offers those ships' step, not the Flagship's."""
    from plugins.flagships.slipstream import AID

    t = flagship_table()
    lore_for(t, SEAT, "L03")
    turn(t, SEAT, "MOB3")
    t.act(SEAT, Action("act", {"act": "move", "origin": HOME, "path": ["1G"], "flagship": True}))
    p = next(p for p in t.state.prompts if p.seat == SEAT)
    assert p.decision == "arcs.use_ability"
    offered = [a.params for a in legal_actions(t.state, SEAT, t.rules) if a.params.get("card") == AID]
    assert {"card": AID, "index": 1, "params": {"to": "2G"}} in offered
    refused(t, SEAT, {"card": AID, "index": 1, "params": {"to": "3G"}}, BadParameter, type="use_ability")
    t.act(SEAT, Action("use_ability", {"card": AID, "index": 1, "params": {"to": "2G"}}))
    assert board_of(t.state, SEAT).system == "2G"
    assert not any(a.params.get("card") == AID for a in legal_actions(t.state, SEAT, t.rules))
    sound(t)
    t.act(SEAT, Action("act", {"act": "move", "origin": "2.1", "path": ["2G"], "fresh": 1}))
    offered = [a.params for a in legal_actions(t.state, SEAT, t.rules)]
    assert any(a.get("card") == "L03" for a in offered) and not any(a.get("card") == AID for a in offered)
    sound(t)
