"""The Score phase (QNC-173..183) and Hunger (QNC-193..201).

To reach the Score phase quickly the tests empty the hands (a seat without a playable
card skips its play) and make C1C the active crisis: both of its challenges only give
Hunger, so the Crisis phase changes no track, token or column. Note: `table.act` replaces
`table.state` with a copy, so players are re-read after every action.
"""
from __future__ import annotations

import pytest

from core import create_table
from core.errors import ActionRejected
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec, Registry
from plugins.new_capital.content import TRACKS
from plugins.new_capital.province import turn_order
from tests.new_capital.harness import (
    PACK, act, add_column, auto, card_of, check, kinds, move_card, new_game, options, pl, prompt,
    put_leader, set_hand, set_pool, until_prompt,
)
from tests.new_capital.harness import clear_leaders  # shared arrangements


# -- helpers ---------------------------------------------------------------------------------
def turn_seat(table) -> int:
    p = prompt(table)
    assert p is not None and p.kind == "turn", kinds(table)
    return p.seat


def ev(events, type_: str) -> list:
    return [e for e in events if e.type == type_]


def quiet_round(table, hands: dict | None = None, crisis: str = "C1C") -> None:
    """Arrange: every hand empty (or as given), and a crisis whose penalties are only Hunger."""
    move_card(table, crisis, "crisis")
    hands = hands or {}
    for seat in range(len(table.state.players)):
        set_hand(table, seat, hands.get(seat, []))


def replace_leader(table, seat: int, leader: str, column: int, slot: int) -> None:
    s = pl(table, seat).columns[column].slots[slot]
    if s.leader:
        table.state.box.append(s.leader)
        s.leader = None
    put_leader(table, seat, leader, column, slot)


def next_round(table, policy=None) -> list:
    r = table.state.round
    return auto(table, until=lambda t: t.state.round > r, policy=policy)


def phase_slice(events, phase: str) -> list:
    """The events from the start of `phase` to the start of the next phase."""
    out, inside = [], False
    for e in events:
        if e.type == "phase":
            if inside:
                break
            inside = e.data["phase"] == phase
            continue
        if inside:
            out.append(e)
    return out


def structure_points(p, skip_rebellion: bool = True) -> dict[str, int]:
    pts = {t: 0 for t in TRACKS}
    for col in p.columns:
        if skip_rebellion and col.rebellion:
            continue
        for s in col.structures:
            for t, n in PACK.structures[s].attributes.items():
                pts[t] += n
    return pts


def after_crisis(t) -> bool:
    return t.state.round > 1 or t.state.phase in ("score", "refresh")


def hunger_in(cards) -> list[str]:
    return [c for c in cards if c in PACK.hunger]


# -- QNC-173..176: the Score phase and its order ----------------------------------------------
def test_a_score_phase_follows_the_crisis_phase_every_round_QNC_173():
    """QNC-173."""
    table = new_game(players=2, seed=3)
    events = auto(table, until=lambda t: t.state.round == 4)
    phases = [(e.data["round"], e.data["phase"]) for e in events if e.type == "phase"]
    for r in (2, 3):
        mine = [ph for rr, ph in phases if rr == r]
        assert mine == ["development", "crisis", "score", "refresh"]
    check(table)


def test_structures_score_together_and_rebel_columns_are_skipped_QNC_174():
    """QNC-174: every structure of every player scores, automatically and before any leader;
    a column with a Rebellion token scores nothing."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    a, b = 0, 1
    add_column(table, a, "S05", "S26")          # influence 1; morale 1 + influence 1
    rebel = add_column(table, a, "S13")          # might 1, but in Rebellion
    pl(table, a).columns[rebel].rebellion = 1
    add_column(table, b, "S21")                  # might 1
    put_leader(table, a, "L02", 0, 1)            # score leaders: 1 influence each
    put_leader(table, b, "L39", 0, 1)            # 1 might
    expected = {s: structure_points(pl(table, s)) for s in (a, b)}
    assert expected[a]["might"] == sum(PACK.structures[c].attributes.get("might", 0)
                                       for c in pl(table, a).columns[0].structures)
    events = phase_slice(next_round(table), "score")
    first_leader = next(i for i, e in enumerate(events) if e.type == "leader")
    before = [e for e in events[:first_leader] if e.type == "attribute"]
    got = {s: {t: sum(e.data["gained"] for e in before if e.data["seat"] == s and e.data["track"] == t)
               for t in TRACKS} for s in (a, b)}
    assert got == expected
    assert not [e for e in events[first_leader:] if e.type == "attribute" and e.data["gained"]
                and e.data["track"] == "might" and e.data["seat"] == a]  # rebellion: nothing later either
    check(table)


def test_score_leaders_activate_in_turn_order_after_the_structures_QNC_175():
    """QNC-175: with three players, the leaders of the first player fire first, then the next
    seats clockwise; every structure point comes before."""
    table = new_game(players=3, seed=1)
    quiet_round(table)
    for s in range(3):
        replace_leader(table, s, "L02" if s == 0 else ("L27" if s == 1 else "L39"), 0, 1)
    order = turn_order(table.state)
    events = phase_slice(next_round(table), "score")
    seats = []
    for e in ev(events, "leader"):
        if not seats or seats[-1] != e.data["seat"]:
            seats.append(e.data["seat"])
    assert seats == order
    idx = [i for i, e in enumerate(events) if e.type == "leader"]
    struct_idx = [i for i, e in enumerate(events) if e.type == "attribute"][:sum(
        1 for p in table.state.players for c in p.columns for s in c.structures
        for _ in PACK.structures[s].attributes)]
    assert max(struct_idx) < min(idx)
    check(table)


def test_score_leaders_fire_nearest_column_first_top_slot_first_QNC_176():
    """QNC-176: placement order is column by column from the board, the top leader first."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    c1 = add_column(table, seat, "S01")
    c2 = add_column(table, seat, "S02")
    put_leader(table, seat, "L39", 0, 0)
    put_leader(table, seat, "L02", 0, 1)
    put_leader(table, seat, "L27", c1, 0)
    put_leader(table, seat, "L25", c1, 1)   # condition: no rebellion (holds)
    put_leader(table, seat, "L01", c2, 1)   # condition: 3 columns (holds)
    put_leader(table, seat, "L15", c2, 0)   # condition: 2 columns (holds)
    events = phase_slice(next_round(table), "score")
    fired = [e.data["card"] for e in ev(events, "leader") if e.data["seat"] == seat]
    assert fired == ["L39", "L02", "L27", "L25", "L15", "L01"]
    check(table)


# -- QNC-177..182: the reset step ---------------------------------------------------------------
def test_a_full_track_gives_its_bonus_and_a_seal_then_resets_QNC_177():
    """QNC-177: Might at 4 + a Might structure: at the reset the Might bonus (demo: 2 power
    tokens), a seal on the board, and the token back to 0; other tracks keep their points."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    add_column(table, seat, "S13")  # might 1
    p = pl(table, seat)
    p.tracks["might"] = 4
    p.tracks["morale"] = 2
    gain = structure_points(p)
    events = phase_slice(next_round(table), "score")
    p = pl(table, seat)
    assert [e.data["track"] for e in ev(events, "track_reset") if e.data["seat"] == seat] == ["might"]
    assert p.tracks["might"] == 0
    assert p.tracks["morale"] == 2 + gain["morale"]
    assert p.reserve_power == 2
    assert sum(p.seal_slots) == 1 and p.seals_reserve == 8
    # the reset comes after every attribute point of the phase
    last_attr = max(i for i, e in enumerate(events) if e.type == "attribute")
    assert last_attr < next(i for i, e in enumerate(events) if e.type == "track_reset")
    check(table)


def test_the_reset_comes_after_the_bonus_and_the_seal_QNC_177_QNC_178():
    """QNC-177: bonus and seal first, then the token goes back to 0; QNC-178: a point gained
    on the full track before its reset (here the Learning Alert, 1 point on a track of the
    player's choice, taken on Might itself) is past the 5th space and is lost, not carried
    into the next cycle."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    add_column(table, seat, "S13")  # might 1
    pl(table, seat).tracks["might"] = 4
    assert PACK.board.seal_slots[2]
    assert [e.op for e in PACK.scenario("learning").alert] == ["attr"]

    def alert_on_might(t, p):
        if p.kind == "seal_slot":
            return next(o for o in p.options if o.params["slot"] == 2)
        if p.kind == "attr_track":
            return next(o for o in p.options if o.params["track"] == "might")
        return None

    events = phase_slice(next_round(table, policy=alert_on_might), "score")
    mine = [e.type for e in events if e.data.get("seat") == seat
            and e.type in ("reserve", "seal", "track_reset")]
    assert mine == ["reserve", "seal", "track_reset"]
    assert pl(table, seat).tracks["might"] == 0
    assert pl(table, seat).seal_slots[2]
    check(table)


def test_points_beyond_the_fifth_space_are_lost_QNC_178():
    """QNC-178: Influence 4 + 3 influence from structures: the token stops at 5 and is 0 after
    the reset (nothing carried over)."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    add_column(table, seat, "S17", "S38")  # influence 1 + 2
    pl(table, seat).tracks["influence"] = 4
    events = phase_slice(next_round(table), "score")
    positions = [e.data["position"] for e in ev(events, "attribute") if e.data["seat"] == seat
                 and e.data["track"] == "influence"]
    assert positions and max(positions) == 5
    assert pl(table, seat).tracks["influence"] == 0
    check(table)


def _full_might(table, seats):
    for s in seats:
        add_column(table, s, ["S12", "S13", "S20", "S21"][s])  # might 1 each
        pl(table, s).tracks["might"] = 4


def test_several_players_reset_in_turn_order_QNC_179():
    """QNC-179: three players fill Might in the same round: bonus, seal and reset seat by
    seat in turn order."""
    table = new_game(players=3, seed=2)
    quiet_round(table)
    clear_leaders(table)
    _full_might(table, range(3))
    order = turn_order(table.state)
    events = phase_slice(next_round(table), "score")
    resets = [e.data["seat"] for e in ev(events, "track_reset")]
    assert resets == order
    # each seat's bonus, seal and reset are done before the next seat's begin
    seq = [(e.type, e.data["seat"]) for e in events if e.type in ("track_reset", "seal", "reserve")]
    assert [s for _, s in seq] == [s for s in order for _ in range(3)]
    assert all(sorted(t for t, s2 in seq if s2 == s) == ["reserve", "seal", "track_reset"] for s in order)
    for s in range(3):
        assert pl(table, s).tracks["might"] == 0 and pl(table, s).reserve_power == 2
    check(table)


def test_several_full_tracks_give_one_bonus_and_one_seal_each_in_the_players_order_QNC_180():
    """QNC-180: Might and Wealth both full: the player chooses the order (Wealth first here);
    two bonuses, two seals, both tracks at 0."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    add_column(table, seat, "S13")  # might 1
    add_column(table, seat, "S14")  # wealth 1
    pl(table, seat).tracks.update(might=4, wealth=4)
    offered = []

    def wealth_first(t, p):
        if p.kind == "reset_track":
            offered.append(sorted(o.params["track"] for o in p.options))
            return next(o for o in p.options if o.params["track"] == "wealth")
        return None

    events = phase_slice(next_round(table, policy=wealth_first), "score")
    assert offered[0] == ["might", "wealth"]
    assert [e.data["track"] for e in ev(events, "track_reset")] == ["wealth", "might"]
    p = pl(table, seat)
    assert p.tracks["might"] == 0 and p.tracks["wealth"] == 0
    assert sum(p.seal_slots) == 2 and p.seals_reserve == 7
    assert p.reserve_power == 2                                  # Might bonus
    assert len(ev(events, "upgrade_token")) == 1                 # Wealth bonus
    check(table)


class _Blocker:
    """A test module whose restriction cancels every effect it is asked about."""

    @hookimpl
    def new_capital_effect_blocked(self, state, seat, effect, source):
        return True


class _BlockerProvider:
    @hookimpl
    def conclave_register_modules(self):
        return [ModuleSpec(id="qnc-test-blocker", game="new-capital", name="Block everything",
                           plugin=_Blocker())]


def test_track_bonuses_are_never_blocked_QNC_181():
    """QNC-181: with a restriction in play that cancels effects (the Score leader's effect is
    cancelled), the Might track bonus still gives its 2 power tokens."""
    registry = Registry(["plugins.new_capital.plugin", _BlockerProvider()], load_entry_points=False)
    table = create_table("new-capital", 2, seed=0, modules=["qnc-test-blocker"], registry=registry,
                         options={"scenario": "learning"})
    for seat in range(2):
        table.act(seat, table.legal(seat)[0])
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    add_column(table, seat, "S13")
    put_leader(table, seat, "L02", 0, 1)
    pl(table, seat).tracks["might"] = 4
    events = phase_slice(next_round(table), "score")
    blocked = ev(events, "effect_blocked")
    assert blocked and all(e.data["source"] != "track" for e in blocked)   # the restriction works
    assert any(e.data["source"] == "leader" for e in blocked)
    p = pl(table, seat)
    assert p.reserve_power == 2 and p.tracks["might"] == 0 and sum(p.seal_slots) == 1
    check(table)


def test_track_bonuses_never_trigger_leaders_QNC_182():
    """QNC-182: the Wealth bonus completes an upgrade (a structure enters the province), yet no
    leader reacts: Build leaders, crisis leaders and Score leaders stay silent after the reset
    starts."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    clear_leaders(table)
    seat = 0
    col = add_column(table, seat, "S11")  # Tier 1 port, wealth 1
    pl(table, seat).columns[col].upgrades = 1
    set_pool(table, "t2", ["S35", "S26", "S27"])  # the only Tier 2 port
    put_leader(table, seat, "L19", 0, 1)   # Build: 1 wealth
    put_leader(table, seat, "L08", col, 0)  # Build: 1 influence
    put_leader(table, seat, "L02", col, 1)  # Score: 1 influence
    pl(table, seat).tracks["wealth"] = 4

    def on_column(t, p):
        if p.kind == "upgrade_column":
            return next(o for o in p.options if o.params["column"] == col)
        return None

    events = phase_slice(next_round(table, policy=on_column), "score")
    start = next(i for i, e in enumerate(events) if e.type == "upgrade_token")  # the Wealth bonus begins
    after = events[start:]
    assert ev(after, "upgraded")                         # the bonus did add a structure
    assert not ev(after, "leader") and not ev(after, "alignment_bonus")
    assert ev(events[:start], "leader")                  # (the Score leader did fire, before)
    check(table)


def test_points_outside_the_score_phase_move_at_once_but_seal_only_in_the_score_phase_QNC_183():
    """QNC-183: in the Development phase a Support (1 influence) takes Influence from 4 to 5
    at once, a Crown faction action adds nothing beyond 5; no seal and no reset until the
    Score phase, where the reset and the seal happen."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    quiet_round(table, hands={seat: ["A04", "H12"]})
    p = pl(table, seat)
    p.tracks["influence"] = 4
    p.diplomacy = [-5, 0]
    set_hand(table, seat, ["A04", "H12"])  # (rebuild the turn prompt)
    events = act(table, seat, "board", action="support", card="H12")
    assert [e.data["position"] for e in ev(events, "attribute")] == [5]
    assert pl(table, seat).tracks["influence"] == 5
    act(table, seat, "play", card="A04")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    events = act(table, seat, "board", action="faction", faction="crown")
    gained = [e.data for e in ev(events, "attribute") if e.data["track"] == "influence"]
    assert gained and gained[0]["gained"] == 0 and gained[0]["position"] == 5
    p = pl(table, seat)
    assert p.tracks["influence"] == 5 and p.seals_reserve == 9 and not any(p.seal_slots)
    events = next_round(table)
    dev_and_crisis = [e for e in events[:next(i for i, e in enumerate(events)
                                               if e.type == "phase" and e.data["phase"] == "score")]]
    assert not ev(dev_and_crisis, "track_reset") and not ev(dev_and_crisis, "seal")
    score = phase_slice(events, "score")
    assert [e.data["track"] for e in ev(score, "track_reset") if e.data["seat"] == seat] == ["influence"]
    assert [e.data["seat"] for e in ev(score, "seal")] == [seat]
    assert pl(table, seat).tracks["influence"] == 0
    check(table)


# -- QNC-193..201: Hunger -----------------------------------------------------------------------
def _build_t1(table, seat, card="S01", extra_hand=()):
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE"), *extra_hand])
    set_pool(table, "t1", [card, *[c for c in ("S02", "S03", "S06") if c != card][:2]])
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    return act(table, seat, "build", card=card)


def test_a_hunger_effect_puts_a_hunger_card_on_top_of_the_discard_pile_QNC_193():
    """QNC-193: the card comes from the Hunger deck and lands on top of the discard pile."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    move_card(table, card_of(seat, "B-MOBILIZE"), f"p{seat}.discard")
    deck = list(table.state.hunger_deck)
    events = _build_t1(table, seat)
    got = [e.data["card"] for e in ev(events, "hunger")]
    assert len(got) == 1 and got[0] in deck
    p = pl(table, seat)
    # on top of what was there; the Build card itself is discarded once it has resolved
    assert p.discard == [card_of(seat, "B-MOBILIZE"), got[0], card_of(seat, "B-BUILD")]
    assert len(table.state.hunger_deck) == len(deck) - 1 and got[0] not in table.state.hunger_deck
    check(table)


def test_a_burn_effect_never_offers_hunger_cards_QNC_194():
    """QNC-194: A02's Burn offers the other hand cards, not the Hunger card in hand nor the
    Hunger card on top of the discard pile."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["A02", "H01", card_of(seat, "B-MORALE"), card_of(seat, "B-MOBILIZE")])
    move_card(table, "H02", f"p{seat}.discard")
    act(table, seat, "play", card="A02")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    assert kinds(table) == [(seat, "burn")]
    offered = {(o["zone"], o["card"]) for o in options(table, seat, "burn")}
    assert offered == {("hand", card_of(seat, "B-MORALE")), ("hand", card_of(seat, "B-MOBILIZE"))}
    check(table)


def test_a_burn_effect_with_only_hunger_available_burns_nothing_QNC_194():
    """QNC-194: only Hunger in hand and on top of the discard pile: no burn at all."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["A02", "H01"])
    move_card(table, card_of(seat, "B-MOBILIZE"), f"p{seat}.discard")
    move_card(table, "H02", f"p{seat}.discard")
    act(table, seat, "play", card="A02")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    assert (seat, "burn") not in kinds(table)
    p = pl(table, seat)
    assert "H01" in p.hand and not p.burned
    assert p.discard[-3:] == [card_of(seat, "B-MOBILIZE"), "H02", "A02"]
    check(table)


def test_the_end_of_development_burn_never_offers_hunger_QNC_194():
    """QNC-194: at the burn step, Hunger cards left in hand are not offered, only the
    (non-Hunger) top card of the discard pile."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    quiet_round(table, hands={seat: ["H01", "H02", card_of(seat, "B-MORALE")]})
    move_card(table, card_of(seat, "B-MOBILIZE"), f"p{seat}.discard")
    auto(table, until=until_prompt("end_burn", seat))
    offered = table.legal(seat)
    assert {(o.type, tuple(sorted(o.params.items()))) for o in offered} == {
        ("burn", (("card", card_of(seat, "B-MOBILIZE")), ("zone", "discard"))), ("no_burn", ())}
    check(table)


def test_hunger_leaves_only_through_support_one_card_from_hand_QNC_195():
    """QNC-195: support is offered for Hunger cards in hand only (not deck or discard); it
    removes a single card; the Hunger card left in hand stays the player's (discarded at the
    end of the Development phase)."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    quiet_round(table, hands={seat: ["H01", "H02", card_of(seat, "B-MORALE")]})
    move_card(table, "H03", f"p{seat}.discard")
    move_card(table, "H04", f"p{seat}.deck")
    supports = sorted(o["card"] for o in options(table, seat, "board") if o["action"] == "support")
    assert supports == ["H01", "H02"]
    act(table, seat, "board", action="support", card="H01")
    p = pl(table, seat)
    assert "H01" not in p.hand and "H02" in p.hand
    next_round(table)
    mine = [c for p in [pl(table, seat)] for c in p.deck + p.hand + p.discard]
    assert {"H02", "H03", "H04"} <= set(mine) and "H01" not in mine
    assert not pl(table, seat).burned
    check(table)


def test_a_supported_hunger_card_goes_back_to_the_hunger_deck_QNC_196():
    """QNC-196 reading: back to the Hunger deck."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    set_hand(table, seat, ["H05", card_of(seat, "B-MORALE")])
    n = len(table.state.hunger_deck)
    act(table, seat, "board", action="support", card="H05")
    assert "H05" in table.state.hunger_deck and len(table.state.hunger_deck) == n + 1
    check(table)


def test_a_failed_hunger_crisis_gives_one_hunger_card_unless_bribed_QNC_197():
    """QNC-197: C1C (both challenges individual, Hunger penalty). Seat a plays nothing and
    fails both: 2 Hunger cards; seat b bribes the warfare penalty: 1; seat c beats the
    warfare challenge: 1."""
    table = new_game(players=3, seed=0)
    order = turn_order(table.state)
    a, b, c = order
    quiet_round(table, hands={b: [card_of(b, "B-BRIBE")], c: [card_of(c, "B-MOBILIZE")]})

    def bribe_warfare(t, p):
        if p.kind == "bribe":
            return next(o for o in p.options if o.params["crisis"] == "warfare")
        return None

    events = phase_slice(auto(table, until=after_crisis, policy=bribe_warfare), "crisis")
    count = {s: len([e for e in ev(events, "hunger") if e.data["seat"] == s]) for s in order}
    assert count == {a: 2, b: 1, c: 1}
    assert [e.data["kind"] for e in ev(events, "bribed")] == ["warfare"]
    for s in order:
        assert len(hunger_in(pl(table, s).discard)) == count[s]
    check(table)


@pytest.mark.parametrize("slot,expected", [(2, 2), (0, 1)])
def test_hunger_from_a_new_column_and_from_an_alert_QNC_199(slot, expected):
    """QNC-199: a Tier 1 structure in a new column gives Hunger; in Swift Game, a seal (here
    from becoming Favored) covering an Alert slot gives another."""
    assert PACK.board.seal_slots[2] and not PACK.board.seal_slots[0]
    table = new_game(players=2, seed=0, scenario="swift")
    seat = turn_seat(table)
    pl(table, seat).diplomacy = [-4, 0]
    events = _build_t1(table, seat, "S01")
    assert kinds(table) == [(seat, "seal_slot")]
    events += act(table, seat, "seal_slot", slot=slot)
    assert len([e for e in ev(events, "hunger") if e.data["seat"] == seat]) == expected
    assert len(hunger_in(pl(table, seat).discard)) == expected
    check(table)


def test_an_upgrade_is_not_a_new_column_and_gives_no_hunger_QNC_199():
    """QNC-199: only a Tier 1 structure opening a new column brings Hunger, not an upgrade."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    col = add_column(table, seat, "S11")
    pl(table, seat).columns[col].upgrades = 1
    set_hand(table, seat, [card_of(seat, "B-BUILD"), card_of(seat, "B-MORALE")])
    set_pool(table, "t2", ["S35", "S26", "S27"])
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    events = act(table, seat, "build", card="upgrade")
    if prompt(table).kind == "upgrade_column":
        events += act(table, seat, "upgrade_column", column=col)
    events += auto(table, until=lambda t: prompt(t).kind == "turn")
    assert ev(events, "upgraded") and not ev(events, "hunger")
    check(table)


def _empty_hunger_deck(table, into: int) -> None:
    for h in list(table.state.hunger_deck):
        move_card(table, h, f"p{into}.discard")


def test_an_empty_hunger_deck_turns_the_new_column_hunger_into_rebellion_QNC_200():
    """QNC-200: building with no Hunger card left gives a Rebellion token instead."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    _empty_hunger_deck(table, 1 - seat)
    events = _build_t1(table, seat, "S01")
    assert not ev(events, "hunger")
    if prompt(table).kind == "rebellion_column":
        events += act(table, seat, "rebellion_column", column=1)
    p = pl(table, seat)
    assert sum(c.rebellion for c in p.columns) == 1
    assert not hunger_in(p.discard)
    check(table)


def test_an_empty_hunger_deck_turns_a_crisis_hunger_penalty_into_rebellion_QNC_200():
    """QNC-200: failing both Hunger challenges of C1C with an empty Hunger deck: two Rebellion
    tokens, no Hunger card."""
    table = new_game(players=2, seed=0)
    quiet_round(table)
    _empty_hunger_deck(table, 1)
    n1 = len(pl(table, 1).discard)
    events = phase_slice(auto(table, until=after_crisis), "crisis")
    assert not ev(events, "hunger")
    p0 = pl(table, 0)
    assert sum(c.rebellion for c in p0.columns) == 2 and not hunger_in(p0.discard)
    assert sum(c.rebellion for c in pl(table, 1).columns) == 2
    assert len(pl(table, 1).discard) == n1
    check(table)


def test_hunger_cards_cannot_be_played_and_a_hand_of_hunger_skips_QNC_201():
    """QNC-201: a Hunger card is never a play option (and is refused); with a playable card
    there is no skip; with only Hunger left the seat skips its play."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    other = 1 - seat
    quiet_round(table, hands={seat: ["H01", "H02", card_of(seat, "B-MORALE")]})
    assert [o["card"] for o in options(table, seat, "play")] == [card_of(seat, "B-MORALE")]
    assert not options(table, seat, "skip")
    with pytest.raises(ActionRejected):
        act(table, seat, "play", card="H01")
    act(table, seat, "play", card=card_of(seat, "B-MORALE"))
    act(table, other, "skip")
    assert turn_seat(table) == seat
    assert options(table, seat, "play") == [] and options(table, seat, "skip") == [{}]
    events = act(table, seat, "skip")
    assert ev(events, "skip") and turn_seat(table) == other
    assert sorted(pl(table, seat).hand) == ["H01", "H02"]
    check(table)


def test_no_extra_action_with_only_hunger_in_hand_QNC_201():
    """QNC-201: an Extra Action token cannot be used when only Hunger cards are in hand."""
    table = new_game(players=2, seed=0)
    seat = turn_seat(table)
    quiet_round(table, hands={seat: ["H01", card_of(seat, "B-MORALE")]})
    pl(table, seat).extra_actions = 1
    seen = []
    auto(table, until=after_crisis, policy=lambda t, p: seen.append(p.kind))
    assert "extra_action" not in seen
    assert pl(table, seat).extra_actions == 1
    check(table)
