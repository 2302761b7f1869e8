"""Win condition and tie-breaks, the round's phases, the Development phase, Burn and the
first-player die (QNC-050..079).

Each test arranges a situation with the harness, then plays it through the engine.
"""
from __future__ import annotations

import pytest

from core.engine import view_events
from plugins.new_capital.state import HonoraryEntry
from plugins.new_capital.views import zones
from tests.new_capital.harness import (
    PACK, act, auto, card_of, check, kinds, move_card, new_game, options, pl, prompt, put_leader,
    set_hand, set_pool, until_prompt, where,
)
from tests.new_capital.harness import quiet_crisis, crisis_hands, bare_province, CRISIS_CARDS  # shared arrangements

NON_ALERT = [i for i, alert in enumerate(PACK.board.seal_slots) if not alert]
TARGET = PACK.scenario("learning").seals


# -- arranging helpers (local to this file) --------------------------------------------------


def last_round(table) -> None:
    """The Crisis deck is empty: the game ends at this round's Refresh victory check."""
    s = table.state
    s.box.extend(s.crisis_deck)
    s.crisis_deck.clear()


def flip_leader(table, seat: int, leader: str, column: int, slot: int) -> None:
    """Arrange a flipped-down leader under a slot."""
    zones(table.state)[where(table, leader)].remove(leader)
    pl(table, seat).columns[column].slots[slot].flipped.append(leader)


def give_seals(table, seat: int, n: int) -> None:
    p = pl(table, seat)
    for i in NON_ALERT[:n]:
        p.seal_slots[i] = True
    p.seals_reserve -= n


def set_chart(table, *entries: list[int]) -> None:
    """Honorary Seal chart: one entry per slot, each the seats sharing that slot."""
    for seats in entries:
        for seat in seats:
            p = pl(table, seat)
            p.honorary = True
            p.seals_reserve -= 1
        table.state.honorary_chart.append(HonoraryEntry(seats=list(seats), round=1, phase="crisis"))


def regular_turn(table):
    p = next((q for q in table.state.prompts if q.blocking), None)
    return p if p is not None and p.kind == "turn" and p.args.get("regular") else None


def first_seat(table) -> int:
    return table.state.first


def order(table) -> list[int]:
    n = len(table.state.players)
    return [(table.state.first + i) % n for i in range(n)]


# -- QNC-050..052: tracks and seals ------------------------------------------------------------
def test_each_attribute_point_moves_the_matching_track_one_space_QNC_050():
    """QNC-050: structure points in the Score phase move each track by exactly the points of
    that kind, one space per point."""
    table = new_game(players=2, seed=3)
    quiet_crisis(table)
    crisis_hands(table)
    seat = first_seat(table)
    # might 1 | commerce stack: morale 1, then wealth 1 + morale 1
    bare_province(table, seat, ["S12"], ["S07", "S32"])
    before = dict(pl(table, seat).tracks)
    assert before == {"influence": 0, "might": 0, "morale": 0, "wealth": 0}
    events = auto(table, until=lambda t: t.state.round == 2)
    gains = [e.data for e in events if e.type == "attribute" and e.data["seat"] == seat]
    assert pl(table, seat).tracks == {"influence": 0, "might": 1, "morale": 2, "wealth": 1}
    assert sum(g["gained"] for g in gains) == 4
    for g in gains:  # every event reports the new position = old position + points gained
        assert g["position"] <= PACK.board.track_max
    check(table)


def test_fifth_space_gives_bonus_and_a_seal_then_resets_in_score_phase_QNC_051_052():
    """QNC-051: reaching the 5th space gives the track bonus and a seal from reserve onto a seal
    slot. QNC-052: the token is back on 0 in the same round's Score phase (reset step), and the
    next round starts a new cycle from 0."""
    table = new_game(players=2, seed=4)
    quiet_crisis(table)
    crisis_hands(table)
    seat = first_seat(table)
    bare_province(table, seat, ["S12"])  # 1 might each Score phase
    pl(table, seat).tracks["might"] = PACK.board.track_max - 1
    events = auto(table, until=until_prompt("seal_slot", seat))
    s = table.state
    assert (s.round, s.phase, s.step) == (1, "score", "reset")
    p = pl(table, seat)
    assert p.tracks["might"] == PACK.board.track_max  # step 15: bonus and seal come before the reset
    # QNC-051: the might bonus (reserve power) was taken on reaching the 5th space
    bonus = sum(e.power for e in PACK.board.track_bonus["might"] if e.op == "reserve")
    assert bonus > 0
    score = [e for e in events if e.type == "phase" and e.data["phase"] == "score"]
    i = events.index(score[-1])
    before = [e.data["power"] for e in events[:i] if e.type == "reserve" and e.data["seat"] == seat]
    after = [e.data["power"] for e in events[i:] if e.type == "reserve" and e.data["seat"] == seat]
    assert after and after[-1] == (before[-1] if before else 0) + bonus
    assert p.seals == 0 and p.seals_reserve == 9
    slot = NON_ALERT[1]
    assert {"slot": slot} in options(table, seat, "seal_slot")
    events = act(table, seat, "seal_slot", slot=slot)
    p = pl(table, seat)
    assert p.seal_slots[slot] and p.seals_reserve == 8 and p.seals == 1
    assert any(e.type == "seal" and e.data["reason"] == "track:might" for e in events)
    # QNC-052: the token is back on 0 right after, in the same round's Score phase
    resets = [e for e in events if e.type == "track_reset" and e.data["seat"] == seat]
    assert [e.data["track"] for e in resets] == ["might"]
    assert events.index(resets[0]) > next(i for i, e in enumerate(events) if e.type == "seal")
    assert pl(table, seat).tracks["might"] == 0 or table.state.round == 2
    # a new cycle: round 2 starts with the token on 0 and the seal kept
    auto(table, until=lambda t: t.state.round == 2)
    assert pl(table, seat).tracks["might"] == 0 and pl(table, seat).seals == 1
    check(table)


# -- QNC-053..060: end of the game and tie-breaks ---------------------------------------------
def test_reaching_target_mid_round_finishes_the_round_then_stops_at_refresh_QNC_053():
    """QNC-053: a player reaching the seal target during Development does not end the game at
    once; the round is played to its end and the game stops at the Refresh victory check
    (no new crisis revealed, no round 2)."""
    table = new_game(players=3, seed=5)
    quiet_crisis(table)
    crisis_hands(table)
    seat = first_seat(table)
    give_seals(table, seat, TARGET - 1)
    pl(table, seat).diplomacy = [PACK.board.favored_at - 1, 0]  # one step from Favored (guild)
    set_hand(table, seat, [card_of(seat, "B-ADMINISTRATE")] + [card_of(seat, c) for c in CRISIS_CARDS[:5]])
    act(table, seat, "play", card=card_of(seat, "B-ADMINISTRATE"))
    act(table, seat, "administrate", track=0, direction=1)
    assert kinds(table) == [(seat, "seal_slot")]
    act(table, seat, "seal_slot", slot=NON_ALERT[TARGET - 1])
    assert pl(table, seat).seals == TARGET
    assert not table.state.finished
    assert table.state.phase == "development"
    crisis_before = table.state.crisis
    first_before = table.state.first
    events = auto(table)
    phases = [(e.data["round"], e.data["phase"]) for e in events if e.type == "phase"]
    assert phases == [(1, "crisis"), (1, "score"), (1, "refresh")]
    turns = [e.data["seat"] for e in events if e.type == "play"]
    assert len(turns) == 3 * 4 - 1  # every remaining regular turn of the round was played
    s = table.state
    assert s.finished and s.step == "victory_check"
    assert s.result["reason"] == "seals" and s.result["round"] == 1
    assert s.result["winners"] == [seat]
    assert s.crisis == crisis_before and s.crises_done == [] and s.first == first_before


def test_honorary_seal_counts_toward_the_target_QNC_054():
    """QNC-054: 3 seals on the board plus the Honorary Seal (earned this round by owning a
    Tier 3 structure, Learning scenario) reach the target of 4: the game ends this round."""
    table = new_game(players=2, seed=6)
    quiet_crisis(table)
    crisis_hands(table)
    seat = first_seat(table)
    other = 1 - seat
    give_seals(table, seat, TARGET - 1)
    give_seals(table, other, TARGET - 1)
    bare_province(table, seat, ["S11", "S36", "S52"])  # port stack up to Tier 3
    assert not pl(table, seat).honorary
    auto(table)
    s = table.state
    assert s.finished and s.result["round"] == 1 and s.result["reason"] == "seals"
    p = pl(table, seat)
    assert p.honorary and sum(p.seal_slots) == TARGET - 1
    assert s.result["seals"] == {str(seat): TARGET, str(other): TARGET - 1}
    assert s.result["winners"] == [seat]
    check(table)


def test_without_honorary_three_board_seals_do_not_end_the_game_QNC_054():
    """QNC-054 (control): with only 3 seals and no Honorary Seal, the game goes on."""
    table = new_game(players=2, seed=6)
    quiet_crisis(table)
    crisis_hands(table)
    seat = first_seat(table)
    give_seals(table, seat, TARGET - 1)
    bare_province(table, seat, ["S11", "S36"])
    auto(table, until=lambda t: t.state.round == 2)
    assert not table.state.finished and table.state.phase == "development"


def test_game_ends_when_crisis_deck_is_exhausted_after_round_6_QNC_055_056():
    """QNC-055: nobody reaches the target; the game ends after round 6 with the Crisis deck
    exhausted. QNC-056: the player with the most seals wins."""
    table = new_game(players=2, seed=0)
    events = auto(table)
    s = table.state
    assert s.finished
    assert s.result["reason"] == "crisis_deck" and s.result["round"] == 6
    assert max(s.result["seals"].values()) < TARGET
    assert s.crisis_deck == [] and len(s.crises_done) == 5
    assert PACK.crises[s.crisis].level == 6
    assert [e.data["round"] for e in events if e.type == "phase" and e.data["phase"] == "refresh"] == [1, 2, 3, 4, 5, 6]
    seals = {int(k): v for k, v in s.result["seals"].items()}
    best = max(seals.values())
    assert s.result["winners"] == [k for k, v in seals.items() if v == best]
    check(table)


def test_several_reach_target_same_round_most_seals_wins_QNC_056():
    """QNC-056: two players reach the target in the same round; the one with more seals wins,
    even against an earlier Honorary Seal of the other."""
    table = new_game(players=3, seed=7)
    quiet_crisis(table)
    crisis_hands(table)
    give_seals(table, 0, TARGET)
    set_chart(table, [0])              # seat 0: target + honorary = 5
    give_seals(table, 1, TARGET + 2)   # seat 1: 6, no honorary
    auto(table)
    r = table.state.result
    assert r["reason"] == "seals" and r["round"] == 1
    assert r["seals"] == {"0": TARGET + 1, "1": TARGET + 2, "2": 0}
    assert r["winners"] == [1] and not r["shared"] and r["decided_by"] == "seals"
    check(table)


def test_crisis_deck_end_most_seals_wins_QNC_056():
    """QNC-056: the game ends by Crisis deck exhaustion; the most seals wins."""
    table = new_game(players=3, seed=8)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 0, 1)
    give_seals(table, 1, 2)
    give_seals(table, 2, 3)
    set_chart(table, [0])
    auto(table)
    r = table.state.result
    assert r["reason"] == "crisis_deck" and r["round"] == 1
    assert r["seals"] == {"0": 2, "1": 2, "2": 3}
    assert r["winners"] == [2] and r["decided_by"] == "seals"
    check(table)


def test_tie_on_seals_earlier_honorary_slot_wins_QNC_057():
    """QNC-057: tied on seals, the earlier Honorary chart slot wins."""
    table = new_game(players=3, seed=9)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 0, 2)
    give_seals(table, 1, 2)
    give_seals(table, 2, 1)
    set_chart(table, [2], [1], [0])  # seat 2 holds the best slot but has fewer seals
    auto(table)
    r = table.state.result
    assert r["seals"] == {"0": 3, "1": 3, "2": 2}
    assert r["winners"] == [1] and not r["shared"] and r["decided_by"] == "honorary"
    check(table)


def test_tie_on_seals_holder_beats_non_holder_with_more_cards_QNC_057():
    """QNC-057 (flag reading): among tied players, holding an Honorary Seal beats holding
    none, even against a bigger province."""
    table = new_game(players=2, seed=10)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 0, 3)
    give_seals(table, 1, 2)
    set_chart(table, [1])
    bare_province(table, 0, ["S12"], ["S16"], ["S21"], ["S06"])
    put_leader(table, 0, "L12", 0, 0)
    put_leader(table, 0, "L21", 0, 1)
    bare_province(table, 1, ["S13"])
    auto(table)
    r = table.state.result
    assert r["seals"] == {"0": 3, "1": 3}
    assert r["winners"] == [1] and r["decided_by"] == "honorary"
    check(table)


def test_tie_without_any_honorary_card_count_decides_flipped_leaders_count_QNC_058():
    """QNC-058: tied on seals, no Honorary Seal at all: more structure + leader cards wins, and
    flipped-down leaders count (4 cards with flips beat 4 - 1 without)."""
    table = new_game(players=3, seed=11)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 0, 2)
    give_seals(table, 1, 2)
    give_seals(table, 2, 1)
    bare_province(table, 0, ["S12"], ["S07", "S32"])
    put_leader(table, 0, "L12", 0, 0)  # 4 cards
    bare_province(table, 1, ["S13"])
    put_leader(table, 1, "L21", 0, 0)
    flip_leader(table, 1, "L09", 0, 0)
    flip_leader(table, 1, "L45", 0, 0)
    flip_leader(table, 1, "L48", 0, 1)  # 5 cards, 3 of them flipped leaders
    bare_province(table, 2, ["S14"], ["S15"], ["S16"], ["S17"])  # most cards, fewer seals
    put_leader(table, 2, "L36", 0, 0)
    auto(table)
    r = table.state.result
    assert r["seals"] == {"0": 2, "1": 2, "2": 1}
    assert r["winners"] == [1] and not r["shared"] and r["decided_by"] == "cards"
    check(table)


def test_tied_players_in_the_same_honorary_slot_share_the_victory_QNC_059():
    """QNC-059: tied on seals, both Honorary Seals in the same chart slot: shared victory, even
    if one has more province cards; a later slot holder with the same seals loses."""
    table = new_game(players=3, seed=12)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 0, 2)
    give_seals(table, 1, 2)
    give_seals(table, 2, 2)
    set_chart(table, [0, 2], [1])
    bare_province(table, 2, ["S12"], ["S16"], ["S21"])
    auto(table)
    r = table.state.result
    assert r["seals"] == {"0": 3, "1": 3, "2": 3}
    assert r["winners"] == [0, 2] and r["shared"] and r["decided_by"] == "honorary"
    check(table)


def test_tie_surviving_every_tie_break_is_shared_QNC_060():
    """QNC-060: tied on seals, no Honorary Seal, same number of structure and leader cards:
    the tied players share the victory."""
    table = new_game(players=3, seed=13)
    quiet_crisis(table)
    crisis_hands(table)
    last_round(table)
    give_seals(table, 1, 1)
    give_seals(table, 2, 1)
    bare_province(table, 1, ["S12"], ["S16"])
    put_leader(table, 1, "L12", 1, 0)              # 3 cards
    bare_province(table, 2, ["S07", "S32"])
    flip_leader(table, 2, "L21", 0, 1)             # 3 cards
    bare_province(table, 0, ["S13"])
    auto(table)
    r = table.state.result
    assert r["seals"] == {"0": 0, "1": 1, "2": 1}
    assert r["winners"] == [1, 2] and r["shared"] and r["decided_by"] == "cards"
    check(table)


# -- QNC-061..062: hidden hands, phases ----------------------------------------------------------
def test_hands_are_hidden_from_other_players_QNC_061():
    """QNC-061: another seat (and a spectator) sees only the size of a hand, never its cards,
    in the view and in the draw events."""
    table = new_game(players=3, seed=14, draft=False)
    events = []
    for seat in range(3):
        events += table.act(seat, table.legal(seat)[0])
    for seat in range(3):
        hand = pl(table, seat).hand
        assert len(hand) == 6
        assert table.view(seat)["players"][seat]["hand"] == hand
        for viewer in [v for v in range(3) if v != seat] + [None]:
            assert table.view(viewer)["players"][seat]["hand"] == 6
            seen_events = view_events(events, viewer)
            draws = [e for e in seen_events if e["type"] == "draw" and e["data"].get("seat") == seat]
            assert draws and all("cards" not in e["data"] for e in draws)
            # no card id of this seat's (the basic ids carry the seat prefix) leaks anywhere
            assert f"'{seat}:" not in repr(table.view(viewer))
            assert f"'{seat}:" not in repr(seen_events)
    check(table)


def test_round_runs_development_crisis_score_refresh_in_order_QNC_062():
    """QNC-062: every round is Development, Crisis, Score, Refresh, and rounds follow one another."""
    table = new_game(players=4, seed=15, draft=False)
    events = []
    for seat in range(4):
        events += table.act(seat, table.legal(seat)[0])
    events += auto(table)
    phases = [(e.data["round"], e.data["phase"]) for e in events if e.type == "phase"]
    last = table.state.result["round"]
    assert phases == [(r, ph) for r in range(1, last + 1) for ph in ("development", "crisis", "score", "refresh")]


# -- QNC-063..069: the Development phase -------------------------------------------------------
def test_every_player_draws_six_at_each_development_start_QNC_063():
    """QNC-063: at the start of each Development phase each player draws 6 from their own deck."""
    table = new_game(players=3, seed=16, draft=False)
    events = []
    for seat in range(3):
        events += table.act(seat, table.legal(seat)[0])
    for seat in range(3):
        assert len(pl(table, seat).hand) == 6 and len(pl(table, seat).deck) == 4
    events += auto(table, until=lambda t: t.state.round == 4)
    for rnd in (1, 2, 3):
        start = next(i for i, e in enumerate(events) if e.type == "phase" and e.data == {"phase": "development", "round": rnd})
        draws = []
        for e in events[start + 1:]:
            if e.type not in ("draw", "reshuffle", "shuffle"):  # a reshuffle is also announced by the kernel (core.chance)
                break
            if e.type == "draw":
                draws.append(e)
        assert sorted(e.data["seat"] for e in draws) == [0, 1, 2]
        assert all(len(e.data["cards"]) == 6 for e in draws)
        for e in draws:  # from the seat's own deck: its basic cards, Advanced cards, Hunger
            for c in e.data["cards"]:
                assert c.startswith(f"{e.data['seat']}:") or c in PACK.hunger or not PACK.action(c).basic


def test_empty_deck_reshuffles_discard_and_keeps_drawing_QNC_064():
    """QNC-064: drawing 2 with 1 card in the deck takes it, shuffles the discard pile into the
    new deck and draws the second card from it."""
    table = new_game(players=2, seed=17)
    seat = first_seat(table)
    p = pl(table, seat)
    keep = p.deck[-1]
    for c in list(p.deck[:-1]):
        move_card(table, c, f"p{seat}.discard")
    old_discard = list(pl(table, seat).discard)
    assert len(old_discard) == 3
    hand = list(pl(table, seat).hand)
    events = act(table, seat, "board", action="resupply")
    p = pl(table, seat)
    assert [e.type for e in events if e.type in ("draw", "reshuffle")] == ["reshuffle", "draw"]
    new = [c for c in p.hand if c not in hand]
    assert len(new) == 2 and keep in new
    drawn_from_discard = [c for c in new if c != keep][0]
    assert drawn_from_discard in old_discard
    assert p.discard == []
    assert sorted(p.deck + [drawn_from_discard]) == sorted(old_discard)
    check(table)


def test_round_two_draw_reshuffles_the_discard_QNC_064():
    """QNC-064: in round 2 the deck holds only 4 cards; drawing 6 reshuffles the discard pile."""
    table = new_game(players=2, seed=18)
    crisis_hands(table)
    quiet_crisis(table)
    events = auto(table, until=lambda t: t.state.round == 2)
    start = next(i for i, e in enumerate(events) if e.type == "phase" and e.data == {"phase": "development", "round": 2})
    after = events[start:]
    for seat in (0, 1):
        assert any(e.type == "reshuffle" and e.data["seat"] == seat for e in after)
        assert len(pl(table, seat).hand) >= 6
    check(table)


def test_turns_go_clockwise_from_first_player_one_card_each_QNC_065_067():
    """QNC-065: turns go clockwise from the first player, one card per turn. QNC-067: regular
    turns stop once every player has played 4 cards."""
    for players, seed in ((4, 19), (3, 20)):
        table = new_game(players=players, seed=seed)
        crisis_hands(table)
        turn_seats = []
        while regular_turn(table) is not None:
            p = regular_turn(table)
            seat = p.seat
            before = len(pl(table, seat).hand)
            card = pl(table, seat).hand[0]
            turn_seats.append(seat)
            act(table, seat, "play", card=card)
            assert len(pl(table, seat).hand) == before - 1
            assert card in pl(table, seat).face_down
        assert turn_seats == order(table) * 4
        assert all(q.played == 4 for q in table.state.players)
        assert table.state.phase == "development" and table.state.step == "burn"
        assert kinds(table)[0] == (order(table)[0], "end_burn")
        check(table)


def test_played_card_resolves_fully_before_the_next_player_QNC_066_070():
    """QNC-066: the next player gets no turn until the played card has fully resolved.
    QNC-070: an Improvement card is played face up (the event shows it to everybody), its effect
    happens at once, and it is discarded right after use."""
    table = new_game(players=3, seed=21)
    seat = first_seat(table)
    nxt = order(table)[1]
    build = card_of(seat, "B-BUILD")
    set_hand(table, seat, [build] + [card_of(seat, c) for c in CRISIS_CARDS[:5]])
    events = act(table, seat, "play", card=build)
    assert kinds(table) == [(seat, "build")]  # nobody else may act in between
    play = next(e for e in events if e.type == "play")
    assert play.to is None and play.data["card"] == build and play.data["face_up"] is True
    other_view = table.view(nxt)["players"][seat]
    assert build in other_view["resolving"]
    t1 = table.state.rows["t1"].pool[0]
    columns = len(pl(table, seat).columns)
    act(table, seat, "build", card=t1)
    p = pl(table, seat)
    assert len(p.columns) == columns + 1 and p.columns[-1].structures == [t1]
    assert p.discard[-1] == build and build not in p.resolving
    assert prompt(table).seat == nxt and prompt(table).kind == "turn"
    check(table)


def test_face_down_card_is_hidden_and_does_nothing_when_played_QNC_071_072():
    """QNC-071: a Warfare card goes face down, hidden from the others, with no effect at play
    (its reserve token only comes in the Crisis phase). QNC-072: it is not in the discard pile,
    so a reshuffle in the same Development phase cannot bring it back."""
    table = new_game(players=2, seed=22)
    seat = first_seat(table)
    other = 1 - seat
    elite = card_of(seat, "B-ELITE")
    set_hand(table, seat, [elite] + [card_of(seat, c) for c in ("B-MOBILIZE", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-INTIMIDATE")])
    events = act(table, seat, "play", card=elite)
    p = pl(table, seat)
    assert p.face_down == [elite] and elite not in p.discard
    assert p.reserve_power == 0
    play = next(e for e in events if e.type == "play")
    assert play.to == [seat] and "card" not in play.public
    seen = [e["data"] for e in view_events(events, other) if e["type"] == "play"]
    assert seen == [{"seat": seat, "face_up": False}]
    assert table.view(other)["players"][seat]["face_down"] == 1
    assert table.view(seat)["players"][seat]["face_down"] == [elite]
    # the other seat plays, then our seat empties its deck into the discard and resupplies
    act(table, other, "play", card=pl(table, other).hand[0])
    for c in list(pl(table, seat).deck):
        move_card(table, c, f"p{seat}.discard")
    pool = sorted(pl(table, seat).discard)
    events = act(table, seat, "board", action="resupply")
    assert any(e.type == "reshuffle" for e in events)
    p = pl(table, seat)
    assert p.face_down == [elite]
    assert elite not in p.deck and elite not in p.hand and elite not in pool
    check(table)


def test_face_down_card_with_icons_has_no_effect_when_played_QNC_071():
    """QNC-071: a Warfare card with an attribute icon (A24, might +1) does nothing when played
    face down; its icon resolves once, when the card is revealed."""
    table = new_game(players=2, seed=23)
    quiet_crisis(table)
    seat = first_seat(table)
    bare_province(table, seat, ["S13"])  # might 1 at Score, after the check below
    set_hand(table, seat, ["A24"] + [card_of(seat, c) for c in ("B-MOBILIZE", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-INTIMIDATE")])
    events = act(table, seat, "play", card="A24")
    assert not [e for e in events if e.type == "attribute"], "a face-down card acted when played"
    assert pl(table, seat).tracks["might"] == 0
    events = auto(table, until=lambda t: t.state.round == 2)
    reveal = next(i for i, e in enumerate(events) if e.type == "reveal")
    crisis_gains = [e for e in events[reveal:] if e.type == "attribute" and e.data["seat"] == seat
                    and e.data["track"] == "might"]
    assert crisis_gains  # the icon resolves at the reveal


def test_extra_actions_then_optional_burn_then_hands_discarded_QNC_068_069():
    """QNC-068: after the regular turns (and Extra Action plays) each player may burn one card
    as a free action, in turn order, or decline. QNC-069: then every card left in hand goes to
    the discard pile and hands are empty."""
    table = new_game(players=3, seed=24)
    quiet_crisis(table)
    crisis_hands(table)
    seq = order(table)
    pl(table, seq[1]).extra_actions = 1
    pl(table, seq[2]).reserve_power = 1  # gives a decision in the Crisis phase to stop at
    auto(table, until=lambda t: regular_turn(t) is None)
    assert kinds(table) == [(seq[1], "extra_action")]
    act(table, seq[1], "extra_action", use=False)
    burn_seats = []
    leftovers = {}
    for _ in range(3):
        p = prompt(table)
        assert p.kind == "end_burn"
        burn_seats.append(p.seat)
        assert {"type": "no_burn", "params": {}} in [{"type": o.type, "params": dict(o.params)} for o in p.options]
        hand = list(pl(table, p.seat).hand)
        if p.seat == seq[0]:
            act(table, p.seat, "burn", zone="hand", card=hand[0])
            assert pl(table, p.seat).burned == [hand[0]]
            leftovers[p.seat] = hand[1:]
        else:
            act(table, p.seat, "no_burn")
            leftovers[p.seat] = hand
        assert pl(table, p.seat).played == 4  # the burn is not a turn
    assert burn_seats == seq
    assert table.state.phase == "crisis"
    for seat in seq:
        p = pl(table, seat)
        assert p.hand == []
        assert all(c in p.discard for c in leftovers[seat])
    check(table)


# -- QNC-073..077: advanced cards, card rows, Burn ------------------------------------------------
def test_advanced_cards_keep_the_basic_core_and_add_bonuses_QNC_073():
    """QNC-073: every Advanced card has a basic card's name and kind, keeps its core effect and
    values, and adds something."""
    basics = {a.name: a for a in PACK.actions.values() if a.basic}
    for a in PACK.actions.values():
        if a.basic:
            continue
        b = basics[a.name]
        assert a.kind == b.kind, a.id
        for field in ("power", "control", "reserve_power", "reserve_control"):
            assert getattr(a, field) >= getattr(b, field), (a.id, field)
        assert a.bribe == b.bribe, a.id
        ops = [e.op for e in a.effects] + [e.op for e2 in a.effects for opt in e2.options for e in opt]
        for core in b.effects:
            assert core.op in ops, a.id
        richer = (a.bonus is not None or len(a.effects) > len(b.effects)
                  or (a.power, a.control, a.reserve_power, a.reserve_control) != (b.power, b.control, b.reserve_power, b.reserve_control)
                  or any(e.op == "choice" for e in a.effects))
        assert richer, a.id


def test_advanced_build_builds_like_basic_build_and_draws_QNC_073():
    """QNC-073 in play: Advanced Build A12 offers the same build choice as the basic card, then
    its extra draw."""
    table = new_game(players=2, seed=25)
    seat = first_seat(table)
    set_hand(table, seat, ["A12"] + [card_of(seat, c) for c in CRISIS_CARDS[:5]])
    act(table, seat, "play", card="A12")
    assert prompt(table).kind == "build"
    basic = {(o.type, tuple(sorted(o.params.items()))) for o in prompt(table).options}
    expected = {("build", (("card", c),)) for c in table.state.rows["t1"].pool} | {("build", (("card", "upgrade"),))}
    assert basic == expected
    hand = len(pl(table, seat).hand)
    events = act(table, seat, "build", card=table.state.rows["t1"].pool[0])
    assert len(pl(table, seat).hand) == hand + 1
    assert any(e.type == "draw" and e.data.get("seat") == seat for e in events)
    check(table)


@pytest.mark.parametrize("has_commerce", [False, True])
def test_lower_row_applies_only_when_its_condition_holds_QNC_074(has_commerce):
    """QNC-074: A11 (Build; lower row: +1 wealth if you own a Commerce) always builds; its
    lower row applies only when the condition holds."""
    table = new_game(players=2, seed=26)
    seat = first_seat(table)
    bare_province(table, seat, ["S06"] if has_commerce else ["S12"])
    set_pool(table, "t1", ["S13", "S16", "S21"])  # no commerce to build
    set_hand(table, seat, ["A11"] + [card_of(seat, c) for c in CRISIS_CARDS[:5]])
    act(table, seat, "play", card="A11")
    events = act(table, seat, "build", card="S16")
    p = pl(table, seat)
    assert p.columns[-1].structures == ["S16"]  # top row always
    bonus = [e for e in events if e.type == "card_bonus"]
    if has_commerce:
        assert bonus and p.tracks["wealth"] == 1
    else:
        assert not bonus and p.tracks["wealth"] == 0
    check(table)


def test_burned_card_leaves_the_game_for_good_QNC_075():
    """QNC-075: a burned card sits in the owner's burn pile and is never drawn again, through
    every later reshuffle until the end of the game."""
    table = new_game(players=2, seed=27)
    seat = first_seat(table)
    auto(table, until=until_prompt("end_burn", seat))
    victim = pl(table, seat).hand[0]
    act(table, seat, "burn", zone="hand", card=victim)
    seen = []

    def watch(t, p):
        seen.append(where(t, victim))
        return None

    events = auto(table, policy=watch)
    assert table.state.finished
    assert set(seen) == {f"p{seat}.burned"}
    assert any(e.type == "reshuffle" and e.data["seat"] == seat for e in events)
    assert not any(e.type == "draw" and victim in e.data.get("cards", []) for e in events)
    assert where(table, victim) == f"p{seat}.burned"


def test_end_burn_targets_a_hand_card_or_the_top_discard_only_QNC_076():
    """QNC-076: the end-of-Development Burn offers each hand card and only the top card of the
    discard pile (plus declining); burning the top discard removes exactly that card."""
    table = new_game(players=2, seed=28)
    seat = first_seat(table)
    improvements = [card_of(seat, c) for c in ("B-ADMINISTRATE", "B-BUILD", "B-RESEARCH", "B-RECRUIT")]
    set_hand(table, seat, improvements + [card_of(seat, "B-MOBILIZE"), card_of(seat, "B-MORALE")])
    auto(table, until=until_prompt("end_burn", seat))
    p = pl(table, seat)
    assert len(p.discard) >= 3
    offered = options(table, seat, "burn")
    expected = [{"zone": "hand", "card": c} for c in p.hand if c not in PACK.hunger]
    if p.discard[-1] not in PACK.hunger:
        expected.append({"zone": "discard", "card": p.discard[-1]})
    assert sorted(map(repr, offered)) == sorted(map(repr, expected))
    for c in p.discard[:-1]:
        assert {"zone": "discard", "card": c} not in offered
    top = p.discard[-1]
    below = list(p.discard[:-1])
    assert top not in PACK.hunger
    act(table, seat, "burn", zone="discard", card=top)
    p = pl(table, seat)
    assert p.burned == [top] and p.discard[:len(below)] == below
    assert not any(q.seat == seat and q.kind == "end_burn" for q in table.state.prompts)
    check(table)


def test_card_with_burn_symbol_burns_at_once_QNC_077():
    """QNC-077: A02 (Research with the Burn symbol): the burn happens as part of playing it,
    before the next player's turn, on a hand card or the top discard card."""
    table = new_game(players=2, seed=29)
    seat = first_seat(table)
    other = 1 - seat
    bare_province(table, seat, ["S12"])  # no leader reacting to Research
    set_hand(table, seat, ["A02", card_of(seat, "B-BUILD")] + [card_of(seat, c) for c in CRISIS_CARDS[:4]])
    move_card(table, card_of(seat, "B-RECRUIT"), f"p{seat}.discard")
    move_card(table, card_of(seat, "B-ADMINISTRATE"), f"p{seat}.discard")
    act(table, seat, "play", card="A02")
    assert prompt(table).kind == "research"
    act(table, seat, "research", card=options(table, seat, "research")[0]["card"])
    assert [(q.seat, q.kind) for q in table.state.prompts] == [(seat, "burn")]
    p = pl(table, seat)
    assert p.discard == [card_of(seat, "B-RECRUIT"), card_of(seat, "B-ADMINISTRATE")]
    expected = [{"zone": "hand", "card": c} for c in p.hand] + [{"zone": "discard", "card": p.discard[-1]}]
    assert sorted(map(repr, options(table, seat, "burn"))) == sorted(map(repr, expected))
    act(table, seat, "burn", zone="hand", card=card_of(seat, "B-BUILD"))
    p = pl(table, seat)
    assert p.burned == [card_of(seat, "B-BUILD")]
    assert p.discard[-1] == "A02"
    assert prompt(table).seat == other and prompt(table).kind == "turn"
    check(table)


# -- QNC-078..079: the first-player die ------------------------------------------------------
def test_die_counts_the_first_players_turns_QNC_078():
    """QNC-078: the die shows how many turns the round's first player has taken; other
    players' turns do not move it; next round the new first player's count starts again."""
    table = new_game(players=3, seed=30)
    for rnd in (1, 2):
        assert table.state.round == rnd
        first = table.state.first
        crisis_hands(table)
        assert table.state.die == 1
        while regular_turn(table) is not None:
            seat = regular_turn(table).seat
            act(table, seat, "play", card=pl(table, seat).hand[0])
            assert table.state.die == max(1, pl(table, first).played)
        assert table.state.die == 4
        auto(table, until=lambda t: t.state.round == rnd + 1)
    assert table.state.first != first


@pytest.mark.parametrize("players", [2, 3, 4])
def test_die_never_shows_zero_or_minus_one_in_multiplayer_QNC_079(players):
    """QNC-079: in a multiplayer game the die never shows 0 or -1."""
    table = new_game(players=players, seed=31 + players)
    values = {table.state.die}

    def watch(t, p):
        values.add(t.state.die)
        return None

    auto(table, policy=watch)
    values.add(table.state.die)
    assert values <= {1, 2, 3, 4, 5, 6}
    assert 4 in values
