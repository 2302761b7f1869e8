"""Resources, the Court and scoring (digest sections 8-10): what lasts across a chapter's
end (Outrage, Guild cards, agents on Court cards), the Court data, where agents may be,
an empty Court deck, what counts for ambitions and how Power is added. Chapters end here
by every seat passing, through the engine."""
from __future__ import annotations

from core.bot import play_game
from core.errors import IllegalAction
from plugins.arcs.content import default_box
from plugins.arcs.scoring import PHANTOM, ambition_count, score_ambition
from plugins.arcs.state import Marker, Trophy
from tests.arcs.flow_helpers import act, answer, place_first, prompt_of, put, restart_round, table
from tests.arcs.test_abilities_in_play import own
from tests.arcs.test_rules_b_battle import in_row
from tests.arcs.test_rules_b_pieces import city
from tests.arcs.test_rules_b_turn import bare, lead, refused, slots

BOX = default_box()
RESOURCES = {"material", "fuel", "weapon", "relic", "psionic"}


def end_chapter(t) -> None:
    """Every seat passes in turn: the chapter is scored and cleaned up, the next one dealt."""
    chapter = t.state.chapter
    restart_round(t, [["ADM4"], ["MOB2"], ["MOB3"]], initiative=0)
    for seat in range(3):
        answer(t, seat, "pass")
    assert t.state.chapter == chapter + 1 and prompt_of(t, t.state.initiative).kind == "lead"


def test_outrage_lasts_into_the_next_chapter_ARCS_195():
    """ARCS-195 (UNCERTAIN, the digest's reading: nothing removes it): Outraged in Fuel, a
    seat is still Outraged after the chapter ends, and in chapter 2 its Fuel still buys no
    Move; its agent stays on the Outrage slot."""
    t = bare()
    s = t.state
    s.players[0].outrage.append("fuel")
    s.players[0].agents -= 1
    end_chapter(t)
    assert t.state.players[0].outrage == ["fuel"] and t.state.players[0].agents == 9
    lead(t, "AGG3")
    slots(t, 0, ["fuel", None])
    put(t, "2G", 0, fresh=1)
    refused(t, 0, {"act": "move", "pay": 0, "origin": "2G", "path": ["3G"], "fresh": 1}, IllegalAction)


def test_guild_cards_and_court_agents_stay_across_rounds_and_chapters_ARCS_223_227():
    """ARCS-223: a Guild card in a play area is still there after the chapter ends;
    ARCS-227: agents put on a Court card by Influence stay there through the round's end and
    the chapter's end, and leave only with the card (here when it is secured)."""
    t = bare()
    own(t, 0, "BC08")
    lead(t, "ADM4")
    card = next(c for c in t.state.court_row if BOX.court[c].kind == "guild")
    for _ in range(2):
        act(t, 0, "influence", card=card)
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB2", kind="pivot")
    act(t, 1, "influence", card=card)
    end_chapter(t)
    s = t.state
    assert "BC08" in s.players[0].guild and s.court_agents[card][:2] == [2, 1]
    agents = s.players[0].agents
    lead(t, "AGG3")
    act(t, 0, "secure", card=card)
    s = t.state
    assert card not in s.court_row and card in s.players[0].guild and "BC08" in s.players[0].guild
    assert s.players[0].agents == agents + 2 and s.players[0].captives == [1]


def test_an_empty_court_deck_leaves_the_place_empty_ARCS_229():
    """ARCS-229 (UNCERTAIN; ruling A-R3): securing with the Court deck empty leaves the row
    one card shorter; the Court discard is not reshuffled into a new deck."""
    t = bare()
    s = t.state
    s.court_discard.extend(s.court_deck)
    s.court_deck = []
    card = next(c for c in s.court_row if BOX.court[c].kind == "guild")
    in_row(t, [], {card: [1, 0, 0]})
    discard = list(s.court_discard)
    lead(t, "AGG3")
    act(t, 0, "secure", card=card)
    s = t.state
    assert len(s.court_row) == 3 and card not in s.court_row and "" not in s.court_row
    assert s.court_deck == [] and s.court_discard == discard


def test_resources_come_from_tax_and_card_effects_ARCS_206():
    """ARCS-206: a Tax gains the planet's resource; a card effect (Mining Interest's new
    action, BC02) gains one too; raiding is the third way (test_rules_b_battle, the keys'
    steal of a Fuel)."""
    t = bare()
    city(t, "2.3", 0)
    slots(t, 0, [None, None])
    lead(t, "ADM4")
    act(t, 0, "tax", system="2.3", building=0)
    place_first(t, 0)
    assert t.state.players[0].resources[:2] == ["relic", None]
    t = bare()
    own(t, 0, "BC02")
    slots(t, 0, [None, None])
    lead(t, "CON4")
    act(t, 0, "ability", card="BC02", index=0, params={})
    place_first(t, 0)
    assert t.state.players[0].resources[0] == "material"


def test_resource_types_are_the_planet_types_ARCS_205():
    """ARCS-205: the five resource types are exactly the five planet types."""
    planet_types = {p.type for c in BOX.map.clusters for p in c.planets}
    assert planet_types == set(BOX.board.resources) == RESOURCES


def test_court_cards_suits_ranges_and_raid_costs_ARCS_221_225():
    """ARCS-225: BC01-05 Material, BC06-10 Fuel, BC11-15 Weapon, BC16-20 Psionic, BC21-25
    Relic, BC26-31 Vox; ARCS-221: every Guild card has one resource suit, some rules text
    (abilities) and a raid cost: 3 on the five Loyal cards, 1 on Sworn Guardians and
    Galactic Bards, 2 on the rest (digest section 15, typed here); Vox cards have neither."""
    ranges = {"material": (1, 5), "fuel": (6, 10), "weapon": (11, 15), "psionic": (16, 20), "relic": (21, 25)}
    expected = {f"BC{n:02d}": suit for suit, (a, b) in ranges.items() for n in range(a, b + 1)}
    guild = {c.id: c.suit for c in BOX.court.values() if c.kind == "guild"}
    vox = sorted(c.id for c in BOX.court.values() if c.kind == "vox")
    assert guild == expected and vox == [f"BC{n}" for n in range(26, 32)] and len(BOX.court) == 31
    costs = {c: 2 for c in expected} | {c: 3 for c in ("BC01", "BC07", "BC15", "BC19", "BC21")} | \
        {"BC22": 1, "BC25": 1}
    assert {c: BOX.court[c].raid_cost for c in expected} == costs
    for c in expected:
        assert BOX.court[c].suit in RESOURCES and BOX.court[c].abilities
    for c in vox:
        assert BOX.court[c].suit is None and not BOX.court[c].raid_cost


def _agents_are_each_somewhere(t, seat, action) -> None:
    """ARCS-226: each seat's 10 agents: supply, a Court card, a Rival's Captives or Trophies,
    or its own Outrage slots (placeholders hold no agent); never in its own boxes."""
    s = t.state
    for owner, p in enumerate(s.players):
        court = sum(agents[owner] for agents in s.court_agents.values())
        held = [(holder, x) for holder, q in enumerate(s.players) for x in q.captives if x == owner]
        trophies = [holder for holder, q in enumerate(s.players) for x in q.trophies
                    if x.kind == "agent" and x.owner == owner]
        outrage = len(p.outrage) - len(p.outrage_placeholders)
        assert p.agents + court + len(held) + len(trophies) + outrage == 10, (owner, s.round)
        assert all(holder != owner for holder, _ in held) and owner not in trophies
        assert p.agents >= 0 and outrage >= 0


def test_agents_are_always_in_exactly_one_place_ARCS_226():
    """ARCS-226 over whole random games (2, 3 and 4 players), checked after every action."""
    for players, seed in ((2, 13), (3, 11), (4, 12)):
        played = play_game("arcs", players, seed, after_action=_agents_are_each_somewhere)
        assert played.table.state.finished


def test_what_you_have_includes_resources_on_your_cards_ARCS_219():
    """ARCS-219: a seat holding Material Cartel (BC03, which holds the Material supply) has,
    for Tycoon, its Fuel in a slot, the card's own suit icon and the Material on the card."""
    t = bare()
    s = t.state
    slots(t, 0, ["fuel", None])
    own(t, 0, "BC03")
    on_card = s.supply["material"]
    assert on_card > 0
    assert ambition_count(BOX, s, s.players[0], "tycoon") == 1 + 1 + on_card


def test_weapons_count_for_no_ambition_but_the_phantoms_warlord_ARCS_231():
    """ARCS-231: three Weapon tokens and a Weapon Guild card count 0 for every ambition
    (Warlord counts Trophies, Tyrant Captives); in a 2-player game the Weapon tokens set on
    Warlord do count, as the phantom's Trophies: 1 against a seat's 1 Trophy ties first."""
    t = bare()
    s = t.state
    slots(t, 0, ["weapon", "weapon"])
    own(t, 0, "BC11")
    assert {a: ambition_count(BOX, s, s.players[0], a) for a in BOX.board.ambitions} == \
        {"tycoon": 0, "tyrant": 0, "warlord": 0, "keeper": 0, "empath": 0}
    t2 = table(2, setup_card="2SETUP01")
    s2 = t2.state
    assert s2.ambition_tokens.get("warlord") == ["weapon"]  # Frontiers: clusters 1 and 6 out
    s2.ambition_boxes["warlord"] = [Marker("A")]
    s2.players[0].trophies = [Trophy(owner=1, kind="ship")]
    assert score_ambition(BOX, s2, "warlord") == {0: 3, 1: 0}  # tied with the phantom: second's 3
    assert PHANTOM not in score_ambition(BOX, s2, "warlord")


def test_power_is_added_at_chapter_end_and_never_taken_ARCS_235():
    """ARCS-235: at the chapter's end the scored Power is added at once to what each seat
    had (the scored event says the same) and no seat loses any: Tycoon with marker A,
    seat 0 first (2 Material), seat 1 second (1 Fuel), seat 2 nothing."""
    t = bare()
    s = t.state
    for seat, power in enumerate((7, 4, 10)):
        s.players[seat].power = power
    slots(t, 0, ["material", "material"])
    slots(t, 1, ["fuel", None])
    slots(t, 2, [None, None])
    s.markers_available = [m for m in s.markers_available if m.id != "A"]
    s.ambition_boxes["tycoon"] = [Marker("A")]
    restart_round(t, [["ADM4"], ["MOB2"], ["MOB3"]], initiative=0)
    events = []
    for seat in range(3):
        events += answer(t, seat, "pass")
    assert [p.power for p in t.state.players] == [12, 7, 10]
    (scored,) = [e for e in events if e.type == "scored"]
    assert scored.data["power"] == {"0": 5, "1": 3, "2": 0}
