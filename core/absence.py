"""Away seats skipped, where a game's rules allow it (issue 21).

By default a server-side bot plays for a seat whose time ran out or whose player the host
marked absent (`core.clock`, `api/referee.py`). A table of a game whose rules say how the
game goes on without a player (`GameSpec.skips_absent_seats`, e.g. The Queen's Dilemma's
absences) may instead skip it (the table setting `absent_seats: "skip"`): the game's hook
`conclave_skip_seat` takes the seat out of play — its open prompts closed or handed to
whoever chooses for an absent player — and back in when its player returns. Both are parts
of the logged table actions `timeout`/`away` and `resume`, so a replay does the same.
"""
from __future__ import annotations

from typing import Callable

from core import clock
from core.flow import Ctx, run
from core.state import Event, TableState

SKIP = "skip"


def policy(state: TableState) -> str:
    """What becomes of this table's away seats: "bot" or "skip"."""
    return state.options.get("absent_seats", "bot")


def skipper(rules, state: TableState, at: int | None) -> Callable[[int, bool], list[Event] | None] | None:
    """For a table that skips away seats, what `core.clock.apply_table_action` calls when a
    seat goes away (True) or comes back (False): the game's events, or None when its rules
    do not let it skip the seat now (a bot plays it then). None for a table of bots."""
    if policy(state) != SKIP:
        return None

    def skip(seat: int, away: bool) -> list[Event] | None:
        was_running = clock.running(state)
        ctx = Ctx(state, rules)
        if not rules.hook.conclave_skip_seat(ctx=ctx, seat=seat, skipped=away) and away:
            return None
        run(ctx)  # on to the next decision: a closed prompt may have been the one the flow waited on
        clock.after_action(state, None, was_running, at)  # clocks of prompts closed or handed on
        return ctx.events

    return skip
