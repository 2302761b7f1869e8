"""Act III tables for the C Fates' tests (the Overlord, the Redeemer, the Guardian): Acts I
and II set up through the engine with A Fates, Act II's Intermission run with the box's offer
(`later_fates: box`, BR-349) and the draw arranged so that the wanted seats are offered their
C Fate, the log sheet packed and Act III's table created from it (its Setup sides run by the
flow, their prompts left open for the test)."""
from __future__ import annotations

import copy

import msgspec
import pytest

from core.engine import create_table
from core.errors import ActionRejected
from core.state import Action
from plugins.blighted_reach import campaign as sheet
from plugins.blighted_reach import intermission as im
from plugins.blighted_reach import plugin  # noqa: F401 (the Fates' rules registered, as on a real table)
from tests.blighted_reach.campaign_tables import BOX, CBOX, act_one, ctx, end_act
from tests.blighted_reach.fate_ma_tables import _next_act
from tests.blighted_reach.flow_helpers import GAME

# A Fates whose Act III Setup sides ask nothing (the Steward's asks the First Regent).
OTHERS = ("FATE02", "FATE04", "FATE07", "FATE06")


def snapshot(t) -> bytes:
    return msgspec.json.encode(t.state)


def sound(t) -> None:
    problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
    assert problems == [], problems


def refused(t, seat: int, action: Action, error=ActionRejected) -> None:
    """The action is refused with a typed error and the table is exactly as it was."""
    before = snapshot(t)
    with pytest.raises(error):
        t.act(seat, action)
    assert snapshot(t) == before


def c_intermission(state, mine: dict[int, str]) -> None:
    """Intermission A-F after Act II with the box's offer: the seats of `mine` failed their
    objective (they draw two C Fates) and the draw is arranged to hold their Fate; the other
    seats completed theirs and keep their A Fate."""
    state.options = {**state.options, "later_fates": "box"}
    im.resolve_fates(ctx(state), CBOX)
    im.clear_court(CBOX, state)
    im.clear_pieces(BOX, CBOX, state)
    for seat in im.repair_and_destroy(BOX, CBOX, state):
        im.place_after_elimination(BOX, CBOX, state, seat, "1G")
    im.shift_initiative_and_power(CBOX, state)
    im.offer_fates(CBOX, state)
    taken = set(mine.values())
    for seat in range(len(state.players)):
        offer = state.fate_offers[seat]
        if seat in mine and mine[seat] not in offer:
            spare = next(f for f in offer if f not in taken)
            state.fate_offers[seat] = [mine[seat], spare]  # the draw, arranged
        im.pick_fate(state, seat, mine.get(seat, state.fates[seat]))
    im.reveal_fates(CBOX, state)


def act_three_table(mine: dict[int, str], players: int = 3, seed: int = 3, arrange=None):
    """Act III's table with the C Fates of `mine` at their seats and A Fates elsewhere (each
    objective of Acts I and II completed but those of `mine`'s seats in Act II); `arrange`
    (state) changes Act II's end before its log sheet is packed."""
    chosen = list(OTHERS[:players])
    state = end_act(act_one(chosen, seed))
    state.objective_markers = [0] * players
    t = _next_act(state, chosen, seed, 20)
    state = end_act(t.state)
    state.prompts, state.stack, state.turn = [], [], None
    state.objective_markers = [5 if s in mine else 0 for s in range(players)]
    c_intermission(state, mine)
    if arrange is not None:
        arrange(state)
    log = sheet.to_json(sheet.pack_up(BOX, CBOX, state))
    campaign = {"players": players, "acts_played": 2, "log": copy.deepcopy(log), "finished": False,
                "winner": -1, "acts": []}
    return create_table(GAME, players, seed=seed, campaign=campaign)


def prompt_of(t, kind: str):
    return next((p for p in t.state.prompts if p.kind == kind), None)


def run_steps(t, *steps):
    """Run flow steps on the table (each step's own prompts answered with `t.act` after)."""
    from core.flow import Ctx, run

    ctx = Ctx(t.state, t.rules)
    ctx.push_all(list(steps))
    run(ctx)
    return ctx.events


def score_now(t):
    """The chapter ends now: its ambitions scored, the objectives advanced, the campaign's
    winner looked for (Act III), as the last pass of a chapter would."""
    from plugins.arcs.rounds import chapter_end

    s = t.state
    s.prompts, s.stack, s.turn = [], [], None
    s.action_discard.extend(p.card for p in s.plays if p.card)  # the round is over: its cards discarded
    s.plays, s.lead = [], ""
    return run_steps(t, (chapter_end, {}))


def take_from_supply(t, seat: int, resource: str, count: int = 1) -> None:
    """Tokens from the supply into the seat's empty open slots (an arranged row)."""
    from plugins.arcs.content import box_for
    from plugins.arcs.setup import open_slots

    s = t.state
    row = s.players[seat].resources
    for _ in range(count):
        slot = next(i for i in open_slots(box_for(s), s.players[seat]) if row[i] is None)
        s.supply[resource] -= 1
        row[slot] = resource


def clear_row(t, seat: int) -> None:
    """The seat's resource tokens back to the supply (an arranged, empty row)."""
    s = t.state
    row = s.players[seat].resources
    for i, r in enumerate(row):
        if r is not None:
            s.supply[r] += 1
            row[i] = None


def free_planet(t, kind: str | None = None) -> str:
    """A planet with no ship, building or Imperial ship on it (of `kind`, if given),
    without Blight where there is one."""
    from plugins.arcs.content import box_for

    s, box = t.state, box_for(t.state)
    empty = [p for p in sorted(s.systems) if box.systems[p] is not None
             and (kind is None or box.systems[p].type == kind) and not s.systems[p].buildings
             and not any(g.total for g in s.systems[p].ships) and p not in s.imperial]
    return next((p for p in empty if p not in s.blight), empty[0])


def declare_by_arrangement(t, ambition: str) -> None:
    """The highest Available marker into the ambition's box (as a declaration leaves it)."""
    from plugins.arcs.content import box_for
    from plugins.arcs.court_ops import place_ambition_marker

    place_ambition_marker(box_for(t.state), t.state, ambition)
