"""Act I setup of the campaign on real set-up states (2, 3 and 4 players, several seeds):
each test names the BR checklist IDs it proves. Refused choices raise a typed error and
leave the state byte-identical."""
from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from core.errors import ActionRejected, BadParameter, IllegalAction, NotYourTurn
from core.rng import Rng, seed_state
from core.state import Seat
from plugins.arcs.content import default_box as arcs_box
from plugins.blighted_reach import setup as br
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import FREE, BlightedReachState, Pieces

BOX, CBOX = arcs_box(), campaign_box()
RULES = rules_box()  # the box the campaign's tables play the rules with
COUNTS = [2, 3, 4]
SEEDS = [1, 7, 42, 2026]
CASES = [(n, s) for n in COUNTS for s in SEEDS]
SYMBOL = {"arrow": "arrow", "hex": "hexagon", "moon": "crescent"}


def table(n: int, seed: int, roll=None) -> BlightedReachState:
    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i) for i in range(n)], rng=seed_state(seed))
    br.set_up_act_one(BOX, CBOX, state, Rng(state), roll)
    assert problems(RULES, CBOX, state) == []
    return state


def fixed(number: int, symbol: str):
    return lambda die, faces: number if die == "number" else symbol


def legal_spot(state: BlightedReachState, seat: int) -> tuple[str, str]:
    """The first planet a placement may use, and a building the seat still has."""
    for system in sorted(state.imperial):
        planet = BOX.systems[system]
        if planet is not None and len(state.systems[system].buildings) < planet.slots:
            building = "city" if state.placements_done % 2 == 0 else "starport"
            return system, building
    raise AssertionError("no legal placement left")


def place_all(state: BlightedReachState) -> list[tuple[int, str]]:
    done = []
    while state.placement_order:
        seat = state.placement_order[0]
        system, building = legal_spot(state, seat)
        br.place_start(BOX, CBOX, state, seat, system, building)
        assert problems(RULES, CBOX, state) == []
        done.append((seat, system))
    return done


def snapshot(state) -> bytes:
    return msgspec.msgpack.encode(state)


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_032_035_048_050_imperial_clusters_and_blight(n, seed):
    """BR-032: no setup card, all 24 systems in play; BR-035: the campaign supplies;
    BR-048: the rolled and next clockwise clusters get 1 Imperial ship per system (8);
    BR-050: 1 damaged Blight in each of the other 16 systems."""
    state = table(n, seed)
    assert state.setup_card == "" and state.out_of_play == [] and len(state.systems) == 24
    first, second = state.imperial_clusters
    assert first == int(state.rolls["number"]) and second == first % 6 + 1
    imperial = set(br.cluster_systems(BOX, first) + br.cluster_systems(BOX, second))
    assert {s: p.total for s, p in state.imperial.items()} == {s: 1 for s in imperial}
    assert state.imperial_supply == 15 - 8
    assert set(state.blight) == set(state.systems) - imperial
    assert all(p == Pieces(damaged=1) for p in state.blight.values()) and state.blight_supply == 24 - 16
    assert state.free_starport_supply == 14 and state.free_city_supply + 4 == 28
    assert sum(state.supply.values()) + sum(len(t) for t in state.ambition_tokens.values()) == 25


def test_BR_048_number_six_wraps_to_cluster_one():
    """BR-048: the cluster clockwise of 6 is 1."""
    state = table(3, 5, fixed(6, "arrow"))
    assert state.imperial_clusters == [6, 1]
    assert sorted(state.imperial) == sorted(br.cluster_systems(BOX, 6) + br.cluster_systems(BOX, 1))


@pytest.mark.parametrize("symbol", ["arrow", "hex", "moon"])
def test_BR_049_free_city_on_each_rolled_symbol_planet_outside_the_empire(symbol):
    """BR-049: one Free city per non-Imperial cluster, on its planet with the rolled symbol."""
    state = table(4, 9, fixed(3, symbol))
    free = {s for s, x in state.systems.items() for b in x.buildings if b.owner == FREE}
    expected = {p.id for c in BOX.map.clusters if c.id not in (3, 4) for p in c.planets if p.symbol == SYMBOL[symbol]}
    assert free == expected and len(free) == 4
    assert state.rolls == {"number": "3", "event": symbol}


def test_BR_036_initiative_goes_to_a_random_player():
    """BR-036: across seeds every seat of a 4-player table gets the initiative sometimes."""
    seen = Counter(table(4, seed).initiative for seed in range(40))
    assert set(seen) == {0, 1, 2, 3}


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_037_038_039_action_deck_by_player_count(n, seed):
    """BR-037: the 2-6 cards of each suit (20); BR-038: plus the 1s and 7s (8) only with
    4 players; BR-039: 2 Event cards with 2-3 players, 3 with 4."""
    state = table(n, seed)
    numbers = Counter(c[-1] for c in state.action_deck if c != br.EVENT)
    expected = {str(k): 4 for k in range(2, 7)} | ({"1": 4, "7": 4} if n == 4 else {})
    assert numbers == expected
    assert state.action_deck.count(br.EVENT) == (3 if n == 4 else 2)
    assert len(state.action_deck) == (31 if n == 4 else 22)


@pytest.mark.parametrize("n,seed", CASES[::3])
def test_BR_040_041_042_markers_chapter_and_zero_marker(n, seed):
    """BR-040: the 3 markers Available, blue side up; BR-041: Act I, chapter 1;
    BR-042: the zero marker is in its slot (no ambition declared)."""
    state = table(n, seed)
    assert [m.flipped for m in state.markers_available] == [False] * 3
    assert all(v == [] for v in state.ambition_boxes.values())
    assert (state.act, state.chapter) == (1, 1)
    assert state.declared is False and state.ambition_declared == ""


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_033_034_043_044_045_court_lore_and_council(n, seed):
    """BR-033: only CC cards in the Court; BR-043: 3 dealt with 2 players, 4 with 3-4;
    BR-034/BR-044: 1 random lore per player joins the deck after the deal, none in the
    row; BR-045: the Council, In Session, leftmost."""
    state = table(n, seed)
    row = state.court_row
    assert row[0] == br.COUNCIL == state.council
    assert len(row) - 1 == (3 if n == 2 else 4) and all(c.startswith("CC") for c in row[1:])
    lore = [c for c in state.court_deck if c.startswith("L")]
    assert len(lore) == n and len(state.lore_deck) == 14 - n
    assert sorted(lore + state.lore_deck) == sorted(BOX.lore)
    assert sorted(c for c in state.court_deck if c.startswith("CC")) == sorted(set(CBOX.court) - set(row))
    assert not any(c.startswith("BC") for c in [*row, *state.court_deck])
    assert set(state.court_agents) == set(row)


def test_BR_044_lore_is_random_and_shuffled_in():
    """BR-044: different seeds pick different lore and spread it through the deck."""
    picks = {tuple(sorted(c for c in table(3, s).court_deck if c.startswith("L"))) for s in range(12)}
    places = {tuple(i for i, c in enumerate(table(3, s).court_deck) if c.startswith("L")) for s in range(12)}
    assert len(picks) > 3 and len(places) > 3


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_046_047_edicts_in_the_booklet(n, seed):
    """BR-046: Guild Envoys Depart (edict 0) in the first slot only with 2 players;
    BR-047: the three Govern the Imperial Reach edicts (3) as one stack in the next slot."""
    state = table(n, seed)
    edicts = {c.id: c for c in CBOX.empire.cards}
    stacks = state.booklet
    if n == 2:
        assert stacks[0] == [br.ENVOYS] and edicts[br.ENVOYS].edict_number == 0
    govern = stacks[-1]
    assert len(stacks) == (2 if n == 2 else 1)
    assert sorted(govern) == ["AID03", "AID04", "AID05"] and {edicts[c].edict_number for c in govern} == {3}


def test_BR_047_the_starting_policy_is_random():
    """BR-047."""
    tops = Counter(table(3, s).booklet[-1][0] for s in range(30))
    assert set(tops) == {"AID03", "AID04", "AID05"}


@pytest.mark.parametrize("seed", SEEDS)
def test_BR_051_two_player_tokens_of_the_imperial_planets(seed):
    """BR-051: with 2 players the 6 Imperial planets' tokens leave the supply for their
    ambitions (Material, Fuel: Tycoon; Weapons: Warlord; Relics: Keeper; Psionics: Empath)."""
    state = table(2, seed)
    planets = [p for c in BOX.map.clusters if c.id in state.imperial_clusters for p in c.planets]
    feeds = {"material": "tycoon", "fuel": "tycoon", "weapon": "warlord", "relic": "keeper", "psionic": "empath"}
    expected = {a: sorted(p.type for p in planets if feeds[p.type] == a) for a in BOX.board.ambitions}
    assert {a: sorted(t) for a, t in state.ambition_tokens.items()} == expected
    taken = Counter(p.type for p in planets)
    assert all(state.supply[r] == 5 - taken[r] for r in BOX.board.resources)
    for n in (3, 4):
        other = table(n, seed)
        assert not any(other.ambition_tokens.values()) and all(v == 5 for v in other.supply.values())


@pytest.mark.parametrize("n,seed", CASES[::2])
def test_BR_052_056_057_players_start_full_regents_at_zero(n, seed):
    """BR-052: 15 ships, 5 starports, 10 agents, 5 cities on the board; BR-056: Power 0;
    BR-057: every title card Regent side up."""
    state = table(n, seed)
    for p in state.players:
        assert (p.ships, p.starports, p.agents, p.cities_on_board, p.power) == (15, 5, 10, [True] * 5, 0)
    assert state.titles == ["regent"] * n and state.first_regent == -1


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_053_two_a_fates_each_kept_secretly_revealed_together(n, seed):
    """BR-053: each player draws 2 different A Fates and keeps one; nothing shows until all
    chose; a Fate not drawn, or a second choice, is refused and changes nothing."""
    state = table(n, seed)
    offers = [list(o) for o in state.fate_offers]
    flat = [f for o in offers for f in o]
    assert all(len(o) == 2 for o in offers) and len(set(flat)) == 2 * n
    assert all(CBOX.fates[f].letter == "A" for f in flat)
    assert "fate_offers" not in state.visible and "fates" not in state.visible
    other = next(f for f in CBOX.fates if f not in offers[0])
    before = snapshot(state)
    with pytest.raises(BadParameter):
        br.choose_fate(state, 0, other)
    assert snapshot(state) == before
    for seat in range(n):
        assert br.fates_revealed(state) == [""] * n
        br.choose_fate(state, seat, offers[seat][1])
    assert br.fates_revealed(state) == [o[1] for o in offers]
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        br.choose_fate(state, 0, state.fates[0])
    assert snapshot(state) == before


def test_BR_058_first_regent_to_the_initiative_unless_a_fate_gave_it():
    """BR-058: nobody holding the tile, the initiative holder takes it; else it stays."""
    state = table(4, 3)
    br.give_first_regent(state)
    assert state.first_regent == state.initiative
    state = table(4, 3)
    state.first_regent = (state.initiative + 1) % 4  # a Fate's setup handed it out (Steward)
    br.give_first_regent(state)
    assert state.first_regent == (state.initiative + 1) % 4


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_059_061_062_two_placement_rounds_then_free_cities(n, seed):
    """BR-059: in turn order, 3 ships + 1 building at a planet with an Imperial ship and
    1 resource of its type; BR-061: again in reverse turn order (6 ships, 2 buildings
    each); BR-062: every slot left empty there then gets a Free city."""
    state = table(n, seed)
    order = [(state.initiative + i) % n for i in range(n)]
    done = place_all(state)
    assert [seat for seat, _ in done] == order + order[::-1]
    for seat, p in enumerate(state.players):
        where = [system for s, system in done if s == seat]
        assert p.ships == 15 - 6
        assert sum(x.ships_of(seat).fresh for x in state.systems.values()) == 6
        assert sum(1 for x in state.systems.values() for b in x.buildings if b.owner == seat) == 2
        assert sorted(r for r in p.resources if r) == sorted(BOX.systems[s].type for s in where)
    for system in state.imperial:
        planet = BOX.systems[system]
        if planet is not None:
            assert len(state.systems[system].buildings) == planet.slots
    free_here = sum(1 for s in state.imperial for b in state.systems[s].buildings if b.owner == FREE)
    assert free_here == sum(BOX.systems[s].slots for s in state.imperial if BOX.systems[s]) - 2 * n
    assert problems(RULES, CBOX, state) == []


def test_BR_059_rival_pieces_do_not_block_a_planet():
    """BR-059: a later player may place at a planet a Rival already holds, slot free."""
    state = table(3, 11)
    two_slot = next(s for s in sorted(state.imperial) if BOX.systems[s] and BOX.systems[s].slots == 2)
    first, second = state.placement_order[0], state.placement_order[1]
    br.place_start(BOX, CBOX, state, first, two_slot, "city")
    br.place_start(BOX, CBOX, state, second, two_slot, "starport")
    owners = [b.owner for b in state.systems[two_slot].buildings]
    assert owners == [first, second]
    assert state.systems[two_slot].ships[first].fresh == state.systems[two_slot].ships[second].fresh == 3


@pytest.mark.parametrize("n,seed", CASES[::2])
def test_BR_060_bad_starting_placements_are_refused_and_change_nothing(n, seed):
    """BR-060: no Imperial ship, a filled slot; also out of turn, a gate, a wrong building
    and a placement after the last one; each a typed error, the state unchanged."""
    state = table(n, seed)
    seat = state.placement_order[0]
    outside = next(s for s in sorted(state.blight) if BOX.systems[s] is not None)
    one_slot = next(s for s in sorted(state.imperial) if BOX.systems[s] and BOX.systems[s].slots == 1)
    gate = next(s for s in state.imperial if BOX.systems[s] is None)
    bad = [((seat, outside, "city"), IllegalAction), (((seat + 1) % n, one_slot, "city"), NotYourTurn),
           ((seat, gate, "city"), BadParameter), ((seat, one_slot, "palace"), BadParameter)]
    for args, error in bad:
        before = snapshot(state)
        with pytest.raises(error):
            br.place_start(BOX, CBOX, state, *args)
        assert snapshot(state) == before
    br.place_start(BOX, CBOX, state, seat, one_slot, "city")
    before = snapshot(state)
    with pytest.raises(IllegalAction):  # the slot is filled now
        br.place_start(BOX, CBOX, state, state.placement_order[0], one_slot, "starport")
    assert snapshot(state) == before
    place_all(state)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        br.place_start(BOX, CBOX, state, seat, one_slot, "city")
    assert snapshot(state) == before


@pytest.mark.parametrize("n,seed", CASES)
def test_BR_063_065_hands_of_six_and_the_rest_discarded(n, seed):
    """BR-063: 6 cards each; BR-065: every other action card in the discard pile (with 2
    players once the mulligan is settled)."""
    state = table(n, seed)
    with pytest.raises(IllegalAction):
        br.deal_hands(CBOX, state, Rng(state))
    place_all(state)
    deck = list(state.action_deck)
    br.deal_hands(CBOX, state, Rng(state))
    assert [len(h) for h in state.hands] == [6] * n
    assert [c for h in state.hands for c in h] == deck[:6 * n]
    if n == 2:
        br.end_mulligan(state, 1 - state.initiative, Rng(state))
    assert state.action_deck == [] and sorted(state.action_discard) == sorted(deck[6 * n:])
    assert problems(RULES, CBOX, state) == []


@pytest.mark.parametrize("seed", range(12))
def test_BR_064_two_player_mulligan_keeps_events(seed):
    """BR-064, BR-153: only the seat without initiative may mulligan; its Events stay and
    each other card is replaced by a fresh draw; after it nobody can mulligan."""
    state = table(2, seed)
    place_all(state)
    br.deal_hands(CBOX, state, Rng(state))
    other = 1 - state.initiative
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        br.mulligan(state, state.initiative, Rng(state))
    assert snapshot(state) == before
    hand, deck = list(state.hands[other]), list(state.action_deck)
    br.mulligan(state, other, Rng(state))
    events = hand.count(br.EVENT)
    assert state.hands[other] == [br.EVENT] * events + deck[:6 - events]
    assert state.action_deck == [] and problems(RULES, CBOX, state) == []
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        br.mulligan(state, other, Rng(state))
    assert snapshot(state) == before


def test_invariants_catch_extra_or_lost_pieces():
    """The invariant check fails on a broken table, so the checks above can fail."""
    state = table(3, 4)
    state.imperial["1G"] = Pieces(fresh=state.imperial.get("1G", Pieces()).fresh + 1)
    state.blight_supply -= 1
    state.free_city_supply += 1
    state.players[0].ships -= 1
    state.court_deck.pop()
    found = problems(RULES, CBOX, state)
    assert len(found) == 5, found


def test_hidden_setup_information_is_not_visible():
    """No hand, deck, lore deck or Fate choice is in the visible fields."""
    secret = {"hands", "action_deck", "action_discard", "court_deck", "lore_deck", "fate_offers", "fates", "facedown"}
    assert not secret & set(BlightedReachState.visible)
    assert set(BlightedReachState.visible) <= set(BlightedReachState.__struct_fields__)


def test_BR_048_049_rolls_through_core_chance_are_announced():
    """BR-048/BR-049: run through a flow context, both setup rolls are public events and
    the clusters and Free cities follow what the events say."""
    from types import SimpleNamespace

    from core.flow import Ctx

    state = BlightedReachState(game="blighted_reach", seats=[Seat(index=i) for i in range(3)], rng=seed_state(8))
    ctx = Ctx(state, SimpleNamespace())
    br.set_up_act_one(BOX, CBOX, state, ctx.rng, br.chance_roll(ctx, "act_one_setup"))
    rolls = [e for e in ctx.events if e.type == "roll"]
    shown = [r.data["dice"][0]["shows"] for r in rolls]
    assert [r.data["dice"][0]["die"] for r in rolls] == ["number", "event"]
    assert state.imperial_clusters[0] == shown[0] and state.rolls["event"] == shown[1]
    assert problems(RULES, CBOX, state) == []


def test_BR_059_every_imperial_pair_fits_four_players():
    """BR-059/BR-061/BR-062: any two neighbouring clusters hold at least 8 building slots
    on their planets, so 4 players' 8 starting buildings always fit."""
    for first in range(1, 7):
        state = table(4, first, fixed(first, "arrow"))
        place_all(state)
        assert state.placements_done == 8 and problems(RULES, CBOX, state) == []


def test_BR_060_a_building_the_seat_has_no_more_of_is_refused():
    """BR-060."""
    state = table(3, 2)
    seat = state.placement_order[0]
    state.players[seat].starports = 0
    system = next(s for s in sorted(state.imperial) if BOX.systems[s])
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        br.place_start(BOX, CBOX, state, seat, system, "starport")
    assert snapshot(state) == before
