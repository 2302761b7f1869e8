"""FAQ answers and the 20 steps of the Round Anatomy, each played through the engine.

Every test arranges a small situation with the harness, then lets the engine run it
(`act`/`auto`) and checks the events it raised and the state it left.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from core import Action, view_events
from plugins.new_capital.province import turn_order
from plugins.new_capital.views import zones
from tests.new_capital.harness import (
    PACK,
    act,
    add_column,
    auto,
    card_of,
    check,
    kinds,
    move_card,
    new_game,
    options,
    pl,
    prompt,
    put_leader,
    set_hand,
    set_pool,
    structures,
    until_prompt,
    where,
)

# -- local helpers -------------------------------------------------------------------------
def flip_leaders(table) -> None:
    """Arrange: turn every face-up leader face down (a state a displacement can make), so
    the random draft leaders add no ability to a test that counts totals or points."""
    for p in table.state.players:
        for col in p.columns:
            for slot in col.slots:
                if slot.leader:
                    slot.flipped.append(slot.leader)
                    slot.leader = None


def stack(table, seat: int, column: int, *cards: str) -> None:
    """Arrange: put structures on top of an existing column (taken from wherever they are)."""
    for c in cards:
        src = where(table, c)
        assert src and not src.endswith("province")
        zones(table.state)[src].remove(c)
    pl(table, seat).columns[column].structures.extend(cards)


def hand_of(seat: int, *basics: str) -> list[str]:
    return [card_of(seat, b) for b in basics]


def pick(p, type: str, **params) -> Action:
    """The option of prompt `p` of this type whose params include `params`."""
    for o in p.options:
        if o.type == type and all(o.params.get(k) == v for k, v in params.items()):
            return o
    raise AssertionError(f"no {type} {params} among {[(o.type, dict(o.params)) for o in p.options]}")


def scripted(plays: dict | None = None, answers: dict | None = None, log: list | None = None):
    """A policy for `auto`: `plays[seat]` is what the seat does on its turns, in order (a card
    id to play, or a dict of board-action params taken before the next card); `answers[kind]`
    is a callable (table, prompt) -> Action | None. Every prompt answered is logged."""
    plays = {s: list(v) for s, v in (plays or {}).items()}
    answers = answers or {}

    def policy(table, p):
        if log is not None:
            log.append((p.seat, p.kind))
        if p.kind == "turn" and plays.get(p.seat):
            item = plays[p.seat][0]
            if isinstance(item, dict):
                plays[p.seat].pop(0)
                return pick(p, "board", **item)
            plays[p.seat].pop(0)
            return pick(p, "play", card=item)
        if p.kind in answers:
            return answers[p.kind](table, p)
        return None

    return policy


def index_of(events, type: str, start: int = 0, **match) -> int:
    for i in range(start, len(events)):
        e = events[i]
        if e.type == type and all(e.data.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {type} {match} after position {start}")


def play_round(table, policy=None) -> list:
    """Answer prompts until the next round has started (its draws done, first turn open) or
    the game is over; returns every event on the way."""
    r = table.state.round
    return auto(table, policy=policy, until=lambda t: t.state.round > r)


def game(players: int = 3, seed: int = 2, flip: bool = True):
    """A table at the first turn of round 1, with the draft leaders flipped."""
    table = new_game(players=players, seed=seed)
    if flip:
        flip_leaders(table)
    return table


def crisis_only_hands(table) -> dict[int, list[str]]:
    """Each seat plays four face-down cards without effects or prompts."""
    return {s: hand_of(s, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE") for s in range(len(table.state.players))}


# == FAQ ===================================================================================
@pytest.mark.parametrize("row,card_basic,answer", [
    ("adv", "B-RESEARCH", "research"),
    ("leaders", "B-RECRUIT", "recruit"),
    ("t1", "B-BUILD", "build"),
])
@pytest.mark.parametrize("deck_empty", [False, True])
def test_pool_card_taken_is_replaced_at_once_and_empty_deck_is_rebuilt_from_discards_QNC_245(
        row, card_basic, answer, deck_empty):
    """QNC-245: a card taken from a common pool is replaced from that pool's deck before the
    turn goes on; when the pool's deck is empty, its discards are shuffled into a new deck."""
    table = game(players=2, seed=4)
    seat = table.state.first
    card = card_of(seat, card_basic)
    set_hand(table, seat, [card])
    r = table.state.rows[row]
    if deck_empty:
        for c in list(r.deck):
            move_card(table, c, f"{row}.discard")
    old_pool, old_deck, old_discard = list(r.pool), list(r.deck), list(r.discard)
    taken = old_pool[1]
    act(table, seat, "play", card=card)
    events = act(table, seat, answer, card=taken)
    if prompt(table, seat) is not None and prompt(table, seat).kind == "leader_slot":
        events += act(table, seat, "leader_slot", card=taken, column=0, slot=1)
    r = table.state.rows[row]
    assert taken not in r.pool
    assert len(r.pool) == 3
    assert [c for c in r.pool if c in old_pool] == [c for c in old_pool if c != taken]
    new = [c for c in r.pool if c not in old_pool]
    assert len(new) == 1
    if deck_empty:
        assert new[0] in old_discard
        assert any(e.type == "row_reshuffle" and e.data["row"] == row for e in events)
        assert r.discard == []
        assert sorted(r.deck + new) == sorted(old_discard)
    else:
        assert new[0] == old_deck[-1]  # the top of that pool's own deck
        assert r.deck == old_deck[:-1]
    # replaced at once: the pool is full again before the other seat's turn
    assert kinds(table) == [(1 - seat, "turn")]
    check(table)


def test_tier2_pool_refills_after_an_upgrade_takes_a_card_QNC_245():
    """QNC-245: the Tier 2 pool, emptied of its deck, refills from its shuffled discards when
    an upgrade takes one of its cards."""
    table = game(players=2, seed=4)
    seat = table.state.first
    p = pl(table, seat)
    kind = PACK.structures[p.columns[0].structures[0]].type
    match = [c for c in structures(tier=2, type=kind)][:1]
    others = [c for c in structures(tier=2) if PACK.structures[c].type != kind][:2]
    set_pool(table, "t2", match + others)
    r = table.state.rows["t2"]
    for c in list(r.deck):
        move_card(table, c, "t2.discard")
    old_discard = list(r.discard)
    p.columns[0].upgrades = 1
    build = card_of(seat, "B-BUILD")
    set_hand(table, seat, [build])
    act(table, seat, "play", card=build)
    events = act(table, seat, "build", card="upgrade")
    assert pl(table, seat).columns[0].structures[-1] == match[0]
    assert any(e.type == "row_reshuffle" and e.data["row"] == "t2" for e in events)
    assert len(table.state.rows["t2"].pool) == 3
    assert [c for c in table.state.rows["t2"].pool if c not in others][0] in old_discard
    check(table)


@pytest.mark.parametrize("basic", ["B-MOBILIZE", "A24"])
def test_face_down_card_stays_hidden_from_opponents_until_the_reveal_QNC_246(basic):
    """QNC-246: a face-down card (its id, and so its values) reaches neither the other seats
    nor a spectator, in the state view or in the events, until the Crisis reveal shows it;
    a card with its own effect (A24) shows nothing of it when played either."""
    table = game(players=3, seed=1)
    a = table.state.first
    others = [s for s in range(3) if s != a]
    card = basic if basic.startswith("A") else card_of(a, basic)
    set_hand(table, a, [card] + hand_of(a, "B-ELITE", "B-INTIMIDATE", "B-MORALE"))
    pl(table, a).reserve_power = 1  # its bid prompt holds the flow after the reveal
    events = act(table, a, "play", card=card)
    for viewer in others + [None]:
        seen = table.view(viewer)
        assert seen["players"][a]["face_down"] == 1
        assert card not in json.dumps(seen)
        assert [(e["type"], e["data"]) for e in view_events(events, viewer)] == [
            ("action", {"seat": a, "prompt": "turn"}), ("play", {"seat": a, "face_up": False})]
    assert table.view(a)["players"][a]["face_down"] == [card]
    assert card in json.dumps(view_events(events, a))
    more = auto(table, until=until_prompt("bid_power"))
    for viewer in others + [None]:
        assert card not in json.dumps(view_events(more[:index_of(more, "reveal")], viewer))
    reveal = more[index_of(more, "reveal")]
    assert reveal.to is None and card in reveal.data["cards"][a]
    for viewer in others + [None]:
        assert card in json.dumps(view_events([reveal], viewer))
        assert card in table.view(viewer)["players"][a]["face_down"]
    check(table)


@pytest.mark.parametrize("situation", ["all_tier3", "token_without_match"])
def test_upgrade_token_without_valid_target_is_discarded_QNC_247(situation):
    """QNC-247: an Upgrade token that has no valid target is discarded: no prompt, no token
    stays anywhere, and the game goes on."""
    table = game(players=2, seed=6)
    seat = table.state.first
    p = pl(table, seat)
    kind = PACK.structures[p.columns[0].structures[0]].type
    if situation == "all_tier3":
        stack(table, seat, 0, structures(tier=2, type=kind)[0], structures(tier=3, type=kind)[0])
    else:
        p.columns[0].upgrades = 1
        set_pool(table, "t2", [c for c in structures(tier=2) if PACK.structures[c].type != kind][:3])
    before = p.columns[0].upgrades
    build = card_of(seat, "B-BUILD")
    set_hand(table, seat, [build, card_of(seat, "B-MORALE")])
    act(table, seat, "play", card=build)
    events = act(table, seat, "build", card="upgrade")
    assert [e.type for e in events].count("upgrade_discarded") == 1
    assert not any(e.type == "upgrade_token" for e in events)
    assert pl(table, seat).columns[0].upgrades == before
    assert kinds(table) == [(1 - seat, "turn")]
    check(table)


def test_structure_with_rebellion_can_still_be_upgraded_QNC_248():
    """QNC-248: a column holding a Rebellion token takes Upgrade tokens and is upgraded to the
    next tier; the Rebellion token stays."""
    table = game(players=2, seed=6)
    seat = table.state.first
    p = pl(table, seat)
    kind = PACK.structures[p.columns[0].structures[0]].type
    target = structures(tier=2, type=kind)[0]
    set_pool(table, "t2", [target] + [c for c in structures(tier=2) if PACK.structures[c].type != kind][:2])
    p.columns[0].rebellion = 1
    build, build2 = card_of(seat, "B-BUILD"), "A12"
    set_hand(table, seat, [build, build2, card_of(seat, "B-MORALE")])
    act(table, seat, "play", card=build)
    events = act(table, seat, "build", card="upgrade")  # a single column: placed at once
    assert any(e.type == "upgrade_token" and e.data["column"] == 0 for e in events)
    assert pl(table, seat).columns[0].upgrades == 1
    auto(table, until=until_prompt("turn", seat))
    act(table, seat, "play", card=build2)
    events = act(table, seat, "build", card="upgrade")
    col = pl(table, seat).columns[0]
    assert any(e.type == "upgraded" and e.data["card"] == target for e in events)
    assert col.structures[-1] == target and col.upgrades == 0
    assert col.rebellion == 1
    check(table)


def test_favored_cube_is_locked_and_favour_is_never_lost_QNC_249():
    """QNC-249: once Favored, the cube never moves again: a card of the opposite faction does
    not move it and Administrate no longer offers that track."""
    table = game(players=2, seed=6)
    seat = table.state.first
    p = pl(table, seat)
    p.diplomacy = [-4, 0]  # one step from the Crown's Favored space
    guild = [c for c in structures(tier=1) if PACK.structures[c].faction == "guild"][:3]
    set_pool(table, "t1", guild)
    hand = [card_of(seat, "B-ADMINISTRATE"), card_of(seat, "B-BUILD"), "A16", card_of(seat, "B-MORALE")]
    set_hand(table, seat, hand)
    act(table, seat, "play", card=hand[0])
    events = act(table, seat, "administrate", track=0, direction=-1)
    assert any(e.type == "favored" and e.data["faction"] == "crown" for e in events)
    auto(table, until=until_prompt("turn", seat))
    assert pl(table, seat).diplomacy[0] == -5
    act(table, seat, "play", card=hand[1])
    events = act(table, seat, "build", card=guild[0])  # a guild card pulls track 0 toward +1
    assert pl(table, seat).diplomacy[0] == -5
    assert not any(e.type == "diplomacy" and e.data["track"] == 0 for e in events)
    auto(table, until=until_prompt("turn", seat))
    assert {"action": "faction", "faction": "crown"} in options(table, seat, "board")  # favour kept
    act(table, seat, "play", card="A16")
    p2 = prompt(table, seat)
    assert p2.kind == "administrate"
    assert p2.options and all(o.params.get("track") != 0 for o in p2.options)
    auto(table, until=lambda t: t.state.round == 2)
    assert pl(table, seat).diplomacy[0] == -5
    check(table)


@pytest.mark.parametrize("card,option,expect", [
    ("A09", 0, "recruit"),
    ("A09", 1, "build"),
    ("A05", 0, "draw"),
    ("A05", 1, "attribute"),
])
def test_connecting_symbol_lets_the_player_take_any_linked_action_QNC_250(card, option, expect):
    """QNC-250: every action joined by a connecting symbol is offered, and the one chosen is
    the one that happens (the others do not)."""
    table = game(players=2, seed=3)
    seat = table.state.first
    set_hand(table, seat, [card, card_of(seat, "B-MORALE")])
    events = act(table, seat, "play", card=card)
    if card == "A05":
        events += act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    p = prompt(table, seat)
    assert p.kind == "choice"
    assert sorted(o.params["option"] for o in p.options) == [0, 1]
    hand_before = len(pl(table, seat).hand)
    events = act(table, seat, "choice", option=option)
    if expect in ("recruit", "build"):
        assert prompt(table, seat).kind == expect
        other = {"recruit": "build", "build": "recruit"}[expect]
        assert all(o.type != other for o in table.legal(seat))
    elif expect == "draw":
        assert len(pl(table, seat).hand) == hand_before + 1
        assert not any(e.type == "attribute" for e in events)
    else:
        assert pl(table, seat).tracks["influence"] == 1
        assert not any(e.type == "draw" for e in events)
    check(table)


def test_point_gained_during_the_reset_step_triggers_its_own_reset_QNC_253():
    """QNC-253: during the reset step, a point gained from the reset itself (here: the seal
    covers an Alert slot, and the Learning Alert gives a point) that fills another track
    still gives that track's bonus and seal and resets it, in the same step."""
    table = game(players=2, seed=8)
    seat = table.state.first
    for s in range(2):
        set_hand(table, s, hand_of(s, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE"))
    p = pl(table, seat)
    p.tracks.update(influence=5, wealth=5)
    auto(table, until=until_prompt("reset_track", seat))
    pl(table, seat).tracks["morale"] = 4  # arranged at the reset step, after structures scored
    events = act(table, seat, "reset_track", track="influence")
    assert prompt(table, seat).kind == "diplomacy"  # the Influence bonus
    events += table.act(seat, prompt(table, seat).options[0])
    assert prompt(table, seat).kind == "seal_slot"
    assert PACK.board.seal_slots[2] is True
    events += act(table, seat, "seal_slot", slot=2)
    assert prompt(table, seat).kind == "attr_track"
    events += act(table, seat, "attr_track", track="morale")
    assert pl(table, seat).tracks["morale"] == 5
    p = prompt(table, seat)
    assert p.kind == "reset_track"
    assert sorted(o.params["track"] for o in p.options) == ["morale", "wealth"]
    events += act(table, seat, "reset_track", track="morale")
    events += auto(table, until=lambda t: t.state.phase != "score")
    resets = [e.data["track"] for e in events if e.type == "track_reset" and e.data["seat"] == seat]
    assert resets == ["influence", "morale", "wealth"]
    seals = [e.data["reason"] for e in events if e.type == "seal" and e.data["seat"] == seat]
    assert seals == ["track:influence", "track:morale", "track:wealth"]
    assert all(pl(table, seat).tracks[t] == 0 for t in ("influence", "morale", "wealth"))
    check(table)


@pytest.mark.parametrize("board", [
    {"action": "faction", "faction": "crown"},
    {"action": "resupply"},
    {"action": "scout", "row": "adv", "match": "political"},
    {"action": "support", "card": "H03"},
])
def test_board_actions_never_trigger_leaders_so_no_loop_QNC_254(board):
    """QNC-254: a free board action (here with Development leaders matching every card kind in
    the province) fires no leader; the same leaders do fire on a card play."""
    table = game(players=2, seed=5)
    seat = table.state.first
    p = pl(table, seat)
    p.diplomacy = [-5, 0]  # Favored by the Crown
    add_column(table, seat, structures(tier=1, faction="crown")[0])
    for leader, (col, slot) in zip(("L06", "L20", "L17"), ((0, 1), (1, 0), (1, 1))):
        put_leader(table, seat, leader, col, slot)
    hand = [card_of(seat, "B-MORALE"), card_of(seat, "B-MOBILIZE"), card_of(seat, "B-RESEARCH")]
    if board["action"] == "support":
        move_card(table, "H03", f"p{seat}.hand")
    set_hand(table, seat, hand + (["H03"] if board["action"] == "support" else []))
    events = act(table, seat, "board", **board)
    while prompt(table, seat) is not None and prompt(table, seat).kind != "turn":
        events += table.act(seat, prompt(table, seat).options[0])
    assert any(e.type == "board_action" for e in events)
    assert not any(e.type == "leader" for e in events)
    assert prompt(table, seat).kind == "turn"
    assert not any(o.type == "board" for o in table.legal(seat))
    events = act(table, seat, "play", card=hand[0])  # a political card: L06 fires
    assert [e.data["card"] for e in events if e.type == "leader"] == ["L06"]
    check(table)


# == Round Anatomy =========================================================================
def test_one_round_runs_the_steps_in_rulebook_order_QNC_255_257_261_262_263_264_265_266_267_269_272_273_274():
    """A whole round through the engine: the milestones of each step come in the order of the
    Round Anatomy, and the state at the Burn, the bids and a reset is the one each step
    leaves. QNC-255 (draw 6), QNC-257 (4 plays each), QNC-261 (reveal), QNC-262 (bids),
    QNC-263/QNC-264 (warfare before political), QNC-265 (reserve icons), QNC-266 (played
    cards discarded), QNC-267/QNC-269 (structures, leaders, resets), QNC-272 (next crisis),
    QNC-273 (cube back), QNC-274 (die passes)."""
    table = new_game(players=3, seed=3, draft=False)
    events = []
    for s in range(3):
        events += table.act(s, table.legal(s)[0])
    flip_leaders(table)
    first = table.state.first
    order = turn_order(table.state)
    hands = {s: hand_of(s, "B-ELITE", "B-MORALE", "B-ENVOY", "B-INTIMIDATE", "B-MOBILIZE") for s in range(3)}
    for s, h in hands.items():
        set_hand(table, s, h)
    put_leader(table, order[1], "L02", 0, 1)  # a Score leader
    pl(table, first).reserve_power = 1
    pl(table, first).reserve_control = 1
    pl(table, order[2]).tracks["might"] = 5
    old_crisis, next_crisis = table.state.crisis, table.state.crisis_deck[0]
    plays = {s: [{"action": "resupply"}] + h[:4] if s == first else h[:4] for s, h in hands.items()}
    snap = {}

    def snapshot(name):
        def answer(t, p):
            st = t.state
            snap.setdefault(name, (st.phase, st.step, st.revealed, [len(q.hand) for q in st.players],
                                   {q.seat: list(q.face_down) for q in st.players}))
            return None
        return answer

    answers = {k: snapshot(k) for k in ("end_burn", "bid_power", "seal_slot")}
    events += auto(table, policy=scripted(plays, answers), until=lambda t: t.state.round == 2)
    played = {s: h[:4] for s, h in hands.items()}
    # state at step 5 (Burn): the four cards of each seat lie face down, the rest in hand
    phase, step, revealed, hand_sizes, face_down = snap["end_burn"]
    assert (phase, step, revealed) == ("development", "burn", False) and face_down == played
    assert hand_sizes == [1 + 2 * (s == first) for s in range(3)]  # 5 - 4, + 2 from Resupply
    # state at step 8 (bids): Development over, hands empty, the cards revealed
    assert snap["bid_power"] == ("crisis", "reserve_bids", True, [0, 0, 0], played)
    # state at step 15 (a seal): the played cards have left the table
    assert snap["seal_slot"][:2] == ("score", "reset") and snap["seal_slot"][4] == {0: [], 1: [], 2: []}

    def at(type, **m):
        return index_of(events, type, **m)

    dev = at("phase", phase="development", round=1)
    first_turn = at("action", prompt="turn")
    draws = [i for i, e in enumerate(events) if e.type == "draw" and i < first_turn]
    assert [events[i].data["seat"] for i in draws] == order  # step 1, in turn order
    assert all(len(events[i].data["cards"]) == 6 for i in draws)
    assert dev < draws[0]
    plays_ = [(i, e.data["seat"]) for i, e in enumerate(events) if e.type == "play"]
    assert [s for _, s in plays_] == order * 4  # step 3
    crisis = at("phase", phase="crisis", round=1)
    assert plays_[-1][0] < at("hands_discarded") < crisis  # steps 5-6 close Development
    reveal = at("reveal")
    bids = [i for i, e in enumerate(events) if e.type == "bid"]
    war = at("crisis_check", kind="warfare")
    pol = at("crisis_check", kind="political")
    collect = [i for i, e in enumerate(events) if e.type == "reserve" and pol < i < at("phase", phase="score")]
    assert crisis < reveal < bids[0] and bids[-1] < war < pol  # steps 7-10
    assert [events[i].data["seat"] for i in bids] == [first, first]
    assert collect, "reserve icons are collected after both checks (step 11)"
    score = at("phase", phase="score", round=1)
    assert collect[-1] < score
    leader = at("leader", start=score)
    assert events[leader].data["card"] == "L02"
    assert all(e.type == "attribute" for e in events[score + 1:leader])  # step 13 before 14
    reset = at("track_reset", seat=order[2], track="might")
    seal = at("seal", seat=order[2])
    assert leader < seal and leader < reset  # step 15 after 14
    refresh = at("phase", phase="refresh", round=1)
    new_crisis = at("crisis", start=refresh)
    die = at("first_player")
    dev2 = at("phase", phase="development", round=2)
    assert max(seal, reset) < refresh < new_crisis < die < dev2  # steps 16-20
    assert events[new_crisis].data["card"] == next_crisis
    assert events[die].data["seat"] == (first + 1) % 3
    st = table.state
    assert st.crisis == next_crisis and old_crisis in st.crises_done
    assert st.first == (first + 1) % 3
    assert all(p.board_cube == "top" for p in st.players)
    assert all(p.face_down == [] for p in st.players)
    assert all(len(p.hand) == 6 for p in st.players)
    check(table)


def test_step1_each_player_draws_six_cards_QNC_255():
    """QNC-255: at the start of each Development phase every player draws 6 cards (round 1
    and round 2, the second with a reshuffle of the discards)."""
    table = new_game(players=4, seed=11, draft=False)
    events = []
    for s in range(4):
        events += table.act(s, table.legal(s)[0])
    draws = [e for e in events if e.type == "draw"]
    assert sorted(e.data["seat"] for e in draws) == [0, 1, 2, 3]
    assert all(len(e.data["cards"]) == 6 for e in draws)
    assert all(len(p.hand) == 6 and len(p.deck) == 4 for p in table.state.players)
    assert table.state.phase == "development" and table.state.round == 1
    events = auto(table, until=lambda t: t.state.round == 2)
    start = index_of(events, "phase", phase="development", round=2)
    draws = [e for e in events[start:] if e.type == "draw"]
    assert len(draws) == 4 and all(len(e.data["cards"]) == 6 for e in draws)
    assert all(len(p.hand) == 6 for p in table.state.players)
    check(table)


def test_step3_turns_go_clockwise_until_each_player_played_four_cards_QNC_257():
    """QNC-257: regular turns run clockwise from the first player until every player has
    played exactly 4 cards; then the Development turns stop."""
    table = game(players=4, seed=7, flip=False)
    order = turn_order(table.state)
    events = auto(table, until=until_prompt("end_burn"))
    seats = [e.data["seat"] for e in events if e.type in ("play", "skip")]
    assert seats == order * 4
    assert all(p.played == 4 for p in table.state.players)
    assert not any(p.kind == "turn" for p in table.state.prompts)
    check(table)


def test_step4_extra_action_tokens_are_played_after_the_regular_turns_QNC_258():
    """QNC-258: after everyone has played 4 cards, a player holding an Extra Action token may
    use it to play one more card, before the Burn step."""
    table = game(players=3, seed=2)
    order = turn_order(table.state)
    holder = order[1]
    pl(table, holder).extra_actions = 1
    events = auto(table, until=until_prompt("extra_action"))
    assert prompt(table).seat == holder
    assert all(p.played == 4 for p in table.state.players)
    assert not any(k == "end_burn" for _, k in kinds(table))
    events += act(table, holder, "extra_action", use=True)
    assert pl(table, holder).extra_actions == 0
    p = prompt(table, holder)
    assert p.kind == "turn"
    card = next(o for o in p.options if o.type == "play").params["card"]
    events += act(table, holder, "play", card=card)
    events += auto(table, until=until_prompt("end_burn"))
    plays = [e.data["seat"] for e in events if e.type == "play"]
    assert plays == order * 4 + [holder]
    assert pl(table, holder).played == 4  # the extra card is not a regular turn
    check(table)


def burn_setup():
    """3 players; the first holds a Hunger card in hand and a Hunger card on top of its
    discard (a normal card below it); the second has a normal card on top of its discard;
    the third keeps one card in hand."""
    table = game(players=3, seed=9)
    a, b, c = turn_order(table.state)
    set_hand(table, a, hand_of(a, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE", "B-ENVOY") + ["H01"])
    move_card(table, "H01", f"p{a}.hand") if where(table, "H01") != f"p{a}.hand" else None
    move_card(table, card_of(a, "B-BRIBE"), f"p{a}.discard")
    move_card(table, "H02", f"p{a}.discard")
    set_hand(table, b, hand_of(b, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE"))
    move_card(table, card_of(b, "B-BRIBE"), f"p{b}.discard")
    set_hand(table, c, hand_of(c, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE", "B-ENVOY"))
    pl(table, a).reserve_power = 1  # a bid prompt holds the flow at the start of the Crisis phase
    plays = {a: hand_of(a, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE"),
             b: hand_of(b, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE"),
             c: hand_of(c, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE")}
    auto(table, policy=scripted(plays), until=until_prompt("end_burn"))
    return table, (a, b, c)


def test_step5_each_player_may_burn_one_card_but_never_hunger_QNC_259():
    """QNC-259: in turn order each player may burn one hand card or the top card of their
    discard pile; Hunger cards are never offered (neither in hand nor on the discard top)."""
    table, (a, b, c) = burn_setup()
    p = prompt(table)
    assert (p.seat, p.kind) == (a, "end_burn")
    offered = {(o.params.get("zone"), o.params.get("card")) for o in p.options if o.type == "burn"}
    assert offered == {("hand", card_of(a, "B-ENVOY"))}  # not H01 (hand), not H02 (top), not the card under it
    assert any(o.type == "no_burn" for o in p.options)
    events = act(table, a, "burn", zone="hand", card=card_of(a, "B-ENVOY"))
    assert pl(table, a).burned == [card_of(a, "B-ENVOY")]
    assert any(e.type == "burn" for e in events)
    p = prompt(table)
    assert (p.seat, p.kind) == (b, "end_burn")  # one burn each, in turn order
    assert ("discard", card_of(b, "B-BRIBE")) in {(o.params.get("zone"), o.params.get("card")) for o in p.options}
    act(table, b, "burn", zone="discard", card=card_of(b, "B-BRIBE"))
    assert pl(table, b).burned == [card_of(b, "B-BRIBE")] and card_of(b, "B-BRIBE") not in pl(table, b).discard
    assert (prompt(table).seat, prompt(table).kind) == (c, "end_burn")
    act(table, c, "no_burn")
    assert pl(table, c).burned == []
    assert table.state.phase == "crisis"
    check(table)


def test_step6_leftover_hand_cards_are_discarded_QNC_260():
    """QNC-260: after the Burn step every card left in hand, Hunger included, goes to its
    owner's discard pile, so all hands are empty."""
    table, (a, b, c) = burn_setup()
    left = {s: list(pl(table, s).hand) for s in (a, b, c)}
    assert "H01" in left[a]
    events = auto(table, until=until_prompt("bid_power"))
    assert table.state.phase == "crisis"
    assert any(e.type == "hands_discarded" for e in events)
    for s in (a, b, c):
        assert pl(table, s).hand == []
        for card in left[s]:
            assert where(table, card) == f"p{s}.discard"
    check(table)


def test_step7_face_down_cards_are_revealed_at_the_start_of_the_crisis_phase_QNC_261():
    """QNC-261: when the Crisis phase starts, every face-down card played this round is turned
    face up (one public reveal event; the cards now show in every view)."""
    table = game(players=3, seed=2)
    played = crisis_only_hands(table)
    for s, h in played.items():
        set_hand(table, s, h + hand_of(s, "B-ENVOY"))  # one card left for the Burn step
    pl(table, table.state.first).reserve_power = 1  # its bid prompt holds the flow after the reveal
    auto(table, policy=scripted(played), until=until_prompt("end_burn"))
    for s in played:
        assert table.view((s + 1) % 3)["players"][s]["face_down"] == 4
    events = auto(table, until=until_prompt("bid_power"))
    i = index_of(events, "reveal")
    assert index_of(events, "hands_discarded") < index_of(events, "phase", phase="crisis") < i
    assert events[i].to is None and events[i].data["cards"] == played
    assert table.state.phase == "crisis" and table.state.revealed
    for s, h in played.items():
        for viewer in (None, (s + 1) % 3):
            assert table.view(viewer)["players"][s]["face_down"] == h
    check(table)


def test_step8_reserve_tokens_are_added_in_turn_order_before_the_checks_QNC_262():
    """QNC-262: after the reveal, players in turn order add power and control reserve tokens
    (each seat both kinds before the next seat), the tokens are spent, they count in the
    crisis totals, and every bid is in before the first check."""
    table = game(players=3, seed=2)
    move_card(table, "C1C", "crisis")  # rewards: power token / card
    order = turn_order(table.state)
    for s in order:
        pl(table, s).reserve_power, pl(table, s).reserve_control = 2, 1
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    log = []
    bids = {order[0]: (2, 1), order[1]: (0, 1), order[2]: (1, 0)}
    held = {}

    def bid(kind, idx):
        def answer(t, p):
            held[(p.seat, kind)] = getattr(pl(t, p.seat), f"reserve_{kind}")
            return pick(p, f"bid_{kind}", n=bids[p.seat][idx])
        return answer

    events = play_round(table, scripted(hands, {"bid_power": bid("power", 0), "bid_control": bid("control", 1)}, log))
    assert [(s, k) for s, k in log if k.startswith("bid")] == [(s, k) for s in order for k in ("bid_power", "bid_control")]
    assert held == {(s, k): 2 if k == "power" else 1 for s in order for k in ("power", "control")}
    war = index_of(events, "crisis_check", kind="warfare")
    pol = index_of(events, "crisis_check", kind="political")
    assert index_of(events, "reveal") < min(i for i, e in enumerate(events) if e.type == "bid")
    assert max(i for i, e in enumerate(events) if e.type == "bid") < war
    for s in order:
        cards = hands[s]
        assert events[war].data["totals"][s] == sum(PACK.action(c).power for c in cards) + bids[s][0]
        assert events[pol].data["totals"][s] == sum(PACK.action(c).control for c in cards) + bids[s][1]
        # spent: what is left is the unbid tokens plus this round's gains (icons, rewards)
        icons = sum(PACK.action(c).reserve_power for c in cards)
        rewards = sum(1 for e in events[war:pol] if e.type == "reward" and e.data["seat"] == s)
        assert pl(table, s).reserve_power == 2 - bids[s][0] + icons + rewards
        assert pl(table, s).reserve_control == 1 - bids[s][1] + sum(PACK.action(c).reserve_control for c in cards)
    check(table)


def crisis_table(war_play: dict, crisis: str = "C1C"):
    """3 players; the active crisis is `crisis`; the seat at turn position i plays
    `war_play[i]` (a crisis basic) and three improvement cards."""
    table = game(players=3, seed=12)
    move_card(table, crisis, "crisis")
    order = turn_order(table.state)
    plays = {}
    for i, s in enumerate(order):
        cards = hand_of(s, war_play[i], "B-RESEARCH", "B-ADMINISTRATE", "B-BUILD")
        set_hand(table, s, cards + hand_of(s, "B-INTIMIDATE"))
        plays[s] = cards
    return table, order, plays


def test_step9_warfare_is_checked_and_resolved_in_turn_order_QNC_263():
    """QNC-263: the Warfare crisis is checked first and its penalties and rewards are handled
    player by player in turn order (not all penalties first): here the first player wins the
    reward, the second and third take the penalty."""
    table, order, plays = crisis_table({0: "B-MOBILIZE", 1: "B-MORALE", 2: "B-ELITE"})
    events = play_round(table, scripted(plays))
    war = index_of(events, "crisis_check", kind="warfare")
    pol = index_of(events, "crisis_check", kind="political")
    assert war < pol
    assert events[war].data["totals"] == {order[0]: 2, order[1]: 0, order[2]: 1}
    outcome = [(e.type, e.data["seat"]) for e in events[war:pol] if e.type in ("penalty", "reward", "bribed")]
    assert outcome == [("reward", order[0]), ("penalty", order[1]), ("penalty", order[2])]
    effects = [(e.type, e.data["seat"]) for e in events[war:pol] if e.type in ("hunger", "reserve")]
    assert effects == [("reserve", order[0]), ("hunger", order[1]), ("hunger", order[2])]
    check(table)


def test_step10_political_is_checked_after_warfare_in_turn_order_QNC_264():
    """QNC-264: the Political crisis is checked after the Warfare one is fully resolved, and
    its penalties and rewards follow turn order: penalty, reward, penalty."""
    table, order, plays = crisis_table({0: "B-MOBILIZE", 1: "B-MORALE", 2: "B-ELITE"})
    events = play_round(table, scripted(plays))
    war = index_of(events, "crisis_check", kind="warfare")
    pol = index_of(events, "crisis_check", kind="political")
    war_results = [i for i, e in enumerate(events) if e.type in ("penalty", "reward") and e.data["kind"] == "warfare"]
    assert war < min(war_results) and max(war_results) < pol
    assert events[pol].data["totals"] == {order[0]: 0, order[1]: 2, order[2]: 0}
    end = index_of(events, "phase", phase="score")
    outcome = [(e.type, e.data["seat"]) for e in events[pol:end] if e.type in ("penalty", "reward")]
    assert outcome == [("penalty", order[0]), ("reward", order[1]), ("penalty", order[2])]
    effects = [(e.type, e.data["seat"]) for e in events[pol:end] if e.type in ("hunger", "draw")]
    assert effects == [("hunger", order[0]), ("draw", order[1]), ("hunger", order[2])]
    check(table)


def test_step11_reserve_icons_become_tokens_after_both_checks_QNC_265():
    """QNC-265: after both crisis checks, each player gains the reserve tokens shown on the
    crisis cards they played; power/control icons give no tokens; the new tokens could not be
    bid in this round's step 8."""
    table = game(players=2, seed=2)
    move_card(table, "C2C", "crisis")  # rewards: a Might point / a card; no reserve tokens
    a = table.state.first
    b = 1 - a
    pl(table, a).reserve_power = 1
    cards = hand_of(a, "B-ELITE", "B-INTIMIDATE", "B-ENVOY", "B-MOBILIZE")
    other = hand_of(b, "B-MORALE", "B-BRIBE", "B-RESEARCH", "B-ADMINISTRATE")
    set_hand(table, a, cards)
    set_hand(table, b, other)
    bid_options = []

    def answer_bid(t, p):
        bid_options.append(sorted(o.params["n"] for o in p.options))
        return pick(p, "bid_power", n=0)

    events = play_round(table, scripted({a: cards, b: other}, {"bid_power": answer_bid}))
    assert bid_options == [[0, 1]]  # only the token held before this round's cards
    pol = index_of(events, "crisis_check", kind="political")
    gained = index_of(events, "reserve", seat=a)
    assert pol < gained < index_of(events, "phase", phase="score")
    assert (events[gained].data["power"], events[gained].data["control"]) == (1 + 1 + 2, 1)
    assert pl(table, a).reserve_power == 1 + 1 + 2  # ELITE 1 + INTIMIDATE 2; MOBILIZE's power: none
    assert pl(table, a).reserve_control == 1  # ENVOY 1
    assert pl(table, b).reserve_power == 0 and pl(table, b).reserve_control == 0  # MORALE's control: none
    check(table)


def test_step12_played_crisis_cards_go_to_their_owners_discard_piles_QNC_266():
    """QNC-266: at the end of the Crisis phase every played crisis card goes to its owner's
    discard pile; nothing stays face down."""
    table = game(players=3, seed=2)
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    a = table.state.first
    pl(table, a).tracks["might"] = 5  # its seal prompt holds the flow in the Score phase
    events = auto(table, policy=scripted(hands), until=until_prompt("seal_slot"))
    assert table.state.phase == "score"
    assert index_of(events, "reveal") < index_of(events, "phase", phase="score")
    for s, h in hands.items():
        assert pl(table, s).face_down == []
        for card in h:
            assert where(table, card) == f"p{s}.discard"
    assert not table.state.revealed
    check(table)


def test_step13_all_structure_points_are_scored_at_once_QNC_267():
    """QNC-267: the Score phase opens with every structure of every player scoring its
    attribute points, all before any Score leader or reset."""
    table = game(players=3, seed=2)
    move_card(table, "C1C", "crisis")  # rewards give no attribute points
    order = turn_order(table.state)
    t1 = structures(tier=1)
    add_column(table, order[0], t1[0], structures(tier=2, type=PACK.structures[t1[0]].type)[0])
    add_column(table, order[1], t1[1])
    put_leader(table, order[0], "L02", 0, 1)  # Score: 1 Influence
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    events = play_round(table, scripted(hands))
    score = index_of(events, "phase", phase="score")
    leader = index_of(events, "leader", start=score)
    window = events[score + 1:leader]
    assert window and all(e.type == "attribute" for e in window)
    got = {s: Counter() for s in order}
    for e in window:
        got[e.data["seat"]][e.data["track"]] += e.data["gained"]
    for s in order:
        want = Counter()
        for col in pl(table, s).columns:
            for c in col.structures:
                want.update(PACK.structures[c].attributes)
        assert +got[s] == +want
    check(table)


def test_step14_score_leaders_whose_condition_holds_are_scored_QNC_268():
    """QNC-268: after the structures, Score leaders whose condition is met fire (in turn
    order); a Score leader whose condition fails and other leader types do not."""
    table = game(players=2, seed=2)
    move_card(table, "C1C", "crisis")
    a = table.state.first
    b = 1 - a
    put_leader(table, a, "L02", 0, 1)  # no condition
    put_leader(table, b, "L01", 0, 1)  # 3+ columns: b has 2
    add_column(table, b, structures(tier=1)[0])
    put_leader(table, b, "L15", 1, 0)  # 2+ columns: met
    put_leader(table, b, "L17", 1, 1)  # a Development leader
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    events = play_round(table, scripted(hands))
    score = index_of(events, "phase", phase="score")
    refresh = index_of(events, "phase", phase="refresh")
    fired = [(e.data["seat"], e.data["card"]) for e in events[score:refresh] if e.type == "leader"]
    assert fired == [(a, "L02"), (b, "L15")]
    first_leader = index_of(events, "leader", start=score)
    after = [e for e in events[first_leader:refresh] if e.type == "attribute"]
    assert [(e.data["seat"], e.data["track"], e.data["gained"]) for e in after] == [(a, "influence", 1), (b, "wealth", 1)]
    check(table)


def test_step15_resets_in_turn_order_with_bonus_seal_alert_and_return_to_zero_QNC_269():
    """QNC-269: in turn order, each player with a full track takes its bonus, places a seal
    (an Alert slot gives the scenario's Alert), and the track returns to 0."""
    table = game(players=2, seed=2)
    move_card(table, "C1C", "crisis")
    a = table.state.first
    b = 1 - a
    pl(table, a).tracks["might"] = 5
    pl(table, b).tracks["might"] = 5
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    answers = {
        "seal_slot": lambda t, p: pick(p, "seal_slot", slot=2 if p.seat == a else 0),
        "attr_track": lambda t, p: pick(p, "attr_track", track="wealth"),
    }
    events = play_round(table, scripted(hands, answers))
    score = index_of(events, "phase", phase="score")
    refresh = index_of(events, "phase", phase="refresh")
    # step 13 raised only attribute events; step 15 starts with the first bonus
    start = next(i for i in range(score + 1, refresh) if events[i].type != "attribute")
    steps_of = {s: [(i, e.type) for i, e in enumerate(events[start:refresh], start)
                    if e.data.get("seat") == s and e.type in ("reserve", "seal", "attribute", "track_reset")]
                for s in (a, b)}
    a_steps = [t for _, t in steps_of[a]]
    b_steps = [t for _, t in steps_of[b]]
    assert a_steps == ["reserve", "seal", "attribute", "track_reset"]  # bonus, seal, Alert, reset
    assert b_steps == ["reserve", "seal", "track_reset"]  # slot 0 has no Alert
    assert max(i for i, _ in steps_of[a]) < min(i for i, _ in steps_of[b])  # turn order
    alert = events[steps_of[a][2][0]]
    assert events[steps_of[a][1][0]].data["alert"] is True
    assert alert.data == {"seat": a, "track": "wealth", "gained": 1, "position": pl(table, a).tracks["wealth"]}
    for s in (a, b):
        p = pl(table, s)
        assert p.tracks["might"] == 0
        assert p.seals == 1 and p.seals_reserve == 8
    assert pl(table, a).seal_slots[2] and pl(table, b).seal_slots[0]
    check(table)


def test_step16_seal_target_ends_the_game_and_skips_steps_17_to_20_QNC_270():
    """QNC-270: when a player reaches the scenario's seal target, the game ends at the end
    check of the Refresh phase: no new Crisis, no cube reset, no die pass."""
    table = game(players=2, seed=2)
    a = table.state.first
    p = pl(table, a)
    p.seal_slots[0] = p.seal_slots[1] = p.seal_slots[3] = True
    p.seals_reserve = 6
    p.tracks["might"] = 5  # 4th seal in the Score phase: the Learning target is 4
    assert PACK.scenario("learning").seals == 4
    hands = crisis_only_hands(table)
    for s, h in hands.items():
        set_hand(table, s, h)
    plays = dict(hands)
    plays[a] = [{"action": "resupply"}] + hands[a]
    crisis, deck, first = table.state.crisis, list(table.state.crisis_deck), table.state.first
    events = auto(table, policy=scripted(plays))
    st = table.state
    assert st.finished and st.result["reason"] == "seals" and st.result["winners"] == [a]
    assert st.round == 1
    refresh = index_of(events, "phase", phase="refresh")
    assert [e.type for e in events[refresh + 1:]] == ["game_end"]
    assert st.crisis == crisis and st.crisis_deck == deck  # step 18 skipped
    assert pl(table, a).board_cube == "resupply"  # step 19 skipped
    assert st.first == first  # step 20 skipped
    assert st.prompts == []
    check(table)


def test_step16_target_reached_mid_round_still_waits_for_the_end_check_QNC_270():
    """QNC-270: a seal that reaches the target during Development (a Favored seal) does not
    end the game at once; the round runs on and the game ends at step 16."""
    table = game(players=2, seed=2)
    a = table.state.first
    b = 1 - a
    p = pl(table, a)
    p.seal_slots[0] = p.seal_slots[1] = p.seal_slots[3] = True
    p.seals_reserve = 6
    p.diplomacy = [-4, 0]
    hand = hand_of(a, "B-ADMINISTRATE", "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE")
    set_hand(table, a, hand)
    set_hand(table, b, hand_of(b, "B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE"))
    act(table, a, "play", card=hand[0])
    act(table, a, "administrate", track=0, direction=-1)
    while prompt(table, a) is not None and prompt(table, a).kind == "seal_slot":
        table.act(a, prompt(table, a).options[0])
    assert pl(table, a).seals == 4
    assert not table.state.finished and table.state.phase == "development"
    events = auto(table)
    assert table.state.finished and table.state.result["reason"] == "seals"
    for ph in ("crisis", "score", "refresh"):
        assert any(e.type == "phase" and e.data["phase"] == ph for e in events)
    assert table.state.round == 1
    check(table)


def test_step16_game_ends_when_the_crisis_deck_is_exhausted_after_round_6_QNC_270():
    """QNC-270: nobody at the target, the game ends in the sixth Refresh phase, when no Crisis
    card is left, without revealing one or passing the die."""
    table = new_game(players=3, seed=5)
    events = auto(table)
    st = table.state
    assert st.finished and st.result["reason"] == "crisis_deck"
    assert st.round == 6 and st.crisis_deck == []
    refresh = index_of(events, "phase", phase="refresh", round=6)
    assert [e.type for e in events[refresh + 1:]] == ["game_end"]
    rounds_refreshed = [e.data["round"] for e in events if e.type == "phase" and e.data["phase"] == "refresh"]
    assert rounds_refreshed == [1, 2, 3, 4, 5, 6]
    check(table)


def test_step18_next_crisis_replaces_the_active_one_QNC_272():
    """QNC-272: the Refresh phase reveals the next Crisis card, which becomes the active crisis
    (used in the next Crisis phase); the previous one is retired."""
    table = game(players=2, seed=2)
    old, nxt = table.state.crisis, table.state.crisis_deck[0]
    deck_len = len(table.state.crisis_deck)
    events = auto(table, until=lambda t: t.state.round == 2)
    e = events[index_of(events, "crisis", start=index_of(events, "phase", phase="refresh"))]
    assert e.data == {"card": nxt, "level": 2}
    st = table.state
    assert st.crisis == nxt and st.crises_done == [old] and len(st.crisis_deck) == deck_len - 1
    assert old not in st.crisis_deck and where(table, old) == "crises_done"
    events = play_round(table)
    assert events[index_of(events, "reveal")].data["crisis"] == nxt
    check(table)


def test_step19_board_action_cube_returns_to_the_top_slot_QNC_273():
    """QNC-273: a board-action cube moved this round goes back to its top slot in the Refresh
    phase, so the player may take a board action again next round."""
    table = game(players=2, seed=2)
    a = table.state.first
    act(table, a, "board", action="scout", row="t1", match="port")
    assert pl(table, a).board_cube == "scout"
    auto(table, until=until_prompt("turn", 1 - a))
    auto(table, until=until_prompt("turn", a))
    assert not any(o.type == "board" for o in table.legal(a))  # used for this round
    auto(table, until=lambda t: t.state.round == 2)
    assert all(p.board_cube == "top" for p in table.state.players)
    auto(table, until=until_prompt("turn", a))
    assert any(o.type == "board" for o in table.legal(a))
    check(table)


def test_step20_first_player_die_passes_clockwise_each_round_QNC_274():
    """QNC-274: at the end of each round the die passes clockwise; its new holder is the first
    player of the next round (draws and turns start with them)."""
    table = new_game(players=4, seed=13)
    first = table.state.first
    seen = [first]
    for r in range(2, 5):
        events = auto(table, until=lambda t, r=r: t.state.round == r)
        die = [e.data["seat"] for e in events if e.type == "first_player"]
        assert die == [(seen[-1] + 1) % 4]
        assert table.state.first == die[0]
        start = index_of(events, "phase", phase="development", round=r)
        draws = [e.data["seat"] for e in events[start:] if e.type == "draw"]
        assert draws[0] == die[0]
        assert prompt(table).seat == die[0] and prompt(table).kind == "turn"
        seen.append(die[0])
    check(table)
