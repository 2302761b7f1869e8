"""Act II and Act III setup from a campaign log sheet, after real Act I (and Act II)
Intermissions: each test names the BR checklist IDs it proves."""
from __future__ import annotations

from collections import Counter

import pytest

from core.errors import BadParameter
from core.rng import Rng
from plugins.arcs.setup import open_slots
from plugins.blighted_reach import campaign, fate_steps
from plugins.blighted_reach import later_acts as la
from plugins.blighted_reach import objectives as ob
from plugins.blighted_reach.fate_steps import RuleMissing
from plugins.blighted_reach.setup import action_deck
from plugins.blighted_reach.state import Pieces
from tests.blighted_reach.campaign_tables import (
    ADMIRAL, ADVOCATE, BOX, CBOX, STEWARD, act_one, ctx, end_act, intermission, new_table, snapshot, sound,
)

FATES = [STEWARD, ADMIRAL, ADVOCATE]


def fixed(symbol="arrow", numbers=(3, 5)):
    rolls = iter(numbers)
    return lambda die, faces: symbol if die == "event" else next(rolls)


def after_act_one(fates=FATES, seed=3, arrange=None):
    """Act I played (every objective completed, Fates kept), the Intermission done, the
    sheet packed; `arrange(state)` changes the map before packing."""
    state = end_act(act_one(fates, seed))
    state.objective_markers = [0] * len(fates)
    intermission(state, picks={s: f for s, f in enumerate(fates)})
    if arrange:
        arrange(state)
    return state, campaign.pack_up(BOX, CBOX, state)


def act_two(fates=FATES, roll=None, arrange=None, seed=3):
    before, log = after_act_one(fates, seed, arrange)
    state = new_table(len(fates))
    la.set_up_later_act(BOX, CBOX, state, log, Rng(state), roll or fixed())
    return before, log, state


def test_BR_066_act_two_continues_from_the_sheet():
    """BR-066: Power, play areas, the map and supplies are as the previous act left them
    (the setup's own changes aside: new Blight only)."""
    before, log, state = act_two()
    assert state.act == 2 and state.chapter == 1
    assert state.players == before.players and [p.power for p in state.players] == [p.power for p in before.players]
    assert {s: (x.ships, x.buildings) for s, x in state.systems.items()} == \
        {s: (x.ships, x.buildings) for s, x in before.systems.items()}
    assert state.imperial == before.imperial and state.supply == before.supply
    assert state.booklet == before.booklet and state.fates == FATES
    sound(state)


def test_BR_067_act_two_flips_the_lowest_marker():
    """BR-067: in Act II only the lowest-Power marker starts on its higher side."""
    _, _, state = act_two()
    flipped = [m.id for m in state.markers_available if m.flipped]
    lowest = min(BOX.board.ambition_markers, key=lambda m: m.first).id
    assert flipped == [lowest] and len(state.markers_available) == 3
    assert all(m == [] for m in state.ambition_boxes.values())


def test_BR_069_court_dealt_after_an_in_session_council():
    """BR-069: the shuffled Court deck deals 4 cards with 3 players (3 with 2), after the
    Imperial Council on its In Session side (even if it ended the act Decided)."""
    def decided(state):
        state.court_row, state.council = ["AID01B"], "AID01B"
    _, log, state = act_two(arrange=decided)
    assert state.court_row[0] == "AID01A" and state.council == "AID01A" and len(state.court_row) == 5
    assert sorted(state.court_row[1:] + state.court_deck) == sorted(log.court_deck)
    assert state.court_agents == {c: [0, 0, 0] for c in state.court_row}
    _, _, two = act_two([STEWARD, ADMIRAL])
    assert len(two.court_row) == 4


def test_BR_070_empty_gates_get_a_damaged_blight():
    """BR-070: a gate with no Blight and no ship (Loyal or Imperial) gets 1 damaged Blight."""
    def arrange(state):
        for gate in ("1G", "2G", "3G", "4G"):
            if gate in state.blight:
                state.blight_supply += state.blight.pop(gate).total
            for seat, ships in enumerate(state.systems[gate].ships):
                state.players[seat].ships += ships.total
                ships.fresh = ships.damaged = 0
            if gate in state.imperial:
                state.imperial_supply += state.imperial.pop(gate).total
        state.blight["2G"] = Pieces(fresh=2)
        state.blight_supply -= 2
        state.systems["3G"].ships[1].fresh, state.players[1].ships = 1, state.players[1].ships - 1
        state.imperial["4G"] = Pieces(fresh=1)
        state.imperial_supply -= 1
    _, _, state = act_two(arrange=arrange)
    assert state.blight["1G"] == Pieces(damaged=1)
    assert state.blight["2G"] == Pieces(fresh=2)
    assert "3G" not in state.blight and "4G" not in state.blight
    sound(state)


def test_BR_071_BR_072_blight_at_the_rolled_symbol_or_across_its_cluster():
    """BR-071: the rolled symbol's planet with no Blight gets 1 damaged Blight; BR-072: if it
    has Blight, every planet of its cluster without Blight gets 1 instead."""
    def arrange(state):
        for planet in ("1.1", "1.2", "1.3", "2.2", "2.3"):
            if planet in state.blight:
                state.blight_supply += state.blight.pop(planet).total
        state.blight["2.1"] = Pieces(fresh=1)
        state.blight_supply -= 1
    before, _, state = act_two(roll=fixed("arrow"), arrange=arrange)
    assert state.blight["1.1"] == Pieces(damaged=1) and "1.2" not in state.blight and "1.3" not in state.blight
    assert state.blight["2.1"] == Pieces(fresh=1)
    assert state.blight["2.2"] == Pieces(damaged=1) and state.blight["2.3"] == Pieces(damaged=1)
    assert state.rolls["event"] == "arrow"
    sound(state)


def test_BR_073_two_players_place_two_rolled_clusters_tokens():
    """BR-073: 2 players: both rolls' cluster planet resources onto the ambition boxes by the
    Act I mapping; a short supply places what it has. (Cluster 5 rolled twice places its
    tokens twice, the reading taken.)"""
    def short(state):
        """The players gained Relics until 1 is left in the supply."""
        for seat, p in enumerate(state.players):
            for i in open_slots(BOX, p):
                if p.resources[i] is None and state.supply["relic"] > 1:
                    p.resources[i] = "relic"
                    state.supply["relic"] -= 1
        assert state.supply["relic"] == 1
    _, _, state = act_two([STEWARD, ADMIRAL], roll=fixed("moon", (3, 5)), arrange=short)
    placed = Counter(r for tokens in state.ambition_tokens.values() for r in tokens)
    planets = Counter(p.type for c in BOX.map.clusters if c.id in (3, 5) for p in c.planets)
    assert placed == planets and state.rolls["number"] == "3,5"
    _, _, state = act_two([STEWARD, ADMIRAL], roll=fixed("moon", (5, 5)), arrange=short)
    placed = Counter(r for tokens in state.ambition_tokens.values() for r in tokens)
    planets = Counter(p.type for c in BOX.map.clusters if c.id == 5 for p in c.planets)
    assert planets["relic"] == 1 and placed == planets + planets - Counter(relic=1)
    mapping = CBOX.campaign.later_acts.two_player_ambition_tokens
    assert all(mapping[r] == a for a, tokens in state.ambition_tokens.items() for r in tokens)
    assert state.supply["relic"] == 0
    sound(state)


def test_BR_074_setup_sides_in_turn_order_and_resources_rearranged():
    """BR-074: each Setup side in turn order (Steward: Imperial Quorum to the booklet;
    Admiral: Command Chaos into the Court deck; Advocate: Advocate's Demand and Guild
    Negotiations to the booklet); a player may rearrange their resources, refused
    rearrangements change nothing."""
    _, _, state = act_two()
    la.check_setup_sides(CBOX, state)
    order = la.setup_order(state)
    for seat in order:
        la.apply_setup_side(ctx(state), CBOX, seat)
    added = [slot[0] for slot in state.booklet if slot[0] in ("F113", "F413", "F414")]
    by_seat = {0: ["F113"], 2: ["F413", "F414"]}
    assert added == [c for seat in order for c in by_seat.get(seat, [])]
    assert "F713" in state.court_deck
    sound(state)
    seat = next(s for s in range(3) if any(state.players[s].resources))
    tokens = [r for r in state.players[seat].resources if r]
    open_ = open_slots(BOX, state.players[seat])
    moved = [None] * 6
    for i, r in zip(reversed(open_), tokens):
        moved[i] = r
    la.rearrange_resources(BOX, state, seat, moved)
    assert state.players[seat].resources == moved
    before = snapshot(state)
    other = next(r for r in BOX.board.resources if r != tokens[0])
    swapped = [other if r == tokens[0] else r for r in moved]
    bad_rows = [moved[:5], swapped]
    covered = [i for i in range(6) if i not in open_]
    if covered:
        on_covered = [None] * 6
        on_covered[covered[0]] = tokens[0]
        for i, r in zip(open_, tokens[1:]):
            on_covered[i] = r
        bad_rows.append(on_covered)
    for bad in bad_rows:
        with pytest.raises(BadParameter):
            la.rearrange_resources(BOX, state, seat, bad)
    assert snapshot(state) == before


def test_BR_075_act_two_markers_on_their_start_spaces():
    """BR-075: every marker on its objective's start space (given by the table where
    fates.json records none; refused otherwise, changing nothing)."""
    _, _, state = act_two()
    assert state.objective_markers == [-1, -1, -1]
    before = snapshot(state)
    with pytest.raises(RuleMissing):
        la.start_objectives(CBOX, state)
    assert snapshot(state) == before
    la.start_objectives(CBOX, state, {0: 12, 1: 14, 2: 11})
    assert state.objective_markers == [12, 14, 11]


def test_BR_076_first_chapter_hands_and_the_two_player_mulligan():
    """BR-076: chapter 1, 6 cards each from every action card of the campaign, the rest
    discarded (3-4 players) or held for the 2-player mulligan of the seat without initiative."""
    _, log, state = act_two()
    la.start_first_chapter(CBOX, state)
    assert state.chapter == 1 and [len(h) for h in state.hands] == [6, 6, 6]
    assert sorted(state.action_deck + state.action_discard + [c for h in state.hands for c in h]) == \
        sorted(action_deck(BOX, CBOX, 3))
    assert state.action_deck == [] and state.mulligan_open == -1
    _, _, two = act_two([STEWARD, ADMIRAL])
    la.start_first_chapter(CBOX, two)
    assert two.mulligan_open == 1 - two.initiative and len(two.action_deck) == 22 - 12


def test_BR_068_BR_075_act_three_flips_two_markers_and_only_c_fates_take_the_track():
    """BR-068: in Act III the two lowest markers start flipped; BR-075: A and B Fates place no
    objective marker. The A Fates' Act III Setup sides name handlers not written yet: they
    are refused before any runs."""
    _, _, state = act_two()
    for seat in la.setup_order(state):
        la.apply_setup_side(ctx(state), CBOX, seat)
    la.start_objectives(CBOX, state, {0: 12, 1: 14, 2: 11})
    la.start_first_chapter(CBOX, state)
    end_act(state)
    state.objective_markers = [0, 0, 0]
    intermission(state, picks={s: f for s, f in enumerate(FATES)})
    log = campaign.pack_up(BOX, CBOX, state)
    three = new_table(3)
    la.set_up_later_act(BOX, CBOX, three, log, Rng(three), fixed("hex"))
    assert three.act == 3
    flipped = sorted((m for m in three.markers_available if m.flipped), key=lambda m: m.id)
    lowest_two = sorted(BOX.board.ambition_markers, key=lambda m: m.first)[:2]
    assert [m.id for m in flipped] == sorted(m.id for m in lowest_two)
    import plugins.blighted_reach.plugin  # noqa: F401 (registers every Fate's rules, whatever ran before)

    before = snapshot(three)
    la.check_setup_sides(CBOX, three)  # the three A Fates' Act III Setup sides all have their rules
    assert snapshot(three) == before
    la.start_objectives(CBOX, three)
    assert three.objective_markers == [ob.OFF_TRACK] * 3
    assert [len(p.acts) for p in log.players] == [2, 2, 2]
    sound(three)


def test_cards_are_lifted_from_wherever_they_are():
    """What a Resolution's card moves rely on: a card leaves a play area, the Court row (its
    agents home, the place refilled) or an attachment; a scrapped card never moves; a Fate
    Set card in no place is in its Set."""
    _, _, state = act_two()
    assert fate_steps.place_of(state, "F103") == "guild:0" and fate_steps.lift(state, "F103")
    assert "F103" not in state.players[0].guild and fate_steps.place_of(state, "F103") == ""
    card, deck_top = state.court_row[1], state.court_deck[0]
    state.court_agents[card][2] += 1
    state.players[2].agents -= 1
    agents = state.players[2].agents
    assert fate_steps.lift(state, card)
    assert state.court_row[1] == deck_top and card not in state.court_agents and state.players[2].agents == agents + 1
    state.attached[state.court_row[2]] = state.court_deck.pop(0)
    attached = state.attached[state.court_row[2]]
    assert fate_steps.place_of(state, attached) == "attached" and fate_steps.lift(state, attached)
    assert state.attached == {}
    scrapped = state.scrapped[0]
    assert not fate_steps.lift(state, scrapped) and scrapped in state.scrapped
    assert fate_steps.lift(state, "F2401") and fate_steps.place_of(state, "F2401") == ""


def test_a_fates_action_card_stays_in_the_action_cards_between_acts():
    """An action card a Fate shuffled into the action deck is dealt again next act."""
    before, log = after_act_one()
    before.action_discard.append("F515")  # as the Caretaker's Act II setup would (its handler aside)
    log = campaign.pack_up(BOX, CBOX, before)
    assert "F515" in log.action_cards
    state = new_table(3)
    la.set_up_later_act(BOX, CBOX, state, log, Rng(state), fixed())
    assert sorted(state.action_deck) == sorted(action_deck(BOX, CBOX, 3) + ["F515"])
