"""The Gate Wraith (FATE22, a C Fate) through the engine on Act III tables built from Acts I
and II: each test names the card it plays (F22nn). The Gate Wraith sits at seat 0; its
first Passage goes on 2G (an Imperial cluster's gate, so an Imperial ship goes with it)."""
from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.state import Building, Ships
from plugins.arcs.turn import reach_of
from plugins.blighted_reach import twisted_passage as tp
from plugins.blighted_reach.rules_box import TWISTED_PASSAGE as TP
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.c_fate_tables import (
    act_three_table, declare_by_arrangement, prompt_of, refused, run_steps, score_now, sound,
)
from tests.blighted_reach.campaign_tables import put_building, put_ships
from tests.blighted_reach.flow_helpers import options, restart_round
from tests.blighted_reach.test_fate_planet_breaker import clear_planet

GATE_WRAITH = "FATE22"


def wraith_table(players: int = 3, seed: int = 3, gate: str = "2G", arrange=None):
    """Act III with the Gate Wraith at seat 0, its first Passage on `gate`."""
    t = act_three_table({0: GATE_WRAITH}, players, seed, arrange=arrange)
    assert t.state.fates[0] == GATE_WRAITH and t.state.act == 3
    t.act(0, Action("first_passage", {"gate": gate}))
    return t


def clear(s, *systems: str) -> None:
    """Nothing left in these systems (an arranged start): pieces back to their supplies."""
    for system in systems:
        clear_planet(s, system)


def lead(t, card: str, hands=None) -> None:
    """A new round: seat 0 leads `card` (declaring nothing)."""
    restart_round(t, hands or [[card], ["AGG5"], ["CON5"]], initiative=0)
    t.act(0, Action("lead", {"card": card}))
    if prompt_of(t, "declare") is not None:
        t.act(0, Action("declare", {"ambition": ""}))


def move(origin: str, path: list[str], fresh: int = 0, damaged: int = 0, pay: int = -1) -> Action:
    return Action("act", {"act": "move", "pay": pay, "origin": origin, "path": path, "fresh": fresh,
                          "damaged": damaged})


def storms_crisis(t):
    """Passage Storms' Crisis as the Court Crises resolve it (between turns)."""
    from plugins.arcs.rounds import round_start
    from plugins.blighted_reach import event_flow

    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    return run_steps(t, (event_flow.court_crisis, {"card": "F2206", "number": 1, "symbol": "arrow", "answers": {}}),
                     (round_start, {}))


def planet_of(s, symbol: str, cluster: int) -> str:
    """The planet of `cluster` whose ID symbol the event die's face `symbol` shows."""
    from plugins.blighted_reach.setup import SYMBOLS

    box = box_for(s)
    return next(p for p in sorted(s.systems) if box.systems.get(p) is not None and p.startswith(f"{cluster}.")
                and box.systems[p].symbol == SYMBOLS[symbol])


# -- F2201 Setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, start", [(2, 24), (3, 21), (4, 18)])
def test_F2201_setup_opens_the_passage_breaks_the_chosen_gate_and_places_the_cards(players, start):
    """Setup: Catapult Overdrive (Lore) and Breaking Gates (play area) gained; the first
    Passage on the chosen gate, its Imperial ship to the Twisted Passage, the gate off the
    map; the event die rolled into the map center; The Dead Live by the map; F2205 in the
    booklet; Passage Storms on top of the Court deck; the marker on 24/21/18."""
    t = act_three_table({0: GATE_WRAITH}, players, 3)
    prompt = prompt_of(t, "first_passage")
    assert prompt.seat == 0 and {o.params["gate"] for o in prompt.options} == {
        g for g in t.state.systems if g.endswith("G") and g != TP}
    imperial = t.state.imperial.get("2G", Pieces())
    events = t.act(0, Action("first_passage", {"gate": "2G"}))
    s = t.state
    assert s.passages == ["2G"] and "2G" not in s.systems and TP in s.systems
    assert s.imperial.get(TP, Pieces()).total == imperial.total
    assert s.passage_die in ("arrow", "moon", "hex")  # the campaign's names of the die's symbols
    assert [e.type for e in events if e.type in ("gate_broken", "passage_die_rolled")] == ["gate_broken",
                                                                                          "passage_die_rolled"]
    assert "F2202" in s.players[0].lore and "F2203" in s.play_area[0]
    assert "F2204" in s.reminders and any("F2205" in slot for slot in s.booklet)
    assert s.court_deck[0] == "F2206"
    assert s.objective_markers[0] == start
    sound(t)


def test_F2201_the_first_passage_must_go_on_a_gate_in_play():
    t = act_three_table({0: GATE_WRAITH}, 3, 3)
    refused(t, 0, Action("first_passage", {"gate": "9G"}))
    refused(t, 0, Action("first_passage", {"gate": TP}))
    refused(t, 1, Action("first_passage", {"gate": "1G"}))


def test_F2205_the_passage_exists_only_with_the_gate_wraith():
    """A table without the Gate Wraith has no Twisted Passage: its map is the box's."""
    t = act_three_table({0: "FATE17"}, 3, 3)
    s = t.state
    assert TP not in s.systems and not s.passages and not s.passage_die
    reach = reach_of(box_for(s), s)
    assert TP not in reach.systems and all(TP not in n for n in reach.neighbours.values())


# -- F2205 the map ------------------------------------------------------------------------------------


def test_F2205_moves_into_the_passage_only_from_systems_bordering_a_passaged_gate():
    """One way in from 2G's neighbours (its planets, the gates beside it); a gate with a
    Passage is out of play; a system far from it cannot enter the Passage."""
    t = wraith_table()
    s = t.state
    clear(s, "2.1", "5.1", TP)
    put_ships(s, 0, "2.1", 2)
    put_ships(s, 0, "5.1", 1)
    lead(t, "MOB2")
    refused(t, 0, move("2.1", ["2G"], 1))
    refused(t, 0, move("5.1", [TP], 1))
    reach = reach_of(box_for(s), s)
    assert TP in reach.neighbours["2.1"] and "5.1" not in reach.neighbours or TP not in reach.neighbours["5.1"]
    t.act(0, move("2.1", [TP], 2))
    assert t.state.systems[TP].ships[0] == Ships(fresh=2)
    sound(t)


def test_F2205_moves_out_of_the_passage_go_to_the_die_planets_and_reroll_it():
    """From the Passage a move goes to a planet whose ID symbol the die shows (any cluster),
    no other; then the die is rerolled (an event)."""
    t = wraith_table()
    s = t.state
    clear(s, TP)
    put_ships(s, 0, TP, 3)
    lead(t, "MOB2")
    symbol = s.passage_die
    good = planet_of(s, symbol, 5)
    bad = next(p for p in sorted(s.systems) if p.startswith("5.") and p != good)
    refused(t, 0, move(TP, [bad], 1))
    events = t.act(0, move(TP, [good], 1))
    assert t.state.systems[good].ships[0].fresh >= 1
    rolled = [e for e in events if e.type == "passage_die_rolled"]
    assert len(rolled) == 1 and rolled[0].data["why"] == "F2205"
    assert t.state.passage_die == rolled[0].data["symbol"]
    sound(t)


def test_F2205_no_player_harms_a_rival_in_the_passage():
    """Seat 1 (an Outlaw, free of the Truce Law) may not attack the Gate Wraith in the
    Twisted Passage; elsewhere it may."""
    t = wraith_table()
    s = t.state
    clear(s, TP, "5.1")
    s.titles[1] = "outlaw"
    put_ships(s, 0, TP, 2)
    put_ships(s, 1, TP, 2)
    put_ships(s, 0, "5.1", 1)
    put_ships(s, 1, "5.1", 2)
    restart_round(t, [["CON5"], ["AGG2"], ["ADM5"]], initiative=1)
    t.act(1, Action("lead", {"card": "AGG2"}))
    if prompt_of(t, "declare") is not None:
        t.act(1, Action("declare", {"ambition": ""}))
    attack = Action("act", {"act": "battle", "pay": -1, "system": TP, "defender": 0})
    with pytest.raises(IllegalAction, match="F2205"):
        t.act(1, attack)
    refused(t, 1, attack)
    assert not any(a.params.get("system") == TP for a in options(t, 1) if a.params.get("act") == "battle")
    assert any(a.params.get("system") == "5.1" for a in options(t, 1) if a.params.get("act") == "battle")
    sound(t)


def test_F2205_a_city_in_the_passage_is_psionic():
    """Taxing a city in the Twisted Passage yields Psionic (the arranged city stands there)."""
    t = wraith_table()
    s = t.state
    clear(s, TP)
    put_ships(s, 0, TP, 1)
    put_building(s, 0, TP, "city")
    for i, r in enumerate(s.players[0].resources):
        if r is not None:
            s.supply[r] += 1
            s.players[0].resources[i] = None
    lead(t, "ADM6")
    taxes = [a for a in options(t, 0) if a.params.get("act") == "tax" and a.params.get("system") == TP]
    assert taxes and {a.params["resource"] for a in taxes} == {"psionic"}
    events = t.act(0, taxes[0])
    assert next(e.data for e in events if e.type == "taxed")["resource"] == "psionic"
    sound(t)


def test_F2205_pieces_placed_on_a_passaged_gate_go_to_the_passage():
    """`arcs.setup.place_ships` (every rule that places ships) sends them to the Passage."""
    from plugins.arcs.setup import place_ships

    t = wraith_table()
    s = t.state
    before = s.systems[TP].ships[1].fresh
    assert place_ships(s, "2G", 1, 2) == 2
    assert s.systems[TP].ships[1].fresh == before + 2
    sound(t)


# -- F2203 Breaking Gates -----------------------------------------------------------------------------


def test_F2203_a_catapult_from_a_planet_into_its_gate_breaks_it():
    """From a Loyal starport on 5.1 into 5G: a Passage token on 5G, the starport destroyed
    (no Trophy: back to the supply), every ship there to the Twisted Passage, 5G off the
    map. A longer path through the gate is refused: the ships are placed in the Passage."""
    t = wraith_table()
    s = t.state
    clear(s, "5G", "5.1", TP)
    put_ships(s, 1, "5G", 1)
    put_building(s, 2, "5G", "city")  # a city in the gate (as Gate Stations builds one)
    s.systems["5G"].buildings.append(Building(kind="starport", owner=-1))  # and a Free starport
    s.free_starport_supply -= 1
    put_building(s, 0, "5.1", "starport")
    put_ships(s, 0, "5.1", 3)
    lead(t, "MOB2")
    starports, free = t.state.players[0].starports, t.state.free_starport_supply
    cities = t.state.players[2].cities_on_board.count(True)
    refused(t, 0, move("5.1", ["5G", "4G"], 2))
    events = t.act(0, move("5.1", ["5G"], 2))
    s = t.state
    broken = next(e.data for e in events if e.type == "gate_broken")
    assert broken["gate"] == "5G" and broken["used"] == [{"system": "5.1", "owner": 0, "kind": "starport"}]
    assert s.passages == ["2G", "5G"] and "5G" not in s.systems
    assert s.systems[TP].ships[0] == Ships(fresh=2) and s.systems[TP].ships[1] == Ships(fresh=1)
    assert s.players[0].starports == starports + 1 and not s.systems["5.1"].buildings
    assert s.players[2].cities_on_board.count(True) == cities + 1 and s.free_starport_supply == free + 1
    assert sorted(b["kind"] for b in broken["destroyed"]) == ["city", "starport"]
    assert not any(tr.kind == "starport" for p in s.players for tr in p.trophies)
    assert TP in reach_of(box_for(s), s).neighbours["5.1"]
    sound(t)


def test_F2203_a_rivals_catapult_into_its_gate_breaks_nothing():
    t = wraith_table()
    s = t.state
    clear(s, "5G", "5.1")
    put_building(s, 1, "5.1", "starport")
    put_ships(s, 1, "5.1", 2)
    restart_round(t, [["CON5"], ["MOB2"], ["ADM5"]], initiative=1)
    t.act(1, Action("lead", {"card": "MOB2"}))
    if prompt_of(t, "declare") is not None:
        t.act(1, Action("declare", {"ambition": ""}))
    events = t.act(1, move("5.1", ["5G"], 2))
    assert "gate_broken" not in [e.type for e in events]
    assert t.state.passages == ["2G"] and t.state.systems["5G"].ships[1] == Ships(fresh=2)


def test_F2203_a_plain_move_without_a_starport_breaks_nothing():
    t = wraith_table()
    s = t.state
    clear(s, "5G", "5.1")
    put_ships(s, 0, "5.1", 2)
    lead(t, "MOB2")
    events = t.act(0, move("5.1", ["5G"], 2))
    assert "gate_broken" not in [e.type for e in events] and t.state.passages == ["2G"]


# -- F2202 Catapult Overdrive -------------------------------------------------------------------------


def test_F2202_catapults_from_a_rival_starport_it_controls():
    """The Gate Wraith controls 2.2 (seat 1's starport there, no ship of seat 1): it
    Catapults from it through the Passage to a die planet. From seat 1's starport on 4.1,
    which it controls too, the Catapult into 4G breaks that gate and destroys seat 1's
    starport (no Trophy: back to seat 1's supply)."""
    t = wraith_table()
    s = t.state
    clear(s, "2.2", "4.1", "4G", TP)
    put_building(s, 1, "2.2", "starport")
    put_ships(s, 0, "2.2", 2)
    put_building(s, 1, "4.1", "starport")
    put_ships(s, 0, "4.1", 2)
    lead(t, "MOB2")
    target = planet_of(s, s.passage_die, 5)
    t.act(0, move("2.2", [TP, target], 2))
    assert t.state.systems[target].ships[0].fresh >= 2
    starports = t.state.players[1].starports
    events = t.act(0, move("4.1", ["4G"], 1))
    s = t.state
    assert next(e.data for e in events if e.type == "gate_broken")["used"] == [
        {"system": "4.1", "owner": 1, "kind": "starport"}]
    assert s.players[1].starports == starports + 1 and "4G" in s.passages
    sound(t)


def test_F2202_no_catapult_from_a_rival_starport_without_control():
    t = wraith_table()
    s = t.state
    clear(s, "2.2", TP)
    put_building(s, 1, "2.2", "starport")
    put_ships(s, 0, "2.2", 2)
    put_ships(s, 1, "2.2", 3)
    lead(t, "MOB2")
    refused(t, 0, move("2.2", [TP, planet_of(s, s.passage_die, 5)], 2))


def test_F2202_a_catapult_into_the_passage_goes_on_whoever_controls_it():
    """Seat 1's ships hold the Passage: the Gate Wraith's Catapult from its starport on 2.x
    enters it and goes on to a die planet; seat 1's Catapult into the Passage the Gate
    Wraith holds ends there (no Overdrive)."""
    t = wraith_table()
    s = t.state
    origin = "2.2"
    clear(s, origin, TP)
    put_building(s, 0, origin, "starport")
    put_ships(s, 0, origin, 2)
    put_ships(s, 1, TP, 3)
    lead(t, "MOB2")
    target = planet_of(s, s.passage_die, 5)
    t.act(0, move(origin, [TP, target], 2))
    assert t.state.systems[target].ships[0].fresh >= 2
    sound(t)


def test_F2202_without_overdrive_a_rival_held_passage_ends_the_catapult():
    t = wraith_table()
    s = t.state
    origin = "2.2"
    clear(s, origin, TP)
    s.titles[1] = "outlaw"
    put_building(s, 1, origin, "starport")
    put_ships(s, 1, origin, 2)
    put_ships(s, 0, TP, 3)
    restart_round(t, [["CON5"], ["MOB2"], ["ADM5"]], initiative=1)
    t.act(1, Action("lead", {"card": "MOB2"}))
    if prompt_of(t, "declare") is not None:
        t.act(1, Action("declare", {"ambition": ""}))
    refused(t, 1, move(origin, [TP, planet_of(s, s.passage_die, 5)], 2))
    t.act(1, move(origin, [TP], 2))


# -- the final objective (F2201) ----------------------------------------------------------------------


def test_F2201_collapse_the_gates_advances_per_passage_for_each_ambition_won_and_control_at_chapter_end():
    """With 2 Passages: winning Tycoon advances 2 (Collapse the Gates); controlling the
    Twisted Passage at the chapter's end advances 2 more (Control the Twisted Passage)."""
    t = wraith_table()
    s = t.state
    s.passages.append("6G")
    clear(s, "6G", TP)
    del s.systems["6G"]
    put_ships(s, 0, TP, 2)
    for i, r in enumerate(s.players[1].resources + s.players[2].resources):
        pass
    for seat in (1, 2):
        for i, r in enumerate(s.players[seat].resources):
            if r in ("material", "fuel"):
                s.supply[r] += 1
                s.players[seat].resources[i] = None
    s.players[0].resources[0] = "material"
    s.supply["material"] -= 1
    s.ambition_tokens = {k: [] for k in s.ambition_tokens}
    declare_by_arrangement(t, "tycoon")
    marker = s.objective_markers[0]
    events = score_now(t)
    advanced = next(e.data for e in events if e.type == "objective_advanced" and e.data["seat"] == 0)
    assert advanced["spaces"] == 4 and t.state.objective_markers[0] == marker - 4


def test_F2201_no_control_of_the_passage_no_chapter_end_advance():
    t = wraith_table()
    s = t.state
    clear(s, TP)
    put_ships(s, 1, TP, 2)
    s.ambition_boxes = {k: [] for k in s.ambition_boxes}
    marker = s.objective_markers[0]
    score_now(t)
    assert t.state.objective_markers[0] == marker


# -- F2204 The Dead Live ------------------------------------------------------------------------------


def test_F2204_destroyed_ships_and_this_chapters_trophies_come_back_fresh_in_the_passage():
    """A Passage Storms Crisis destroys damaged ships (onto The Dead Live, not the supply);
    a ship Trophy taken this chapter too; after scoring all come back fresh in the Passage
    (a Trophy from before the chapter stays)."""
    from plugins.arcs.state import Trophy

    t = wraith_table()
    s = t.state
    clear(s, TP)
    s.players[2].trophies.append(Trophy(owner=1, kind="ship"))  # before the chapter began
    s.players[1].ships -= 1
    s.dead_trophies = [len(p.trophies) for p in s.players]
    put_ships(s, 0, TP, damaged=2)
    s.court_deck.remove("F2206")
    s.attached[s.court_row[1]] = "F2206"  # Passage Storms on a Court card
    supply = s.players[0].ships
    storms_crisis(t)
    s = t.state
    assert s.systems[TP].ships[0] == Ships() and s.dead_live == [0, 0] and s.players[0].ships == supply
    s.players[0].trophies.append(Trophy(owner=2, kind="ship"))  # taken this chapter
    s.players[2].ships -= 1
    sound(t)
    s.ambition_boxes = {k: [] for k in s.ambition_boxes}
    events = score_now(t)
    s = t.state
    assert next(e.data for e in events if e.type == "the_dead_live")["ships"] == {"0": 2, "2": 1}
    assert s.systems[TP].ships[0] == Ships(fresh=2) and s.systems[TP].ships[2] == Ships(fresh=1)
    assert s.dead_live == [] and Trophy(owner=1, kind="ship") in s.players[2].trophies
    assert not s.players[0].trophies
    sound(t)


def test_F2204_destroyed_ships_wait_on_the_card_only_while_the_passage_is_in_play():
    """`board.destroyed_ships_home`, which every rule destroying ships without a Trophy
    uses: with the Gate Wraith they go onto The Dead Live (Imperial ones too); without it
    to their supplies as before."""
    from plugins.blighted_reach.board import EMPIRE, destroyed_ships_home

    def destroy(t):
        s = t.state
        before, imperial = s.players[1].ships, s.imperial_supply
        s.players[1].ships -= 2  # two ships and an Imperial one off the map, destroyed
        s.imperial_supply -= 1
        destroyed_ships_home(s, 1, 2)
        destroyed_ships_home(s, EMPIRE, 1)
        return s.players[1].ships - before, s.imperial_supply - imperial, s.dead_live

    assert destroy(act_three_table({0: "FATE17"}, 3, 3)) == (0, 0, [])
    t = wraith_table()
    assert destroy(t) == (-2, -1, [1, 1, EMPIRE])
    sound(t)


# -- F2206 Passage Storms -----------------------------------------------------------------------------


def test_F2206_when_drawn_the_initiative_attaches_it_and_the_place_refills():
    """Securing a Court card draws Passage Storms (top of the deck): the player with
    initiative attaches it to a card in the Court; the place refills from the deck."""
    t = wraith_table()
    s = t.state
    card = s.court_row[0]
    next_card = s.court_deck[1]
    s.court_agents[card] = [2] + [0] * (len(s.players) - 1)
    s.players[0].agents -= 2
    lead(t, "AGG2")
    t.act(0, Action("act", {"act": "secure", "pay": -1, "card": card}))
    prompt = prompt_of(t, "storms_host")
    assert prompt is not None and prompt.seat == t.state.initiative
    host = prompt.options[-1].params["host"]
    refused(t, prompt.seat, Action("storms_host", {"host": "F2206"}))
    t.act(prompt.seat, Action("storms_host", {"host": host}))
    s = t.state
    assert s.attached[host] == "F2206" and "F2206" not in s.court_row and next_card in s.court_row
    sound(t)


def storms_attached_table():
    t = wraith_table()
    s = t.state
    s.court_deck.remove("F2206")
    host = s.court_row[1]
    s.attached[host] = "F2206"
    return t, host


def test_F2206_crisis_hits_each_piece_in_the_passage_and_goes_under_the_top_card():
    t, host = storms_attached_table()
    s = t.state
    clear(s, TP)
    put_ships(s, 0, TP, 2, 1)
    put_ships(s, 1, TP, 1)
    s.imperial[TP] = Pieces(fresh=1)
    s.imperial_supply -= 1
    put_building(s, 1, TP, "city")
    top = s.court_deck[0]
    events = storms_crisis(t)
    s = t.state
    assert s.systems[TP].ships[0] == Ships(damaged=2) and s.systems[TP].ships[1] == Ships(damaged=1)
    assert s.imperial[TP] == Pieces(damaged=1) and s.systems[TP].buildings == [Building("city", 1, True)]
    assert s.dead_live == [0]
    assert s.court_deck[:2] == [top, "F2206"] and host not in s.attached
    assert "passage_storms" in [e.type for e in events]
    sound(t)


def test_F2206_secured_moves_from_the_passage_to_any_planets_and_stays_in_the_court():
    """Securing the host takes Passage Storms along: its securer moves out of the Passage to
    two planets of any symbol; a move of more ships than stand there is refused; the card
    stays attached in the Court."""
    t, host = storms_attached_table()
    s = t.state
    clear(s, TP, "5.1", "6.1")
    put_ships(s, 0, TP, 3)
    s.court_agents[host] = [2] + [0] * (len(s.players) - 1)
    s.players[0].agents -= 2
    lead(t, "AGG2")
    t.act(0, Action("act", {"act": "secure", "pay": -1, "card": host}))
    offer = [a for a in options(t, 0) if a.type == "use_ability" and a.params.get("card") == "F2206"]
    assert {"moves": []} in [a.params["params"] for a in offer]
    index = offer[0].params["index"]
    refused(t, 0, Action("use_ability", {"card": "F2206", "index": index, "params": {"moves": [["5.1", 4, 0]]}}))
    refused(t, 0, Action("use_ability", {"card": "F2206", "index": index, "params": {"moves": [["5G", 1, 0]]}}))
    t.act(0, Action("use_ability", {"card": "F2206", "index": index,
                                    "params": {"moves": [["5.1", 2, 0], ["6.1", 1, 0]]}}))
    s = t.state
    assert s.systems["5.1"].ships[0] == Ships(fresh=2) and s.systems["6.1"].ships[0] == Ships(fresh=1)
    assert "F2206" in s.attached.values() and "F2206" not in s.court_discard
    sound(t)


# -- views and the typed state -------------------------------------------------------------------------


def test_F2205_views_show_the_passage_and_the_typed_state_reads_it():
    from core.secrets import HiddenCheck
    from plugins.blighted_reach.graphql import from_view

    t = wraith_table()
    view = t.view(1)
    assert TP in view["systems"] and view["passages"] == ["2G"] and view["passage_die"]
    typed = from_view(view)
    assert TP in [x.id for x in typed.arcs.systems]
    assert HiddenCheck(t)(t) == []


def test_F2203_the_slipstream_drive_breaks_the_gate_and_loses_its_upgrade_and_armor():
    """The Gate Wraith's Flagship at 5.1 with its Slipstream Drive (a city) and Armor (a
    starport): Catapulting two ships into 5G breaks it; the Upgrade and Armor are destroyed
    without Trophies (the city back on the board, the starport in the supply). Going on
    past the gate is refused."""
    from plugins.flagships.rules import grant, has_upgrade
    from plugins.flagships.slipstream import AID
    from plugins.flagships.state import board_of
    from tests.blighted_reach.campaign_tables import BOX
    from tests.flagships.tables import put

    t = wraith_table()
    s = t.state
    clear(s, "5G", "5.1", TP)
    grant(BOX, s, 0, "5.1")
    s.placing = []
    put(s, 0, "slipstream_drive", "upgrade", "city")
    put(s, 0, "slipstream_drive", "armor", "starport")
    put_ships(s, 0, "5.1", 2)
    lead(t, "MOB2")
    slip = {"act": "ability", "pay": -1, "card": AID, "index": 0}
    refused(t, 0, Action("act", {**slip, "params": {"path": ["5G", "4G"], "fresh": 2}}))
    cities, starports = t.state.players[0].cities_on_board.count(True), t.state.players[0].starports
    events = t.act(0, Action("act", {**slip, "params": {"path": ["5G"], "fresh": 2}}))
    s = t.state
    broken = next(e.data for e in events if e.type == "gate_broken")
    assert broken["gate"] == "5G" and sorted(broken["flagship_destroyed"]) == ["city", "starport"]
    assert "5G" in s.passages and s.systems[TP].ships[0] == Ships(fresh=2)
    assert not has_upgrade(s, 0, "slipstream_drive") and board_of(s, 0).system == "5.1"
    assert not any(tr.owner == 0 for p in s.players for tr in p.trophies)
    assert s.players[0].cities_on_board.count(True) == cities + 1 and s.players[0].starports == starports + 1
    sound(t)


# -- bot campaigns ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, seed, modules", [(2, 1, ()), (3, 1, ()), (4, 1, ()), (3, 2, ("flagships",))])
def test_FATE22_bot_campaigns_with_the_gate_wraith_in_act_three_play_to_a_winner(players, seed, modules):
    """Random bots play whole campaigns in which seat 0 takes the Gate Wraith at Act II's
    Intermission (with and without the Flagships): every Act ends, the campaign has a
    winner, the invariants and the hidden information hold after every action."""
    from tests.blighted_reach.c_fate_campaigns import C_FATES, arranged_campaign

    assert GATE_WRAITH in C_FATES
    run = arranged_campaign(players, seed, {0: GATE_WRAITH}, modules=modules)
    assert run["errors"] == [] and run["winner"] is not None
    assert run["act_three_fates"][0] == GATE_WRAITH


def test_F2206_secured_from_the_row_it_stays_in_its_place():
    """Passage Storms in the row itself (drawn with nowhere to attach): secured, its moves
    made, it goes back into its place; no card refills it."""
    t = wraith_table()
    s = t.state
    clear(s, TP, "5.1")
    put_ships(s, 0, TP, 2)
    s.court_deck.remove("F2206")
    displaced = s.court_row[2]
    s.court_deck.append(displaced)
    s.court_agents.pop(displaced)
    s.court_row[2] = "F2206"
    s.court_agents["F2206"] = [2] + [0] * (len(s.players) - 1)
    s.players[0].agents -= 2
    deck = list(s.court_deck)
    lead(t, "AGG2")
    t.act(0, Action("act", {"act": "secure", "pay": -1, "card": "F2206"}))
    offer = next(a for a in options(t, 0) if a.type == "use_ability" and a.params.get("card") == "F2206")
    t.act(0, Action("use_ability", {"card": "F2206", "index": offer.params["index"],
                                    "params": {"moves": [["5.1", 2, 0]]}}))
    s = t.state
    assert s.court_row[2] == "F2206" and s.court_deck == deck and "F2206" not in s.court_discard
    assert s.systems["5.1"].ships[0] == Ships(fresh=2) and s.players[0].agents >= 2
    sound(t)


def test_F2205_F2404_the_chosen_moving_the_judges_ships_out_of_the_passage_rerolls_the_die():
    """A move of the Judge's ships by the holder of Judge's Chosen (F2404) is a move like any:
    out of the Passage it goes to a planet the die shows, then the die is rerolled (F2205)."""
    from plugins.blighted_reach import event_flow

    t = act_three_table({0: GATE_WRAITH, 1: "FATE24"}, 3, 3)
    t.act(0, Action("first_passage", {"gate": "2G"}))
    s = t.state
    s.prompts = []
    run_steps(t, (event_flow.edict, {"card": "F2405", "do": "handler", "handler": "judge_sets_agenda"}),
              (event_flow.summit_offer, {"seat": 1, "via": "event"}))
    t.act(1, Action("judge_declare", {"ambition": "", "marker": ""}))
    t.act(1, Action("give_title", {"rival": 2}))
    s = t.state
    clear(s, TP)
    put_ships(s, 1, TP, 2)
    restart_round(t, [["CON5"], ["AGG5"], ["MOB2"]], initiative=2)
    t.act(2, Action("lead", {"card": "MOB2"}))
    if prompt_of(t, "declare") is not None:
        t.act(2, Action("declare", {"ambition": ""}))
    good = planet_of(t.state, t.state.passage_die, 5)
    events = t.act(2, Action("act", {"act": "move", "pay": -1, "origin": TP, "path": [good], "judge_fresh": 2}))
    assert t.state.systems[good].ships[1].fresh >= 2
    assert [e.data["why"] for e in events if e.type == "passage_die_rolled"] == ["F2205"]
    sound(t)
