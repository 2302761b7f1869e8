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
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import (
    new_round, place_tokens, prompt_of, resolve_crises, resolve_edicts, resolve_fates,
)
from tests.blighted_reach.flow_helpers import GAME, KeepFateBot, acts_two_and_three, options, play_checked

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
    return b_fate_intermission(state, seat, PACIFIST)


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, start: int = 20, replenish: bool = True):
    """The Act II table with the Pacifist at `seat` (its Setup side run: `replenish` answers
    the fleet's prompts with the first system offered each time)."""
    state = end_act(act_one(A_FATES[:players], seed))
    pacifist_intermission(state, seat)
    return _table_from(state, players, seed, start, replenish)


def _table_from(state, players: int, seed: int, start: int, replenish: bool, modules: list[str] | None = None):
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": [], **({"modules": list(modules)} if modules else {})}
    t = create_table(GAME, players, seed=seed, modules=modules, campaign=campaign)
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
    state = end_act(act_one(A_FATES[:3], 3))
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


def score_now(t) -> list:
    """The chapter's end as the round's end reaches it (objectives, ambitions, Act III's grand
    ambitions); its events."""
    from core.flow import Ctx, run
    from plugins.arcs.rounds import chapter_end

    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    run_ctx = Ctx(s, t.rules)
    run_ctx.push(chapter_end)
    run(run_ctx)
    return list(run_ctx.events)


def take_trophy(state, holder: int, owner: int) -> None:
    """A ship of `owner` from its supply becomes the holder's Trophy."""
    from plugins.arcs.state import Trophy

    state.players[owner].ships -= 1
    state.players[holder].trophies.append(Trophy(owner=owner, kind="ship"))


def take_captive(state, holder: int, owner: int) -> None:
    state.players[owner].agents -= 1
    state.players[holder].captives.append(owner)


def advanced(events, seat: int) -> int:
    return sum(e.data["spaces"] for e in events if e.type == "objective_advanced" and e.data["seat"] == seat)


@pytest.mark.parametrize("trophy, captive, spaces", [(False, False, 3), (True, False, 1), (True, True, 0)])
def test_F1401_commit_to_pacifism_advances_at_chapter_end_BR_097(trophy, captive, spaces):
    """BR-097 (advances at a chapter's end), played through the chapter's end: 2 spaces with
    no Trophies, 1 with no Captives; a Trophy held stops the first, a Captive the second."""
    t = act_two_table()
    s = t.state
    if trophy:
        take_trophy(s, 0, 1)
    if captive:
        take_captive(s, 0, 2)
    start = s.objective_markers[0]
    events = score_now(t)
    assert advanced(events, 0) == spaces and t.state.objective_markers[0] == start - spaces
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


def follow_uses(t, seat: int = 0) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "use_ability" and a.params.get("card") == "F1402"]


def test_F1402_witnesses_move_along_with_the_holders_ships():
    """After the Pacifist moves ships out of a system holding a Witness, the Witness may go
    along to where they ended (the "move" window); a system the ships did not reach is
    refused; once taken along, the window is spent."""
    t = act_two_table()
    s = t.state
    origin = next(w for w in sorted(s.witnesses) if s.systems[w].ships_of(0).total)
    turn(t, 0, "MOB3")
    move = next(a for a in options(t, 0) if a.params.get("act") == "move" and a.params["origin"] == origin
                and len(a.params["path"]) == 1)
    to = move.params["path"][0]
    t.act(0, move)
    uses = follow_uses(t)
    assert [u.params["params"] for u in uses] == [{"to": to, "count": 1}]
    elsewhere = next(x for x in sorted(t.state.systems) if x not in (origin, to))
    refused(t, 0, Action("use_ability", {"card": "F1402", "index": 1, "params": {"to": elsewhere, "count": 1}}))
    refused(t, 0, Action("use_ability", {"card": "F1402", "index": 1, "params": {"to": to, "count": 2}}))
    events = t.act(0, uses[0])
    s = t.state
    assert origin not in s.witnesses and s.witnesses[to] == 1
    assert any(e.type == "witnesses_moved" for e in events) and follow_uses(t) == []
    sound(t)


def test_F1402_a_catapult_move_drops_witnesses_at_any_of_its_stops():
    """A Catapult move from a Loyal starport, ships dropped on the way: the Witness that was
    at the origin may stop in the gate passed (a ship stayed there) or at the path's end."""
    t = act_two_table()
    s = t.state
    origin = next(x for x in sorted(s.systems) if s.systems[x].ships_of(0).fresh >= 2
                  and any(b.owner == 0 and b.kind == "starport" for b in s.systems[x].buildings))
    moved = next(w for w in sorted(s.witnesses) if w != origin)  # a Witness moved on earlier, as it may
    s.witnesses[moved] -= 1
    if not s.witnesses[moved]:
        del s.witnesses[moved]
    s.witnesses[origin] = s.witnesses.get(origin, 0) + 1
    turn(t, 0, "MOB3")
    catapult = next(a for a in options(t, 0) if a.params.get("act") == "move" and a.params["origin"] == origin
                    and len(a.params["path"]) == 2)
    gate, end = catapult.params["path"]
    t.act(0, Action("act", {**catapult.params, "fresh": 2, "drops": [[1, 0], [0, 0]]}))
    assert sorted(u.params["params"]["to"] for u in follow_uses(t)) == sorted([gate, end])
    t.act(0, Action("use_ability", {"card": "F1402", "index": 1, "params": {"to": gate, "count": 1}}))
    assert t.state.witnesses.get(gate) == 1
    sound(t)


# -- battles on arranged tables ---------------------------------------------------------------


def all_outlaws(t) -> None:
    """Every seat an Outlaw: no Truce Law in the way of the battles arranged here."""
    from plugins.blighted_reach import empire

    for seat in range(len(t.state.players)):
        if t.state.titles[seat] != "outlaw":
            empire.become_outlaw(t.state, seat)


def ships_to(state, seat: int, system: str, fresh: int) -> None:
    """Fresh ships from the seat's supply into the system."""
    assert state.players[seat].ships >= fresh
    state.players[seat].ships -= fresh
    here = state.systems[system]
    while len(here.ships) <= seat:
        from plugins.arcs.state import Ships

        here.ships.append(Ships())
    here.ships[seat].fresh += fresh


def starport_to(state, seat: int, system: str) -> None:
    """A starport from the seat's supply onto the planet (raid dice need a defending building)."""
    from plugins.arcs.state import Building

    state.players[seat].starports -= 1
    state.systems[system].buildings.append(Building(kind="starport", owner=seat))


def empty_system(state, seats, kind: str | None = None) -> str:
    """A planet (of that type, if named) where no seat has a piece and there is no Imperial
    ship or Free building (Blight may be there: nobody battles it here)."""
    for system in sorted(state.systems):
        spec = BOX.systems.get(system)
        if spec is None or spec.type is None or (kind and spec.type != kind):
            continue
        here = state.systems[system]
        if (any(here.ships_of(x).total for x in range(len(state.players))) or here.buildings
                or system in state.imperial):
            continue
        return system
    raise AssertionError("no such planet")


def turn(t, seat: int, card: str) -> None:
    """A new round in which `seat` leads `card` declaring nothing (the others hold a card each)."""
    from tests.blighted_reach.flow_helpers import restart_round

    spare = iter(c for c in ("ADM6", "CON6", "MOB6", "AGG6", "ADM5", "CON5") if c != card)
    restart_round(t, [[card] if x == seat else [next(spare)] for x in range(len(t.state.players))],
                  initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if prompt_of(t, "declare") is not None:
        t.act(seat, Action("declare", {"ambition": ""}))


def rolls(monkeypatch, faces) -> None:
    """The battle roll shows these (die, face index) pairs: assault 5 blank; raid 5 an
    intercept, raid 2 a building hit and a key."""
    import core.chance

    def roll(ctx, seat, dice, which, why=""):
        ctx.emit("roll", seat=seat, why=why, dice=[{"die": d, "face": f} for d, f in faces])
        return list(faces)

    monkeypatch.setattr(core.chance, "roll", roll)


def battle(t, seat: int, system: str, defender: int, **dice):
    return t.act(seat, Action("act", {"act": "battle", "system": system, "defender": defender, **dice}))


def fill_row(state, seat: int, resource: str) -> None:
    """Every empty open slot of the seat filled from the supply."""
    for slot in open_slots(BOX, state.players[seat]):
        if state.players[seat].resources[slot] is None:
            from_supply(state, seat, resource, slot)


# -- F1403 Well of Empathy -----------------------------------------------------------------


def well_under_attack():
    """Act II, everyone an Outlaw: the Pacifist (seat 0, the Well's holder, no Psionic) has a
    starport and 2 ships where seat 1 has 1 ship. Returns (table, system)."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1))
    starport_to(s, 0, system)
    ships_to(s, 0, system, 2)
    ships_to(s, 1, system, 1)
    s.players[0].resources = [None if r == "psionic" else r for r in s.players[0].resources]
    s.supply["psionic"] = 5 + s.witness_psionic - sum(p.resources.count("psionic") for p in s.players)
    return t, system


def test_F1403_well_of_empathy_returns_trophies_taken_defending_as_psionic(monkeypatch):
    """A Rival attacks the Well's holder; the holder's intercept destroys the attacking ship,
    a Trophy for the defender: it goes back to its owner's supply and the holder gains 1
    Psionic for it instead (a real battle, dice fixed)."""
    t, system = well_under_attack()
    s = t.state
    turn(t, 1, "AGG3")
    supply_ships = t.state.players[1].ships
    rolls(monkeypatch, [("raid", 5)])
    battle(t, 1, system, 0, raid=1)
    while prompt_of(t, "ship_hits") is not None or prompt_of(t, "assign_hits") is not None:
        prompt = prompt_of(t, "ship_hits") or prompt_of(t, "assign_hits")
        t.act(prompt.seat, prompt.options[0])
    place_tokens(t)
    s = t.state
    assert s.systems[system].ships_of(1).total == 0
    assert s.players[0].trophies == [] and s.players[1].ships == supply_ships + 1
    assert s.players[0].resources.count("psionic") == 1
    sound(t)


def test_F1403_the_well_holds_the_psionic_its_holder_cannot_fit(monkeypatch):
    """With every slot full, the Psionic the Well gives cannot be placed: the holder keeps its
    row (the refused row discarding a held token changes nothing) and the Psionic stays on
    the Well of Empathy, counted as the holder's for Empath."""
    from plugins.arcs.scoring import ambition_count
    from plugins.blighted_reach.rules_box import rules_box

    t, system = well_under_attack()
    s = t.state
    fill_row(s, 0, "material")
    empath = ambition_count(rules_box(), s, s.players[0], "empath")
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 5)])
    battle(t, 1, system, 0, raid=1)
    while prompt_of(t, "ship_hits") is not None:
        t.act(1, prompt_of(t, "ship_hits").options[0])
    prompt = next(p for p in t.state.prompts if p.decision == "arcs.place_resources")
    row = list(t.state.players[0].resources)
    filled = [i for i, r in enumerate(row) if r is not None]
    number = prompt.args["number"]
    two_out = list(row)  # the Psionic kept but two Material out: fewer kept than fit
    two_out[filled[0]], two_out[filled[1]] = "psionic", None
    refused(t, 0, Action("place_resources", {"number": number, "slots": two_out}))
    t.act(0, Action("place_resources", {"number": number, "slots": row}))
    s = t.state
    assert s.card_resources == {"F1403": ["psionic"]} and s.players[0].resources == row
    assert ambition_count(rules_box(), s, s.players[0], "empath") == empath + 1
    sound(t)


def test_F1403_the_wells_psionic_is_raided_for_two_keys_each(monkeypatch):
    """A battle's raid takes a Psionic off the Well for 2 keys (the Well's Psionic arranged
    from the supply); with 1 key it is not offered."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1))
    starport_to(s, 0, system)
    ships_to(s, 1, system, 3)
    s.supply["psionic"] -= 1
    s.card_resources["F1403"] = ["psionic"]
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    battle(t, 1, system, 0, raid=2)
    prompt = prompt_of(t, "raid")
    assert Action("steal", {"well": "psionic"}) in prompt.options
    refused(t, 1, Action("steal", {"well": "relic"}))
    t.act(1, Action("steal", {"well": "psionic"}))
    place_tokens(t)
    s = t.state
    assert "F1403" not in s.card_resources and s.players[1].resources.count("psionic") >= 1
    assert prompt_of(t, "raid") is None  # both keys spent
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


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True):
    """The Act III table after an Act II with the Pacifist at `seat`: every objective
    completed (the Pacifist keeps its Fate and plays its Act III Setup side) or, with
    `completed` False, the Pacifist's failed (it takes an A Fate; F1405-F1407 go to the Court
    deck) and the others' completed."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    return _table_from(state, players, seed, 20, True)


def test_F1408_act_three_setup_puts_empathy_and_its_cards_in_the_booklet_BR_066():
    """BR-066 (an Act's Fate setup side): Empathy for All, Reconcile with the Outraged and
    Rebuke of the Empaths are in the booklet, the second Empathy for All tucked under the
    map; the Pacifist keeps Well of Empathy."""
    t = act_three_table()
    s = t.state
    assert s.act == 3 and s.fates[0] == PACIFIST
    booklet = [c for slot in s.booklet for c in slot]
    assert {"F1409", "F1411", "F1412"} <= set(booklet) and "F1410" in s.reminders
    assert "F1403" in s.players[0].lore
    sound(t)


@pytest.mark.parametrize("psionic_to, trophy, gained", [(1, False, 2), (0, False, 1), (1, True, 1)])
def test_F1408_demonstrate_nonviolence_scores_its_grand_ambitions_BR_099_BR_100(psionic_to, trophy, gained):
    """BR-099, BR-100 (grand ambitions score at a chapter's end, one goal its lower value,
    both its higher): no Trophies
    or Captives, and Rivals holding more Psionic in total than the Pacifist: each met is a
    grand ambition fulfilled (its Power), played through the chapter's end."""
    t = act_three_table()
    s = t.state
    for seat in range(3):
        s.players[seat].resources = [None if r == "psionic" else r for r in s.players[seat].resources]
    s.supply["psionic"] = 5 + s.witness_psionic - sum(p.resources.count("psionic") for p in s.players)
    if psionic_to:
        slot = next(i for i in open_slots(BOX, s.players[psionic_to]) if s.players[psionic_to].resources[i] is None)
        from_supply(s, psionic_to, "psionic", slot)
    if trophy:
        take_trophy(s, 0, 1)
    from plugins.blighted_reach import objectives

    power = objectives.grand_ambition_power(CBOX, s.chapter, gained)
    events = score_now(t)
    grand = next(e for e in events if e.type == "grand_ambitions")
    assert grand.data["power"].get("0", 0) == power
    sound(t)


def test_F1405_psionic_liaisons_prelude_attaches_it_and_declares_empath_BR_313_BR_314():
    """BR-313, BR-314: F1405 (F409 reprinted) in the Court deck after a failed Act II; held,
    its Prelude attaches it above a Court card with no agents and declares Empath; a card
    not in the Court is refused."""
    t = act_three_table(completed=False)
    s = t.state
    assert {"F1405", "F1406", "F1407"} <= set(s.court_deck + s.court_row)
    assert CBOX.effects_of("F1405") == CBOX.effects_of("F409")
    for where in (s.court_deck, s.court_row):
        if "F1405" in where:
            if where is s.court_row:
                pytest.skip("F1405 was dealt into this table's Court row")
            where.remove("F1405")
    s.players[1].guild.append("F1405")
    turn(t, 1, "CON2")
    host = next(c for c in t.state.court_row if c and not any(t.state.court_agents[c]) and c not in t.state.attached)
    refused(t, 1, Action("act", {"act": "ability", "card": "F1405", "index": 1, "params": {"card": "CC99"}}))
    t.act(1, Action("act", {"act": "ability", "card": "F1405", "index": 1, "params": {"card": host}}))
    s = t.state
    assert s.attached[host] == "F1405" and s.ambition_boxes.get("empath")
    sound(t)


def empaths_to_court(t, card: str) -> None:
    """The Vox card out of the Court deck into the Court row's last place (that card to the
    deck's top)."""
    from tests.blighted_reach.empire_fate_tables import to_court

    s = t.state
    if card in s.court_row:
        return
    s.court_deck.remove(card)
    to_court(t, card)


def test_F1406_itinerant_empaths_crisis_fills_the_least_powerful_players_slots_with_psionic():
    """The Crisis (an Event's roll): the player with the least Power gains Psionic up to its
    empty slots, and the card is discarded."""
    from plugins.blighted_reach.fate_caretaker import free_slots

    t = act_three_table(completed=False)
    s = t.state
    empaths_to_court(t, "F1406")
    for seat in range(3):
        s.players[seat].power = 5
    s.players[2].power = 1
    empty = free_slots(BOX, s, 2)
    held = s.players[2].resources.count("psionic")
    supply = s.supply["psionic"]
    resolve_crises(t, number=1, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert "F1406" in s.court_discard
    got = min(empty, supply)
    assert s.players[2].resources.count("psionic") == held + got and s.supply["psionic"] == supply - got
    sound(t)


def test_F1407_itinerant_empaths_when_secured_fills_the_securers_slots():
    """F1407 (F1406 reprinted) secured with a Secure action: Psionic up to the securer's
    empty slots from the supply (no theft), and the card is discarded; securing with too
    few agents is refused."""
    from plugins.blighted_reach.fate_caretaker import free_slots
    from tests.blighted_reach.empire_fate_tables import put_agent

    t = act_three_table(completed=False)
    assert CBOX.effects_of("F1407") == CBOX.effects_of("F1406")
    empaths_to_court(t, "F1407")
    turn(t, 1, "AGG3")
    refused(t, 1, Action("act", {"act": "secure", "card": "F1407"}))
    put_agent(t, 1, "F1407", 2)
    s = t.state
    empty = free_slots(BOX, s, 1)
    supply = s.supply["psionic"]
    held = s.players[1].resources.count("psionic")
    t.act(1, Action("act", {"act": "secure", "card": "F1407"}))
    place_tokens(t)
    s = t.state
    got = min(empty, supply)
    assert s.players[1].resources.count("psionic") == held + got and "F1407" in s.court_discard
    sound(t)


# -- F1409 / F1410 Empathy for All ------------------------------------------------------------


def battle_table(kind: str = "weapon"):
    """Act III with Empathy for All; everyone an Outlaw; seats 1 and 2 face each other on an
    empty planet of `kind`, seat 1 holding a Weapon."""
    t = act_three_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (1, 2), kind)
    ships_to(s, 1, system, 2)
    ships_to(s, 2, system, 1)
    starport_to(s, 2, system)
    s.players[1].resources = [None if r == "weapon" else r for r in s.players[1].resources]
    slot = next(i for i in open_slots(BOX, s.players[1]) if s.players[1].resources[i] is None)
    s.supply["weapon"] = 5 - sum(p.resources.count("weapon") for p in s.players) - s.trust.count("weapon")
    from_supply(s, 1, "weapon", slot)
    return t, system


def test_F1409_empathy_for_all_a_battle_at_a_planet_of_a_held_type_provokes_outrage_BR_323(monkeypatch):
    """BR-323 (choosing a defender is harm): the attacker holds a Weapon and battles at a Weapon
    planet: once the hits are dealt (none here) and before raiding, it Provokes Outrage of
    Weapons (its Weapon discarded, an agent on the slot)."""
    t, system = battle_table("weapon")
    turn(t, 1, "AGG3")
    agents = t.state.players[1].agents
    rolls(monkeypatch, [("assault", 5)])
    events = battle(t, 1, system, 2, assault=1)
    s = t.state
    assert "weapon" in s.players[1].outrage and "weapon" not in s.players[1].resources
    assert s.players[1].agents == agents - 1
    assert any(e.type == "outrage" and e.data.get("why") == "F1409" for e in events)
    sound(t)


def test_F1410_empathy_for_all_spares_a_planet_of_a_type_the_attacker_lacks(monkeypatch):
    """F1410 (the reminder, F1409's rule): a battle at a planet whose type the attacker holds
    none of Provokes nothing."""
    assert CBOX.effects_of("F1410") == CBOX.effects_of("F1409")
    t, system = battle_table("fuel")
    t.state.players[1].resources = [None if r == "fuel" else r for r in t.state.players[1].resources]
    t.state.supply["fuel"] = 5 - sum(p.resources.count("fuel") for p in t.state.players) - t.state.trust.count("fuel")
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("assault", 5)])
    battle(t, 1, system, 2, assault=1)
    assert t.state.players[1].outrage == []
    sound(t)


def test_F1409_empathy_for_all_harm_by_a_card_outside_battle_provokes_outrage_BR_323():
    """BR-323 (destroying is harm): seat 1's Freedom Fighters (F227) Incite Revolt destroys
    damaged Rival ships at a planet whose type seat 1 holds: after the action it Provokes
    Outrage of that type; a planet of another type would not."""
    from plugins.arcs.state import Building
    from plugins.blighted_reach.state import FREE

    t = act_three_table()
    assert "F227" in t.state.players[1].guild
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1, 2))
    kind = BOX.systems[system].type
    s.systems[system].buildings.append(Building(kind="city", owner=FREE))
    s.free_city_supply -= 1
    s.players[2].ships -= 1
    s.systems[system].ships[2].damaged += 1
    s.players[1].resources = [None if r == kind else r for r in s.players[1].resources]
    s.supply[kind] = 5 + (s.witness_psionic if kind == "psionic" else 0) - sum(
        p.resources.count(kind) for p in s.players) - s.trust.count(kind) - sum(
        r.count(kind) for r in s.card_resources.values())
    slot = next(i for i in open_slots(BOX, s.players[1]) if s.players[1].resources[i] is None)
    from_supply(s, 1, kind, slot)
    turn(t, 1, "AGG4")
    revolt = next(a for a in options(t, 1) if a.type == "act" and a.params.get("card") == "F227"
                  and a.params["params"]["system"] == system)
    events = t.act(1, revolt)
    s = t.state
    assert s.systems[system].ships_of(2).total == 0
    assert kind in s.players[1].outrage and kind not in s.players[1].resources
    assert any(e.type == "outrage" and e.data.get("why") == "F1409" and e.data.get("system") == system for e in events)
    sound(t)


# -- F1411 Reconcile with the Outraged ------------------------------------------------------


def outraged(t, seat: int, resource: str) -> None:
    from plugins.arcs.outrage import cover_outrage_slot

    cover_outrage_slot(t.state.players[seat], resource)


def summit(t, start: bool = True):
    """Seat 0 leads; seats 1 and 2 play Event cards; seat 0 calls the Summit (and starts
    Negotiations)."""
    from tests.blighted_reach.flow_helpers import restart_round

    restart_round(t, [["CON2", "ADM6"], ["EVENT", "MOB3"], ["EVENT", "AGG4"]], initiative=0)
    t.act(0, Action("lead", {"card": "CON2"}))
    if prompt_of(t, "declare") is not None:
        t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    for seat in (1, 2):
        t.act(seat, Action("play", {"card": "EVENT", "kind": "event"}))
        if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
            t.act(seat, Action("seize", {"card": ""}))
        t.act(seat, Action("act", {"act": "done"}))
    t.act(0, Action("call_summit", {"call": True}))
    if start:
        t.act(0, Action("call_to_order", {"kind": "start_negotiations"}))


def test_F1411_forgive_takes_a_rivals_outrage_as_a_favor_with_consent_BR_198():
    """BR-198 (a deal needs the consent of those it affects): in Negotiations seat 0 proposes
    to Forgive seat 1's Relic Outrage; seat 1 consents; the agent on that Outrage slot is
    now a Favor of seat 1's on seat 0's Fate card. Forgiving an Outrage seat 1 does not
    have is refused."""
    t = act_three_table()
    outraged(t, 1, "relic")
    summit(t)
    refused(t, 0, Action("negotiate", {"move": "propose",
                                       "parts": [{"kind": "forgive", "giver": 1, "receiver": 0, "resource": "fuel"}]}))
    t.act(0, Action("negotiate", {"move": "propose",
                                  "parts": [{"kind": "forgive", "giver": 1, "receiver": 0, "resource": "relic"}]}))
    consent = prompt_of(t, "consent")
    assert consent.seat == 1
    t.act(1, Action("consent", {"proposal": consent.group, "accept": True}))
    s = t.state
    assert s.players[1].outrage == [] and s.favors[0] == [1]
    sound(t)


def test_F1411_the_caller_forgives_without_consent_by_giving_a_psionic():
    """In the Call to Order the Summit's caller Forgives seat 1's Relic Outrage giving it a
    Psionic: no consent asked; the Favor is the caller's. A Rival with no Outrage cannot be
    forgiven."""
    t = act_three_table()
    s = t.state
    outraged(t, 1, "relic")
    if "psionic" not in s.players[0].resources:
        slot = next(i for i in open_slots(BOX, s.players[0]) if s.players[0].resources[i] is None)
        if s.supply["psionic"] == 0:
            pytest.skip("no Psionic left in this table's supply")
        from_supply(s, 0, "psionic", slot)
    summit(t, start=False)
    held = t.state.players[1].resources.count("psionic")
    mine = t.state.players[0].resources.count("psionic")
    prompt = prompt_of(t, "call_to_order")
    forgive = Action("call_to_order", {"kind": "forgive", "rival": 1, "resource": "relic", "return_favor": False})
    assert forgive in prompt.options
    refused(t, 0, Action("call_to_order", {"kind": "forgive", "rival": 2, "resource": "relic", "return_favor": False}))
    t.act(0, forgive)
    place_tokens(t)
    s = t.state
    assert s.players[1].outrage == [] and s.favors[0] == [1]
    assert s.players[1].resources.count("psionic") == held + 1 and s.players[0].resources.count("psionic") == mine - 1
    sound(t)


def test_F1411_forgive_is_no_negotiation_action_without_its_card_in_the_booklet():
    """In Act II (Reconcile with the Outraged not in the booklet) a Forgive proposal is
    refused, the table unchanged."""
    from plugins.blighted_reach.summits import NotTradeable

    t = act_two_table()
    outraged(t, 1, "relic")
    summit(t)
    refused(t, 0, Action("negotiate", {"move": "propose",
                                       "parts": [{"kind": "forgive", "giver": 1, "receiver": 0, "resource": "relic"}]}),
            NotTradeable)
    sound(t)


# -- F1412 Rebuke of the Empaths ----------------------------------------------------------


def edicts_until_rebuke(t) -> dict:
    """The Edicts resolved as the round's end does; the earlier Edicts' choices (another
    Fate's) answered with their first option, until the Rebuke has resolved. Its event."""
    events = resolve_edicts(t)
    for _ in range(10):
        found = next((e for e in events if e.type == "empaths_rebuke"), None)
        if found is not None:
            return found
        prompt = next(p for p in t.state.prompts if p.decision != "arcs.place_resources")
        events += t.act(prompt.seat, options(t, prompt.seat)[0])
    raise AssertionError("the Rebuke never resolved")


def test_F1412_rebuke_of_the_empaths_discards_outraged_types_and_gives_psionic():
    """Resolved with the Edicts (Empath declared): each player's resources of its Outraged
    types go to the supply, then 1 Psionic to each player without Psionic Outrage."""
    from plugins.arcs.court_ops import place_ambition_marker

    t = act_three_table()
    s = t.state
    for seat in range(3):
        s.players[seat].resources = [None if r == "psionic" else r for r in s.players[seat].resources]
    s.supply["psionic"] = 5 + s.witness_psionic - sum(p.resources.count("psionic") for p in s.players)
    outraged(t, 1, "psionic")
    slot = next(i for i in open_slots(BOX, s.players[1]) if s.players[1].resources[i] is None)
    from_supply(s, 1, "psionic", slot)
    place_ambition_marker(BOX, s, "empath")
    rebuke = edicts_until_rebuke(t)
    place_tokens(t)
    s = t.state
    assert rebuke.data["discarded"] == {"1": ["psionic"]} and sorted(rebuke.data["gained"]) == [0, 2]
    assert s.players[1].resources.count("psionic") == 0
    assert s.players[0].resources.count("psionic") == 1 and s.players[2].resources.count("psionic") == 1
    sound(t)


def test_F1412_without_empath_declared_the_rebuke_does_nothing():
    t = act_three_table()
    outraged(t, 1, "relic")
    rebuke = edicts_until_rebuke(t)
    assert rebuke.data["declared"] is False and rebuke.data["discarded"] == {} and rebuke.data["gained"] == []
    sound(t)


# -- bots ----------------------------------------------------------------------------------


def pacifist_campaign(players: int, seed: int, seat: int) -> tuple[int, int]:
    """Act II with the Pacifist at `seat` (its marker arranged one space from the end, so a
    chapter's end without Trophies completes it), bots to the Act's end (its Intermission
    keeping the Pacifist); then Act III from the saved log sheet, bots to the campaign's end.
    Returns the actions of each Act."""
    t = act_two_table(players, seed, seat)
    t.state.objective_markers[seat] = 1

    def kept(third_table):
        assert third_table.state.fates[seat] == PACIFIST

    def booked(third_table):  # its Setup side ran (another C Fate's may ask first)
        assert any("F1409" in slot for slot in third_table.state.booklet)

    return acts_two_and_three(t, seed, seat, PACIFIST, kept, booked)


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_the_pacifist_through_acts_two_and_three(players, seed, seat):
    second, third = pacifist_campaign(players, seed, seat)
    assert second > 0 and third > 0


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_an_act_two_with_the_pacifist(players, seed, seat):
    """The Pacifist's Act II as it starts (its marker where its data puts it), bots to the
    Act's end (its Intermission included), invariants after every action."""
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == PACIFIST
    assert play_checked(t, KeepFateBot(seed, seat, PACIFIST)) > 0
