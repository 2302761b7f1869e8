"""The Blighted Reach box as data (issue 18, first piece). Only the component facts the
data itself is (counts, card lists, printed values) are named as checklist IDs here; a
rule about what happens in play (setup steps, Crises, card effects) is named as "BR nnn"
and is proven only when the campaign plays it through the engine."""
from __future__ import annotations

import pytest

from core.errors import ContentError
from plugins.blighted_reach.content import DEFAULT_BOX, default_box, load_box
from tests.content_files import copy_folder, edit_json

BOX = default_box()

# Card library (blightedreach.yml @ d7595fe3): Fate Set sizes, counted by card number.
SET_SIZES = {
    "Steward": 26, "Founder": 27, "Magnate": 27, "Advocate": 26, "Caretaker": 21, "Partisan": 25,
    "Admiral": 21, "Believer": 31, "Pathfinder": 11, "Hegemon": 12, "Planet Breaker": 12, "Pirate": 12,
    "Blight Speaker": 13, "Pacifist": 12, "Peacekeeper": 11, "Warden": 19, "Overlord": 3, "Survivalist": 5,
    "Redeemer": 4, "Guardian": 4, "Naturalist": 4, "Gate Wraith": 6, "Conspirator": 5, "Judge": 5,
}
A_FATES = ["Steward", "Founder", "Magnate", "Advocate", "Caretaker", "Partisan", "Admiral", "Believer"]


def test_BR_001_002_twenty_four_fates_eight_per_letter_with_their_sets():
    """BR-001: 24 Fates, 8 each of A, B, C; BR-002: each has a numbered Fate Set whose first
    card is its objective card."""
    fates = sorted(BOX.fates.values(), key=lambda f: f.number)
    assert [f.name for f in fates[:8]] == A_FATES
    assert [f.letter for f in fates] == ["A"] * 8 + ["B"] * 8 + ["C"] * 8
    assert {f.name: len(f.cards) for f in fates} == SET_SIZES
    assert all(f.cards[0].kind == "setup" and f.cards[0].objective is not None for f in fates)
    assert len(BOX.fate_cards) == sum(SET_SIZES.values()) == 342


def test_BR_005_033_the_campaign_court_is_ten_guild_and_five_vox_cc_cards():
    """BR-005/BR-033: 15 CC cards, CC01-10 Guild (suits as the library gives), CC11-15 Vox."""
    suits = [BOX.court[f"CC{n:02d}"].suit for n in range(1, 11)]
    assert suits == ["material", "material", "fuel", "fuel", "weapon", "weapon", "psionic", "psionic", "relic", "relic"]
    assert all(BOX.court[f"CC{n:02d}"].raid_cost == 2 for n in range(1, 11))
    assert [BOX.court[f"CC{n}"].kind for n in range(11, 16)] == ["vox"] * 5
    assert not any(c.id.startswith("BC") for c in BOX.court.values())


def test_court_cards_reprint_the_base_effects():
    """BR 023 Mining Interest, BR 026/027 Gatekeepers, BR 028 Lattice Spies, BR 031 Sworn
    Guardians: the CC reprints carry the base card's effects."""
    ops = lambda cid: {(a.when, a.do) for a in BOX.effects_of(cid)}
    assert ("new_action", "gain") in ops("CC01") and ("prelude_discard", "gain_to_fill_slots") in ops("CC01")
    assert {("battle", "extra_dice"), ("prelude_discard", "place_ships")} <= ops("CC03")
    assert ("prelude_first_discard", "seize_initiative") in ops("CC07")
    assert ("always", "steal_protection") in ops("CC09") and BOX.court["CC09"].raid_cost == 2


def test_vox_crises_and_secured_effects():
    """BR 024/025 Populist Demands, BR 029/030 Song of Freedom, BR 229/230 Diplomatic Fiasco."""
    eff = lambda cid: [(a.when, a.do) for a in BOX.court[cid].abilities]
    assert eff("CC11") == [("crisis", "return_top_declared_marker"), ("secured", "declare_any"), ("secured", "bury_self")]
    assert eff("CC14") == [("crisis", "most_power_frees_city"), ("secured", "free_city_then_seize"), ("secured", "shuffle_self_into_court")]
    assert eff("CC13") == [("crisis", "discard_guilds_to_agent_count"), ("crisis", "bury_self"), ("secured", "rivals_resolve_crisis")]


def test_BR_006_007_008_012_013_014_035_components():
    """BR-006 3 Event cards, BR-007 the two-sided Council, BR-008 4 Edicts numbered 02-05,
    BR-012 24 Blight, BR-013 28 Free cities and 14 Free starports, BR-014 15 Imperial ships,
    BR-035 18 dice, 25 resources (and the pieces per player of Player Setup A)."""
    c = BOX.box.counts
    assert (c["event_cards"], c["edicts"], c["titles"], c["blight"]) == (3, 4, 4, 24)
    assert (c["free_cities"], c["free_starports"], c["imperial_ships"]) == (28, 14, 15)
    assert (c["battle_dice"], c["resources"], c["overflow_markers"]) == (18, 25, 4)
    assert BOX.box.player_pieces == {"ships": 15, "cities": 5, "starports": 5, "agents": 10}
    assert BOX.events.copies == 3
    council = {card.id: card for card in BOX.empire.cards if card.kind == "council"}
    assert {(k, v.side, v.flip_side) for k, v in council.items()} == {("AID01A", "in_session", "AID01B"), ("AID01B", "decided", "AID01A")}
    assert sorted(card.id for card in BOX.empire.cards if card.kind == "edict") == ["AID02", "AID03", "AID04", "AID05"]


def test_BR_015_the_event_die_shows_each_kind_with_each_symbol_once():
    """BR-015: six faces, Crisis and Edict each with arrow, hex and moon once (visnup/arcs-ttpg
    assets/Templates/dice/event.json @ 6117881: three Edict faces, three unmarked)."""
    faces = [tuple(f) for f in BOX.box.event_die_faces]
    assert sorted(faces) == sorted((k, s) for k in ("crisis", "edict") for s in ("arrow", "hex", "moon"))


def test_act_one_decks():
    """BR 037/038 the action deck 2-6, plus 1 and 7 with 4 players; BR 039 Event cards 2/2/3;
    BR 043 Court row 3/4/4; BR 044 one lore per player."""
    one = BOX.campaign.act_one
    assert one.action_numbers == [2, 3, 4, 5, 6] and one.four_player_numbers == [1, 7]
    assert one.event_cards == {"2": 2, "3": 2, "4": 3}
    assert one.court_row == {"2": 3, "3": 4, "4": 4} == BOX.campaign.later_acts.court_row
    assert one.lore_per_player == 1


def test_act_one_map_and_placement():
    """BR 048: 2 Imperial clusters, 1 ship per system (8 ships); BR 050: 1 damaged Blight in
    each other system (16); BR 051 the 2-player token map; BR 059/061: two placement rounds,
    turn order then reverse, of 3 ships, 1 building and 1 resource; BR 063 hands of 6."""
    one = BOX.campaign.act_one
    systems_per_cluster, clusters = 4, 6
    assert one.imperial_clusters * systems_per_cluster * one.imperial_ships_per_system == 8
    assert (clusters - one.imperial_clusters) * systems_per_cluster * one.damaged_blight_per_other_system == 16
    assert one.two_player_ambition_tokens == {"material": "tycoon", "fuel": "tycoon", "weapon": "warlord",
                                              "relic": "keeper", "psionic": "empath"}
    assert one.placement_rounds == ["turn_order", "reverse"]
    assert one.placement == {"ships": 3, "buildings": 1, "resources": 1} and one.hand_size == 6


def test_later_act_setup():
    """BR 067/068: flip the 1 (Act II) or 2 (Act III) lowest markers; BR 070 Blight on empty
    gates; BR 073 two number-die rolls with 2 players."""
    later = BOX.campaign.later_acts
    assert later.flip_lowest_ambition_markers == {"2": 1, "3": 2}
    assert later.blight_on_empty_gates == 1 and later.two_player_number_rolls == 2


def test_BR_101_campaign_structure():
    """BR 078 3/3/4 chapters; BR 082 ties favour A over B over C; BR 089 Intermissions after
    Acts I and II; BR-101 grand ambition Power per chapter; BR 348/349 Fate draws."""
    c = BOX.campaign
    assert c.chapters_per_act == {"1": 3, "2": 3, "3": 4}
    assert c.tie_break_letters == ["A", "B", "C"] and c.intermission_after_acts == [1, 2]
    assert c.grand_ambition_power == {"1": (2, 4), "2": (3, 8), "3": (4, 14), "4": (5, 20)}
    assert c.fate_draw == {"completed": 1, "failed": 2} and c.next_letter == {"1": "B", "2": "C"}
    assert len(c.intermission_steps) == 6


def test_policies_and_edicts():
    """BR 240: Edict 00 only with 2 players, Govern is Edict 03; BR 244..246 the demands;
    BR 254 Requisition places 2 ships; BR 255 War gives 1 Weapon."""
    cards = {c.id: c for c in BOX.empire.cards}
    assert cards["AID02"].edict_number == 0 and cards["AID02"].players == [2]
    assert {cards[i].edict_number for i in ("AID03", "AID04", "AID05")} == {3}
    pol = {p.name: p for p in BOX.empire.policies}
    assert set(pol["peace"].demand_resources) == {"relic", "psionic"} and pol["peace"].demand_from == "each_regent"
    assert set(pol["escalation"].demand_resources) == {"material", "fuel", "weapon"}
    assert pol["escalation"].action == "requisition_ships" and pol["escalation"].action_count == 2
    assert set(pol["war"].demand_pieces) == {"trophy", "captive"} and pol["war"].demand_from == "each_rival_regent"
    assert pol["war"].action_count == 1


def test_steward_cards():
    """BR 020 Steward's Act I setup; BR 021 Imperial Authority; BR 022 Dealmakers (protected
    Psionic, Bargain on secure); BR 331/332 the Act I Resolution, both branches."""
    cards = BOX.fate_cards
    setup = [(a.do, a.cards) for a in cards["F101"].abilities]
    assert setup == [("gain_cards", ["F102", "F103"]), ("take_first_regent", [])]
    authority = {(a.do, tuple(a.laws)) for a in cards["F102"].abilities}
    assert authority == {("bury_if_outlaw", ()), ("tax_empire_cities", ()), ("ignore_laws", ("presence", "truce"))}
    deal = cards["F103"]
    assert deal.suit == "psionic" and deal.protected and deal.abilities[0].action == "secure"
    steps = [(a.when, a.do, a.cards) for a in cards["F104"].abilities]
    assert steps == [
        ("success", "add_to_court_deck", ["F105", "F106", "F107"]), ("success", "add_to_booklet", ["F108"]),
        ("success", "scrap_cards", ["F109", "F110", "F111"]),
        ("failure", "scrap_cards", ["F105", "F106", "F107", "F108"]), ("failure", "add_to_court_deck", ["F109", "F110", "F111"]),
        ("failure", "add_to_court_deck", ["F103"])]


def test_BR_092_095_objectives():
    """BR-092 Admiral I starts on 13 for every count; BR-095 Founder I on 18/16/14 for 2/3/4
    players (the rulebook's 14-18); BR 098 A and B Fates have a grand ambition pair in Act
    III, C Fates a final objective; BR 104/105 the Steward's two."""
    cards = BOX.fate_cards
    assert cards["F701"].objective.start == 13 and not cards["F701"].objective.start_by_players
    assert cards["F201"].objective.start is None
    assert cards["F201"].objective.start_by_players == {"2": 18, "3": 16, "4": 14}
    for fate in BOX.fates.values():
        act3 = [c for c in fate.cards if c.kind == "setup" and c.act == 3]
        assert len(act3) == 1 and act3[0].objective.kind == ("final" if fate.letter == "C" else "grand")
    assert cards["F122"].objective.goals == ["regent_and_empire_holds_outlaw_cities", "first_regent_trust_above_chapter"]


# visnup/arcs-ttpg assets/update.ts @ 2ddbb32c: the start space of each Fate Set's first
# objective card, for 2, 3 and 4 players (A: Act I, B: Act II, C: Act III final objective).
FIRST_STARTS = {
    "F101": (20, 17, 14), "F201": (18, 16, 14), "F301": (10, 10, 10), "F401": (18, 18, 18),
    "F501": (18, 18, 18), "F601": (12, 11, 10), "F701": (13, 13, 13), "F801": (10, 9, 8),
    "F901": (8, 8, 8), "F1001": (14, 14, 14), "F1101": (12, 12, 12), "F1201": (24, 21, 18),
    "F1301": (18, 16, 14), "F1401": (16, 14, 12), "F1501": (18, 16, 14), "F1601": (22, 22, 22),
    "F1701": (20, 20, 20), "F1801": (22, 18, 14), "F1901": (16, 14, 12), "F2001": (20, 18, 16),
    "F2101": (18, 16, 14), "F2201": (24, 21, 18), "F2301": (12, 9, 6), "F2401": (6, 6, 6),
}


def test_every_fate_starts_its_first_objective_on_a_recorded_space():
    """BR 085 (the data it needs): the objective card a Fate begins with (an A Fate's Act I,
    a B Fate's Act II, a C Fate's Act III final objective) has a start space for 2, 3 and 4
    players; BR-092 and BR-095, the two the rulebook prints, agree. The A Fates' Act II
    cards have none in the source, so the table gives those."""
    from plugins.blighted_reach.objectives import objective_start

    first_act = {"A": 1, "B": 2, "C": 3}
    seen = {}
    for fate in BOX.fates.values():
        card = fate.cards[0]
        assert card.act == first_act[fate.letter] and card.objective.kind in ("objective", "final")
        seen[card.id] = tuple(objective_start(card.objective, n) for n in (2, 3, 4))
    assert seen == FIRST_STARTS
    assert seen["F701"] == (13, 13, 13) and seen["F201"] == (18, 16, 14)


def test_admiral_and_founder_advances():
    """BR 093/094 Admiral I and BR 096/097 Founder I: what advances, how far, and when."""
    adv = lambda cid: [(a.when, a.amount, a.per, tuple(a.only_if)) for a in BOX.fate_cards[cid].objective.advances]
    assert adv("F701") == [("event", 1, "imperial_ship_placed", ("regent", "winning_ambition")),
                           ("event", 1, "trophy_with_imperial_attackers", ("regent",))]
    assert adv("F201") == [("win_ambition", 3, "ambition_won", ("outlaw",)), ("chapter_end", 1, "controlled_system", ("outlaw",))]


def test_BR_308_protected_guild_cards():
    """BR-308: protected cards show X for raid cost (the library's 0 keys); BR 311 Parade
    Fleets is a protected Fuel card placing 2 ships at a Free city on declaring, then a
    Regent may turn Outlaw."""
    parade = BOX.fate_cards["F202"]
    assert parade.protected and parade.raid_cost == 0 and parade.suit == "fuel"
    assert (parade.abilities[0].when, parade.abilities[0].count, parade.abilities[0].where) == ("declare", 2, "free_city")
    assert (parade.abilities[1].when, parade.abilities[1].handler) == ("declare", "regent_may_become_outlaw")
    protected = {c.id for c in BOX.fate_cards.values() if c.protected}
    assert {"F103", "F202", "F302", "F402", "F403", "F504", "F602", "F702", "F802"} <= protected


# issue 20: the later Fates built so far (the Blight Speaker, the Pacifist, the Overlord, the
# Redeemer, the Guardian)
BUILT_LATER_FATES = {"FATE09", "FATE10", "FATE11", "FATE12", "FATE13", "FATE14", "FATE15", "FATE16", "FATE17",
                     "FATE18", "FATE19", "FATE20", "FATE21", "FATE22", "FATE23", "FATE24"}


def test_a_fates_are_complete_and_every_set_card_moved_is_known():
    """Issue 18: the eight A Fates carry every effect as data (Faithful action cards carry none
    in the card library); every card a step moves is a known id."""
    for fate in BOX.fates.values():
        assert fate.effects_complete == (fate.letter == "A" or fate.id in BUILT_LATER_FATES)
    for name in A_FATES:
        fate = next(f for f in BOX.fates.values() if f.name == name)
        for card in fate.cards:
            if card.kind != "action":
                assert BOX.effects_of(card.id), card.id


@pytest.mark.parametrize("file, edit, complaint", [
    ("court.json", lambda d: d["cards"][10]["abilities"][0].update(do="fly"), r"court.json: .*abilities"),
    ("court.json", lambda d: d["cards"].pop(), "court.json: the campaign Court is CC01-CC15"),
    ("court.json", lambda d: d["cards"][0].pop("suit"), r"court.json: CC01.suit"),
    ("fates.json", lambda d: d["fates"][0]["cards"][3]["abilities"][0].update(cards=["F199"]), r"fates.json: F104.abilities\[0\].cards: unknown card id F199"),
    ("fates.json", lambda d: d["fates"][0]["cards"][0]["abilities"][0].pop("cards"), r"fates.json: F101.abilities\[0\]: gain_cards needs cards"),
    ("fates.json", lambda d: d["fates"][0]["cards"][4].update(reprint_of="CC99"), r"fates.json: F105.reprint_of: unknown card CC99"),
    ("fates.json", lambda d: d["fates"][6]["cards"][0]["objective"]["advances"][0].update(per="vibes"), r"fates.json: F701.objective.advances: unknown count"),
    ("fates.json", lambda d: d["fates"][0].update(letter="B"), r"fates.json: FATE01.letter"),
    ("fates.json", lambda d: d["fates"][0]["cards"][2].pop("protected"), r"fates.json: F103.raid_cost"),
    ("fates.json", lambda d: d["fates"][0]["cards"][0]["objective"]["start_by_players"].pop("4"), r"fates.json: F101.objective.start_by_players"),
    ("fates.json", lambda d: d["fates"][6]["cards"][0]["objective"].update(start_by_players={"2": 13, "3": 13, "4": 13}), r"fates.json: F701.objective: one start"),
    ("empire.json", lambda d: d["cards"][0].update(flip_side="AID99"), r"empire.json: AID01A.flip_side: unknown card AID99"),
    ("events.json", lambda d: d.update(copies=2), "events.json: copies"),
    ("setup.json", lambda d: d["act_one"].pop("court_row"), r"setup.json: .*court_row"),
])
def test_a_broken_box_is_refused_naming_file_and_field(tmp_path, file, edit, complaint):
    folder = copy_folder(DEFAULT_BOX, tmp_path, "box")
    edit_json(folder, file, edit)
    with pytest.raises(ContentError, match=complaint):
        load_box(folder)


def _read_by_name(code: str, name: str) -> bool:
    """The rules code names it other than where it defines an op of that name (an op defined
    but never registered is no rule)."""
    return code.count(f'"{name}"') > code.count(f'@op("{name}"')


def test_every_rule_a_campaign_court_or_lore_card_names_is_implemented():
    """A Court or Lore card's effect (Crises aside: `crises` resolves those) names either an op
    the base op registry runs, or a standing rule or disposal that the rules code reads by
    that name (or a rule written for that card by its id). A name nobody reads would make the card silently do nothing (Song of
    Freedom's and Blight Looms' When Secured once did)."""
    import pathlib

    import plugins.blighted_reach.plugin  # noqa: F401 (every op registered)
    from plugins.arcs import abilities
    from plugins.blighted_reach.rules_box import rules_box

    box = rules_box()
    code = "".join(p.read_text() for folder in ("plugins/arcs", "plugins/blighted_reach")
                   for p in pathlib.Path(folder).glob("*.py") if p.name != "content.py")  # not the vocabulary
    unread = sorted({(card.id, ab.do) for card in [*box.court.values(), *box.lore.values()] for ab in card.abilities
                     if ab.when != "crisis" and ab.do not in abilities.OPS and not _read_by_name(code, ab.do)
                     and f'"{card.id}"' not in code})
    assert unread == []
