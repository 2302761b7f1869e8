"""Asking owners where their new resource tokens go (ARCS-209, ARCS-210, ARCS-250).

Gains happen deep inside effects (a tax, a raid, a card's op, a trade that gives a Rival
a token, a city returned at chapter end), often to a seat whose turn it is not. The rules
code only records them (`placing.Placing`); the check is here, once for every Arcs step:
`settling` wraps each step handler, and after any step that left tokens waiting, their
placement is settled before anything else runs. A forced placement is applied at once;
otherwise the owner gets the typed decision `arcs.place_resources`, and the prompts that
step opened for anyone are held back until every waiting token is placed (so no other
answer can change the row the placement is judged against).
"""
from __future__ import annotations

import msgspec

from core.errors import IllegalAction
from plugins.arcs import placing
from plugins.arcs.content import Resource, box_for
from plugins.arcs.setup import open_slots
from plugins.arcs.tables import decisions, steps

DECISION = "arcs.place_resources"

# A game built on Arcs may have a question that a step raises and that must be answered at
# once, before the tokens are placed and before any other prompt (the campaign's Green
# Vault takes waiting Material into the Captives; Sycophants places ships on Provoking
# Outrage): fn(ctx) opens its prompt and returns it, or returns None (nothing is due, or a
# table it does not know). Answered, its resume step settles again.
QUESTIONS: list = []


class PlaceResources(msgspec.Struct, forbid_unknown_fields=True):
    """The seat's whole resource row after placing (null: empty; covered slots null), and
    which placement it answers."""

    number: int
    slots: list[Resource | None]


def _record(state, seat: int, prompt) -> placing.Placing:
    record = next((r for r in state.placing if r.number == prompt.args.get("number")), None)
    if record is None or record.seat != seat:
        raise IllegalAction("that placement is over")
    return record


@decisions.kind("place_resources", answer="place_resources", params=PlaceResources)
def check_placement(state, seat, prompt, answer: PlaceResources):
    """Where the tokens go: an empty open slot each while there is room; else any
    arrangement that keeps as many as fit (the rest to the supply)."""
    record = _record(state, seat, prompt)
    if answer.number != record.number:
        raise IllegalAction(f"this is placement {record.number}, not {answer.number}")
    placing.check(box_for(state), state, record, answer.slots)


@check_placement.candidates
def _placements(state, seat, prompt):
    record = _record(state, seat, prompt)
    for row in placing.outcomes(box_for(state), state, record):
        yield {"number": record.number, "slots": row}


@check_placement.domains
def _domains(state, seat, prompt):
    record = _record(state, seat, prompt)
    player = state.players[seat]
    return {"open_slots": open_slots(box_for(state), player), "row": list(player.resources),
            "tokens": list(record.tokens), "rearrange": record.rearrange}


@steps("placed")
def placed(ctx, seat, params: PlaceResources, number: int):
    record = next(r for r in ctx.state.placing if r.number == number)
    _apply(ctx, record, params.slots)


def _apply(ctx, record: placing.Placing, row: list) -> None:
    lost = placing.apply(ctx.state, record, row)
    ctx.emit("resources_placed", seat=record.seat, slots=list(row), discarded=lost)


def settle(ctx, since: int) -> None:
    """Apply forced placements, ask for the first open one; hold back the prompts opened
    since prompt id `since` while one is asked; reopen them once none is waiting."""
    state, box = ctx.state, box_for(ctx.state)
    if state.finished:  # nothing to play for: each waiting token goes where it would by default
        for record in list(state.placing):
            placing.apply(state, record, next(placing.outcomes(box, state, record)))
        state.held_prompts = []
        return
    asking = next((p for p in state.prompts if p.decision == DECISION or p.args.get("question")), None)
    for question in QUESTIONS:
        if asking is not None:
            break
        asking = question(ctx)
    while asking is None and state.placing:
        record = state.placing[0]
        row = placing.forced(box, state, record)
        if row is not None:
            _apply(ctx, record, row)
            continue
        asking = ctx.decide(record.seat, DECISION, resume=placed, number=record.number,
                            text="Place your resources")
    if asking is not None:
        held = [p for p in state.prompts if p.id >= since and p is not asking]
        if held:
            state.held_prompts.extend(held)
            state.prompts = [p for p in state.prompts if p.id < since or p is asking]
    elif state.held_prompts:
        state.prompts.extend(state.held_prompts)
        state.held_prompts = []


def settling(handler):
    """The step handler, then the placement check (see the module docstring)."""

    def run_then_settle(ctx, **args):
        state = ctx.state
        since = state.next_prompt_id
        out = handler(ctx, **args)
        if state.placing or state.held_prompts or QUESTIONS:
            settle(ctx, since)
        return out

    run_then_settle.step_name = handler.step_name
    run_then_settle.__doc__ = handler.__doc__
    run_then_settle.__wrapped__ = handler
    return run_then_settle


def settled_steps(table) -> dict:
    """The step table with every handler wrapped by `settling`."""
    return {name: settling(fn) for name, fn in table.items()}
