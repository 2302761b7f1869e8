"""Leaders & Lore (digest section 12): before the starting pieces, every seat drafts one
Leader and one Lore card (two with the table option `lore_per_player` = 2) from face-up
rows, in reverse turn order; each Leader's layout then replaces the standard starting
pieces, and the Leaders' setup instructions follow the draft.

The rules are in plugins/arcs/leaders.py (draft) and plugins/arcs/lore_ops.py (the cards'
effects); this module is the steps and the typed pick decision between them.
"""
from __future__ import annotations

import sys

import msgspec

from core import chance
from core.decisions import DecisionTable
from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from plugins.arcs import leaders
from plugins.arcs.content import box_for
from plugins.arcs.lore_ops import KEY

MODULE_ID = KEY
steps = StepTable("lal")
decisions = DecisionTable("lal")

SPEC = ModuleSpec(
    id=MODULE_ID, game="arcs", name="Leaders & Lore", plugin=sys.modules[__name__],
    description="Each player drafts a Leader (own abilities, starting pieces and resources) and a Lore "
                "card (a permanent ability) before the game; not advised for a first game.",
    min_players=2, max_players=4,
)
enabled, mine = SPEC.enabled, SPEC.data


def lore_per_player(state) -> int:
    """ARCS-266 variant: the table option `lore_per_player` (1, or 2 for the two-Lore variant)."""
    return int(state.options.get("lore_per_player", 1))


def box(state):
    return box_for(state)


class Pick(msgspec.Struct, forbid_unknown_fields=True):
    card: str


@hookimpl
def conclave_register_modules():
    return [SPEC]


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def conclave_decisions():
    return decisions


@hookimpl
def arcs_setup_steps(ctx):
    """Lay out both rows (public shuffles) and start the draft."""
    state = ctx.state
    if not enabled(state):
        return
    row_leaders, row_lore = leaders.deal_rows(box(state), len(state.players),
                                              lambda items, what: chance.shuffle(ctx, items, what),
                                              lore_per_player(state))
    state.module_state.setdefault(MODULE_ID, {}).update(leaders=row_leaders, lore=row_lore)
    ctx.emit("draft_rows", leaders=list(row_leaders), lore=list(row_lore))
    ctx.push(next_pick)


@steps("next_pick")
def next_pick(ctx):
    state = ctx.state
    seat = leaders.next_picker(state, lore_per_player(state))
    if seat is None:
        ctx.push(draft_done)
        return
    ctx.decide(seat, "lal.pick", resume=picked, text="Pick a Leader or a Lore card")


@decisions.kind("pick", answer="draft_pick", params=Pick)
def check_pick(state, seat, prompt, answer: Pick):
    """One card from the Leader row or the Lore row (ARCS-263)."""
    m = mine(state)
    leaders.check_pick(box(state), state, seat, m["leaders"], m["lore"], answer.card, lore_per_player(state))


@check_pick.candidates
def pick_candidates(state, seat, prompt):
    m = mine(state)
    for card in leaders.allowed_picks(box(state), state, seat, m["leaders"], m["lore"], lore_per_player(state)):
        yield {"card": card}


@steps("picked")
def picked(ctx, seat, params: Pick):
    state = ctx.state
    m = mine(state)
    leaders.take_pick(box(state), state, seat, m["leaders"], m["lore"], params.card)
    ctx.emit("draft_pick", seat=seat, card=params.card)
    ctx.push(next_pick)


@steps("draft_done")
def draft_done(ctx):
    """ARCS-265: the Leaders' setup instructions, in turn order, once everyone has picked;
    the cards left in the rows go back to the box."""
    state = ctx.state
    done = leaders.setup_instructions(box(state), state)
    for seat, covered in done.items():
        ctx.emit("outraged_at_setup", seat=seat, resources=covered)
    m = mine(state)
    m["leaders"], m["lore"] = [], []
    ctx.emit("draft_done", leaders=[p.leader for p in state.players], lore=[list(p.lore) for p in state.players])


@hookimpl
def arcs_place_starting_pieces(ctx, seat):
    """ARCS-264: the Leader's layout replaces the standard starting pieces and resources."""
    if not enabled(ctx.state):
        return None
    leaders.place_layout(box(ctx.state), ctx.state, seat)
    return True


@hookimpl
def conclave_check_invariants(state):
    """Every Leader and Lore card is in at most one place: a row or one seat's play area."""
    if not enabled(state) or MODULE_ID not in state.module_state:
        return []
    m = state.module_state[MODULE_ID]
    places = [*m.get("leaders", []), *m.get("lore", []),
              *(p.leader for p in state.players if p.leader), *(c for p in state.players for c in p.lore)]
    known = set(box(state).leaders) | set(box(state).lore)
    out = []
    if len(places) != len(set(places)):
        out.append("leaders-and-lore: a Leader or Lore card is in two places")
    if set(places) - known:
        out.append("leaders-and-lore: an unknown Leader or Lore card is in play")
    return out
