"""The referee: a background task in every server process that applies what the clock
decides (core/clock.py) when no request comes to do it.

Each turn it claims the tables that are due (`LiveStore.claim_due`: across every process
one caller gets each), and for each: a seat whose time is out gets its `timeout` (the seat
is taken over), then a server-side bot answers the prompts of every away seat. Each of
these is an ordinary compare-and-set commit, so whichever process applies it, it is
applied exactly once; a process that lost a race finds the newer version and judges again.
"""
from __future__ import annotations

import asyncio
import logging
import zlib

from core import clock
from core.bot import make_bot
from core.engine import legal_actions
from core.state import TableState

log = logging.getLogger("conclave.referee")
PERIOD = 0.2  # seconds between turns: a timeout lands within this much of its deadline
BOT_MOVES_PER_TURN = 25  # then the table waits for the next turn: no table holds the loop


def due_at(state: TableState) -> int | None:
    """When the referee must look at this table: now (0) when an away seat has a decision
    for the bot, else when the next running clock runs out."""
    if state.finished:
        return None
    if clock.waiting_for_bot(state):
        return 0
    return clock.deadline(state)


def bot_choice(state: TableState, seat: int, rules, table_id: str):
    """The action of the bot the table's `bot` setting names (`core.bot.make_bot`: random, or
    the search bot, which reads only the seat's own view) for an away seat. Its seed comes
    from the table and version, never from the game's RNG; whichever process's answer
    commits first is the one that counts."""
    if not legal_actions(state, seat, rules):
        return None
    seed = zlib.crc32(f"{table_id}:{state.version}:{seat}".encode())
    return make_bot(rules, state.options, seed).decide(rules, state, seat)


class Referee:
    """Runs `service.referee_turn` for due tables every `PERIOD` seconds until closed."""

    def __init__(self, service, period: float = PERIOD) -> None:
        self.service, self.period = service, period
        self._task: asyncio.Task | None = None
        self._closing = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="referee")

    async def _run(self) -> None:
        from api.service import now_ms

        while not self._closing:
            try:
                for table_id in await self.service.store.claim_due(now_ms(), 100):
                    await self.service.referee_turn(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # a store outage or one broken table must not stop every clock
                if self._closing:  # (a client library may turn the cancellation into its own error)
                    return
                log.exception("referee turn failed")
            await asyncio.sleep(self.period)

    async def close(self) -> None:
        """Stop the turns; a shutdown never waits on the referee for more than a few seconds."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            try:
                await asyncio.wait_for(self._task, 5)
            except (asyncio.CancelledError, asyncio.TimeoutError):
                pass
            except Exception:  # noqa: BLE001 - whatever the last turn raised, the server still stops
                log.exception("referee stopped with an error")
