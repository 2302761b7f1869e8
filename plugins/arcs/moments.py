"""The `Moment` an ability sees, read from the table state, and what an op changed in it
written back. The state keeps every fact the ops need (the round's plays, the turn's
`acted`, the declaration, the battle roll), so nothing lives outside the saved table."""
from __future__ import annotations

from typing import Iterable

from plugins.arcs.abilities import Env, Moment
from plugins.arcs.content import Box
from plugins.arcs.state import ArcsState


def moment_for(state: ArcsState, seat: int | None, used: Iterable = ()) -> Moment:
    """What is true now for `seat`: its played card and how (when it is taking the turn),
    the round's face-up cards, the declaration, the roll, and the limited uses spent."""
    turn = state.turn
    mine = turn is not None and turn.seat == seat
    played = ""
    if mine:
        played = next((p.card for p in reversed(state.plays) if p.seat == seat), "")
    return Moment(face_up=[p.card for p in state.plays if p.card], played=played,
                  play=turn.kind if mine else "", acted=bool(mine and turn.acted),
                  declared=state.ambition_declared, zero_marker=state.declared,
                  roll=[tuple(f) for f in state.battle.roll] if state.battle is not None else [],
                  used=[f"{card}:{index}" for card, index in used])


def write_back(state: ArcsState, moment: Moment) -> None:
    """Keep what an op changed in the moment: a declaration (Galactic Bards, Populist
    Demands) and a reroll (Skirmishers)."""
    state.ambition_declared = moment.declared
    state.declared = moment.zero_marker
    if state.battle is not None:
        state.battle.roll = [tuple(f) for f in moment.roll]


def env_for(box: Box, state: ArcsState, ctx=None, seat: int | None = None, used: Iterable = ()) -> Env:
    """An `Env` over the table: chance and events through the flow's Ctx when there is one."""
    return Env(state=state, box=box, chance=ctx, emit=(ctx.emit if ctx is not None else (lambda *a, **k: None)),
               moment=moment_for(state, seat, used))
