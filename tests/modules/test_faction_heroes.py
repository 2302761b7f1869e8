"""Faction Heroes module of The Queen's New Capital (QNC-012, QNC-203, QNC-207,
QNC-216..221), played through the engine."""
from __future__ import annotations

import json
import shutil

import pytest

from core import create_table, default_registry
from core.errors import BadParameter, BadPlayerCount, ContentError
from plugins.new_capital.content import DEFAULT_PACK
from tests.content_files import registry_with_pack
from tests.new_capital.harness import (
    clear_leaders,
    PACK, act, add_column, auto, card_of, check, kinds, move_card, new_game, options, pl, put_leader, set_hand,
    set_pool,
)

FH = "faction-heroes"
FACTIONS = ("crown", "guild", "march", "temple")
HEROES = {f: sorted(l.id for l in PACK.leaders.values() if l.hero and l.faction == f) for f in FACTIONS}
ALL_HEROES = sorted(h for hs in HEROES.values() for h in hs)
FAVORED = {"crown": (0, -5), "guild": (0, 5), "temple": (1, -5), "march": (1, 5)}


# -- local helpers ----------------------------------------------------------------------
def stacks(table) -> dict[str, list[str]]:
    return table.state.module_state[FH]["zones"]


def hero_game(players: int = 2, seed: int = 0, favored: dict[int, tuple[str, ...]] | None = None,
              tops: dict[str, str] | None = None):
    """A table with Faction Heroes at the first player's first turn. `favored` puts seats' cubes
    on the Favored spaces of those factions; `tops` arranges which hero tops its stack.
    Draft leaders go back to the box so leader abilities do not interfere."""
    t = new_game(players, seed=seed, modules=[FH])
    clear_leaders(t)  # draft leaders back to the box
    for seat, factions in (favored or {}).items():
        for f in factions:
            track, pos = FAVORED[f]
            pl(t, seat).diplomacy[track] = pos
    for faction, hero in (tops or {}).items():
        s = stacks(t)[faction]
        s.remove(hero)
        s.append(hero)
    return t


def hand(table, seat, cards):
    set_hand(table, seat, [card_of(seat, c) if c.startswith("B-") else c for c in cards])


def heroes_offered(table, seat) -> list[str]:
    return [o["card"] for o in options(table, seat, "recruit") if o["card"] in ALL_HEROES]


def pass_turn(table, seat):
    """The seat plays a card with no effect now (a face-down political card)."""
    for c in ("B-MORALE", "B-ENVOY", "B-BRIBE"):
        if card_of(seat, c) in pl(table, seat).hand:
            return act(table, seat, "play", card=card_of(seat, c))
    raise AssertionError("no quiet card in hand")


def recruit_into(table, seat, card, column, slot, displace="flip"):
    """Answer an open recruit prompt with `card`, put it at (column, slot)."""
    events = act(table, seat, "recruit", card=card)
    events += act(table, seat, "leader_slot", card=card, column=column, slot=slot)
    if any(p.kind == "displace" for p in table.state.prompts):
        events += act(table, seat, "displace", to=displace)
    return events


def of(events, type, **match):
    return [e.data for e in events if e.type == type and all(e.data.get(k) == v for k, v in match.items())]


def province_leaders_of(table, seat):
    return [s.leader for c in pl(table, seat).columns for s in c.slots if s.leader]


def hero_zones(table) -> dict[str, str]:
    """Where every hero is, by zone name."""
    from plugins.new_capital.views import zones

    out = {}
    for zone, cards in zones(table.state).items():
        for c in cards:
            if c in ALL_HEROES:
                out[c] = zone
    return out


# -- QNC-012 / QNC-203 / QNC-207: components, player counts, setup ----------------------------
def test_the_module_has_12_heroes_three_per_faction_and_needs_them_QNC_012(tmp_path):
    """QNC-012: 12 Faction Hero cards, three for each of the four factions, all in play with the
    module; a pack missing one hero cannot be used with the module (but can without it)."""
    assert len(ALL_HEROES) == 12 and all(len(HEROES[f]) == 3 for f in FACTIONS)
    t = hero_game(2, seed=0)
    assert sorted(h for s in stacks(t).values() for h in s) == ALL_HEROES
    check(t)

    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, folder)
    path = folder / "leaders.json"
    path.write_text(json.dumps([l for l in json.loads(path.read_text()) if l["id"] != HEROES["march"][0]]))
    registry = registry_with_pack(folder)
    with pytest.raises(ContentError):
        create_table("new-capital", 2, seed=0, modules=[FH], options={"pack": "custom"}, registry=registry)
    create_table("new-capital", 2, seed=0, options={"pack": "custom"}, registry=registry)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_faction_heroes_take_1_to_4_players_QNC_203(players):
    """QNC-203: the module is allowed with 1, 2, 3 and 4 players (solo included)."""
    assert default_registry().check_table("new-capital", [FH], players, {}) == ()
    t = new_game(players, seed=2, modules=[FH])
    assert FH in t.state.module_state and len(t.state.players) == players
    check(t)


def test_five_players_are_refused_with_faction_heroes_QNC_203():
    """QNC-203: no table of more than 4 players, with the module either."""
    with pytest.raises(BadPlayerCount):
        create_table("new-capital", 5, seed=0, modules=[FH])


def test_setup_makes_four_shuffled_face_up_faction_stacks_of_three_QNC_207():
    """QNC-207: each faction's stack holds exactly its 3 heroes, in a seed-dependent order; the
    stacks are face up (every viewer, spectators included, sees each top card and the count);
    without the module the heroes stay in the box."""
    orders = {f: set() for f in FACTIONS}
    for seed in range(8):
        t = hero_game(3, seed=seed)
        s = stacks(t)
        assert sorted(s) == sorted(FACTIONS)
        for f in FACTIONS:
            assert sorted(s[f]) == HEROES[f]
            orders[f].add(tuple(s[f]))
        assert not set(ALL_HEROES) & set(t.state.box)
        for viewer in (None, 0, 1, 2):
            pools = t.view(viewer)["module_state"][FH]["pools"]
            assert pools == {f: {"top": s[f][-1], "count": 3} for f in FACTIONS}
        check(t)
    assert all(len(o) > 1 for o in orders.values()), orders
    bare = new_game(3, seed=0)
    assert set(ALL_HEROES) <= set(bare.state.box)


# -- QNC-216 / QNC-221: recruiting needs the faction's favour ----------------------------------
def test_only_a_player_favored_by_the_faction_may_recruit_its_hero_QNC_216_QNC_221():
    """QNC-216, QNC-221: a Recruit offers no hero to a player who is not Favored (even one space
    short on both tracks); once the player's Administrate moves their cube onto the crown's
    Favored space, their next Recruit (an Advanced Recruit card) offers the crown's top hero,
    and no other faction's, besides the Leader pool."""
    t = hero_game(2, seed=0)
    f = t.state.first
    o = 1 - f
    pl(t, f).diplomacy = [-4, 0]
    pl(t, o).diplomacy = [-4, 4]
    set_pool(t, "leaders", ["L25", "L26", "L27"])  # temple leaders: recruiting them leaves track 0 alone
    hand(t, f, ["B-RECRUIT", "B-ADMINISTRATE", "A06", "B-MORALE", "B-ENVOY"])
    hand(t, o, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE"])
    crown_top = stacks(t)["crown"][-1]

    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    assert heroes_offered(t, f) == []
    assert sorted(o_["card"] for o_ in options(t, f, "recruit")) == ["L25", "L26", "L27"]
    recruit_into(t, f, "L25", 0, 0)
    act(t, o, "play", card=card_of(o, "B-RECRUIT"))
    assert heroes_offered(t, o) == []
    recruit_into(t, o, "L26", 0, 0)
    assert pl(t, f).diplomacy[0] == -4

    act(t, f, "play", card=card_of(f, "B-ADMINISTRATE"))
    events = act(t, f, "administrate", track=0, direction=-1)
    assert of(events, "favored", seat=f) == [{"seat": f, "faction": "crown"}]
    act(t, f, "seal_slot", slot=0)
    pass_turn(t, o)
    act(t, f, "play", card="A06")
    assert heroes_offered(t, f) == [crown_top]
    assert set(o_["card"] for o_ in options(t, f, "recruit")) == {crown_top, *t.state.rows["leaders"].pool}
    events = recruit_into(t, f, crown_top, 0, 1)
    assert of(events, "hero_recruited", seat=f)[0]["faction"] == "crown"
    assert crown_top in province_leaders_of(t, f)
    check(t)


# -- QNC-217: a pool of their own --------------------------------------------------------------
def test_heroes_are_never_part_of_the_leader_pool_QNC_217():
    """QNC-217: the heroes are never in the Leader deck, pool or discard; recruiting a hero takes
    it from its stack and leaves the Leader pool and deck untouched; a Scout redealing the Leader
    pool and two played rounds never bring a hero into the Leader row."""
    t = hero_game(2, seed=1, favored={0: ("guild",), 1: ("guild",)})
    f = t.state.first
    o = 1 - f
    row = t.state.rows["leaders"]
    assert not set(ALL_HEROES) & set(row.deck + row.pool + row.discard)
    hand(t, f, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE"])
    hand(t, o, ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE", "B-MOBILIZE"])
    pool, deck = list(row.pool), list(row.deck)
    top = stacks(t)["guild"][-1]
    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    events = recruit_into(t, f, top, 0, 0)
    assert of(events, "hero_recruited") == [{"seat": f, "card": top, "faction": "guild", "next": stacks(t)["guild"][-1]}]
    assert not of(events, "row")  # no Leader pool refill
    assert row.pool == pool and row.deck == deck
    act(t, o, "board", action="scout", row="leaders", match="development")  # redeals the pool
    assert not set(ALL_HEROES) & set(row.deck + row.pool + row.discard)
    auto(t, until=lambda tb: tb.state.round > 2)
    assert not set(ALL_HEROES) & set(row.deck + row.pool + row.discard)
    zones_now = hero_zones(t)
    assert zones_now[top] == f"p{f}.province"
    assert all(z.startswith(f"{FH}.") for h, z in zones_now.items() if h != top)
    check(t)


# -- QNC-218: only the top card ---------------------------------------------------------------
def test_only_the_top_hero_is_recruitable_and_the_next_one_takes_its_place_QNC_218():
    """QNC-218: only the top card of a stack is offered; asking for the card beneath is refused;
    once the top hero is recruited the card beneath is offered, here to the other player."""
    t = hero_game(2, seed=0, favored={0: ("march",), 1: ("march",)})
    f = t.state.first
    o = 1 - f
    stack = list(stacks(t)["march"])
    hand(t, f, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE"])
    hand(t, o, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE"])
    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    assert heroes_offered(t, f) == [stack[-1]]
    for beneath in stack[:-1]:
        with pytest.raises(BadParameter):
            act(t, f, "recruit", card=beneath)
    events = recruit_into(t, f, stack[-1], 0, 0)
    assert of(events, "hero_recruited")[0]["next"] == stack[-2]
    assert stacks(t)["march"] == stack[:-1]
    assert t.view(o)["module_state"][FH]["pools"]["march"] == {"top": stack[-2], "count": 2}
    act(t, o, "play", card=card_of(o, "B-RECRUIT"))
    assert heroes_offered(t, o) == [stack[-2]]
    with pytest.raises(BadParameter):
        act(t, o, "recruit", card=stack[-1])
    check(t)


# -- QNC-219: one per faction, two in all ------------------------------------------------------
def test_a_player_holds_at_most_one_hero_of_a_faction_QNC_219():
    """QNC-219: a player Favored by the crown and the temple who recruited the crown's top hero
    is offered the temple's hero on their next Recruit, but no second crown hero, though the
    crown stack still has one on top."""
    t = hero_game(2, seed=0)
    f = t.state.first
    o = 1 - f
    pl(t, f).diplomacy = [FAVORED["crown"][1], FAVORED["temple"][1]]
    add_column(t, f, "S02")
    crown = list(stacks(t)["crown"])
    temple_top = stacks(t)["temple"][-1]
    hand(t, f, ["B-RECRUIT", "A06", "B-MORALE", "B-ENVOY", "B-BRIBE"])
    hand(t, o, ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE", "B-MOBILIZE"])
    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    assert sorted(heroes_offered(t, f)) == sorted([crown[-1], temple_top])
    recruit_into(t, f, crown[-1], 0, 0)
    pass_turn(t, o)
    act(t, f, "play", card="A06")
    assert heroes_offered(t, f) == [temple_top]
    assert stacks(t)["crown"][-1] == crown[-2]
    with pytest.raises(BadParameter):
        act(t, f, "recruit", card=crown[-2])
    recruit_into(t, f, temple_top, 1, 0)
    assert sorted(h for h in province_leaders_of(t, f) if h in ALL_HEROES) == sorted([crown[-1], temple_top])
    check(t)


def test_a_player_holds_at_most_two_heroes_QNC_219():
    """QNC-219: a player holding a guild and a march hero (and Favored by the crown and the
    temple, whose heroes they do not hold) is offered no hero; holding only one of them, the
    same player is offered both the crown's and the temple's top heroes."""
    results = {}
    for held in (("guild",), ("guild", "march")):
        t = hero_game(2, seed=0)
        f = t.state.first
        for fac in ("crown", "temple"):
            track, pos = FAVORED[fac]
            pl(t, f).diplomacy[track] = pos
        add_column(t, f, "S03")
        for i, fac in enumerate(held):
            put_leader(t, f, stacks(t)[fac][-1], i, 0)
        hand(t, f, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE"])
        act(t, f, "play", card=card_of(f, "B-RECRUIT"))
        results[held] = (sorted(heroes_offered(t, f)), sorted([stacks(t)["crown"][-1], stacks(t)["temple"][-1]]))
        check(t)
    offered, tops = results[("guild",)]
    assert offered == tops
    assert results[("guild", "march")][0] == []


# -- QNC-220: no alignment bonus ---------------------------------------------------------------
def test_a_hero_under_a_structure_of_its_faction_gives_no_alignment_bonus_QNC_220():
    """QNC-220: a crown hero placed under a crown structure gives no alignment bonus, while a
    crown pool leader placed under the same structure right after does."""
    t = hero_game(2, seed=0)
    f = t.state.first
    o = 1 - f
    pl(t, f).diplomacy[0] = -5  # Favored by the crown
    col = add_column(t, f, "S01")
    assert PACK.structures["S01"].faction == "crown"
    set_pool(t, "leaders", ["L02", "L26", "L27"])  # L02: crown leader, alignment = 1 control token
    hand(t, f, ["B-RECRUIT", "A06", "B-MORALE", "B-ENVOY", "B-BRIBE"])
    hand(t, o, ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-ELITE", "B-MOBILIZE"])
    hero = stacks(t)["crown"][-1]
    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    control = pl(t, f).reserve_control
    events = recruit_into(t, f, hero, col, 0)
    assert of(events, "recruit", seat=f, card=hero)
    assert not of(events, "alignment_bonus")
    assert pl(t, f).reserve_control == control
    pass_turn(t, o)
    act(t, f, "play", card="A06")
    events = recruit_into(t, f, "L02", col, 1)
    assert of(events, "alignment_bonus") == [{"seat": f, "card": "L02"}]
    assert pl(t, f).reserve_control == control + 1
    check(t)


# -- QNC-221: a leader for placement --------------------------------------------------------------
def test_a_hero_is_placed_like_a_leader_and_acts_as_one_QNC_221():
    """QNC-221: a recruited hero is offered the same leader slots as a pool leader (both slots
    of every column), may displace a leader, sits in the slot, and its ability works: FH12 adds
    3 to its owner's warfare total in the crisis check."""
    t = hero_game(2, seed=0, tops={"march": "FH12"})
    f = t.state.first
    o = 1 - f
    put_leader(t, f, "L25", 0, 0)  # a temple leader with no crisis ability
    assert PACK.leaders["L25"].ability.trigger != "crisis_total"
    pl(t, f).diplomacy[1] = FAVORED["march"][1]
    col = add_column(t, f, "S04")
    move_card(t, "C1C", "crisis")  # warfare: individual, 2
    hand(t, f, ["B-RECRUIT", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-ADMINISTRATE"])
    hand(t, o, ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-ADMINISTRATE", "B-RESEARCH"])
    act(t, f, "play", card=card_of(f, "B-RECRUIT"))
    assert "FH12" in heroes_offered(t, f)
    act(t, f, "recruit", card="FH12")
    slots = sorted((o_["column"], o_["slot"]) for o_ in options(t, f, "leader_slot"))
    assert slots == [(c, si) for c in range(len(pl(t, f).columns)) for si in (0, 1)]
    assert col == 1
    act(t, f, "leader_slot", card="FH12", column=0, slot=0)  # occupied by L25
    assert kinds(t) == [(f, "displace")]
    events = act(t, f, "displace", to=f"{col}:0")
    assert of(events, "leader_moved", seat=f, card="L25")
    assert pl(t, f).columns[0].slots[0].leader == "FH12" and pl(t, f).columns[col].slots[0].leader == "L25"
    events = auto(t, until=lambda tb: tb.state.phase == "score" or tb.state.round > 1)
    warfare = [e.data for e in events if e.type == "crisis_check" and e.data["kind"] == "warfare"][0]
    assert warfare["totals"][f] == 3 and warfare["totals"][o] == 0
    assert f not in warfare["failed"] and f in warfare["rewarded"]
    check(t)
