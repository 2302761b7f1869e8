"""The Pacifist (FATE14, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving seat 0 the Pacifist, the Act II table created from the packed log
sheet. Each test names the card it plays (F14nn) and the checklist IDs it proves."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.engine import create_table
from core.errors import ActionRejected
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.setup import open_slots
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import intermission as im
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, ctx, end_act
from tests.blighted_reach.empire_fate_tables import new_round, place_tokens, prompt_of, resolve_crises, resolve_fates
from tests.blighted_reach.flow_helpers import GAME, options

PACIFIST = "FATE14"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == []


def refused(t, seat: int, action: Action, error=ActionRejected) -> None:
    before = snapshot(t)
    with pytest.raises(error):
        t.act(seat, action)
    assert snapshot(t) == before


def pacifist_intermission(state, seat: int):
    """Intermission A-F with every objective completed; the seat's offer arranged to hold the
    Pacifist (the B Fates' draw, BR-349) and picked; the others keep their Fates."""
    state.objective_markers = [0] * len(state.players)
    run = ctx(state)
    im.resolve_fates(run, CBOX)
    im.clear_court(CBOX, state)
    im.clear_pieces(BOX, CBOX, state)
    for s in im.repair_and_destroy(BOX, CBOX, state):
        im.place_after_elimination(BOX, CBOX, state, s, "1G")
    im.shift_initiative_and_power(CBOX, state)
    state.options = {**state.options, "later_fates": "box"}
    im.offer_fates(CBOX, state)
    state.fate_offers[seat] = [state.fates[seat], PACIFIST]
    for s in range(len(state.players)):
        im.pick_fate(state, s, PACIFIST if s == seat else state.fates[s])
    im.reveal_fates(CBOX, state)
    return state


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, start: int = 20, replenish: bool = True):
    """The Act II table with the Pacifist at `seat` (its Setup side run: `replenish` answers
    the fleet's prompts with the first system offered each time)."""
    state = end_act(act_one(A_FATES[:players], seed))
    pacifist_intermission(state, seat)
    return _table_from(state, players, seed, start, replenish)


def _table_from(state, players: int, seed: int, start: int, replenish: bool):
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    t = create_table(GAME, players, seed=seed, campaign=campaign)
    while replenish and any(p.kind == "replenish_ship" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "replenish_ship")
        t.act(p.seat, p.options[0])
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    return t




def loyal_ships(state, seat: int) -> int:
    return sum(here.ships_of(seat).total for here in state.systems.values())


def weapon_planets(state) -> list[str]:
    box = BOX
    return sorted(s for s in state.systems if box.systems.get(s) is not None and box.systems[s].type == "weapon")


def psionic_planets(state) -> list[str]:
    return sorted(s for s in state.systems if BOX.systems.get(s) is not None and BOX.systems[s].type == "psionic")


def from_supply(state, seat: int, resource: str, slot: int) -> None:
    """A resource token from the supply into an empty slot of the seat (as a gain puts it)."""
    assert state.players[seat].resources[slot] is None
    state.supply[resource] -= 1
    state.players[seat].resources[slot] = resource


# -- F1401 Pacifist Act II Setup ---------------------------------------------------------


def test_F1401_setup_clears_outrage_places_witnesses_and_replenishes_the_fleet_BR_066():
    """BR-066 (an Act's Fate setup side, step F): the Pacifist's Outrage is cleared (agents
    home), it gains Witnesses and Well of Empathy, a Witness stands at each Weapon planet on
    the map, and it places one ship per chosen system until 8 Loyal ships are on the map
    (a system already chosen is refused, state unchanged); its marker starts on 14 (3p)."""
    state = end_act(act_one(A_FATES, 3))
    p = state.players[0]
    p.outrage, p.agents = ["weapon", "relic"], p.agents - 2  # two Outrage agents from its supply
    pacifist_intermission(state, 0)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": 3, "acts_played": 1, "log": log, "finished": False, "winner": -1, "acts": []}
    t = create_table(GAME, 3, seed=3, campaign=campaign)
    s = t.state
    assert s.fates[0] == PACIFIST and s.players[0].outrage == []
    assert "F1402" in s.play_area[0] and "F1403" in s.players[0].lore
    assert sorted(s.witnesses) == weapon_planets(s) and set(s.witnesses.values()) == {1}
    used = []
    while prompt_of(t, "replenish_ship") is not None:
        prompt = prompt_of(t, "replenish_ship")
        assert prompt.seat == 0 and loyal_ships(s, 0) < 8
        if used:
            refused(t, 0, Action("replenish_ship", {"system": used[0]}))
        choice = prompt.options[-1]
        used.append(choice.params["system"])
        t.act(0, choice)
        s = t.state
    assert loyal_ships(s, 0) == 8 and len(used) == len(set(used))
    while prompt_of(t, "objective_start") is not None:
        prompt = prompt_of(t, "objective_start")
        t.act(prompt.seat, Action("objective_start", {"space": 20}))
    assert t.state.objective_markers[0] == 14
    sound(t)


def test_F1401_commit_to_pacifism_advances_at_chapter_end_BR_097():
    """BR-097: at a chapter's end 2 spaces with no Trophies, 1 with no Captives; a Trophy
    held stops the first, a Captive the second."""
    from plugins.blighted_reach import objectives
    from plugins.arcs.state import Trophy

    t = act_two_table()
    s = t.state
    start = s.objective_markers[0]
    moved = objectives.advance_at_chapter_end(BOX, CBOX, s)
    assert moved[0] == 3 and s.objective_markers[0] == start - 3
    s.players[1].ships -= 1
    s.players[0].trophies.append(Trophy(owner=1, kind="ship"))
    assert objectives.advance_at_chapter_end(BOX, CBOX, s)[0] == 1
    s.players[2].agents -= 1
    s.players[0].captives.append(2)
    assert objectives.advance_at_chapter_end(BOX, CBOX, s).get(0, 0) == 0
    sound(t)


def lead_turn(t, hands=None):
    new_round(t, hands or [["ADM3", "AGG4"], ["CON2", "MOB5"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    if prompt_of(t, "declare") is not None:
        t.act(0, Action("declare", {"ambition": ""}))


def test_F1401_spread_empathy_advances_per_psionic_spent_in_prelude_while_empath_is_declared():
    """Spending a Psionic in the Prelude (for a lead card action) with Empath declared moves
    the marker 1; without Empath declared, nothing."""
    from plugins.arcs.court_ops import place_ambition_marker

    t = act_two_table()
    s = t.state
    s.players[0].resources = [None if r == "psionic" else r for r in s.players[0].resources]
    s.supply["psionic"] = 5 - sum(p.resources.count("psionic") for p in s.players)
    slots = [i for i in open_slots(BOX, s.players[0]) if s.players[0].resources[i] is None][:2]
    for slot in slots:
        from_supply(s, 0, "psionic", slot)
    lead_turn(t)
    start = t.state.objective_markers[0]
    spend = [a for a in options(t, 0) if a.type == "act" and a.params.get("pay") in slots]
    assert spend
    t.act(0, spend[0])
    assert t.state.objective_markers[0] == start  # Empath not declared
    place_ambition_marker(BOX, t.state, "empath")
    spend = [a for a in options(t, 0) if a.type == "act" and a.params.get("pay") in slots]
    t.act(0, spend[0])
    assert t.state.objective_markers[0] == start - 1
    sound(t)


# -- F1402 Witnesses -------------------------------------------------------------------------


def witness_uses(t, seat: int = 0) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "act" and a.params.get("card") == "F1402"]


def test_F1402_witnesses_prelude_takes_a_witness_at_a_psionic_planet_and_may_declare_empath():
    """A Witness at a Psionic planet flips to Psionic and is taken (a Psionic token beyond the
    box's five); Empath may be declared with it. A Witness elsewhere is refused."""
    t = act_two_table()
    s = t.state
    weapon = next(iter(s.witnesses))
    psionic = psionic_planets(s)[0]
    s.witnesses[weapon] -= 1  # a Witness moved on (as its holder may move it)
    if not s.witnesses[weapon]:
        del s.witnesses[weapon]
    s.witnesses[psionic] = 1
    lead_turn(t)
    uses = witness_uses(t)
    assert {u.params["params"]["system"] for u in uses} == {psionic}
    bad = msgspec.structs.replace(uses[0], params={**uses[0].params, "params": {"system": weapon, "declare": False}})
    refused(t, 0, bad)
    held = t.state.players[0].resources.count("psionic")
    declare = next(u for u in uses if u.params["params"]["declare"])
    events = t.act(0, declare)
    place_tokens(t)
    s = t.state
    assert psionic not in s.witnesses and s.witness_psionic == 1
    assert s.players[0].resources.count("psionic") == held + 1
    assert s.ambition_boxes.get("empath")
    assert any(e.type == "ambition_declared" and e.data.get("ambition") == "empath" for e in events)
    sound(t)


# -- F1403 Well of Empathy -----------------------------------------------------------------


def test_F1403_well_of_empathy_returns_trophies_taken_defending_as_psionic():
    """The Well's holder, defending, takes a Trophy: it goes back to its owner's supply and
    the holder gains 1 Psionic instead (the standing rule read around every step)."""
    from core.flow import Ctx, run
    from plugins.arcs.battle_flow import apply_ships
    from plugins.arcs.state import Battle
    from plugins.arcs.battle_flow import ShipSplit

    t = act_two_table()
    s = t.state
    system = next(sys for sys in sorted(s.systems) if s.systems[sys].ships_of(0).fresh > 0)
    s.systems[system].ships[1].fresh += 1
    s.players[1].ships -= 1
    s.battle = Battle(attacker=1, defender=0, system=system)
    ships = s.players[1].ships
    psionic = s.supply["psionic"]
    ctx = Ctx(s, t.rules)
    from plugins.blighted_reach.fate_steward import AROUND_STEPS
    noted = [before(s) for before, _ in AROUND_STEPS]
    apply_ships(ctx, 1, 2, ShipSplit(destroy_fresh=1))
    for (_, after), note in zip(AROUND_STEPS, noted):
        after(ctx, note)
    assert s.players[0].trophies == [] and s.players[1].ships == ships + 1
    assert s.supply["psionic"] == psionic - 1
    s.battle = None
    run(ctx)
    place_tokens(t)
    sound(t)


# -- F1404 Pacifist Act II Resolution -----------------------------------------------------


def test_F1404_completed_scraps_the_act_three_cards_and_turns_witnesses_into_supply_BR_331():
    """BR-331 (a Resolution card's completed side): Witnesses scrapped, Psionic Liaisons and
    the Itinerant Empaths scrapped, each Witness on the map Psionic in the supply."""
    t = act_two_table()
    s = t.state
    on_map = sum(s.witnesses.values())
    psionic = s.supply["psionic"]
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert {"F1402", "F1405", "F1406", "F1407"} <= set(s.scrapped) and "F1402" not in s.play_area[0]
    assert s.witnesses == {} and s.witness_psionic == on_map and s.supply["psionic"] == psionic + on_map
    assert "F1403" in s.players[0].lore
    sound(t)


def test_F1404_failed_puts_the_act_three_cards_in_the_court_and_scraps_the_witnesses_BR_332():
    """BR-332 (the failed side): Witnesses scrapped, F1405-F1407 into the Court deck, the
    Witnesses on the map gone."""
    t = act_two_table()
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F1402" in s.scrapped and {"F1405", "F1406", "F1407"} <= set(s.court_deck)
    assert s.witnesses == {} and s.witness_psionic == 0
    sound(t)


# -- Act III cards ------------------------------------------------------------------------


def test_F1405_psionic_liaisons_is_the_advocates_liaison_reprinted_BR_312():
    """BR-312: F1405 plays the rules of F409 (Copy to influence gains a Psionic; its
    Prelude attaches it and declares Empath)."""
    a, b = CBOX.effects_of("F1405"), CBOX.effects_of("F409")
    assert a == b and [e.when for e in a] == ["copy", "prelude"]


def test_F1406_itinerant_empaths_crisis_fills_the_least_powerful_players_slots_with_psionic():
    """The Crisis: the player with the least Power gains Psionic up to its empty slots, and
    the card is discarded."""
    from plugins.blighted_reach.fate_caretaker import free_slots

    t = act_two_table()
    s = t.state
    s.players[2].power = -1
    s.court_row[-1], old = "F1406", s.court_row[-1]
    s.court_agents["F1406"] = s.court_agents.pop(old)
    s.court_deck.insert(0, old)
    empty = free_slots(BOX, s, 2)
    supply = s.supply["psionic"]
    resolve_crises(t, number=1, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert "F1406" in s.court_discard
    assert s.supply["psionic"] == max(0, supply - empty)
    sound(t)


def test_F1407_itinerant_empaths_when_secured_fills_the_securers_slots():
    """F1407 (F1406 reprinted): secured, Psionic up to the securer's empty slots, no theft."""
    from plugins.blighted_reach.fate_pacifist import fill_with_psionic

    assert CBOX.effects_of("F1407") == CBOX.effects_of("F1406")
    t = act_two_table()
    s = t.state
    s.supply["psionic"] = 1
    for seat in (1, 2):
        s.players[seat].resources = [r if r != "psionic" else None for r in s.players[seat].resources]
    assert fill_with_psionic(s, 1) == 1 and s.supply["psionic"] == 0


def test_F1408_act_three_setup_waits_for_empathy_for_all():
    """The Act III Setup side names Empathy for All's rule, not built yet: refused before
    anything changes (RuleMissing), never played silently wrong. Its grand ambitions."""
    from plugins.blighted_reach import fate_steps, objectives
    from plugins.blighted_reach.fate_steps import RuleMissing

    with pytest.raises(RuleMissing):
        fate_steps.check_side(CBOX, PACIFIST, "F1408", "setup")
    t = act_two_table()
    s = t.state
    assert objectives.GOAL_RULES["no_trophies_or_captives"](BOX, CBOX, s, 0)
    s.players[1].resources[0] = "psionic"
    s.supply["psionic"] -= 1
    mine = s.players[0].resources.count("psionic")
    rivals = sum(s.players[r].resources.count("psionic") for r in (1, 2))
    assert objectives.GOAL_RULES["rivals_hold_more_psionic"](BOX, CBOX, s, 0) == (rivals > mine)


def test_F1412_rebuke_of_the_empaths_discards_outraged_types_and_gives_psionic():
    """With Empath declared: each player's resources of its Outraged types to the supply,
    then 1 Psionic to each player without Psionic Outrage; without Empath, nothing."""
    from plugins.arcs.court_ops import place_ambition_marker
    from plugins.blighted_reach.fate_pacifist import rebuke

    t = act_two_table()
    s = t.state
    assert rebuke(s) == {"discarded": {}, "gained": []}
    s.players[1].outrage, s.players[1].agents = ["psionic"], s.players[1].agents - 1
    slot = s.players[1].resources.index(None)
    from_supply(s, 1, "psionic", slot)
    place_ambition_marker(BOX, s, "empath")
    done = rebuke(s)
    assert done["discarded"] == {"1": ["psionic"]} and sorted(done["gained"]) == [0, 2]


# -- bots ----------------------------------------------------------------------------------


def bot_act_two(players: int, seed: int, seat: int) -> int:
    """Random bots play an Act II with the Pacifist at `seat` to its table's end (its
    Intermission included), invariants after every action; returns the actions."""
    from tests.blighted_reach.flow_helpers import play_out

    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == PACIFIST
    return play_out(t, seed)


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_an_act_two_with_the_pacifist(players, seed, seat):
    assert bot_act_two(players, seed, seat) > 0
