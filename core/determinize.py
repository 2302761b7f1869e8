"""A determinization: one possible true state, as a seat that sees only its own view would
imagine it.

The search bot never plays on the real state: it plays on samples in which everything its
seat may not see (other hands, deck orders, face-down cards, held secret answers, the RNG)
has been redrawn from what the seat could not tell apart. The kernel does the generic part
(the copy, the RNG, prompt groups); each game redeals its own hidden cards through
`conclave_sample_hidden`.
"""
from __future__ import annotations

import random
from typing import Iterable

from core.plugins import Rules
from core.rng import seed_state
from core.state import TableState, copy_state

SEED_BITS = 63


def sample_hidden(rules: Rules, state: TableState, seat: int, rng: random.Random) -> TableState | None:
    """A copy of `state` whose hidden parts are redrawn with `rng`, or None when the game
    cannot sample them (no `conclave_sample_hidden`). The table's seed and RNG state are
    replaced (they predict every later shuffle and die). Answers other seats have given to
    a secret collect are dropped: their prompts are gone, so the sample waits for them,
    which a search reads as "the others have not decided yet"."""
    if not samplers_cover(rules):
        return None
    sample = copy_state(state)
    sample.seed = rng.getrandbits(SEED_BITS)
    sample.rng = seed_state(sample.seed)
    for group in sample.groups:
        if group.mode == "collect":
            group.answers = {k: v for k, v in group.answers.items() if k == str(seat)}
    if not any(rules.hook.conclave_sample_hidden(state=sample, seat=seat, rng=rng)):
        return None
    return sample


def samplers_cover(rules: Rules) -> bool:
    """Whether every enabled module redeals its own hidden parts too: a module that answers
    no `conclave_sample_hidden` (the Guildmasters deck, a Lore deck...) would leave them as the
    true state has them, so the table is not sampled at all (the search bot plays at random)."""
    answering = {rules.pm.get_name(impl.plugin) for impl in rules.hook.conclave_sample_hidden.get_hookimpls()}
    return all(f"module:{m.id}" in answering for m in rules.modules)


def redeal(rng: random.Random, places: Iterable[tuple[list, Iterable[int]]]) -> dict[str, str]:
    """Pool the cards at `places` ((zone, positions in it)), sort the pool, shuffle it and
    deal it back to the same positions; return {old card: new card} for pending data that
    named a card where it lay. Sorting first makes the deal depend on which cards are in the
    pool and on `rng` alone, never on where the true state had them."""
    places = [(zone, list(positions)) for zone, positions in places]
    pool = sorted(zone[i] for zone, positions in places for i in positions)
    rng.shuffle(pool)
    dealt = iter(pool)
    renamed: dict[str, str] = {}
    for zone, positions in places:
        for i in positions:
            new = next(dealt)
            renamed.setdefault(zone[i], new)
            zone[i] = new
    return renamed


def whole(*zones: list) -> list[tuple[list, range]]:
    """Every position of each zone, for `redeal`."""
    return [(zone, range(len(zone))) for zone in zones]


def rename_pending(state: TableState, renamed: dict[str, str]) -> None:
    """Pending steps that name a redealt card name the card now dealt to its place (the
    stack is kernel data no view shows: it may name a face-down card)."""
    if renamed:
        for step in state.stack:
            step.args = _renamed(step.args, renamed)


def _renamed(value, renamed: dict[str, str]):
    if isinstance(value, str):
        return renamed.get(value, value)
    if isinstance(value, dict):
        return {k: _renamed(v, renamed) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, renamed) for v in value]
    return value
