"""legalActions round-trip: at every point of seeded New Capital games (solo to four seats,
each module and all three), every action listed to any seat is accepted by `apply` exactly
as a client would send it back (through JSON), so a bot or a client never needs the rules."""
from __future__ import annotations

import msgspec
import pytest

from core.bot import RandomBot
from core.engine import apply, create_table, legal_actions, to_action

GAMES = [
    (1, 41, []), (1, 42, ["dilemmas", "faction-heroes"]),
    (2, 43, []), (2, 44, ["guildmasters"]), (2, 45, ["dilemmas"]),
    (3, 46, ["faction-heroes"]), (3, 47, ["guildmasters", "faction-heroes", "dilemmas"]),
    (4, 48, []), (4, 49, ["guildmasters", "faction-heroes", "dilemmas"]),
]


@pytest.mark.parametrize("players,seed,modules", GAMES)
def test_every_listed_action_is_accepted_unchanged(players, seed, modules):
    table = create_table("new-capital", players, seed=seed, modules=modules)
    bot = RandomBot(seed)
    tried = 0
    while not table.state.finished:
        state = table.state
        for seat in sorted({p.seat for p in state.prompts}):
            listed = legal_actions(state, seat, table.rules)
            assert listed, f"seat {seat} has an open prompt and nothing to answer it"
            for action in listed:
                sent = to_action(msgspec.json.decode(msgspec.json.encode(action)))
                apply(table.rules, state, seat, sent)  # raises ActionRejected if refused
                tried += 1
        table.act(*bot.choose(table))
    assert tried > 100 * players
