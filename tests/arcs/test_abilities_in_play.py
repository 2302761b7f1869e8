"""Court, Lore and Leader abilities taking effect in real play: every step through the
engine (`table.act` with answers the engine lists as legal), never by calling an op."""
from __future__ import annotations

import pytest

import core.chance
from core.engine import create_table, legal_actions
from core.errors import ActionRejected, IllegalAction
from core.state import Action, encode_msgpack
from plugins.arcs.content import default_box
from tests.arcs.flow_helpers import act, answer, clear_map, place_first, prompt_of, put, restart_round, set_slots, table

BOX = default_box()


def own(t, seat: int, card: str) -> None:
    """The seat holds `card`: a Guild card in its play area, a Lore card, or its Leader."""
    s = t.state
    if card in BOX.court:
        for pile in (s.court_deck, s.court_discard):
            if card in pile:
                pile.remove(card)
        if card in s.court_row:
            i = s.court_row.index(card)
            s.court_row[i] = s.court_deck.pop(0)
            s.court_agents[s.court_row[i]] = s.court_agents.pop(card)
        s.players[seat].guild.append(card)
    elif card in BOX.lore:
        s.players[seat].lore.append(card)
    else:
        s.players[seat].leader = card


def in_court(t, card: str, agents: list[int]) -> None:
    """Put `card` in the Court row's first place (the card there goes under the deck)."""
    s = t.state
    if card in s.court_deck:
        s.court_deck.remove(card)
    old = s.court_row[0]
    s.court_deck.append(old)
    s.court_agents.pop(old)
    s.court_row[0] = card
    s.court_agents[card] = list(agents)
    for seat, n in enumerate(agents):
        s.players[seat].agents -= n




def listed(t, seat: int, **match) -> list[Action]:
    """The legal answers whose params contain `match`."""
    return [a for a in legal_actions(t.state, seat, t.rules)
            if all(a.params.get(k) == v for k, v in match.items())]


def lead(t, card: str, hands=None, ambition: str = ""):
    restart_round(t, hands or [[card], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card=card)
    if prompt_of(t, 0) is not None and prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition=ambition)


def refused(t, seat: int, action: Action, error=ActionRejected) -> None:
    before = encode_msgpack(t.state)
    with pytest.raises(error):
        t.act(seat, action)
    assert encode_msgpack(t.state) == before


def fresh_table(players: int = 3):
    t = table(players, setup_card="3SETUP01" if players == 3 else "")
    clear_map(t)
    return t


# -- a Guild Prelude card, a new action, ARCS-117 / ARCS-118 --------------------------------------
def test_mining_interest_prelude_discard_fills_the_slots_ARCS_118():
    """Mining Interest (BC02) Prelude: listed as a legal answer, it fills the empty open slots
    with Material and then goes face up to the Court discard (ARCS-118); it spends no pip,
    so the Prelude stays open."""
    t = fresh_table()
    own(t, 0, "BC02")
    set_slots(t, 0, [None, None])
    lead(t, "ADM4")
    (use,) = listed(t, 0, act="ability", card="BC02", index=1)
    t.act(0, use)
    s = t.state
    assert s.players[0].resources[:2] == ["material", "material"]
    assert "BC02" not in s.players[0].guild and s.court_discard[-1] == "BC02"
    assert s.turn.prelude and s.turn.acted  # a Prelude ability spends no pip


def test_mining_interest_new_action_replaces_a_build_pip_ARCS_120():
    """ARCS-120: BC02's new action (Build): a Construction pip buys it instead of a Build;
    the pip is spent (closing the Prelude) and one Material is gained."""
    t = fresh_table()
    own(t, 0, "BC02")
    set_slots(t, 0, [None, None])
    lead(t, "CON4")
    pips = t.state.turn.pips
    (use,) = listed(t, 0, act="ability", card="BC02", index=0, pay=-1)
    t.act(0, use)
    place_first(t, 0)  # ARCS-209: the owner picks the empty slot (here the leftmost)
    s = t.state
    assert s.players[0].resources[0] == "material" and s.turn.pips == pips - 1 and not s.turn.prelude
    assert "BC02" in s.players[0].guild
    t2 = fresh_table()
    own(t2, 0, "BC02")
    lead(t2, "MOB4")  # a Mobilization pip does not buy Build
    assert not listed(t2, 0, act="ability", card="BC02", index=0, pay=-1)
    refused(t2, 0, Action("act", {"act": "ability", "card": "BC02", "index": 0, "pay": -1}), IllegalAction)


def test_a_card_secured_in_the_prelude_waits_for_its_prelude_abilities_ARCS_117():
    """ARCS-117: Mining Interest secured with a Relic spent in this Prelude (ARCS-167) goes to
    the securer's play area (ARCS-164) but is not offered, and is refused, for its Prelude
    ability in the same Prelude."""
    t = fresh_table()
    set_slots(t, 0, ["relic", None])
    in_court(t, "BC02", [2, 0, 0])
    lead(t, "MOB4")
    (secure,) = listed(t, 0, act="secure", card="BC02", pay=0)
    t.act(0, secure)
    assert "BC02" in t.state.players[0].guild and t.state.turn.prelude
    assert not listed(t, 0, act="ability", card="BC02")
    refused(t, 0, Action("act", {"act": "ability", "card": "BC02", "index": 1, "params": {"steal_from": []}}),
            IllegalAction)


def test_lattice_spies_only_before_anything_else():
    """Lattice Spies (BC16): usable before any other action of the turn (then not listed)."""
    t = fresh_table()
    own(t, 1, "BC16")
    set_slots(t, 1, ["fuel", None])
    put(t, "2.1", 0, fresh=1)  # seat 0 keeps a fleet (no safety net prompt)
    restart_round(t, [["MOB3"], ["MOB5"], ["MOB2"]], initiative=0)
    answer(t, 0, "lead", card="MOB3")
    if prompt_of(t, 0).kind == "declare":
        answer(t, 0, "declare", ambition="")
    act(t, 0, "done")
    answer(t, 1, "play", card="MOB5", kind="surpass")
    if prompt_of(t, 1).kind == "seize":
        answer(t, 1, "seize", card="")
    assert listed(t, 1, act="ability", card="BC16")
    put(t, "2G", 1, fresh=1)
    act(t, 1, "move", pay=0, origin="2G", path=["3G"], fresh=1)
    assert not listed(t, 1, act="ability", card="BC16")


# -- a Vox card ---------------------------------------------------------------------------------
def test_call_to_action_when_secured_draws_the_discard_bottom_for_the_securer_alone():
    """Call to Action (BC31): securing it draws the discard's bottom card at once (a mandatory
    effect with no choice in it is not asked); the card drawn is told to the securer only;
    the Vox card then leaves the Court and the row is refilled."""
    t = fresh_table()
    in_court(t, "BC31", [2, 0, 0])
    lead(t, "AGG4")  # Aggression pips buy Secure
    (secure,) = listed(t, 0, act="secure", card="BC31", pay=-1)
    bottom = t.state.action_discard[-1]
    hand = len(t.state.hands[0])
    t.act(0, secure)
    s = t.state
    assert not [p for p in s.prompts if p.kind == "arcs.use_ability"]
    assert s.hands[0][-1] == bottom and len(s.hands[0]) == hand + 1
    assert "BC31" not in s.court_row and "BC31" not in s.resolving
    drawn = [e for e in t.events if e.type == "cards_drawn"][-1]
    assert drawn.to == [0] and bottom not in str(drawn.public)


# -- a battle modifier and an after-roll ability ------------------------------------------------
def test_gatekeepers_add_two_dice_in_a_gate_only(monkeypatch):
    """Gatekeepers (BC08): two dice more than attacking ships in a gate; not on a planet."""
    t = fresh_table()
    own(t, 0, "BC08")
    lead(t, "AGG4")
    put(t, "2G", 0, fresh=1)
    put(t, "2G", 1, fresh=1)
    put(t, "2.1", 0, fresh=1)
    put(t, "2.1", 1, fresh=1)
    assert listed(t, 0, act="battle", system="2G", assault=3)
    refused(t, 0, Action("act", {"act": "battle", "system": "2G", "defender": 1, "assault": 4}), IllegalAction)
    refused(t, 0, Action("act", {"act": "battle", "system": "2.1", "defender": 1, "assault": 2}), IllegalAction)
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": [(k, 5) for k in which])
    act(t, 0, "battle", system="2G", defender=1, assault=3)
    assert [e.data["attacker"] for e in t.events if e.type == "battle_over"] == [0]


def test_skirmishers_reroll_after_the_roll_once(monkeypatch):
    """Skirmishers (BC13): after the holder's roll, reroll up to its Weapon icons of skirmish
    dice, once; the battle is resolved with the new faces."""
    t = fresh_table()
    own(t, 0, "BC13")  # a Weapon-suit Guild card: one Weapon icon
    set_slots(t, 0, [None, None])
    lead(t, "AGG4")
    put(t, "2G", 0, fresh=2)
    put(t, "2G", 1, fresh=2)
    first = [[("skirmish", 5), ("skirmish", 5)]]  # two blanks, then every reroll a HIT (the check's trial too)
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": first.pop() if first
                        else [("skirmish", 0)] * len(which))
    act(t, 0, "battle", system="2G", defender=1, skirmish=2)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["when"] == "battle_roll"
    (use,) = listed(t, 0, card="BC13")
    assert use.params["params"] == {"dice": [0]}
    t.act(0, use)
    s = t.state
    assert s.systems["2G"].ships[1].damaged == 1  # the rerolled HIT landed
    assert not [p for p in s.prompts if p.kind == "arcs.use_ability"]


# -- a scoring modifier (mandatory after scoring) -------------------------------------------------
def test_material_cartel_makes_rivals_discard_material_after_scoring_unasked():
    """Material Cartel (BC03): after the chapter's scoring every Rival returns its Material
    to the supply, mandatory: no prompt is opened for it (ARCS-315)."""
    t = fresh_table()
    own(t, 0, "BC03")
    set_slots(t, 1, ["material", "material"])
    set_slots(t, 0, ["material", None])
    chapter = t.state.chapter
    put(t, "2.1", 0, fresh=1)
    lead(t, "MOB3", hands=[["MOB3"], [], []])
    act(t, 0, "done")  # nobody holds a card any more: the chapter ends
    s = t.state
    assert s.chapter == chapter + 1
    assert "material" not in s.players[1].resources and s.players[0].resources[0] == "material"
    assert any(e.type == "ability" and e.data["card"] == "BC03" for e in t.events)
    assert not [p for p in s.prompts if p.kind == "arcs.use_ability"]


def test_secret_order_declares_without_the_zero_marker():
    """Secret Order (BC18), a modifier of declaring (ARCS-124): a declaration of its
    ambitions places no zero marker; the round still counts as declared."""
    t = fresh_table()
    own(t, 0, "BC18")
    ambitions = BOX.court["BC18"].abilities[0].ambitions
    card = next(c for c in BOX.actions.cards if c.number not in (1, 7)
                and BOX.actions.ambition_by_number[str(c.number)] in ambitions)
    lead(t, card.id, hands=[[card.id], ["MOB2"], ["MOB3"]], ambition=BOX.actions.ambition_by_number[str(card.number)])
    s = t.state
    assert s.ambition_declared and s.declared is False


# -- a Lore card ---------------------------------------------------------------------------------
def test_sprinter_drives_move_fresh_ships_once_more_after_a_move_L03():
    """Sprinter Drives (L03): after a move the fresh ships that moved may step once more,
    offered at once (a window closed afterwards); damaged ones never."""
    t = fresh_table()
    own(t, 0, "L03")
    lead(t, "MOB4")
    put(t, "2G", 0, fresh=2, damaged=1)
    act(t, 0, "move", origin="2G", path=["3G"], fresh=2, damaged=1)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["when"] == "move"
    options = listed(t, 0, card="L03")
    assert options and all(o.params["params"]["origin"] == "3G" and o.params["params"]["fresh"] <= 2 for o in options)
    choice = next(o for o in options if o.params["params"]["fresh"] == 2)
    t.act(0, choice)
    s = t.state
    to = choice.params["params"]["to"]
    assert s.systems[to].ships[0].fresh == 2 and s.systems["3G"].ships[0].damaged == 1
    assert prompt_of(t, 0).kind == "arcs.act"
    assert not s.module_state.get("leaders-and-lore", {}).get("windows", {}).get("0")


# -- a Leader -------------------------------------------------------------------------------------
def test_upstart_ambitious_gains_any_resource_when_declaring_LEAD04():
    """The Upstart's Ambitious: declaring offers one resource of any type (a window open only
    for that declaration)."""
    t = fresh_table()
    own(t, 0, "LEAD04")
    set_slots(t, 0, [None, None])
    card = "ADM4"
    restart_round(t, [[card], ["MOB2"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card=card)
    ambition = BOX.actions.ambition_by_number["4"]
    answer(t, 0, "declare", ambition=ambition)
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["when"] == "declare"
    (use,) = listed(t, 0, card="LEAD04", params={"resource": "psionic"})
    t.act(0, use)
    place_first(t, 0)
    s = t.state
    assert "psionic" in s.players[0].resources
    assert prompt_of(t, 0).kind == "arcs.act"  # used once: the window closed


def test_farseers_look_goes_to_its_holder_alone_BC17():
    """Farseers (BC17) when declaring: the chosen Rival's hand is shown to the holder only
    (others see who looked at whom), then the swap is offered with that Rival alone."""
    t = fresh_table()
    own(t, 0, "BC17")
    restart_round(t, [["ADM4", "CON2"], ["MOB2", "AGG3"], ["MOB3"]], initiative=0)
    answer(t, 0, "lead", card="ADM4")
    answer(t, 0, "declare", ambition=BOX.actions.ambition_by_number["4"])
    assert prompt_of(t, 0).kind == "farseers_look"
    answer(t, 0, "look", rival=1)
    shown = [e for e in t.events if e.type == "hand_shown"][-1]
    assert shown.to == [0] and sorted(shown.data["cards"]) == ["AGG3", "MOB2"]
    assert "MOB2" not in str(shown.public)
    options = listed(t, 0, card="BC17")
    assert options and all(o.params["params"]["rival"] == 1 for o in options)
    refused(t, 0, Action("use_ability", {"card": "BC17", "index": 0, "params": {"rival": 2}}), IllegalAction)
    t.act(0, Action("use_ability", {"card": "BC17", "index": 0, "params": {"rival": 1, "give": "CON2", "take": "AGG3"}}))
    assert sorted(t.state.hands[0]) == ["AGG3"] and sorted(t.state.hands[1]) == ["CON2", "MOB2"]


# -- the draft in a real game ------------------------------------------------------------------
@pytest.mark.parametrize("lore", [1, 2])
def test_the_draft_runs_in_a_real_arcs_game_then_the_leaders_lay_out_ARCS_262_263_264_266(lore):
    """The leaders-and-lore module in an `arcs` table: the draft (typed `lal.pick`, answers as
    listed) runs before the starting pieces; every seat then holds a Leader and its Lore share,
    its Leader's layout is on the map, and the chapter starts with the hands dealt."""
    t = create_table("arcs", 3, seed=3, modules=["leaders-and-lore"], options={"lore_per_player": lore})
    s = t.state
    assert sum(x.ships_of(0).total for x in s.systems.values()) == 0  # no pieces before the draft
    picks = 0
    while t.state.prompts and t.state.prompts[0].kind == "lal.pick":
        (p,) = t.state.prompts
        t.act(p.seat, legal_actions(t.state, p.seat, t.rules)[0])
        picks += 1
    s = t.state
    assert picks == 3 * (1 + lore)
    for seat, player in enumerate(s.players):
        leader = BOX.leaders[player.leader]
        assert len(player.lore) == lore
        assert player.resources[:2] == leader.resources or "L13" in player.lore
        on_map = sum(x.ships_of(seat).total for x in s.systems.values())
        assert on_map == leader.a.ships + leader.b.ships + leader.c.ships * len(BOX.setups[s.setup_card].positions[0].c)
    assert any(e.type == "dealt" for e in t.events) and s.prompts
    assert t.rules.hook.conclave_check_invariants(state=s) == [[], []]


def test_rebel_committed_and_disorganized_in_real_turns_LEAD05():
    """The Rebel: always 2 extra dice (mandatory: fewer than 2 is refused, ships + 2 is the
    most), and never more than 2 ships in one move."""
    t = fresh_table()
    own(t, 0, "LEAD05")
    lead(t, "AGG4")
    put(t, "2.1", 0, fresh=1)
    put(t, "2.1", 1, fresh=1)
    put(t, "2G", 0, fresh=3)
    battle = {"act": "battle", "system": "2.1", "defender": 1}
    refused(t, 0, Action("act", {**battle, "assault": 1}), IllegalAction)
    refused(t, 0, Action("act", {**battle, "assault": 4}), IllegalAction)
    assert listed(t, 0, act="battle", system="2.1", assault=3)
    assert not [a for a in listed(t, 0, act="battle") if sum(a.params.get(k, 0) for k in ("assault", "skirmish", "raid")) < 2]
    refused(t, 0, Action("act", {"act": "move", "origin": "2G", "path": ["3G"], "fresh": 3}), IllegalAction)
    assert not [a for a in listed(t, 0, act="move") if a.params.get("fresh", 0) + a.params.get("damaged", 0) > 2]


def test_fire_rifles_paid_by_weapon_enabled_pip_without_battle_modifiers_ARCS_121_122(monkeypatch):
    """ARCS-121: a Weapon spent in the Prelude lets a Mobilization pip pay for Fire Rifles
    (Galactic Rifles, L02: a new action in Battle's brackets). ARCS-122: the battle modifier
    Gatekeepers (BC08: 2 more dice in a gate) does not apply to it: one die per fresh ship.
    The firer then splits the hits (typed `arcs.rifle_hits`, listed answers)."""
    t = fresh_table()
    own(t, 0, "L02")
    own(t, 0, "BC08")
    set_slots(t, 0, ["weapon", None])
    lead(t, "MOB4")
    put(t, "2G", 0, fresh=2)
    put(t, "3G", 1, fresh=2)
    assert not listed(t, 0, act="ability", card="L02", pay=-1)
    act(t, 0, "spend", pay=0)
    rifles = listed(t, 0, act="ability", card="L02", pay=-1)
    assert {"system": "2G", "target": "3G", "defender": 1} in [a.params["params"] for a in rifles]
    rolled = []
    monkeypatch.setattr(core.chance, "roll", lambda ctx, seat, dice, which, why="": rolled.append(len(which))
                        or [("skirmish", 0)] * len(which))
    act(t, 0, "ability", card="L02", index=0, params={"system": "2G", "target": "3G", "defender": 1})
    assert rolled[-1] == 2  # two fresh ships, no Gatekeepers dice
    assert prompt_of(t, 0).kind == "arcs.rifle_hits"
    split = next(a for a in legal_actions(t.state, 0, t.rules) if a.params["ships"]["destroy_fresh"] == 1)
    t.act(0, split)
    s = t.state
    assert s.systems["3G"].ships[1].total == 1 and [x.owner for x in s.players[0].trophies] == [1]
    assert prompt_of(t, 0).kind == "arcs.act"


def test_spacing_union_takes_its_action_card_back_at_round_end_ARCS_314():
    """ARCS-314: Spacing Union (BC10) in the Prelude attaches to the face-up Mobilization card
    played; at round end its holder takes that card into hand and the Union is discarded."""
    t = fresh_table()
    own(t, 0, "BC10")
    put(t, "2.1", 0, fresh=1)
    lead(t, "MOB4", hands=[["MOB4", "ADM2"], [], []])
    (attach,) = listed(t, 0, act="ability", card="BC10")
    assert attach.params["params"] == {"card": "MOB4"}
    t.act(0, attach)
    assert "BC10" not in t.state.players[0].guild
    act(t, 0, "done")
    s = t.state
    assert sorted(s.hands[0]) == ["ADM2", "MOB4"] and "MOB4" not in s.action_discard
    assert s.court_discard[-1] == "BC10" and s.unions == []
