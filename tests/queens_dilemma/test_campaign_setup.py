"""The Queen's Dilemma before the first game: components and content facts, the Characters
and their Ideologies, the recommended sets, the starting Agendas, the one-time setup
(random Leader, seat bonuses, Moderator, Region picks, Region Keywords, Envelope 00) and
what the views keep secret. Played through the engine wherever the engine uses the rule."""
from __future__ import annotations

import copy
import json
import re
import shutil

import pytest

from core import default_registry
from core.engine import legal_actions, view, view_events
from core.errors import BadOption, BadParameter, BadPlayerCount, ContentError
from core.state import Action
from plugins.queens_dilemma.content import CHARACTERS, DEFAULT_BOX, IDEOLOGIES, load_box
from plugins.queens_dilemma.plugin import GAME_ID, RECOMMENDED
from plugins.queens_dilemma.scoring import AXES, IdeologyBoard, push
from tests.queens_dilemma.harness import (
    choices,
    BOX, REGIONS, Recorder, act, bot_until, campaign, played_campaign_game, start, voting,
)

STARTING = {"Aesyas": "A106", "Elinor": "A127", "Jilian": "A044", "Lyrie": "A064", "Syd": "A086", "Xanthe": "A017"}
SIX = list(CHARACTERS)


# -- helpers ----------------------------------------------------------------------------------
def pick_all_regions(table) -> list[tuple[int, str, bool]]:
    """Answer every Region prompt with the first Region offered; return (seat, region, main)."""
    picks = []
    while True:
        p = next((p for p in table.state.prompts if p.kind == "region"), None)
        if p is None:
            return picks
        table.act(p.seat, p.options[0])
        picks += [(e.data["seat"], e.data["region"], e.data["main"]) for e in table.events if e.type == "region"]


def with_regions(camp: dict, mains: dict[int, list[str]], vassals: dict[int, list[str]],
                 buildings: dict[int, dict[str, str]] | None = None) -> dict:
    """Set who owns which Region (every Region exactly once) and the Buildings in them."""
    owned = [r for rs in list(mains.values()) + list(vassals.values()) for r in rs]
    assert sorted(owned) == sorted(REGIONS)
    for d in camp["diaries"]:
        d["regions"] = list(mains.get(d["seat"], []))
        d["vassals"] = list(vassals.get(d["seat"], []))
        d["buildings"] = dict((buildings or {}).get(d["seat"], {}))
    return camp


def decide_vote(table, side: str) -> list:
    """Everyone passes (Gather Power), so the Moderator decides `side`; returns the events of
    the deciding action (the Dilemma's resolution)."""
    while True:
        p = next(p for p in table.state.prompts if p.blocking)
        if p.kind == "vote":
            act(table, p.seat, "pass", action="gather")
        elif p.kind == "pass_bonus":
            act(table, p.seat, "no_bonus")
        elif p.kind == "break_tie":
            return act(table, p.seat, "decide", side=side)
        else:
            raise AssertionError(f"unexpected prompt {p.kind}")


def campaign_over(saved: dict) -> bool:
    return default_registry().rules_for(GAME_ID, []).hook.conclave_campaign_over(game=GAME_ID, campaign=saved)


# -- Components ---------------------------------------------------------------------------------
def test_mystery_boxes_are_m01_to_m08_and_the_grand_finale_opens_m07_and_m08():
    """QD-003: 8 Mystery boxes numbered M01-M08; the Grand Finale opens M07 and M08."""
    assert sorted(BOX.mysteries) == [f"M0{i}" for i in range(1, 9)]
    camp = campaign(players=4)
    camp["finale_next"] = True
    t = start(camp, seed=1)
    assert [e.data["code"] for e in t.events if e.type == "mystery"] == ["M07", "M08"]
    assert {"M07", "M08"} <= set(t.state.campaign.opened) and t.state.finale
    # a normal game opens neither
    t = start(campaign(players=4), seed=1)
    assert not [e for e in t.events if e.type == "mystery"]


def test_resources_are_integer_amounts_and_base_buildings_produce_in_their_colour():
    """QD-005 (Resources are integer amounts: a 2-value production adds 2), QD-053 (every
    Region's base Building has a red or blue banner and a Resource label; it produces in the
    games of its colour), QD-059 (a Vassal Region's covered base Building produces nothing),
    QD-060 (a Building added to a Vassal Region produces normally)."""
    for r in BOX.regions.values():
        assert r.colour in ("red", "blue") and r.produces and r.n >= 1
        assert all(x in ("gold", "food", "army", "materials") for x in r.produces)
    assert BOX.timeline[0].colour == "red"
    camp = with_regions(campaign(players=4), mains={0: ["Blodyn", "Natar"], 1: ["Crann", "Olwyn"],
                                                    2: ["Coden", "Tiryll"], 3: ["Dualak", "Tork"]},
                        vassals={0: ["Allwed"], 1: ["Gamam"], 2: ["Wylio"], 3: ["Solad"]},
                        buildings={1: {"B03": "Gamam"}})
    assert BOX.buildings["B03"].colour == "red" and BOX.buildings["B03"].produces == ["food"]
    assert BOX.buildings["B03"].n == 2
    t = start(camp, seed=1)
    income = {e.data["seat"]: e.data["resources"] for e in t.events if e.type == "income"}
    base = {"gold": 1, "food": 1, "army": 1, "materials": 1}
    # seat 0: red Blodyn (2 Food); blue Natar idle; red Allwed is a Vassal: nothing
    assert income[0] == {**base, "food": 3}
    # seat 1: red Crann (2 Army), B03 in the Vassal Gamam (2 Food); Gamam's own Materials: nothing
    assert income[1] == {**base, "army": 3, "food": 3}
    assert income[2] == base  # blue Coden and Tiryll, blue Vassal Wylio
    assert income[3] == {**base, "gold": 2}  # red Dualak; red Vassal Solad gives nothing
    for p in t.state.councilors:
        assert all(type(v) is int for v in p.resources.values())
    # blue game: the blue ones produce instead
    camp2 = copy.deepcopy(camp)
    camp2["games_played"] = 1
    t = start(camp2, seed=1)
    income = {e.data["seat"]: e.data["resources"] for e in t.events if e.type == "income"}
    assert income[0] == {**base, "army": 2} and income[2] == {**base, "materials": 3, "gold": 2}


def test_supplies_are_unlimited():
    """QD-007: no cap on Power, Resources or Hegemony tokens, beyond the box's token counts
    (85 Gold, 126 Power, 20 Hegemony)."""
    camp = campaign(players=6)
    for d in camp["diaries"]:
        d["resources"]["gold"] = 100
        d["bonus_power"] = 30
    t = start(camp, seed=2)
    bot_until(t, voting)
    assert sum(p.resources["gold"] for p in t.state.councilors) > 85 * 6
    assert sum(p.power for p in t.state.councilors) >= 6 * 37 > 126
    board = IdeologyBoard()
    for _ in range(25):
        push(board, "order", 1)
    assert board.tokens["order"] == 25 > 20


def test_the_legacy_tray_stays_hidden_while_ideology_and_investment_cards_are_open():
    """QD-008: Ideology and Investment card contents are public (in the open box data: 5
    Ideology cards per Character, 7 Investments); the Legacy tray (Ongoing Agendas left, the
    Agendas taken out of it or trashed, the Dilemma deck) is not shown to anyone."""
    assert len(BOX.investments) == 7
    for c in CHARACTERS:
        assert len([i for i in BOX.ideology_cards.values() if i.character == c]) == 5
    t = start(campaign(players=4), seed=3)
    bot_until(t, voting)
    c = t.state.campaign
    for viewer in (None, 0, 2):
        v = view(t.rules, t.state, viewer)["campaign"]
        assert v["ongoing_pool"] == len(c.ongoing_pool) == 12
        assert v["deck"] == len(c.deck)
        assert not set(v["unlocked"]) & set(BOX.agendas) and not set(v["trashed"]) & set(BOX.agendas)
        assert json.dumps(v).count("A106") == (1 if viewer == 0 else 0)


# -- Game overview --------------------------------------------------------------------------------
def test_each_round_draws_one_dilemma_from_the_bottom_of_the_deck():
    """QD-010: each round resolves exactly one Dilemma, the one at the bottom of the deck."""
    camp = campaign(players=4)
    camp["deck"] = ["D009", "D011", "D012"]  # none of these opens an Envelope or a Mystery box
    t = start(camp, seed=4)
    seen = {}

    def until(table):
        if voting(table) and table.state.round not in seen:
            seen[table.state.round] = (table.state.dilemma, list(table.state.campaign.deck),
                                       len(table.state.round_counter))
        return False

    rec = Recorder(t, until)
    bot_until(t, rec, seed=4)
    assert sorted(seen) == [1, 2, 3]
    for r in (2, 3):
        drawn, _, placed = seen[r]
        assert drawn == seen[r - 1][1][-1]       # the bottom card of the deck left by round r-1
        assert placed == r - 1                   # one card per round on the Round Counter
    assert len(rec.of("dilemma")) == 3 and len(t.state.votes) == 3
    assert [d for d, _ in t.state.round_counter] == [seen[r][0] for r in (1, 2, 3)]


def test_a_resolved_dilemma_never_returns_to_the_deck():
    """QD-011: resolved Dilemmas are Trashed at the end of the game and never come back."""
    table, saved = played_campaign_game(campaign(players=4), seed=5)
    resolved = [d for d, _ in table.state.round_counter]
    assert resolved
    assert set(resolved) <= set(saved["trashed"]) and not set(resolved) & set(saved["deck"])
    t2 = start(saved, seed=6)
    bot_until(t2, voting)
    assert not set(resolved) & (set(t2.state.campaign.deck) | {t2.state.dilemma})


@pytest.mark.parametrize("card,opens,added", [("D001", "envelope", ["D201", "D202", "D203"]),
                                              ("D008", "mystery", ["DM11", "DM12"])])
def test_outcomes_add_new_dilemmas_to_the_deck(card, opens, added):
    """QD-012: an outcome opening an Envelope or a Mystery box adds new cards to the deck."""
    camp = campaign(players=4)
    camp["deck"] = [card]
    t = start(camp, seed=7)
    bot_until(t, voting)
    assert t.state.campaign.deck == []  # the only card is on the table
    decide_vote(t, "aye")
    rec = Recorder(t, lambda table: table.state.round == 2)
    bot_until(t, rec, seed=7)  # the outcome's effects, then round 2
    assert [e["code"] for e in rec.of(opens)] == [BOX.dilemmas[card].aye.envelopes[0] if opens == "envelope"
                                                  else BOX.dilemmas[card].aye.mysteries[0]]
    assert sorted(t.state.campaign.deck + [t.state.dilemma]) == added  # round 2 drew one of them


def test_a_game_has_no_winner_only_points_and_the_grand_finale_decides():
    """QD-013: a game ends with points (Hegemony, Independence, Infamy) and no winner; the
    campaign's winner is ranked only by the Grand Finale."""
    table, saved = played_campaign_game(campaign(players=4), seed=8)
    result = table.state.result
    assert set(result) <= {"game", "standings", "notes"} and "winners" not in result
    assert {k for row in result["standings"] for k in row} == {"seat", "character", "hegemony", "independence",
                                                                 "infamy", "tier"}
    assert not campaign_over(saved)
    saved["finale_next"] = True
    table, saved = played_campaign_game(saved, seed=9)
    assert sorted(r["rank"] for r in table.state.result["final"]) == [1, 2, 3, 4]
    assert campaign_over(saved)


def test_the_group_is_fixed_3_to_6_players_and_nobody_joins_later():
    """QD-014: 3 to 6 players; a saved campaign cannot be played by a table of another size."""
    for n in (2, 7):
        with pytest.raises(BadPlayerCount):
            start(None, players=n)
    camp = campaign(players=4)
    for n in (3, 5):
        with pytest.raises(BadOption):
            start(camp, players=n)
    _, saved = played_campaign_game(camp, seed=10)
    with pytest.raises(BadOption):
        start(saved, players=5)
    assert start(saved, seed=1).state.campaign.players == 4


def test_six_ideologies_in_three_opposed_pairs_one_slider_each():
    """QD-015: Tradition/Progress, Force/Diplomacy, Order/Liberty, one Slider per pair."""
    assert AXES == (("tradition", "progress"), ("force", "diplomacy"), ("order", "liberty"))
    assert sorted(IDEOLOGIES) == sorted(["tradition", "progress", "force", "diplomacy", "order", "liberty"])
    camp = campaign(players=4)
    camp["deck"] = ["D011", "D012"]
    t = start(camp, seed=11)
    bot_until(t, voting)
    assert len(t.state.board.sliders) == 3 and len(t.state.board.tokens) == 6
    card = t.state.dilemma
    side = "aye" if card == "D011" else "nay"   # D011 aye: Progress, Force; D012 nay: Liberty, Diplomacy
    decide_vote(t, side)
    sliders = t.state.board.sliders
    if card == "D011":
        assert sliders == {"tradition": 1, "force": -1, "order": 0}
    else:
        assert sliders == {"tradition": 0, "force": 1, "order": 1}
    # the opposite Ideology moves the same Slider back
    b = IdeologyBoard()
    push(b, "progress", 2)
    push(b, "tradition", 1)
    assert b.sliders == {"tradition": 1, "force": 0, "order": 0}


def test_the_ideology_board_is_public():
    """QD-016: Slider positions and Hegemony tokens are shown to every viewer."""
    camp = campaign(players=4)
    camp["deck"] = ["D009", "D011"]
    t = start(camp, seed=12)
    bot_until(t, voting)
    decide_vote(t, "aye")
    bot_until(t, voting)
    assert any(t.state.board.tokens.values())
    for viewer in (None, 0, 1, 2, 3):
        assert view(t.rules, t.state, viewer)["board"] == {"sliders": t.state.board.sliders,
                                                          "tokens": t.state.board.tokens}


# -- Characters ---------------------------------------------------------------------------------
def test_two_players_never_share_a_character_and_keep_it_for_the_campaign():
    """QD-017: six Characters; each player a different one, kept for the whole campaign."""
    assert sorted(BOX.characters) == sorted(SIX)
    with pytest.raises(BadOption):
        start(None, players=3, options={"characters": ["Aesyas", "Aesyas", "Syd"]})
    with pytest.raises(BadOption):
        start(None, players=3, options={"characters": ["Aesyas", "Serena", "Syd"]})
    camp = campaign(players=3, characters=["Lyrie", "Syd", "Elinor"])
    _, saved = played_campaign_game(camp, seed=13)
    # a later table cannot hand out other Characters: the campaign's stay
    t = start(saved, seed=1, options={"characters": ["Aesyas", "Jilian", "Xanthe"]})
    assert [d.character for d in t.state.campaign.diaries] == ["Lyrie", "Syd", "Elinor"]


@pytest.mark.parametrize("name,title,ideologies", [
    ("Aesyas", "The Silver Quill", {"progress", "diplomacy"}),         # QD-018
    ("Elinor", "The Herald of the Past", {"tradition", "order"}),      # QD-019
    ("Jilian", "The Silk Weaver", {"diplomacy", "tradition"}),         # QD-020
    ("Lyrie", "The Visionary Patron", {"liberty", "progress"}),        # QD-021
    ("Syd", "The Feral", {"force", "liberty"}),                        # QD-022
    ("Xanthe", "The Crimson Shield", {"order", "force"}),              # QD-023
])
def test_each_characters_preferred_ideologies(name, title, ideologies):
    """QD-018, QD-019, QD-020, QD-021, QD-022, QD-023: each Character's title and its two
    preferred Ideologies, as the content box gives them."""
    c = BOX.characters[name]
    assert c.title == title and set(c.ideologies) == ideologies and len(c.ideologies) == 2


def test_every_ideology_is_preferred_by_exactly_two_characters():
    """QD-024."""
    counts = {i: sum(i in c.ideologies for c in BOX.characters.values()) for i in IDEOLOGIES}
    assert counts == {i: 2 for i in IDEOLOGIES}


def test_the_recommended_character_sets():
    """QD-025, QD-026: exactly the recommended sets for 3 and 4 players; a table without a
    Character choice gets a recommended set, and every recommended set can be played."""
    as_sets = {n: {frozenset(s) for s in sets} for n, sets in RECOMMENDED.items()}
    assert as_sets[3] == {frozenset(s) for s in (("Aesyas", "Jilian", "Syd"), ("Aesyas", "Elinor", "Syd"),
                                                  ("Aesyas", "Syd", "Xanthe"), ("Jilian", "Lyrie", "Xanthe"))}
    assert as_sets[4] == {frozenset(s) for s in (("Aesyas", "Jilian", "Syd", "Xanthe"),
                                                  ("Elinor", "Jilian", "Lyrie", "Syd"),
                                                  ("Aesyas", "Elinor", "Lyrie", "Xanthe"))}
    assert len(RECOMMENDED[3]) == 4 and len(RECOMMENDED[4]) == 3
    for n in (3, 4):
        t = start(None, players=n)
        assert frozenset(d.character for d in t.state.campaign.diaries) in as_sets[n]
        for chosen in RECOMMENDED[n]:
            t = start(None, players=n, options={"characters": list(chosen)})
            assert [d.character for d in t.state.campaign.diaries] == list(chosen)


def test_diary_points_persist_from_game_to_game():
    """QD-029: the Diary keeps Hegemony, Independence and Infamy across the campaign's games."""
    table, saved = played_campaign_game(campaign(players=4), seed=14)
    ended = [(p.hegemony, p.independence, p.infamy) for p in table.state.councilors]
    assert any(any(x) for x in ended)
    assert [(d["hegemony"], d["independence"], d["infamy"]) for d in saved["diaries"]] == ended
    t2 = start(saved, seed=15)
    assert [(p.hegemony, p.independence, p.infamy) for p in t2.state.councilors] == ended
    table2, saved2 = played_campaign_game(saved, seed=15)
    for before, d in zip(ended, saved2["diaries"]):
        assert d["hegemony"] >= before[0] and d["independence"] >= before[1] and d["infamy"] >= before[2]


def test_fate_is_marked_only_by_the_end_of_the_characters_story():
    """QD-030: no decision of the game marks a Fate; the Epilogue at the end of the personal
    story does (Aesyas: A108 completed -> Epilogue A110 -> Fate "legacy")."""
    camp = campaign(players=4)
    aesyas = next(d for d in camp["diaries"] if d["character"] == "Aesyas")
    aesyas["agendas"].append({"code": "A108", "deadline": 1})
    aesyas["resources"]["materials"] = 8
    camp["unlocked"].append("A108")
    camp["deck"] = ["D009"]
    t = start(camp, seed=16)
    kinds: set[str] = set()

    def until(table):
        kinds.update(o.type for p in table.state.prompts for o in choices(table, p))
        assert all(d.fate == "" for d in table.state.campaign.diaries)
        return any(p.seat == aesyas["seat"] and p.kind == "agenda" and
                   Action("complete", {"agenda": "A108"}) in p.options for p in table.state.prompts)

    bot_until(t, until, seed=16)
    assert not any("fate" in k for k in kinds)
    events = act(t, aesyas["seat"], "complete", agenda="A108")
    assert [e.data for e in events if e.type == "fate"] == [{"seat": aesyas["seat"], "fate": "legacy"}]
    assert [d.fate for d in t.state.campaign.diaries] == ["legacy" if d.seat == aesyas["seat"] else ""
                                                          for d in t.state.campaign.diaries]


# -- Starting Agendas ---------------------------------------------------------------------------
def test_agenda_codes_are_a_and_three_digits(tmp_path):
    """QD-031: Agenda codes are "A" and 3 digits (the Age of Disorder's AAOD1-6 apart); the
    content check refuses any other code."""
    for code in BOX.agendas:
        assert re.fullmatch(r"A\d{3}", code) or re.fullmatch(r"AAOD[1-6]", code), code
    assert all(re.fullmatch(r"A\d{3}", c) for c in STARTING.values())
    folder = tmp_path / "box"
    shutil.copytree(DEFAULT_BOX, folder)
    agendas = json.loads((folder / "agendas.json").read_text())
    general = next(a for a in agendas if a["kind"] == "general")
    general["code"] = "A1060"
    (folder / "agendas.json").write_text(json.dumps(agendas))
    with pytest.raises(ContentError):
        load_box(folder)


def test_one_time_setup_deals_each_character_its_starting_agenda():
    """QD-032, QD-033, QD-034, QD-035, QD-036, QD-037: A106 Aesyas, A127 Elinor, A044 Jilian,
    A064 Lyrie, A086 Syd, A017 Xanthe, dealt by the engine's one-time setup."""
    assert {n: c.starting_agenda for n, c in BOX.characters.items()} == STARTING
    camp = campaign(players=6, characters=["Xanthe", "Syd", "Lyrie", "Jilian", "Elinor", "Aesyas"],
                    regions_chosen=False)
    t = start(camp, seed=17)
    assert all(not d.agendas for d in t.state.campaign.diaries)  # not before the Regions are chosen
    pick_all_regions(t)
    for d in t.state.campaign.diaries:
        assert [a.code for a in d.agendas] == [STARTING[d.character]]


def test_starting_agendas_are_dealt_face_down():
    """QD-038: only the owner sees which Agenda they hold (events and views)."""
    camp = campaign(players=4, regions_chosen=False)
    t = start(camp, seed=18)
    rec = Recorder(t, lambda table: not any(p.kind == "region" for p in table.state.prompts))
    bot_until(t, rec, seed=18)
    dealt = [e for e in rec.events if e.type == "agenda"]
    assert len(dealt) == 4
    for e in dealt:
        owner, code = e.data["seat"], e.data["code"]
        assert view_events([e], owner) == [{"type": "agenda", "data": e.data}]
        for other in [s for s in range(4) if s != owner] + [None]:
            assert view_events([e], other) == [{"type": "agenda", "data": {"seat": owner}}]
            v = view(t.rules, t.state, other)
            assert v["campaign"]["diaries"][owner]["agendas"] == 1
            assert code not in json.dumps(v)
        mine = view(t.rules, t.state, owner)["campaign"]["diaries"][owner]["agendas"]
        assert [a["code"] for a in mine] == [code]


# -- Leader, Moderator, Regions ------------------------------------------------------------------
def test_the_one_time_seating_is_the_first_games_seating():
    """QD-048: the Leader and Moderator of the one-time setup (and its seat bonuses) are those
    the first game starts with: the Leader votes first."""
    camp = campaign(players=5, regions_chosen=False)
    t = start(camp, seed=19)
    setup = next(e.data for e in t.events if e.type == "campaign_setup")
    leader, moderator = setup["leader"], setup["moderator"]
    assert moderator == (leader - 1) % 5
    bot_until(t, voting, seed=19)
    assert t.state.leader == leader and t.state.moderator == moderator
    assert [p.seat for p in t.state.prompts if p.kind == "vote"] == [leader]
    assert t.state.councilors[(leader + 1) % 5].power == 8  # seat 2's bonus Power
    assert t.state.campaign.leader == leader and t.state.campaign.moderator == moderator


def test_the_twelve_regions_and_aontas_is_never_offered():
    """QD-049: the 12 playable Regions; Aontas (Lybra) can never be chosen."""
    names = ["Allwed", "Natar", "Blodyn", "Olwyn", "Coden", "Solad", "Crann", "Tiryll", "Dualak", "Tork",
             "Gamam", "Wylio"]
    assert sorted(BOX.regions) == sorted(names) and "Aontas" not in BOX.regions
    t = start(campaign(players=4, regions_chosen=False), seed=20)
    p = next(p for p in t.state.prompts if p.kind == "region")
    assert sorted(o.params["region"] for o in p.options) == sorted(names)
    with pytest.raises(BadParameter):
        act(t, p.seat, "region", region="Aontas", main=True)
    picks = pick_all_regions(t)
    assert "Aontas" not in [r for _, r, _ in picks]
    assert sorted(r for d in t.state.campaign.diaries for r in d.regions + d.vassals) == sorted(names)


def test_a_claimed_region_cannot_be_picked_again():
    """QD-052: one owner per Region; picking a claimed Region is refused, state unchanged."""
    t = start(campaign(players=4, regions_chosen=False), seed=21)
    first = next(p for p in t.state.prompts if p.kind == "region")
    act(t, first.seat, "region", region="Allwed", main=True)
    nxt = next(p for p in t.state.prompts if p.kind == "region")
    assert nxt.seat != first.seat
    assert Action("region", {"region": "Allwed", "main": True}) not in legal_actions(t.state, nxt.seat)
    version = t.state.version
    with pytest.raises(BadParameter):
        act(t, nxt.seat, "region", region="Allwed", main=True)
    assert t.state.version == version and t.state.campaign.diaries[first.seat].regions == ["Allwed"]
    pick_all_regions(t)
    owners = [d.seat for d in t.state.campaign.diaries for r in d.regions + d.vassals if r == "Allwed"]
    assert owners == [first.seat]


def test_a_covered_vassal_base_building_counts_for_no_type():
    """QD-061: D5A3 rewards owners of a Welfare Building: a Main welfare Region and a welfare
    Building in a Vassal Region count, a welfare Vassal Region's own base Building does not."""
    camp = with_regions(campaign(players=4), mains={0: ["Blodyn", "Natar"], 1: ["Crann", "Coden"],
                                                    2: ["Tiryll", "Dualak"], 3: ["Tork", "Gamam"]},
                        vassals={0: ["Allwed"], 1: ["Olwyn"], 2: ["Wylio"], 3: ["Solad"]},
                        buildings={2: {"B03": "Wylio"}})
    assert BOX.regions["Olwyn"].type == BOX.regions["Wylio"].type == BOX.regions["Blodyn"].type == "welfare"
    assert BOX.buildings["B03"].type == "welfare"
    camp["deck"] = ["D5A3"]
    t = start(camp, seed=22)
    bot_until(t, voting)
    decide_vote(t, "aye")
    rec = Recorder(t)  # from the resolution on
    bot_until(t, rec, seed=22)
    rewarded = sorted(e["seat"] for e in rec.of("gain") if e["source"] == "D5A3" and e["what"] == "hegemony")
    assert rewarded == [0, 2]


@pytest.mark.parametrize("side,owner,mains,vassals,what,n", [
    ("aye", 2, {0: ["Blodyn", "Natar"], 1: ["Coden", "Olwyn"], 2: ["Tiryll", "Dualak"], 3: ["Tork", "Gamam"]},
     {0: ["Allwed"], 1: ["Wylio"], 2: ["Crann"], 3: ["Solad"]}, "materials", 2),      # Crann a Vassal
    ("nay", 1, {0: ["Blodyn", "Natar"], 1: ["Coden", "Crann"], 2: ["Tiryll", "Dualak"], 3: ["Tork", "Gamam"]},
     {0: ["Allwed"], 1: ["Wylio"], 2: ["Olwyn"], 3: ["Solad"]}, "food", 1),           # Crann a Main Region
])
def test_region_keywords_target_main_and_vassal_owners(side, owner, mains, vassals, what, n):
    """QD-062: effects keyed to a Region (D011: Crann) reach its owner, Vassal or Main."""
    camp = with_regions(campaign(players=4), mains, vassals)
    camp["deck"] = ["D011"]
    t = start(camp, seed=23)
    bot_until(t, voting)
    events = decide_vote(t, side)
    gains = [(e.data["seat"], e.data["what"], e.data["n"]) for e in events
             if e.type == "gain" and e.data["source"] == "D011"]
    assert gains == [(owner, what, n)]


def test_region_ownership_never_changes():
    """QD-063: Regions keep their owners game after game; no later game asks again."""
    table, saved = played_campaign_game(campaign(players=4, regions_chosen=False), seed=24)
    owned = [(d["regions"], d["vassals"]) for d in saved["diaries"]]
    assert sorted(r for rs, vs in owned for r in rs + vs) == sorted(REGIONS)
    for seed in (25, 26):
        t = start(saved, seed=seed)
        assert not [e for e in t.events if e.type in ("region", "campaign_setup")]
        kinds = set()
        bot_until(t, lambda table: kinds.update(p.kind for p in table.state.prompts) or False, seed=seed)
        assert "region" not in kinds
        table, saved = played_campaign_game(saved, seed=seed)
        assert [(d["regions"], d["vassals"]) for d in saved["diaries"]] == owned


# -- Envelope 00 ---------------------------------------------------------------------------------
def test_envelope_00_story_card_goes_to_its_storyline_slot():
    """QD-064: the one-time setup opens Envelope 00, reads its Story card and places it on
    the Storyline slot of its symbol."""
    env = BOX.envelopes["00"]
    story = BOX.stories[env.story]
    t = start(campaign(players=4, regions_chosen=False), seed=27)
    assert "00" not in t.state.campaign.opened
    rec = Recorder(t, voting)
    bot_until(t, rec, seed=27)
    assert [e["code"] for e in rec.of("envelope")] == ["00"]
    assert [(e["id"], e["storyline"]) for e in rec.of("story")] == [(env.story, story.storyline)]
    assert t.state.campaign.stories == [env.story]
    assert rec.of("stories") == [{"shown": {str(story.storyline): [env.story]}}]
    types = [e.type for e in rec.events]
    assert types.index("envelope") < types.index("story") < types.index("deck")


def test_envelope_00_dilemmas_are_shuffled_into_the_starting_deck():
    """QD-065: the rest of Envelope 00 (all Dilemmas) is shuffled into the starting deck."""
    env = BOX.envelopes["00"]
    assert env.dilemmas and all(d in BOX.dilemmas for d in env.dilemmas)
    orders = set()
    for seed in (28, 29, 30):
        t = start(campaign(players=4, regions_chosen=False), seed=seed)
        bot_until(t, voting, seed=seed)
        deck = t.state.campaign.deck + [t.state.dilemma]
        assert sorted(deck) == sorted(env.dilemmas)
        orders.add(tuple(deck))
    assert len(orders) > 1 and tuple(env.dilemmas) not in orders


def test_dilemma_backs_stay_hidden_until_resolved():
    """QD-066: the drawn card shows only its front (Ideology pushes, Legacy icon); the back of
    the winning side is read at resolution, the losing side's never; nobody sees the deck."""
    camp = campaign(players=4)
    camp["deck"] = ["D011"]
    t = start(camp, seed=31)
    rec = Recorder(t, voting)
    bot_until(t, rec, seed=31)
    card = BOX.dilemmas["D011"]
    [front] = rec.of("dilemma")
    assert set(front["aye"]) == set(front["nay"]) == {"pushes", "legacy"}
    assert card.aye.text not in json.dumps(front) and card.nay.text not in json.dumps(front)
    for viewer in (None, 0, 1):
        v = json.dumps(view(t.rules, t.state, viewer))
        assert card.aye.text not in v and card.nay.text not in v
    events = decide_vote(t, "nay")
    [outcome] = [e.data for e in events if e.type == "outcome"]
    assert outcome["side"] == "nay" and outcome["text"] == card.nay.text
    everything = json.dumps([e.data for e in rec.events + events], default=str)
    assert card.aye.text not in everything


def test_an_unrecommended_small_set_is_allowed_with_a_warning():
    """QD-027: outside the recommended 3/4-player sets the table warns, it does not refuse;
    5- and 6-player campaigns have no recommended sets (no warning)."""
    odd = start(None, players=3, options={"characters": ["Elinor", "Lyrie", "Xanthe"]})
    assert len(odd.warnings) == 1 and "not a recommended 3-player set" in odd.warnings[0]
    assert odd.state.campaign.diaries[0].character == "Elinor"
    assert start(None, players=3, options={"characters": ["Syd", "Aesyas", "Jilian"]}).warnings == ()
    assert start(None, players=4, options={"characters": ["Elinor", "Jilian", "Lyrie", "Syd"]}).warnings == ()
    assert start(None, players=5, options={"characters": ["Elinor", "Jilian", "Lyrie", "Syd", "Xanthe"]}).warnings == ()


def test_seat_bonuses_reach_the_first_game_and_are_saved():
    """QD-047 (with QD-040..043): bonus Power adds to game 1's Starting Power; bonus Gold is in
    the Treasury and bonus Independence on the Diary track, and both are in play in game 1."""
    table = start(campaign(players=6, characters=list(CHARACTERS), regions_chosen=False), seed=3)
    bot_until(table, lambda t: t.state.phase == "voting")
    state = table.state
    order = [(state.campaign.leader + i) % 6 for i in range(6)]  # clockwise from the drawn Leader
    assert [state.councilors[s].independence for s in order] == [0, 0, 1, 1, 1, 1]
    assert [state.councilors[s].power for s in order] == [7, 8, 7, 8, 8, 8]
    assert [state.campaign.diaries[s].resources["gold"] for s in order] == [0, 0, 0, 0, 1, 1]
    for s in order:  # the Treasury holds the bonus Gold plus this game's income
        assert state.councilors[s].resources["gold"] >= state.campaign.diaries[s].resources["gold"] + 1
    assert [state.campaign.diaries[s].bonus_power for s in order] == [0] * 6  # spent on game 1
