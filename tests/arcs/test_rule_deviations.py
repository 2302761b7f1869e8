"""Rule deviations a review found (issue 16), each played through the engine with the
answers it lists as legal; a refused answer is typed and changes nothing."""
from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.state import Action
from plugins.arcs.content import default_box
from tests.arcs.flow_helpers import act, answer, place_first, placements, prompt_of, put, restart_round
from tests.arcs.test_abilities_in_play import fresh_table, in_court, lead, listed, own, refused

BOX = default_box()


def _secure(t, card: str) -> None:
    in_court(t, card, [2, 0, 0])
    lead(t, "AGG4")  # Aggression pips buy Secure
    (secure,) = listed(t, 0, act="secure", card=card, pay=-1)
    t.act(0, secure)


# -- 1. a Vox card's mandatory parts --------------------------------------------------------------
def test_guild_struggle_steal_is_optional_its_reshuffle_is_not_BC30_ARCS_165():
    """Guild Struggle (BC30): "may steal" is a choice (stealing nothing is listed), but the
    effect cannot be declined as a whole: the decline is not listed and is refused, typed,
    changing nothing; after the choice the Guild cards of the Court discard go back into
    the Court deck unasked (the Vox card in the discard stays)."""
    t = fresh_table()
    own(t, 1, "BC01")
    s = t.state
    for card in ("BC02", "BC31"):
        for pile in (s.court_deck, s.court_discard):
            if card in pile:
                pile.remove(card)
        s.court_discard.append(card)
    _secure(t, "BC30")
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["vox"] == "BC30"
    assert not listed(t, 0, card="")
    refused(t, 0, Action("use_ability", {"card": "", "index": -1, "params": {}}), IllegalAction)
    assert listed(t, 0, card="BC30", params={"rival": 1, "card": "BC01"})
    (keep,) = listed(t, 0, card="BC30", params={})
    t.act(0, keep)
    s = t.state
    assert "BC02" not in s.court_discard and ("BC02" in s.court_deck or "BC02" in s.court_row)
    assert "BC31" in s.court_discard and "BC30" in s.court_discard
    assert "BC01" in s.players[1].guild
    assert not [p for p in s.prompts if p.kind == "arcs.use_ability"]


def test_mass_uprising_cannot_be_declined_only_its_cluster_is_chosen_BC26():
    """Mass Uprising (BC26): the securer picks a cluster; not placing is neither listed nor
    accepted (typed refusal, nothing changed); the ships go into each system of it."""
    t = fresh_table()
    _secure(t, "BC26")
    assert prompt_of(t, 0).kind == "arcs.use_ability"
    assert not listed(t, 0, card="")
    assert all(a.params["params"].get("cluster") for a in listed(t, 0, card="BC26"))
    refused(t, 0, Action("use_ability", {"card": "", "index": -1, "params": {}}), IllegalAction)
    (two,) = listed(t, 0, card="BC26", params={"cluster": 2})
    t.act(0, two)
    s = t.state
    assert all(s.systems[x].ships[0].fresh == 1 for x in s.systems if BOX.cluster_of(x) == 2)
    assert "BC26" in s.court_discard


def test_the_optional_vox_cards_still_offer_doing_nothing_BC27_BC28_BC29():
    """Populist Demands, Outrage Spreads and Song of Freedom say "may": their "nothing"
    choice (empty params) stays listed, while the decline of the card as a whole is not."""
    for card in ("BC27", "BC28", "BC29"):
        t = fresh_table()
        _secure(t, card)
        if prompt_of(t, 0).kind != "arcs.use_ability":  # nothing to choose: resolved unasked
            assert card != "BC28"
            continue
        assert listed(t, 0, card=card, params={}) and not listed(t, 0, card="")


# -- 2. a card's declaration is a declaration ----------------------------------------------------
def test_populist_demands_declaration_opens_ambitious_LEAD04_BC27_ARCS_124():
    """Populist Demands (BC27) declares: the Upstart's Ambitious (LEAD04) is offered as for a
    lead card's declaration (ARCS-124; card FAQ: a card's declaration triggers the
    declaring abilities again)."""
    t = fresh_table()
    own(t, 0, "LEAD04")
    _secure(t, "BC27")
    ambition = BOX.board.ambitions[0]
    (declare,) = listed(t, 0, card="BC27", params={"ambition": ambition})
    t.act(0, declare)
    s = t.state
    assert s.ambition_declared == ambition
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["when"] == "declare"
    assert listed(t, 0, card="LEAD04")


def test_generous_pays_a_guild_card_for_a_populist_demands_declaration_LEAD07_BC27():
    """Generous (LEAD07): declaring with Populist Demands costs a Guild card, handed to the
    Rival with the least Power (all 0 here: the first after the holder in turn order); with
    no Guild card the declaration is neither listed nor accepted (typed, nothing changed)."""
    t = fresh_table()
    own(t, 0, "LEAD07")
    _secure(t, "BC27")
    assert listed(t, 0, card="BC27") == listed(t, 0, card="BC27", params={})
    refused(t, 0, Action("use_ability", {"card": "BC27", "index": 0, "params": {"ambition": BOX.board.ambitions[0]}}),
            IllegalAction)
    t = fresh_table()
    own(t, 0, "LEAD07")
    own(t, 0, "BC01")
    _secure(t, "BC27")
    (declare,) = listed(t, 0, card="BC27", params={"ambition": BOX.board.ambitions[0]})
    t.act(0, declare)
    s = t.state
    assert s.ambition_declared == BOX.board.ambitions[0]
    assert "BC01" not in s.players[0].guild and "BC01" in s.players[1].guild


def test_galactic_bards_declare_before_or_after_seizing_BC25_ARCS_124():
    """Galactic Bards (BC25), Surpassing: the declaration may come before the seize (card FAQ:
    either order), and it opens Ambitious (LEAD04) like any declaration; the seize is then
    still offered. Declining first leaves the declaration open after the seize."""
    for first in (True, False):
        t = fresh_table()
        own(t, 1, "BC25")
        own(t, 1, "LEAD04")
        for seat in range(3):  # a ship each: the safety net (ARCS-271) stays out of the way
            put(t, "6.3", seat, fresh=1)
        restart_round(t, [["ADM2"], ["ADM4", "CON2"], ["MOB3"]], initiative=0)
        answer(t, 0, "lead", card="ADM2")
        if prompt_of(t, 0).kind == "declare":
            answer(t, 0, "declare", ambition="")
        act(t, 0, "done")
        answer(t, 1, "play", card="ADM4", kind="surpass")
        p = prompt_of(t, 1)
        assert p.kind == "arcs.use_ability" and p.args["when"] == "surpass_or_pivot"
        ambition = BOX.actions.ambition_by_number["4"]
        if first:
            (bards,) = listed(t, 1, card="BC25", params={"ambition": ambition})
            t.act(1, bards)
            assert t.state.ambition_declared == ambition
            assert prompt_of(t, 1).args.get("when") == "declare"  # Ambitious offered
            (gain,) = listed(t, 1, card="LEAD04", params={"resource": "fuel"})
            t.act(1, gain)
            while placements(t, 1):  # where the gained Fuel goes (ARCS-209)
                place_first(t, 1)
            assert prompt_of(t, 1).kind == "seize"
            answer(t, 1, "seize", card="CON2")
            assert t.state.initiative == 1 and prompt_of(t, 1).kind == "arcs.act"
        else:
            t.act(1, Action("use_ability", {"card": "", "index": -1, "params": {}}))
            assert prompt_of(t, 1).kind == "seize"
            answer(t, 1, "seize", card="CON2")
            assert prompt_of(t, 1).args.get("when") == "surpass_or_pivot"
            (bards,) = listed(t, 1, card="BC25", params={"ambition": ambition})
            t.act(1, bards)
            assert t.state.ambition_declared == ambition and t.state.initiative == 1


# -- 3. a Copy or Pivot pip paying a new action that contains the action ----------------------
def _city(t, system: str, seat: int) -> None:
    from plugins.arcs.state import Building
    p = t.state.players[seat]
    p.cities_on_board[p.cities_on_board.index(True)] = False
    t.state.systems[system].buildings.append(Building(kind="city", owner=seat))


def _nurture_after(t, kind: str):
    """Seat 0 leads ADM2; seat 1 (Mystic and Living Structures) follows CON3 as `kind` and
    pays Nurture (L10, Build) with the pip, taxing its Weapon city in 2.2."""
    for seat in range(3):
        put(t, "6.3", seat, fresh=1)
    own(t, 1, "LEAD02")
    own(t, 1, "L10")
    _city(t, "2.2", 1)
    from tests.arcs.flow_helpers import set_slots
    set_slots(t, 1, [None, None])
    restart_round(t, [["ADM2"], ["CON3"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="ADM2")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="CON3", kind=kind)
    index = next(i for i, a in enumerate(BOX.lore["L10"].abilities) if a.do == "tax_loyal_city")
    (nurture,) = listed(t, 1, act="ability", card="L10", index=index, pay=-1)
    t.act(1, nurture)
    while placements(t, 1):  # where the taxed tokens go (ARCS-209)
        place_first(t, 1)
    return sorted(r for r in t.state.players[1].resources if r)


def test_attuned_triggers_when_a_pivot_pip_pays_nurture_LEAD02_L10_ARCS_125():
    """ARCS-125: a Pivot pip paying Nurture (L10 "tax a Loyal city") is a Pivot to tax: the
    Mystic's Attuned adds a Psionic to the Weapon taxed."""
    assert _nurture_after(fresh_table(), "pivot") == ["psionic", "weapon"]


# -- 4. modifiers of a Move made inside other effects (ARCS-123) ------------------------------
def _pivot_battle_in_2_1(t) -> None:
    """Seat 1 (one fresh ship in 2.1 facing seat 0's, one in 2.2) pivots AGG3 after seat 0's
    ADM2 lead and battles seat 0 in 2.1: the Copy/Pivot battle window is open."""
    put(t, "2.1", 0, fresh=1)
    put(t, "2.1", 1, fresh=1)
    put(t, "2.2", 1, fresh=1)
    restart_round(t, [["ADM2"], ["AGG3"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="ADM2")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="AGG3", kind="pivot")
    t.act(1, listed(t, 1, act="battle", system="2.1", defender=0)[0])
    assert prompt_of(t, 1).args["when"] == "copy_or_pivot_battle"


def test_tactical_and_sprinter_moves_trigger_gate_ports_and_tactical_opens_the_sprint_LEAD06_L03_L08(monkeypatch):
    """ARCS-123: Tactical's move (LEAD06) into a gate whose controller holds Gate Ports (L08)
    and a fresh starport there gives that controller a captive, as a pip's move does; the
    fresh ship that moved may then sprint (L03), and the sprint into another such gate
    captures again; the sprint opens no further sprint (card FAQ: not recursive)."""
    import core.chance
    from plugins.arcs.state import Building
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [(k, 5) for k in which])
    t = fresh_table()
    s = t.state
    own(t, 1, "LEAD06")
    own(t, 1, "L03")
    own(t, 2, "L08")
    for gate in ("2G", "3G"):
        put(t, gate, 2, fresh=1)
        s.systems[gate].buildings.append(Building(kind="starport", owner=2))
        s.players[2].starports -= 1
    put(t, "6.3", 0, fresh=1)
    _pivot_battle_in_2_1(t)
    agents = s.players[1].agents
    (move,) = listed(t, 1, card="LEAD06", params={"origin": "2.2", "path": ["2G"], "fresh": 1, "damaged": 0})
    t.act(1, move)
    s = t.state
    assert s.players[1].agents == agents - 1 and s.players[2].captives.count(1) == 1
    p = prompt_of(t, 1)
    assert p.kind == "arcs.use_ability" and p.args["when"] == "move"  # the sprint after Tactical's move
    (sprint,) = listed(t, 1, card="L03", params={"origin": "2G", "to": "3G", "fresh": 1})
    t.act(1, sprint)
    s = t.state
    assert s.systems["3G"].ships[1].fresh == 1
    assert s.players[1].agents == agents - 2 and s.players[2].captives.count(1) == 2
    assert not (prompt_of(t, 1) and prompt_of(t, 1).args.get("when") == "move")


# -- 5. once per turn per city, when buildings leave mid-turn ---------------------------------
def test_a_city_taxed_stays_taxed_when_an_earlier_building_is_destroyed_ARCS_141(monkeypatch):
    """ARCS-141: seat 0 taxes its city (second in 2.3), then destroys seat 1's city before it
    in the same system; its city is now first there, and taxing it again is neither listed
    nor accepted (typed, nothing changed): the record still names that city."""
    import core.chance
    from tests.arcs.test_rules_b_turn import bare, refused as refused_act, slots
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [(k, 0) for k in which])
    t = bare()
    _city(t, "2.3", 1)
    _city(t, "2.3", 0)
    put(t, "2.3", 0, fresh=2)
    restart_round(t, [["ADM4"], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="ADM4")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    slots(t, 0, ["weapon", None, None])
    act(t, 0, "spend", pay=0)  # ARCS-215: the pips may battle
    act(t, 0, "tax", system="2.3", building=1)
    while placements(t, 0):  # where the taxed token goes (ARCS-209): the first listed row
        place_first(t, 0)
    act(t, 0, "battle", system="2.3", defender=1, skirmish=2)
    s = t.state
    assert [(b.kind, b.owner) for b in s.systems["2.3"].buildings] == [("city", 0)]
    assert not listed(t, 0, act="tax", system="2.3")
    refused_act(t, 0, {"act": "tax", "system": "2.3", "building": 0}, IllegalAction)


# -- 6. Railgun Arrays before the dice are collected ------------------------------------------
def test_railgun_hit_comes_before_the_attacker_collects_dice_L12(monkeypatch):
    """Railgun Arrays (L12): the attacker takes its hit first and then collects dice for the
    ships left (card FAQ), so destroying the damaged ship leaves one die of the attacker's
    choice (a skirmish die here, though the battle named an assault die first); a second
    die is neither listed nor accepted."""
    import core.chance
    from tests.arcs.test_rules_b_turn import bare
    rolled = []

    def roll(ctx, seat, dice, which, why=""):
        rolled.append(list(which))
        return [(k, 5) for k in which]
    monkeypatch.setattr(core.chance, "roll", roll)
    t = bare()
    own(t, 1, "L12")
    put(t, "2.1", 0, fresh=1, damaged=1)
    put(t, "2.1", 1, fresh=1)
    restart_round(t, [["AGG4"], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="AGG4")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    act(t, 0, "battle", system="2.1", defender=1, assault=1, skirmish=1)
    assert prompt_of(t, 0).kind == "arcs.ship_hits" and not rolled
    (kill,) = listed(t, 0, destroy_damaged=1)
    t.act(0, kill)
    assert prompt_of(t, 0).kind == "battle_dice" and not rolled
    assert {"assault": 1, "skirmish": 1, "raid": 0} not in [a.params for a in listed(t, 0)]
    refused(t, 0, Action("dice", {"assault": 1, "skirmish": 1, "raid": 0}))
    (one,) = listed(t, 0, assault=0, skirmish=1, raid=0)
    t.act(0, one)
    assert rolled == [["skirmish"]]


# -- 7. ships placed mid-battle are not attacking ships ----------------------------------------
def test_ships_mass_uprising_places_by_ransack_in_the_battle_system_do_not_raid_BC26(monkeypatch):
    """Card FAQ (Mass Uprising, BC26): ships it places in the battle system when a Ransack
    secures it mid-battle are not attacking ships. Both attacking ships die to their own
    SELF hits, the HITs destroy the defender's city, the Ransack takes Mass Uprising and a
    ship lands in the battle system: the KEY rolled is lost (no attacking ship is left,
    ARCS-182), so Galactic Bards (raid cost 1) is not stolen."""
    import core.chance
    from tests.arcs.test_rules_b_turn import bare
    faces = {"assault": 1, "raid": 1}  # HIT x2 + SELF; KEY + SELF
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [(k, faces[k]) for k in which])
    t = bare()
    own(t, 1, "BC25")
    _city(t, "2.1", 1)
    put(t, "2.1", 0, damaged=2)
    in_court(t, "BC26", [0, 1, 0])
    restart_round(t, [["AGG4"], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="AGG4")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    act(t, 0, "battle", system="2.1", defender=1, assault=1, raid=1)
    s = t.state
    assert not s.systems["2.1"].buildings and "BC26" not in s.court_row
    (uprising,) = listed(t, 0, card="BC26", params={"cluster": 2})
    t.act(0, uprising)
    s = t.state
    assert s.systems["2.1"].ships[0].fresh == 1
    assert prompt_of(t, 0).kind != "raid" and "BC25" in s.players[1].guild
    assert s.battle is None


# -- 8. "spend any as X" for a cost a card names -----------------------------------------------
def test_loyal_engineers_pay_a_cloud_city_with_any_token_L09_BC01_ARCS_313():
    """Cloud Cities (L09) cost a resource of the planet's type (card FAQ); Loyal Engineers
    (BC01) let any token be spent as Material (ARCS-313), so a Fuel pays for a Cloud City on
    the full Material planet 3.1 (the Fuel itself returns to the supply). Without the
    Loyal card the Fuel pays nothing: not listed, refused (typed, nothing changed)."""
    from tests.arcs.test_rules_b_turn import bare, refused as refused_act, slots
    for loyal in (True, False):
        t = bare()
        own(t, 0, "L09")
        if loyal:
            own(t, 0, "BC01")
        _city(t, "3.1", 1)
        put(t, "3.1", 0, fresh=1)
        restart_round(t, [["CON4"], ["MOB2"], ["MOB3"]], initiative=0)
        answer(t, 0, "lead", card="CON4")
        if prompt_of(t, 0).kind == "declare":
            answer(t, 0, "declare", ambition="")
        slots(t, 0, ["fuel", None, None])
        build = {"act": "build", "pay": -1, "system": "3.1", "what": "city", "cost_slot": 0}
        if not loyal:
            assert not listed(t, 0, **build)
            refused_act(t, 0, build, IllegalAction)
            continue
        fuel = t.state.supply["fuel"]
        (action,) = listed(t, 0, **build)
        t.act(0, action)
        s = t.state
        assert [(b.kind, b.owner) for b in s.systems["3.1"].buildings] == [("city", 1), ("city", 0)]
        assert s.players[0].resources[0] is None and s.supply["fuel"] == fuel + 1


def test_tactical_move_before_the_battle_must_leave_a_legal_battle_LEAD06():
    """Tactical (LEAD06), card FAQ: the move before a battle may use other ships, but it
    must leave a legal battle to fight, else it cannot be made: moving the only attacking
    ship out of 2.1 is neither listed nor accepted (typed, nothing changed); moving another
    ship is."""
    from core.state import encode_msgpack

    t = fresh_table()
    own(t, 1, "LEAD06")
    put(t, "6.3", 0, fresh=1)
    put(t, "6.3", 2, fresh=1)
    _pivot_battle_in_2_1(t)
    away = {"origin": "2.1", "path": ["2G"], "fresh": 1, "damaged": 0}
    assert not listed(t, 1, card="LEAD06", params=away)
    index = next(i for i, a in enumerate(BOX.leaders["LEAD06"].abilities) if a.do == "move_before_or_after")
    before = encode_msgpack(t.state)
    with pytest.raises(IllegalAction):
        t.act(1, Action("use_ability", {"card": "LEAD06", "index": index, "params": away}))
    assert encode_msgpack(t.state) == before
    assert listed(t, 1, card="LEAD06", params={"origin": "2.2", "path": ["2.1"], "fresh": 1, "damaged": 0})
