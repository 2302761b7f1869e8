"""Components, the map, setup and the action cards (digest sections 1-4), checked on real
tables built by the engine, or on the box data against numbers typed in from the digest
(independently of the data files)."""
from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from core.engine import create_table
from core.errors import ActionRejected, BadPlayerCount
from core.rng import seed_state
from core.state import Seat
from plugins.arcs.content import default_box
from plugins.arcs.setup import set_up
from plugins.arcs.state import ArcsState
from tests.arcs.flow_helpers import act, answer, clear_map, prompt_of, put, restart_round, table

BOX = default_box()
RESOURCES = {"material", "fuel", "weapon", "relic", "psionic"}
AMBITIONS = {"tycoon", "tyrant", "warlord", "keeper", "empath"}


def lead(t, card: str, ambition: str = "") -> None:
    answer(t, 0, "lead", card=card)
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition=ambition)


# -- section 1: components ------------------------------------------------------------------
@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_ARCS_001_only_two_to_four_players_refused_otherwise(players):
    """ARCS-001: a table of any other size is refused with a typed error."""
    with pytest.raises(BadPlayerCount):
        create_table("arcs", players, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ARCS_001_two_three_and_four_players_play(players):
    """ARCS-001: 2, 3 and 4 players each get a table waiting for its first decision."""
    t = create_table("arcs", players, seed=4)
    assert len(t.state.players) == players and t.state.prompts


def test_ARCS_010_one_initiative_marker_one_chapter_marker_one_zero_marker():
    """ARCS-010: one initiative holder, one chapter, and the zero marker on at most one card
    (the lead card): after a declaration no follower's play can carry it, and a second
    round's lead starts unmarked."""
    t = table(3)
    s = t.state
    assert isinstance(s.initiative, int) and 0 <= s.initiative < 3 and s.chapter == 1
    restart_round(t, [["ADM2", "ADM5"], ["ADM4", "CON5"], ["ADM3", "MOB3"]], initiative=0)
    lead(t, "ADM2", "tycoon")
    assert t.state.declared and t.state.lead == "ADM2"
    act(t, 0, "done")
    answer(t, 1, "play", card="ADM4", kind="surpass")
    assert prompt_of(t, 1).kind == "seize"  # a follower is never offered a declaration
    answer(t, 1, "seize", card="")
    act(t, 1, "done")
    answer(t, 2, "play", card="ADM3", kind="surpass")
    answer(t, 2, "seize", card="")
    act(t, 2, "done")
    s = t.state
    assert s.initiative == 1 and not s.declared and s.lead == "" and s.chapter == 1


def test_ARCS_011_040_path_and_out_of_play_markers_suffice_for_every_setup_card():
    """ARCS-011: 4 path markers (2 long, 2 short) and 6 out-of-play markers; ARCS-040: the long
    ones fit clusters 1 and 4. No setup card needs more of either than the box holds."""
    length = {c.id: c.path_marker for c in BOX.map.clusters}
    assert length == {1: "long", 2: "short", 3: "short", 4: "long", 5: "short", 6: "short"}
    for card in BOX.setups.values():
        used = Counter(length[c] for c in card.out_of_play)
        assert used["long"] <= 2 and used["short"] <= 2 and sum(used.values()) <= 4
        assert 3 * len(card.out_of_play) <= 6  # one out-of-play marker per covered planet
    # the worst case really happens: two clusters out use all six out-of-play markers
    assert max(len(c.out_of_play) for c in BOX.setups.values()) == 2


def test_ARCS_013_050_051_player_board_before_and_after_the_starting_pieces():
    """ARCS-013: 5 city slots, 6 resource slots, Outrage slots one per resource type, a
    Trophies and a Captives box; ARCS-050: the 5 cities start in the 5 slots; ARCS-051:
    Power starts at 0. Then the engine's table: the leftmost city went to the A system."""
    state = ArcsState(game="arcs", seats=[Seat(index=i) for i in range(3)], rng=seed_state(2))
    set_up(BOX, state, pieces=False)
    for p in state.players:
        assert p.cities_on_board == [True] * 5 and len(p.resources) == 6
        assert p.power == 0 and p.trophies == [] and p.captives == [] and p.outrage == []
    assert len(BOX.board.resource_slots) == 6 and set(BOX.board.resources) == RESOURCES
    t = table(4, seed=9)
    for seat, p in enumerate(t.state.players):
        assert p.power == 0
        on_map = sum(1 for h in t.state.systems.values() for b in h.buildings if b.owner == seat and b.kind == "city")
        assert p.cities_on_board == [False, True, True, True, True] and on_map == 1


def test_ARCS_013_one_outrage_slot_per_resource_type_through_a_battle():
    """ARCS-013: an Outrage slot per type, covered once: two Outrages of one type leave one
    covered slot (the second places no agent)."""
    from plugins.arcs.outrage import provoke_outrage

    t = table(3)
    s = t.state
    agents = s.players[0].agents
    provoke_outrage(BOX, s, 0, "fuel")
    provoke_outrage(BOX, s, 0, "fuel")
    provoke_outrage(BOX, s, 0, "relic")
    assert s.players[0].outrage == ["fuel", "relic"] and s.players[0].agents == agents - 2


def test_ARCS_014_map_edge_furniture_in_the_table():
    """ARCS-014: a Power per player, five ambition boxes and the Available area, a Lead slot
    and the follow plays, the Ambition Declared slot (zero marker home), a chapter track
    that ends at 5, a face-down discard (only its size is shown)."""
    t = table(3)
    s = t.state
    assert set(s.ambition_boxes) == AMBITIONS and all(v == [] for v in s.ambition_boxes.values())
    assert len(s.markers_available) == 3 and BOX.board.last_chapter == 5
    v = t.view(0)
    for field in ("players", "ambition_boxes", "markers_available", "lead", "plays", "declared", "chapter"):
        assert field in v
    assert "action_discard" not in v and v["action_discard_count"] == len(s.action_discard)


def test_ARCS_015_court_row_face_up_deck_face_down_discard_face_up():
    """ARCS-015: every viewer sees the Court row and discard; of the deck only its size."""
    t = table(4, seed=5)
    t.state.court_discard = [t.state.court_deck.pop()]
    for viewer in (None, 0, 3):
        v = t.view(viewer)
        assert v["court_row"] == t.state.court_row and len(v["court_row"]) == 4
        assert v["court_discard"] == t.state.court_discard
        assert "court_deck" not in v and v["court_deck_count"] == 26


def test_ARCS_016_no_stacking_limit_in_a_system():
    """ARCS-016: ships of three players already fill a system and more move in."""
    t = table(3, setup_card="3SETUP01")  # clusters 1 and 4 out
    clear_map(t)
    restart_round(t, [["MOB2"], ["CON2"], ["CON3"]], initiative=0)
    put(t, "2G", 0, fresh=12)
    put(t, "3G", 1, fresh=10)
    put(t, "3G", 2, fresh=15)
    lead(t, "MOB2")
    act(t, 0, "move", origin="2G", path=["3G"], fresh=12)
    here = t.state.systems["3G"]
    assert [here.ships_of(i).total for i in range(3)] == [12, 10, 15]


def test_ARCS_017_names_have_no_rules_effect():
    """ARCS-017: the engine knows players by seat only (no colour): the same seed with other
    names gives the same game."""
    a = create_table("arcs", 3, seed=8, names=["Red", "White", "Yellow"])
    b = create_table("arcs", 3, seed=8, names=["Teal", "Ann", "Bo"])
    strip = lambda t: {k: v for k, v in msgspec.to_builtins(t.state).items() if k != "seats"}
    assert strip(a) == strip(b)


# -- section 2: the map ---------------------------------------------------------------------
def test_ARCS_020_a_thick_border_is_no_adjacency_move_refused():
    """ARCS-020: 1.3 and 2.1 meet across a thick border: a ship cannot move from one to the
    other directly, while 1.2 (a thin border) is one move away."""
    t = table(4, setup_card="4SETUP01")  # cluster 3 out
    clear_map(t)
    restart_round(t, [["MOB2"], ["CON2"], ["CON3"], ["CON4"]], initiative=0)
    put(t, "1.3", 0, fresh=2)
    lead(t, "MOB2")
    with pytest.raises(ActionRejected):
        act(t, 0, "move", origin="1.3", path=["2.1"], fresh=1)
    act(t, 0, "move", origin="1.3", path=["1.2"], fresh=1)
    assert t.state.systems["1.2"].ships_of(0).fresh == 1


@pytest.mark.parametrize("system, resource", [("2.1", "psionic"), ("2.3", "relic"), ("3.2", "fuel")])
def test_ARCS_028_a_taxed_city_yields_its_planets_type(system, resource):
    """ARCS-028: the Tax action gives the type of the planet the city stands on."""
    from plugins.arcs.state import Building

    t = table(3, setup_card="3SETUP01")
    clear_map(t)
    restart_round(t, [["ADM2"], ["CON2"], ["CON3"]], initiative=0)
    s = t.state
    s.systems[system].buildings.append(Building(kind="city", owner=0))
    s.players[0].cities_on_board[0] = False
    s.systems["2G"].ships[0].fresh = 1  # a piece on the map keeps the safety net away
    s.players[0].ships -= 1
    before = list(s.players[0].resources)
    lead(t, "ADM2")
    act(t, 0, "tax", system=system, building=0)
    got = [r for r, was in zip(t.state.players[0].resources, before) if r != was]
    assert got == [resource]


# -- section 3: setup -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ARCS_043_044_045_the_markers_at_the_start(players):
    """ARCS-043: three ambition markers Available, none flipped, the boxes empty; ARCS-044:
    chapter 1; ARCS-045: the zero marker at home (no card carries it, nothing declared)."""
    t = create_table("arcs", players, seed=3)
    s = t.state
    assert [(m.id, m.flipped) for m in s.markers_available] == [("A", False), ("B", False), ("C", False)]
    assert all(v == [] for v in s.ambition_boxes.values())
    assert s.chapter == 1 and not s.declared and s.ambition_declared == "" and s.lead == ""


@pytest.mark.parametrize("card", sorted(BOX.setups))
def test_ARCS_054_three_ships_and_a_starport_in_each_B_system(card):
    """ARCS-054: on every setup card each player's B system holds exactly 3 of their ships
    and 1 of their starports (and no city of theirs), in the engine's table."""
    players = BOX.setups[card].players
    t = create_table("arcs", players, seed=6, options={"setup_card": card})
    s = t.state
    for position, spot in enumerate(BOX.setups[card].positions):
        seat = (s.initiative + position) % players
        here = s.systems[spot.b]
        mine = [b.kind for b in here.buildings if b.owner == seat]
        assert here.ships_of(seat).fresh == 3 and here.ships_of(seat).damaged == 0
        assert mine == ["starport"]
        assert s.players[seat].starports == 4


def test_ARCS_063_two_player_ambition_box_tokens_in_the_engine():
    """ARCS-063: the tokens a 2-player table puts on the ambition boxes per card (Frontiers,
    Mix Up 1, Homelands, Mix Up 2); Tyrant never gets one; they leave the supply."""
    expected = {
        "2 Player Frontiers": {"tycoon": 4, "warlord": 1, "keeper": 0, "empath": 1},
        "2 Player Mix Up 1": {"tycoon": 0, "warlord": 2, "keeper": 2, "empath": 2},
        "2 Player Homelands": {"tycoon": 4, "warlord": 1, "keeper": 1, "empath": 0},
        "2 Player Mix Up 2": {"tycoon": 4, "warlord": 1, "keeper": 1, "empath": 0},
    }
    by_name = {c.name: c.id for c in BOX.setups.values()}
    for name, counts in expected.items():
        t = create_table("arcs", 2, seed=2, options={"setup_card": by_name[name]})
        s = t.state
        got = {a: len(s.ambition_tokens.get(a, [])) for a in AMBITIONS}
        assert got == {**counts, "tyrant": 0}, name
        if counts["tycoon"]:
            assert sorted(s.ambition_tokens["tycoon"]) == ["fuel", "fuel", "material", "material"]
        held = Counter(r for p in s.players for r in p.resources if r)
        on_boxes = Counter(r for v in s.ambition_tokens.values() for r in v)
        assert all(s.supply[r] + held[r] + on_boxes[r] == 5 for r in RESOURCES)


# -- section 4: action cards ----------------------------------------------------------------
SUIT_ACTIONS = {"ADM": {"tax", "repair", "influence"}, "AGG": {"battle", "move", "secure"},
                "CON": {"build", "repair"}, "MOB": {"move", "influence"}}


@pytest.mark.parametrize("prefix", sorted(SUIT_ACTIONS))
def test_ARCS_066_what_a_suits_pips_buy_when_leading_and_pivoting(prefix):
    """ARCS-066: a lead card's pips buy its suit's actions, a Pivot's pip its own suit's."""
    t = table(3)
    other = "CON" if prefix != "CON" else "ADM"
    restart_round(t, [[f"{other}3"], [f"{prefix}5"], [f"{prefix}2"]], initiative=0)
    answer(t, 0, "lead", card=f"{other}3")
    answer(t, 0, "declare", ambition="")
    assert set(t.state.turn.actions) == SUIT_ACTIONS[other]
    act(t, 0, "done")
    answer(t, 1, "play", card=f"{prefix}5", kind="pivot")  # the last card: no seize prompt
    assert set(t.state.turn.actions) == SUIT_ACTIONS[prefix] and t.state.turn.pips == 1


def test_ARCS_066_a_pip_cannot_buy_another_suits_action():
    """ARCS-066: a Construction pip does not Tax; an Administration pip does not Build."""
    t = table(3, setup_card="3SETUP01")
    restart_round(t, [["CON3"], ["CON2"], ["CON4"]], initiative=0)
    lead(t, "CON3")
    city = next((name, i) for name, h in t.state.systems.items() for i, b in enumerate(h.buildings)
                if b.owner == 0 and b.kind == "city")
    with pytest.raises(ActionRejected):
        act(t, 0, "tax", system=city[0], building=city[1])
    assert t.state.turn.pips == 3


def test_ARCS_067_each_suit_one_card_per_number_and_1s_and_7s_only_with_four():
    """ARCS-067: each suit holds 1..7 once; a 4-player table's cards include every 1 and 7,
    a 2- or 3-player table's none of them."""
    numbers = Counter((c.suit, c.number) for c in BOX.actions.cards)
    assert set(numbers) == {(s, n) for s in ("administration", "aggression", "construction", "mobilization")
                            for n in range(1, 8)} and set(numbers.values()) == {1}
    number = {c.id: c.number for c in BOX.actions.cards}
    for players, has_extremes in ((2, False), (3, False), (4, True)):
        s = create_table("arcs", players, seed=1).state
        dealt = [c for h in s.hands for c in h] + s.action_discard
        extremes = [c for c in dealt if number[c] in (1, 7)]
        assert len(extremes) == (8 if has_extremes else 0)


def test_ARCS_071_the_zero_marker_hides_the_number_not_the_pips():
    """ARCS-071: a declared Administration 6 still gives its 2 pips, but its number is 0: an
    Administration 2 Surpasses it."""
    t = table(3)
    restart_round(t, [["ADM6"], ["ADM2"], ["CON3"]], initiative=0)
    lead(t, "ADM6", "empath")
    assert t.state.declared and t.state.turn.pips == 2
    act(t, 0, "done")
    assert ("surpass" in {a.params["kind"] for a in t.legal(1) if a.params["card"] == "ADM2"})
    answer(t, 1, "play", card="ADM2", kind="surpass")
    assert t.state.turn.pips == 4
