"""Free board actions (QNC-149..161) and factions / diplomacy (QNC-162..172).

Each test arranges a situation with the harness, then plays it through `Table.act`.
Note: `table.act` replaces `table.state` with a new copy, so players are re-read after
every action.
"""
from __future__ import annotations

import pytest

from core.errors import ActionRejected
from plugins.new_capital.content import CARD_KINDS, LEADER_TYPES, STRUCTURE_TYPES
from tests.new_capital.harness import (
    PACK, _refresh_turn_prompt, act, add_column, auto, card_of, check, kinds, move_card, new_game,
    options, pl, prompt, put_leader, set_hand, set_pool, where,
)

FACTIONS = ("crown", "guild", "temple", "march")


# -- helpers ---------------------------------------------------------------------------------
def turn_seat(table) -> int:
    p = prompt(table)
    assert p is not None and p.kind == "turn", kinds(table)
    return p.seat


def other_seat(table, seat: int) -> int:
    return (seat + 1) % len(table.state.players)


def refresh(table) -> None:
    """Rebuild the open turn prompt after an arrangement (the engine's own offer_turn)."""
    _refresh_turn_prompt(table)


def set_diplomacy(table, seat: int, track0: int, track1: int) -> None:
    pl(table, seat).diplomacy = [track0, track1]
    refresh(table)


def board_opts(table, seat: int) -> list[dict]:
    return options(table, seat, "board")


def board_names(table, seat: int) -> set[str]:
    return {o["action"] for o in board_opts(table, seat)}


def types_offered(table, seat: int) -> set[str]:
    return {o.type for o in table.legal(seat)}


def stack_row(table, row: str, pool: list[str], deal: list[str]) -> None:
    """Arrange a common row: its pool, and the next cards its deck deals, in dealing order."""
    set_pool(table, row, pool)
    r = table.state.rows[row]
    for c in deal:
        src = where(table, c)
        if src == f"{row}.deck":
            r.deck.remove(c)
        else:
            move_card(table, c, f"{row}.deck")
            r.deck.remove(c)
    r.deck.extend(reversed(deal))  # the deck deals from the end of the list


def ev(events, type_: str) -> list:
    return [e for e in events if e.type == type_]


def pass_turn(table, seat: int) -> None:
    """Play one card (a plain crisis card when there is one) and answer until the next turn."""
    cards = [o["card"] for o in options(table, seat, "play")]
    plain = [c for c in cards if not PACK.action(c).effects and PACK.action(c).kind != "improvement"]
    act(table, seat, "play", card=(plain or cards)[0])
    auto(table, until=lambda t: prompt(t) is not None and prompt(t).kind == "turn")


def hunger_to_hand(table, seat: int, *cards: str) -> None:
    set_hand(table, seat, list(pl(table, seat).hand) + list(cards))


# -- QNC-149..153: the board action slot -------------------------------------------------
def test_the_four_board_actions_are_offered_in_the_turn_prompt_QNC_149():
    """QNC-149: scout, resupply, faction action and support action, and nothing else."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    pl(table, seat).diplomacy = [0, 0]                     # in Diplomacy: a faction action exists
    hunger_to_hand(table, seat, "H01")                     # a Hunger card: a support action exists
    assert board_names(table, seat) == {"scout", "resupply", "faction", "support"}
    assert types_offered(table, seat) == {"play", "board"}
    check(table)


def test_a_board_action_comes_before_the_card_and_the_same_seat_still_plays_QNC_150():
    """QNC-150: only on one's own turn, before the card; afterwards the same seat must play."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    other = other_seat(table, seat)
    set_hand(table, seat, [card_of(seat, "B-MORALE"), card_of(seat, "B-MOBILIZE")])
    # not on someone else's turn
    with pytest.raises(ActionRejected):
        act(table, other, "board", action="resupply")
    act(table, seat, "board", action="resupply")
    # the turn is not over: the same seat must now play a card (no skip, no second board action)
    assert kinds(table) == [(seat, "turn")]
    assert types_offered(table, seat) == {"play"}
    assert pl(table, seat).played == 0
    act(table, seat, "play", card=card_of(seat, "B-MORALE"))
    assert turn_seat(table) == other
    assert pl(table, seat).played == 1
    check(table)


def test_no_board_action_while_a_played_card_resolves_QNC_150():
    """QNC-150: the board action is taken right before the card, not in the middle of its effects."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-RESEARCH"), card_of(seat, "B-MORALE")])
    act(table, seat, "play", card=card_of(seat, "B-RESEARCH"))
    assert kinds(table) == [(seat, "research")]
    assert types_offered(table, seat) == {"research"}
    check(table)


@pytest.mark.parametrize("which", ["resupply", "scout", "faction", "support"])
def test_one_board_action_per_round_marked_by_the_cube_QNC_151(which):
    """QNC-151: the cube moves to the chosen slot; no second board action that round."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    other = other_seat(table, seat)
    set_hand(table, seat, [card_of(seat, "B-MORALE"), card_of(seat, "B-MOBILIZE"), "H03"])
    set_diplomacy(table, seat, 0, 0)
    params = {"resupply": {}, "scout": {"row": "t1", "match": "port"},
              "faction": {"faction": "diplomacy"}, "support": {"card": "H03"}}[which]
    assert pl(table, seat).board_cube == "top"
    act(table, seat, "board", action=which, **params)
    auto(table, until=lambda t: prompt(t).kind == "turn")  # answer any prompt of the action
    assert pl(table, seat).board_cube == which
    assert turn_seat(table) == seat and types_offered(table, seat) == {"play"}
    act(table, seat, "play", card=card_of(seat, "B-MORALE"))
    # the other seat still has its own board action
    assert turn_seat(table) == other
    assert "resupply" in board_names(table, other)
    pass_turn(table, other)
    # back to the first seat, same round: no board action any more
    assert turn_seat(table) == seat and table.state.round == 1
    assert board_opts(table, seat) == []
    with pytest.raises(ActionRejected):
        act(table, seat, "board", action="resupply")
    check(table)


def test_the_board_cube_goes_back_to_the_top_slot_at_the_end_of_the_round_QNC_152():
    """QNC-152: used in round 1, free again in round 2."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    act(table, seat, "board", action="resupply")
    assert pl(table, seat).board_cube == "resupply"
    seen = []

    def watch(t, p):
        seen.append((t.state.phase, t.state.players[seat].board_cube))
        return None

    auto(table, until=lambda t: t.state.round == 2, policy=watch)
    # still on the slot for the rest of round 1 ...
    assert all(cube == "resupply" for phase, cube in seen if phase in ("development", "crisis", "score"))
    # ... and back on top in round 2, with the board actions on offer again
    assert pl(table, seat).board_cube == "top"
    auto(table, until=lambda t: prompt(t).kind == "turn" and prompt(t).seat == seat)
    assert "resupply" in board_names(table, seat)
    check(table)


def test_resupply_draws_the_top_two_cards_of_the_action_deck_QNC_153():
    """QNC-153."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    p = pl(table, seat)
    top_two = [p.deck[-1], p.deck[-2]]
    hand, deck = len(p.hand), len(p.deck)
    act(table, seat, "board", action="resupply")
    p = pl(table, seat)
    assert len(p.hand) == hand + 2 and len(p.deck) == deck - 2
    assert all(c in p.hand for c in top_two)
    check(table)


# -- QNC-154..157: Scout -----------------------------------------------------------------
def test_scout_names_a_type_or_faction_and_one_row_QNC_154():
    """QNC-154 (and the QNC-157 reading of 'colour'): structure rows take a structure type or
    a faction, the Leader row a leader type or a faction, the Advanced row a card colour."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    scouts = [o for o in board_opts(table, seat) if o["action"] == "scout"]
    by_row: dict[str, set] = {}
    for o in scouts:
        by_row.setdefault(o["row"], set()).add(o["match"])
    assert set(by_row) == {"t1", "t2", "t3", "adv", "leaders"}
    for row in ("t1", "t2", "t3"):
        assert by_row[row] == set(STRUCTURE_TYPES) | set(FACTIONS)
    assert by_row["leaders"] == set(LEADER_TYPES) | set(FACTIONS)
    assert by_row["adv"] == set(CARD_KINDS)
    # a scout without the named kind is not an action
    with pytest.raises(ActionRejected):
        act(table, seat, "board", action="scout", row="t1")
    check(table)


def test_scout_discards_the_whole_row_and_deals_new_cards_QNC_155():
    """QNC-155: only the chosen row changes; its three cards go to its discard pile."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    stack_row(table, "t2", ["S26", "S27", "S28"], ["S30", "S34", "S35"])
    others = {k: list(r.pool) for k, r in table.state.rows.items() if k != "t2"}
    events = act(table, seat, "board", action="scout", row="t2", match="commerce")
    rows = table.state.rows
    assert sorted(rows["t2"].pool) == ["S30", "S34", "S35"]
    assert sorted(rows["t2"].discard) == ["S26", "S27", "S28"]
    assert {k: list(r.pool) for k, r in rows.items() if k != "t2"} == others
    assert ev(events, "scout")[0].data["match"] == "commerce"
    check(table)


def test_scout_redeals_until_a_matching_type_appears_QNC_156():
    """QNC-156: the first new cards hold no port, so the row is discarded and dealt again."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    stack_row(table, "t1", ["S01", "S02", "S03"], ["S04", "S05", "S06", "S07", "S08", "S11", "S12"])
    act(table, seat, "board", action="scout", row="t1", match="port")
    row = table.state.rows["t1"]
    assert sorted(row.pool) == ["S07", "S08", "S11"]
    assert sorted(row.discard) == ["S01", "S02", "S03", "S04", "S05", "S06"]
    check(table)


def test_scout_redeals_until_a_matching_faction_appears_QNC_156():
    """QNC-156 with a faction: leaders row, named faction temple."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    non_temple = [l for l in ("L01", "L02", "L13", "L14", "L37", "L38", "L39", "L15", "L40")]
    stack_row(table, "leaders", non_temple[:3], non_temple[3:] + ["L27", "L05", "L06"])
    act(table, seat, "board", action="scout", row="leaders", match="temple")
    row = table.state.rows["leaders"]
    assert any(PACK.leaders[c].faction == "temple" for c in row.pool)
    assert sorted(row.pool) == ["L05", "L06", "L27"]  # the third deal
    assert len(row.discard) == 9
    check(table)


def test_scout_reshuffles_the_discards_to_find_the_only_match_QNC_156():
    """QNC-156: the only Tier 3 port left is in the row's discard pile; the redeal goes
    through the deck, reshuffles the discards and stops when the port shows."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    ports = [s for s in PACK.structures if PACK.structures[s].tier == 3 and PACK.structures[s].type == "port"]
    keep = ports[0]
    for c in ports[1:]:
        move_card(table, c, "box")
    move_card(table, keep, "t3.discard")
    row = table.state.rows["t3"]
    while len(row.pool) < 3:
        row.pool.append(row.deck.pop())
    assert not any(PACK.structures[c].type == "port" for c in table.state.rows["t3"].pool)
    act(table, seat, "board", action="scout", row="t3", match="port")
    assert keep in table.state.rows["t3"].pool
    check(table)


def test_scout_stops_when_no_matching_card_exists_QNC_157():
    """QNC-157 / ruling QNC-R4: no Tier 1 port anywhere in the row: the redeal stops, the row
    is dealt normally and the same seat goes on to play its card."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    row = table.state.rows["t1"]
    for c in structures_of(tier=1, type_="port"):
        if c in row.pool:
            row.pool.remove(c)
            table.state.box.append(c)
        else:
            move_card(table, c, "box")
    while len(row.pool) < 3:
        row.pool.append(row.deck.pop())
    events = act(table, seat, "board", action="scout", row="t1", match="port")
    row = table.state.rows["t1"]
    assert len(row.pool) == 3
    assert not any(PACK.structures[c].type == "port" for c in row.pool)
    assert ev(events, "scout")
    assert kinds(table) == [(seat, "turn")] and types_offered(table, seat) == {"play"}
    check(table)


def test_scout_stops_when_the_row_has_only_three_cards_left_QNC_157():
    """QNC-157: deck and discards hold nothing but the same three non-matching cards."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    row = table.state.rows["t1"]
    set_pool(table, "t1", ["S01", "S06", "S16"])  # settlement, commerce, academy
    for c in list(row.deck):
        move_card(table, c, "box")
    kept = list(row.pool)
    events = act(table, seat, "board", action="scout", row="t1", match="port")
    row = table.state.rows["t1"]
    assert sorted(row.pool) == sorted(kept)
    assert ev(events, "scout")
    assert kinds(table) == [(seat, "turn")]
    check(table)


def structures_of(tier: int, type_: str) -> list[str]:
    return sorted(s.id for s in PACK.structures.values() if not s.draft and s.tier == tier and s.type == type_)


def test_scout_a_leader_type_QNC_157():
    """QNC-157 reading: 'colour' on the Leader row is the leader type."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    stack_row(table, "leaders", ["L01", "L02", "L03"], ["L04", "L05", "L06", "L13", "L14", "L09"])
    act(table, seat, "board", action="scout", row="leaders", match="crisis")
    pool = table.state.rows["leaders"].pool
    assert sorted(pool) == ["L09", "L13", "L14"]
    check(table)


# -- QNC-158/169/170/171: Faction Action -----------------------------------------------------
def test_faction_action_of_the_favoring_faction_QNC_158():
    """QNC-158: Favored by the Crown (track 0 at -5): only the Crown's action is offered, and
    it resolves the Crown's effects (demo: 1 influence and 1 control token)."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_diplomacy(table, seat, -5, 2)
    facs = [o["faction"] for o in board_opts(table, seat) if o["action"] == "faction"]
    assert facs == ["crown"]
    before = pl(table, seat).tracks["influence"], pl(table, seat).reserve_control
    act(table, seat, "board", action="faction", faction="crown")
    p = pl(table, seat)
    assert (p.tracks["influence"], p.reserve_control) == (before[0] + 1, before[1] + 1)
    assert p.board_cube == "faction"
    check(table)


def test_two_favors_let_the_player_choose_which_faction_action_QNC_169_QNC_168():
    """QNC-169: favored by Crown and March, the player picks one; only that one resolves.
    QNC-168: becoming Favored on the second track makes two, one per track, no more."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, -5, 4)
    set_pool(table, "t1", ["S04", "S02", "S01"])  # S04: a March settlement
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card="S04")
    auto(table, until=lambda t: prompt(t).kind == "turn" and prompt(t).seat == seat)
    p = pl(table, seat)
    assert p.diplomacy == [-5, 5]
    facs = sorted(o["faction"] for o in board_opts(table, seat) if o["action"] == "faction")
    assert facs == ["crown", "march"]
    before = dict(p.tracks), p.reserve_power, p.reserve_control
    act(table, seat, "board", action="faction", faction="march")
    p = pl(table, seat)
    assert p.tracks["might"] == before[0]["might"] + 1 and p.reserve_power == before[1] + 1
    assert p.tracks["influence"] == before[0]["influence"] and p.reserve_control == before[2]
    check(table)


def test_in_diplomacy_the_diplomacy_action_is_the_faction_action_QNC_170():
    """QNC-170: both cubes on the centre: the Diplomacy action (demo: a power or control token,
    then draw 1) is offered, and no faction's own action."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_diplomacy(table, seat, 0, 0)
    facs = [o["faction"] for o in board_opts(table, seat) if o["action"] == "faction"]
    assert facs == ["diplomacy"]
    hand = len(pl(table, seat).hand)
    act(table, seat, "board", action="faction", faction="diplomacy")
    assert kinds(table) == [(seat, "choice")]
    act(table, seat, "choice", option=1)
    p = pl(table, seat)
    assert p.reserve_control == 1 and p.reserve_power == 0
    assert len(p.hand) == hand + 1
    check(table)


@pytest.mark.parametrize("cubes", [(1, 0), (0, -4), (4, 4), (-3, 2)])
def test_neither_favored_nor_in_diplomacy_no_faction_action_QNC_171(cubes):
    """QNC-171."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_diplomacy(table, seat, *cubes)
    assert "faction" not in board_names(table, seat)
    for f in (*FACTIONS, "diplomacy"):
        with pytest.raises(ActionRejected):
            act(table, seat, "board", action="faction", faction=f)
    check(table)


# -- QNC-159: Support ----------------------------------------------------------------------
def test_support_action_resolves_the_support_ability_of_a_hunger_card_QNC_159():
    """QNC-159: H03's support ability (demo: 1 morale) resolves; the card leaves the hand."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    hunger_to_hand(table, seat, "H03")
    supports = [o for o in board_opts(table, seat) if o["action"] == "support"]
    assert supports == [{"action": "support", "card": "H03"}]
    morale = pl(table, seat).tracks["morale"]
    act(table, seat, "board", action="support", card="H03")
    p = pl(table, seat)
    assert p.tracks["morale"] == morale + 1
    assert "H03" not in p.hand
    check(table)


def test_no_support_action_without_a_support_card_in_hand_QNC_159():
    """QNC-159: the support action needs a card that shows a support ability."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    assert "support" not in board_names(table, seat)
    with pytest.raises(ActionRejected):
        act(table, seat, "board", action="support", card=pl(table, seat).hand[0])
    check(table)


# -- QNC-160: the feather --------------------------------------------------------------------
def test_feather_gives_another_board_action_but_not_the_one_the_cube_covers_QNC_160():
    """QNC-160: after Resupply as the round's board action, a feather card offers the other
    board actions (not Resupply); the cube stays on Resupply."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["A04", card_of(seat, "B-MORALE")])
    act(table, seat, "board", action="resupply")
    act(table, seat, "play", card="A04")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    assert kinds(table) == [(seat, "feather")]
    offered = options(table, seat, "board")
    assert offered and all(o["action"] != "resupply" for o in offered)
    assert {o["action"] for o in offered} >= {"scout"}
    assert options(table, seat, "decline") == [{}]
    act(table, seat, "board", action="scout", row="t1", match="port")
    assert pl(table, seat).board_cube == "resupply"
    check(table)


def test_feather_before_the_regular_board_action_does_not_use_it_up_QNC_160():
    """QNC-160 reading: a feather used while the cube is on top leaves the round's board
    action available."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    other = other_seat(table, seat)
    set_hand(table, seat, ["A04", card_of(seat, "B-MORALE"), card_of(seat, "B-MOBILIZE")])
    act(table, seat, "play", card="A04")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    assert kinds(table) == [(seat, "feather")]
    assert "resupply" in {o["action"] for o in options(table, seat, "board")}
    act(table, seat, "board", action="resupply")
    auto(table, until=lambda t: prompt(t).kind == "turn" and prompt(t).seat == other)
    assert pl(table, seat).board_cube == "top"
    pass_turn(table, other)
    auto(table, until=lambda t: prompt(t).kind == "turn" and prompt(t).seat == seat)
    assert "resupply" in board_names(table, seat)
    act(table, seat, "board", action="resupply")
    assert pl(table, seat).board_cube == "resupply"
    check(table)


def test_feather_may_be_declined_QNC_160():
    """QNC-160: 'can' perform: declining leaves everything as it was."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["A04", card_of(seat, "B-MORALE")])
    act(table, seat, "play", card="A04")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    hand = list(pl(table, seat).hand)
    events = act(table, seat, "decline")
    assert not ev(events, "board_action")
    assert pl(table, seat).hand == hand and pl(table, seat).board_cube == "top"
    check(table)


# -- QNC-161: board actions never trigger leaders --------------------------------------------
def _dev_leader_province(table, seat):
    """A province whose face-up development leaders react to every basic card name/kind."""
    c1 = add_column(table, seat, "S01")
    c2 = add_column(table, seat, "S02")
    c3 = add_column(table, seat, "S03")
    put_leader(table, seat, "L17", 0, 1)   # Research: draw 1
    put_leader(table, seat, "L30", c1, 0)  # Research: 1 morale
    put_leader(table, seat, "L05", c1, 1)  # Administrate
    put_leader(table, seat, "L19", c2, 0)  # Build
    put_leader(table, seat, "L06", c2, 1)  # political
    put_leader(table, seat, "L41", c3, 0)  # Mobilize Army
    put_leader(table, seat, "L43", c3, 1)  # Recruit


def test_board_actions_never_trigger_leader_abilities_QNC_161():
    """QNC-161: neither the regular board action (faction action) nor the feather's board
    actions fire a leader; the card played right after does (control)."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    _dev_leader_province(table, seat)
    set_hand(table, seat, ["A04", card_of(seat, "B-MORALE"), "H02"])
    set_diplomacy(table, seat, -5, 0)
    events = act(table, seat, "board", action="faction", faction="crown")
    assert not ev(events, "leader")
    events = act(table, seat, "play", card="A04")
    events += act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    assert kinds(table) == [(seat, "feather")]
    assert not ev(events, "leader")  # nothing fired yet: the card is still resolving
    events = act(table, seat, "board", action="support", card="H02")
    auto(table, until=lambda t: prompt(t).kind == "turn")
    fired = [e.data["card"] for e in ev(events, "leader")]
    # only the Research leaders, once each, for the card; the support action adds nothing
    assert sorted(fired) == reacting(table, seat, "A04") and "L17" in fired and "L30" in fired
    check(table)


def test_a_feather_scout_or_resupply_fires_no_leader_QNC_161():
    """QNC-161: Resupply and Scout taken through a feather card (A15 Build): only the Build
    leader fires, for the card."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    _dev_leader_province(table, seat)
    set_hand(table, seat, ["A15", card_of(seat, "B-MORALE")])
    events = act(table, seat, "board", action="resupply")
    assert not ev(events, "leader")
    events = act(table, seat, "play", card="A15")
    events += auto(table, until=until_feather(seat), policy=build_upgrade)
    events += act(table, seat, "board", action="scout", row="adv", match="warfare")
    events += auto(table, until=lambda t: prompt(t).kind == "turn")
    fired = [e.data["card"] for e in ev(events, "leader")]
    assert sorted(fired) == reacting(table, seat, "A15") and "L19" in fired
    check(table)


def reacting(table, seat, card) -> list[str]:
    """The seat's face-up development leaders that react to playing `card`."""
    from plugins.new_capital.province import province_leaders

    data = PACK.action(card)
    return sorted(l for l in province_leaders(pl(table, seat)) if PACK.leaders[l].ability.trigger == "play"
                  and PACK.leaders[l].ability.match in (data.name, data.kind))


def until_feather(seat):
    return lambda t: prompt(t) is not None and prompt(t).kind == "feather"


def build_upgrade(table, p):
    if p.kind == "build":
        return next(o for o in p.options if o.params["card"] == "upgrade")
    return None


# -- QNC-162..168, 172: factions ------------------------------------------------------------
def test_four_factions_on_two_tracks_and_every_card_has_one_QNC_162_QNC_164():
    """QNC-162: every leader and structure names one of the four factions. QNC-164: two
    tracks, one faction at each end of each."""
    ids = {f.id for f in PACK.board.factions}
    assert ids == set(FACTIONS)
    for track in (0, 1):
        assert sorted(f.end for f in PACK.board.factions if f.track == track) == [-1, 1]
    assert all(s.faction in ids for s in PACK.structures.values())
    assert all(l.faction in ids for l in PACK.leaders.values())


def test_building_moves_the_cube_toward_the_structures_faction_QNC_163():
    """QNC-163: a built Tier 1 Crown structure moves track 0 one space toward the Crown."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, 0, 0)
    set_pool(table, "t1", ["S01", "S02", "S03"])
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    events = act(table, seat, "build", card="S01")
    assert pl(table, seat).diplomacy == [-1, 0]
    assert [(e.data["track"], e.data["position"]) for e in ev(events, "diplomacy")] == [(0, -1)]
    check(table)


def test_recruiting_moves_the_cube_toward_the_leaders_faction_QNC_163():
    """QNC-163: a recruited Temple leader moves track 1 toward the Temple."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-RECRUIT"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, 0, 2)
    set_pool(table, "leaders", ["L27", "L02", "L39"])
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    act(table, seat, "recruit", card="L27")
    act(table, seat, "leader_slot", card="L27", column=0, slot=1)
    auto(table, until=lambda t: prompt(t).kind == "turn")
    assert pl(table, seat).diplomacy == [0, 1]
    check(table)


def test_upgrading_moves_the_cube_toward_the_new_structures_faction_QNC_163():
    """QNC-163: the Tier 2 card taken by an upgrade moves its faction's cube."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    col = add_column(table, seat, "S11")  # Tier 1 port
    pl(table, seat).columns[col].upgrades = 1
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, 0, 0)
    set_pool(table, "t2", ["S35", "S26", "S27"])  # S35: Guild Tier 2 port, the only port
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card="upgrade")
    if prompt(table).kind == "upgrade_column":
        act(table, seat, "upgrade_column", column=col)
    auto(table, until=lambda t: prompt(t).kind == "turn")
    p = pl(table, seat)
    assert p.columns[col].structures == ["S11", "S35"]
    assert p.diplomacy == [1, 0]
    check(table)


def test_moving_toward_one_faction_moves_away_from_the_other_QNC_164():
    """QNC-164: at +4 (one step from the Guild), a Crown card takes the cube back to +3."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, 4, 0)
    set_pool(table, "t1", ["S01", "S02", "S03"])
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card="S01")
    assert pl(table, seat).diplomacy == [3, 0]
    check(table)


def test_reaching_the_favored_space_gives_a_seal_at_once_from_the_reserve_QNC_165_QNC_172():
    """QNC-165: the 5th space makes the player Favored and scores a seal right away (still in
    the Development phase). QNC-172: it leaves the reserve for a slot of the player board."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, -4, 0)
    set_pool(table, "t1", ["S01", "S02", "S03"])
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    events = act(table, seat, "build", card="S01")
    assert [e.data["faction"] for e in ev(events, "favored")] == ["crown"]
    assert kinds(table) == [(seat, "seal_slot")]
    assert table.state.phase == "development"
    events = act(table, seat, "seal_slot", slot=4)
    p = pl(table, seat)
    assert p.seal_slots[4] and sum(p.seal_slots) == 1
    assert p.seals_reserve == 8 and p.seals == 1
    assert ev(events, "seal")[0].data["reason"] == "favored"
    check(table)


def test_a_favored_cube_is_locked_against_administrate_QNC_166():
    """QNC-166: Administrate offers no move on the locked track."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-ADMINISTRATE"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, 5, 2)
    act(table, seat, "play", card=card_of(seat, "B-ADMINISTRATE"))
    offered = options(table, seat, "administrate")
    assert offered and all(o.get("track") != 0 for o in offered)
    act(table, seat, "administrate", track=1, direction=1)
    assert pl(table, seat).diplomacy == [5, 3]
    check(table)


def test_a_favored_cube_is_locked_against_card_effects_QNC_166():
    """QNC-166: a card's diplomacy effect (A43 Send Envoy) cannot move a locked cube; with
    both cubes locked it moves nothing."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["A43", card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, -5, 5)
    events = act(table, seat, "play", card="A43")
    auto(table, until=lambda t: prompt(t).kind == "turn")
    assert pl(table, seat).diplomacy == [-5, 5]
    assert not ev(events, "diplomacy")
    check(table)


def test_a_card_of_a_locked_tracks_faction_moves_no_cube_QNC_167_QNC_166():
    """QNC-167: favored by the Crown, a Guild structure (same track) moves nothing, on
    either track; QNC-166 the cube stays on its Favored space."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, -5, 1)
    set_pool(table, "t1", ["S02", "S01", "S03"])  # S02: Guild
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    events = act(table, seat, "build", card="S02")
    assert pl(table, seat).diplomacy == [-5, 1]
    assert not ev(events, "diplomacy") and not ev(events, "favored")
    check(table)


def test_at_most_two_favors_one_per_track_QNC_168():
    """QNC-168: with both tracks locked at opposite ends, new cards of any faction change
    nothing: the favors stay exactly Crown and March."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-RECRUIT"), card_of(seat, "B-MORALE")])
    set_diplomacy(table, seat, -5, 5)
    set_pool(table, "leaders", ["L13", "L27", "L02"])  # guild, temple, crown
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    act(table, seat, "recruit", card="L27")
    act(table, seat, "leader_slot", card="L27", column=0, slot=1)
    auto(table, until=lambda t: prompt(t).kind == "turn")
    assert pl(table, seat).diplomacy == [-5, 5]
    seat2 = turn_seat(table)
    # next turn of `seat` in this round: its faction actions
    pass_turn(table, seat2)
    auto(table, until=lambda t: prompt(t).kind == "turn" and prompt(t).seat == seat)
    facs = sorted(o["faction"] for o in board_opts(table, seat) if o["action"] == "faction")
    assert facs == ["crown", "march"]
    check(table)
