"""The Queen's Dilemma Legacy elements: the codes that open and unlock them, Skills,
Buildings, Keywords, Chronicle cards (bands, Heralds, Pass Action spaces, Duration), Ending
stickers and Story slots, and the Chronicle target symbols.

Played through the engine (`Table.act`) with the deterministic player `drive` of
test_end_of_game: each campaign's Dilemma deck holds only the cards a test needs.
"""
from __future__ import annotations

import re

import msgspec
import pytest

from core.engine import view
from core.errors import ContentError
from core.state import Action
from plugins.queens_dilemma import content as qd_content
from plugins.queens_dilemma.content import BUILDING_TYPES, CODE_PATTERNS
from plugins.queens_dilemma.scoring import AXES
from tests.queens_dilemma.harness import BOX, act, choices, options, start
from tests.queens_dilemma.test_end_of_game import (
    diary, drive, gains, give, held, of, prompt_for, resolved, rich, saved, setting, waiting,
)


def card(source: str) -> Action:
    """The Pass Action of a Chronicle card or a Skill, as the vote prompt offers it."""
    return Action("pass", {"action": "card", "source": source})


def chronicles(camp: dict, *records) -> dict:
    """Put these (code, herald seat or None, marks) records in the unlocked Chronicle deck."""
    camp["chronicle_deck"] = [{"code": c, "herald": h, "marks": m} for c, h, m in records]
    camp["unlocked"] += [c for c, _, _ in records]
    return camp


def index(log, type_: str, **match) -> int:
    """Position of the first matching event in the log."""
    return next(i for i, e in enumerate(log) if e.type == type_ and all(e.data.get(k) == v for k, v in match.items()))


def last(log, type_: str) -> int:
    return max(i for i, e in enumerate(log) if e.type == type_)


# -- Codes ------------------------------------------------------------------------------------
def test_codes_are_well_formed_by_kind():
    """QD-296, QD-297, QD-298: Envelopes are 'XX' (2 digits), Mystery boxes 'M' + 2 digits,
    Agendas 'A' + 3 digits, Chronicles 'C' + 3 digits, Buildings/Keywords/Skills 'B'/'K'/'S'
    + 2 digits, Endings 'END' + 2 digits (the Age of Disorder's real codes aside)."""
    tables = {"envelope": BOX.envelopes, "mystery": BOX.mysteries, "agenda": BOX.agendas,
              "chronicle": BOX.chronicles, "building": BOX.buildings, "keyword": BOX.keywords,
              "skill": BOX.skills, "ending": BOX.endings}
    core = {"envelope": r"\d{2}", "mystery": r"M\d{2}", "agenda": r"A\d{3}", "chronicle": r"C\d{3}",
            "building": r"B\d{2}", "keyword": r"K\d{2}", "skill": r"S\d{2}", "ending": r"END\d{2}"}
    for kind, table in tables.items():
        for code in table:
            assert re.fullmatch(CODE_PATTERNS[kind], code)
            assert re.fullmatch(core[kind], code) or "AOD" in code, (kind, code)
    assert all(re.fullmatch(r"M0[1-8]", m) for m in BOX.mysteries) and {"M07", "M08"} <= set(BOX.mysteries)


def test_an_envelope_code_opens_the_envelope_and_a_mystery_code_opens_the_box():
    """QD-296: D001 (Aye) shows '02': Envelope 02 is opened (its Story card ST2-1 is read,
    its Dilemmas join the deck); D008 (Aye) shows 'M01': Mystery box M01 is opened and its
    Dilemmas are shuffled into the deck."""
    t = start(rich(setting(["D001"])), seed=40)
    log = drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    assert t.state.round_counter == [["D001", "aye"]]
    c = t.state.campaign
    assert "02" in c.opened and of(log, "envelope", code="02") and of(log, "story", id="ST2-1")
    assert "ST2-1" in c.stories and set(BOX.envelopes["02"].dilemmas) <= set(c.deck) | {t.state.dilemma}
    t = start(rich(setting(["D008"])), seed=41)
    log = drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    assert t.state.round_counter == [["D008", "aye"]]
    assert "M01" in t.state.campaign.opened and of(log, "mystery", code="M01")
    assert {"DM11", "DM12"} <= set(t.state.campaign.deck) | {t.state.dilemma}


def test_an_agenda_code_and_a_chronicle_code_unlock_them_for_the_target():
    """QD-297: 'A201' (D008, Nay) gives the Leader that Agenda card; 'C001' (D001, Aye)
    unlocks that Chronicle card. QD-333: the target (the Leader, seat 0) Brands it and is its
    Herald for the rest of the campaign. QD-337: unlocked mid-game it does nothing this game
    (not in play, no Herald effect) and goes into the unlocked Chronicle deck; it can come
    into play at setup step 8 of the next game, where its Herald effect goes to seat 0."""
    t = start(rich(setting(["D008"])), seed=42)
    drive(t, plan={0: ("nay", 3)}, stop=resolved(1))
    assert "A201" in held(t.state, 0) and "A201" in t.state.campaign.unlocked
    t = start(rich(setting(["D001"])), seed=43)
    log = drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    assert of(log, "chronicle_unlocked", code="C001") == [{"code": "C001", "herald": 0, "source": "D001"}]
    assert [c.code for c in t.state.chronicles] == []
    assert msgspec.to_builtins(t.state.campaign.chronicle_deck) == [{"code": "C001", "herald": 0, "marks": 0}]
    log = drive(t, log=log)
    assert not gains(log, "C001") and not gains(log, "herald C001")
    after = saved(t)
    after["deck"] = []
    assert after["chronicle_deck"] == [{"code": "C001", "herald": 0, "marks": 0}]
    t2 = start(after, seed=44)
    log2 = drive(t2, stop=lambda t: t.state.phase == "end")
    assert [c.code for c in t2.state.chronicles] == ["C001"] and t2.state.chronicles[0].herald == 0
    assert gains(log2, "herald C001") == {0: {"food": 1}}


def test_building_keyword_skill_and_ending_codes_unlock_them():
    """QD-298, QD-307: 'B01' (D002, Nay) is a Building the Leader places in one of their own
    Regions, Main or Vassal, of their choice (here the Vassal Dualak). QD-298, QD-300: 'S01'
    (D007, Aye) is a Skill attached after the Leader's existing ones. QD-298, QD-359,
    QD-364: D007 opens Envelope 08, whose Story card ST1-2A is the last of Storyline 1: its
    'END01' is attached by the Leader on Storyline 1's slot."""
    camp = rich(setting(["D002"]))
    t = start(camp, seed=45)
    drive(t, plan={0: ("nay", 3)}, stop=waiting(0, "build"))
    mine = diary(camp, 0)["regions"] + diary(camp, 0)["vassals"]
    assert sorted(o.params["region"] for o in options(t, 0, "build")) == sorted(mine) == ["Allwed", "Dualak", "Natar"]
    act(t, 0, "build", region="Dualak")
    assert t.state.campaign.diaries[0].buildings == {"B01": "Dualak"}
    camp = rich(setting(["D007"]))
    diary(camp, 0)["skills"] = [{"code": "S02", "used": 1}]
    camp["unlocked"].append("S02")
    t = start(camp, seed=46)
    log = drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    assert [s.code for s in t.state.campaign.diaries[0].skills] == ["S02", "S01"]
    assert BOX.stories["ST1-2A"].ending == "END01" and BOX.endings["END01"].storyline == 1
    assert of(log, "ending") == [{"code": "END01", "storyline": 1, "scales": 2, "by": 0}] and t.state.leader == 0
    assert t.state.campaign.endings == {"1": "END01"}


def test_legacy_elements_are_kept_from_game_to_game():
    """QD-299: what a game unlocked (a Skill, an Ending, the Envelope it opened) is campaign
    state: saved, and in force in the next game (the Skill is offered there)."""
    t = start(rich(setting(["D007"])), seed=47)
    drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    drive(t, plan={0: ("aye", 1)})
    after = saved(t)
    assert "S01" in [s["code"] for s in diary(after, 0)["skills"]]
    assert after["endings"] == {"1": "END01"} and "08" in after["opened"]
    after["deck"] = ["D2A2"]
    t2 = start(after, seed=48)
    drive(t2, stop=waiting(0, "vote"))
    assert card("S01") in options(t2, 0, "pass")


# -- Skills ------------------------------------------------------------------------------------
def test_a_skill_with_no_free_space_covers_one_of_the_players_choice():
    """QD-301: seat 0's 6 Skill spaces are full; a new Skill (S01) makes him cover one of his
    Skills, his choice: the covered one is lost (no longer offered), the new one is his."""
    camp = rich(setting(["D007"]))
    assert BOX.board.skill_spaces == 6
    six = ["S02", "S03", "S04", "S05", "S06", "S07"]
    diary(camp, 0)["skills"] = [{"code": s, "used": 0} for s in six]
    camp["unlocked"] += six
    t = start(camp, seed=49)
    drive(t, plan={0: ("aye", 3)}, stop=waiting(0, "cover_skill"))
    assert sorted(o.params["skill"] for o in options(t, 0, "cover")) == six
    act(t, 0, "cover", skill="S03")
    d = t.state.campaign.diaries[0]
    assert sorted(s.code for s in d.skills) == sorted(["S01", "S02", "S04", "S05", "S06", "S07"])
    assert d.covered_skills == ["S03"]
    drive(t, plan={0: ("aye", 1)}, stop=lambda t: len(t.state.round_counter) == 1 and prompt_for(t, 0, "vote"))
    offered = options(t, 0, "pass")
    assert card("S01") in offered and card("S03") not in offered  # S03 (Food 1) is affordable, but covered


def test_skills_resolve_their_effect_within_their_conditions_and_activation_tracks():
    """QD-302: activating a Skill resolves its effect, within its conditions: S05 (2
    Materials) is not offered to a player who cannot pay. QD-303: S09 has a 1-space
    Activation Track: once used it is never offered again, in this game or the next.
    QD-304: S01 has no track: it is used in two Voting Phases and still offered."""
    camp = setting(["D2A2", "D3A1", "D4A2"], games_played=1)  # game 2 is blue: Allwed gives no Gold
    diary(camp, 0)["skills"] = [{"code": s, "used": 0} for s in ("S01", "S05", "S09")]
    camp["unlocked"] += ["S01", "S05", "S09"]
    t = start(camp, seed=50)
    offered = []

    def use(t, p):
        if p.kind != "vote" or p.seat != 0 or any(o.type == "stay" for o in choices(t, p)):
            return None
        mine = [o.params["source"] for o in choices(t, p) if o.type == "pass" and o.params.get("action") == "card"]
        offered.append((dict(t.state.councilors[0].resources), mine))
        return card("S09") if "S09" in mine else card("S01")

    log = drive(t, pick=use, plan={1: ("aye", 1)}, stop=resolved(3))
    assert [o[1] for o in offered] == [["S01", "S09"], ["S01"], ["S01"]]
    first = offered[0][0]
    assert first["materials"] == 1 and first["gold"] == 1  # S05 needs 2 Materials (or 2 Gold per missing one)
    assert of(log, "card_action", seat=0, source="S09")[0]["cost"] == {"army": 2}
    assert of(log, "push", source="S09") and gains(log, "S01") == {0: {"power": 2}}
    drive(t, plan={1: ("aye", 1)})
    after = saved(t)
    assert {s["code"]: s["used"] for s in diary(after, 0)["skills"]} == {"S01": 2, "S05": 0, "S09": 1}
    after["deck"] = ["D2A2"]
    give(after, 0, army=9)
    t2 = start(after, seed=51)
    drive(t2, stop=waiting(0, "vote"))
    assert card("S09") not in options(t2, 0, "pass") and card("S01") in options(t2, 0, "pass")


# -- Buildings -----------------------------------------------------------------------------
def test_a_region_keyword_target_places_the_building_in_that_region():
    """QD-308: 'Solad: B04' (D010, Aye): the owner of Solad (seat 2, who also owns Coden)
    must place B04 in Solad: no choice is asked."""
    camp = rich(setting(["D010"]))
    assert "Solad" in diary(camp, 2)["regions"] and len(diary(camp, 2)["regions"] + diary(camp, 2)["vassals"]) > 1
    assert BOX.buildings["B04"].region == ""
    t = start(camp, seed=52)
    log = drive(t, plan={0: ("aye", 3)}, stop=resolved(1))
    assert t.state.campaign.diaries[2].buildings == {"B04": "Solad"}
    assert not [e for e in log if e.type == "action" and e.data.get("prompt") == "build"]


def test_a_building_with_a_black_box_goes_to_its_printed_location():
    """QD-309: B05's black box names the Singer's Forest in Tiryll: given to 'Coden' (D201,
    Nay), whose owner also owns Tiryll, it goes to Tiryll, not to Coden."""
    camp = rich(setting(["D201"]))
    diary(camp, 2)["regions"], diary(camp, 3)["regions"] = ["Coden", "Tiryll"], ["Crann", "Solad"]
    assert (BOX.buildings["B05"].region, BOX.buildings["B05"].location) == ("Tiryll", "Singer's Forest")
    t = start(camp, seed=53)
    drive(t, plan={0: ("nay", 3)}, stop=resolved(1))
    assert t.state.round_counter == [["D201", "nay"]]
    assert t.state.campaign.diaries[2].buildings == {"B05": "Tiryll"}


def test_every_building_has_exactly_one_of_the_five_types():
    """QD-310: Commercial, Military, Welfare, Entertainment or Corruption, for every Building
    sticker and every Region's base Building; the content check refuses another type."""
    assert BUILDING_TYPES == ("commercial", "military", "welfare", "entertainment", "corruption")
    for b in list(BOX.buildings.values()) + list(BOX.regions.values()):
        assert isinstance(b.type, str) and b.type in BUILDING_TYPES
    assert {b.type for b in BOX.buildings.values()} == set(BUILDING_TYPES)
    bad = msgspec.structs.replace(BOX.buildings["B01"], type="religious")
    with pytest.raises(ContentError, match="type must be one of"):
        qd_content.check(msgspec.structs.replace(BOX, buildings={**BOX.buildings, "B01": bad}))


def income_of(camp: dict, seed: int, pick=None):
    """Play the campaign's next game up to the Investment draft: (the Income events' Treasuries,
    before any choice of a '/' Building; the log; the table)."""
    t = start(camp, seed=seed)
    log = drive(t, pick=pick, stop=lambda t: any(p.kind == "investment" for p in t.state.prompts))
    return {e["seat"]: e["resources"] for e in of(log, "income")}, log, t


def test_buildings_produce_only_in_games_of_their_banner_colour_and_without_limit():
    """QD-311: B01 (red, 1 Gold) produces in game 1 (red), not in game 2 (blue); B02 (blue,
    1 Army) the other way round. QD-313: no limit on Buildings: with B01, B03, B07, B09 and
    B11 all in Blodyn, each of them produces in game 1."""
    for game, gold, army in ((1, 1, 0), (2, 0, 1)):
        camp = setting(games_played=game - 1)
        diary(camp, 1)["buildings"] = {"B01": "Blodyn", "B02": "Blodyn"}
        assert BOX.timeline[game - 1].colour == ("red" if game == 1 else "blue")
        got, _, _ = income_of(camp, seed=54)
        assert got[1]["gold"] == 1 + gold and got[1]["army"] == 1 + army  # Jilian's Regions produce only Food
    camp = setting()
    many = ["B01", "B03", "B07", "B09", "B11"]
    diary(camp, 1)["buildings"] = {b: "Blodyn" for b in many}
    got, _, _ = income_of(camp, seed=55)
    extra = {"gold": 1 + 2, "food": 2 + 2, "army": 2, "materials": 2}  # B01+B09, Blodyn+B03, B07, B11
    assert got[1] == {r: 1 + extra[r] for r in extra}


def test_a_two_resource_building_produces_the_one_its_owner_chooses():
    """QD-312: Solad (red, Gold / Food) produces 1 of the two, its owner's choice, each time."""
    camp = setting()
    for choice, other in (("gold", "food"), ("food", "gold")):
        got, log, t = income_of(camp, seed=56, pick=lambda t, p: Action("produce", {"resource": choice, "n": 1})
                                if p.kind == "produce" else None)
        assert of(log, "produced") == [{"seat": 2, "resource": choice, "n": 1}]
        assert got[2] == {"gold": 1, "food": 1, "army": 1, "materials": 1}  # Coden is blue; Solad asks
        now = t.state.councilors[2].resources
        assert (now[choice], now[other]) == (2, 1)


def test_a_regions_base_building_counts_as_a_building_of_its_type():
    """QD-314: C011 (End of the Game) rewards players with at least 2 Military Buildings:
    seat 0 owns Natar and Crann (two Military base Buildings) and qualifies with no sticker;
    seat 2 qualifies with two Military stickers; seat 1 has one Military sticker and the
    Vassal Tork, whose base Building is covered (QD-061), so it does not."""
    camp = setting()
    diary(camp, 0)["regions"], diary(camp, 3)["regions"] = ["Natar", "Crann"], ["Allwed", "Tiryll"]
    diary(camp, 2)["buildings"] = {"B02": "Coden", "B07": "Solad"}
    diary(camp, 1)["buildings"] = {"B12": "Blodyn"}
    chronicles(camp, ("C011", 3, 0))
    t = start(camp, seed=57)
    log = drive(t)
    assert of(log, "box", source="C011", target="buildings")[0]["seats"] == [0, 2]
    assert gains(log, "C011") == {0: {"hegemony": 1}, 2: {"hegemony": 1}}


def test_building_example_a_region_keyword_and_a_black_box():
    """QD-315 (the 'Tiryll: B99' example, with the demo's C015 'Wylio: B10'): the player with
    the Wylio Keyword (seat 3 owns the Vassal Wylio) places B10 at its black box's location,
    the Saltreach Harbour in Wylio."""
    camp = chronicles(setting(), ("C015", None, 0))
    assert "Wylio" in diary(camp, 3)["vassals"]
    assert (BOX.buildings["B10"].region, BOX.buildings["B10"].location) == ("Wylio", "Saltreach Harbour")
    t = start(camp, seed=58)
    drive(t)
    assert t.state.campaign.diaries[3].buildings == {"B10": "Wylio"}


# -- Keywords ----------------------------------------------------------------------------------
def test_a_keyword_sticker_goes_to_the_leader_and_anyone_can_read_it():
    """QD-316, QD-319 ('Leader: K99'): D002 (Aye) gives K04 to whoever holds the Leader token
    when it resolves (seat 1, who took the token from seat 0 during the vote); it is added to
    the Keywords in their Diary. QD-318: every player's Keywords are public."""
    camp = rich(setting(["D002"]))
    diary(camp, 1)["keywords"] = ["K02"]
    camp["unlocked"].append("K02")
    t = start(camp, seed=59)
    drive(t, plan={0: ("aye", 1), 1: ("aye", 3)}, stop=resolved(1))
    assert t.state.round_counter == [["D002", "aye"]] and t.state.leader == 1
    assert t.state.campaign.diaries[1].keywords == ["K02", "K04"]
    assert BOX.keywords["K04"].name == "Warlord"
    for viewer in (0, 2, 3, None):
        assert view(t.rules, t.state, viewer)["campaign"]["diaries"][1]["keywords"] == ["K02", "K04"]


# -- Chronicle cards -------------------------------------------------------------------------
def test_chronicle_cards_have_the_printed_parts():
    """QD-320: a title, a code, a phase band, a Herald space (or none), a narrative text, a
    Herald effect (only with a Herald space), a main effect, Pass Action spaces (only on
    Pass Action / Pass Bonus cards) and a Duration Track (or none)."""
    for c in BOX.chronicles.values():
        assert c.code and c.title and c.text and c.bands
        assert set(c.bands) <= set(qd_content.BANDS)
        assert c.herald in ("brand", "none") or c.herald in BOX.characters
        assert c.boxes or c.action
        if c.herald == "none":
            assert c.herald_effects == []
        if c.action is not None:
            assert {"pass_action", "pass_bonus"} & set(c.bands)
        assert c.duration is None or c.duration >= 1
    assert any(c.duration is None for c in BOX.chronicles.values())
    assert any(c.action and c.action.spaces for c in BOX.chronicles.values())


def test_an_instant_chronicle_resolves_at_setup_and_its_herald_effect_goes_to_its_brander():
    """QD-321: C001, Branded by seat 2, enters play at setup: its Herald effect (+1 Food)
    goes to seat 2. QD-322, QD-323: its band is Instant (light blue, Setup): its main effect
    is resolved when it is revealed, before the Dilemma deck is readied. QD-368: its
    Players target gives every player +1 Food."""
    camp = chronicles(setting(["D2A2"]), ("C001", 2, 0))
    t = start(camp, seed=60)
    log = drive(t, stop=lambda t: t.state.phase == "voting")
    assert gains(log, "herald C001") == {2: {"food": 1}}
    assert gains(log, "C001") == {s: {"food": 1} for s in range(4)}
    assert index(log, "gain", source="C001") < index(log, "deck") < index(log, "dilemma")
    assert all(e.data.get("source") != "C001" or i < index(log, "deck") for i, e in enumerate(log))


def test_pass_action_and_pass_bonus_bands_offer_their_actions_in_the_voting_phase():
    """QD-324: C003 (Pass Action band) is offered as a Pass Action in the vote: its effect
    (+2 Power) goes to the player taking it. QD-325: C006 (Pass Bonus band) is offered as a
    Pass Bonus after a pass. QD-336: C003 has 2 Pass Action spaces: each use leaves a
    Heraldry token on it, and after 2 uses it is no longer offered this game; C006 has the
    stacking icon: it is offered every time (3 uses)."""
    camp = chronicles(setting(["D2A2", "D3A1", "D4A2"]), ("C003", 0, 0), ("C006", 0, 0))
    t = start(camp, seed=61)
    seen = {1: [], 2: []}

    def play(t, p):
        if p.kind == "vote" and p.seat in (1, 2) and not any(o.type == "stay" for o in choices(t, p)):
            seen[p.seat].append(card("C003") in choices(t, p))
            if p.seat == 1 and card("C003") in choices(t, p):
                return card("C003")
            return Action("pass", {"action": "gather"})
        if p.kind == "pass_bonus" and p.seat == 2:
            seen[2].append(Action("bonus", {"source": "C006"}) in p.options)
            return Action("bonus", {"source": "C006"})
        return None

    log = drive(t, pick=play, plan={0: ("aye", 1)}, stop=resolved(3))
    assert seen[1] == [True, True, False]
    assert seen[2][1::2] == [True, True, True]  # the Pass Bonus, after each of seat 2's passes
    assert gains(log, "C003") == {1: {"power": 4}} and gains(log, "C006") == {2: {"materials": 3}}
    c003, c006 = (next(c for c in t.state.chronicles if c.code == code) for code in ("C003", "C006"))
    assert (c003.tokens, c006.tokens) == (2, 3)
    assert t.state.councilors[1].heraldry == 6 - 2 and t.state.councilors[2].heraldry == 6 - 3


def test_a_voting_phase_chronicle_acts_in_every_voting_phase():
    """QD-326: C009 (Voting Phase band) gives the Moderator 1 Gold in each of the two Voting
    Phases of the game, and nothing at the End of the Game. QD-322: a yellow band acts
    during play."""
    camp = chronicles(setting(["D2A2", "D3A1"]), ("C009", 0, 0))
    t = start(camp, seed=62)
    log = drive(t, plan={0: ("aye", 1)})
    gold = [e for e in of(log, "gain", source="C009") if e["what"] == "gold"]
    assert len(gold) == 2 and all(e["seat"] == 3 for e in gold)
    for i, e in enumerate(log):
        if e.type == "box" and e.data["source"] == "C009":
            assert [x.data["phase"] for x in log[:i] if x.type == "phase"][-1] == "voting"


def test_end_of_game_scoring_bands_act_in_their_own_step():
    """QD-327: C010 (End of the Game) applies in the Chronicle check that opens Scoring,
    before Ideology Scoring. QD-328: C012 (Ideology Scoring) acts after the Ideology cards
    are scored, before Power Scoring: Order is winning (D2A2, Aye pushed it), so the players
    whose card favours Order gain 1 Hegemony. QD-329: C014 (Power Scoring) acts after the
    Power Scoring, before the Investments. QD-331: C018 (Tax) acts after Agenda Resolution,
    before the Taxes; QD-322: all of these are dark-blue, End of the Game bands."""
    camp = chronicles(setting(["D2A2"]), ("C010", 0, 0), ("C012", 0, 0), ("C014", 0, 0), ("C018", 0, 0))
    t = start(camp, seed=63)
    log = drive(t, plan={0: ("aye", 2)})
    assert t.state.round_counter == [["D2A2", "aye"]]
    end = index(log, "phase", phase="end")
    first_ideology, last_ideology = index(log, "ideology_scored"), last(log, "ideology_scored")
    power, first_invest = index(log, "power_scored"), index(log, "investment")
    assert end < index(log, "box", source="C010") < first_ideology
    assert last_ideology < index(log, "box", source="C012") < power
    assert power < index(log, "box", source="C014") < first_invest
    assert last(log, "investment") < index(log, "box", source="C018") < index(log, "tax")
    agendas = [i for i, e in enumerate(log) if e.type == "action" and e.data.get("prompt") in ("agenda", "crossroad")]
    assert agendas and max(agendas) < index(log, "box", source="C018")
    favour_order = sorted(e["seat"] for e in of(log, "ideology_scored")
                          if any(f.ideology == "order" for f in BOX.ideology_cards[e["card"]].favored))
    assert of(log, "box", source="C012")[0]["seats"] == favour_order
    assert {s for s, g in gains(log, "C012").items()} == set(favour_order)
    welfare = of(log, "box", source="C018")[0]["seats"]
    assert 1 in welfare and 0 not in welfare  # Jilian's Blodyn and Olwyn are Welfare; Aesyas has none
    assert {BOX.chronicles[c].bands[0] for c in ("C010", "C012", "C014", "C018")} == {
        "end_of_game", "ideology_scoring", "power_scoring", "tax"}


def test_an_investment_chronicle_can_be_limited_to_one_kind_of_investment():
    """QD-330: C016 (Investment Phase, Army Investments only) gives +1 Hegemony to the players
    who hold an Army Investment, and to nobody else."""
    camp = chronicles(setting(), ("C016", 0, 0))
    t = start(camp, seed=64)
    army = {"I1", "I2"}

    def draft(t, p):
        if p.kind == "investment":
            want = [o for o in p.options if (o.params["card"] in army) == (p.seat in (0, 2))]
            return (want or p.options)[0]
        return None

    log = drive(t, pick=draft)
    kinds = {e["seat"]: BOX.investments[e["card"]].resource for e in of(log, "investment")}
    armies = sorted(s for s, r in kinds.items() if r == "army")
    assert armies and len(armies) < 4
    assert gains(log, "C016") == {s: {"hegemony": 1} for s in armies}
    assert last(log, "investment") < index(log, "gain", source="C016")


def test_a_chronicle_with_several_bands_acts_in_each():
    """QD-332: C020 has the Voting Phase and End of the Game bands: it acts in both Voting
    Phases and at the End of the Game. QD-372: its 'Elinor' target follows the Keyword rules
    (Elinor's player, seat 1). QD-317: its 'Smuggler' target hits the holder of K01."""
    camp = chronicles(setting(["D2A2", "D3A1"], characters=["Aesyas", "Elinor", "Syd", "Xanthe"]), ("C020", 0, 0))
    diary(camp, 2)["keywords"] = ["K01"]
    camp["unlocked"].append("K01")
    assert BOX.chronicles["C020"].bands == ["voting", "end_of_game"]
    t = start(camp, seed=65)
    log = drive(t, plan={0: ("aye", 1)})
    assert gains(log, "C020") == {1: {"hegemony": 3}, 2: {"infamy": 3}}
    end = index(log, "phase", phase="end")
    assert sum(1 for i, e in enumerate(log) if e.type == "box" and e.data["source"] == "C020" and i > end) == 2


def test_a_preprinted_herald_is_its_character_never_the_unlocking_player():
    """QD-334: C021 shows Syd's Heraldry: when Syd's Crossroad unlocks it, nobody Brands it
    (no Herald recorded); in play, its Herald effect (+1 Gold) and its 'self' effect go to
    Syd's player, seat 2."""
    camp = setting(["D2A2"])
    give(camp, 2, army=3)
    t = start(camp, seed=66)
    drive(t, plan={0: ("aye", 1)}, pick=lambda t, p: Action("complete", {"agenda": "A086"})
          if p.kind == "agenda" and p.seat == 2 and "A086" in held(t.state, 2) else None, stop=waiting(2, "crossroad"))
    log = drive(t, pick=lambda t, p: Action("crossroad", {"code": "A087", "option": 1})
                if p.kind == "crossroad" else None)
    assert of(log, "chronicle_unlocked", code="C021")[0]["herald"] is None
    after = saved(t)
    assert {"code": "C021", "herald": None, "marks": 0} in after["chronicle_deck"]
    after["deck"] = []
    t2 = start(after, seed=67)
    log2 = drive(t2, stop=lambda t: t.state.phase == "end")
    assert gains(log2, "herald C021") == {2: {"gold": 1}} and gains(log2, "C021") == {2: {"power": 1}}


def test_a_chronicle_without_herald_space_has_no_herald():
    """QD-335: C005 has no Herald space: unlocked by the Leader (D012, Aye) it is not Branded,
    and in play it gives no Herald effect to anyone."""
    t = start(rich(setting(["D012"])), seed=68)
    log = drive(t, plan={0: ("aye", 3)})
    assert BOX.chronicles["C005"].herald == "none"
    assert of(log, "chronicle_unlocked", code="C005")[0]["herald"] is None
    after = saved(t)
    after["deck"] = []
    t2 = start(after, seed=69)
    log2 = drive(t2, stop=lambda t: t.state.phase == "end")
    assert [c.code for c in t2.state.chronicles] == ["C005"] and t2.state.chronicles[0].herald is None
    assert not [e for e in log2 if e.type in ("gain", "lose") and "C005" in str(e.data.get("source"))]


# -- Ending stickers and Storylines ---------------------------------------------------------------
def test_ending_stickers_have_their_printed_parts_and_three_per_storyline():
    """QD-357: each Ending sticker has a Storyline symbol, a title, 0 to 2 Scale icons, an
    END code and a summary; the content check refuses 3 Scales."""
    for e in BOX.endings.values():
        assert re.fullmatch(r"END\d{2}", e.code) and e.title and e.text
        assert 1 <= e.storyline <= 7 and e.scales in (0, 1, 2)
    for line in range(1, 8):
        assert sorted(e.scales for e in BOX.endings.values() if e.storyline == line) == [0, 1, 2]
    bad = msgspec.structs.replace(BOX.endings["END01"], scales=3)
    with pytest.raises(ContentError, match="scales 0-2"):
        qd_content.check(msgspec.structs.replace(BOX, endings={**BOX.endings, "END01": bad}))


def test_endings_come_only_from_a_storylines_final_story_card_on_its_own_slot():
    """QD-359: only the last Story card of a Storyline shows an END code (no Dilemma, Agenda,
    Chronicle or Mystery effect does). QD-364: a Story card and its Ending share the
    Storyline symbol (the content check refuses a mismatch), and the engine attaches the
    Ending on the slot of its own Storyline."""
    last_cards = {}
    for s in BOX.stories.values():
        last_cards.setdefault(s.storyline, max(x.number for x in BOX.stories.values() if x.storyline == s.storyline))
        if s.ending:
            assert s.number == last_cards[s.storyline] and BOX.endings[s.ending].storyline == s.storyline
    effects = [e for d in BOX.dilemmas.values() for side in (d.aye, d.nay) for b in side.boxes for e in b.effects]
    effects += [e for a in BOX.agendas.values() for e in a.success + a.failure + a.reward]
    effects += [e for c in BOX.chronicles.values() for b in c.boxes for e in b.effects + c.herald_effects]
    effects += [e for m in BOX.mysteries.values() for b in m.boxes for e in b.effects]
    assert not [e for e in effects if e.op == "ending"]
    bad = msgspec.structs.replace(BOX.stories["ST1-2A"], ending="END04")
    with pytest.raises(ContentError, match="another Storyline"):
        qd_content.check(msgspec.structs.replace(BOX, stories={**BOX.stories, "ST1-2A": bad}))


def test_an_ended_storylines_story_cards_leave_the_map():
    """QD-360: once END01 is attached, Storyline 1's Story cards stay in the saved campaign
    but are no longer laid out on the map at setup; the other Storylines still are."""
    camp = rich(setting(["D007"]))
    camp["stories"] += ["ST3-1"]  # Storyline 3 is under way (its first card read earlier)
    t = start(camp, seed=70)
    drive(t, plan={0: ("aye", 3)})
    after = saved(t)
    assert after["endings"] == {"1": "END01"} and after["stories"] == ["ST1-1", "ST3-1", "ST1-2A"]
    t2 = start(after, seed=71)
    log = drive(t2, stop=lambda t: t.state.phase == "voting")
    assert of(log, "stories")[0]["shown"] == {"3": ["ST3-1"]}  # Storyline 1's cards stay in the Save tray
    assert t2.state.campaign.stories == after["stories"]


# -- Symbols -----------------------------------------------------------------------------------
def test_balanced_ideologies_exist_only_for_the_three_axis_pairs():
    """QD-362: Tradition/Progress, Force/Diplomacy, Order/Liberty: every Balanced pair on an
    Ideology card is one of them, and the content check refuses any other pair."""
    axes = {frozenset(p) for p in AXES}
    assert axes == {frozenset(("tradition", "progress")), frozenset(("force", "diplomacy")),
                    frozenset(("order", "liberty"))}
    pairs = {frozenset(b.pair) for c in BOX.ideology_cards.values() for b in c.balanced}
    assert pairs and pairs <= axes
    card = BOX.ideology_cards["Syd-2"]
    bad = msgspec.structs.replace(card, balanced=[msgspec.structs.replace(card.balanced[0], pair=["force", "order"])])
    with pytest.raises(ContentError, match="is not an axis"):
        qd_content.check(msgspec.structs.replace(BOX, ideology_cards={**BOX.ideology_cards, "Syd-2": bad}))


def test_outcome_symbols_are_only_hints():
    """QD-363: the Positive/Negative/Uncertain symbols are shown on the Dilemma's front, but
    resolving a side applies exactly its printed pushes and boxes, whatever its symbol (no
    symbol, positive, uncertain, negative)."""
    cases = (("D2A2", "nay", ""), ("D1B3", "nay", "positive"), ("D1B3", "aye", "uncertain"), ("DF4", "nay", "negative"))
    for dilemma, side, symbol in cases:
        printed = getattr(BOX.dilemmas[dilemma], side)
        assert printed.legacy == symbol and all(x.op == "gain" for b in printed.boxes for x in b.effects)
        t = start(rich(setting([dilemma])), seed=72)
        log = drive(t, plan={0: (side, 3)}, stop=resolved(1))
        assert t.state.round_counter == [[dilemma, side]]
        front = of(log, "dilemma")[0]
        assert front[side]["legacy"] == symbol
        pushes = [(e["ideology"], e["n"]) for e in of(log, "push", source=dilemma)]
        assert pushes == [(p.ideology, p.n) for p in printed.pushes]
        boxes = of(log, "box", source=dilemma)
        assert [b["target"] for b in boxes] == [b.to for b in printed.boxes]
        expected: dict = {}
        for b, resolved_box in zip(printed.boxes, boxes):
            for seat in resolved_box["seats"]:
                for x in b.effects:
                    expected.setdefault(seat, {}).setdefault(x.what, 0)
                    expected[seat][x.what] += BOX.timeline[0].bag if x.bag else x.n
        assert gains(log, dilemma) == expected
