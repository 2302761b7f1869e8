"""The 8 base Leaders' abilities (LEAD01-LEAD08) played on small tables: each ability's
effect at its trigger point, and each refusal typed and leaving the state as it was."""
from __future__ import annotations

import pytest

from core.errors import BadParameter, CannotAfford, IllegalAction
from plugins.arcs import lore_ops
from plugins.arcs.abilities import OPS, held
from plugins.arcs.scoring import score_ambition
from plugins.arcs.state import Marker, Ships, Trophy
from tests.arcs.test_actions import BOX, bare, put
from tests.arcs.court_helpers import use
from tests.arcs.flow_helpers import place_waiting
from tests.arcs.test_lore_cards import ability, env_for, give, refused, refused_use


# -- LEAD01 Elder -----------------------------------------------------------------------------
def test_LEAD01_beloved_influence_after_defending_if_trophies_were_taken_ARCS_160():
    """Beloved: after defending, if the attacker took a Trophy, the Elder may influence
    (ARCS-160) once; without Trophies taken, not at all."""
    state = bare()
    give(state, 1, "LEAD01")
    env = env_for(state)
    u = ability(state, 1, "influence_if_trophies_taken")
    card = state.court_row[0]
    lore_ops.open_window(state, BOX, 1, "after_defend", trophies_taken=False)
    refused_use(env, u, {"card": card}, error=IllegalAction)
    lore_ops.open_window(state, BOX, 1, "after_defend", trophies_taken=True)
    refused_use(env, u, {"card": "BC99"}, error=BadParameter)
    use(env, u, {"card": card})
    assert state.court_agents[card][1] == 1 and state.players[1].agents == 9
    refused_use(env, u, {"card": card}, error=IllegalAction)  # once per battle
    lore_ops.close_window(state, 1, "after_defend")
    assert lore_ops.window(state, 1, "after_defend") is None


def test_LEAD01_beloved_no_ransack_when_battling_the_elder_ARCS_196():
    """ARCS-196 Ransack is barred for Rivals battling the Elder; destroying an Elder city
    outside a battle with it still ransacks."""
    state = bare()
    give(state, 1, "LEAD01")
    assert lore_ops.ransack_barred(state, BOX, owner=1, in_battle_against_owner=True)
    assert not lore_ops.ransack_barred(state, BOX, owner=1, in_battle_against_owner=False)
    assert not lore_ops.ransack_barred(state, BOX, owner=0, in_battle_against_owner=True)


def _captives(state, counts):
    for seat, n in enumerate(counts):
        state.players[seat].captives = [(seat + 1) % len(state.players)] * n
        state.players[(seat + 1) % len(state.players)].agents -= n


def test_LEAD01_just_tyrant_first_earns_second_and_second_earns_nothing_ARCS_124_234_239():
    """Just (a scoring modifier, ARCS-124): in Tyrant the Elder's outright first place earns
    only the second-place sum, without city bonus (ARCS-234/239), and a second place nothing;
    other ambitions and other seats score as usual."""
    state = bare()
    give(state, 0, "LEAD01")
    state.ambition_boxes["tyrant"] = [Marker("A")]  # 5 / 3
    state.players[0].cities_on_board = [False] * 5  # would be +5 without Just
    _captives(state, [3, 1, 0])
    plain = score_ambition(BOX, state, "tyrant")
    assert plain == {0: 10, 1: 3, 2: 0}
    assert lore_ops.adjust_gains(BOX, state, "tyrant", plain) == {0: 3, 1: 3, 2: 0}
    _captives(state, [1, 3, 0])
    plain = score_ambition(BOX, state, "tyrant")
    assert lore_ops.adjust_gains(BOX, state, "tyrant", plain) == {0: 0, 1: 5, 2: 0}
    state.ambition_boxes["warlord"] = [Marker("A")]
    state.players[0].trophies = [Trophy(owner=1, kind="ship")]
    plain = score_ambition(BOX, state, "warlord")
    assert lore_ops.adjust_gains(BOX, state, "warlord", plain) == plain  # Just names Tyrant only


# -- LEAD02 Mystic, LEAD03 Fuel-Drinker ---------------------------------------------------------
@pytest.mark.parametrize("leader, resource", [("LEAD02", "psionic"), ("LEAD03", "fuel")])
def test_LEAD02_attuned_LEAD03_insatiable_copy_or_pivot_tax_gains_one_more_ARCS_125(leader, resource):
    """Attuned / Insatiable: a Copy or Pivot pip spent on tax also gains 1 Psionic / Fuel
    (ARCS-125: the flow calls this only for that pip, never for a Prelude tax)."""
    state = bare()
    give(state, 0, leader)
    before = state.supply[resource]
    assert lore_ops.copy_pivot_tax_bonus(state, BOX, 0) == [resource]
    place_waiting(state)
    assert state.players[0].resources.count(resource) == 1 and state.supply[resource] == before - 1
    assert lore_ops.copy_pivot_tax_bonus(state, BOX, 1) == []
    state.supply[resource] = 0
    state.players[0].resources[0] = None  # an empty supply gains nothing (ARCS-207)
    assert lore_ops.copy_pivot_tax_bonus(state, BOX, 0) == []


def test_LEAD02_cryptic_starts_outraged_in_material_and_fuel_ARCS_191_265():
    """Cryptic, carried out after the draft (ARCS-265): agents cover the Material and Fuel
    Outrage slots (the marks of ARCS-191) and nothing is discarded."""
    state = bare()
    give(state, 2, "LEAD02")
    state.players[2].resources[0] = "material"
    state.supply["material"] -= 1
    assert lore_ops.start_outraged(state, BOX, 2) == ["material", "fuel"]
    assert state.players[2].outrage == ["material", "fuel"] and state.players[2].agents == 8
    assert state.players[2].resources[0] == "material"
    assert lore_ops.start_outraged(state, BOX, 2) == []  # never twice
    assert lore_ops.start_outraged(state, BOX, 0) == []


def test_LEAD03_lavish_discards_all_fuel_after_tycoon_was_scored_ARCS_246():
    state = bare()
    give(state, 0, "LEAD03")
    for seat in (0, 1):
        state.players[seat].resources[:2] = ["fuel", "material"]
        state.supply["fuel"] -= 1
        state.supply["material"] -= 1
    assert lore_ops.lavish(state, BOX, ["warlord"]) == {}
    assert state.players[0].resources[0] == "fuel"
    assert lore_ops.lavish(state, BOX, ["tycoon", "warlord"]) == {0: 1}
    assert state.players[0].resources[:2] == [None, "material"]
    assert state.players[1].resources[0] == "fuel"  # Rivals keep theirs


# -- LEAD04 Upstart ---------------------------------------------------------------------------
def test_LEAD04_ambitious_gains_any_resource_on_declaring():
    state = bare()
    give(state, 0, "LEAD04")
    env = env_for(state)
    u = ability(state, 0, "gain_any")
    refused_use(env, u, {"resource": "relic"}, error=IllegalAction)  # no declaration yet
    lore_ops.open_window(state, BOX, 0, "declare")
    assert len(list(OPS["gain_any"].candidates(env, u))) == 5
    refused_use(env, u, {"resource": "gold"}, error=BadParameter)
    refused_use(env, u, {"resource": 3}, error=BadParameter)
    use(env, u, {"resource": "relic"})
    assert state.players[0].resources[0] == "relic"
    refused_use(env, u, {"resource": "relic"}, error=IllegalAction)  # once per declaration


def test_LEAD04_callow_taxes_loyal_cities_only_where_in_control_ARCS_136():
    """ARCS-136 lets any Loyal city be taxed; Callow adds control of its system."""
    state = bare()
    give(state, 0, "LEAD04")
    put(state, "2.3", 0, buildings=[("city", False)])
    put(state, "2.3", 1, fresh=1)
    refused(lore_ops.check_callow, state, state, BOX, 0, "2.3", 0, error=IllegalAction)
    put(state, "2.3", 0, fresh=2)
    lore_ops.check_callow(state, BOX, 0, "2.3", 0)
    give(state, 0, "L10")  # ARCS-123: Nurture is a tax inside a new action, so Callow applies to it
    state.systems["2.3"].ships[0] = Ships()
    state.players[0].ships += 2
    env = env_for(state)
    refused_use(env, ability(state, 0, "tax_loyal_city"), {"system": "2.3", "building": 0}, error=IllegalAction)


# -- LEAD05 Rebel ----------------------------------------------------------------------------
def test_LEAD05_committed_two_more_dice_and_disorganized_two_ships_a_move_ARCS_151_171():
    """Committed: 2 dice more than one per ship (ARCS-171), always. Disorganized: a move
    (ARCS-151) takes at most 2 ships, Sprinter Drives' too."""
    state = bare()
    give(state, 0, "LEAD05")
    assert lore_ops.extra_dice(state, BOX, 0) == 2 and lore_ops.extra_dice(state, BOX, 1) == 0
    lore_ops.check_move_limit(state, BOX, 0, 2)
    refused(lore_ops.check_move_limit, state, state, BOX, 0, 3, error=IllegalAction)
    lore_ops.check_move_limit(state, BOX, 1, 9)
    give(state, 0, "L03")
    put(state, "2G", 0, fresh=3)
    state.module_state.setdefault(lore_ops.KEY, {})["windows"] = {"0": {"move": {"open": ["L03:0"],
                                                                                "facts": {"landed": {"2G": 3}}}}}
    env = env_for(state)
    u = ability(state, 0, "extra_move_fresh")
    refused_use(env, u, {"origin": "2G", "to": "3G", "fresh": 3}, error=IllegalAction)
    assert max(c["fresh"] for c in OPS[u.ability.do].candidates(env, u)) == 2


# -- LEAD06 Warrior --------------------------------------------------------------------------
def test_LEAD06_tactical_one_move_with_a_copy_or_pivot_battle_ARCS_125_151():
    """Tactical: a Copy or Pivot pip used to battle (ARCS-125) brings one Move (ARCS-151)
    before or after it; nothing without that window, and only one."""
    state = bare()
    give(state, 0, "LEAD06")
    put(state, "2.1", 0, fresh=2, damaged=1)
    env = env_for(state)
    u = ability(state, 0, "move_before_or_after")
    move = {"origin": "2.1", "path": ["2G"], "fresh": 2, "damaged": 1}
    refused_use(env, u, move, error=IllegalAction)
    lore_ops.open_window(state, BOX, 0, "copy_or_pivot_battle")
    refused_use(env, u, {"origin": "2.1", "path": ["3G"], "fresh": 1}, error=BadParameter)  # not adjacent
    assert move in list(OPS[u.ability.do].candidates(env, u))
    use(env, u, move)
    assert state.systems["2G"].ships[0] == Ships(fresh=2, damaged=1)
    refused_use(env, u, {"origin": "2G", "path": ["2.1"], "fresh": 1}, error=IllegalAction)


def test_LEAD06_violent_empath_first_earns_second_ARCS_230_237():
    """Violent: Just's rule for Empath (ARCS-230 counts Psionic); a tie for first is scored
    as usual (ARCS-237)."""
    state = bare()
    give(state, 1, "LEAD06")
    state.ambition_boxes["empath"] = [Marker("B")]  # 3 / 2
    state.players[1].resources[:2] = ["psionic", "psionic"]
    state.players[2].resources[0] = "psionic"
    state.supply["psionic"] -= 3
    plain = score_ambition(BOX, state, "empath")
    assert plain == {0: 0, 1: 3, 2: 2}
    assert lore_ops.adjust_gains(BOX, state, "empath", plain) == {0: 0, 1: 2, 2: 2}
    state.players[2].resources[1] = "psionic"
    state.supply["psionic"] -= 1
    tie = score_ambition(BOX, state, "empath")
    assert tie == {0: 0, 1: 2, 2: 2} == lore_ops.adjust_gains(BOX, state, "empath", tie)


# -- LEAD07 Feastbringer ------------------------------------------------------------------------
def test_LEAD07_charismatic_influence_with_a_copy_or_pivot_secure_ARCS_160_162():
    state = bare()
    give(state, 0, "LEAD07")
    env = env_for(state)
    u = ability(state, 0, "influence_before_or_after")
    card = state.court_row[1]
    refused_use(env, u, {"card": card}, error=IllegalAction)
    lore_ops.open_window(state, BOX, 0, "copy_or_pivot_secure")
    state.players[0].agents, spare = 0, state.players[0].agents
    refused_use(env, u, {"card": card}, error=IllegalAction)  # ARCS-161: no agent left
    state.players[0].agents = spare
    use(env, u, {"card": card})
    assert state.court_agents[card][0] == 1
    refused_use(env, u, {"card": card}, error=IllegalAction)


def test_LEAD07_generous_a_guild_card_to_the_lowest_power_rival_to_declare_ARCS_124_268():
    """Generous alters declaring (ARCS-124): no Guild card, no declaration; the card goes to
    the Rival with the least Power, a tie broken in turn order (ARCS-268)."""
    state = bare()
    give(state, 1, "LEAD07")
    state.initiative = 0
    state.players[0].power, state.players[2].power = 4, 4
    assert not lore_ops.can_declare(state, BOX, 1)
    assert lore_ops.can_declare(state, BOX, 0)
    guild = next(c for c in state.court_deck if BOX.court[c].kind == "guild")
    state.court_deck.remove(guild)
    state.players[1].guild = [guild]
    assert lore_ops.can_declare(state, BOX, 1)
    assert lore_ops.generous_recipient(state, BOX, 1) == 0  # turn order from seat 0: 0, (1), 2
    state.initiative = 1
    assert lore_ops.generous_recipient(state, BOX, 1) == 2  # from seat 1: (1), 2, 0
    state.players[2].power = 5
    assert lore_ops.generous_recipient(state, BOX, 1) == 0
    refused(lore_ops.pay_generous, state, state, BOX, 1, "BC99", error=BadParameter)
    assert lore_ops.pay_generous(state, BOX, 1, guild) == 0
    assert state.players[0].guild == [guild] and state.players[1].guild == []


# -- LEAD08 Demagogue ----------------------------------------------------------------------------
def test_LEAD08_bold_an_agent_on_each_of_any_court_cards_on_declaring_ARCS_160():
    state = bare()
    give(state, 0, "LEAD08")
    env = env_for(state)
    u = ability(state, 0, "agent_on_each_court_card")
    row = [c for c in state.court_row if c]
    refused_use(env, u, {"cards": row[:2]}, error=IllegalAction)
    lore_ops.open_window(state, BOX, 0, "declare")
    assert held(state, BOX, 0, "declare") == [u]
    refused_use(env, u, {"cards": [row[0], row[0]]}, error=BadParameter)
    refused_use(env, u, {"cards": []}, error=BadParameter)
    refused_use(env, u, {"cards": ["BC99"]}, error=BadParameter)
    state.players[0].agents, spare = 2, state.players[0].agents
    refused_use(env, u, {"cards": row[:3]}, error=CannotAfford)
    state.players[0].agents = spare
    use(env, u, {"cards": row[:3]})
    assert [state.court_agents[c][0] for c in row] == [1, 1, 1] + [0] * (len(row) - 3)
    assert state.players[0].agents == spare - 3
    refused_use(env, u, {"cards": row[3:]}, error=IllegalAction)


def test_LEAD08_paranoid_no_secure_of_a_guild_card_with_one_agent_ARCS_162():
    """ARCS-162 needs a strict majority; Paranoid also refuses a Guild card held with just 1
    Loyal agent (a Vox card is fine)."""
    state = bare()
    give(state, 0, "LEAD08")
    row = [c for c in state.court_row if c]
    guild = next(c for c in row if BOX.court[c].kind == "guild")
    state.court_agents[guild][0] = 1
    refused(lore_ops.check_paranoid, state, state, BOX, 0, guild, error=IllegalAction)
    lore_ops.check_paranoid(state, BOX, 1, guild)
    state.court_agents[guild][0] = 2
    lore_ops.check_paranoid(state, BOX, 0, guild)
    vox = [c for c in row if BOX.court[c].kind == "vox"]
    for c in vox:
        state.court_agents[c][0] = 1
        lore_ops.check_paranoid(state, BOX, 0, c)
