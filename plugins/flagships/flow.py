"""Getting a Flagship through the engine (BR-004, BR-265, BR-267): with the Flagships module
on, every player takes one in Act I setup, after the starting placements and before the
hands are dealt (`plugins.blighted_reach.act_flow` pushes `flagships_setup` only then).

Reading: the rulebook leaves the Flagship's setup to the back of its board, which the
rules text does not give. Here each seat, in turn order from the initiative, places its
Flagship piece in a system where it has Loyal ships (its starting planets), and its Loyal
buildings on the map become Free ones (`rules.grant`), as a Fate granting one would.
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.content import box_for
from plugins.blighted_reach.tables import decisions, steps
from plugins.flagships import rules
from plugins.flagships.state import board_of

MODULE_ID = "flagships"


class PlaceFlagship(msgspec.Struct, forbid_unknown_fields=True):
    system: str


def module_on(state) -> bool:
    return MODULE_ID in state.modules


def _order(state) -> list[int]:
    n = len(state.players)
    return [(state.initiative + i) % n for i in range(n)]


def check_place(state, seat: int, system: str) -> None:
    """A system in play holding the seat's Loyal ships; the seat still without a Flagship."""
    rules.check_grant(state, seat, system)
    if state.systems[system].ships_of(seat).total == 0:
        raise IllegalAction(f"the Flagship starts where {seat_name(seat)} has Loyal ships, not in {system}")


@steps("flagships_setup")
def flagships_setup(ctx):
    """The next seat in turn order without a Flagship places it; the step comes back after
    each placement until every seat has one."""
    state = ctx.state
    waiting = [s for s in _order(state) if board_of(state, s) is None]
    if waiting:
        ctx.decide(waiting[0], "br.place_flagship", resume=flagship_placed)


@decisions.kind("place_flagship", answer="place_flagship", params=PlaceFlagship,
                describe="Place your Flagship in a system holding your Loyal ships (the Flagships module).")
def check_place_flagship(state, seat, prompt, answer: PlaceFlagship):
    if not isinstance(answer.system, str):
        raise BadParameter("name a system")
    check_place(state, seat, answer.system)


@check_place_flagship.candidates
def _place_flagship_options(state, seat, prompt):
    for system in sorted(state.systems):
        if state.systems[system].ships_of(seat).total:
            yield {"system": system}


@steps("flagship_placed")
def flagship_placed(ctx, seat, params: PlaceFlagship):
    freed = rules.grant(box_for(ctx.state), ctx.state, seat, params.system)
    ctx.emit("flagship_granted", seat=seat, system=params.system, freed=[list(f) for f in freed])
    ctx.push(flagships_setup)
