"""Province layout and structures: columns, leaders per column, building, upgrading and
scoring stacks (QNC-080..099).

Each test arranges a province with the harness, then plays Build cards, upgrades and
Score phases through the engine.
"""
from __future__ import annotations

import pytest

from core.errors import ActionRejected
from plugins.new_capital.content import STRUCTURE_TYPES
from tests.new_capital.harness import (
    PACK, act, auto, card_of, check, kinds, new_game, options, pl, prompt,
    put_leader, set_hand, set_pool, structures,
)
from tests.new_capital.harness import quiet_crisis, crisis_hands, bare_province, CRISIS_CARDS  # shared arrangements


# -- arranging helpers (local to this file) --------------------------------------------------


def hand_with(table, seat: int, *cards: str) -> None:
    """Hand = `cards` then basic face-down cards up to 6."""
    rest = [card_of(seat, c) for c in CRISIS_CARDS if card_of(seat, c) not in cards]
    set_hand(table, seat, list(cards) + rest[: 6 - len(cards)])


def play_build_upgrade(table, seat: int, card: str | None = None) -> list:
    """Play a Build card (default the seat's basic one) and take its Upgrade token."""
    card = card or card_of(seat, "B-BUILD")
    act(table, seat, "play", card=card)
    assert prompt(table).kind == "build" and prompt(table).seat == seat
    return act(table, seat, "build", card="upgrade")


def columns_of(table, seat: int) -> list[list[str]]:
    return [list(c.structures) for c in pl(table, seat).columns]


def started(seed: int = 0, players: int = 2):
    table = new_game(players=players, seed=seed)
    return table, table.state.first


# -- QNC-080..084: the province ------------------------------------------------------------------
def test_province_has_at_most_four_columns_QNC_080():
    """QNC-080: with 3 columns, Build can open a 4th; with 4 columns it offers only the
    Upgrade token, never a new column."""
    table, seat = started(40)
    other = 1 - seat
    bare_province(table, seat, ["S12"], ["S16"], ["S21"])
    hand_with(table, seat, card_of(seat, "B-BUILD"), "A12")
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    t1 = table.state.rows["t1"].pool
    assert {o["card"] for o in options(table, seat, "build")} == set(t1) | {"upgrade"}
    act(table, seat, "build", card=t1[0])
    assert len(pl(table, seat).columns) == 4
    crisis_hands(table, [other])
    act(table, other, "play", card=pl(table, other).hand[0])
    act(table, seat, "play", card="A12")
    # the Upgrade token is the only choice left, so it is taken at once: no column to open
    assert kinds(table) == [(seat, "upgrade_column")]
    assert options(table, seat) == [{"column": i} for i in range(4)]
    act(table, seat, "upgrade_column", column=3)
    assert len(pl(table, seat).columns) == 4
    check(table)


def test_column_holds_one_stack_and_at_most_two_leaders_QNC_081():
    """QNC-081: a Build never adds a Tier 1 onto an existing column; recruiting into a full
    column only replaces (flip or move) one of its two leaders, never adds a third."""
    table, seat = started(41)
    bare_province(table, seat, ["S12"], ["S16"])
    put_leader(table, seat, "L12", 0, 0)
    put_leader(table, seat, "L21", 0, 1)
    hand_with(table, seat, card_of(seat, "B-RECRUIT"))
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    recruit = options(table, seat, "recruit")[0]["card"]
    act(table, seat, "recruit", card=recruit)
    slots = options(table, seat, "leader_slot")
    assert {(o["column"], o["slot"]) for o in slots} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    act(table, seat, "leader_slot", card=recruit, column=0, slot=1)
    assert prompt(table).kind == "displace"
    act(table, seat, "displace", to="flip")
    col = pl(table, seat).columns[0]
    face_up = [s.leader for s in col.slots if s.leader]
    assert face_up == ["L12", recruit] and col.slots[1].flipped == ["L21"]
    assert len(col.slots) == 2
    assert columns_of(table, seat) == [["S12"], ["S16"]]
    check(table)


def test_build_never_stacks_a_tier1_onto_an_existing_column_QNC_081_086():
    """QNC-081/086: building a Tier 1 always opens a new column; existing stacks stay single."""
    table, seat = started(42)
    bare_province(table, seat, ["S12"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    assert all(set(o) == {"card"} for o in options(table, seat, "build"))  # no column to choose
    card = table.state.rows["t1"].pool[1]
    events = act(table, seat, "build", card=card)
    assert columns_of(table, seat) == [["S12"], [card]]
    assert any(e.type == "build" and e.data["column"] == 1 for e in events)
    check(table)


def test_leader_only_goes_into_a_column_with_a_structure_QNC_082():
    """QNC-082: recruit offers only the seat's existing columns, each of which holds a structure;
    empty column positions are never offered."""
    table, seat = started(43)
    bare_province(table, seat, ["S12"])
    hand_with(table, seat, card_of(seat, "B-RECRUIT"))
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    recruit = options(table, seat, "recruit")[0]["card"]
    act(table, seat, "recruit", card=recruit)
    slots = options(table, seat, "leader_slot")
    assert {o["column"] for o in slots} == {0}
    with pytest.raises(ActionRejected):
        act(table, seat, "leader_slot", card=recruit, column=1, slot=0)
    act(table, seat, "leader_slot", card=recruit, column=0, slot=1)
    p = pl(table, seat)
    assert p.columns[0].slots[1].leader == recruit
    assert all(c.structures for c in p.columns)
    check(table)


def test_structures_never_change_column_QNC_083():
    """QNC-083: through a build, an upgrade and a leader moved between columns, every structure
    stays in its column; columns only grow at their top."""
    table, seat = started(44)
    other = 1 - seat
    crisis_hands(table, [other])
    bare_province(table, seat, ["S11"], ["S16"])
    put_leader(table, seat, "L12", 0, 0)
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S34", "S30", "S42"])
    hand_with(table, seat, card_of(seat, "B-BUILD"), card_of(seat, "B-RECRUIT"), "A12")
    before = columns_of(table, seat)
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    t1 = table.state.rows["t1"].pool[0]
    act(table, seat, "build", card=t1)
    assert columns_of(table, seat) == before + [[t1]]
    act(table, other, "play", card=pl(table, other).hand[0])
    play_build_upgrade(table, seat, "A12")
    if prompt(table).kind == "upgrade_column":
        act(table, seat, "upgrade_column", column=0)
    assert columns_of(table, seat) == [["S11", "S34"], ["S16"], [t1]]
    act(table, other, "play", card=pl(table, other).hand[0])
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    recruit = options(table, seat, "recruit")[0]["card"]
    act(table, seat, "recruit", card=recruit)
    act(table, seat, "leader_slot", card=recruit, column=0, slot=0)
    act(table, seat, "displace", to="2:0")  # the old leader moves; structures do not
    assert pl(table, seat).columns[2].slots[0].leader == "L12"
    assert columns_of(table, seat) == [["S11", "S34"], ["S16"], [t1]]
    check(table)


def test_deck_is_face_down_and_discard_face_up_QNC_084():
    """QNC-084: every view (the owner's too) shows only the size of an Action deck; the discard
    pile, with its top card, is visible to every player."""
    table, seat = started(45, players=3)
    build = card_of(seat, "B-BUILD")
    hand_with(table, seat, build)
    act(table, seat, "play", card=build)
    act(table, seat, "build", card=table.state.rows["t1"].pool[0])
    discard = list(pl(table, seat).discard)
    assert discard[-1] == build
    for viewer in (0, 1, 2, None):
        v = table.view(viewer)["players"][seat]
        assert v["deck"] == len(pl(table, seat).deck)
        assert v["discard"] == discard
    check(table)


# -- QNC-085..087, 098, 099: structure data and building --------------------------------------------
def test_three_tiers_each_worth_one_point_more_QNC_085_098():
    """QNC-085: tiers 1-3, a tier N card gives N attribute points. QNC-098: the five structure
    types, each present in every tier of the deck."""
    assert set(STRUCTURE_TYPES) == {"settlement", "commerce", "port", "academy", "barracks"}
    for s in PACK.structures.values():
        assert s.tier in (1, 2, 3)
        assert sum(s.attributes.values()) == s.tier, s.id
        assert s.type in STRUCTURE_TYPES
    for tier in (1, 2, 3):
        assert {PACK.structures[c].type for c in structures(tier=tier)} == set(STRUCTURE_TYPES)


def test_scout_offers_the_five_structure_types_QNC_098():
    """QNC-098: scouting a structure row offers exactly the five types (and the factions)."""
    table, seat = started(46)
    for row in ("t1", "t2", "t3"):
        matches = {o["match"] for o in options(table, seat, "board") if o["action"] == "scout" and o["row"] == row}
        assert set(STRUCTURE_TYPES) <= matches
        assert matches - set(STRUCTURE_TYPES) == {f.id for f in PACK.board.factions}


def test_score_phase_scores_every_card_of_a_stack_QNC_085_097():
    """QNC-097: every card of an upgraded stack scores. QNC-085: a Tier 1 column scores 1 point,
    Tier 1+2 scores 3, Tier 1+2+3 scores 6."""
    table = new_game(players=3, seed=47)
    quiet_crisis(table)
    crisis_hands(table)
    bare_province(table, 0, ["S12"])                  # might 1
    bare_province(table, 1, ["S13", "S35"])           # might 1 | wealth 1 might 1
    bare_province(table, 2, ["S11", "S34", "S53"])    # wealth 1 | wealth 1 infl 1 | wealth 2 infl 1
    events = auto(table, until=lambda t: t.state.round == 2)
    start = next(i for i, e in enumerate(events) if e.type == "phase" and e.data["phase"] == "score")
    points = {s: sum(e.data["gained"] for e in events[start:] if e.type == "attribute" and e.data["seat"] == s)
              for s in (0, 1, 2)}
    assert points == {0: 1, 1: 3, 2: 6}
    assert pl(table, 1).tracks == {"influence": 0, "might": 2, "morale": 0, "wealth": 1}
    assert pl(table, 2).tracks == {"influence": 2, "might": 0, "morale": 0, "wealth": 4}
    check(table)


def test_build_takes_a_tier1_into_a_new_column_with_hunger_QNC_086_099():
    """QNC-086: Build puts a Tier 1 card from the pool into a new, empty column.
    QNC-099: building it gives a Hunger card, put on top of the discard pile (the Build card
    itself is discarded after it has resolved)."""
    table, seat = started(48)
    bare_province(table, seat, ["S12"])
    build = card_of(seat, "B-BUILD")
    hand_with(table, seat, build)
    hunger_before = len(table.state.hunger_deck)
    act(table, seat, "play", card=build)
    card = table.state.rows["t1"].pool[2]
    events = act(table, seat, "build", card=card)
    p = pl(table, seat)
    assert columns_of(table, seat) == [["S12"], [card]]
    assert card not in table.state.rows["t1"].pool and len(table.state.rows["t1"].pool) == 3
    hunger = [e.data["card"] for e in events if e.type == "hunger" and e.data["seat"] == seat]
    assert len(hunger) == 1 and hunger[0] in PACK.hunger
    assert len(table.state.hunger_deck) == hunger_before - 1
    assert p.discard[-2:] == [hunger[0], build]
    check(table)


def test_tier2_and_tier3_cannot_be_built_directly_QNC_087():
    """QNC-087: Build offers only Tier 1 pool cards (or the Upgrade token); a Tier 2 or Tier 3
    pool card is refused."""
    table, seat = started(49)
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    offered = {o["card"] for o in options(table, seat, "build")}
    assert offered == set(table.state.rows["t1"].pool) | {"upgrade"}
    for row in ("t2", "t3"):
        card = table.state.rows[row].pool[0]
        with pytest.raises(ActionRejected):
            act(table, seat, "build", card=card)
    check(table)


# -- QNC-088..096: Upgrade tokens ------------------------------------------------------------------
def test_upgrade_token_is_placed_on_a_column_at_once_QNC_088():
    """QNC-088: a gained Upgrade token must be placed on one of the seat's columns right away:
    the seat's only decision is which column, and the turn passes only after it is placed."""
    table, seat = started(50)
    bare_province(table, seat, ["S12"], ["S16"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert kinds(table) == [(seat, "upgrade_column")]
    assert options(table, seat) == [{"column": 0}, {"column": 1}]
    act(table, seat, "upgrade_column", column=1)
    p = pl(table, seat)
    assert [c.upgrades for c in p.columns] == [0, 1]
    assert prompt(table).seat == 1 - seat and prompt(table).kind == "turn"
    check(table)


def test_two_tokens_are_exchanged_for_next_tier_card_at_once_QNC_089_096():
    """QNC-089: a second token on a column is exchanged at once for the pool card one tier
    above, placed on that column. QNC-096: both tokens leave the column (back to the supply),
    so the next token starts a new count."""
    table, seat = started(51)
    other = 1 - seat
    crisis_hands(table, [other])
    bare_province(table, seat, ["S11"])   # Tier 1 port
    set_pool(table, "t2", ["S34", "S30", "S38"])  # one Tier 2 port
    hand_with(table, seat, card_of(seat, "B-BUILD"), "A12", "A11")
    play_build_upgrade(table, seat)  # single column: the token goes there
    assert pl(table, seat).columns[0].upgrades == 1
    assert columns_of(table, seat) == [["S11"]]
    act(table, other, "play", card=pl(table, other).hand[0])
    events = play_build_upgrade(table, seat, "A12")
    p = pl(table, seat)
    assert columns_of(table, seat) == [["S11", "S34"]]
    assert p.columns[0].upgrades == 0
    assert "S34" not in table.state.rows["t2"].pool and len(table.state.rows["t2"].pool) == 3
    assert any(e.type == "upgraded" and e.data["card"] == "S34" for e in events)
    act(table, other, "play", card=pl(table, other).hand[0])
    play_build_upgrade(table, seat, "A11")
    assert pl(table, seat).columns[0].upgrades == 1
    check(table)


def test_second_token_exchange_is_forced_no_other_choice_QNC_089():
    """QNC-089: when two tokens sit on a column and several cards match, the player must pick
    one of them; nothing else (no decline) is offered."""
    table, seat = started(52)
    bare_province(table, seat, ["S11"])
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S34", "S35", "S30"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert kinds(table) == [(seat, "upgrade_card")]
    assert [o.type for o in prompt(table).options] == ["upgrade_card", "upgrade_card"]
    check(table)


def test_upgrade_must_match_the_top_card_type_QNC_090():
    """QNC-090: the upgrade card has the type of the column's top card (an Academy column takes
    the pool's Tier 2 Academy, not the port or commerce next to it)."""
    table, seat = started(53)
    bare_province(table, seat, ["S16"])   # Tier 1 academy
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S34", "S30", "S39"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert columns_of(table, seat) == [["S16", "S39"]]
    assert PACK.structures["S39"].type == "academy"
    assert set(table.state.rows["t2"].pool) >= {"S34", "S30"}
    check(table)


def test_tier1_port_upgrades_only_to_tier2_port_QNC_091():
    """QNC-091 (rulebook example): a Tier 1 Port may only become a Tier 2 Port; with two Tier 2
    Ports and a Commerce in the pool, only the Ports are offered and the Commerce is refused."""
    table, seat = started(54)
    bare_province(table, seat, ["S11"])   # Tier 1 port
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S34", "S30", "S37"])  # port, commerce, port
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert sorted(o["card"] for o in options(table, seat, "upgrade_card")) == ["S34", "S37"]
    with pytest.raises(ActionRejected):
        act(table, seat, "upgrade_card", column=0, card="S30")
    act(table, seat, "upgrade_card", column=0, card="S37")
    assert columns_of(table, seat) == [["S11", "S37"]]
    assert PACK.structures["S37"].type == "port" and PACK.structures["S37"].tier == 2
    check(table)


def test_second_token_blocked_without_matching_pool_card_QNC_092():
    """QNC-092: a column holding one token cannot take the second if the next tier's pool has
    no card of its type; the token goes to another column instead."""
    table, seat = started(55)
    bare_province(table, seat, ["S11"], ["S16"])   # port with a token | academy
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S30", "S42", "S26"])    # no Tier 2 port
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    events = play_build_upgrade(table, seat)
    assert not any(q.kind == "upgrade_column" for q in table.state.prompts)
    assert [c.upgrades for c in pl(table, seat).columns] == [1, 1]
    assert any(e.type == "upgrade_token" and e.data["column"] == 1 for e in events)
    check(table)


def test_second_token_allowed_when_pool_matches_QNC_092():
    """QNC-092 (control): with a Tier 2 port in the pool, the port column holding one token is
    a valid target next to the other column."""
    table, seat = started(55)
    bare_province(table, seat, ["S11"], ["S16"])
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S30", "S42", "S36"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert options(table, seat, "upgrade_column") == [{"column": 0}, {"column": 1}]


def test_token_without_valid_column_is_discarded_QNC_093():
    """QNC-093: no column can legally take the token: it is discarded and nothing changes."""
    table, seat = started(56)
    bare_province(table, seat, ["S11"])
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t2", ["S30", "S42", "S26"])
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    events = play_build_upgrade(table, seat)
    assert any(e.type == "upgrade_discarded" and e.data["seat"] == seat for e in events)
    assert pl(table, seat).columns[0].upgrades == 1
    assert columns_of(table, seat) == [["S11"]]
    assert prompt(table).seat == 1 - seat and prompt(table).kind == "turn"
    check(table)


def test_tier3_column_never_takes_a_token_QNC_094():
    """QNC-094: a column topped by a Tier 3 card is never a target: the token goes to the other
    column, and with only Tier 3 columns it is discarded."""
    table, seat = started(57)
    bare_province(table, seat, ["S11", "S34", "S53"], ["S16"])
    hand_with(table, seat, card_of(seat, "B-BUILD"), "A12")
    events = play_build_upgrade(table, seat)
    assert [c.upgrades for c in pl(table, seat).columns] == [0, 1]
    assert not any(q.kind == "upgrade_column" for q in table.state.prompts)
    table2, seat2 = started(57)
    bare_province(table2, seat2, ["S11", "S34", "S53"])
    hand_with(table2, seat2, card_of(seat2, "B-BUILD"))
    events = play_build_upgrade(table2, seat2)
    assert any(e.type == "upgrade_discarded" for e in events)
    assert pl(table2, seat2).columns[0].upgrades == 0
    check(table)
    check(table2)


def test_first_token_ignores_the_pool_QNC_095():
    """QNC-095: the first token may go on a column below Tier 3 even when the next tier's pool
    holds no card of its type."""
    table, seat = started(58)
    bare_province(table, seat, ["S11"])
    set_pool(table, "t2", ["S30", "S42", "S26"])   # no Tier 2 port
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    events = play_build_upgrade(table, seat)
    assert pl(table, seat).columns[0].upgrades == 1
    assert not any(e.type == "upgrade_discarded" for e in events)
    check(table)


def test_tier2_to_tier3_upgrade_and_tokens_return_QNC_089_096():
    """QNC-089/096: a Tier 2 column with two tokens takes the matching Tier 3 pool card; the
    column is left with no token."""
    table, seat = started(59)
    bare_province(table, seat, ["S11", "S34"])
    pl(table, seat).columns[0].upgrades = 1
    set_pool(table, "t3", ["S49", "S53", "S56"])   # one Tier 3 port
    hand_with(table, seat, card_of(seat, "B-BUILD"))
    play_build_upgrade(table, seat)
    assert columns_of(table, seat) == [["S11", "S34", "S53"]]
    assert pl(table, seat).columns[0].upgrades == 0
    check(table)
