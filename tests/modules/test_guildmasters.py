"""Guildmasters module of The Queen's New Capital (QNC-011, QNC-202, QNC-205, QNC-206,
QNC-210..215, QNC-243, QNC-251, QNC-256), played through the engine.

Every Guildmaster modifier kind is shown acting in play: first_play, block_board,
block_effect, crisis_need, crisis_add and on_active."""
from __future__ import annotations

import pytest

from core import Action, create_table, default_registry
from core.errors import ActionRejected, BadParameter, BadPlayerCount, ContentError, IllegalAction, NotYourTurn
from plugins.guildmasters.plugin import cards as gm_cards
from plugins.new_capital.content import DEFAULT_PACK
from plugins.new_capital.province import turn_order
from tests.new_capital.harness import (
    clear_leaders,
    PACK, act, auto, card_of, check, kinds, move_card, new_game, options, pl, set_hand, until_prompt,
)
from tests.new_capital.harness import scripted  # shared arrangements
from tests.content_files import copy_folder, edit_json, registry_with_pack

GM = "guildmasters"
ALL_GM = [f"GM{i:02d}" for i in range(1, 13)]


# -- local helpers ----------------------------------------------------------------------
def zones_of(table) -> dict:
    return table.state.module_state[GM]["zones"]


def gm_table(players: int = 2, seed: int = 0, deal: tuple[str, str] | None = None, pack: str = "",
             modules=(GM,), arrange=None):
    """A table with Guildmasters whose round-1 deal is `deal` (arranged on top of the shuffled
    deck before the last draft choice), waiting on the first player's `guildmaster` prompt.
    Draft leaders go back to the box so no leader ability blurs what a test measures.
    `arrange(table)` runs after setup, before the draft ends (and so before the deal)."""
    opts, registry = {"scenario": "learning"}, None
    if pack:
        opts["pack"], registry = "custom", registry_with_pack(pack)
    t = create_table("new-capital", players, seed=seed, modules=list(modules), options=opts, registry=registry)
    if deal:
        for c in (deal[1], deal[0]):  # the deck's top is its last card: deal[0] comes first
            move_card(t, c, f"{GM}.deck")
    if arrange:
        arrange(t)
    for seat in range(players):
        t.act(seat, t.legal(seat)[0])
    clear_leaders(t)  # draft leaders back to the box
    return t


def choose(table, card: str) -> list:
    p = [q for q in table.state.prompts if q.kind == "guildmaster"]
    assert len(p) == 1, kinds(table)
    return act(table, p[0].seat, "guildmaster", card=card)


def of(events, type, **match):
    return [e.data for e in events if e.type == type and all(e.data.get(k) == v for k, v in match.items())]


def until_phase_event(events, phase):
    """The events before the first `phase` event of `phase`."""
    for i, e in enumerate(events):
        if e.type == "phase" and e.data.get("phase") == phase:
            return events[:i]
    return events


def checks(events):
    return {e.data["kind"]: e.data for e in events if e.type == "crisis_check"}


def hands(table, plan: dict[int, list[str]]) -> None:
    """Arrange each seat's hand (basic names like "B-BUILD" or advanced ids)."""
    for seat, cards in plan.items():
        set_hand(table, seat, [card_of(seat, c) if c.startswith("B-") else c for c in cards])


def board_actions(table, seat) -> set[str]:
    return {o["action"] for o in options(table, seat, "board")}


def custom_pack(tmp_path, edit) -> str:
    """A copy of the demo content pack whose guildmasters.json is edited in place by `edit(list)`."""
    folder = copy_folder(DEFAULT_PACK, tmp_path, "pack")
    edit_json(folder, "guildmasters.json", edit)
    return str(folder)


# -- QNC-011 / QNC-206: the deck -------------------------------------------------------------
def test_the_module_deck_has_12_guildmasters_and_other_counts_are_refused_QNC_011(tmp_path):
    """QNC-011: the module plays with exactly 12 Guildmaster cards; a pack with 11 is refused
    when the table is created."""
    assert sorted(gm_cards()) == ALL_GM
    t = create_table("new-capital", 2, seed=3, modules=[GM])
    z = zones_of(t)
    assert sorted(z["deck"] + z["discard"] + z["dealt"]) == ALL_GM
    def first_eleven(data):
        del data[11:]

    pack = custom_pack(tmp_path, first_eleven)
    with pytest.raises(ContentError):
        create_table("new-capital", 2, seed=3, modules=[GM], options={"pack": "custom"},
                     registry=registry_with_pack(pack))


def test_setup_shuffles_the_guildmaster_deck_with_an_empty_discard_pile_QNC_206():
    """QNC-206: after setup all 12 cards form one face-down deck in a seed-dependent random
    order, and the discard pile is empty."""
    orders = set()
    for seed in range(6):
        t = new_game(3, seed=seed, draft=False, modules=[GM])
        z = zones_of(t)
        assert sorted(z["deck"]) == ALL_GM and z["discard"] == [] and z["dealt"] == []
        orders.add(tuple(z["deck"]))
        seen = t.view(0)["module_state"][GM]["zones"]
        assert seen["deck"] == 12 and seen["discard"] == []  # face down: only a count is shown
        check(t)
    assert len(orders) > 1
    assert tuple(ALL_GM) not in orders  # not left in id order


# -- QNC-202 / QNC-243 / QNC-205: configurations ----------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_guildmasters_tables_take_2_to_4_players_QNC_202(players):
    """QNC-202: 2, 3 and 4 players may use the module."""
    t = new_game(players, seed=1, modules=[GM])
    assert GM in t.state.module_state and kinds(t) == [(t.state.first, "guildmaster")]
    check(t)


def test_guildmasters_are_refused_in_solo_while_dilemmas_and_heroes_are_allowed_QNC_202_QNC_243():
    """QNC-202, QNC-243: a 1-player table with Guildmasters is refused with BadPlayerCount
    naming the module; Dilemmas and Faction Heroes (alone or together) are allowed solo."""
    with pytest.raises(BadPlayerCount) as err:
        create_table("new-capital", 1, seed=0, modules=[GM])
    assert GM in str(err.value)
    with pytest.raises(BadPlayerCount) as err:
        default_registry().check_table("new-capital", ["faction-heroes", GM], 1, {})
    assert GM in str(err.value)
    for modules in (["dilemmas"], ["faction-heroes"], ["dilemmas", "faction-heroes"]):
        assert default_registry().check_table("new-capital", modules, 1, {}) == ()
        t = create_table("new-capital", 1, seed=0, modules=modules)
        assert set(modules) <= set(t.state.module_state)
        assert GM not in t.state.module_state


def test_guildmasters_with_dilemmas_is_warned_against_but_allowed_QNC_205():
    """QNC-205: the registry reports a warning for Guildmasters + Dilemmas (either order), not
    for Guildmasters alone, and the table can still be created and played with both."""
    reg = default_registry()
    assert reg.check_table("new-capital", [GM], 3, {}) == ()
    for modules in ([GM, "dilemmas"], ["dilemmas", GM]):
        warnings = reg.check_table("new-capital", modules, 3, {})
        assert warnings and any(GM in w and "dilemmas" in w for w in warnings), warnings
    t = new_game(3, seed=2, modules=[GM, "dilemmas"])
    assert {GM, "dilemmas"} <= set(t.state.module_state)
    assert kinds(t) == [(t.state.first, "guildmaster")]
    choose(t, t.legal(t.state.first)[0].params["card"])
    assert kinds(t) == [(t.state.first, "turn")]
    check(t)


# -- QNC-210 / QNC-256 / QNC-211 / QNC-212: the deal and the choice ----------------------------
def test_first_player_is_dealt_two_from_the_deck_after_the_draw_before_any_play_QNC_210_QNC_256():
    """QNC-210, QNC-256: once every player holds 6 cards, the round's first player (and only
    they) gets the top two cards of the Guildmaster deck; nobody may play before the choice.
    Next round the new first player is dealt two more from the deck."""
    t = new_game(3, seed=4, draft=False, modules=[GM])
    top_two = zones_of(t)["deck"][-2:][::-1]
    events = []
    for seat in range(3):
        events += t.act(seat, t.legal(seat)[0])
    first = t.state.first
    assert t.state.phase == "development" and t.state.round == 1
    assert all(len(p.hand) == 6 and p.played == 0 for p in t.state.players)
    assert kinds(t) == [(first, "guildmaster")]
    assert [o["card"] for o in options(t, first)] == top_two
    z = zones_of(t)
    assert z["dealt"] == top_two and len(z["deck"]) == 10 and z["discard"] == []
    draws = [i for i, e in enumerate(events) if e.type == "draw"]
    dealt = [i for i, e in enumerate(events) if e.type == "guildmasters_dealt"]
    assert len(draws) == 3 and len(dealt) == 1 and max(draws) < dealt[0]
    assert not of(events, "play")
    for seat in range(3):  # no card can be played yet
        with pytest.raises(ActionRejected):
            act(t, seat, "play", card=t.state.players[seat].hand[0])
    choose(t, top_two[0])
    assert kinds(t) == [(first, "turn")]

    auto(t, until=lambda tb: tb.state.round == 2 and until_prompt("guildmaster")(tb))
    second = t.state.first
    assert second == (first + 1) % 3
    assert kinds(t) == [(second, "guildmaster")]
    assert all(len(p.hand) == 6 and p.played == 0 for p in t.state.players)
    assert len(zones_of(t)["deck"]) == 8 and len(zones_of(t)["dealt"]) == 2
    check(t)


def test_the_first_player_must_choose_one_of_the_two_and_cannot_decline_QNC_211():
    """QNC-211: with two harmful Guildmasters dealt (both give Hunger), the only legal answers
    are the two cards: no pass, no other card, and the game does not go on without a choice."""
    t = gm_table(2, seed=0, deal=("GM12", "GM02"))
    first = t.state.first
    assert options(t, first) == [{"card": "GM12"}, {"card": "GM02"}]
    for bad in (Action("skip", {}), Action("decline", {}), Action("guildmaster", {"card": "GM05"}),
                Action("play", {"card": pl(t, first).hand[0]})):
        with pytest.raises(ActionRejected):
            t.act(first, bad)
    with pytest.raises(BadParameter):
        act(t, first, "guildmaster", card="GM05")
    with pytest.raises(IllegalAction):
        act(t, first, "skip")
    with pytest.raises(NotYourTurn):
        act(t, 1 - first, "guildmaster", card="GM12")
    assert zones_of(t)["dealt"] == ["GM12", "GM02"] and kinds(t) == [(first, "guildmaster")]
    choose(t, "GM02")
    assert zones_of(t)["discard"][-1] == "GM02"
    check(t)


def test_both_dealt_go_face_up_to_the_discard_with_the_chosen_on_top_and_only_it_active_QNC_212():
    """QNC-212: both cards go face up on the discard pile, the chosen one on top, and only the
    top card acts: GM04 (no Faction board action) on top of GM03 (no Resupply) blocks the
    Faction action but not Resupply; the other way round, Resupply is blocked but not Faction."""
    def favored(t):
        for p in t.state.players:
            p.diplomacy = [5, 0]  # Favored by the guild: a Faction board action is possible

    results = {}
    for chosen, other in (("GM04", "GM03"), ("GM03", "GM04")):
        t = gm_table(2, seed=0, deal=(other, chosen), arrange=favored)
        events = choose(t, chosen)
        z = zones_of(t)
        assert z["discard"] == [other, chosen] and z["dealt"] == []
        assert of(events, "guildmaster") == [{"seat": t.state.first, "card": chosen, "discarded": [other]}]
        for viewer in (None, 0, 1):  # face up: everybody sees the pile and the active card
            seen = t.view(viewer)["module_state"][GM]
            assert seen["zones"]["discard"] == [other, chosen] and seen["active"] == chosen
        results[chosen] = board_actions(t, t.state.first)
        check(t)
    assert "faction" not in results["GM04"] and "resupply" in results["GM04"]
    assert "resupply" not in results["GM03"] and "faction" in results["GM03"]


def test_a_new_choice_replaces_the_active_guildmaster_next_round_QNC_212():
    """QNC-212: the active Guildmaster is the top of the pile: GM03 blocks Resupply in round 1;
    in round 2 a new top card is chosen and Resupply is available again, GM03 staying in the pile."""
    t = gm_table(2, seed=0, deal=("GM03", "GM07"))
    choose(t, "GM03")
    assert "resupply" not in board_actions(t, t.state.first)
    auto(t, until=lambda tb: tb.state.round == 2 and until_prompt("guildmaster")(tb))
    dealt = list(zones_of(t)["dealt"])
    assert "GM03" not in dealt
    choose(t, dealt[1])
    assert zones_of(t)["discard"] == ["GM07", "GM03", dealt[0], dealt[1]]
    assert t.view(None)["module_state"][GM]["active"] == dealt[1]
    assert "resupply" in board_actions(t, t.state.first)
    check(t)


# -- QNC-215: the deck runs out --------------------------------------------------------------
def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out_QNC_215():
    """QNC-215: with 3 cards left in the deck, round 1 deals two; in round 2 the last card is
    dealt, then the 11 discarded Guildmasters (round 1's two included) are shuffled into a new
    deck and the second card comes from it."""
    def thin(t):
        z = zones_of(t)
        while len(z["deck"]) > 3:
            move_card(t, z["deck"][0], f"{GM}.discard")

    t = gm_table(2, seed=5, arrange=thin)
    z = zones_of(t)
    assert len(z["deck"]) == 1 and len(z["discard"]) == 9
    last = z["deck"][0]
    choose(t, z["dealt"][0])
    events = auto(t, until=lambda tb: tb.state.round == 2 and until_prompt("guildmaster")(tb))
    z = zones_of(t)
    assert of(events, "guildmaster_reshuffle") == [{"cards": 11}]
    assert z["dealt"][0] == last
    assert len(z["deck"]) == 10 and z["discard"] == []
    assert sorted(z["deck"] + z["dealt"]) == ALL_GM
    i_reshuffle = [i for i, e in enumerate(events) if e.type == "guildmaster_reshuffle"][0]
    i_dealt = [i for i, e in enumerate(events) if e.type == "guildmasters_dealt"][-1]
    assert i_reshuffle < i_dealt
    choose(t, z["dealt"][1])
    check(t)


# -- QNC-213 / QNC-214: first_play -------------------------------------------------------------
def test_first_build_gives_its_bonus_once_per_player_per_round_QNC_213_QNC_214():
    """QNC-214 (reading: first per player per round), QNC-213: with GM01 (the first Build each
    player plays gives 1 Wealth) both players get the Wealth for their first Build, though one
    plays it after the other; a player's second Build gives nothing; in round 2, with GM01
    active again, the first Build gives it again."""
    t = gm_table(2, seed=0, deal=("GM01", "GM07"))
    f = t.state.first
    o = 1 - f
    choose(t, "GM01")
    hands(t, {f: ["B-BUILD", "A14", "B-MORALE", "B-ENVOY", "B-BRIBE"],
              o: ["B-BUILD", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE"]})
    plan = {(f, "turn"): [{"card": card_of(f, "B-BUILD")}, {"card": "A14"}],
            (o, "turn"): [{"card": card_of(o, "B-BUILD")}]}
    plan.update({(s, "build"): [{"card": "upgrade"}] * 3 for s in (f, o)})
    events = auto(t, until=until_prompt("end_burn"), policy=scripted(plan))
    assert t.state.phase == "development"
    plays = [e.data["card"] for e in events if e.type == "play"]
    assert plays.index(card_of(f, "B-BUILD")) < plays.index(card_of(o, "B-BUILD")) < plays.index("A14")
    fired = of(events, "modifier", kind="first_play")
    assert [m["seat"] for m in fired] == [f, o]
    assert all(m["modifier"].startswith("gm:GM01") for m in fired)
    assert [(a["seat"], a["gained"]) for a in of(events, "attribute", track="wealth")] == [(f, 1), (o, 1)]
    assert pl(t, f).tracks["wealth"] == 1 and pl(t, o).tracks["wealth"] == 1

    # round 2: GM01 dealt and chosen again (arranged on the deck's top while round 1 ends)
    for c in ("GM07", "GM01"):
        move_card(t, c, f"{GM}.deck")
    auto(t, until=lambda tb: tb.state.round == 2 and until_prompt("guildmaster")(tb))
    assert zones_of(t)["dealt"] == ["GM01", "GM07"]
    choose(t, "GM01")
    f2 = t.state.first
    hands(t, {f2: ["B-BUILD", "B-MORALE", "B-ENVOY", "B-BRIBE"], 1 - f2: ["B-MORALE", "B-ENVOY", "B-BRIBE"]})
    plan = {(f2, "turn"): [{"card": card_of(f2, "B-BUILD")}], (f2, "build"): [{"card": "upgrade"}]}
    before = pl(t, f2).tracks["wealth"]
    events = auto(t, until=until_prompt("end_burn"), policy=scripted(plan))
    assert [m["seat"] for m in of(events, "modifier", kind="first_play")] == [f2]
    assert pl(t, f2).tracks["wealth"] == min(5, before + 1)
    check(t)


def test_first_warfare_card_gives_one_hunger_per_player_not_for_the_second_QNC_213_QNC_214():
    """QNC-214, QNC-213: GM02 (the first warfare card each player plays gives a Hunger card)
    matches a card kind: each player's first warfare card brings one Hunger card at once, the
    second warfare card of the same player brings none, non-warfare cards none."""
    t = gm_table(2, seed=1, deal=("GM02", "GM07"))
    f = t.state.first
    o = 1 - f
    choose(t, "GM02")
    hands(t, {f: ["B-MOBILIZE", "B-ELITE", "B-MORALE", "B-BRIBE", "B-ENVOY"],
              o: ["B-MORALE", "B-INTIMIDATE", "B-MOBILIZE", "B-BRIBE", "B-ENVOY"]})
    plan = {(f, "turn"): [{"card": card_of(f, c)} for c in ("B-MORALE", "B-MOBILIZE", "B-ELITE")],
            (o, "turn"): [{"card": card_of(o, c)} for c in ("B-MORALE", "B-INTIMIDATE", "B-MOBILIZE")]}
    hunger_before = len(t.state.hunger_deck)
    events = auto(t, until=until_prompt("end_burn"), policy=scripted(plan))
    dev = until_phase_event(events, "crisis")
    assert [h["seat"] for h in of(dev, "hunger")] == [f, o]
    assert [m["seat"] for m in of(dev, "modifier", kind="first_play")] == [f, o]
    assert len(t.state.hunger_deck) == hunger_before - 2
    for s in (f, o):
        assert sum(c in PACK.hunger for c in pl(t, s).discard) == 1
    # each Hunger card came right with that player's first warfare card, none with the second
    seq = [(e.type, e.data["seat"], e.data.get("card")) for e in dev if e.type in ("play", "hunger")]
    for s, first_war in ((f, "B-MOBILIZE"), (o, "B-INTIMIDATE")):
        i = seq.index(("play", s, card_of(s, first_war)))
        assert seq[i + 1][:2] == ("hunger", s)
        assert [x[:2] for x in seq[:i]].count(("hunger", s)) == 0
    check(t)


# -- QNC-213: block_board ----------------------------------------------------------------------
def test_blocked_board_action_is_missing_from_every_players_turn_and_refused_QNC_213():
    """QNC-213: GM03 (no Resupply) removes Resupply from the turn prompt of every player, and
    sending it anyway is refused; other board actions stay available."""
    t = gm_table(2, seed=0, deal=("GM03", "GM07"))
    choose(t, "GM03")
    f = t.state.first
    o = 1 - f
    hands(t, {s: ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE", "B-ELITE"] for s in (f, o)})
    assert "resupply" not in board_actions(t, f) and "scout" in board_actions(t, f)
    with pytest.raises(BadParameter):
        act(t, f, "board", action="resupply")
    act(t, f, "play", card=card_of(f, "B-MORALE"))
    assert kinds(t)[0][0] == o
    assert "resupply" not in board_actions(t, o) and "scout" in board_actions(t, o)
    with pytest.raises(BadParameter):
        act(t, o, "board", action="resupply")
    # without the Guildmaster (same seed, GM07 chosen) Resupply is offered
    t2 = gm_table(2, seed=0, deal=("GM03", "GM07"))
    choose(t2, "GM07")
    assert "resupply" in board_actions(t2, t2.state.first)
    act(t2, t2.state.first, "board", action="resupply")
    check(t)


def test_blocked_faction_action_is_not_offered_to_a_favored_player_QNC_213():
    """QNC-213: GM04 (no Faction board action) takes the Faction action away from Favored
    players and from a player in Diplomacy, for every seat."""
    def arrange(t):
        f = t.state.first
        pl(t, f).diplomacy = [-5, 0]   # Favored by the crown
        pl(t, 1 - f).diplomacy = [0, 0]  # in Diplomacy

    for chosen, blocked in (("GM04", True), ("GM07", False)):
        t = gm_table(2, seed=0, deal=("GM04", "GM07"), arrange=arrange)
        choose(t, chosen)
        f = t.state.first
        hands(t, {s: ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE", "B-ELITE"] for s in range(2)})
        assert ("faction" not in board_actions(t, f)) is blocked
        if blocked:
            with pytest.raises(BadParameter):
                act(t, f, "board", action="faction", faction="crown")
        act(t, f, "play", card=card_of(f, "B-MORALE"))
        o = 1 - f
        assert ("faction" not in board_actions(t, o)) is blocked
        if not blocked:
            assert {"action": "faction", "faction": "diplomacy"} in options(t, o, "board")
        check(t)


# -- QNC-213 / QNC-251: block_effect --------------------------------------------------------------
def test_blocked_research_does_nothing_for_every_player_but_the_cards_other_effects_do_QNC_213():
    """QNC-213: GM05 (Research effects do nothing): Research played by either player takes no
    card from the Advanced pool; the Draw on the same Advanced card (A01) still happens."""
    t = gm_table(2, seed=0, deal=("GM05", "GM07"))
    choose(t, "GM05")
    f = t.state.first
    o = 1 - f
    hands(t, {f: ["B-RESEARCH", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE"],
              o: ["A01", "B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE"]})
    pool = list(t.state.rows["adv"].pool)
    deck_f, deck_o = len(pl(t, f).deck), len(pl(t, o).deck)
    events = act(t, f, "play", card=card_of(f, "B-RESEARCH"))
    assert of(events, "effect_blocked", seat=f) == [{"seat": f, "effect": {"op": "research"}, "source": "card"}]
    assert "research" not in [k for _, k in kinds(t)]
    events = act(t, o, "play", card="A01")
    assert [b["effect"]["op"] for b in of(events, "effect_blocked", seat=o)] == ["research"]
    assert not of(events, "research")
    assert len(of(events, "draw", seat=o)) == 1 and len(pl(t, o).deck) == deck_o - 1
    assert t.state.rows["adv"].pool == pool and len(pl(t, f).deck) == deck_f
    check(t)


def _rebellion_round(chosen):
    """C1B's political challenge (individual, 2) has a Rebellion penalty; nobody plays control."""
    t = gm_table(2, seed=0, deal=("GM06", "GM07"))
    move_card(t, "C1B", "crisis")
    choose(t, chosen)
    for s in range(2):
        hands(t, {s: ["B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-RESEARCH", "B-ADMINISTRATE"]})
    events = auto(t, until=lambda tb: tb.state.phase == "score" or tb.state.round > 1)
    return t, events


def test_blocked_rebellion_cancels_the_crisis_rebellion_penalty_QNC_213():
    """QNC-213: GM06 (effects giving Rebellion do nothing) cancels the Rebellion penalty of the
    political crisis for every failing player; with GM07 instead the same play gives Rebellion."""
    t, events = _rebellion_round("GM06")
    assert sorted(checks(events)["political"]["failed"]) == [0, 1]
    assert len(of(events, "penalty", kind="political")) == 2
    blocked = of(events, "effect_blocked")
    assert sorted(b["seat"] for b in blocked) == [0, 1]
    assert all(b["effect"] == {"op": "rebellion"} and b["source"] == "penalty" for b in blocked)
    assert all(c.rebellion == 0 for p in t.state.players for c in p.columns)
    check(t)
    t, events = _rebellion_round("GM07")
    assert not of(events, "effect_blocked")
    assert sorted(r["seat"] for r in of(events, "rebellion")) == [0, 1]
    check(t)


def test_a_blocked_effect_never_blocks_crisis_rewards_or_track_reset_bonuses_QNC_251(tmp_path):
    """QNC-251: a Guildmaster blocking every reserve-token effect (a pack whose GM05 blocks
    `reserve`) cancels the reserve token of a Faction board action, yet the warfare crisis
    reward (1 power token) and the Might track reset bonus (2 power tokens) are still gained."""
    def edit(data):
        for g in data:
            if g["id"] == "GM05":
                g["modifier"] = {"kind": "block_effect", "match": "reserve"}

    pack = custom_pack(tmp_path, edit)

    def arrange(t):
        f = t.state.first
        pl(t, f).diplomacy = [0, 5]       # Favored by the march: its action gives Might + 1 power
        pl(t, f).tracks["might"] = 4      # the Faction action fills the Might track

    t = gm_table(2, seed=0, deal=("GM05", "GM07"), pack=pack, arrange=arrange)
    move_card(t, "C1C", "crisis")  # warfare: individual 2, reward 1 power token
    choose(t, "GM05")
    f = t.state.first
    o = 1 - f
    hands(t, {f: ["B-MOBILIZE", "B-MORALE", "B-RESEARCH", "B-ADMINISTRATE", "B-BRIBE"],
              o: ["B-RESEARCH", "B-ADMINISTRATE", "B-BRIBE", "B-MORALE", "B-ENVOY"]})
    events = act(t, f, "board", action="faction", faction="march")
    assert of(events, "effect_blocked") == [{"seat": f, "effect": {"op": "reserve", "power": 1}, "source": "faction"}]
    assert pl(t, f).tracks["might"] == 5 and pl(t, f).reserve_power == 0
    events = auto(t, until=lambda tb: tb.state.round > 1 or tb.state.finished)
    assert checks(events)["warfare"]["rewarded"] == [f]
    assert of(events, "reward", seat=f, kind="warfare")
    assert of(events, "track_reset", seat=f, track="might")
    assert not of(events, "effect_blocked")
    reserves = [r["power"] for r in of(events, "reserve", seat=f)]
    assert reserves[:2] == [1, 3]  # +1 from the reward, then +2 from the Might bonus
    assert pl(t, f).reserve_power == 3
    check(t)


# -- QNC-213: crisis_need / crisis_add -------------------------------------------------------------
def _crisis_round(chosen, crisis, plan_hands, deal=("GM07", "GM08")):
    t = gm_table(2, seed=0, deal=deal)
    move_card(t, crisis, "crisis")
    choose(t, chosen)
    f = t.state.first
    filler = ["B-RESEARCH", "B-ADMINISTRATE", "B-BUILD", "B-RECRUIT"]
    hands(t, {s: plan_hands.get(s == f, []) + filler[: 4 - len(plan_hands.get(s == f, []))] + ["B-BRIBE"]
              for s in range(2)})
    plan = {}
    for s in range(2):
        plan[(s, "turn")] = [{"card": card_of(s, c)} for c in plan_hands.get(s == f, [])]
    events = auto(t, until=lambda tb: tb.state.phase == "score" or tb.state.round > 1, policy=scripted(plan))
    return t, f, checks(events), events


def test_crisis_need_raises_or_lowers_what_the_crisis_needs_never_below_1_QNC_213():
    """QNC-213: GM07 (+2 power needed in warfare) and GM08 (-1 control needed in political, never
    below 1) change the crisis check of the table: C1B (2 players: group warfare 3, individual
    political 2). 3 power in all beats the warfare crisis only without GM07; 1 control passes
    the political one only with GM08. With C1C (political 1), GM08 still needs 1."""
    base_w = PACK.crises["C1B"].warfare.values["2"]
    base_p = PACK.crises["C1B"].political.value
    hands_ = {True: ["B-MOBILIZE", "B-ELITE"], False: ["B-ENVOY"]}
    t, f, c, _ = _crisis_round("GM07", "C1B", hands_)
    assert c["warfare"]["need"] == base_w + 2 and c["political"]["need"] == base_p
    assert sum(c["warfare"]["totals"].values()) == 3 and c["warfare"]["beaten"] is False
    assert 1 - f in c["political"]["failed"]
    check(t)
    t, f, c, _ = _crisis_round("GM08", "C1B", hands_)
    assert c["warfare"]["need"] == base_w and c["political"]["need"] == base_p - 1
    assert c["warfare"]["beaten"] is True
    assert c["political"]["failed"] == [f]  # the player with 1 control passes
    check(t)
    assert PACK.crises["C1C"].political.value == 1
    t, f, c, _ = _crisis_round("GM08", "C1C", {True: [], False: []})
    assert c["political"]["need"] == 1
    assert sorted(c["political"]["failed"]) == [0, 1]
    check(t)


def test_crisis_add_adds_to_every_players_total_in_that_crisis_only_QNC_213():
    """QNC-213: GM09 (+1 power for every player in the warfare crisis) / GM10 (+1 control in
    the political crisis) change every player's total in that crisis and not in the other.
    C1C: individual warfare 2, individual political 1."""
    hands_ = {True: ["B-MOBILIZE"], False: ["B-ELITE"]}
    t, f, c, _ = _crisis_round("GM09", "C1C", hands_, deal=("GM09", "GM10"))
    o = 1 - f
    assert c["warfare"]["totals"] == {f: 3, o: 2} and c["warfare"]["failed"] == []
    assert c["political"]["totals"] == {f: 0, o: 0} and sorted(c["political"]["failed"]) == [0, 1]
    check(t)
    t, f, c, _ = _crisis_round("GM10", "C1C", hands_, deal=("GM09", "GM10"))
    o = 1 - f
    assert c["warfare"]["totals"] == {f: 2, o: 1} and c["warfare"]["failed"] == [o]
    assert c["political"]["totals"] == {f: 1, o: 1} and c["political"]["failed"] == []
    check(t)


# -- QNC-213: on_active -----------------------------------------------------------------------------
def test_on_active_guildmaster_gives_every_player_its_effect_in_turn_order_QNC_213():
    """QNC-213: GM11 (on becoming active, every player gains 1 control token) and GM12 (every
    player takes a Hunger card) act on all players, in turn order, once, when chosen."""
    t = gm_table(3, seed=0, deal=("GM11", "GM12"))
    order = turn_order(t.state)
    events = choose(t, "GM11")
    assert [r["seat"] for r in of(events, "reserve")] == order
    assert [p.reserve_control for p in t.state.players] == [1, 1, 1]
    assert kinds(t) == [(t.state.first, "turn")]
    check(t)

    t = gm_table(3, seed=0, deal=("GM11", "GM12"))
    order = turn_order(t.state)
    top = list(t.state.hunger_deck[:3])
    events = choose(t, "GM12")
    assert [h["seat"] for h in of(events, "hunger")] == order
    assert [h["card"] for h in of(events, "hunger")] == top
    for seat, card in zip(order, top):
        assert pl(t, seat).discard[-1] == card
    hands(t, {s: ["B-MORALE", "B-ENVOY", "B-BRIBE", "B-MOBILIZE", "B-RESEARCH"] for s in range(3)})
    events = auto(t, until=until_prompt("end_burn"))
    assert not of(events, "hunger")  # only once, when it became active
    check(t)
