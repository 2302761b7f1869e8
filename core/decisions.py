"""Typed decisions: a prompt that names a kind of decision instead of listing its answers.

Some choices are too large to list (which ships move from which systems, how seven hits
fall on ships and buildings). A plugin registers a `Decision` for such a kind: the shape of
an answer's parameters (a msgspec type), a validator that checks an answer against the
current state, and a generator of candidate answers for `legalActions`, bots and tests.
An answer is accepted when its parameters decode and the validator says yes, never by
equality with a stored option, so nothing goes stale when the state moves.

    decisions = DecisionTable("lab")

    @decisions.kind("split", answer="split", params=Split)
    def split(state, seat, prompt, answer): ...        # raise an ActionRejected to refuse

    @split.candidates
    def _(state, seat, prompt): yield {...}            # complete, acceptable params
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable

import msgspec

from core.errors import BadParameter, EngineError

LISTED_MAX = 200  # legalActions lists at most this many answers to one decision (documented in the API)


@dataclass
class Decision:
    name: str
    answer: str  # the action type that answers it
    params: Any  # the msgspec type its params decode to (a Struct, or a dict type)
    validate: Callable[[Any, int, Any, Any], None]
    generate: Callable[[Any, int, Any], Iterable[dict]] | None = None
    domain: Callable[[Any, int, Any], dict] | None = None  # what each parameter may range over, for clients
    listed_max: int = LISTED_MAX
    describe: str = ""

    def candidates(self, fn):
        """Decorator: the generator of complete candidate params."""
        self.generate = fn
        return fn

    def domains(self, fn):
        """Decorator: the parameter domains shown to clients."""
        self.domain = fn
        return fn

    def decode(self, params: dict) -> Any:
        """The answer's params as their declared type, or `BadParameter` naming what is wrong."""
        try:
            return msgspec.convert(params, self.params, strict=True)
        except msgspec.ValidationError as exc:
            raise BadParameter(f"{self.answer}: {exc}") from None

    def check(self, state, seat: int, prompt, params: dict) -> Any:
        answer = self.decode(params)
        self.validate(state, seat, prompt, answer)
        return answer

    def listed(self, state, seat: int, prompt) -> list[dict]:
        """Up to `listed_max` candidate params, each one the validator accepts."""
        if self.generate is None:
            return []
        return list(islice(self.generate(state, seat, prompt), self.listed_max))


class DecisionTable(dict):
    """A plugin's decision kinds, by full name (`prefix.name`); returned from `conclave_decisions`."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def kind(self, name: str, answer: str, params: Any, listed_max: int = LISTED_MAX, describe: str = ""):
        full = f"{self.prefix}.{name}"

        def register(fn) -> Decision:
            if full in self:
                raise EngineError(f"decision {full!r} defined twice")
            decision = self[full] = Decision(name=full, answer=answer, params=params, validate=fn,
                                             listed_max=listed_max, describe=describe or (fn.__doc__ or "").strip())
            return decision

        return register
