"""The flow: a stack of named steps run until a decision is needed.

Pending work is data (`state.stack` of `Step`), so an effect that stops for a choice
resumes later, in another process if need be. `Ctx` is the handle a step handler gets:
the state being changed, the events raised, the RNG, the hooks.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from core.errors import EngineError
from core.rng import Rng
from core.seats import seat_name
from core.state import Action, Event, Prompt, Step, TableState

MAX_STEPS_PER_ACTION = 100_000  # a runaway loop is a bug; fail loudly instead of hanging

# A step is named through the handler that runs it (registered with a `StepTable`); the
# state stores only the registered name, so saved games stay plain data.
StepRef = Callable[..., Any]


def step_name(step: StepRef) -> str:
    """The registered name of a step handler. A name is never written out by hand (so a
    misspelt or renamed step fails where it is scheduled, not when it runs): a string, or a
    function no `StepTable` registered, is an engine error."""
    name = getattr(step, "step_name", None)
    if name is None:
        raise EngineError(f"{step!r} is not a registered step handler")
    return name


class Ctx:
    """The running context of one table mutation (setup or one action)."""

    __slots__ = ("state", "rules", "events", "rng", "content")

    def __init__(self, state: TableState, rules, content: Any = None) -> None:
        self.state = state
        self.rules = rules
        self.events: list[Event] = []
        self.rng = Rng(state)
        self.content = content

    @property
    def hook(self):
        return self.rules.pm.hook

    # -- pending work ---------------------------------------------------------------
    def push(self, step: StepRef, **args: Any) -> None:
        """Schedule the step handler `step` to run next (before anything already pending)."""
        try:  # the hot path: a registered handler carries its name
            name = step.step_name
        except AttributeError:
            name = step_name(step)  # refuses it, saying why
        self.state.stack.append(Step(name, args))

    def push_all(self, steps: Iterable[tuple[StepRef, dict]]) -> None:
        """Schedule several steps to run in the given order, before anything pending."""
        stack = self.state.stack
        for step, args in reversed(list(steps)):
            try:
                name = step.step_name
            except AttributeError:
                name = step_name(step)
            stack.append(Step(name, args))

    def call(self, step: StepRef, **args: Any) -> Any:
        """Run the step handler `step` now (by its registered handler, so a module's wrapper
        or replacement of a step is honoured)."""
        return self.rules.handlers[step_name(step)](self, **args)

    # -- decisions ------------------------------------------------------------------
    def prompt(
        self,
        seat: int,
        kind: str,
        options: list[Action],
        resume: StepRef,
        blocking: bool = True,
        text: str = "",
        free_text: list[str] | None = None,
        decision: str = "",
        group: int = 0,
        **args: Any,
    ) -> Prompt:
        """Open a decision for `seat`. `options` must be non-empty and complete (free-text
        parameters, named in `free_text`, appear in them as ""), unless the prompt names a
        typed `decision` (`core.decisions`): its validator then judges each answer."""
        if not options and not decision:
            raise EngineError(f"prompt {kind!r} for {seat_name(seat)} has no options")
        if decision and decision not in self.rules.decisions:
            raise EngineError(f"prompt {kind!r} names no registered decision {decision!r}")
        state = self.state
        prompt = Prompt(
            id=state.next_prompt_id, seat=seat, kind=kind, options=options,
            resume=resume.step_name if hasattr(resume, "step_name") else step_name(resume), args=args, blocking=blocking, prompt_text=text, free_text=list(free_text or []),
            decision=decision, group=group,
        )
        state.next_prompt_id += 1
        state.prompts.append(prompt)
        return prompt

    def decide(self, seat: int, decision: str, resume: StepRef, blocking: bool = True, text: str = "",
               **args: Any) -> Prompt:
        """Open a typed decision (`core.decisions`) for `seat`: no options are stored; the
        registered validator judges each answer and its generator lists candidates."""
        return self.prompt(seat, decision, [], resume, blocking=blocking, text=text, decision=decision, **args)

    def ask(self, seat: int, kind: str, options: list[Action], resume: StepRef, text: str = "", **args: Any) -> None:
        """Like `prompt`, but a forced choice (one option) is taken at once without asking."""
        if len(options) == 1:
            self.call(resume, seat=seat, params=options[0].params, **args)
        else:
            self.prompt(seat, kind, options, resume, text=text, **args)

    def close_prompts(self, kind: str | None = None) -> None:
        """Withdraw open prompts (all, or of one kind): e.g. a standing offer whose window ended."""
        self.state.prompts = [p for p in self.state.prompts if kind is not None and p.kind != kind]

    # -- events ---------------------------------------------------------------------
    def emit(self, type: str, to: list[int] | None = None, public: dict | None = None, **data: Any) -> None:
        """Record an event. With `to`, only those seats see `data`; others see `public`."""
        if to is not None and not isinstance(to, list):  # `to` is the addressees, never event data
            raise EngineError(f"event {type!r}: `to` must be a list of seats, not {to!r}")
        self.events.append(Event(type=type, data=data, to=to, public=public))

    # -- phases ---------------------------------------------------------------------
    def enter_phase(self, phase: str) -> None:
        self.state.phase = phase
        self.state.step = ""
        self.emit("phase", phase=phase, round=self.state.round)
        self.hook.conclave_phase_enter(ctx=self, phase=phase)

    def exit_phase(self, phase: str) -> None:
        self.hook.conclave_phase_exit(ctx=self, phase=phase)

    def finish(self, result: dict) -> None:
        """End the game with `result`; no prompt stays open."""
        state = self.state
        state.finished = True
        state.result = result
        state.prompts = []
        state.stack = []
        self.emit("game_end", **result)
        self.hook.conclave_game_end(ctx=self, result=result)


def run(ctx: Ctx) -> None:
    """Run pending steps until a blocking prompt is open or the game ends."""
    state = ctx.state
    handlers = ctx.rules.handlers
    budget = MAX_STEPS_PER_ACTION
    while not state.finished:
        for prompt in state.prompts:  # a plain loop: this check runs before every step
            if prompt.blocking:
                return
        if not state.stack:
            if state.prompts:
                return  # only standing windows are open (an offer, negotiations): a normal wait
            raise EngineError(f"{state.game}: no pending step and no open decision (phase {state.phase!r})")
        step = state.stack.pop()
        handler = handlers.get(step.name)
        if handler is None:
            raise EngineError(f"no handler for step {step.name!r}")
        handler(ctx, **step.args)
        budget -= 1
        if budget == 0:
            raise EngineError("too many steps in one action: a rule loops")


class StepTable(dict):
    """Collects a plugin's step handlers: `steps = StepTable("nc")`, then `@steps("draw")`."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __call__(self, name: str):
        full = f"{self.prefix}.{name}"

        def register(fn):
            if full in self:
                raise EngineError(f"step {full!r} defined twice")
            self[full] = fn
            fn.step_name = full  # what `Ctx.push(fn)` stores: the step is named once, here
            return fn

        return register
