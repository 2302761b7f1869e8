"""The Believer (FATE08, F801-F831) through the engine: the Faithful stack, the Faithful
action cards played on their Zeal or Wisdom side, Spreading the Faith, Faithful Disciples,
the laws, the Ideals and Doctrines of Act II and Act III. Each test names the card it proves."""
from __future__ import annotations

import msgspec
import pytest

from plugins.blighted_reach import fate_believer as bv
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.invariants import problems
from plugins.blighted_reach.rules_box import rules_box
from tests.blighted_reach.flow_helpers import ready

CBOX = campaign_box()


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def believer_table(players: int = 3, seed: int = 1, seat: int = 0):
    return ready(players, seed, wanted={seat: bv.BELIEVER})


def sound(t) -> None:
    assert problems(rules_box(), CBOX, t.state) == []


# -- F801: Act I setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_F801_faithful_cards_stacked_nine_on_top(players):
    """F801: the Believer gains Faithful Disciples (guild) and Spreading the Faith (ability),
    the nine Faithful cards are stacked "9" (F812) on top down to "1" (F804), and the two
    laws F813, F814 go into the booklet."""
    t = believer_table(players, seed=3)
    s = t.state
    assert "F802" in s.players[0].guild and "F803" in s.play_area[0]
    assert s.faithful_stack == ["F812", "F811", "F810", "F809", "F808", "F807", "F806", "F805", "F804"]
    assert ["F813"] in s.booklet and ["F814"] in s.booklet
    assert t.view(1)["faithful_stack"] == s.faithful_stack  # public
    sound(t)


def test_faithful_invariant_finds_a_card_twice_or_lost():
    t = believer_table(3, seed=3)
    s = t.state
    s.hands[1].append("F812")  # also on the stack
    assert any("F812" in p for p in problems(rules_box(), CBOX, s))
    s.hands[1].remove("F812")
    s.faithful_stack.remove("F804")
    assert any("F804" in p and "none" in p for p in problems(rules_box(), CBOX, s))


# -- helpers -----------------------------------------------------------------------------------------
from core.errors import ActionRejected, IllegalAction  # noqa: E402
from core.state import Action  # noqa: E402
from tests.blighted_reach.flow_helpers import options, restart_round  # noqa: E402


def from_stack(t, *cards):
    """Take Faithful cards off the stack into the action discard (so a round can deal them)."""
    for card in cards:
        t.state.faithful_stack.remove(card)
        t.state.action_discard.append(card)


def with_hands(t, hands, initiative=0):
    faithful = [c for h in hands for c in h if bv.is_faithful(c)]
    from_stack(t, *faithful)
    restart_round(t, hands, initiative=initiative)


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def lead(t, seat, card, ambition=""):
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ambition}))


def no_seize(t, seat):
    if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
        t.act(seat, Action("seize", {"card": ""}))


# -- F813 Faithful Cards, F814 Pluralistic Faith -------------------------------------------------------
def test_F813_a_faithful_card_leads_on_either_side_with_that_sides_actions():
    """F813: a Faithful card in hand is led on its Zeal side (move, influence, battle, tax)
    or its Wisdom side (build, repair, secure); its pips are its number's (reading)."""
    t = believer_table(3, seed=3)
    with_hands(t, [["F806", "ADM6"], ["MOB3"], ["AGG4"]])  # F806 is the "3"
    leads = [a.params["card"] for a in options(t, 0) if a.type == "lead"]
    assert leads == ["F806/zeal", "F806/wisdom", "ADM6"]
    lead(t, 0, "F806/wisdom")
    turn = t.state.turn
    assert (turn.kind, turn.pips, turn.actions) == ("lead", bv.PIPS[3], ["build", "repair", "secure"])
    assert t.state.lead == "F806/wisdom" and "F806" not in t.state.hands[0]
    sound(t)


def test_F814_leading_a_faithful_card_declares_any_ambition():
    """F814 (Pluralistic Faith, in the booklet from F801): a Faithful lead may declare any
    ambition, like a "7"; a base "2" still declares only Tycoon."""
    t = believer_table(3, seed=3)
    with_hands(t, [["F804", "ADM2"], ["MOB3"], ["AGG4"]])  # F804: the "1", which declares nothing printed
    t.act(0, Action("lead", {"card": "F804/zeal"}))
    declares = sorted(a.params["ambition"] for a in options(t, 0) if a.type == "declare")
    assert declares == sorted(["", "tycoon", "tyrant", "warlord", "keeper", "empath"])
    t.act(0, Action("declare", {"ambition": "keeper"}))
    assert t.state.ambition_boxes["keeper"]


def test_F813_without_pluralistic_faith_a_faithful_one_declares_nothing():
    """F813 + F814 scrapped (as in Act II): the Faithful "1" declares nothing, as a base 1."""
    t = believer_table(3, seed=3)
    t.state.booklet = [slot for slot in t.state.booklet if "F814" not in slot]
    t.state.scrapped.append("F814")
    with_hands(t, [["F804", "ADM2"], ["MOB3"], ["AGG4"]])
    t.act(0, Action("lead", {"card": "F804/zeal"}))
    assert not any(p.kind == "declare" for p in t.state.prompts)


def test_F813_surpassing_a_faithful_lead_needs_a_faithful_card_on_the_same_side():
    """F813: on a Zeal lead, another Faithful card Surpasses only on Zeal with a higher
    number; its Wisdom side and base cards Pivot; a Copy is offered once per card."""
    t = believer_table(3, seed=3)
    with_hands(t, [["F806", "ADM6"], ["F808", "F805", "MOB3"], ["AGG4"]])  # "3" led; "5" and "2" follow
    lead(t, 0, "F806/zeal")
    act(t, 0, "done")
    plays = {(a.params["card"], a.params["kind"]) for a in options(t, 1) if a.type == "play"}
    assert ("F808/zeal", "surpass") in plays and ("F808/wisdom", "pivot") in plays
    assert ("F805/zeal", "surpass") not in plays and ("F805/wisdom", "pivot") in plays
    assert ("MOB3", "pivot") in plays and ("MOB3", "surpass") not in plays
    copies = [c for c, k in plays if k == "copy"]
    assert sorted(copies) == ["F805/zeal", "F808/zeal", "MOB3"]
    t.act(1, Action("play", {"card": "F808/zeal", "kind": "surpass"}))
    no_seize(t, 1)
    turn = t.state.turn
    assert (turn.pips, turn.actions) == (bv.PIPS[5], ["move", "influence", "battle", "tax"])


def test_F813_a_faithful_card_pivots_on_a_base_lead():
    t = believer_table(3, seed=3)
    with_hands(t, [["ADM3", "ADM6"], ["F810", "MOB3"], ["AGG4"]])
    lead(t, 0, "ADM3")
    act(t, 0, "done")
    plays = {(a.params["card"], a.params["kind"]) for a in options(t, 1) if a.type == "play"}
    assert {("F810/zeal", "pivot"), ("F810/wisdom", "pivot"), ("F810/zeal", "copy")} <= plays
    assert not any(k == "surpass" for c, k in plays if c.startswith("F810"))


def test_F813_a_faithful_seven_surpasses_without_seizing():
    """F813: Surpassing with a Faithful "7" (F810) does not seize the initiative (a base 7 does)."""
    t = believer_table(4, seed=3)
    with_hands(t, [["F806", "ADM6"], ["F810", "MOB3"], ["AGG4"], ["CON4"]])
    lead(t, 0, "F806/zeal")
    act(t, 0, "done")
    t.act(1, Action("play", {"card": "F810/zeal", "kind": "surpass"}))
    assert not t.state.seized and t.state.initiative == 0
    assert any(p.kind == "seize" and p.seat == 1 for p in t.state.prompts)  # the ordinary seize is still offered


def test_F813_played_faithful_cards_go_to_the_discard_as_their_card_and_stay_in_the_deal():
    """F813: a Faithful card is one card everywhere off the table: after the round it is in
    the action discard, and the next chapter's deal keeps it among the action cards."""
    t = believer_table(3, seed=3)
    with_hands(t, [["F806", "ADM6"], ["F805", "MOB3"], ["AGG4", "CON5"]])
    lead(t, 0, "F806/zeal")
    act(t, 0, "done")
    t.act(1, Action("play", {"card": "F805/wisdom", "kind": "pivot"}))
    no_seize(t, 1)
    act(t, 1, "done")
    t.act(2, Action("play", {"card": "AGG4", "kind": "pivot"}))
    no_seize(t, 2)
    act(t, 2, "done")
    s = t.state
    while not (s.prompts and s.prompts[0].kind == "lead"):  # the round's end (events, if any)
        seat = s.prompts[0].seat
        t.act(seat, options(t, seat)[0])
    assert s.action_discard[:2] == ["F806", "F805"] and s.chapter == 1
    sound(t)
    from core.flow import Ctx
    from plugins.blighted_reach.fate_believer import arcs_chapter_deal
    for hand in s.hands:  # the chapter's end: the hands to the discard, then the deal
        s.action_discard.extend(hand)
    s.hands = [[] for _ in s.players]
    assert arcs_chapter_deal(Ctx(s, t.rules)) is True
    dealt = [c for h in s.hands for c in h] + s.action_discard
    assert "F806" in dealt and "F805" in dealt and s.chapter == 2 and len(dealt) == 24  # 20 base, 2 Events, 2 Faithful
    s.prompts, s.stack = [], []
    sound(t)


def test_F813_a_faithful_card_secured_from_the_court_is_drawn_into_the_hand():
    """F813: securing a Faithful card in the Court draws it into the securer's hand."""
    t = believer_table(3, seed=3)
    s = t.state
    card = s.faithful_stack.pop(0)
    host = next(c for c in s.court_row if c and c != "AID01A")
    s.court_row[s.court_row.index(host)] = card
    s.court_agents[card] = s.court_agents.pop(host)
    s.court_deck.append(host)
    s.court_agents[card] = [0, 2, 0]
    s.players[1].agents -= 2
    from plugins.arcs.content import box_for
    from plugins.arcs.actions import take_court_card
    take_court_card(box_for(s), s, 1, card, "captives")
    assert card in s.hands[1] and card not in s.court_row
    assert s.players[1].agents >= 2


# -- F803 Spreading the Faith (Teach) --------------------------------------------------------------------
def guild_matching_a_city(t, seat=0):
    """A Guild card in the Court of a suit where `seat` has a Loyal city (swapped in from the
    Court deck if none is there)."""
    from plugins.arcs.content import box_for
    s, box = t.state, box_for(t.state)
    types = bv.city_types(box, s, seat)
    for c in s.court_row:
        if c in box.court and box.court[c].kind == "guild" and box.court[c].suit in types:
            return c
    card = next(c for c in s.court_deck if box.court[c].kind == "guild" and box.court[c].suit in types)
    out = s.court_row[-1]
    s.court_deck[s.court_deck.index(card)] = out
    s.court_row[-1] = card
    s.court_agents[card] = s.court_agents.pop(out)
    return card


def teach_options(t, seat=0):
    return [a for a in options(t, seat) if a.params.get("act") == "ability" and a.params.get("card") == "F803"]


def test_F803_teach_attaches_the_top_faithful_card_and_scraps_the_bottom_non_event_discard():
    """F803 Teach (Influence): paid with an influence pip, the top Faithful card ("9") is
    attached to a Guild card in the Court whose suit is a planet type with the Believer's
    Loyal city; the bottom non-Event action card of the discard is scrapped (Events passed)."""
    from plugins.arcs.content import box_for
    t = believer_table(3, seed=3)
    host = guild_matching_a_city(t)
    with_hands(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]])
    pile = t.state.action_discard
    pile.remove("EVENT")
    pile.append("EVENT")  # an Event at the very bottom is passed over
    bottom = pile[-2]
    lead(t, 0, "ADM3")  # Administration buys influence
    choices = teach_options(t)
    assert {a.params["params"]["card"] for a in choices} == set(bv.teach_targets(box_for(t.state), t.state, 0))
    pips = t.state.turn.pips
    t.act(0, next(a for a in choices if a.params["params"]["card"] == host))
    s = t.state
    assert s.attached[host] == "F812" and s.faithful_stack[0] == "F811"
    assert bottom in s.scrapped and bottom not in s.action_discard and s.action_discard[-1] == "EVENT"
    assert s.turn.pips == pips - 1
    sound(t)


def test_F803_teach_refuses_a_card_of_another_suit_and_changes_nothing():
    from plugins.arcs.content import box_for
    t = believer_table(3, seed=3)
    guild_matching_a_city(t)
    with_hands(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]])
    lead(t, 0, "ADM3")
    s, box = t.state, box_for(t.state)
    wrong = next((c for c in [*s.court_row, *s.court_deck] if c in box.court and box.court[c].kind == "guild"
                  and box.court[c].suit not in bv.city_types(box, s, 0)), None)
    index = next(i for i, ab in enumerate(box.other_cards["F803"]) if ab.do == "teach")
    before = snapshot(t)
    for card in [wrong, "AID01A", "nope"]:
        with pytest.raises(ActionRejected):
            t.act(0, Action("act", {"act": "ability", "card": "F803", "index": index, "pay": -1,
                                    "params": {"card": card}}))
    with pytest.raises(ActionRejected):  # unknown choice fields are refused too
        t.act(0, Action("act", {"act": "ability", "card": "F803", "index": index, "pay": -1,
                                "params": {"card": wrong, "extra": 1}}))
    assert snapshot(t) == before


def test_F803_teach_is_not_offered_once_the_stack_is_empty():
    t = believer_table(3, seed=3)
    guild_matching_a_city(t)
    with_hands(t, [["ADM3", "ADM6"], ["MOB3"], ["AGG4"]])
    t.state.scrapped.extend(t.state.faithful_stack)
    t.state.faithful_stack = []
    lead(t, 0, "ADM3")
    assert teach_options(t) == []


def test_F813_a_taught_faithful_card_slides_into_the_court_when_its_host_leaves_BR_317():
    """BR-317 (a Crisis removing the host): the attached Faithful card takes its place with
    the agents, then can be secured into a hand like any Court card."""
    t = believer_table(3, seed=3)
    host = guild_matching_a_city(t)
    s = t.state
    s.attached[host] = s.faithful_stack.pop(0)
    from plugins.blighted_reach.crises import remove_from_court
    position = s.court_row.index(host)
    s.court_agents[host] = [0, 1, 0]
    s.players[1].agents -= 1
    remove_from_court(s, host, "discard")
    assert s.court_row[position] == "F812" and s.court_agents["F812"] == [0, 1, 0]
    sound(t)


# -- F802 Faithful Disciples ---------------------------------------------------------------------------------
def relics_only_for(t, seat):
    """Nobody holds a Relic but `seat`, who holds one (Keeper counts Relics)."""
    s = t.state
    for p in s.players:
        s.supply["relic"] += p.resources.count("relic")
        p.resources = [None if r == "relic" else r for r in p.resources]
    if seat >= 0:
        row = s.players[seat].resources
        row[row.index(None)] = "relic"
        s.supply["relic"] -= 1


def test_F802_declaring_a_winning_ambition_with_a_faithful_lead_gains_a_pip():
    """F802: the Believer leads a Faithful card and declares an ambition they are winning
    (Keeper: the only Relic is theirs, and Faithful Disciples is a Relic card): one more
    action pip for that turn."""
    t = believer_table(3, seed=3)
    with_hands(t, [["F806", "ADM6"], ["MOB3"], ["AGG4"]])
    relics_only_for(t, 0)
    lead(t, 0, "F806/zeal", ambition="keeper")
    assert t.state.turn.pips == bv.PIPS[3] + 1
    sound(t)


def test_F802_no_extra_pip_when_not_winning_or_with_a_base_lead():
    t = believer_table(3, seed=3)
    with_hands(t, [["F806", "ADM6"], ["MOB3"], ["AGG4"]])
    lead(t, 0, "F806/zeal", ambition="tyrant")  # nobody has a Captive: nobody is winning
    assert t.state.turn.pips == bv.PIPS[3]
    t = believer_table(3, seed=3)
    with_hands(t, [["ADM5", "ADM6"], ["MOB3"], ["AGG4"]])
    relics_only_for(t, 0)
    lead(t, 0, "ADM5", ambition="keeper")  # a base card: no extra pip
    assert t.state.turn.pips == 3


# -- F801B Spread the Good Word ------------------------------------------------------------------------------
def test_F801_objective_counts_the_top_cards_pips_or_ten_for_an_empty_stack():
    from plugins.arcs.content import default_box as arcs_box
    from plugins.blighted_reach.objectives import count_for
    t = believer_table(3, seed=3)
    s = t.state
    assert count_for("faithful_stack_top_pips", arcs_box(), CBOX, s, 0) == bv.PIPS[9]
    s.scrapped.extend(s.faithful_stack[:8])
    s.faithful_stack = s.faithful_stack[8:]
    assert count_for("faithful_stack_top_pips", arcs_box(), CBOX, s, 0) == bv.PIPS[1]
    s.scrapped.extend(s.faithful_stack)
    s.faithful_stack = []
    assert count_for("faithful_stack_top_pips", arcs_box(), CBOX, s, 0) == 10


# -- F815 Believer Act I Resolution -----------------------------------------------------------------------
from plugins.blighted_reach import intermission as im  # noqa: E402
from tests.blighted_reach import campaign_tables as ctab  # noqa: E402


def resolved(completed: bool):
    state = ctab.act_one([bv.BELIEVER, "FATE01", "FATE07"])
    ctab.end_act(state)
    state.objective_markers = [0 if completed else 5, 3, 3]
    card = state.faithful_stack.pop(0)  # one Faithful card was drawn into a hand and played
    state.action_discard.append(card)
    return state, card


def test_F815_completed_young_light_plot_to_kidnap_and_the_stack_to_the_court():
    """F815 completed: The Young Light gained, Plot to Kidnap to the Court deck, Spreading the
    Faith, The Prodigal One and Secret Order scrapped, the Faithful cards left in the stack
    to the Court deck (the one among the action cards stays there)."""
    state, played = resolved(True)
    im.resolve_fates(ctab.ctx(state), CBOX)
    assert "F816" in state.players[0].guild and "F817" in state.court_deck
    assert {"F803", "F818", "F819"} <= set(state.scrapped) and "F803" not in state.play_area[0]
    assert state.faithful_stack == [] and set(bv.FAITHFUL) - {played} <= set(state.court_deck)
    assert played in state.action_discard and played not in state.court_deck
    ctab.sound(state)


def test_F815_failed_prodigal_one_and_secret_order_to_the_court():
    state, played = resolved(False)
    im.resolve_fates(ctab.ctx(state), CBOX)
    assert {"F803", "F816", "F817"} <= set(state.scrapped)
    assert {"F818", "F819"} <= set(state.court_deck)
    assert set(bv.FAITHFUL) - {played} <= set(state.court_deck)
    ctab.sound(state)


# -- Act II (F820-F824) ------------------------------------------------------------------------------------------
from core.rng import Rng  # noqa: E402
from plugins.blighted_reach import campaign, crises  # noqa: E402
from plugins.blighted_reach import later_acts as la  # noqa: E402


def act_two(completed=True, fates=(bv.BELIEVER, "FATE01", "FATE04")):
    state = ctab.end_act(ctab.act_one(list(fates)))
    state.objective_markers = [0 if completed else 4, 0, 0]
    ctab.intermission(state, picks={s: f for s, f in enumerate(fates)})
    log = campaign.pack_up(ctab.BOX, CBOX, state)
    two = ctab.new_table(len(fates))
    la.set_up_later_act(ctab.BOX, CBOX, two, log, Rng(two), lambda die, faces: "arrow" if die == "event" else 3)
    for seat in la.setup_order(two):
        la.apply_setup_side(ctab.ctx(two), CBOX, seat)
    return two


def test_F820_act_two_setup_ideals_doctrine_by_initiative_and_the_laws():
    """F820: the five Ideal markers collected, Set Doctrine in the booklet, the Doctrine on
    Zeal when the Believer has the initiative (else Wisdom), Pluralistic Faith scrapped for
    Doctrinal Faith."""
    two = act_two()
    assert two.ideal_supply == 5 and two.ideals == {}
    assert two.doctrine == (bv.ZEAL if two.initiative == 0 else bv.WISDOM)
    assert ["F821"] in two.booklet and ["F823"] in two.booklet
    assert "F814" in two.scrapped and not any("F814" in slot for slot in two.booklet)
    ctab.sound(two)


def doctrinal(t, doctrine=bv.ZEAL, laws=("F823",), ideals=None):
    """An engine table arranged as Act II: Pluralistic Faith replaced by the given laws, the
    Doctrine and the Ideals set, the five markers collected."""
    s = t.state
    s.booklet = [slot for slot in s.booklet if "F814" not in slot] + [[law] for law in laws]
    s.scrapped.append("F814")
    s.doctrine, s.ideals = doctrine, dict(ideals or {})
    s.ideal_supply = 5 - len(s.ideals)


def test_F823_faithful_cards_follow_the_doctrine_and_declaring_places_an_ideal():
    """F823: a Faithful card is played on the Doctrine's side only; with it, an ambition whose
    Ideal differs may not be declared, and declaring one with none places an Ideal showing
    the Doctrine there."""
    t = believer_table(3, seed=3)
    doctrinal(t, bv.ZEAL, ideals={"warlord": bv.WISDOM})
    with_hands(t, [["F805", "ADM6"], ["MOB3"], ["AGG4"]])  # the "2": Tycoon printed
    leads = [a.params["card"] for a in options(t, 0) if a.type == "lead"]
    assert leads == ["F805/zeal", "ADM6"]
    t.act(0, Action("lead", {"card": "F805/zeal"}))
    declares = sorted(a.params["ambition"] for a in options(t, 0) if a.type == "declare")
    assert declares == ["", "tycoon"]
    t.act(0, Action("declare", {"ambition": "tycoon"}))
    assert t.state.ideals == {"warlord": bv.WISDOM, "tycoon": bv.ZEAL} and t.state.ideal_supply == 3
    sound(t)


def test_F823_an_ideal_of_the_other_side_bars_the_declaration():
    t = believer_table(3, seed=3)
    doctrinal(t, bv.ZEAL, ideals={"tycoon": bv.WISDOM})
    with_hands(t, [["F805", "ADM6"], ["MOB3"], ["AGG4"]])
    t.act(0, Action("lead", {"card": "F805/zeal"}))
    assert not any(p.kind == "declare" for p in t.state.prompts)  # Tycoon has the Wisdom Ideal


def test_F828_repressed_faith_bars_ambitions_without_an_ideal():
    t = believer_table(3, seed=3)
    doctrinal(t, bv.WISDOM, laws=("F828",), ideals={})
    with_hands(t, [["F805", "ADM6"], ["MOB3"], ["AGG4"]])
    t.act(0, Action("lead", {"card": "F805/wisdom"}))
    assert not any(p.kind == "declare" for p in t.state.prompts)
    t2 = believer_table(3, seed=3)
    doctrinal(t2, bv.WISDOM, laws=("F828",), ideals={"tycoon": bv.WISDOM})
    with_hands(t2, [["F805", "ADM6"], ["MOB3"], ["AGG4"]])
    t2.act(0, Action("lead", {"card": "F805/wisdom"}))
    assert sorted(a.params["ambition"] for a in options(t2, 0) if a.type == "declare") == ["", "tycoon"]


def test_F830_dominant_faith_bars_ideal_ambitions_to_non_faithful_leads():
    t = believer_table(3, seed=3)
    doctrinal(t, bv.ZEAL, laws=("F823", "F830"), ideals={"tycoon": bv.ZEAL})
    with_hands(t, [["ADM2", "ADM6"], ["MOB3"], ["AGG4"]])
    t.act(0, Action("lead", {"card": "ADM2"}))  # a base "2": Tycoon printed, which has an Ideal
    assert not any(p.kind == "declare" for p in t.state.prompts)


def run_edicts(t):
    from core.flow import Ctx, run
    from plugins.arcs.rounds import round_start
    from plugins.blighted_reach.event_flow import edicts_begin
    s = t.state
    s.prompts, s.stack = [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    ctx.push(edicts_begin)
    run(ctx)


def test_F821_set_doctrine_the_young_lights_holder_chooses_the_side():
    t = believer_table(3, seed=3)
    doctrinal(t, bv.ZEAL)
    s = t.state
    s.booklet = [slot for slot in s.booklet if "AID03" not in slot] + [["F821"]]
    s.players[1].guild.append("F816")
    run_edicts(t)
    (prompt,) = [p for p in t.state.prompts if p.kind == "set_doctrine"]
    assert prompt.seat == 1
    with pytest.raises(ActionRejected):
        t.act(1, Action("set_doctrine", {"side": "both"}))
    t.act(1, Action("set_doctrine", {"side": bv.WISDOM}))
    assert t.state.doctrine == bv.WISDOM


def test_F827_set_lay_doctrine_the_highest_faithful_card_shown_chooses():
    t = believer_table(3, seed=3)
    doctrinal(t, bv.WISDOM, laws=("F828",))
    from_stack(t, "F806", "F810")
    s = t.state
    s.action_discard.remove("F806")
    s.action_discard.remove("F810")
    s.hands[1].append("F806")
    s.hands[2].append("F810")
    s.booklet = [slot for slot in s.booklet if "AID03" not in slot] + [["F827"]]
    run_edicts(t)
    (prompt,) = [p for p in t.state.prompts if p.kind == "set_doctrine"]
    assert prompt.seat == 2
    t.act(2, Action("set_doctrine", {"side": bv.ZEAL}))
    assert t.state.doctrine == bv.ZEAL


def test_F816_the_young_light_takes_a_played_faithful_card_into_the_hand_at_the_rounds_end():
    """F816 Prelude: discarding a non-Event card, it goes beside a Faithful card a Rival
    played; when the round ends its holder draws that card and takes The Young Light back."""
    t = believer_table(3, seed=3)
    s = t.state
    s.players[1].guild.append("F816")
    with_hands(t, [["F806", "ADM6"], ["MOB3", "MOB4"], ["AGG4"]])
    lead(t, 0, "F806/zeal")
    act(t, 0, "done")
    t.act(1, Action("play", {"card": "MOB3", "kind": "pivot"}))
    no_seize(t, 1)
    uses = [a for a in options(t, 1) if a.params.get("card") == "F816"]
    assert [a.params["params"] for a in uses] == [{"discard": "MOB4", "card": "F806"}]
    t.act(1, uses[0])
    assert t.state.unions and "F816" not in t.state.players[1].guild
    sound(t)
    act(t, 1, "done")
    t.act(2, Action("play", {"card": "AGG4", "kind": "pivot"}))
    no_seize(t, 2)
    act(t, 2, "done")
    s = t.state
    while s.prompts and s.prompts[0].kind != "lead":
        t.act(s.prompts[0].seat, options(t, s.prompts[0].seat)[0])
        s = t.state
    assert "F806" in s.hands[1] and "F816" in s.players[1].guild and "MOB4" in s.action_discard
    sound(t)


def test_F817_plot_to_kidnap_crisis_and_secured():
    """F817 Crisis: The Young Light is attached to it; each player discards its highest
    Faithful card. Secured: the highest Faithful card in the discard is drawn."""
    t = believer_table(3, seed=3)
    from_stack(t, "F806", "F809", "F807")
    s = t.state
    for c in ("F806", "F809", "F807"):
        s.action_discard.remove(c)
    s.hands[1] += ["F806", "F809"]
    s.hands[2] += ["F807"]
    s.players[0].guild.append("F816")
    s.court_row.append("F817")
    s.court_agents["F817"] = [0, 0, 0]
    crises.resolve_court_crisis(box_for_state(s), CBOX, s, "F817", crises.Dice(3, "arrow"))
    assert s.attached["F817"] == "F816" and "F816" not in s.players[0].guild
    assert "F809" in s.action_discard and "F806" in s.hands[1] and "F807" in s.action_discard
    sound(t)
    from plugins.arcs.abilities import Env, Use, use
    del s.attached["F817"]
    s.court_discard.append("F816")
    s.court_row.remove("F817")
    del s.court_agents["F817"]
    s.resolving.append("F817")
    ability = next(a for a in rules_box().court["F817"].abilities if a.do == "draw_highest_faithful_from_discard")
    index = rules_box().court["F817"].abilities.index(ability)
    use(Env(state=s, box=rules_box(), chance=None, emit=lambda *a, **k: None), Use(2, "F817", index, ability), {})
    assert "F809" in s.hands[2] and "F809" not in s.action_discard


def box_for_state(s):
    from plugins.arcs.content import box_for
    return box_for(s)


def test_F820B_ideal_ambitions_advance_by_the_power_gained():
    """F820B: winning an ambition with an Ideal advances by the Power gained from it; one
    without an Ideal does not."""
    from plugins.blighted_reach.objectives import ChapterScore, advance_for_ambitions
    two = act_two()
    two.objective_markers = [20, -1, -1]
    two.ideals = {"tycoon": bv.ZEAL}
    score = ChapterScore(winners={"tycoon": 0, "warlord": 0}, gains={"tycoon": {0: 5}, "warlord": {0: 3}})
    advance_for_ambitions(ctab.BOX, CBOX, two, score)
    assert two.objective_markers[0] == 15


def test_F824_completed_the_young_light_becomes_the_prophet_and_ideals_are_recorded():
    from plugins.blighted_reach import intermission as imm
    two = act_two()
    two.ideals = {"tycoon": bv.ZEAL, "keeper": bv.WISDOM}
    ctab.end_act(two)
    two.objective_markers = [0, 0, 0]
    imm.resolve_fates(ctab.ctx(two), CBOX)
    assert "F825" in two.players[0].guild and "F816" in two.scrapped
    assert {"F826", "F827", "F828"} <= set(two.scrapped)
    assert two.ideals_recorded == {"tycoon": bv.ZEAL, "keeper": bv.WISDOM}
    ctab.sound(two)


def test_F824_failed_loose_ideals_scrapped_and_the_lay_laws():
    from plugins.blighted_reach import intermission as imm
    two = act_two()
    two.ideals, two.ideal_supply = {"tycoon": bv.ZEAL}, 4
    ctab.end_act(two)
    two.objective_markers = [3, 0, 0]
    imm.resolve_fates(ctab.ctx(two), CBOX)
    assert two.ideal_supply == 0 and "F825" in two.scrapped and "F826" in two.court_deck
    assert not any(c in slot for slot in two.booklet for c in ("F821", "F823"))
    assert ["F827"] in two.booklet and ["F828"] in two.booklet
    ctab.sound(two)


# -- Act III (F829-F831) -----------------------------------------------------------------------------------
def act_three(ideals):
    two = act_two()
    two.ideals = dict(ideals)
    ctab.end_act(two)
    two.objective_markers = [0, 0, 0]
    ctab.intermission(two, picks={0: bv.BELIEVER, 1: "FATE01", 2: "FATE04"})
    log = campaign.pack_up(ctab.BOX, CBOX, two)
    three = ctab.new_table(3)
    la.set_up_later_act(ctab.BOX, CBOX, three, log, Rng(three), lambda die, faces: "arrow" if die == "event" else 3)
    la.apply_setup_side(ctab.ctx(three), CBOX, 0)
    return three


def test_F829_act_three_doctrine_to_the_majority_ideal_and_the_ideals_restored():
    three = act_three({"tycoon": bv.ZEAL, "keeper": bv.ZEAL, "empath": bv.WISDOM})
    assert three.doctrine == bv.ZEAL
    assert three.ideals == {"tycoon": bv.ZEAL, "keeper": bv.ZEAL, "empath": bv.WISDOM}
    assert ["F830"] in three.booklet and ["F831"] in three.booklet
    tie = act_three({"tycoon": bv.ZEAL, "keeper": bv.WISDOM})
    assert tie.doctrine == bv.WISDOM
    ctab.sound(three)


def test_F829B_guide_the_flock_counts_markers_on_ideal_ambitions():
    from plugins.arcs.state import Marker
    from plugins.blighted_reach.objectives import goals_fulfilled
    three = act_three({"tycoon": bv.ZEAL, "keeper": bv.WISDOM})
    markers = list(three.markers_available)
    three.ambition_boxes["tycoon"] = markers[:2]
    three.markers_available = markers[2:]
    assert goals_fulfilled(ctab.BOX, CBOX, three, 0) == 1
    three.ambition_boxes["keeper"] = markers[2:]
    three.markers_available = []
    assert goals_fulfilled(ctab.BOX, CBOX, three, 0) == 2
    assert isinstance(markers[0], Marker)


def test_F831_breaking_the_faith_a_rival_destroying_a_believers_city_removes_an_ideal():
    """F831: a Rival who destroys the Believer's Loyal city may take one Ideal off an
    undeclared ambition (declared ones keep theirs)."""
    from core.flow import Ctx
    t = believer_table(3, seed=3)
    s = t.state
    s.booklet.append(["F831"])
    s.ideals = {"tycoon": bv.ZEAL, "warlord": bv.WISDOM}
    s.ambition_boxes["warlord"] = [s.markers_available.pop(0)]
    s.prompts, s.stack = [], []
    ctx = Ctx(s, t.rules)
    bv.arcs_city_destroyed(ctx, attacker=1, owner=0, system="1.1")
    bv.break_faith_offer(ctx, seat=1)
    (prompt,) = s.prompts
    assert prompt.seat == 1 and [o.params["ambition"] for o in prompt.options] == ["", "tycoon"]
    bv.faith_broken(ctx, 1, {"ambition": "tycoon"})
    assert s.ideals == {"warlord": bv.WISDOM}
    with pytest.raises(IllegalAction):
        bv.faith_broken(ctx, 1, {"ambition": "warlord"})
    s.prompts, s.stack = [], []
    bv.arcs_city_destroyed(ctx, attacker=0, owner=0, system="1.1")  # not a Rival
    assert s.stack == []


def test_F813_securing_the_host_of_a_taught_card_draws_the_faithful_card_into_the_hand():
    """F803/F813 through the engine, BR-315: a Guild card with a Faithful card attached is
    secured; the attached Faithful card is secured with it, into the securer's hand."""
    t = believer_table(3, seed=3)
    host = guild_matching_a_city(t)
    s = t.state
    s.attached[host] = s.faithful_stack.pop(0)
    s.court_agents[host][1] += 1
    s.players[1].agents -= 1
    with_hands(t, [["MOB3"], ["AGG4", "AGG5"], ["ADM6"]], initiative=1)
    lead(t, 1, "AGG4")  # Aggression buys secure
    act(t, 1, "secure", card=host)
    s = t.state
    assert host in s.players[1].guild and "F812" in s.hands[1] and host not in s.attached
    assert "F812" not in s.court_row
    sound(t)
