"""A game's phases as data: the phases in order, each with its steps, and what follows the last.

A game declares its sequences once (`Phases`) and lists them in `GameSpec.phases`; the
kernel's `start_phase` step schedules a phase from that declaration. Everything a phase
needs is pending from its start, as plain stack data: the steps that come before it is
entered (`before`, e.g. counting the round), the kernel's step that enters it, the phase's
own steps, the kernel's step that exits it, then the start of the phase after it (or the
declared `then` handler after the last, which decides: a next round, or the game's end).
No step names the step after it, so a phase's content is read in one place.

Entering and leaving go through `Ctx.enter_phase` / `Ctx.exit_phase`, so the `phase` event
and the `conclave_phase_enter` / `conclave_phase_exit` hooks are the same for every game.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, NamedTuple

from core.errors import EngineError
from core.flow import Ctx, StepRef, StepTable, step_name
from core.state import Step

steps = StepTable("core")


class Phase(NamedTuple):
    """One phase: its name (`state.phase` while it lasts), its steps in order as (handler,
    args), and the steps that run before it is entered (still in the phase before it)."""

    name: str
    steps: tuple[tuple[StepRef, dict], ...]
    before: tuple[tuple[StepRef, dict], ...] = ()


@steps("enter_phase")
def enter_phase(ctx: Ctx, name: str) -> None:
    ctx.enter_phase(name)


@steps("exit_phase")
def exit_phase(ctx: Ctx, name: str) -> None:
    ctx.exit_phase(name)


class Phases:
    """A sequence of phases and what follows its last: `then=None` loops to the first (a
    round after round), a handler is scheduled instead (it decides what comes next and
    starts it with `start_phase`, or ends the game).

    Iterating gives each phase's name and the steps the kernel schedules for it, in order
    (its `before` steps, entering, its own steps, exiting): exactly what is pending when the
    phase starts, under the start of what follows it."""

    def __init__(self, phases: Iterable[Phase | tuple], then: StepRef | None = None) -> None:
        self.phases = tuple(p if isinstance(p, Phase) else Phase(*p) for p in phases)
        if not self.phases:
            raise EngineError("a phase sequence needs at least one phase")
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names) or not all(names):
            raise EngineError(f"phase names must be distinct and non-empty: {names}")
        self.then = then
        # per phase: its scheduled steps then what follows, as stored names, bottom of the stack first
        self.pending: dict[str, tuple[tuple[str, dict], ...]] = {}
        for i, phase in enumerate(self.phases):
            if i + 1 < len(self.phases):
                following = (start_phase, {"name": self.phases[i + 1].name})
            elif then is None:
                following = (start_phase, {"name": self.phases[0].name})
            else:
                following = (then, {})
            scheduled = [*self.scheduled(phase), following]
            self.pending[phase.name] = tuple((step_name(s), dict(a)) for s, a in reversed(scheduled))

    @staticmethod
    def scheduled(phase: Phase) -> list[tuple[StepRef, dict]]:
        return [*phase.before, (enter_phase, {"name": phase.name}), *phase.steps,
                (exit_phase, {"name": phase.name})]

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.phases)

    def __iter__(self) -> Iterator[tuple[str, tuple[tuple[StepRef, dict], ...]]]:
        return iter((p.name, tuple(self.scheduled(p))) for p in self.phases)


def schedules(declared: Iterable[Phases]) -> dict[str, tuple[tuple[str, dict], ...]]:
    """Every declared phase of a game by name (its pending steps); a name declared in two
    sequences is an engine error, since `start_phase` names a phase alone."""
    out: dict[str, Any] = {}
    for sequence in declared:
        for name, pending in sequence.pending.items():
            if name in out:
                raise EngineError(f"phase {name!r} is declared twice")
            out[name] = pending
    return out


@steps("start_phase")
def start_phase(ctx: Ctx, name: str) -> None:
    """Schedule the declared phase `name`: its steps (entering it first), then what follows."""
    pending = ctx.rules.phases.get(name)
    if pending is None:
        raise EngineError(f"{ctx.state.game}: no declared phase {name!r}")
    ctx.state.stack.extend(Step(step, dict(args)) for step, args in pending)
