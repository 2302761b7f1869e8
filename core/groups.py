"""Prompt groups: several seats asked at once (`collect`), and proposals that need every
affected seat's consent (`consent`).

A group lives in `state.groups`; its prompts name it (`Prompt.group`) and resume into the
kernel's own steps below, which hold answers, count consents and, when the group is
complete, run the game's `resume` step. Everything a group holds before its reveal stays
out of every view and event but its own seat's (`core.engine.view`).
"""
from __future__ import annotations

from typing import Any

import msgspec

from core.errors import EngineError
from core.flow import Ctx, StepRef, StepTable, step_name
from core.state import Action, PromptGroup

steps = StepTable("core")


def _new_group(ctx: Ctx, **fields: Any) -> PromptGroup:
    state = ctx.state
    group = PromptGroup(id=state.next_prompt_id, **fields)
    state.next_prompt_id += 1
    state.groups.append(group)
    return group


def group_of(ctx: Ctx, group_id: int) -> PromptGroup:
    for group in ctx.state.groups:
        if group.id == group_id:
            return group
    raise EngineError(f"no open prompt group {group_id}")


def collect(ctx: Ctx, seats: list[int], kind: str, options: dict[int, list[Action]] | None, resume: StepRef,
            decision: str = "", text: str = "", **args: Any) -> int:
    """Ask every seat in `seats` at once; answers stay secret until the last is in, then
    `resume(ctx, answers={seat: params}, **args)` runs with all of them. Each seat answers
    from its own `options`, or a typed `decision` of one answer type (the answers are held as
    plain data, which would not say which of several types was sent)."""
    if decision and len(ctx.rules.decisions[decision].answers) != 1:
        raise EngineError(f"a collect group's decision has one answer type; {decision!r} has several")
    group = _new_group(ctx, mode="collect", seats=list(seats), resume=step_name(resume), args=dict(args))
    for seat in seats:
        prompt = ctx.prompt(seat, kind, (options or {}).get(seat, []), collected, text=text,
                            decision=decision, group=group.id)
        prompt.args = {"group": group.id}
    return group.id


@steps("collected")
def collected(ctx: Ctx, seat: int, params: Any, group: int) -> None:
    held = group_of(ctx, group)
    held.answers[str(seat)] = msgspec.to_builtins(params)  # a typed decision's answer as plain data
    ctx.emit("answered", group=group, seat=seat)  # public: that this seat has answered, not what
    if len(held.answers) < len(held.seats):
        return
    ctx.state.groups.remove(held)
    answers = {int(s): a for s, a in held.answers.items()}
    ctx.emit("revealed", group=group, answers={str(s): answers[s] for s in sorted(answers)})
    ctx.rules.handlers[held.resume](ctx, answers=answers, **held.args)  # a stored, registered name


def propose(ctx: Ctx, proposer: int, seats: list[int], proposal: dict, resume: StepRef, **args: Any) -> int:
    """Put a proposal to `seats` (the seats it affects): each may accept or decline, and the
    proposer may withdraw it, while its window is open. When the last accepts,
    `resume(ctx, proposer=..., proposal=..., **args)` applies it in that same action: all of
    it at once. A decline or a withdrawal drops it and changes nothing else."""
    if not seats:
        raise EngineError("a proposal needs at least one seat to consent")
    group = _new_group(ctx, mode="consent", seats=sorted(set(seats)), resume=step_name(resume), args=dict(args),
                       proposer=proposer, proposal=dict(proposal))
    for seat in group.seats:
        prompt = ctx.prompt(seat, "consent", [Action("consent", {"proposal": group.id, "accept": True}),
                                              Action("consent", {"proposal": group.id, "accept": False})],
                            consented, blocking=False, group=group.id)
        prompt.args = {"group": group.id}
    prompt = ctx.prompt(proposer, "withdraw", [Action("withdraw", {"proposal": group.id})], withdrawn,
                        blocking=False, group=group.id)
    prompt.args = {"group": group.id}
    ctx.emit("proposed", proposal=group.id, proposer=proposer, seats=group.seats, parts=group.proposal)
    return group.id


@steps("consented")
def consented(ctx: Ctx, seat: int, params: dict, group: int) -> None:
    held = group_of(ctx, group)
    if not params["accept"]:
        _drop(ctx, held, "declined", seat)
        return
    held.accepted.append(seat)
    ctx.emit("consented", proposal=group, seat=seat)
    if sorted(held.accepted) != held.seats:
        return
    ctx.state.groups.remove(held)
    ctx.state.prompts = [p for p in ctx.state.prompts if p.group != group]
    ctx.emit("proposal_accepted", proposal=group, proposer=held.proposer, parts=held.proposal)
    ctx.rules.handlers[held.resume](ctx, proposer=held.proposer, proposal=held.proposal, **held.args)


@steps("withdrawn")
def withdrawn(ctx: Ctx, seat: int, params: dict, group: int) -> None:
    _drop(ctx, group_of(ctx, group), "withdrawn", seat)


def _drop(ctx: Ctx, group: PromptGroup, why: str, by: int | None) -> None:
    ctx.state.groups.remove(group)
    ctx.state.prompts = [p for p in ctx.state.prompts if p.group != group.id]
    ctx.emit("proposal_dropped", proposal=group.id, reason=why, seat=by)


def close_group(ctx: Ctx, group_id: int, why: str = "closed") -> None:
    """End a group's window now: a proposal is dropped, a collect is abandoned."""
    for group in list(ctx.state.groups):
        if group.id == group_id:
            _drop(ctx, group, why, None)
