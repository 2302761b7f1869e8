"""The Edicts on real Act I tables: their order, Guild Envoys Depart, Govern the Imperial
Reach (enforce or change), the Imperial Demand of each Policy and its Imperial Action,
with the rulebook's worked examples. Each test names the BR IDs it proves; a refused
choice raises a typed error and leaves the state byte-identical."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction, NotYourTurn
from plugins.arcs.state import Trophy
from plugins.blighted_reach import booklet, edicts
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.council import IN_SESSION
from plugins.blighted_reach.state import FREE, Pieces
from tests.blighted_reach.edict_tables import (
    BOX, CBOX, ESCALATION, PEACE, WAR, build_cities, captive, clear_row, give, set_policy, snapshot, sound,
    table, trophy_of_free_city, trophy_of_ship)


def refused(state, error, call, *args):
    before = snapshot(state)
    with pytest.raises(error):
        call(*args)
    assert snapshot(state) == before


def collect_all(state, choose):
    """Run the Demand as the flow would: each payer in order, the First Regent's choice
    `choose(payer, options)` (None: the single option), skipping payers with no options."""
    done = []
    for payer in edicts.demand_payers(CBOX, state):
        options = edicts.options_demand(BOX, CBOX, state, payer)
        if not options:
            continue
        choice = choose(payer, options) if len(options) > 1 else options[0]
        done.append(edicts.apply_demand(BOX, CBOX, state, state.first_regent, payer, choice))
        sound(state)
    return done


# -- order (BR-239, BR-240) -------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_game_starts_with_govern_and_envoys_only_with_two_BR_240(n):
    """BR-240: Govern the Imperial Reach (03) is in force from the start; Guild Envoys
    Depart (00) too, but only with 2 players."""
    state = table(n)
    steps = edicts.resolve_edicts(CBOX, state)
    top = edicts.current_policy(CBOX, state).id
    expected = ([("AID02", 0, edicts.ENVOYS_OP)] if n == 2 else []) + [(top, 3, edicts.GOVERN_OP)]
    assert [(s.card, s.number, s.do) for s in steps] == expected


def test_edicts_resolve_lowest_number_first_whatever_the_slot_BR_239():
    """BR-239: Guild Envoys Depart (00) resolves before Govern (03) even from a later slot;
    only a slot's top card is an Edict in force (the two Policies under the top wait)."""
    state = table(2)
    state.booklet = [state.booklet[1], state.booklet[0]]
    steps = edicts.resolve_edicts(CBOX, state)
    assert [(s.card, s.slot) for s in steps] == [("AID02", 1), (state.booklet[0][0], 0)]
    assert edicts.edict_number(CBOX, "AID02") == 0
    assert {edicts.edict_number(CBOX, c) for c in (PEACE, ESCALATION, WAR)} == {3}


def test_an_unnumbered_fate_edict_comes_after_the_numbered_ones():
    """The Fate Sets' Edicts carry no number in the data: they resolve last (a Reading)."""
    state = table(3)
    booklet.add_to_booklet(CBOX, state, "F703")  # Use Imperial Foundries
    booklet.add_to_booklet(CBOX, state, "F108")  # a Law: not an Edict
    steps = edicts.resolve_edicts(CBOX, state)
    assert [(s.card, s.number, s.do, s.handler) for s in steps][-1] == ("F703", None, "handler", "imperial_foundries")
    assert len(steps) == 2


# -- Guild Envoys Depart (BR-256, BR-257) -----------------------------------------------


def arrange_court(state, row, deck_top, deck_rest=True):
    """Lay out the Court (after the Council) and the deck's top from the cards the Court
    and its deck hold; the others stay in the deck below, or go to the discard pile."""
    pool = [c for c in state.court_row[1:] + state.court_deck if c not in row + deck_top]
    state.court_row = [IN_SESSION, *row]
    state.court_agents = {c: [0] * len(state.players) for c in state.court_row}
    state.court_deck = [*deck_top, *(pool if deck_rest else [])]
    if not deck_rest:
        state.court_discard += pool


def test_guild_envoys_bury_only_guild_cards_without_agents_BR_256_257():
    """BR-256/BR-257: every agent-free Guild card in the Court goes under the Court deck;
    an agented Guild card, the Vox cards, lore and the Council stay; the emptied places are
    refilled from the deck's top."""
    state = table(2, seed=3)
    lore = sorted(c for c in state.court_row + state.court_deck if c.startswith("L"))
    arrange_court(state, ["CC01", "CC11", "CC05", lore[0]], [lore[1], "CC02"])
    state.court_agents["CC05"] = [0, 1]
    state.players[1].agents -= 1
    sound(state)
    assert edicts.guild_envoys_depart(BOX, CBOX, state) == ["CC01"]
    assert state.court_row == [IN_SESSION, lore[1], "CC11", "CC05", lore[0]]
    assert state.court_deck[0] == "CC02" and state.court_deck[-1] == "CC01"
    assert state.court_agents[lore[1]] == [0, 0] and "CC01" not in state.court_agents
    sound(state)


def test_guild_envoys_with_a_short_deck_bring_buried_cards_back_BR_256():
    """BR-256: burying comes first, then the refill: with one card in the deck, the second
    buried Guild card comes straight back (a Reading)."""
    state = table(2, seed=5)
    arrange_court(state, ["CC01", "CC03", "CC12"], ["CC04"], deck_rest=False)
    sound(state)
    assert edicts.guild_envoys_depart(BOX, CBOX, state) == ["CC01", "CC03"]
    assert state.court_row == [IN_SESSION, "CC04", "CC01", "CC12"]
    assert state.court_deck == ["CC03"]
    sound(state)


def test_guild_envoys_is_skipped_beyond_two_players_BR_257():
    """BR-257: the card is only used with 2 players: in the booklet of a larger table it
    would not resolve."""
    state = table(3)
    state.booklet.insert(0, ["AID02"])
    assert [s.card for s in edicts.resolve_edicts(CBOX, state)] == [state.booklet[1][0]]


# -- enforce or change (BR-241..BR-243) -------------------------------------------------


def test_first_regent_enforces_or_changes_the_policy_BR_241_243():
    """BR-241: the First Regent's two choices; BR-243: changing puts another Policy on top
    (the other two keep their order) and nothing is collected or done this time."""
    state = table(3, first_regent=1)
    set_policy(state, PEACE)
    stack = list(state.booklet[edicts.govern_slot(CBOX, state)])
    options = edicts.options_govern(CBOX, state)
    assert options == [{"enforce": True}, {"change": stack[1]}, {"change": stack[2]}]
    give(state, 0, "relic")
    before = ([list(p.resources) for p in state.players], list(state.trust), [p.power for p in state.players])
    assert edicts.apply_govern(CBOX, state, 1, {"change": stack[2]}) == "change"
    assert state.booklet[edicts.govern_slot(CBOX, state)] == [stack[2], stack[0], stack[1]]
    assert edicts.current_policy(CBOX, state).id == stack[2]
    assert ([list(p.resources) for p in state.players], list(state.trust), [p.power for p in state.players]) == before
    sound(state)


def test_govern_refusals_change_nothing_BR_241():
    """BR-241: only the First Regent decides, and only among those choices."""
    state = table(3, first_regent=1)
    set_policy(state, WAR)
    refused(state, NotYourTurn, edicts.apply_govern, CBOX, state, 0, {"enforce": True})
    refused(state, IllegalAction, edicts.apply_govern, CBOX, state, 1, {"change": WAR})
    refused(state, BadParameter, edicts.apply_govern, CBOX, state, 1, {"enforce": True, "change": PEACE})
    assert edicts.apply_govern(CBOX, state, 1, {"enforce": True}) == "enforce"
    state.first_regent = -1
    assert edicts.options_govern(CBOX, state) == []
    refused(state, IllegalAction, edicts.apply_govern, CBOX, state, 1, {"enforce": True})


# -- the Imperial Demand (BR-244..BR-251, BR-116) ---------------------------------------


def test_lotus_collects_the_peace_demand_BR_251_244_247_249():
    """BR-251 (worked example): Peace; Lotus (First Regent, seat 0) takes a Relic from Mikah,
    a Psionic from Baz and, from Dane who has neither, an agent as a Favor; both resources
    go onto the First Regent tile; Lotus has neither, so adds none of their own.
    BR-244: Peace demands Relics or Psionics; BR-247: onto the tile, into the Trust;
    BR-249: the Favor."""
    state = table(4, seed=11, first_regent=0)
    lotus, mikah, baz, dane = 0, 1, 2, 3
    set_policy(state, PEACE)
    for seat in range(4):
        clear_row(state, seat)
    give(state, lotus, "material")
    give(state, mikah, "relic", "fuel")
    give(state, baz, "weapon", "psionic")
    give(state, dane, "material", "weapon")
    assert edicts.apply_govern(CBOX, state, lotus, {"enforce": True}) == "enforce"
    assert set(edicts.demand_payers(CBOX, state)) == {mikah, baz, dane, lotus}
    assert edicts.demand_payers(CBOX, state)[-1] == lotus
    assert edicts.options_demand(BOX, CBOX, state, mikah) == [{"slot": 0}]
    assert edicts.options_demand(BOX, CBOX, state, baz) == [{"slot": 1}]
    assert edicts.options_demand(BOX, CBOX, state, dane) == [{"favor": True}]
    assert edicts.options_demand(BOX, CBOX, state, lotus) == []
    agents = state.players[dane].agents
    collect_all(state, lambda payer, options: options[0])
    assert sorted(state.trust) == ["psionic", "relic"]
    assert state.players[mikah].resources[:2] == [None, "fuel"]
    assert state.players[baz].resources[:2] == ["weapon", None]
    assert state.favors[lotus] == [dane] and state.players[dane].agents == agents - 1
    assert state.players[lotus].resources[0] == "material"


def test_first_regent_must_add_one_of_their_own_BR_247():
    """BR-247: the First Regent also puts 1 demanded resource of their own into the Trust
    when they have one; the First Regent picks which (here a Weapon, under Escalation)."""
    state = table(3, first_regent=2)
    set_policy(state, ESCALATION)
    for seat in range(3):
        clear_row(state, seat)
    give(state, 2, "relic", "fuel", "weapon")
    assert edicts.options_demand(BOX, CBOX, state, 2) == [{"slot": 1}, {"slot": 2}]
    edicts.apply_demand(BOX, CBOX, state, 2, 2, {"slot": 2})
    assert state.trust == ["weapon"] and state.players[2].resources[:3] == ["relic", "fuel", None]
    sound(state)


def test_escalation_demands_material_fuel_or_weapon_BR_245():
    """BR-245: Escalation takes a Material, Fuel or Weapon (the First Regent chooses which)."""
    state = table(3, first_regent=0)
    set_policy(state, ESCALATION)
    clear_row(state, 1)
    give(state, 1, "relic", "fuel", "psionic")
    assert edicts.options_demand(BOX, CBOX, state, 1) == [{"slot": 1}]
    clear_row(state, 1)
    give(state, 1, "material", "weapon", "relic")
    assert edicts.options_demand(BOX, CBOX, state, 1) == [{"slot": 0}, {"slot": 1}]
    edicts.apply_demand(BOX, CBOX, state, 0, 1, {"slot": 1})
    assert state.trust == ["weapon"]
    sound(state)


def test_outlaws_never_pay_BR_116():
    """BR-116: an Outlaw owes nothing, however rich in demanded resources."""
    state = table(3, first_regent=0)
    set_policy(state, PEACE)
    clear_row(state, 2)
    give(state, 2, "relic", "psionic")
    state.titles[2] = "outlaw"
    assert 2 not in edicts.demand_payers(CBOX, state)
    assert edicts.options_demand(BOX, CBOX, state, 2) == []
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 2, {"slot": 0})


def test_war_takes_only_outlaw_free_or_other_non_imperial_pieces_BR_246_248():
    """BR-246: War takes a Trophy or Captive from each Rival Regent, never a Regent's or an
    Imperial piece; BR-248: it goes to the First Regent's own boxes, and the First Regent
    pays nothing themself."""
    state = table(4, seed=2, first_regent=0)
    set_policy(state, WAR)
    state.titles[3] = "outlaw"
    trophy_of_ship(state, 1, 2)    # a Regent's ship: no
    trophy_of_ship(state, 1, 3)    # an Outlaw's ship: yes
    trophy_of_free_city(state, 1)  # a Free city: yes
    captive(state, 1, 2)           # a Regent's agent: no
    captive(state, 1, 3)           # an Outlaw's agent: yes
    state.players[1].trophies.append(Trophy(owner=EMPIRE, kind="ship"))  # an Imperial ship: no
    turn_order = [(state.initiative + i) % 4 for i in range(4)]
    assert edicts.demand_payers(CBOX, state) == [s for s in turn_order if s in (1, 2)]
    assert edicts.options_demand(BOX, CBOX, state, 1) == [{"trophy": 1}, {"trophy": 2}, {"captive": 1}]
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"trophy": 0})
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"captive": 0})
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"trophy": 3})
    state.players[1].trophies.pop()  # (the Imperial Trophy only served the refusal)
    edicts.apply_demand(BOX, CBOX, state, 0, 1, {"captive": 1})
    assert state.players[0].captives == [3] and state.players[1].captives == [2]
    trophy = state.players[1].trophies[2]
    edicts.apply_demand(BOX, CBOX, state, 0, 1, {"trophy": 2})
    assert state.players[0].trophies == [trophy] and trophy == Trophy(owner=FREE, kind="city")
    sound(state)


def test_nothing_to_pay_and_no_agents_may_make_an_outlaw_BR_249_250():
    """BR-249: no demanded piece: 1 agent from the supply as a Favor (forced);
    BR-250: no agent either: the First Regent may make them an Outlaw, or not."""
    state = table(3, first_regent=0)
    set_policy(state, WAR)
    assert edicts.options_demand(BOX, CBOX, state, 1) == [{"favor": True}]
    edicts.apply_demand(BOX, CBOX, state, 0, 1, {"favor": True})
    assert state.favors[0] == [1]
    for _ in range(state.players[2].agents):
        captive(state, 1, 2)  # seat 2's agents all captured by seat 1, a Regent: War cannot take them
    assert edicts.options_demand(BOX, CBOX, state, 2) == [{"outlaw": True}, {"outlaw": False}]
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 2, {"favor": True})
    keep = snapshot(state)
    assert edicts.apply_demand(BOX, CBOX, state, 0, 2, {"outlaw": False}) == {"payer": 2, "outlaw": False}
    assert snapshot(state) == keep
    edicts.apply_demand(BOX, CBOX, state, 0, 2, {"outlaw": True})
    assert state.titles[2] == "outlaw"
    sound(state)


def test_demand_refusals_change_nothing_BR_244():
    """BR-244: only demanded pieces, only by the First Regent, only from a payer."""
    state = table(3, first_regent=0)
    set_policy(state, PEACE)
    clear_row(state, 1)
    give(state, 1, "fuel", "relic")
    refused(state, NotYourTurn, edicts.apply_demand, BOX, CBOX, state, 1, 1, {"slot": 1})
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"slot": 0})
    refused(state, IllegalAction, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"favor": True})
    refused(state, BadParameter, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"slot": 1, "favor": True})
    refused(state, BadParameter, edicts.apply_demand, BOX, CBOX, state, 0, 1, {"gift": 1})


# -- the Imperial Action (BR-252..BR-255) -----------------------------------------------


def test_celebrate_regency_pays_uncovered_city_bonus_BR_252_253():
    """BR-253 (worked example): the Regent with all 5 cities built gains 5 Power; Regents
    with 3 or fewer gain nothing. BR-252: with 4 built the uncovered slot's 2; an Outlaw
    is no Regent and gains nothing."""
    state = table(4, seed=4, first_regent=0)
    set_policy(state, PEACE)
    build_cities(state, 1, 5)
    build_cities(state, 2, 4)
    build_cities(state, 3, 5)
    state.titles[3] = "outlaw"
    build_cities(state, 0, 3)
    sound(state)
    assert edicts.options_imperial_action(BOX, CBOX, state) == [{}]
    result = edicts.apply_imperial_action(BOX, CBOX, state, 0, {})
    assert result == {"power": {0: 0, 1: 5, 2: 2}}
    assert [p.power for p in state.players] == [0, 5, 2, 0]


def test_requisition_ships_into_an_empire_system_BR_254():
    """BR-254: 2 fresh Imperial ships into one Empire-controlled system, the First Regent's
    choice; as many as the supply holds (G-3)."""
    state = table(3, first_regent=1)
    set_policy(state, ESCALATION)
    options = edicts.options_imperial_action(BOX, CBOX, state)
    assert options == [{"system": s} for s in sorted(state.imperial)]
    system = options[3]["system"]
    refused(state, IllegalAction, edicts.apply_imperial_action, BOX, CBOX, state, 1, {"system": "nowhere"})
    refused(state, NotYourTurn, edicts.apply_imperial_action, BOX, CBOX, state, 0, {"system": system})
    assert edicts.apply_imperial_action(BOX, CBOX, state, 1, {"system": system}) == {"placed": 2, "system": system}
    assert state.imperial[system] == Pieces(fresh=3) and state.imperial_supply == 15 - 8 - 2
    sound(state)
    state.imperial[system].fresh += state.imperial_supply - 1  # all but one ship on the map
    state.imperial_supply = 1
    assert edicts.apply_imperial_action(BOX, CBOX, state, 1, {"system": system})["placed"] == 1
    assert state.imperial_supply == 0 and edicts.options_imperial_action(BOX, CBOX, state) == [{}]
    sound(state)


def test_requisition_falls_back_to_a_loyal_starport_BR_254():
    """BR-254: with no Empire-controlled system (every Imperial ship damaged) the ships go
    to a system with one of the First Regent's Loyal starports."""
    state = table(3, first_regent=0)
    set_policy(state, ESCALATION)
    for system, pieces in state.imperial.items():
        state.imperial[system] = Pieces(damaged=pieces.total)
    ports = sorted(s for s, x in state.systems.items()
                   if any(b.owner == 0 and b.kind == "starport" for b in x.buildings))
    assert ports and edicts.options_imperial_action(BOX, CBOX, state) == [{"system": s} for s in ports]
    edicts.apply_imperial_action(BOX, CBOX, state, 0, {"system": ports[0]})
    assert state.imperial[ports[0]].fresh == 2
    sound(state)


def weapons_to_trust_and_parked(state, trust: int, parked_with: int, supply_left: int) -> None:
    """Empty every row, put `trust` Weapons in the Trust and park Weapons in one seat's row
    until `supply_left` remain in the supply."""
    for seat in range(len(state.players)):
        clear_row(state, seat)
    state.trust = ["weapon"] * trust
    state.supply["weapon"] -= trust
    give(state, parked_with, *["weapon"] * (state.supply["weapon"] - supply_left))
    assert state.supply["weapon"] == supply_left
    sound(state)


def test_distribute_arms_from_supply_then_trust_BR_255():
    """BR-255: a Weapon to each Regent (the First Regent too) from the supply, then from the
    Trust once the supply is empty; the Weapons wait for their owners to place them."""
    state = table(3, first_regent=0)
    set_policy(state, WAR)
    state.titles[2] = "outlaw"
    weapons_to_trust_and_parked(state, trust=1, parked_with=2, supply_left=1)
    assert edicts.options_imperial_action(BOX, CBOX, state) == [{}]
    result = edicts.apply_imperial_action(BOX, CBOX, state, 0, {})
    order = [s for s in ((state.initiative + i) % 3 for i in range(3)) if s in (0, 1)]
    assert result == {"weapons": {order[0]: "supply", order[1]: "trust"}}
    assert state.trust == [] and state.supply["weapon"] == 0
    assert sorted((p.seat, p.tokens) for p in state.placing) == [(0, ["weapon"]), (1, ["weapon"])]
    sound(state)


def test_short_of_weapons_the_first_regent_chooses_who_gets_them_BR_255():
    """BR-255 (sidebar): not enough Weapons for every Regent: the First Regent picks."""
    state = table(4, seed=8, first_regent=3)
    set_policy(state, WAR)
    build_cities(state, 0, 2)
    weapons_to_trust_and_parked(state, trust=1, parked_with=0, supply_left=0)
    options = edicts.options_imperial_action(BOX, CBOX, state)
    assert sorted(o["regents"][0] for o in options) == [0, 1, 2, 3] and all(len(o["regents"]) == 1 for o in options)
    refused(state, IllegalAction, edicts.apply_imperial_action, BOX, CBOX, state, 3, {})
    refused(state, IllegalAction, edicts.apply_imperial_action, BOX, CBOX, state, 3, {"regents": [1, 2]})
    refused(state, BadParameter, edicts.apply_imperial_action, BOX, CBOX, state, 3, {"regents": "1"})
    assert edicts.apply_imperial_action(BOX, CBOX, state, 3, {"regents": [2]}) == {"weapons": {2: "trust"}}
    assert state.trust == [] and [(p.seat, p.tokens) for p in state.placing] == [(2, ["weapon"])]
    sound(state)


# -- whole Policies as printed (BR-242, BR-258, BR-259) ---------------------------------


@pytest.mark.parametrize("policy", [PEACE, ESCALATION, WAR])
def test_an_enforced_policy_s_action_cannot_be_declined_BR_242(policy):
    """BR-242: after the Demand the Imperial Action is taken: every option does it (or does
    the most possible), none declines it, and an answer that would skip it is refused."""
    state = table(3, first_regent=0)
    set_policy(state, policy)
    build_cities(state, 1, 4)  # so that Peace's celebration pays someone
    assert edicts.apply_govern(CBOX, state, 0, {"enforce": True}) == "enforce"
    options = edicts.options_imperial_action(BOX, CBOX, state)
    assert options and all(set(o) <= {"system", "regents"} for o in options)
    refused(state, BadParameter, edicts.apply_imperial_action, BOX, CBOX, state, 0, {"skip": True})
    before = (state.imperial_supply, [p.power for p in state.players], len(state.placing))
    edicts.apply_imperial_action(BOX, CBOX, state, 0, options[0])
    assert (state.imperial_supply, [p.power for p in state.players], len(state.placing)) != before
    sound(state)


def test_a_policy_of_peace_enforced_end_to_end_BR_258():
    """BR-258: Peace collects a Relic or Psionic from each Regent, the First Regent included
    (a Favor from a Rival with none), then every Regent gains its bonus city Power."""
    state = table(3, seed=6, first_regent=0)
    set_policy(state, PEACE)
    for seat in range(3):
        clear_row(state, seat)
    give(state, 0, "psionic")
    give(state, 1, "relic")
    build_cities(state, 1, 5)
    assert edicts.apply_govern(CBOX, state, 0, {"enforce": True}) == "enforce"
    collect_all(state, lambda payer, options: options[0])
    assert sorted(state.trust) == ["psionic", "relic"] and state.favors[0] == [2]
    edicts.apply_imperial_action(BOX, CBOX, state, 0, {})
    assert [p.power for p in state.players] == [0, 5, 0]
    sound(state)


def test_a_policy_of_war_enforced_end_to_end_BR_259():
    """BR-259: War takes from each Rival Regent (not the First Regent) an eligible Trophy or
    Captive (else a Favor), then every Regent gets a Weapon."""
    state = table(3, seed=9, first_regent=1)
    set_policy(state, WAR)
    state.titles[2] = "outlaw"
    trophy_of_ship(state, 0, 2)
    for seat in range(3):
        clear_row(state, seat)
    assert edicts.demand_payers(CBOX, state) == [0]
    assert edicts.apply_govern(CBOX, state, 1, {"enforce": True}) == "enforce"
    collect_all(state, lambda payer, options: options[0])
    assert state.players[1].trophies == [Trophy(owner=2, kind="ship")] and state.players[0].trophies == []
    assert state.trust == []
    result = edicts.apply_imperial_action(BOX, CBOX, state, 1, {})
    assert sorted(result["weapons"]) == [0, 1]
    sound(state)


# -- the rules booklet (BR-112, BR-113) -------------------------------------------------


def test_booklet_sides_and_announcement_BR_112_113():
    """BR-112: Edicts on one side, Laws and Summit cards on the other; BR-113: adding a card
    yields its public announcement."""
    state = table(2)
    news = booklet.add_to_booklet(CBOX, state, "F319")  # Monopoly Consent, a Summit card
    assert news == {"type": "booklet_added", "card": "F319", "side": "laws", "slot": 2}
    booklet.add_to_booklet(CBOX, state, "F108")  # Imperial Protectors, a Law
    booklet.add_to_booklet(CBOX, state, "F318")  # Gain Monopolies, an Edict
    sides = booklet.booklet_sides(CBOX, state)
    assert [s[0] for s in sides["edicts"]] == ["AID02", state.booklet[1][0], "F318"]
    assert sides["laws"] == [["F319"], ["F108"]]
    refused(state, IllegalAction, booklet.add_to_booklet, CBOX, state, "F318")
    refused(state, IllegalAction, booklet.add_to_booklet, CBOX, state, "CC01")
    sound(state)
