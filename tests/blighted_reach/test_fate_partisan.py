"""The Partisan (FATE06) through the engine: each test names the card it plays (F6nn) and the
checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as a table has them)
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
    assert sorted(o.params["outrage"] for o in p.options) == ["", "fuel", "psionic", "relic", "weapon"]
    refused(t, 1, Action("seize", {"card": "MOB2"}))
    refused(t, 1, Action("seize", {"outrage": "material"}))
    agents = t.state.players[1].agents
    t.act(1, Action("seize", {"outrage": "fuel"}))
    s = t.state
    assert s.initiative == 1 and s.seized
    assert s.players[1].resources[:2] == [None, "relic"] and "F602" in s.players[1].guild  # F602 is Psionic
    assert s.players[1].outrage == ["material", "fuel"] and s.players[1].agents == agents - 1
    assert s.hands[1] == ["MOB2"]  # no card went face down


def test_F603_fuel_outrage_discards_a_fuel_guild_card_and_declining_seizes_nothing():
    t = partisan_table(seat=1)
    restart_round(t, [["ADM3", "CON2"], ["ADM5", "MOB2"], ["CON3", "AGG3"]], initiative=0)
    t.act(0, Action("lead", {"card": "ADM3"}))
    t.act(0, Action("declare", {"ambition": ""}))
    t.act(0, Action("act", {"act": "done"}))
    t.act(1, Action("play", {"card": "ADM5", "kind": "surpass"}))
    t.act(1, Action("seize", {"outrage": ""}))
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
    t.act(1, Action("seize", {"outrage": ""}))
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
    t.act(1, Action("seize", {"outrage": ""}))
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
    from tests.blighted_reach.campaign_tables import sound

    state, agents = resolved([0, 0, 0])
    assert {"F605", "F606", "F607", "F608", "F609"} <= set(state.court_deck)
    assert "F610" in state.players[0].guild
    assert {"F611", "F612", "F613", "F614"} <= set(state.scrapped)
    assert "F603" in state.play_area[0] and state.players[0].outrage == ["fuel", "relic"]
    sound(state)


def test_F604_failed_the_rest_to_the_court_deck_seizing_scrapped_and_outrage_cleared_BR_328():
    from tests.blighted_reach.campaign_tables import sound

    state, agents = resolved([5, 0, 0])
    assert {"F605", "F606", "F607", "F608", "F609", "F603"} <= set(state.scrapped)
    assert {"F610", "F611", "F612", "F613", "F614"} <= set(state.court_deck)
    assert "F603" not in state.play_area[0] and state.players[0].outrage == []
    assert state.players[0].agents == agents + 2  # the two Outrage agents went home
    sound(state)
# -- bot games ----------------------------------------------------------------------------------
# Fates whose Act I rules are all written (the others' seats take one of these).
READY_FATES = ("FATE01", "FATE02", "FATE04", "FATE06")


def bot_table(players: int, seed: int, fate: str):
    """A table at Act I's first round where seat 0 holds `fate` and every other seat a
    Fate of READY_FATES."""
    from tests.blighted_reach.flow_helpers import choose_fates, place_all, table

    while True:
        t = table(players, seed)
        offers = t.state.fate_offers
        if fate in offers[0] and all(any(f in READY_FATES for f in o) for o in offers[1:]):
            break
        seed += 1
    choose_fates(t, {0: fate, **{s: next(f for f in offers[s] if f in READY_FATES) for s in range(1, players)}})
    place_all(t)
    if players == 2:
        t.act(1 - t.state.initiative, Action("mulligan", {"redraw": False}))
    return t


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 7), (3, 2), (3, 11), (4, 3), (4, 9)])
def test_bot_games_with_the_partisan_finish_act_one(players, seed):
    from tests.blighted_reach.flow_helpers import play_out

    t = bot_table(players, seed, PARTISAN)
    play_out(t, seed)
    assert t.state.finished and t.state.act == 1


def test_F603_a_former_partisan_scraps_it_and_clears_all_outrage_BR_351():
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
