"""The Blight Speaker (FATE13, a B Fate) through the engine: an Act I with A Fates, its
Intermission giving a seat the Blight Speaker, the Act II table created from the packed log
sheet (and Act III from Act II's). Each test names the card it plays (F13nn) and the
checklist IDs it proves."""
from __future__ import annotations

import copy

import pytest

from core.engine import create_table
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from plugins.arcs.setup import open_slots
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach.blight import BLIGHT
from plugins.blighted_reach.board import blight, controls_on_turn
from plugins.blighted_reach.setup import cluster_systems
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, b_fate_intermission, end_act
from tests.blighted_reach.empire_fate_tables import place_tokens, prompt_of, put_agent, resolve_crises, resolve_fates
from tests.blighted_reach.flow_helpers import GAME, acts_two_and_three, options
from tests.blighted_reach.test_fate_pacifist import (
    all_outlaws, empaths_to_court, from_supply, refused, rolls, score_now, ships_to, sound, turn,
)

SPEAKER = "FATE13"
A_FATES = ["FATE01", "FATE02", "FATE07", "FATE06"]  # Steward, Founder, Admiral, Partisan at Act I


def speaker_intermission(state, seat: int):
    return b_fate_intermission(state, seat, SPEAKER)


def campaign_of(state, players: int) -> dict:
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    return {"players": players, "acts_played": state.act, "log": copy.deepcopy(log), "finished": False,
            "winner": -1, "acts": []}


def answer_setup(t, start: int = 20) -> None:
    """The setup's prompts answered with their first options (objective starts on `start`)."""
    while True:
        p = next((p for p in t.state.prompts if p.kind in ("scrap_ship", "replenish_ship")), None)
        if p is None:
            break
        t.act(p.seat, p.options[0])
    while any(p.kind == "objective_start" for p in t.state.prompts):
        p = next(p for p in t.state.prompts if p.kind == "objective_start")
        t.act(p.seat, Action("objective_start", {"space": start}))


def act_two_table(players: int = 3, seed: int = 3, seat: int = 0, answer: bool = True):
    state = end_act(act_one(A_FATES[:players], seed))
    speaker_intermission(state, seat)
    t = create_table(GAME, players, seed=seed, campaign=campaign_of(state, players))
    if answer:
        answer_setup(t)
    return t


def act_three_table(players: int = 3, seed: int = 3, seat: int = 0, completed: bool = True):
    """Act III after an Act II with the Blight Speaker at `seat`: every objective completed
    (it keeps its Fate) or, `completed` False, its objective failed (it takes another Fate)."""
    from tests.blighted_reach.campaign_tables import intermission

    t = act_two_table(players, seed, seat)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [0] * players
    if not completed:
        state.objective_markers[seat] = 5
    intermission(state, picks={x: state.fates[x] for x in range(players) if completed or x != seat})
    t = create_table(GAME, players, seed=seed, campaign=campaign_of(state, players))
    answer_setup(t)
    return t


def loyal_ships(state, seat: int) -> int:
    return sum(here.ships_of(seat).total for here in state.systems.values())


def add_blight(state, system: str, fresh: int = 0, damaged: int = 0) -> None:
    """Blight from its supply into the system."""
    state.blight_supply -= fresh + damaged
    here = blight(state, system)
    state.blight[system] = Pieces(fresh=here.fresh + fresh, damaged=here.damaged + damaged)


def clear_blight(state) -> None:
    """Every Blight on the map back to its supply (a table arranged from a clean map)."""
    state.blight_supply += sum(p.total for p in state.blight.values())
    state.blight = {}


def controlled(state, seat: int, planet: bool = True) -> str:
    """A system the seat controls on its turn (a planet unless told otherwise)."""
    return next(s for s in sorted(state.systems)
                if (BOX.systems.get(s) is not None) == planet and controls_on_turn(state, seat, s))


def card_uses(t, seat: int, card: str) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "act" and a.params.get("card") == card]


def take_blight_trophies(state, seat: int, count: int) -> None:
    from plugins.arcs.state import Trophy

    state.blight_supply -= count
    state.players[seat].trophies.extend([Trophy(owner=BLIGHT, kind="blight")] * count)


def lift(state, card: str) -> None:
    from plugins.blighted_reach.fate_steps import lift as lift_card

    assert lift_card(state, card)


# -- F1301 Blight Speaker Act II Setup ------------------------------------------------------------


def test_F1301_setup_scraps_two_ships_then_replenishes_the_fleet_BR_066():
    """BR-066 (an Act's Fate setup side): the Blight Speaker gains Spore Ships, scraps 2
    Loyal ships (one from a system, one from its supply; a system without its ships is
    refused, state unchanged), then places ships until 8 Loyal ships are on the map; its
    marker starts on 16 (3 players). The 2 ships are gone for the campaign."""
    t = act_two_table(answer=False)
    s = t.state
    assert s.fates[0] == SPEAKER and "F1302" in s.players[0].guild
    total = loyal_ships(s, 0) + s.players[0].ships
    prompt = prompt_of(t, "scrap_ship")
    assert prompt.seat == 0 and {"where": "supply"} in [o.params for o in prompt.options]
    empty = next(x for x in sorted(s.systems) if not s.systems[x].ships_of(0).total)
    refused(t, 0, Action("scrap_ship", {"where": empty}))
    on_map = next(o for o in prompt.options if o.params["where"] != "supply")
    t.act(0, on_map)
    t.act(0, Action("scrap_ship", {"where": "supply"}))
    assert t.state.scrapped_ships == [0, 0]
    assert loyal_ships(t.state, 0) + t.state.players[0].ships == total - 2
    used = []
    while prompt_of(t, "replenish_ship") is not None:
        choice = prompt_of(t, "replenish_ship").options[0]
        used.append(choice.params["system"])
        t.act(0, choice)
    assert loyal_ships(t.state, 0) == 8 and len(used) == len(set(used))
    answer_setup(t)
    assert t.state.objective_markers[0] == 16
    sound(t)


def test_F1301_contact_an_ancient_intelligence_advances_per_blight_with_loyal_ships_BR_096():
    """BR-096 (advances for each ambition won): the Speaker wins Warlord (declared, its
    Trophies the most) and moves 1 space per Blight in systems with its Loyal ships."""
    from plugins.arcs.court_ops import place_ambition_marker
    from plugins.blighted_reach.fate_blight_speaker import blight_with_loyal_ships

    t = act_two_table()
    s = t.state
    mine = [x for x in sorted(s.systems) if s.systems[x].ships_of(0).total]
    add_blight(s, mine[0], fresh=1)
    add_blight(s, mine[1], damaged=2)
    take_blight_trophies(s, 0, 3)
    place_ambition_marker(BOX, s, "warlord")
    expected = blight_with_loyal_ships(s, 0)
    assert expected >= 3
    start = s.objective_markers[0]
    events = score_now(t)
    moved = sum(e.data["spaces"] for e in events if e.type == "objective_advanced" and e.data["seat"] == 0)
    assert moved == min(expected, start) and t.state.objective_markers[0] == start - moved
    sound(t)


# -- F1302 Spore Ships --------------------------------------------------------------------------


def test_F1302_spawn_damages_a_fresh_blight_to_place_a_damaged_one_and_advances_the_objective():
    """Spawn (a Build): a fresh Blight in a system the Speaker controls turns damaged and a
    damaged Blight joins it; the placement advances Spread the Spores by 1. A system with no
    Blight is refused."""
    t = act_two_table()
    s = t.state
    clear_blight(s)
    system = controlled(s, 0)
    add_blight(s, system, fresh=1)
    turn(t, 0, "CON3")
    uses = card_uses(t, 0, "F1302")
    assert {u.params["params"]["system"] for u in uses} == {system}
    other = next(x for x in sorted(t.state.systems) if x != system)
    refused(t, 0, Action("act", {**uses[0].params, "params": {"system": other}}))
    start, supply = t.state.objective_markers[0], t.state.blight_supply
    t.act(0, uses[0])
    s = t.state
    assert blight(s, system) == Pieces(fresh=0, damaged=2) and s.blight_supply == supply - 1
    assert s.objective_markers[0] == start - 1
    sound(t)


def test_F1302_spore_ships_catapult_goes_on_through_a_blighted_gate_BR_237():
    """BR-237 (Blight at a gate ends a Catapult) lifted for the holder: a Catapult through a
    Blighted gate to the planet beyond is taken with Spore Ships and refused without it."""
    t = act_two_table()
    s = t.state
    clear_blight(s)
    origin = next(x for x in sorted(s.systems) if s.systems[x].ships_of(0).fresh >= 1
                  and any(b.owner == 0 and b.kind == "starport" for b in s.systems[x].buildings))
    turn(t, 0, "MOB3")
    catapult = next(a for a in options(t, 0) if a.params.get("act") == "move" and a.params["origin"] == origin
                    and len(a.params["path"]) == 2)
    gate = catapult.params["path"][0]
    add_blight(t.state, gate, damaged=1)
    t.state.players[0].guild.remove("F1302")
    t.state.scrapped.append("F1302")  # for the refusal only: the card out of play
    refused(t, 0, catapult)
    t.state.scrapped.remove("F1302")
    t.state.players[0].guild.append("F1302")
    t.act(0, catapult)
    assert t.state.systems[catapult.params["path"][1]].ships_of(0).total >= 1
    sound(t)


# -- F1303 Blight Speaker Act II Resolution ---------------------------------------------------


def test_F1303_completed_gains_blight_fury_and_puts_the_hunters_cards_in_the_court_BR_331():
    """BR-331 (a Resolution card's completed side): Blight Fury gained, Blight Hunters,
    Blight Reapers and the 3 Blight Purges into the Court deck, Blight Panic and the Fate
    Set's Blight Looms scrapped."""
    t = act_two_table()
    resolve_fates(t, [0, 0, 0])
    s = t.state
    assert "F1304" in s.players[0].lore
    assert {"F1305", "F1306", "F1307", "F1308", "F1309"} <= set(s.court_deck)
    assert {"F1310", "F1311"} <= set(s.scrapped)
    sound(t)


def test_F1303_failed_scraps_the_hunters_cards_and_adds_panic_and_looms_BR_332():
    """BR-332 (the failed side): Blight Fury, the Hunters, the Reapers and 2 Purges scrapped;
    1 Purge, Blight Panic and Blight Looms into the Court deck."""
    t = act_two_table()
    resolve_fates(t, [5, 0, 0])
    s = t.state
    assert {"F1304", "F1305", "F1306", "F1307", "F1308"} <= set(s.scrapped)
    assert {"F1309", "F1310", "F1311"} <= set(s.court_deck)
    sound(t)


# -- Act III ----------------------------------------------------------------------------------


def test_F1312_act_three_setup_gains_blight_hunger_and_keeps_the_ships_scrapped_BR_066():
    """BR-066: the Speaker's Act III Setup side gives it Blight Hunger (Blight Fury kept from
    the completed Act II); its marker is off the track (grand ambitions); the 2 scrapped
    ships are still out of the campaign."""
    t = act_three_table()
    s = t.state
    assert s.act == 3 and s.fates[0] == SPEAKER
    assert {"F1304", "F1313"} <= set(s.players[0].lore) and s.objective_markers[0] == -1
    assert s.scrapped_ships == [0, 0]
    assert loyal_ships(s, 0) + s.players[0].ships == 13
    sound(t)


def test_F1304_blight_fury_moves_blight_from_a_controlled_system():
    """Move Blight (a Move): Blight in a system the holder controls goes to an adjacent
    system; a system not adjacent is refused."""
    from plugins.arcs.turn import reach_of

    t = act_three_table()
    s = t.state
    clear_blight(s)
    origin = controlled(s, 0)
    add_blight(s, origin, fresh=1, damaged=1)
    turn(t, 0, "MOB3")
    moves = [u for u in card_uses(t, 0, "F1304") if u.params["index"] == 0]
    to = moves[0].params["params"]["to"]
    far = next(x for x in sorted(t.state.systems) if x != origin and not reach_of(BOX, t.state).adjacent(origin, x))
    refused(t, 0, Action("act", {**moves[0].params, "params": {**moves[0].params["params"], "to": far}}))
    pick = next(u for u in moves if u.params["params"] == {"origin": origin, "to": to, "fresh": 1, "damaged": 1})
    t.act(0, pick)
    assert blight(t.state, origin).total == 0 and blight(t.state, to).total >= 2
    sound(t)


def test_F1304_blight_fury_repairs_a_damaged_blight():
    """Repair Blight (a Repair): a damaged Blight in a controlled system turns fresh; a
    system with no damaged Blight is refused."""
    t = act_three_table()
    s = t.state
    clear_blight(s)
    system = controlled(s, 0)
    add_blight(s, system, damaged=1)
    turn(t, 0, "ADM3")
    uses = [u for u in card_uses(t, 0, "F1304") if u.params["index"] == 1]
    assert {u.params["params"]["system"] for u in uses} == {system}
    other = next(x for x in sorted(t.state.systems) if x != system)
    refused(t, 0, Action("act", {**uses[0].params, "params": {"system": other}}))
    t.act(0, uses[0])
    assert blight(t.state, system) == Pieces(fresh=1, damaged=0)
    sound(t)


def test_F1304_anger_turns_the_number_die_with_psionic_and_blight_crises_strike_the_cluster(monkeypatch):
    """Anger (a Battle): the number die shows 1; spending 1 Psionic turns it back to 6 (the
    wrap); every Blighted system of cluster 6 has a Blight Crisis (a Rival's ships hit).
    Turning by 2 with 1 Psionic is refused."""
    t = act_three_table()
    s = t.state
    clear_blight(s)
    all_outlaws(t)
    s.players[0].resources = [None if r == "psionic" else r for r in s.players[0].resources]
    s.supply["psionic"] = 5 + s.witness_psionic - sum(p.resources.count("psionic") for p in s.players)
    slot = next(i for i in open_slots(BOX, s.players[0]) if s.players[0].resources[i] is None)
    from_supply(s, 0, "psionic", slot)
    target = next(x for x in cluster_systems(BOX, 6) if x in s.systems and not s.imperial.get(x))
    ships_to(s, 1, target, 2)
    add_blight(s, target, fresh=1)
    turn(t, 0, "AGG3")
    anger = next(u for u in card_uses(t, 0, "F1304") if u.params["index"] == 2)
    rolls(monkeypatch, [("number", 0)])
    t.act(0, anger)
    prompt = prompt_of(t, "anger_turn")
    assert sorted(o.params["shift"] for o in prompt.options) == [-1, 0, 1]
    refused(t, 0, Action("anger_turn", {"shift": 2}))
    events = t.act(0, Action("anger_turn", {"shift": -1}))
    s = t.state
    assert s.players[0].resources.count("psionic") == 0
    assert any(e.type == "anger" and e.data["cluster"] == 6 for e in events)
    assert any(e.type == "blight_crisis" and e.data["system"] == target for e in events)
    assert s.systems[target].ships_of(1).total < 2
    sound(t)


def blight_battle(t, monkeypatch, hunters: bool):
    """Seat 1 attacks 1 fresh Blight with one skirmish die showing a hit."""
    s = t.state
    clear_blight(s)
    all_outlaws(t)
    system = next(x for x in sorted(s.systems) if BOX.systems.get(x) is not None and not s.imperial.get(x)
                  and not any(s.systems[x].ships_of(p).total for p in range(3)) and not s.systems[x].buildings)
    ships_to(s, 1, system, 1)
    add_blight(s, system, fresh=1)
    if hunters:
        lift(s, "F1305")
        s.players[1].guild.append("F1305")
    turn(t, 1, "AGG3")
    rolls(monkeypatch, [("skirmish", 0)])
    t.act(1, Action("act", {"act": "battle", "system": system, "defender": BLIGHT, "skirmish": 1}))
    return system


def test_F1305_blight_hunters_damage_a_blight_with_one_hit_BR_231(monkeypatch):
    """BR-231 (Blight is Tough: 2 hits a step) eased for the holder: 1 hit damages the fresh
    Blight."""
    t = act_three_table()
    system = blight_battle(t, monkeypatch, hunters=True)
    assert blight(t.state, system) == Pieces(fresh=0, damaged=1)
    sound(t)


def test_F1305_without_blight_hunters_one_hit_does_nothing_BR_231(monkeypatch):
    t = act_three_table()
    system = blight_battle(t, monkeypatch, hunters=False)
    assert blight(t.state, system) == Pieces(fresh=1, damaged=0)
    sound(t)


def test_F1306_blight_reapers_harvest_destroys_a_damaged_blight_for_a_resource():
    """Harvest (a Tax): the damaged Blight goes back to its supply (no Trophy) and the holder
    gains the planet's resource; another resource at a planet is refused."""
    t = act_three_table()
    s = t.state
    clear_blight(s)
    lift(s, "F1306")
    s.players[0].guild.append("F1306")
    system = controlled(s, 0)
    kind = BOX.systems[system].type
    add_blight(s, system, damaged=1)
    turn(t, 0, "ADM3")
    uses = card_uses(t, 0, "F1306")
    assert {(u.params["params"]["system"], u.params["params"]["resource"]) for u in uses} == {(system, kind)}
    wrong = next(r for r in ("material", "fuel", "weapon", "relic", "psionic") if r != kind)
    refused(t, 0, Action("act", {**uses[0].params, "params": {"system": system, "resource": wrong}}))
    supply, trophies, held = t.state.blight_supply, len(t.state.players[0].trophies), t.state.supply[kind]
    t.act(0, uses[0])
    place_tokens(t)
    s = t.state
    assert blight(s, system).total == 0 and s.blight_supply == supply + 1
    assert len(s.players[0].trophies) == trophies
    if held:
        assert s.supply[kind] == held - 1 or kind in s.players[0].resources
    sound(t)


def test_F1307_blight_purge_crisis_gives_two_power_per_blight_trophy():
    """The Crisis: each player gains 2 Power per Blight Trophy; the card is buried."""
    t = act_three_table()
    s = t.state
    clear_blight(s)
    empaths_to_court(t, "F1307")
    take_blight_trophies(s, 1, 2)
    take_blight_trophies(s, 2, 1)
    power = [p.power for p in s.players]
    resolve_crises(t, number=1, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert [p.power - q for p, q in zip(s.players, power)][1:] == [4, 2]
    assert s.court_deck[-1] == "F1307" or "F1307" not in s.court_row
    sound(t)


@pytest.mark.parametrize("card", ["F1308", "F1309"])
def test_F1308_F1309_blight_purge_when_secured_scores_own_trophies_and_returns_rivals(card):
    """F1308/F1309 (F1307 reprinted) secured: 2 Power per Blight Trophy of the securer's,
    every Rival's Blight Trophy back to the supply, the card discarded; securing without
    enough agents is refused."""
    t = act_three_table()
    assert CBOX.effects_of(card) == CBOX.effects_of("F1307")
    empaths_to_court(t, card)
    take_blight_trophies(t.state, 1, 2)
    take_blight_trophies(t.state, 2, 1)
    turn(t, 1, "AGG3")
    refused(t, 1, Action("act", {"act": "secure", "card": card}))
    put_agent(t, 1, card, 2)
    power, supply = t.state.players[1].power, t.state.blight_supply
    t.act(1, Action("act", {"act": "secure", "card": card}))
    place_tokens(t)
    s = t.state
    assert s.players[1].power == power + 4 and s.blight_supply == supply + 1
    assert not any(tr.kind == "blight" for tr in s.players[2].trophies) and card in s.court_discard
    sound(t)


def test_F1310_blight_panic_crisis_returns_agents_per_blight_at_loyal_buildings():
    """The Crisis: seat 1 has a building where 1 Blight stands and agents on two Court cards:
    it chooses the card to return 1 agent from (an agent it lacks there is refused)."""
    t = act_three_table(completed=False)
    s = t.state
    clear_blight(s)
    empaths_to_court(t, "F1310")
    system = next(x for x in sorted(s.systems) if any(b.owner == 1 for b in s.systems[x].buildings))
    add_blight(s, system, fresh=1)
    for x in range(len(s.players)):
        for card in s.court_agents:
            s.players[x].agents += s.court_agents[card][x]
            s.court_agents[card][x] = 0
    first, second = [c for c in s.court_row if c and c != "F1310" and c in s.court_agents][:2]
    put_agent(t, 1, first)
    put_agent(t, 1, second)
    resolve_crises(t, number=1, symbol="arrow")
    prompt = prompt_of(t, "crisis_choice")
    while prompt is not None and not any(o.params.get("cards") for o in prompt.options):
        t.act(prompt.seat, prompt.options[0])
        prompt = prompt_of(t, "crisis_choice")
    assert prompt.seat == 1 and sorted(o.params["cards"][0] for o in prompt.options) == sorted([first, second])
    refused(t, 1, Action("crisis_choice", {"cards": ["F1310"]}))
    agents = t.state.players[1].agents
    t.act(1, Action("crisis_choice", {"cards": [second]}))
    place_tokens(t)
    s = t.state
    assert s.court_agents[second][1] == 0 and s.court_agents[first][1] == 1 and s.players[1].agents == agents + 1
    sound(t)


def test_F1310_blight_panic_when_secured_destroys_the_damaged_blight_of_a_cluster_BR_232():
    """BR-232 (destroyed Blight becomes Trophies): secured with damaged Blight in two clusters
    holding the securer's Loyal pieces, it chooses one: every damaged Blight there is destroyed
    and taken (the other cluster's stays); a cluster without its pieces is refused."""
    from core.engine import legal_actions
    from plugins.blighted_reach.board import has_loyal_pieces

    t = act_three_table(completed=False)
    s = t.state
    clear_blight(s)
    empaths_to_court(t, "F1310")
    seat = next(x for x in range(3) if any(BOX.systems.get(y) is not None and controls_on_turn(s, x, y)
                                           for y in s.systems))
    system = controlled(s, seat)

    def cluster_of(x):
        return next(c.id for c in BOX.map.clusters if x in cluster_systems(BOX, c.id))

    second = next(x for x in sorted(s.systems) if cluster_of(x) != cluster_of(system) and has_loyal_pieces(s, seat, x))
    add_blight(s, system, damaged=2)
    add_blight(s, second, damaged=1)
    turn(t, seat, "AGG3")
    put_agent(t, seat, "F1310", 2)
    t.act(seat, Action("act", {"act": "secure", "card": "F1310"}))
    picks = [a for a in legal_actions(t.state, seat, t.rules) if a.params.get("card") == "F1310"]
    assert {a.params["params"]["cluster"] for a in picks} == {cluster_of(system), cluster_of(second)}
    empty = next(c.id for c in BOX.map.clusters if c.id not in (cluster_of(system), cluster_of(second))
                 and not any(has_loyal_pieces(s, seat, x) for x in cluster_systems(BOX, c.id) if x in s.systems))
    refused(t, seat, Action("use_ability", {**picks[0].params, "params": {"cluster": empty}}))
    t.act(seat, next(a for a in picks if a.params["params"]["cluster"] == cluster_of(system)))
    place_tokens(t)
    s = t.state
    assert blight(s, system).total == 0 and blight(s, second).damaged == 1
    assert sum(tr.kind == "blight" for tr in s.players[seat].trophies) >= 2
    sound(t)


def test_F1311_blight_looms_reprint_repairs_the_rolled_cluster_BR_224():
    """F1311 (CC15 reprinted) in the Court: its Crisis repairs every Blight of the rolled
    cluster and puts a damaged Blight on each Blight-free planet of the rolled symbol
    (BR-224)."""
    t = act_three_table(completed=False)
    assert CBOX.effects_of("F1311") == CBOX.effects_of("CC15")
    s = t.state
    clear_blight(s)
    if "CC15" in s.court_row:
        pytest.skip("the base Blight Looms is in this table's Court row too")
    empaths_to_court(t, "F1311")
    system = next(x for x in cluster_systems(BOX, 2) if x in s.systems)
    add_blight(s, system, damaged=1)
    resolve_crises(t, number=2, symbol="arrow")
    place_tokens(t)
    assert blight(t.state, system).damaged == 0 and blight(t.state, system).fresh >= 1
    sound(t)


def test_F1313_blight_hunger_holds_ships_a_blight_crisis_destroys_until_the_clean_up():
    """Ships a Blight Crisis destroys (a Rival's here) go onto Blight Hunger, counted as its
    pieces; at the chapter's clean-up they go back to their owner's supply."""
    t = act_three_table()
    s = t.state
    clear_blight(s)
    all_outlaws(t)
    system = next(x for x in sorted(s.systems) if BOX.systems.get(x) is not None and not s.imperial.get(x)
                  and not any(s.systems[x].ships_of(p).total for p in range(3)))
    ships_to(s, 1, system, 1)
    s.systems[system].ships[1].damaged, s.systems[system].ships[1].fresh = 1, 0
    add_blight(s, system, fresh=1)
    ships = s.players[1].ships
    resolve_crises(t, number=1, symbol="arrow")
    place_tokens(t)
    s = t.state
    assert s.hunger == [1] and s.players[1].ships == ships and s.systems[system].ships_of(1).total == 0
    sound(t)
    events = score_now(t)
    assert any(e.type == "hunger_returned" for e in events)
    assert t.state.hunger == [] and t.state.players[1].ships == ships + 1
    sound(t)


@pytest.mark.parametrize("warlord_to_rival, hunger, goals", [(False, 5, 2), (True, 5, 1), (False, 0, 1)])
def test_F1312_gorge_the_blight_scores_its_grand_ambitions_BR_099_BR_100(warlord_to_rival, hunger, goals):
    """BR-099, BR-100: no Rival winning Warlord and more pieces on Blight Hunger than the
    chapter number: each met is a goal; one gives the chapter's lower value, both its higher,
    played through the chapter's end (Hunger's pieces counted before they return)."""
    from plugins.arcs.court_ops import place_ambition_marker
    from plugins.blighted_reach import objectives

    t = act_three_table()
    s = t.state
    clear_blight(s)
    place_ambition_marker(BOX, s, "warlord")
    for p in s.players:
        s.blight_supply += sum(tr.kind == "blight" for tr in p.trophies)
        p.trophies = [tr for tr in p.trophies if tr.kind != "blight"]
    if warlord_to_rival:
        take_blight_trophies(s, 1, 6)
    for _ in range(hunger):
        s.players[2].ships -= 1
        s.hunger.append(2)
    power = objectives.grand_ambition_power(CBOX, s.chapter, goals)
    events = score_now(t)
    grand = next(e for e in events if e.type == "grand_ambitions")
    assert grand.data["power"].get("0", 0) == power
    sound(t)


# -- bots ----------------------------------------------------------------------------------


def speaker_campaign(players: int, seed: int, seat: int) -> tuple[int, int]:
    """Act II with the Speaker at `seat` (its marker arranged on 0, so it completes and keeps
    its Fate), bots to the Act's end; then Act III from the saved log sheet, bots
    to the campaign's end; invariants after every action. Returns each Act's actions."""
    t = act_two_table(players, seed, seat)
    t.state.objective_markers[seat] = 0
    return acts_two_and_three(t, seed, seat, SPEAKER)


@pytest.mark.parametrize("players, seed, seat", [(2, 1, 1), (3, 2, 0), (4, 3, 2)])
def test_bots_play_the_blight_speaker_through_acts_two_and_three(players, seed, seat):
    second, third = speaker_campaign(players, seed, seat)
    assert second > 0 and third > 0



def test_F1301_and_F1310_count_a_flagship_as_the_seats_loyal_piece_BR_267():
    """A Flagship is a fresh Loyal ship (BR-267): Blight where the Speaker's Flagship stands
    alone counts for Contact an Ancient Intelligence (F1301), and Blight at a Rival's
    Flagship is owed by Blight Panic (F1310) as at its Loyal buildings."""
    from plugins.blighted_reach.fate_blight_speaker import blight_with_loyal_ships, panic_owed
    from plugins.flagships.rules import grant
    from tests.blighted_reach.crisis_tables import clear

    t = act_two_table()
    s = t.state
    clear_blight(s)
    lone = next(x for x in sorted(s.systems) if not s.systems[x].buildings and not x.endswith("G"))
    clear(s, lone)
    before = blight_with_loyal_ships(s, 0)
    grant(BOX, s, 0, lone)
    add_blight(s, lone, fresh=1)
    assert blight_with_loyal_ships(s, 0) == before + 1
    other = next(x for x in sorted(s.systems) if x != lone and not s.systems[x].buildings and not x.endswith("G"))
    clear(s, other)
    grant(BOX, s, 1, other)  # seat 1's buildings become Free: only its Flagship stands for it
    add_blight(s, other, damaged=1)
    put_agent(t, 1, next(c for c in s.court_row if c in s.court_agents))
    assert panic_owed(s, 1) == 1
    sound(t)
