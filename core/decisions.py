"""Typed decisions: a prompt that names a kind of decision instead of listing its answers.

Some choices are too large to list (which ships move from which systems, how seven hits
fall on ships and buildings). A plugin registers a `Decision` for such a kind: the shape of
an answer's parameters (a msgspec type), a validator that checks an answer against the
current state, and a generator of candidate answers for `legalActions`, bots and tests.
An answer is accepted when its parameters decode and the validator says yes, never by
equality with a stored option, so nothing goes stale when the state moves.

One answer type (`answer=`, `params=`): the validator gets the decoded params and the
generator yields params dicts.

    decisions = DecisionTable("lab")

    @decisions.kind("split", answer="split", params=Split)
    def split(state, seat, prompt, answer): ...        # raise an ActionRejected to refuse

    @split.candidates
    def _(state, seat, prompt): yield {...}            # complete, acceptable params

Several answer types (`answers={type: params type}`, a voting turn's vote, raise, stay and
pass): the validator also gets the action type sent, and the generator yields complete
`Action`s, in the order they are to be listed. The resume step gets the decoded params
alone, so each answer type has its own params type and the step tells them apart by it.

    @decisions.kind("turn", answers={"bid": Bid, "fold": Fold})
    def turn(state, seat, prompt, type, answer): ...

    @turn.candidates
    def _(state, seat, prompt): yield Action("fold")

`hooks=True`: the validator, generator and domains also get `hook=` (the table's plugin
hooks), for answers only the game's hooks can name (cards a module adds).
"""
from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Iterable

import msgspec

from core.errors import BadParameter, EngineError, IllegalAction
from core.state import Action

LISTED_MAX = 200  # legalActions lists at most this many answers to one decision (documented in the API)


class Decision:
    """One registered decision kind: its answer types with their params types, validator,
    candidates and domains."""

    def __init__(self, name: str, validate: Callable[..., None], answer: str = "", params: Any = None,
                 answers: dict[str, Any] | None = None, generate: Callable[..., Iterable] | None = None,
                 domain: Callable[..., dict] | None = None, listed_max: int = LISTED_MAX, describe: str = "",
                 hooks: bool = False) -> None:
        if answers is None:
            if not answer or params is None:
                raise EngineError(f"decision {name!r} needs answer= and params=, or answers=")
            answers = {answer: params}
            self.single = True  # the validator is not told the type; candidates may be params dicts
        else:
            if answer or params is not None:
                raise EngineError(f"decision {name!r}: give answer=/params= or answers=, not both")
            if not answers:
                raise EngineError(f"decision {name!r} has no answer types")
            kinds = list(answers.values())
            if any(t == u for i, t in enumerate(kinds) for u in kinds[i + 1:]):  # the resume step tells them apart by type
                raise EngineError(f"decision {name!r}: each answer type needs its own params type")
            self.single = False
        self.name = name
        self.answers = dict(answers)
        self.validate = validate
        self.generate = generate
        self.domain = domain  # what each parameter may range over, for clients
        self.listed_max = listed_max
        self.describe = describe
        self.hooks = hooks

    def __repr__(self) -> str:
        return f"Decision({self.name!r}, answers={sorted(self.answers)})"

    @property
    def answer(self) -> str:
        """The one action type that answers a single-answer decision."""
        return self._only()[0]

    @property
    def params(self) -> Any:
        """The params type of a single-answer decision."""
        return self._only()[1]

    def _only(self) -> tuple[str, Any]:
        if len(self.answers) != 1:
            raise EngineError(f"decision {self.name!r} has several answer types: read `answers`")
        return next(iter(self.answers.items()))

    def candidates(self, fn):
        """Decorator: the generator of complete candidate answers."""
        self.generate = fn
        return fn

    def domains(self, fn):
        """Decorator: the parameter domains shown to clients."""
        self.domain = fn
        return fn

    def decode(self, params: dict, type: str | None = None) -> Any:
        """The answer's params as their declared type, or `BadParameter` naming what is wrong
        (`IllegalAction` for a type that does not answer it). `type` may be left out only
        for a single-answer decision."""
        type = self.answer if type is None else type
        if type not in self.answers:
            raise IllegalAction(f"{type!r} does not answer {self.name}; its answers: {', '.join(sorted(self.answers))}")
        try:
            return msgspec.convert(params, self.answers[type], strict=True)
        except msgspec.ValidationError as exc:
            raise BadParameter(f"{type}: {exc}") from None

    def check(self, state, seat: int, prompt, params: dict, type: str | None = None, hook=None) -> Any:
        """The decoded answer, once the validator accepts it (an `ActionRejected` if not)."""
        answer = self.decode(params, type)
        extra = self._hook(hook)
        if self.single:
            self.validate(state, seat, prompt, answer, **extra)
        else:
            self.validate(state, seat, prompt, type, answer, **extra)
        return answer

    def actions(self, state, seat: int, prompt, hook=None) -> list[Action]:
        """Up to `listed_max` candidate answers as complete actions, each one the validator accepts."""
        if self.generate is None:
            return []
        found = islice(self.generate(state, seat, prompt, **self._hook(hook)), self.listed_max)
        if self.single:
            return [c if isinstance(c, Action) else Action(type=self.answer, params=c) for c in found]
        out = list(found)
        for c in out:
            if not isinstance(c, Action) or c.type not in self.answers:
                raise EngineError(f"decision {self.name!r}: a candidate must be an Action of one of its answer "
                                  f"types, not {c!r}")
        return out

    def listed(self, state, seat: int, prompt, hook=None) -> list[dict]:
        """A single-answer decision's candidates as params (`actions` gives them as actions)."""
        self._only()
        return [a.params for a in self.actions(state, seat, prompt, hook)]

    def domains_for(self, state, seat: int, prompt, hook=None) -> dict:
        return {} if self.domain is None else self.domain(state, seat, prompt, **self._hook(hook))

    def _hook(self, hook) -> dict:
        if not self.hooks:
            return {}
        if hook is None:
            raise EngineError(f"decision {self.name!r} reads the table's hooks: pass hook=rules.hook")
        return {"hook": hook}


class DecisionTable(dict):
    """A plugin's decision kinds, by full name (`prefix.name`); returned from `conclave_decisions`."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def kind(self, name: str, answer: str = "", params: Any = None, answers: dict[str, Any] | None = None,
             listed_max: int = LISTED_MAX, describe: str = "", hooks: bool = False):
        """Decorator: register the validator of decision `prefix.name` (see the module docstring)."""
        full = f"{self.prefix}.{name}"

        def register(fn) -> Decision:
            if full in self:
                raise EngineError(f"decision {full!r} defined twice")
            decision = self[full] = Decision(full, fn, answer=answer, params=params, answers=answers,
                                             listed_max=listed_max, hooks=hooks,
                                             describe=describe or (fn.__doc__ or "").strip())
            return decision

        return register
