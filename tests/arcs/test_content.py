"""The Arcs box as data: every fact the digest's tables give, checked against the shipped
files, and the loader refusing a broken box. The expected values here are typed in from
the digest (shared/rules/arcs-base-digest.md), independently of the data files."""
from __future__ import annotations

from fractions import Fraction

import pytest

from core.errors import ContentError
from plugins.arcs.content import DEFAULT_BOX, default_box, load_box
from plugins.arcs.reach import reach_for
from tests.content_files import copy_folder, edit_json

BOX = default_box()

# ARCS-032, typed from the digest's table: system -> (type, slots)
PLANETS = {
    "1.1": ("weapon", 2), "1.2": ("fuel", 1), "1.3": ("material", 2),
    "2.1": ("psionic", 1), "2.2": ("weapon", 1), "2.3": ("relic", 2),
    "3.1": ("material", 1), "3.2": ("fuel", 1), "3.3": ("weapon", 2),
    "4.1": ("relic", 2), "4.2": ("fuel", 2), "4.3": ("material", 1),
    "5.1": ("weapon", 1), "5.2": ("relic", 1), "5.3": ("psionic", 2),
    "6.1": ("material", 1), "6.2": ("fuel", 2), "6.3": ("psionic", 1),
}


def test_ARCS_018_019_six_clusters_of_a_gate_and_three_planets():
    """ARCS-018, ARCS-019: 6 clusters, 24 systems, 6 gates and 18 planets."""
    systems = BOX.systems
    assert len(systems) == 24
    assert sorted(s for s, p in systems.items() if p is None) == [f"{n}G" for n in range(1, 7)]
    assert len([p for p in systems.values() if p is not None]) == 18


def test_ARCS_027_029_030_032_033_034_planet_types_and_slots():
    """ARCS-027, ARCS-029, ARCS-030, ARCS-032: each planet's one type and 1-2 slots, gates none;
    ARCS-033 type totals; ARCS-034 slot totals per cluster (26 in all)."""
    planets = {s: p for s, p in BOX.systems.items() if p is not None}
    assert {s: (p.type, p.slots) for s, p in planets.items()} == PLANETS
    totals = {r: sum(1 for t, _ in PLANETS.values() if t == r) for r in ("material", "fuel", "weapon", "relic", "psionic")}
    assert totals == {"material": 4, "fuel": 4, "weapon": 4, "relic": 3, "psionic": 3}
    per_cluster = [sum(p.slots for p in c.planets) for c in BOX.map.clusters]
    assert per_cluster == [5, 4, 4, 5, 4, 4] and sum(per_cluster) == 26
    assert all(p is None for s, p in BOX.systems.items() if s.endswith("G"))  # a gate is no planet: no slots


def test_ARCS_031_planet_symbols():
    """ARCS-031 (as confirmed in the digest's 18.1): n.1 arrow, n.2 crescent, n.3 hexagon."""
    for cluster in BOX.map.clusters:
        assert [p.symbol for p in cluster.planets] == ["arrow", "crescent", "hexagon"]


def test_ARCS_020_to_026_adjacency_of_the_full_map():
    """ARCS-021 gate to its planets, ARCS-022 the gate ring, ARCS-023, ARCS-024 planets border
    their gate and planet neighbours only, ARCS-025 the planet edges, ARCS-026 symmetric."""
    reach = reach_for(BOX)
    for n in range(1, 7):
        assert reach.neighbours[f"{n}G"] == {f"{n}.1", f"{n}.2", f"{n}.3", f"{n % 6 + 1}G", f"{(n - 2) % 6 + 1}G"}
    planet_edges = {frozenset((a, b)) for a in reach.systems for b in reach.neighbours[a] if "." in a and "." in b}
    expected = {frozenset((f"{n}.1", f"{n}.2")) for n in range(1, 7)} | {frozenset((f"{n}.2", f"{n}.3")) for n in range(1, 7)}
    expected |= {frozenset(("2.3", "3.1")), frozenset(("5.3", "6.1"))}
    assert planet_edges == expected
    for a in ("1.3", "3.3", "4.3", "6.3"):  # the four cross-cluster pairs that do NOT border
        assert not reach.adjacent(a, f"{int(a[0]) % 6 + 1}.1")
    for s in reach.systems:
        for t in reach.neighbours[s]:
            assert reach.adjacent(t, s)
            if "." in s and t.endswith("G"):
                assert t == s[0] + "G"  # a planet never borders another cluster's gate
    assert sum(len(n) for n in reach.neighbours.values()) // 2 == 38


def test_ARCS_036_037_038_157_out_of_play_cluster_and_its_path_marker():
    """ARCS-036: a covered cluster's four systems are gone from the map; ARCS-038: the
    gates on either side border each other through the path marker."""
    reach = reach_for(BOX, [3])
    assert not {"3G", "3.1", "3.2", "3.3"} & reach.systems
    assert reach.adjacent("2G", "4G")
    assert not reach.adjacent("2.3", "3.1") and "3.1" not in reach.neighbours["2.3"]
    assert all("3" != s[0] for n in reach.neighbours.values() for s in n)


def test_ARCS_039_two_neighbouring_clusters_out():
    """ARCS-039: clusters 1 and 6 out: 5G and 2G border each other; clusters 2 and 5 out: 1G-3G and 4G-6G."""
    both = reach_for(BOX, [1, 6])
    assert both.adjacent("5G", "2G") and len(both.systems) == 16
    apart = reach_for(BOX, [2, 5])
    assert apart.adjacent("1G", "3G") and apart.adjacent("4G", "6G") and apart.adjacent("3G", "4G")
    assert not apart.adjacent("1G", "4G")


# ARCS-062, typed from the digest: card -> (out of play, [(A, B, C systems, start resources)])
SETUPS = {
    "2 Player Frontiers": ([1, 6], [("5.3", "4.3", ["3G", "3.3"], ("psionic", "material")),
                                    ("3.1", "5.1", ["5G", "4.1"], ("material", "weapon"))]),
    "2 Player Mix Up 1": ([2, 5], [("4.2", "3.2", ["1G", "6.1"], ("fuel", "fuel")),
                                   ("6.3", "3.3", ["4G", "1.2"], ("psionic", "weapon"))]),
    "2 Player Homelands": ([1, 4], [("5.1", "6.1", ["5G", "5.3"], ("weapon", "material")),
                                    ("3.3", "3.1", ["3G", "2.1"], ("weapon", "material"))]),
    "2 Player Mix Up 2": ([1, 4], [("5.2", "2.1", ["3G", "6.2"], ("relic", "psionic")),
                                   ("2.2", "6.1", ["5G", "3.3"], ("weapon", "material"))]),
    "3 Player Mix Up": ([1, 4], [("3.3", "5.2", ["2G"], ("weapon", "relic")), ("5.3", "2.1", ["3G"], ("psionic", "psionic")),
                                 ("2.3", "3.1", ["5G"], ("relic", "material"))]),
    "3 Player Frontiers": ([2, 3], [("1.3", "4.3", ["6G"], ("material", "material")), ("5.3", "1.2", ["5G"], ("psionic", "fuel")),
                                    ("4.2", "6.1", ["1G"], ("fuel", "material"))]),
    "3 Player Homelands": ([5, 6], [("2.3", "3.2", ["3G"], ("relic", "fuel")), ("1.3", "2.1", ["2G"], ("material", "psionic")),
                                    ("1.1", "4.3", ["4G"], ("weapon", "material"))]),
    "3 Player Core Conflict": ([3, 6], [("1.3", "2.2", ["1G"], ("material", "weapon")), ("2.3", "1.2", ["2G"], ("relic", "fuel")),
                                        ("1.1", "2.1", ["4G"], ("weapon", "psionic"))]),
    "4 Player Mix Up 1": ([3], [("4.1", "6.3", ["1G"], ("relic", "psionic")), ("4.3", "5.3", ["6G"], ("material", "psionic")),
                                ("5.1", "1.3", ["4G"], ("weapon", "material")), ("6.1", "1.1", ["5G"], ("material", "weapon"))]),
    "4 Player Mix Up 2": ([4], [("5.3", "3.1", ["2G"], ("psionic", "material")), ("3.3", "5.2", ["1G"], ("weapon", "relic")),
                                ("2.3", "1.3", ["3G"], ("relic", "material")), ("1.1", "2.1", ["5G"], ("weapon", "psionic"))]),
    "4 Player Frontiers": ([5], [("1.3", "3.2", ["2G"], ("material", "fuel")), ("2.3", "6.3", ["3G"], ("relic", "psionic")),
                                 ("4.2", "2.1", ["6G"], ("fuel", "psionic")), ("1.1", "6.1", ["4G"], ("weapon", "material"))]),
    "4 Player Mix Up 3": ([6], [("3.3", "5.2", ["1G"], ("weapon", "relic")), ("1.1", "3.1", ["2G"], ("weapon", "material")),
                                ("1.3", "4.3", ["3G"], ("material", "material")), ("4.1", "2.2", ["5G"], ("relic", "weapon"))]),
}


def test_ARCS_004_035_062_064_setup_cards():
    """ARCS-004: 12 setup cards, 4 per player count; ARCS-035: 2 clusters out (1 with 4
    players); ARCS-062: every position's systems, and the two start resources (the types of
    the A and B planets); ARCS-064: no start system lies out of play."""
    assert len(BOX.setups) == 12
    by_name = {c.name: c for c in BOX.setups.values()}
    assert sorted(by_name) == sorted(SETUPS)
    for name, (out, positions) in SETUPS.items():
        card = by_name[name]
        assert card.out_of_play == out and card.players == int(name[0])
        got = [(p.a, p.b, p.c, (BOX.systems[p.a].type, BOX.systems[p.b].type)) for p in card.positions]
        assert got == positions
        reach = reach_for(BOX, card.out_of_play)
        assert all(s in reach.systems for p in card.positions for s in (p.a, p.b, *p.c))


def test_ARCS_049_063_two_player_ambition_tokens():
    """ARCS-049/063: the tokens of the covered planets on the ambition boxes, per 2-player card."""
    counts = lambda out: {a: len(t) for a, t in BOX.ambition_tokens(out).items()}
    assert counts([1, 6]) == {"tycoon": 4, "tyrant": 0, "warlord": 1, "keeper": 0, "empath": 1}
    assert counts([2, 5]) == {"tycoon": 0, "tyrant": 0, "warlord": 2, "keeper": 2, "empath": 2}
    assert counts([1, 4]) == {"tycoon": 4, "tyrant": 0, "warlord": 1, "keeper": 1, "empath": 0}
    assert sorted(BOX.ambition_tokens([1, 6])["tycoon"]) == ["fuel", "fuel", "material", "material"]


def test_ARCS_003_042_065_to_070_action_cards():
    """ARCS-003/067: 28 cards, each suit 1-7; ARCS-042: 20 cards (2-6) for 2-3 players, 28 for 4;
    ARCS-065/066: suits and the actions their pips buy; ARCS-068 pips; ARCS-069 totals;
    ARCS-070 the ambition per number."""
    pips = {"administration": [4, 4, 3, 3, 3, 2, 1], "construction": [4, 4, 3, 3, 2, 2, 1],
            "mobilization": [4, 4, 3, 3, 2, 2, 1], "aggression": [3, 3, 2, 2, 2, 2, 1]}
    cards = BOX.actions.cards
    assert len(cards) == 28
    for suit, row in pips.items():
        assert [c.pips for c in sorted((c for c in cards if c.suit == suit), key=lambda c: c.number)] == row
    assert {s: sum(c.pips for c in cards if c.suit == s) for s in pips} == {
        "administration": 20, "construction": 19, "mobilization": 19, "aggression": 15}
    assert {s: set(a) for s, a in BOX.actions.suits.items()} == {
        "administration": {"tax", "repair", "influence"}, "aggression": {"battle", "move", "secure"},
        "construction": {"build", "repair"}, "mobilization": {"move", "influence"}}
    assert BOX.actions.ambition_by_number == {"1": None, "2": "tycoon", "3": "tyrant", "4": "warlord",
                                              "5": "keeper", "6": "empath", "7": "any"}
    number = {c.id: c.number for c in cards}
    for players in (2, 3):
        deck = BOX.action_deck(players)
        assert len(deck) == 20 and sorted({number[c] for c in deck}) == [2, 3, 4, 5, 6]
    assert len(BOX.action_deck(4)) == 28


def test_ARCS_008_172_174_175_dice():
    """ARCS-008/172: six dice of each kind; ARCS-174: the faces; ARCS-175: the expected symbols per die."""
    def mean(kind, symbol):
        return Fraction(sum(getattr(f, symbol) for f in BOX.dice[kind].faces), 6)
    assert [mean("assault", s) for s in ("hit", "self_hit", "intercept", "building_hit", "key")] == [
        Fraction(7, 6), Fraction(1, 2), Fraction(1, 6), 0, 0]
    assert [mean("skirmish", s) for s in ("hit", "self_hit", "intercept", "building_hit", "key")] == [
        Fraction(1, 2), 0, 0, 0, 0]
    assert [mean("raid", s) for s in ("hit", "self_hit", "intercept", "building_hit", "key")] == [
        0, Fraction(1, 2), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3)]
    raid = [(f.key, f.building_hit, f.self_hit, f.intercept) for f in BOX.dice["raid"].faces]
    assert raid == [(2, 0, 0, 1), (1, 0, 1, 0), (1, 1, 0, 0), (0, 1, 1, 0), (0, 1, 1, 0), (0, 0, 0, 1)]
    assert BOX.dice["raid"].faces and all(len(d.faces) == 6 for d in BOX.dice.values())


def test_ARCS_002_007_009_013_211_212_233_components_and_player_board():
    """ARCS-002 pieces per player; ARCS-007 5 of each of 5 resources; ARCS-211 the board's 6
    resource slots, which city slot covers which, the +2/+3 bonus slots; ARCS-212 raid costs;
    ARCS-009, ARCS-233 the three ambition markers' values on both sides."""
    b = BOX.board
    assert b.pieces_per_player == {"ships": 15, "starports": 5, "cities": 5, "agents": 10}
    assert b.supply_per_resource == 5 and len(b.resources) == 5
    assert [s.raid_cost for s in b.resource_slots] == [3, 1, 1, 2, 1, 3]
    assert [s.covered_by_city_slot for s in b.resource_slots] == [None, None, 1, 2, 3, 3]
    assert b.city_slot_bonus == {"4": 2, "5": 3}
    assert [(m.id, m.first, m.second, m.flipped_first, m.flipped_second) for m in b.ambition_markers] == [
        ("A", 5, 3, 9, 4), ("B", 3, 2, 6, 3), ("C", 2, 0, 4, 2)]


def test_ARCS_005_225_court_cards():
    """ARCS-005/225: BC01-31, five Guild cards of each suit in blocks (Material, Fuel, Weapon,
    Psionic, Relic), then six Vox; raid costs as the card library gives them."""
    court = BOX.court
    assert len(court) == 31
    suits = [court[f"BC{n:02d}"].suit for n in range(1, 26)]
    assert suits == ["material"] * 5 + ["fuel"] * 5 + ["weapon"] * 5 + ["psionic"] * 5 + ["relic"] * 5
    assert all(court[f"BC{n}"].kind == "vox" for n in range(26, 32))
    loyal = {"BC01": "material", "BC07": "fuel", "BC15": "weapon", "BC19": "psionic", "BC21": "relic"}
    for card_id, resource in loyal.items():
        card = court[card_id]
        assert card.raid_cost == 3
        assert {(a.when, a.do, a.resource) for a in card.abilities} >= {
            ("outrage", "keep_card", None), ("always", "spend_any_as", resource), ("always", "prelude_despite_outrage", resource)}
    assert {c.id for c in court.values() if c.raid_cost == 1} == {"BC22", "BC25"}
    assert court["BC29"].after_secured == "shuffle_into_court"


def test_ARCS_006_260_267_leaders_and_lore():
    """ARCS-006: 8 Leaders and 14 Lore; ARCS-260/267: each Leader's start layout and resources."""
    assert len(BOX.lore) == 14 and len(BOX.leaders) == 8
    layout = {l.name: ((l.a.ships, l.a.building), (l.b.ships, l.b.building), (l.c.ships, l.c.building), tuple(l.resources))
              for l in BOX.leaders.values()}
    std = ((3, "city"), (3, "starport"), (2, None))
    assert layout == {
        "Elder": (*std, ("relic", "material")), "Mystic": (*std, ("psionic", "relic")),
        "Fuel-Drinker": (*std, ("fuel", "fuel")), "Upstart": ((4, "city"), (3, "starport"), (2, None), ("psionic", "material")),
        "Rebel": ((4, "starport"), (4, None), (2, None), ("material", "weapon")), "Warrior": (*std, ("weapon", "material")),
        "Feastbringer": ((3, "city"), (3, "city"), (3, None), ("relic", "material")),
        "Demagogue": (*std, ("psionic", "weapon")),
    }


@pytest.mark.parametrize("file, edit, complaint", [
    ("map.json", lambda d: d["edges"].append(["1.1", "2G"]), "another cluster's gate"),
    ("map.json", lambda d: d["clusters"][0]["planets"][0].update(type="gold"), "map.json"),
    ("setup.json", lambda d: d["cards"][0]["positions"][0].update(a="1.1"), "out of play"),
    ("actions.json", lambda d: d["cards"].pop(), "28 action cards"),
    ("dice.json", lambda d: d["dice"][2]["faces"][0].update(hit=1), "raid dice never"),
    ("court.json", lambda d: d["cards"][0]["abilities"][1].pop("resource"), "spend_any_as needs resource"),
    ("court.json", lambda d: d["cards"][0].update(suit="fuel"), "BC01 is a material Guild card"),
    ("leaders.json", lambda d: d["cards"][0]["abilities"][0].update(do="fly"), "leaders.json"),
])
def test_a_broken_box_is_refused_naming_the_problem(tmp_path, file, edit, complaint):
    folder = copy_folder(DEFAULT_BOX, tmp_path, "box")
    edit_json(folder, file, edit)
    with pytest.raises(ContentError, match=complaint):
        load_box(folder)
