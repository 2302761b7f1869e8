"""A random bot that plays any game through legal actions alone.

It knows nothing of the rules: it picks a seat with an open prompt and one of that seat's
legal actions, from its own seeded `random.Random` (bot choices are not game randomness).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from core.engine import Table, create_table, legal_actions
from core.errors import EngineError


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, table: Table):
        """(seat, action) for one of the open prompts, blocking ones first."""
        state = table.state
        seats = sorted({p.seat for p in state.prompts if p.blocking}) or sorted({p.seat for p in state.prompts})
        seat = self.random.choice(seats)
        return seat, self.random.choice(legal_actions(state, seat))


@dataclass
class PlayedGame:
    table: Table
    actions: int
    invariant_errors: list[str] = field(default_factory=list)


def play_game(
    game: str,
    players: int,
    seed: int,
    modules: list[str] | None = None,
    options: dict | None = None,
    check_invariants: bool = False,
    max_actions: int = 20_000,
    after_action=None,
) -> PlayedGame:
    """Play one whole game with random bots (bot seed = game seed)."""
    table = create_table(game, players, seed=seed, modules=modules, options=options)
    bot = RandomBot(seed)
    errors: list[str] = []
    actions = 0
    while not table.state.finished:
        if actions >= max_actions:
            raise EngineError(f"game did not end within {max_actions} actions")
        seat, action = bot.choose(table)
        table.act(seat, action)
        actions += 1
        if check_invariants:
            for found in table.rules.hook.conclave_check_invariants(state=table.state):
                errors.extend(f"after action {actions}: {e}" for e in found)
        if after_action is not None:
            after_action(table, seat, action)
    return PlayedGame(table=table, actions=actions, invariant_errors=errors)
