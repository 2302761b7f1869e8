"""A search bot for every game: flat Monte-Carlo over its seat's legal actions, on sampled
states, judged by the game's score hook.

It never plays on the true state. Each round of the search draws one determinization
(`core.determinize.sample_hidden`: what the seat cannot see, redrawn), then tries every
candidate action on a copy of it, plays a short random rollout and scores the result
(`conclave_score`: the seat's standing against the best of the others; a finished game
scores its result). The action with the best mean wins. The same rollout randomness is
used for every candidate of a round, so the candidates are compared on the same futures.

A decision costs at most its budget: CPU time (`time.process_time`) or, for a decision
that must repeat exactly (tests, benchmarks), a fixed number of engine applies. Given its
seed and a node budget, the bot's decisions are a function of the seat's view alone.
A game without a score hook or a sampler gets the random bot's choice instead.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from core.determinize import SEED_BITS, sample_hidden
from core.engine import apply, legal_actions, prompt_answers
from core.errors import ActionRejected
from core.plugins import Rules
from core.state import Action, TableState, decode_msgpack, encode_msgpack

WIN = 1000.0
MARGIN = 0.95  # of the CPU budget for the search itself: listing the actions and choosing take the rest  # a finished game's result outweighs any heuristic standing


@dataclass(frozen=True)
class Budget:
    """What one decision may spend: `cpu_ms` of CPU time, or exactly `nodes` engine
    applies when set (deterministic: the same on any machine and load)."""

    cpu_ms: float = 50.0
    nodes: int | None = None


class SearchBot:
    """Flat Monte-Carlo over a seat's legal actions on determinizations (module docstring).
    Measured against random bots: benchmarks/bot_strength.py."""

    def __init__(self, seed: int = 0, budget: Budget = Budget(), candidates: int = 10, depth: int = 3) -> None:
        self.random = random.Random(seed)
        self.budget = budget
        self.candidates = candidates  # at most this many of the legal actions are compared
        self.depth = depth            # random actions played after each candidate
        self.nodes = 0                # engine applies of the last decision (for benchmarks)

    def decide(self, rules: Rules, state: TableState, seat: int) -> Action:
        """The action this seat takes now (it must hold an open prompt)."""
        legal = legal_actions(state, seat, rules)
        self.nodes = 0
        if len(legal) == 1:
            return legal[0]
        if not can_search(rules):
            return self.random.choice(legal)
        options = legal if len(legal) <= self.candidates else self.random.sample(legal, self.candidates)
        means = self._search(rules, state, seat, options)
        if means is None:  # the game declined to sample this table
            return self.random.choice(legal)
        best = max(range(len(options)), key=lambda i: (means[i] is not None, means[i] or 0.0, -i))
        return options[best]

    def _search(self, rules: Rules, state: TableState, seat: int, options: list[Action]) -> list | None:
        started = time.process_time()
        limit = MARGIN * self.budget.cpu_ms / 1000.0
        totals = [0.0] * len(options)
        counts = [0] * len(options)
        longest = 0.0  # the dearest step so far (a sample, or a candidate's try): kept in reserve

        def spent() -> bool:
            if self.budget.nodes is not None:
                return self.nodes >= self.budget.nodes
            return time.process_time() - started + longest >= limit

        while not spent():
            t0 = time.process_time()
            sample = sample_hidden(rules, state, seat, self.random)
            if sample is None:
                return None
            # Prompts of other seats opened before the sample may list what the true state
            # hides (their hand's cards): the rollouts never answer them.
            stale = {p.id for p in sample.prompts if p.seat != seat}
            encoded = encode_msgpack(sample)
            future = self.random.getrandbits(SEED_BITS)
            longest = max(longest, time.process_time() - t0)
            for i, action in enumerate(options):
                if spent():
                    break
                t0 = time.process_time()
                value = self._try(rules, decode_msgpack(encoded, type(sample)), seat, action, stale,
                                  random.Random(future))
                longest = max(longest, time.process_time() - t0)
                if value is not None:
                    totals[i] += value
                    counts[i] += 1
            if not any(counts):  # no candidate applied on this sample: nothing to learn
                return [None] * len(options)
        return [totals[i] / counts[i] if counts[i] else None for i in range(len(options))]

    def _try(self, rules: Rules, state: TableState, seat: int, action: Action, stale: set[int],
             rng: random.Random) -> float | None:
        """The candidate's value on one sample, after a short random rollout."""
        try:
            state, _ = apply(rules, state, seat, action, in_place=True)
        except ActionRejected:
            return None
        self.nodes += 1
        for _ in range(self.depth):
            if state.finished:
                break
            open_ = [p for p in state.prompts if p.id not in stale]
            blocking = [p for p in open_ if p.blocking]
            if not blocking:
                break
            prompt = rng.choice(blocking)
            answers = prompt_answers(rules, state, prompt)
            if not answers:
                break
            try:
                state, _ = apply(rules, state, prompt.seat, rng.choice(answers), in_place=True)
            except ActionRejected:
                break
            self.nodes += 1
        return evaluate(rules, state, seat)


def evaluate(rules: Rules, state: TableState, seat: int) -> float:
    """The seat's standing: a finished game's result, else its score less the best rival's."""
    seats = range(len(state.seats))
    if state.finished:
        winners = (state.result or {}).get("winners", [])
        if seat in winners:
            return WIN / len(winners)
        return -WIN
    scores = [rules.hook.conclave_score(state=state, seat=s) for s in seats]
    rivals = [scores[s] for s in seats if s != seat]
    return scores[seat] - (max(rivals) if rivals else 0.0)


def can_search(rules: Rules) -> bool:
    """Whether the table's game gives both hooks the search needs."""
    return bool(rules.hook.conclave_score.get_hookimpls()) and bool(rules.hook.conclave_sample_hidden.get_hookimpls())
