"""The Admiral's Fate Set (F701-F721) through the engine: each test names the card it
proves and the BR checklist IDs where the checklist has them. A refused choice raises a
typed error and changes nothing."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.rounds import round_start
from plugins.arcs.state import Building, Ships, Trophy
from plugins.blighted_reach import empire, event_flow
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.flow_helpers import options, ready

STEWARD, ADMIRAL = "FATE01", "FATE07"
HANDS = [["AGG3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"], ["ADM2", "CON3"]]


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def admiral_table(players: int = 3, seed: int = 1, steward: bool = True):
    """Act I's first round with the Admiral at seat 1 (and the Steward at seat 0)."""
    wanted = {1: ADMIRAL, **({0: STEWARD} if steward else {})}
    return ready(players, seed, wanted=wanted)


def sound(t):
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def resolve_edicts(t):
    """The round's end chose the Edicts (as a Council's securer or the event die may): run
    them, then a new round (the hands as HANDS)."""
    s = t.state
    everything = [c for h in s.hands for c in h] + s.action_discard
    hands = HANDS[:len(s.players)]
    for card in (c for h in hands for c in h):
        everything.remove(card)
    s.hands, s.action_discard = [list(h) for h in hands], everything
    s.initiative, s.prompts, s.stack = 0, [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    ctx.push(event_flow.edicts_begin)
    run(ctx)
    events = list(ctx.events)
    govern = next((p for p in t.state.prompts if p.kind == "govern"), None)
    if govern is not None:  # the First Regent changes the Policy: no Demand to collect
        change = next(o for o in govern.options if "change" in o.params)
        events += t.act(govern.seat, change)
    return events


def starport_for(t, seat: int, system: str):
    """Turn the seat's city in `system` into a starport (the city back on its board)."""
    s = t.state
    here = s.systems[system]
    i = next(i for i, b in enumerate(here.buildings) if b.owner == seat)
    here.buildings[i] = Building(kind="starport", owner=seat)
    s.players[seat].starports -= 1
    board = s.players[seat].cities_on_board
    board[board.index(False)] = True


# -- F701 Admiral Act I Setup --------------------------------------------------------------


def test_F701_setup_gains_imperial_officers_and_adds_the_foundries_edict():
    t = admiral_table()
    s = t.state
    assert s.players[1].guild == ["F702"] and ["F703"] in s.booklet
    assert s.first_regent == 0  # the Steward is in play: no tile for the Admiral


def test_F701_the_admiral_takes_the_first_regent_tile_without_the_steward():
    t = admiral_table(steward=False)
    assert t.state.first_regent == 1 and STEWARD not in t.state.fates


# -- F702 Imperial Officers -----------------------------------------------------------------


def test_F702_ignores_the_presence_and_movement_laws_and_is_buried_for_an_outlaw():
    t = admiral_table()
    s = t.state
    from plugins.blighted_reach.content import default_box

    assert empire.laws_ignored(default_box(), s, 1) == frozenset({"presence", "movement"})
    far = next(x for x in sorted(s.imperial) if not s.systems[x].ships_of(1).total
               and not any(b.owner == 1 for b in s.systems[x].buildings))
    assert empire.commands(s, 1, far, ignore_presence=True)   # any Imperial ships (BR-125)
    assert not empire.commands(s, 2, far)                     # a Regent without the card
    empire.become_outlaw(s, 1)
    events = resolve_edicts(t)
    assert "F702" not in t.state.players[1].guild and "F702" in t.state.court_deck
    assert any(e.type == "card_buried" and e.data["card"] == "F702" for e in events)
    assert any(e.type == "edict_lapsed" and e.data["card"] == "F703" for e in events)  # nobody holds it now
    sound(t)


# -- F703 Use Imperial Foundries -------------------------------------------------------------


def _foundry_table(players: int = 3):
    t = admiral_table(players)
    s = t.state
    system = next(x for x, here in sorted(s.systems.items()) if any(b.owner == 1 for b in here.buildings))
    starport_for(t, 1, system)
    assert s.systems[system].ships_of(1).total == 3  # the starting placement's ships
    s.systems[system].ships[1] = Ships(fresh=2, damaged=1)
    return t, system


def test_F703_the_officers_holder_replaces_a_ship_at_each_starport_with_an_imperial_ship():
    t, system = _foundry_table()
    before = t.state.imperial.get(system, Pieces())
    supply, ships = t.state.imperial_supply, t.state.players[1].ships
    resolve_edicts(t)
    prompt = next(p for p in t.state.prompts if p.kind == "imperial_foundry")
    assert prompt.seat == 1  # the holder resolves it, not the First Regent (seat 0)
    assert sorted(o.params["replace"] for o in prompt.options) == ["", "damaged", "fresh"]
    events = t.act(1, Action("imperial_foundry", {"system": system, "replace": "damaged"}))
    s = t.state
    assert s.imperial[system] == Pieces(fresh=before.fresh, damaged=before.damaged + 1)
    assert s.systems[system].ships_of(1) == Ships(fresh=2, damaged=0)
    assert s.imperial_supply == supply - 1 and s.players[1].ships == ships + 1
    assert any(e.type == "imperial_ship_replaced" for e in events)
    sound(t)


def test_F703_declining_changes_nothing_and_a_wrong_answer_is_refused():
    t, system = _foundry_table()
    resolve_edicts(t)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(1, Action("imperial_foundry", {"system": system, "replace": "both"}))
    with pytest.raises(ActionRejected):
        t.act(0, Action("imperial_foundry", {"system": system, "replace": "fresh"}))  # not the holder
    assert snapshot(t) == before
    imperial = dict(t.state.imperial)
    t.act(1, Action("imperial_foundry", {"system": system, "replace": ""}))
    assert t.state.imperial == imperial


def test_F703_with_no_imperial_ship_in_supply_only_declining_is_offered():
    t, system = _foundry_table()
    s = t.state
    s.imperial["1G"] = Pieces(fresh=s.imperial_supply)
    s.imperial_supply = 0
    events = resolve_edicts(t)
    assert not any(p.kind == "imperial_foundry" for p in t.state.prompts)  # the one option taken
    assert not any(e.type == "imperial_ship_replaced" for e in events)


def test_F703_advances_the_admirals_objective_while_winning_an_ambition_BR_093():
    """BR-093: Prove Yourself as a New Admiral: a Regent winning a declared ambition advances 1 for
    each Imperial ship placed, here by Use Imperial Foundries."""
    t, system = _foundry_table()
    s = t.state
    s.objective_markers = [10, 13, 10]
    s.ambition_boxes["warlord"].append(s.markers_available.pop(0))  # Warlord declared
    s.players[1].trophies.append(Trophy(owner=2, kind="agent"))  # the Admiral leads Warlord
    s.players[2].agents -= 1
    resolve_edicts(t)
    t.act(1, Action("imperial_foundry", {"system": system, "replace": "fresh"}))
    assert t.state.objective_markers == [10, 12, 10]


# -- Act II cards (put where the Act would have them) -------------------------------------
from tests.blighted_reach import empire_fate_tables as et  # noqa: E402

lead, act = et.lead, et.act


def test_F705_honor_guard_keeps_weapon_guild_cards_from_being_stolen_while_holding_a_weapon():
    from plugins.arcs.content import box_for
    from plugins.arcs.outrage import steal_guild_card
    from plugins.arcs.court_ops import _stealable_guilds

    t = et.empire_table()
    et.give(t, 1, "F705")
    et.give(t, 1, "F708")   # Court Enforcers: a Weapon Guild card with a raid cost
    s = t.state
    box = box_for(s)
    s.players[1].resources = [r if r != "weapon" else None for r in s.players[1].resources]
    assert "F708" in _stealable_guilds(box, s, 1)  # no Weapon: nothing kept
    slot = s.players[1].resources.index(None)
    s.players[1].resources[slot] = "weapon"
    s.supply["weapon"] -= 1
    assert "F708" not in _stealable_guilds(box, s, 1) and "F702" not in _stealable_guilds(box, s, 1)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        steal_guild_card(box, s, 0, 1, "F708", keys=6)  # a raid's keys cannot take it either
    assert snapshot(t) == before


@pytest.mark.parametrize("card", ["F706", "F707"])
def test_F706_rogue_admirals_ignore_all_three_laws_and_place_imperial_ships_in_the_prelude(card):
    """Rogue Admirals and its reprint (F707)."""
    from plugins.blighted_reach.content import default_box

    t = et.empire_table()
    et.give(t, 1, card)
    s = t.state
    assert empire.laws_ignored(default_box(), s, 1) == frozenset({"presence", "movement", "truce"})
    et.new_round(t, [["MOB3", "CON4"], ["AGG3", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "AGG3")
    far = "6.1"  # the Founder's system, the Empire's: the Rogue Admirals command there too
    assert not t.state.systems[far].ships_of(1).total
    legal = [a.params["params"]["system"] for a in options(t, 1) if a.params.get("card") == card]
    assert far in legal and "1.1" not in legal   # an Empire system, not one nobody controls
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        act(t, 1, "ability", card=card, index=2, params={"system": "1.1"})
    assert snapshot(t) == before
    supply = t.state.imperial_supply
    act(t, 1, "ability", card=card, index=2, params={"system": far})
    s = t.state
    assert s.imperial[far] == Pieces(fresh=4) and s.imperial_supply == supply - 3
    assert card in s.court_discard and card not in s.players[1].guild
    et.sound(t)


def _defectors_table(card: str):
    t = et.empire_table()
    et.to_court(t, card)
    empire.become_outlaw(t.state, 2)  # the Founder, the only Outlaw
    return t


@pytest.mark.parametrize("card", ["F710", "F118", "F119"])
def test_F710_F118_imperial_defectors_crisis_turns_the_rolled_clusters_imperial_ships_outlaw(card):
    t = _defectors_table(card)
    s = t.state
    before = {x: p for x, p in s.imperial.items() if x.startswith("6")}
    ships = {x: s.systems[x].ships_of(2).total for x in before}
    events = et.resolve_crises(t, number=6, symbol="hex")
    s = t.state
    assert not any(x.startswith("6") for x in s.imperial)
    assert all(s.systems[x].ships_of(2).total == ships[x] + p.total for x, p in before.items())
    assert s.court_deck[-1] == card  # buried
    assert any(e.type == "imperial_ships_defected" for e in events)
    et.sound(t)


def test_F710_imperial_defectors_secured_discard_or_defect_a_chosen_cluster():
    t = _defectors_table("F710")
    et.put_agent(t, 0, "F710", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F710")
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F710", "index": 2, "params": {"cluster": 9}}))
    assert snapshot(t) == before
    t.act(0, Action("use_ability", {"card": "F710", "index": 2, "params": {"cluster": 5}}))
    s = t.state
    assert not any(x.startswith("5") for x in s.imperial) and s.court_deck[-1] == "F710"
    u = _defectors_table("F710")
    et.put_agent(u, 0, "F710", 1)
    et.new_round(u)
    lead(u, 0, "AGG3")
    act(u, 0, "secure", card="F710")
    imperial = dict(u.state.imperial)
    u.act(0, Action("use_ability", {"card": "F710", "index": 2, "params": {"then": "discard"}}))
    assert u.state.imperial == imperial and u.state.court_discard[-1] == "F710"
    et.sound(u)


def test_F118_steward_defectors_secured_may_defect_then_bury_or_discard():
    t = _defectors_table("F118")
    et.put_agent(t, 0, "F118", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F118")
    imperial = dict(t.state.imperial)
    t.act(0, Action("use_ability", {"card": "F118", "index": 2, "params": {"cluster": 0, "then": "bury"}}))
    assert t.state.imperial == imperial and t.state.court_deck[-1] == "F118"


def test_F713_command_chaos_crisis_attaches_imperial_officers_and_returns_rogue_admirals():
    t = et.empire_table()
    s = t.state
    et.to_court(t, "F713")
    et.give(t, 0, "F706")
    s.players[0].guild.remove("F706")
    s.court_discard.append("F706")
    events = et.resolve_crises(t, number=1, symbol="hex")
    s = t.state
    assert s.attached.get("F713") == "F702" and "F702" not in s.players[1].guild
    assert "F706" in s.court_deck and "F706" not in s.court_discard
    assert any(e.type == "officers_attached" and e.data["from"] == "guild:1" for e in events)
    et.sound(t)


def test_F713_command_chaos_secured_influences_once_and_an_outlaw_may_become_a_regent():
    t = et.empire_table()
    et.to_court(t, "F713")
    empire.become_outlaw(t.state, 0)
    et.put_agent(t, 0, "F713", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F713")
    target = next(c for c in t.state.court_row if c.startswith("CC"))
    t.act(0, Action("use_ability", {"card": "F713", "index": 2, "params": {"card": target}}))
    assert t.state.court_agents[target][0] == 1
    t.act(0, Action("use_ability", {"card": "F713", "index": 3, "params": {"regent": True}}))
    s = t.state
    assert s.titles[0] == "regent" and "F713" in s.court_deck and "F713" not in s.court_row
    et.sound(t)


def test_F717_mass_uprising_crisis_destroys_every_damaged_ship():
    t = et.empire_table()
    s = t.state
    et.to_court(t, "F717")
    s.systems["5.1"].ships[1].damaged, s.systems["5.1"].ships[1].fresh = 2, 1
    s.imperial["6.3"] = Pieces(fresh=1, damaged=1)
    s.imperial_supply -= 1
    ships, supply = s.players[1].ships, s.imperial_supply
    et.resolve_crises(t, number=1, symbol="hex")
    s = t.state
    assert s.systems["5.1"].ships_of(1).damaged == 0 and s.players[1].ships == ships + 2
    assert s.imperial["6.3"] == Pieces(fresh=1) and s.imperial_supply == supply + 1
    assert s.court_deck[-1] == "F717"
    et.sound(t)


def test_F717_mass_uprising_secured_places_a_ship_in_each_system_of_a_cluster():
    t = et.empire_table()
    et.to_court(t, "F717")
    et.put_agent(t, 0, "F717", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    events = act(t, 0, "secure", card="F717")
    if et.prompt_of(t, "arcs.use_ability") is not None:
        events += t.act(0, Action("use_ability", {"card": "F717", "index": 0, "params": {"cluster": 1}}))
    assert any(e.type == "ships_placed" for e in events) and "F717" in t.state.court_discard


# -- F704 Admiral Act I Resolution, F712, F714 ----------------------------------------------


def test_F704_completed_objective_gains_honor_guard_and_adds_the_act_two_cards():
    t = et.empire_table()
    et.resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F705" in s.players[1].guild
    assert {"F706", "F707", "F708", "F709"} <= set(s.court_deck) and {"F710", "F711"} <= set(s.scrapped)
    assert ["F703"] in s.booklet  # Use Imperial Foundries stays
    et.sound(t)


def test_F704_failed_objective_scraps_the_foundries_edict_and_adds_court_enforcers_and_defectors():
    t = et.empire_table()
    et.resolve_fates(t, [0, 4, 0])
    s = t.state
    assert ["F703"] not in s.booklet and {"F703", "F705", "F706", "F707"} <= set(s.scrapped)
    assert {"F708", "F709", "F710", "F711"} <= set(s.court_deck)
    et.sound(t)


def test_F712_act_two_setup_shuffles_command_chaos_in_and_F714_resolution_sides():
    from plugins.blighted_reach import fate_steps
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import ctx as plain_ctx

    cbox = default_box()
    t = et.empire_table()
    s = t.state
    fate_steps.run_side(plain_ctx(s), cbox, 1, ADMIRAL, "F712", "setup")
    assert "F713" in s.court_deck
    fate_steps.run_side(plain_ctx(s), cbox, 1, ADMIRAL, "F714", "success")
    assert {"F715", "F716"} <= set(s.scrapped) and {"F717", "F718"} <= set(s.court_deck)
    u = et.empire_table()
    fate_steps.run_side(plain_ctx(u.state), cbox, 1, ADMIRAL, "F714", "failure")
    assert {"F715", "F716"} <= set(u.state.court_deck) and {"F717", "F718"} <= set(u.state.scrapped)


# -- Act III cards ----------------------------------------------------------------------------


def test_F719_act_three_setup_adds_martial_law_and_tucks_its_reminder():
    t = et.empire_table()
    events = et.run_side(t, 1, "F719")
    s = t.state
    assert ["F720"] in s.booklet and s.reminders == ["F721"]
    assert any(e.type == "booklet_added" and e.data["cards"] == ["F720"] for e in events)  # explained
    assert any(e.type == "reminder_tucked" for e in events)
    et.sound(t)


def test_F720_martial_law_takes_the_fleet_from_every_regent_but_the_admiral():
    from plugins.blighted_reach import board

    t = et.empire_table()
    s = t.state
    assert empire.commands(s, 0, "5.3") and board.controls_on_turn(s, 0, "5.3")
    s.booklet.append(["F720"])
    # the Steward (a Regent, no Imperial Officers or Rogue Admirals): no command, no control
    assert not empire.commands(s, 0, "5.3") and not board.controls_on_turn(s, 0, "5.3")
    assert not board.controls_for_scoring(s, 0, "6.3")  # the First Regent's Empire systems
    # the Admiral is exempt; so is a Regent with Rogue Admirals; an Outlaw is an Outlaw
    assert empire.commands(s, 1, "5.1") and board.controls_on_turn(s, 1, "5.1")
    et.give(t, 0, "F706")
    assert empire.commands(s, 0, "5.3")
    s.players[0].guild.remove("F706")
    s.court_deck.append("F706")
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        empire.check_command(s, 0, "5.3")
    assert snapshot(t) == before


def test_F720_martial_law_ends_a_regents_catapult_at_an_empire_gate():
    t = et.empire_table()
    s = t.state
    gate = next(g for g in sorted(s.imperial) if g.endswith("G"))
    assert not empire.catapult_stops(s, 0, False, True, gate)  # an Empire gate stops Outlaws only (BR-129)
    s.booklet.append(["F720"])
    assert empire.catapult_stops(s, 0, False, True, gate)
    assert not empire.catapult_stops(s, 1, False, True, gate)  # not the Admiral's


@pytest.mark.parametrize("card", ["F711", "F715", "F716"])
def test_F711_F715_F716_imperial_defectors_reprints_play_as_F710(card):
    t = _defectors_table(card)
    et.resolve_crises(t, number=5, symbol="hex")
    assert not any(x.startswith("5") for x in t.state.imperial) and t.state.court_deck[-1] == card


def test_F718_mass_uprising_reprint_destroys_damaged_ships():
    t = et.empire_table()
    et.to_court(t, "F718")
    t.state.imperial["6.3"] = Pieces(fresh=1, damaged=1)
    t.state.imperial_supply -= 1
    et.resolve_crises(t, number=1, symbol="hex")
    assert t.state.imperial["6.3"] == Pieces(fresh=1) and t.state.court_deck[-1] == "F718"


# -- the Admiral's objectives (BR-093, BR-094; Act II's) -------------------------------------


def _act_two_markers(t, admiral_space: int = 20):
    """The table read as Act II's for the objectives: the Admiral's Act II objective counts."""
    s = t.state
    s.act = 2
    s.objective_markers = [10, admiral_space, 10][:len(s.players)]


def test_F712_dominate_rival_regents_advances_two_for_each_regent_agent_captured():
    t = et.empire_table()
    s = t.state
    s.imperial_supply += s.imperial.pop("5.3").total
    s.systems["5.3"].ships[0] = Ships(fresh=2)
    s.players[0].ships += 4
    s.systems["5.1"].ships[1] = Ships()
    s.systems["5.3"].ships[1] = Ships(fresh=3)
    _act_two_markers(t)
    et.new_round(t, [["MOB3", "CON4"], ["ADM3", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "ADM3")
    act(t, 1, "tax", system="5.3", building=0)
    s = t.state
    assert s.players[1].captives == [0] and s.objective_markers[1] == 18
    et.sound(t)


def test_F712_crush_the_empires_foes_advances_two_for_each_outlaw_trophy_in_battle():
    t = et.empire_table()
    s = t.state
    empire.become_outlaw(s, 2)
    s.imperial_supply += s.imperial.pop("5.2").total
    s.systems["5.1"].ships[1] = Ships()
    s.systems["5.2"].ships[1] = Ships(fresh=3)
    s.systems["5.2"].ships[2] = Ships(damaged=1)
    s.players[2].ships += 2
    _act_two_markers(t)
    et.new_round(t, [["MOB3", "CON4"], ["AGG3", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "AGG3")
    act(t, 1, "battle", system="5.2", defender=2, assault=3)
    while t.state.battle is not None:  # the battle's choices: the first legal answer each
        p = next(p for p in t.state.prompts if p.blocking)
        t.act(p.seat, options(t, p.seat)[0])
    taken = sum(1 for x in t.state.players[1].trophies if x.owner == 2)
    assert taken >= 1 and t.state.objective_markers[1] == 20 - 2 * taken


def test_command_chaos_and_defectors_refuse_bad_answers():
    t = et.empire_table()
    et.to_court(t, "F713")
    et.put_agent(t, 0, "F713", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F713")
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # the Council card that refilled is fine; a card not there is not
        t.act(0, Action("use_ability", {"card": "F713", "index": 2, "params": {"card": "CC99"}}))
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F713", "index": 3, "params": {"regent": True}}))  # influence first
    assert snapshot(t) == before
    u = _defectors_table("F118")
    et.put_agent(u, 0, "F118", 1)
    et.new_round(u)
    lead(u, 0, "AGG3")
    act(u, 0, "secure", card="F118")
    before = snapshot(u)
    for params in ({"cluster": 5}, {"cluster": 5, "then": "keep"}, {"cluster": 12, "then": "bury"}):
        with pytest.raises(ActionRejected):
            u.act(0, Action("use_ability", {"card": "F118", "index": 2, "params": params}))
        assert snapshot(u) == before


# -- bot games of the later Acts --------------------------------------------------------------


@pytest.mark.parametrize("act", [2, 3])
def test_bot_games_of_acts_two_and_three_with_the_admiral_and_the_steward(act):
    """Acts II and III set up through the engine from a packed log sheet (every objective
    completed, each Fate kept; the Steward's Govern with Authority pick and the Setup sides
    played by the bots), then played out by random bots with the invariants after every
    action."""
    from tests.blighted_reach.fate_ma_tables import later_act_table
    from tests.blighted_reach.flow_helpers import play_out

    for seed in (3, 4):
        t = later_act_table([STEWARD, ADMIRAL, "FATE02"], seed=seed, act=act)
        assert t.state.act == act and t.state.fates[:2] == [STEWARD, ADMIRAL]
        play_out(t, seed)
        assert t.state.finished and t.state.result["act"] == act
        if act == 3:
            assert "campaign_winner" in t.state.result


def test_F719_F122_act_three_setup_sides_through_the_later_act_flow():
    """Act III created from the campaign's log sheet: the Steward's Setup side asks the First
    Regent for the Policy on top; then the Admiral's adds Martial Law and tucks its reminder."""
    from tests.blighted_reach.fate_ma_tables import later_act_table

    t = later_act_table([STEWARD, ADMIRAL, "FATE02"], seed=3, act=3)
    prompt = et.prompt_of(t, "authority_policy")
    assert prompt is not None and prompt.seat == t.state.first_regent
    t.act(prompt.seat, Action("authority_policy", {"card": "F125"}))
    s = t.state
    assert ["F720"] in s.booklet and "F721" in s.reminders and s.sponsored == "tile"
    assert next(slot for slot in s.booklet if "F124" in slot)[0] == "F125"
    et.sound(t)


# -- the Empire's laws on the table's flow (the Empire's hooks) -------------------------------


def test_F702_moves_more_imperial_ships_than_loyal_ones_and_repairs_where_it_has_no_piece():
    """Imperial Officers ignore the Movement Law (three Imperial ships with one Loyal ship)
    and the Presence Law (the Imperial ships of a system without its pieces); the Steward, a
    Regent without them, may do neither."""
    t = et.empire_table()
    s = t.state
    s.imperial["5.1"] = Pieces(fresh=3)
    s.imperial["6.3"] = Pieces(fresh=0, damaged=1)
    s.imperial_supply -= 2
    et.new_round(t, [["MOB3", "CON4"], ["MOB4", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "MOB4")
    move = {"origin": "5.1", "path": ["5G"], "fresh": 1, "imperial_fresh": 3}
    act(t, 1, "move", **move)
    s = t.state
    assert s.imperial["5G"].fresh >= 3 and s.systems["5G"].ships_of(1).fresh == 1
    u = et.empire_table()
    u.state.imperial["5.3"] = Pieces(fresh=3)
    u.state.imperial_supply -= 2
    et.new_round(u, [["MOB4", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]])
    lead(u, 0, "MOB4")
    before = snapshot(u)
    with pytest.raises(ActionRejected):
        act(u, 0, "move", origin="5.3", path=["5G"], fresh=1, imperial_fresh=3)
    assert snapshot(u) == before


def test_F702_repairs_imperial_ships_without_a_loyal_piece_there():
    t = et.empire_table()
    s = t.state
    s.imperial["6.3"] = Pieces(damaged=1)
    assert not s.systems["6.3"].ships_of(1).total
    et.new_round(t, [["MOB3", "CON4"], ["CON5", "AGG3"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "CON5")
    act(t, 1, "repair", system="6.3", piece="imperial")
    assert t.state.imperial["6.3"] == Pieces(fresh=1)


def test_F701_demonstrate_the_navys_might_advances_for_trophies_taken_with_imperial_attackers_BR_094():
    """BR-094: a Regent Admiral attacking with Imperial ships advances 1 for each Trophy taken."""
    t = et.empire_table()
    s = t.state
    empire.become_outlaw(s, 2)
    s.systems["5.1"].ships[1] = Ships()
    s.systems["5.2"].ships[1] = Ships(fresh=3)
    s.imperial["5.2"] = Pieces(fresh=3)
    s.imperial_supply -= 2
    s.systems["5.2"].ships[2] = Ships(damaged=1)
    s.players[2].ships += 2
    s.objective_markers = [20, 13, 16]
    et.new_round(t, [["MOB3", "CON4"], ["AGG3", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "AGG3")
    act(t, 1, "battle", system="5.2", defender=2, assault=6, imperial_fresh=3)
    while t.state.battle is not None:
        p = next(p for p in t.state.prompts if p.blocking)
        t.act(p.seat, options(t, p.seat)[0])
    taken = len(t.state.players[1].trophies)
    assert taken >= 1 and t.state.objective_markers[1] == 13 - taken
    assert not t.state.navy_battle


@pytest.mark.parametrize("card", ["F708", "F709"])
def test_F708_F709_court_enforcers_reprint_abducts_with_weapon_icons(card):
    """Court Enforcers (BC14's reprint): Abduct, a battle action, captures the Rival agents of
    a Court card holding fewer than the holder's Weapon icons (the card itself is one)."""
    t = et.empire_table()
    et.give(t, 1, card)
    target = next(c for c in t.state.court_row if c.startswith("CC"))
    et.put_agent(t, 0, target, 1)
    et.new_round(t, [["MOB3", "CON4"], ["AGG3", "CON5"], ["ADM4", "CON6"]], initiative=1)
    lead(t, 1, "AGG3")
    act(t, 1, "ability", card=card, index=0, params={"card": target})
    assert t.state.players[1].captives == [0] and t.state.court_agents[target][0] == 0
