"""Tables for the Steward's and the Admiral's tests: Act I's first round through the engine
with those Fates in play, and the round's end (Edicts, Crises) run on it. A later Act's
card is put where the Act would have it (the Court, a play area, the booklet): its rules do
not read the Act.
"""
from __future__ import annotations

import msgspec

from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.rounds import round_start
from plugins.arcs.state import Building
from tests.blighted_reach.flow_helpers import ready

STEWARD, FOUNDER, ADMIRAL = "FATE01", "FATE02", "FATE07"
HANDS = [["AGG3", "CON4"], ["MOB3", "CON5"], ["ADM4", "CON6"], ["ADM2", "CON3"]]


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def empire_table(players: int = 3, seed: int = 1, steward: bool = True, admiral: bool = True):
    """Act I's first round: the Steward at seat 0, the Admiral at seat 1, the Founder (whose
    Act I cards have no Crisis) at seat 2; a fourth seat keeps a Fate its offer has."""
    wanted = {}
    if steward:
        wanted[0] = STEWARD
    if admiral:
        wanted[1] = ADMIRAL
    if players > 2:
        wanted[2] = FOUNDER
    return ready(players, seed, wanted=wanted)


def sound(t):
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def lead(t, seat, card):
    t.act(seat, Action("lead", {"card": card}))
    if any(p.kind == "declare" and p.seat == seat for p in t.state.prompts):
        t.act(seat, Action("declare", {"ambition": ""}))


def act(t, seat, act, **params):
    return t.act(seat, Action("act", {"act": act, **params}))


def put_agent(t, seat, card, n=1):
    t.state.court_agents[card][seat] += n
    t.state.players[seat].agents -= n


def prompt_of(t, kind):
    return next((p for p in t.state.prompts if p.kind == kind), None)


def deal(t, hands=None, initiative: int = 0):
    """The seats' hands for the next round (the other action cards to the discard)."""
    s = t.state
    everything = [c for h in s.hands for c in h] + s.action_discard
    hands = hands or HANDS[:len(s.players)]
    for card in (c for h in hands for c in h):
        everything.remove(card)
    s.hands, s.action_discard = [list(h) for h in hands], everything
    s.initiative, s.prompts, s.stack = initiative, [], []


def run_then_round(t, step, **args) -> list:
    """Run `step` as the round's end would (then a new round with HANDS); its events."""
    deal(t)
    ctx = Ctx(t.state, t.rules)
    ctx.push(round_start)
    ctx.push(step, **args)
    run(ctx)
    return list(ctx.events)


def resolve_edicts(t, govern: str = "change") -> list:
    """The Edicts, the First Regent changing the Policy (no Demand) or enforcing it."""
    from plugins.blighted_reach import event_flow

    events = run_then_round(t, event_flow.edicts_begin)
    prompt = prompt_of(t, "govern")
    if prompt is not None:
        choice = next(o for o in prompt.options if govern in o.params)
        events += t.act(prompt.seat, choice)
    return events


def resolve_crises(t, number: int, symbol: str) -> list:
    """The Crises with these dice (an Event card's roll)."""
    from plugins.blighted_reach import event_flow

    return run_then_round(t, event_flow.crises_begin, number=number, symbol=symbol)


def give(t, seat: int, card: str) -> None:
    """A card of a Fate Set into the seat's hands as gaining it would put it."""
    from plugins.blighted_reach import fates
    from plugins.blighted_reach.content import default_box

    fates.gain(default_box(), t.state, seat, card)


def to_court(t, card: str, place: int = -1) -> str:
    """The card replaces a Court card (that one back to the deck's top); returns it."""
    s = t.state
    old = s.court_row[place]
    s.court_row[place] = card
    s.court_agents[card] = s.court_agents.pop(old)
    s.court_deck.insert(0, old)
    return old


def starport_for(t, seat: int, system: str):
    """Turn the seat's city in `system` into a starport (the city back on its board)."""
    s = t.state
    here = s.systems[system]
    i = next(i for i, b in enumerate(here.buildings) if b.owner == seat)
    here.buildings[i] = Building(kind="starport", owner=seat)
    s.players[seat].starports -= 1
    board = s.players[seat].cities_on_board
    board[board.index(False)] = True


def place_tokens(t) -> None:
    """Answer every waiting resource placement with its first legal row."""
    from core.engine import legal_actions

    while True:
        prompt = next((p for p in t.state.prompts if p.decision == "arcs.place_resources"), None)
        if prompt is None:
            return
        t.act(prompt.seat, legal_actions(t.state, prompt.seat, t.rules)[0])


def new_round(t, hands=None, initiative: int = 0) -> None:
    """A round with these hands (HANDS by default) from the lead."""
    from plugins.arcs.rounds import round_start

    deal(t, hands, initiative)
    ctx = Ctx(t.state, t.rules)
    ctx.push(round_start)
    run(ctx)


def resolve_fates(t, markers: list[int]) -> list:
    """The Act's last chapter is over with the objective markers on these spaces: the
    Intermission's Resolve Fate step (A) as the table runs it."""
    from plugins.blighted_reach import campaign_flow

    s = t.state
    s.chapter = 3
    for hand in s.hands:
        s.action_discard.extend(hand)
    s.hands = [[] for _ in s.players]
    s.objective_markers = list(markers)
    ctx = Ctx(s, t.rules)
    ctx.call(campaign_flow.resolve_fates)
    return list(ctx.events)


def run_side(t, seat: int, card: str, when: str = "setup") -> list:
    """A Fate card's side (an Act's Setup side) run on the table through the Fate machinery,
    a new round waiting under it (its prompts answered with `t.act`)."""
    from plugins.arcs.rounds import round_start
    from plugins.blighted_reach import fate_steps
    from plugins.blighted_reach.content import default_box

    deal(t)
    ctx = Ctx(t.state, t.rules)
    ctx.push(round_start)
    fate_steps.run_side(ctx, default_box(), seat, t.state.fates[seat], card, when)
    run(ctx)
    return list(ctx.events)


def act_three_booklet(t, top: str = "F124") -> None:
    """The Steward's Act III Setup side done (its choice: `top`)."""
    run_side(t, 0, "F122")
    prompt = prompt_of(t, "authority_policy")
    t.act(prompt.seat, Action("authority_policy", {"card": top}))
