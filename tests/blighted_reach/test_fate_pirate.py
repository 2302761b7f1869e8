"""The Pirate (FATE12, a B Fate) through the engine: an Act I with A Fates, its Intermission
giving seat 0 the Pirate, the Act II table created from the packed log sheet. Each test
names the card it plays (F12nn) and the checklist IDs it proves.

Act III tables come from an Act II played this way and its Intermission (the Pirate kept
with every objective completed, or failed)."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.errors import ActionRejected
from core.flow import Ctx, run
from core.engine import create_table
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.battle_flow import resolve
from plugins.arcs.rounds import round_start
from plugins.arcs.setup import open_slots, place_ships
from plugins.arcs.state import Battle
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import fate_pirate as pirate
from plugins.blighted_reach import fate_pirate_rumors as rumors
from plugins.blighted_reach import objectives
from plugins.blighted_reach.fate_steps import RuleMissing
from plugins.blighted_reach.state import FREE
from plugins.flagships.content import default_content as flagship_content
from plugins.flagships.state import board_of
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, ctx, end_act
from tests.blighted_reach.flow_helpers import GAME, options, restart_round

PIRATE = "FATE12"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == []


def refused(t, seat: int, action: Action) -> None:
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(seat, action)
    assert snapshot(t) == before


def pirate_intermission(state, seat: int):
    return b_fate_intermission(state, seat, PIRATE)


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, start: int = 20, place: bool = True):
    """The Act II table with the Pirate at `seat`; `place` answers its Flagship prompt with the
    first system offered and every other seat's objective start."""
    state = end_act(act_one(A_FATES[:players], seed))
    pirate_intermission(state, seat)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    t = create_table(GAME, players, seed=seed, campaign=campaign)
    if place:
        finish_setup(t, start)
    return t


def finish_setup(t, start: int = 20, rumors=None) -> None:
    """The Flagship at the first system offered, the freed city slots' resources placed as
    first offered (ARCS-250), the Rumors (Act III) as `rumors` lists them ((planet, face)
    pairs, else the first offered), then every objective start."""
    wanted = iter(rumors or [])
    while any(p.kind in ("place_flagship", "arcs.place_resources", "place_rumor") for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind in ("place_flagship", "arcs.place_resources", "place_rumor"))
        if p.kind == "place_rumor" and rumors:
            planet, face = next(wanted)
            t.act(p.seat, Action("place_rumor", {"planet": planet, "face": face}))
            continue
        t.act(p.seat, options(t, p.seat)[0])
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))
    assert not t.state.prompts or all(p.kind not in ("place_flagship", "objective_start") for p in t.state.prompts)


def loyal_buildings(state, seat: int) -> int:
    return sum(b.owner == seat for here in state.systems.values() for b in here.buildings)


def take_from_supply(state, resource: str) -> str:
    state.supply[resource] -= 1
    return resource


# -- F1201 Pirate Act II Setup ---------------------------------------------------------------


def test_F1201_without_its_fate_complete_the_setup_is_refused_before_anything_changes(monkeypatch):
    """BR-066: a Fate whose cards lack effects stops loudly (RuleMissing) at its setup side
    (the Pirate marked incomplete for this test, as it was before its last rule was built)."""
    monkeypatch.setitem(CBOX.fates, PIRATE, msgspec.structs.replace(CBOX.fates[PIRATE], effects_complete=False))
    state = end_act(act_one(A_FATES[:3], 3))
    pirate_intermission(state, 0)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": 3, "acts_played": 1, "log": log, "finished": False, "winner": -1, "acts": []}
    with pytest.raises(RuleMissing):
        create_table(GAME, 3, seed=3, campaign=campaign)


def test_F1201_setup_grants_the_flagship_its_starports_the_cards_and_gate_ships_BR_066_BR_265():
    """BR-066 (the Fate's setup side, step F), BR-004/BR-265: the Pirate names a system with
    its ships (one elsewhere is refused, state unchanged); it gets its Flagship there, its
    Loyal buildings become Free ones in their slots, a fresh starport stands on the Tractor
    Beam and the Defense Array, it gains the Pirate Hoard and Pirate Fleet, and each cluster
    in play without a Loyal ship of its gets one ship on the gate."""
    t = act_two_table(place=False)
    s = t.state
    assert s.fates[0] == PIRATE
    assert "F1202" in s.players[0].lore and "F1203" in s.players[0].guild
    prompt = next(p for p in s.prompts if p.kind == "place_flagship")
    sites = [o.params["system"] for o in prompt.options]
    assert sites == pirate.flagship_sites(s, 0)
    elsewhere = next(x for x in sorted(s.systems) if x not in sites)
    refused(t, 0, Action("place_flagship", {"system": elsewhere}))
    buildings, free_before = loyal_buildings(s, 0), sum(b.owner == FREE for h in s.systems.values() for b in h.buildings)
    ships_before = s.players[0].ships
    bare = [c.gate for c in BOX.map.clusters if c.gate in s.systems and not any(
        s.systems[x].ships_of(0).total for x in (c.gate, *(p.id for p in c.planets)) if x in s.systems)
        and c.gate != sites[0] and all(p.id != sites[0] for p in c.planets)]
    t.act(0, Action("place_flagship", {"system": sites[0]}))
    s = t.state
    ship = board_of(s, 0)
    assert ship is not None and ship.system == sites[0]
    assert loyal_buildings(s, 0) == 0
    assert sum(b.owner == FREE for h in s.systems.values() for b in h.buildings) == free_before + buildings
    content = flagship_content()
    built = [content.upgrades[i].id for i, slot in enumerate(ship.slots) if slot.upgrade is not None]
    assert sorted(built) == ["defense_array", "tractor_beam"]
    assert all(s.systems[g].ships_of(0).fresh >= 1 for g in bare)
    assert s.players[0].ships == ships_before - len(bare)
    finish_setup(t)
    sound(t)


def test_F1201_objective_counts_the_hoard_and_the_types_it_leads_BR_097():
    """BR-097 (chapter-end advances): 1 per resource on the Hoard, and 1 per resource type of
    which the Hoard holds more than each Rival has (the Rivals' rows and cards counted)."""
    t = act_two_table()
    s = t.state
    for seat in range(3):
        s.players[seat].resources = [None] * len(s.players[seat].resources)
    s.supply = {r: 5 for r in s.supply}  # the emptied rows' tokens back in the supply
    s.card_resources[pirate.HOARD] = [take_from_supply(s, r) for r in ("fuel", "fuel", "relic", "weapon")]
    s.players[1].resources[0] = take_from_supply(s, "fuel")
    s.players[2].resources[0] = take_from_supply(s, "relic")
    assert pirate.hoard_types_ahead(s, 0) == ["fuel", "weapon"]
    marker = s.objective_markers[0]
    moved = objectives.advance_at_chapter_end(BOX, CBOX, s)
    assert moved[0] == 4 + 2 and s.objective_markers[0] == marker - 6


def test_F1201_two_players_count_the_ambition_boxes_as_a_rival_BR_097():
    t = act_two_table(players=2)
    s = t.state
    for tokens in s.ambition_tokens.values():
        for r in tokens:
            s.supply[r] += 1
    s.ambition_tokens = {a: [] for a in s.ambition_tokens}
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "material")]
    for i, r in enumerate(s.players[1].resources):
        if r:
            s.supply[r] += 1
            s.players[1].resources[i] = None
    s.trust, s.first_regent = [], s.first_regent
    rival_row = [r for r in s.players[1].resources if r]
    assert rival_row == [] and pirate.hoard_types_ahead(s, 0) == ["material"]
    s.ambition_tokens = {**s.ambition_tokens, "tycoon": [take_from_supply(s, "material")]}
    sound(t)
    assert pirate.hoard_types_ahead(s, 0) == []


# -- F1202 Pirate Hoard ------------------------------------------------------------------------------


def raid(t, attacker: int, defender: int, system: str, keys: int):
    """A battle at its raid: the attacker holds `keys` keys against the defender there."""
    s = t.state
    for seat in (attacker, defender):
        place_ships(s, system, seat, 1)
    s.prompts, s.stack = [], []
    s.battle = Battle(attacker=attacker, defender=defender, system=system, key=keys)
    run_ctx = Ctx(s, t.rules)
    run_ctx.push(round_start)
    run_ctx.push(resolve)
    run(run_ctx)


def test_F1202_the_pirates_raid_puts_a_stolen_resource_on_the_hoard_ARCS_200():
    """F1202: a resource the Pirate steals may go on its Hoard (or on its board, the base
    answer); the raid pays the slot's cost; an unknown slot is refused, state unchanged."""
    t = act_two_table()
    s = t.state
    victim = 1
    slot = next(i for i, r in enumerate(s.players[victim].resources) if r)
    resource = s.players[victim].resources[slot]
    raid(t, 0, victim, "1.1", keys=3)
    steals = [a for a in options(t, 0) if a.type == "steal"]
    assert Action("steal", {"hoard_slot": slot}) in steals and Action("steal", {"slot": slot}) in steals
    refused(t, 0, Action("steal", {"hoard_slot": 5 if slot != 5 else 4}) if s.players[victim].resources[5 if slot != 5 else 4] is None
            else Action("steal", {"hoard_slot": 99}))
    t.act(0, Action("steal", {"hoard_slot": slot}))
    s = t.state
    assert s.card_resources[pirate.HOARD] == [resource] and s.players[victim].resources[slot] is None
    sound(t)


def test_F1202_a_rival_raids_a_hoard_token_for_two_keys_and_outrage_spares_the_hoard():
    """F1202: a Hoard token costs a Rival's raid 2 keys (with 1 key it is not offered); the
    Pirate's Outrage of that type leaves the Hoard alone (ARCS-191 discards the row only)."""
    from plugins.arcs.outrage import provoke_outrage

    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "relic"), take_from_supply(s, "relic")]
    provoke_outrage(pirate.box_for(s), s, 0, "relic")
    assert s.card_resources[pirate.HOARD] == ["relic", "relic"]
    raid(t, 1, 0, "1.1", keys=1)
    assert Action("steal", {"hoard": "relic"}) not in options(t, 1)
    raid(t, 1, 0, "1.1", keys=2)
    assert Action("steal", {"hoard": "relic"}) in options(t, 1)
    t.act(1, Action("steal", {"hoard": "relic"}))
    while any(p.seat == 1 and p.kind == "arcs.place_resources" for p in t.state.prompts):
        t.act(1, options(t, 1)[0])
    s = t.state
    assert s.card_resources[pirate.HOARD] == ["relic"]
    sound(t)


def test_F1202_hoard_tokens_count_for_ambitions_BR_321():
    from plugins.arcs.scoring import ambition_count

    t = act_two_table()
    s = t.state
    before = ambition_count(pirate.box_for(s), s, s.players[0], "keeper")
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "relic")]
    assert ambition_count(pirate.box_for(s), s, s.players[0], "keeper") == before + 1


def test_F1202_prelude_moves_a_hoard_token_onto_the_board_to_spend_it():
    """F1202: in its Prelude the Pirate moves a Hoard token into an empty slot (then spends
    it as any token); a resource the Hoard lacks is refused, state unchanged."""
    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, "fuel")]
    first = open_slots(BOX, s.players[0])[0]
    if s.players[0].resources[first]:
        s.supply[s.players[0].resources[first]] += 1
        s.players[0].resources[first] = None
    restart_round(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(0, Action("declare", {"ambition": ""}))
    uses = [a for a in options(t, 0) if a.params.get("act") == "ability" and a.params.get("card") == pirate.HOARD]
    assert uses
    use = uses[0]
    slot = use.params["params"]["slot"]
    bad = Action(use.type, {**use.params, "params": {"resource": "psionic", "slot": slot}})
    refused(t, 0, bad)
    t.act(0, use)
    s = t.state
    assert s.players[0].resources[slot] == "fuel" and pirate.HOARD not in s.card_resources
    assert s.turn.prelude
    sound(t)


# -- F1203 Pirate Fleet ------------------------------------------------------------------------------


def fleet_battle(monkeypatch, faces, defender_ships: int = 2):
    """Act II, everyone an Outlaw: the Pirate (seat 0, holding Pirate Fleet) has 3 ships on a
    planet where seat 1 has `defender_ships` fresh ships and no building (seat 1 has
    buildings elsewhere, so the base Raid Dice Limit bars raid dice); seat 0 leads Aggression.
    The roll shows `faces`. Returns (table, system)."""
    from tests.blighted_reach.test_fate_pacifist import all_outlaws, empty_system, rolls, ships_to, turn

    t = act_two_table()
    all_outlaws(t)
    s = t.state
    assert pirate.FLEET in s.players[0].guild and loyal_buildings(s, 1) > 0
    system = empty_system(s, (0, 1))
    ships_to(s, 0, system, 3)
    ships_to(s, 1, system, defender_ships)
    turn(t, 0, "AGG3")
    rolls(monkeypatch, faces)
    return t, system


def attack(t, seat: int, system: str, defender: int, **dice):
    return t.act(seat, Action("act", {"act": "battle", "system": system, "defender": defender, **dice}))


def assign_hits(t) -> None:
    """Every hit split answered with a split damaging fresh ships first (the first offered that does)."""
    while (p := next((p for p in t.state.prompts if p.kind.endswith("ship_hits")), None)) is not None:
        offered = options(t, p.seat)
        damaging = [a for a in offered if a.params.get("damage_fresh")]
        t.act(p.seat, (damaging or offered)[0])


def test_F1203_pirate_fleet_raids_without_defending_buildings_resources_only_one_per_damaged_ship_ARCS_173(
        monkeypatch):
    """F1203 (beside ARCS-173): the Fleet's holder collects raid dice against a defender with no
    building there; 1 hit damages one defending ship, so of 2 keys only one steal is offered,
    of resources only (no Guild card); once taken, only "done" is left and the raid ends. A
    player without the Fleet is refused raid dice there (state unchanged)."""
    t, system = fleet_battle(monkeypatch, [("skirmish", 0), ("raid", 2), ("raid", 2)])
    s = t.state
    from plugins.arcs.battle import raid_dice_limit

    assert not raid_dice_limit(s, system, 1)
    from plugins.arcs.content import box_for

    court = box_for(s).court
    guild = next(c for c in s.court_deck if court[c].kind == "guild" and court[c].raid_cost <= 2)
    s.court_deck.remove(guild)  # a Guild card for seat 1 (from the Court deck): the Fleet may not take it
    s.players[1].guild.append(guild)
    attack(t, 0, system, 1, skirmish=1, raid=2)
    assign_hits(t)
    s = t.state
    assert s.fleet_raid and s.systems[system].ships_of(1).damaged == 1
    steals = [a for a in options(t, 0) if a.type == "steal"]
    assert steals and Action("steal", {}) in steals
    assert all(set(a.params) <= {"slot", "hoard_slot"} for a in steals)
    for card in s.players[1].guild:
        refused(t, 0, Action("steal", {"card": card}))
    slot = next(a.params["slot"] for a in steals if "slot" in a.params)
    resource = s.players[1].resources[slot]
    held = s.players[0].resources.count(resource)
    t.act(0, Action("steal", {"slot": slot}))
    s = t.state
    assert s.battle is None or not [a for a in options(t, 0) if a.type == "steal" and a.params]
    keep = next(a for a in options(t, 0) if a.type == "place_resources"
                and a.params["slots"].count(resource) == held + 1)  # the stolen one kept in the row
    t.act(0, keep)
    s = t.state
    assert s.players[1].resources[slot] is None and s.players[0].resources.count(resource) == held + 1
    assert s.battle is None
    sound(t)


def test_F1203_no_damaged_defending_ship_means_nothing_to_steal_and_a_rival_without_the_fleet_is_refused(
        monkeypatch):
    """F1203: keys but no damaged defending ship (the roll hits nothing) steal nothing: the raid
    ends at once. A Rival without the Fleet, attacking seat 1 where it has no building, is
    refused raid dice (ARCS-173), state unchanged."""
    t, system = fleet_battle(monkeypatch, [("raid", 2), ("raid", 2)])
    before = [list(p.resources) for p in t.state.players]
    attack(t, 0, system, 1, raid=2)
    assign_hits(t)
    s = t.state
    assert s.battle is None and not [a for a in options(t, 0) if a.type == "steal"]
    assert [list(p.resources) for p in s.players] == before
    sound(t)

    from tests.blighted_reach.test_fate_pacifist import ships_to, turn

    ships_to(s, 2, system, 2)
    turn(t, 2, "AGG4")
    refused(t, 2, Action("act", {"act": "battle", "system": system, "defender": 1, "raid": 1}))
    from plugins.arcs.content import box_for
    from plugins.arcs.turn import check_dice

    check_dice(box_for(t.state), t.state, 2, system, 1, 1, 0, 0)  # an assault die is fine: the raid die is not


def test_F1203_a_defending_tractor_beam_still_bars_the_fleets_raid_dice_BR_303(monkeypatch):
    """F1203 with BR-303: Pirate Fleet held by a Rival (as after a failed Act II it may be won
    from the Court) opens raid dice against the Pirate's ships where it has no building, but
    not where its Flagship defends with the Tractor Beam."""
    from plugins.flagships.rules import flagship_system
    from tests.blighted_reach.test_fate_pacifist import all_outlaws, empty_system, ships_to, turn

    t = act_two_table()
    all_outlaws(t)
    s = t.state
    s.players[0].guild.remove(pirate.FLEET)
    s.players[1].guild.append(pirate.FLEET)
    home = flagship_system(s, 0)
    ships_to(s, 1, home, 1)
    away = empty_system(s, (0, 1))
    ships_to(s, 0, away, 1)
    ships_to(s, 1, away, 1)
    turn(t, 1, "AGG3")
    assert not pirate.fleet_opens_raid_dice(s, 1, home, 0) and pirate.fleet_opens_raid_dice(s, 1, away, 0)
    refused(t, 1, Action("act", {"act": "battle", "system": home, "defender": 0, "raid": 1}))
    events = attack(t, 1, away, 0, raid=1)  # away from the Flagship the Fleet opens them
    rolled = [e for e in events if e.type == "roll"]
    assert rolled and [d["die"] for d in rolled[0].data["dice"]] == ["raid"]
    sound(t)
    sound(t)


def test_F1201_the_pirates_flagship_defends_with_its_setup_starports_BR_299_BR_303(monkeypatch):
    """F1201's starports in play (BR-299 Defense Array, BR-303 Tractor Beam): a Rival attacking
    the Pirate's Flagship may not collect raid dice (refused, state unchanged); its roll's
    intercept meets 1 hit per fresh defending ship plus 1 per fresh starport on the board (2)."""
    from plugins.flagships.rules import flagship_system
    from tests.blighted_reach.test_fate_pacifist import all_outlaws, rolls, ships_to, turn

    t = act_two_table()
    all_outlaws(t)
    s = t.state
    home = flagship_system(s, 0)
    ships_to(s, 1, home, 5)
    turn(t, 1, "AGG3")
    refused(t, 1, Action("act", {"act": "battle", "system": home, "defender": 0, "raid": 1}))
    fresh = t.state.systems[home].ships_of(0).fresh
    rolls(monkeypatch, [("assault", 4)])  # 1 hit, 1 intercept
    attack(t, 1, home, 0, assault=1)
    p = next(p for p in t.state.prompts if p.kind.endswith("ship_hits"))
    assert p.seat == 1 and p.args["owner"] == 1 and p.args["hits"] == fresh + 2
    sound(t)


# -- F1204 Pirate Act II Resolution --------------------------------------------------------------------


def resolution_state(complete_objective: bool):
    t = act_two_table()
    s = t.state
    s.card_resources[pirate.HOARD] = [take_from_supply(s, r) for r in ("fuel", "relic", "weapon")]
    return t, s


def pirate_act_ends(hoarded: tuple[str, ...], outrage: tuple[str, ...] = ()):
    """The Act II table in its last chapter, the Pirate (seat 0) at its objective's end (marker
    on 0), its Hoard holding `hoarded`; the chapter's last round is played, the Act ends and
    the Intermission's step A reaches the Pirate's Resolution."""
    from plugins.arcs.outrage import provoke_outrage
    from plugins.blighted_reach.rules_box import rules_box
    from tests.blighted_reach.test_worked_examples import last_round

    t = act_two_table()
    s = t.state
    s.chapter, s.objective_markers[0] = 3, 0
    for resource in outrage:
        provoke_outrage(rules_box(), s, 0, resource)
    s.card_resources[pirate.HOARD] = [take_from_supply(s, r) for r in hoarded]
    last_round(t, "ADM5", leader=0, others=("MOB3", "CON4"))
    return t


def hoard_answers(t, resource: str, kind: str, **where) -> list[Action]:
    return [a for a in t.legal(0) if a.type == "hoard_spend" and a.params["resource"] == resource
            and a.params["act"]["act"] == kind and all(a.params["act"].get(k) == v for k, v in where.items())]


def test_F1204_completed_spends_hoard_material_past_the_build_limit_and_fuel_then_keeps_the_rest_BR_328():
    """F1204 completed, steps 1-3 (BR-328): Pirate Smugglers gained, Call to Action and
    Silver-Tongues scrapped; the Hoard's two Materials build two ships at one starport (the
    once-per-starport limit ignored), its Fuel moves ships; Weapons are not spent; the
    Weapon left then goes into an empty slot; each spent token returns to the supply."""
    t = pirate_act_ends(("material", "material", "fuel", "weapon"))
    s = t.state
    assert [(p.seat, p.kind) for p in s.prompts] == [(0, "hoard_spend")]
    assert "F1205" in s.players[0].guild and {"F1206", "F1207"} <= set(s.scrapped)
    assert not any(a.params.get("resource") == "weapon" for a in t.legal(0))
    ship = next(a for a in hoard_answers(t, "material", "build", what="ship") if a.params["act"]["slot"] < 0)
    system = ship.params["act"]["system"]
    ships = s.systems[system].ships_of(0).total
    supply = dict(s.supply)
    t.act(0, ship)
    s = t.state
    assert s.systems[system].ships_of(0).total == ships + 1 and s.turn is None
    again = hoard_answers(t, "material", "build", what="ship", system=system)
    assert again, "the second Material builds at the same starport: the build limit is ignored"
    t.act(0, again[0])
    s = t.state
    assert s.systems[system].ships_of(0).total == ships + 2
    player = s.players[0]
    empty = [i for i in open_slots(BOX, player) if player.resources[i] is None]
    move = hoard_answers(t, "fuel", "move")[0]
    origin = move.params["act"]["origin"]
    before = s.systems[origin].ships_of(0).total
    t.act(0, move)  # the last token it may spend: what is left is kept at once, nothing asked
    s = t.state
    assert s.systems[origin].ships_of(0).total == before - move.params["act"]["fresh"] - move.params["act"]["damaged"]
    assert s.supply["material"] == supply["material"] + 2 and s.supply["fuel"] == supply["fuel"] + 1
    assert pirate.HOARD not in s.card_resources
    assert ("weapon" in s.players[0].resources) == bool(empty)
    assert not any(p.kind == "hoard_spend" for p in s.prompts) and "resolve_fate" in s.intermission_done
    sound(t)


def test_F1204_the_pirate_may_keep_its_hoard_without_spending_it_BR_328():
    """Keeping at once: the tokens go into the empty slots, the rest to the supply."""
    t = pirate_act_ends(("material", "relic"))
    player = t.state.players[0]
    slot = open_slots(BOX, player)[-1]  # one open slot emptied (its token back to the supply)
    t.state.supply[player.resources[slot]] += 1
    player.resources[slot] = None
    supply = dict(t.state.supply)
    t.act(0, Action("hoard_done", {}))
    s = t.state
    assert pirate.HOARD not in s.card_resources and not any(p.kind == "hoard_spend" for p in s.prompts)
    assert s.players[0].resources[slot] == "material"  # the first token fits, the other goes back
    assert s.supply["relic"] == supply["relic"] + 1 and s.supply["material"] == supply["material"]
    sound(t)


def test_F1204_a_spend_not_listed_is_refused_and_outrage_bars_its_type_BR_328_ARCS_217():
    """A spend the rules do not allow (a ship where the Pirate has no starport, a Weapon) is
    refused and changes nothing; Outrage in Fuel bars the Fuel's move (ARCS-217)."""
    t = pirate_act_ends(("material", "fuel"), outrage=("fuel",))  # its agent on the Outrage slot
    assert not hoard_answers(t, "fuel", "move")
    ships_at = {a.params["act"]["system"] for a in hoard_answers(t, "material", "build", what="ship")}
    elsewhere = next(x for x in sorted(t.state.systems) if x not in ships_at)
    refused(t, 0, Action("hoard_spend", {"resource": "material", "act": {"act": "build", "system": elsewhere,
                                                                         "what": "ship"}}))
    refused(t, 0, Action("hoard_spend", {"resource": "weapon", "act": {"act": "build", "system": elsewhere,
                                                                       "what": "ship"}}))
    sound(t)


def test_F1204_failed_sends_its_cards_to_the_court_deck_and_the_hoard_to_the_supply_BR_328():
    from plugins.blighted_reach.fate_steps import run_side

    t, s = resolution_state(False)
    supply = dict(s.supply)
    run_side(ctx(s), CBOX, 0, PIRATE, "F1204", "failure")
    assert "F1203" not in s.players[0].guild
    assert {"F1203", "F1205", "F1206", "F1207"} <= set(s.court_deck)
    assert pirate.HOARD not in s.card_resources
    assert s.supply["fuel"] == supply["fuel"] + 1 and s.supply["relic"] == supply["relic"] + 1
    sound(t)


# -- Act III: the Pirate kept (F1205 Pirate Smugglers) ---------------------------------------------


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True, rumors=None,
                    setup: bool = True):
    """The Act III table after an Act II with the Pirate at `seat`, every objective completed
    (each seat keeps its Fate: the Pirate gains Pirate Smugglers at its Resolution); with
    `completed` False the Pirate's failed (it takes an A Fate; F1203, F1205-F1207 go to the
    Court deck)."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    t = create_table(GAME, players, seed=seed, campaign=campaign)
    if setup:
        finish_setup(t, rumors=rumors)
    return t


def rival_city(state, owner: int) -> tuple[str, int]:
    """A system holding a city of `owner`'s, and that city's index."""
    for system in sorted(state.systems):
        for i, b in enumerate(state.systems[system].buildings):
            if b.owner == owner and b.kind == "city":
                return system, i
    raise AssertionError("no such city")


def test_F1205_pirate_smugglers_tax_a_rival_city_with_one_ship_without_control_and_capture_nobody():
    """F1205 (beside ARCS-137): the Smugglers' holder, with 1 ship where the Rival
    outnumbers it (no control), taxes the Rival's city: it gains the city's resource and
    takes no Captive. Refused (state unchanged): a Rival city where the holder has no ship,
    and, with the card gone, a Rival city it has a ship at but does not control."""
    from tests.blighted_reach.test_fate_pacifist import all_outlaws, ships_to, turn
    from plugins.blighted_reach.board import controller

    t = act_three_table()
    s = t.state
    assert pirate.SMUGGLERS in s.players[0].guild
    all_outlaws(t)
    system, city = rival_city(s, 1)
    ships_to(s, 0, system, 1)
    ships_to(s, 1, system, 3)
    other, other_city = rival_city(s, 2)
    assert controller(s, system) != 0 and other != system and not s.systems[other].ships_of(0).total
    turn(t, 0, "ADM4")
    refused(t, 0, Action("act", {"act": "tax", "system": other, "building": other_city}))
    s = t.state
    captives, agents = list(s.players[0].captives), s.players[1].agents
    resource = BOX.systems[system].type
    events = t.act(0, Action("act", {"act": "tax", "system": system, "building": city}))
    taxed = next(e for e in events if e.type == "taxed")
    assert taxed.data["resource"] == resource and taxed.data["captive"] is None
    s = t.state
    assert s.players[0].captives == captives and s.players[1].agents == agents
    sound(t)
    s.players[0].guild.remove(pirate.SMUGGLERS)
    s.court_deck.append(pirate.SMUGGLERS)  # out of the Pirate's hands (to the Court deck's bottom)
    ships_to(s, 0, other, 1)
    ships_to(s, 2, other, 3)
    refused(t, 0, Action("act", {"act": "tax", "system": other, "building": other_city}))


# -- F1206 Call to Action, F1207 Silver-Tongues ----------------------------------------------------------


def test_F1206_crisis_the_seat_with_most_resources_draws_the_bottom_action_card():
    """F1206 Crisis: the seat with strictly the most resources (BR-322's count) draws the
    action discard's bottom card; a tie for the most draws nothing."""
    from plugins.blighted_reach.crises import CrisisCall

    state = end_act(act_one(A_FATES[:3], 3))
    for seat in range(3):
        for i, r in enumerate(state.players[seat].resources):
            if r:
                state.supply[r] += 1
                state.players[seat].resources[i] = None
    state.trust = []
    state.players[2].resources[0] = take_from_supply(state, "fuel")
    state.action_discard = ["ADM9", "MOB2"]
    effect = next(e for e in CBOX.effects_of("F1206") if e.when == "crisis")
    call = CrisisCall(box=BOX, cbox=CBOX, state=state, card="F1206", holder=-1, dice=None, effect=effect)
    out = pirate.FATE_CRISIS_HANDLERS["most_resources_draws_bottom_action"].apply(call)
    assert out["seat"] == 2 and out["drawn"] == "ADM9" and state.hands[2][-1] == "ADM9"
    assert out["private_to"] == [2] and "ADM9" not in str(out["public_part"])  # the drawer's alone
    assert state.action_discard == ["MOB2"]
    state.players[1].resources[0] = take_from_supply(state, "relic")
    assert pirate.most_resources(state) == -1
    out = pirate.FATE_CRISIS_HANDLERS["most_resources_draws_bottom_action"].apply(call)
    assert out["seat"] == -1 and state.action_discard == ["MOB2"]


def test_F1206_when_secured_draws_the_bottom_action_card_and_discards_itself():
    """F1206 secured with a Secure action (the Pirate failed Act II, so the card is in the
    Court): its securer draws the action discard pile's bottom card and the card goes to the
    Court discard; securing with too few agents is refused, state unchanged."""
    from tests.blighted_reach.empire_fate_tables import put_agent, to_court
    from tests.blighted_reach.test_fate_pacifist import turn

    t = act_three_table(completed=False)
    s = t.state
    assert "F1206" in s.court_deck and s.fates[0] != PIRATE
    s.court_deck.remove("F1206")
    to_court(t, "F1206")
    turn(t, 1, "AGG3")
    refused(t, 1, Action("act", {"act": "secure", "card": "F1206"}))
    put_agent(t, 1, "F1206", 2)
    s = t.state
    assert s.action_discard
    bottom, hand = s.action_discard[0], len(s.hands[1])
    t.act(1, Action("act", {"act": "secure", "card": "F1206"}))
    s = t.state
    assert s.hands[1][-1] == bottom and len(s.hands[1]) == hand + 1 and "F1206" in s.court_discard
    sound(t)


def test_F1207_silver_tongues_is_the_base_cards_prelude_steal():
    """F1207 reprints Silver-Tongues (BC20): its Prelude discards it to steal a Guild card or a
    resource, by the base op."""
    from plugins.blighted_reach.rules_box import rules_box

    from plugins.arcs.content import default_box as base_box

    box = rules_box()
    assert [a.do for a in box.court["F1207"].abilities] == [a.do for a in base_box().court["BC20"].abilities]
    assert box.court["F1207"].suit == "psionic"


# -- Act III: the Rumors of the Haven (F1208-F1212) -------------------------------------------------

RUMORS = [("5.1", "cluster"), ("2.3", "symbol"), ("4.2", "false"), ("6.1", "false")]  # the Haven: 5.3
HAVEN = "5.3"


def rumor_table():
    """Act III with the Pirate (seat 0) kept, its Rumors placed as RUMORS; everyone an Outlaw."""
    from tests.blighted_reach.test_fate_pacifist import all_outlaws

    t = act_three_table(rumors=RUMORS)
    all_outlaws(t)
    return t


def faces_seen(t, viewer) -> dict:
    return {r["planet"]: r["face"] for r in t.view(viewer)["rumors"]}


def test_F1208_setup_places_four_rumors_face_down_seen_by_the_pirate_alone_BR_066():
    """F1208 (BR-066, a Fate's setup card): Rumors Spread x2 go into the Court deck, Rumors of
    the Haven and Sharing Rumors into the booklet, and the Pirate places the four Rumor
    tokens, a planet and a face at a time. HIDDEN: neither the other seats nor a spectator
    see a face, in the view or in any event (only where the tokens lie); the Pirate sees
    all four. Refused (state unchanged): a planet already holding a Rumor, and a face none
    of whose tokens is left."""
    from core.engine import view_events

    t = act_three_table(setup=False)
    s = t.state
    assert "F1209" in s.court_deck and "F1210" in s.court_deck
    assert ["F1211"] in s.booklet and ["F1212"] in s.booklet
    events = []
    for i, (planet, face) in enumerate(RUMORS):
        if i == 1:
            refused(t, 0, Action("place_rumor", {"planet": RUMORS[0][0], "face": "symbol"}))
            refused(t, 0, Action("place_rumor", {"planet": planet, "face": "cluster"}))
        events += t.act(0, Action("place_rumor", {"planet": planet, "face": face}))
    finish_setup(t)
    s = t.state
    assert s.rumors == dict(RUMORS) and rumors.haven(BOX, s) == HAVEN
    assert faces_seen(t, 0) == dict(RUMORS)
    for viewer in (1, 2, None):
        assert faces_seen(t, viewer) == {p: "" for p, _ in RUMORS}
        whole = msgspec.json.encode(t.view(viewer)).decode()
        assert not any(f'"{planet}":"{face}"' in whole for planet, face in RUMORS)  # no planet -> face map
        seen = msgspec.json.encode(view_events(events, viewer)).decode()
        assert all(f'"{face}"' not in seen for face in ("cluster", "symbol", "false")), seen
        assert all(planet in seen for planet, _ in RUMORS)
    mine = msgspec.json.encode(view_events(events, 0)).decode()
    assert '"cluster"' in mine and '"symbol"' in mine
    sound(t)


def hoard_of(state, *resources) -> None:
    """Resources from the supply onto the Pirate Hoard."""
    for r in resources:
        state.card_resources.setdefault(pirate.HOARD, []).append(take_from_supply(state, r))


def test_F1208_grand_ambitions_need_two_hoard_resources_and_the_havens_system():
    """F1208B (its two grand ambitions): with 2 resources on the Hoard and a Loyal ship alone
    at the Haven both goals hold; a Rival ship there takes the first away; with 1 resource
    on the Hoard neither holds."""
    from tests.blighted_reach.test_fate_pacifist import ships_to

    t = rumor_table()
    s = t.state
    here = s.systems[HAVEN]
    for seat in (1, 2):
        if here.ships_of(seat).total:
            s.players[seat].ships += here.ships[seat].total
            here.ships[seat] = type(here.ships[seat])()
    assert not any(b.owner in (1, 2) for b in here.buildings)
    ships_to(s, 0, HAVEN, 1)
    hoard_of(s, "fuel", "relic")
    assert objectives.goals_fulfilled(BOX, CBOX, s, 0) == 2
    ships_to(s, 1, HAVEN, 1)
    assert objectives.goals_fulfilled(BOX, CBOX, s, 0) == 1
    s.supply[s.card_resources[pirate.HOARD].pop()] += 1  # one Hoard token back to the supply
    assert objectives.goals_fulfilled(BOX, CBOX, s, 0) == 0
    sound(t)


def run_steps(t, steps) -> None:
    """The flow steps run now on the table (as the chapter's end would run them)."""
    s = t.state
    s.prompts, s.stack = [], []
    run_ctx = Ctx(s, t.rules)
    run_ctx.push(round_start)  # a round follows, so the flow has work left after them
    run_ctx.push_all(steps)
    run(run_ctx)


def test_F1208_at_the_end_of_act_three_a_rival_naming_the_haven_gains_10_and_the_pirate_loses_10():
    """F1208B at the Act's end: in turn order each Rival may name a planet it controls; seat 1
    controls the Haven and names it: +10 Power to it, -10 to the Pirate; the True Rumors turn
    face up for all. Naming a planet it does not control is refused (state unchanged)."""
    from plugins.blighted_reach.board import controls_for_scoring
    from tests.blighted_reach.test_fate_pacifist import ships_to

    t = rumor_table()
    s = t.state
    ships_to(s, 1, HAVEN, 4)
    assert controls_for_scoring(s, 1, HAVEN)
    s.chapter = objectives.chapters_in_act(CBOX, 3)  # the last chapter: the Act ends after it
    for seat in range(3):
        s.players[seat].power = 15
    run_steps(t, rumors.haven_guess_steps(s))
    asked = []
    while (p := next((p for p in t.state.prompts if p.kind == "guess_haven"), None)) is not None:
        asked.append(p.seat)
        if p.seat == 1:
            refused(t, 1, Action("guess_haven", {"planet": "4.2"}))
            t.act(1, Action("guess_haven", {"planet": HAVEN}))
        else:
            t.act(p.seat, Action("guess_haven", {"planet": ""}))
    s = t.state
    assert 1 in asked and 0 not in asked  # only Rivals guess (a seat controlling nothing names none at once)
    assert [p.power for p in s.players] == [5, 25, 15]
    assert sorted(s.rumors_up) == ["2.3", "5.1"] and faces_seen(t, 2)["5.1"] == "cluster"
    sound(t)


def test_F1208_nobody_naming_the_haven_gives_the_pirate_10():
    """F1208B: when no Rival names the Haven (each names another planet it controls, or none)
    the Pirate gains 10 Power."""

    t = rumor_table()
    s = t.state
    s.chapter = objectives.chapters_in_act(CBOX, 3)  # the last chapter: the Act ends after it
    power = [p.power for p in s.players]
    run_steps(t, rumors.haven_guess_steps(s))
    while (p := next((p for p in t.state.prompts if p.kind == "guess_haven"), None)) is not None:
        named = [a for a in p.options if a.params["planet"] not in ("", HAVEN)]
        t.act(p.seat, (named or p.options)[0])
    s = t.state
    assert s.players[0].power == power[0] + 10 and [p.power for p in s.players][1:] == power[1:]
    sound(t)


def rumors_to_court(t, card: str) -> None:
    from tests.blighted_reach.empire_fate_tables import to_court

    t.state.court_deck.remove(card)
    to_court(t, card)


def test_F1209_rumors_spread_crisis_flips_the_rolled_clusters_rumors_and_sends_their_agents_home():
    """F1209's Crisis (an Event's roll, cluster 5): the Rumor at 5.1 turns face up for all,
    seat 1's agent on it goes home, and the card is discarded; with cluster 3 rolled (no
    Rumor) nothing flips and the card stays in the Court."""
    from tests.blighted_reach.empire_fate_tables import place_tokens, resolve_crises

    t = rumor_table()
    rumors_to_court(t, "F1209")
    rumors.place_agent_on_rumor(t.state, 1, "5.1")
    agents = t.state.players[1].agents
    resolve_crises(t, number=3, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert "F1209" in s.court_row and s.rumors_up == [] and s.rumor_agents == {"5.1": [1]}
    resolve_crises(t, number=5, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert s.rumors_up == ["5.1"] and s.rumor_agents == {} and s.players[1].agents == agents + 1
    assert "F1209" in s.court_discard and faces_seen(t, None)["5.1"] == "cluster"
    sound(t)


def test_F1210_rumors_spread_when_secured_places_an_agent_where_the_securer_has_loyal_pieces():
    """F1210 (F1209 reprinted) secured: the securer puts an agent on the Rumor at a planet
    holding its Loyal ship and from then on sees its face (F1211's peeking); the card is
    discarded. A Rumor where it has no Loyal piece is refused (state unchanged)."""
    from tests.blighted_reach.empire_fate_tables import put_agent
    from tests.blighted_reach.test_fate_pacifist import ships_to, turn

    t = rumor_table()
    assert CBOX.effects_of("F1210") == CBOX.effects_of("F1209")
    rumors_to_court(t, "F1210")
    s = t.state
    ships_to(s, 1, "2.3", 1)
    assert not any(b.owner == 1 for b in s.systems["6.1"].buildings) and not s.systems["6.1"].ships_of(1).total
    turn(t, 1, "AGG3")
    put_agent(t, 1, "F1210", 2)
    t.act(1, Action("act", {"act": "secure", "card": "F1210"}))
    assert faces_seen(t, 1)["2.3"] == ""
    offered = [a.params["params"]["planet"] for a in options(t, 1)]
    assert offered == ["", "2.3"]  # declining, or the one Rumor where seat 1 has a Loyal piece
    refused(t, 1, Action("use_ability", {"card": "F1210", "index": 1, "params": {"planet": "6.1"}}))
    t.act(1, Action("use_ability", {"card": "F1210", "index": 1, "params": {"planet": "2.3"}}))
    s = t.state
    assert s.rumor_agents == {"2.3": [1]} and "F1210" in s.court_discard
    assert faces_seen(t, 1)["2.3"] == "symbol" and faces_seen(t, 2)["2.3"] == ""
    sound(t)


def test_F1211_stealing_from_the_pirate_in_battle_lets_the_thief_put_an_agent_on_a_rumor(monkeypatch):
    """F1211 (in the booklet): seat 1 attacks the Pirate where it has a starport, steals a
    resource with its keys; once the raid is over it may put 1 agent on a Rumor without its
    own agent, and then sees that Rumor's face (seat 2 still does not). A planet with no
    Rumor is refused (state unchanged)."""
    from tests.blighted_reach.empire_fate_tables import place_tokens
    from tests.blighted_reach.test_fate_pacifist import empty_system, rolls, ships_to, starport_to, turn

    t = rumor_table()
    s = t.state
    system = empty_system(s, (0, 1))
    starport_to(s, 0, system)
    ships_to(s, 0, system, 1)
    ships_to(s, 1, system, 3)
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 1), ("raid", 1)])  # 2 keys, 2 self-hits
    agents = s.players[1].agents
    attack(t, 1, system, 0, raid=2)
    assign_hits(t)
    steal = next(a for a in options(t, 1) if a.type == "steal" and "slot" in a.params)
    t.act(1, steal)
    place_tokens(t)
    while any(p.kind == "raid" for p in t.state.prompts):
        t.act(1, Action("steal", {}))
    prompt = next(p for p in t.state.prompts if p.kind == "agent_on_rumor")
    assert prompt.seat == 1 and [a.params["planet"] for a in prompt.options] == ["", *sorted(dict(RUMORS))]
    refused(t, 1, Action("agent_on_rumor", {"planet": "3.3"}))
    t.act(1, Action("agent_on_rumor", {"planet": "5.1"}))
    s = t.state
    assert s.rumor_agents == {"5.1": [1]} and s.players[1].agents == agents - 1 and s.battle is None
    assert faces_seen(t, 1)["5.1"] == "cluster" and faces_seen(t, 2)["5.1"] == ""
    sound(t)


def test_F1212_share_rumor_in_negotiations_lets_another_rival_peek_with_consent_BR_198():
    """F1212 (in the booklet), BR-198 (a deal needs the consent of those it affects): seat 1,
    whose agent is on the Rumor at 4.2, proposes Share Rumor to seat 2; seat 2 consents, its
    agent joins the Rumor and it sees the face. Sharing with the Pirate is refused (state
    unchanged): only the Pirate's Rivals share."""
    from tests.blighted_reach.empire_fate_tables import prompt_of
    from tests.blighted_reach.test_fate_pacifist import summit

    t = rumor_table()
    rumors.place_agent_on_rumor(t.state, 1, "4.2")
    summit(t)
    while (p := prompt_of(t, "br.negotiate")) is not None and p.seat != 1:
        t.act(p.seat, Action("negotiate", {"move": "done"}))
    share = {"kind": "share_rumor", "giver": 1, "receiver": 2, "planet": "4.2"}
    assert Action("negotiate", {"move": "propose", "parts": [share]}) in options(t, 1)
    refused(t, 1, Action("negotiate", {"move": "propose", "parts": [{**share, "receiver": 0}]}))
    assert faces_seen(t, 2)["4.2"] == ""
    t.act(1, Action("negotiate", {"move": "propose", "parts": [share]}))
    consent = prompt_of(t, "consent")
    assert consent.seat == 2
    t.act(2, Action("consent", {"proposal": consent.group, "accept": True}))
    s = t.state
    assert s.rumor_agents == {"4.2": [1, 2]} and faces_seen(t, 2)["4.2"] == "false"
    assert faces_seen(t, None)["4.2"] == ""
    sound(t)


# -- bots play the Pirate ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,seed", [(3, 3), (2, 5)])
def test_bots_play_act_two_with_the_pirate_to_its_end(players, seed):
    """Random bots play an Act II where seat 0 took the Pirate, from its setup (the Flagship
    placed by the bot) to the Act's end, with the invariants checked after every action."""
    from tests.blighted_reach.flow_helpers import play_out

    t = act_two_table(players=players, seed=seed, place=False)
    assert t.state.fates[0] == PIRATE
    actions = play_out(t, seed)
    assert actions > 0 and t.state.finished
    assert t.state.fate_results[0] in ("completed", "failed")  # its Resolution ran at Intermission A


def pirate_campaign(players: int, seed: int, seat: int) -> tuple[int, int]:
    """Act II with the Pirate at `seat` (its marker arranged on 0, so it completes and keeps
    its Fate and Flagship), bots to the Act's end; then Act III from the saved log sheet, bots
    to the campaign's end; invariants after every action. Returns each Act's actions."""
    from tests.blighted_reach.flow_helpers import acts_two_and_three

    t = act_two_table(players, seed, seat)
    t.state.objective_markers[seat] = 0

    def kept(third_table):
        assert third_table.state.fates[seat] == PIRATE and board_of(third_table.state, seat) is not None

    return acts_two_and_three(t, seed, seat, PIRATE, kept)


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_the_pirate_through_acts_two_and_three(players, seed, seat):
    """Bots play the Pirate's Act II and, kept (with its Flagship), its Act III: 0 errors,
    the invariants after every action."""
    second, third = pirate_campaign(players, seed, seat)
    assert second > 0 and third > 0


def test_F1201_a_pirate_that_has_a_flagship_already_keeps_it_and_the_setup_goes_on_BR_265():
    """With the Flagships module a seat has its Flagship from Act I: "you gain a Flagship"
    gives nothing new (granting a second is refused by the Flagship rules); the rest of the
    setup (its starports, the fleet) runs at once, nothing asked."""
    from plugins.blighted_reach import fate_flagship
    from tests.blighted_reach.campaign_tables import ctx as flow_ctx

    t = act_two_table()
    s = t.state
    before = board_of(s, 0)
    assert before is not None
    c = flow_ctx(s)
    prompts = len(s.prompts)
    fate_flagship.grant_then(c, 0, "F1201", pirate.flagship_setup_rest)
    assert board_of(s, 0).system == before.system and len(s.prompts) == prompts
    assert any(e.type == "flagship_starports" for e in c.events) and not any(e.type == "flagship_granted" for e in c.events)
