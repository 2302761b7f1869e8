"""The Peacekeeper (FATE15, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving a seat the Peacekeeper, the Act II (and III) table created from the
packed log sheet. Each test names the card it plays (F15nn) and the checklist IDs it proves.
"""
from __future__ import annotations

import pytest

from core.state import Action
from plugins.arcs.setup import open_slots
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.blighted_reach.rules_box import rules_box
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import place_tokens, prompt_of, resolve_edicts, resolve_fates
from tests.blighted_reach.flow_helpers import KeepFateBot, acts_two_and_three, options, play_checked
from tests.blighted_reach.test_fate_pacifist import (
    A_FATES, _table_from, advanced, all_outlaws, battle, empty_system, from_supply, loyal_ships, refused, rolls,
    score_now, ships_to, sound, starport_to, summit, turn,
)

PEACEKEEPER = "FATE15"


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, start: int = 20, arrange=None):
    state = end_act(act_one(A_FATES[:players], seed))
    if arrange is not None:
        arrange(state)
    b_fate_intermission(state, seat, PEACEKEEPER)
    return _table_from(state, players, seed, start, True)


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True):
    """Act III after an Act II with the Peacekeeper at `seat` (completed: it keeps its Fate)."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    return _table_from(state, players, seed, 20, True)


def empty_slot(state, seat: int) -> int:
    return next(i for i in open_slots(BOX, state.players[seat]) if state.players[seat].resources[i] is None)


def weapons_to(state, seat: int, count: int) -> None:
    for _ in range(count):
        from_supply(state, seat, "weapon", empty_slot(state, seat))


# -- F1501 Peacekeeper Act II Setup ------------------------------------------------------------


def test_F1501_setup_clears_outrage_provokes_weapon_outrage_and_replenishes_BR_066():
    """BR-066 (an Act's Fate setup side): the Peacekeeper's Relic Outrage is cleared, then it
    Provokes Weapon Outrage (its Weapons discarded), gains Oath of Peace and Arsenal Keepers,
    stands 8 Loyal ships on the map; its marker starts on 16 (3 players)."""
    def arrange(state):
        p = state.players[0]
        p.outrage, p.agents = ["relic"], p.agents - 1
        if "weapon" not in p.resources:
            slot = next(i for i in open_slots(BOX, p) if p.resources[i] is None)
            state.supply["weapon"] -= 1
            p.resources[slot] = "weapon"

    t = act_two_table(arrange=arrange)
    s = t.state
    p = s.players[0]
    assert s.fates[0] == PEACEKEEPER and p.outrage == ["weapon"] and "weapon" not in p.resources
    assert "F1502" in p.lore and "F1503" in p.guild
    assert loyal_ships(s, 0) >= 8 and s.objective_markers[0] == 16
    sound(t)


def test_F1501_with_two_players_the_warlord_boxs_weapons_go_back_to_the_supply_BR_073():
    """BR-073 (the 2-player tokens on the ambition boxes): the Warlord box keeps no Weapon."""
    t = act_two_table(players=2)
    assert "weapon" not in t.state.ambition_tokens.get("warlord", [])
    sound(t)


def test_F1501_objective_advances_per_weapon_held_and_weapon_planet_controlled_BR_097():
    """BR-097 (advances at a chapter's end): 1 per Weapon the Peacekeeper has (one in a slot,
    one on Arsenal Keepers) and 1 per Weapon planet it controls (one more arranged)."""
    from plugins.blighted_reach import board
    from plugins.blighted_reach.fate_c import planets_of

    t = act_two_table()
    s = t.state
    weapons_to(s, 0, 1)
    s.supply["weapon"] -= 1
    s.card_resources["F1503"] = ["weapon"]
    system = empty_system(s, (0, 1, 2), kind="weapon")
    ships_to(s, 0, system, 1)
    controlled = sum(board.controls_for_scoring(s, 0, p) for p in planets_of(s, ("weapon",)))
    assert controlled >= 1
    start = s.objective_markers[0]
    events = score_now(t)
    assert advanced(events, 0) == 2 + controlled and t.state.objective_markers[0] == start - 2 - controlled
    sound(t)


# -- F1502 Oath of Peace -------------------------------------------------------------------------


def test_F1502_oath_of_peace_bars_declaring_warlord():
    """The Oath's holder leading a card is never offered Warlord; declaring it is refused."""
    from tests.blighted_reach.flow_helpers import restart_round

    t = act_two_table()
    restart_round(t, [["AGG4"], ["CON6"], ["MOB6"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    prompt = prompt_of(t, "declare")
    if prompt is not None:
        assert all(o.params.get("ambition") != "warlord" for o in prompt.options)
        refused(t, 0, Action("declare", {"ambition": "warlord"}))
    sound(t)


def test_F1502_oath_of_peace_returns_trophies_taken_in_battle(monkeypatch):
    """The Oath's holder destroys a Rival ship in a battle: the Trophy goes back to its owner."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1, 2))
    ships_to(s, 0, system, 2)
    ships_to(s, 1, system, 1)
    turn(t, 0, "AGG3")
    supply_ships = t.state.players[1].ships
    rolls(monkeypatch, [("assault", 0)])
    battle(t, 0, system, 1, assault=1)
    while prompt_of(t, "ship_hits") is not None or prompt_of(t, "assign_hits") is not None:
        prompt = prompt_of(t, "ship_hits") or prompt_of(t, "assign_hits")
        t.act(prompt.seat, prompt.options[0])
    place_tokens(t)
    s = t.state
    assert s.systems[system].ships_of(1).total == 0
    assert s.players[0].trophies == [] and s.players[1].ships == supply_ships + 1
    sound(t)


def test_F1502_oath_of_peace_gains_no_power_from_warlord_but_blight_trophies_stay():
    """Warlord declared; the Oath's holder leads it with Blight Trophies (those it keeps):
    it scores no Power, second place scores as usual."""
    from plugins.arcs.court_ops import place_ambition_marker
    from plugins.arcs.state import Trophy
    from plugins.blighted_reach.blight import BLIGHT
    from plugins.blighted_reach.invariants import BLIGHT_TROPHY

    t = act_two_table()
    s = t.state
    for _ in range(3):
        s.blight_supply -= 1
        s.players[0].trophies.append(Trophy(owner=BLIGHT, kind=BLIGHT_TROPHY))
    place_ambition_marker(BOX, s, "warlord")
    power = s.players[0].power
    events = score_now(t)
    scored = [e for e in events if e.type == "scored"]
    assert scored and t.state.players[0].power == power
    assert not any(e.type == "trophies_returned" for e in events)  # Blight Trophies are kept
    sound(t)


def test_F1502_oath_of_peace_first_regent_cannot_choose_the_war_policy():
    """As First Regent the Oath's holder is offered neither the War Policy nor its enforcing;
    choosing it is refused with nothing changed (the Edicts played)."""
    from plugins.blighted_reach import edicts
    from plugins.blighted_reach.content import default_box

    t = act_two_table()
    s = t.state
    from plugins.blighted_reach import empire

    if s.titles[0] != "regent":
        empire.become_regent(s, 0) if hasattr(empire, "become_regent") else pytest.skip("no regent helper")
    s.first_regent = 0
    slot = edicts.govern_slot(default_box(), s)
    war = next(c for c in s.booklet[slot] if edicts.policies(default_box())[c].name == "war")
    edicts.change_policy(default_box(), s, war)
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.empire_fate_tables import run_then_round

    run_then_round(t, event_flow.edicts_begin)
    prompt = prompt_of(t, "govern")
    assert prompt is not None and prompt.seat == 0
    assert {"enforce": True} not in [o.params for o in prompt.options]
    assert all(o.params.get("change") != war for o in prompt.options)
    refused(t, 0, Action("govern", {"enforce": True}))


AUTHORITY_CARDS = ["F124", "F125", "F126"]  # the Steward's Govern with Authority: War, Escalation, Peace


def authority_stack(t, top: str) -> None:
    """Govern with Authority in place of Govern the Imperial Reach (as the Steward's Act III
    Setup leaves the booklet), `top` its Policy; the cards come from the scrapped ones."""
    s = t.state
    for card in AUTHORITY_CARDS:
        s.scrapped.remove(card)
    slot = next(i for i, cards in enumerate(s.booklet) if cards and cards[0].startswith("AID"))
    s.scrapped += s.booklet[slot]
    s.booklet[slot] = [top] + [c for c in AUTHORITY_CARDS if c != top]


def quorum_in_booklet(t, most: tuple[str, ...] = ("city",)) -> None:
    """The Steward's Imperial Quorum (F113, from the scrapped cards) in the booklet; seat 0
    (the Peacekeeper, holding the Oath) builds one more of each kind in `most`, so it has the
    most of those."""
    from tests.blighted_reach.campaign_tables import put_building

    s = t.state
    s.scrapped.remove("F113")
    s.booklet.append(["F113"])
    for kind in most:
        put_building(s, 0, empty_system(s, (0, 1, 2)), kind)


def edicts_until(t, kind: str, limit: int = 20):
    """The Edicts run; every other prompt answered with its first option until `kind` is asked
    (None if it never is); returns (prompt, events)."""
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.empire_fate_tables import run_then_round

    events = run_then_round(t, event_flow.edicts_begin)
    for _ in range(limit):
        prompt = prompt_of(t, kind)
        if prompt is not None:
            return prompt, events
        waiting = next((p for p in t.state.prompts if p.decision not in ("arcs.place_resources", "arcs.act")
                        and p.kind not in ("lead",)), None)
        if waiting is None:
            return None, events
        events += t.act(waiting.seat, options(t, waiting.seat)[0])
    return None, events


def test_F1502_oath_of_peace_govern_with_authority_war_is_neither_enforced():
    """Govern with Authority (its War card F124 on top): the Oath's holder as First Regent is
    not offered to enforce it; enforcing is refused (typed, nothing changed); it may change."""
    t = act_three_table()
    authority_stack(t, "F124")
    prompt, _ = edicts_until(t, "govern_authority")
    assert prompt is not None and prompt.seat == 0
    assert {"enforce": True} not in [o.params for o in prompt.options]
    refused(t, 0, Action("govern_authority", {"enforce": True}))
    t.act(0, Action("govern_authority", {"change": "F125"}))
    from plugins.blighted_reach.fate_steward import authority_policy

    assert authority_policy(t.state) == "escalation"
    sound(t)


def test_F1502_oath_of_peace_govern_with_authority_cannot_put_war_on_top():
    t = act_three_table()
    authority_stack(t, "F125")
    prompt, _ = edicts_until(t, "govern_authority")
    assert prompt is not None and prompt.seat == 0
    assert {"change": "F124"} not in [o.params for o in prompt.options]
    assert {"enforce": True} in [o.params for o in prompt.options]
    refused(t, 0, Action("govern_authority", {"change": "F124"}))
    sound(t)


def test_F1502_oath_of_peace_imperial_quorum_changer_cannot_choose_the_war_policy():
    """Imperial Quorum (the Govern the Imperial Reach stack): the Oath's holder, with the most
    cities, may change the Policy but not to War (AID03): not offered, refused."""
    t = act_three_table()
    quorum_in_booklet(t)
    prompt, _ = edicts_until(t, "quorum_policy")
    assert prompt is not None and prompt.seat == 0
    changes = [o.params["change"] for o in prompt.options]
    assert "AID03" not in changes and "" in changes and len(changes) == 2
    refused(t, 0, Action("quorum_policy", {"change": "AID03"}))
    sound(t)


def test_F1502_oath_of_peace_imperial_quorum_the_holder_does_not_enforce_war():
    """Imperial Quorum with the War Policy on top: the Oath's holder, First Regent and the
    most starports, neither collects its Demand nor takes its Imperial Action (both skipped)."""
    from plugins.blighted_reach import edicts
    from plugins.blighted_reach.content import default_box

    t = act_three_table()
    quorum_in_booklet(t, most=("starport",))
    edicts.change_policy(default_box(), t.state, "AID03")
    prompt, events = edicts_until(t, "quorum_imperial_action")
    assert prompt is None and prompt_of(t, "collect_demand") is None
    assert any(e.type == "quorum_skipped" and e.data == {"part": "imperial_action", "why": "nothing to do"}
               for e in events)
    assert not any(e.type == "demand_collected" for e in events)
    sound(t)


def test_F1502_oath_of_peace_imperial_quorum_over_govern_with_authority_bars_f124():
    """Imperial Quorum over Govern with Authority: the Oath's holder with the most cities may
    not put the War card (F124) on top: not offered, refused."""
    t = act_three_table()
    authority_stack(t, "F126")
    quorum_in_booklet(t)
    prompt, _ = edicts_until(t, "quorum_policy")
    assert prompt is not None and prompt.seat == 0
    assert [o.params["change"] for o in prompt.options] == ["", "F125"]
    refused(t, 0, Action("quorum_policy", {"change": "F124"}))
    sound(t)


def test_F1502_oath_of_peace_held_by_another_fate_is_scrapped():
    """"Scrap this if you're not the Peacekeeper": the Oath on a Rival's hand is scrapped
    after the next action."""
    from tests.blighted_reach.flow_helpers import restart_round

    t = act_two_table()
    s = t.state
    s.players[0].lore.remove("F1502")
    s.players[1].lore.append("F1502")
    restart_round(t, [["AGG4"], ["CON6"], ["MOB6"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    s = t.state
    assert "F1502" in s.scrapped and all("F1502" not in p.lore for p in s.players)
    sound(t)


# -- F1503 Arsenal Keepers ---------------------------------------------------------------------


def weapon_tax_table():
    """Seat 0 controls a Weapon planet with its own city there; returns (table, system, slot)."""
    from plugins.arcs.state import Building

    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1, 2), kind="weapon")
    ships_to(s, 0, system, 2)
    p = s.players[0]
    slot = next(i for i, on in reversed(list(enumerate(p.cities_on_board))) if on)
    p.cities_on_board[slot] = False
    s.systems[system].buildings.append(Building(kind="city", owner=0))
    return t, system


def tax_weapon(t, system):
    turn(t, 0, "ADM3")
    building = next(i for i, b in enumerate(t.state.systems[system].buildings) if b.owner == 0)
    return t.act(0, Action("act", {"act": "tax", "system": system, "building": building}))


def test_F1503_arsenal_keepers_takes_a_taxed_weapon_onto_the_card():
    """A Weapon the holder taxes may go onto Arsenal Keepers: frozen there, counted as its."""
    from plugins.blighted_reach.fate_peacekeeper import weapons_held

    t, system = weapon_tax_table()
    tax_weapon(t, system)
    prompt = prompt_of(t, "arsenal_keepers")
    assert prompt is not None and prompt.seat == 0
    refused(t, 1, Action("arsenal_keepers", {"keep": True}))
    t.act(0, Action("arsenal_keepers", {"keep": True}))
    place_tokens(t)
    s = t.state
    assert s.card_resources["F1503"] == ["weapon"] and "weapon" not in s.players[0].resources
    assert weapons_held(s, 0) == 1
    sound(t)


def test_F1503_declined_the_weapon_goes_to_the_row():
    t, system = weapon_tax_table()
    tax_weapon(t, system)
    t.act(0, Action("arsenal_keepers", {"keep": False}))
    place_tokens(t)
    s = t.state
    assert "F1503" not in s.card_resources and "weapon" in s.players[0].resources
    sound(t)


def test_F1503_the_arsenals_weapons_are_raided_for_two_keys_each(monkeypatch):
    """A raid takes a Weapon off the card for 2 keys; a bad choice is refused."""
    t = act_two_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1))
    starport_to(s, 0, system)
    ships_to(s, 1, system, 3)
    s.supply["weapon"] -= 1
    s.card_resources["F1503"] = ["weapon"]
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("raid", 2), ("raid", 2)])
    battle(t, 1, system, 0, raid=2)
    prompt = prompt_of(t, "raid")
    assert Action("steal", {"arsenal": "weapon"}) in prompt.options
    refused(t, 1, Action("steal", {"arsenal": "relic"}))
    t.act(1, Action("steal", {"arsenal": "weapon"}))
    place_tokens(t)
    s = t.state
    assert "F1503" not in s.card_resources
    sound(t)


# -- F1504 Peacekeeper Act II Resolution ---------------------------------------------------------


def test_F1504_completed_adds_the_arms_interests_to_the_court_deck_BR_331():
    t = act_two_table()
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert {"F1505", "F1506"} <= set(s.court_deck) and "F1502" in s.players[0].lore and "F1503" in s.players[0].guild
    sound(t)


def test_F1504_failed_scraps_the_oath_and_puts_arsenal_keepers_in_the_court_deck_BR_332():
    t = act_two_table()
    s = t.state
    s.supply["weapon"] -= 1
    s.card_resources["F1503"] = ["weapon"]
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert "F1502" in s.scrapped and "F1503" in s.court_deck and "F1503" not in s.players[0].guild
    assert "F1503" not in s.card_resources and not {"F1505", "F1506"} & set(s.court_deck)
    sound(t)


# -- Act III -------------------------------------------------------------------------------------


def test_F1507_act_three_setup_places_the_ceasefires_and_the_booklet_cards_BR_066():
    """One Ceasefire per cluster in play, Peace exactly where the Peacekeeper controls a
    system; Ceasefires, Empire Balks at Peace, Peace Dividends and Peace Accords booklet."""
    from plugins.blighted_reach.fate_peacekeeper import clusters_in_play, controls_in

    t = act_three_table()
    s = t.state
    assert s.act == 3 and s.fates[0] == PEACEKEEPER
    assert sorted(int(c) for c in s.ceasefires) == clusters_in_play(s)
    assert set(s.ceasefires.values()) <= {"peace", "war"}
    from core.flow import Ctx
    from plugins.blighted_reach.fate_peacekeeper import place_ceasefires

    place_ceasefires(Ctx(s, t.rules), 0, "F1507", None)  # the rule again on the table as it stands now
    for c, side in s.ceasefires.items():
        assert side == ("peace" if controls_in(s, 0, int(c)) else "war")
    booklet = [c for slot in s.booklet for c in slot]
    assert {"F1508", "F1509", "F1510", "F1511"} <= set(booklet)
    sound(t)


@pytest.mark.parametrize("peace, gained", [(1, 0), (2, 1), (5, 2)])
def test_F1507_a_peaceful_reach_scores_its_grand_ambitions_BR_099_BR_100(peace, gained):
    """BR-099, BR-100: 2 clusters at Peace fulfil one grand ambition, 5 both."""
    from plugins.blighted_reach import objectives

    t = act_three_table(players=4)
    s = t.state
    clusters = sorted(s.ceasefires)
    if len(clusters) < peace:
        pytest.skip("fewer clusters in play")
    s.ceasefires = {c: ("peace" if i < peace else "war") for i, c in enumerate(clusters)}
    power = objectives.grand_ambition_power(CBOX, s.chapter, gained)
    events = score_now(t)
    grand = next((e for e in events if e.type == "grand_ambitions"), None)
    assert (grand.data["power"].get("0", 0) if grand else 0) == power
    sound(t)


def peace_battle_table():
    t = act_three_table()
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1, 2))
    ships_to(s, 1, system, 2)
    ships_to(s, 2, system, 1)
    cluster = str(rules_box().cluster_of(system))
    s.ceasefires[cluster] = "peace"
    s.players[1].resources = [None if r == "weapon" else r for r in s.players[1].resources]
    s.supply["weapon"] = s.supply.get("weapon", 0)
    return t, system, cluster


def _weapon_count_fix(s):
    held = sum(p.resources.count("weapon") for p in s.players) + s.trust.count("weapon") + sum(
        r.count("weapon") for r in s.card_resources.values()) + sum(
        r.count("weapon") for r in s.ambition_tokens.values())
    s.supply["weapon"] = 5 - held


def test_F1508_ceasefires_a_battle_at_peace_without_a_weapon_is_refused():
    t, system, cluster = peace_battle_table()
    _weapon_count_fix(t.state)
    turn(t, 1, "AGG3")
    refused(t, 1, Action("act", {"act": "battle", "system": system, "defender": 2, "assault": 1}))
    assert t.state.ceasefires[cluster] == "peace"
    sound(t)


def test_F1508_ceasefires_a_battle_at_peace_spends_a_weapon_and_turns_the_cluster_to_war(monkeypatch):
    t, system, cluster = peace_battle_table()
    s = t.state
    _weapon_count_fix(s)
    weapons_to(s, 1, 1)
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("assault", 5)])
    battle(t, 1, system, 2, assault=1)
    s = t.state
    assert "weapon" not in s.players[1].resources and s.ceasefires[cluster] == "war"
    sound(t)


# F1508 Ceasefires: harm a card does outside a battle (`abilities.HARM_PRICES`) ---------------


def bare(s, system: str) -> bool:
    """A planet without pieces, buildings or Imperial ships."""
    here = s.systems[system]
    return (BOX.systems.get(system) is not None and system not in s.imperial and not here.buildings
            and not any(here.ships_of(x).total for x in range(len(s.players))))


def no_weapons(s, seat: int, weapons: int = 0) -> None:
    """The seat's Weapons back to the supply, then `weapons` from it."""
    s.players[seat].resources = [None if r == "weapon" else r for r in s.players[seat].resources]
    _weapon_count_fix(s)
    weapons_to(s, seat, weapons)


def rifles_table(weapons: int):
    """Act III, everyone an Outlaw: seat 1 holds Galactic Rifles (L02, from the Lore deck) with
    2 fresh ships beside a planet where seat 2 has a ship, in a cluster at Peace."""
    from plugins.arcs.turn import reach_of

    t = act_three_table()
    all_outlaws(t)
    s = t.state
    s.lore_deck.remove("L02")
    s.players[1].lore.append("L02")
    reach = reach_of(BOX, s)
    origin, target = next((a, b) for a in sorted(s.systems) if bare(s, a)
                          for b in sorted(reach.neighbours.get(a, ())) if b in s.systems and bare(s, b))
    ships_to(s, 1, origin, 2)
    ships_to(s, 2, target, 1)
    cluster = str(rules_box().cluster_of(target))
    s.ceasefires[cluster] = "peace"
    no_weapons(s, 1, weapons)
    turn(t, 1, "AGG3")
    fire = {"act": "ability", "pay": -1, "card": "L02", "index": 0,
            "params": {"system": origin, "target": target, "defender": 2}}
    return t, fire, cluster


def test_F1508_ceasefires_fire_rifles_at_peace_without_a_weapon_is_refused_and_not_offered():
    """Fire Rifles is harm outside a battle: at a cluster at Peace, with no Weapon to spend, it
    is not among the legal actions and the answer is refused (typed, nothing changed)."""
    from core.errors import IllegalAction

    t, fire, cluster = rifles_table(weapons=0)
    assert Action("act", fire) not in options(t, 1)
    refused(t, 1, Action("act", fire), IllegalAction)
    assert t.state.ceasefires[cluster] == "peace"
    sound(t)


def test_F1508_ceasefires_fire_rifles_at_peace_spends_a_weapon_and_turns_the_cluster_to_war():
    """With a Weapon the Rifles fire (offered, paid by a pip): the Weapon goes to the supply
    and the target's cluster turns to War; paying the action with that same Weapon is not
    offered (none would be left to spend)."""
    t, fire, cluster = rifles_table(weapons=1)
    offered = options(t, 1)
    assert Action("act", fire) in offered
    assert not any(a.params.get("card") == "L02" and a.params.get("pay", -1) >= 0 for a in offered)
    supply = t.state.supply["weapon"]
    events = t.act(1, Action("act", fire))
    while (prompt := prompt_of(t, "rifle_hits")) is not None:
        events += t.act(prompt.seat, prompt.options[0])
    place_tokens(t)
    s = t.state
    assert "weapon" not in s.players[1].resources and s.supply["weapon"] == supply + 1
    assert s.ceasefires[cluster] == "war"
    assert any(e.type == "ceasefire_broken" and e.data["cluster"] == cluster for e in events)
    sound(t)


def revolt_table(weapons: int):
    """Act III, everyone an Outlaw: a Free city and a damaged ship of seat 2 at a planet in a
    cluster at Peace; seat 1 holds Freedom Fighters (F227) and `weapons` Weapons."""
    from plugins.arcs.state import Building
    from plugins.blighted_reach.state import FREE

    t = act_three_table()
    assert "F227" in t.state.players[1].guild
    all_outlaws(t)
    s = t.state
    system = empty_system(s, (0, 1, 2))
    s.systems[system].buildings.append(Building(kind="city", owner=FREE))
    s.free_city_supply -= 1
    s.players[2].ships -= 1
    s.systems[system].ships[2].damaged += 1
    cluster = str(rules_box().cluster_of(system))
    s.ceasefires[cluster] = "peace"
    no_weapons(s, 1, weapons)
    turn(t, 1, "AGG4")
    return t, system, cluster


def _revolts(t, system):
    return [a for a in options(t, 1) if a.type == "act" and a.params.get("card") == "F227"
            and a.params.get("params", {}).get("system") == system]


def test_F1508_ceasefires_incite_revolt_at_peace_needs_a_weapon():
    """Freedom Fighters' Incite Revolt destroys Rival ships outside a battle: with no Weapon,
    at a cluster at Peace it is not offered there and is refused (typed, nothing changed)."""
    t, system, cluster = revolt_table(weapons=0)
    assert _revolts(t, system) == []
    revolt = {"act": "ability", "pay": -1, "card": "F227", "index": 0, "params": {"system": system}}
    refused(t, 1, Action("act", revolt))
    assert t.state.ceasefires[cluster] == "peace" and t.state.systems[system].ships_of(2).damaged == 1
    sound(t)


def test_F1508_ceasefires_incite_revolt_at_peace_spends_a_weapon_and_breaks_the_peace():
    t, system, cluster = revolt_table(weapons=1)
    revolt = _revolts(t, system)
    assert revolt
    events = t.act(1, revolt[0])
    s = t.state
    assert s.systems[system].ships_of(2).total == 0 and "weapon" not in s.players[1].resources
    assert s.ceasefires[cluster] == "war" and any(e.type == "ceasefire_broken" for e in events)
    sound(t)


def reprisal_table(weapons: int):
    """Act III: seat 1 (a Regent) secures Navy Reprisal (F115, from the scrapped cards onto the
    Court) with a cluster holding Imperial ships at Peace; returns (table, cluster)."""
    from tests.blighted_reach.empire_fate_tables import act, lead, put_agent, to_court
    from tests.blighted_reach.flow_helpers import restart_round

    t = act_three_table()
    s = t.state
    s.scrapped.remove("F115")
    to_court(t, "F115")
    put_agent(t, 1, "F115", 3)
    cluster = str(rules_box().cluster_of(sorted(s.imperial)[0]))
    s.ceasefires[cluster] = "peace"
    no_weapons(s, 1, weapons)
    restart_round(t, [["ADM6"], ["AGG3"], ["MOB6"]], initiative=1)
    lead(t, 1, "AGG3")
    act(t, 1, "secure", card="F115")
    return t, int(cluster)


def test_F1508_ceasefires_navy_reprisal_hitting_imperial_ships_at_peace_needs_a_weapon():
    """Navy Reprisal secured: hitting the Imperial ships of a cluster at Peace is harm by the
    card; with no Weapon that choice is not offered and is refused (typed, nothing changed);
    a cluster at War stays open."""
    t, cluster = reprisal_table(weapons=0)
    prompt = prompt_of(t, "arcs.use_ability")
    assert prompt is not None and prompt.seat == 1
    offered = [a.params.get("params") for a in options(t, 1)]
    assert {"cluster": cluster, "what": "hit_imperial"} not in offered
    assert any(p and p.get("what") == "hit_imperial" for p in offered)
    refused(t, 1, Action("use_ability", {"card": "F115", "index": 2,
                                         "params": {"cluster": cluster, "what": "hit_imperial"}}))
    assert t.state.ceasefires[str(cluster)] == "peace"
    sound(t)


def test_F1508_ceasefires_navy_reprisal_at_peace_spends_the_weapon_and_turns_to_war():
    t, cluster = reprisal_table(weapons=1)
    choice = {"cluster": cluster, "what": "hit_imperial"}
    assert choice in [a.params.get("params") for a in options(t, 1)]
    events = t.act(1, Action("use_ability", {"card": "F115", "index": 2, "params": choice}))
    s = t.state
    assert "weapon" not in s.players[1].resources and s.ceasefires[str(cluster)] == "war"
    assert any(e.type == "imperial_ships_hit" for e in events)
    sound(t)


def test_F1508_ceasefires_tokens_are_checked_by_the_invariants():
    """One Ceasefire per cluster in play, each Peace or War: a missing or odd token is found."""
    from plugins.blighted_reach.fate_peacekeeper import ceasefire_problems

    t = act_three_table()
    s = t.state
    assert ceasefire_problems(s) == []
    first = sorted(s.ceasefires)[0]
    s.ceasefires[first] = "truce"
    assert ceasefire_problems(s)
    del s.ceasefires[first]
    assert ceasefire_problems(s)


def test_F1509_empire_balks_at_peace_lets_the_first_regent_turn_a_cluster_to_war():
    """War Policy, the Peacekeeper an Outlaw: the First Regent turns a cluster at Peace where
    the Empire controls 2 systems to War (through the Edicts)."""
    from plugins.blighted_reach import edicts, empire
    from plugins.blighted_reach.content import default_box
    from plugins.blighted_reach.fate_peacekeeper import cluster_systems
    from plugins.blighted_reach.state import Pieces

    t = act_three_table()
    s = t.state
    if s.titles[0] != "outlaw":
        empire.become_outlaw(s, 0)
    fr = s.first_regent if s.first_regent > 0 else 1
    if s.titles[fr] != "regent":
        pytest.skip("no Regent to be First Regent here")
    s.first_regent = fr
    slot = edicts.govern_slot(default_box(), s)
    war = next(c for c in s.booklet[slot] if edicts.policies(default_box())[c].name == "war")
    edicts.change_policy(default_box(), s, war)
    cluster = sorted(s.ceasefires)[0]
    s.ceasefires[cluster] = "peace"
    for system in cluster_systems(s, int(cluster))[:2]:
        if s.imperial.get(system, Pieces()).fresh == 0:
            s.imperial_supply -= 1
            here = s.imperial.setdefault(system, Pieces())
            here.fresh += 1
    events = resolve_edicts(t, govern="enforce")
    for _ in range(12):
        prompt = prompt_of(t, "balk_at_peace")
        if prompt is not None:
            break
        waiting = next(p for p in t.state.prompts if p.decision != "arcs.place_resources")
        events += t.act(waiting.seat, options(t, waiting.seat)[0])
    assert prompt is not None and prompt.seat == fr
    refused(t, fr, Action("balk_at_peace", {"cluster": 99}))
    t.act(fr, Action("balk_at_peace", {"cluster": int(cluster)}))
    assert t.state.ceasefires[cluster] == "war"


def test_F1510_peace_dividends_pays_two_power_per_system_at_peace():
    """Through the Edicts: each player gains 2 Power for each system it controls in clusters
    at Peace (every cluster arranged at Peace)."""
    from plugins.blighted_reach.fate_peacekeeper import dividend_systems

    t = act_three_table()
    s = t.state
    s.ceasefires = {c: "peace" for c in s.ceasefires}
    expected = {x: 2 * dividend_systems(s, x) for x in range(3)}
    assert any(expected.values())
    events = resolve_edicts(t)
    for _ in range(12):
        found = next((e for e in events if e.type == "peace_dividends"), None)
        if found is not None:
            break
        waiting = next(p for p in t.state.prompts if p.decision != "arcs.place_resources")
        events += t.act(waiting.seat, options(t, waiting.seat)[0])
    assert found.data["power"] == {str(x): p for x, p in expected.items() if p}


def test_F1511_peace_accords_broker_peace_with_a_rivals_favor():
    """In Negotiations seat 0 (1 system in a cluster at War) returns seat 1's Favor (seat 1
    controls another there): the cluster turns to Peace. Brokering a cluster at Peace, or
    without enough control, is refused."""
    from plugins.blighted_reach.fate_peacekeeper import cluster_systems, controls_in

    t = act_three_table()
    all_outlaws(t)
    s = t.state
    def bare(x):
        here = s.systems[x]
        return (BOX.systems.get(x) is not None and x not in s.imperial and not here.buildings
                and not any(here.ships_of(y).total for y in range(3)))

    cluster, here = next(((c, [x for x in cluster_systems(s, int(c)) if bare(x)][:2]) for c in sorted(s.ceasefires)
                          if len([x for x in cluster_systems(s, int(c)) if bare(x)]) >= 2), (None, []))
    if cluster is None:
        pytest.skip("no cluster with two bare systems")
    ships_to(s, 0, here[0], 1)
    ships_to(s, 1, here[1], 1)
    s.ceasefires[cluster] = "war"
    s.players[1].agents -= 1
    s.favors[0].append(1)
    summit(t)
    other = next((c for c, side in t.state.ceasefires.items() if side == "peace"), None)
    if other is not None:
        refused(t, 0, Action("negotiate", {"move": "fate", "name": "broker_peace",
                                           "choice": {"cluster": int(other), "favors": []}}))
    refused(t, 0, Action("negotiate", {"move": "fate", "name": "broker_peace",
                                       "choice": {"cluster": int(cluster), "favors": []}}))
    t.act(0, Action("negotiate", {"move": "fate", "name": "broker_peace",
                                  "choice": {"cluster": int(cluster), "favors": [1]}}))
    s = t.state
    assert s.ceasefires[cluster] == "peace" and 1 not in s.favors[0]
    sound(t)


def arms_interest_held(t, seat: int = 1) -> str:
    """An Arms Interest (into the Court deck by a completed Act II) in the seat's hand, its
    Weapons gone to the supply; the card's id."""
    s = t.state
    card = next((c for c in ("F1505", "F1506") if c in s.court_deck), None)
    if card is not None:
        s.court_deck.remove(card)
    else:  # both dealt to the Court: one with no agents taken, the deck's top in its place
        card = next(c for c in ("F1505", "F1506") if c in s.court_row and not any(s.court_agents.get(c, [])))
        s.court_row[s.court_row.index(card)] = s.court_deck.pop(0)
        s.court_agents.pop(card, None)
    s.players[seat].guild.append(card)
    s.players[seat].resources = [None if r == "weapon" else r for r in s.players[seat].resources]
    _weapon_count_fix(s)
    return card


def test_F1505_arms_interest_assemble_gains_a_weapon():
    """Assemble, taken as a Build with a pip, gains exactly 1 Weapon; the card stays."""
    t = act_three_table()
    card = arms_interest_held(t)
    turn(t, 1, "CON3")
    use = Action("act", {"act": "ability", "pay": -1, "card": card, "index": 0, "params": {}})
    assert use in options(t, 1)
    t.act(1, use)
    place_tokens(t)
    s = t.state
    assert s.players[1].resources.count("weapon") == 1 and card in s.players[1].guild
    sound(t)


def test_F1506_arms_interest_prelude_discard_fills_the_empty_slots_with_weapons():
    """The Prelude's discard: Weapons up to the empty slots (the supply has enough here)."""
    t = act_three_table()
    card = arms_interest_held(t)
    s = t.state
    empty = sum(1 for i in open_slots(BOX, s.players[1]) if s.players[1].resources[i] is None)
    turn(t, 1, "CON3")
    use = next(a for a in options(t, 1) if a.type == "act" and a.params.get("card") == card
               and a.params.get("index") == 1)
    t.act(1, use)
    place_tokens(t)
    s = t.state
    assert card not in s.players[1].guild
    assert s.players[1].resources.count("weapon") == min(empty, 5 - sum(
        p.resources.count("weapon") for x, p in enumerate(s.players) if x != 1))
    sound(t)


# -- bots ----------------------------------------------------------------------------------


def peacekeeper_campaign(players: int, seed: int, seat: int) -> tuple[int, int]:
    """Act II with the Peacekeeper at `seat` (its marker one space from the end and a Weapon on
    Arsenal Keepers, so a chapter's end completes it unless that Weapon is raided), bots to
    the Act's end; then Act III from the saved log sheet, bots to the campaign's end."""
    t = act_two_table(players, seed, seat)
    t.state.objective_markers[seat] = 1
    t.state.supply["weapon"] -= 1
    t.state.card_resources["F1503"] = ["weapon"]

    def kept(third_table):
        assert third_table.state.fates[seat] == PEACEKEEPER and third_table.state.ceasefires

    return acts_two_and_three(t, seed, seat, PEACEKEEPER, kept)


@pytest.mark.parametrize("players, seed, seat", [(3, 2, 0)])
def test_bots_play_the_peacekeeper_through_acts_two_and_three(players, seed, seat):
    second, third = peacekeeper_campaign(players, seed, seat)
    assert second > 0 and third > 0


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1)])
def test_bots_play_an_act_two_with_the_peacekeeper(players, seed, seat):
    t = act_two_table(players, seed, seat)
    assert t.state.fates[seat] == PEACEKEEPER
    assert play_checked(t, KeepFateBot(seed, seat, PEACEKEEPER)) > 0
