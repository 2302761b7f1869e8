"""The 25 base Guild cards (BC01-BC25) played through `abilities.use` on a set-up table:
each effect, and each illegal choice refused with a typed error and nothing changed."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, IllegalAction
from plugins.arcs.abilities import held, modifiers
from plugins.arcs.court_ops import (
    can_spend_as, extra_battle_dice, places_zero_marker, prelude_action_allowed, settle_unions, weapon_icons,
)
from plugins.arcs.outrage import provoke_outrage, steal_guild_card
from plugins.arcs.scoring import ambition_count
from plugins.arcs.state import Ships
from tests.arcs.court_helpers import BOX, ability, env_for, events, give, grant, home, refused, sound, table, use

LOYAL = {"BC01": "material", "BC07": "fuel", "BC15": "weapon", "BC19": "psionic", "BC21": "relic"}


@pytest.mark.parametrize("card", sorted(LOYAL))
def test_loyal_cards_spend_any_as_ignore_outrage_and_stay_ARCS_313(card):
    """ARCS-313 (BC01 Loyal Engineers, BC07 Loyal Pilots, BC15 Loyal Marines, BC19 Loyal
    Empaths, BC21 Loyal Keepers): any token spends as X, X's Prelude action ignores Outrage in
    X, and the card stays on Provoke Outrage (ARCS-192) while another Guild card of that suit
    goes (ARCS-191); ARCS-217 without the card. Standing rules cannot be 'used'."""
    state = table()
    kind = LOYAL[card]
    grant(state, 0, card)
    other = next(c for c in sorted(BOX.court) if BOX.court[c].suit == kind and c not in LOYAL)
    grant(state, 0, other)
    others = [r for r in BOX.board.resources if r != kind]
    assert can_spend_as(state, BOX, 0, others[0], kind) and not can_spend_as(state, BOX, 1, others[0], kind)
    assert not can_spend_as(state, BOX, 0, kind, others[0])
    assert [u.card for u in modifiers(state, BOX, 0, "spend_any_as")] == [card]
    provoke_outrage(BOX, state, 0, kind)
    provoke_outrage(BOX, state, 1, kind)
    assert card in state.players[0].guild and other not in state.players[0].guild and other in state.court_discard
    assert prelude_action_allowed(state, BOX, 0, kind) and not prelude_action_allowed(state, BOX, 1, kind)
    assert not prelude_action_allowed(state, BOX, 0, others[0]) or others[0] not in state.players[0].outrage
    env = env_for(state)
    refused(env, ability(0, card, "spend_any_as"), {}, IllegalAction)
    refused(env, ability(0, card, "keep_card"), {}, IllegalAction)
    sound(state)


@pytest.mark.parametrize("card,kind", [("BC02", "material"), ("BC09", "fuel")])
def test_interests_gain_and_fill_slots_stealing_the_shortfall_BC02_BC09(card, kind):
    """BC02 Mining Interest / BC09 Shipping Interest: the new action (a Build) gains 1; the
    Prelude discard gains until the open slots are full, stealing what the supply lacks from
    the Rivals the holder names (ARCS-118: the card goes to the Court discard; ARCS-207)."""
    state = table()
    grant(state, 0, card)
    env = env_for(state)
    new_action = ability(0, card, "gain")
    assert new_action.ability.when == "new_action" and new_action.ability.action == "build"
    assert state.players[0].resources[2] is None
    use(env, new_action, {})
    assert state.players[0].resources[2] == kind
    give(state, 0, 2, None)
    give(state, 0, 1, None)  # two empty open slots
    give(state, 1, 0, kind)
    give(state, 2, 0, kind)
    state.supply[kind], spare = 0, state.supply[kind]  # the supply runs dry
    fill = ability(0, card, "gain_to_fill_slots")
    refused(env, fill, {"steal_from": [1]}, BadParameter)          # one token short is covered too
    refused(env, fill, {"steal_from": [1, 1]}, IllegalAction)      # seat 1 has only one
    refused(env, fill, {"steal_from": [0, 1]}, BadParameter)       # not a Rival
    refused(env, fill, {"steal": [1, 2]}, BadParameter)            # unknown field
    use(env, fill, {"steal_from": [2, 1]})
    assert state.players[0].resources[1:3] == [kind, kind] and state.players[1].resources[0] is None
    assert card not in state.players[0].guild and state.court_discard[-1] == card
    state.supply[kind] += spare
    sound(state)


def test_interest_fills_from_supply_first_BC02():
    """BC02 Mining Interest: with Material in the supply, the empty slots fill from it."""
    state = table()
    grant(state, 0, "BC02")
    give(state, 0, 0, None)
    env = env_for(state)
    use(env, ability(0, "BC02", "gain_to_fill_slots"), {})
    assert state.players[0].resources[:3].count("material") >= 2 and None not in state.players[0].resources[:3]
    sound(state)


@pytest.mark.parametrize("card,kind", [("BC03", "material"), ("BC06", "fuel")])
def test_cartels_hold_the_supply_steal_and_make_rivals_discard_ARCS_315(card, kind):
    """ARCS-315 (BC03 Material Cartel, BC06 Fuel Cartel): the supply on the card counts for the
    holder's Tycoon (ARCS-218); the Prelude discard steals 1 from a Rival; after scoring every
    Rival discards all of that type (whether or not Tycoon was scored, card FAQ)."""
    state = table()
    grant(state, 0, card)
    give(state, 0, 0, None)
    give(state, 0, 1, None)
    assert ambition_count(BOX, state, state.players[0], "tycoon") == state.supply[kind] + 1  # + the card's suit
    give(state, 1, 0, kind)
    give(state, 1, 2, kind)
    give(state, 2, 0, kind)
    env = env_for(state)
    after = ability(0, card, "rivals_discard_all")
    assert after.ability.when == "after_scoring" and held(state, BOX, 0, "after_scoring") == [after]
    use(env, after, {})
    assert kind not in state.players[1].resources and kind not in state.players[2].resources
    give(state, 1, 0, kind)
    steal = ability(0, card, "steal")
    refused(env, steal, {"rival": 2}, IllegalAction)   # seat 2 holds none now
    refused(env, steal, {"rival": 0}, BadParameter)    # yourself
    refused(env, steal, {}, BadParameter)              # no Rival named
    use(env, steal, {"rival": 1})
    assert state.players[0].resources[0] == kind and state.players[1].resources[0] is None
    assert card in state.court_discard
    sound(state)


@pytest.mark.parametrize("card,suit", [("BC04", "administration"), ("BC05", "construction"),
                                       ("BC10", "mobilization"), ("BC11", "aggression")])
def test_unions_attach_to_a_face_up_card_and_bring_it_home_ARCS_314(card, suit):
    """ARCS-314 (BC04 Admin, BC05 Construction, BC10 Spacing, BC11 Arms Union): in the Prelude the
    Union goes beside a face-up played card of its suit; at round end the holder takes that
    card into hand and the Union is discarded."""
    state = table()
    grant(state, 0, card)
    mine = next(c for c in BOX.actions.cards if c.suit == suit and c.id in state.hands[1])
    wrong = next(c for c in BOX.actions.cards if c.suit != suit and c.id in state.hands[1])
    state.hands[1].remove(mine.id)
    state.hands[1].remove(wrong.id)
    played = [mine.id, wrong.id]
    env = env_for(state, face_up=played)
    u = ability(0, card, "attach_union")
    refused(env, u, {"card": wrong.id}, IllegalAction)
    refused(env, u, {"card": "nope"}, IllegalAction)
    refused(env, u, {"card": 3}, BadParameter)
    use(env, u, {"card": mine.id})
    assert card not in state.players[0].guild and state.unions[0].action_card == mine.id
    sound(state, played)
    # Once attached it is out of the play area: a raid can no longer take it (card FAQ).
    with pytest.raises(BadParameter):
        steal_guild_card(BOX, state, 1, 0, card, keys=5)
    state.action_discard[:0] = played  # the round's cards are discarded...
    assert settle_unions(state) == [mine.id]  # ...but the Union's card goes to its holder
    assert mine.id in state.hands[0] and mine.id not in state.action_discard
    assert state.court_discard[-1] == card and state.unions == []
    sound(state)


def test_gatekeepers_extra_dice_in_gates_and_a_ship_in_every_gate_BC08():
    """BC08 Gatekeepers: 2 more dice battling in a gate, none on a planet; the Prelude discard
    places 1 ship in each in-play gate (ARCS-037), the named ones when ships run short (ARCS-276)."""
    state = table()
    grant(state, 0, "BC08")
    assert extra_battle_dice(state, BOX, 0, "2G") == 2 and extra_battle_dice(state, BOX, 0, "2.1") == 0
    assert extra_battle_dice(state, BOX, 1, "2G") == 0
    gates = sorted(s for s in state.systems if s.endswith("G"))
    assert gates == ["2G", "3G", "5G", "6G"]  # clusters 1 and 4 are out of play
    env = env_for(state)
    u = ability(0, "BC08", "place_ships")
    before = {g: state.systems[g].ships[0].fresh for g in gates}
    spare = state.players[0].ships
    state.players[0].ships = 2
    refused(env, u, {}, BadParameter)
    refused(env, u, {"systems": ["2G", "1G"]}, BadParameter)
    state.players[0].ships = spare
    refused(env, u, {"system": "2G"}, BadParameter)
    use(env, u, {})
    assert all(state.systems[g].ships[0].fresh == before[g] + 1 for g in gates)
    assert "BC08" in state.court_discard
    sound(state)


@pytest.mark.parametrize("card", ["BC12", "BC13", "BC14", "BC15"])
def test_three_ships_into_a_controlled_system_BC12_to_BC15(card):
    """BC12 Prison Wardens, BC13 Skirmishers, BC14 Court Enforcers, BC15 Loyal Marines: the
    Prelude discard adds 3 ships to one system the holder controls (ARCS-130)."""
    state = table()
    grant(state, 0, card)
    env = env_for(state)
    u = ability(0, card, "place_ships")
    a = home(state, 0).a
    rival_home = home(state, 1).a
    refused(env, u, {"system": rival_home}, IllegalAction)
    refused(env, u, {"system": "1.1"}, BadParameter)  # out of play
    fresh = state.systems[a].ships[0].fresh
    use(env, u, {"system": a})
    assert state.systems[a].ships[0].fresh == fresh + 3 and card in state.court_discard
    sound(state)


def test_prison_wardens_pressgang_and_execute_BC12():
    """BC12 Prison Wardens: Pressgang (a Build) sends captives home for one chosen resource each;
    Execute (an Influence) turns captives into Trophies (ARCS-228, ARCS-310)."""
    state = table()
    grant(state, 0, "BC12")
    for owner in (1, 1, 2):
        state.players[owner].agents -= 1
        state.players[0].captives.append(owner)
    give(state, 0, 0, None)
    env = env_for(state)
    press = ability(0, "BC12", "return_captives_for_resources")
    refused(env, press, {"captives": [2, 2], "resources": ["fuel", "fuel"]}, IllegalAction)
    refused(env, press, {"captives": [1], "resources": ["fuel", "relic"]}, BadParameter)
    refused(env, press, {"captives": [1], "resources": ["gold"]}, BadParameter)
    refused(env, press, {"captives": [], "resources": []}, BadParameter)
    agents = state.players[1].agents
    use(env, press, {"captives": [1], "resources": ["psionic"]})
    assert state.players[0].captives == [1, 2] and state.players[1].agents == agents + 1
    assert "psionic" in state.players[0].resources
    execute = ability(0, "BC12", "captives_to_trophies")
    refused(env, execute, {"captives": [1, 1]}, IllegalAction)
    tyrant, warlord = (ambition_count(BOX, state, state.players[0], a) for a in ("tyrant", "warlord"))
    use(env, execute, {"captives": [2]})
    assert state.players[0].captives == [1] and [t.owner for t in state.players[0].trophies] == [2]
    assert ambition_count(BOX, state, state.players[0], "tyrant") == tyrant - 1
    assert ambition_count(BOX, state, state.players[0], "warlord") == warlord + 1
    sound(state)


def test_skirmishers_reroll_skirmish_dice_up_to_weapon_icons_BC13():
    """BC13 Skirmishers: after the holder's roll, reroll skirmish dice, at most one per Weapon
    icon (tokens and Weapon-suit cards), once per roll; the reroll is a public chance event."""
    state = table()
    grant(state, 0, "BC13")
    give(state, 0, 0, "weapon")
    assert weapon_icons(BOX, state, 0) == 2
    roll = [("skirmish", 5), ("skirmish", 4), ("skirmish", 3), ("assault", 5)]
    env = env_for(state, roll=list(roll))
    u = ability(0, "BC13", "reroll")
    assert held(state, BOX, 0, "battle_roll") == [u]
    refused(env, u, {"dice": [0, 1, 2]}, IllegalAction)  # 3 dice, 2 icons
    refused(env, u, {"dice": [3]}, BadParameter)          # an assault die
    refused(env, u, {"dice": [0, 0]}, BadParameter)
    use(env, u, {"dice": [0, 2]})
    assert env.moment.roll[1] == roll[1] and env.moment.roll[3] == roll[3]
    assert [d["die"] for d in events(env, "roll")[0].data["dice"]] == ["skirmish", "skirmish"]
    refused(env, u, {"dice": [1]}, IllegalAction)  # once per roll
    sound(state)


def test_court_enforcers_abduct_from_a_thin_card_BC14():
    """BC14 Court Enforcers, Abduct (a Battle): capture every Rival agent on a Court card that
    holds fewer Rival agents than the holder's Weapon icons."""
    state = table()
    grant(state, 0, "BC14")
    thin, thick = state.court_row[0], state.court_row[1]
    for card, owner, n in ((thin, 1, 1), (thick, 1, 1), (thick, 2, 1), (thin, 0, 1)):
        state.court_agents[card][owner] += n
        state.players[owner].agents -= n
    give(state, 0, 0, "weapon")
    give(state, 0, 1, None)
    env = env_for(state)
    u = ability(0, "BC14", "abduct")
    assert weapon_icons(BOX, state, 0) == 2  # the Weapon token and the card's own Weapon suit
    refused(env, u, {"card": thick}, IllegalAction)  # 2 Rival agents, not fewer than 2
    refused(env, u, {"card": "BC99"}, BadParameter)
    use(env, u, {"card": thin})
    assert state.court_agents[thin] == [1, 0, 0] and state.players[0].captives == [1]
    sound(state)


def test_lattice_spies_seize_before_anything_else_BC16():
    """BC16 Lattice Spies: discard to seize the initiative, before any other action; the holder
    cannot seize, nor anyone after a seize this round (ARCS-102, ARCS-103)."""
    state = table()
    holder = state.initiative
    other = (holder + 1) % 3
    grant(state, other, "BC16")
    grant(state, holder, "BC13")
    u = ability(other, "BC16", "seize_initiative")
    refused(env_for(state, acted=True), u, {}, IllegalAction)
    state.seized = True
    refused(env_for(state), u, {}, IllegalAction)
    state.seized = False
    env = env_for(state)
    refused(env, u, {"now": True}, BadParameter)
    use(env, u, {})
    assert state.initiative == other and state.seized and "BC16" in state.court_discard
    assert events(env, "initiative_seized")
    sound(state)


def test_lattice_spies_not_for_the_initiative_holder_ARCS_102():
    """ARCS-102 through BC16 Lattice Spies: the initiative holder cannot seize."""
    state = table()
    grant(state, state.initiative, "BC16")
    refused(env_for(state), ability(state.initiative, "BC16", "seize_initiative"), {}, IllegalAction)


def test_farseers_swap_after_a_private_look_and_redraw_from_the_bottom_BC17():
    """BC17 Farseers: on declaring, the Rival's hand is shown to the holder alone, then one card
    may be swapped (the event hides the cards from everyone else, ARCS-281); the Prelude discard
    trades hand cards for as many from the discard's bottom, the Farseers counted (card FAQ)."""
    from plugins.arcs.court_ops import show_hand
    state = table()
    grant(state, 0, "BC17")
    env = env_for(state)
    show_hand(env, 0, 1)
    shown = events(env, "hand_shown")[0]
    assert shown.to == [0] and shown.data["cards"] == state.hands[1] and "cards" not in shown.public
    swap = ability(0, "BC17", "inspect_and_swap")
    assert swap.ability.when == "declare"
    give_card, take_card = state.hands[0][0], state.hands[1][0]
    refused(env, swap, {"rival": 1, "give": give_card}, BadParameter)
    refused(env, swap, {"rival": 1, "give": take_card, "take": give_card}, BadParameter)
    refused(env, swap, {"rival": 0}, BadParameter)
    from plugins.arcs.abilities import candidates
    assert candidates(env, swap) == [{"rival": 1}, {"rival": 2}]  # never the Rival's cards
    use(env, swap, {"rival": 1, "give": give_card, "take": take_card})
    assert take_card in state.hands[0] and give_card in state.hands[1]
    assert events(env, "hands_swapped")[0].to == [0, 1]
    redraw = ability(0, "BC17", "redraw_from_discard_bottom")
    away = state.hands[0][:2]
    pile = away + state.action_discard  # the discarded cards go on top; drawing takes the bottom
    refused(env, redraw, {"cards": [state.hands[1][0]]}, BadParameter)
    use(env, redraw, {"cards": away})
    assert sorted(pile[-3:]) == sorted(state.hands[0][-3:]) and len(state.hands[0]) == 7
    assert state.action_discard == pile[:-3] and "BC17" in state.court_discard
    drawn = events(env, "cards_redrawn")[0]
    assert drawn.to == [0] and drawn.public == {"seat": 0, "discarded": 2, "drawn": 3}
    sound(state)


def test_secret_order_spares_the_zero_marker_for_keeper_and_empath_BC18():
    """BC18 Secret Order: declaring Keeper or Empath puts no zero marker (as declaring does otherwise)."""
    state = table()
    grant(state, 0, "BC18")
    assert not places_zero_marker(state, BOX, 0, "keeper") and not places_zero_marker(state, BOX, 0, "empath")
    assert places_zero_marker(state, BOX, 0, "tycoon") and places_zero_marker(state, BOX, 1, "keeper")
    refused(env_for(state), ability(0, "BC18", "no_zero_marker"), {}, IllegalAction)


def test_silver_tongues_steal_a_guild_card_or_a_resource_BC20():
    """BC20 Silver-Tongues: discard to steal one Guild card or one resource from a Rival (ARCS-305)."""
    state = table()
    grant(state, 0, "BC20")
    grant(state, 1, "BC23")
    env = env_for(state)
    u = ability(0, "BC20", "steal_guild_or_resource")
    refused(env, u, {"rival": 1, "card": "BC23", "slot": 0}, BadParameter)
    refused(env, u, {"rival": 1}, BadParameter)
    refused(env, u, {"rival": 1, "card": "BC05"}, BadParameter)
    refused(env, u, {"rival": 1, "slot": 4}, BadParameter)
    use(env, u, {"rival": 1, "card": "BC23"})
    assert "BC23" in state.players[0].guild and "BC20" in state.court_discard
    sound(state)


def test_silver_tongues_takes_a_resource_BC20():
    """BC20 Silver-Tongues: a stolen resource goes into the thief's empty slot (ARCS-202)."""
    state = table()
    grant(state, 0, "BC20")
    taken = state.players[2].resources[1]
    use(env_for(state), ability(0, "BC20", "steal_guild_or_resource"), {"rival": 2, "slot": 1})
    assert state.players[2].resources[1] is None and state.players[0].resources[2] == taken
    sound(state)


def test_sworn_guardians_stop_steals_but_can_be_stolen_and_buried_BC22():
    """BC22 Sworn Guardians: Rivals cannot steal the holder's resources or other Guild cards;
    the Guardians themselves may be stolen, and are then buried under the Court deck (ARCS-286)."""
    state = table()
    grant(state, 1, "BC22")
    grant(state, 1, "BC24")
    grant(state, 0, "BC20")
    env = env_for(state)
    u = ability(0, "BC20", "steal_guild_or_resource")
    refused(env, u, {"rival": 1, "slot": 0}, IllegalAction)
    refused(env, u, {"rival": 1, "card": "BC24"}, IllegalAction)
    use(env, u, {"rival": 1, "card": "BC22"})
    assert state.court_deck[-1] == "BC22" and "BC22" not in state.players[0].guild
    assert events(env, "guild_stolen")[0].data["buried"] is True
    sound(state)


def test_elder_broker_trade_and_three_resources_BC23():
    """BC23 Elder Broker: Trade (a Tax) at a Rival city the holder controls swaps a token of the
    city's type for one of a type that Rival lacks (not a steal: Sworn Guardians do not stop it);
    the Prelude discard gains Material, Fuel and Weapon."""
    state = table()
    grant(state, 0, "BC23")
    grant(state, 1, "BC22")
    city = home(state, 1).a
    kind = BOX.systems[city].type
    state.systems[city].ships[0] = Ships(fresh=5)
    state.players[0].ships -= 5
    give(state, 1, 0, kind)
    give(state, 1, 1, None)
    give(state, 0, 0, "relic" if kind != "relic" else "fuel")
    give(state, 0, 1, kind)
    env = env_for(state)
    u = ability(0, "BC23", "trade")
    refused(env, u, {"system": city, "building": 0, "give": 1}, IllegalAction)  # they already have that type
    refused(env, u, {"system": city, "building": 0, "give": 2}, BadParameter)   # empty slot
    refused(env, u, {"system": home(state, 0).a, "building": 0, "give": 0}, IllegalAction)  # own city
    gave = state.players[0].resources[0]
    use(env, u, {"system": city, "building": 0, "give": 0})
    assert state.players[0].resources[0] == kind and state.players[1].resources[0] == gave
    give(state, 0, 0, None)
    give(state, 0, 1, None)
    use(env, ability(0, "BC23", "gain_each"), {})
    assert sorted(r for r in state.players[0].resources if r) == ["fuel", "material", "weapon"]
    assert "BC23" in state.court_discard
    sound(state)


def test_relic_fence_converts_once_per_turn_BC24():
    """BC24 Relic Fence: in the Prelude, once per turn, discard a token and gain a Relic."""
    state = table()
    grant(state, 0, "BC24")
    env = env_for(state)
    u = ability(0, "BC24", "convert")
    refused(env, u, {"slot": 2}, BadParameter)
    give(state, 0, 0, "fuel")
    give(state, 0, 1, "fuel")
    use(env, u, {"slot": 1})
    assert state.players[0].resources[:3] == ["fuel", "relic", None]
    refused(env, u, {"slot": 1}, IllegalAction)
    assert "BC24" in state.players[0].guild  # kept: a Prelude ability, not a discard
    sound(state)


def test_galactic_bards_declare_the_played_ambition_BC25():
    """BC25 Galactic Bards: on a Surpass or Pivot, before any action and if nobody declared this
    round, declare the played card's ambition with no zero marker; it takes the highest Available
    marker (ARCS-242)."""
    state = table()
    grant(state, 0, "BC25")
    two = next(c.id for c in BOX.actions.cards if c.number == 2)  # a 2 shows Tycoon
    u = ability(0, "BC25", "declare_played")
    refused(env_for(state, play="copy", played=two), u, {}, IllegalAction)
    refused(env_for(state, play="pivot", played=two, declared="keeper"), u, {}, IllegalAction)
    refused(env_for(state, play="pivot", played=two, acted=True), u, {}, IllegalAction)
    env = env_for(state, play="pivot", played=two)
    refused(env, u, {"ambition": "warlord"}, BadParameter)
    use(env, u, {})
    assert [m.id for m in state.ambition_boxes["tycoon"]] == [BOX.board.ambition_markers[0].id]
    assert env.moment.declared == "tycoon" and env.moment.zero_marker is False
    assert len(state.markers_available) == 2
    sound(state)


def test_guild_card_not_held_is_refused():
    """A seat cannot use a Guild card it does not hold."""
    state = table()
    grant(state, 1, "BC24")
    refused(env_for(state), ability(0, "BC24", "convert"), {"slot": 0}, IllegalAction)
