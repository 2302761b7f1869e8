"""The round's end of a campaign table through the engine: the Summit offer, the event
dice, one event however many Event cards, the Council secured and resolved instead, and a
Summit's Negotiations with a deal taken only on every consent. Each test names the BR
checklist IDs it proves."""
from __future__ import annotations

import msgspec
import pytest

from core.errors import ActionRejected, IllegalAction
from core.state import Action
from tests.blighted_reach.flow_helpers import options, ready, restart_round


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def lead(t, seat, card):
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def follow(t, seat, card, kind):
    t.act(seat, Action("play", {"card": card, "kind": kind}))
    if any(p.kind == "seize" and p.seat == seat for p in t.state.prompts):
        t.act(seat, Action("seize", {"card": ""}))
    act(t, seat, "done")


def kinds(events) -> list[str]:
    return [e.type for e in events]


def events_round(t, first_event=True, second_event=False):
    """Seat 0 leads CON2; seat 1 plays an Event (or pivots), seat 2 an Event or a pivot."""
    restart_round(t, [["CON2", "ADM6"], ["EVENT", "MOB3"], ["EVENT", "AGG4"]], initiative=0)
    lead(t, 0, "CON2")
    act(t, 0, "done")
    follow(t, 1, "EVENT" if first_event else "MOB3", "event" if first_event else "pivot")
    t.act(2, Action("play", {"card": "EVENT" if second_event else "AGG4", "kind": "event" if second_event else "pivot"}))
    if any(p.kind == "seize" and p.seat == 2 for p in t.state.prompts):
        t.act(2, Action("seize", {"card": ""}))
    return act(t, 2, "done")


def test_after_an_event_card_the_initiative_holder_may_call_a_summit_BR_154():
    """BR-154."""
    t = ready(3, seed=1)
    events_round(t)
    (prompt,) = [p for p in t.state.prompts if p.blocking]
    assert (prompt.seat, prompt.kind) == (0, "call_summit")  # Lotus keeps the initiative (BR-149)


def test_without_a_summit_the_dice_are_still_rolled_and_one_event_resolves_BR_155_BR_156_BR_157():
    """Two Event cards this round: one roll of the event and number dice, whose face names (BR-155, BR-156, BR-157)
    the Crises or the Edicts; no Summit was called."""
    t = ready(3, seed=1)
    events_round(t, second_event=True)
    events = t.act(0, Action("call_summit", {"call": False}))
    rolled = [e for e in events if e.type == "event_rolled"]
    assert len(rolled) == 1
    face = rolled[0].data["face"]
    assert face in ("crisis", "edict")
    if face == "edict":
        assert "edict" in kinds(events) or any(p.kind == "govern" for p in t.state.prompts)
    rolls = [e for e in events if e.type == "roll" and e.data["why"] == "event"]
    assert [d["die"] for e in rolls for d in e.data["dice"]][:2] == ["event", "number"]  # BR-155


def test_a_round_without_event_cards_resolves_no_event_BR_154():
    """BR-154."""
    t = ready(3, seed=1)
    events = events_round(t, first_event=False)
    assert "event_rolled" not in kinds(events) and not any(p.kind == "call_summit" for p in t.state.prompts)


def put_agent(t, seat, card, n=1):
    t.state.court_agents[card][seat] += n
    t.state.players[seat].agents -= n


def test_securing_the_council_flips_it_tucks_it_and_it_returns_decided_leftmost_BR_164_BR_165_BR_166():
    """BR-164: the Council, secured, is Decided and out of the row; BR-165: at the round's
    end it is back as the leftmost card, Decided; BR-166: its securer, not the initiative
    holder, may call the Summit. BR-143: securing the Council triggers the events (as an
    Event card does, test_after_an_event_card...), and BR-142: they are the three kinds, a
    Summit offered, then the Crises or the Edicts."""
    t = ready(3, seed=1)
    restart_round(t, [["AGG3", "ADM6"], ["MOB3", "CON4"], ["ADM4", "CON5"]], initiative=1)
    put_agent(t, 0, "AID01A", 2)
    put_agent(t, 1, "AID01A", 1)
    lead(t, 1, "MOB3")
    act(t, 1, "done")
    t.act(2, Action("play", {"card": "ADM4", "kind": "pivot"}))
    if any(p.kind == "seize" and p.seat == 2 for p in t.state.prompts):
        t.act(2, Action("seize", {"card": ""}))
    act(t, 2, "done")
    t.act(0, Action("play", {"card": "AGG3", "kind": "pivot"}))
    if any(p.kind == "seize" and p.seat == 0 for p in t.state.prompts):
        t.act(0, Action("seize", {"card": ""}))
    events = act(t, 0, "secure", card="AID01A")  # the pivot's one action: the round ends with it
    secured = kinds(events).index("council_secured")
    assert kinds(events).index("council_returned") > kinds(events).index("round_over") > secured
    assert t.state.players[0].captives == [1] and t.state.council_secured_by == 0
    assert t.state.court_row[0] == "AID01B" and t.state.council == "AID01B" and "AID01A" not in t.state.court_row
    (prompt,) = [p for p in t.state.prompts if p.blocking]
    assert (prompt.seat, prompt.kind) == (0, "call_summit")
    t.act(0, Action("call_summit", {"call": False}))
    # BR-167: a Regent securer takes the First Regent tile; BR-169: then chooses the event
    assert t.state.first_regent == 0
    (prompt,) = [p for p in t.state.prompts if p.blocking]
    assert prompt.kind == "council_event" and {o.params["resolve"] for o in prompt.options} == {"crises", "edicts"}


def test_the_decided_council_cannot_be_influenced_BR_172():
    """BR-172."""
    t = ready(3, seed=1)
    restart_round(t, [["ADM3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"]], initiative=0)
    t.state.court_row[t.state.court_row.index("AID01A")] = "AID01B"
    t.state.court_agents["AID01B"] = t.state.court_agents.pop("AID01A")
    t.state.council = "AID01B"
    lead(t, 0, "ADM3")
    before = snapshot(t)
    with pytest.raises(IllegalAction):
        act(t, 0, "influence", card="AID01B")
    assert snapshot(t) == before
    assert not any(a.params.get("card") == "AID01B" for a in options(t, 0))


# -- Summits through the engine (BR-185, BR-197, BR-198, BR-208, BR-210) ------------------------
def summit(t):
    events_round(t)
    t.act(0, Action("call_summit", {"call": True}))
    t.act(0, Action("call_to_order", {"kind": "start_negotiations"}))


def negotiate(t, seat, move, parts=()):
    return t.act(seat, Action("negotiate", {"move": move, "parts": list(parts)}))


def test_a_three_part_deal_with_two_rivals_happens_only_when_both_consent_all_at_once_BR_198_BR_208():
    """BR-198, BR-208."""
    t = ready(3, seed=1)
    summit(t)
    assert [p.seat for p in t.state.prompts if p.kind == "br.negotiate"] == [0]  # turns from the caller (A-R6)
    s = t.state
    slot0 = next(i for i, r in enumerate(s.players[0].resources) if r)
    parts = [{"kind": "promise_favor", "giver": 0, "receiver": 1},
             {"kind": "promise_favor", "giver": 0, "receiver": 2},
             {"kind": "transfer_asset", "giver": 0, "receiver": 2, "asset": "resource", "slot": slot0}]
    negotiate(t, 0, "propose", parts)
    consents = sorted(p.seat for p in t.state.prompts if p.kind == "consent")
    assert consents == [1, 2]
    before_one = snapshot(t)
    group = next(p for p in t.state.prompts if p.kind == "consent").group
    t.act(1, Action("consent", {"proposal": group, "accept": True}))
    assert t.state.favors == [] or all(not row for row in t.state.favors)  # nothing yet
    assert t.state.players[0].resources[slot0] is not None
    t.act(2, Action("consent", {"proposal": group, "accept": True}))
    assert t.state.favors[1] == [0] and t.state.favors[2] == [0]  # all parts at once
    assert t.state.players[0].resources[slot0] is None
    assert before_one != snapshot(t)


def test_a_declined_deal_changes_nothing_and_negotiations_end_when_all_are_done_BR_208_BR_210():
    """BR-208, BR-210."""
    t = ready(3, seed=1)
    summit(t)
    negotiate(t, 0, "propose", [{"kind": "promise_favor", "giver": 0, "receiver": 1}])
    group = next(p for p in t.state.prompts if p.kind == "consent").group
    before = msgspec.json.encode(t.state.players)
    t.act(1, Action("consent", {"proposal": group, "accept": False}))
    assert msgspec.json.encode(t.state.players) == before and t.state.groups == []
    for seat in (1, 2):  # the turn passed on once the deal was answered
        negotiate(t, seat, "done")
    assert t.state.summit_caller == 0
    events = negotiate(t, 0, "done")
    assert "summit_over" in kinds(events) and t.state.summit_caller == -1
    assert "event_rolled" in kinds(events)  # the round's end goes on to the dice (BR-156)


def test_the_caller_may_end_negotiations_when_no_deal_is_open_A_R6_BR_210():
    """BR-210."""
    t = ready(3, seed=1)
    summit(t)
    negotiate(t, 0, "propose", [{"kind": "promise_favor", "giver": 0, "receiver": 1}])
    before = snapshot(t)
    assert not any(p.kind == "end_negotiations" for p in t.state.prompts)  # not while a deal is open
    with pytest.raises(ActionRejected):
        t.act(0, Action("end_negotiations", {}))
    assert snapshot(t) == before
    group = next(p for p in t.state.prompts if p.kind == "consent").group
    t.act(1, Action("consent", {"proposal": group, "accept": True}))
    events = t.act(0, Action("end_negotiations", {}))
    assert "summit_over" in kinds(events) and "event_rolled" in kinds(events)
    assert not any(p.kind in ("br.negotiate", "end_negotiations") for p in t.state.prompts)


def test_a_bad_proposal_is_refused_with_a_typed_error_and_changes_nothing_BR_208():
    """BR-208."""
    t = ready(3, seed=1)
    summit(t)
    before = snapshot(t)
    empty = next(i for i, r in enumerate(t.state.players[0].resources) if r is None)
    bad = [[{"kind": "transfer_asset", "giver": 0, "receiver": 1, "asset": "resource", "slot": empty}],
           [{"kind": "transfer_card", "giver": 1, "receiver": 0, "card": "CC01"}],
           [{"kind": "promise_favor", "giver": 1, "receiver": 1}], []]
    for parts in bad:
        with pytest.raises(ActionRejected):
            negotiate(t, 0, "propose", parts)
        assert snapshot(t) == before


def test_after_a_council_secured_an_event_buys_nothing_and_the_council_resolves_instead_BR_147_BR_152_BR_158():
    """BR-147, BR-152: Lotus leads and secures the Council with her first action; Dane's
    Event then buys no actions (a Rival secured the Council this round). BR-158: at the
    round's end the Council is resolved (its securer offered the Summit) and the Event
    cards' event is not (no event roll)."""
    t = ready(3, seed=1)
    restart_round(t, [["AGG4", "CON6"], ["EVENT", "MOB5"], ["ADM4", "CON5"]], initiative=0)
    put_agent(t, 0, "AID01A", 2)
    lead(t, 0, "AGG4")
    act(t, 0, "secure", card="AID01A")
    act(t, 0, "done")
    t.act(1, Action("play", {"card": "EVENT", "kind": "event"}))
    if any(p.kind == "seize" and p.seat == 1 for p in t.state.prompts):
        t.act(1, Action("seize", {"card": ""}))
    assert t.state.turn.pips == 0  # BR-147: nothing bought
    act(t, 1, "done")
    events = []
    while not any(p.kind == "call_summit" for p in t.state.prompts):
        seat = t.state.prompts[0].seat
        card = t.state.hands[seat][0]
        events += t.act(seat, Action("play", {"card": card, "kind": "pivot"}) if t.state.lead else
                        Action("lead", {"card": card}))
        if any(p.kind in ("seize", "declare") and p.seat == seat for p in t.state.prompts):
            prompt = next(p for p in t.state.prompts if p.kind in ("seize", "declare") and p.seat == seat)
            events += t.act(seat, Action(prompt.kind, {"card": ""} if prompt.kind == "seize" else {"ambition": ""}))
        events += act(t, seat, "done")
    assert "council_returned" in kinds(events) and "event_rolled" not in kinds(events)
    (prompt,) = [p for p in t.state.prompts if p.blocking]
    assert (prompt.seat, prompt.kind) == (0, "call_summit")  # the securer's, via the Council
    events = t.act(0, Action("call_summit", {"call": False}))
    assert "event_rolled" not in kinds(events)
    assert [p.kind for p in t.state.prompts if p.blocking] == ["council_event"]  # BR-169, not the dice
