"""Rule tests: components, game setup (board, players, asymmetry draft) and the four scenarios.

Checklist IDs QNC-001 .. QNC-049 (module core).
"""
from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from core import create_table
from core.errors import BadOption, BadParameter, BadPlayerCount, ContentError
from plugins.new_capital.content import DEFAULT_PACK, TRACKS, base_id, load_pack
from tests.content_files import copy_folder, edit_json, registry_with_pack
from tests.new_capital.harness import (
    PACK, act, add_column, auto, check, kinds, move_card, new_game, options, pl, prompt, put_leader,
    set_hand, set_pool, where,
)

SCENARIOS = ("learning", "swift", "friendly", "uprising")
TARGETS = {"learning": 4, "swift": 6, "friendly": 6, "uprising": 8}
ALERT_SLOTS = [i for i, a in enumerate(PACK.board.seal_slots) if a]
PLAIN_SLOTS = [i for i, a in enumerate(PACK.board.seal_slots) if not a]
DRAFT_STRUCTURES = sorted(s.id for s in PACK.structures.values() if s.draft)
DRAFT_LEADERS = sorted(l.id for l in PACK.leaders.values() if l.draft)
REGULAR_STRUCTURES = sorted(s.id for s in PACK.structures.values() if not s.draft)
REGULAR_LEADERS = sorted(l.id for l in PACK.leaders.values() if not l.draft and not l.hero)
ADVANCED = sorted(a.id for a in PACK.actions.values() if not a.basic)


# -- helpers -------------------------------------------------------------------------
def fresh(players: int = 4, seed: int = 0, scenario: str = "learning"):
    """A table right after setup, the draft leaders not yet chosen."""
    return new_game(players=players, seed=seed, scenario=scenario, draft=False)


def quiet_round(table, crisis: str = "C1A") -> None:
    """Arrange: nobody holds a card this round and the active crisis is a known one whose
    penalties are only Hunger (so no Rebellion stops structures from scoring)."""
    for seat in range(len(table.state.players)):
        set_hand(table, seat, [])
    move_card(table, crisis, "crisis")


def place_seals(table, seat: int, slots) -> None:
    """Arrange: seals already on these slots of the seat's board (taken from its reserve)."""
    p = pl(table, seat)
    for i in slots:
        assert not p.seal_slots[i]
        p.seal_slots[i] = True
        p.seals_reserve -= 1


def fill_track_in_score(table, seat: int) -> None:
    """Arrange: the seat's Might token on 4 and a Tier 1 Might structure in a new column,
    so the Score phase brings the track to its 5th space."""
    add_column(table, seat, "S21")
    pl(table, seat).tracks["might"] = 4


def plain_slot_policy(table, p):
    """auto() policy: new seals go on a slot without an Alert when one is free."""
    if p.kind == "seal_slot":
        for o in p.options:
            if o.params["slot"] in PLAIN_SLOTS:
                return o
    return None


def run_round(table):
    """Play until the game ends or round 2 begins."""
    return auto(table, until=lambda t: t.state.finished or t.state.round >= 2, policy=plain_slot_policy)


def copy_pack(tmp_path):
    return copy_folder(DEFAULT_PACK, tmp_path, "pack")


def without(ids):
    ids = set(ids)

    def drop(data):
        data[:] = [c for c in data if c["id"] not in ids]

    return drop


# -- Components --------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_seats_make_a_table_and_five_are_refused_QNC_001(players):
    """QNC-001: multiplayer games take 2-4 seats; a fifth seat is refused."""
    table = new_game(players=players)
    assert len(table.state.players) == players
    assert prompt(table).kind == "turn"
    check(table)
    with pytest.raises(BadPlayerCount):
        create_table("new-capital", 5)
    with pytest.raises(BadPlayerCount):
        create_table("new-capital", 0)


def test_a_single_player_table_can_be_created_for_solo_mode_QNC_001():
    """QNC-001: Solo Mode covers a single player, so a 1-seat table must be accepted."""
    table = create_table("new-capital", 1, seed=3)
    assert len(table.state.players) == 1
    table.act(0, table.legal(0)[0])  # keep a draft leader
    assert prompt(table, 0).kind == "turn"
    check(table)


def test_one_board_and_die_shared_and_one_player_board_per_seat_QNC_002():
    """QNC-002: one shared attribute board (one set of tracks per colour) and one first-player
    die for the table; one player board (seal slots, cubes, deck spaces) per seat."""
    for n in (2, 4):
        table = fresh(players=n)
        state = table.state
        assert isinstance(state.die, int)          # a single die value for the whole table
        assert len(state.players) == n             # one player board per seat
        for p in state.players:
            assert len(p.seal_slots) == len(PACK.board.seal_slots) == 9
            assert sorted(p.tracks) == sorted(TRACKS)  # the seat's markers on the shared board


def test_cubes_seals_and_attribute_tokens_per_colour_QNC_003():
    """QNC-003: four attribute tokens per colour (16 for four colours), 9 seals per seat
    (within the 40 in the box), 3 cubes per seat (within the 16 in the box)."""
    table = fresh(players=4)
    players = table.state.players
    assert sum(len(p.tracks) for p in players) == 16
    for p in players:
        assert sorted(p.tracks) == sorted(TRACKS)
        assert sum(p.seal_slots) + p.honorary + p.seals_reserve == 9
        assert len(p.diplomacy) + 1 == 3  # two diplomacy cubes and the board-action cube
    assert sum(sum(p.seal_slots) + p.honorary + p.seals_reserve for p in players) <= 40
    assert 3 * len(players) <= 16


def _find_counts(data, found):
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, int) and not isinstance(v, bool):
                key = str(k).lower()
                for name in ("rebellion", "extra", "upgrade", "reserve"):
                    if name in key:
                        found.setdefault(name, set()).add(v)
            else:
                _find_counts(v, found)
    elif isinstance(data, list):
        for v in data:
            _find_counts(v, found)
    return found


def test_token_supply_component_counts_are_reported_QNC_004():
    """QNC-004 (with ruling G-2): the engine reports the token supply counts (15 Rebellion,
    15 Extra Action, 15 Structure Upgrade, 51 Reserve) so a frontend can warn, in the content
    pack or in the table's public view."""
    table = new_game(players=2)
    found: dict[str, set] = {}
    _find_counts(msgspec.to_builtins(PACK.board), found)
    _find_counts(table.view(None), found)
    assert 15 in found.get("rebellion", set())
    assert 15 in found.get("extra", set())
    assert 15 in found.get("upgrade", set())
    assert 51 in found.get("reserve", set())


def test_rebellion_and_reserve_tokens_never_run_out_QNC_005():
    """QNC-005: token supplies other than Hunger are unlimited: a 16th Rebellion token and a
    52nd Reserve token are still given."""
    table = new_game(players=2, seed=2, scenario="uprising")
    seat = table.state.first
    other = 1 - seat
    # 15 Rebellion tokens already out (all of the box), 51 Reserve tokens already held.
    pl(table, seat).columns[0].rebellion = 8
    pl(table, other).columns[0].rebellion = 7
    pl(table, seat).reserve_power = 30
    pl(table, other).reserve_control = 21
    # Reserve: the Diplomacy faction action gives one more token.
    pl(table, seat).diplomacy = [0, 0]
    set_hand(table, seat, [f"{seat}:B-ADMINISTRATE"])
    act(table, seat, "board", action="faction", faction="diplomacy")
    act(table, seat, "choice", option=0)  # the power token
    assert pl(table, seat).reserve_power == 31
    assert pl(table, seat).reserve_power + pl(table, other).reserve_control == 52
    # Rebellion: becoming Favored in Uprising on an Alert slot gives a 16th token.
    pl(table, seat).diplomacy = [4, 0]
    act(table, seat, "play", card=f"{seat}:B-ADMINISTRATE")
    act(table, seat, "administrate", track=0, direction=1)
    act(table, seat, "seal_slot", slot=ALERT_SLOTS[0])
    total = sum(c.rebellion for q in table.state.players for c in q.columns)
    assert total == 16
    check(table)


def test_sixty_regular_and_four_draft_structures_QNC_006(tmp_path):
    """QNC-006: 60 regular structures plus 4 draft structures: in the pack, at the table,
    and a pack missing one of either is refused."""
    assert len(REGULAR_STRUCTURES) == 60 and len(DRAFT_STRUCTURES) == 4
    table = fresh(players=4)
    rows = table.state.rows
    dealt = [c for t in ("t1", "t2", "t3") for c in rows[t].deck + rows[t].pool + rows[t].discard]
    assert sorted(dealt) == REGULAR_STRUCTURES
    in_columns = [p.columns[0].structures[0] for p in table.state.players]
    assert sorted(in_columns) == DRAFT_STRUCTURES
    folder = copy_pack(tmp_path)
    load_pack(folder)  # the untouched copy loads
    edit_json(folder, "structures.json", without(["S01"]))
    with pytest.raises(ContentError):
        load_pack(folder)
    folder2 = copy_pack(tmp_path / "b")
    edit_json(folder2, "structures.json", without(["DS1"]))
    with pytest.raises(ContentError):
        load_pack(folder2)


def test_forty_eight_leaders_and_ten_draft_leaders_QNC_007(tmp_path):
    """QNC-007: 48 common leaders plus 10 draft leaders; a pack missing one is refused."""
    assert len(REGULAR_LEADERS) == 48 and len(DRAFT_LEADERS) == 10
    table = fresh(players=4)
    row = table.state.rows["leaders"]
    assert sorted(row.deck + row.pool + row.discard) == REGULAR_LEADERS
    offered = [c for p in table.state.players for c in p.draft_offer]
    boxed = [c for c in table.state.box if c in PACK.leaders and not PACK.leaders[c].hero]  # heroes: a module's
    assert sorted(offered + boxed) == DRAFT_LEADERS
    folder = copy_pack(tmp_path)
    edit_json(folder, "leaders.json", without([REGULAR_LEADERS[0]]))
    with pytest.raises(ContentError):
        load_pack(folder)
    folder2 = copy_pack(tmp_path / "b")
    edit_json(folder2, "leaders.json", without(["DL01"]))
    with pytest.raises(ContentError):
        load_pack(folder2)


def test_four_identical_ten_card_basic_decks_and_fifty_advanced_QNC_008(tmp_path):
    """QNC-008: 40 basic cards as four identical 10-card decks, and a 50-card Advanced deck."""
    basics = sorted(a.id for a in PACK.actions.values() if a.basic)
    assert len(basics) == 10 and len(ADVANCED) == 50
    table = fresh(players=4)
    decks = [sorted(base_id(c) for c in p.deck) for p in table.state.players]
    assert all(d == basics for d in decks)
    assert sum(len(p.deck) for p in table.state.players) == 40
    row = table.state.rows["adv"]
    assert sorted(row.deck + row.pool + row.discard) == ADVANCED
    folder = copy_pack(tmp_path)
    edit_json(folder, "actions.json", without([ADVANCED[0]]))
    with pytest.raises(ContentError):
        load_pack(folder)
    folder2 = copy_pack(tmp_path / "b")
    edit_json(folder2, "actions.json", without(["B-BRIBE"]))
    with pytest.raises(ContentError):
        load_pack(folder2)


def test_seventeen_hunger_cards_shared_QNC_009(tmp_path):
    """QNC-009: one shared Hunger deck of 17 cards."""
    assert len(PACK.hunger) == 17
    table = fresh(players=3)
    assert sorted(table.state.hunger_deck) == sorted(PACK.hunger)
    folder = copy_pack(tmp_path)
    edit_json(folder, "hunger.json", without([sorted(PACK.hunger)[0]]))
    with pytest.raises(ContentError):
        load_pack(folder)
    # a table naming the broken pack is refused as well
    with pytest.raises(ContentError):
        create_table("new-capital", 2, options={"pack": "custom"}, registry=registry_with_pack(folder))


def test_eighteen_crises_three_per_level_QNC_010(tmp_path):
    """QNC-010: 18 Crisis cards, three of each level 1-6; 17 cards or a level with four are refused."""
    assert len(PACK.crises) == 18
    assert Counter(c.level for c in PACK.crises.values()) == {lv: 3 for lv in range(1, 7)}
    table = fresh(players=2)
    state = table.state
    everywhere = [state.crisis] + state.crisis_deck + [c for c in state.box if c in PACK.crises]
    assert sorted(everywhere) == sorted(PACK.crises)
    folder = copy_pack(tmp_path)
    edit_json(folder, "crises.json", without(["C6C"]))
    with pytest.raises(ContentError):
        load_pack(folder)

    def relevel(data):
        for c in data:
            if c["id"] == "C6C":
                c["level"] = 5

    folder2 = copy_pack(tmp_path / "b")
    edit_json(folder2, "crises.json", relevel)
    with pytest.raises(ContentError):
        load_pack(folder2)


def test_four_scenarios_are_offered_QNC_014():
    """QNC-014: the scenario option offers exactly the four scenarios; each makes a table."""
    table = create_table("new-capital", 2)
    assert tuple(table.rules.game.options["scenario"].choices) == SCENARIOS
    assert [s.id for s in PACK.board.scenarios] == list(SCENARIOS)
    for sid in SCENARIOS:
        t = fresh(players=2, scenario=sid)
        assert t.state.scenario == sid
    with pytest.raises(BadOption):
        create_table("new-capital", 2, options={"scenario": "grand-campaign"})


def test_first_player_die_counts_one_to_four_in_multiplayer_QNC_015():
    """QNC-015: the die is a six-sided die with faces -1..4; in a multiplayer round it shows
    only 1..4 (never 0 or -1) and counts the first player's turns."""
    table = new_game(players=3, seed=4)
    seen = []

    def watch(t, p):
        seen.append((t.state.round, t.state.die, pl(t, t.state.first).played))
        return None

    auto(table, until=lambda t: t.state.round >= 3, policy=watch)
    faces = {d for _, d, _ in seen}
    assert faces <= {-1, 0, 1, 2, 3, 4}
    assert faces <= {1, 2, 3, 4}
    assert {1, 4} <= faces
    for _, die, played in seen:
        assert die == max(1, played)
    check(table)


# -- Board Setup ---------------------------------------------------------------------
def test_structures_split_into_three_tier_decks_QNC_016():
    """QNC-016: each tier's deck (and pool) holds only that tier's regular structures."""
    table = fresh(players=4, seed=7)
    for tier in (1, 2, 3):
        row = table.state.rows[f"t{tier}"]
        cards = row.deck + row.pool
        assert cards and all(PACK.structures[c].tier == tier for c in cards)
        assert not any(PACK.structures[c].draft for c in cards)
        assert sorted(cards) == sorted(s for s in REGULAR_STRUCTURES if PACK.structures[s].tier == tier)


def test_each_tier_has_a_pool_of_three_and_its_own_discard_QNC_017():
    """QNC-017: three face-up cards per tier pool, dealt from that tier's deck; an own discard pile."""
    table = fresh(players=2, seed=8)
    for tier in (1, 2, 3):
        row = table.state.rows[f"t{tier}"]
        assert len(row.pool) == 3
        assert row.discard == []
        assert all(PACK.structures[c].tier == tier for c in row.pool)
    assert len({id(table.state.rows[f"t{t}"].discard) for t in (1, 2, 3)}) == 3


def test_crisis_deck_one_random_card_per_level_QNC_018():
    """QNC-018: one of the three cards of each level (chosen at random), six in all; the
    twelve others are out of the game."""
    chosen = set()
    for seed in range(12):
        state = fresh(players=2, seed=seed).state
        deck = [state.crisis] + state.crisis_deck
        assert len(deck) == 6
        assert sorted(PACK.crises[c].level for c in deck) == [1, 2, 3, 4, 5, 6]
        unused = [c for c in state.box if c in PACK.crises]
        assert len(unused) == 12 and not set(unused) & set(deck)
        chosen.update(deck)
    assert len(chosen) > 6  # not always the same cards


def test_crises_come_up_in_ascending_level_order_QNC_019():
    """QNC-019: lowest level on top: the game's crises appear as levels 1, 2, 3, ..."""
    table = new_game(players=2, seed=6)
    state = table.state
    assert [PACK.crises[c].level for c in state.crisis_deck] == [2, 3, 4, 5, 6]
    events = auto(table, until=lambda t: t.state.round >= 4)
    levels = [e.data["level"] for e in events if e.type == "crisis"]
    assert levels == [2, 3, 4]
    assert [PACK.crises[c].level for c in table.state.crises_done] == [1, 2, 3]


def test_top_crisis_is_revealed_at_setup_QNC_020():
    """QNC-020: the level-1 crisis is face up before round 1 starts."""
    table = fresh(players=3, seed=9)
    state = table.state
    assert PACK.crises[state.crisis].level == 1
    assert state.crisis not in state.crisis_deck
    reveal = [e for e in table.events if e.type == "crisis"]
    assert reveal and reveal[0].data == {"card": state.crisis, "level": 1}
    assert state.round == 0  # still in setup (the draft)


def test_advanced_deck_shuffled_with_a_pool_of_three_QNC_021():
    """QNC-021: three Advanced cards face up, the rest in a shuffled deck, an empty discard."""
    orders = set()
    for seed in range(4):
        row = fresh(players=2, seed=seed).state.rows["adv"]
        assert len(row.pool) == 3 and len(row.deck) == 47 and row.discard == []
        orders.add(tuple(row.deck + row.pool))
    assert len(orders) == 4


def test_leader_deck_shuffled_with_a_pool_of_three_QNC_022():
    """QNC-022: three Leaders face up, the rest in a shuffled deck, an empty discard."""
    orders = set()
    for seed in range(4):
        row = fresh(players=2, seed=seed).state.rows["leaders"]
        assert len(row.pool) == 3 and len(row.deck) == 45 and row.discard == []
        orders.add(tuple(row.deck + row.pool))
    assert len(orders) == 4


def test_exactly_one_scenario_fixes_target_objective_and_alert_QNC_023():
    """QNC-023: a table has exactly one scenario (default Learning the Game); several at once
    are refused; the chosen one sets the seal target used at the victory check."""
    assert fresh(players=2).state.scenario == "learning"
    with pytest.raises(BadOption):
        create_table("new-capital", 2, options={"scenario": ["learning", "swift"]})
    results = {}
    for sid in ("learning", "swift"):
        table = new_game(players=2, seed=1, scenario=sid)
        seat = table.state.first
        quiet_round(table)
        place_seals(table, seat, PLAIN_SLOTS[:5])  # 5 seals: enough for 4, not for 6
        run_round(table)
        results[sid] = table.state.finished
    assert results == {"learning": True, "swift": False}


# -- Players Setup ---------------------------------------------------------------------
def test_every_seat_has_a_different_colour_QNC_024():
    """QNC-024: each player has their own colour."""
    colours = [p.color for p in fresh(players=4).state.players]
    assert len(set(colours)) == 4 and all(colours)


def test_attribute_tokens_start_at_zero_QNC_025():
    """QNC-025: one token per track (Influence, Might, Morale, Wealth) on 0."""
    for p in fresh(players=4, seed=3).state.players:
        assert p.tracks == {"influence": 0, "might": 0, "morale": 0, "wealth": 0}


def test_nine_seals_in_reserve_and_three_cubes_QNC_026():
    """QNC-026: nine seals held in reserve (none on the board), three cubes on the board."""
    for p in fresh(players=4, seed=3).state.players:
        assert p.seals_reserve == 9
        assert not any(p.seal_slots) and not p.honorary and p.seals == 0
        assert len(p.diplomacy) == 2 and p.board_cube == "top"


def test_cubes_start_at_track_centres_and_top_board_slot_QNC_027_QNC_032():
    """QNC-027: diplomacy cubes start at each faction track's centre, the board-action cube on
    the top slot; QNC-032: the draft structure then moves one cube one slot toward its faction."""
    for seed in range(3):
        table = fresh(players=4, seed=seed)
        for p in table.state.players:
            faction = PACK.faction(PACK.structures[p.columns[0].structures[0]].faction)
            expected = [0, 0]
            expected[faction.track] = faction.end
            assert p.diplomacy == expected
            assert p.board_cube == "top"
            # the moved cube now sits one slot from the centre toward the faction's end
            assert p.diplomacy[faction.track] * faction.end == 1


def test_ten_card_action_deck_shuffled_with_empty_discard_QNC_028():
    """QNC-028: the same ten cards for each seat, shuffled face down; empty discard."""
    table = fresh(players=4, seed=11)
    starting = sorted(PACK.board.starting_deck)
    orders = set()
    for p in table.state.players:
        assert sorted(base_id(c) for c in p.deck) == starting
        assert all(c.startswith(f"{p.seat}:") for c in p.deck)
        assert p.discard == [] and p.hand == []
        orders.add(tuple(base_id(c) for c in p.deck))
    assert len(orders) > 1  # shuffled separately


def test_first_player_is_random_and_plays_first_QNC_029():
    """QNC-029: a random seat gets the die and takes the first turn of round 1."""
    firsts = set()
    for seed in range(12):
        table = fresh(players=4, seed=seed)
        first = table.state.first
        firsts.add(first)
        setup = [e for e in table.events if e.type == "setup"]
        assert len(setup) == 1 and setup[0].data["first"] == first
        for seat in range(4):
            table.act(seat, table.legal(seat)[0])
        assert kinds(table) == [(first, "turn")]
    assert len(firsts) >= 3


# -- Asymmetry Draft -------------------------------------------------------------------
def test_draft_cards_never_join_the_common_decks_QNC_030():
    """QNC-030: the 10 draft leaders and 4 draft structures never reach a common row,
    even over a whole game."""
    draft = set(DRAFT_LEADERS) | set(DRAFT_STRUCTURES)
    table = new_game(players=3, seed=5)
    for row in table.state.rows.values():
        assert not draft & set(row.deck + row.pool + row.discard)
    events = auto(table)
    assert table.state.finished
    for e in events:
        if e.type == "row":
            assert not draft & set(e.data["pool"])
    for row in table.state.rows.values():
        assert not draft & set(row.deck + row.pool + row.discard)


def test_each_player_is_dealt_one_random_draft_structure_as_first_column_QNC_031():
    """QNC-031: one draft structure per player, which is their first (only) column."""
    deals = set()
    for seed in range(8):
        table = fresh(players=3, seed=seed)
        got = []
        for p in table.state.players:
            assert len(p.columns) == 1 and len(p.columns[0].structures) == 1
            got.append(p.columns[0].structures[0])
        assert set(got) <= set(DRAFT_STRUCTURES) and len(set(got)) == 3
        deals.add(tuple(got))
    assert len(deals) > 1


@pytest.mark.parametrize("players", [2, 3])
def test_undealt_draft_structures_leave_the_game_QNC_033(players):
    """QNC-033: the draft structures nobody got go to the box and stay out of play."""
    table = new_game(players=players, seed=2)
    dealt = {p.columns[0].structures[0] for p in table.state.players}
    boxed = {c for c in table.state.box if c in DRAFT_STRUCTURES}
    assert boxed == set(DRAFT_STRUCTURES) - dealt and len(boxed) == 4 - players
    auto(table, until=lambda t: t.state.round >= 3)
    assert {c for c in table.state.box if c in DRAFT_STRUCTURES} == boxed
    check(table)


def test_two_draft_leaders_offered_one_kept_under_the_draft_structure_QNC_034():
    """QNC-034: each player sees two draft leaders, keeps one in a leader slot of the draft
    structure's column; the other and the undealt ones leave the game."""
    table = fresh(players=3, seed=4)
    offers = {p.seat: list(p.draft_offer) for p in table.state.players}
    for seat, offer in offers.items():
        assert len(offer) == 2
        assert sorted(o["card"] for o in options(table, seat)) == sorted(offer)
    all_offered = [c for o in offers.values() for c in o]
    assert len(set(all_offered)) == 6
    # a seat cannot keep a leader dealt to someone else
    with pytest.raises(BadParameter):
        act(table, 0, "draft_leader", card=offers[1][0])
    for seat in range(3):
        act(table, seat, "draft_leader", card=offers[seat][1])
    state = table.state
    for seat, offer in offers.items():
        col = state.players[seat].columns[0]
        assert col.slots[0].leader == offer[1]
        assert col.slots[1].leader is None
        assert offer[0] in state.box
        assert state.players[seat].draft_offer == []
    undealt = set(DRAFT_LEADERS) - set(all_offered)
    assert len(undealt) == 4 and undealt <= set(state.box)
    assert prompt(table).kind == "turn"
    check(table)


def _seat_with_aligned_draft_offer():
    """A (seed, seat, leader) where the offered draft leader's faction matches the seat's
    draft structure and its alignment bonus is an attribute point."""
    for seed in range(200):
        table = fresh(players=4, seed=seed)
        for p in table.state.players:
            sfaction = PACK.structures[p.columns[0].structures[0]].faction
            for c in p.draft_offer:
                ld = PACK.leaders[c]
                if ld.faction == sfaction and ld.alignment and ld.alignment[0].op == "attr":
                    return table, p.seat, c
    raise AssertionError("no seed deals an aligned draft leader")


def test_kept_draft_leader_moves_no_cube_and_gives_no_alignment_bonus_QNC_035():
    """QNC-035: keeping a draft leader under a same-faction draft structure neither moves a
    diplomacy cube nor gives its alignment bonus."""
    table, seat, leader = _seat_with_aligned_draft_offer()
    before = list(pl(table, seat).diplomacy)
    events = act(table, seat, "draft_leader", card=leader)
    p = pl(table, seat)
    assert p.columns[0].slots[0].leader == leader
    assert p.diplomacy == before
    assert p.tracks == {t: 0 for t in TRACKS}
    assert p.reserve_power == p.reserve_control == 0
    assert not [e for e in events if e.type in ("alignment_bonus", "diplomacy", "attribute")]
    for other in range(4):
        if other != seat:
            act(table, other, "draft_leader", card=pl(table, other).draft_offer[0])
    assert pl(table, seat).tracks == {t: 0 for t in TRACKS}
    assert pl(table, seat).diplomacy == before
    check(table)


def test_draft_structure_brings_no_hunger_QNC_036():
    """QNC-036: no Hunger card is given at setup for the draft structure."""
    table = fresh(players=4, seed=1)
    setup_events = list(table.events)
    for seat in range(4):
        setup_events += table.act(seat, table.legal(seat)[0])
    assert not [e for e in setup_events if e.type == "hunger"]
    state = table.state
    assert sorted(state.hunger_deck) == sorted(PACK.hunger)
    for h in PACK.hunger:
        assert where(table, h) == "hunger_deck"


# -- Scenarios ---------------------------------------------------------------------------
@pytest.mark.parametrize("sid", SCENARIOS)
def test_every_scenario_defines_target_objective_and_alert_QNC_037(sid):
    """QNC-037: each scenario has a seal target, an Honorary objective and an Alert effect,
    and the table uses that scenario's definitions."""
    sc = PACK.scenario(sid)
    assert sc.seals > 0
    assert sc.honorary.kind in ("tier3", "rewards", "leaders", "reserves")
    assert sc.alert
    table = new_game(players=2, scenario=sid)
    assert table.state.scenario == sid


def _seal_game(sid: str, arranged: int, seed: int = 1):
    """Round 1 with `arranged` seals already on the first player's board and a track that
    fills in the Score phase (one more seal); returns the table after the Refresh check."""
    table = new_game(players=2, seed=seed, scenario=sid)
    seat = table.state.first
    quiet_round(table)
    slots = (PLAIN_SLOTS + ALERT_SLOTS)[:arranged]
    place_seals(table, seat, slots)
    fill_track_in_score(table, seat)
    events = run_round(table)
    scored = [e for e in events if e.type == "seal" and e.data["seat"] == seat]
    assert len(scored) == 1
    return table, seat


@pytest.mark.parametrize("sid,ids", [
    ("learning", "QNC-038"), ("swift", "QNC-041"), ("friendly", "QNC-044"), ("uprising", "QNC-047"),
])
def test_game_end_triggers_at_the_scenario_seal_target_QNC_038_041_044_047(sid, ids):
    """QNC-038: Learning ends at 4 seals; QNC-041: Swift at 6; QNC-044: Friendly at 6;
    QNC-047: Uprising at 8. The seal that reaches the target ends the game at the Refresh
    check of that round; one seal fewer does not."""
    target = TARGETS[sid]
    table, seat = _seal_game(sid, target - 1)
    state = table.state
    assert state.finished and state.round == 1
    assert state.result["reason"] == "seals"
    assert state.result["winners"] == [seat]
    assert state.result["seals"][str(seat)] == target
    check(table)

    table, seat = _seal_game(sid, target - 2)
    assert not table.state.finished
    assert table.state.round == 2 and pl(table, seat).seals == target - 1
    check(table)


# honorary objectives -------------------------------------------------------------------
def _upgrade_to_tier3_setup(table, seat):
    """Arrange: a Port column at Tier 2 holding one Upgrade token, a Tier 3 Port in the pool,
    and a Build card in hand."""
    col = add_column(table, seat, "S11", "S35")
    pl(table, seat).columns[col].upgrades = 1
    set_pool(table, "t3", ["S52", "S46", "S49"])
    set_hand(table, seat, [f"{seat}:B-BUILD"])
    return col


def _build_upgrade(table, seat, col):
    events = act(table, seat, "play", card=f"{seat}:B-BUILD")
    events += act(table, seat, "build", card="upgrade")
    if prompt(table, seat) and prompt(table, seat).kind == "upgrade_column":
        events += act(table, seat, "upgrade_column", column=col)
    if prompt(table, seat) and prompt(table, seat).kind == "upgrade_card":
        events += act(table, seat, "upgrade_card", column=col, card="S52")
    return events


def test_learning_honorary_for_owning_a_tier3_structure_QNC_039():
    """QNC-039: in Learning the Game, upgrading to a Tier 3 structure earns the Honorary Seal;
    Tier 2 is not enough."""
    table = new_game(players=2, seed=3, scenario="learning")
    seat = table.state.first
    col = add_column(table, seat, "S11")
    pl(table, seat).columns[col].upgrades = 1
    set_hand(table, seat, [f"{seat}:B-BUILD"])
    set_pool(table, "t2", ["S35", "S26", "S30"])
    act(table, seat, "play", card=f"{seat}:B-BUILD")
    act(table, seat, "build", card="upgrade")
    if prompt(table, seat) and prompt(table, seat).kind == "upgrade_column":
        act(table, seat, "upgrade_column", column=col)
    assert pl(table, seat).columns[col].structures == ["S11", "S35"]
    assert not pl(table, seat).honorary and table.state.honorary_chart == []

    table = new_game(players=2, seed=3, scenario="learning")
    seat = table.state.first
    col = _upgrade_to_tier3_setup(table, seat)
    events = _build_upgrade(table, seat, col)
    p = pl(table, seat)
    assert p.columns[col].structures == ["S11", "S35", "S52"]
    assert p.honorary and p.seals_reserve == 8
    assert [e.data["seat"] for e in events if e.type == "honorary_seal"] == [seat]
    check(table)


def _alert_by_favored(sid: str, seed: int = 2):
    """Development: the first player becomes Favored and puts the seal on an Alert slot.
    Returns (table, seat, events of the seal choice)."""
    table = new_game(players=2, seed=seed, scenario=sid)
    seat = table.state.first
    pl(table, seat).diplomacy = [4, 0]
    set_hand(table, seat, [f"{seat}:B-ADMINISTRATE"])
    act(table, seat, "play", card=f"{seat}:B-ADMINISTRATE")
    act(table, seat, "administrate", track=0, direction=1)
    assert prompt(table, seat).kind == "seal_slot"
    events = act(table, seat, "seal_slot", slot=ALERT_SLOTS[0])
    return table, seat, events


def test_learning_alert_gives_an_attribute_point_of_choice_QNC_040():
    """QNC-040 (ruling QNC-R2): the star Alert gives 1 Attribute point on a track the player
    chooses."""
    table, seat, _ = _alert_by_favored("learning")
    p = prompt(table, seat)
    assert p.kind == "attr_track"
    assert sorted(o["track"] for o in options(table, seat)) == sorted(TRACKS)
    act(table, seat, "attr_track", track="morale")
    assert pl(table, seat).tracks["morale"] == 1
    assert sum(pl(table, seat).tracks.values()) == 1
    check(table)


def _win_crisis(table, seat, cards):
    """Arrange: only `seat` holds cards (`cards`) this round, the crisis is C1A; play them."""
    quiet_round(table)
    set_hand(table, seat, [f"{seat}:{c}" for c in cards])
    return auto(table, until=lambda t: t.state.phase == "score" or t.state.round >= 2)


def test_swift_honorary_for_two_crisis_rewards_QNC_042():
    """QNC-042: in Swift Game the second Crisis outperform reward earns the Honorary Seal;
    one reward does not."""
    table = new_game(players=2, seed=1, scenario="swift")
    seat = table.state.first
    events = _win_crisis(table, seat, ["B-MOBILIZE"])  # warfare only
    assert [e.data["seat"] for e in events if e.type == "reward"] == [seat]
    assert not pl(table, seat).honorary and table.state.honorary_chart == []

    table = new_game(players=2, seed=1, scenario="swift")
    seat = table.state.first
    events = _win_crisis(table, seat, ["B-MOBILIZE", "B-MORALE", "B-ENVOY"])  # both crises
    assert [e.data["seat"] for e in events if e.type == "reward"] == [seat, seat]
    assert pl(table, seat).honorary and pl(table, seat).seals_reserve == 8
    chart = table.state.honorary_chart
    assert len(chart) == 1 and chart[0].seats == [seat] and chart[0].phase == "crisis"
    check(table)


@pytest.mark.parametrize("sid,ids", [("swift", "QNC-043"), ("friendly", "QNC-046")])
def test_alert_gives_a_hunger_card_QNC_043_046(sid, ids):
    """QNC-043 (Swift Game) and QNC-046 (Friendly Dispute): covering an Alert gives a Hunger
    card (into the discard pile)."""
    table, seat, events = _alert_by_favored(sid)
    hunger = [e for e in events if e.type == "hunger"]
    assert len(hunger) == 1 and hunger[0].data["seat"] == seat
    card = hunger[0].data["card"]
    assert card in PACK.hunger
    assert where(table, card) == f"p{seat}.discard"
    assert len(table.state.hunger_deck) == 16
    check(table)


def _recruit_game(arranged: int):
    """Friendly Dispute: the first player has four columns and `arranged` leaders in them
    (draft leader included), then recruits one more with the Recruit card."""
    table = new_game(players=2, seed=4, scenario="friendly")
    seat = table.state.first
    for s in ("S01", "S06", "S11"):
        add_column(table, seat, s)
    pool = REGULAR_LEADERS[:10]
    slots = [(c, s) for c in range(4) for s in (0, 1) if (c, s) != (0, 0)]
    for leader, (c, s) in zip(pool[: arranged - 1], slots):
        put_leader(table, seat, leader, c, s)
    free = slots[arranged - 1]
    recruit = pool[arranged - 1]
    set_pool(table, "leaders", [recruit] + pool[arranged: arranged + 2])
    set_hand(table, seat, [f"{seat}:B-RECRUIT"])
    events = act(table, seat, "play", card=f"{seat}:B-RECRUIT")
    events += act(table, seat, "recruit", card=recruit)
    events += act(table, seat, "leader_slot", card=recruit, column=free[0], slot=free[1])
    while prompt(table, seat) and prompt(table, seat).kind != "turn":
        events += table.act(seat, prompt(table, seat).options[0])
    p = pl(table, seat)
    assert p.columns[free[0]].slots[free[1]].leader == recruit
    return table, seat, events


def test_friendly_honorary_for_eight_leaders_QNC_045():
    """QNC-045: in Friendly Dispute the eighth leader in the province (every slot filled)
    earns the Honorary Seal; a seventh does not."""
    table, seat, events = _recruit_game(arranged=6)
    assert sum(1 for col in pl(table, seat).columns for sl in col.slots if sl.leader) == 7
    assert not pl(table, seat).honorary and table.state.honorary_chart == []

    table, seat, events = _recruit_game(arranged=7)
    p = pl(table, seat)
    assert sum(1 for col in p.columns for sl in col.slots if sl.leader) == 8
    assert p.honorary and p.seals_reserve == 8
    assert table.state.honorary_chart[0].seats == [seat]
    assert [e.data["seat"] for e in events if e.type == "honorary_seal"] == [seat]
    check(table)


def _reserve_game(power: int, control: int, gain: int):
    """Uprising: the first player holds power/control reserve tokens and takes the Diplomacy
    faction action (option `gain`: 0 = a power token, 1 = a control token)."""
    table = new_game(players=2, seed=2, scenario="uprising")
    seat = table.state.first
    p = pl(table, seat)
    p.reserve_power, p.reserve_control = power, control
    p.diplomacy = [0, 0]
    set_hand(table, seat, [f"{seat}:B-ADMINISTRATE"])
    act(table, seat, "board", action="faction", faction="diplomacy")
    events = act(table, seat, "choice", option=gain)
    return table, seat, events


def test_uprising_honorary_for_more_than_six_power_and_control_QNC_048():
    """QNC-048: Uprising's Honorary Seal needs more than 6 power and more than 6 control
    reserve tokens at once: 7/7 earns it, 7/6 and 6/7 (exactly 6 of one) do not."""
    table, seat, events = _reserve_game(7, 6, gain=1)   # -> 7 power, 7 control
    assert pl(table, seat).honorary
    assert [e.data["seat"] for e in events if e.type == "honorary_seal"] == [seat]
    check(table)
    table, seat, _ = _reserve_game(6, 5, gain=1)        # -> 6 power, 6 control
    assert not pl(table, seat).honorary
    table, seat, _ = _reserve_game(12, 5, gain=1)       # -> 12 power, 6 control
    assert not pl(table, seat).honorary
    table, seat, _ = _reserve_game(5, 12, gain=0)       # -> 6 power, 12 control
    assert not pl(table, seat).honorary
    assert table.state.honorary_chart == []


def test_uprising_alert_gives_a_rebellion_token_QNC_049():
    """QNC-049: in Uprising covering an Alert places a Rebellion token in the province."""
    table, seat, events = _alert_by_favored("uprising")
    reb = [e for e in events if e.type == "rebellion"]
    assert len(reb) == 1 and reb[0].data["seat"] == seat
    assert sum(c.rebellion for c in pl(table, seat).columns) == 1
    assert not [e for e in events if e.type == "hunger"]
    check(table)
