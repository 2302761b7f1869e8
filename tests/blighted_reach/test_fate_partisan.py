"""The Partisan (FATE06) through the engine: each test names the card it plays (F6nn) and the
checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
from tests.blighted_reach.campaign_tables import sound
from tests.blighted_reach.flow_helpers import options, ready, restart_round

PARTISAN = "FATE06"


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def refused(t, seat: int, action: Action, error=ActionRejected) -> None:
    before = snapshot(t)
    with pytest.raises(error):
        t.act(seat, action)
    assert snapshot(t) == before


def partisan_table(players: int = 3, seed: int = 1, seat: int = 0):
    t = ready(players, seed, {seat: PARTISAN})
    s = t.state
    assert "F602" in s.players[seat].guild and "F603" in s.play_area[seat]
    return t


def act(t, seat: int, act: str, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


# -- Informants (F602) ----------------------------------------------------------------------
def spy_options(t, seat: int = 0) -> list[Action]:
    return [a for a in options(t, seat) if a.type == "act" and a.params.get("act") == "ability"
            and a.params.get("card") == "F602"]


def test_F602_informants_spy_swaps_the_highest_cards():
    """Spy (an Influence): the holder's highest-numbered card goes to the Rival, the Rival's
    highest comes back; once per turn."""
    t = partisan_table()
    restart_round(t, [["ADM3", "AGG4", "MOB2"], ["CON2", "MOB5"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    spies = spy_options(t)
    assert {a.params["params"]["rival"] for a in spies} == {1, 2}
    t.act(0, next(a for a in spies if a.params["params"]["rival"] == 1 and a.params["pay"] == -1))
    s = t.state
    assert sorted(s.hands[0]) == ["MOB2", "MOB5"] and sorted(s.hands[1]) == ["AGG4", "CON2"]
    assert s.turn.pips == 2  # an Influence pip of the lead card paid for it
    assert not spy_options(t)  # once per turn


def test_F602_the_same_card_can_come_back_and_the_holder_names_one_of_its_tied_highest():
    """A Rival whose highest is the card just given sends that same card back; with tied
    highest cards the holder names which it gives."""
    t = partisan_table()
    restart_round(t, [["ADM2", "AGG6", "MOB6"], ["CON2", "MOB3"], ["CON3", "AGG5"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM2"}))
    t.act(0, Action("declare", {"ambition": ""}))
    spies = spy_options(t)
    assert {(a.params["params"]["rival"], a.params["params"]["card"]) for a in spies if a.params["pay"] == -1} == \
        {(1, "AGG6"), (1, "MOB6"), (2, "AGG6"), (2, "MOB6")}
    t.act(0, Action("act", {"act": "ability", "card": "F602", "index": 0, "params": {"rival": 1, "card": "MOB6"}}))
    s = t.state
    assert sorted(s.hands[0]) == ["AGG6", "MOB6"] and sorted(s.hands[1]) == ["CON2", "MOB3"]


def test_F602_a_rival_with_tied_highest_cards_chooses_which_returns():
    """The Spied Rival's own prompt names its tied highest cards (only them), and its choice
    goes to the holder."""
    t = partisan_table()
    restart_round(t, [["ADM2", "AGG4", "MOB3"], ["CON2", "MOB2"], ["CON3", "AGG5", "ADM5"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM2"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "ability", "card": "F602", "index": 0, "params": {"rival": 2}}))
    p = next(p for p in t.state.prompts if p.seat == 2)
    assert p.kind == "spy_return" and sorted(o.params["card"] for o in p.options) == ["ADM5", "AGG5"]
    refused(t, 2, Action("give", {"card": "AGG4"}))
    t.act(2, Action("give", {"card": "ADM5"}))
    s = t.state
    assert sorted(s.hands[0]) == ["ADM5", "MOB3"] and sorted(s.hands[2]) == ["AGG4", "AGG5", "CON3"]
    assert s.turn.seat == 0  # the holder's turn goes on


def test_F602_what_counts_as_highest_events_have_no_number_faithful_cards_do():
    """Reading: an Event card has no number; a Believer's Faithful card (1-9) has its own."""
    from plugins.blighted_reach.fate_partisan import highest

    assert highest(["EVENT", "ADM3", "AGG3"]) == ["ADM3", "AGG3"]
    assert highest(["ADM6", "F812", "EVENT"]) == ["F812"]  # the "9"
    assert highest(["EVENT"]) == []


def test_F602_bad_spy_choices_are_refused():
    t = partisan_table()
    restart_round(t, [["ADM3", "AGG6", "MOB6"], ["CON2", "MOB5"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    spy = {"act": "ability", "card": "F602", "index": 0}
    refused(t, 0, Action("act", {**spy, "params": {"rival": 0, "card": "AGG6"}}), BadParameter)
    refused(t, 0, Action("act", {**spy, "params": {"rival": 1}}), BadParameter)  # two tied: name one
    refused(t, 0, Action("act", {**spy, "params": {"rival": 1, "card": "ADM2"}}), BadParameter)
    refused(t, 0, Action("act", {**spy, "params": {"rival": 7, "card": "AGG6"}}), BadParameter)
    refused(t, 0, Action("act", {**spy, "params": {"rival": 1, "card": "AGG6", "peek": True}}), BadParameter)


# -- Partisan Seizing (F603) ----------------------------------------------------------------
def test_F603_the_partisan_seizes_by_provoking_outrage_not_by_a_second_card():
    """Following, the Partisan is offered to seize by Provoking Outrage of a type it is not
    Outraged in (discarding that type's tokens and Guild cards, an agent on the slot), never
    by a card face down."""
    t = partisan_table(seat=1)
    s = t.state
    for r in filter(None, s.players[1].resources):
        s.supply[r] += 1
    s.players[1].resources = ["fuel", "relic", None, None, None, None]
    s.supply["fuel"] -= 1
    s.supply["relic"] -= 1
    s.players[1].outrage = ["material"]
    s.players[1].agents -= 1
    restart_round(t, [["ADM3", "CON2"], ["ADM5", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM5", "kind": "surpass"}))
    p = next(p for p in t.state.prompts if p.seat == 1)
    assert p.kind == "seize"
    assert [o.params for o in p.options][0] == {"card": ""}  # declining, as the base offer's answer
    assert sorted(o.params["outrage"] for o in p.options[1:]) == ["fuel", "psionic", "relic", "weapon"]
    refused(t, 1, Action("seize", {"card": "MOB2"}))
    refused(t, 1, Action("seize", {"outrage": "material"}))
    agents = t.state.players[1].agents
    t.act(1, Action("seize", {"outrage": "fuel"}))
    s = t.state
    assert s.initiative == 1 and s.seized
    assert s.players[1].resources[:2] == [None, "relic"] and "F602" in s.players[1].guild  # F602 is Psionic
    assert s.players[1].outrage == ["material", "fuel"] and s.players[1].agents == agents - 1
    assert s.hands[1] == ["MOB2"]  # no card went face down
    sound(s)


def test_F603_fuel_outrage_discards_a_fuel_guild_card_and_declining_seizes_nothing():
    t = partisan_table(seat=1)
    restart_round(t, [["ADM3", "CON2"], ["ADM5", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM5", "kind": "surpass"}))
    t.act(1, Action("seize", {"card": ""}))
    s = t.state
    assert s.initiative == 0 and not s.seized and s.players[1].outrage == []


def test_F603_rivals_still_seize_with_a_card():
    """Only the holder seizes the Partisan's way in Act I."""
    t = partisan_table(seat=1)
    restart_round(t, [["ADM3", "CON2"], ["ADM2", "MOB2"], ["ADM5", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM2", "kind": "copy"}))
    t.act(1, Action("seize", {"card": ""}))
    t.act(1, Action("act", {"act": "done"}))
    t.act(2, Action("play", {"card": "ADM5", "kind": "surpass"}))
    p = next(p for p in t.state.prompts if p.seat == 2)
    assert p.kind == "seize" and {o.params["card"] for o in p.options} == {"", "AGG3"}


# -- the objective (F601) ---------------------------------------------------------------------
def test_F601_sow_division_advances_each_time_the_partisan_gets_the_initiative():
    """One space when the Partisan seizes; holding it through the round's end is not another;
    getting it at a round's end by a Surpass is (any way counts)."""
    t = partisan_table(seat=1)
    t.state.objective_markers = [10, 10, 10]
    restart_round(t, [["ADM3", "CON2"], ["ADM5", "ADM6"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM5", "kind": "surpass"}))
    t.act(1, Action("seize", {"outrage": "relic"}))
    assert t.state.objective_markers == [10, 9, 10]
    t.act(1, Action("act", {"act": "done"}))
    t.act(2, Action("play", {"card": "CON3", "kind": "pivot"}))
    t.act(2, Action("act", {"act": "done"}))
    s = t.state
    assert s.initiative == 1 and s.objective_markers == [10, 9, 10]
    restart_round(t, [["ADM2", "CON2"], ["ADM6", "MOB4"], ["CON5", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM2"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM6", "kind": "surpass"}))
    t.act(1, Action("seize", {"card": ""}))
    t.act(1, Action("act", {"act": "done"}))
    t.act(2, Action("play", {"card": "CON5", "kind": "pivot"}))
    t.act(2, Action("seize", {"card": ""}))
    t.act(2, Action("act", {"act": "done"}))
    s = t.state
    assert s.initiative == 1 and s.objective_markers == [10, 8, 10]


def test_F601_appeal_to_supporters_two_per_ambition_won_without_its_outrage():
    """Two spaces per ambition won, unless Outraged in a resource it counts: Relic for Keeper,
    Weapon for Warlord, Material or Fuel for Tycoon; Tyrant counts none."""
    from plugins.arcs.content import box_for
    from plugins.blighted_reach import objectives as ob
    from plugins.blighted_reach.content import default_box

    t = partisan_table(seat=1)
    s = t.state
    s.objective_markers = [10, 20, 10]
    s.players[1].outrage = ["weapon", "fuel"]
    score = ob.ChapterScore(winners={"keeper": 1, "warlord": 1, "tycoon": 1, "tyrant": 1, "empath": 0},
                            gains={a: {} for a in ("keeper", "warlord", "tycoon", "tyrant", "empath")})
    moved = ob.advance_for_ambitions(box_for(s), default_box(), s, score)
    assert moved == {1: 4} and s.objective_markers == [10, 16, 10]  # Keeper and Tyrant only


# -- the Resolution (F604) ----------------------------------------------------------------------
def resolved(markers, outrage=("fuel", "relic")):
    from tests.blighted_reach.campaign_tables import ADMIRAL, STEWARD, act_one, ctx, end_act
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.content import default_box

    state = end_act(act_one([PARTISAN, STEWARD, ADMIRAL], 3))
    state.objective_markers = list(markers)
    for r in outrage:
        state.players[0].outrage.append(r)
        state.players[0].agents -= 1
    agents = state.players[0].agents
    im.resolve_fates(ctx(state), default_box())
    return state, agents


def test_F604_completed_loyal_cards_to_the_court_deck_bards_gained_the_rest_scrapped_BR_328():
    """BR-328: the Partisan's Act I Resolution, completed side."""
    from tests.blighted_reach.campaign_tables import sound

    state, agents = resolved([0, 0, 0])
    assert {"F605", "F606", "F607", "F608", "F609"} <= set(state.court_deck)
    assert "F610" in state.players[0].guild
    assert {"F611", "F612", "F613", "F614"} <= set(state.scrapped)
    assert "F603" in state.play_area[0] and state.players[0].outrage == ["fuel", "relic"]
    sound(state)


def test_F604_failed_the_rest_to_the_court_deck_seizing_scrapped_and_outrage_cleared_BR_328():
    """BR-328: the Partisan's Act I Resolution, failed side."""
    from tests.blighted_reach.campaign_tables import sound

    state, agents = resolved([5, 0, 0])
    assert {"F605", "F606", "F607", "F608", "F609", "F603"} <= set(state.scrapped)
    assert {"F610", "F611", "F612", "F613", "F614"} <= set(state.court_deck)
    assert "F603" not in state.play_area[0] and state.players[0].outrage == []
    assert state.players[0].agents == agents + 2  # the two Outrage agents went home
    sound(state)
def test_F603_a_former_partisan_scraps_it_and_clears_all_outrage():
    """F603 held by a seat whose Fate is no longer the Partisan (picked another at
    Intermission F): the card is scrapped and all that seat's Outrage cleared."""
    from tests.blighted_reach.campaign_tables import ADMIRAL, STEWARD, act_one, end_act, sound

    state = end_act(act_one([PARTISAN, STEWARD, ADMIRAL], 3))
    state.objective_markers = [0, 0, 0]
    state.players[0].outrage = ["weapon"]
    state.players[0].agents -= 1
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import BOX, ctx

    cbox = default_box()
    im.resolve_fates(ctx(state), cbox)
    im.clear_court(cbox, state)
    im.clear_pieces(BOX, cbox, state)
    for seat in im.repair_and_destroy(BOX, cbox, state):
        im.place_after_elimination(BOX, cbox, state, seat, "1G")
    im.shift_initiative_and_power(cbox, state)
    im.offer_fates(cbox, state)
    other = next(f for f in state.fate_offers[0] if f != PARTISAN)
    for seat in range(3):
        im.pick_fate(state, seat, other if seat == 0 else state.fates[seat])
    assert "F603" in state.play_area[0]
    im.reveal_fates(cbox, state)
    assert state.fates[0] == other
    assert "F603" in state.scrapped and all("F603" not in area for area in state.play_area)
    assert state.players[0].outrage == []
    sound(state)


# -- Act II (F615-F617, F613) -------------------------------------------------------------------
def act_two_table(players: int = 3, seed: int = 1, seat: int = 0):
    """An Act I table dressed as Act II: the act turned and the Partisan's Act II Setup side
    (F615) run through the Fate machinery, as the later act's setup step F runs it."""
    from core.flow import Ctx
    from plugins.blighted_reach.content import default_box
    from plugins.blighted_reach.fate_steps import run_side

    t = partisan_table(players, seed, seat)
    t.state.act = 2
    run_side(Ctx(t.state, t.rules), default_box(), seat, PARTISAN, "F615", "setup")
    return t


def test_F615_act_two_setup_seizing_law_in_the_booklet_reminder_tucked_peoples_hero_gained():
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table()
    s = t.state
    assert ["F616"] in s.booklet and "F603" in s.reminders and "F603" not in s.play_area[0]
    assert "F617" in s.players[0].lore
    sound(s)


def test_F616_in_act_two_every_player_seizes_by_provoking_outrage():
    """The law binds everyone: a Rival following is offered the Outrage seize, not a card."""
    t = act_two_table(seat=0)
    restart_round(t, [["ADM3", "CON2"], ["ADM5", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM5", "kind": "surpass"}))
    p = next(p for p in t.state.prompts if p.seat == 1)
    assert p.kind == "seize" and all("outrage" in o.params for o in p.options[1:])
    t.act(1, Action("seize", {"outrage": "weapon"}))
    s = t.state
    assert s.initiative == 1 and s.players[1].outrage == ["weapon"]


def test_F615_show_your_leadership_advances_for_each_card_played_holding_the_initiative():
    t = act_two_table(seat=0)
    t.state.objective_markers = [10, 10, 10]
    restart_round(t, [["ADM3", "CON2"], ["ADM2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    assert t.state.objective_markers == [9, 10, 10]
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM2", "kind": "copy"}))
    assert t.state.objective_markers == [9, 10, 10]  # a Rival's play counts nothing


def test_F617_peoples_hero_clears_an_outrage_whose_suit_the_holder_leads_and_F615_burnishes():
    """Declaring, the holder may clear one Outrage in a type whose Guild cards it holds more of
    than each Rival (none for a tie); the agent goes home; the Act II objective
    advances one per Guild card held."""
    from plugins.arcs.content import box_for

    t = act_two_table(seat=0)
    s = t.state
    box = box_for(s)
    weapon = next(c for c in s.court_deck if box.court[c].kind == "guild" and box.court[c].suit == "weapon")
    s.court_deck.remove(weapon)
    s.players[0].guild.append(weapon)  # taken since its Weapon Outrage; no Rival holds a Weapon card
    assert not any(box.court[c].suit == "weapon" for p in s.players[1:] for c in p.guild)
    s.players[0].outrage = ["weapon", "fuel"]
    s.players[0].agents -= 2
    s.objective_markers = [10, 10, 10]
    guilds = len(s.players[0].guild)
    agents = s.players[0].agents
    restart_round(t, [["ADM4", "CON2"], ["ADM2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM4"}))
    markers = list(t.state.objective_markers)
    t.act(0, Action("declare", {"ambition": "warlord"}))
    hero = [a for a in options(t, 0) if a.type == "use_ability" and a.params["card"] == "F617"]
    assert [a.params["params"] for a in hero] == [{"resource": "weapon"}]
    refused(t, 0, Action("use_ability", {"card": "F617", "index": 0, "params": {"resource": "fuel"}}), IllegalAction)
    refused(t, 0, Action("use_ability", {"card": "F617", "index": 0, "params": {"resource": "relic"}}), BadParameter)
    t.act(0, hero[0])
    s = t.state
    assert s.players[0].outrage == ["fuel"] and s.players[0].agents == agents + 1
    assert s.objective_markers[0] == markers[0] - guilds


def run_steps(t, *steps):
    from core.flow import Ctx, run

    ctx = Ctx(t.state, t.rules)
    ctx.push_all(list(steps))
    run(ctx)
    return ctx.events


def into_court(t, card: str) -> None:
    """Put a card into the Court row in place of Diplomatic Fiasco if it is there, else of the
    last card (that one to the deck)."""
    s = t.state
    if card in s.court_deck:
        s.court_deck.remove(card)
    at = len(s.court_row) - 1 if "CC13" not in s.court_row or card == "CC13" else s.court_row.index("CC13")
    old = s.court_row[at]
    s.court_deck.append(old)
    s.court_row[at] = card
    s.court_agents[card] = s.court_agents.pop(old, [0] * len(s.players))


def test_F613_outrage_spreads_crisis_every_player_provokes_the_rolled_planet_type():
    """Its Crisis: each player Provokes Outrage of the rolled planet's type (the rolled
    cluster's planet of the rolled symbol, BR-225), then the card is discarded."""
    from plugins.arcs.content import box_for
    from plugins.blighted_reach import crises, event_flow
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table()
    into_court(t, "F613")
    box = box_for(t.state)
    planet = crises.rolled_planet(box, crises.Dice(number=2, symbol="arrow"))
    kind = box.systems[planet].type
    t.state.prompts = []
    run_steps(t, (event_flow.court_crisis, {"card": "F613", "number": 2, "symbol": "arrow", "answers": {}}),
              (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    s = t.state
    assert all(kind in p.outrage for p in s.players)
    assert "F613" in s.court_discard and "F613" not in s.court_row


def act_two_state(fates, seed=3):
    """A real Act I, its Intermission (every objective completed, every Fate kept), the log
    sheet, and Act II set up from it with every Setup side run (pure campaign functions)."""
    from core.rng import Rng
    from plugins.blighted_reach import campaign
    from plugins.blighted_reach import later_acts as la
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import BOX, act_one, ctx, end_act, intermission, new_table

    cbox = default_box()
    state = end_act(act_one(list(fates), seed))
    state.objective_markers = [0] * len(fates)
    intermission(state, picks=dict(enumerate(fates)))
    log = campaign.pack_up(BOX, cbox, state)
    state = new_table(len(fates))
    la.set_up_later_act(BOX, cbox, state, log, Rng(state), lambda die, faces: "arrow" if die == "event" else 3)
    la.check_setup_sides(cbox, state)
    for seat in la.setup_order(state):
        la.apply_setup_side(ctx(state), cbox, seat)
    la.start_objectives(cbox, state, {s: 10 for s in range(len(fates))})
    la.start_first_chapter(cbox, state, Rng(state))
    return state


def test_F615_act_two_setup_from_the_log_sheet():
    from tests.blighted_reach.campaign_tables import ADMIRAL, STEWARD, sound

    state = act_two_state([PARTISAN, STEWARD, ADMIRAL])
    assert ["F616"] in state.booklet and "F603" in state.reminders and "F617" in state.players[0].lore
    sound(state)


def act_two_resolved(markers):
    from plugins.blighted_reach import intermission as im
    from plugins.blighted_reach.content import default_box
    from tests.blighted_reach.campaign_tables import ADMIRAL, STEWARD, ctx, end_act

    state = end_act(act_two_state([PARTISAN, STEWARD, ADMIRAL]))
    state.objective_markers = list(markers)
    im.resolve_fates(ctx(state), default_box())
    return state


def test_F618_completed_decry_terror_edict_terror_strikes_to_the_deck_unions_scrapped_BR_328():
    """BR-328: the Partisan's Act II Resolution, completed side."""
    from tests.blighted_reach.campaign_tables import sound

    state = act_two_resolved([0, 0, 0])
    assert ["F619"] in state.booklet
    assert {"F620", "F621"} <= set(state.court_deck) and {"F622", "F623"} <= set(state.scrapped)
    sound(state)


def test_F618_failed_edict_and_strikes_scrapped_unions_to_the_deck_BR_328():
    """BR-328: the Partisan's Act II Resolution, failed side."""
    from tests.blighted_reach.campaign_tables import sound

    state = act_two_resolved([3, 0, 0])
    assert {"F619", "F620", "F621"} <= set(state.scrapped) and ["F619"] not in state.booklet
    assert {"F622", "F623"} <= set(state.court_deck)
    sound(state)


# -- Act III (F619, F620, F624, F625) -----------------------------------------------------------
def test_F619_guilds_decry_terror_attaches_fiasco_to_the_council_in_session():
    from plugins.blighted_reach import event_flow
    from plugins.blighted_reach.council import DECIDED, IN_SESSION
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table()
    s = t.state
    s.act = 3
    if "CC13" in s.court_row:  # Diplomatic Fiasco out of the Court, into the deck
        into_court(t, next(c for c in s.court_deck if c != "CC13"))
    if "CC13" not in s.court_deck:
        s.court_discard.remove("CC13")
        s.court_deck.append("CC13")
    s.court_row[0], s.council = DECIDED, DECIDED
    s.court_agents[DECIDED] = s.court_agents.pop(IN_SESSION)
    s.prompts = []
    run_steps(t, (event_flow.edict, {"card": "F619", "do": "handler", "handler": "fiasco_onto_council"}),
              (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    s = t.state
    assert s.council == IN_SESSION and s.court_row[0] == IN_SESSION and s.attached == {IN_SESSION: "CC13"}
    assert "CC13" not in s.court_deck
    sound(s)
    run_steps(t, (event_flow.edict, {"card": "F619", "do": "handler", "handler": "fiasco_onto_council"}),
              (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    assert t.state.attached == {IN_SESSION: "CC13"}  # in the Court already: nothing


def damaged_on_outraged_planet(t, seat_outraged: int = 1):
    """A planet of a type seat 1 is Outraged in, holding damaged ships of seats 0 and 2, a
    damaged Imperial ship and a damaged Free city."""
    from plugins.arcs.content import box_for
    from plugins.arcs.state import Building
    from plugins.blighted_reach.state import FREE, Pieces

    s = t.state
    box = box_for(s)
    planet = next(p for p in sorted(s.systems) if box.systems[p] is not None and not s.systems[p].buildings
                  and p not in s.imperial)
    kind = box.systems[planet].type
    s.players[seat_outraged].outrage = [kind]
    s.players[seat_outraged].agents -= 1
    for seat in (0, 2):
        s.systems[planet].ships[seat].damaged += 1
        s.systems[planet].ships[seat].fresh += 1
        s.players[seat].ships -= 2
    s.imperial[planet] = Pieces(fresh=0, damaged=1)
    s.imperial_supply -= 1
    s.systems[planet].buildings.append(Building(kind="city", owner=FREE, damaged=True))
    s.free_city_supply -= 1
    return planet


def test_F620_terror_strike_crisis_destroys_damaged_pieces_at_outraged_planets():
    """Its Crisis: every damaged ship and building (anyone's, Imperial and Free too) at planets
    of a type anyone is Outraged in is destroyed, going home (no Trophies); then the card is
    shuffled into the Court deck."""
    from plugins.blighted_reach import event_flow
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table()
    t.state.act = 3
    planet = damaged_on_outraged_planet(t)
    into_court(t, "F620")
    free = t.state.free_city_supply
    t.state.prompts = []
    run_steps(t, (event_flow.court_crisis, {"card": "F620", "number": 1, "symbol": "arrow", "answers": {}}),
              (event_flow.summit_offer, {"seat": 0, "via": "event"}))
    s = t.state
    here = s.systems[planet]
    assert [(x.fresh, x.damaged) for x in here.ships][0::2] == [(1, 0), (1, 0)]
    assert planet not in s.imperial and here.buildings == [] and s.free_city_supply == free + 1
    assert "F620" in s.court_deck and not any(p.trophies for p in s.players)
    sound(s)


def test_F620_terror_strike_when_secured_spares_the_securers_pieces():
    from tests.blighted_reach.campaign_tables import sound

    t = act_two_table()
    t.state.act = 3
    planet = damaged_on_outraged_planet(t)
    into_court(t, "F620")
    s = t.state
    s.court_agents["F620"] = [2, 0, 0]
    s.players[0].agents -= 2
    restart_round(t, [["AGG4", "CON2"], ["ADM2", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "AGG4"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "secure", "card": "F620"}))
    s = t.state
    here = s.systems[planet]
    assert (here.ships[0].fresh, here.ships[0].damaged) == (1, 1)  # the securer's own: spared
    assert (here.ships[2].fresh, here.ships[2].damaged) == (1, 0) and planet not in s.imperial
    assert "F620" in s.court_discard
    sound(s)


def test_F624_dominant_power_bloc_goals_most_guild_cards_and_the_initiative():
    """Act III grand ambitions: more Guild cards than each Rival; holding the initiative."""
    from plugins.arcs.content import box_for
    from plugins.blighted_reach import objectives as ob
    from plugins.blighted_reach.content import default_box

    t = act_two_table()
    s = t.state
    s.act = 3
    s.initiative = 0
    box, cbox = box_for(s), default_box()
    most = max(len(p.guild) for p in s.players[1:])
    while len(s.players[0].guild) <= most:
        card = next(c for c in s.court_deck if box.court[c].kind == "guild")
        s.court_deck.remove(card)
        s.players[0].guild.append(card)
    assert ob.goals_fulfilled(box, cbox, s, 0) == 2
    s.initiative = 1
    assert ob.goals_fulfilled(box, cbox, s, 0) == 1


def sower_table():
    """Act III: the Partisan (seat 0) holds Sower of Division."""
    t = act_two_table()
    s = t.state
    s.act = 3
    s.players[0].lore.remove("F617")
    s.scrapped.append("F617")
    s.players[0].lore.append("F625")
    return t


def test_F625_sower_of_division_after_taking_the_initiative_by_surpassing():
    """At the round's end, having taken the initiative by Surpassing, the holder may cover a
    Rival's empty Outrage slot with its agent: that Rival is Outraged, nothing discarded."""
    from tests.blighted_reach.campaign_tables import sound

    t = sower_table()
    s = t.state
    slot = s.players[2].resources.index(None)
    s.players[2].resources[slot] = "fuel"
    s.supply["fuel"] -= 1
    agents = s.players[0].agents
    restart_round(t, [["ADM3", "CON2"], ["ADM2", "MOB2"], ["ADM5", "AGG3"]], initiative=1)
    t.act(1, Action("lead", {"card": "ADM2"}))
    t.act(1, Action("declare", {"ambition": ""}))
    t.act(1, Action("act", {"act": "done"}))
    t.act(2, Action("play", {"card": "ADM5", "kind": "surpass"}))
    t.act(2, Action("seize", {"card": ""}))
    t.act(2, Action("act", {"act": "done"}))
    t.act(0, Action("play", {"card": "ADM3", "kind": "surpass"}))
    t.act(0, Action("seize", {"card": ""}))
    t.act(0, Action("act", {"act": "done"}))
    # seat 2 Surpassed highest: it takes the initiative, not the Sower
    assert t.state.initiative == 2 and not any(p.kind == "sow_division" for p in t.state.prompts)
    restart_round(t, [["ADM6", "CON2"], ["ADM2", "MOB2"], ["ADM5", "AGG3"]], initiative=1)
    t.act(1, Action("lead", {"card": "ADM2"}))
    t.act(1, Action("declare", {"ambition": ""}))
    t.act(1, Action("act", {"act": "done"}))
    t.act(2, Action("play", {"card": "ADM5", "kind": "surpass"}))
    t.act(2, Action("seize", {"card": ""}))
    t.act(2, Action("act", {"act": "done"}))
    t.act(0, Action("play", {"card": "ADM6", "kind": "surpass"}))
    t.act(0, Action("seize", {"card": ""}))
    t.act(0, Action("act", {"act": "done"}))
    p = next(p for p in t.state.prompts if p.seat == 0)
    assert p.kind == "sow_division" and {"rival": 2, "resource": "fuel"} in [o.params for o in p.options]
    refused(t, 0, Action("sow", {"rival": 0, "resource": "fuel"}))
    t.act(0, Action("sow", {"rival": 2, "resource": "fuel"}))
    s = t.state
    assert s.players[2].outrage == ["fuel"] and s.players[2].resources[slot] == "fuel"  # nothing discarded
    assert s.players[0].agents == agents - 1 and s.sown == [[0, 2, "fuel"]]
    sound(s)


def test_F625_a_sown_agent_goes_home_when_the_rival_outrage_is_cleared():
    from plugins.arcs.outrage import clear_outrage
    from plugins.blighted_reach.fate_partisan import settle_sown
    from tests.blighted_reach.campaign_tables import sound

    t = sower_table()
    s = t.state
    s.players[0].agents -= 1
    s.players[2].outrage, s.players[2].outrage_placeholders = ["relic"], ["relic"]
    s.sown = [[0, 2, "relic"]]
    sound(s)
    agents = (s.players[0].agents, s.players[2].agents)
    clear_outrage(s, 2, "relic")
    assert settle_sown(s) == [[0, 2, "relic"]]
    assert (s.players[0].agents, s.players[2].agents) == (agents[0] + 1, agents[1]) and s.sown == []
    sound(s)


# -- bot games ----------------------------------------------------------------------------------
def bot_table(players: int, seed: int, fate: str):
    from tests.blighted_reach.flow_helpers import table_holding

    return table_holding(players, seed, fate)


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 7), (3, 2), (3, 11), (4, 3), (4, 9)])
def test_bot_games_with_the_partisan_finish_act_one_and_its_intermission(players, seed):
    """Random bots play Act I and its Intermission, the invariants checked after every action."""
    from tests.blighted_reach.flow_helpers import play_out

    t = bot_table(players, seed, PARTISAN)
    play_out(t, seed)
    s = t.state
    assert s.finished and s.act == 1 and s.intermission_done[-1] == "choose_fate"
