"""The campaign Court's cards played through the engine on campaign tables: the Guild
reprints (Mining Interest, Gatekeepers, Lattice Spies, Sworn Guardians) keep their base
abilities under their CC numbers, and the Vox cards' When Secured (Populist Demands, Song of
Freedom). Each test names the BR checklist IDs it proves; refusals are typed and change
nothing."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected
from core.state import Action
from plugins.arcs.content import box_for
from plugins.arcs.setup import empty_slots
from tests.blighted_reach.flow_helpers import ready, restart_round

HOLDER, RIVAL, OTHER = 0, 1, 2


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def refused(t, seat: int, action: Action) -> None:
    before = snapshot(t)
    with pytest.raises(ActionRejected):
        t.act(seat, action)
    assert snapshot(t) == before


def own(t, seat: int, card: str) -> None:
    """The Court card into the seat's Guild cards from wherever it lies (out of the row, the
    Court deck's top card takes its place)."""
    s = t.state
    for pile in (s.court_deck, s.court_discard):
        if card in pile:
            pile.remove(card)
    if card in s.court_row:
        i = s.court_row.index(card)
        for seat_, n in enumerate(s.court_agents.pop(card)):
            s.players[seat_].agents += n
        s.court_row[i] = s.court_deck.pop(0)
        s.court_agents[s.court_row[i]] = [0] * len(s.players)
    s.players[seat].guild.append(card)


SPARES = [["CON5", "MOB5"], ["AGG5", "ADM5"], ["CON6", "MOB6"]]


def lead(t, seat: int, card: str, hands=None) -> None:
    """A round in which `seat` leads `card` (declaring nothing); the others hold spare cards."""
    spares = iter(h for h in SPARES if card not in h)
    hands = hands or [[card, "ADM6" if card != "ADM6" else "AGG6"] if x == seat else next(spares)
                      for x in range(len(t.state.players))]
    restart_round(t, hands, initiative=seat)
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" and p.seat == seat for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))


def abilities(t, seat: int, card: str, **match) -> list[Action]:
    return [a for a in t.legal(seat) if a.params.get("act") == "ability" and a.params.get("card") == card
            and all(a.params.get(k) == v for k, v in match.items())]


def settle(t) -> None:
    while any(p.decision == "arcs.place_resources" for p in t.state.prompts):
        placing = next(p for p in t.state.prompts if p.decision == "arcs.place_resources")
        t.act(placing.seat, t.legal(placing.seat)[0])


def empty_row(t, seat: int, keep: int = 0) -> None:
    """The seat's resources back to the supply but the first `keep`."""
    row = t.state.players[seat].resources
    for i, r in enumerate(row):
        if r is not None and i >= keep:
            t.state.supply[r] += 1
            row[i] = None


def follow_a_lead(t, lead: str, card: str, kind: str, hands: list[list[str]]) -> None:
    """HOLDER leads `lead` and takes no action; RIVAL plays `card` as `kind`, seizing nothing."""
    restart_round(t, hands, initiative=HOLDER)
    t.act(HOLDER, Action("lead", {"card": lead}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(HOLDER, Action("declare", {"ambition": ""}))
    t.act(HOLDER, Action("act", {"act": "done"}))
    t.act(RIVAL, Action("play", {"card": card, "kind": kind}))
    if any(p.kind == "seize" and p.seat == RIVAL for p in t.state.prompts):
        t.act(RIVAL, Action("seize", {"card": ""}))


# -- Mining Interest (CC01) ------------------------------------------------------------------------
def test_CC01_mining_interest_manufactures_for_a_build_and_its_prelude_fills_the_slots_stealing_BR_023():
    """BR-023: a Construction pip buys Manufacture (1 Material) in place of a Build; the
    Prelude discard fills every empty slot with Material, and what the supply lacks is stolen
    from a Rival the holder names."""
    t = ready(3, seed=1)
    own(t, HOLDER, "CC01")
    empty_row(t, HOLDER)
    lead(t, HOLDER, "CON4")
    (manufacture,) = abilities(t, HOLDER, "CC01", index=0)
    pips = t.state.turn.pips
    t.act(HOLDER, manufacture)
    settle(t)
    assert t.state.players[HOLDER].resources.count("material") == 1 and t.state.turn.pips == pips - 1
    sound(t)
    # the Prelude: the supply one Material short of the holder's empty slots, a Rival's covers it
    t = ready(3, seed=1)
    own(t, HOLDER, "CC01")
    for seat in (HOLDER, RIVAL, OTHER):
        empty_row(t, seat)
    s = t.state
    empty = empty_slots(box_for(s), s.players[HOLDER])  # the open ones
    for seat in (RIVAL, OTHER):  # Material into the Rivals' slots until the supply is one short
        for i in empty_slots(box_for(s), s.players[seat]):
            if s.supply["material"] > len(empty) - 1:
                s.players[seat].resources[i] = "material"
                s.supply["material"] -= 1
    assert s.supply["material"] == len(empty) - 1
    sound(t)
    lead(t, HOLDER, "ADM4")
    (fill,) = abilities(t, HOLDER, "CC01", index=1)
    assert len(fill.params["params"]["steal_from"]) == 1
    victim = fill.params["params"]["steal_from"][0]
    held = t.state.players[victim].resources.count("material")
    refused(t, HOLDER, Action("act", {**fill.params, "params": {"steal_from": []}}))  # the shortfall must be named
    t.act(HOLDER, fill)
    settle(t)
    assert t.state.players[HOLDER].resources.count("material") == len(empty)
    assert t.state.players[victim].resources.count("material") == held - 1 and t.state.supply["material"] == 0
    assert "CC01" not in t.state.players[HOLDER].guild and "CC01" in t.state.court_discard
    sound(t)


def in_row(t, card: str, agents: dict[int, int]) -> None:
    """The Court card into the row's last place (that card back on the deck's top), with
    these agents on it from their owners' supplies."""
    s = t.state
    if card not in s.court_row:
        for pile in (s.court_deck, s.court_discard):
            if card in pile:
                pile.remove(card)
        old = s.court_row[-1]
        for seat, n in enumerate(s.court_agents.pop(old)):
            s.players[seat].agents += n
        s.court_deck.insert(0, old)
        s.court_row[-1] = card
        s.court_agents[card] = [0] * len(s.players)
    for seat, n in agents.items():
        s.court_agents[card][seat] += n
        s.players[seat].agents -= n


def secure(t, seat: int, card: str) -> list:
    lead(t, seat, "AGG4")
    return t.act(seat, Action("act", {"act": "secure", "card": card}))


def waiting(t, seat: int):
    return next(p for p in t.state.prompts if p.seat == seat and p.blocking)


# -- Gatekeepers (CC03) ----------------------------------------------------------------------------
def test_CC03_gatekeepers_prelude_places_a_ship_in_every_gate_BR_027():
    """BR-027: discarded in the Prelude, Gatekeepers puts 1 of the holder's ships in every gate
    in play."""
    t = ready(3, seed=1)
    own(t, HOLDER, "CC03")
    gates = sorted(g for g in t.state.systems if g.endswith("G"))
    before = {g: t.state.systems[g].ships_of(HOLDER).fresh for g in gates}
    lead(t, HOLDER, "ADM4")
    (use,) = abilities(t, HOLDER, "CC03", index=1)
    t.act(HOLDER, use)
    assert {g: t.state.systems[g].ships_of(HOLDER).fresh for g in gates} == {g: n + 1 for g, n in before.items()}
    assert "CC03" not in t.state.players[HOLDER].guild and "CC03" in t.state.court_discard
    sound(t)


def test_CC03_gatekeepers_add_two_dice_to_a_battle_in_a_gate_only_BR_026(monkeypatch):
    """BR-026: the holder with 1 ship battling in a gate may roll 3 dice (1 + 2); in a
    planet's system it may not (refused, nothing changed)."""
    from tests.blighted_reach.crisis_tables import clear, set_ships
    from tests.blighted_reach.test_empire_flow import rolls

    t = ready(3, seed=1)
    own(t, HOLDER, "CC03")
    s = t.state
    gate = next(g for g in sorted(s.systems) if g.endswith("G"))
    planet = next(x for x in sorted(s.systems) if not x.endswith("G") and not s.systems[x].buildings)
    for system in (gate, planet):
        clear(s, system)
        set_ships(s, HOLDER, system, 1)
        set_ships(s, RIVAL, system, 2)
    sound(t)
    lead(t, HOLDER, "AGG4")
    refused(t, HOLDER, Action("act", {"act": "battle", "system": planet, "defender": RIVAL, "assault": 3}))
    rolls(monkeypatch, [("assault", 5)] * 3)  # three blanks
    events = t.act(HOLDER, Action("act", {"act": "battle", "system": gate, "defender": RIVAL, "assault": 3}))
    rolled = [e.data for e in events if e.type == "roll"]
    assert len(rolled[0]["dice"]) == 3


# -- Lattice Spies (CC07) --------------------------------------------------------------------------
def test_CC07_lattice_spies_seize_the_initiative_before_any_other_action_BR_028():
    """BR-028: following a lead, the holder discards Lattice Spies first thing in its turn to
    seize the initiative; the leader, who holds it already, is never offered it."""
    t = ready(3, seed=1)
    own(t, RIVAL, "CC07")
    follow_a_lead(t, "MOB3", "MOB5", "copy", [["MOB3", "ADM6"], ["MOB5", "CON6"], ["MOB2", "AGG6"]])
    (spies,) = abilities(t, RIVAL, "CC07")
    events = t.act(RIVAL, spies)
    assert t.state.initiative == RIVAL, [e.type for e in events]
    assert "CC07" not in t.state.players[RIVAL].guild
    assert not abilities(t, RIVAL, "CC07")
    sound(t)


def test_CC07_lattice_spies_are_refused_to_the_initiative_holder_BR_028():
    """BR-028: illegal for a holder who already has the initiative."""
    t = ready(3, seed=1)
    own(t, HOLDER, "CC07")
    lead(t, HOLDER, "MOB3")
    assert not abilities(t, HOLDER, "CC07")
    refused(t, HOLDER, Action("act", {"act": "ability", "card": "CC07", "index": 0}))


# -- Populist Demands (CC11) and Song of Freedom (CC14), When Secured -------------------------------
def test_CC11_populist_demands_when_secured_declares_any_ambition_then_is_buried_BR_025():
    """BR-025: the securer may declare any ambition while a marker is Available (here
    Empath, which no card it played names), then Populist Demands goes under the Court deck."""
    t = ready(3, seed=1)
    in_row(t, "CC11", {HOLDER: 2})
    secure(t, HOLDER, "CC11")
    prompt = waiting(t, HOLDER)
    choices = [a for a in t.legal(HOLDER) if "empath" in repr(a.params)]
    assert choices, prompt
    t.act(HOLDER, choices[0])
    s = t.state
    assert s.ambition_boxes["empath"] and s.court_deck[-1] == "CC11"
    assert "CC11" not in s.court_row
    sound(t)


def test_CC14_song_of_freedom_when_secured_frees_a_rival_city_it_controls_then_seizes_BR_030():
    """BR-030: Dane secures Song of Freedom on his pivot, replaces a Rival's city in a system
    he controls with a Free city (the city goes back to its owner's board, no Outrage) and
    seizes the initiative; the card is shuffled into the Court deck. A city where he lacks
    control is refused."""
    from tests.blighted_reach.campaign_tables import put_building
    from tests.blighted_reach.crisis_tables import clear, set_ships

    t = ready(3, seed=1)
    s = t.state
    mine, theirs = [x for x in sorted(s.systems) if not x.endswith("G") and not s.systems[x].buildings][:2]
    for system in (mine, theirs):
        clear(s, system)
        put_building(s, OTHER, system, "city")
    set_ships(s, RIVAL, mine, 2)  # Dane (the RIVAL seat) controls `mine`, not `theirs`
    in_row(t, "CC14", {RIVAL: 2})
    free_cities, others_board = s.free_city_supply, sum(s.players[OTHER].cities_on_board)
    sound(t)
    follow_a_lead(t, "MOB3", "AGG4", "pivot", [["MOB3", "ADM6"], ["AGG4", "CON6"], ["MOB2", "CON5"]])
    t.act(RIVAL, Action("act", {"act": "secure", "card": "CC14"}))
    offered = [a.params["params"] for a in t.legal(RIVAL) if a.type == "use_ability" and a.params["card"] == "CC14"]
    i = next(k for k, b in enumerate(t.state.systems[mine].buildings) if b.owner == OTHER)
    j = next(k for k, b in enumerate(t.state.systems[theirs].buildings) if b.owner == OTHER)
    assert {} in offered and {"system": mine, "building": i, "seize": True} in offered
    assert not any(o.get("system") == theirs for o in offered)
    refused(t, RIVAL, Action("use_ability", {"card": "CC14", "index": 1, "params": {"system": theirs, "building": j}}))
    events = t.act(RIVAL, Action("use_ability", {"card": "CC14", "index": 1,
                                                 "params": {"system": mine, "building": i, "seize": True}}))
    s = t.state
    assert s.systems[mine].buildings[i].owner == -1 and s.free_city_supply == free_cities - 1
    assert sum(s.players[OTHER].cities_on_board) == others_board + 1  # back on the board, not destroyed
    assert "outrage" not in [e.type for e in events] and s.initiative == RIVAL
    assert "CC14" in s.court_deck and "CC14" not in s.court_row
    sound(t)


def test_CC15_blight_looms_when_secured_destroys_a_clusters_damaged_blight_as_trophies():
    """Blight Looms (CC15) when secured: the securer destroys every damaged Blight in a cluster
    where it has Loyal pieces and takes them as Trophies (BR-232); the fresh Blight stays."""
    from plugins.blighted_reach.setup import cluster_systems
    from tests.blighted_reach.crisis_tables import set_blight

    t = ready(3, seed=1)
    s = t.state
    box = box_for(s)
    cluster = next(c.id for c in box.map.clusters
                   if any(s.systems[x].ships_of(HOLDER).total for x in cluster_systems(box, c.id)))
    first, second = cluster_systems(box, cluster)[:2]
    for system in list(s.blight):
        set_blight(s, system, 0)
    set_blight(s, first, damaged=2)
    set_blight(s, second, fresh=1, damaged=1)
    in_row(t, "CC15", {HOLDER: 2})
    sound(t)
    secure(t, HOLDER, "CC15")
    offered = [a.params["params"] for a in t.legal(HOLDER) if a.type == "use_ability" and a.params["card"] == "CC15"]
    assert offered == [{}, {"cluster": cluster}]
    refused(t, HOLDER, Action("use_ability", {"card": "CC15", "index": 3, "params": {"cluster": 99}}))
    t.act(HOLDER, Action("use_ability", {"card": "CC15", "index": 3, "params": {"cluster": cluster}}))
    s = t.state
    assert first not in s.blight and s.blight[second].fresh == 1 and s.blight[second].damaged == 0
    assert sum(1 for x in s.players[HOLDER].trophies if x.kind == "blight") == 3
    assert s.court_deck[-1] == "CC15"
    sound(t)


# -- Construction Union (F208, BC05's reprint) -------------------------------------------------------
def test_F208_construction_union_takes_a_played_construction_card_back_at_the_rounds_end_BR_211():
    """BR-211: in its Prelude the holder sets Construction Union beside a face-up played
    Construction card (here a Rival's lead); when the round ends that card goes to the
    holder's hand and the Union to the Court discard. Beside a card of another suit it is
    refused."""
    from tests.blighted_reach.empire_fate_tables import give

    t = ready(3, seed=1)
    give(t, RIVAL, "F208")
    follow_a_lead(t, "CON3", "MOB5", "pivot", [["CON3", "ADM6"], ["MOB5", "CON6"], ["AGG6", "MOB6"]])
    (union,) = abilities(t, RIVAL, "F208")
    assert union.params["params"] == {"card": "CON3"}
    refused(t, RIVAL, Action("act", {**union.params, "params": {"card": "MOB5"}}))
    t.act(RIVAL, union)
    t.act(RIVAL, Action("act", {"act": "done"}))
    t.act(OTHER, Action("play", {"card": "AGG6", "kind": "pivot"}))
    if any(p.kind == "seize" and p.seat == OTHER for p in t.state.prompts):
        t.act(OTHER, Action("seize", {"card": ""}))
    t.act(OTHER, Action("act", {"act": "done"}))
    s = t.state
    assert "CON3" in s.hands[RIVAL] and s.chapter == 1  # taken back when the round ended
    assert "F208" not in s.players[RIVAL].guild and "F208" in s.court_discard
    sound(t)


# -- Sworn Guardians (CC09, BC22's reprint) ----------------------------------------------------------
def test_CC09_sworn_guardians_shield_resources_and_guilds_until_stolen_first_then_buried_BR_031():
    """BR-031: a Rival's raid on the holder may not take its resources or other Guild cards;
    it may steal Sworn Guardians itself first (its raid cost in keys), which are buried, and
    then spend the rest of its keys as usual."""
    from tests.blighted_reach.test_fixes import raid_on_founder

    t = ready(3, seed=1)
    own(t, HOLDER, "CC09")
    own(t, HOLDER, "CC01")
    assert any(t.state.players[HOLDER].resources)
    raid_on_founder(t, keys=4)  # seat 1 raids seat 0 with 4 keys
    steals = [a.params for a in t.legal(RIVAL) if a.type == "steal"]
    assert {"card": "CC09"} in steals
    assert not any(p.get("card") == "CC01" or "slot" in p for p in steals)
    refused(t, RIVAL, Action("steal", {"card": "CC01"}))
    t.act(RIVAL, Action("steal", {"card": "CC09"}))
    s = t.state
    assert s.court_deck[-1] == "CC09" and "CC09" not in s.players[RIVAL].guild + s.players[HOLDER].guild
    steals = [a.params for a in t.legal(RIVAL) if a.type == "steal"]
    assert {"card": "CC01"} in steals  # the shield is gone: the keys left buy the rest
    t.act(RIVAL, Action("steal", {"card": "CC01"}))
    assert "CC01" in t.state.players[RIVAL].guild
    sound(t)
