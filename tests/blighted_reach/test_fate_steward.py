"""The Steward's Fate Set (F101-F126) through the engine: each test names the card it
proves and the BR checklist IDs where the checklist has them. A refused choice raises a
typed error and changes nothing."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, IllegalAction
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.state import Ships, Trophy
from plugins.blighted_reach import empire, event_flow
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.empire_fate_tables import act, lead, put_agent
from tests.blighted_reach.flow_helpers import options, ready, restart_round

STEWARD, ADMIRAL = "FATE01", "FATE07"


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def steward_table(players: int = 3, seed: int = 1):
    """Act I's first round, the Steward at seat 0 and the Admiral at seat 1."""
    return ready(players, seed, wanted={0: STEWARD, 1: ADMIRAL})


def prompt_of(t, kind):
    return next(p for p in t.state.prompts if p.kind == kind)


def sound(t):
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


# -- F101 Steward Act I Setup (BR-020) ---------------------------------------------------


def test_F101_setup_gains_imperial_authority_and_dealmakers_and_the_first_regent_BR_020():
    """BR-020: the Steward's Act I setup gives Imperial Authority, Dealmakers and the First
    Regent tile."""
    t = steward_table()
    s = t.state
    assert s.players[0].lore == ["F102"] and s.players[0].guild == ["F103"]
    assert s.first_regent == 0  # the Steward's tile, though the Admiral is in play (F701)
    assert s.titles[0] == "regent"


# -- F102 Imperial Authority (BR-021) -------------------------------------------------------


def _rival_city_in_empire_system(t, imperial: bool = True):
    """Seat 0 (the Steward) rules 2.2 by ships, where seat 1 has a city and (`imperial`) the
    Empire a fresh ship: a Rival Regent's city in an Empire-controlled system."""
    s = t.state
    s.systems["2.1"].ships[0] = Ships()
    s.systems["2.2"].ships[0] = Ships(fresh=4)
    s.players[0].ships -= 1
    assert s.imperial["2.2"] == Pieces(fresh=1) and s.systems["2.2"].buildings[0].owner == 1
    if not imperial:
        s.imperial.pop("2.2")
        s.imperial_supply += 1
    restart_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["AGG4", "CON6"]], initiative=0)
    lead(t, 0, "ADM3")


def test_F102_taxing_an_empire_controlled_rival_city_takes_no_captive_BR_021():
    """BR-021: a Rival's city in an Empire-controlled system taxed like a Loyal one: no Captive."""
    t = steward_table()
    _rival_city_in_empire_system(t)
    agents = t.state.players[1].agents
    events = act(t, 0, "tax", system="2.2", building=0)
    taxed = next(e for e in events if e.type == "taxed")
    assert taxed.data["captive"] is None
    assert t.state.players[0].captives == [] and t.state.players[1].agents == agents
    sound(t)


def test_F102_outside_the_empire_a_rival_city_still_gives_a_captive():
    """Control of 2.2 by ships alone (no Imperial ship there): the base tax, a Captive."""
    t = steward_table()
    _rival_city_in_empire_system(t, imperial=False)
    events = act(t, 0, "tax", system="2.2", building=0)
    assert next(e for e in events if e.type == "taxed").data["captive"] == 1
    assert t.state.players[0].captives == [1]


def test_F102_is_buried_when_its_holder_becomes_an_outlaw_BR_021_BR_228():
    """BR-021, BR-228: leaving the Empire (as a Summit's Leave the Empire does) buries
    Imperial Authority at the end of the step: the bottom of the Court deck."""
    t = steward_table()
    restart_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["AGG4", "CON6"]], initiative=0)
    empire.become_outlaw(t.state, 0)
    events = t.act(0, Action("lead", {"card": "ADM3"}))
    assert "F102" not in t.state.players[0].lore and t.state.court_deck[-1] == "F102"
    assert any(e.type == "card_buried" and e.data == {"seat": 0, "card": "F102", "why": "outlaw"} for e in events)
    assert t.state.players[0].guild == ["F103"]  # Dealmakers stays: it has no such rule
    sound(t)


# -- F103 Dealmakers: Bargain (BR-022) ------------------------------------------------------


def _bargain_table():
    t = steward_table()
    s = t.state
    restart_round(t, [["AGG3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]], initiative=0)
    assert {"CC05", "CC08"} <= set(s.court_row)  # two Guild cards of the seed's Court
    put_agent(t, 0, "CC05", 1)
    put_agent(t, 1, "CC05", 2)
    put_agent(t, 2, "CC05", 1)
    put_agent(t, 0, "CC14", 1)
    lead(t, 0, "AGG3")
    return t


def bargain(t, card, rival):
    return act(t, 0, "ability", card="F103", index=0, params={"card": card, "rival": rival})


def test_F103_bargain_rival_secures_without_captives_then_the_steward_influences_and_secures_BR_022():
    """BR-022: the Rival secures the card, the agents it would capture going home; the Steward
    influences once per agent the Rival had there, then secures once."""
    t = _bargain_table()
    agents, pips = [p.agents for p in t.state.players], t.state.turn.pips
    choice = {"card": "CC05", "rival": 1}
    assert any(a.params.get("act") == "ability" and a.params.get("params") == choice for a in options(t, 0))
    assert not any(a.params.get("act") == "ability" and a.params.get("params", {}).get("rival") == 2
                   for a in options(t, 0))  # seat 2 could not secure anything
    events = bargain(t, "CC05", 1)
    s = t.state
    assert "CC05" in s.players[1].guild and s.players[1].captives == []
    assert [p.agents for p in s.players] == [agents[0] + 1, agents[1] + 2, agents[2] + 1]
    assert any(e.type == "bargain" for e in events)
    assert s.court_row[s.court_row.index("CC08") - 1] not in ("CC05", "")  # CC05's place refilled
    # two influences owed (seat 1 had two agents there), then one secure
    for _ in range(2):
        prompt = prompt_of(t, "bargain_influence")
        assert prompt.seat == 0
        t.act(0, Action("bargain_influence", {"card": "CC08"}))
    s = t.state
    assert s.court_agents["CC08"][0] == 2
    prompt = prompt_of(t, "bargain_secure")
    assert [o.params["card"] for o in prompt.options] == ["CC14", "CC08"]
    t.act(0, Action("bargain_secure", {"card": "CC08"}))
    s = t.state
    assert "CC08" in s.players[0].guild
    assert s.turn is not None and s.turn.seat == 0 and s.turn.pips == pips - 1  # the Bargain cost a secure pip
    sound(t)


def test_F103_bargain_refuses_a_rival_who_could_not_secure_and_changes_nothing_BR_022():
    """BR-022: only a Court card some Rival could secure, with that Rival."""
    t = _bargain_table()
    before = snapshot(t)
    with pytest.raises(IllegalAction):
        bargain(t, "CC05", 2)   # seat 2 has 1 agent there against seat 1's 2
    with pytest.raises(ActionRejected):
        bargain(t, "CC08", 1)   # nobody's agent is on CC08
    with pytest.raises(ActionRejected):
        bargain(t, "CC05", 0)   # not a Rival
    assert snapshot(t) == before


def test_F103_influences_are_only_court_cards_and_a_wrong_answer_changes_nothing():
    t = _bargain_table()
    bargain(t, "CC05", 1)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("bargain_influence", {"card": "CC99"}))
    with pytest.raises(ActionRejected):
        t.act(1, Action("bargain_influence", {"card": "CC08"}))  # not the Steward
    assert snapshot(t) == before


def test_F103_with_no_agent_to_influence_and_no_card_to_secure_both_lapse():
    """A Steward whose agents are all Captives of a Rival: the influence owed and the
    secure have nothing to be made with; the Rival's secure still happens."""
    t = steward_table()
    restart_round(t, [["AGG3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]], initiative=0)
    put_agent(t, 1, "CC05", 1)
    put_agent(t, 2, "CC08", 1)
    lead(t, 0, "AGG3")
    s = t.state
    s.players[2].captives += [0] * s.players[0].agents  # none left to influence with
    s.players[0].agents = 0
    events = bargain(t, "CC05", 1)
    assert any(e.type == "bargain_influence_lapsed" for e in events)
    assert any(e.type == "bargain_secure_lapsed" for e in events)
    assert "CC05" in t.state.players[1].guild


# -- Act II cards (put where the Act would have them) -------------------------------------
from tests.blighted_reach import empire_fate_tables as et  # noqa: E402


def _outlaw_city_taxed(t, outlaw: int = 2):
    """Seat 2 (an Outlaw) has a city at 5.2 and a token of its type; the Steward rules 5.2
    by ships and leads Administration."""
    s = t.state
    empire.become_outlaw(s, outlaw)
    s.systems["5.3"].ships[0] = Ships(fresh=2)
    s.systems["5.2"].ships[0] = Ships(fresh=4)
    kind = box_for(s).systems["5.2"].type
    slot = s.players[outlaw].resources.index(None)
    s.players[outlaw].resources[slot] = kind
    s.supply[kind] -= 1
    et.new_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["AGG4", "CON6"]])
    lead(t, 0, "ADM3")
    return kind


def test_F106_tax_collectors_take_the_outlaws_token_instead_of_the_supplys():
    t = et.empire_table()
    et.give(t, 0, "F106")
    kind = _outlaw_city_taxed(t)
    supply, theirs, mine = (t.state.supply[kind], t.state.players[2].resources.count(kind),
                            t.state.players[0].resources.count(kind))
    act(t, 0, "tax", system="5.2", building=0)
    et.place_tokens(t)
    prompt = et.prompt_of(t, "tax_collectors")
    assert prompt is not None and prompt.seat == 0
    t.act(0, Action("tax_collectors", {"from_board": True}))
    s = t.state
    assert s.players[2].resources.count(kind) == theirs - 1 and s.supply[kind] == supply  # theirs, not the supply's
    assert s.players[0].resources.count(kind) == mine + 1
    et.sound(t)


def test_F106_declining_takes_from_the_supply_and_a_regents_city_is_never_offered():
    t = et.empire_table()
    et.give(t, 0, "F106")
    kind = _outlaw_city_taxed(t)
    supply = t.state.supply[kind]
    act(t, 0, "tax", system="5.2", building=0)
    et.place_tokens(t)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("tax_collectors", {"from_board": "yes"}))
    assert snapshot(t) == before
    t.act(0, Action("tax_collectors", {"from_board": False}))
    assert kind in t.state.players[2].resources and t.state.supply[kind] == supply - 1
    u = et.empire_table()
    et.give(u, 0, "F106")
    u.state.titles[2] = "regent"
    from plugins.blighted_reach import fate_steward

    assert fate_steward.tax_collector_choice(u.state, 0, "5.2", 0, kind) is None  # a Regent's city


def test_F106_is_buried_when_its_holder_is_an_outlaw():
    t = et.empire_table()
    et.give(t, 0, "F106")
    empire.become_outlaw(t.state, 0)
    events = et.resolve_edicts(t)
    assert "F106" not in t.state.players[0].guild and "F106" in t.state.court_deck
    assert any(e.type == "card_buried" and e.data["card"] == "F106" for e in events)


def test_F105_council_intrigue_secured_flips_the_council_and_moves_the_securers_agents_on():
    """Council Intrigue (a reprint of CC12) secured: the Council In Session again, the
    Steward's two agents from it placed on other Court cards, the card buried."""
    t = et.empire_table()
    s = t.state
    council_at = s.court_row.index("AID01A")
    s.court_row[council_at] = "AID01B"
    s.court_agents["AID01B"] = s.court_agents.pop("AID01A")
    s.council = "AID01B"
    et.to_court(t, "F105")
    et.put_agent(t, 0, "F105", 2)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F105")
    s = t.state
    assert s.council == "AID01A" and "AID01A" in s.court_row
    prompt = et.prompt_of(t, "arcs.use_ability")
    assert prompt is not None and prompt.seat == 0
    target = next(c for c in s.court_row if c.startswith("CC"))
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # three agents: only two were there
        t.act(0, Action("use_ability", {"card": "F105", "index": 4, "params": {"cards": [target] * 3}}))
    assert snapshot(t) == before
    agents = s.players[0].agents
    t.act(0, Action("use_ability", {"card": "F105", "index": 4, "params": {"cards": [target, "AID01A"]}}))
    s = t.state
    assert s.court_agents[target][0] == 1 and s.court_agents["AID01A"][0] == 1 and s.players[0].agents == agents - 2
    assert s.court_deck[-1] == "F105"  # buried
    et.sound(t)


def test_F105_council_intrigue_crisis_flips_the_council_and_sends_its_agents_there():
    t = et.empire_table()
    s = t.state
    et.to_court(t, "F105")
    et.put_agent(t, 1, "F105", 2)
    events = et.resolve_crises(t, number=5, symbol="hex")
    s = t.state
    assert s.court_agents["AID01A"][1] == 2 and "F105" not in s.court_row and s.court_deck[-1] == "F105"
    assert any(e.type == "agents_to_council" for e in events)


def test_F107_hunter_squads_reroll_assault_dice_against_an_outlaw():
    t = et.empire_table()
    et.give(t, 0, "F107")
    s = t.state
    empire.become_outlaw(s, 2)
    s.systems["5.3"].ships[0] = Ships(fresh=2)
    s.systems["5.2"].ships[0] = Ships(fresh=4)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "battle", system="5.2", defender=2, assault=3)
    prompt = et.prompt_of(t, "arcs.use_ability")
    assert prompt is not None and prompt.args["when"] == "battle_roll"
    legal = [a for a in options(t, 0) if a.params.get("card") == "F107"]
    assert legal and all(len(a.params["params"]["dice"]) <= 1 for a in legal)  # one Weapon icon: the card
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # more dice than Weapon icons
        t.act(0, Action("use_ability", {"card": "F107", "index": 0, "params": {"dice": [0, 1]}}))
    assert snapshot(t) == before
    events = t.act(0, legal[0])
    assert any(e.type == "roll" and e.data.get("why") == "F107" for e in events)


def test_F107_hunter_squads_offer_nothing_against_a_regent():
    t = et.empire_table()
    et.give(t, 0, "F107")
    s = t.state
    s.imperial.pop("5.2")
    s.imperial_supply += 1  # no Truce Law to stop the attack on a Regent
    s.systems["5.3"].ships[0] = Ships(fresh=2)
    s.systems["5.2"].ships[0] = Ships(fresh=4)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "battle", system="5.2", defender=2, assault=3)
    assert not any(a.params.get("card") == "F107" for p in t.state.prompts for a in options(t, p.seat))


def test_F108_imperial_protectors_stop_blight_crises_in_empire_systems():
    t = et.empire_table()
    s = t.state
    s.booklet.append(["F108"])
    s.blight["5.1"] = Pieces(fresh=1)
    s.blight_supply -= 1
    ships = s.systems["5.1"].ships_of(1)
    events = et.resolve_crises(t, number=1, symbol="hex")
    crisis_systems = [e.data.get("system") for e in events if e.type == "resolved"]
    assert "5.1" not in crisis_systems and "1.1" in crisis_systems
    assert t.state.systems["5.1"].ships_of(1) == ships and t.state.imperial["5.1"] == Pieces(fresh=1)


def test_F109_empire_falls_on_an_arrow_makes_every_regent_an_outlaw_and_hits_the_imperial_ships():
    t = et.empire_table()
    s = t.state
    et.to_court(t, "F109")
    fresh = {x: p.fresh for x, p in s.imperial.items()}
    events = et.resolve_crises(t, number=1, symbol="arrow")
    s = t.state
    assert s.titles == ["outlaw", "outlaw", "outlaw"] and s.first_regent == -1
    assert all(s.imperial[x] == Pieces(damaged=n) for x, n in fresh.items())
    assert "F109" in s.court_discard and "F109" not in s.court_row
    assert "F102" in s.court_deck and "F702" in s.court_deck  # the Outlaws' Empire cards buried
    assert any(e.type == "empire_falls" for e in events)
    et.sound(t)


def test_F109_empire_falls_without_an_arrow_does_nothing():
    t = et.empire_table()
    et.to_court(t, "F109")
    et.resolve_crises(t, number=1, symbol="moon")
    assert t.state.titles == ["regent"] * 3 and "F109" in t.state.court_row


def test_F109_empire_falls_secured_lets_the_securer_place_its_agents_elsewhere():
    t = et.empire_table()
    et.to_court(t, "F109")
    et.put_agent(t, 0, "F109", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F109")
    target = next(c for c in t.state.court_row if c.startswith("CC"))
    t.act(0, Action("use_ability", {"card": "F109", "index": 1, "params": {"cards": [target]}}))
    s = t.state
    assert s.court_agents[target][0] == 1 and s.court_deck[-1] == "F109" and s.titles[0] == "regent"


@pytest.mark.parametrize("card", ["F110", "F111", "F120", "F121"])
def test_F110_lesser_regent_is_discarded_in_the_prelude_to_declare_any_ambition(card):
    """Lesser Regent and its reprints (F111, F120, F121)."""
    t = et.empire_table()
    et.give(t, 0, card)
    et.new_round(t, [["CON4", "AGG3"], ["MOB3", "CON5"], ["ADM4", "CON6"]])
    lead(t, 0, "CON4")
    before = snapshot(t)
    with pytest.raises(ActionRejected):  # the card declares: no discard for nothing
        act(t, 0, "ability", card=card, index=0, params={})
    assert snapshot(t) == before
    assert not any(a.params.get("card") == card and not a.params.get("params") for a in options(t, 0))
    events = act(t, 0, "ability", card=card, index=0, params={"ambition": "tyrant"})
    s = t.state
    assert s.ambition_boxes["tyrant"] and s.ambition_declared == "tyrant"
    assert card in s.court_discard and card not in s.players[0].guild
    assert any(e.type == "ambition_declared" for e in events)


def _quorum_table():
    """Imperial Quorum in the booklet; the Admiral alone has a starport, the Steward the
    most cities (the Founder's 6.1 city back on its board)."""
    t = et.empire_table()
    s = t.state
    s.booklet.append(["F113"])
    et.starport_for(t, 1, "5.1")
    here = s.systems["6.1"]
    here.buildings = [b for b in here.buildings if b.owner != 2]
    board = s.players[2].cities_on_board
    board[board.index(False)] = True
    return t


def test_F113_imperial_quorum_replaces_govern_with_three_regents_parts():
    t = _quorum_table()
    s = t.state
    from plugins.blighted_reach import edicts
    from plugins.blighted_reach.content import default_box

    edicts.change_policy(default_box(), s, "AID05")
    assert edicts.current_policy(default_box(), s).name == "escalation"
    events = et.run_then_round(t, event_flow.edicts_begin)
    assert et.prompt_of(t, "govern") is None  # Govern itself is skipped
    while (p := et.prompt_of(t, "collect_demand")) is not None:  # the First Regent collects
        assert p.seat == 0
        events += t.act(0, p.options[0])
        et.place_tokens(t)
    prompt = et.prompt_of(t, "quorum_imperial_action")
    assert prompt.seat == 1  # the most starports
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, prompt.options[1])  # not the Steward's to take
    assert snapshot(t) == before
    supply = t.state.imperial_supply
    take = next(o for o in prompt.options if o.params.get("take") and o.params.get("system") == "5.1")
    events += t.act(1, take)
    assert t.state.imperial_supply < supply and t.state.imperial["5.1"].fresh > 1
    prompt = et.prompt_of(t, "quorum_policy")
    assert prompt.seat == 0  # the most cities
    events += t.act(0, Action("quorum_policy", {"change": "AID03"}))
    assert edicts.current_policy(default_box(), t.state).name == "war"
    et.sound(t)


def test_F113_imperial_quorum_skips_a_part_on_a_tie():
    t = et.empire_table()
    t.state.booklet.append(["F113"])
    events = et.run_then_round(t, event_flow.edicts_begin)
    while (p := et.prompt_of(t, "collect_demand")) is not None:
        events += t.act(p.seat, p.options[0])
        et.place_tokens(t)
    skipped = [e.data["part"] for e in events if e.type == "quorum_skipped"]
    assert skipped == ["imperial_action", "policy"]  # nobody has a starport; three have 2 cities each


# -- F104 Steward Act I Resolution (BR-331, BR-332), F112 / F114 --------------------------


def test_F104_completed_objective_adds_the_act_two_cards_and_scraps_the_others_BR_331():
    """BR-331: completed: 05-07 to the Court deck, 08 to the booklet (announced), 09-11 scrapped."""
    t = et.empire_table()
    deck = list(t.state.court_deck)
    events = et.resolve_fates(t, [0, 0, 0])
    s = t.state
    assert {"F105", "F106", "F107"} <= set(s.court_deck) and set(deck) <= set(s.court_deck)
    assert ["F108"] in s.booklet and {"F109", "F110", "F111"} <= set(s.scrapped)
    assert any(e.type == "booklet_added" and e.data["cards"] == ["F108"] for e in events)  # explained to all
    et.sound(t)


def test_F104_failed_objective_sends_dealmakers_and_the_other_cards_to_the_court_deck_BR_332():
    """BR-332: failed: 05-08 scrapped; 09-11 and Dealmakers to the Court deck."""
    t = et.empire_table()
    power = t.state.players[0].power
    et.resolve_fates(t, [5, 0, 0])
    s = t.state
    assert {"F105", "F106", "F107", "F108"} <= set(s.scrapped)
    assert {"F109", "F110", "F111", "F103"} <= set(s.court_deck) and "F103" not in s.players[0].guild
    assert s.players[0].power == power - 5
    et.sound(t)


def test_F112_act_two_setup_adds_imperial_quorum_and_F114_resolution_sides():
    """The Act II cards' data: Setup adds Imperial Quorum to the booklet; the Resolution's
    sides move the Act III cards."""
    from plugins.blighted_reach import fate_steps
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import ctx as plain_ctx

    t = et.empire_table()
    s = t.state
    cbox = default_box()
    fate_steps.run_side(plain_ctx(s), cbox, 0, STEWARD, "F112", "setup")
    assert ["F113"] in s.booklet
    fate_steps.run_side(plain_ctx(s), cbox, 0, STEWARD, "F114", "success")
    assert {"F115", "F116", "F117"} <= set(s.court_deck) and {"F118", "F119", "F120", "F121"} <= set(s.scrapped)
    u = et.empire_table()
    fate_steps.run_side(plain_ctx(u.state), cbox, 0, STEWARD, "F114", "failure")
    assert {"F115", "F116", "F117"} <= set(u.state.scrapped)
    assert {"F118", "F119", "F120", "F121"} <= set(u.state.court_deck)


# -- Act III cards ----------------------------------------------------------------------------


def test_F122_act_three_setup_sponsor_authority_stack_and_the_first_regents_pick():
    t = et.empire_table()
    events = et.run_side(t, 0, "F122")
    s = t.state
    assert ["F123"] in s.booklet and s.sponsored == "tile"
    assert not any(c in ("AID03", "AID04", "AID05") for slot in s.booklet for c in slot)
    assert {"AID03", "AID04", "AID05"} <= set(s.scrapped)
    assert sorted(next(slot for slot in s.booklet if "F124" in slot)) == ["F124", "F125", "F126"]
    prompt = et.prompt_of(t, "authority_policy")
    assert prompt.seat == 0  # the First Regent
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("authority_policy", {"card": "F123"}))
    assert snapshot(t) == before
    t.act(0, Action("authority_policy", {"card": "F126"}))
    assert next(slot for slot in t.state.booklet if "F124" in slot)[0] == "F126"
    assert any(e.type == "booklet_added" and e.data["cards"] == ["F123"] for e in events)
    et.sound(t)


def _edicts(t) -> list:
    """The Edicts; Imperial Sponsor (no edict number in the data: it resolves first of the
    unnumbered, being first in the booklet) answered: the token on the first box offered."""
    events = et.run_then_round(t, event_flow.edicts_begin)
    if (p := et.prompt_of(t, "imperial_foundry")) is not None:  # Use Imperial Foundries: declined
        events += t.act(p.seat, Action("imperial_foundry", {**p.options[0].params, "replace": ""}))
    if (p := et.prompt_of(t, "sponsor_ambition")) is not None:
        events += t.act(p.seat, p.options[0])
    if (p := et.prompt_of(t, "sponsor_trust")) is not None:
        events += t.act(p.seat, Action("sponsor_trust", {"slot": -1}))
    return events


def _enforce(t) -> list:
    events = _edicts(t)
    prompt = et.prompt_of(t, "govern_authority")
    assert prompt is not None and prompt.seat == t.state.first_regent
    return events + t.act(prompt.seat, Action("govern_authority", {"enforce": True}))


def test_F125_escalation_demands_from_outlaws_the_empire_holds_a_city_of_and_places_four_ships():
    t = et.empire_table()
    et.act_three_booklet(t, top="F125")
    s = t.state
    empire.become_outlaw(s, 2)   # the Founder's 5.2 and 6.1 cities stand in Empire systems
    for seat in (1, 2):
        row = s.players[seat].resources
        row[row.index(None)] = "fuel"
        s.supply["fuel"] -= 1
    from plugins.blighted_reach import fate_steward

    assert fate_steward.authority_payers(s) == [1, 2, 0]
    _enforce(t)
    for payer in (1, 2):
        prompt = et.prompt_of(t, "authority_demand")
        assert prompt.seat == 0 and prompt.args["payer"] == payer
        choice = next(o for o in prompt.options if "slot" in o.params)
        t.act(0, choice)
    prompt = et.prompt_of(t, "authority_demand")
    if prompt is not None:  # the First Regent's own resource, if it has one demanded
        t.act(0, prompt.options[0])
    assert len(t.state.trust) >= 2  # a demanded token from each (the Regent's, the Outlaw's)
    prompt = et.prompt_of(t, "authority_action")
    supply = t.state.imperial_supply
    t.act(0, next(o for o in prompt.options if o.params.get("system") == "5.1"))
    assert t.state.imperial["5.1"].fresh == 5 and t.state.imperial_supply == supply - 4
    et.sound(t)


def test_F124_war_takes_an_outlaws_trophy_and_arms_every_regent_with_a_weapon_and_another_resource():
    t = et.empire_table()
    et.act_three_booklet(t, top="F124")
    s = t.state
    empire.become_outlaw(s, 2)
    s.players[2].trophies.append(Trophy(owner=1, kind="agent"))  # a Regent's piece: spared
    s.players[1].agents -= 1
    s.players[1].captives.append(2)                              # an Outlaw's agent: taken
    s.players[2].agents -= 1
    events = _enforce(t)  # one way to pay each: taken at once
    collected = {e.data["payer"]: e.data for e in events if e.type == "demand_collected"}
    assert collected[1]["captive"] == 2            # the Outlaw's agent, not...
    assert collected[2].get("favor") is True       # ...the Regent's piece: nothing else, a Favor
    assert t.state.players[0].captives == [2] and t.state.favors[0] == [2]
    prompt = et.prompt_of(t, "authority_action")
    weapons, relics = (sum(p.resources.count("weapon") for p in t.state.players),
                       sum(p.resources.count("relic") for p in t.state.players))
    t.act(0, Action("authority_action", {"take": True, "resource": "relic"}))
    et.place_tokens(t)
    s = t.state
    assert sum(p.resources.count("weapon") for p in s.players) >= weapons + 1
    assert sum(p.resources.count("relic") for p in s.players) >= relics + 1
    et.sound(t)


def test_F126_peace_gives_each_regent_twice_its_city_bonus():
    t = et.empire_table()
    et.act_three_booklet(t, top="F126")
    s = t.state
    for seat in range(3):  # nobody has a demanded resource: Favors
        s.players[seat].resources = [r if r not in ("relic", "psionic") else None for r in s.players[seat].resources]
    s.supply["relic"] = s.supply.get("relic", 0)
    from plugins.blighted_reach import edicts

    bonus = [edicts.celebration_power(box_for(s), s, seat) for seat in range(3)]
    power = [p.power for p in s.players]
    _enforce(t)
    while (p := et.prompt_of(t, "authority_demand")) is not None:
        t.act(0, p.options[0])
    s = t.state
    assert [p.power for p in s.players] == [power[i] + 2 * bonus[i] for i in range(3)]


def test_F124_F126_the_first_regent_may_change_the_policy_instead():
    t = et.empire_table()
    et.act_three_booklet(t, top="F124")
    _edicts(t)
    t.act(0, Action("govern_authority", {"change": "F125"}))
    from plugins.blighted_reach import fate_steward

    assert fate_steward.authority_policy(t.state) == "escalation" and et.prompt_of(t, "authority_demand") is None


def test_F113_imperial_quorum_over_govern_with_authority():
    t = _quorum_table()
    et.act_three_booklet(t, top="F126")
    events = _edicts(t)
    assert et.prompt_of(t, "govern_authority") is None  # the stack itself is skipped
    while (p := et.prompt_of(t, "authority_demand")) is not None:
        events += t.act(0, p.options[0])
    prompt = et.prompt_of(t, "authority_action")
    assert prompt.seat == 1 and {"take": False} in [o.params for o in prompt.options]
    t.act(1, Action("authority_action", {"take": False}))
    prompt = et.prompt_of(t, "quorum_policy")
    assert prompt.seat == 0
    t.act(0, Action("quorum_policy", {"change": "F124"}))
    from plugins.blighted_reach import fate_steward

    assert fate_steward.authority_policy(t.state) == "war"


def test_F123_imperial_sponsor_places_the_token_and_a_declarer_claims_it():
    t = et.empire_table()
    et.act_three_booklet(t, top="F126")
    s = t.state
    s.trust = ["fuel"]
    s.supply["fuel"] -= 1
    s.booklet = [slot for slot in s.booklet if "F124" not in slot and "F703" not in slot]  # the Sponsor's alone
    et.run_then_round(t, event_flow.edicts_begin)
    prompt = et.prompt_of(t, "sponsor_ambition")
    assert prompt.seat == 0 and {o.params["ambition"] for o in prompt.options} == set(box_for(s).board.ambitions)
    t.act(0, Action("sponsor_ambition", {"ambition": "tycoon"}))
    prompt = et.prompt_of(t, "sponsor_trust")
    t.act(0, Action("sponsor_trust", {"slot": -1}))
    assert t.state.sponsored == "tycoon"
    empire.become_outlaw(t.state, 1)
    et.new_round(t, [["MOB3", "CON4"], ["ADM2", "CON5"], ["ADM4", "CON6"]], initiative=1)
    power = t.state.players[1].power
    t.act(1, Action("lead", {"card": "ADM2"}))
    t.act(1, Action("declare", {"ambition": "tycoon"}))
    s = t.state
    assert s.sponsored == "tile" and s.titles[1] == "regent" and s.players[1].power > power
    et.place_tokens(t)  # the Trust's one type taken at once: its Fuel
    assert t.state.trust == [] and "fuel" in t.state.players[1].resources
    et.sound(t)


def test_F115_navy_reprisal_crisis_hits_outlaw_ships_beside_imperial_ships():
    t = et.empire_table()
    et.to_court(t, "F115")
    empire.become_outlaw(t.state, 2)
    events = et.resolve_crises(t, number=1, symbol="hex")
    s = t.state
    assert s.systems["5.2"].ships_of(2) == Ships(fresh=2, damaged=1)  # one Imperial ship, one hit
    assert s.systems["5.1"].ships_of(1) == Ships(fresh=3)            # a Regent's ships: untouched
    assert s.court_deck[-1] == "F115" and any(e.type == "navy_reprisal" for e in events)


def test_F115_navy_reprisal_secured_hits_the_imperial_ships_of_a_cluster():
    t = et.empire_table()
    et.to_court(t, "F115")
    et.put_agent(t, 0, "F115", 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card="F115")
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F115", "index": 2, "params": {"cluster": 6, "what": "all"}}))
    assert snapshot(t) == before
    t.act(0, Action("use_ability", {"card": "F115", "index": 2, "params": {"cluster": 6, "what": "hit_imperial"}}))
    s = t.state
    assert all(s.imperial[x] == Pieces(damaged=1) for x in s.imperial if x.startswith("6"))
    assert s.court_deck[-1] == "F115"


def test_F116_council_insiders_after_securing_a_guild_card_flip_or_influence_the_council():
    t = et.empire_table()
    et.give(t, 0, "F116")
    guild = next(c for c in t.state.court_row if c.startswith("CC") and box_for(t.state).court[c].kind == "guild")
    et.put_agent(t, 0, guild, 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    agents = t.state.players[0].agents
    act(t, 0, "secure", card=guild)
    prompt = et.prompt_of(t, "arcs.use_ability")
    assert prompt is not None and prompt.args["when"] == "secure_guild"
    legal = [a.params for a in options(t, 0) if a.params.get("card") == "F116"]
    assert {"card": "F116", "index": 0, "params": {"do": "influence"}} in legal
    t.act(0, Action("use_ability", {"card": "F116", "index": 0, "params": {"do": "influence"}}))
    assert t.state.court_agents["AID01A"][0] == 1 and t.state.players[0].agents == agents  # 1 home, 1 out


def test_F117_galactic_bards_reprint_declares_on_a_surpass():
    """A reprint of Galactic Bards (BC25): Surpassing, before any action, declare the played
    card's ambition (no zero marker)."""
    t = et.empire_table()
    et.give(t, 0, "F117")
    et.new_round(t, [["MOB5", "CON4"], ["CON5", "AGG3"], ["MOB3", "CON6"]], initiative=2)
    lead(t, 2, "MOB3")
    act(t, 2, "done")
    t.act(0, Action("play", {"card": "MOB5", "kind": "surpass"}))
    legal = [a.params for a in options(t, 0) if a.params.get("card") == "F117"]
    assert legal, "the Bards are offered on the Surpass"
    t.act(0, Action("use_ability", legal[0]))
    s = t.state
    ambition = legal[0]["params"]["ambition"]
    assert s.ambition_boxes[ambition] and s.ambition_declared == ambition and not s.declared


# -- bot games --------------------------------------------------------------------------------

MINE = tuple(f"F1{i:02d}" for i in range(1, 27)) + tuple(f"F7{i:02d}" for i in range(1, 22))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_with_the_steward_and_the_admiral_finish_act_one(players):
    """Random bots play Act I with the Steward and the Admiral at the table (the invariants
    checked after every action): it ends after its third chapter with no rule of theirs
    missing. The table runs on into the Intermission; a later seat's Fate whose Resolution
    is not written yet may stop it there, after Act I."""
    from core.errors import EngineError
    from tests.blighted_reach.flow_helpers import play_out

    for seed in (1, 2, 3):
        t = et.empire_table(players, seed)
        try:
            play_out(t, seed)
        except EngineError as exc:
            assert not any(card in str(exc) for card in MINE), exc
            assert t.state.chapter == 3 and not t.state.intermission_done, exc  # stopped at the Intermission
            continue
        assert t.state.finished and t.state.result["act"] == 1 and t.state.chapter == 3


def test_act_three_choices_refuse_bad_answers_and_change_nothing():
    """Imperial Sponsor's box, Govern with Authority's choice and Demand, Council Insiders'
    choice: a wrong answer or seat is refused, the table unchanged."""
    t = et.empire_table()
    et.act_three_booklet(t, top="F125")
    et.run_then_round(t, event_flow.edicts_begin)
    if (p := et.prompt_of(t, "imperial_foundry")) is not None:
        t.act(p.seat, Action("imperial_foundry", {**p.options[0].params, "replace": ""}))
    before = snapshot(t)
    for seat, action in [(0, Action("sponsor_ambition", {"ambition": "glory"})),
                         (1, Action("sponsor_ambition", {"ambition": "tycoon"})),
                         (0, Action("govern_authority", {"enforce": True}))]:  # not yet: the Sponsor first
        with pytest.raises(ActionRejected):
            t.act(seat, action)
        assert snapshot(t) == before
    t.act(0, Action("sponsor_ambition", {"ambition": "tycoon"}))
    if et.prompt_of(t, "sponsor_trust") is not None:
        before = snapshot(t)
        with pytest.raises(ActionRejected):
            t.act(0, Action("sponsor_trust", {"slot": 9}))
        assert snapshot(t) == before
        t.act(0, Action("sponsor_trust", {"slot": -1}))
    before = snapshot(t)
    for seat, action in [(1, Action("govern_authority", {"enforce": True})),
                         (0, Action("govern_authority", {"change": "F125"})),  # already on top
                         (0, Action("govern_authority", {"change": "AID03"}))]:
        with pytest.raises(ActionRejected):
            t.act(seat, action)
        assert snapshot(t) == before
    t.act(0, Action("govern_authority", {"enforce": True}))
    if (p := et.prompt_of(t, "authority_demand")) is not None:
        before = snapshot(t)
        with pytest.raises(ActionRejected):
            t.act(0, Action("authority_demand", {"slot": 99}))
        with pytest.raises(ActionRejected):
            t.act(1, p.options[0])  # the First Regent (seat 0) collects, nobody else
        assert snapshot(t) == before


def test_F116_council_insiders_refuse_a_flip_while_in_session():
    t = et.empire_table()
    et.give(t, 0, "F116")
    guild = next(c for c in t.state.court_row if c.startswith("CC") and box_for(t.state).court[c].kind == "guild")
    et.put_agent(t, 0, guild, 1)
    et.new_round(t)
    lead(t, 0, "AGG3")
    act(t, 0, "secure", card=guild)
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F116", "index": 0, "params": {"do": "flip"}}))
    with pytest.raises(ActionRejected):
        t.act(0, Action("use_ability", {"card": "F116", "index": 0, "params": {"do": "influence", "x": 1}}))
    assert snapshot(t) == before


def test_F101_objective_advances_by_the_power_won_as_first_regent():
    """Consolidate Your Imperial Power: each ambition won as First Regent advances the
    Steward's marker by the Power it gains from it, city bonus included (the card's own
    example: 5 + 5 advance 10)."""
    from plugins.blighted_reach import objectives
    from plugins.blighted_reach.content import default_box

    t = et.empire_table()
    s = t.state
    box, cbox = box_for(s), default_box()
    s.objective_markers = [20, 13, 16]
    s.ambition_boxes["warlord"].append(s.markers_available.pop(0))
    s.players[0].trophies.append(Trophy(owner=1, kind="agent"))
    s.players[1].agents -= 1
    score = objectives.chapter_score(box, cbox, s)
    gained = score.gains["warlord"][0]
    assert score.winners == {"warlord": 0} and gained > 0
    moved = objectives.advance_for_ambitions(box, cbox, s, score)
    assert moved == {0: gained} and s.objective_markers[0] == 20 - gained
    u = et.empire_table()  # not the First Regent: no advance
    u.state.first_regent = 1
    u.state.objective_markers = [20, 13, 16]
    u.state.ambition_boxes["warlord"].append(u.state.markers_available.pop(0))
    u.state.players[0].trophies.append(Trophy(owner=1, kind="agent"))
    u.state.players[1].agents -= 1
    assert objectives.advance_for_ambitions(box, cbox, u.state, objectives.chapter_score(box, cbox, u.state)) == {}


# -- the Empire's laws on the table's flow (the Empire's hooks) -------------------------------


def test_F102_taxes_an_empire_city_without_loyal_pieces_or_truce_and_takes_no_captive_BR_021():
    """BR-021: Imperial Authority ignores the Presence Law (no Loyal piece needed in the Empire's
    system) and the Truce Law (a Rival Regent's city where Imperial ships are): the
    Admiral's city at 5.1 is taxed like a Loyal one, no Captive. The Founder, a Regent
    without it, may not."""
    t = et.empire_table()
    s = t.state
    assert not s.systems["5.1"].ships_of(0).total and s.imperial["5.1"].fresh
    assert s.systems["5.1"].buildings[0].owner == 1
    et.new_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]])
    lead(t, 0, "ADM3")
    agents = t.state.players[1].agents
    events = act(t, 0, "tax", system="5.1", building=0)
    taxed = next(e for e in events if e.type == "taxed")
    assert taxed.data["captive"] is None and t.state.players[1].agents == agents
    et.sound(t)
    u = et.empire_table()
    et.new_round(u, [["CON4", "AGG3"], ["MOB3", "CON5"], ["ADM4", "CON6"]], initiative=2)
    lead(u, 2, "ADM4")
    before = snapshot(u)
    with pytest.raises(ActionRejected):
        act(u, 2, "tax", system="5.1", building=0)
    assert snapshot(u) == before


def test_F102_buried_an_outlaw_steward_no_longer_taxes_empire_cities():
    t = et.empire_table()
    empire.become_outlaw(t.state, 0)
    et.new_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]])
    lead(t, 0, "ADM3")
    assert "F102" not in t.state.players[0].lore
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        act(t, 0, "tax", system="5.1", building=0)
    assert snapshot(t) == before
